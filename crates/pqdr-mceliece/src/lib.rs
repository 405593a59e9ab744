#![no_std]
#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "simd"), forbid(unsafe_code))]
#![cfg_attr(feature = "simd", deny(unsafe_code))]
#![allow(
    clippy::cast_possible_truncation,
    reason = "field elements (m <= 13 bits) and indices below 2^16 are packed into u16/u32 words throughout; each narrowing keeps exactly the bits it means to"
)]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::integer_division_remainder_used,
        clippy::cast_sign_loss,
        clippy::missing_panics_doc,
        reason = "tests"
    )
)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod arch;
#[cfg(feature = "pkcs8")]
mod asn1;
mod benes;
mod bm;
mod controlbits;
mod ct;
mod decrypt;
mod encrypt;
mod error;
mod fft;
mod gf;
mod kem;
mod params;
mod pk_gen;
#[cfg(feature = "self-test")]
pub mod self_test;
mod sk_gen;
mod sort;
#[cfg(test)]
mod test_util;
#[cfg(feature = "kem")]
mod traits;
mod types;
mod vec;

#[cfg(feature = "pkcs8")]
pub use asn1::{algorithm_oid, public_key_from_spki_der, public_key_to_spki_der};
pub use error::{Error, Object};
pub use params::{Buf, ParameterSet};
#[cfg(feature = "kem")]
pub use traits::{KemSizes, Keypair};
pub use types::{
    Ciphertext, DecapsulationKey, PreparedDecapsulationKey, SharedSecret, StreamingEncapsulation,
    decapsulate, encapsulate_into, generate_deterministic_into, generate_into,
    validate_encapsulation_key,
};
#[cfg(feature = "alloc")]
pub use types::{EncapsulationKey, generate, generate_deterministic};
/// The RustCrypto `pkcs8` and `spki` crates (feature `pkcs8`), for their
/// `DecodePrivateKey` / `EncodePrivateKey` / `DecodePublicKey` /
/// `EncodePublicKey` traits.
#[cfg(feature = "pkcs8")]
pub use {pkcs8, spki};

/// Size of the shared secret in bytes.
pub const SHARED_SECRET_SIZE: usize = 32;

