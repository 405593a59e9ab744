//! Deterministic loss / reorder / duplicate / adversary simulator (RATCHET.md §3.2).
//!
//! Two sessions, a virtual clock, per-direction link models and an adversary.
//! Invariants are checked after every event; a failing run prints its seed and
//! replays byte-for-byte with `PQDR_NETSIM_SEED=<seed> cargo test --release -p pqdr-ratchet --test netsim`.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    clippy::nonminimal_bool,
    clippy::neg_cmp_op_on_partial_ord,
    missing_docs,
    reason = "test code: public values, std harness"
)]

mod common;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};

use common::ToyKem;
use pqdr_ratchet::{Config, Error, Event, InitialSecret, Instant, Role, Session};

type S = Session<ToyKem>;

/// splitmix64: the simulator's own (network/adversary) randomness.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[derive(Clone, Copy, Debug)]
enum Loss {
    Bernoulli(f64),
    /// Gilbert–Elliott: P(good→bad), P(bad→good), loss in bad state.
    GilbertElliott(f64, f64, f64),
}

#[derive(Clone, Copy, Debug)]
struct Link {
    loss: Loss,
    delay_ms: u64,
    jitter_ms: u64,
    dup: f64,
    bitflip: f64,
    truncate: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Traffic {
    /// Packets per ms per side.
    Bulk(u64),
    /// One packet every N ms per side.
    Periodic(u64),
    /// Only the initiator sends data (packets per ms).
    OneSided(u64),
}

#[derive(Clone, Copy, Debug)]
struct Adversary {
    forge: f64,
    replay: f64,
    drop_control: bool,
}

#[derive(Clone, Copy, Debug)]
struct Scenario {
    name: &'static str,
    duration_ms: u64,
    link: Link,
    traffic: Traffic,
    adversary: Adversary,
    outage: Option<(u64, u64)>,
    restore_at: Option<u64>,
    cfg: Config,
    /// Largest allowed time from a ratchet start to both sides switched.
    heal_budget_ms: u64,
    min_ratchets: u64,
    min_delivery: f64,
}

#[derive(Default, Debug)]
struct Report {
    sent: u64,
    delivered: u64,
    dropped_link: u64,
    reordered: u64,
    rejected: BTreeMap<String, u64>,
    ratchets: u64,
    heal_ms: Vec<u64>,
    heal_packets: Vec<u64>,
    aborted: u64,
}

struct Pkt {
    at: u64,
    seq: u64,
    to_b: bool,
    bytes: Vec<u8>,
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

struct Sim {
    seed: u64,
    sc: Scenario,
    net: Rng,
    srng: pqdr_kat::Drbg,
    a: S,
    b: S,
    queue: BinaryHeap<Reverse<Pkt>>,
    seq: u64,
    ge_bad: [bool; 2],
    /// Payload ids sent / delivered per direction.
    sent_ids: [HashSet<u64>; 2],
    delivered_ids: [HashSet<u64>; 2],
    next_id: [u64; 2],
    /// (sender, epoch, counter) of every sealed record: no (key, nonce) reuse.
    nonces: [HashSet<(u64, u32)>; 2],
    recorded: Vec<(bool, Vec<u8>)>,
    highest_delivered: [u64; 2],
    ratchet_start: Option<(u64, u64, u64)>,
    report: Report,
    exported: Option<(Vec<u8>, u64)>,
    /// Ids delivered to A after its export: a restore may deliver them again.
    redeliverable: HashSet<u64>,
    /// A persists its state (restore scenario) at the next tick.
    need_export: bool,
}

macro_rules! check {
    ($sim:expr, $cond:expr, $($msg:tt)*) => {
        if !($cond) {
            panic!("netsim seed {} scenario {}: {}", $sim.seed, $sim.sc.name, format!($($msg)*));
        }
    };
}

const SECRET: [u8; 32] = [7; 32];
const PAYLOAD: usize = 1024;
const MTU: usize = 1200;

impl Sim {
    fn new(sc: Scenario, seed: u64) -> Self {
        let mut srng = pqdr_kat::Drbg::new(&[(seed & 0xff) as u8; 48]);
        let init = || InitialSecret {
            secret: &SECRET,
            transcript: b"",
            context: b"netsim",
        };
        let a = S::new(&sc.cfg, Role::Initiator, init(), Instant(0), &mut srng).unwrap();
        let b = S::new(&sc.cfg, Role::Responder, init(), Instant(0), &mut srng).unwrap();
        Sim {
            seed,
            sc,
            net: Rng(seed.wrapping_mul(0x1234_5678_9abc_def1) ^ 0xfeed),
            srng,
            a,
            b,
            queue: BinaryHeap::new(),
            seq: 0,
            ge_bad: [false; 2],
            sent_ids: [HashSet::new(), HashSet::new()],
            delivered_ids: [HashSet::new(), HashSet::new()],
            next_id: [0, 1 << 40],
            nonces: [HashSet::new(), HashSet::new()],
            recorded: Vec::new(),
            highest_delivered: [0; 2],
            ratchet_start: None,
            report: Report::default(),
            exported: None,
            redeliverable: HashSet::new(),
            need_export: sc.restore_at.is_some(),
        }
    }

