//! Test-only introspection (feature `test-utils`): leaks secrets on purpose
//! for the test vectors, the FS/PCS experiment (docs/protocol/ratchet.md §3.1, §3.5) and
//! the (key, nonce) uniqueness check. Never enable this feature in production.

use alloc::vec::Vec;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use rand_core::CryptoRng;

use crate::Error;
use crate::chain::{Chain, SEGMENT_SHIFT};
use crate::config::{Config, InitialSecret, Instant, Mode, Role};
use crate::epoch::directions;
use crate::kdf::{self, Direction};
use crate::kem::{MAX_SEED_LEN, RatchetKem};
use crate::keys::nonce;
use crate::schedule::{AEAD_ID, KeySchedule};
use crate::session::Session;
use crate::wire::{FLAGS, HEADER_LEN, TAG_LEN};

/// The chain compressions (segment steps, segment entries, packet steps)
/// of every scratch derivation made so far by this process (not the
/// in-order receive step nor the send step, which use the reusable
/// per-packet state). A process-wide counter: tests that read it must not
/// run derivations concurrently.
pub fn kdf_steps() -> usize {
    kdf::STEPS.load(core::sync::atomic::Ordering::Relaxed)
}

/// `root_0` (docs/protocol/ratchet.md §1.3).
pub fn root0(init: &InitialSecret<'_>, kem_id: u16, mode: Mode) -> [u8; 32] {
    kdf::root_init(
        init.secret,
        init.transcript,
        init.context,
        kem_id,
        AEAD_ID,
        mode.byte(),
    )
}

/// The children of an epoch root (docs/protocol/ratchet.md §1.4, v2):
/// `(rk_e, xk_e, seg_0 i2r, seg_0 r2i)`.
pub fn epoch_keys(root: &[u8; 32]) -> ([u8; 32], [u8; 32], [u8; 32], [u8; 32]) {
    let mut r = *root;
    let k = kdf::EpochKeys::from_root(&mut r);
    (k.rk, k.xk, k.seg0_i2r, k.seg0_r2i)
}

/// `seg_0 = DK(CTX_SEG0_dir, root)`.
pub fn seg0(root: &[u8; 32], dir: Direction) -> [u8; 32] {
    kdf::seg0(root, dir)
}

/// `ck_{0,0}` of a direction.
pub fn ck00(root: &[u8; 32], dir: Direction) -> [u8; 32] {
    kdf::inner0(&kdf::seg0(root, dir))
}

/// Message key at `counter` of the chain whose `seg_0` is given.
pub fn message_key_from_seg0(seg0: &[u8; 32], counter: u32) -> [u8; 32] {
    let mut c = Chain::from_seg0(seg0);
    c.jump_to(u64::from(counter));
    let mut mk = [0u8; 32];
    c.step(&mut mk);
    mk
}

/// Message key at `counter` through the skip chain of an epoch root.
pub fn message_key(root: &[u8; 32], dir: Direction, counter: u32) -> [u8; 32] {
    message_key_from_seg0(&kdf::seg0(root, dir), counter)
}

/// `th_{e+1}`.
pub fn transcript(
    next_epoch: u64,
    kem_id: u16,
    owner: u8,
    rid: u16,
    ek: &[u8],
    ct: &[u8],
) -> [u8; 32] {
    kdf::kem_transcript(next_epoch, kem_id, owner, rid, ek, ct)
}

/// `root_{e+1} = DK(CTX_ROOT_STEP, rk_e ‖ ss ‖ th_{e+1})`.
pub fn root_step(rk: &[u8; 32], ss: &[u8; 32], th: &[u8; 32]) -> [u8; 32] {
    kdf::root_step(rk, ss, th)
}

/// The record nonce `dir ‖ 0x000000 ‖ be32(epoch) ‖ be32(counter)`.
pub fn record_nonce(dir: Direction, epoch: u64, counter: u32) -> [u8; 12] {
    nonce(dir, epoch, counter)
}

/// Leaked positions of one live epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeakEpoch {
    /// Epoch.
    pub epoch: u64,
    /// Next send position, if the send chain is live.
    pub send_pos: Option<u64>,
    /// Next receive position (highest + 1).
    pub recv_next: u64,
}

