//! Unauthenticated input is cheap and harmless (docs/protocol/ratchet.md §1.8, revised
//! 2026-11-25; issue 14 part 3).
//!
//! * A flood of 2^21 forged datagrams (random epoch bytes, counters near and
//!   far ahead of every receive position and below it, random lengths and
//!   bytes, repeated identical forgeries) against a live session whose
//!   virtual clock advances 1 µs per packet: every one is rejected, nothing
//!   panics, the session state is bit-identical afterwards, the only event is
//!   `AuthFailureAlarm`, the session stays open and keeps working.
//! * The derivation work the flood could cause is bounded by the token
//!   bucket. The bound is checked with a lower bound on the work of each
//!   derivation computed here from the chain structure alone (a key `c` of a
//!   segment is `c mod 256 + 1` sequential steps from the segment key, or
//!   `c − pos + 1` from the receive position in the same segment), not from
//!   the crate's cost formula: the sum over all forgeries that were derived
//!   must stay below the bucket's capacity plus its refill. Small gaps are
//!   not charged (their bound is checked in tests/forgery_flood.rs).
//! * A repeated forgery of the same (epoch, counter) costs no tokens; an
//!   empty bucket refuses charged derivations (`TooFarAhead`) while the
//!   in-order record, stored keys and small gaps (`next < c ≤ next + W`,
//!   issue #33 M1) stay free; an authentic charged record gets its tokens
//!   back.
//! * `AuthFailureAlarm` once per epoch at `auth_failure_limit`; never closes.
//! * Wedge rule and `Status::confirmed` (docs/protocol/ratchet.md §1.8, §2).
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    clippy::too_many_lines,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use crate::common;
use std::collections::BTreeMap;

use common::{ToyKem, init, pair, rng};
use pqdr_ratchet::{Config, Error, Event, Instant, Role, Session, wire};

type S = Session<ToyKem>;
type Rng = pqdr_kat::Drbg;

/// Window bits `W` of the default `Session`.
const W: u64 = 1024;

/// splitmix64 for the attacker's choices.
struct Sm(u64);
impl Sm {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn fill(&mut self, b: &mut [u8]) {
        for chunk in b.chunks_mut(8) {
            let x = self.next().to_le_bytes();
            chunk.copy_from_slice(&x[..chunk.len()]);
        }
    }
}

/// A forged datagram record `FLAGS ‖ epoch_lo ‖ be32(c) ‖ random body ‖ random tag`.
fn forge(sm: &mut Sm, lo: u8, c: u32, len: usize) -> Vec<u8> {
    let mut f = vec![0u8; len.max(wire::OVERHEAD)];
    sm.fill(&mut f);
    f[0] = wire::FLAGS;
    f[1] = lo;
    f[2..6].copy_from_slice(&c.to_be_bytes());
    f
}

fn events(s: &mut S) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

/// One tick: data both ways, then control; B's records reach A unless
/// `drop_b_to_a(a)` says otherwise (asked before each record).
fn tick_with(a: &mut S, b: &mut S, now: Instant, r: &mut Rng, drop_b_to_a: impl Fn(&S) -> bool) {
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    a.handle_timeout(now, r);
    b.handle_timeout(now, r);
    let n = a.seal(now, b"", b"a data", &mut pkt, r).unwrap();
    b.open(now, b"", &pkt[..n], &mut out, r).unwrap();
    let n = b.seal(now, b"", b"b data", &mut pkt, r).unwrap();
    if !drop_b_to_a(a) {
        a.open(now, b"", &pkt[..n], &mut out, r).unwrap();
    }
    for _ in 0..4 {
        while let Some(n) = a.poll_transmit(now, b"", &mut pkt, r) {
            b.open(now, b"", &pkt[..n], &mut out, r).unwrap();
        }
        while let Some(n) = b.poll_transmit(now, b"", &mut pkt, r) {
            if !drop_b_to_a(a) {
                a.open(now, b"", &pkt[..n], &mut out, r).unwrap();
            }
        }
    }
}

