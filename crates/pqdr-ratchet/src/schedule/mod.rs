//! docs/protocol/ratchet.md §1.1 layer L1: the key schedule without framing.
//!
//! The state (epochs, chains, receive windows, the KEM exchange, §1.4,
//! §1.7–1.9) and the send side; the receive path is in `receive.rs`, the KEM
//! exchange in `exchange.rs`, control frames in `control.rs`, timers in
//! `timers.rs`. It hands out `(epoch, counter, key)` for sending and
//! *candidates* for receiving; a candidate changes nothing until it is
//! committed inside [`KeySchedule::open_with`], after the caller's AEAD
//! check succeeded. (Deriving a candidate
//! writes only scratch that is not part of the state: the lookahead cache,
//! and the chains the candidate will commit — `Window::pending` and
//! `Window::next_ck` — which are derivable from the window's chain, not
//! exported, and wiped at the window's next commit.)

use core::fmt;
use core::marker::PhantomData;

use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::Error;
use crate::chain::POSITION_END;
use crate::config::{Config, Event, Events, HardStop, InitialSecret, Instant, Role, Status};
use crate::epoch::{EpochSlot, directions};
use crate::kdf::{self, PacketKdf};
use crate::kem::{self, RatchetKem};
use crate::keys::{PacketKey, SendKey};

mod exchange;
mod timers;

pub(crate) use exchange::{DEAD_RIDS, KemMachine, Phase};
use timers::jitter;

/// HPKE AEAD identifier of ChaCha20-Poly1305, bound into `root_0`.
pub const AEAD_ID: u16 = 0x0003;
/// Token bucket bounding pre-authentication derivation work (docs/protocol/ratchet.md §1.8).
#[derive(Debug, Default, Zeroize)]
pub(crate) struct Bucket {
    pub(crate) tokens: u64,
    at: Instant,
}

impl Bucket {
    /// A full bucket at `now`.
    pub(crate) fn full(rate: u32, now: Instant) -> Self {
        Bucket {
            tokens: u64::from(rate),
            at: now,
        }
    }

    /// Refills `rate` tokens per second up to `rate` (one second's worth),
    /// then takes `cost`, or refuses with [`Error::TooFarAhead`].
    pub(crate) fn take(&mut self, rate: u32, cost: u64, now: Instant) -> Result<(), Error> {
        let rate = u64::from(rate);
        // One second refills the whole bucket, so the elapsed time counts up
        // to 1000 ms: then elapsed · rate < 2^42 and floor(· / 1000) is the
        // exact multiply-shift of `div_1000`.
        let elapsed = now.since(self.at).min(1000);
        let refill = div_1000(elapsed * rate);
        self.tokens = self.tokens.saturating_add(refill).min(rate);
        self.at = now;
        if self.tokens < cost {
            return Err(Error::TooFarAhead);
        }
        self.tokens -= cost;
        Ok(())
    }
}

/// floor(x / 1000) for x < 2^43, without a division: `x · M` shifted right
/// by 52, with M = ceil(2^52 / 1000) (the rounding error 504 · x stays below
/// 2^52). Public values only, but the division scan of
/// `scripts/ct-check.sh` admits no division at all: at opt-level `s` a u128
/// `/ 1000` became a call to `__udivti3`.
fn div_1000(x: u64) -> u64 {
    const M: u128 = 4_503_599_627_371; // ceil(2^52 / 1000)
    debug_assert!(x < 1 << 43);
    // x · M < 2^43 · 2^42.1, so the shifted product is below 2^34: it fits.
    u64::try_from((u128::from(x) * M) >> 52).unwrap_or(u64::MAX)
}

/// An export whose blob the application has not yet confirmed as durable
/// (docs/protocol/ratchet.md §1.11): its generation, its reserve and the
/// send position it wrote for each live send chain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingExport {
    pub(crate) generation: u64,
    pub(crate) reserve: u64,
    /// `(epoch, exported send position)`; `None` for unused entries.
    pub(crate) limits: [Option<(u64, u64)>; 3],
}

