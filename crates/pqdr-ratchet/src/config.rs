//! Public configuration and small value types (docs/protocol/ratchet.md §1.2, §1.7).

use core::fmt;

/// Monotonic milliseconds supplied by the caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, zeroize::Zeroize)]
pub struct Instant(pub u64);

impl Instant {
    /// `self + ms`, saturating.
    pub const fn plus(self, ms: u64) -> Instant {
        Instant(self.0.saturating_add(ms))
    }

    /// Milliseconds since `earlier` (0 if `earlier` is later).
    pub const fn since(self, earlier: Instant) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

/// Handshake role; never inferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The handshake initiator (sends I2R).
    Initiator,
    /// The handshake responder (sends R2I).
    Responder,
}

impl Role {
    pub(crate) fn byte(self) -> u8 {
        match self {
            Role::Initiator => 0,
            Role::Responder => 1,
        }
    }

    pub(crate) fn from_byte(b: u8) -> Option<Role> {
        match b {
            0 => Some(Role::Initiator),
            1 => Some(Role::Responder),
            _ => None,
        }
    }

    /// The role that owns the keypair for the ratchet `epoch → epoch + 1`
    /// (docs/protocol/ratchet.md §1.7: Initiator if the epoch is even).
    pub fn owner_of(epoch: u64) -> Role {
        if epoch & 1 == 0 {
            Role::Initiator
        } else {
            Role::Responder
        }
    }
}

/// Transport kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Unreliable datagrams: loss, reorder and duplication tolerated.
    Datagram,
    /// Reliable ordered stream: counters implicit, any failure fatal.
    Stream,
}

impl Mode {
    pub(crate) fn byte(self) -> u8 {
        match self {
            Mode::Datagram => 0,
            Mode::Stream => 1,
        }
    }

    pub(crate) fn from_byte(b: u8) -> Option<Mode> {
        match b {
            0 => Some(Mode::Datagram),
            1 => Some(Mode::Stream),
            _ => None,
        }
    }
}

/// What `seal` does once an epoch is older than `reject_after_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardStop {
    /// `seal` returns [`crate::Error::RekeyOverdue`].
    HardFail,
    /// Keep sending; an [`crate::Event::RekeyOverdue`] is raised.
    Warn,
}

/// Session configuration. `Config::default()` gives the docs/protocol/ratchet.md defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Datagram or stream.
    pub mode: Mode,
    /// Start the first KEM ratchet at session creation (PQ bootstrap).
    pub ratchet_on_start: bool,
    /// Epoch age that triggers a ratchet (±10 % jitter).
    pub rekey_after_ms: u64,
    /// Packets sent in an epoch that trigger a ratchet.
    pub rekey_after_packets: u64,
    /// Bytes sent in an epoch that trigger a ratchet.
    pub rekey_after_bytes: u64,
    /// Epoch age after which sending stops (see [`HardStop`]).
    pub reject_after_ms: u64,
    /// Policy at `reject_after_ms`.
    pub hard_stop: HardStop,
    /// Minimum time between two ratchet starts by the owner.
    pub min_ratchet_interval_ms: u64,
    /// Abort an attempt that has not completed after this long.
    pub ratchet_timeout_ms: u64,
    /// How long old-epoch receive state lives after the other side switched.
    pub old_epoch_grace_ms: u64,
    /// Largest accepted forward jump of a counter (wedge rule beyond it).
    pub max_jump: u32,
    /// Pre-authentication derivation steps allowed per second (token bucket).
    pub unauth_derivation_budget: u32,
    /// Authentication failures per epoch that raise [`Event::AuthFailureAlarm`]
    /// (the session stays open).
    pub auth_failure_limit: u64,
    /// How long the owner waits, after switching to a new epoch, for the
    /// peer's first authentic record in it before reporting [`Event::Wedged`].
    pub confirm_timeout_ms: u64,
    /// Largest record `seal`/`poll_transmit` produce (control frames never exceed it).
    pub max_record: usize,
    /// KEM symbol length in bytes.
    pub sym_len: u16,
    /// First control-packet pacing interval.
    pub pacing_initial_ms: u64,
    /// Largest control-packet pacing interval (exponential back-off cap).
    pub pacing_max_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            mode: Mode::Datagram,
            ratchet_on_start: true,
            rekey_after_ms: 60_000,
            rekey_after_packets: 1 << 24,
            rekey_after_bytes: 1 << 34,
            reject_after_ms: 180_000,
            hard_stop: HardStop::HardFail,
            min_ratchet_interval_ms: 1_000,
            ratchet_timeout_ms: 10_000,
            old_epoch_grace_ms: 2_000,
            max_jump: 1 << 24,
            unauth_derivation_budget: 1 << 20,
            auth_failure_limit: 1 << 20,
            confirm_timeout_ms: 10_000,
            max_record: 1200,
            sym_len: 128,
            pacing_initial_ms: 20,
            pacing_max_ms: 1_000,
        }
    }
}