fn tick(a: &mut S, b: &mut S, now: Instant, r: &mut Rng, drop_b_to_a: bool) {
    tick_with(a, b, now, r, |_| drop_b_to_a);
}

fn snapshot(s: &S, now: Instant) -> Vec<u8> {
    let mut v = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
    let n = s.snapshot(now, &mut v).unwrap();
    v.truncate(n);
    v
}

/// A lower bound on the chain steps needed to derive the key of counter `c`
/// from a receive position `pos ≤ c` (same segment: every packet step from
/// `pos`; another segment: at least the steps from that segment's start).
fn work_lower_bound(c: u64, pos: u64) -> u64 {
    if c >> 8 == pos >> 8 {
        c - pos + 1
    } else {
        (c & 255) + 1
    }
}

/// Builds the flood target: A after the bootstrap ratchet (epoch 0 still in
/// its grace period), with 600 epoch-1 records of B received (every 7th
/// lost: stored skipped keys), and epoch 2 installed as the peer of B's
/// ratchet (its ct not yet delivered). Three live receive windows.
fn flood_target(cfg: &Config) -> (S, S, Rng, u64) {
    let mut r = rng(71);
    let (mut a, mut b): (S, S) = pair(cfg, Instant(0), &mut r);
    let mut t = 0;
    while a.status(Instant(t)).epoch < 1 || b.status(Instant(t)).epoch < 1 {
        tick(&mut a, &mut b, Instant(t), &mut r, false);
        t += 1;
        assert!(t < 1000);
    }
    let now = Instant(t);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    for i in 0..600 {
        let n = b.seal(now, b"", b"epoch 1", &mut pkt, &mut r).unwrap();
        if i % 7 != 3 {
            a.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        }
    }
    b.request_ratchet();
    b.handle_timeout(now, &mut r);
    assert!(events(&mut b).contains(&Event::RatchetStarted { epoch: 1 }));
    while let Some(n) = b.poll_transmit(now, b"", &mut pkt, &mut r) {
        a.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
    }
    assert!(events(&mut a).contains(&Event::NextEpochReady { epoch: 2 }));
    let live: Vec<u64> = a
        .leak_positions()
        .into_iter()
        .flatten()
        .map(|e| e.epoch)
        .collect();
    assert_eq!(
        live.len(),
        3,
        "epochs 0 (grace), 1, 2 (installed): {live:?}"
    );
    (a, b, r, t)
}

