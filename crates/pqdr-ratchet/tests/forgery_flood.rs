//! Forged traffic must not amplify packet loss (docs/protocol/ratchet.md
//! §1.8, issue #33 M1).
//!
//! Black box, public API only: B sends A one 46-byte record per millisecond
//! of virtual time over a link with 2 % Bernoulli loss; an on-path attacker
//! reads the cleartext header `(epoch_lo, counter)` of B's last record and,
//! each millisecond, injects
//! * 10 forged records (right header shape, random body and tag, 46 bytes)
//!   at fresh random counters in the accepted jump range
//!   `h + 1 ..= h + max_jump` (`h` = the highest counter it has seen), and
//! * 10 forged records at the falling gaps 1000, 512, 256, …, 2 ahead of `h`,
//!
//! all arriving before B's records (the attacker is nearer to A than B is).
//! The forgeries drain the pre-authentication token bucket; before the fix
//! every record that followed a lost one (a gap of 2 or more) was charged
//! to that empty bucket and refused (`TooFarAhead`), and so was every later
//! one until the bucket had tokens at the right moment: 8.9 % of the
//! delivered records opened (99.74 % with B's record at a random place among
//! the forgeries). Small gaps (`≤ W`) are never charged now: ≥ 99.5 % of the
//! delivered records must open (100 % measured), and all of them without
//! the flood.
//!
//! The second test counts the BLAKE3 compressions of the chain (the crate's
//! test-only counter, `testing::kdf_steps`) spent on small-gap forgeries:
//! each costs at most 16 packet steps and 2 segment steps beyond the
//! extension of the window's checkpoint frontier, whose total over a window
//! is at most `W` packet steps plus two per segment.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::unwrap_used,
    clippy::print_stdout,
    missing_docs,
    reason = "test code: public values, std harness"
)]

#[path = "ratchet/common/mod.rs"]
mod common;
use std::sync::Mutex;

use common::{ToyKem, pair, rng};
use pqdr_ratchet::{Config, Error, Instant, Session, testing, wire};

type S = Session<ToyKem>;
type Rng = pqdr_kat::Drbg;

/// The step counter is global to the process: the tests of this file take
/// turns.
static SERIAL: Mutex<()> = Mutex::new(());

/// Window bits `W` of the default `Session` (`WW = 16`).
const W: u64 = 1024;
/// Record length: header, data frame (type byte, 23 bytes), tag.
const LEN: usize = 46;

/// splitmix64 for the link's and the attacker's choices.
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

/// A forged record `FLAGS ‖ epoch_lo ‖ be32(c) ‖ random body ‖ random tag`.
fn forge(sm: &mut Sm, lo: u8, c: u32) -> Vec<u8> {
    let mut f = vec![0u8; LEN];
    sm.fill(&mut f);
    f[0] = wire::FLAGS;
    f[1] = lo;
    f[2..6].copy_from_slice(&c.to_be_bytes());
    f
}

/// Two sessions past the bootstrap ratchet (reliable link, both confirmed).
fn established(cfg: &Config, r: &mut Rng) -> (S, S, u64) {
    let (mut a, mut b): (S, S) = pair(cfg, Instant(0), r);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let mut t = 0;
    loop {
        let now = Instant(t);
        for turn in 0..2 {
            let (x, y) = if turn == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            x.handle_timeout(now, r);
            let n = x.seal(now, b"", b"hello", &mut pkt, r).unwrap();
            y.open(now, b"", &pkt[..n], &mut out, r).unwrap();
            while let Some(n) = x.poll_transmit(now, b"", &mut pkt, r) {
                y.open(now, b"", &pkt[..n], &mut out, r).unwrap();
            }
        }
        if a.status(now).confirmed && b.status(now).confirmed && a.status(now).epoch >= 1 {
            return (a, b, t + 1);
        }
        t += 1;
        assert!(t < 1000, "bootstrap ratchet did not complete");
    }
}

/// Outcome of one run of the lossy flow.
#[derive(Debug, Default)]
struct Run {
    sent: u64,
    delivered: u64,
    opened: u64,
    refused_too_far: u64,
    other_failures: u64,
    forged: u64,
    forged_opened: u64,
}

