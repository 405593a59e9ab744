//! The initiator's timers (docs/protocol/handshake.md §5, §9; issue 15): msg1's
//! resends, renewal and give-up, and the resends of msg3 until the responder
//! confirms (split from dos.rs).
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines
)]

use crate::adv;
use crate::common;
use adv::*;
use common::*;
use pqdr_handshake::Error::{Duplicate, Timeout, WrongState};
use pqdr_handshake::{Ephemeral, GIVE_UP_MS, Initiator, Instant, K768, Load, RENEW_MS, Tai64N};

/// msg1 at 0, resends as is at 1, 2, 4 s (each ±25 % after the previous
/// send), renewal due at 8 s, give-up at 90 s.
#[test]
fn initiator_msg1_timers() {
    let w = World::<K768>::new(false, Ephemeral::MlKem768);
    let t0 = Instant(10_000);
    let mut factors = Vec::new();
    let mut b = vec![0u8; 4096];
    for seed in 0..32u8 {
        let mut init = Initiator::start(
            &w.cfg(),
            &w.i.id,
            clock(),
            Tai64N::default(),
            t0,
            &mut rng(seed),
        )
        .unwrap();
        assert_eq!(init.poll_timeout(), Some(t0));
        assert_eq!(
            init.poll_transmit(Instant(t0.0 - 1), &mut b),
            None,
            "not before its time"
        );
        assert_eq!(
            init.poll_transmit(t0, &mut b[..100]),
            None,
            "buffer too small: nothing sent"
        );
        let n = init.poll_transmit(t0, &mut b).unwrap();
        let first = b[..n].to_vec();
        let mut last = t0;
        for base in [1_000u64, 2_000, 4_000] {
            let due = init.poll_timeout().unwrap();
            if due.0 >= t0.0 + RENEW_MS {
                // The last resend fell after the renewal point: poll_timeout reports the renewal.
                assert_eq!((due, base), (t0.plus(RENEW_MS), 4_000));
                break;
            }
            let d = due.0 - last.0;
            assert!(
                ((base * 3) >> 2..=(base * 5) >> 2).contains(&d),
                "seed {seed}: resend after {d} ms, base {base}"
            );
            #[allow(clippy::cast_precision_loss)]
            factors.push(d as f64 / base as f64);
            assert_eq!(init.poll_transmit(Instant(due.0 - 1), &mut b), None);
            let n = init.poll_transmit(due, &mut b).unwrap();
            assert_eq!(b[..n], first[..], "resent as is");
            last = due;
        }
        assert!(!init.needs_renewal(Instant(t0.0 + RENEW_MS - 1)));
        assert!(init.needs_renewal(t0.plus(RENEW_MS)));
        assert!(!init.expired(Instant(t0.0 + GIVE_UP_MS - 1)));
        assert!(init.expired(t0.plus(GIVE_UP_MS)));
        assert!(
            !init.needs_renewal(t0.plus(GIVE_UP_MS)),
            "nothing to renew after the give-up"
        );
    }
    let (lo, hi) = factors
        .iter()
        .fold((f64::MAX, 0f64), |(l, h), &f| (l.min(f), h.max(f)));
    assert!(lo < 0.85 && hi > 1.15, "jitter spread {lo:.3}..{hi:.3}");
    assert!(lo >= 0.75 && hi <= 1.25);
    println!(
        "dos: msg1 resend factors over 32 seeds: {lo:.3}..{hi:.3} ({} resends)",
        factors.len()
    );
}

