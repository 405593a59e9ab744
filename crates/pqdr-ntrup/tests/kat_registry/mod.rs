//! KAT registry entries for pqdr-ntrup: the official NTRU Prime round-3 KAT
//! files (`# kem/sntrup761` …).
//!
//! The round-3 reference draws each 32-bit random word with its own
//! `randombytes(4)` call (`urandom32`): `Small_random(g)` (p calls, repeated
//! while g is not invertible in R/3), `Short_random(f)` (p calls), then
//! `randombytes(rho, Small_bytes)` in `crypto_kem_keypair`, and
//! `Short_random(r)` (p calls) in `crypto_kem_enc`. `generate` and
//! `encapsulate_reference` draw exactly that way, so the entries call them
//! (`encapsulate` draws r's words with one call, as PQClean does).
//!
//! Compiled twice: into this crate's `tests/kat.rs` and, through a `#[path]`
//! module, into the root package's registry (`src/nist_rsp/mod.rs`) that the
//! `katkem` / `katsign` tools use.

use pqdr_kat::Drbg;
use pqdr_kat::registry::{KemAlg, KemOutput};
use pqdr_ntrup::{self as ntrup, Ciphertext, DecapsulationKey, ParameterSet};

fn record<S: ParameterSet>(seed: &[u8; 48]) -> KemOutput {
    let mut rng = Drbg::new(seed);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let (ct, ss) = ek.encapsulate_reference(&mut rng);
    KemOutput {
        pk: ek.as_bytes().as_ref().to_vec(),
        sk: dk.as_bytes().as_ref().to_vec(),
        ct: ct.as_bytes().as_ref().to_vec(),
        ss: ss.as_bytes().to_vec(),
    }
}

fn decapsulate<S: ParameterSet>(sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, String> {
    let dk = DecapsulationKey::<S>::from_slice(sk)
        .map_err(|_| format!("invalid {} secret key", S::NAME))?;
    let ct = Ciphertext::<S>::from_slice(ct)
        .map_err(|_| format!("{} ciphertext has the wrong length", S::NAME))?;
    Ok(dk.decapsulate(&ct).as_bytes().to_vec())
}

macro_rules! entry {
    ($marker:ty, $name:literal) => {
        KemAlg {
            name: $name,
            header: concat!("kem/", $name),
            record: record::<$marker>,
            decapsulate: decapsulate::<$marker>,
        }
    };
}

pub(super) static ALGORITHMS: &[KemAlg] = &[
    entry!(ntrup::Sntrup653, "sntrup653"),
    entry!(ntrup::Sntrup761, "sntrup761"),
    entry!(ntrup::Sntrup857, "sntrup857"),
    entry!(ntrup::Sntrup953, "sntrup953"),
    entry!(ntrup::Sntrup1013, "sntrup1013"),
    entry!(ntrup::Sntrup1277, "sntrup1277"),
];
