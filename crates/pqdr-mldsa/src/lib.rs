#![no_std]
#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "simd"), forbid(unsafe_code))]
#![cfg_attr(feature = "simd", deny(unsafe_code))]
#![allow(non_snake_case, reason = "FIPS 204 variable names")]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::integer_division_remainder_used,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap,
        clippy::needless_range_loop,
        reason = "tests: oracles use plain integer arithmetic on public values"
    )
)]

mod arch;
#[cfg(feature = "pkcs8")]
mod asn1;
mod ct;
#[cfg(feature = "dilithium-r3")]
pub mod dilithium_r3;
mod encode;
mod error;
mod expanded;
mod field;
mod keygen;
mod mask_x4;
mod mu;
mod params;
mod poly;
mod prehash;
mod rounding;
mod sample;
mod sample_x4;
#[cfg(feature = "self-test")]
pub mod self_test;
mod sign;
#[cfg(feature = "smallest-stack")]
mod sign_lowmem;
mod sign_poly;
mod stream;
#[cfg(feature = "signature")]
mod traits;
mod types;
mod verify;
mod zetas;

#[cfg(feature = "pkcs8")]
pub use asn1::{ML_DSA_44_OID, ML_DSA_65_OID, ML_DSA_87_OID, PrivateKeyForm, algorithm_oid};
pub use error::{Error, Object};
pub use expanded::{ExpandedSigningKey, ExpandedVerifyingKey};
pub use params::{ByteArray, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
pub use prehash::PreHash;
pub use rand_core;
#[cfg(feature = "signature")]
pub use signature;
pub use stream::{MessageSigner, MessageVerifier};
pub use types::{SEED_SIZE, Signature, SigningKey, VerifyingKey, generate, generate_deterministic};
/// The RustCrypto `pkcs8` and `spki` crates (feature `pkcs8`), for their
/// `DecodePrivateKey` / `EncodePrivateKey` / `DecodePublicKey` /
/// `EncodePublicKey` traits.
#[cfg(feature = "pkcs8")]
pub use {pkcs8, spki};

/// Bytes of a DER TLV whose value has `n` bytes (X.690 §8.1.3: a one-byte
/// tag, the definite length in short form below 128, else `0x81`–`0x83` and
/// one to three length bytes).
const fn der_tlv(n: usize) -> usize {
    let len = if n < 0x80 {
        1
    } else if n < 0x100 {
        2
    } else if n < 0x1_0000 {
        3
    } else {
        4
    };
    1 + len + n
}

/// Bytes of a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) of a NIST OID
/// (nine content bytes, no parameters) and a `key`-byte public key: the
/// algorithm identifier, then the key in a BIT STRING with no unused bits.
const fn spki_der_size(key: usize) -> usize {
    der_tlv(der_tlv(der_tlv(9)) + der_tlv(1 + key))
}

/// Bytes of the largest DER PKCS#8 OneAsymmetricKey (RFC 5958 §2, version 0,
/// no attributes or public key) of a NIST OID: the `both` private-key
/// CHOICE `SEQUENCE { OCTET STRING seed, OCTET STRING expandedKey }` in the
/// privateKey OCTET STRING (RFC 9935 §6 for ML-KEM, RFC 9881 §6 for ML-DSA).
const fn private_key_der_max_size(seed: usize, expanded: usize) -> usize {
    der_tlv(3 + der_tlv(der_tlv(9)) + der_tlv(der_tlv(der_tlv(seed) + der_tlv(expanded))))
}

/// One module per parameter set: type aliases, sizes and the key-generation
/// functions, so `ml_dsa_65::generate(&mut rng)` needs no type parameters.
macro_rules! parameter_set_module {
    ($(#[$doc:meta])* $module:ident, $feature:literal, $set:ident) => {
        $(#[$doc])*
        #[cfg(feature = $feature)]
        pub mod $module {
            use crate::params::ParameterSet;
            pub use crate::params::$set;
            pub use crate::{Error, PreHash, SEED_SIZE};

            /// The parameter set's marker type (the same alias in every pqdr primitive crate).
            pub type Set = crate::$set;

            /// Signing key of this parameter set.
            pub type SigningKey = crate::SigningKey<$set>;
            /// Verifying (public) key of this parameter set.
            pub type VerifyingKey = crate::VerifyingKey<$set>;
            /// Signing key with Â and the secret NTTs precomputed.
            pub type ExpandedSigningKey = crate::ExpandedSigningKey<$set>;
            /// Verifying key with Â precomputed.
            pub type ExpandedVerifyingKey = crate::ExpandedVerifyingKey<$set>;
            /// Signature of this parameter set.
            pub type Signature = crate::Signature<$set>;
            /// Streaming signer of this parameter set.
            pub type MessageSigner<'a> = crate::MessageSigner<'a, $set>;
            /// Streaming verifier of this parameter set.
            pub type MessageVerifier<'a> = crate::MessageVerifier<'a, $set>;

            /// Verifying key size in bytes, pkEncode (`32 + 320k`).
            pub const VERIFYING_KEY_SIZE: usize = $set::VK_SIZE;
            /// Signing key size in bytes, skEncode (`128 + 32((k + l)·bitlen(2η) + 13k)`).
            pub const SIGNING_KEY_SIZE: usize = $set::SK_SIZE;
            /// Signature size in bytes, sigEncode (`λ/4 + 32l(1 + bitlen(γ1 − 1)) + ω + k`).
            pub const SIGNATURE_SIZE: usize = $set::SIG_SIZE;
            /// Size in bytes of the key's DER SubjectPublicKeyInfo (RFC 9881 §4):
            /// an `out` of this size fits `VerifyingKey::to_spki_der`
            /// (feature `pkcs8`); every encoding has exactly this size.
            pub const PUBLIC_KEY_DER_MAX_SIZE: usize = crate::spki_der_size(VERIFYING_KEY_SIZE);
            /// Size in bytes of the largest DER PKCS#8 private key (RFC 9881 §6,
            /// the `both` form): an `out` of this size fits
            /// `SigningKey::to_private_key_der` in every form (feature `pkcs8`).
            pub const PRIVATE_KEY_DER_MAX_SIZE: usize =
                crate::private_key_der_max_size(SEED_SIZE, SIGNING_KEY_SIZE);

            /// `ML-DSA.KeyGen` (FIPS 204 Algorithm 1): one 32-byte draw ξ.
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a hardware or memory fault, never an input).
            pub fn generate<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> (SigningKey, VerifyingKey) {
                crate::generate::<$set, R>(rng)
            }

            /// `ML-DSA.KeyGen_internal(ξ)` (FIPS 204 Algorithm 6).
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a hardware or memory fault, never an input).
            pub fn generate_deterministic(xi: &[u8; SEED_SIZE]) -> (SigningKey, VerifyingKey) {
                crate::generate_deterministic::<$set>(xi)
            }

            /// The known-answer self-tests of this parameter set (feature
            /// `self-test`; [`crate::self_test`]): key generation, hedged and
            /// deterministic signing, verification (accept and reject).
            ///
            /// # Errors
            /// [`Error::SelfTest`] if an output differs from its known answer
            /// (a faulty implementation or hardware: do not use the crate).
            #[cfg(feature = "self-test")]
            pub fn self_test() -> Result<(), Error> {
                crate::self_test::self_test::<$set>()
            }

            impl From<Signature> for [u8; SIGNATURE_SIZE] {
                fn from(sig: Signature) -> Self {
                    *sig.as_bytes()
                }
            }
        }
    };
}

parameter_set_module!(
    /// ML-DSA-44 (FIPS 204 Table 1: `k = 4`, `l = 4`, `η = 2`, `γ2 = (q − 1)/88`), security category 2.
    ml_dsa_44, "ml_dsa_44", MlDsa44
);
parameter_set_module!(
    /// ML-DSA-65 (FIPS 204 Table 1: `k = 6`, `l = 5`, `η = 4`, `γ2 = (q − 1)/32`), security category 3.
    ml_dsa_65, "ml_dsa_65", MlDsa65
);
parameter_set_module!(
    /// ML-DSA-87 (FIPS 204 Table 1: `k = 8`, `l = 7`, `η = 2`, `γ2 = (q − 1)/32`), security category 5.
    ml_dsa_87, "ml_dsa_87", MlDsa87
);
