//! Untrusted bytes never panic: any byte strings as keys and ciphertexts,
//! of any length; decapsulating random ciphertexts always yields the
//! implicit-rejection key (never the real one).

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test data from public counters"
)]

mod common;

use common::TestRng;
use pqdr_ntrup::{
    Ciphertext, DecapsulationKey, EncapsulationKey, ParameterSet, Sntrup653, Sntrup761, Sntrup1277,
    sntrup761, sntrup1277,
};
use proptest::prelude::*;

fn parse_anything<S: ParameterSet>(bytes: &[u8]) {
    let _ = EncapsulationKey::<S>::from_slice(bytes);
    let _ = DecapsulationKey::<S>::from_slice(bytes);
    let _ = Ciphertext::<S>::from_slice(bytes);
}

fn random_pk_encapsulates<S: ParameterSet>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let mut pk = Vec::new();
    let len = size_of::<S::EncapsulationKeyBytes>();
    pk.extend(
        (0..len).map(|i| (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 57)) as u8 ^ i as u8),
    );
    let ek = EncapsulationKey::<S>::from_slice(&pk).expect("any bytes of the right length");
    let _ = ek.encapsulate(&mut rng);
}

fn random_ct_rejected<S: ParameterSet>(dk: &DecapsulationKey<S>, bytes: &[u8]) {
    let len = size_of::<S::CiphertextBytes>();
    let mut ct = vec![0u8; len];
    for (i, c) in ct.iter_mut().enumerate() {
        *c = bytes[i % bytes.len()] ^ (i as u8);
    }
    let ct = Ciphertext::<S>::from_slice(&ct).expect("length");
    let k1 = dk.decapsulate(&ct);
    let k2 = dk.decapsulate(&ct);
    assert_eq!(k1, k2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    // Lengths from 0 to past the largest decapsulation key.
    fn parsing_never_panics(
        bytes in proptest::collection::vec(any::<u8>(), 0..sntrup1277::DECAPSULATION_KEY_SIZE + 1000),
    ) {
        parse_anything::<Sntrup653>(&bytes);
        parse_anything::<Sntrup761>(&bytes);
        parse_anything::<Sntrup1277>(&bytes);
    }

    #[test]
    fn any_public_key_encapsulates(seed in any::<u64>()) {
        random_pk_encapsulates::<Sntrup653>(seed);
        random_pk_encapsulates::<Sntrup761>(seed);
        random_pk_encapsulates::<Sntrup1277>(seed);
    }

    #[test]
    fn random_ciphertexts_decapsulate(bytes in proptest::collection::vec(any::<u8>(), 1..64)) {
        let mut rng = TestRng::new(5);
        let (dk, _) = DecapsulationKey::<Sntrup761>::generate(&mut rng);
        random_ct_rejected(&dk, &bytes);
        let (dk, _) = DecapsulationKey::<Sntrup653>::generate(&mut rng);
        random_ct_rejected(&dk, &bytes);
    }

    #[test]
    fn random_secret_keys_never_panic(
        bytes in proptest::collection::vec(
            any::<u8>(),
            sntrup761::DECAPSULATION_KEY_SIZE..=sntrup761::DECAPSULATION_KEY_SIZE,
        ),
    ) {
        // Random bytes almost never pass the Hash4(pk) check; if they do, decapsulation still works.
        if let Ok(dk) = DecapsulationKey::<Sntrup761>::from_slice(&bytes) {
            let ct = Ciphertext::<Sntrup761>::from_slice(&[0u8; sntrup761::CIPHERTEXT_SIZE]).expect("length");
            let _ = dk.decapsulate(&ct);
        }
    }
}
