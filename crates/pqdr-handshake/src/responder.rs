//! The responder (docs/protocol/handshake.md §5): answers msg1 statelessly (the biscuit
//! carries its state), filters floods with mac1 / cookies / buckets before
//! any KEM work, and commits replay state only on a valid msg3.

use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::chunk::Seal1Key;
use crate::established::{Established, MAX_APP_LABEL, Msg3};
use crate::ids::{Identity, Load, PeerStore, Tai64N};
use crate::kdf::{C_BISCUIT, C_MAC1, Chain, SIG_CTX_I, derive_key, derive_key64, mac_ok, mac16};
use crate::suite::{Auth, Mode, Suite};
use crate::wire::{self, BISCUIT_PT, HDR_B, Layout, MSG3, biscuit_ad};
use crate::{Error, Instant, Role};

mod admit;
mod respond;

use admit::Msg1;
use respond::Known;

/// Biscuit keys and cookie secrets rotate every 120 s (the previous one is kept).
pub const ROTATE_MS: u64 = 120_000;
/// Per-source bucket under load: 20 msg1/s (one token per 50 ms), burst 5.
const SOURCE_INTERVAL_MS: u64 = 50;
const SOURCE_BURST: u64 = 5;
/// Per-peer authenticated msg1 rate: 50/s (one per 20 ms).
const PEER_INTERVAL_MS: u64 = 20;

/// What `handle_msg1` wrote into `out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// msg2, this many bytes.
    Msg2(usize),
    /// A cookie reply (56 bytes): the responder is under load.
    CookieReply(usize),
}

#[derive(Clone, Copy, Default)]
struct Slot {
    tag: u64,
    tat: u64,
}

/// The responder: our identity, biscuit keys, cookie secrets and source buckets.
/// `RL` is the number of per-source bucket slots (16 bytes each).
pub struct Responder<A: Auth, const RL: usize = 256> {
    me: Identity<A>,
    mac1_key: [u8; 32],
    label: [u8; MAX_APP_LABEL],
    label_len: usize,
    instance: u64,
    biscuit_no: u64,
    bkeys: [[u8; 32]; 2],
    csecrets: [[u8; 32]; 2],
    src_key: [u8; 32],
    rotated: Instant,
    /// Biscuit keys and cookie secrets wiped after 2 × [`ROTATE_MS`] without a rotation (L9).
    wiped: bool,
    slots: [Slot; RL],
    /// k_m of the last msg2 written (its fragment key, frag.rs).
    pub(crate) last_k_m: [u8; 32],
    /// (suite, ck_0, th_0) of the last msg1: public, fixed per suite (§4.3).
    init: (u16, [u8; 32], [u8; 32]),
}

impl<A: Auth, const RL: usize> Responder<A, RL> {
    /// A responder for `me`, binding `app_label` (≤ 128 bytes, the same as the initiators').
    ///
    /// # Errors
    /// [`Error::Config`] if the label is over 128 bytes.
    pub fn new<R: CryptoRng + ?Sized>(
        me: Identity<A>,
        app_label: &[u8],
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        if app_label.len() > MAX_APP_LABEL {
            return Err(Error::Config);
        }
        let mut label = [0u8; MAX_APP_LABEL];
        label[..app_label.len()].copy_from_slice(app_label);
        let mut s = Responder {
            mac1_key: derive_key(C_MAC1, &[&me.hpk]),
            me,
            label,
            label_len: app_label.len(),
            instance: rng.next_u64(),
            biscuit_no: 0,
            bkeys: [[0; 32]; 2],
            csecrets: [[0; 32]; 2],
            src_key: [0; 32],
            rotated: now,
            wiped: false,
            slots: [Slot::default(); RL],
            last_k_m: [0; 32],
            init: (0, [0; 32], [0; 32]),
        };
        let keys = s.bkeys.iter_mut().chain(&mut s.csecrets);
        for k in keys.chain([&mut s.src_key]) {
            rng.fill_bytes(k);
        }
        Ok(s)
    }

