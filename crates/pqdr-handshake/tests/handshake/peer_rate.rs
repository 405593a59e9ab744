//! The per-peer limit on authenticated msg1 (docs/protocol/handshake.md §5.4): at most one
//! per 20 ms per peer (`Flood`), charged only for a timestamp newer than the last charged
//! one, so a replay flood of a captured msg1 cannot lock the initiator out (issue #33 L4).
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines
)]

use crate::adv;
use crate::common;
use adv::*;
use common::*;
use pqdr_handshake::Error::Flood;
use pqdr_handshake::{
    Ephemeral, Error, Initiator, InitiatorConfig, Instant, K768, Load, Reply, Responder, Tai64N,
};

const SRC2: &[u8] = b"198.51.100.7:40000";

/// Authenticated msg1 (psk or -X): at most one per 20 ms per peer (`Flood`),
/// checked after enc_ts; per peer; not applied to unauthenticated msg1.
fn flood<A: TestKem>(hybrid: bool, psk: Option<[u8; 32]>) -> (usize, usize) {
    let w = World::<A>::new(hybrid, Ephemeral::MlKem768);
    let other = Side::<A>::new(4, hybrid);
    let mut resp = w.responder(3);
    let mut peers = Multi::new(&[(&w.i, hybrid), (&other, hybrid)]);
    for p in &mut peers.peers {
        p.psk = psk;
    }
    let authenticated = hybrid || psk.is_some();
    let cfg = |side: &Side<A>| {
        let _ = side;
        let mut peer = w.r.peer(hybrid);
        if let Some(k) = psk {
            peer = peer.with_psk(k);
        }
        InitiatorConfig {
            peer,
            app_label: LABEL,
            ephemeral: Ephemeral::MlKem768,
        }
    };
    let mut last = Tai64N::default();
    let mut msgs = Vec::new();
    for k in 0..4u8 {
        let mut i = Initiator::start(
            &cfg(&w.i),
            &w.i.id,
            clock(),
            last,
            Instant(0),
            &mut rng(7 + k),
        )
        .unwrap();
        last = i.sent_timestamp();
        let mut b = vec![0u8; 4096];
        let n = i.poll_transmit(Instant(0), &mut b).unwrap();
        msgs.push(b[..n].to_vec());
    }
    let mut ib = Initiator::start(
        &cfg(&other),
        &other.id,
        clock(),
        Tai64N::default(),
        Instant(0),
        &mut rng(30),
    )
    .unwrap();
    let mut b = vec![0u8; 4096];
    let n = ib.poll_transmit(Instant(0), &mut b).unwrap();
    let msg_b = b[..n].to_vec();

    let (mut flooded, mut passed) = (0, 0);
    let mut try1 = |resp: &mut Responder<A, 16>, peers: &mut Multi<'_, A>, m: &[u8], t: u64| {
        let before = (resp.snapshot(), peers.rec(0)[..28].to_vec(), peers.rec(1));
        match msg1_at(resp, peers, SRC, m, Load::Normal, Instant(t)).0 {
            Ok((Reply::Msg2(_), _)) => {
                passed += 1;
                true
            }
            Err(Flood) => {
                assert_eq!(
                    (resp.snapshot(), peers.rec(0)[..28].to_vec(), peers.rec(1)),
                    before,
                    "Flood: no change"
                );
                flooded += 1;
                false
            }
            other => panic!("{other:?}"),
        }
    };
    let t = 5_000;
    assert!(try1(&mut resp, &mut peers, &msgs[0], t));
    // A second valid msg1 (a new attempt) within 20 ms.
    assert_eq!(
        try1(&mut resp, &mut peers, &msgs[1], t + 10),
        !authenticated,
        "10 ms later"
    );
    assert_eq!(
        try1(&mut resp, &mut peers, &msgs[1], t + 19),
        !authenticated,
        "19 ms later"
    );
    // The other peer is not limited by this one.
    assert!(try1(&mut resp, &mut peers, &msg_b, t + 19));
    assert!(try1(&mut resp, &mut peers, &msgs[2], t + 20), "20 ms later");
    // A replay (or resend) of a charged msg1 is answered but not charged
    // again (issue #33 L4): the rate counts distinct timestamps.
    assert!(try1(&mut resp, &mut peers, &msgs[2], t + 21));
    assert!(try1(&mut resp, &mut peers, &msgs[3], t + 40));
    let (f, p) = (flooded, passed);
    if authenticated {
        assert_eq!((f, p), (2, 5));
    } else {
        assert_eq!((f, p), (0, 7));
    }
    (f, p)
}

