//! **Legacy:** round-3.1 CRYSTALS-Dilithium (specification v3.1,
//! 2021-02-08; feature `dilithium-r3`), for reading and migrating keys and
//! signatures of systems deployed before FIPS 204. New systems use ML-DSA
//! ([`crate::ml_dsa_65`] and its siblings).
//!
//! Dilithium2/3/5 share the ML-DSA-44/65/87 core of this crate (ExpandA,
//! ExpandS, ExpandMask, SampleInBall, the rounding, hint and encodings are
//! the same algorithms). What differs, switched at compile time by the
//! parameter set (v3.1 Figure 4):
//!
//! * key generation: (ρ, ρ', K) ← H(ζ), without FIPS 204's k and l bytes;
//! * tr = H(pk) has 32 bytes (FIPS 204: 64), so the secret key is 32 bytes
//!   shorter than ML-DSA's;
//! * c̃ has 32 bytes at every level (FIPS 204: λ/4), so Dilithium3/5
//!   signatures are 16/32 bytes shorter;
//! * μ = H(tr ‖ M, 64): no context string, no domain byte, no pre-hash;
//! * signing is deterministic, ρ' ← H(K ‖ μ, 64) (the round-3 reference
//!   default; FIPS 204 mixes in 32 random bytes).
//!
//! The FIPS 204 message formats (`sign(msg, ctx)`, `sign_prehash`, …) do not
//! compile on these sets; use the functions here:
//!
//! ```compile_fail
//! use pqdr_mldsa::dilithium_r3::{self, Dilithium2};
//! let (sk, _) = dilithium_r3::generate_deterministic::<Dilithium2>(&[0; 32]);
//! let _ = sk.sign_deterministic(b"FIPS 204 context form", b"");
//! ```
//!
//! ```
//! use pqdr_mldsa::dilithium_r3::{self, Dilithium3};
//!
//! // In real use `dilithium_r3::generate(&mut rng)`.
//! let (sk, vk) = dilithium_r3::generate_deterministic::<Dilithium3>(&[7; 32]);
//! let sig = dilithium_r3::sign(&sk, b"migrate me");
//! assert_eq!(sig.as_bytes().len(), 3293);
//! assert!(dilithium_r3::verify(&vk, b"migrate me", &sig).is_ok());
//! assert!(dilithium_r3::verify(&vk, b"migrate me!", &sig).is_err());
//! ```

use rand_core::CryptoRng;

use crate::mu::finish_mu;
use crate::params::ParameterSet;
use crate::types::random_32;
use pqdr_keccak::Shake256;

pub use crate::params::{Dilithium2, Dilithium3, Dilithium5};
pub use crate::{Error, Signature, SigningKey, VerifyingKey};

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Dilithium2 {}
    impl Sealed for super::Dilithium3 {}
    impl Sealed for super::Dilithium5 {}
}

/// The round-3.1 Dilithium parameter sets: [`Dilithium2`], [`Dilithium3`],
/// [`Dilithium5`].
pub trait Round3Set: ParameterSet + sealed::Sealed {}
impl Round3Set for Dilithium2 {}
impl Round3Set for Dilithium3 {}
impl Round3Set for Dilithium5 {}

/// Key generation (v3.1 Figure 4, `Gen`) from the 32-byte seed ζ that the
/// reference code draws with one `randombytes` call.
pub fn generate_deterministic<P: Round3Set>(zeta: &[u8; 32]) -> (SigningKey<P>, VerifyingKey<P>) {
    crate::generate_deterministic::<P>(zeta)
}

/// Key generation (v3.1 Figure 4, `Gen`): draws ζ (32 bytes) from `rng`.
pub fn generate<P: Round3Set, R: CryptoRng + ?Sized>(
    rng: &mut R,
) -> (SigningKey<P>, VerifyingKey<P>) {
    generate_deterministic(&random_32(rng))
}

/// μ = H(tr ‖ M, 64) with the 32-byte tr = H(pk, 32) (v3.1 Figure 4, `Sign`
/// line 10 and `Verify` line 25).
pub fn mu<P: Round3Set>(vk: &VerifyingKey<P>, msg: &[u8]) -> [u8; 64] {
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    // H(pk, 32) is the first 32 bytes of the cached H(pk, 64) (SHAKE256).
    x.absorb(&vk.tr[..P::TR_SIZE]);
    x.absorb(msg);
    finish_mu(x)
}

/// Deterministic signing (v3.1 Figure 4, `Sign`; the round-3 reference
/// code's default, which the NIST KAT files use).
pub fn sign<P: Round3Set>(sk: &SigningKey<P>, msg: &[u8]) -> Signature<P> {
    // `rnd` is not used by the round-3 sets (ρ' = H(K ‖ μ)).
    sk.sign_mu(&mu(sk.verifying_key(), msg), &[0; 32])
}

/// Verification (v3.1 Figure 4, `Verify`), with the hint encoding checks of
/// the round-3.1 reference code (indices strictly increasing per row, unused
/// positions zero, at most ω ones).
///
/// # Errors
/// [`Error::InvalidSignature`] if the signature does not verify.
pub fn verify<P: Round3Set>(
    vk: &VerifyingKey<P>,
    msg: &[u8],
    sig: &Signature<P>,
) -> Result<(), Error> {
    vk.verify_mu(&mu(vk, msg), sig)
}
