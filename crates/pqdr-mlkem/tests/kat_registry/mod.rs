//! KAT registry entries for pqdr-mlkem.
//!
//! Randomness, as in the reference `PQCgenKAT_kem.c` with the FIPS 203 final
//! code (pq-crystals `standard` branch, PQClean, liboqs): `crypto_kem_keypair`
//! draws ONE 64-byte block (`d` = first 32 bytes, `z` = last 32 bytes),
//! `crypto_kem_enc` draws ONE 32-byte `m`. `sk` is the expanded
//! decapsulation key `dk_PKE ‖ ek ‖ H(ek) ‖ z`.
//!
//! Compiled twice: into this crate's `tests/kat.rs` and, through a `#[path]`
//! module, into the root package's registry (`src/nist_rsp/mod.rs`) that the
//! `katkem` / `katsign` tools use.

use pqdr_kat::Drbg;
use pqdr_mlkem::{Ciphertext, DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};

use pqdr_kat::registry::{KemAlg, KemOutput};

fn record<P: ParameterSet>(seed: &[u8; 48]) -> KemOutput {
    let mut drbg = Drbg::new(seed);
    let d_z = drbg.bytes::<64>();
    let dk = DecapsulationKey::<P>::from_seed(&d_z);
    let m = drbg.bytes::<32>();
    let (ct, ss) = dk.encapsulation_key().encapsulate_deterministic(&m);
    KemOutput {
        pk: dk.encapsulation_key().as_bytes().as_ref().to_vec(),
        sk: dk.as_bytes().as_ref().to_vec(),
        ct: ct.as_bytes().as_ref().to_vec(),
        ss: ss.as_bytes().to_vec(),
    }
}

fn decapsulate<P: ParameterSet>(sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, String> {
    let dk = DecapsulationKey::<P>::from_slice(sk)
        .map_err(|_| format!("sk is not a valid {} decapsulation key", P::NAME))?;
    let ct = Ciphertext::<P>::from_slice(ct)
        .map_err(|_| format!("ct is not a {} ciphertext", P::NAME))?;
    Ok(dk.decapsulate(&ct).as_bytes().to_vec())
}

pub(super) static ALGORITHMS: &[KemAlg] = &[
    KemAlg {
        name: "ml-kem-512",
        header: "ML-KEM-512",
        record: record::<MlKem512>,
        decapsulate: decapsulate::<MlKem512>,
    },
    KemAlg {
        name: "ml-kem-768",
        header: "ML-KEM-768",
        record: record::<MlKem768>,
        decapsulate: decapsulate::<MlKem768>,
    },
    KemAlg {
        name: "ml-kem-1024",
        header: "ML-KEM-1024",
        record: record::<MlKem1024>,
        decapsulate: decapsulate::<MlKem1024>,
    },
];