/// L1: the PQDR key schedule (epochs, chains, windows, KEM state machine).
///
/// `WW` is the replay-window size in 64-bit words (`W = 64·WW`, default 1024
/// bits) and `MS` the number of stored skipped keys per (epoch, direction).
pub struct KeySchedule<K: RatchetKem, const WW: usize = 16, const MS: usize = 256> {
    pub(crate) cfg: Config,
    pub(crate) role: Role,
    pub(crate) epoch: u64,
    pub(crate) slots: [EpochSlot<WW, MS>; 3],
    pub(crate) kem: KemMachine,
    /// Authentication failures since creation or restore (public counter).
    pub(crate) auth_failures: u64,
    /// Authentication failures in the current epoch (alarm threshold).
    pub(crate) epoch_auth_failures: u64,
    /// An authentic record of the peer was committed.
    pub(crate) rx_ok: bool,
    /// Authentic proof that the peer decrypted this side's records.
    pub(crate) tx_ok: bool,
    /// Closed by the stream-mode rule or a broken authentic peer; never by
    /// unauthenticated input in datagram mode, and never persisted.
    pub(crate) closed: bool,
    pub(crate) ratchets_completed: u64,
    pub(crate) generation: u64,
    /// docs/protocol/ratchet.md §1.11 rule 1: set by `import_state`; nothing is sent until
    /// the application has exported again.
    pub(crate) export_required: bool,
    /// The reservation granted to an epoch installed from now on: it may
    /// carry at most this many records until the next confirmed export. The
    /// minimum of the confirmed export's reserve and those of the exports
    /// made since (`u64::MAX`: never exported).
    pub(crate) send_reserve: u64,
    /// The latest export, until the application confirms that its blob is
    /// durable (docs/protocol/ratchet.md §1.11): only then do its positions
    /// become the send limits.
    pub(crate) pending_export: Option<PendingExport>,
    /// 16 random bytes drawn at creation, kept for the session's whole life
    /// and bound into every exported blob (docs/protocol/ratchet.md §1.11).
    pub(crate) session_id: [u8; 16],
    /// Test-only switch (always false outside `testing`): keep `root_e` as v1 did.
    pub(crate) v1_leak: bool,
    /// Test-only instrumented AEAD: (key, nonce) of the last sealed record.
    #[cfg(feature = "test-utils")]
    pub(crate) last_sealed: Option<([u8; 32], [u8; 12])>,
    pub(crate) overdue_reported: bool,
    pub(crate) events: Events,
    pub(crate) bucket: Bucket,
    /// Round-trip time hint from the application (not persisted).
    pub(crate) rtt_hint_ms: Option<u64>,
    /// Reusable `blake3` state of the per-packet step (no secret between
    /// steps; not persisted).
    pub(crate) kdf: PacketKdf,
    pub(crate) _kem: PhantomData<K>,
}

