//! Replay tests (docs/protocol/handshake.md §5, §9; issue 15): msg1 replayed before and
//! after confirmation, msg3 twice, across peers and responders, after two key
//! rotations, an older biscuit after a newer one, the CVE-2021-46873 clock
//! case (a clock pushed 30 years ahead and corrected), an unconfirmed future
//! msg1, `ReplayRecord` persistence and `reset_replay`. Every suite.
//!
//! Run with `--nocapture` for the per-scenario counts.
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines
)]

use crate::adv;
use crate::common;
use crate::replay_persist;
use crate::replay_steps;
use adv::*;
use common::*;
use pqdr_handshake::Error::{
    BiscuitInvalid, BiscuitReplay, Decrypt, Duplicate, Mac1, Signature, StaleTimestamp, WrongState,
};
use pqdr_handshake::{
    Ephemeral, Error, Initiator, Instant, K768, KMc, KNt, Load, Mode, Responder, S44, S65, S87,
    Tai64N,
};
use replay_persist::*;
use replay_steps::*;

/// msg1 replayed before and after confirmation.
fn msg1_replays<A: TestKem>(w: &World<A>, c: &mut Cases) {
    let kem = A::MODE == Mode::Kem;
    let mut resp = w.responder(3);
    let mut table = w.table();
    let (mut init, msg1) = begin(w, clock(), Tai64N::default(), Instant(0), 7);
    let msg2 = answer(&mut resp, &mut table, &msg1, Instant(0)).unwrap();
    let est = finish(w, &mut init, &msg2, Instant(0)).unwrap();
    let rec0 = table.rec.to_bytes();

    // Before confirmation (msg3 not yet at R): a replay gets a fresh msg2, but
    // the initiator's attempt is done, and R's record does not move.
    let done = init.snapshot();
    for k in 1..=3u64 {
        let again = answer(&mut resp, &mut table, &msg1, Instant(100 * k)).unwrap();
        assert_ne!(
            again, msg2,
            "a replayed msg1 gets a fresh msg2 (new ct_E, biscuit)"
        );
        assert_eq!(again[..4], msg2[..4]);
        assert_eq!(
            table.rec.to_bytes()[..28],
            rec0[..28],
            "no record change before msg3"
        );
        assert_eq!(
            finish(w, &mut init, &again, Instant(100 * k)).err(),
            Some(WrongState)
        );
        assert_eq!(init.snapshot(), done);
        c.add("msg1 replay before confirmation");
    }
    // The genuine msg3 still confirms.
    let est_r = resp
        .handle_msg3(
            &mut table,
            SRC,
            est.msg3().unwrap(),
            Load::Normal,
            Instant(500),
        )
        .unwrap();
    assert_eq!(
        est_r.initial_secret_for_test().secret,
        est.initial_secret_for_test().secret
    );

    // After confirmation: KEM mode refuses the msg1 (its ts is committed);
    // SIG mode has no ts in msg1 and answers, but no session can follow.
    for k in 1..=3u64 {
        let t = Instant(1_000 * k);
        if kem {
            refuse1(
                &mut resp,
                &mut table,
                &msg1,
                t,
                StaleTimestamp,
                "msg1 replay after confirmation",
            );
        } else {
            let rec = table.rec.to_bytes();
            let again = answer(&mut resp, &mut table, &msg1, t).unwrap();
            assert_eq!(table.rec.to_bytes(), rec);
            assert_eq!(finish(w, &mut init, &again, t).err(), Some(WrongState));
        }
        c.add("msg1 replay after confirmation");
    }
    // A msg1 of an older attempt (ts before the committed one), never sent before.
    if kem {
        let (_, old) = begin(
            w,
            Tai64N {
                secs: clock().secs - 1,
                nanos: 0,
            },
            Tai64N::default(),
            Instant(0),
            21,
        );
        refuse1(
            &mut resp,
            &mut table,
            &old,
            Instant(5_000),
            StaleTimestamp,
            "older msg1",
        );
        let (_, same) = begin(w, clock(), Tai64N::default(), Instant(0), 22);
        refuse1(
            &mut resp,
            &mut table,
            &same,
            Instant(5_100),
            StaleTimestamp,
            "msg1 with an equal ts",
        );
        c.add("msg1 replay after confirmation");
        c.add("msg1 replay after confirmation");
    }
}

