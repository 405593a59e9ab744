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