/// `ms` milliseconds of the lossy flow B → A, with or without the flood.
fn lossy_flow(ms: u64, flood: bool, seed: u64) -> Run {
    let cfg = Config::default();
    let mut r = rng(33);
    let (mut a, mut b, t0) = established(&cfg, &mut r);
    let mut sm = Sm(seed);
    let max_jump = u64::from(cfg.max_jump);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let mut run = Run::default();
    // The highest counter of B the attacker has seen (it reads every header
    // before the lossy part of the path).
    let mut h: Option<(u8, u64)> = None;
    for t in t0..t0 + ms {
        let now = Instant(t);
        a.handle_timeout(now, &mut r);
        b.handle_timeout(now, &mut r);
        // A → B is reliable (acks, control).
        let n = a.seal(now, b"", b"a", &mut pkt, &mut r).unwrap();
        b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        while let Some(n) = a.poll_transmit(now, b"", &mut pkt, &mut r) {
            b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        }
        // This millisecond's legitimate records of B (data, then control).
        let mut legit: Vec<Vec<u8>> = Vec::new();
        let n = b
            .seal(
                now,
                b"",
                &[0x5a; LEN - wire::OVERHEAD - 1],
                &mut pkt,
                &mut r,
            )
            .unwrap();
        assert_eq!(n, LEN);
        legit.push(pkt[..n].to_vec());
        while let Some(n) = b.poll_transmit(now, b"", &mut pkt, &mut r) {
            legit.push(pkt[..n].to_vec());
        }
        // The attacker's forgeries, from the headers seen before this
        // millisecond's records.
        let mut forged: Vec<Vec<u8>> = Vec::new();
        if flood && let Some((lo, hi)) = h {
            for _ in 0..10 {
                // Fresh positions: a random counter in the jump range.
                let c = hi + 1 + sm.below(max_jump);
                forged.push(forge(&mut sm, lo, c as u32));
            }
            for g in [1000u64, 512, 256, 128, 64, 32, 16, 8, 4, 2] {
                forged.push(forge(&mut sm, lo, (hi + g) as u32));
            }
        }
        for p in &legit {
            let c = u64::from(u32::from_be_bytes([p[2], p[3], p[4], p[5]]));
            if h.is_none_or(|(lo, hi)| lo != p[1] || c > hi) {
                h = Some((p[1], c));
            }
        }
        // The forgeries overtake B's records (the attacker is nearer to A);
        // each of B's records is lost with probability 2 %.
        let mut arrivals: Vec<(bool, Vec<u8>)> = forged.into_iter().map(|f| (false, f)).collect();
        for p in legit {
            run.sent += 1;
            if sm.below(1000) >= 20 {
                arrivals.push((true, p));
            }
        }
        for (is_legit, p) in arrivals {
            let res = a.open(now, b"", &p, &mut out, &mut r);
            if is_legit {
                run.delivered += 1;
                match res {
                    Ok(_) => run.opened += 1,
                    Err(Error::TooFarAhead) => run.refused_too_far += 1,
                    Err(_) => run.other_failures += 1,
                }
            } else {
                run.forged += 1;
                if res.is_ok() {
                    run.forged_opened += 1;
                }
            }
        }
    }
    let now = Instant(t0 + ms);
    // No unauthenticated input closes a datagram session, and it still works.
    assert!(!a.status(now).closed, "the flood closed the session");
    let n = b.seal(now, b"", b"after", &mut pkt, &mut r).unwrap();
    let got = a.open(now, b"", &pkt[..n], &mut out, &mut r);
    assert!(got.is_ok(), "after the flood: {got:?}");
    run
}

#[test]
fn lossy_flow_without_flood_opens_every_delivered_record() {
    let _g = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let run = lossy_flow(10_000, false, 0xf100d);
    println!("no flood: {run:?}");
    assert!(run.delivered > 9_000 && run.delivered < run.sent);
    assert_eq!(run.opened, run.delivered, "{run:?}");
}

#[test]
fn forgery_flood_does_not_amplify_loss() {
    let _g = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let run = lossy_flow(10_000, true, 0xf100d);
    let frac = run.opened as f64 / run.delivered as f64;
    println!(
        "flood: {run:?}: {:.3} % of the delivered records opened",
        100.0 * frac
    );
    assert_eq!(run.forged_opened, 0);
    assert!(run.forged >= 190_000, "{run:?}");
    assert!(run.sent - run.delivered >= 100, "2 % loss: {run:?}");
    assert!(
        frac >= 0.995,
        "only {:.3} % of the delivered records opened under the flood ({} refused TooFarAhead)",
        100.0 * frac,
        run.refused_too_far
    );
}

