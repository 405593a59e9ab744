//! The input drives a schedule of sends, deliveries (reordered, duplicated,
//! replayed), drops, tamperings, timeouts, exports, crashes with restores from
//! the last persisted blob, and rollback attempts between two sessions, with
//! the netsim invariants as assertions (docs/protocol/ratchet.md §3.2, §3.4):
//!
//! * no (key, nonce) is ever sealed twice, across every incarnation of both
//!   parties (the instrumented AEAD, `Session::last_sealed`);
//! * every delivered payload was sealed by the other party, and none is
//!   delivered twice — except that a restored receiver may accept again what
//!   it received after its persisted export (the replay window a restore
//!   re-opens, §1.11 rule 4): its delivered set goes back to the one
//!   persisted with the blob;
//! * the application discipline of §1.11: persist the blob with its
//!   generation; restore the last one with that generation as
//!   `min_generation` (it must import); a restored session refuses to send
//!   (`ExportRequired`, nothing from `poll_transmit`) until it has exported
//!   again; an older blob is refused as stale;
//! * the pre-authentication token bucket never holds more than its budget.
#![no_main]

mod common;

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use pqdr_ratchet::{Config, Error, Instant, Role};

/// Payload ids delivered to a party (what its receive state has accepted).
type Delivered = HashSet<u64>;

struct Party {
    s: common::S,
    /// Persisted exports, oldest first: blob, its generation, and the ids the
    /// party had accepted when it was taken (at most `KEEP`).
    persisted: Vec<(Vec<u8>, u64, Delivered)>,
    /// Restored and not exported since.
    needs_export: bool,
    delivered: Delivered,
}

const KEEP: usize = 6;
const RESERVES: [u32; 8] = [0, 1, 2, 5, 16, 64, 1000, 1 << 20];

struct World {
    cfg: Config,
    p: [Party; 2],
    /// Records in flight from side i to side 1 − i.
    queue: [Vec<Vec<u8>>; 2],
    /// Every record side i sealed (bounded), for replays.
    history: [Vec<Vec<u8>>; 2],
    /// Payload ids sealed by side i (any incarnation).
    sent: [HashSet<u64>; 2],
    /// Every (key, nonce) sealed by anyone.
    sealed: HashSet<([u8; 32], [u8; 12])>,
    next_id: u64,
    now: u64,
    r: pqdr_kat::Drbg,
}

impl World {
    fn record_seal(&mut self, side: usize, pkt: &[u8]) {
        let kn = self.p[side]
            .s
            .last_sealed()
            .expect("a sealed record leaves its (key, nonce)");
        assert!(
            self.sealed.insert(kn),
            "(key, nonce) sealed twice (side {side})"
        );
        self.queue[side].push(pkt.to_vec());
        if self.history[side].len() < 256 {
            self.history[side].push(pkt.to_vec());
        }
    }

    fn seal(&mut self, side: usize) {
        let now = Instant(self.now);
        self.next_id += 1;
        let id = self.next_id;
        let mut pkt = [0u8; 1500];
        let res = self.p[side]
            .s
            .seal(now, b"", &id.to_be_bytes(), &mut pkt, &mut self.r);
        if self.p[side].needs_export {
            assert_eq!(
                res,
                Err(Error::ExportRequired),
                "restored session sealed before exporting"
            );
            return;
        }
        if let Ok(n) = res {
            self.sent[side].insert(id);
            self.record_seal(side, &pkt[..n]);
        }
    }

    fn poll(&mut self, side: usize) {
        let now = Instant(self.now);
        let mut pkt = [0u8; 1500];
        while let Some(n) = self.p[side]
            .s
            .poll_transmit(now, b"", &mut pkt, &mut self.r)
        {
            assert!(
                !self.p[side].needs_export,
                "restored session transmitted before exporting"
            );
            self.record_seal(side, &pkt[..n]);
        }
    }

    /// Delivers a record sealed by `side` to the other party.
    fn deliver(&mut self, side: usize, rec: &[u8]) {
        let now = Instant(self.now);
        let mut out = [0u8; 1500];
        let rx = &mut self.p[1 - side];
        if let Ok(o) = rx.s.open(now, b"", rec, &mut out, &mut self.r)
            && o.len == 8
        {
            let id = u64::from_be_bytes(out[..8].try_into().unwrap());
            assert!(self.sent[side].contains(&id), "forged payload {id}");
            assert!(rx.delivered.insert(id), "payload {id} delivered twice");
        }
    }