/// msg3 twice (and more), and an older biscuit after a newer one.
fn msg3_replays<A: TestKem>(w: &World<A>, c: &mut Cases) {
    let mut resp = w.responder(3);
    let mut table = w.table();
    // Two attempts of the same initiator, the second with a later ts and biscuit.
    let (mut i1, m1a) = begin(w, clock(), Tai64N::default(), Instant(0), 7);
    let (mut i2, m1b) = begin(w, clock(), i1.sent_timestamp(), Instant(0), 8);
    assert!(i2.sent_timestamp() > i1.sent_timestamp());
    let m2a = answer(&mut resp, &mut table, &m1a, Instant(0)).unwrap();
    let m2b = answer(&mut resp, &mut table, &m1b, Instant(100)).unwrap();
    let ea = finish(w, &mut i1, &m2a, Instant(100)).unwrap();
    let eb = finish(w, &mut i2, &m2b, Instant(100)).unwrap();

    // The newer one first.
    let rb = resp
        .handle_msg3(
            &mut table,
            SRC,
            eb.msg3().unwrap(),
            Load::Normal,
            Instant(200),
        )
        .unwrap();
    assert_eq!(
        rb.initial_secret_for_test().secret,
        eb.initial_secret_for_test().secret
    );
    assert_eq!(table.rec.last_timestamp(), i2.sent_timestamp());
    for k in 0..3u64 {
        refuse3(
            &mut resp,
            &mut table,
            eb.msg3().unwrap(),
            Instant(300 + k),
            Duplicate,
            "msg3 again",
        );
        c.add("msg3 twice");
    }
    // The older biscuit after the newer one was accepted.
    refuse3(
        &mut resp,
        &mut table,
        ea.msg3().unwrap(),
        Instant(400),
        BiscuitReplay,
        "older biscuit",
    );
    c.add("older biscuit after a newer one");
    // The older msg3 with its conf_I / enc_I damaged: still BiscuitReplay (the
    // biscuit order is checked before the initiator's part).
    let mut bad = ea.msg3().unwrap().to_vec();
    bad[12 + BISCUIT] ^= 1;
    remac_tail(&mut bad, &mac1_key(w.r.id.key_id()));
    let e = if A::MODE == Mode::Kem {
        BiscuitReplay
    } else {
        Decrypt
    };
    refuse3(
        &mut resp,
        &mut table,
        &bad,
        Instant(400),
        e,
        "older biscuit, damaged conf",
    );
    c.add("older biscuit after a newer one");
}

