#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]
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
    allow(dead_code, unused_macros, unused_imports, unreachable_pub)
)]
#[cfg(test)]
extern crate alloc;
#[cfg(test)]
extern crate std;

mod arith;
mod ct;
mod encode;
mod kem;
mod mult;
mod recip;
mod sample;
mod sntrup_core;
mod types;

#[cfg(feature = "kem")]
mod kem_traits;

pub use rand_core;
pub use types::{
    ByteArray, Ciphertext, DecapsulationKey, EncapsulationKey, Error, SHARED_SECRET_SIZE,
    SharedSecret,
};

mod sealed {
    pub trait Sealed {}
}

/// A Streamlined NTRU Prime parameter set (implemented by the marker types
/// [`Sntrup653`] … [`Sntrup1277`]; sealed).
///
/// The `#[doc(hidden)]` methods connect the generic key types to the one
/// const-generic implementation; use the key types instead.
pub trait ParameterSet:
    Copy + Clone + core::fmt::Debug + Default + Eq + Ord + Send + Sync + 'static + sealed::Sealed
{
    /// Name, e.g. `"sntrup761"`.
    const NAME: &'static str;
    /// Degree p (prime; the ring is Z\[x\]/(x^p - x - 1)).
    const P: usize;
    /// Modulus q (prime).
    const Q: u16;
    /// Weight w of short polynomials.
    const W: usize;
    /// `[u8; ENCAPSULATION_KEY_SIZE]`.
    type EncapsulationKeyBytes: ByteArray;
    /// `[u8; DECAPSULATION_KEY_SIZE]`.
    type DecapsulationKeyBytes: ByteArray;
    /// `[u8; CIPHERTEXT_SIZE]`.
    type CiphertextBytes: ByteArray;
    /// `[u8; INPUTS_SIZE]`: a `Small_encode`d polynomial (`r_enc`, `rho`).
    type InputBytes: ByteArray;

    #[doc(hidden)]
    fn keypair<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
        rng: &mut R,
        pk: &mut Self::EncapsulationKeyBytes,
        sk: &mut Self::DecapsulationKeyBytes,
    ) -> Result<(), R::Error>;
    #[doc(hidden)]
    fn keypair_deterministic(
        f: &Self::InputBytes,
        g: &Self::InputBytes,
        rho: &Self::InputBytes,
        pk: &mut Self::EncapsulationKeyBytes,
        sk: &mut Self::DecapsulationKeyBytes,
    ) -> Option<()>;
    #[doc(hidden)]
    fn encap<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
        rng: &mut R,
        pk: &Self::EncapsulationKeyBytes,
        ct: &mut Self::CiphertextBytes,
        ss: &mut [u8; SHARED_SECRET_SIZE],
    ) -> Result<(), R::Error>;
    #[doc(hidden)]
    fn encap_deterministic(
        r_enc: &Self::InputBytes,
        pk: &Self::EncapsulationKeyBytes,
        ct: &mut Self::CiphertextBytes,
        ss: &mut [u8; SHARED_SECRET_SIZE],
    ) -> Option<()>;
    #[doc(hidden)]
    fn decap(
        ct: &Self::CiphertextBytes,
        sk: &Self::DecapsulationKeyBytes,
        ss: &mut [u8; SHARED_SECRET_SIZE],
    );
    #[doc(hidden)]
    fn sk_valid(sk: &Self::DecapsulationKeyBytes) -> bool;
}

