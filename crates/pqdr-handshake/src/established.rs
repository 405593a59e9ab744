//! The handshake's output (docs/protocol/handshake.md §4 "Output", §8): the ratchet's
//! initial secret with the role set by the state machine, and msg3.

use zeroize::Zeroize;

use crate::kdf::Chain;
use crate::suite::Suite;
use crate::wire::{MSG3_KEM, MSG3_MAX};
use crate::{Instant, Role};

/// Largest application label (the output context must fit 204 bytes).
pub const MAX_APP_LABEL: usize = 128;

/// Largest output context: "pqdr-hs1" ‖ suite ‖ hpk_I ‖ hpk_R ‖ lp(label ≤ 128).
pub const MAX_CONTEXT: usize = 8 + 2 + 32 + 32 + 2 + MAX_APP_LABEL;

/// A completed handshake. The role is set by the state machine that produced
/// it (Initiator for the side that sent msg1), so two peers never hold the
/// same role. Secrets are erased on drop.
pub struct Established {
    role: Role,
    suite: Suite,
    local_idx: u32,
    peer_idx: u32,
    peer: [u8; 32],
    local: [u8; 32],
    secret: [u8; 32],
    transcript: [u8; 32],
    context: [u8; MAX_CONTEXT],
    context_len: usize,
    msg3: Msg3,
    msg3_len: usize,
    #[cfg(feature = "test-utils")]
    pub(crate) trace: alloc::vec::Vec<crate::kdf::TraceOp>,
}

/// The buffer for msg3, which only the initiator keeps (docs/protocol/handshake.md
/// §8: it resends msg3). Only the variant built is written, so the
/// responder's output clears no msg3 bytes and a KEM-mode initiator clears
/// 192 (its msg3's length), not the 4,864 a SIG-mode msg3 may need.
#[allow(
    clippy::large_enum_variant,
    reason = "fixed-size state, no heap: the point is to write only the variant in use"
)]
pub(crate) enum Msg3 {
    /// The responder's output: no msg3.
    None,
    /// KEM mode: hdrB ‖ biscuit ‖ conf_I ‖ mac1.
    Kem([u8; MSG3_KEM]),
    /// SIG mode: hdrB ‖ biscuit ‖ enc_I ‖ mac1.
    Sig([u8; MSG3_MAX]),
}

impl Established {
    pub(crate) fn new(
        role: Role,
        suite: Suite,
        hpk_r: [u8; 32],
        hpk_i: [u8; 32],
        local_idx: u32,
        peer_idx: u32,
        msg3: Msg3,
    ) -> Self {
        let (peer, local) = match role {
            Role::Initiator => (hpk_r, hpk_i),
            Role::Responder => (hpk_i, hpk_r),
        };
        Established {
            role,
            suite,
            local_idx,
            peer_idx,
            peer,
            local,
            secret: [0; 32],
            transcript: [0; 32],
            context: [0; MAX_CONTEXT],
            context_len: 0,
            msg3,
            msg3_len: 0,
            #[cfg(feature = "test-utils")]
            trace: alloc::vec::Vec::new(),
        }
    }

    /// The msg3 buffer the output was built with (empty for [`Msg3::None`]).
    pub(crate) fn msg3_buf(&mut self) -> &mut [u8] {
        match &mut self.msg3 {
            Msg3::None => &mut [],
            Msg3::Kem(b) => b,
            Msg3::Sig(b) => b,
        }
    }

    /// Sets secret, transcript and context from the final chain.
    pub(crate) fn finish(&mut self, chain: &Chain, app_label: &[u8], msg3_len: usize) {
        self.secret = chain.output();
        self.transcript = chain.th;
        self.msg3_len = msg3_len;
        let (hpk_i, hpk_r) = match self.role {
            Role::Initiator => (self.local, self.peer),
            Role::Responder => (self.peer, self.local),
        };
        let c = &mut self.context;
        c[..8].copy_from_slice(b"pqdr-hs1");
        c[8..10].copy_from_slice(&self.suite.id().to_be_bytes());
        c[10..42].copy_from_slice(&hpk_i);
        c[42..74].copy_from_slice(&hpk_r);
        let n = app_label.len().min(MAX_APP_LABEL);
        c[74..76].copy_from_slice(&crate::kdf::lp16(&app_label[..n]));
        c[76..76 + n].copy_from_slice(&app_label[..n]);
        self.context_len = 76 + n;
    }

    /// Our role in the ratchet: Initiator iff we sent msg1.
    pub fn role(&self) -> Role {
        self.role
    }

