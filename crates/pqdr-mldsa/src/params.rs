//! Parameter sets (FIPS 204 §4, Tables 1 and 2): the three ML-DSA sets, the
//! sizes they imply, and the named maxima of the working buffers.

use core::fmt::Debug;
use zeroize::Zeroize;

pub use pqdr_common::ByteArray;

use crate::field::Q;
use crate::poly::Poly;

/// d: dropped bits of t (FIPS 204 Table 1).
pub(crate) const D: u32 = 13;
/// Bits per t1 coefficient: bitlen(q − 1) − d (FIPS 204 Algorithm 22, pkEncode).
pub(crate) const T1_BITS: u32 = bitlen((Q - 1).cast_unsigned()) - D;
/// Bytes of one packed t1 polynomial (FIPS 204 Algorithm 22, pkEncode).
pub(crate) const T1_POLY_SIZE: usize = 32 * T1_BITS as usize;
/// Bytes of one packed t0 polynomial: 32·d (FIPS 204 Algorithm 24, skEncode).
pub(crate) const T0_POLY_SIZE: usize = 32 * D as usize;

/// The largest c̃ of the sets, λ/4 for λ = 256 (ML-DSA-87): the size of
/// working buffers that hold any set's c̃.
pub(crate) const MAX_C_TILDE_SIZE: usize = 64;
/// The largest packed w1 polynomial, 32·6 bytes (ML-DSA-44).
pub(crate) const MAX_W1_POLY_SIZE: usize = 192;
/// The largest packed z polynomial, 32·20 bytes (γ1 = 2^19).
pub(crate) const MAX_Z_POLY_SIZE: usize = 640;

/// bitlen(x), the number of bits of x > 0 (FIPS 204 §2.3).
const fn bitlen(x: u32) -> u32 {
    u32::BITS - x.leading_zeros()
}

/// (q − 1)/(2γ2): the number of HighBits values, m in UseHint (FIPS 204
/// Algorithm 40, line 1).
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time division of public parameters"
)]
pub(crate) const fn high_bits_count(gamma2: i32) -> i32 {
    (Q - 1) / (2 * gamma2)
}

/// Bits per w1 coefficient: bitlen((q − 1)/(2γ2) − 1) (FIPS 204 Algorithm 28,
/// w1Encode).
pub(crate) const fn w1_bits(gamma2: i32) -> u32 {
    bitlen((high_bits_count(gamma2) - 1).cast_unsigned())
}

/// Bits per packed secret coefficient: bitlen(2η) (FIPS 204 Algorithm 24,
/// skEncode).
pub(crate) const fn eta_bits(eta: i32) -> u32 {
    bitlen((2 * eta).cast_unsigned())
}

mod sealed {
    pub trait Sealed {}
}

/// A fixed-size array of polynomials (a vector or the matrix Â).
pub trait PolyArray: AsRef<[Poly]> + AsMut<[Poly]> + Zeroize {
    /// All zero polynomials.
    fn zeroed() -> Self;
}

impl<const M: usize> PolyArray for [Poly; M] {
    #[inline(always)]
    fn zeroed() -> Self {
        [Poly::ZERO; M]
    }
}