    fn side(&mut self, from_a: bool) -> &mut S {
        if from_a { &mut self.a } else { &mut self.b }
    }

    /// Puts a sealed record on the link (loss, delay, jitter, dup, corruption).
    fn transmit(&mut self, now: u64, from_a: bool, pkt: &[u8], control: bool) {
        let d = usize::from(!from_a);
        // (key, nonce) uniqueness: the sender sends only in its current epoch.
        let epoch = self.side(from_a).status(Instant(now)).epoch;
        check!(
            self,
            pkt[1] == epoch as u8,
            "epoch byte {} vs status {}",
            pkt[1],
            epoch
        );
        let counter = u32::from_be_bytes(pkt[2..6].try_into().unwrap());
        check!(
            self,
            self.nonces[d].insert((epoch, counter)),
            "nonce reuse: dir {d} epoch {epoch} counter {counter}"
        );
        if self.recorded.len() < 4096 && self.net.f() < 0.05 {
            self.recorded.push((from_a, pkt.to_vec()));
        }
        if let Some((s, e)) = self.sc.outage
            && now >= s
            && now < e
        {
            self.report.dropped_link += 1;
            return;
        }
        if control && self.sc.adversary.drop_control {
            return;
        }
        let lost = match self.sc.link.loss {
            Loss::Bernoulli(p) => self.net.f() < p,
            Loss::GilbertElliott(gb, bg, p) => {
                let bad = &mut self.ge_bad[d];
                if *bad {
                    if self.net.f() < bg {
                        *bad = false
                    }
                } else if self.net.f() < gb {
                    *bad = true
                }
                let bad = self.ge_bad[d];
                bad && self.net.f() < p
            }
        };
        if lost {
            self.report.dropped_link += 1;
            return;
        }
        let copies = if self.net.f() < self.sc.link.dup {
            2
        } else {
            1
        };
        for _ in 0..copies {
            let mut bytes = pkt.to_vec();
            if self.net.f() < self.sc.link.bitflip {
                let i = self.net.below(bytes.len() as u64) as usize;
                bytes[i] ^= 1 << self.net.below(8);
            }
            if self.net.f() < self.sc.link.truncate {
                let l = self.net.below(bytes.len() as u64) as usize;
                bytes.truncate(l);
            }
            let at = now + self.sc.link.delay_ms + self.net.below(self.sc.link.jitter_ms + 1);
            self.seq += 1;
            self.queue.push(Reverse(Pkt {
                at,
                seq: self.seq,
                to_b: from_a,
                bytes,
            }));
        }
    }