impl<K: RatchetKem, const WW: usize, const MS: usize> fmt::Debug for KeySchedule<K, WW, MS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeySchedule")
            .field("role", &self.role)
            .field("epoch", &self.epoch)
            .field("phase", &self.kem.phase)
            .finish_non_exhaustive()
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> Drop for KeySchedule<K, WW, MS> {
    fn drop(&mut self) {
        // Slots and the KEM machine zeroize themselves; nothing else is secret.
        self.epoch = 0;
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    const SIZES_OK: () = kem::check_sizes::<K>();

    /// Creates the schedule at epoch 0 from the handshake secret (docs/protocol/ratchet.md §1.3).
    ///
    /// # Errors
    /// [`Error::Malformed`] if the secret, transcript or context length is out of
    /// range or the configuration is invalid.
    pub fn new<R: CryptoRng + ?Sized>(
        cfg: &Config,
        role: Role,
        init: InitialSecret<'_>,
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        Self::new_inner(cfg, role, init, now, rng, false)
    }

    /// [`KeySchedule::new`]; `v1_leak` (tests only) keeps every `root_e` as v1 did.
    pub(crate) fn new_inner<R: CryptoRng + ?Sized>(
        cfg: &Config,
        role: Role,
        init: InitialSecret<'_>,
        now: Instant,
        rng: &mut R,
        v1_leak: bool,
    ) -> Result<Self, Error> {
        let () = Self::SIZES_OK;
        if !(32..=64).contains(&init.secret.len())
            || init.transcript.len() > 64
            || init.context.len() > 255
            || !cfg.is_valid()
        {
            return Err(Error::Malformed);
        }
        let mut root = kdf::root_init(
            init.secret,
            init.transcript,
            init.context,
            K::ID,
            AEAD_ID,
            cfg.mode.byte(),
        );
        let mut s = Self::empty(cfg, role);
        let rekey = jitter(cfg.rekey_after_ms, rng.next_u32());
        s.v1_leak = v1_leak;
        s.slots[0].install(0, &mut root, role, now, rekey, u64::MAX, v1_leak);
        s.bucket.tokens = u64::from(cfg.unauth_derivation_budget);
        s.bucket.at = now;
        if cfg.ratchet_on_start {
            s.kem.app_request = true;
            s.on_time(now, rng);
        }
        // Drawn last, so that the draws above stay where they were.
        rng.fill_bytes(&mut s.session_id);
        // Public by design: written in clear into every exported blob.
        pqdr_ctgrind::hook::declassify(&mut s.session_id);
        Ok(s)
    }

    pub(crate) fn empty(cfg: &Config, role: Role) -> Self {
        Self::empty_with(cfg, role, PacketKdf::new())
    }

    /// `empty` with the `blake3` state built beforehand: built inside the
    /// literal, the (possibly unwinding) calls into `blake3` sat between the
    /// construction of the slots and the value, and the compiler assembled
    /// the slots in temporaries (`import_state` peak stack 137 KB instead of
    /// 100 KB; BENCHMARKS.md).
    #[inline(never)]
    fn empty_with(cfg: &Config, role: Role, kdf: PacketKdf) -> Self {
        KeySchedule {
            cfg: *cfg,
            role,
            epoch: 0,
            slots: [EpochSlot::dead(), EpochSlot::dead(), EpochSlot::dead()],
            kem: KemMachine::new(),
            auth_failures: 0,
            epoch_auth_failures: 0,
            rx_ok: false,
            tx_ok: false,
            closed: false,
            ratchets_completed: 0,
            generation: 0,
            export_required: false,
            send_reserve: u64::MAX,
            pending_export: None,
            session_id: [0; 16],
            v1_leak: false,
            #[cfg(feature = "test-utils")]
            last_sealed: None,
            overdue_reported: false,
            events: Events::default(),
            bucket: Bucket::default(),
            rtt_hint_ms: None,
            kdf,
            _kem: PhantomData,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// This side's role.
    pub fn role(&self) -> Role {
        self.role
    }

    /// The session id: 16 random bytes drawn when the schedule was created,
    /// kept for its whole life (across export and import) and bound into
    /// every exported blob. [`crate::Session::import_state`] takes the id the
    /// caller expects and refuses a blob of another session.
    pub fn session_id(&self) -> [u8; 16] {
        self.session_id
    }

    /// Current sending epoch.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    pub(crate) fn slot_of(&self, epoch: u64) -> Option<usize> {
        self.slots.iter().position(|s| s.live && s.epoch == epoch)
    }

    pub(crate) fn cur(&self) -> usize {
        // The current epoch always has a live slot (invariant of every transition).
        self.slot_of(self.epoch).unwrap_or(0)
    }

    pub(crate) fn free_slot(&mut self) -> usize {
        if let Some(i) = self.slots.iter().position(|s| !s.live) {
            return i;
        }
        // Unreachable by the invariants (≤ 3 live epochs); reuse the oldest.
        let mut best = 0;
        for i in 1..3 {
            if self.slots[i].epoch < self.slots[best].epoch {
                best = i;
            }
        }
        self.slots[best].zeroize();
        best
    }

    pub(crate) fn is_owner(&self) -> bool {
        Role::owner_of(self.epoch) == self.role
    }

    /// Pops the next pending event.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop()
    }

    /// Asks for a KEM ratchet as soon as the rules allow (app-forced PCS step).
    ///
    /// The request may be deferred, silently: only the owner of the next
    /// epoch starts a ratchet (on the other side the request travels to the
    /// peer in the next control record), at most one attempt per
    /// `min_ratchet_interval_ms`, and not while one is in flight
    /// (docs/protocol/ratchet.md §1.7). [`Status::ratchet_requested`] stays set until
    /// the next epoch is installed; [`Status::ratchet_deferred_until`] says
    /// when the interval lets the owner start; `Event::RatchetStarted`
    /// reports the start.
    pub fn request_ratchet(&mut self) {
        self.kem.app_request = true;
    }

    /// Public state summary.
    pub fn status(&self, now: Instant) -> Status {
        let c = &self.slots[self.cur()];
        Status {
            epoch: self.epoch,
            epoch_age_ms: now.since(c.started),
            ratchet_in_flight: self.kem.phase != Phase::Idle,
            ratchet_requested: self.kem.app_request,
            ratchet_deferred_until: (self.is_owner()
                && self.kem.phase == Phase::Idle
                && !self.closed
                && self.triggered(now)
                && self.kem.next_start_at > now)
                .then_some(self.kem.next_start_at),
            ratchets_completed: self.ratchets_completed,
            auth_failures: self.auth_failures,
            confirmed: self.rx_ok && self.tx_ok,
            wedged: self.wedged(now),
            send_counter: c.send.pos,
            closed: self.closed,
        }
    }

    /// The owner switched epochs and no authentic record of the new epoch
    /// came from the peer within `confirm_timeout_ms` (docs/protocol/ratchet.md §1.8).
    pub(crate) fn wedged(&self, now: Instant) -> bool {
        self.kem.phase == Phase::OwnerConfirm
            && now.since(self.kem.confirm_since) >= self.cfg.confirm_timeout_ms
    }

    /// Raises an error on the stream (stream mode: every failure is fatal).
    pub(crate) fn close(&mut self) {
        self.closed = true;
    }

    // ------------------------------------------------------------------ send

    /// Whether [`KeySchedule::next_send`] would hand out a key now.
    pub(crate) fn can_send(&self, now: Instant) -> bool {
        let s = &self.slots[self.cur()];
        !self.closed
            && !self.export_required
            && s.send_live
            && s.send.pos < s.send_limit
            && s.send.pos < POSITION_END - u64::from(self.cfg.max_jump)
            && (now.since(s.started) < self.cfg.reject_after_ms
                || self.cfg.hard_stop == HardStop::Warn)
    }

    /// Hands out the key of the next record in the current epoch and advances
    /// the send chain. `len` is the record's plaintext length (byte trigger).
    ///
    /// # Errors
    /// [`Error::Closed`], [`Error::ExportRequired`] (restored, not exported
    /// since), [`Error::RekeyOverdue`] (hard stop), [`Error::EpochExhausted`]
    /// (counter space used up) or [`Error::ReservationExhausted`] (export
    /// reservation used up).
    #[inline]
    pub fn next_send(&mut self, now: Instant, len: usize) -> Result<SendKey, Error> {
        self.send_at(now, None, len)
    }

    /// [`KeySchedule::next_send`] with a caller-chosen counter, for transports
    /// that number their packets themselves (QUIC packet numbers): `counter`
    /// must be at or after the next unused position of the current epoch's
    /// send chain (strictly increasing; gaps are allowed and cost the sender
    /// `gap/256 + 256` steps at most), and at most `max_jump` ahead of it so
    /// that the receiver can follow. The positions skipped are never used.
    ///
    /// # Errors
    /// As [`KeySchedule::next_send`]; [`Error::Replay`] if `counter` was
    /// already passed, [`Error::TooFarAhead`] beyond `max_jump`.
    pub fn next_send_at(
        &mut self,
        now: Instant,
        counter: u32,
        len: usize,
    ) -> Result<SendKey, Error> {
        self.send_at(now, Some(counter), len)
    }

    #[inline]
    fn send_at(&mut self, now: Instant, at: Option<u32>, len: usize) -> Result<SendKey, Error> {
        if self.closed {
            return Err(Error::Closed);
        }
        if self.export_required {
            return Err(Error::ExportRequired);
        }
        let i = self.cur();
        let age = now.since(self.slots[i].started);
        if age >= self.cfg.reject_after_ms {
            match self.cfg.hard_stop {
                HardStop::HardFail => return Err(Error::RekeyOverdue),
                HardStop::Warn => {
                    if !self.overdue_reported {
                        self.overdue_reported = true;
                        self.events.push(Event::RekeyOverdue);
                    }
                }
            }
        }
        let max_jump = u64::from(self.cfg.max_jump);
        let s = &mut self.slots[i];
        let pos = match at {
            None => s.send.pos,
            Some(c) if u64::from(c) < s.send.pos => return Err(Error::Replay),
            Some(c) if u64::from(c) - s.send.pos >= max_jump => return Err(Error::TooFarAhead),
            Some(c) => u64::from(c),
        };
        if !s.send_live || pos >= POSITION_END - max_jump {
            return Err(Error::EpochExhausted);
        }
        if pos >= s.send_limit {
            return Err(Error::ReservationExhausted);
        }
        if pos > s.send.pos {
            // Sender-side skip (trusted input): the skipped keys are never made.
            s.send.jump_to(pos);
        }
        #[allow(clippy::cast_possible_truncation, reason = "pos < 2^32 checked above")]
        let counter = pos as u32;
        s.sent_packets = s.sent_packets.saturating_add(1);
        s.sent_bytes = s.sent_bytes.saturating_add(len as u64);
        let (dir, _) = directions(self.role);
        // The key is derived straight into the returned value (no stack copy to wipe).
        let mut k = PacketKey {
            epoch: s.epoch,
            counter,
            direction: dir,
            key: [0; 32],
        };
        s.send.step_with(&self.kdf, &mut k.key);
        Ok(k)
    }

    /// Moves sending to `epoch + 1` (owner: after decapsulating; peer: after
    /// the first authentic e+1 record). Old receive state enters its grace period.
    pub(crate) fn switch_to_next(&mut self, now: Instant) {
        let Some(n) = self.slot_of(self.epoch.wrapping_add(1)) else {
            return;
        };
        if self.epoch > 0
            && let Some(p) = self.slot_of(self.epoch - 1)
        {
            self.slots[p].zeroize();
        }
        let owner = self.is_owner();
        let c = self.cur();
        let grace = self.grace_ms();
        let old = &mut self.slots[c];
        old.send.zeroize();
        old.send_live = false;
        old.rk.zeroize();
        old.rk_live = false;
        old.xk.zeroize();
        #[cfg(feature = "test-utils")]
        {
            old.v1_root = None;
        }
        // Owner: bounded until the peer's first e+1 record shortens it to the grace.
        old.expires = Some(if owner {
            now.plus(self.cfg.reject_after_ms)
        } else {
            now.plus(grace)
        });
        self.epoch = self.epoch.wrapping_add(1);
        self.slots[n].started = now;
        self.ratchets_completed = self.ratchets_completed.saturating_add(1);
        self.overdue_reported = false;
        self.epoch_auth_failures = 0;
        let k = &mut self.kem;
        k.phase = if owner {
            Phase::OwnerConfirm
        } else {
            Phase::Idle
        };
        k.seed.zeroize();
        k.blob_done = false;
        k.decoding = false;
        k.app_request = false;
        k.peer_requested = false;
        // Attempt ids are per epoch: the next epoch's owner draws its own.
        k.dead_rids = [None; DEAD_RIDS];
        // Tell the other side at once (owner: epoch confirm; peer: proof of switch).
        k.owe_reply = true;
        k.pace_at = now;
        k.pace_ms = self.cfg.pacing_initial_ms;
        k.confirm_since = now;
        k.wedge_reported = false;
        self.events.push(Event::EpochAdvanced { epoch: self.epoch });
    }

    /// RFC 5705-style exporter from the current epoch's root.
    ///
    /// # Errors
    /// [`Error::Closed`] if the current root was already erased (a ratchet is half done).
    pub fn export_secret(&self, label: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let c = &self.slots[self.cur()];
        if !c.rk_live || label.len() > 255 {
            return Err(Error::Closed);
        }
        kdf::exporter(&c.xk, label, out);
        Ok(())
    }
}

#[cfg(all(test, feature = "mlkem"))]
#[allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "test code"
)]
mod tests;
