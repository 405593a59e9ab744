//! The FS/PCS experiment's model (`tests/ratchet/fs_pcs.rs`): the session type
//! under test, the chain derivations of docs/protocol/ratchet.md §1.4 written
//! out from the spec, the traffic simulation that records every packet with
//! the (key, nonce) it was sealed with, and the union attacker that matches
//! every key a leak yields against those records.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use blake3::hazmat::{ContextKey, HasherExt, hash_derive_key_context};
use pqdr_ratchet::chacha20poly1305::aead::{AeadInOut, KeyInit};
use pqdr_ratchet::chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use pqdr_ratchet::testing::{Leak, LeakEpoch};
use pqdr_ratchet::wire::FLAGS;
use pqdr_ratchet::{AEAD_ID, Config, Direction, InitialSecret, Instant, RatchetKem, Role, Session};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[cfg(feature = "mlkem")]
pub(crate) type K = pqdr_ratchet::MlKem768;
#[cfg(not(feature = "mlkem"))]
pub(crate) type K = crate::common::ToyKem;
pub(crate) type S = Session<K>;

pub(crate) const HEADER: usize = 6;
pub(crate) const TAG: usize = 16;
pub(crate) const DIRS: [Direction; 2] = [Direction::I2R, Direction::R2I];

// ---------------------------------------------------------------------------
// The chain derivations of docs/protocol/ratchet.md §1.4, written out from the spec.

pub(crate) const CTX: &str = "pqdr-ratchet v2 2026-11-25T20:00Z ";

pub(crate) struct Kdf {
    pub(crate) seg0: [ContextKey; 2],
    pub(crate) seg_step: ContextKey,
    pub(crate) inner0: ContextKey,
    pub(crate) group: ContextKey,
    pub(crate) packet_key: ContextKey,
}

/// A chain as the state holds it (docs/protocol/ratchet.md §1.4.4): `(ck, seg_next,
/// pos, keys)`, `keys[i]` the unused keys of the current group when `pos mod 8 ≠ 0`.
pub(crate) type ChainState = ([u8; 32], [u8; 32], u64, [[u8; 32]; 8]);

impl Kdf {
    pub(crate) fn new() -> Self {
        let c = |p: &str| hash_derive_key_context(&format!("{CTX}{p}"));
        Kdf {
            seg0: [c("segment 0 i2r"), c("segment 0 r2i")],
            seg_step: c("segment step"),
            inner0: c("inner 0"),
            group: c("group step"),
            packet_key: c("packet key"),
        }
    }

    pub(crate) fn dk(ctx: &ContextKey, input: &[u8]) -> [u8; 32] {
        let mut h = blake3::Hasher::new_from_context_key(ctx);
        h.update(input);
        *h.finalize().as_bytes()
    }

    /// `seg_0 = DK(segment 0 dir, root)`.
    pub(crate) fn seg0(&self, root: &[u8; 32], dir: Direction) -> [u8; 32] {
        Self::dk(&self.seg0[usize::from(dir == Direction::R2I)], root)
    }

    /// The chain state at the start of segment `j` from `seg_j`:
    /// `(ck_{j,0}, seg_{j+1}, j·256)`.
    pub(crate) fn enter(&self, seg: &[u8; 32], j: u64) -> ChainState {
        (
            Self::dk(&self.inner0, seg),
            Self::dk(&self.seg_step, seg),
            j << 8,
            [[0; 32]; 8],
        )
    }

    /// `ck' ‖ gk = DK_64(group step, ck ‖ be32(c0))`, then
    /// `mk_c = DK(packet key, gk ‖ be32(c) ‖ 0^28)` for the 8 counters of the group.
    pub(crate) fn group(&self, ck: &mut [u8; 32], c0: u64) -> [[u8; 32]; 8] {
        let mut block = [0u8; 36];
        block[..32].copy_from_slice(ck);
        block[32..].copy_from_slice(&(c0 as u32).to_be_bytes());
        let mut h = blake3::Hasher::new_from_context_key(&self.group);
        h.update(&block);
        let mut out = [0u8; 64];
        h.finalize_xof().fill(&mut out);
        ck.copy_from_slice(&out[..32]);
        core::array::from_fn(|i| {
            let mut m = [0u8; 64];
            m[..32].copy_from_slice(&out[32..]);
            m[32..36].copy_from_slice(&((c0 + i as u64) as u32).to_be_bytes());
            Self::dk(&self.packet_key, &m)
        })
    }

