//! Issue #33 L8: a `-X` handshake starts the ratchet with the X-Wing KEM
//! (docs/protocol/handshake.md §4 "Output"): `into_session` and
//! `Session::from_handshake` refuse a `-X` output into any other ratchet KEM
//! (`KemMismatch`), and the X-Wing session exchanges records both ways.
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]

use crate::common;
use common::*;
use pqdr_handshake::{Ephemeral, Established, Instant, K768, MLKEM768_KEM_ID, XWING_KEM_ID};
use pqdr_ratchet::{Config, Error, MlKem768, RatchetKem, Session, XWing};

fn handshake(hybrid: bool) -> (Established, Established) {
    let w = World::<K768>::new(hybrid, Ephemeral::MlKem768);
    let mut resp = w.responder(3);
    run(&w, &mut resp, &mut w.table(), Instant(0))
}

/// One record from `from` to `to`; it opens.
fn carry<K: RatchetKem>(from: &mut Session<K>, to: &mut Session<K>, msg: &[u8]) {
    let now = Instant(1);
    let mut rec = vec![0u8; 1500];
    let n = from.seal(now, b"", msg, &mut rec, &mut rng(50)).unwrap();
    let mut out = vec![0u8; 1500];
    let got = to
        .open(now, b"", &rec[..n], &mut out, &mut rng(51))
        .unwrap();
    assert_eq!(&out[..got.len], msg);
}

/// One record each way; both open.
fn exchange<K: RatchetKem>(a: &mut Session<K>, b: &mut Session<K>) {
    carry(a, b, b"a to b");
    carry(b, a, b"b to a");
}

#[test]
fn kem_ids_are_the_adapters() {
    assert_eq!(XWING_KEM_ID, XWing::ID);
    assert_eq!(MLKEM768_KEM_ID, MlKem768::ID);
}

#[test]
fn hybrid_suite_starts_an_xwing_ratchet() {
    let cfg = Config::default();
    // K768-X into ML-KEM-768: refused on both sides, through both paths.
    let (a, b) = handshake(true);
    assert_eq!(
        (a.suite().name(), a.ratchet_kem_id()),
        ("K768-X", XWing::ID)
    );
    assert_eq!(b.ratchet_kem_id(), XWing::ID);
    assert_eq!(
        a.into_session::<MlKem768, _>(&cfg, Instant(0), &mut rng(10))
            .err(),
        Some(Error::KemMismatch)
    );
    assert_eq!(
        Session::<MlKem768>::from_handshake(&cfg, b, Instant(0), &mut rng(11)).err(),
        Some(Error::KemMismatch)
    );
    // K768-X into X-Wing: records flow.
    let (a, b) = handshake(true);
    let mut sa = a
        .into_session::<XWing, _>(&cfg, Instant(0), &mut rng(12))
        .unwrap();
    let mut sb = Session::<XWing>::from_handshake(&cfg, b, Instant(0), &mut rng(13)).unwrap();
    exchange(&mut sa, &mut sb);
}

#[test]
fn classic_suite_starts_any_ratchet_kem() {
    let cfg = Config::default();
    let (a, b) = handshake(false);
    assert_eq!(
        (a.suite().name(), a.ratchet_kem_id()),
        ("K768", MlKem768::ID)
    );
    let mut sa = a
        .into_session::<MlKem768, _>(&cfg, Instant(0), &mut rng(20))
        .unwrap();
    let mut sb = b
        .into_session::<MlKem768, _>(&cfg, Instant(0), &mut rng(21))
        .unwrap();
    exchange(&mut sa, &mut sb);
    // A stronger (hybrid) ratchet KEM after a non-hybrid handshake is allowed.
    let (a, b) = handshake(false);
    let mut sa = a
        .into_session::<XWing, _>(&cfg, Instant(0), &mut rng(22))
        .unwrap();
    let mut sb = b
        .into_session::<XWing, _>(&cfg, Instant(0), &mut rng(23))
        .unwrap();
    exchange(&mut sa, &mut sb);
}