/// Issue #33 L4: an attacker replays a captured authenticated msg1 (psk or
/// `-X`) every millisecond, before the genuine initiator's datagram in the
/// same millisecond. The replays are answered but charge the per-peer rate
/// only once (their timestamp), so the initiator's fresh msg1 still gets
/// msg2 and the handshake completes. Returns the replays answered.
fn replay_flood<A: TestKem>(hybrid: bool, psk: Option<[u8; 32]>) -> usize {
    let w = World::<A>::new(hybrid, Ephemeral::MlKem768);
    let mut resp = w.responder(3);
    let mut table = w.table();
    table.psk = psk;
    let cfg = || {
        let mut c = w.cfg();
        if let Some(k) = psk {
            c.peer = c.peer.with_psk(k);
        }
        c
    };
    // The captured msg1 (its handshake never completed: msg2 was lost).
    let t0 = 5_000u64;
    let first = Initiator::start(
        &cfg(),
        &w.i.id,
        clock(),
        Tai64N::default(),
        Instant(t0),
        &mut rng(40),
    )
    .unwrap();
    let mut b = vec![0u8; 4096];
    let n = { first }.poll_transmit(Instant(t0), &mut b).unwrap();
    let captured = b[..n].to_vec();
    let last_sent = clock();
    let mut answered = 0;
    let mut replay = |resp: &mut Responder<A, 16>, table: &mut Table<'_, A>, t: u64| match msg1_at(
        resp,
        table,
        SRC2,
        &captured,
        Load::Normal,
        Instant(t),
    )
    .0
    {
        Ok((Reply::Msg2(_), _)) => answered += 1,
        Err(Flood) => {}
        other => panic!("replay: {other:?}"),
    };
    for t in t0..t0 + 100 {
        replay(&mut resp, &mut table, t);
    }
    // The genuine initiator's next attempt (newer timestamp), right after
    // the attacker's replay of the same millisecond.
    let t = t0 + 100;
    replay(&mut resp, &mut table, t);
    let mut init = Initiator::start(
        &cfg(),
        &w.i.id,
        clock(),
        last_sent,
        Instant(t),
        &mut rng(41),
    )
    .unwrap();
    let n = init.poll_transmit(Instant(t), &mut b).unwrap();
    let (got, _) = msg1_at(
        &mut resp,
        &mut table,
        SRC,
        &b[..n],
        Load::Normal,
        Instant(t),
    );
    let m2 = match got {
        Ok((Reply::Msg2(_), m2)) => m2,
        other => panic!("the genuine msg1 after {answered} answered replays: {other:?}"),
    };
    // The replays go on; the session completes.
    for t in t + 1..t + 50 {
        replay(&mut resp, &mut table, t);
    }
    let est = init
        .handle_msg2(&m2, &w.i.id, Instant(t + 50), &mut rng(42))
        .unwrap();
    let est_r = resp
        .handle_msg3(
            &mut table,
            SRC,
            est.msg3().unwrap(),
            Load::Normal,
            Instant(t + 50),
        )
        .unwrap();
    assert_eq!(est.transcript(), est_r.transcript());
    // A msg1 replayed after the session committed its timestamp is stale.
    assert_eq!(
        msg1_at(
            &mut resp,
            &mut table,
            SRC2,
            &captured,
            Load::Normal,
            Instant(t + 60)
        )
        .0
        .err(),
        Some(Error::StaleTimestamp)
    );
    answered
}

#[test]
fn replayed_authenticated_msg1_does_not_lock_the_initiator_out() {
    let psk = replay_flood::<K768>(false, Some([0x5C; 32]));
    let x = replay_flood::<K768>(true, None);
    // Every replay is answered (one charge for its timestamp, at t0).
    assert_eq!((psk, x), (150, 150));
    println!(
        "dos: replayed authenticated msg1: psk {psk}, -X {x} replays answered; the initiator got msg2"
    );
}

#[test]
fn flood_limit_per_peer_for_authenticated_msg1() {
    let psk = flood::<K768>(false, Some([0x5C; 32]));
    let x = flood::<K768>(true, None);
    let both = flood::<K768>(true, Some([0x5D; 32]));
    let plain = flood::<K768>(false, None);
    let knt = flood::<pqdr_handshake::KNt>(true, None);
    println!(
        "dos: flood limit: psk {psk:?}, -X {x:?}, psk + -X {both:?}, KNt-X {knt:?} (flooded, passed); unauthenticated {plain:?}"
    );
}