    fn send_data(&mut self, now: u64, from_a: bool) {
        let d = usize::from(!from_a);
        let id = self.next_id[d];
        self.next_id[d] += 1;
        let mut payload = [0u8; PAYLOAD];
        payload[..8].copy_from_slice(&id.to_be_bytes());
        for (i, b) in payload[8..].iter_mut().enumerate() {
            *b = (id as usize + i) as u8;
        }
        let mut pkt = [0u8; 1500];
        let mut srng = std::mem::replace(&mut self.srng, pqdr_kat::Drbg::new(&[0; 48]));
        let s = self.side(from_a);
        let room = s.max_payload(MTU).min(PAYLOAD);
        let r = s.seal(Instant(now), b"cid", &payload[..room], &mut pkt, &mut srng);
        self.srng = srng;
        match r {
            Ok(n) => {
                check!(self, n <= MTU, "record {n} > MTU");
                self.sent_ids[d].insert(id);
                self.report.sent += 1;
                self.transmit(now, from_a, &pkt[..n], false);
            }
            Err(Error::ReservationExhausted) => self.need_export = true,
            Err(e) => check!(self, false, "seal failed: {e:?}"),
        }
    }

    fn poll(&mut self, now: u64, from_a: bool) {
        let mut pkt = [0u8; 1500];
        loop {
            let mut srng = std::mem::replace(&mut self.srng, pqdr_kat::Drbg::new(&[0; 48]));
            let n =
                self.side(from_a)
                    .poll_transmit(Instant(now), b"cid", &mut pkt[..MTU], &mut srng);
            self.srng = srng;
            let Some(n) = n else { break };
            self.transmit(now, from_a, &pkt[..n], true);
        }
    }

    fn deliver(&mut self, now: u64, to_b: bool, bytes: &[u8]) {
        let mut out = [0u8; 1500];
        let mut srng = std::mem::replace(&mut self.srng, pqdr_kat::Drbg::new(&[0; 48]));
        let r = self
            .side(!to_b)
            .open(Instant(now), b"cid", bytes, &mut out, &mut srng);
        self.srng = srng;
        let d = usize::from(!to_b);
        match r {
            Ok(o) if o.len > 0 => {
                check!(self, o.len >= 8, "short payload");
                let id = u64::from_be_bytes(out[..8].try_into().unwrap());
                check!(
                    self,
                    self.sent_ids[d].contains(&id),
                    "delivered a payload never sent (id {id})"
                );
                let fresh = self.delivered_ids[d].insert(id);
                check!(
                    self,
                    fresh || (!to_b && self.redeliverable.remove(&id)),
                    "payload {id} delivered twice"
                );
                for (i, b) in out[8..o.len].iter().enumerate() {
                    check!(
                        self,
                        *b == (id as usize + i) as u8,
                        "payload {id} corrupted"
                    );
                }
                if id < self.highest_delivered[d] {
                    self.report.reordered += 1;
                }
                self.highest_delivered[d] = self.highest_delivered[d].max(id);
                if !to_b && self.exported.is_some() {
                    self.redeliverable.insert(id);
                }
                self.report.delivered += 1;
            }
            Ok(_) => {}
            Err(e) => *self.report.rejected.entry(format!("{e:?}")).or_default() += 1,
        }
    }

    fn adversary(&mut self, now: u64) {
        if self.net.f() < self.sc.adversary.forge {
            let to_b = self.net.next() & 1 == 0;
            let epoch = self.side(!to_b).status(Instant(now)).epoch;
            let mut f = vec![0u8; 22 + self.net.below(200) as usize];
            for b in &mut f {
                *b = self.net.next() as u8;
            }
            f[0] = 0x20;
            f[1] = epoch as u8;
            let mut out = [0u8; 1500];
            let mut srng = std::mem::replace(&mut self.srng, pqdr_kat::Drbg::new(&[0; 48]));
            let r = self
                .side(!to_b)
                .open(Instant(now), b"cid", &f, &mut out, &mut srng);
            self.srng = srng;
            check!(self, r.is_err(), "forgery accepted");
        }
        if !self.recorded.is_empty() && self.net.f() < self.sc.adversary.replay {
            let i = self.net.below(self.recorded.len() as u64) as usize;
            let (from_a, p) = self.recorded[i].clone();
            self.seq += 1;
            self.queue.push(Reverse(Pkt {
                at: now,
                seq: self.seq,
                to_b: from_a,
                bytes: p,
            }));
        }
    }

