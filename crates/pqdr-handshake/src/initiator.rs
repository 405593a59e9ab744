//! The initiator's state machine (docs/protocol/handshake.md §4, §5, §8): builds msg1,
//! resends it, takes a cookie reply, and turns msg2 into an [`Established`]
//! session plus msg3.

use rand_core::{CryptoRng, Rng as _};
use zeroize::Zeroize;

use crate::established::{Established, MAX_APP_LABEL, Msg3};
use crate::ids::{Identity, Peer, Tai64N};
use crate::kdf::{
    C_COOKIE_KEY, C_MAC1, C_MAC2, Chain, Key, SIG_CTX_I, SIG_CTX_R, coins, coins32, derive_key,
    digest, mac_ok, mac16, mac16_digest,
};
use crate::suite::{Auth, EphKey, Ephemeral, Mode, Suite};
use crate::wire::{
    self, COOKIE_REPLY, COOKIE_REPLY_LEN, HDR_A, HDR_B, Layout, MSG1, MSG1_BUF, MSG2, MSG3,
    MSG3_MAX,
};
use crate::{Error, Instant, Role, x25519};

/// Resend schedule of msg1 (docs/protocol/handshake.md §5): 1, 2, 4 s after the first send.
const RESEND_MS: [u64; 3] = [1_000, 2_000, 4_000];
/// A new attempt (ek_E, ts, index) after 8 s.
pub const RENEW_MS: u64 = 8_000;
/// The whole handshake gives up after 90 s.
pub const GIVE_UP_MS: u64 = 90_000;
/// A cookie is used for 115 s.
pub const COOKIE_LIFE_MS: u64 = 115_000;

/// A cookie from a responder's cookie reply (docs/protocol/handshake.md §5), valid for
/// 115 s. It belongs to the (responder, source address) pair, not to one
/// attempt: carry it into the next attempt to the same responder with
/// [`Initiator::set_cookie`] (WireGuard keeps it per peer the same way).
#[derive(Clone, Copy)]
pub struct Cookie {
    value: [u8; 16],
    expires: Instant,
}

impl Cookie {
    /// When the cookie stops being used.
    pub fn expires(&self) -> Instant {
        self.expires
    }
}

impl core::fmt::Debug for Cookie {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cookie")
            .field("expires", &self.expires)
            .finish_non_exhaustive()
    }
}

/// What the initiator needs to reach one responder.
pub struct InitiatorConfig<'a, A: Auth> {
    /// The responder: its public key, X25519 key (KEM `-X`), psk, hybrid policy.
    pub peer: Peer<'a, A>,
    /// The application label both sides bind into th_0 (≤ 128 bytes).
    pub app_label: &'a [u8],
    /// The ephemeral KEM: ML-KEM-768, or ML-KEM-512 for KMc-c.
    pub ephemeral: Ephemeral,
}

impl<'a, A: Auth> InitiatorConfig<'a, A> {
    /// The default suite for this peer (ML-KEM-768 ephemeral).
    pub fn new(peer: Peer<'a, A>, app_label: &'a [u8]) -> Self {
        InitiatorConfig {
            peer,
            app_label,
            ephemeral: Ephemeral::MlKem768,
        }
    }
}

impl<A: Auth> core::fmt::Debug for InitiatorConfig<'_, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("InitiatorConfig")
            .field("peer", &self.peer)
            .field("ephemeral", &self.ephemeral)
            .finish()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    AwaitMsg2,
    Done,
}

/// One handshake attempt from the side that sends msg1 (fixed size).
pub struct Initiator<A: Auth> {
    state: State,
    suite: Suite,
    layout: Layout,
    idx: u32,
    hpk_r: [u8; 32],
    hpk_i: [u8; 32],
    /// `DK(C_MAC1, hpk_R)` (public): the mac1 key of msg1 and msg3.
    mac1_key: [u8; 32],
    /// vk_R (SIG mode; empty in KEM mode).
    r_vk: A::VkBuf,
    eph: Option<EphKey>,
    x_eph: [u8; 32],
    chain: Chain,
    k_m: [u8; 32],
    ts: Tai64N,
    msg1: [u8; MSG1_BUF],
    cookie: Option<Cookie>,
    started: Instant,
    created: Instant,
    next_send: Option<Instant>,
    sends: u8,
    jitter: u32,
    label: [u8; MAX_APP_LABEL],
    label_len: usize,
    _a: core::marker::PhantomData<A>,
}