#[test]
fn forged_flood_2_21_is_rejected_and_changes_nothing() {
    const N: u64 = 1 << 21;
    let cfg = Config::default();
    let (mut a, mut b, mut r, t0) = flood_target(&cfg);
    let rate = u64::from(cfg.unauth_derivation_budget);
    let start = Instant(t0);
    let before = snapshot(&a, start);
    let failures0 = a.status(start).auth_failures;
    let windows: Vec<(u8, u64, u64)> = a
        .leak_positions()
        .into_iter()
        .flatten()
        .map(|e| (e.epoch as u8, e.epoch, e.recv_next))
        .collect();
    let mut sm = Sm(0x5eed_f00d);
    let mut out = vec![0u8; 1500];
    let mut outcome: Vec<(Error, u64)> = Vec::new();
    let mut in_open = std::time::Duration::ZERO;
    let mut pending: BTreeMap<u8, u64> = BTreeMap::new();
    let mut prev: Option<Vec<u8>> = None;
    let (mut lb_sum, mut derived, mut bucket_refused, mut repeats, mut unauth, mut near) =
        (0u64, 0u64, 0, 0, 0, 0);
    let wall = std::time::Instant::now();
    for i in 0..N {
        let now = Instant(t0 + i / 1000); // 1 µs of virtual time per packet
        let f = match sm.below(16) {
            0 => {
                // Arbitrary bytes.
                let mut f = vec![0u8; sm.below(1400) as usize];
                sm.fill(&mut f);
                f
            }
            1 | 2 if prev.is_some() => prev.clone().unwrap(),
            _ => {
                let (lo, next) = if sm.below(8) == 0 {
                    (sm.next() as u8, 0)
                } else {
                    let w = windows[sm.below(windows.len() as u64) as usize];
                    (w.0, w.2)
                };
                let c = match sm.below(20) {
                    0..=2 => next + sm.below(2),
                    3..=7 => next + 2 + sm.below(600),
                    8..=10 => next + 600 + sm.below(1 << 20),
                    11..=13 => next + (1 << 20) + sm.below(u64::from(cfg.max_jump)),
                    14 => sm.next() & 0xffff_ffff,
                    _ => next.saturating_sub(1 + sm.below(1200)),
                };
                let len = if sm.below(32) == 0 {
                    sm.below(22) as usize
                } else {
                    22 + sm.below(1300) as usize
                };
                let mut f = forge(&mut sm, lo, c.min(u64::from(u32::MAX)) as u32, len);
                f.truncate(len);
                if sm.below(64) == 0 && !f.is_empty() {
                    f[0] ^= 1 << sm.below(8); // wrong flags
                }
                f
            }
        };
        let tokens = a.unauth_tokens();
        let t_open = std::time::Instant::now();
        let res = a.open(now, b"", &f, &mut out, &mut r);
        in_open += t_open.elapsed();
        let after = a.unauth_tokens();
        let Err(e) = res else {
            panic!("forgery {i} accepted: {res:?}");
        };
        match outcome.iter_mut().find(|x| x.0 == e) {
            Some(x) => x.1 += 1,
            None => outcome.push((e, 1)),
        }
        unauth += u64::from(e == Error::Unauthentic);
        assert!(after <= rate, "bucket above its capacity: {after}");
        // Classify by what the receiver must do for it.
        let well_formed = f.len() >= wire::OVERHEAD && f[0] == wire::FLAGS;
        let window = windows.iter().find(|w| well_formed && w.0 == f[1]);
        if let Some(&(lo, _, next)) = window {
            let c = u64::from(u32::from_be_bytes(f[2..6].try_into().unwrap()));
            let ahead = c >= next && c + 1 - next <= u64::from(cfg.max_jump);
            let segment_end = (c + 1) % 256 == 0;
            if ahead && (c != next || segment_end) {
                if pending.get(&lo) == Some(&c) {
                    // The same (epoch, counter) as the last pending
                    // derivation of this window: cached, no tokens.
                    assert_eq!(e, Error::Unauthentic, "repeated forgery {i}");
                    assert_eq!(after, tokens, "repeated forgery {i} cost tokens");
                    repeats += 1;
                } else if e == Error::Unauthentic {
                    pending.insert(lo, c);
                    if c > next && c - next <= W {
                        // A small gap: never charged (issue #33 M1); its
                        // work is bounded by the near checkpoints
                        // (tests/forgery_flood.rs counts it).
                        assert_eq!(after, tokens, "small gap {} charged", c - next);
                        near += 1;
                    } else if c != next {
                        derived += 1;
                        lb_sum += work_lower_bound(c, next);
                    }
                } else {
                    assert_eq!(e, Error::TooFarAhead, "forgery {i}");
                    bucket_refused += 1;
                }
            }
        }
        if i % (1 << 16) == 0 {
            assert_eq!(snapshot(&a, start), before, "state changed by forgery {i}");
        }
        prev = Some(f);
    }
    let secs = wall.elapsed().as_secs_f64();
    let end = Instant(t0 + N / 1000);
    let elapsed_ms = end.0 - t0;
    // The state is bit-identical; only the failure counter moved.
    assert_eq!(snapshot(&a, start), before, "state changed by the flood");
    let st = a.status(end);
    assert!(!st.closed && !st.wedged, "{st:?}");
    assert_eq!(st.auth_failures, failures0 + unauth);
    // The only event: one alarm once the per-epoch limit is reached.
    let ev = events(&mut a);
    let want = usize::from(unauth >= cfg.auth_failure_limit);
    assert!(
        ev.iter()
            .all(|e| *e == Event::AuthFailureAlarm { epoch: 1 })
            && ev.len() == want,
        "{ev:?} after {unauth} failures"
    );
    // Derivation work within the bucket (capacity + refill over the flood),
    // and the bucket was the binding limit.
    let budget = rate + rate * elapsed_ms / 1000;
    println!(
        "{N} forgeries in {secs:.2} s wall ({:.2} s inside open: {:.0} ns per forgery), \
         {elapsed_ms} ms virtual; outcomes {outcome:?}",
        in_open.as_secs_f64(),
        in_open.as_secs_f64() * 1e9 / N as f64
    );
    println!(
        "derived {derived} (work ≥ {lb_sum} steps, budget {budget}), refused by the bucket {bucket_refused}, \
         repeated {repeats}, small gaps (free) {near}, tokens left {}",
        a.unauth_tokens()
    );
    assert!(lb_sum <= budget, "work {lb_sum} > bucket {budget}");
    assert!(bucket_refused > 1000 && derived > 1000 && repeats > 1000 && near > 1000);
    // The session still works: both directions, then the ratchet completes.
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let n = a
        .seal(end, b"", b"after the flood", &mut pkt, &mut r)
        .unwrap();
    let o = b.open(end, b"", &pkt[..n], &mut out, &mut r).unwrap();
    assert_eq!(&out[..o.len], b"after the flood");
    let n = b.seal(end, b"", b"and back", &mut pkt, &mut r).unwrap();
    let o = a.open(end, b"", &pkt[..n], &mut out, &mut r).unwrap();
    assert_eq!((&out[..o.len], o.epoch), (&b"and back"[..], 1));
    let mut t = end.0;
    while a.status(Instant(t)).epoch < 2 || b.status(Instant(t)).epoch < 2 {
        tick(&mut a, &mut b, Instant(t), &mut r, false);
        t += 1;
        assert!(t < end.0 + 1000, "ratchet did not complete after the flood");
    }
    tick(&mut a, &mut b, Instant(t), &mut r, false);
}