    /// Rotates the biscuit keys and cookie secrets every 120 s (call at
    /// [`Responder::poll_timeout`], from a timer). A biscuit lives at most
    /// 240 s: if no rotation came for 240 s, both keys and both secrets are
    /// wiped at the next message ([`Error::RotationOverdue`] until this call
    /// draws new ones).
    pub fn handle_timeout<R: CryptoRng + ?Sized>(&mut self, now: Instant, rng: &mut R) {
        if now < self.rotated.plus(ROTATE_MS) {
            return;
        }
        if self.wiped || now >= self.rotated.plus(2 * ROTATE_MS) {
            // The current key is itself over 240 s old: neither is kept.
            for k in self.bkeys.iter_mut().chain(self.csecrets.iter_mut()) {
                rng.fill_bytes(k);
            }
            self.wiped = false;
        } else {
            self.bkeys[1] = self.bkeys[0];
            self.csecrets[1] = self.csecrets[0];
            rng.fill_bytes(&mut self.bkeys[0]);
            rng.fill_bytes(&mut self.csecrets[0]);
        }
        self.rotated = now;
    }

    /// docs/protocol/handshake.md §5 (biscuit keys live ≤ 240 s), issue #33 L9: an
    /// application that stops calling [`Responder::handle_timeout`] must not
    /// keep its biscuit keys and cookie secrets alive. After 2 × [`ROTATE_MS`]
    /// without a rotation they are wiped (zeroized, never used as keys) and
    /// every handshake message is refused until the next rotation.
    fn check_rotation(&mut self, now: Instant) -> Result<(), Error> {
        if !self.wiped && now >= self.rotated.plus(2 * ROTATE_MS) {
            self.bkeys.zeroize();
            self.csecrets.zeroize();
            self.wiped = true;
        }
        if self.wiped {
            return Err(Error::RotationOverdue);
        }
        Ok(())
    }

    /// When [`Responder::handle_timeout`] next has work.
    pub fn poll_timeout(&self) -> Instant {
        self.rotated.plus(ROTATE_MS)
    }

    /// Our identity.
    pub fn identity(&self) -> &Identity<A> {
        &self.me
    }

    /// Answers msg1 (docs/protocol/handshake.md §5 steps 1–6): msg2 or a cookie reply in `out`.
    /// Nothing about the attempt is stored: its state travels in the biscuit.
    ///
    /// # Errors
    /// A typed error for every malformed, unauthentic, stale or rate-limited
    /// msg1; only the rate-limit buckets change on failure (and
    /// [`Error::RotationOverdue`] wipes the keys of a responder not rotated for 240 s).
    #[allow(clippy::too_many_arguments)]
    pub fn handle_msg1<R: CryptoRng + ?Sized>(
        &mut self,
        peers: &mut impl PeerStore<A>,
        src: &[u8],
        msg: &[u8],
        load: Load,
        now: Instant,
        rng: &mut R,
        out: &mut [u8],
    ) -> Result<Reply, Error> {
        self.check_rotation(now)?;
        // Stages 1–4, cheapest first (§5.1): parse, then mac1, mac2 / cookie,
        // buckets and the SIG amplification rule (admit.rs).
        let m = Msg1::parse::<A>(msg, self.me.x_secret.is_some())?;
        if let Some(reply) = self.admit(&m, (src, load, now), rng, out)? {
            return Ok(reply);
        }
        let out = &mut out[..m.l.msg2_len()];
        if self.init.0 != m.suite.id() {
            let c = Chain::init(m.suite.id(), &self.me.hpk, &self.label[..self.label_len]);
            self.init = (m.suite.id(), c.ck, c.th);
        }
        let mut chain = Chain::from_init(self.init.1, self.init.2);
        // Stage 5, KEM mode: decapsulate, then who is it, is it fresh? (respond.rs)
        let known = if A::MODE == Mode::Kem {
            let hpk_i = self.open_id(&m, &mut chain)?;
            self.open_ts(peers, &m, &mut chain, hpk_i, now)?
        } else {
            chain.mix_hash(&[&m.head]);
            Known::default()
        };
        let k_m = chain.key(b'm');
        // Stage 6: msg2.
        let (idx_r, head) = self.encapsulate(peers, &m, &mut chain, &known, rng, out)?;
        Ok(self.seal_biscuit(&m, &chain, &known, (idx_r, head, k_m), rng, out))
    }

