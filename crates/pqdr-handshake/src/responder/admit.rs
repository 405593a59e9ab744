//! msg1 stages 1–4 (docs/protocol/handshake.md §5.1): parse once into a
//! [`Msg1`] view, then admit it — mac1, under load mac2 (or a cookie reply)
//! and the source bucket, SIG-mode amplification and padding. Every check
//! here costs at most BLAKE3 over the message: nothing runs a KEM before
//! [`Responder::admit`] has let the message through.

use rand_core::CryptoRng;

use super::{Reply, Responder, SOURCE_BURST, SOURCE_INTERVAL_MS};
use crate::Error;
use crate::ids::{Load, gcra};
use crate::kdf::{
    C_COOKIE, C_COOKIE_KEY, C_MAC2, C_SOURCE, Key, derive_key, digest, lp16, mac_ok, mac16,
    mac16_digest,
};
use crate::suite::{Auth, Mode, Suite};
use crate::wire::{self, COOKIE_REPLY, COOKIE_REPLY_LEN, HDR_A, Layout, MSG1};

/// A msg1 whose header, suite and length are checked (§5.1 step 1): the
/// fields are read from it by the suite's fixed offsets.
pub(super) struct Msg1<'a> {
    pub(super) msg: &'a [u8],
    pub(super) h: wire::Header,
    pub(super) suite: Suite,
    pub(super) l: Layout,
    /// `H(head)` (§3.5): mac1 and the transcript's first MixHash share it.
    pub(super) head: [u8; 32],
}

impl<'a> Msg1<'a> {
    /// §5.1 step 1: length, type, version, suite against our key (`hybrid`:
    /// our identity has an X25519 key), exact length.
    pub(super) fn parse<A: Auth>(msg: &'a [u8], hybrid: bool) -> Result<Self, Error> {
        let h = wire::header(msg, MSG1, HDR_A)?;
        let suite = Suite::parse::<A>(h.suite)?;
        if A::MODE == Mode::Kem && suite.hybrid() != hybrid {
            return Err(Error::SuiteNotAccepted);
        }
        let l = Layout::new::<A>(suite);
        if msg.len() != l.msg1_len() {
            return Err(Error::length(l.msg1_len(), msg.len()));
        }
        let mut m = Msg1 {
            msg,
            h,
            suite,
            l,
            head: [0; 32],
        };
        m.head = digest(&msg[..m.head_end()]);
        Ok(m)
    }

    /// Where the head ends (§3.5): `a` in KEM mode, mac1's offset in SIG mode.
    fn head_end(&self) -> usize {
        match self.l.mode {
            Mode::Kem => self.l.m1_enc_id().start,
            Mode::Sig => self.l.m1_mac1().start,
        }
    }

    pub(super) fn mac1(&self) -> &'a [u8] {
        &self.msg[self.l.m1_mac1()]
    }
}

impl<A: Auth, const RL: usize> Responder<A, RL> {
    /// §5.1 steps 2–4: `Ok(None)` lets the message through to the KEM work,
    /// `Ok(Some(_))` is a cookie reply written into `out`.
    pub(super) fn admit<R: CryptoRng + ?Sized>(
        &mut self,
        m: &Msg1<'_>,
        (src, load, now): (&[u8], Load, crate::Instant),
        rng: &mut R,
        out: &mut [u8],
    ) -> Result<Option<Reply>, Error> {
        let l = &m.l;
        // 2. mac1: the sender knows hpk_R.
        let rest = &m.msg[m.head_end()..l.m1_mac1().start];
        if !mac_ok(&mac16_digest(&self.mac1_key, &m.head, rest), m.mac1()) {
            return Err(Error::Mac1);
        }
        // 3. under load: a valid mac2 (else a cookie reply), then the source bucket.
        // mac2 matters only under load, or for a SIG msg2 over 3× msg1's size.
        let amplifies = A::MODE == Mode::Sig && l.msg2_len() > 3 * l.msg1_len();
        let mac2_valid = (load == Load::Under || amplifies)
            && self.mac2_valid(src, &m.msg[..l.m1_mac2().start], &m.msg[l.m1_mac2()]);
        if load == Load::Under {
            if !mac2_valid {
                return self.cookie_reply(&m.h, src, m.mac1(), rng, out).map(Some);
            }
            if !self.source_ok(src, now) {
                return Err(Error::RateLimited);
            }
        }
        // 4. SIG: never answer more than 3× the bytes without a cookie.
        if amplifies && !mac2_valid {
            return self.cookie_reply(&m.h, src, m.mac1(), rng, out).map(Some);
        }
        if out.len() < l.msg2_len() {
            return Err(Error::BufferTooSmall);
        }
        if A::MODE == Mode::Sig && m.msg[l.m1_pad()].iter().any(|&b| b != 0) {
            return Err(Error::NonZeroPadding);
        }
        Ok(None)
    }

    pub(super) fn cookie(&self, which: usize, src: &[u8]) -> [u8; 16] {
        let full = derive_key(C_COOKIE, &[&self.csecrets[which], &lp16(src), src]);
        let mut c = [0u8; 16];
        c.copy_from_slice(&full[..16]);
        c
    }

    fn mac2_valid(&self, src: &[u8], body: &[u8], mac2: &[u8]) -> bool {
        (0..2).any(|w| {
            mac_ok(
                &mac16(&derive_key(C_MAC2, &[&self.cookie(w, src)]), body),
                mac2,
            )
        })
    }

    fn cookie_reply<R: CryptoRng + ?Sized>(
        &self,
        h: &wire::Header,
        src: &[u8],
        mac1: &[u8],
        rng: &mut R,
        out: &mut [u8],
    ) -> Result<Reply, Error> {
        if out.len() < COOKIE_REPLY_LEN {
            return Err(Error::BufferTooSmall);
        }
        let out = &mut out[..COOKIE_REPLY_LEN];
        wire::write_header(out, COOKIE_REPLY, h.suite, h.sender, None);
        rng.fill_bytes(&mut out[8..24]);
        let key = Key(derive_key(C_COOKIE_KEY, &[&self.me.hpk, &out[8..24]]));
        out[24..40].copy_from_slice(&self.cookie(0, src));
        key.seal(&mut out[24..56], mac1);
        Ok(Reply::CookieReply(COOKIE_REPLY_LEN))
    }

    fn source_ok(&mut self, src: &[u8], now: crate::Instant) -> bool {
        let h = derive_key(C_SOURCE, &[&self.src_key, src]);
        let mut t = [0u8; 8];
        t.copy_from_slice(&h[..8]);
        let tag = u64::from_be_bytes(t);
        // Multiply-shift maps the tag onto RL slots without division.
        // Not secret from the network: which sources share a slot shows in
        // their rate limits (colliding sources share a bucket).
        let mut tag = tag;
        pqdr_ctgrind::hook::declassify(&mut tag);
        let i = usize::try_from((u128::from(tag) * RL as u128) >> 64).unwrap_or(0);
        let Some(slot) = self.slots.get_mut(i) else {
            return true;
        };
        if slot.tag != tag {
            // Another source owns the slot. Take it over only once its bucket
            // is full again (idle); otherwise share the bucket, so that
            // alternating two colliding sources cannot refill it.
            if slot.tat <= now.0 {
                slot.tat = 0;
            }
            slot.tag = tag;
        }
        gcra(&mut slot.tat, now.0, SOURCE_INTERVAL_MS, SOURCE_BURST)
    }
}