impl Config {
    /// Checks the bounds the state machine relies on.
    pub(crate) fn is_valid(&self) -> bool {
        let s = usize::from(self.sym_len);
        (crate::codec::MIN_SYM_LEN..=crate::codec::MAX_SYM_LEN).contains(&s)
            && self.max_jump >= 1
            && self.max_jump <= 1 << 30
            && self.max_record > crate::wire::OVERHEAD
            && self.max_record <= 65_535
            && self.pacing_initial_ms >= 1
            && self.pacing_max_ms >= self.pacing_initial_ms
    }

    /// A 32-byte digest of every field, stored in exported state so a state
    /// is only imported under the configuration it was made with.
    pub(crate) fn digest(&self) -> [u8; 32] {
        let mut h = blake3::Hasher::new();
        h.update(b"pqdr-ratchet config v2");
        h.update(&[self.mode.byte(), u8::from(self.ratchet_on_start)]);
        for v in [
            self.rekey_after_ms,
            self.rekey_after_packets,
            self.rekey_after_bytes,
            self.reject_after_ms,
            self.min_ratchet_interval_ms,
            self.ratchet_timeout_ms,
            self.old_epoch_grace_ms,
            u64::from(self.max_jump),
            u64::from(self.unauth_derivation_budget),
            self.auth_failure_limit,
            self.confirm_timeout_ms,
            self.max_record as u64,
            u64::from(self.sym_len),
            self.pacing_initial_ms,
            self.pacing_max_ms,
        ] {
            h.update(&v.to_be_bytes());
        }
        h.update(&[match self.hard_stop {
            HardStop::HardFail => 0,
            HardStop::Warn => 1,
        }]);
        *h.finalize().as_bytes()
    }
}

/// The input secret from the handshake (docs/protocol/ratchet.md §1.3).
pub struct InitialSecret<'a> {
    /// 32..=64 bytes: TLS exporter / Noise split output / PSK-derived.
    pub secret: &'a [u8],
    /// ≤ 64 bytes: handshake hash, or empty.
    pub transcript: &'a [u8],
    /// ≤ 255 bytes: application label.
    pub context: &'a [u8],
}

impl fmt::Debug for InitialSecret<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InitialSecret")
            .field("secret", &"...")
            .field("transcript", &self.transcript)
            .field("context", &self.context)
            .finish()
    }
}

/// Only this crate can make one: it lets [`HandshakeOutput::initial_secret`]
/// be called by [`Session::from_handshake`](crate::Session::from_handshake)
/// and by nothing else, so a handshake's secret seeds the one session that
/// consumes the handshake output and is not public API of the output.
#[derive(Debug)]
pub struct SeedToken(());

impl SeedToken {
    pub(crate) const fn new() -> Self {
        SeedToken(())
    }
}

/// The output of an authenticated key exchange that starts a session:
/// the initial secret and the role the exchange's state machine assigned
/// (implemented by `pqdr_handshake::Established`).
///
/// [`Session::from_handshake`](crate::Session::from_handshake) takes the
/// output by value: one handshake output seeds one session.
pub trait HandshakeOutput {
    /// Initiator for the side that sent the first handshake message.
    fn role(&self) -> Role;
    /// The secret, transcript and context (docs/protocol/ratchet.md §1.3).
    /// Callable only from this crate (a [`SeedToken`] cannot be made elsewhere).
    fn initial_secret(&self, token: &SeedToken) -> InitialSecret<'_>;
    /// Whether a session with the ratchet KEM of wire id `kem_id`
    /// ([`RatchetKem::ID`](crate::RatchetKem::ID)) may start from this
    /// output: a hybrid handshake asks for a hybrid ratchet KEM
    /// (docs/protocol/handshake.md §4 "Output"). Any KEM by default.
    fn accepts_ratchet_kem(&self, kem_id: u16) -> bool {
        let _ = kem_id;
        true
    }
}

/// Why a ratchet attempt was aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortReason {
    /// Did not complete within `ratchet_timeout_ms`.
    Timeout,
    /// The decoded encapsulation key failed validation.
    InvalidKey,
    /// The peer aborted it.
    Peer,
    /// Superseded by a newer attempt.
    Superseded,
    /// The owner was restored from an export taken while the attempt was in
    /// flight; its secret was not persisted (docs/protocol/ratchet.md §1.11 rule 2).
    Restored,
}