/// One module per parameter set: the marker alias `Set`, the sizes, type
/// aliases and the key-generation, encapsulation and decapsulation functions
/// on arrays of the set's sizes, so `mceliece348864::generate(&mut rng)`
/// needs no type parameters. Also re-exports the marker type at the root.
macro_rules! parameter_set_module {
    ($(#[$doc:meta])* $module:ident, $feature:literal, $set:ident) => {
        #[cfg(feature = $feature)]
        pub use params::$set;

        $(#[$doc])*
        #[cfg(feature = $feature)]
        pub mod $module {
            use crate::params::Derived;
            use rand_core::CryptoRng;

            /// The parameter set's marker type (the same alias in every pqdr primitive crate).
            pub type Set = crate::$set;
            pub use crate::{Error, SHARED_SECRET_SIZE, SharedSecret};

            /// Public-key size in bytes: mt rows of ceil((n - mt) / 8) bytes (Classic McEliece spec §3.1).
            pub const ENCAPSULATION_KEY_SIZE: usize = <Set as Derived>::PK_BYTES;
            /// Secret-key size in bytes: delta, c, g, the control bits, s (Classic McEliece spec §3.3).
            pub const DECAPSULATION_KEY_SIZE: usize = <Set as Derived>::SK_BYTES;
            /// Ciphertext size in bytes: C0, plus the 32-byte C1 for the `pc` sets (Classic McEliece spec §3.2).
            pub const CIPHERTEXT_SIZE: usize = <Set as Derived>::CT_BYTES;
            /// Public key (boxed).
            #[cfg(feature = "alloc")]
            pub type EncapsulationKey = crate::EncapsulationKey<Set>;
            /// Secret key.
            pub type DecapsulationKey = crate::DecapsulationKey<Set>;
            /// Secret key with the key-only part of decoding precomputed.
            pub type PreparedDecapsulationKey = crate::PreparedDecapsulationKey<Set>;
            /// Ciphertext.
            pub type Ciphertext = crate::Ciphertext<Set>;
            /// Encapsulation reading the public key in pieces.
            pub type StreamingEncapsulation = crate::StreamingEncapsulation<Set>;
            /// Secret key with its public key (the `kem` traits' decapsulation key).
            #[cfg(feature = "kem")]
            pub type Keypair = crate::Keypair<Set>;

            /// KeyGen on the heap (Classic McEliece spec §8.1).
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a hardware or memory fault, never an input).
            #[cfg(feature = "alloc")]
            pub fn generate<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate::<Set, R>(rng)
            }
            /// KeyGen on the heap (same as [`generate`]: the public key is boxed directly).
            ///
            /// # Panics
            /// With the feature `self-test`, as [`generate`].
            #[cfg(feature = "alloc")]
            pub fn generate_boxed<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate::<Set, R>(rng)
            }
            /// KeyGen on the heap from the 32-byte seed delta (Classic McEliece spec §8.1).
            ///
            /// # Panics
            /// With the feature `self-test`, as [`generate`].
            #[cfg(feature = "alloc")]
            pub fn generate_deterministic(seed: &[u8; 32]) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate_deterministic::<Set>(seed)
            }
            /// KeyGen into caller buffers (Classic McEliece spec §8.1).
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a hardware or memory fault, never an input).
            pub fn generate_into<R: CryptoRng + ?Sized>(
                pk: &mut [u8; ENCAPSULATION_KEY_SIZE],
                sk: &mut [u8; DECAPSULATION_KEY_SIZE],
                rng: &mut R,
            ) {
                crate::generate_into::<Set, R>(pk, sk, rng)
            }
            /// KeyGen into caller buffers from the 32-byte seed delta (Classic McEliece spec §8.1).
            ///
            /// # Panics
            /// With the feature `self-test`, as [`generate_into`].
            pub fn generate_deterministic_into(
                pk: &mut [u8; ENCAPSULATION_KEY_SIZE],
                sk: &mut [u8; DECAPSULATION_KEY_SIZE],
                seed: &[u8; 32],
            ) {
                crate::generate_deterministic_into::<Set>(pk, sk, seed)
            }
            /// Encap into a caller buffer (Classic McEliece spec §8.2).
            pub fn encapsulate_into<R: CryptoRng + ?Sized>(
                pk: &[u8; ENCAPSULATION_KEY_SIZE],
                ct: &mut [u8; CIPHERTEXT_SIZE],
                rng: &mut R,
            ) -> SharedSecret {
                crate::encapsulate_into::<Set, R>(pk, ct, rng)
            }
            /// Decap from caller buffers, implicit rejection (Classic McEliece spec §8.3).
            pub fn decapsulate(
                sk: &[u8; DECAPSULATION_KEY_SIZE],
                ct: &[u8; CIPHERTEXT_SIZE],
            ) -> SharedSecret {
                crate::decapsulate::<Set>(sk, ct)
            }

            /// The known-answer self-tests of this parameter set (feature
            /// `self-test`; [`crate::self_test`]): key generation,
            /// encapsulation, decapsulation and implicit rejection. One key
            /// generation per call; the public key is held on the heap.
            ///
            /// # Errors
            /// [`Error::SelfTest`] if an output differs from its known answer
            /// (a faulty implementation or hardware: do not use the crate).
            #[cfg(all(feature = "self-test", feature = "alloc"))]
            pub fn self_test() -> Result<(), Error> {
                crate::self_test::self_test::<Set>()
            }

            /// [`self_test`](crate::self_test::self_test) in caller buffers
            /// (overwritten with the known-answer key pair).
            ///
            /// # Errors
            /// [`Error::SelfTest`] if an output differs from its known answer.
            #[cfg(feature = "self-test")]
            pub fn self_test_into(
                pk: &mut [u8; ENCAPSULATION_KEY_SIZE],
                sk: &mut [u8; DECAPSULATION_KEY_SIZE],
            ) -> Result<(), Error> {
                crate::self_test::self_test_into::<Set>(pk, sk)
            }
        }
    };
}

