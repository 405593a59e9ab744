//! KAT registry entries for pqdr-mldsa.
//!
//! Randomness, as in the reference `PQCgenKAT_sign.c` with the FIPS 204 final
//! code: `crypto_sign_keypair` draws one 32-byte ξ, `crypto_sign` draws one
//! 32-byte `rnd` (hedged signing). Pure ML-DSA with an empty context
//! (M′ = 0x00‖0x00‖msg); `sm = signature ‖ msg`.
//!
//! Compiled twice: into this crate's `tests/kat.rs` and, through a `#[path]`
//! module, into the root package's registry (`src/nist_rsp/mod.rs`) that the
//! `katkem` / `katsign` tools use.

use pqdr_kat::Drbg;
use pqdr_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, VerifyingKey};

use pqdr_kat::registry::{SignAlg, SignOutput};

fn record<P: ParameterSet>(seed: &[u8; 48], msg: &[u8]) -> SignOutput {
    let mut drbg = Drbg::new(seed);
    let xi = drbg.bytes::<32>();
    let (sk, vk) = pqdr_mldsa::generate_deterministic::<P>(&xi);
    let rnd = drbg.bytes::<32>();
    let sig = sk
        .sign_with_rnd(msg, &[], &rnd)
        .expect("an empty context is always valid");
    let mut sm = sig.as_bytes().as_ref().to_vec();
    sm.extend_from_slice(msg);
    SignOutput {
        pk: vk.as_bytes().as_ref().to_vec(),
        sk: sk.as_bytes().as_ref().to_vec(),
        sm,
    }
}

fn open<P: ParameterSet>(pk: &[u8], sm: &[u8]) -> Result<Vec<u8>, String> {
    let vk =
        VerifyingKey::<P>::from_slice(pk).map_err(|_| format!("pk is not {} bytes", P::VK_SIZE))?;
    if sm.len() < P::SIG_SIZE {
        return Err(format!(
            "sm is shorter than a signature ({} bytes)",
            P::SIG_SIZE
        ));
    }
    let (sig, msg) = sm.split_at(P::SIG_SIZE);
    let sig = Signature::<P>::from_slice(sig).map_err(|_| "bad signature length".to_string())?;
    vk.verify(msg, &[], &sig)
        .map_err(|_| "signature does not verify".to_string())?;
    Ok(msg.to_vec())
}

pub(super) static ALGORITHMS: &[SignAlg] = &[
    SignAlg {
        name: "ml-dsa-44",
        header: "ML-DSA-44",
        record: record::<MlDsa44>,
        open: open::<MlDsa44>,
    },
    SignAlg {
        name: "ml-dsa-65",
        header: "ML-DSA-65",
        record: record::<MlDsa65>,
        open: open::<MlDsa65>,
    },
    SignAlg {
        name: "ml-dsa-87",
        header: "ML-DSA-87",
        record: record::<MlDsa87>,
        open: open::<MlDsa87>,
    },
];

/// LEGACY round-3.1 Dilithium (feature `dilithium-r3`), as the round-3
/// submission's `PQCgenKAT_sign.c` drives its reference code:
/// `crypto_sign_keypair` draws one 32-byte ζ, `crypto_sign` is deterministic
/// (draws nothing); μ = H(tr ‖ msg), `sm = signature ‖ msg`. Header
/// `# Dilithium2` etc., as in the submission's files.
#[cfg(feature = "dilithium-r3")]
mod dilithium_r3 {
    use pqdr_kat::Drbg;
    use pqdr_kat::registry::{SignAlg, SignOutput};
    use pqdr_mldsa::dilithium_r3::{
        self, Dilithium2, Dilithium3, Dilithium5, Round3Set, Signature, VerifyingKey,
    };

    fn record<P: Round3Set>(seed: &[u8; 48], msg: &[u8]) -> SignOutput {
        let mut drbg = Drbg::new(seed);
        let zeta = drbg.bytes::<32>();
        let (sk, vk) = dilithium_r3::generate_deterministic::<P>(&zeta);
        let mut sm = dilithium_r3::sign(&sk, msg).as_bytes().as_ref().to_vec();
        sm.extend_from_slice(msg);
        SignOutput {
            pk: vk.as_bytes().as_ref().to_vec(),
            sk: sk.as_bytes().as_ref().to_vec(),
            sm,
        }
    }

    fn open<P: Round3Set>(pk: &[u8], sm: &[u8]) -> Result<Vec<u8>, String> {
        let vk = VerifyingKey::<P>::from_slice(pk)
            .map_err(|_| format!("pk is not {} bytes", P::VK_SIZE))?;
        if sm.len() < P::SIG_SIZE {
            return Err(format!(
                "sm is shorter than a signature ({} bytes)",
                P::SIG_SIZE
            ));
        }
        let (sig, msg) = sm.split_at(P::SIG_SIZE);
        let sig =
            Signature::<P>::from_slice(sig).map_err(|_| "bad signature length".to_string())?;
        dilithium_r3::verify(&vk, msg, &sig)
            .map_err(|_| "signature does not verify".to_string())?;
        Ok(msg.to_vec())
    }

    pub(super) static ALGORITHMS: &[SignAlg] = &[
        SignAlg {
            name: "dilithium2",
            header: "Dilithium2",
            record: record::<Dilithium2>,
            open: open::<Dilithium2>,
        },
        SignAlg {
            name: "dilithium3",
            header: "Dilithium3",
            record: record::<Dilithium3>,
            open: open::<Dilithium3>,
        },
        SignAlg {
            name: "dilithium5",
            header: "Dilithium5",
            record: record::<Dilithium5>,
            open: open::<Dilithium5>,
        },
    ];
}

/// The round-3.1 Dilithium entries (legacy; feature `dilithium-r3`).
#[cfg(feature = "dilithium-r3")]
pub(super) static DILITHIUM_R3: &[SignAlg] = dilithium_r3::ALGORITHMS;
