//! RATCHET.md §1.1 layer L1: the key schedule without framing.
//!
//! Epochs, chains, receive windows and the KEM state machine (§1.4, §1.7–1.9).
//! It hands out `(epoch, counter, key)` for sending and *candidates* for
//! receiving; a candidate changes nothing until [`KeySchedule::commit`] is
//! called after the caller's AEAD check succeeded. (Deriving a candidate
//! writes only scratch that is not part of the state: the lookahead cache,
//! and the chains the candidate will commit — `Window::pending` and
//! `Window::next_ck` — which are derivable from the window's chain, not
//! exported, and wiped at the window's next commit.)

use core::fmt;
use core::marker::PhantomData;

use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::Error;
use crate::chain::{POSITION_END, SEGMENT, SEGMENT_SHIFT};
use crate::config::{Config, Event, Events, HardStop, InitialSecret, Instant, Role, Status};
use crate::epoch::{EpochSlot, directions};
use crate::exchange::{KemMachine, Phase};
use crate::kdf::{self, PacketKdf};
use crate::kem::{self, RatchetKem};
use crate::keys::{Candidate, CandidateKind, PacketKey, SendKey};
use crate::timers::jitter;
use crate::window::Lookup;

/// HPKE AEAD identifier of ChaCha20-Poly1305, bound into `root_0`.
pub const AEAD_ID: u16 = 0x0003;
/// Whether the step from `counter` crosses into the next segment.
fn ends_segment(counter: u32) -> bool {
    (u64::from(counter) + 1) & (SEGMENT - 1) == 0
}