/// An ML-DSA parameter set (FIPS 204 Table 1). Implemented by [`MlDsa44`],
/// [`MlDsa65`] and [`MlDsa87`] only.
pub trait ParameterSet:
    sealed::Sealed + Copy + Clone + Debug + Default + PartialEq + Eq + Send + Sync + 'static
{
    /// Name as in FIPS 204, e.g. `ML-DSA-65`.
    const NAME: &'static str;
    /// Rows of Â.
    const K: usize;
    /// Columns of Â.
    const L: usize;
    /// η: bound of the secret coefficients.
    const ETA: i32;
    /// τ: number of ±1 coefficients of the challenge c.
    const TAU: usize;
    /// β = τ·η.
    const BETA: i32;
    /// log2 γ1 (γ1 is the range of y).
    const GAMMA1_BITS: u32;
    /// γ2: low-order rounding range.
    const GAMMA2: i32;
    /// ω: maximum number of ones in the hint.
    const OMEGA: usize;
    /// λ/4: bytes of the commitment hash c̃.
    const C_TILDE_SIZE: usize;
    /// Bytes of tr = H(pk) in the secret key: 64 (FIPS 204); 32 for the
    /// legacy round-3.1 Dilithium sets (feature `dilithium-r3`).
    #[doc(hidden)]
    const TR_SIZE: usize = 64;
    /// The legacy round-3.1 Dilithium sets (feature `dilithium-r3`): key
    /// generation hashes ξ alone, signing derives ρ'' = H(K‖μ) (no rnd).
    #[doc(hidden)]
    const ROUND3: bool = false;
    /// Encoded public key (FIPS 204 Algorithm 22).
    type VkBytes: ByteArray;
    /// Encoded secret key (FIPS 204 Algorithm 24).
    type SkBytes: ByteArray;
    /// Encoded signature (FIPS 204 Algorithm 26).
    type SigBytes: ByteArray;
    #[doc(hidden)]
    type VecK: PolyArray;
    #[doc(hidden)]
    type VecL: PolyArray;
    #[doc(hidden)]
    type Matrix: PolyArray;

    /// Bits per secret coefficient in skEncode: bitlen(2η).
    const ETA_BITS: u32 = eta_bits(Self::ETA);
    /// γ1.
    const GAMMA1: i32 = 1 << Self::GAMMA1_BITS;
    /// Bits per z coefficient: 1 + bitlen(γ1 − 1).
    const Z_BITS: u32 = Self::GAMMA1_BITS + 1;
    /// Bits per w1 coefficient: bitlen((q − 1)/(2γ2) − 1) (FIPS 204
    /// Algorithm 28, w1Encode).
    const W1_BITS: u32 = w1_bits(Self::GAMMA2);
    /// Bytes of one packed secret polynomial.
    const S_POLY_SIZE: usize = 32 * Self::ETA_BITS as usize;
    /// Bytes of one packed z polynomial.
    const Z_POLY_SIZE: usize = 32 * Self::Z_BITS as usize;
    /// Bytes of one packed w1 polynomial.
    const W1_POLY_SIZE: usize = 32 * Self::W1_BITS as usize;
    /// Public key size: 32 + 320·k (FIPS 204 Table 2).
    const VK_SIZE: usize = 32 + T1_POLY_SIZE * Self::K;
    /// Secret key size: 128 + 32·((k + l)·bitlen(2η) + 13k) (FIPS 204 Table 2;
    /// 96 + … with the 32-byte tr of round-3.1 Dilithium).
    const SK_SIZE: usize =
        64 + Self::TR_SIZE + (Self::K + Self::L) * Self::S_POLY_SIZE + T0_POLY_SIZE * Self::K;
    /// Signature size: λ/4 + l·32·(1 + bitlen(γ1 − 1)) + ω + k (FIPS 204 Table 2).
    const SIG_SIZE: usize =
        Self::C_TILDE_SIZE + Self::L * Self::Z_POLY_SIZE + Self::OMEGA + Self::K;
}

macro_rules! parameter_set {
    ($(#[$doc:meta])* $name:ident, $label:literal, k = $k:literal, l = $l:literal, eta = $eta:literal,
     tau = $tau:literal, gamma1_bits = $g1:literal, gamma2 = $g2:expr, omega = $omega:literal,
     lambda = $lambda:literal, vk = $vk:literal, sk = $sk:literal, sig = $sig:literal,
     w1_bits = $w1:literal $(, round3 = $r3:literal, tr = $tr:literal)?) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ParameterSet for $name {
            const NAME: &'static str = $label;
            const K: usize = $k;
            const L: usize = $l;
            const ETA: i32 = $eta;
            const TAU: usize = $tau;
            const BETA: i32 = $tau * $eta;
            const GAMMA1_BITS: u32 = $g1;
            const GAMMA2: i32 = $g2;
            const OMEGA: usize = $omega;
            const C_TILDE_SIZE: usize = $lambda >> 2;
            $(
                const ROUND3: bool = $r3;
                const TR_SIZE: usize = $tr;
            )?
            type VkBytes = [u8; $vk];
            type SkBytes = [u8; $sk];
            type SigBytes = [u8; $sig];
            type VecK = [Poly; $k];
            type VecL = [Poly; $l];
            type Matrix = [Poly; $k * $l];
        }
        const _: () = {
            // 2γ2 divides q − 1, so w1 has (q − 1)/(2γ2) values and w1Encode
            // packs them in bitlen((q − 1)/(2γ2) − 1) bits.
            assert!(high_bits_count($g2) * 2 * $g2 == Q - 1);
            assert!(<$name as ParameterSet>::W1_BITS == $w1);
            assert!(<$name as ParameterSet>::C_TILDE_SIZE <= MAX_C_TILDE_SIZE);
            assert!(<$name as ParameterSet>::W1_POLY_SIZE <= MAX_W1_POLY_SIZE);
            assert!(<$name as ParameterSet>::Z_POLY_SIZE <= MAX_Z_POLY_SIZE);
            assert!(<$name as ParameterSet>::VK_SIZE == $vk);
            assert!(<$name as ParameterSet>::SK_SIZE == $sk);
            assert!(<$name as ParameterSet>::SIG_SIZE == $sig);
        };
    };
}