    fn events(&mut self, now: u64) {
        for from_a in [true, false] {
            while let Some(e) = self.side(from_a).poll_event() {
                // Persistence policy of the restore scenario: A exports whenever its
                // keys change (and when its send reservation runs out).
                if from_a
                    && matches!(
                        e,
                        Event::RatchetStarted { .. }
                            | Event::NextEpochReady { .. }
                            | Event::EpochAdvanced { .. }
                    )
                {
                    self.need_export = self.sc.restore_at.is_some();
                }
                match e {
                    Event::RatchetStarted { epoch } => {
                        let sent = self.report.sent;
                        self.ratchet_start = Some((now, epoch, sent));
                    }
                    Event::RatchetAborted { .. } => self.report.aborted += 1,
                    _ => {}
                }
            }
        }
        if let Some((t0, e, p0)) = self.ratchet_start {
            let (ea, eb) = (
                self.a.status(Instant(now)).epoch,
                self.b.status(Instant(now)).epoch,
            );
            if ea > e && eb > e {
                self.report.heal_ms.push(now - t0);
                self.report.heal_packets.push(self.report.sent - p0);
                self.ratchet_start = None;
            }
        }
    }

    fn run(mut self) -> Report {
        let tick = 1u64;
        let mut now = 0u64;
        while now < self.sc.duration_ms {
            // Deliver everything due.
            while self.queue.peek().is_some_and(|p| p.0.at <= now) {
                let p = self.queue.pop().unwrap().0;
                self.deliver(now, p.to_b, &p.bytes);
                self.events(now);
            }
            self.adversary(now);
            let mut srng = std::mem::replace(&mut self.srng, pqdr_kat::Drbg::new(&[0; 48]));
            self.a.handle_timeout(Instant(now), &mut srng);
            self.b.handle_timeout(Instant(now), &mut srng);
            self.srng = srng;
            match self.sc.traffic {
                Traffic::Bulk(r) => {
                    for _ in 0..r {
                        self.send_data(now, true);
                        self.send_data(now, false);
                    }
                }
                Traffic::Periodic(p) => {
                    if now.is_multiple_of(p) {
                        self.send_data(now, true);
                        self.send_data(now, false);
                    }
                }
                Traffic::OneSided(r) => {
                    for _ in 0..r {
                        self.send_data(now, true);
                    }
                }
            }
            self.poll(now, true);
            self.poll(now, false);
            self.events(now);
            if let Some(t) = self.sc.restore_at {
                self.restore_step(now, t);
            }
            now += tick;
        }
        let sa = self.a.status(Instant(now));
        let sb = self.b.status(Instant(now));
        self.report.ratchets = sa.ratchets_completed.min(sb.ratchets_completed);
        check!(
            self,
            sa.epoch.abs_diff(sb.epoch) <= 1,
            "epochs diverged: {} vs {}",
            sa.epoch,
            sb.epoch
        );
        check!(
            self,
            self.report.ratchets >= self.sc.min_ratchets,
            "only {} ratchets",
            self.report.ratchets
        );
        let ratio = self.report.delivered as f64 / self.report.sent.max(1) as f64;
        check!(
            self,
            ratio >= self.sc.min_delivery,
            "delivery ratio {ratio:.3} < {}",
            self.sc.min_delivery
        );
        for &h in &self.report.heal_ms {
            check!(
                self,
                h <= self.sc.heal_budget_ms,
                "healing took {h} ms > {}",
                self.sc.heal_budget_ms
            );
        }
        self.report
    }