/// Leaked KEM state.
#[derive(Clone, Copy, Debug)]
pub struct LeakKem {
    /// Phase (0 idle, 1 owner sent ek, 2 owner awaiting confirm, 3 peer sent ct).
    pub phase: u8,
    /// Attempt id.
    pub rid: u16,
    /// Owner seed.
    pub seed: [u8; MAX_SEED_LEN],
    /// Public blob being sent (ek or ct), `MAX_BLOB_LEN` bytes, prefix valid.
    pub blob: [u8; crate::kem::MAX_BLOB_LEN],
}

/// One chain as the state holds it (docs/protocol/ratchet.md §1.4.4):
/// `(ck, seg_{j+1}, position, the unused keys of the current group)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeakChain {
    /// Chain key: of the group at `pos` at a group boundary, else of the next group.
    pub ck: [u8; 32],
    /// Next segment key.
    pub seg_next: [u8; 32],
    /// Position.
    pub pos: u64,
    /// `keys[i]` for `pos mod 8 ≤ i < 8` when `pos mod 8 ≠ 0`: the keys of
    /// positions `pos − pos mod 8 + i` (the others zero).
    pub keys: [[u8; 32]; 8],
}

impl LeakChain {
    fn of(c: &Chain) -> Self {
        LeakChain {
            ck: c.ck,
            seg_next: c.seg_next,
            pos: c.pos,
            keys: c.keys,
        }
    }

    /// The message key at `counter ≥ pos`, derived from this chain alone.
    pub fn key_at(&self, counter: u32) -> Option<[u8; 32]> {
        if u64::from(counter) < self.pos {
            return None;
        }
        let mut c = Chain {
            ck: self.ck,
            seg_next: self.seg_next,
            pos: self.pos,
            keys: self.keys,
        };
        c.jump_to(u64::from(counter));
        let mut mk = [0u8; 32];
        c.step(&mut mk);
        Some(mk)
    }
}

/// Everything one live epoch slot holds.
#[derive(Clone, Debug)]
pub struct LeakSlot {
    /// Epoch.
    pub epoch: u64,
    /// `rk_e` (until the epoch is left).
    pub rk: Option<[u8; 32]>,
    /// `xk_e` (with `rk`).
    pub xk: Option<[u8; 32]>,
    /// `root_e`, only under the test-only v1 switch ([`Session::new_v1_leaky`]).
    pub v1_root: Option<[u8; 32]>,
    /// This side's send chain (its direction is the role's).
    pub send: Option<LeakChain>,
    /// The peer's chain at the receive position.
    pub recv: LeakChain,
    /// Stored skipped keys `(counter, mk)` of the peer's direction.
    pub skipped: Vec<(u32, [u8; 32])>,
    /// Lookahead checkpoints `(segment index, seg_j)` of the peer's direction.
    pub checkpoints: Vec<(u64, [u8; 32])>,
    /// Scratch chains of an uncommitted candidate and the near checkpoints
    /// (chains at future positions ahead of the receive position; peer's
    /// direction).
    pub scratch: Vec<LeakChain>,
    /// Scratch keys of an uncommitted candidate (`next_ck`, pending `mk`).
    pub scratch_keys: Vec<[u8; 32]>,
}

/// Everything a session's state holds (the whole export content, plus what
/// only lives in memory: the owner's in-flight seed and scratch), as the
/// attacker of docs/protocol/ratchet.md §3.5 gets it at a leak.
#[derive(Clone, Debug)]
pub struct Leak {
    /// The leaked party's role.
    pub role: Role,
    /// Live epochs.
    pub slots: Vec<LeakSlot>,
    /// The owner's key-generation seed while a ratchet is in flight.
    pub kem_seed: Option<Vec<u8>>,
    /// KEM phase (0 idle, 1 owner sent ek, 2 owner awaiting confirm, 3 peer sent ct).
    pub kem_phase: u8,
}

impl Leak {
    /// Every 32-byte secret of the leak, for the catch-all attacker.
    pub fn secrets(&self) -> Vec<[u8; 32]> {
        let mut v = Vec::new();
        for s in &self.slots {
            v.extend(s.rk);
            v.extend(s.xk);
            v.extend(s.v1_root);
            for c in s
                .send
                .iter()
                .chain(core::iter::once(&s.recv))
                .chain(&s.scratch)
            {
                v.push(c.ck);
                v.push(c.seg_next);
                v.extend(c.keys.iter().copied().filter(|k| *k != [0; 32]));
            }
            v.extend(s.skipped.iter().map(|k| k.1));
            v.extend(s.checkpoints.iter().map(|k| k.1));
            v.extend(s.scratch_keys.iter().copied());
        }
        if let Some(seed) = &self.kem_seed {
            for part in seed.chunks(32) {
                let mut k = [0u8; 32];
                k[..part.len()].copy_from_slice(part);
                v.push(k);
            }
        }
        v
    }