    /// Walks a chain `(ck, seg_next, pos)` up to position `end` inclusive,
    /// calling `f(pos, ck, seg_next, mk)` with the state at each position and
    /// its message key; `f` returns false to stop.
    pub(crate) fn walk(
        &self,
        (mut ck, mut seg, mut pos, mut keys): ChainState,
        end: u64,
        mut f: impl FnMut(u64, &[u8; 32], &[u8; 32], &[u8; 32]) -> bool,
    ) {
        while pos <= end {
            let before = ck;
            let i = (pos % 8) as usize;
            if i == 0 {
                keys = self.group(&mut ck, pos);
            }
            if !f(pos, &before, &seg, &keys[i]) {
                break;
            }
            pos += 1;
            if pos & 0xff == 0 {
                (ck, seg, _, keys) = self.enter(&seg, pos >> 8);
            }
        }
    }
}

/// `root_0` from the spec (docs/protocol/ratchet.md §1.3), independently of the crate.
pub(crate) fn root0_from_spec(init: &InitialSecret<'_>) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(&format!("{CTX}root init"));
    for part in [init.secret, init.transcript, init.context] {
        h.update(&(part.len() as u16).to_be_bytes());
        h.update(part);
    }
    h.update(&K::ID.to_be_bytes());
    h.update(&AEAD_ID.to_be_bytes());
    h.update(&[0]); // datagram mode
    *h.finalize().as_bytes()
}

/// Opens `packet` with `(key, nonce)` (trial decryption, no session).
pub(crate) fn decrypts(key: &[u8; 32], nonce: &[u8; 12], packet: &[u8]) -> bool {
    let n = packet.len() - HEADER - TAG;
    let mut body = packet[HEADER..HEADER + n].to_vec();
    let tag = Tag::try_from(&packet[HEADER + n..]).unwrap();
    ChaCha20Poly1305::new(key.into())
        .decrypt_inout_detached(
            &Nonce::from(*nonce),
            &packet[..HEADER],
            (&mut body[..]).into(),
            &tag,
        )
        .is_ok()
}

// ---------------------------------------------------------------------------
// Simulation.

/// One record on the wire and the (key, nonce) its sender sealed it with.
pub(crate) struct Pkt {
    pub(crate) t: u64,
    pub(crate) from_a: bool,
    pub(crate) epoch: u64,
    pub(crate) c: u32,
    pub(crate) bytes: Vec<u8>,
    /// Delivery time, `None` if lost.
    pub(crate) delivered: Option<u64>,
    pub(crate) mk: [u8; 32],
    pub(crate) nonce: [u8; 12],
}

#[derive(Clone, Copy)]
pub(crate) struct Traffic {
    pub(crate) name: &'static str,
    pub(crate) every_ms: u64,
    pub(crate) per_tick: u64,
}

pub(crate) const BULK: Traffic = Traffic {
    name: "bulk 1 pkt/ms",
    every_ms: 1,
    per_tick: 1,
};
pub(crate) const VOIP: Traffic = Traffic {
    name: "voip 50 pkt/s",
    every_ms: 20,
    per_tick: 1,
};

#[derive(Clone, Copy)]
pub(crate) struct Scenario {
    pub(crate) tr: Traffic,
    pub(crate) dur: u64,
    pub(crate) leak_a: bool,
    pub(crate) leak_t: u64,
    /// Leak at the first tick ≥ `leak_t` with a ratchet in flight at the
    /// leaked party (owner seed held, or peer epoch installed).
    pub(crate) in_flight: bool,
    pub(crate) seed: u64,
    /// Both sessions use the test-only v1 key schedule.
    pub(crate) v1: bool,
}

pub(crate) struct Run {
    pub(crate) pkts: Vec<Pkt>,
    /// Per party (A, B): epoch → time of its fresh KEM operation (keygen or encaps).
    pub(crate) fresh: [BTreeMap<u64, u64>; 2],
    /// Time at which both parties send in each epoch.
    pub(crate) both_in: BTreeMap<u64, u64>,
    pub(crate) leak_t: u64,
    /// Everything the leaked state held at the leak point.
    pub(crate) leak: Leak,
    /// A copy of the leaked session, for the replay.
    pub(crate) fork: S,
    /// The leaked positions and stored skipped keys (from the position API,
    /// not from `leak()`), for the prediction.
    pub(crate) positions: Vec<LeakEpoch>,
    pub(crate) skipped: HashSet<(u64, u32)>,
    pub(crate) leak_epoch: u64,
    pub(crate) leak_phase: u8,
}

pub(crate) fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