/// renew at 8 s (new index, ek_E, ts; cookie and deadline kept); after 90 s
/// renew and handle_msg2 are `Timeout`, nothing is sent.
#[test]
fn initiator_renew_and_give_up() {
    let w = World::<K768>::new(false, Ephemeral::MlKem768);
    let mut resp = w.responder(3);
    let mut peers = Multi::new(&[(&w.i, false)]);
    let t0 = Instant(0);
    let (mut init, msg1) = begin_msg1(&w, Tai64N::default(), t0, 7);
    let mut b = vec![0u8; 4096];
    let t8 = t0.plus(RENEW_MS);
    let old = (init.index(), init.sent_timestamp());
    init.renew(
        &w.cfg(),
        &w.i.id,
        clock(),
        init.sent_timestamp(),
        t8,
        &mut rng(8),
    )
    .unwrap();
    assert_ne!(init.index(), old.0);
    assert_eq!(
        init.sent_timestamp(),
        old.1.next(),
        "ts = max(clock, last_sent + 1 ns)"
    );
    assert_eq!(init.poll_timeout(), Some(t8), "the new msg1 goes at once");
    let n = init.poll_transmit(t8, &mut b).unwrap();
    assert_ne!(b[8..n], msg1[8..], "new ek_E and everything after");
    let d = init.poll_timeout().unwrap().0 - t8.0;
    assert!(
        (750..=1_250).contains(&d),
        "the resend schedule restarts: {d}"
    );
    assert!(
        !init.needs_renewal(Instant(t8.0 + RENEW_MS - 1)) && init.needs_renewal(t8.plus(RENEW_MS)),
        "renewal clock restarts"
    );
    assert!(
        init.expired(t0.plus(GIVE_UP_MS)),
        "the 90 s deadline does not"
    );
    // A msg2 for the renewed attempt, delivered too late.
    let m1 = b[..n].to_vec();
    let (got, _) = msg1_at(&mut resp, &mut peers, SRC, &m1, Load::Normal, t8);
    let msg2 = got.unwrap().1;
    let late = t0.plus(GIVE_UP_MS);
    let snap = init.snapshot();
    assert_eq!(
        init.handle_msg2(&msg2, &w.i.id, late, &mut rng(9)).err(),
        Some(Timeout)
    );
    assert_eq!(init.snapshot(), snap);
    assert_eq!(
        init.poll_transmit(late, &mut b),
        None,
        "nothing sent after the give-up"
    );
    assert_eq!(
        init.renew(
            &w.cfg(),
            &w.i.id,
            clock(),
            init.sent_timestamp(),
            late,
            &mut rng(10)
        ),
        Err(Timeout)
    );
    assert_eq!(init.snapshot(), snap);
    // The control: the same msg2 just before the deadline completes.
    assert!(
        init.handle_msg2(&msg2, &w.i.id, Instant(late.0 - 1), &mut rng(9))
            .is_ok()
    );
    assert_eq!(
        init.handle_msg2(&msg2, &w.i.id, Instant(late.0 - 1), &mut rng(9))
            .err(),
        Some(WrongState)
    );
    assert_eq!(init.poll_timeout(), None, "done: no timer");
}

/// msg3 resends at 1, 2, 4, 8 s after the previous one until `confirm()`;
/// the responder answers resends with `Duplicate`.
#[test]
fn msg3_retransmit_schedule() {
    let w = World::<K768>::new(false, Ephemeral::MlKem768);
    let mut resp = w.responder(3);
    let mut peers = Multi::new(&[(&w.i, false)]);
    let t0 = Instant(1_000);
    let (mut init, msg1) = begin_msg1(&w, Tai64N::default(), t0, 7);
    let (got, _) = msg1_at(&mut resp, &mut peers, SRC, &msg1, Load::Normal, t0);
    let est = init
        .handle_msg2(&got.unwrap().1, &w.i.id, t0, &mut rng(9))
        .unwrap();
    let msg3 = est.msg3().unwrap().to_vec();
    let r = resp
        .handle_msg3(&mut peers, SRC, &msg3, Load::Normal, t0)
        .unwrap();
    assert!(r.msg3_retransmit(t0).is_none(), "the responder has no msg3");

    let mut rt = est.msg3_retransmit(t0).unwrap();
    let mut b = vec![0u8; 6000];
    let mut t = t0;
    for gap in [1_000u64, 2_000, 4_000, 8_000] {
        let due = t.plus(gap);
        assert_eq!(rt.poll_timeout(), Some(due));
        assert_eq!(rt.poll_transmit(Instant(due.0 - 1), &mut b), None);
        assert_eq!(
            rt.poll_transmit(due, &mut b[..10]),
            None,
            "buffer too small"
        );
        let n = rt.poll_transmit(due, &mut b).unwrap();
        assert_eq!(b[..n], msg3[..]);
        let rec = peers.rec(0);
        assert_eq!(
            resp.handle_msg3(&mut peers, SRC, &b[..n], Load::Normal, due)
                .err(),
            Some(Duplicate)
        );
        assert_eq!(peers.rec(0), rec);
        t = due;
    }
    assert_eq!(rt.poll_timeout(), None, "four resends, then none");
    assert_eq!(rt.poll_transmit(Instant(u64::MAX), &mut b), None);
    // confirm() stops it early.
    let mut rt = est.msg3_retransmit(t0).unwrap();
    assert!(rt.poll_transmit(t0.plus(1_000), &mut b).is_some());
    rt.confirm();
    assert_eq!(rt.poll_timeout(), None);
    assert_eq!(rt.poll_transmit(Instant(u64::MAX), &mut b), None);
}
