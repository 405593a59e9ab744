#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]
#![allow(non_snake_case)]

mod ct;
mod encode;
mod error;
mod expanded;
mod field;
mod key;
mod keygen;
mod mu;
mod params;
mod poly;
mod prehash;
mod rounding;
mod sample;
mod sign;
mod stream;
#[cfg(feature = "signature")]
mod traits;
mod verify;
mod xof;

pub use error::Error;
pub use expanded::{ExpandedSigningKey, ExpandedVerifyingKey};
pub use key::{Signature, SigningKey, VerifyingKey, generate, generate_deterministic};
pub use params::{ByteArray, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
pub use prehash::PreHash;
pub use rand_core;
#[cfg(feature = "signature")]
pub use signature;
pub use stream::{MessageSigner, MessageVerifier};

macro_rules! parameter_set_module {
    ($(#[$doc:meta])* $module:ident, $P:ident, $feature:literal) => {
        $(#[$doc])*
        #[cfg(feature = $feature)]
        pub mod $module {
            use crate::params::ParameterSet;
            pub use crate::params::$P;
            pub use crate::{Error, PreHash};

            /// Signing key of this parameter set.
            pub type SigningKey = crate::SigningKey<$P>;
            /// Verifying (public) key of this parameter set.
            pub type VerifyingKey = crate::VerifyingKey<$P>;
            /// Signing key with Â and the secret NTTs precomputed.
            pub type ExpandedSigningKey = crate::ExpandedSigningKey<$P>;
            /// Verifying key with Â precomputed.
            pub type ExpandedVerifyingKey = crate::ExpandedVerifyingKey<$P>;
            /// Signature of this parameter set.
            pub type Signature = crate::Signature<$P>;
            /// Streaming signer of this parameter set.
            pub type MessageSigner<'a> = crate::MessageSigner<'a, $P>;
            /// Streaming verifier of this parameter set.
            pub type MessageVerifier<'a> = crate::MessageVerifier<'a, $P>;

            /// Bytes of an encoded public key.
            pub const VERIFYING_KEY_SIZE: usize = <$P as ParameterSet>::VK_SIZE;
            /// Bytes of an encoded (expanded) signing key.
            pub const SIGNING_KEY_SIZE: usize = <$P as ParameterSet>::SK_SIZE;
            /// Bytes of a signature.
            pub const SIGNATURE_SIZE: usize = <$P as ParameterSet>::SIG_SIZE;
            /// Bytes of the seed ξ.
            pub const SEED_SIZE: usize = 32;

            /// ML-DSA.KeyGen (FIPS 204 Algorithm 1).
            pub fn generate<R: rand_core::CryptoRng + ?Sized>(rng: &mut R) -> (SigningKey, VerifyingKey) {
                crate::generate::<$P, R>(rng)
            }

            /// ML-DSA.KeyGen_internal(ξ) (FIPS 204 Algorithm 6).
            pub fn generate_deterministic(xi: &[u8; 32]) -> (SigningKey, VerifyingKey) {
                crate::generate_deterministic::<$P>(xi)
            }

            impl From<Signature> for [u8; SIGNATURE_SIZE] {
                fn from(sig: Signature) -> Self {
                    *sig.as_bytes()
                }
            }

            #[cfg(feature = "signature")]
            impl signature::SignatureEncoding for Signature {
                type Repr = [u8; SIGNATURE_SIZE];
            }
        }
    };
}

parameter_set_module!(
    /// ML-DSA-44 (FIPS 204, security category 2).
    ml_dsa_44, MlDsa44, "ml_dsa_44"
);
parameter_set_module!(
    /// ML-DSA-65 (FIPS 204, security category 3).
    ml_dsa_65, MlDsa65, "ml_dsa_65"
);
parameter_set_module!(
    /// ML-DSA-87 (FIPS 204, security category 5).
    ml_dsa_87, MlDsa87, "ml_dsa_87"
);
