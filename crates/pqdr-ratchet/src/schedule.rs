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
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;
use crate::chain::{Chain, POSITION_END, SEGMENT, SEGMENT_SHIFT};
use crate::codec::{self, Decoder};
use crate::config::{AbortReason, Config, Event, HardStop, InitialSecret, Instant, Role, Status};
use crate::kdf::{self, Direction, Key, PacketKdf};
use crate::kem::{self, MAX_BLOB_LEN, MAX_SEED_LEN, RatchetKem};
use crate::window::{Lookup, Window};
use crate::wire::{Blob, Symbol};

/// HPKE AEAD identifier of ChaCha20-Poly1305, bound into `root_0`.
pub const AEAD_ID: u16 = 0x0003;
/// Counter from which a ratchet is forced (RATCHET.md §1.7).
const FORCE_RATCHET_AT: u64 = 1 << 31;

/// KEM phases (public values).
pub(crate) mod phase {
    /// No ratchet in flight (the peer may be collecting ek symbols).
    pub(crate) const IDLE: u8 = 0;
    /// Owner: ek sent, collecting ct symbols.
    pub(crate) const OWNER_EK: u8 = 1;
    /// Owner: switched to e+1, waiting for the peer's first e+1 packet.
    pub(crate) const OWNER_CONFIRM: u8 = 2;
    /// Peer: e+1 installed, sending ct symbols, still sending in e.
    pub(crate) const PEER_CT: u8 = 3;
}

/// Keys and windows of one live epoch.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct EpochSlot<const WW: usize, const MS: usize> {
    pub(crate) live: bool,
    pub(crate) epoch: u64,
    /// `rk_e` (RATCHET.md §1.4): enters only the next root step; erased when
    /// sending moves to the next epoch. `root_e` itself is never kept.
    pub(crate) rk: Key,
    pub(crate) rk_live: bool,
    /// `xk_e`: the exporter key of the epoch (erased with `rk`).
    pub(crate) xk: Key,
    /// Test-only (`testing::V1Leak`): the v1 derivation kept `root_e` for the
    /// whole epoch; the FS experiment shows what that leaks.
    #[cfg(feature = "test-utils")]
    pub(crate) v1_root: Option<Key>,
    pub(crate) send: Chain,
    pub(crate) send_live: bool,
    /// Reservation limit: no send at or beyond this position (`u64::MAX`: none).
    pub(crate) send_limit: u64,
    pub(crate) sent_packets: u64,
    pub(crate) sent_bytes: u64,
    pub(crate) recv: Window<WW, MS>,
    pub(crate) recv_any: bool,
    pub(crate) started: Instant,
    pub(crate) rekey_at_ms: u64,
    /// Erase at this time (grace period of an old epoch).
    pub(crate) expires: Option<Instant>,
}

impl<const WW: usize, const MS: usize> EpochSlot<WW, MS> {
    fn dead() -> Self {
        EpochSlot {
            live: false,
            epoch: 0,
            rk: [0; 32],
            rk_live: false,
            xk: [0; 32],
            #[cfg(feature = "test-utils")]
            v1_root: None,
            send: Chain::empty(),
            send_live: false,
            send_limit: u64::MAX,
            sent_packets: 0,
            sent_bytes: 0,
            recv: Window::new(Chain::empty()),
            recv_any: false,
            started: Instant(0),
            rekey_at_ms: 0,
            expires: None,
        }
    }

    /// Installs epoch `epoch` from its root in place (RATCHET.md §1.4 as
    /// revised: the root's four children at once, then the root is erased).
    /// `send_limit` is the number of records the send chain may carry before
    /// the next export (`u64::MAX`: no export reservation is active).
    #[allow(clippy::too_many_arguments, reason = "one call site per role")]
    fn install(
        &mut self,
        epoch: u64,
        root: &mut Key,
        role: Role,
        now: Instant,
        rekey_at_ms: u64,
        send_limit: u64,
        keep_v1_root: bool,
    ) {
        self.zeroize();
        #[cfg(feature = "test-utils")]
        if keep_v1_root {
            self.v1_root = Some(*root);
        }
        let _ = keep_v1_root;
        let keys = kdf::EpochKeys::from_root(root);
        let (mine, theirs) = directions(role);
        self.live = true;
        self.epoch = epoch;
        self.rk = keys.rk;
        self.rk_live = true;
        self.xk = keys.xk;
        self.send = Chain::from_seg0(keys.seg0(mine));
        self.send_live = true;
        self.send_limit = send_limit;
        self.recv = Window::new(Chain::from_seg0(keys.seg0(theirs)));
        self.started = now;
        self.rekey_at_ms = rekey_at_ms;
    }
}

/// `(my sending direction, peer's sending direction)`.
pub(crate) fn directions(role: Role) -> (Direction, Direction) {
    match role {
        Role::Initiator => (Direction::I2R, Direction::R2I),
        Role::Responder => (Direction::R2I, Direction::I2R),
    }
}

