//! Property tests for every parameter set: round trip, implicit rejection
//! (against an independent computation of `J(z ‖ c)`), the §7.2 modulus
//! check for every coefficient position, wrong lengths, serialization, and a
//! small-stack run.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]

mod common;

use common::{for_each_set, seed, split_seed};
use pqdr_mlkem::{Ciphertext, DecapsulationKey, EncapsulationKey, Error, MlKem768, ParameterSet};
use proptest::prelude::*;
use shake::{ExtendableOutput, Update, XofReader};

/// `J(z ‖ c) = SHAKE256(z ‖ c, 32 bytes)`, computed with the `shake` crate.
fn j(z: &[u8], c: &[u8]) -> [u8; 32] {
    let mut h = shake::Shake256::default();
    h.update(z);
    h.update(c);
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    out
}

fn round_trip<P: ParameterSet>(seed: &[u8; 64], m: &[u8; 32]) {
    let (d, z) = split_seed(seed);
    let (dk, ek) = pqdr_mlkem::generate_deterministic::<P>(&d, &z);
    let (ct, ss) = ek.encapsulate_deterministic(m);
    assert_eq!(dk.decapsulate(&ct), ss);
    // The same key pair from the seed, and the seed export.
    let dk2 = DecapsulationKey::<P>::from_seed(seed);
    assert_eq!(dk2, dk);
    assert_eq!(dk2.to_seed().as_deref(), Some(seed));
    assert_eq!(dk.encapsulation_key(), &ek);
    // Filled in place over another key: the same key, seed and `ek`.
    let mut dk3 = DecapsulationKey::<P>::from_seed(&[0x5a; 64]);
    dk3.fill_from_seed(seed);
    assert_eq!(dk3.as_bytes(), dk.as_bytes());
    assert_eq!(dk3.to_seed().as_deref(), Some(seed));
    assert_eq!(dk3.encapsulation_key(), &ek);
    assert_eq!(dk3.encapsulation_key().hash(), ek.hash());
}

fn implicit_rejection<P: ParameterSet>(seed: &[u8; 64], m: &[u8; 32], pos: usize, bit: u8) {
    let dk = DecapsulationKey::<P>::from_seed(seed);
    let (ct, ss) = dk.encapsulation_key().encapsulate_deterministic(m);
    let mut bytes = ct.as_bytes().as_ref().to_vec();
    let pos = pos % bytes.len();
    bytes[pos] ^= 1 << (bit % 8);
    let tampered = Ciphertext::<P>::from_slice(&bytes).expect("length");
    let k = dk.decapsulate(&tampered);
    assert_ne!(k, ss, "a modified ciphertext must not give the real key");
    assert_eq!(
        k.as_bytes(),
        &j(&seed[32..], &bytes),
        "implicit rejection key is J(z ‖ c)"
    );
}

fn serialization<P: ParameterSet>(seed: &[u8; 64], m: &[u8; 32]) {
    let dk = DecapsulationKey::<P>::from_seed(seed);
    let ek = dk.encapsulation_key();
    let ek2 = EncapsulationKey::<P>::from_slice(ek.as_bytes().as_ref()).expect("own ek");
    assert_eq!(&ek2, ek);
    let dk2 = DecapsulationKey::<P>::from_slice(dk.as_bytes().as_ref()).expect("own dk");
    assert_eq!(dk2, dk);
    assert_eq!(
        dk2.to_seed().as_deref(),
        None,
        "the expanded form does not carry the seed"
    );
    let (ct, ss) = ek2.encapsulate_deterministic(m);
    let ct2 = Ciphertext::<P>::from_slice(ct.as_bytes().as_ref()).expect("own ct");
    assert_eq!(ct2, ct);
    assert_eq!(Ciphertext::<P>::from_array(ct.as_bytes()), ct);
    assert_eq!(dk2.decapsulate(&ct2), ss);
}

fn wrong_lengths<P: ParameterSet>(seed: &[u8; 64]) {
    let dk = DecapsulationKey::<P>::from_seed(seed);
    let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&[0; 32]);
    let ek = dk.encapsulation_key().as_bytes().as_ref().to_vec();
    let dkb = dk.as_bytes().as_ref().to_vec();
    let ctb = ct.as_bytes().as_ref().to_vec();
    for (good, name) in [(&ek, "ek"), (&dkb, "dk"), (&ctb, "ct")] {
        let mut longer = good.clone();
        longer.push(0);
        for bad in [&good[..good.len() - 1], &longer[..], &[][..], &good[..32]] {
            let err = match name {
                "ek" => EncapsulationKey::<P>::from_slice(bad).err(),
                "dk" => DecapsulationKey::<P>::from_slice(bad).err(),
                _ => Ciphertext::<P>::from_slice(bad).err(),
            };
            let what = match name {
                "ek" => pqdr_mlkem::Object::EncapsulationKey,
                "dk" => pqdr_mlkem::Object::DecapsulationKey,
                _ => pqdr_mlkem::Object::Ciphertext,
            };
            let want = Error::Length {
                what,
                expected: good.len(),
                actual: bad.len(),
            };
            assert_eq!(err, Some(want), "{name} of length {}", bad.len());
        }
    }
}

/// Sets the 12-bit coefficient `index` of the encoded `t̂` to `value`.
fn set_coefficient(ek: &mut [u8], index: usize, value: u16) {
    let at = 3 * (index >> 1);
    if index & 1 == 0 {
        ek[at] = value as u8;
        ek[at + 1] = (ek[at + 1] & 0xf0) | (value >> 8) as u8;
    } else {
        ek[at + 1] = (ek[at + 1] & 0x0f) | ((value & 0x0f) << 4) as u8;
        ek[at + 2] = (value >> 4) as u8;
    }
}

