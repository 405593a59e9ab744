//! KAT registry entries for pqdr-mceliece: the ten round-4 sets, the ten ISO
//! plaintext-confirmation sets (`mceliece348864pc`, …, header
//! `kem/mceliece348864pc`), and the same ten pc sets once more under the
//! round-3 submission's names (`mceliece348864-round3`, …, header
//! `kem/mceliece348864`): the round-3 KEM is the pc KEM, so these write the
//! round-3 submission's `.rsp` byte for byte, header included.
//!
//! Random draws, as the reference `crypto_kem_keypair` / `crypto_kem_enc`:
//! one `randombytes(32)` for the seed delta, then per `gen_e` attempt one
//! `randombytes(4t)` (or `randombytes(2t)` for 8192128, where n = 2^m).
//!
//! Compiled twice: into this crate's `tests/kat.rs` and, through a `#[path]`
//! module, into the root package's registry (`src/nist_rsp/mod.rs`) that the
//! `katkem` / `katsign` tools use.

use pqdr_kat::Drbg;
use pqdr_kat::registry::{KemAlg, KemOutput};
use pqdr_mceliece::{DecapsulationKey, ParameterSet};

fn record<P: ParameterSet>(seed: &[u8; 48]) -> KemOutput {
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

fn decapsulate<P: ParameterSet>(sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, String> {
    let dk = DecapsulationKey::<P>::from_slice(sk).map_err(|e| format!("secret key: {e}"))?;
    let ss = dk
        .decapsulate_bytes(ct)
        .map_err(|e| format!("ciphertext: {e}"))?;
    Ok(ss.as_bytes().to_vec())
}

macro_rules! alg {
    ($name:literal, $ty:ident) => {
        alg!($name, $name, $ty)
    };
    // The round-3 file of `$header`: name `<header>-round3`.
    (round3 $header:literal, $ty:ident) => {
        alg!(concat!($header, "-round3"), $header, $ty)
    };
    ($name:expr, $header:literal, $ty:ident) => {
        KemAlg {
            name: $name,
            header: concat!("kem/", $header),
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
    alg!("mceliece348864pc", Mceliece348864pc),
    alg!("mceliece348864pcf", Mceliece348864pcf),
    alg!("mceliece460896pc", Mceliece460896pc),
    alg!("mceliece460896pcf", Mceliece460896pcf),
    alg!("mceliece6688128pc", Mceliece6688128pc),
    alg!("mceliece6688128pcf", Mceliece6688128pcf),
    alg!("mceliece6960119pc", Mceliece6960119pc),
    alg!("mceliece6960119pcf", Mceliece6960119pcf),
    alg!("mceliece8192128pc", Mceliece8192128pc),
    alg!("mceliece8192128pcf", Mceliece8192128pcf),
    // Round-3 names (the submission had plaintext confirmation in every set).
    alg!(round3 "mceliece348864", Mceliece348864pc),
    alg!(round3 "mceliece348864f", Mceliece348864pcf),
    alg!(round3 "mceliece460896", Mceliece460896pc),
    alg!(round3 "mceliece460896f", Mceliece460896pcf),
    alg!(round3 "mceliece6688128", Mceliece6688128pc),
    alg!(round3 "mceliece6688128f", Mceliece6688128pcf),
    alg!(round3 "mceliece6960119", Mceliece6960119pc),
    alg!(round3 "mceliece6960119f", Mceliece6960119pcf),
    alg!(round3 "mceliece8192128", Mceliece8192128pc),
    alg!(round3 "mceliece8192128f", Mceliece8192128pcf),
];