parameter_set_module!(
    /// `mceliece348864` (Classic McEliece spec §7: m = 12, n = 3488, t = 64).
    mceliece348864, "mceliece348864", Mceliece348864
);
parameter_set_module!(
    /// `mceliece348864f` (Classic McEliece spec §7: m = 12, n = 3488, t = 64, semi-systematic key generation).
    mceliece348864f, "mceliece348864f", Mceliece348864f
);
parameter_set_module!(
    /// `mceliece460896` (Classic McEliece spec §7: m = 13, n = 4608, t = 96).
    mceliece460896, "mceliece460896", Mceliece460896
);
parameter_set_module!(
    /// `mceliece460896f` (Classic McEliece spec §7: m = 13, n = 4608, t = 96, semi-systematic key generation).
    mceliece460896f, "mceliece460896f", Mceliece460896f
);
parameter_set_module!(
    /// `mceliece6688128` (Classic McEliece spec §7: m = 13, n = 6688, t = 128).
    mceliece6688128, "mceliece6688128", Mceliece6688128
);
parameter_set_module!(
    /// `mceliece6688128f` (Classic McEliece spec §7: m = 13, n = 6688, t = 128, semi-systematic key generation).
    mceliece6688128f, "mceliece6688128f", Mceliece6688128f
);
parameter_set_module!(
    /// `mceliece6960119` (Classic McEliece spec §7: m = 13, n = 6960, t = 119).
    mceliece6960119, "mceliece6960119", Mceliece6960119
);
parameter_set_module!(
    /// `mceliece6960119f` (Classic McEliece spec §7: m = 13, n = 6960, t = 119, semi-systematic key generation).
    mceliece6960119f, "mceliece6960119f", Mceliece6960119f
);
parameter_set_module!(
    /// `mceliece8192128` (Classic McEliece spec §7: m = 13, n = 8192, t = 128).
    mceliece8192128, "mceliece8192128", Mceliece8192128
);
parameter_set_module!(
    /// `mceliece8192128f` (Classic McEliece spec §7: m = 13, n = 8192, t = 128, semi-systematic key generation).
    mceliece8192128f, "mceliece8192128f", Mceliece8192128f
);
parameter_set_module!(
    /// `mceliece348864pc`: `mceliece348864` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece348864pc, "mceliece348864pc", Mceliece348864pc
);
parameter_set_module!(
    /// `mceliece348864pcf`: `mceliece348864f` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece348864pcf, "mceliece348864pcf", Mceliece348864pcf
);
parameter_set_module!(
    /// `mceliece460896pc`: `mceliece460896` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece460896pc, "mceliece460896pc", Mceliece460896pc
);
parameter_set_module!(
    /// `mceliece460896pcf`: `mceliece460896f` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece460896pcf, "mceliece460896pcf", Mceliece460896pcf
);
parameter_set_module!(
    /// `mceliece6688128pc`: `mceliece6688128` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece6688128pc, "mceliece6688128pc", Mceliece6688128pc
);
parameter_set_module!(
    /// `mceliece6688128pcf`: `mceliece6688128f` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece6688128pcf, "mceliece6688128pcf", Mceliece6688128pcf
);
parameter_set_module!(
    /// `mceliece6960119pc`: `mceliece6960119` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece6960119pc, "mceliece6960119pc", Mceliece6960119pc
);
parameter_set_module!(
    /// `mceliece6960119pcf`: `mceliece6960119f` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece6960119pcf, "mceliece6960119pcf", Mceliece6960119pcf
);
parameter_set_module!(
    /// `mceliece8192128pc`: `mceliece8192128` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece8192128pc, "mceliece8192128pc", Mceliece8192128pc
);
parameter_set_module!(
    /// `mceliece8192128pcf`: `mceliece8192128f` with plaintext confirmation (ISO draft: C1 = H(2, e)).
    mceliece8192128pcf, "mceliece8192128pcf", Mceliece8192128pcf
);
