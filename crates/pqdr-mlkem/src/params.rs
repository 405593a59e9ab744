//! FIPS 203 §8, Table 2: the three ML-KEM parameter sets.
//!
//! Each set is a zero-sized marker type implementing [`ParameterSet`]; the
//! whole scheme is written once, generic over that trait. The sizes of the
//! byte encodings (Table 3) are derived from `k`, `d_u` and `d_v` and checked
//! against the associated array types at compile time.

use core::fmt::Debug;
use core::hash::Hash;

use zeroize::Zeroize;

use crate::ntt::Multiplicand;

/// The storage of keys and ciphertexts: `[u8; N]` (the family's one
/// byte-array trait, from `pqdr-common`).
pub use pqdr_common::ByteArray;

/// `[Multiplicand; k]`: a vector of `k` polynomials in NTT form (internal
/// working storage).
#[doc(hidden)]
pub trait PolyVec:
    AsRef<[Multiplicand]> + AsMut<[Multiplicand]> + Zeroize + sealed::Sealed
{
    /// All-zero polynomials.
    fn zeroed() -> Self;
}

impl<const K: usize> sealed::Sealed for [Multiplicand; K] {}

impl<const K: usize> PolyVec for [Multiplicand; K] {
    fn zeroed() -> Self {
        [Multiplicand::ZERO; K]
    }
}

pub(crate) mod sealed {
    /// Only this crate's parameter sets and array types implement the public traits.
    pub trait Sealed {}
}

/// An ML-KEM parameter set (FIPS 203 §8, Table 2). Implemented by
/// [`MlKem512`], [`MlKem768`] and [`MlKem1024`] only.
pub trait ParameterSet:
    Copy + Clone + Debug + Default + Eq + Ord + Hash + Send + Sync + 'static + sealed::Sealed
{
    /// Name of the set, e.g. `"ML-KEM-768"`.
    const NAME: &'static str;
    /// `k`: the module rank (number of polynomials per vector).
    const K: usize;
    /// `η₁`: the CBD parameter of `s`, `e` (key generation) and `y` (encryption).
    const ETA1: usize;
    /// `η₂`: the CBD parameter of `e₁` and `e₂` (encryption).
    const ETA2: usize;
    /// `d_u`: bits per coefficient of the compressed `u`.
    const DU: u32;
    /// `d_v`: bits per coefficient of the compressed `v`.
    const DV: u32;

    /// `[u8; 384k + 32]`: the encapsulation key.
    type EncapsulationKeyBytes: ByteArray;
    /// `[u8; 768k + 96]`: the (expanded) decapsulation key.
    type DecapsulationKeyBytes: ByteArray;
    /// `[u8; 32(d_u k + d_v)]`: the ciphertext.
    type CiphertextBytes: ByteArray;
    /// `[Multiplicand; k]` (internal).
    #[doc(hidden)]
    type PolyVec: PolyVec;
}

/// The largest module rank `k` of any set (ML-KEM-1024): the PRF and XOF
/// domain bytes `i`, `j`, `k + i`, `2k` fit in a `u8`.
pub(crate) const MAX_K: usize = 4;
/// The largest `η₁` or `η₂` of any set (ML-KEM-512's `η₁`): `PRF_η` output
/// buffers hold `64·MAX_ETA` bytes.
pub(crate) const MAX_ETA: usize = 3;
/// The largest `d_u` or `d_v` of any set (ML-KEM-1024's `d_u`): buffers for
/// one compressed polynomial hold `32·MAX_D` bytes.
pub(crate) const MAX_D: u32 = 11;

const _: () = assert!(2 * MAX_K < u8::MAX as usize);

/// Encapsulation key size in bytes: `384k + 32` (FIPS 203 Table 3).
pub(crate) const fn ek_size(k: usize) -> usize {
    384 * k + 32
}

/// Decapsulation key size in bytes: `768k + 96` (FIPS 203 Table 3).
pub(crate) const fn dk_size(k: usize) -> usize {
    768 * k + 96
}

/// Ciphertext size in bytes: `32(d_u k + d_v)` (FIPS 203 Table 3).
pub(crate) const fn ct_size(k: usize, du: u32, dv: u32) -> usize {
    32 * (du as usize * k + dv as usize)
}

/// Defines a marker type and its [`ParameterSet`] impl from the Table 2 row.
macro_rules! variant {
    ($(#[$doc:meta])* $name:ident, $label:literal, k = $k:literal, eta1 = $eta1:literal,
     eta2 = $eta2:literal, du = $du:literal, dv = $dv:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        // The set fits the working buffers sized by the maxima above.
        const _: () = assert!(
            $k <= MAX_K && $eta1 <= MAX_ETA && $eta2 <= MAX_ETA && $du <= MAX_D && $dv <= MAX_D
        );

        impl ParameterSet for $name {
            const NAME: &'static str = $label;
            const K: usize = $k;
            const ETA1: usize = $eta1;
            const ETA2: usize = $eta2;
            const DU: u32 = $du;
            const DV: u32 = $dv;
            type EncapsulationKeyBytes = [u8; ek_size($k)];
            type DecapsulationKeyBytes = [u8; dk_size($k)];
            type CiphertextBytes = [u8; ct_size($k, $du, $dv)];
            type PolyVec = [Multiplicand; $k];
        }
    };
}

variant!(
    /// ML-KEM-512 (FIPS 203 Table 2): security category 1.
    MlKem512, "ML-KEM-512", k = 2, eta1 = 3, eta2 = 2, du = 10, dv = 4
);
variant!(
    /// ML-KEM-768 (FIPS 203 Table 2): security category 3.
    MlKem768, "ML-KEM-768", k = 3, eta1 = 2, eta2 = 2, du = 10, dv = 4
);
variant!(
    /// ML-KEM-1024 (FIPS 203 Table 2): security category 5.
    MlKem1024, "ML-KEM-1024", k = 4, eta1 = 2, eta2 = 2, du = 11, dv = 5
);