impl<A: Auth> Initiator<A> {
    /// Starts an attempt: draws the ephemeral key and builds msg1.
    ///
    /// `clock` is the wall clock, `last_sent` the last timestamp this identity
    /// sent (persisted); the attempt's timestamp is `max(clock, last_sent + 1 ns)`:
    /// persist [`Initiator::sent_timestamp`] before sending.
    ///
    /// # Errors
    /// [`Error::Config`] for a hybrid mismatch between us and the peer, an
    /// ephemeral the suite does not allow, or a label over 128 bytes;
    /// [`Error::LowOrderPoint`] for a peer X25519 key of low order.
    pub fn start<R: CryptoRng + ?Sized>(
        cfg: &InitiatorConfig<'_, A>,
        me: &Identity<A>,
        clock: Tai64N,
        last_sent: Tai64N,
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        let hybrid = cfg.peer.hybrid;
        if cfg.app_label.len() > MAX_APP_LABEL
            || (A::MODE == Mode::Kem
                && (me.x_secret.is_some() != hybrid || cfg.peer.x_public.is_some() != hybrid))
        {
            return Err(Error::Config);
        }
        let suite = Suite::new::<A>(hybrid, cfg.ephemeral)?;
        let layout = Layout::new::<A>(suite);
        let ts = if clock > last_sent {
            clock
        } else {
            last_sent.next()
        };

        let idx = rng.next_u32();
        let mut seed = [0u8; 64];
        coins(&me.sigma, b'e', rng).fill_bytes(&mut seed);
        let mut label = [0u8; MAX_APP_LABEL];
        label[..cfg.app_label.len()].copy_from_slice(cfg.app_label);
        // Issue #33 I1: the attempt is built first and its secrets (dk_E, ck,
        // the X25519 scalar, k_m) are computed in its own fields, not in
        // locals moved into it at the end (a move leaves the old bytes behind).
        // On an error it drops, and its Drop erases them.
        let mut s = Initiator {
            state: State::AwaitMsg2,
            suite,
            layout,
            idx,
            hpk_r: cfg.peer.hpk,
            hpk_i: me.hpk,
            mac1_key: derive_key(C_MAC1, &[&cfg.peer.hpk]),
            r_vk: A::VK_BUF,
            eph: Some(EphKey::generate(suite.ephemeral(), &seed)),
            x_eph: [0u8; 32],
            chain: Chain::init(suite.id(), &cfg.peer.hpk, cfg.app_label),
            k_m: [0u8; 32],
            ts,
            msg1: [0u8; MSG1_BUF],
            cookie: None,
            started: now,
            created: now,
            next_send: Some(now),
            sends: 0,
            jitter: 0,
            label,
            label_len: cfg.app_label.len(),
            _a: core::marker::PhantomData,
        };
        seed.zeroize();

        let msg1 = &mut s.msg1;
        wire::write_header(msg1, MSG1, suite.id(), idx, None);
        if let Some(eph) = &s.eph {
            msg1[layout.m1_ek()].copy_from_slice(eph.ek());
        }
        let mut ss = [0u8; 32];
        if A::MODE == Mode::Kem {
            let mut coins = coins(&me.sigma, b'r', rng);
            A::encapsulate(cfg.peer.pk, &mut coins, &mut msg1[layout.m1_ct()], &mut ss);
        }
        if hybrid {
            coins(&me.sigma, b'x', rng).fill_bytes(&mut s.x_eph);
            msg1[layout.m1_x()].copy_from_slice(&x25519::public(&s.x_eph));
        }
        s.jitter = rng.next_u32();
        // Public: ek_E, ct_R and X_I are sent (th hashes them).
        pqdr_ctgrind::hook::declassify(&mut msg1[HDR_A..layout.m1_x().end]);

        let chain = &mut s.chain;
        // §3.5: msg1 is hashed once; H(head) feeds the transcript and mac1.
        let head_end = match A::MODE {
            Mode::Kem => layout.m1_enc_id().start,
            Mode::Sig => layout.m1_mac1().start,
        };
        let head = digest(&msg1[..head_end]);
        match A::MODE {
            Mode::Kem => {
                // docs/protocol/handshake.md §4 KEM mode, steps 1–3.
                chain.mix_hash(&[&head]);
                chain.mix(b'R', &ss);
                ss.zeroize();
                let xs_r = cfg.peer.x_public.unwrap_or([0; 32]);
                if hybrid {
                    chain.mix_dh(b'a', &s.x_eph, &xs_r)?;
                }
                let k1 = chain.key64(b'1');
                let enc_id = &mut msg1[layout.m1_enc_id()];
                enc_id[..32].copy_from_slice(&me.hpk);
                k1.seal(enc_id, &chain.th);
                chain.mix_hash(&[&msg1[layout.m1_enc_id()]]);
                chain.mix(b'P', cfg.peer.psk.as_ref().unwrap_or(&[0; 32]));
                if hybrid {
                    chain.mix_dh(b'b', me.x_secret.as_ref().unwrap_or(&[0; 32]), &xs_r)?;
                }
                let k2 = chain.key64(b'2');
                let enc_ts = &mut msg1[layout.m1_enc_ts()];
                enc_ts[..12].copy_from_slice(&ts.to_bytes());
                k2.seal(enc_ts, &chain.th);
                chain.mix_hash(&[&msg1[layout.m1_enc_ts()]]);
            }
            Mode::Sig => {
                // SIG mode: th binds hdrA ‖ ek_E [‖ X_I] ‖ pad; k_m is public.
                chain.mix_hash(&[&head]);
            }
        }
        s.k_m = chain.key(b'm').0;
        let m1 = mac16_digest(&s.mac1_key, &head, &msg1[head_end..layout.m1_mac1().start]);
        msg1[layout.m1_mac1()].copy_from_slice(&m1);

        if A::MODE == Mode::Sig {
            let vk = A::public_bytes(cfg.peer.pk);
            AsMut::<[u8]>::as_mut(&mut s.r_vk).copy_from_slice(vk);
        }
        Ok(s)
    }