pub(crate) fn record(s: &S, t: u64, from_a: bool, bytes: &[u8]) -> Pkt {
    let (mk, nonce) = s.last_sealed().unwrap();
    let epoch = u64::from(u32::from_be_bytes(nonce[4..8].try_into().unwrap()));
    let c = u32::from_be_bytes(nonce[8..].try_into().unwrap());
    // The instrumented AEAD's nonce is the record's: dir ‖ 0³ ‖ be32(epoch) ‖ be32(c).
    assert_eq!(nonce[0], u8::from(!from_a));
    assert_eq!(bytes[0], FLAGS);
    assert_eq!(bytes[1], epoch as u8);
    assert_eq!(bytes[2..6], c.to_be_bytes());
    Pkt {
        t,
        from_a,
        epoch,
        c,
        bytes: bytes.to_vec(),
        delivered: None,
        mk,
        nonce,
    }
}

pub(crate) fn simulate(sc: Scenario) -> Run {
    let cfg = Config {
        rekey_after_ms: 500,
        min_ratchet_interval_ms: 100,
        old_epoch_grace_ms: 300,
        ..Config::default()
    };
    let mut r = crate::common::rng(sc.seed as u8);
    let init = || InitialSecret {
        secret: &[9u8; 32],
        transcript: b"",
        context: b"fs-pcs",
    };
    let new = |role, r: &mut pqdr_kat::Drbg| {
        if sc.v1 {
            S::new_v1_leaky(&cfg, role, init(), Instant(0), r).unwrap()
        } else {
            S::new(&cfg, role, init(), Instant(0), r).unwrap()
        }
    };
    let mut p = [new(Role::Initiator, &mut r), new(Role::Responder, &mut r)];
    let x = usize::from(!sc.leak_a);
    let mut rnd = sc.seed.wrapping_mul(0x9e37_79b9) | 1;
    let mut pkts: Vec<Pkt> = Vec::new();
    let mut fresh = [BTreeMap::new(), BTreeMap::new()];
    let mut both_in = BTreeMap::new();
    let mut leaked: Option<(u64, Leak, S, Vec<LeakEpoch>, u64, u8)> = None;
    let mut queue: BTreeSet<(u64, usize)> = BTreeSet::new();
    let mut buf = [0u8; 1500];
    let mut out = [0u8; 1500];
    for t in 0..sc.dur {
        let now = Instant(t);
        let ph = p[x].leak_kem().phase;
        if leaked.is_none() && t >= sc.leak_t && (!sc.in_flight || ph == 1 || ph == 3) {
            let v = &p[x];
            leaked = Some((
                t,
                v.leak(),
                v.fork(),
                v.leak_positions().into_iter().flatten().collect(),
                v.status(now).epoch,
                ph,
            ));
        }
        // Deliveries due now.
        while let Some(&(at, i)) = queue.first() {
            if at > t {
                break;
            }
            queue.pop_first();
            let to = usize::from(pkts[i].from_a);
            let _ = p[to].open(now, b"", &pkts[i].bytes, &mut out, &mut r);
        }
        let first_new = pkts.len();
        for (i, s) in p.iter_mut().enumerate() {
            s.handle_timeout(now, &mut r);
            let n_data = if t % sc.tr.every_ms == 0 {
                sc.tr.per_tick
            } else {
                0
            };
            for _ in 0..n_data {
                let room = s.max_payload(1200);
                let n = s
                    .seal(
                        now,
                        b"",
                        &vec![0x55; room.min(600)],
                        &mut buf[..1200],
                        &mut r,
                    )
                    .unwrap();
                pkts.push(record(s, t, i == 0, &buf[..n]));
            }
            while let Some(n) = s.poll_transmit(now, b"", &mut buf[..1200], &mut r) {
                pkts.push(record(s, t, i == 0, &buf[..n]));
            }
            let k = s.leak_kem();
            if k.phase == 1 || k.phase == 3 {
                fresh[i].entry(s.status(now).epoch).or_insert(t);
            }
        }
        let (ea, eb) = (p[0].status(now).epoch, p[1].status(now).epoch);
        both_in.entry(ea.min(eb)).or_insert(t);
        // This tick's records go on the link: 5 % loss, 4–12 ms delay (reordering).
        for (i, w) in pkts.iter_mut().enumerate().skip(first_new) {
            if xorshift(&mut rnd) % 100 < 5 {
                continue;
            }
            let at = t + 4 + xorshift(&mut rnd) % 9;
            w.delivered = Some(at);
            queue.insert((at, i));
        }
    }
    let (leak_t, leak, fork, positions, leak_epoch, leak_phase) = leaked.expect("no leak point");
    // Stored skipped keys of pre-leak peer records (position API).
    let skipped = pkts
        .iter()
        .filter(|w| w.t < leak_t && w.from_a != sc.leak_a && fork.leak_holds_skipped(w.epoch, w.c))
        .map(|w| (w.epoch, w.c))
        .collect();
    Run {
        pkts,
        fresh,
        both_in,
        leak_t,
        leak,
        fork,
        positions,
        skipped,
        leak_epoch,
        leak_phase,
    }
}

