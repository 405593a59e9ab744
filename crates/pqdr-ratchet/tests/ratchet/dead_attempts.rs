//! Late symbols of dead ratchet attempts (docs/protocol/ratchet.md §1.7,
//! issue #33 L3): the peer remembers the last four aborted or superseded
//! attempt ids of the epoch, and orders attempts by the counters of the
//! records carrying their symbols (the owner's attempts occupy increasing
//! counter ranges of its send chain), so a KEM_SYMBOL of a dead attempt that
//! the network delivers late neither drops the next epoch the peer installed
//! for the live attempt nor restarts decoding of the dead one.
#![allow(
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use crate::common;
use common::{ToyKem, pair, rng};
use pqdr_ratchet::{Config, Event, Instant, Session};

type S = Session<ToyKem>;
type Rng = pqdr_kat::Drbg;

/// One tick of the owner `a`: timers, one data record, due control records.
/// Returns the records with the attempt id `a` had in flight (if any).
fn tick(a: &mut S, t: u64, r: &mut Rng) -> Vec<(Option<u16>, Vec<u8>)> {
    let now = Instant(t);
    a.handle_timeout(now, r);
    let mut v = Vec::new();
    let mut pkt = [0u8; 1500];
    let rid = |a: &S| {
        let k = a.leak_kem();
        (k.phase == 1).then_some(k.rid)
    };
    let n = a.seal(now, b"", b"data", &mut pkt, r).unwrap();
    v.push((rid(a), pkt[..n].to_vec()));
    while let Some(n) = a.poll_transmit(now, b"", &mut pkt, r) {
        v.push((rid(a), pkt[..n].to_vec()));
    }
    v
}

fn deliver(b: &mut S, t: u64, pkt: &[u8], r: &mut Rng) {
    let mut out = [0u8; 1500];
    if let Err(e) = b.open(Instant(t), b"", pkt, &mut out, r) {
        panic!(
            "delivery at {t} ms: {e:?} (counter {})",
            u32::from_be_bytes(pkt[2..6].try_into().unwrap())
        );
    }
}

/// How the peer learns that the owner's earlier attempts died.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Learn {
    /// One symbol of each reached it, the abort frames were lost.
    Superseded,
    /// The abort frames reached it, no symbol did.
    Aborted,
    /// Nothing of the dead attempts reached it (only the late symbol below).
    Nothing,
}

/// `dead` attempts of the owner die (timeout) before one succeeds; the peer
/// learns of it as `learn` says. A symbol of the first dead attempt, held
/// back by the network, is delivered once the peer has installed the next
/// epoch for the live attempt.
fn late_symbol(learn: Learn, dead: usize, seed: u8) {
    let superseded = learn == Learn::Superseded;
    let cfg = Config {
        ratchet_on_start: false,
        ..Config::default()
    };
    let mut r = rng(seed);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let mut t = 1;
    for _ in 0..3 {
        for (_, p) in tick(&mut a, t, &mut r) {
            deliver(&mut b, t, &p, &mut r);
        }
        t += 1;
    }
    a.request_ratchet();
    let mut held: Option<Vec<u8>> = None;
    let mut rids = Vec::new();
    // The dead attempts.
    while rids.len() < dead || a.leak_kem().phase != 1 || rids.contains(&a.leak_kem().rid) {
        let mut seen_this_tick = false;
        for (rid, p) in tick(&mut a, t, &mut r) {
            match rid {
                Some(x) if !rids.contains(&x) => {
                    if rids.len() == dead {
                        // The live attempt has started: keep its records for below.
                        break;
                    }
                    rids.push(x);
                    if superseded {
                        deliver(&mut b, t, &p, &mut r);
                    }
                    seen_this_tick = true;
                }
                Some(_) if held.is_none() && rids.len() == 1 && !seen_this_tick => {
                    held = Some(p);
                }
                // Other symbols of dead attempts: lost.
                Some(_) => {}
                // Records sent between attempts carry the abort frames.
                None => {
                    if learn == Learn::Aborted {
                        deliver(&mut b, t, &p, &mut r);
                    }
                }
            }
        }
        t += 500;
        assert!(t < 200_000, "the owner never retried");
    }
    let held = held.expect("a second symbol record of the first attempt");
    let live = a.leak_kem().rid;
    assert!(!rids.contains(&live));
    while b.poll_event().is_some() {}
    // The live attempt: deliver until the peer has installed epoch 1.
    while b.leak_kem().phase != 3 {
        for (_, p) in tick(&mut a, t, &mut r) {
            deliver(&mut b, t, &p, &mut r);
        }
        t += 5;
        assert!(t < 400_000, "the peer never installed epoch 1");
    }
    assert_eq!(b.leak_kem().rid, live);
    // The late symbol of the first (dead) attempt arrives.
    deliver(&mut b, t, &held, &mut r);
    let k = b.leak_kem();
    assert_eq!(
        (k.phase, k.rid),
        (3, live),
        "{learn:?} dead={dead}: a late symbol of dead attempt {} dropped the installed epoch \
         of attempt {live}",
        rids[0]
    );
    let events: Vec<Event> = core::iter::from_fn(|| b.poll_event()).collect();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::RatchetAborted { .. })),
        "{events:?}"
    );
    // The ratchet completes without another attempt.
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    for _ in 0..200 {
        let now = Instant(t);
        a.handle_timeout(now, &mut r);
        b.handle_timeout(now, &mut r);
        let n = a.seal(now, b"", b"x", &mut pkt, &mut r).unwrap();
        b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        let n = b.seal(now, b"", b"y", &mut pkt, &mut r).unwrap();
        a.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        while let Some(n) = b.poll_transmit(now, b"", &mut pkt, &mut r) {
            a.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        }
        while let Some(n) = a.poll_transmit(now, b"", &mut pkt, &mut r) {
            b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
        }
        if a.status(now).epoch == 1 && b.status(now).epoch == 1 {
            break;
        }
        t += 10;
    }
    let now = Instant(t);
    assert_eq!((a.status(now).epoch, b.status(now).epoch), (1, 1));
    assert_eq!(a.leak_kem().rid, live, "no further attempt was needed");
    println!("{learn:?} dead={dead}: dead rids {rids:?}, live {live}, epoch 1 at {t} ms");
}

#[test]
fn late_symbol_of_a_superseded_attempt_is_ignored() {
    late_symbol(Learn::Superseded, 1, 1);
    late_symbol(Learn::Superseded, 3, 2);
}

#[test]
fn late_symbol_of_an_aborted_attempt_is_ignored() {
    // Two aborts: the old peer remembered only the last one.
    late_symbol(Learn::Aborted, 2, 3);
    late_symbol(Learn::Aborted, 4, 4);
}

/// The peer never heard of the dead attempt: the record carrying the late
/// symbol precedes (in the owner's send chain) every record of the live
/// attempt, so it is older and is ignored.
#[test]
fn late_symbol_of_an_unknown_older_attempt_is_ignored() {
    late_symbol(Learn::Nothing, 1, 5);
    late_symbol(Learn::Nothing, 2, 6);
}
