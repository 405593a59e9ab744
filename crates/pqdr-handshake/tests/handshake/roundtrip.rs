//! Every suite completes, both sides agree, the roles differ, and the sizes
//! are those of docs/protocol/handshake.md §7.
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]
use crate::common;
use common::*;
use pqdr_handshake::{
    Ephemeral, Initiator, Instant, K768, KMc, KNt, Load, Reply, Role, S44, S65, S87,
};

fn check<A: TestKeys>(hybrid: bool, eph: Ephemeral, sizes: [usize; 3]) {
    let w = World::<A>::new(hybrid, eph);
    let mut resp = w.responder(3);
    let mut table = w.table();
    let now = Instant(1_000);
    let mut rng_i = rng(7);
    let mut rng_r = rng(8);
    let mut init = Initiator::start(
        &w.cfg(),
        &w.i.id,
        clock(),
        table.rec.last_timestamp(),
        now,
        &mut rng_i,
    )
    .unwrap();
    let suite = init.suite();
    let mut m1 = vec![0u8; 4096];
    let n1 = init.poll_transmit(now, &mut m1).unwrap();
    let mut m2 = vec![0u8; 6144];
    let Reply::Msg2(n2) = resp
        .handle_msg1(
            &mut table,
            SRC,
            &m1[..n1],
            Load::Normal,
            now,
            &mut rng_r,
            &mut m2,
        )
        .unwrap()
    else {
        panic!()
    };
    let a = init
        .handle_msg2(&m2[..n2], &w.i.id, now, &mut rng_i)
        .unwrap();
    let n3 = a.msg3().unwrap().len();
    let b = resp
        .handle_msg3(&mut table, SRC, a.msg3().unwrap(), Load::Normal, now)
        .unwrap();
    assert_eq!([n1, n2, n3], sizes, "{}", suite.name());
    assert_eq!(a.role(), Role::Initiator);
    assert_eq!(b.role(), Role::Responder);
    assert_eq!(
        a.initial_secret_for_test().secret,
        b.initial_secret_for_test().secret
    );
    assert_eq!(
        a.initial_secret_for_test().transcript,
        b.initial_secret_for_test().transcript
    );
    assert_eq!(
        a.initial_secret_for_test().context,
        b.initial_secret_for_test().context
    );
    assert_eq!(a.peer(), w.r.id.key_id());
    assert_eq!(b.peer(), w.i.id.key_id());
    assert_eq!(table.rec.last_timestamp(), clock());
    println!("{:8} msg1 {n1:5} msg2 {n2:5} msg3 {n3:5}", suite.name());
}

#[test]
fn k768() {
    check::<K768>(false, Ephemeral::MlKem768, [2388, 2368, 192]);
    check::<K768>(true, Ephemeral::MlKem768, [2420, 2400, 192]);
}

#[test]
fn kmc() {
    check::<KMc>(false, Ephemeral::MlKem768, [1456, 1436, 192]);
    check::<KMc>(true, Ephemeral::MlKem768, [1488, 1468, 192]);
    check::<KMc>(false, Ephemeral::MlKem512, [1072, 1116, 192]);
}

#[test]
fn knt() {
    check::<KNt>(false, Ephemeral::MlKem768, [2339, 2319, 192]);
    check::<KNt>(true, Ephemeral::MlKem768, [2371, 2351, 192]);
}

#[test]
fn sig() {
    check::<S44>(false, Ephemeral::MlKem768, [1234, 3700, 2657]);
    check::<S65>(false, Ephemeral::MlKem768, [1530, 4589, 3546]);
    check::<S87>(false, Ephemeral::MlKem768, [1969, 5907, 4864]);
    check::<S44>(true, Ephemeral::MlKem768, [1256, 3732, 2657]);
    check::<S65>(true, Ephemeral::MlKem768, [1541, 4621, 3546]);
    check::<S87>(true, Ephemeral::MlKem768, [1980, 5939, 4864]);
}

#[test]
fn indices_pair_up() {
    let w = World::<K768>::new(false, Ephemeral::MlKem768);
    let mut resp = w.responder(3);
    let mut table = w.table();
    let (a, b) = run(&w, &mut resp, &mut table, Instant(0));
    assert_eq!(a.local_index(), b.peer_index());
    assert_eq!(a.peer_index(), b.local_index());
    let m3 = a.msg3().unwrap();
    assert_eq!(
        u32::from_be_bytes(m3[4..8].try_into().unwrap()),
        a.local_index()
    );
    assert_eq!(
        u32::from_be_bytes(m3[8..12].try_into().unwrap()),
        a.peer_index()
    );
}

#[test]
fn from_parts_equals_new() {
    let s = Side::<K768>::new(5, true);
    let x = s.id.x25519_public().unwrap();
    let a = pqdr_handshake::Peer::<K768>::new(&*s.pk).with_x25519(x);
    let b = pqdr_handshake::Peer::<K768>::from_parts(&*s.pk, Some(x), *a.key_id());
    assert_eq!(a.key_id(), b.key_id());
    assert_eq!(a.key_id(), s.id.key_id());
    let plain = pqdr_handshake::Peer::<K768>::new(&*s.pk);
    assert_ne!(
        plain.key_id(),
        a.key_id(),
        "the X25519 key is part of the key id"
    );
}