/// msg3 across peers and responders.
fn msg3_across<A: TestKem>(w: &World<A>, c: &mut Cases) {
    let kem = A::MODE == Mode::Kem;
    let b_side = Side::<A>::new(4, w.hybrid);
    let mut peers = Multi::new(&[(&w.i, w.hybrid), (&b_side, w.hybrid)]);
    let mut resp = w.responder(3);
    let t = Instant(0);
    // A = w.i and B = b_side, both to R.
    let (mut ia, m1a) = begin(w, clock(), Tai64N::default(), t, 7);
    let cfg_b = w.cfg();
    let mut ib = Initiator::start(
        &cfg_b,
        &b_side.id,
        clock(),
        Tai64N::default(),
        t,
        &mut rng(8),
    )
    .unwrap();
    let mut m1b = vec![0u8; 4096];
    let n = ib.poll_transmit(t, &mut m1b).unwrap();
    m1b.truncate(n);
    let m2a = answer(&mut resp, &mut peers, &m1a, t).unwrap();
    let m2b = answer(&mut resp, &mut peers, &m1b, Instant(100)).unwrap();
    let ea = finish(w, &mut ia, &m2a, t).unwrap();
    let eb = ib.handle_msg2(&m2b, &b_side.id, t, &mut rng(9)).unwrap();
    let (m3a, m3b) = (ea.msg3().unwrap().to_vec(), eb.msg3().unwrap().to_vec());
    let mk = mac1_key(w.r.id.key_id());
    let recs = (peers.rec(0), peers.rec(1));
    let snap = resp.snapshot();
    let mut refuse =
        |resp: &mut Responder<A, 16>, peers: &mut Multi<'_, A>, m: &[u8], e: Error, what: &str| {
            assert_eq!(
                resp.handle_msg3(peers, SRC, m, Load::Normal, Instant(200))
                    .err(),
                Some(e),
                "{what}"
            );
            assert_eq!(
                (resp.snapshot(), peers.rec(0), peers.rec(1)),
                (snap, recs.0, recs.1),
                "{what}: state changed"
            );
            c.add("msg3 across peers");
        };
    // A's biscuit under B's header (B's indices), mac1 recomputed: the biscuit's ad binds the indices.
    let mut m = m3b.clone();
    m[12..12 + BISCUIT].copy_from_slice(&m3a[12..12 + BISCUIT]);
    remac_tail(&mut m, &mk);
    refuse(
        &mut resp,
        &mut peers,
        &m,
        BiscuitInvalid,
        "A's biscuit in B's msg3",
    );
    // A's header and biscuit with B's conf_I / enc_I.
    let mut m = m3a.clone();
    m[12 + BISCUIT..].copy_from_slice(&m3b[12 + BISCUIT..]);
    remac_tail(&mut m, &mk);
    refuse(
        &mut resp,
        &mut peers,
        &m,
        Decrypt,
        "A's biscuit with B's confirmation",
    );
    if !kem {
        // B re-seals its own enc_I claiming A's key id: sig_I is B's, so it fails under A's key.
        let (k4, th4) = traced_key(eb.trace(), b'4');
        let mut pt = open(&k4, &m3b[12 + BISCUIT..m3b.len() - 16], &th4).unwrap();
        pt[1..33].copy_from_slice(w.i.id.key_id());
        let mut m = m3b[..12 + BISCUIT].to_vec();
        m.extend_from_slice(&seal(&k4, &pt, &th4));
        m.extend_from_slice(&[0; 16]);
        remac_tail(&mut m, &mk);
        refuse(
            &mut resp,
            &mut peers,
            &m,
            Signature,
            "B's enc_I claiming A's id",
        );
    }
    // A's msg3 to another responder (another identity): mac1, then (re-MACed) the biscuit.
    let mut resp2: Responder<A, 16> = Responder::new(
        Side::<A>::new(5, w.hybrid).id,
        LABEL,
        Instant(0),
        &mut rng(4),
    )
    .unwrap();
    let snap2 = resp2.snapshot();
    assert_eq!(
        resp2
            .handle_msg3(&mut peers, SRC, &m3a, Load::Normal, Instant(200))
            .err(),
        Some(Mac1)
    );
    let mut m = m3a.clone();
    remac_tail(&mut m, &mac1_key(resp2.identity().key_id()));
    assert_eq!(
        resp2
            .handle_msg3(&mut peers, SRC, &m, Load::Normal, Instant(200))
            .err(),
        Some(BiscuitInvalid)
    );
    // ... and to a restarted responder with the same identity (its biscuit keys are new).
    let mut resp3 = w.responder(30);
    assert_eq!(
        resp3
            .handle_msg3(&mut peers, SRC, &m3a, Load::Normal, Instant(200))
            .err(),
        Some(BiscuitInvalid)
    );
    assert_eq!(
        (resp2.snapshot(), peers.rec(0), peers.rec(1)),
        (snap2, recs.0, recs.1)
    );
    c.add("msg3 across peers");
    c.add("msg3 across peers");
    c.add("msg3 across peers");
    // Both genuine msg3 still complete, each changing only its own peer's record.
    resp.handle_msg3(&mut peers, SRC, &m3a, Load::Normal, Instant(300))
        .unwrap();
    assert_ne!(peers.rec(0), recs.0);
    assert_eq!(peers.rec(1), recs.1);
    let r0 = peers.rec(0);
    resp.handle_msg3(&mut peers, SRC, &m3b, Load::Normal, Instant(300))
        .unwrap();
    assert_eq!(peers.rec(0), r0);
    assert_ne!(peers.rec(1), recs.1);
    // And each is now a Duplicate for its own peer only.
    for m in [&m3a, &m3b] {
        let recs = (peers.rec(0), peers.rec(1));
        assert_eq!(
            resp.handle_msg3(&mut peers, SRC, m, Load::Normal, Instant(400))
                .err(),
            Some(Duplicate)
        );
        assert_eq!((peers.rec(0), peers.rec(1)), recs);
        c.add("msg3 twice");
    }
}