/// The KEM state machine of RATCHET.md §1.7 (at most one ratchet in flight).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct KemMachine {
    pub(crate) phase: u8,
    pub(crate) rid: u16,
    pub(crate) started: Instant,
    /// Owner's key-generation seed (the only form the dk is kept in).
    pub(crate) seed: [u8; MAX_SEED_LEN],
    /// Public blob being sent: ek (owner) or ct (peer).
    pub(crate) blob: [u8; MAX_BLOB_LEN],
    /// The other side acknowledged `blob`.
    pub(crate) blob_done: bool,
    pub(crate) next_idx: u8,
    /// Peer collecting ek symbols for `dec_rid` / owner collecting ct symbols.
    pub(crate) decoding: bool,
    pub(crate) dec_rid: u16,
    #[zeroize(skip)]
    pub(crate) decoder: Decoder,
    /// Attempt aborted by us or the owner; its symbols are ignored.
    pub(crate) dead_rid: Option<u16>,
    pub(crate) app_request: bool,
    pub(crate) peer_requested: bool,
    pub(crate) next_start_at: Instant,
    pub(crate) abort_pending: Option<(u16, u8)>,
    pub(crate) done_pending: Option<(u16, u8)>,
    pub(crate) owe_reply: bool,
    pub(crate) pace_at: Instant,
    pub(crate) pace_ms: u64,
    /// Owner: when it switched to the new epoch (`OWNER_CONFIRM` start).
    pub(crate) confirm_since: Instant,
    /// `Event::Wedged` was raised for the current confirmation wait.
    pub(crate) wedge_reported: bool,
}

impl KemMachine {
    fn new() -> Self {
        KemMachine {
            phase: phase::IDLE,
            rid: 0,
            started: Instant(0),
            seed: [0; MAX_SEED_LEN],
            blob: [0; MAX_BLOB_LEN],
            blob_done: false,
            next_idx: 0,
            decoding: false,
            dec_rid: 0,
            decoder: Decoder::new(),
            dead_rid: None,
            app_request: false,
            peer_requested: false,
            next_start_at: Instant(0),
            abort_pending: None,
            done_pending: None,
            owe_reply: false,
            pace_at: Instant(0),
            pace_ms: 0,
            confirm_since: Instant(0),
            wedge_reported: false,
        }
    }
}

/// A bounded queue of public events.
#[derive(Debug, Default, Zeroize)]
pub(crate) struct Events {
    #[zeroize(skip)]
    buf: [Option<Event>; 8],
    head: usize,
    len: usize,
}

impl Events {
    fn push(&mut self, e: Event) {
        if self.len == self.buf.len() {
            self.head = (self.head + 1) & 7;
            self.len -= 1;
        }
        self.buf[(self.head + self.len) & 7] = Some(e);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<Event> {
        if self.len == 0 {
            return None;
        }
        let e = self.buf[self.head].take();
        self.head = (self.head + 1) & 7;
        self.len -= 1;
        e
    }
}

/// The message key and nonce for one record to send.
///
/// `repr(C)` with the key first: `next_send` derives the key into a local
/// `SendKey` with two 16-byte stores and then moves the value out in 16-byte
/// loads; with the key at offset 0 each load reads exactly one of those
/// stores (store-to-load forwarding), while the default layout put the epoch
/// first and made every load straddle two stores, a forwarding stall of
/// ≈ 15 ns per packet (BENCHMARKS.md).
#[repr(C)]
pub struct SendKey {
    key: Key,
    /// Epoch of the record.
    pub epoch: u64,
    /// Counter of the record.
    pub counter: u32,
    /// Sending direction.
    pub direction: Direction,
}

impl SendKey {
    /// The ChaCha20-Poly1305 key `mk`.
    pub fn key(&self) -> &[u8; 32] {
        &self.key
    }

    /// `dir ‖ 0x000000 ‖ be32(epoch mod 2^32) ‖ be32(counter)`.
    pub fn nonce(&self) -> [u8; 12] {
        nonce(self.direction, self.epoch, self.counter)
    }
}

impl Drop for SendKey {
    fn drop(&mut self) {
        kdf::wipe_key(&mut self.key);
    }
}

impl fmt::Debug for SendKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SendKey")
            .field("epoch", &self.epoch)
            .field("counter", &self.counter)
            .finish_non_exhaustive()
    }
}

/// RATCHET.md §1.4 nonce.
#[allow(
    clippy::cast_possible_truncation,
    reason = "epoch mod 2^32 by definition"
)]
pub(crate) fn nonce(dir: Direction, epoch: u64, counter: u32) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[0] = dir.byte();
    n[4..8].copy_from_slice(&(epoch as u32).to_be_bytes());
    n[8..12].copy_from_slice(&counter.to_be_bytes());
    n
}

/// Whether the step from `counter` crosses into the next segment.
fn ends_segment(counter: u32) -> bool {
    (u64::from(counter) + 1) & (SEGMENT - 1) == 0
}