    /// Every (key, direction, epoch) the attacker tries on a record of
    /// `(epoch_lo, counter)`: the typed derivations (chains at or after their
    /// positions, stored keys, checkpoints) and, as a catch-all, every leaked
    /// secret used as an epoch root, as a `seg_0` and as a message key, in
    /// both directions. (Deriving the *next* epoch needs a KEM shared secret:
    /// the FS/PCS harness follows ratchets by replaying deliveries on a fork.)
    pub fn candidate_keys(&self, epoch_lo: u8, counter: u32) -> Vec<([u8; 32], Direction, u64)> {
        let mut out = self.typed_keys(epoch_lo, counter);
        out.extend(self.catch_all_keys(epoch_lo, counter));
        out
    }

    /// The typed part of [`Leak::candidate_keys`]: chains at or after their
    /// positions, stored keys, checkpoints, scratch.
    pub fn typed_keys(&self, epoch_lo: u8, counter: u32) -> Vec<([u8; 32], Direction, u64)> {
        let (mine, theirs) = directions(self.role);
        let mut out = Vec::new();
        for s in &self.slots {
            #[allow(clippy::cast_possible_truncation, reason = "low byte")]
            if s.epoch as u8 != epoch_lo {
                continue;
            }
            let e = s.epoch;
            if let Some(k) = s.send.and_then(|c| c.key_at(counter)) {
                out.push((k, mine, e));
            }
            for c in core::iter::once(&s.recv).chain(&s.scratch) {
                if let Some(k) = c.key_at(counter) {
                    out.push((k, theirs, e));
                }
            }
            for &(c, k) in &s.skipped {
                if c == counter {
                    out.push((k, theirs, e));
                }
            }
            for &(j, seg) in &s.checkpoints {
                if u64::from(counter) >> SEGMENT_SHIFT >= j {
                    let c = LeakChain {
                        ck: kdf::inner0(&seg),
                        seg_next: kdf::seg_step(&seg),
                        pos: j << SEGMENT_SHIFT,
                        keys: [[0; 32]; 8],
                    };
                    out.extend(c.key_at(counter).map(|k| (k, theirs, e)));
                }
            }
        }
        out
    }

    /// The catch-all part of [`Leak::candidate_keys`]: every leaked secret
    /// as an epoch root, as a `seg_0` and as a message key, both directions.
    pub fn catch_all_keys(&self, epoch_lo: u8, counter: u32) -> Vec<([u8; 32], Direction, u64)> {
        let mut out = Vec::new();
        let secrets = self.secrets();
        for s in &self.slots {
            #[allow(clippy::cast_possible_truncation, reason = "low byte")]
            if s.epoch as u8 != epoch_lo {
                continue;
            }
            let e = s.epoch;
            for x in &secrets {
                for d in [Direction::I2R, Direction::R2I] {
                    out.push((message_key(x, d, counter), d, e));
                    out.push((message_key_from_seg0(x, counter), d, e));
                    out.push((*x, d, e));
                }
            }
        }
        out
    }

    /// Can the leaked material open this datagram record (by derivation only)?
    pub fn can_open(&self, aad: &[u8], packet: &[u8]) -> bool {
        if packet.len() < HEADER_LEN + TAG_LEN || packet[0] != FLAGS {
            return false;
        }
        let lo = packet[1];
        let c = u32::from_be_bytes([packet[2], packet[3], packet[4], packet[5]]);
        let n = packet.len() - HEADER_LEN - TAG_LEN;
        let mut ad = Vec::with_capacity(HEADER_LEN + aad.len());
        ad.extend_from_slice(&packet[..HEADER_LEN]);
        ad.extend_from_slice(aad);
        let Ok(tag) = Tag::try_from(&packet[HEADER_LEN + n..]) else {
            return false;
        };
        let mut buf = alloc::vec![0u8; n];
        // Typed derivations first (cheap, and they open what is predicted);
        // the catch-all only when they fail.
        let body = &packet[HEADER_LEN..HEADER_LEN + n];
        self.typed_keys(lo, c)
            .iter()
            .any(|k| Self::opens(k, c, &ad, body, &tag, &mut buf))
            || self
                .catch_all_keys(lo, c)
                .iter()
                .any(|k| Self::opens(k, c, &ad, body, &tag, &mut buf))
    }