/// Biscuit keys rotate every 120 s, the previous one is kept: a msg3 lives ≤ 240 s.
fn msg3_rotations<A: TestKem>(w: &World<A>, c: &mut Cases) {
    let mut resp = w.responder(3);
    let mut table = w.table();
    let (mut i1, m1a) = begin(w, clock(), Tai64N::default(), Instant(1_000), 7);
    let (mut i2, m1b) = begin(w, clock(), i1.sent_timestamp(), Instant(1_000), 8);
    let ea = finish(
        w,
        &mut i1,
        &answer(&mut resp, &mut table, &m1a, Instant(1_000)).unwrap(),
        Instant(1_000),
    )
    .unwrap();
    let eb = finish(
        w,
        &mut i2,
        &answer(&mut resp, &mut table, &m1b, Instant(1_100)).unwrap(),
        Instant(1_100),
    )
    .unwrap();
    assert_eq!(resp.poll_timeout(), Instant(120_000));
    let snap = resp.snapshot();
    resp.handle_timeout(Instant(119_999), &mut rng(40));
    assert_eq!(resp.snapshot(), snap, "no rotation before 120 s");
    resp.handle_timeout(Instant(120_000), &mut rng(41));
    assert_ne!(resp.snapshot(), snap, "first rotation");
    assert_eq!(resp.poll_timeout(), Instant(240_000));
    // One rotation: the previous key still opens the biscuit.
    resp.handle_msg3(
        &mut table,
        SRC,
        ea.msg3().unwrap(),
        Load::Normal,
        Instant(121_000),
    )
    .unwrap();
    c.add("msg3 after rotations");
    resp.handle_timeout(Instant(240_000), &mut rng(42));
    // Two rotations: gone.
    refuse3(
        &mut resp,
        &mut table,
        eb.msg3().unwrap(),
        Instant(240_000),
        BiscuitInvalid,
        "msg3 after two rotations",
    );
    c.add("msg3 after rotations");
    // The accepted one, replayed now, is also past its keys (BiscuitInvalid before Duplicate).
    refuse3(
        &mut resp,
        &mut table,
        ea.msg3().unwrap(),
        Instant(240_000),
        BiscuitInvalid,
        "accepted msg3 after two rotations",
    );
    c.add("msg3 after rotations");
    // A new handshake works after the rotations.
    let (mut i3, m1c) = begin(w, clock(), i2.sent_timestamp(), Instant(240_000), 9);
    let m2c = answer(&mut resp, &mut table, &m1c, Instant(240_000)).unwrap();
    let ec = finish(w, &mut i3, &m2c, Instant(240_000)).unwrap();
    resp.handle_msg3(
        &mut table,
        SRC,
        ec.msg3().unwrap(),
        Load::Normal,
        Instant(240_100),
    )
    .unwrap();
}