    /// The suite that was used.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// Our sender index in this handshake (the peer addresses us with it,
    /// e.g. in the `0x10 ‖ receiver_idx` record frame of docs/protocol/handshake.md §8).
    pub fn local_index(&self) -> u32 {
        self.local_idx
    }

    /// The peer's sender index (we address the peer with it).
    pub fn peer_index(&self) -> u32 {
        self.peer_idx
    }

    /// The peer's key id.
    pub fn peer(&self) -> &[u8; 32] {
        &self.peer
    }

    /// The final transcript hash (public; binds every message).
    pub fn transcript(&self) -> &[u8; 32] {
        &self.transcript
    }

    /// Simultaneous initiation (docs/protocol/handshake.md §8, §10): when both attempts
    /// complete, both peers keep the session with the smaller transcript.
    /// Returns true if `self` is the one to keep against `other`.
    pub fn preferred_over(&self, other: &Established) -> bool {
        self.transcript <= other.transcript
    }

    /// msg3 (initiator only): send it with the first record, and resend it
    /// (see [`Msg3Retransmit`]) until a record from the responder opens.
    pub fn msg3(&self) -> Option<&[u8]> {
        let buf: &[u8] = match &self.msg3 {
            Msg3::None => &[],
            Msg3::Kem(b) => b,
            Msg3::Sig(b) => b,
        };
        buf.get(..self.msg3_len).filter(|m| !m.is_empty())
    }

    /// A resend schedule for msg3 (1, 2, 4, 8 s after `now`), initiator only.
    pub fn msg3_retransmit(&self, now: Instant) -> Option<Msg3Retransmit> {
        let m = self.msg3()?;
        let mut buf = [0u8; MSG3_MAX];
        buf[..m.len()].copy_from_slice(m);
        Some(Msg3Retransmit {
            msg3: buf,
            len: m.len(),
            next: Some(now.plus(1_000)),
            step: 0,
        })
    }

    /// The ratchet's input (docs/protocol/ratchet.md §1.3): secret, transcript, context.
    /// Not public: the secret seeds exactly one session, through
    /// [`Established::into_session`] / [`pqdr_ratchet::Session::from_handshake`],
    /// which consume the output.
    fn secret_parts(&self) -> pqdr_ratchet::InitialSecret<'_> {
        pqdr_ratchet::InitialSecret {
            secret: &self.secret,
            transcript: &self.transcript,
            context: &self.context[..self.context_len],
        }
    }

    /// The wire id ([`pqdr_ratchet::RatchetKem::ID`]) of the ratchet KEM this
    /// handshake starts: X-Wing (0x647A) after a `-X` suite, so the session
    /// stays hybrid, and ML-KEM-768 (0x0041) otherwise
    /// (docs/protocol/handshake.md §4 "Output"). Pick the session type by it:
    /// [`Established::into_session`] refuses a `-X` handshake into any
    /// ratchet KEM but X-Wing.
    pub fn ratchet_kem_id(&self) -> u16 {
        self.suite.ratchet_kem_id()
    }

    /// Starts the ratchet session with this output and its role, consuming the
    /// output: one handshake seeds one session
    /// ([`pqdr_ratchet::Session::from_handshake`] does the same).
    ///
    /// `K` must be the suite's ratchet KEM ([`Established::ratchet_kem_id`]) after a
    /// `-X` suite: `pqdr_ratchet::XWing`. A non-hybrid suite starts any
    /// ratchet KEM (ML-KEM-768 by default).
    ///
    /// ```
    /// # use pqdr_handshake::Established;
    /// # use pqdr_ratchet::{Config, Instant, MlKem768, Session};
    /// # fn f(est: Established, rng: &mut impl rand_core::CryptoRng) -> Result<(), pqdr_ratchet::Error> {
    /// let cfg = Config::default();
    /// let s: Session<MlKem768> = est.into_session(&cfg, Instant(0), rng)?;
    /// # Ok(()) }
    /// ```
    ///
    /// A second session from the same output does not compile:
    ///
    /// ```compile_fail,E0382
    /// # use pqdr_handshake::Established;
    /// # use pqdr_ratchet::{Config, Instant, MlKem768, Session};
    /// # fn f(est: Established, rng: &mut impl rand_core::CryptoRng) -> Result<(), pqdr_ratchet::Error> {
    /// let cfg = Config::default();
    /// let a: Session<MlKem768> = Session::from_handshake(&cfg, est, Instant(0), rng)?;
    /// let b: Session<MlKem768> = est.into_session(&cfg, Instant(0), rng)?; // `est` was moved
    /// # Ok(()) }
    /// ```
    ///
    /// nor does seeding a session from a borrowed output (the output stays usable),
    ///
    /// ```compile_fail,E0277
    /// # use pqdr_handshake::Established;
    /// # use pqdr_ratchet::{Config, Instant, MlKem768, Session};
    /// # fn f(est: Established, rng: &mut impl rand_core::CryptoRng) -> Result<(), pqdr_ratchet::Error> {
    /// let cfg = Config::default();
    /// let a: Session<MlKem768> = Session::from_handshake(&cfg, &est, Instant(0), rng)?;
    /// # Ok(()) }
    /// ```
    ///
    /// nor reading the raw initial secret:
    ///
    /// ```compile_fail,E0599
    /// # fn f(est: pqdr_handshake::Established) {
    /// let secret: &[u8] = est.initial_secret().secret;
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`pqdr_ratchet::Error::KemMismatch`] for a `-X` handshake into another
    /// KEM than X-Wing; the ratchet's configuration errors.
    #[cfg(feature = "ratchet")]
    pub fn into_session<K: pqdr_ratchet::RatchetKem, R: rand_core::CryptoRng + ?Sized>(
        self,
        cfg: &pqdr_ratchet::Config,
        now: Instant,
        rng: &mut R,
    ) -> Result<pqdr_ratchet::Session<K>, pqdr_ratchet::Error> {
        // The checks of `Session::from_handshake`, on `self` in place: it is
        // erased when it drops at the end of this call (no moved copy).
        if !pqdr_ratchet::HandshakeOutput::accepts_ratchet_kem(&self, K::ID) {
            return Err(pqdr_ratchet::Error::KemMismatch);
        }
        pqdr_ratchet::Session::new(cfg, self.role, self.secret_parts(), now, rng)
    }

    /// A 32-byte key for a use other than the ratchet (e.g. a static-key
    /// baseline), `BLAKE3.derive_key(context, secret)` — never the ratchet's
    /// input itself. Consumes the output like [`Established::into_session`]:
    /// one handshake seeds one thing.
    pub fn into_key(self, context: &str) -> zeroize::Zeroizing<[u8; 32]> {
        zeroize::Zeroizing::new(blake3::derive_key(context, &self.secret))
    }

    /// The ratchet's input (test builds only: the vectors compare it).
    #[cfg(feature = "test-utils")]
    pub fn initial_secret_for_test(&self) -> pqdr_ratchet::InitialSecret<'_> {
        self.secret_parts()
    }

    /// The key-schedule trace (test builds only).
    #[cfg(feature = "test-utils")]
    pub fn trace(&self) -> &[crate::kdf::TraceOp] {
        &self.trace
    }
}

