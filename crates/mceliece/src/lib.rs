#![no_std]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
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

mod benes;
mod bm;
mod controlbits;
mod ct;
mod decrypt;
mod encrypt;
mod fft;
mod gf;
mod hash;
mod kem;
#[cfg(feature = "kem")]
pub mod kem_api;
mod params;
mod pk_gen;
mod sk_gen;
mod sort;
mod types;
mod vec;

pub use params::{Buf, ParameterSet};
pub use types::{
    Ciphertext, DecapsulationKey, PreparedDecapsulationKey, SharedSecret, StreamingEncapsulation,
    decapsulate, encapsulate_into, generate_deterministic_into, generate_into,
    validate_encapsulation_key,
};
#[cfg(feature = "alloc")]
pub use types::{EncapsulationKey, generate, generate_deterministic};

/// Input had the wrong length or failed a public validity check. Carries no detail on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error;

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("invalid Classic McEliece input")
    }
}
impl core::error::Error for Error {}

/// Size of the shared secret in bytes.
pub const SHARED_SECRET_SIZE: usize = 32;

macro_rules! set_module {
    ($feat:literal, $module:ident, $ty:ident) => {
        #[cfg(feature = $feat)]
        pub use params::$ty;

        #[cfg(feature = $feat)]
        #[doc = concat!("The `", $feat, "` parameter set.")]
        pub mod $module {
            use crate::params::Derived;
            use rand_core::CryptoRng;

            /// The marker type of this set.
            pub type Set = crate::$ty;
            /// Public-key size in bytes.
            pub const ENCAPSULATION_KEY_SIZE: usize = <Set as Derived>::PK_BYTES;
            /// Secret-key size in bytes.
            pub const DECAPSULATION_KEY_SIZE: usize = <Set as Derived>::SK_BYTES;
            /// Ciphertext size in bytes.
            pub const CIPHERTEXT_SIZE: usize = <Set as Derived>::CT_BYTES;
            /// Public key.
            #[cfg(feature = "alloc")]
            pub type EncapsulationKey = crate::EncapsulationKey<Set>;
            /// Secret key.
            pub type DecapsulationKey = crate::DecapsulationKey<Set>;
            /// Secret key with the key-only part of decoding precomputed.
            pub type PreparedDecapsulationKey = crate::PreparedDecapsulationKey<Set>;
            /// Ciphertext.
            pub type Ciphertext = crate::Ciphertext<Set>;

            /// KeyGen on the heap.
            #[cfg(feature = "alloc")]
            pub fn generate<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate::<Set, R>(rng)
            }
            /// KeyGen on the heap (same as [`generate`]: the public key is boxed directly).
            #[cfg(feature = "alloc")]
            pub fn generate_boxed<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate::<Set, R>(rng)
            }
            /// KeyGen on the heap from the 32-byte seed.
            #[cfg(feature = "alloc")]
            pub fn generate_deterministic(seed: &[u8; 32]) -> (DecapsulationKey, EncapsulationKey) {
                crate::generate_deterministic::<Set>(seed)
            }
            /// KeyGen into caller buffers.
            pub fn generate_into<R: CryptoRng + ?Sized>(
                pk: &mut [u8; ENCAPSULATION_KEY_SIZE],
                sk: &mut [u8; DECAPSULATION_KEY_SIZE],
                rng: &mut R,
            ) {
                crate::generate_into::<Set, R>(pk, sk, rng)
            }
            /// KeyGen into caller buffers from the 32-byte seed.
            pub fn generate_deterministic_into(
                pk: &mut [u8; ENCAPSULATION_KEY_SIZE],
                sk: &mut [u8; DECAPSULATION_KEY_SIZE],
                seed: &[u8; 32],
            ) {
                crate::generate_deterministic_into::<Set>(pk, sk, seed)
            }
            /// Encap into a caller buffer.
            pub fn encapsulate_into<R: CryptoRng + ?Sized>(
                pk: &[u8; ENCAPSULATION_KEY_SIZE],
                ct: &mut [u8; CIPHERTEXT_SIZE],
                rng: &mut R,
            ) -> crate::SharedSecret {
                crate::encapsulate_into::<Set, R>(pk, ct, rng)
            }
            /// Decap from caller buffers (implicit rejection).
            pub fn decapsulate(
                sk: &[u8; DECAPSULATION_KEY_SIZE],
                ct: &[u8; CIPHERTEXT_SIZE],
            ) -> crate::SharedSecret {
                crate::decapsulate::<Set>(sk, ct)
            }
        }
    };
}

set_module!("mceliece348864", mceliece348864, Mceliece348864);
set_module!("mceliece348864f", mceliece348864f, Mceliece348864f);
set_module!("mceliece460896", mceliece460896, Mceliece460896);
set_module!("mceliece460896f", mceliece460896f, Mceliece460896f);
set_module!("mceliece6688128", mceliece6688128, Mceliece6688128);
set_module!("mceliece6688128f", mceliece6688128f, Mceliece6688128f);
set_module!("mceliece6960119", mceliece6960119, Mceliece6960119);
set_module!("mceliece6960119f", mceliece6960119f, Mceliece6960119f);
set_module!("mceliece8192128", mceliece8192128, Mceliece8192128);
set_module!("mceliece8192128f", mceliece8192128f, Mceliece8192128f);
set_module!("mceliece348864pc", mceliece348864pc, Mceliece348864pc);
set_module!("mceliece348864pcf", mceliece348864pcf, Mceliece348864pcf);
set_module!("mceliece460896pc", mceliece460896pc, Mceliece460896pc);
set_module!("mceliece460896pcf", mceliece460896pcf, Mceliece460896pcf);
set_module!("mceliece6688128pc", mceliece6688128pc, Mceliece6688128pc);
set_module!("mceliece6688128pcf", mceliece6688128pcf, Mceliece6688128pcf);
set_module!("mceliece6960119pc", mceliece6960119pc, Mceliece6960119pc);
set_module!("mceliece6960119pcf", mceliece6960119pcf, Mceliece6960119pcf);
set_module!("mceliece8192128pc", mceliece8192128pc, Mceliece8192128pc);
set_module!("mceliece8192128pcf", mceliece8192128pcf, Mceliece8192128pcf);