/// Chain steps of one forged record's `open` (process-wide counter).
fn steps_of(a: &mut S, now: Instant, f: &[u8], r: &mut Rng) -> (usize, Result<(), Error>) {
    let mut out = [0u8; 1500];
    let s0 = testing::kdf_steps();
    let res = a.open(now, b"", f, &mut out, r).map(|_| ());
    (testing::kdf_steps() - s0, res)
}

/// The receive position of A's current epoch.
fn recv_next(a: &S, epoch: u64) -> u64 {
    a.leak_positions()
        .into_iter()
        .flatten()
        .find(|e| e.epoch == epoch)
        .unwrap()
        .recv_next
}

/// Multiples of 256 in `(from, to]`: segment entries of a walk (2 steps each).
fn segments_in(from: u64, to: u64) -> u64 {
    (to >> 8) - (from >> 8)
}

#[test]
fn small_gap_forgery_costs_at_most_18_steps_beyond_the_frontier() {
    let _g = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let cfg = Config::default();
    let mut r = rng(34);
    let (mut a, mut b, t0) = established(&cfg, &mut r);
    let now = Instant(t0);
    let epoch = a.status(now).epoch;
    let lo = epoch as u8;
    let mut sm = Sm(0xc057);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let next0 = recv_next(&a, epoch);
    // The model of the frontier: the highest ⌊c/16⌋·16 asked for so far
    // (the crate's frontier is never ahead of it).
    let mut front = next0;
    let (mut total, mut n, mut beyond_front, mut worst_inside) = (0u64, 0u64, 0u64, 0u64);
    let tokens = a.unauth_tokens();
    for round in 0..40 {
        let next = recv_next(&a, epoch);
        for _ in 0..200 {
            let c = next + 1 + sm.below(W);
            let f = forge(&mut sm, lo, c as u32);
            let (steps, res) = steps_of(&mut a, now, &f, &mut r);
            assert_eq!(
                res,
                Err(Error::Unauthentic),
                "forgery at next + {}",
                c - next
            );
            assert_eq!(a.unauth_tokens(), tokens, "a small gap was charged");
            let steps = steps as u64;
            // The frontier's walk for this candidate (model): packet steps
            // from the old frontier to ⌊c/16⌋·16, two per segment entered.
            let target = c & !15;
            let from = front.max(next);
            let ext = if target > from {
                target - from + 2 * segments_in(from, target)
            } else {
                0
            };
            assert!(
                steps <= 18 + ext,
                "round {round}: forgery at next + {} cost {steps} steps, frontier walk {ext}",
                c - next
            );
            if ext == 0 {
                worst_inside = worst_inside.max(steps);
            } else {
                beyond_front += 1;
            }
            front = front.max(target);
            total += steps;
            n += 1;
        }
        // Legitimate traffic moves `next` by a small gap (the records in
        // between are lost): the checkpoints it passes are erased.
        let lost = sm.below(40);
        for _ in 0..lost {
            b.seal(now, b"", b"lost", &mut pkt, &mut r).unwrap();
        }
        let k = b.seal(now, b"", b"kept", &mut pkt, &mut r).unwrap();
        a.open(now, b"", &pkt[..k], &mut out, &mut r).unwrap();
        let next = recv_next(&a, epoch);
        let leak = a.leak();
        let slot = leak.slots.iter().find(|s| s.epoch == epoch).unwrap();
        assert!(
            slot.scratch.iter().all(|c| c.pos > next),
            "a checkpoint at or below next = {next} survived: {:?}",
            slot.scratch.iter().map(|c| c.pos).collect::<Vec<_>>()
        );
    }
    let next = recv_next(&a, epoch);
    // Over the window's life the frontier walked at most W plus the
    // distance `next` advanced (plus its segment entries).
    let span = next + W - next0;
    let bound = 18 * n + span + 2 * (span / 256 + 2);
    println!(
        "{n} small-gap forgeries: {total} steps (bound {bound}), worst inside the frontier \
         {worst_inside}, {beyond_front} extended it; next advanced {}",
        next - next0
    );
    assert!(worst_inside <= 18);
    assert!(total <= bound, "{total} > {bound}");
    assert!(!a.status(now).closed);
}