    /// A new attempt (new ek_E, timestamp and index) for the same peer,
    /// keeping the cookie and the 90-second deadline (docs/protocol/handshake.md §5: renew at 8 s).
    ///
    /// # Errors
    /// As [`Initiator::start`], and [`Error::Timeout`] after 90 s.
    pub fn renew<R: CryptoRng + ?Sized>(
        &mut self,
        cfg: &InitiatorConfig<'_, A>,
        me: &Identity<A>,
        clock: Tai64N,
        last_sent: Tai64N,
        now: Instant,
        rng: &mut R,
    ) -> Result<(), Error> {
        if now.0 >= self.started.0.saturating_add(GIVE_UP_MS) {
            return Err(Error::Timeout);
        }
        let mut next = Initiator::start(cfg, me, clock, last_sent, now, rng)?;
        next.started = self.started;
        if self.suite == next.suite {
            next.cookie = self.cookie;
            next.refresh_mac2(now);
        }
        // Issue #33 I1: swap rather than move, so the local that held the new
        // attempt ends holding the old one, whose Drop erases it (a move
        // would leave a copy of the new dk_E, ck and k_m in the local).
        core::mem::swap(self, &mut next);
        drop(next);
        Ok(())
    }

    /// The timestamp in msg1: persist it as `last_sent` before sending.
    pub fn sent_timestamp(&self) -> Tai64N {
        self.ts
    }

    /// Our sender index (msg2 and cookie replies carry it).
    pub fn index(&self) -> u32 {
        self.idx
    }

    /// The suite of this attempt.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// hpk_R, and k_m while msg2 is awaited: the fragment keys (frag.rs).
    pub(crate) fn responder_key_id(&self) -> &[u8; 32] {
        &self.hpk_r
    }
    pub(crate) fn msg2_mac_key(&self) -> Option<&[u8; 32]> {
        (self.state == State::AwaitMsg2).then_some(&self.k_m)
    }

