//! State export/import (RATCHET.md §1.11).
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

mod common;

use common::{ToyKem, pair, rng};
use pqdr_ratchet::{Config, Error, Instant, Session, max_state_len};

type S = Session<ToyKem>;
const LEN: usize = max_state_len(16, 256);

fn exchange(a: &mut S, b: &mut S, now: Instant, r: &mut pqdr_kat::Drbg, n: usize) {
    let mut pkt = [0u8; 1500];
    let mut out = [0u8; 1500];
    for i in 0..n {
        let m = [i as u8; 40];
        let k = a.seal(now, b"", &m, &mut pkt, r).unwrap();
        assert_eq!(b.open(now, b"", &pkt[..k], &mut out, r).unwrap().len, 40);
        let k = b.seal(now, b"", &m, &mut pkt, r).unwrap();
        assert_eq!(a.open(now, b"", &pkt[..k], &mut out, r).unwrap().len, 40);
        while let Some(k) = a.poll_transmit(now, b"", &mut pkt, r) {
            b.open(now, b"", &pkt[..k], &mut out, r).unwrap();
        }
        while let Some(k) = b.poll_transmit(now, b"", &mut pkt, r) {
            a.open(now, b"", &pkt[..k], &mut out, r).unwrap();
        }
    }
}

#[test]
fn export_import_continue_with_reservation() {
    let cfg = Config::default();
    let mut r = rng(3);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    exchange(&mut a, &mut b, Instant(5), &mut r, 10);
    let mut blob = vec![0u8; LEN];
    let n = a.export_state(100, Instant(10), &mut blob).unwrap();
    assert_eq!(a.generation(), 1);
    println!("exported state: {n} bytes (bound {LEN})");
    // The live session may send exactly 100 more records.
    let mut pkt = [0u8; 1500];
    for _ in 0..100 {
        a.seal(Instant(10), b"", b"x", &mut pkt, &mut r).unwrap();
    }
    assert_eq!(
        a.seal(Instant(10), b"", b"x", &mut pkt, &mut r),
        Err(Error::ReservationExhausted)
    );
    // Crash: restore and continue; the peer sees a gap ≤ 100, no key reuse.
    let mut a2 = S::import_state(&cfg, &blob[..n], 1, Instant(20)).unwrap();
    exchange(&mut a2, &mut b, Instant(20), &mut r, 10);
    assert_eq!(
        S::import_state(&cfg, &blob[..n], 2, Instant(20)).err(),
        Some(Error::StateCorrupt)
    );
    let other = Config {
        rekey_after_ms: 1,
        ..cfg
    };
    assert_eq!(
        S::import_state(&other, &blob[..n], 0, Instant(20)).err(),
        Some(Error::StateCorrupt)
    );
}

#[test]
fn export_then_import_equals_twin() {
    let cfg = Config::default();
    let mut r = rng(4);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    exchange(&mut a, &mut b, Instant(5), &mut r, 5);
    let mut blob = vec![0u8; LEN];
    let n = a.export_state(0, Instant(7), &mut blob).unwrap();
    let a2 = S::import_state(&cfg, &blob[..n], 0, Instant(7)).unwrap();
    let (mut s1, mut s2) = (vec![0u8; LEN], vec![0u8; LEN]);
    let n1 = a.snapshot(Instant(7), &mut s1).unwrap();
    let n2 = a2.snapshot(Instant(7), &mut s2).unwrap();
    assert_eq!(s1[..n1], s2[..n2]);
}

#[test]
fn sealed_roundtrip_and_wrong_key() {
    let cfg = Config::default();
    let mut r = rng(5);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    exchange(&mut a, &mut b, Instant(5), &mut r, 3);
    let mut blob = vec![0u8; LEN];
    let mut scratch = vec![0u8; LEN];
    let n = a
        .export_state_sealed(10, b"storage key", Instant(9), &mut blob)
        .unwrap();
    let mut a2 = S::import_state_sealed(
        &cfg,
        &blob[..n],
        b"storage key",
        1,
        Instant(9),
        &mut scratch,
    )
    .unwrap();
    assert_eq!(
        S::import_state_sealed(&cfg, &blob[..n], b"other key", 0, Instant(9), &mut scratch).err(),
        Some(Error::StateCorrupt)
    );
    exchange(&mut a2, &mut b, Instant(20), &mut r, 3);
}

#[test]
fn corrupt_states_are_errors_not_panics() {
    let cfg = Config::default();
    let mut r = rng(6);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    exchange(&mut a, &mut b, Instant(5), &mut r, 3);
    let mut blob = vec![0u8; LEN];
    let n = a.export_state(10, Instant(9), &mut blob).unwrap();
    let mut errs = 0;
    for cut in 0..n {
        assert!(S::import_state(&cfg, &blob[..cut], 0, Instant(9)).is_err());
        errs += 1;
    }
    let mut x = 0x1234_5678u32;
    for _ in 0..3000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let mut c = blob[..n].to_vec();
        let i = (x as usize) % n;
        c[i] ^= 1 << (x >> 29);
        // Flips may land in key bytes (accepted) or structure (refused); never a panic.
        let _ = S::import_state(&cfg, &c, 0, Instant(9));
    }
    blob[4] = 9;
    assert_eq!(
        S::import_state(&cfg, &blob[..n], 0, Instant(9)).err(),
        Some(Error::StateVersion)
    );
    println!("{errs} truncations refused");
}
