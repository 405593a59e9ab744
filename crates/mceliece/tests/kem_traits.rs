//! The RustCrypto `kem` 0.3 traits, used generically.
#![cfg(feature = "kem")]

use kem::{Decapsulate, Decapsulator, Encapsulate, Kem, KeyExport, TryDecapsulate, TryKeyInit};

struct TestRng(u64);
impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.try_next_u64()? >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = (self.try_next_u64()? >> 56) as u8;
        }
        Ok(())
    }
}
impl rand_core::TryCryptoRng for TestRng {}

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
    type Dk = pqdr_mceliece::kem_api::DecapsulationKey<pqdr_mceliece::Mceliece348864>;
    let mut rng = TestRng(3);
    let (dk, ek) = pqdr_mceliece::Mceliece348864::generate_keypair_from_rng(&mut rng);
    let ek2 = <pqdr_mceliece::EncapsulationKey<pqdr_mceliece::Mceliece348864>>::new(&ek.to_bytes())
        .expect("pk");
    assert!(ek2 == ek);
    let dk2 = Dk::new(&dk.to_bytes()).expect("sk");
    let (ct, ss) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(dk2.decapsulate(&ct), ss);
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