    /// msg1, if it is due now (first send, then resends at 1, 2, 4 s ±25 %).
    /// Returns its length in `out`; `None` if nothing is due or `out` is too small.
    pub fn poll_transmit(&mut self, now: Instant, out: &mut [u8]) -> Option<usize> {
        let due = self.next_send?;
        let n = self.layout.msg1_len();
        if self.state != State::AwaitMsg2 || now < due || out.len() < n || self.expired(now) {
            return None;
        }
        out[..n].copy_from_slice(&self.msg1[..n]);
        self.next_send = RESEND_MS.get(usize::from(self.sends)).map(|&base| {
            // ±25 % jitter from the per-attempt draw: factor (768 + 2b) / 1024, b ∈ [0, 255].
            let b = u64::from((self.jitter >> (8 * u32::from(self.sends))) & 0xFF);
            now.plus((base * (768 + 2 * b)) >> 10)
        });
        self.sends = self.sends.saturating_add(1);
        Some(n)
    }

    /// The next instant something happens: a resend, the renewal (8 s) or the give-up (90 s).
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.state != State::AwaitMsg2 {
            return None;
        }
        let renew = self.created.plus(RENEW_MS);
        let give_up = self.started.plus(GIVE_UP_MS);
        let t = renew.min(give_up);
        Some(self.next_send.map_or(t, |s| s.min(t)))
    }

    /// True once 8 s have passed without msg2: call [`Initiator::renew`].
    pub fn needs_renewal(&self, now: Instant) -> bool {
        self.state == State::AwaitMsg2 && now >= self.created.plus(RENEW_MS) && !self.expired(now)
    }

    /// True after 90 s without completion: drop the attempt.
    pub fn expired(&self, now: Instant) -> bool {
        now >= self.started.plus(GIVE_UP_MS)
    }

    fn refresh_mac2(&mut self, now: Instant) {
        let l = self.layout;
        let mac2 = match self.cookie {
            Some(c) if now < c.expires => mac16(
                &derive_key(C_MAC2, &[&c.value]),
                &self.msg1[..l.m1_mac2().start],
            ),
            _ => [0; 16],
        };
        self.msg1[l.m1_mac2()].copy_from_slice(&mac2);
    }

    /// The cookie this attempt holds, if any (to carry into the next attempt).
    pub fn cookie(&self) -> Option<Cookie> {
        self.cookie
    }

    /// Uses a cookie from an earlier attempt to the same responder: msg1's
    /// mac2 is recomputed (msg1's body is unchanged) and msg1 is due at once.
    /// An expired cookie is ignored.
    pub fn set_cookie(&mut self, cookie: Cookie, now: Instant) {
        if now < cookie.expires && self.state == State::AwaitMsg2 {
            self.cookie = Some(cookie);
            self.refresh_mac2(now);
            self.next_send = Some(now);
        }
    }

    /// Takes a cookie reply (docs/protocol/handshake.md §3): msg1 gets a mac2 and is resent at once.
    ///
    /// # Errors
    /// A typed error for a malformed or unauthentic reply; the state is unchanged.
    pub fn handle_cookie_reply(&mut self, msg: &[u8], now: Instant) -> Result<(), Error> {
        if msg.len() != COOKIE_REPLY_LEN {
            return Err(Error::length(COOKIE_REPLY_LEN, msg.len()));
        }
        let h = wire::header(msg, COOKIE_REPLY, HDR_A)?;
        if self.state != State::AwaitMsg2 {
            return Err(Error::WrongState);
        }
        if h.suite != self.suite.id() {
            return Err(Error::SuiteNotAccepted);
        }
        if h.sender != self.idx {
            return Err(Error::UnknownIndex);
        }
        let key = Key(derive_key(C_COOKIE_KEY, &[&self.hpk_r, &msg[8..24]]));
        let mut sealed = [0u8; 32];
        sealed.copy_from_slice(&msg[24..56]);
        key.open(&mut sealed, &self.msg1[self.layout.m1_mac1()])
            .map_err(|_| Error::Mac1)?;
        let mut cookie = [0u8; 16];
        cookie.copy_from_slice(&sealed[..16]);
        self.cookie = Some(Cookie {
            value: cookie,
            expires: now.plus(COOKIE_LIFE_MS),
        });
        self.refresh_mac2(now);
        self.next_send = Some(now);
        Ok(())
    }

    /// Takes msg2: authenticates the responder, derives the session and msg3.
    ///
    /// # Errors
    /// A typed error for any malformed or unauthentic msg2; the state is then
    /// unchanged, so a forged msg2 cannot kill the attempt.
    pub fn handle_msg2<R: CryptoRng + ?Sized>(
        &mut self,
        msg: &[u8],
        me: &Identity<A>,
        now: Instant,
        rng: &mut R,
    ) -> Result<Established, Error> {
        let l = self.layout;
        let h = wire::header(msg, MSG2, HDR_B)?;
        if self.state != State::AwaitMsg2 {
            return Err(Error::WrongState);
        }
        if self.expired(now) {
            return Err(Error::Timeout);
        }
        if h.suite != self.suite.id() {
            return Err(Error::SuiteNotAccepted);
        }
        if msg.len() != l.msg2_len() {
            return Err(Error::length(l.msg2_len(), msg.len()));
        }
        if h.receiver != self.idx {
            return Err(Error::UnknownIndex);
        }
        // §3.5: msg2 is hashed once; H(head) serves mac1 and the transcript.
        let head = digest(&msg[..l.m2_conf().start]);
        let rest = &msg[l.m2_conf().start..l.m2_mac1().start];
        if !mac_ok(&mac16_digest(&self.k_m, &head, rest), &msg[l.m2_mac1()]) {
            return Err(Error::Mac1);
        }
        let hybrid = self.suite.hybrid();
        let mut chain = self.chain.clone();
        let mut ss = [0u8; 32];
        let mut est = Established::new(
            Role::Initiator,
            self.suite,
            self.hpk_r,
            self.hpk_i,
            self.idx,
            h.sender,
            // Only the buffer this mode's msg3 needs is cleared.
            match A::MODE {
                Mode::Kem => Msg3::Kem([0; wire::MSG3_KEM]),
                Mode::Sig => Msg3::Sig([0; MSG3_MAX]),
            },
        );
        let idx_r = h.sender;
        let mut hdr3 = [0u8; HDR_B];
        wire::write_header(&mut hdr3, MSG3, self.suite.id(), self.idx, Some(idx_r));
        match A::MODE {
            Mode::Kem => {
                // docs/protocol/handshake.md §4 KEM mode, steps 4–6.
                chain.mix_hash(&[&head]);
                if let Some(e) = &self.eph {
                    e.decapsulate(&msg[l.m2_ct_e()], &mut ss);
                }
                chain.mix(b'E', &ss);
                A::decapsulate(&me.sk, &msg[l.m2_ct_i()], &mut ss);
                chain.mix(b'I', &ss);
                ss.zeroize();
                if hybrid {
                    let x_r = &msg[l.m2_x()];
                    chain.mix_dh(b'c', &self.x_eph, x_r)?;
                    chain.mix_dh(b'd', me.x_secret.as_ref().unwrap_or(&[0; 32]), x_r)?;
                }
                // conf_R = KH(k3, th)[0..16] (§4.4 step 5); a mismatch is `Decrypt`.
                let k3 = chain.key(b'3');
                if !mac_ok(&k3.confirm(&chain.th), &msg[l.m2_conf()]) {
                    return Err(Error::Decrypt);
                }
                chain.mix_hash(&[&msg[l.m2_conf()]]);
                // msg3 = hdrB ‖ biscuit ‖ conf_I ‖ mac1.
                chain.mix_hash(&[&hdr3]);
                let k4 = chain.key(b'4');
                let out = est.msg3_buf();
                out[..HDR_B].copy_from_slice(&hdr3);
                out[l.m3_biscuit()].copy_from_slice(&msg[l.m2_biscuit()]);
                // conf_I = KH(k4, th)[0..16] (§4.4 step 6).
                let c = l.m3_conf(32);
                out[c.clone()].copy_from_slice(&k4.confirm(&chain.th));
                // Public: conf_I is sent.
                pqdr_ctgrind::hook::declassify(&mut out[c.clone()]);
                chain.mix_hash(&[&out[c]]);
            }
            Mode::Sig => {
                chain.mix_hash(&[&head]);
                if let Some(e) = &self.eph {
                    e.decapsulate(&msg[l.m2_ct_e()], &mut ss);
                }
                chain.mix(b'E', &ss);
                ss.zeroize();
                if hybrid {
                    chain.mix_dh(b'c', &self.x_eph, &msg[l.m2_x()])?;
                }
                let k3 = chain.key(b'3');
                let mut enc_r = [0u8; wire::SIG_MAX + 16];
                let enc_r = &mut enc_r[..l.m2_conf().len()];
                enc_r.copy_from_slice(&msg[l.m2_conf()]);
                k3.open(enc_r, &chain.th)?;
                // Public to us: sig_R is verified under vk_R (ML-DSA.Verify is not constant time).
                pqdr_ctgrind::hook::declassify(&mut *enc_r);
                let sig_len = enc_r.len() - 16;
                let vk = AsRef::<[u8]>::as_ref(&self.r_vk);
                if !A::verify(vk, &[&chain.th, &self.hpk_r], SIG_CTX_R, &enc_r[..sig_len]) {
                    return Err(Error::Signature);
                }
                chain.mix_hash(&[&msg[l.m2_conf()]]);
                // msg3 = hdrB ‖ biscuit ‖ Seal(k4, kind 0 ‖ hpk_I ‖ ts ‖ sig_I) ‖ mac1.
                chain.mix_hash(&[&hdr3]);
                let mut rnd = coins32(&me.sigma, b't', rng);
                let ts = self.ts.to_bytes();
                let out = est.msg3_buf();
                out[..HDR_B].copy_from_slice(&hdr3);
                out[l.m3_biscuit()].copy_from_slice(&msg[l.m2_biscuit()]);
                let c = l.m3_conf(32);
                let enc = &mut out[c.clone()];
                enc[0] = 0;
                enc[1..33].copy_from_slice(&self.hpk_i);
                enc[33..45].copy_from_slice(&ts);
                A::sign(
                    &me.sk,
                    &[&chain.th, &self.hpk_i, &ts],
                    SIG_CTX_I,
                    &rnd,
                    &mut enc[45..45 + A::SIG_LEN],
                );
                rnd.zeroize();
                let k4 = chain.key(b'4');
                k4.seal(enc, &chain.th);
                chain.mix_hash(&[&out[c]]);
            }
        }
        let n = l.msg3_len(32);
        let mac = mac16(&self.mac1_key, &est.msg3_buf()[..n - 16]);
        est.msg3_buf()[n - 16..n].copy_from_slice(&mac);
        est.finish(&chain, &self.label[..self.label_len], n);
        #[cfg(feature = "test-utils")]
        {
            est.trace = core::mem::take(&mut chain.trace);
        }
        // Commit: the attempt is over; erase its secrets.
        self.state = State::Done;
        self.x_eph.zeroize();
        self.k_m.zeroize();
        self.chain.ck.zeroize();
        self.chain.th.zeroize();
        self.eph = None;
        Ok(est)
    }
}