/// CVE-2021-46873: the initiator's clock jumps 30 years ahead, a handshake
/// completes (the responder commits that ts), then the clock is corrected.
fn clock_jump<A: TestKem>(w: &World<A>, c: &mut Cases) {
    let kem = A::MODE == Mode::Kem;
    let mut resp = w.responder(3);
    let mut table = w.table();
    let (mut i1, m1) = begin(w, future(), Tai64N::default(), Instant(0), 7);
    assert_eq!(i1.sent_timestamp(), future());
    let persisted = i1.sent_timestamp(); // the app persists last_sent before sending
    let e1 = finish(
        w,
        &mut i1,
        &answer(&mut resp, &mut table, &m1, Instant(0)).unwrap(),
        Instant(0),
    )
    .unwrap();
    resp.handle_msg3(
        &mut table,
        SRC,
        e1.msg3().unwrap(),
        Load::Normal,
        Instant(10),
    )
    .unwrap();
    assert_eq!(table.rec.last_timestamp(), future());

    // Clock fixed. With last_sent persisted: ts = max(clock, last_sent + 1 ns) = future + 1 ns.
    let (mut i2, m1b) = begin(w, clock(), persisted, Instant(100), 8);
    assert_eq!(i2.sent_timestamp(), future().next());
    let e2 = finish(
        w,
        &mut i2,
        &answer(&mut resp, &mut table, &m1b, Instant(100)).unwrap(),
        Instant(100),
    )
    .unwrap();
    let r2 = resp
        .handle_msg3(
            &mut table,
            SRC,
            e2.msg3().unwrap(),
            Load::Normal,
            Instant(110),
        )
        .unwrap();
    assert_eq!(
        r2.initial_secret_for_test().secret,
        e2.initial_secret_for_test().secret
    );
    assert_eq!(table.rec.last_timestamp(), future().next());
    c.add("clock +30 years then fixed");
    // And the one after that (last_sent persisted again).
    let (mut i3, m1c) = begin(w, clock(), i2.sent_timestamp(), Instant(200), 9);
    assert_eq!(i3.sent_timestamp(), future().next().next());
    let e3 = finish(
        w,
        &mut i3,
        &answer(&mut resp, &mut table, &m1c, Instant(200)).unwrap(),
        Instant(200),
    )
    .unwrap();
    resp.handle_msg3(
        &mut table,
        SRC,
        e3.msg3().unwrap(),
        Load::Normal,
        Instant(210),
    )
    .unwrap();
    c.add("clock +30 years then fixed");

    // The counterfactual: an initiator that lost last_sent is locked out (KEM:
    // at msg1, SIG: at msg3) until the operator calls reset_replay.
    let (mut i4, m1d) = begin(w, clock(), Tai64N::default(), Instant(300), 10);
    let msg3 = if kem {
        refuse1(
            &mut resp,
            &mut table,
            &m1d,
            Instant(300),
            StaleTimestamp,
            "lost last_sent, msg1",
        );
        None
    } else {
        let e4 = finish(
            w,
            &mut i4,
            &answer(&mut resp, &mut table, &m1d, Instant(300)).unwrap(),
            Instant(300),
        )
        .unwrap();
        refuse3(
            &mut resp,
            &mut table,
            e4.msg3().unwrap(),
            Instant(310),
            StaleTimestamp,
            "lost last_sent, msg3",
        );
        Some(e4)
    };
    c.add("clock +30 years then fixed");
    table.rec.reset_replay();
    assert_eq!(table.rec.last_timestamp(), Tai64N::default());
    match msg3 {
        None => {
            let e4 = finish(
                w,
                &mut i4,
                &answer(&mut resp, &mut table, &m1d, Instant(400)).unwrap(),
                Instant(400),
            )
            .unwrap();
            resp.handle_msg3(
                &mut table,
                SRC,
                e4.msg3().unwrap(),
                Load::Normal,
                Instant(410),
            )
            .unwrap();
        }
        Some(e4) => drop(
            resp.handle_msg3(
                &mut table,
                SRC,
                e4.msg3().unwrap(),
                Load::Normal,
                Instant(410),
            )
            .unwrap(),
        ),
    }
    assert_eq!(table.rec.last_timestamp(), clock());
    c.add("clock +30 years then fixed");
}

/// An unconfirmed msg1 with a future ts (never followed by msg3) replayed
/// later never blocks a real handshake: last_ts moves only on msg3.
fn future_msg1<A: TestKem>(w: &World<A>, c: &mut Cases) {
    let mut resp = w.responder(3);
    let mut table = w.table();
    let (_lost, m1f) = begin(w, future(), Tai64N::default(), Instant(0), 7);
    let mut committed = Tai64N::default();
    for k in 0..3u64 {
        let t = Instant(1_000 + 100 * k);
        let rec = table.rec.to_bytes();
        // R answers it (ts > last_ts) but commits nothing.
        answer(&mut resp, &mut table, &m1f, t).unwrap();
        assert_eq!(table.rec.to_bytes()[..28], rec[..28]);
        assert_eq!(
            table.rec.last_timestamp(),
            committed,
            "the future ts is not committed"
        );
        // A real handshake at the real clock completes.
        let (mut i, m1) = begin(
            w,
            clock(),
            table.rec.last_timestamp(),
            Instant(t.0 + 30),
            8 + u8::try_from(k).unwrap(),
        );
        let e = finish(
            w,
            &mut i,
            &answer(&mut resp, &mut table, &m1, Instant(t.0 + 30)).unwrap(),
            t,
        )
        .unwrap();
        resp.handle_msg3(
            &mut table,
            SRC,
            e.msg3().unwrap(),
            Load::Normal,
            Instant(t.0 + 60),
        )
        .unwrap();
        committed = i.sent_timestamp();
        assert_eq!(table.rec.last_timestamp(), committed);
        assert!(committed < future());
        c.add("unconfirmed future msg1 replayed");
    }
}