/// Token bucket bounding pre-authentication derivation work (RATCHET.md §1.8).
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
    /// RATCHET.md §1.11 rule 1: set by `import_state`; nothing is sent until
    /// the application has exported again.
    pub(crate) export_required: bool,
    /// The reservation of the last export: an epoch installed after it may
    /// carry at most this many records before the next export (`u64::MAX`:
    /// never exported).
    pub(crate) send_reserve: u64,
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

    /// Creates the schedule at epoch 0 from the handshake secret (RATCHET.md §1.3).
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
            ratchets_completed: self.ratchets_completed,
            auth_failures: self.auth_failures,
            confirmed: self.rx_ok && self.tx_ok,
            wedged: self.wedged(now),
            send_counter: c.send.pos,
            closed: self.closed,
        }
    }

    /// The owner switched epochs and no authentic record of the new epoch
    /// came from the peer within `confirm_timeout_ms` (RATCHET.md §1.8).
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
        s.send.step_with(&mut self.kdf, &mut k.key);
        Ok(k)
    }

    // ------------------------------------------------------------------ receive

    /// The live slot whose epoch has low byte `lo`.
    pub(crate) fn slot_by_lo(&self, lo: u8) -> Option<usize> {
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        self.slots
            .iter()
            .position(|s| s.live && s.epoch as u8 == lo)
    }

    /// Looks up (without changing the key state) the receive key for
    /// `(epoch_lo, counter)`; `counter = None` means "the next expected one"
    /// (stream mode). Only the pre-authentication token bucket is charged.
    ///
    /// # Errors
    /// [`Error::Closed`], [`Error::UnknownEpoch`], [`Error::TooOld`],
    /// [`Error::Replay`], [`Error::TooFarAhead`].
    #[inline(always)]
    pub(crate) fn candidate(
        &mut self,
        epoch_lo: u8,
        counter: Option<u32>,
        now: Instant,
    ) -> Result<Candidate, Error> {
        // Fast path, inlined into the callers: the next record in order of
        // the current epoch (one packet step, nothing else to decide).
        let cur = self.cur();
        let (_, theirs) = directions(self.role);
        let w = &mut self.slots[cur].recv;
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        let lo = self.epoch as u8;
        if !self.closed
            && epoch_lo == lo
            && let Some(c) = counter.or_else(|| u32::try_from(w.next).ok())
            && u64::from(c) == w.next
            && !ends_segment(c)
            && u64::from(c) < POSITION_END
        {
            let epoch = self.epoch;
            let mut cand = Candidate::new([0; 32], (epoch, c, theirs), cur, CandidateKind::Next);
            self.kdf
                .step_into(&w.chain.ck, c, &mut w.next_ck, &mut cand.pk.key);
            w.next_ck_for = u64::from(c);
            return Ok(cand);
        }
        self.candidate_slow(epoch_lo, counter, now)
    }

    /// [`KeySchedule::candidate`] for everything but the in-order record of
    /// the current epoch.
    #[inline(never)]
    fn candidate_slow(
        &mut self,
        epoch_lo: u8,
        counter: Option<u32>,
        now: Instant,
    ) -> Result<Candidate, Error> {
        if self.closed {
            return Err(Error::Closed);
        }
        let slot = self.slot_by_lo(epoch_lo).ok_or(Error::UnknownEpoch)?;
        let (_, theirs) = directions(self.role);
        let w = &self.slots[slot].recv;
        let counter = match counter {
            Some(c) => c,
            None => u32::try_from(w.next).map_err(|_| Error::TooFarAhead)?,
        };
        let epoch = self.slots[slot].epoch;
        match w.lookup(counter, self.cfg.max_jump) {
            Lookup::TooOld => Err(Error::TooOld),
            Lookup::Replay => Err(Error::Replay),
            Lookup::TooFarAhead => Err(Error::TooFarAhead),
            Lookup::Stored(i) => Ok(Candidate::new(
                w.skipped[i].key,
                (epoch, counter, theirs),
                slot,
                CandidateKind::Stored(i),
            )),
            Lookup::Ahead if u64::from(counter) == w.next && !ends_segment(counter) => {
                // In order (the common case): one step, no scratch chains.
                let mut cand =
                    Candidate::new([0; 32], (epoch, counter, theirs), slot, CandidateKind::Next);
                let w = &mut self.slots[slot].recv;
                self.kdf
                    .step_into(&w.chain.ck, counter, &mut w.next_ck, &mut cand.pk.key);
                w.next_ck_for = u64::from(counter);
                Ok(cand)
            }
            Lookup::Ahead => {
                let c = u64::from(counter);
                if w.pending.live && w.pending.c == c && w.pending.next == w.next {
                    // The same derivation as the last uncommitted candidate
                    // (a repeated forgery): no new steps (RATCHET.md §1.8).
                    let kind = CandidateKind::Ahead {
                        expect_next: w.next,
                    };
                    let key = w.pending.mk;
                    return Ok(Candidate::new(key, (epoch, counter, theirs), slot, kind));
                }
                let keep = w.keep_for(c);
                let p0 = c - keep;
                let jt = p0 >> SEGMENT_SHIFT;
                // Segment walk starts at the best cached checkpoint, if any.
                let start = w
                    .best_checkpoint(jt)
                    .map_or(w.chain.pos >> SEGMENT_SHIFT, |i| w.checkpoints[i].seg);
                let here = w.chain.pos >> SEGMENT_SHIFT;
                let cost = if jt == here {
                    // Inside the chain's own segment: the walk starts at the
                    // chain's position (packet steps to `c`, then `c` itself).
                    p0 - w.chain.pos + keep + 1
                } else {
                    // Segment steps from the start point, entering `jt`
                    // (2), packet steps to `c`, then `c` itself.
                    jt.saturating_sub(start) + (p0 & (SEGMENT - 1)) + keep + 2
                };
                // Only the in-order record (`c = next`: at most a packet step
                // and a segment entry) is free; every other derivation is
                // charged before it is made (RATCHET.md §1.8, revised).
                if c != w.next {
                    self.charge(cost, now)?;
                }
                let w = &mut self.slots[slot].recv;
                let kind = CandidateKind::Ahead {
                    expect_next: w.next,
                };
                let mut cand = Candidate::new([0; 32], (epoch, counter, theirs), slot, kind);
                w.prepare_ahead(c, keep, &mut cand.pk.key);
                Ok(cand)
            }
        }
    }

    pub(crate) fn charge(&mut self, cost: u64, now: Instant) -> Result<(), Error> {
        let rate = u64::from(self.cfg.unauth_derivation_budget);
        let elapsed = now.since(self.bucket.at);
        let refill = u128::from(elapsed) * u128::from(rate);
        #[allow(
            clippy::integer_division_remainder_used,
            reason = "public time arithmetic"
        )]
        let refill = u64::try_from(refill / 1000).unwrap_or(u64::MAX);
        self.bucket.tokens = self.bucket.tokens.saturating_add(refill).min(rate);
        self.bucket.at = now;
        if self.bucket.tokens < cost {
            return Err(Error::TooFarAhead);
        }
        self.bucket.tokens -= cost;
        Ok(())
    }

    /// Counts a failed authentication (with the token bucket, the only change
    /// an unauthentic record makes). At `auth_failure_limit` failures in one
    /// epoch an [`Event::AuthFailureAlarm`] is raised once; the session is
    /// never closed by unauthenticated input (RATCHET.md §1.8 step 4).
    pub(crate) fn auth_failed(&mut self) {
        self.auth_failures = self.auth_failures.saturating_add(1);
        self.epoch_auth_failures = self.epoch_auth_failures.saturating_add(1);
        if self.epoch_auth_failures == self.cfg.auth_failure_limit {
            self.events
                .push(Event::AuthFailureAlarm { epoch: self.epoch });
        }
    }

    /// Commits an authenticated candidate: consumes its key, stores skipped
    /// keys, sets the replay bit, and performs the causal epoch switch.
    ///
    /// # Errors
    /// [`Error::Replay`] if the state changed since the candidate was made.
    #[inline(always)]
    pub(crate) fn commit(&mut self, cand: Candidate, now: Instant) -> Result<(), Error> {
        let s = &mut self.slots[cand.slot];
        if !s.live || s.epoch != cand.epoch {
            return Err(Error::Replay);
        }
        match cand.kind {
            CandidateKind::Stored(i) => {
                if i >= s.recv.n_skipped || s.recv.skipped[i].counter != cand.counter {
                    return Err(Error::Replay);
                }
                s.recv.clear_pending();
                s.recv.commit_stored(i);
            }
            CandidateKind::Next => {
                let c = u64::from(cand.counter);
                if s.recv.next != c {
                    return Err(Error::Replay);
                }
                if s.recv.next_ck_for != c {
                    // Another candidate replaced it since: derive it again.
                    let mut mk = [0u8; 32];
                    let w = &mut s.recv;
                    self.kdf
                        .step_into(&w.chain.ck, cand.counter, &mut w.next_ck, &mut mk);
                    kdf::wipe_key(&mut mk);
                }
                s.recv.commit_next();
                s.recv.clear_pending();
            }
            CandidateKind::Ahead { expect_next } => {
                if s.recv.next != expect_next {
                    return Err(Error::Replay);
                }
                s.recv.commit_pending(u64::from(cand.counter));
            }
        }
        s.recv_any = true;
        self.rx_ok = true;
        let epoch = cand.epoch;
        if epoch != self.epoch || self.kem.phase == Phase::OwnerConfirm {
            self.after_commit(epoch, now);
        }
        Ok(())
    }

    /// The causal epoch switch after a commit in another epoch than the
    /// sending one, or while the owner waits for the peer's switch.
    #[inline(never)]
    fn after_commit(&mut self, epoch: u64, now: Instant) {
        if epoch == self.epoch.wrapping_add(1) {
            // Peer side, step 4: the owner has switched (it decapsulated the
            // ct this side sent: proof it decrypts our records); follow it.
            self.tx_ok = true;
            self.switch_to_next(now);
        } else if epoch == self.epoch && self.kem.phase == Phase::OwnerConfirm {
            // Owner side: the peer has switched (after decrypting our e+1
            // record); start its grace countdown.
            self.tx_ok = true;
            self.kem.phase = Phase::Idle;
            self.kem.wedge_reported = false;
            self.start_grace(now);
        }
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
#[path = "schedule_tests.rs"]
#[allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "test code"
)]
mod tests;