    /// A exports (reserve 2000) whenever its persistence policy asks; at `t` it
    /// crashes and is restored from its latest export.
    fn restore_step(&mut self, now: u64, t: u64) {
        if self.need_export {
            self.need_export = false;
            let mut blob = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
            let n = self.a.export_state(2000, Instant(now), &mut blob).unwrap();
            blob.truncate(n);
            self.exported = Some((blob, self.a.generation()));
            self.redeliverable.clear();
        }
        if now == t {
            let (blob, g) = self.exported.clone().unwrap();
            let r = S::import_state(&self.sc.cfg, &blob, g, Instant(now));
            check!(self, r.is_ok(), "import failed: {:?}", r.err());
            self.a = r.unwrap();
        }
    }
}

fn base_cfg() -> Config {
    Config {
        rekey_after_ms: 400,
        min_ratchet_interval_ms: 100,
        old_epoch_grace_ms: 200,
        ratchet_timeout_ms: 2_000,
        reject_after_ms: 60_000,
        ..Config::default()
    }
}

fn link(loss: Loss) -> Link {
    Link {
        loss,
        delay_ms: 5,
        jitter_ms: 3,
        dup: 0.01,
        bitflip: 0.002,
        truncate: 0.001,
    }
}

const NO_ADV: Adversary = Adversary {
    forge: 0.0,
    replay: 0.0,
    drop_control: false,
};

fn scenarios() -> Vec<Scenario> {
    let s =
        |name, duration_ms, link, traffic, heal_budget_ms, min_ratchets, min_delivery| Scenario {
            name,
            duration_ms,
            link,
            traffic,
            adversary: NO_ADV,
            outage: None,
            restore_at: None,
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
            restore_at: Some(1_234),
            ..s(
                "export-restore",
                3_000,
                link(Loss::Bernoulli(0.02)),
                Traffic::Bulk(2),
                400,
                4,
                0.85,
            )
        },
    ]
}

fn pct(v: &mut [u64], p: usize) -> u64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    v[(v.len() - 1) * p / 100]
}

#[test]
fn netsim_bounded_seeds() {
    let seeds: Vec<u64> = match std::env::var("PQDR_NETSIM_SEED") {
        Ok(s) => vec![s.parse().unwrap()],
        Err(_) => (1..=std::env::var("PQDR_NETSIM_SEEDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(3))
            .collect(),
    };
    let mut summary = HashMap::new();
    for sc in scenarios() {
        for &seed in &seeds {
            eprintln!("netsim: scenario {} seed {seed}", sc.name);
            let r = Sim::new(sc, seed).run();
            let e = summary.entry(sc.name).or_insert_with(Report::default);
            e.sent += r.sent;
            e.delivered += r.delivered;
            e.dropped_link += r.dropped_link;
            e.reordered += r.reordered;
            e.ratchets += r.ratchets;
            e.aborted += r.aborted;
            e.heal_ms.extend(r.heal_ms);
            e.heal_packets.extend(r.heal_packets);
            for (k, v) in r.rejected {
                *e.rejected.entry(k).or_default() += v;
            }
        }
    }
    println!("netsim: {} seeds per scenario", seeds.len());
    println!(
        "{:<26} {:>8} {:>9} {:>8} {:>8} {:>6} {:>5} {:>16} {:>18}  rejected",
        "scenario",
        "sent",
        "delivered",
        "lost",
        "reorder",
        "ratch",
        "abrt",
        "heal ms p50/p90/max",
        "heal pkts p50/max"
    );
    for sc in scenarios() {
        let e = summary.get_mut(sc.name).unwrap();
        let (m50, m90) = (pct(&mut e.heal_ms, 50), pct(&mut e.heal_ms, 90));
        let mmax = e.heal_ms.last().copied().unwrap_or(0);
        let p50 = pct(&mut e.heal_packets, 50);
        let pmax = e.heal_packets.last().copied().unwrap_or(0);
        println!(
            "{:<26} {:>8} {:>9} {:>8} {:>8} {:>6} {:>5} {:>16} {:>18}  {:?}",
            sc.name,
            e.sent,
            e.delivered,
            e.dropped_link,
            e.reordered,
            e.ratchets,
            e.aborted,
            format!("{m50}/{m90}/{mmax}"),
            format!("{p50}/{pmax}"),
            e.rejected
        );
    }
}
