//! The simulator's model (`tests/ratchet/netsim.rs`): link, traffic, adversary,
//! misuse and crash settings, a scenario and its report, the parties and the
//! simulation state, and the table of scenarios every run walks.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    clippy::nonminimal_bool,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::too_many_lines,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashSet};

use pqdr_ratchet::{Config, RatchetKem, Session};

/// The session of the simulation with KEM `K` (ToyKem unless a test picks a real KEM).
pub(crate) type S<K> = Session<K>;

/// splitmix64: the simulator's own (network/adversary/crash) randomness.
pub(crate) struct Rng(pub(crate) u64);
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub(crate) fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Loss {
    Bernoulli(f64),
    /// Gilbert–Elliott: P(good→bad), P(bad→good), loss in bad state.
    GilbertElliott(f64, f64, f64),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    pub(crate) loss: Loss,
    pub(crate) delay_ms: u64,
    pub(crate) jitter_ms: u64,
    pub(crate) dup: f64,
    pub(crate) bitflip: f64,
    pub(crate) truncate: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Traffic {
    /// Packets per ms per side.
    Bulk(u64),
    /// One packet every N ms per side.
    Periodic(u64),
    /// Only the initiator sends data (packets per ms).
    OneSided(u64),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Adversary {
    pub(crate) forge: f64,
    pub(crate) replay: f64,
    pub(crate) drop_control: bool,
}

/// Negative controls: an application that breaks the persistence discipline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Misuse {
    /// The documented discipline.
    None,
    /// On restart, imports the blob *before* the last persisted one with that
    /// older blob's generation as `min_generation` (an undetected rollback).
    RollbackImport,
    /// Confirms an export at once (`confirm_persisted`) and persists it only
    /// 30 ms later, sending meanwhile.
    ConfirmBeforePersist,
}

/// Crash model (both parties crash independently).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Crashes {
    pub(crate) misuse: Misuse,
    /// Per party and tick.
    pub(crate) per_tick: f64,
    /// Before a delivery to the party / after one of its sends.
    pub(crate) per_event: f64,
    /// Between `export_state` and the persist.
    pub(crate) before_persist: f64,
    /// Right after persisting a blob taken mid-ratchet.
    pub(crate) after_mid_ratchet_persist: f64,
    /// Right after a restore, before its export (same blob imported again).
    pub(crate) after_restore: f64,
    /// Downtime is uniform in `0..=max_down_ms`.
    pub(crate) max_down_ms: u64,
    /// No crashes in the last `quiet_ms` (the progress check runs there).
    pub(crate) quiet_ms: u64,
    /// Probability per tick that the application exports for no reason.
    pub(crate) export_per_tick: f64,
    /// Restores required per run.
    pub(crate) min_restores: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Scenario {
    pub(crate) name: &'static str,
    pub(crate) duration_ms: u64,
    pub(crate) link: Link,
    pub(crate) traffic: Traffic,
    pub(crate) adversary: Adversary,
    pub(crate) outage: Option<(u64, u64)>,
    pub(crate) crashes: Option<Crashes>,
    pub(crate) cfg: Config,
    /// Largest allowed time from a ratchet start to both sides switched.
    pub(crate) heal_budget_ms: u64,
    pub(crate) min_ratchets: u64,
    pub(crate) min_delivery: f64,
}

#[derive(Default, Debug)]
pub(crate) struct Report {
    pub(crate) sent: u64,
    pub(crate) delivered: u64,
    pub(crate) dropped_link: u64,
    pub(crate) reordered: u64,
    pub(crate) rejected: BTreeMap<String, u64>,
    pub(crate) ratchets: u64,
    pub(crate) heal_ms: Vec<u64>,
    pub(crate) heal_packets: Vec<u64>,
    pub(crate) aborted: u64,
    /// (key, nonce) pairs recorded by the instrumented AEAD.
    pub(crate) sealed: u64,
    pub(crate) exports: u64,
    pub(crate) crashes: u64,
    pub(crate) restores: u64,
    /// Restores by the KEM phase of the live session when the blob was taken
    /// (0 idle, 1 owner ek in flight, 2 owner awaiting confirm, 3 peer ct in flight).
    pub(crate) restores_by_phase: [u64; 4],
    /// The same blob imported again (crash right after a restore).
    pub(crate) same_blob_reimports: u64,
    /// Crashes between export and persist.
    pub(crate) lost_exports: u64,
    /// Re-imports of a superseded blob refused with `StaleGeneration`.
    pub(crate) stale_refused: u64,
    /// Payloads a restored receiver accepted once more (replay window of a restore).
    pub(crate) redelivered: u64,
    /// Ratchets completed after the last crash (min over the parties).
    pub(crate) ratchets_after_crashes: u64,
}

impl Report {
    pub(crate) fn add(&mut self, r: Report) {
        self.sent += r.sent;
        self.delivered += r.delivered;
        self.dropped_link += r.dropped_link;
        self.reordered += r.reordered;
        self.ratchets += r.ratchets;
        self.aborted += r.aborted;
        self.heal_ms.extend(r.heal_ms);
        self.heal_packets.extend(r.heal_packets);
        for (k, v) in r.rejected {
            *self.rejected.entry(k).or_default() += v;
        }
        self.sealed += r.sealed;
        self.exports += r.exports;
        self.crashes += r.crashes;
        self.restores += r.restores;
        for i in 0..4 {
            self.restores_by_phase[i] += r.restores_by_phase[i];
        }
        self.same_blob_reimports += r.same_blob_reimports;
        self.lost_exports += r.lost_exports;
        self.stale_refused += r.stale_refused;
        self.redelivered += r.redelivered;
        self.ratchets_after_crashes += r.ratchets_after_crashes;
    }
}

pub(crate) struct Pkt {
    pub(crate) at: u64,
    pub(crate) seq: u64,
    pub(crate) to_b: bool,
    pub(crate) bytes: Vec<u8>,
}
impl PartialEq for Pkt {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl Eq for Pkt {}
impl PartialOrd for Pkt {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Pkt {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(o.at, o.seq))
    }
}

/// What the "disk" holds: one blob and its generation, written atomically.
#[derive(Clone)]
pub(crate) struct Persisted {
    pub(crate) blob: Vec<u8>,
    pub(crate) generation: u64,
    /// Length of the party's delivery log when the blob was taken.
    pub(crate) mark: usize,
    /// KEM phase of the live session when the blob was taken.
    pub(crate) phase: u8,
}

/// One party: its live session (None while crashed), its disk and the
/// receive bookkeeping of the payloads addressed to it.
pub(crate) struct Party<K: RatchetKem> {
    pub(crate) s: Option<S<K>>,
    /// The session id, kept in the application's index (import checks it).
    pub(crate) id: [u8; 16],
    pub(crate) disk: Option<Persisted>,
    /// The blob persisted before `disk` (for `Misuse::RollbackImport`).
    pub(crate) older: Option<Persisted>,
    /// An export waiting to be persisted (`Misuse::ConfirmBeforePersist`).
    pub(crate) deferred: Option<(u64, Persisted)>,
    /// An export is owed: nothing is sent until it is persisted.
    pub(crate) need_export: bool,
    /// Records sent since the last export, and that export's reserve.
    pub(crate) sent_since_export: u64,
    pub(crate) reserve: u32,
    pub(crate) down_until: u64,
    /// The blob (and generation) this incarnation was restored from, until
    /// its first persist (then a re-import must be refused).
    pub(crate) restored_from: Option<(Vec<u8>, u64)>,
    /// Payload ids whose delivery the current state reflects.
    pub(crate) delivered: HashSet<u64>,
    /// Every delivery reflected in the current state, in order.
    pub(crate) log: Vec<u64>,
}

impl<K: RatchetKem> Party<K> {
    pub(crate) fn new(s: S<K>) -> Self {
        Party {
            id: s.session_id(),
            s: Some(s),
            disk: None,
            older: None,
            deferred: None,
            need_export: false,
            sent_since_export: 0,
            reserve: u32::MAX,
            down_until: 0,
            restored_from: None,
            delivered: HashSet::new(),
            log: Vec::new(),
        }
    }
}

pub(crate) struct Sim<K: RatchetKem> {
    pub(crate) seed: u64,
    pub(crate) sc: Scenario,
    pub(crate) net: Rng,
    pub(crate) srng: pqdr_kat::Drbg,
    /// `p[0]` = A (Initiator), `p[1]` = B (Responder).
    pub(crate) p: [Party<K>; 2],
    pub(crate) queue: BinaryHeap<Reverse<Pkt>>,
    pub(crate) seq: u64,
    pub(crate) ge_bad: [bool; 2],
    /// Payload ids sent, by sender.
    pub(crate) sent_ids: [HashSet<u64>; 2],
    pub(crate) next_id: [u64; 2],
    /// Every (key, nonce) any incarnation of either party sealed with.
    pub(crate) keys: HashSet<([u8; 32], [u8; 12])>,
    pub(crate) recorded: Vec<(bool, Vec<u8>)>,
    pub(crate) highest_delivered: [u64; 2],
    pub(crate) ratchet_start: Option<(u64, u64, u64)>,
    pub(crate) report: Report,
    /// (time, party, epoch) of every restore.
    pub(crate) restore_points: Vec<(u64, usize, u64)>,
    /// Minimum epoch of the two parties over time (while both are up).
    pub(crate) min_epoch_log: Vec<(u64, u64)>,
    /// Epochs and delivery counts when the quiet period began.
    pub(crate) quiet_start: Option<([u64; 2], [u64; 2])>,
    pub(crate) delivered_by: [u64; 2],
    pub(crate) now: u64,
}

pub(crate) const SECRET: [u8; 32] = [7; 32];
pub(crate) const PAYLOAD: usize = 1024;
pub(crate) const MTU: usize = 1200;
pub(crate) const STORAGE_KEY: &[u8] = b"netsim storage key, 32 bytes....";

pub(crate) fn base_cfg() -> Config {
    Config {
        rekey_after_ms: 400,
        min_ratchet_interval_ms: 100,
        old_epoch_grace_ms: 200,
        ratchet_timeout_ms: 2_000,
        reject_after_ms: 60_000,
        ..Config::default()
    }
}

pub(crate) fn link(loss: Loss) -> Link {
    Link {
        loss,
        delay_ms: 5,
        jitter_ms: 3,
        dup: 0.01,
        bitflip: 0.002,
        truncate: 0.001,
    }
}

pub(crate) const NO_ADV: Adversary = Adversary {
    forge: 0.0,
    replay: 0.0,
    drop_control: false,
};

pub(crate) const CRASHES: Crashes = Crashes {
    misuse: Misuse::None,
    per_tick: 0.0015,
    per_event: 0.0002,
    before_persist: 0.05,
    after_mid_ratchet_persist: 0.04,
    after_restore: 0.15,
    max_down_ms: 60,
    quiet_ms: 2_000,
    export_per_tick: 0.03,
    min_restores: 20,
};

pub(crate) fn scenarios() -> Vec<Scenario> {
    let s =
        |name, duration_ms, link, traffic, heal_budget_ms, min_ratchets, min_delivery| Scenario {
            name,
            duration_ms,
            link,
            traffic,
            adversary: NO_ADV,
            outage: None,
            crashes: None,
            cfg: base_cfg(),
            heal_budget_ms,
            min_ratchets,
            min_delivery,
        };
    vec![
        s(
            "bulk-bernoulli-5%",
            3_000,
            link(Loss::Bernoulli(0.05)),
            Traffic::Bulk(3),
            200,
            5,
            0.92,
        ),
        s(
            "bulk-gilbert-elliott-20%",
            3_000,
            link(Loss::GilbertElliott(0.05, 0.2, 0.9)),
            Traffic::Bulk(3),
            400,
            5,
            0.70,
        ),
        s(
            "voip-20%",
            10_000,
            link(Loss::Bernoulli(0.20)),
            Traffic::Periodic(20),
            1_500,
            15,
            0.75,
        ),
        s(
            "one-sided-10%",
            3_000,
            link(Loss::Bernoulli(0.10)),
            Traffic::OneSided(3),
            600,
            5,
            0.85,
        ),
        Scenario {
            outage: Some((1_000, 1_500)),
            ..s(
                "outage-500ms",
                3_000,
                link(Loss::Bernoulli(0.02)),
                Traffic::Bulk(2),
                1_500,
                4,
                0.70,
            )
        },
        Scenario {
            adversary: Adversary {
                forge: 0.3,
                replay: 0.3,
                drop_control: false,
            },
            ..s(
                "adversary-forge-replay",
                3_000,
                link(Loss::Bernoulli(0.05)),
                Traffic::Bulk(2),
                300,
                5,
                0.90,
            )
        },
        Scenario {
            adversary: Adversary {
                forge: 0.0,
                replay: 0.0,
                drop_control: true,
            },
            ..s(
                "adversary-drops-control",
                3_000,
                link(Loss::Bernoulli(0.05)),
                Traffic::Bulk(2),
                400,
                5,
                0.90,
            )
        },
        Scenario {
            crashes: Some(CRASHES),
            ..s(
                "crash-restore-bulk",
                10_000,
                link(Loss::Bernoulli(0.02)),
                Traffic::Bulk(1),
                0,
                8,
                0.60,
            )
        },
        Scenario {
            crashes: Some(CRASHES),
            adversary: Adversary {
                forge: 0.1,
                replay: 0.2,
                drop_control: false,
            },
            ..s(
                "crash-restore-voip-adv",
                10_000,
                link(Loss::Bernoulli(0.05)),
                Traffic::Periodic(5),
                0,
                8,
                0.50,
            )
        },
    ]
}