enum CandidateKind {
    Stored(usize),
    /// The next counter in order, not the last of its segment: one packet
    /// step from the window's chain, whose new chain key waits in the
    /// window's `next_ck`.
    Next,
    /// Any other counter at or after `next`: the chains to commit are in the
    /// window's `pending` scratch (`Window::prepare_ahead`).
    Ahead {
        expect_next: u64,
    },
}

/// A receive key derived on scratch: nothing changes until it is committed.
///
/// `repr(C)` with the key first, and small (80 bytes: the chains to commit
/// wait in the window): moving it (returned by `candidate`, passed to
/// `commit`) is then a few 16-byte copies, each reading exactly one of the
/// 16-byte stores that wrote the key, instead of a `memcpy` call whose 32-
/// and 64-byte loads straddle them and stall (BENCHMARKS.md).
#[repr(C)]
pub struct Candidate {
    key: Key,
    /// Epoch of the record.
    pub epoch: u64,
    slot: usize,
    kind: CandidateKind,
    /// Counter of the record.
    pub counter: u32,
    direction: Direction,
}

impl Candidate {
    /// The ChaCha20-Poly1305 key to try.
    pub fn key(&self) -> &[u8; 32] {
        &self.key
    }

    /// The nonce to try.
    pub fn nonce(&self) -> [u8; 12] {
        nonce(self.direction, self.epoch, self.counter)
    }
}

impl Drop for Candidate {
    fn drop(&mut self) {
        kdf::wipe_key(&mut self.key);
    }
}

impl fmt::Debug for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Candidate")
            .field("epoch", &self.epoch)
            .field("counter", &self.counter)
            .finish_non_exhaustive()
    }
}

/// One outgoing KEM symbol (its bytes were written to the caller's buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymbolOut {
    /// Attempt id.
    pub rid: u16,
    /// ek or ct.
    pub blob: Blob,
    /// Data symbols of the blob.
    pub k: u8,
    /// Symbol index.
    pub idx: u8,
    /// Symbol length.
    pub sym_len: usize,
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