    /// Takes msg3: opens the biscuit, authenticates the initiator, commits
    /// the replay record and returns the session.
    ///
    /// # Errors
    /// A typed error for every malformed, unauthentic or replayed msg3
    /// ([`Error::Duplicate`] for the same msg3 again); nothing changes then
    /// but for [`Error::RotationOverdue`], as in [`Responder::handle_msg1`].
    pub fn handle_msg3(
        &mut self,
        peers: &mut impl PeerStore<A>,
        src: &[u8],
        msg: &[u8],
        load: Load,
        now: Instant,
    ) -> Result<Established, Error> {
        // A valid biscuit proves return routability: no cookie needed here.
        let _ = (src, load);
        self.check_rotation(now)?;
        let h = wire::header(msg, MSG3, HDR_B)?;
        let suite = Suite::parse::<A>(h.suite)?;
        if A::MODE == Mode::Kem && suite.hybrid() != self.me.x_secret.is_some() {
            return Err(Error::SuiteNotAccepted);
        }
        let l = Layout::new::<A>(suite);
        let id_len = l.msg3_id_len(msg.len())?;
        let mac_at = msg.len() - 16;
        if !mac_ok(&mac16(&self.mac1_key, &msg[..mac_at]), &msg[mac_at..]) {
            return Err(Error::Mac1);
        }
        // The biscuit: current key, then the previous one.
        let b = &msg[l.m3_biscuit()];
        let ad = biscuit_ad(suite.id(), h.sender, h.receiver, &self.me.hpk);
        let mut pt = [0u8; BISCUIT_PT + 16];
        let opened = self.bkeys.iter().any(|bk| {
            pt.copy_from_slice(&b[16..]);
            Seal1Key::from_output(derive_key64(C_BISCUIT, &[bk, &b[..16]]))
                .open(&mut pt, &ad)
                .is_ok()
        });
        if !opened {
            pt.zeroize();
            return Err(Error::BiscuitInvalid);
        }
        // Public to us: biscuit_no, hpk_I, ts (checked against the record)
        // and th (hashes of sent bytes); ck stays secret.
        pqdr_ctgrind::hook::declassify(&mut pt[..52]);
        pqdr_ctgrind::hook::declassify(&mut pt[84..116]);
        let mut n8 = [0u8; 8];
        n8.copy_from_slice(&pt[..8]);
        let no = u64::from_be_bytes(n8);
        let mut hpk_i = [0u8; 32];
        hpk_i.copy_from_slice(&pt[8..40]);
        let mut tsb = [0u8; 12];
        tsb.copy_from_slice(&pt[40..52]);
        let mut ts = Tai64N::from_bytes(&tsb);
        let mut ck = [0u8; 32];
        let mut th = [0u8; 32];
        ck.copy_from_slice(&pt[52..84]);
        th.copy_from_slice(&pt[84..116]);
        pt.zeroize();
        let mut chain = Chain::resume(ck, th);
        ck.zeroize();
        chain.mix_hash(&[&msg[..HDR_B]]);
        let k4 = chain.key(b'4');
        let c = l.m3_conf(id_len);
        // KEM mode: conf_I = KH(k4, th)[0..16] (§4.4 step 6), no buffer to
        // open into; SIG mode: enc_I opens into a scratch buffer.
        let mut big: [u8; 1 + wire::VK_MAX + 12 + wire::SIG_MAX + 16];
        let (enc, mut verdict): (&mut [u8], _) = if A::MODE == Mode::Kem {
            let ok = mac_ok(&k4.confirm(&chain.th), &msg[c.clone()]);
            (&mut [], if ok { Ok(()) } else { Err(Error::Decrypt) })
        } else {
            big = [0; 1 + wire::VK_MAX + 12 + wire::SIG_MAX + 16];
            let enc = &mut big[..c.len()];
            enc.copy_from_slice(&msg[c.clone()]);
            let verdict = k4.open(enc, &chain.th);
            if verdict.is_ok() {
                // Public to us: kind, id and ts are checked, sig_I is verified.
                pqdr_ctgrind::hook::declassify(&mut *enc);
            }
            (enc, verdict)
        };
        // kind 1's verifying key (SIG mode; empty, nothing to clear, in KEM mode).
        let mut vk_buf = A::VK_BUF;
        if A::MODE == Mode::Sig && verdict.is_ok() {
            // kind ‖ id ‖ ts ‖ sig_I
            match (enc[0], id_len) {
                (0, 32) => hpk_i.copy_from_slice(&enc[1..33]),
                (1, n) if n == A::VK_LEN => {
                    AsMut::<[u8]>::as_mut(&mut vk_buf).copy_from_slice(&enc[1..1 + n]);
                    hpk_i = crate::ids::key_id(A::ALG, &enc[1..1 + n], None);
                }
                (k, _) => verdict = Err(Error::length(l.msg3_len_of_kind(k), msg.len())),
            }
            tsb.copy_from_slice(&enc[1 + id_len..13 + id_len]);
            ts = Tai64N::from_bytes(&tsb);
        }
        if A::MODE == Mode::Sig {
            // SIG mode: the initiator's id is inside enc_I, so it must open first.
            verdict?;
        }
        let (hybrid_ok, compact_ok) = {
            let peer = peers.lookup(&hpk_i).ok_or(Error::UnknownPeer)?;
            (
                peer.hybrid == suite.hybrid(),
                suite.ephemeral() == crate::Ephemeral::MlKem768 || peer.compact,
            )
        };
        let rec_view = *peers.record(&hpk_i).ok_or(Error::UnknownPeer)?;
        if rec_view.instance == self.instance && no < rec_view.last_biscuit_no {
            return Err(Error::BiscuitReplay);
        }
        verdict?;
        if !hybrid_ok || !compact_ok {
            return Err(Error::SuiteNotAccepted);
        }
        if rec_view.instance == self.instance && no == rec_view.last_biscuit_no {
            return Err(Error::Duplicate);
        }
        if ts <= rec_view.last_ts {
            return Err(Error::StaleTimestamp);
        }
        if A::MODE == Mode::Sig {
            let sig = &enc[13 + id_len..enc.len() - 16];
            let msg_i: [&[u8]; 3] = [&chain.th, &hpk_i, &tsb];
            let ok = if id_len == 32 {
                // kind 0: the peer store's parsed key (no re-parse per handshake).
                let peer = peers.lookup(&hpk_i).ok_or(Error::UnknownPeer)?;
                A::verify_with(peer.pk, &msg_i, SIG_CTX_I, sig)
            } else {
                A::verify(AsRef::<[u8]>::as_ref(&vk_buf), &msg_i, SIG_CTX_I, sig)
            };
            if !ok {
                return Err(Error::Signature);
            }
        }
        chain.mix_hash(&[&msg[c]]);
        // Commit.
        let rec = peers.record(&hpk_i).ok_or(Error::UnknownPeer)?;
        rec.last_ts = rec.last_ts.max(ts);
        rec.last_biscuit_no = no;
        rec.instance = self.instance;
        let mut est = Established::new(
            Role::Responder,
            suite,
            self.me.hpk,
            hpk_i,
            h.receiver,
            h.sender,
            // The responder sends no msg3: no buffer to clear.
            Msg3::None,
        );
        est.finish(&chain, &self.label[..self.label_len], 0);
        #[cfg(feature = "test-utils")]
        {
            est.trace = core::mem::take(&mut chain.trace);
        }
        Ok(est)
    }
}