#[test]
fn repeated_forgery_is_free_and_an_empty_bucket_refuses() {
    const BUDGET: u32 = 5000;
    let cfg = Config {
        ratchet_on_start: false,
        unauth_derivation_budget: BUDGET,
        ..Config::default()
    };
    let mut r = rng(72);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let now = Instant(0);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    for i in 0..10 {
        let n = a.seal(now, b"", b"x", &mut pkt, &mut r).unwrap();
        if i != 5 {
            b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        }
    }
    assert!(b.leak_holds_skipped(0, 5));
    let mut sm = Sm(72);
    let mut open = |b: &mut S, f: &[u8]| {
        let t = b.unauth_tokens();
        let res = b.open(now, b"", f, &mut out, &mut r);
        (res.err(), t - b.unauth_tokens())
    };
    let t0 = b.unauth_tokens();
    assert!(t0 <= u64::from(BUDGET));
    // A far-ahead forgery is charged at least the work it needs ...
    let far = forge(&mut sm, 0, 3010, 80);
    let (e, cost) = open(&mut b, &far);
    assert_eq!(e, Some(Error::Unauthentic));
    assert!(cost >= work_lower_bound(3010, 10), "cost {cost}");
    // ... and its repetitions (same bytes, or other bytes with the same
    // epoch and counter) nothing.
    let mut other = forge(&mut sm, 0, 3010, 200);
    for f in [&far, &far, &other] {
        assert_eq!(open(&mut b, f), (Some(Error::Unauthentic), 0));
    }
    // The in-order record and stored keys are free; replays cost nothing.
    for (c, want) in [
        (10, Error::Unauthentic),
        (5, Error::Unauthentic),
        (3, Error::Replay),
    ] {
        let f = forge(&mut sm, 0, c, 60);
        assert_eq!(open(&mut b, &f), (Some(want), 0), "counter {c}");
    }
    // Small gaps (`next < c ≤ next + W`) are never charged (issue #33 M1).
    for k in 0..2000u32 {
        let c = 11 + (k * 37) % 1023;
        assert_eq!(
            open(&mut b, &forge(&mut sm, 0, c, 40)),
            (Some(Error::Unauthentic), 0),
            "counter {c}"
        );
    }
    // Distinct larger gaps drain the bucket; the work they caused stays
    // below what was left in it.
    let left = b.unauth_tokens();
    let (mut work, mut derived, mut refused) = (0, 0, 0);
    let mut last_derived = None;
    for k in 0..2000u32 {
        let c = 10 + 1025 + (k * 37) % 240;
        other = forge(&mut sm, 0, c, 40);
        match open(&mut b, &other) {
            // The counter of the last derivation again: served from the
            // cached pending candidate, free by design.
            (Some(Error::Unauthentic), 0) => assert_eq!(last_derived, Some(c), "free derivation"),
            (Some(Error::Unauthentic), _) => {
                derived += 1;
                last_derived = Some(c);
                work += work_lower_bound(u64::from(c), 10);
            }
            (Some(Error::TooFarAhead), 0) => refused += 1,
            x => panic!("{x:?}"),
        }
    }
    println!("derived {derived} (work ≥ {work}), refused {refused}, budget left was {left}");
    assert!(work <= left && refused > 0);
    // Empty it down to the cheapest charge, alternating counters (no repeat).
    for k in 0..200u32 {
        let _ = open(&mut b, &forge(&mut sm, 0, 1035 + k % 2, 40));
    }
    let empty = b.unauth_tokens();
    // A genuine record after a loss (a small gap) opens although the bucket
    // is empty; the reordered ones then open from their stored keys.
    let n10 = a.seal(now, b"", b"r10", &mut pkt, &mut r).unwrap();
    let r10 = pkt[..n10].to_vec();
    let n11 = a.seal(now, b"", b"r11", &mut pkt, &mut r).unwrap();
    let r11 = pkt[..n11].to_vec();
    let n12 = a.seal(now, b"", b"r12", &mut pkt, &mut r).unwrap();
    let r12 = pkt[..n12].to_vec();
    assert_eq!(
        b.open(now, b"", &r12, &mut out, &mut r).unwrap().counter,
        12
    );
    assert_eq!(
        b.open(now, b"", &r10, &mut out, &mut r).unwrap().counter,
        10
    );
    assert_eq!(
        b.open(now, b"", &r11, &mut out, &mut r).unwrap().counter,
        11
    );
    assert_eq!(b.unauth_tokens(), empty, "small gaps charged nothing");
    // A genuine record beyond the window (1,100 records lost) needs a
    // charged derivation: refused while the bucket is empty.
    for _ in 0..1100 {
        a.seal(now, b"", b"lost", &mut pkt, &mut r).unwrap();
    }
    let nf = a.seal(now, b"", b"far", &mut pkt, &mut r).unwrap();
    let rf = pkt[..nf].to_vec();
    assert_eq!(
        b.open(now, b"", &rf, &mut out, &mut r),
        Err(Error::TooFarAhead)
    );
    // One second later the bucket is full again (never above the budget);
    // the record opens and, authentic, gets its tokens back.
    let later = Instant(1000);
    let o = b.open(later, b"", &rf, &mut out, &mut r).unwrap();
    assert_eq!(o.counter, 1113);
    assert_eq!(b.unauth_tokens(), u64::from(BUDGET), "refunded");
    let f = forge(&mut sm, 0, 5000, 40);
    assert_eq!(
        b.open(Instant(1500), b"", &f, &mut out, &mut r),
        Err(Error::Unauthentic)
    );
    let t = b.unauth_tokens();
    assert!(t < u64::from(BUDGET));
    let f = forge(&mut sm, 0, 6000, 40);
    assert_eq!(
        b.open(Instant(5000), b"", &f, &mut out, &mut r),
        Err(Error::Unauthentic)
    );
    assert!(b.unauth_tokens() < u64::from(BUDGET) && b.unauth_tokens() > t);
    assert!(!b.status(later).closed);
}