fn suite<A: TestKem>(hybrid: bool, eph: Ephemeral) -> (String, Cases) {
    let w = World::<A>::new(hybrid, eph);
    let name = Initiator::start(
        &w.cfg(),
        &w.i.id,
        clock(),
        Tai64N::default(),
        Instant(0),
        &mut rng(1),
    )
    .unwrap()
    .suite()
    .name();
    let mut c = Cases::default();
    msg1_replays(&w, &mut c);
    msg3_replays(&w, &mut c);
    msg3_across(&w, &mut c);
    msg3_rotations(&w, &mut c);
    clock_jump(&w, &mut c);
    if A::MODE == Mode::Kem {
        future_msg1(&w, &mut c);
    }
    persistence(&w, &mut c);
    (name.to_string(), c)
}

#[test]
fn replay_every_suite() {
    let all = [
        suite::<K768>(false, Ephemeral::MlKem768),
        suite::<K768>(true, Ephemeral::MlKem768),
        suite::<KMc>(false, Ephemeral::MlKem768),
        suite::<KMc>(true, Ephemeral::MlKem768),
        suite::<KMc>(false, Ephemeral::MlKem512),
        suite::<KMc>(true, Ephemeral::MlKem512),
        suite::<KNt>(false, Ephemeral::MlKem768),
        suite::<KNt>(true, Ephemeral::MlKem768),
        suite::<S44>(false, Ephemeral::MlKem768),
        suite::<S44>(true, Ephemeral::MlKem768),
        suite::<S65>(false, Ephemeral::MlKem768),
        suite::<S65>(true, Ephemeral::MlKem768),
        suite::<S87>(false, Ephemeral::MlKem768),
        suite::<S87>(true, Ephemeral::MlKem768),
    ];
    let mut total = 0;
    for (name, c) in &all {
        let detail: Vec<String> = c.0.iter().map(|(s, n)| format!("{s} {n}")).collect();
        println!(
            "replay: {name:8} {:3} cases ({})",
            c.total(),
            detail.join(", ")
        );
        total += c.total();
    }
    println!("replay: total {total} cases ({} suites)", all.len());
    assert!(total > 300, "{total}");
}

/// `reset_replay` is documented (and docs/protocol/handshake.md §5 describes it) as
/// forgetting the committed *timestamp*, for an initiator that lost its
/// `last_sent`. It must keep the biscuit order (last_biscuit_no and the
/// instance): otherwise a recorded msg3 replayed within the biscuit's life
/// (≤ 240 s) would be accepted again and the responder would get a second
/// session with the same secret as the live one (a fresh ratchet from the
/// same secret re-uses epoch-0 keys). Expected: `Duplicate`. (Found by this
/// test; fixed in `ReplayRecord::reset_replay`.)
#[test]
fn reset_replay_keeps_the_biscuit_order() {
    let w = World::<K768>::new(false, Ephemeral::MlKem768);
    let mut resp = w.responder(3);
    let mut table = w.table();
    let (mut i, m1) = begin(&w, clock(), Tai64N::default(), Instant(0), 7);
    let e = finish(
        &w,
        &mut i,
        &answer(&mut resp, &mut table, &m1, Instant(0)).unwrap(),
        Instant(0),
    )
    .unwrap();
    let first = resp
        .handle_msg3(
            &mut table,
            SRC,
            e.msg3().unwrap(),
            Load::Normal,
            Instant(10),
        )
        .unwrap();
    table.rec.reset_replay();
    assert_eq!(table.rec.last_timestamp(), Tai64N::default());
    let second = resp.handle_msg3(
        &mut table,
        SRC,
        e.msg3().unwrap(),
        Load::Normal,
        Instant(20),
    );
    if let Ok(s) = &second {
        assert_eq!(
            s.initial_secret_for_test().secret,
            first.initial_secret_for_test().secret,
            "the replay yields the same secret"
        );
    }
    assert_eq!(
        second.err(),
        Some(Duplicate),
        "a msg3 replay after reset_replay"
    );
}
