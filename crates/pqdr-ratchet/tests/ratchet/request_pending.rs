//! `request_ratchet` is deferred by the owner rule and
//! `min_ratchet_interval_ms` (docs/protocol/ratchet.md §1.7): `Status` says
//! so (`ratchet_requested`, `ratchet_deferred_until`) instead of staying silent.
#![allow(
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use crate::common;
use common::{ToyKem, pair, rng};
use pqdr_ratchet::{Config, Event, Instant, Session};

type S = Session<ToyKem>;

/// One round at `now`: timers, a data record each way, then every control record.
fn tick(a: &mut S, b: &mut S, now: Instant, r: &mut pqdr_kat::Drbg) {
    let (mut pkt, mut out) = ([0u8; 2000], [0u8; 2000]);
    a.handle_timeout(now, r);
    b.handle_timeout(now, r);
    let n = a.seal(now, b"", b"a", &mut pkt, r).unwrap();
    b.open(now, b"", &pkt[..n], &mut out, r).unwrap();
    let n = b.seal(now, b"", b"b", &mut pkt, r).unwrap();
    a.open(now, b"", &pkt[..n], &mut out, r).unwrap();
    for _ in 0..4 {
        while let Some(n) = a.poll_transmit(now, b"", &mut pkt, r) {
            b.open(now, b"", &pkt[..n], &mut out, r).unwrap();
        }
        while let Some(n) = b.poll_transmit(now, b"", &mut pkt, r) {
            a.open(now, b"", &pkt[..n], &mut out, r).unwrap();
        }
    }
}

/// Ticks every 10 ms from `*t` until both sides send in `epoch`.
fn until_epoch(a: &mut S, b: &mut S, epoch: u64, t: &mut u64, r: &mut pqdr_kat::Drbg) {
    while a.status(Instant(*t)).epoch < epoch || b.status(Instant(*t)).epoch < epoch {
        tick(a, b, Instant(*t), r);
        *t += 10;
        assert!(*t < 900, "epoch {epoch} not reached by t = {t}");
    }
}

fn started(s: &mut S) -> bool {
    let mut seen = false;
    while let Some(e) = s.poll_event() {
        seen |= matches!(e, Event::RatchetStarted { .. });
    }
    seen
}

#[test]
fn deferred_request_is_visible_in_status() {
    let cfg = Config::default();
    assert_eq!(cfg.min_ratchet_interval_ms, 1_000);
    let mut r = rng(3);
    // The Initiator `a` starts the bootstrap ratchet 0 -> 1 at t = 0: its
    // next attempt may start at t = 1000 at the earliest.
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let mut t = 0;
    until_epoch(&mut a, &mut b, 1, &mut t, &mut r);
    // 1 -> 2 is the Responder's; it never started one: no interval holds it.
    b.request_ratchet();
    let st = b.status(Instant(t));
    assert!(st.ratchet_requested, "{st:?}");
    assert_eq!(st.ratchet_deferred_until, None, "{st:?}");
    until_epoch(&mut a, &mut b, 2, &mut t, &mut r);
    assert!(
        !b.status(Instant(t)).ratchet_requested,
        "cleared by the switch"
    );

    // 2 -> 3 is the Initiator's again, and t < 1000: the request waits.
    let _ = (started(&mut a), started(&mut b));
    a.request_ratchet();
    let st = a.status(Instant(t));
    assert!(st.ratchet_requested && !st.ratchet_in_flight, "{st:?}");
    assert_eq!(st.ratchet_deferred_until, Some(Instant(1_000)), "{st:?}");
    // The Responder, which does not own 2 -> 3, has nothing deferred.
    assert_eq!(b.status(Instant(t)).ratchet_deferred_until, None);
    // Nothing starts before t = 1000, however often the timers run.
    while t < 1_000 {
        tick(&mut a, &mut b, Instant(t), &mut r);
        assert!(!started(&mut a), "started at t = {t}, before the interval");
        let st = a.status(Instant(t));
        assert_eq!(st.epoch, 2);
        assert_eq!(st.ratchet_deferred_until, Some(Instant(1_000)), "t = {t}");
        t += 10;
    }
    // At t = 1000 it starts: in flight, no longer deferred, still requested.
    a.handle_timeout(Instant(1_000), &mut r);
    assert!(started(&mut a));
    let st = a.status(Instant(1_000));
    assert!(st.ratchet_in_flight && st.ratchet_requested, "{st:?}");
    assert_eq!(st.ratchet_deferred_until, None, "{st:?}");
    let mut t = 1_000;
    while a.status(Instant(t)).epoch < 3 || b.status(Instant(t)).epoch < 3 {
        tick(&mut a, &mut b, Instant(t), &mut r);
        t += 10;
        assert!(t < 2_000, "epoch 3 not reached");
    }
    let st = a.status(Instant(t));
    assert!(!st.ratchet_requested && !st.ratchet_in_flight, "{st:?}");
}