#[test]
fn auth_failure_alarm_once_per_epoch_and_never_closes() {
    let cfg = Config {
        ratchet_on_start: false,
        auth_failure_limit: 10,
        ..Config::default()
    };
    let mut r = rng(73);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let now = Instant(0);
    let n = a.seal(now, b"", b"x", &mut pkt, &mut r).unwrap();
    b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
    let mut sm = Sm(73);
    let mut forge_n = |b: &mut S, r: &mut Rng, epoch: u8, k: usize, now: Instant| {
        let next = b
            .leak_positions()
            .into_iter()
            .flatten()
            .find(|e| e.epoch as u8 == epoch)
            .unwrap()
            .recv_next;
        let mut out = [0u8; 1500];
        for _ in 0..k {
            let f = forge(&mut sm, epoch, next as u32, 100);
            assert_eq!(b.open(now, b"", &f, &mut out, r), Err(Error::Unauthentic));
        }
    };
    forge_n(&mut b, &mut r, 0, 9, now);
    assert!(events(&mut b).is_empty());
    forge_n(&mut b, &mut r, 0, 1, now);
    assert_eq!(events(&mut b), [Event::AuthFailureAlarm { epoch: 0 }]);
    forge_n(&mut b, &mut r, 0, 1000, now);
    assert!(events(&mut b).is_empty(), "raised once per epoch");
    let st = b.status(now);
    assert_eq!(st.auth_failures, 1010);
    assert!(!st.closed);
    let n = a.seal(now, b"", b"still open", &mut pkt, &mut r).unwrap();
    let o = b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
    assert_eq!(&out[..o.len], b"still open");
    // A new epoch: the per-epoch count starts again.
    a.request_ratchet();
    let mut t = 1;
    while a.status(Instant(t)).epoch < 1 || b.status(Instant(t)).epoch < 1 {
        tick(&mut a, &mut b, Instant(t), &mut r, false);
        t += 1;
        assert!(t < 1000);
    }
    let ev = events(&mut b);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::AuthFailureAlarm { .. })),
        "{ev:?}"
    );
    forge_n(&mut b, &mut r, 1, 9, Instant(t));
    assert!(events(&mut b).is_empty());
    forge_n(&mut b, &mut r, 1, 1, Instant(t));
    assert_eq!(events(&mut b), [Event::AuthFailureAlarm { epoch: 1 }]);
    assert!(!b.status(Instant(t)).closed);
    tick(&mut a, &mut b, Instant(t), &mut r, false);
}