#[cfg(feature = "test-utils")]
impl<A: Auth> Initiator<A> {
    /// A hash of every field of the state (test-only): equal snapshots mean a
    /// bit-identical state.
    pub fn snapshot(&self) -> [u8; 32] {
        let mut h = blake3::Hasher::new();
        h.update(&[self.state as u8, u8::from(self.eph.is_some())]);
        h.update(&self.suite.id().to_be_bytes());
        h.update(&self.idx.to_be_bytes());
        h.update(&self.hpk_r);
        h.update(&self.hpk_i);
        h.update(AsRef::<[u8]>::as_ref(&self.r_vk));
        if let Some(e) = &self.eph {
            h.update(e.ek());
        }
        h.update(&self.x_eph);
        h.update(&self.chain.ck);
        h.update(&self.chain.th);
        h.update(&self.k_m);
        h.update(&self.ts.to_bytes());
        h.update(&self.msg1);
        if let Some(c) = self.cookie {
            h.update(&c.value);
            h.update(&c.expires.0.to_be_bytes());
        }
        for t in [
            self.started.0,
            self.created.0,
            self.next_send.map_or(u64::MAX, |t| t.0),
        ] {
            h.update(&t.to_be_bytes());
        }
        h.update(&[self.sends]);
        h.update(&self.jitter.to_be_bytes());
        h.update(&self.label[..self.label_len]);
        *h.finalize().as_bytes()
    }
}

impl<A: Auth> Drop for Initiator<A> {
    fn drop(&mut self) {
        self.x_eph.zeroize();
        self.k_m.zeroize();
    }
}

impl<A: Auth> core::fmt::Debug for Initiator<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Initiator")
            .field("state", &self.state)
            .field("suite", &self.suite.name())
            .field("index", &self.idx)
            .finish_non_exhaustive()
    }
}

const _: () = assert!(MSG3_MAX >= HDR_B + 148 + 16 + 16);