// ---------------------------------------------------------------------------
// The union attacker.

/// Every key any absorbed leak yields, matched against every record's
/// sealing key.
pub(crate) struct Attacker {
    pub(crate) kdf: Kdf,
    pub(crate) by_mk: HashMap<[u8; 32], usize>,
    /// Highest counter on the wire, overall and per epoch.
    pub(crate) cmax: u64,
    pub(crate) cmax_epoch: HashMap<u64, u64>,
    /// Per record: how the attacker got its key.
    pub(crate) opened: Vec<Option<&'static str>>,
    /// Secrets already tried by the catch-all.
    pub(crate) seen_secret: HashSet<[u8; 32]>,
    /// Chain states already walked by the typed derivations.
    pub(crate) seen_state: HashSet<([u8; 32], [u8; 32], u64)>,
    pub(crate) leaks: usize,
}

impl Attacker {
    pub(crate) fn new(pkts: &[Pkt]) -> Self {
        let mut by_mk = HashMap::new();
        let mut cmax_epoch: HashMap<u64, u64> = HashMap::new();
        for (i, w) in pkts.iter().enumerate() {
            assert!(by_mk.insert(w.mk, i).is_none(), "message key used twice");
            let m = cmax_epoch.entry(w.epoch).or_default();
            *m = (*m).max(u64::from(w.c));
        }
        Attacker {
            kdf: Kdf::new(),
            by_mk,
            cmax: cmax_epoch.values().copied().max().unwrap_or(0),
            cmax_epoch,
            opened: vec![None; pkts.len()],
            seen_secret: HashSet::new(),
            seen_state: HashSet::new(),
            leaks: 0,
        }
    }

    pub(crate) fn hit(
        by_mk: &HashMap<[u8; 32], usize>,
        opened: &mut [Option<&'static str>],
        k: &[u8; 32],
        via: &'static str,
    ) {
        if let Some(&i) = by_mk.get(k) {
            opened[i].get_or_insert(via);
        }
    }

    /// A chain as the state holds it, from its position on (deduplicated:
    /// a state already walked yields nothing new).
    pub(crate) fn typed(&mut self, state: ChainState, end: u64, via: &'static str) {
        let (by_mk, opened, seen) = (&self.by_mk, &mut self.opened, &mut self.seen_state);
        self.kdf.walk(state, end, |pos, ck, seg, mk| {
            if !seen.insert((*ck, *seg, pos)) {
                return false;
            }
            Self::hit(by_mk, opened, mk, via);
            true
        });
    }

    /// A secret as a `seg_0`: the whole chain from counter 0.
    pub(crate) fn walk_seg0(&mut self, seg0: &[u8; 32], via: &'static str) {
        let (by_mk, opened) = (&self.by_mk, &mut self.opened);
        let start = self.kdf.enter(seg0, 0);
        self.kdf.walk(start, self.cmax, |_, _, _, mk| {
            Self::hit(by_mk, opened, mk, via);
            true
        });
    }

    /// Everything `Leak::can_open` would try, for all counters at once.
    pub(crate) fn absorb(&mut self, leak: &Leak) {
        self.leaks += 1;
        for s in &leak.slots {
            let Some(&end) = self.cmax_epoch.get(&s.epoch) else {
                continue;
            };
            if let Some(c) = s.send {
                self.typed((c.ck, c.seg_next, c.pos, c.keys), end, "send chain");
            }
            self.typed(
                (s.recv.ck, s.recv.seg_next, s.recv.pos, s.recv.keys),
                end,
                "receive chain",
            );
            for c in &s.scratch {
                self.typed((c.ck, c.seg_next, c.pos, c.keys), end, "candidate scratch");
            }
            for (_, k) in &s.skipped {
                Self::hit(&self.by_mk, &mut self.opened, k, "stored key");
            }
            for (j, seg) in &s.checkpoints {
                let start = self.kdf.enter(seg, *j);
                self.typed(start, end, "checkpoint");
            }
        }
        for x in leak.secrets() {
            if !self.seen_secret.insert(x) {
                continue;
            }
            Self::hit(&self.by_mk, &mut self.opened, &x, "secret as message key");
            self.walk_seg0(&x, "secret as seg_0");
            for d in DIRS {
                let seg = self.kdf.seg0(&x, d);
                self.walk_seg0(&seg, "secret as epoch root");
            }
        }
    }
}