impl pqdr_ratchet::HandshakeOutput for Established {
    fn role(&self) -> Role {
        self.role
    }
    fn initial_secret(&self, _: &pqdr_ratchet::SeedToken) -> pqdr_ratchet::InitialSecret<'_> {
        self.secret_parts()
    }
    /// A `-X` suite starts an X-Wing ratchet (docs/protocol/handshake.md §4 "Output").
    fn accepts_ratchet_kem(&self, kem_id: u16) -> bool {
        !self.suite.hybrid() || kem_id == self.suite.ratchet_kem_id()
    }
}

impl Drop for Established {
    fn drop(&mut self) {
        self.secret.zeroize();
        self.transcript.zeroize();
        self.context.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for Established {}

impl core::fmt::Debug for Established {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Established")
            .field("role", &self.role)
            .field("suite", &self.suite.name())
            .field("peer", &self.peer)
            .finish_non_exhaustive()
    }
}

/// msg3's resend timer (docs/protocol/handshake.md §5: 1, 2, 4, 8 s until R's first record opens).
#[derive(Clone)]
pub struct Msg3Retransmit {
    msg3: [u8; MSG3_MAX],
    len: usize,
    next: Option<Instant>,
    step: u8,
}

impl Msg3Retransmit {
    /// msg3 again if a resend is due.
    pub fn poll_transmit(&mut self, now: Instant, out: &mut [u8]) -> Option<usize> {
        let due = self.next?;
        if now < due || out.len() < self.len {
            return None;
        }
        out[..self.len].copy_from_slice(&self.msg3[..self.len]);
        self.step += 1;
        self.next = (self.step < 4).then(|| now.plus(1_000 << self.step));
        Some(self.len)
    }

    /// The next resend instant.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.next
    }

    /// A record from the responder opened: stop resending.
    pub fn confirm(&mut self) {
        self.next = None;
    }
}

impl core::fmt::Debug for Msg3Retransmit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Msg3Retransmit")
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}
