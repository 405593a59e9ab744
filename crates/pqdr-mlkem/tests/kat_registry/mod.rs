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

/// LEGACY round-3 Kyber (v3.02, feature `kyber-r3`), as the round-3
/// submission's `PQCgenKAT_kem.c` drives its reference code:
/// `crypto_kem_keypair` draws `d` (32 bytes) and then `z` (32 bytes) in two
/// calls, `crypto_kem_enc` draws 32 bytes that it hashes to `m`. Header
/// `# Kyber768` etc., as in the submission's files.
#[cfg(feature = "kyber-r3")]
mod kyber_r3 {
    use pqdr_kat::Drbg;
    use pqdr_kat::registry::{KemAlg, KemOutput};
    use pqdr_mlkem::ParameterSet;
    use pqdr_mlkem::kyber_r3::{Ciphertext, DecapsulationKey, Kyber512, Kyber768, Kyber1024};

    fn record<P: ParameterSet>(seed: &[u8; 48]) -> KemOutput {
        let mut drbg = Drbg::new(seed);
        let d = drbg.bytes::<32>();
        let z = drbg.bytes::<32>();
        let dk = DecapsulationKey::<P>::generate_deterministic(&d, &z);
        let coins = drbg.bytes::<32>();
        let (ct, ss) = dk.encapsulation_key().encapsulate_deterministic(&coins);
        KemOutput {
            pk: dk.encapsulation_key().as_bytes().as_ref().to_vec(),
            sk: dk.as_bytes().as_ref().to_vec(),
            ct: ct.as_bytes().as_ref().to_vec(),
            ss: ss.as_bytes().to_vec(),
        }
    }

    fn decapsulate<P: ParameterSet>(sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, String> {
        let dk = DecapsulationKey::<P>::from_slice(sk)
            .map_err(|_| "sk is not a valid round-3 Kyber secret key".to_string())?;
        let ct = Ciphertext::<P>::from_slice(ct)
            .map_err(|_| "ct is not a round-3 Kyber ciphertext".to_string())?;
        Ok(dk.decapsulate(&ct).as_bytes().to_vec())
    }

    pub(super) static ALGORITHMS: &[KemAlg] = &[
        KemAlg {
            name: "kyber512",
            header: "Kyber512",
            record: record::<Kyber512>,
            decapsulate: decapsulate::<Kyber512>,
        },
        KemAlg {
            name: "kyber768",
            header: "Kyber768",
            record: record::<Kyber768>,
            decapsulate: decapsulate::<Kyber768>,
        },
        KemAlg {
            name: "kyber1024",
            header: "Kyber1024",
            record: record::<Kyber1024>,
            decapsulate: decapsulate::<Kyber1024>,
        },
    ];
}

/// The round-3 Kyber entries (legacy; feature `kyber-r3`).
#[cfg(feature = "kyber-r3")]
pub(super) static KYBER_R3: &[KemAlg] = kyber_r3::ALGORITHMS;
