#![no_std]
#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "simd"), forbid(unsafe_code))]
#![cfg_attr(feature = "simd", deny(unsafe_code))]
// With every parameter set disabled the generic core is unused.
#![cfg_attr(
    not(any(
        feature = "sntrup653",
        feature = "sntrup761",
        feature = "sntrup857",
        feature = "sntrup953",
        feature = "sntrup1013",
        feature = "sntrup1277"
    )),
    allow(
        dead_code,
        unused_macros,
        unused_imports,
        unreachable_pub,
        reason = "no parameter set enabled"
    )
)]
#![cfg_attr(
    test,
    allow(
        clippy::integer_division_remainder_used,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap,
        reason = "tests: arithmetic on public test values"
    )
)]
#[cfg(test)]
extern crate alloc;
#[cfg(test)]
extern crate std;

mod arch;
mod arith;
#[cfg(feature = "pkcs8")]
mod asn1;
mod ct;
mod divsteps;
mod encode;
mod error;
mod hash;
mod kem;
mod mult;
mod params;
mod recip;
mod sample;
#[cfg(feature = "self-test")]
pub mod self_test;
mod sha512;
mod sntrup_core;
#[cfg(test)]
mod test_util;
#[cfg(feature = "kem")]
mod traits;
mod types;
mod wipe;

#[cfg(feature = "pkcs8")]
pub use asn1::{
    SNTRUP653_OID, SNTRUP761_OID, SNTRUP857_OID, SNTRUP953_OID, SNTRUP1013_OID, SNTRUP1277_OID,
    algorithm_oid,
};
pub use error::{Error, Object};
#[cfg(feature = "sntrup653")]
pub use params::Sntrup653;
#[cfg(feature = "sntrup761")]
pub use params::Sntrup761;
#[cfg(feature = "sntrup857")]
pub use params::Sntrup857;
#[cfg(feature = "sntrup953")]
pub use params::Sntrup953;
#[cfg(feature = "sntrup1013")]
pub use params::Sntrup1013;
#[cfg(feature = "sntrup1277")]
pub use params::Sntrup1277;
pub use params::{ByteArray, ParameterSet};
pub use rand_core;
pub use types::{
    Ciphertext, DecapsulationKey, EncapsulationKey, PreparedDecapsulationKey, SHARED_SECRET_SIZE,
    SharedSecret,
};
/// The RustCrypto `pkcs8` and `spki` crates (feature `pkcs8`), for their
/// `DecodePrivateKey` / `EncodePrivateKey` / `DecodePublicKey` /
/// `EncodePublicKey` traits.
#[cfg(feature = "pkcs8")]
pub use {pkcs8, spki};

/// One module per parameter set: type aliases, sizes and the key-generation
/// functions, so `sntrup761::generate(&mut rng)` needs no type parameters.
macro_rules! parameter_set_module {
    ($(#[$doc:meta])* $module:ident, $feature:literal, $marker:ident) => {
        $(#[$doc])*
        #[cfg(feature = $feature)]
        pub mod $module {
            use rand_core::CryptoRng;

            use crate::{ByteArray, ParameterSet};
            pub use crate::{Error, SHARED_SECRET_SIZE, SharedSecret};

            /// The marker type of this parameter set.
            pub type Set = crate::$marker;
            /// Encapsulation (public) key.
            pub type EncapsulationKey = crate::EncapsulationKey<Set>;
            /// Decapsulation (secret) key.
            pub type DecapsulationKey = crate::DecapsulationKey<Set>;
            /// Ciphertext.
            pub type Ciphertext = crate::Ciphertext<Set>;

            /// Encapsulation-key length (`Rq_bytes`).
            pub const ENCAPSULATION_KEY_SIZE: usize =
                <<Set as ParameterSet>::EncapsulationKeyBytes as ByteArray>::LEN;
            /// Decapsulation-key length.
            pub const DECAPSULATION_KEY_SIZE: usize =
                <<Set as ParameterSet>::DecapsulationKeyBytes as ByteArray>::LEN;
            /// Ciphertext length (`Rounded_bytes + 32`).
            pub const CIPHERTEXT_SIZE: usize =
                <<Set as ParameterSet>::CiphertextBytes as ByteArray>::LEN;
            /// Length of a `Small_encode`d polynomial (`Small_bytes`): the input of
            /// [`EncapsulationKey::encapsulate_deterministic`] and of [`generate_deterministic`].
            pub const INPUTS_SIZE: usize = <<Set as ParameterSet>::InputBytes as ByteArray>::LEN;

            /// `KEM_KeyGen` (NTRU Prime spec §2.3, key generation); see
            /// [`crate::DecapsulationKey::generate`].
            ///
            /// # Panics
            /// With the feature `self-test`, if the pair-wise consistency
            /// test fails (a hardware or memory fault, never an input).
            pub fn generate<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> (DecapsulationKey, EncapsulationKey) {
                DecapsulationKey::generate(rng)
            }

            /// `KEM_KeyGen` (NTRU Prime spec §2.3) from `Small_encode(f)`, `Small_encode(g)` and rho;
            /// see [`crate::DecapsulationKey::generate_deterministic`].
            ///
            /// # Errors
            /// [`Error::InvalidInput`] if f is not short, g is not invertible in
            /// R/3, or an encoding is invalid; with the feature `self-test`,
            /// [`Error::PairwiseConsistency`] on a fault.
            pub fn generate_deterministic(
                f_enc: &[u8; INPUTS_SIZE],
                g_enc: &[u8; INPUTS_SIZE],
                rho: &[u8; INPUTS_SIZE],
            ) -> Result<(DecapsulationKey, EncapsulationKey), Error> {
                DecapsulationKey::generate_deterministic(f_enc, g_enc, rho)
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
                crate::self_test::self_test::<Set>()
            }
        }
    };
}

parameter_set_module!(
    /// `sntrup653`: Streamlined NTRU Prime with p = 653, q = 4621, w = 288 (NTRU Prime spec §3).
    sntrup653, "sntrup653", Sntrup653
);
parameter_set_module!(
    /// `sntrup761`: Streamlined NTRU Prime with p = 761, q = 4591, w = 286 (NTRU Prime spec §3.5).
    sntrup761, "sntrup761", Sntrup761
);
parameter_set_module!(
    /// `sntrup857`: Streamlined NTRU Prime with p = 857, q = 5167, w = 322 (NTRU Prime spec §3).
    sntrup857, "sntrup857", Sntrup857
);
parameter_set_module!(
    /// `sntrup953`: Streamlined NTRU Prime with p = 953, q = 6343, w = 396 (NTRU Prime spec §3).
    sntrup953, "sntrup953", Sntrup953
);
parameter_set_module!(
    /// `sntrup1013`: Streamlined NTRU Prime with p = 1013, q = 7177, w = 448 (NTRU Prime spec §3).
    sntrup1013, "sntrup1013", Sntrup1013
);
parameter_set_module!(
    /// `sntrup1277`: Streamlined NTRU Prime with p = 1277, q = 7879, w = 492 (NTRU Prime spec §3).
    sntrup1277, "sntrup1277", Sntrup1277
);