/// Every coefficient position with an out-of-range value (3329..=4095,
/// several values per position) makes `from_slice` fail, for the
/// encapsulation key and for the `ek` embedded in a decapsulation key.
fn modulus_check_every_position<P: ParameterSet>(seed: &[u8; 64]) {
    let dk = DecapsulationKey::<P>::from_seed(seed);
    let ek = dk.encapsulation_key().as_bytes().as_ref().to_vec();
    let coefficients = 256 * P::K;
    let mut rejected = 0;
    for index in 0..coefficients {
        for step in 0..4u16 {
            // Spread over 3329..=4095 and include both ends.
            let value = match step {
                0 => 3329,
                1 => 4095,
                _ => 3329 + ((index as u16).wrapping_mul(37).wrapping_add(step * 101) % 767),
            };
            let mut bad = ek.clone();
            set_coefficient(&mut bad, index, value);
            assert_eq!(
                EncapsulationKey::<P>::from_slice(&bad).err(),
                Some(Error::InvalidKey),
                "{}: coefficient {index} = {value} accepted",
                P::NAME
            );
            rejected += 1;
        }
        // The boundary value q - 1 is accepted.
        let mut edge = ek.clone();
        set_coefficient(&mut edge, index, 3328);
        assert!(EncapsulationKey::<P>::from_slice(&edge).is_ok());
    }
    // In a decapsulation key, with H(ek) recomputed so only the modulus check fails.
    let mut dkb = dk.as_bytes().as_ref().to_vec();
    let ek_at = 384 * P::K;
    let ek_len = ek.len();
    for index in (0..coefficients).step_by(97) {
        let mut bad = ek.clone();
        set_coefficient(&mut bad, index, 4000);
        dkb[ek_at..ek_at + ek_len].copy_from_slice(&bad);
        let h = <sha3::Sha3_256 as sha3::Digest>::digest(&bad);
        dkb[ek_at + ek_len..ek_at + ek_len + 32].copy_from_slice(&h);
        assert_eq!(
            DecapsulationKey::<P>::from_slice(&dkb).err(),
            Some(Error::InvalidKey)
        );
        rejected += 1;
    }
    println!(
        "{}: modulus check: {rejected} out-of-range keys rejected",
        P::NAME
    );
    assert!(rejected >= 4 * coefficients);
}

#[test]
fn modulus_check_rejects_every_position() {
    for_each_set!(modulus_check_every_position(&[3u8; 64]));
}

#[test]
fn wrong_lengths_are_errors() {
    for_each_set!(wrong_lengths(&[5u8; 64]));
}

#[test]
fn hash_check_rejects_modified_h() {
    fn check<P: ParameterSet>() {
        let dk = DecapsulationKey::<P>::from_seed(&[1; 64]);
        let mut b = dk.as_bytes().as_ref().to_vec();
        let at = 768 * P::K + 32;
        for i in 0..32 {
            b[at + i] ^= 0x80;
            assert_eq!(
                DecapsulationKey::<P>::from_slice(&b).err(),
                Some(Error::InvalidKey)
            );
            b[at + i] ^= 0x80;
        }
        assert!(DecapsulationKey::<P>::from_slice(&b).is_ok());
    }
    for_each_set!(check());
}

/// All operations of every parameter set on a thread with a 32 KiB stack.
#[test]
fn small_stack() {
    std::thread::Builder::new()
        .stack_size(32 * 1024)
        .spawn(|| {
            fn run<P: ParameterSet>() {
                let dk = DecapsulationKey::<P>::from_seed(&[8; 64]);
                let ek =
                    EncapsulationKey::<P>::from_slice(dk.encapsulation_key().as_bytes().as_ref())
                        .expect("ek");
                let (ct, ss) = ek.encapsulate_deterministic(&[9; 32]);
                assert_eq!(dk.decapsulate(&ct), ss);
            }
            for_each_set!(run());
        })
        .expect("spawn")
        .join()
        .expect("ran within 32 KiB of stack");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip_all_sets(d in prop::array::uniform32(any::<u8>()), z in prop::array::uniform32(any::<u8>()), m in prop::array::uniform32(any::<u8>())) {
        for_each_set!(round_trip(&seed(&d, &z), &m));
    }

    #[test]
    fn tampered_ciphertext_gives_implicit_rejection_key(d in prop::array::uniform32(any::<u8>()), m in prop::array::uniform32(any::<u8>()), pos in any::<usize>(), bit in any::<u8>()) {
        for_each_set!(implicit_rejection(&seed(&d, &m), &m, pos, bit));
    }

    #[test]
    fn serialization_round_trips(d in prop::array::uniform32(any::<u8>()), m in prop::array::uniform32(any::<u8>())) {
        for_each_set!(serialization(&seed(&d, &m), &m));
    }

    #[test]
    fn random_encapsulation_keys_never_panic(bytes in prop::collection::vec(any::<u8>(), 1184)) {
        // Random 12-bit values are out of range with probability 0.19 each,
        // so almost every random key is rejected; none may panic.
        let _ = EncapsulationKey::<MlKem768>::from_slice(&bytes);
        let _ = DecapsulationKey::<MlKem768>::from_slice(&bytes);
        let _ = Ciphertext::<MlKem768>::from_slice(&bytes);
    }
}