impl<A: Auth, const RL: usize> Drop for Responder<A, RL> {
    fn drop(&mut self) {
        self.bkeys.zeroize();
        self.csecrets.zeroize();
        self.src_key.zeroize();
        self.last_k_m.zeroize();
    }
}

impl<A: Auth, const RL: usize> core::fmt::Debug for Responder<A, RL> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Responder")
            .field("key_id", &self.me.hpk)
            .field("biscuits", &self.biscuit_no)
            .finish_non_exhaustive()
    }
}

/// Test-only: fixed biscuit keys and cookie secrets (vectors).
#[cfg(feature = "test-utils")]
impl<A: Auth, const RL: usize> Responder<A, RL> {
    /// Sets the current biscuit key and cookie secret (vectors only).
    pub fn set_secrets_for_test(&mut self, bkey: [u8; 32], csecret: [u8; 32]) {
        self.bkeys[0] = bkey;
        self.csecrets[0] = csecret;
        self.wiped = false;
    }
    /// A hash of every field except the source buckets (test-only): equal
    /// snapshots mean a bit-identical state apart from rate limiting.
    pub fn snapshot(&self) -> [u8; 32] {
        let mut h = blake3::Hasher::new();
        h.update(&self.me.hpk);
        h.update(&self.mac1_key);
        h.update(&self.label[..self.label_len]);
        h.update(&self.instance.to_be_bytes());
        h.update(&self.biscuit_no.to_be_bytes());
        for k in self.bkeys.iter().chain(self.csecrets.iter()) {
            h.update(k);
        }
        h.update(&self.src_key);
        h.update(&self.rotated.0.to_be_bytes());
        h.update(&[u8::from(self.wiped)]);
        *h.finalize().as_bytes()
    }

    /// A hash of the source buckets (test-only).
    pub fn buckets_snapshot(&self) -> [u8; 32] {
        let mut h = blake3::Hasher::new();
        for s in &self.slots {
            h.update(&s.tag.to_be_bytes());
            h.update(&s.tat.to_be_bytes());
        }
        *h.finalize().as_bytes()
    }

    /// The cookie for `src` (current secret).
    pub fn cookie_for_test(&self, src: &[u8]) -> [u8; 16] {
        self.cookie(0, src)
    }
}