/// The owner switches to the new epoch but the peer's records never arrive:
/// after `confirm_timeout_ms` the owner reports `wedged` and raises
/// `Event::Wedged` once; when the peer's records arrive again it recovers.
#[test]
fn wedge_when_the_peer_never_confirms() {
    let cfg = Config {
        confirm_timeout_ms: 300,
        ..Config::default()
    };
    let mut r = rng(74);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let mut t = 0;
    // From the moment A has switched, nothing of B reaches A.
    let switched = loop {
        tick_with(&mut a, &mut b, Instant(t), &mut r, |a| {
            a.status(Instant(0)).epoch >= 1
        });
        if events(&mut a).contains(&Event::EpochAdvanced { epoch: 1 }) {
            break t;
        }
        t += 1;
        assert!(t < 1000);
    };
    assert!(!a.status(Instant(t)).confirmed || a.status(Instant(t)).ratchet_in_flight);
    assert_eq!(a.status(Instant(t)).epoch, 1);
    let mut wedged_events = Vec::new();
    for t in switched + 1..switched + 1000 {
        let now = Instant(t);
        tick(&mut a, &mut b, now, &mut r, true);
        let st = a.status(now);
        assert_eq!(st.wedged, t >= switched + 300, "t = {t}: {st:?}");
        assert!(!st.closed);
        for e in events(&mut a) {
            assert_eq!(e, Event::Wedged, "t = {t}");
            wedged_events.push(t);
        }
    }
    assert_eq!(
        wedged_events,
        [switched + 300],
        "raised once, at the timeout"
    );
    assert_eq!(
        b.status(Instant(switched + 1000)).epoch,
        1,
        "the peer did switch"
    );
    // The peer's epoch-1 records get through again: confirmed, not wedged.
    let now = Instant(switched + 1000);
    tick(&mut a, &mut b, now, &mut r, false);
    let st = a.status(now);
    assert!(!st.wedged && st.confirmed, "{st:?}");
}

