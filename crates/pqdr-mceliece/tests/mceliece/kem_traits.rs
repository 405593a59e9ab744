//! The RustCrypto `kem` 0.3 traits, used generically.
#![cfg(feature = "kem")]

use crate::common::TestRng;
use kem::{Decapsulate, Decapsulator, Encapsulate, Kem, KeyExport, TryDecapsulate, TryKeyInit};

fn generic_roundtrip<K: Kem>() {
    let mut rng = TestRng(77);
    let (dk, ek) = K::generate_keypair_from_rng(&mut rng);
    let (ct, ss) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(dk.try_decapsulate(&ct).expect("infallible"), ss);
    assert!(dk.encapsulation_key() == &ek);
}

#[test]
fn kem_traits_348864() {
    generic_roundtrip::<pqdr_mceliece::Mceliece348864>();
    // Key export / import: the public key, and the secret key (which
    // re-derives its public key from delta).
    type Dk = pqdr_mceliece::mceliece348864::Keypair;
    let mut rng = TestRng(3);
    let (dk, ek) = pqdr_mceliece::Mceliece348864::generate_keypair_from_rng(&mut rng);
    let ek2 = <pqdr_mceliece::EncapsulationKey<pqdr_mceliece::Mceliece348864>>::new(&ek.to_bytes())
        .expect("pk");
    assert!(ek2 == ek);
    let dk2 = Dk::new(&dk.to_bytes()).expect("sk");
    let (ct, ss) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(dk2.decapsulate(&ct), ss);
    // The traits' decapsulation key is the crate's Keypair: the secret key
    // and the public key it re-derived.
    let dk: Dk = dk;
    assert!(dk2.decapsulation_key() == dk.decapsulation_key());
    assert!(dk2.encapsulation_key() == &ek);
    let (sk, pk) = dk2.into_parts();
    assert!(pk == ek);
    let c = pqdr_mceliece::mceliece348864::Ciphertext::from_slice(&ct).expect("ct");
    assert_eq!(sk.decapsulate(&c).as_bytes(), ss.as_slice());
    let mut bad = dk.to_bytes();
    bad[40] ^= 1; // another Goppa polynomial than delta gives
    assert!(Dk::new(&bad).is_err());
}

#[test]
fn kem_traits_6960119f() {
    generic_roundtrip::<pqdr_mceliece::Mceliece6960119f>();
}

#[test]
fn kem_traits_348864pc() {
    generic_roundtrip::<pqdr_mceliece::Mceliece348864pc>();
}
