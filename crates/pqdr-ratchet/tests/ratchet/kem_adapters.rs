//! The X-Wing and sntrup761 adapters (features `xwing`, `sntrup761`;
//! docs/protocol/ratchet.md §1.2, §1.12): the trait functions against the crates behind
//! them (X-Wing against the draft's known answer), implicit rejection,
//! invalid keys, and full sessions ratcheting with each KEM.
#![cfg(all(feature = "xwing", feature = "sntrup761"))]
#![allow(
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    clippy::std_instead_of_core,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use crate::common;
use common::{pair, rng};
use pqdr_ratchet::{Config, Instant, KemError, RatchetKem, Session, Sntrup761, XWing};

/// One key pair, encapsulation and decapsulation through the trait; a
/// changed ciphertext gives another secret (implicit rejection), the same
/// one twice.
fn trait_round_trip<K: RatchetKem>(seed: &[u8], m: &[u8]) -> Vec<u8> {
    let mut ek = vec![0u8; K::EK_LEN];
    K::generate_from_seed(seed, &mut ek);
    let mut ct = vec![0u8; K::CT_LEN];
    let mut ss = [0u8; 32];
    K::encapsulate_deterministic(&ek, m, &mut ct, &mut ss).unwrap();
    let mut back = [0u8; 32];
    K::decapsulate(seed, &ct, &mut back);
    assert_eq!(back, ss);
    ct[7] ^= 0x20;
    let (mut bad1, mut bad2) = ([0u8; 32], [0u8; 32]);
    K::decapsulate(seed, &ct, &mut bad1);
    K::decapsulate(seed, &ct, &mut bad2);
    assert_eq!(bad1, bad2);
    assert_ne!(bad1, ss);
    ek
}

#[test]
fn xwing_adapter_is_x_wing() {
    assert_eq!(XWing::ID, 0x647A);
    assert_eq!((XWing::EK_LEN, XWing::CT_LEN), (1216, 1120));
    assert_eq!((XWing::SEED_LEN, XWing::ENCAPS_SEED_LEN), (32, 64));
    // draft-connolly-cfrg-xwing-kem-10 Appendix C, first vector: the seed's
    // encapsulation key starts e2236b35… and its (eseed) secret is d2df0522….
    let seed = hex("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26");
    let eseed = hex(concat!(
        "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e235b8cc87",
        "3c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2"
    ));
    let ek = trait_round_trip::<XWing>(&seed, &eseed);
    assert_eq!(ek[..8], hex("e2236b35a8c24b39")[..]);
    let mut ct = vec![0u8; 1120];
    let mut ss = [0u8; 32];
    XWing::encapsulate_deterministic(&ek, &eseed, &mut ct, &mut ss).unwrap();
    assert_eq!(
        ss[..],
        hex("d2df0522128f09dd8e2c92b1e905c793d8f57a54c3da25861f10bf4ca613e384")[..]
    );
    // The same key as pqdr-hybrid's.
    let (_, hek) = pqdr_hybrid::xwing::generate_from_seed(&seed.clone().try_into().unwrap());
    assert_eq!(&ek[..], &hek.as_bytes()[..]);
    // pk_M failing the FIPS 203 §7.2 check is refused.
    let mut bad = ek;
    bad[0] = 0xff;
    bad[1] |= 0x0f;
    assert_eq!(
        XWing::encapsulate_deterministic(&bad, &eseed, &mut ct, &mut ss),
        Err(KemError)
    );
}

#[test]
fn sntrup761_adapter_round_trips() {
    assert_eq!((Sntrup761::EK_LEN, Sntrup761::CT_LEN), (1158, 1039));
    let ek1 = trait_round_trip::<Sntrup761>(&[1; 32], &[2; 32]);
    let ek2 = trait_round_trip::<Sntrup761>(&[1; 32], &[3; 32]);
    assert_eq!(ek1, ek2, "the key is a function of the seed");
    let ek3 = trait_round_trip::<Sntrup761>(&[4; 32], &[2; 32]);
    assert_ne!(ek1, ek3);
    // The adapter's key is an sntrup761 key: pqdr-ntrup's parser takes it.
    assert!(pqdr_ntrup::sntrup761::EncapsulationKey::from_slice(&ek1).is_ok());
    let mut ct = vec![0u8; 1039];
    let mut ss = [0u8; 32];
    assert_eq!(
        Sntrup761::encapsulate_deterministic(&ek1[1..], &[2; 32], &mut ct, &mut ss),
        Err(KemError)
    );
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Two sessions exchanging 1200-byte records every 10 ms for `ticks` ticks,
/// a ratchet due every 200 ms; returns the ratchets both completed.
fn cycle<K: RatchetKem>(ticks: u64) -> u64 {
    let cfg = Config {
        rekey_after_ms: 200,
        min_ratchet_interval_ms: 50,
        ..Config::default()
    };
    let mut r = rng(9);
    let (a, b): (Session<K>, Session<K>) = pair(&cfg, Instant(0), &mut r);
    let mut p = [a, b];
    let mut pkt = [0u8; 1500];
    let mut out = [0u8; 1500];
    for t in 0..ticks {
        let now = Instant(t * 10);
        for first in [true, false] {
            let (l, rr) = p.split_at_mut(1);
            let (s, o) = if first {
                (&mut l[0], &mut rr[0])
            } else {
                (&mut rr[0], &mut l[0])
            };
            let msg = vec![t as u8; s.max_payload(1200)];
            let n = s.seal(now, b"", &msg, &mut pkt[..1200], &mut r).unwrap();
            let o1 = o.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
            assert_eq!(&out[..o1.len], &msg[..]);
            while let Some(n) = s.poll_transmit(now, b"", &mut pkt[..1200], &mut r) {
                o.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
            }
        }
    }
    let end = Instant(ticks * 10);
    let (sa, sb) = (p[0].status(end), p[1].status(end));
    assert!(sa.epoch.abs_diff(sb.epoch) <= 1);
    sa.ratchets_completed.min(sb.ratchets_completed)
}

#[test]
fn sessions_ratchet_with_xwing_and_sntrup761() {
    let n = [cycle::<XWing>(300), cycle::<Sntrup761>(300)];
    println!("ratchets completed in 3 s (X-Wing, sntrup761): {n:?}");
    assert!(n.iter().all(|&x| x >= 10), "{n:?}");
}