/// Declares a marker type, its [`ParameterSet`] impl and its module.
macro_rules! variant {
    ($marker:ident, $module:ident, p = $p:literal, q = $q:literal, w = $w:literal) => {
        #[doc = concat!("Marker type for `", stringify!($module), "` (p = ", stringify!($p), ", q = ",
                    stringify!($q), ", w = ", stringify!($w), ").")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $marker;

        impl crate::sealed::Sealed for $marker {}

        impl crate::ParameterSet for $marker {
            const NAME: &'static str = stringify!($module);
            const P: usize = $p;
            const Q: u16 = $q;
            const W: usize = $w;
            type EncapsulationKeyBytes = [u8; crate::kem::pk_bytes($p, $q)];
            type DecapsulationKeyBytes = [u8; crate::kem::sk_bytes($p, $q)];
            type CiphertextBytes = [u8; crate::kem::ct_bytes($p, $q)];
            type InputBytes = [u8; ($p + 3) >> 2];

            fn keypair<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
                rng: &mut R,
                pk: &mut Self::EncapsulationKeyBytes,
                sk: &mut Self::DecapsulationKeyBytes,
            ) -> Result<(), R::Error> {
                crate::kem::keypair::<$p, $q, $w, BATCHED, R>(rng, pk, sk)
            }
            fn keypair_deterministic(
                f: &Self::InputBytes,
                g: &Self::InputBytes,
                rho: &Self::InputBytes,
                pk: &mut Self::EncapsulationKeyBytes,
                sk: &mut Self::DecapsulationKeyBytes,
            ) -> Option<()> {
                crate::kem::keypair_from_encodings::<$p, $q, $w>(f, g, rho, pk, sk)
            }
            fn encap<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
                rng: &mut R,
                pk: &Self::EncapsulationKeyBytes,
                ct: &mut Self::CiphertextBytes,
                ss: &mut [u8; crate::SHARED_SECRET_SIZE],
            ) -> Result<(), R::Error> {
                crate::kem::encap::<$p, $q, $w, BATCHED, R>(rng, pk, ct, ss)
            }
            fn encap_deterministic(
                r_enc: &Self::InputBytes,
                pk: &Self::EncapsulationKeyBytes,
                ct: &mut Self::CiphertextBytes,
                ss: &mut [u8; crate::SHARED_SECRET_SIZE],
            ) -> Option<()> {
                let r = crate::kem::decode_short::<$p, $w>(r_enc)?;
                crate::kem::encap_with::<$p, $q>(&r, pk, ct, ss);
                Some(())
            }
            fn decap(
                ct: &Self::CiphertextBytes,
                sk: &Self::DecapsulationKeyBytes,
                ss: &mut [u8; crate::SHARED_SECRET_SIZE],
            ) {
                crate::kem::decap::<$p, $q, $w>(ct, sk, ss)
            }
            fn sk_valid(sk: &Self::DecapsulationKeyBytes) -> bool {
                crate::kem::sk_valid::<$p, $q>(sk)
            }
        }

        #[doc = concat!("`", stringify!($module), "`: Streamlined NTRU Prime with p = ",
                    stringify!($p), ", q = ", stringify!($q), ", w = ", stringify!($w), ".")]
        pub mod $module {
            pub use crate::{Error, SHARED_SECRET_SIZE, SharedSecret};
            use rand_core::CryptoRng;

            /// The marker type of this parameter set.
            pub type Set = super::$marker;
            /// Encapsulation (public) key.
            pub type EncapsulationKey = crate::EncapsulationKey<super::$marker>;
            /// Decapsulation (secret) key.
            pub type DecapsulationKey = crate::DecapsulationKey<super::$marker>;
            /// Ciphertext.
            pub type Ciphertext = crate::Ciphertext<super::$marker>;

            /// Encapsulation-key length (`Rq_bytes`).
            pub const ENCAPSULATION_KEY_SIZE: usize = crate::kem::pk_bytes($p, $q);
            /// Decapsulation-key length.
            pub const DECAPSULATION_KEY_SIZE: usize = crate::kem::sk_bytes($p, $q);
            /// Ciphertext length (`Rounded_bytes + 32`).
            pub const CIPHERTEXT_SIZE: usize = crate::kem::ct_bytes($p, $q);
            /// Length of a `Small_encode`d polynomial (`Small_bytes`): the input of
            /// [`EncapsulationKey::encapsulate_deterministic`] and of [`generate_deterministic`].
            pub const INPUTS_SIZE: usize = ($p + 3) >> 2;

            /// Key generation (`KEM_KeyGen`); see [`crate::DecapsulationKey::generate`].
            pub fn generate<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> (DecapsulationKey, EncapsulationKey) {
                DecapsulationKey::generate(rng)
            }

            /// Key generation from `Small_encode(f)`, `Small_encode(g)` and rho;
            /// see [`crate::DecapsulationKey::generate_deterministic`].
            ///
            /// # Errors
            /// f is not short, or g is not invertible in R/3, or an encoding is invalid.
            pub fn generate_deterministic(
                f_enc: &[u8; INPUTS_SIZE],
                g_enc: &[u8; INPUTS_SIZE],
                rho: &[u8; INPUTS_SIZE],
            ) -> Result<(DecapsulationKey, EncapsulationKey), Error> {
                DecapsulationKey::generate_deterministic(f_enc, g_enc, rho)
            }
        }
    };
}

mod params;
pub use params::*;