    fn export(&mut self, side: usize, reserve: u32) {
        let now = Instant(self.now);
        let p = &mut self.p[side];
        match p
            .s
            .export_state_to_vec(reserve, common::STORAGE_KEY, now, &mut self.r)
        {
            Ok(blob) => {
                let g = p.s.generation();
                // Persisted at once (below), then confirmed.
                p.s.confirm_persisted(g).unwrap();
                if let Some(last) = p.persisted.last() {
                    assert!(
                        g > last.1,
                        "generation did not grow: {} after {}",
                        g,
                        last.1
                    );
                }
                if p.persisted.len() == KEEP {
                    p.persisted.remove(0);
                }
                p.persisted.push((blob, g, p.delivered.clone()));
                p.needs_export = false;
            }
            Err(e) => assert_eq!(e, Error::Closed, "export failed"),
        }
    }

    /// Crash: the party restarts from its last persisted blob.
    fn crash(&mut self, side: usize) {
        let now = Instant(self.now);
        let cfg = self.cfg;
        let p = &mut self.p[side];
        let Some((blob, g, delivered)) = p.persisted.last() else {
            return;
        };
        let mut b = blob.clone();
        let id = p.s.session_id();
        let s = common::S::import_state(&cfg, common::STORAGE_KEY, id, &mut b, *g, now)
            .unwrap_or_else(|e| panic!("the last persisted blob was refused: {e:?}"));
        assert_eq!(s.generation(), *g);
        p.delivered = delivered.clone();
        p.s = s;
        p.needs_export = true;
    }

    /// An older persisted blob (or the last one above its generation) must be refused.
    fn rollback(&mut self, side: usize, arg: u8) {
        let now = Instant(self.now);
        let p = &self.p[side];
        let Some((last, g, _)) = p.persisted.last() else {
            return;
        };
        let (mut b, min) = if p.persisted.len() >= 2 {
            let k = usize::from(arg) % (p.persisted.len() - 1);
            (p.persisted[k].0.clone(), *g)
        } else {
            (last.clone(), g + 1)
        };
        let id = p.s.session_id();
        let res = common::S::import_state(&self.cfg, common::STORAGE_KEY, id, &mut b, min, now);
        assert_eq!(res.err(), Some(Error::StaleGeneration), "rollback accepted");
    }
}

fuzz_target!(|data: &[u8]| {
    let cfg = Config {
        rekey_after_ms: 50,
        min_ratchet_interval_ms: 10,
        ..Config::default()
    };
    let mut r = common::rng();
    let a = common::S::new(&cfg, Role::Initiator, common::init(), Instant(0), &mut r).unwrap();
    let b = common::S::new(&cfg, Role::Responder, common::init(), Instant(0), &mut r).unwrap();
    let party = |s| Party {
        s,
        persisted: Vec::new(),
        needs_export: false,
        delivered: HashSet::new(),
    };
    let mut w = World {
        cfg,
        p: [party(a), party(b)],
        queue: [Vec::new(), Vec::new()],
        history: [Vec::new(), Vec::new()],
        sent: [HashSet::new(), HashSet::new()],
        sealed: HashSet::new(),
        next_id: 0,
        now: 0,
        r,
    };
    let mut it = data.iter().copied().take(600);
    while let Some(op) = it.next() {
        let side = usize::from(op & 1);
        let kind = op >> 1;
        // Operations that take an argument read the next byte.
        let mut arg = || it.next().unwrap_or(0);
        match kind {
            0..=31 => w.seal(side),
            32..=41 => w.poll(side),
            42..=77 => {
                // Deliver the newest (reordering), maybe keeping a duplicate.
                if let Some(q) = w.queue[side].pop() {
                    if kind & 1 == 1 {
                        w.queue[side].insert(0, q.clone());
                    }
                    w.deliver(side, &q);
                }
            }
            78..=87 => {
                // Deliver the oldest (in order).
                if !w.queue[side].is_empty() {
                    let q = w.queue[side].remove(0);
                    w.deliver(side, &q);
                }
            }
            88..=91 => {
                w.queue[side].pop();
            }
            92..=95 => {
                let i = usize::from(arg());
                if let Some(q) = w.queue[side].last_mut() {
                    let n = q.len();
                    q[i % n] ^= 0x10;
                }
            }
            96..=99 => {
                let i = usize::from(arg());
                if !w.history[side].is_empty() {
                    let q = w.history[side][i % w.history[side].len()].clone();
                    w.deliver(side, &q);
                }
            }
            100..=107 => {
                w.now += u64::from(arg());
                let now = Instant(w.now);
                w.p[side].s.handle_timeout(now, &mut w.r);
            }
            108..=109 => {
                w.now += u64::from(arg()) * 64;
                let now = Instant(w.now);
                w.p[side].s.handle_timeout(now, &mut w.r);
            }
            110..=117 => {
                let reserve = RESERVES[usize::from(arg() & 7)];
                w.export(side, reserve);
            }
            118..=123 => w.crash(side),
            _ => {
                let a = arg();
                w.rollback(side, a);
            }
        }
        for p in &w.p {
            assert!(p.s.unauth_tokens() <= u64::from(cfg.unauth_derivation_budget));
        }
    }
});
