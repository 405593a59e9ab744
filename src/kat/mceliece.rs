//! KAT registry entries for pqdr-mceliece: the ten round-4 sets.
//!
//! Random draws, as the reference `crypto_kem_keypair` / `crypto_kem_enc`:
//! one `randombytes(32)` for the seed delta, then per `gen_e` attempt one
//! `randombytes(4t)` (or `randombytes(2t)` for 8192128, where n = 2^m).

use super::{KemAlg, KemOutput};
use pqdr_kat::Drbg;
use pqdr_mceliece::{DecapsulationKey, Params};

fn record<P: Params>(seed: &[u8; 48]) -> KemOutput {
    let mut drbg = Drbg::new(seed);
    let (dk, ek) = pqdr_mceliece::generate::<P, _>(&mut drbg);
    let (ct, ss) = ek.encapsulate(&mut drbg);
    KemOutput {
        pk: ek.as_bytes().as_ref().to_vec(),
        sk: dk.as_bytes().as_ref().to_vec(),
        ct: ct.as_bytes().as_ref().to_vec(),
        ss: ss.as_bytes().to_vec(),
    }
}

fn decapsulate<P: Params>(sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, String> {
    let dk = DecapsulationKey::<P>::from_bytes(sk).map_err(|e| format!("secret key: {e}"))?;
    let ss = dk
        .decapsulate_bytes(ct)
        .map_err(|e| format!("ciphertext: {e}"))?;
    Ok(ss.as_bytes().to_vec())
}

macro_rules! alg {
    ($name:literal, $ty:ident) => {
        KemAlg {
            name: $name,
            header: concat!("kem/", $name),
            record: record::<pqdr_mceliece::$ty>,
            decapsulate: decapsulate::<pqdr_mceliece::$ty>,
        }
    };
}

pub(super) static ALGORITHMS: &[KemAlg] = &[
    alg!("mceliece348864", Mceliece348864),
    alg!("mceliece348864f", Mceliece348864f),
    alg!("mceliece460896", Mceliece460896),
    alg!("mceliece460896f", Mceliece460896f),
    alg!("mceliece6688128", Mceliece6688128),
    alg!("mceliece6688128f", Mceliece6688128f),
    alg!("mceliece6960119", Mceliece6960119),
    alg!("mceliece6960119f", Mceliece6960119f),
    alg!("mceliece8192128", Mceliece8192128),
    alg!("mceliece8192128f", Mceliece8192128f),
];
