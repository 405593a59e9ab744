#![no_std]
#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "simd"), forbid(unsafe_code))]
#![cfg_attr(feature = "simd", deny(unsafe_code))]
#![allow(non_snake_case, reason = "FIPS 203 variable names")]
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
        reason = "tests: oracles use plain integer arithmetic on public values"
    )
)]

mod arch;
#[cfg(feature = "pkcs8")]
mod asn1;
mod encode;
mod error;
mod field;
mod hash;
mod kem;
mod kpke;
#[cfg(feature = "kyber-r3")]
pub mod kyber_r3;
mod ntt;
mod params;
mod poly;
mod sample;
#[cfg(feature = "self-test")]
pub mod self_test;
#[cfg(feature = "kem")]
mod traits;
mod types;
mod zeta;

#[cfg(feature = "pkcs8")]
pub use asn1::{ML_KEM_512_OID, ML_KEM_768_OID, ML_KEM_1024_OID, PrivateKeyForm, algorithm_oid};
pub use error::{Error, Object};
pub use params::{ByteArray, MlKem512, MlKem768, MlKem1024, ParameterSet};
pub use types::{
    Ciphertext, DecapsulationKey, EncapsulationKey, SEED_SIZE, SHARED_SECRET_SIZE, SharedSecret,
    generate, generate_deterministic, try_generate,
};
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
/// functions, so `ml_kem_768::generate(&mut rng)` needs no type parameters.
macro_rules! parameter_set_module {
    ($(#[$doc:meta])* $module:ident, $feature:literal, $set:ident) => {
        $(#[$doc])*
        #[cfg(feature = $feature)]
        pub mod $module {
            use rand_core::{CryptoRng, TryCryptoRng};

            use crate::params::{ct_size, dk_size, ek_size, ParameterSet};
            pub use crate::params::$set;
            pub use crate::{Error, SharedSecret, SEED_SIZE, SHARED_SECRET_SIZE};

            /// The parameter set's marker type (the same alias in every pqdr primitive crate).
            pub type Set = crate::$set;

            /// Encapsulation key size in bytes (`384k + 32`).
            pub const ENCAPSULATION_KEY_SIZE: usize = ek_size($set::K);
            /// Decapsulation key size in bytes, expanded form (`768k + 96`).
            pub const DECAPSULATION_KEY_SIZE: usize = dk_size($set::K);
            /// Ciphertext size in bytes (`32(d_u k + d_v)`).
            pub const CIPHERTEXT_SIZE: usize = ct_size($set::K, $set::DU, $set::DV);
            /// Size in bytes of the key's DER SubjectPublicKeyInfo (RFC 9935 §4):
            /// an `out` of this size fits `EncapsulationKey::to_spki_der`
            /// (feature `pkcs8`); every encoding has exactly this size.
            pub const PUBLIC_KEY_DER_MAX_SIZE: usize = crate::spki_der_size(ENCAPSULATION_KEY_SIZE);
            /// Size in bytes of the largest DER PKCS#8 private key (RFC 9935 §6,
            /// the `both` form): an `out` of this size fits
            /// `DecapsulationKey::to_private_key_der` in every form (feature `pkcs8`).
            pub const PRIVATE_KEY_DER_MAX_SIZE: usize =
                crate::private_key_der_max_size(SEED_SIZE, DECAPSULATION_KEY_SIZE);

            /// The encapsulation (public) key of this parameter set.
            pub type EncapsulationKey = crate::EncapsulationKey<$set>;
            /// The decapsulation (private) key of this parameter set.
            pub type DecapsulationKey = crate::DecapsulationKey<$set>;
            /// A ciphertext of this parameter set.
            pub type Ciphertext = crate::Ciphertext<$set>;

            /// `ML-KEM.KeyGen` (FIPS 203 Algorithm 19): one 64-byte draw `d ‖ z`.
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a hardware or memory fault, never an input).
            pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate::<$set, R>(rng)
            }

            /// [`generate`] with a fallible RNG.
            ///
            /// # Errors
            /// The RNG's error, if it fails.
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a fault; the error type is the RNG's).
            pub fn try_generate<R: TryCryptoRng + ?Sized>(
                rng: &mut R,
            ) -> Result<(DecapsulationKey, EncapsulationKey), R::Error> {
                crate::try_generate::<$set, R>(rng)
            }

            /// `ML-KEM.KeyGen_internal(d, z)` (FIPS 203 Algorithm 16).
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a hardware or memory fault, never an input).
            pub fn generate_deterministic(d: &[u8; 32], z: &[u8; 32]) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate_deterministic::<$set>(d, z)
            }

            /// The known-answer self-tests of this parameter set (feature
            /// `self-test`; [`crate::self_test`]): key generation,
            /// encapsulation, decapsulation and implicit rejection.
            ///
            /// # Errors
            /// [`Error::SelfTest`] if an output differs from its known answer
            /// (a faulty implementation or hardware: do not use the crate).
            #[cfg(feature = "self-test")]
            pub fn self_test() -> Result<(), Error> {
                crate::self_test::self_test::<$set>()
            }
        }
    };
}

parameter_set_module!(
    /// ML-KEM-512 (FIPS 203 Table 2: `k = 2`, `η₁ = 3`, `η₂ = 2`, `d_u = 10`, `d_v = 4`).
    ml_kem_512, "ml_kem_512", MlKem512
);
parameter_set_module!(
    /// ML-KEM-768 (FIPS 203 Table 2: `k = 3`, `η₁ = η₂ = 2`, `d_u = 10`, `d_v = 4`).
    ml_kem_768, "ml_kem_768", MlKem768
);
parameter_set_module!(
    /// ML-KEM-1024 (FIPS 203 Table 2: `k = 4`, `η₁ = η₂ = 2`, `d_u = 11`, `d_v = 5`).
    ml_kem_1024, "ml_kem_1024", MlKem1024
);