    fn opens(
        &(mk, dir, epoch): &([u8; 32], Direction, u64),
        c: u32,
        ad: &[u8],
        body: &[u8],
        tag: &Tag,
        buf: &mut [u8],
    ) -> bool {
        buf.copy_from_slice(body);
        let cipher = ChaCha20Poly1305::new((&mk).into());
        cipher
            .decrypt_inout_detached(&Nonce::from(nonce(dir, epoch, c)), ad, buf.into(), tag)
            .is_ok()
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> Session<K, WW, MS> {
    /// [`Session::new`] with the test-only v1 switch: every epoch keeps its
    /// `root_e` for its whole life, as the v1 key schedule did. The FS
    /// experiment run on such a session must detect the per-epoch leak.
    ///
    /// # Errors
    /// As [`Session::new`].
    pub fn new_v1_leaky<R: CryptoRng + ?Sized>(
        cfg: &Config,
        role: Role,
        init: InitialSecret<'_>,
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        Ok(Session {
            ks: KeySchedule::new_inner(cfg, role, init, now, rng, true)?,
        })
    }

    /// Everything the state holds, for the attacker.
    pub fn leak(&self) -> Leak {
        self.ks.leak()
    }

    /// A full copy of the session (what an attacker who leaks the state
    /// holds, able to follow the ratchets whose fresh secret it holds).
    pub fn fork(&self) -> Self {
        let mut s = KeySchedule::empty(&self.ks.cfg, self.ks.role);
        let ks = &self.ks;
        s.epoch = ks.epoch;
        for (d, o) in s.slots.iter_mut().zip(ks.slots.iter()) {
            d.live = o.live;
            d.epoch = o.epoch;
            d.rk = o.rk;
            d.rk_live = o.rk_live;
            d.xk = o.xk;
            d.v1_root = o.v1_root;
            d.send.assign(&o.send);
            d.send_live = o.send_live;
            d.send_limit = o.send_limit;
            d.sent_packets = o.sent_packets;
            d.sent_bytes = o.sent_bytes;
            d.recv.chain.assign(&o.recv.chain);
            d.recv.next = o.recv.next;
            d.recv.bitmap = o.recv.bitmap;
            for (a, b) in d.recv.skipped.iter_mut().zip(o.recv.skipped.iter()) {
                a.counter = b.counter;
                a.key = b.key;
            }
            d.recv.n_skipped = o.recv.n_skipped;
            d.recv_any = o.recv_any;
            d.started = o.started;
            d.rekey_at_ms = o.rekey_at_ms;
            d.expires = o.expires;
        }
        let (a, b) = (&mut s.kem, &ks.kem);
        a.phase = b.phase;
        a.rid = b.rid;
        a.started = b.started;
        a.seed = b.seed;
        a.blob = b.blob;
        a.blob_done = b.blob_done;
        a.next_idx = b.next_idx;
        a.decoding = b.decoding;
        a.dec_rid = b.dec_rid;
        a.dead_rids = b.dead_rids;
        a.attempt_at = b.attempt_at;
        a.app_request = b.app_request;
        a.peer_requested = b.peer_requested;
        a.next_start_at = b.next_start_at;
        a.pace_at = b.pace_at;
        a.pace_ms = b.pace_ms;
        a.confirm_since = b.confirm_since;
        // The symbols collected so far (public), so that the fork follows a
        // ratchet whose blob was half received at the leak.
        a.decoder = b.decoder.clone();
        s.rx_ok = ks.rx_ok;
        s.tx_ok = ks.tx_ok;
        s.closed = ks.closed;
        s.generation = ks.generation;
        s.session_id = ks.session_id;
        s.v1_leak = ks.v1_leak;
        s.bucket = crate::schedule::Bucket::full(u32::MAX, Instant(0));
        s.cfg.max_jump = 1 << 30;
        s.cfg.auth_failure_limit = u64::MAX;
        Session { ks: s }
    }

    /// `rk_e` of a live epoch, if still held.
    pub fn leak_rk(&self, epoch: u64) -> Option<[u8; 32]> {
        let i = self.ks.slot_of(epoch)?;
        self.ks.slots[i].rk_live.then_some(self.ks.slots[i].rk)
    }

    /// The send chain of a live epoch (position, chain key, next segment key).
    pub fn leak_send_chain(&self, epoch: u64) -> Option<LeakChain> {
        let i = self.ks.slot_of(epoch)?;
        let s = &self.ks.slots[i];
        s.send_live.then(|| LeakChain::of(&s.send))
    }

    /// KEM state.
    pub fn leak_kem(&self) -> LeakKem {
        LeakKem {
            phase: self.ks.kem.phase.byte(),
            rid: self.ks.kem.rid,
            seed: self.ks.kem.seed,
            blob: self.ks.kem.blob,
        }
    }

    /// Positions of the live epochs.
    pub fn leak_positions(&self) -> [Option<LeakEpoch>; 3] {
        core::array::from_fn(|i| {
            let s = &self.ks.slots[i];
            s.live.then_some(LeakEpoch {
                epoch: s.epoch,
                send_pos: s.send_live.then_some(s.send.pos),
                recv_next: s.recv.next,
            })
        })
    }

    /// Whether a stored skipped key for `(epoch, counter)` is held.
    pub fn leak_holds_skipped(&self, epoch: u64, counter: u32) -> bool {
        self.ks.slot_of(epoch).is_some_and(|i| {
            let w = &self.ks.slots[i].recv;
            w.skipped[..w.n_skipped]
                .iter()
                .any(|s| s.counter == counter)
        })
    }

    /// Attacker check on the full leak of this state ([`Leak::can_open`]).
    pub fn attacker_can_open(&self, aad: &[u8], packet: &[u8]) -> bool {
        self.leak().can_open(aad, packet)
    }

    /// The instrumented AEAD: the (key, nonce) of the last record this
    /// session sealed (`seal` or `poll_transmit`), taken from the very
    /// values passed to ChaCha20-Poly1305.
    pub fn last_sealed(&self) -> Option<([u8; 32], [u8; 12])> {
        self.ks.last_sealed
    }

    /// Remaining pre-authentication tokens (for the forgery tests).
    pub fn unauth_tokens(&self) -> u64 {
        self.ks.bucket.tokens
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// Everything the state holds, for the attacker (the L1 twin of
    /// `Session::leak`, for integrations such as pqdr-quic).
    pub fn leak(&self) -> Leak {
        let ks = self;
        let slots = ks
            .slots
            .iter()
            .filter(|s| s.live)
            .map(|s| {
                let w = &s.recv;
                let mut scratch = Vec::new();
                let mut scratch_keys = Vec::new();
                if w.pending.live {
                    scratch.push(LeakChain::of(&w.pending.after));
                    if w.pending.has_base {
                        scratch.push(LeakChain::of(&w.pending.base));
                    }
                    scratch_keys.push(w.pending.mk);
                    scratch_keys.extend_from_slice(&w.pending.keys[..w.pending.n_keys]);
                }
                if w.next_ck_for != u64::MAX {
                    scratch_keys.push(w.next_ck);
                    scratch_keys.extend_from_slice(&w.next_keys);
                }
                // The near checkpoints (chains at future positions).
                for p in w.near.positions(w.next) {
                    scratch.push(LeakChain::of(&w.near.chain_at(&w.chain, w.next, p)));
                }
                LeakSlot {
                    epoch: s.epoch,
                    rk: s.rk_live.then_some(s.rk),
                    xk: s.rk_live.then_some(s.xk),
                    v1_root: s.v1_root,
                    send: s.send_live.then(|| LeakChain::of(&s.send)),
                    recv: LeakChain::of(&w.chain),
                    skipped: w.skipped[..w.n_skipped]
                        .iter()
                        .map(|k| (k.counter, k.key))
                        .collect(),
                    checkpoints: w.checkpoints[..w.n_checkpoints]
                        .iter()
                        .map(|c| (c.seg, c.key))
                        .collect(),
                    scratch,
                    scratch_keys,
                }
            })
            .collect();
        let k = &ks.kem;
        Leak {
            role: ks.role,
            slots,
            kem_seed: (k.phase == crate::schedule::Phase::OwnerEk)
                .then(|| k.seed[..K::SEED_LEN].to_vec()),
            kem_phase: k.phase.byte(),
        }
    }
}