/// Jittered rekey age: `rekey_after_ms · (0.9 + 0.2·u)` for a uniform `u`.
fn jitter(rekey_after_ms: u64, mut r: u32) -> u64 {
    // Public by design: the rekey time is observable from the traffic.
    pqdr_ct::hook::declassify(&mut r);
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "public configuration value"
    )]
    let tenth = rekey_after_ms / 10;
    let span = (u128::from(tenth) * 2 * u128::from(r)) >> 32;
    #[allow(clippy::cast_possible_truncation, reason = "span ≤ 2·tenth")]
    let span = span as u64;
    rekey_after_ms - tenth + span
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

    fn cur(&self) -> usize {
        // The current epoch always has a live slot (invariant of every transition).
        self.slot_of(self.epoch).unwrap_or(0)
    }

    fn free_slot(&mut self) -> usize {
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

    fn is_owner(&self) -> bool {
        Role::owner_of(self.epoch) == self.role
    }

    /// Pops the next pending event.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop()
    }

    /// Sets a round-trip-time hint: old-epoch receive state then lives
    /// `max(3 × RTT, 1 ms)` instead of `old_epoch_grace_ms` (RATCHET.md §1.7
    /// step 5). `None` restores the configured grace. Not persisted.
    pub fn set_rtt_hint(&mut self, rtt_ms: Option<u64>) {
        self.rtt_hint_ms = rtt_ms;
    }

    /// The grace period of an old epoch's receive state.
    fn grace_ms(&self) -> u64 {
        self.rtt_hint_ms
            .map_or(self.cfg.old_epoch_grace_ms, |r| r.saturating_mul(3).max(1))
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
            ratchet_in_flight: self.kem.phase != phase::IDLE,
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
        self.kem.phase == phase::OWNER_CONFIRM
            && now.since(self.kem.confirm_since) >= self.cfg.confirm_timeout_ms
    }

    /// Raises an error on the stream (stream mode: every failure is fatal).
    pub(crate) fn close(&mut self) {
        self.closed = true;
    }

    // ------------------------------------------------------------------ send

    /// Hands out the key of the next record in the current epoch and advances
    /// the send chain. `len` is the record's plaintext length (byte trigger).
    ///
    /// # Errors
    /// [`Error::Closed`], [`Error::RekeyOverdue`] (hard stop),
    /// [`Error::EpochExhausted`] (counter space used up) or
    /// [`Error::ReservationExhausted`] (export reservation used up).
    pub fn next_send(&mut self, now: Instant, len: usize) -> Result<SendKey, Error> {
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
        let s = &mut self.slots[i];
        if !s.send_live || s.send.pos >= POSITION_END - u64::from(self.cfg.max_jump) {
            return Err(Error::EpochExhausted);
        }
        if s.send.pos >= s.send_limit {
            return Err(Error::ReservationExhausted);
        }
        #[allow(clippy::cast_possible_truncation, reason = "pos < 2^32 checked above")]
        let counter = s.send.pos as u32;
        s.sent_packets = s.sent_packets.saturating_add(1);
        s.sent_bytes = s.sent_bytes.saturating_add(len as u64);
        let (dir, _) = directions(self.role);
        // The key is derived straight into the returned value (no stack copy to wipe).
        let mut k = SendKey {
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
    fn slot_by_lo(&self, lo: u8) -> Option<usize> {
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
    pub fn candidate(
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
            Lookup::Stored(i) => Ok(Candidate {
                key: w.skipped[i].key,
                epoch,
                slot,
                kind: CandidateKind::Stored(i),
                counter,
                direction: theirs,
            }),
            Lookup::Ahead if u64::from(counter) == w.next && !ends_segment(counter) => {
                // In order (the common case): one step, no scratch chains.
                let mut cand = Candidate {
                    key: [0; 32],
                    epoch,
                    slot,
                    kind: CandidateKind::Next,
                    counter,
                    direction: theirs,
                };
                let w = &mut self.slots[slot].recv;
                self.kdf
                    .step_into(&w.chain.ck, counter, &mut w.next_ck, &mut cand.key);
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
                    return Ok(Candidate {
                        key,
                        epoch,
                        slot,
                        kind,
                        counter,
                        direction: theirs,
                    });
                }
                let keep = w.keep_for(c);
                let p0 = c - keep;
                let jt = p0 >> SEGMENT_SHIFT;
                // Segment walk starts at the best cached checkpoint, if any.
                let start = w
                    .best_checkpoint(jt)
                    .map_or(w.chain.pos >> SEGMENT_SHIFT, |i| w.checkpoints[i].seg);
                let cost = jt.saturating_sub(start) + (p0 & (SEGMENT - 1)) + keep + 2;
                // Only the in-order record (`c = next`: at most a packet step
                // and a segment entry) is free; every other derivation is
                // charged before it is made (RATCHET.md §1.8, revised).
                if c != w.next {
                    self.charge(cost, now)?;
                }
                let w = &mut self.slots[slot].recv;
                let mut cand = Candidate {
                    key: [0; 32],
                    epoch,
                    slot,
                    kind: CandidateKind::Ahead {
                        expect_next: w.next,
                    },
                    counter,
                    direction: theirs,
                };
                w.prepare_ahead(c, keep, &mut cand.key);
                Ok(cand)
            }
        }
    }

    fn charge(&mut self, cost: u64, now: Instant) -> Result<(), Error> {
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
    pub fn commit(&mut self, cand: Candidate, now: Instant) -> Result<(), Error> {
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
        if epoch == self.epoch.wrapping_add(1) {
            // Peer side, step 4: the owner has switched (it decapsulated the
            // ct this side sent: proof it decrypts our records); follow it.
            self.tx_ok = true;
            self.switch_to_next(now);
        } else if epoch == self.epoch && self.kem.phase == phase::OWNER_CONFIRM {
            // Owner side: the peer has switched (after decrypting our e+1
            // record); start its grace countdown.
            self.tx_ok = true;
            self.kem.phase = phase::IDLE;
            self.kem.wedge_reported = false;
            self.start_grace(now);
        }
        Ok(())
    }

    fn start_grace(&mut self, now: Instant) {
        if let Some(p) = self.slot_of(self.epoch.wrapping_sub(1))
            && self.epoch > 0
        {
            self.slots[p].expires = Some(now.plus(self.grace_ms()));
        }
    }

    /// Moves sending to `epoch + 1` (owner: after decapsulating; peer: after
    /// the first authentic e+1 record). Old receive state enters its grace period.
    fn switch_to_next(&mut self, now: Instant) {
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
            phase::OWNER_CONFIRM
        } else {
            phase::IDLE
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

    // ------------------------------------------------------------------ KEM

    /// Whether a ratchet trigger (time, packets, bytes, counter, request) is active.
    fn triggered(&self, now: Instant) -> bool {
        let c = &self.slots[self.cur()];
        self.kem.app_request
            || self.kem.peer_requested
            || now.since(c.started) >= c.rekey_at_ms
            || c.sent_packets >= self.cfg.rekey_after_packets
            || c.sent_bytes >= self.cfg.rekey_after_bytes
            || c.send.pos >= FORCE_RATCHET_AT
    }

    /// Advances timers: starts or aborts ratchets, expires grace epochs.
    pub fn on_time<R: CryptoRng + ?Sized>(&mut self, now: Instant, rng: &mut R) {
        for i in 0..3 {
            if self.slots[i].live
                && self.slots[i].epoch != self.epoch
                && let Some(t) = self.slots[i].expires
                && now >= t
                && self.slots[i].epoch < self.epoch
            {
                self.slots[i].zeroize();
            }
        }
        if self.wedged(now) && !self.kem.wedge_reported {
            self.kem.wedge_reported = true;
            self.events.push(Event::Wedged);
        }
        if self.kem.phase == phase::OWNER_EK
            && now.since(self.kem.started) >= self.cfg.ratchet_timeout_ms
        {
            self.abort_own(AbortReason::Timeout, true, now);
        }
        if self.kem.phase == phase::IDLE
            && self.is_owner()
            && now >= self.kem.next_start_at
            && self.triggered(now)
        {
            self.start_ratchet(now, rng);
        }
    }

    /// The time at which [`KeySchedule::on_time`] has something to do.
    pub fn next_timeout(&self) -> Option<Instant> {
        let mut t: Option<Instant> = None;
        let mut min = |x: Instant| {
            t = Some(match t {
                Some(y) if y <= x => y,
                _ => x,
            });
        };
        for s in &self.slots {
            if s.live
                && s.epoch != self.epoch
                && let Some(e) = s.expires
            {
                min(e);
            }
        }
        let c = &self.slots[self.cur()];
        match self.kem.phase {
            phase::OWNER_EK => min(self.kem.started.plus(self.cfg.ratchet_timeout_ms)),
            phase::OWNER_CONFIRM if !self.kem.wedge_reported => {
                min(self.kem.confirm_since.plus(self.cfg.confirm_timeout_ms));
            }
            phase::IDLE if self.is_owner() => {
                let due = c.started.plus(c.rekey_at_ms);
                let due = if self.kem.app_request || self.kem.peer_requested {
                    self.kem.next_start_at
                } else if due > self.kem.next_start_at {
                    due
                } else {
                    self.kem.next_start_at
                };
                min(due);
            }
            _ => {}
        }
        if !self.is_owner() && self.kem.phase == phase::IDLE {
            min(c.started.plus(c.rekey_at_ms));
        }
        if self.control_pending() {
            min(self.kem.pace_at);
        }
        t
    }

    /// Owner step 1: `(dk, ek) = generate_from_seed(rng)`, keep the seed.
    fn start_ratchet<R: CryptoRng + ?Sized>(&mut self, now: Instant, rng: &mut R) {
        let mut seed = [0u8; MAX_SEED_LEN];
        rng.fill_bytes(&mut seed[..K::SEED_LEN]);
        let [r0, r1, _, _] = rng.next_u32().to_be_bytes();
        let mut rid = u16::from_be_bytes([r0, r1]);
        // Public by design: the attempt id travels in KEM_SYMBOL frames.
        pqdr_ct::hook::declassify(&mut rid);
        if Some(rid) == self.kem.dead_rid || rid == self.kem.rid {
            rid = rid.wrapping_add(1);
        }
        self.start_ratchet_with(now, &seed, rid);
        seed.zeroize();
    }

    /// Owner step 1 with explicit randomness (test vectors).
    pub(crate) fn start_ratchet_with(&mut self, now: Instant, seed: &[u8; MAX_SEED_LEN], rid: u16) {
        let k = &mut self.kem;
        k.seed = *seed;
        K::generate_from_seed(&k.seed[..K::SEED_LEN], &mut k.blob[..K::EK_LEN]);
        // Public by design: the encapsulation key is sent to the peer (RATCHET.md §1.7 step 1).
        pqdr_ct::hook::declassify(&mut k.blob[..K::EK_LEN]);
        k.phase = phase::OWNER_EK;
        k.rid = rid;
        k.started = now;
        k.blob_done = false;
        k.next_idx = 0;
        k.decoding = true;
        k.dec_rid = rid;
        k.decoder.reset(K::CT_LEN);
        k.next_start_at = now.plus(self.cfg.min_ratchet_interval_ms);
        k.pace_at = now;
        k.pace_ms = self.cfg.pacing_initial_ms;
        self.events
            .push(Event::RatchetStarted { epoch: self.epoch });
    }

    /// Owner abandons its attempt (timeout or peer abort).
    fn abort_own(&mut self, reason: AbortReason, tell_peer: bool, now: Instant) {
        let k = &mut self.kem;
        k.seed.zeroize();
        k.phase = phase::IDLE;
        k.decoding = false;
        k.dead_rid = Some(k.rid);
        if tell_peer {
            k.abort_pending = Some((k.rid, reason.code()));
        }
        k.next_start_at = now.plus(self.cfg.min_ratchet_interval_ms);
        self.events.push(Event::RatchetAborted { reason });
    }

    /// Peer drops an installed-but-unused next epoch (attempt aborted or superseded).
    fn drop_next(&mut self) {
        if let Some(n) = self.slot_of(self.epoch.wrapping_add(1)) {
            self.slots[n].zeroize();
        }
        self.kem.phase = phase::IDLE;
        self.kem.blob_done = false;
    }

    /// Handles a KEM_SYMBOL frame from an authentic record of `epoch`.
    pub fn handle_symbol<R: CryptoRng + ?Sized>(
        &mut self,
        epoch: u64,
        sym: &Symbol<'_>,
        now: Instant,
        rng: &mut R,
    ) {
        match sym.blob {
            Blob::Ek => {
                if epoch != self.epoch || self.is_owner() || Some(sym.rid) == self.kem.dead_rid {
                    return;
                }
                if self.kem.phase == phase::PEER_CT {
                    if sym.rid == self.kem.rid {
                        return;
                    }
                    // The owner started a new attempt: the installed one is void.
                    self.drop_next();
                }
                if !self.kem.decoding || self.kem.dec_rid != sym.rid {
                    self.kem.decoding = true;
                    self.kem.dec_rid = sym.rid;
                    self.kem.decoder.reset(K::EK_LEN);
                }
                let sym_len = sym.data.len();
                if self.kem.decoder.add(sym.k, sym_len, sym.idx, sym.data) {
                    let mut m = [0u8; MAX_SEED_LEN];
                    rng.fill_bytes(&mut m[..K::ENCAPS_SEED_LEN]);
                    self.peer_encapsulate(now, &m, rng.next_u32());
                    m.zeroize();
                }
            }
            Blob::Ct => {
                if !self.is_owner() && self.kem.phase != phase::OWNER_CONFIRM {
                    return;
                }
                if sym.rid != self.kem.rid {
                    return;
                }
                if self.kem.phase == phase::OWNER_CONFIRM {
                    // The peer has not seen our e+1 records yet: answer once.
                    if epoch.wrapping_add(1) == self.epoch {
                        self.kem.owe_reply = true;
                    }
                    return;
                }
                if self.kem.phase != phase::OWNER_EK || epoch != self.epoch {
                    return;
                }
                // Receiving ct symbols acknowledges the ek implicitly (and
                // proves that the peer decrypts our records).
                self.kem.blob_done = true;
                self.tx_ok = true;
                let sym_len = sym.data.len();
                if self.kem.decoder.add(sym.k, sym_len, sym.idx, sym.data) {
                    let r = rng.next_u32();
                    self.owner_decapsulate(now, r);
                }
            }
        }
    }

    /// Peer step 2: on ek decode, `(ct, ss) = encaps(ek)`, compute `root_{e+1}`,
    /// install e+1, keep sending in e, send ct symbols.
    pub(crate) fn peer_encapsulate(&mut self, now: Instant, m: &[u8; MAX_SEED_LEN], r: u32) {
        let mut ek = [0u8; MAX_BLOB_LEN];
        if !self.kem.decoder.decode(&mut ek[..K::EK_LEN]) {
            return;
        }
        let rid = self.kem.dec_rid;
        self.kem.decoding = false;
        let mut ss = [0u8; 32];
        let mut ct = [0u8; MAX_BLOB_LEN];
        if K::encapsulate_deterministic(
            &ek[..K::EK_LEN],
            &m[..K::ENCAPS_SEED_LEN],
            &mut ct[..K::CT_LEN],
            &mut ss,
        )
        .is_err()
        {
            self.kem.dead_rid = Some(rid);
            self.kem.abort_pending = Some((rid, AbortReason::InvalidKey.code()));
            self.events.push(Event::RatchetAborted {
                reason: AbortReason::InvalidKey,
            });
            return;
        }
        // Public by design: the ciphertext is sent to the owner (RATCHET.md §1.7 step 2).
        pqdr_ct::hook::declassify(&mut ct[..K::CT_LEN]);
        let next = self.epoch.wrapping_add(1);
        let owner = Role::owner_of(self.epoch).byte();
        let mut th =
            kdf::kem_transcript(next, K::ID, owner, rid, &ek[..K::EK_LEN], &ct[..K::CT_LEN]);
        let c = self.cur();
        let mut root = kdf::root_step(&self.slots[c].rk, &ss, &th);
        ss.zeroize();
        th.zeroize();
        let n = self.free_slot();
        let rekey = jitter(self.cfg.rekey_after_ms, r);
        let (limit, v1) = (self.send_reserve, self.v1_leak);
        self.slots[n].install(next, &mut root, self.role, now, rekey, limit, v1);
        let k = &mut self.kem;
        k.blob[..K::CT_LEN].copy_from_slice(&ct[..K::CT_LEN]);
        k.phase = phase::PEER_CT;
        k.rid = rid;
        k.started = now;
        k.blob_done = false;
        k.next_idx = 0;
        k.done_pending = Some((rid, Blob::Ek as u8));
        k.pace_at = now;
        k.pace_ms = self.cfg.pacing_initial_ms;
        self.events.push(Event::NextEpochReady { epoch: next });
    }

    /// Owner step 3: on ct decode, `ss = decaps(dk, ct)`, erase the seed,
    /// compute `root_{e+1}`, install e+1 and switch sending to it at once.
    fn owner_decapsulate(&mut self, now: Instant, r: u32) {
        let mut ct = [0u8; MAX_BLOB_LEN];
        if !self.kem.decoder.decode(&mut ct[..K::CT_LEN]) {
            return;
        }
        let mut ss = [0u8; 32];
        K::decapsulate(&self.kem.seed[..K::SEED_LEN], &ct[..K::CT_LEN], &mut ss);
        self.kem.seed.zeroize();
        self.kem.decoding = false;
        let next = self.epoch.wrapping_add(1);
        let mut th = kdf::kem_transcript(
            next,
            K::ID,
            self.role.byte(),
            self.kem.rid,
            &self.kem.blob[..K::EK_LEN],
            &ct[..K::CT_LEN],
        );
        let c = self.cur();
        let mut root = kdf::root_step(&self.slots[c].rk, &ss, &th);
        ss.zeroize();
        th.zeroize();
        let n = self.free_slot();
        let rekey = jitter(self.cfg.rekey_after_ms, r);
        let (limit, v1) = (self.send_reserve, self.v1_leak);
        self.slots[n].install(next, &mut root, self.role, now, rekey, limit, v1);
        self.switch_to_next(now);
    }

    /// Handles KEM_DONE.
    pub fn handle_done(&mut self, rid: u16, blob: Blob) {
        let k = &mut self.kem;
        if rid != k.rid {
            return;
        }
        match (blob, k.phase) {
            (Blob::Ek, phase::OWNER_EK) | (Blob::Ct, phase::PEER_CT) => {
                k.blob_done = true;
                self.tx_ok = true;
            }
            _ => {}
        }
    }

    /// Handles RATCHET_REQUEST from an authentic record of `epoch`.
    pub fn handle_request(&mut self, epoch: u64, next_epoch_lo: u8) {
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        let lo = self.epoch.wrapping_add(1) as u8;
        if epoch == self.epoch && next_epoch_lo == lo && self.is_owner() {
            self.kem.peer_requested = true;
        }
    }

    /// Handles RATCHET_ABORT.
    pub fn handle_abort(&mut self, rid: u16, now: Instant) {
        if self.kem.phase == phase::OWNER_EK && rid == self.kem.rid {
            self.abort_own(AbortReason::Peer, false, now);
        } else if self.kem.phase == phase::PEER_CT && rid == self.kem.rid {
            self.kem.dead_rid = Some(rid);
            self.drop_next();
            self.events.push(Event::RatchetAborted {
                reason: AbortReason::Peer,
            });
        } else if self.kem.decoding && self.kem.dec_rid == rid && !self.is_owner() {
            self.kem.decoding = false;
            self.kem.dead_rid = Some(rid);
        }
    }

    /// Handles RECV_REPORT: a probe that elicits one reply record.
    pub fn handle_report(&mut self) {
        self.kem.owe_reply = true;
    }

    /// The KEM blob this side is currently sending, if any.
    fn sending_blob(&self) -> Option<(Blob, usize)> {
        match self.kem.phase {
            phase::OWNER_EK if !self.kem.blob_done => Some((Blob::Ek, K::EK_LEN)),
            phase::PEER_CT if !self.kem.blob_done => Some((Blob::Ct, K::CT_LEN)),
            _ => None,
        }
    }

    /// Whether a RATCHET_REQUEST should ride on outgoing records.
    pub fn wants_request(&self, now: Instant) -> Option<u8> {
        if self.is_owner() || self.kem.phase != phase::IDLE || self.kem.decoding {
            return None;
        }
        if !self.triggered(now) {
            return None;
        }
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        Some(self.epoch.wrapping_add(1) as u8)
    }

    /// Writes the next KEM symbol (if a blob is being sent) to `out`.
    pub fn poll_symbol(&mut self, out: &mut [u8]) -> Option<SymbolOut> {
        let (blob, len) = self.sending_blob()?;
        let sym_len = usize::from(self.cfg.sym_len);
        let k = codec::symbol_count(len, sym_len)?;
        if out.len() < sym_len {
            return None;
        }
        let idx = self.kem.next_idx;
        self.kem.next_idx = if idx >= codec::MAX_INDEX { 0 } else { idx + 1 };
        codec::encode_symbol(&self.kem.blob[..len], sym_len, idx, out);
        Some(SymbolOut {
            rid: self.kem.rid,
            blob,
            k,
            idx,
            sym_len,
        })
    }

    /// Control frames are waiting (pending abort/done/reply, or paced symbols,
    /// requests and probes).
    pub(crate) fn control_pending(&self) -> bool {
        let k = &self.kem;
        k.owe_reply
            || k.abort_pending.is_some()
            || k.done_pending.is_some()
            || self.sending_blob().is_some()
            || k.phase == phase::OWNER_CONFIRM
            || (!self.is_owner() && k.phase == phase::IDLE && !k.decoding && k.app_request)
    }

    /// Whether a control record is due now; if so, consumes one pacing slot.
    pub(crate) fn control_due(&mut self, now: Instant) -> bool {
        let k = &self.kem;
        let urgent = k.owe_reply || k.abort_pending.is_some() || k.done_pending.is_some();
        let paced = self.sending_blob().is_some()
            || k.phase == phase::OWNER_CONFIRM
            || self.wants_request(now).is_some();
        if urgent || (paced && now >= k.pace_at) {
            if paced && now >= self.kem.pace_at {
                let k = &mut self.kem;
                k.pace_at = now.plus(k.pace_ms.max(1));
                k.pace_ms = k.pace_ms.saturating_mul(2).min(self.cfg.pacing_max_ms);
            }
            self.kem.owe_reply = false;
            return true;
        }
        false
    }

    /// Whether a RECV_REPORT probe should be sent (owner waiting for the peer's switch).
    pub(crate) fn wants_probe(&self) -> Option<(u8, u32)> {
        if self.kem.phase != phase::OWNER_CONFIRM {
            return None;
        }
        let c = &self.slots[self.cur()];
        #[allow(clippy::cast_possible_truncation, reason = "low byte / counter range")]
        Some((self.epoch as u8, c.recv.next.saturating_sub(1) as u32))
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
mod tests {
    use super::*;
    use crate::MlKem768;

    fn pair() -> (KeySchedule<MlKem768>, KeySchedule<MlKem768>) {
        let cfg = Config {
            ratchet_on_start: false,
            ..Config::default()
        };
        let init = || InitialSecret {
            secret: &[1; 32],
            transcript: b"",
            context: b"pending",
        };
        let mut r = pqdr_kat::Drbg::new(&[5; 48]);
        let tx = KeySchedule::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
        let rx = KeySchedule::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
        (tx, rx)
    }

    /// Two ahead candidates derived before either is committed: the second
    /// replaces the window's `pending` chains, so committing the first
    /// derives them again; the stored keys and the chain stay those of the
    /// sender.
    #[test]
    fn interleaved_ahead_candidates() {
        let (mut tx, mut rx) = pair();
        let now = Instant(0);
        let mut keys = [[0u8; 32]; 600];
        for k in &mut keys {
            *k = *tx.next_send(now, 1).unwrap().key();
        }
        let a = rx.candidate(0, Some(5), now).unwrap();
        let b = rx.candidate(0, Some(300), now).unwrap();
        assert_eq!(a.key(), &keys[5]);
        assert_eq!(b.key(), &keys[300]);
        rx.commit(a, now).unwrap();
        // `b` was derived for `next = 0`: stale now.
        assert_eq!(rx.commit(b, now), Err(Error::Replay));
        assert!(!rx.slots[0].recv.pending.live, "pending wiped at commit");
        for c in [0u32, 1, 2, 3, 4, 6, 7, 255, 256, 257, 300, 301, 302] {
            let k = rx.candidate(0, Some(c), now).unwrap();
            assert_eq!(k.key(), &keys[c as usize], "counter {c}");
            rx.commit(k, now).unwrap();
        }
        // An uncommitted ahead candidate's chains are wiped by the next commit.
        let far = rx.candidate(0, Some(500), now).unwrap();
        assert_eq!(far.key(), &keys[500]);
        drop(far);
        assert!(rx.slots[0].recv.pending.live);
        let k = rx.candidate(0, Some(303), now).unwrap();
        rx.commit(k, now).unwrap();
        assert!(!rx.slots[0].recv.pending.live);
        assert_eq!(rx.slots[0].recv.pending.after.ck, [0; 32]);
        // In order: two candidates for 304, an ahead one in between; the
        // first commits (its chain key still waits in the window), the
        // second is a replay.
        let a = rx.candidate(0, Some(304), now).unwrap();
        let b = rx.candidate(0, Some(304), now).unwrap();
        let far = rx.candidate(0, Some(400), now).unwrap();
        assert_eq!((a.key(), far.key()), (&keys[304], &keys[400]));
        rx.commit(a, now).unwrap();
        assert_eq!(rx.commit(b, now), Err(Error::Replay));
        assert_eq!(rx.slots[0].recv.next_ck_for, u64::MAX);
        assert_eq!(rx.slots[0].recv.next_ck, [0; 32], "consumed and wiped");
        assert!(!rx.slots[0].recv.pending.live, "ahead scratch wiped");
        // An in-order candidate replaced by a stored-key commit: derived again.
        let a = rx.candidate(0, Some(305), now).unwrap();
        let st = rx.candidate(0, Some(100), now).unwrap();
        assert_eq!((a.key(), st.key()), (&keys[305], &keys[100]));
        rx.commit(st, now).unwrap();
        assert_eq!(rx.slots[0].recv.next_ck, [0; 32], "wiped by the commit");
        rx.commit(a, now).unwrap();
        for c in 306..600u32 {
            let k = rx.candidate(0, Some(c), now).unwrap();
            assert_eq!(k.key(), &keys[c as usize], "counter {c}");
            rx.commit(k, now).unwrap();
        }
        // A dropped in-order candidate leaves its chain key (position 601,
        // derivable from the chain) until the next commit wipes it.
        drop(rx.candidate(0, Some(600), now).unwrap());
        assert_eq!(rx.slots[0].recv.next_ck_for, 600);
    }
}