parameter_set!(
    /// ML-DSA-44 (FIPS 204 Table 1, security category 2).
    MlDsa44, "ML-DSA-44", k = 4, l = 4, eta = 2, tau = 39, gamma1_bits = 17,
    gamma2 = 95_232, // (q − 1)/88
    omega = 80, lambda = 128, vk = 1312, sk = 2560, sig = 2420, w1_bits = 6
);
parameter_set!(
    /// ML-DSA-65 (FIPS 204 Table 1, security category 3).
    MlDsa65, "ML-DSA-65", k = 6, l = 5, eta = 4, tau = 49, gamma1_bits = 19,
    gamma2 = 261_888, // (q − 1)/32
    omega = 55, lambda = 192, vk = 1952, sk = 4032, sig = 3309, w1_bits = 4
);
parameter_set!(
    /// ML-DSA-87 (FIPS 204 Table 1, security category 5).
    MlDsa87, "ML-DSA-87", k = 8, l = 7, eta = 2, tau = 60, gamma1_bits = 19,
    gamma2 = 261_888, // (q − 1)/32
    omega = 75, lambda = 256, vk = 2592, sk = 4896, sig = 4627, w1_bits = 4
);

// LEGACY round-3.1 Dilithium (specification v3.1, 2021-02-08; feature
// `dilithium-r3`): the ML-DSA matrices, η, τ, γ1, γ2, ω of the same level,
// a 32-byte c̃ at every level (v3.1 Table 2: "c̃" is SEEDBYTES = 32 bytes)
// and a 32-byte tr (v3.1 Fig. 4, tr ∈ {0,1}^256).
#[cfg(feature = "dilithium-r3")]
parameter_set!(
    /// LEGACY Dilithium2 (round 3.1, NIST security level 2): for reading
    /// and migrating deployed keys and signatures; new systems use ML-DSA-44.
    Dilithium2, "Dilithium2", k = 4, l = 4, eta = 2, tau = 39, gamma1_bits = 17,
    gamma2 = 95_232,
    omega = 80, lambda = 128, vk = 1312, sk = 2528, sig = 2420, w1_bits = 6,
    round3 = true, tr = 32
);
#[cfg(feature = "dilithium-r3")]
parameter_set!(
    /// LEGACY Dilithium3 (round 3.1, NIST security level 3): for reading
    /// and migrating deployed keys and signatures; new systems use ML-DSA-65.
    Dilithium3, "Dilithium3", k = 6, l = 5, eta = 4, tau = 49, gamma1_bits = 19,
    gamma2 = 261_888,
    omega = 55, lambda = 128, vk = 1952, sk = 4000, sig = 3293, w1_bits = 4,
    round3 = true, tr = 32
);
#[cfg(feature = "dilithium-r3")]
parameter_set!(
    /// LEGACY Dilithium5 (round 3.1, NIST security level 5): for reading
    /// and migrating deployed keys and signatures; new systems use ML-DSA-87.
    Dilithium5, "Dilithium5", k = 8, l = 7, eta = 2, tau = 60, gamma1_bits = 19,
    gamma2 = 261_888,
    omega = 75, lambda = 128, vk = 2592, sk = 4864, sig = 4595, w1_bits = 4,
    round3 = true, tr = 32
);
