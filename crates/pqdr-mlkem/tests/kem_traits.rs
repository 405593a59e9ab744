//! The RustCrypto `kem` 0.3 traits on `MlKem512/768/1024` (feature `kem`),
//! used through generic code only.
#![cfg(feature = "kem")]

mod common;

use common::{TestRng, for_each_set};
use kem::{Decapsulate, Encapsulate, FromSeed, Kem, KeyExport, TryKeyInit};
use pqdr_mlkem::MlKem768;

fn generic<K>()
where
    K: Kem + FromSeed,
    K::DecapsulationKey: Decapsulate,
{
    let mut rng = TestRng(0x1234_5678);
    let (dk, ek) = K::generate_keypair_from_rng(&mut rng);
    let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(dk.decapsulate(&ct), k1);
    assert_eq!(dk.decapsulate_slice(ct.as_slice()).expect("length"), k1);
    assert!(dk.decapsulate_slice(&ct.as_slice()[1..]).is_err());

    // Encapsulation key export / import with the §7.2 check.
    let bytes = ek.to_bytes();
    let ek2 = K::EncapsulationKey::new_from_slice(&bytes).expect("valid");
    assert!(ek2 == ek);
    let mut bad = bytes.clone();
    bad[0] = 0xff;
    bad[1] |= 0x0f; // first coefficient = 4095 >= q
    assert!(K::EncapsulationKey::new_from_slice(&bad).is_err());

    // Seeds: the same seed gives the same key pair.
    let seed = kem::Seed::<K>::try_from(&[7u8; 64][..]).expect("64 bytes");
    let (dk_a, ek_a) = K::from_seed(&seed);
    let (_, ek_b) = K::from_seed(&seed);
    assert!(ek_a == ek_b);
    let (ct, k2) = ek_a.encapsulate_with_rng(&mut rng);
    assert_eq!(dk_a.decapsulate(&ct), k2);
}

#[test]
fn kem_traits_all_sets() {
    for_each_set!(generic());
}

#[test]
fn seed_from_trait_matches_inherent_api() {
    let seed = [9u8; 64];
    let (_, ek) = MlKem768::from_seed(&seed.into());
    let dk = pqdr_mlkem::ml_kem_768::DecapsulationKey::from_seed(&seed);
    assert_eq!(&ek, dk.encapsulation_key());
    assert_eq!(dk.to_seed().as_deref(), Some(&seed));
}