impl AbortReason {
    pub(crate) fn code(self) -> u8 {
        match self {
            AbortReason::Timeout => 1,
            AbortReason::InvalidKey => 2,
            AbortReason::Peer => 3,
            AbortReason::Superseded => 4,
            AbortReason::Restored => 5,
        }
    }
}

/// Something the application may want to know about (no secrets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// This side owns the next keypair and started a ratchet.
    RatchetStarted {
        /// Epoch being left.
        epoch: u64,
    },
    /// This side (the peer of the ratchet) installed the keys of `epoch`
    /// after encapsulating; it still sends in the previous epoch until the
    /// owner switches. Persist the state now if the session is persisted.
    NextEpochReady {
        /// The installed epoch.
        epoch: u64,
    },
    /// This side now sends in `epoch`. Persist the state now if the session
    /// is persisted: a restore from before this point cannot follow a peer
    /// that has seen records of the new epoch.
    EpochAdvanced {
        /// The new sending epoch.
        epoch: u64,
    },
    /// A ratchet attempt was aborted (it will be retried).
    RatchetAborted {
        /// Why.
        reason: AbortReason,
    },
    /// The epoch reached `reject_after_ms` without a completed ratchet.
    RekeyOverdue,
    /// Authentication failures in `epoch` reached `auth_failure_limit`
    /// (raised once per epoch). Unauthenticated packets never close the
    /// session (docs/protocol/ratchet.md §1.8 step 4): anyone who can spoof packets could
    /// otherwise kill it. Treat it as an attack indicator.
    AuthFailureAlarm {
        /// The current epoch when the limit was reached.
        epoch: u64,
    },
    /// This side switched to a new epoch as the ratchet's owner and no
    /// authentic record of that epoch came from the peer within
    /// `confirm_timeout_ms`: the roots have diverged or the peer is gone.
    /// The session cannot recover by itself; re-handshake (docs/protocol/ratchet.md §1.8
    /// wedge rule).
    Wedged,
}

/// A snapshot of public session state.
///
/// `#[non_exhaustive]`: read the fields; new ones may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Status {
    /// Current sending epoch.
    pub epoch: u64,
    /// Milliseconds since this epoch started.
    pub epoch_age_ms: u64,
    /// A KEM ratchet is in flight.
    pub ratchet_in_flight: bool,
    /// `request_ratchet` was called and the epoch switch it asks for has
    /// not happened yet (cleared when the next epoch is installed). The
    /// request may be waiting: see `ratchet_deferred_until`, and on the side
    /// that does not own the next epoch, for the peer to start the ratchet.
    pub ratchet_requested: bool,
    /// `Some(t)`: this side owns the next ratchet, a ratchet is wanted (a
    /// request, the peer's request or a rekey trigger) and none is in
    /// flight, but `min_ratchet_interval_ms` since the last attempt holds
    /// it back until `t` (docs/protocol/ratchet.md §1.7.2). `None`: nothing
    /// is deferred by the interval.
    pub ratchet_deferred_until: Option<Instant>,
    /// Completed ratchets (epoch switches) since creation.
    pub ratchets_completed: u64,
    /// Failed authentications since creation.
    pub auth_failures: u64,
    /// Keys agree in both directions: this side decrypted a record of the
    /// peer *and* has authentic proof that the peer decrypted this side's
    /// records (its KEM reply or its epoch switch). Role confusion (both
    /// sides `Initiator`) never confirms.
    pub confirmed: bool,
    /// The session cannot recover by itself (see [`Event::Wedged`]).
    pub wedged: bool,
    /// Next send counter in the current epoch.
    pub send_counter: u64,
    /// The session refuses to send (hard stop, exhaustion or closure).
    pub closed: bool,
}

/// A bounded queue of public events.
#[derive(Debug, Default, zeroize::Zeroize)]
pub(crate) struct Events {
    #[zeroize(skip)]
    buf: [Option<Event>; 8],
    head: usize,
    len: usize,
}

impl Events {
    pub(crate) fn push(&mut self, e: Event) {
        if self.len == self.buf.len() {
            self.head = (self.head + 1) & 7;
            self.len -= 1;
        }
        self.buf[(self.head + self.len) & 7] = Some(e);
        self.len += 1;
    }

    pub(crate) fn pop(&mut self) -> Option<Event> {
        if self.len == 0 {
            return None;
        }
        let e = self.buf[self.head].take();
        self.head = (self.head + 1) & 7;
        self.len -= 1;
        e
    }
}