/// `Status::confirmed`: only after this side decrypted the peer and holds
/// proof that the peer decrypted this side (its KEM reply or its switch).
#[test]
fn confirmed_only_after_both_directions() {
    let cfg = Config {
        ratchet_on_start: false,
        ..Config::default()
    };
    let mut r = rng(75);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let now = Instant(0);
    let conf = |a: &S, b: &S| (a.status(now).confirmed, b.status(now).confirmed);
    assert_eq!(conf(&a, &b), (false, false));
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    for _ in 0..5 {
        let n = a.seal(now, b"", b"x", &mut pkt, &mut r).unwrap();
        b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        let n = b.seal(now, b"", b"y", &mut pkt, &mut r).unwrap();
        a.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
    }
    // Each side decrypted the other, but neither knows the other decrypted it.
    assert_eq!(conf(&a, &b), (false, false));
    a.request_ratchet();
    while let Some(n) = a.poll_transmit(now, b"", &mut pkt, &mut r) {
        b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
    }
    assert_eq!(conf(&a, &b), (false, false));
    // B's ct proves to A that B decrypted A's ek records.
    while let Some(n) = b.poll_transmit(now, b"", &mut pkt, &mut r) {
        a.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
    }
    assert_eq!(a.status(now).epoch, 1);
    assert_eq!(conf(&a, &b), (true, false));
    // A's epoch-1 record proves to B that A decapsulated B's ct.
    while let Some(n) = a.poll_transmit(now, b"", &mut pkt, &mut r) {
        b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
    }
    assert_eq!(conf(&a, &b), (true, true));
}

/// Role confusion (both sides `Initiator`): the two sides seal with the
/// same (key, nonce) — the two-time pad of docs/protocol/ratchet.md §2 — nothing
/// authenticates and neither side ever reports `confirmed`.
#[test]
fn role_confusion_never_confirms() {
    let cfg = Config::default();
    let mut r = rng(76);
    let x = S::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let y = S::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut p = [x, y];
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    p[0].seal(Instant(0), b"", b"x", &mut pkt, &mut r).unwrap();
    p[1].seal(Instant(0), b"", b"y", &mut pkt, &mut r).unwrap();
    assert_eq!(
        p[0].last_sealed(),
        p[1].last_sealed(),
        "same (key, nonce) both ways"
    );
    let mut failures = 0;
    for t in 1..300u64 {
        let now = Instant(t);
        for first in [true, false] {
            let (l, rr) = p.split_at_mut(1);
            let (s, o) = if first {
                (&mut l[0], &mut rr[0])
            } else {
                (&mut rr[0], &mut l[0])
            };
            let n = s.seal(now, b"", b"data", &mut pkt, &mut r).unwrap();
            assert_eq!(
                o.open(now, b"", &pkt[..n], &mut out, &mut r),
                Err(Error::Unauthentic)
            );
            failures += 1;
            while let Some(n) = s.poll_transmit(now, b"", &mut pkt, &mut r) {
                assert!(o.open(now, b"", &pkt[..n], &mut out, &mut r).is_err());
            }
        }
        for s in &p {
            let st = s.status(now);
            assert!(!st.confirmed && st.epoch == 0, "{st:?}");
        }
    }
    let total: u64 = p.iter().map(|s| s.status(Instant(300)).auth_failures).sum();
    assert!(total >= failures);
}
