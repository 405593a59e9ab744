//! Parameter sets: Classic McEliece round-4 specification §7 ("Selected
//! parameter sets"), and the plaintext-confirmation sets of the ISO draft.
//!
//! Everything else in the crate is generic over [`ParameterSet`]; one `variant!` line
//! per set gives the numbers and the sizes of the few per-set buffers.

/// A `[T; N]` buffer the generic code can create and borrow as a slice.
pub trait Buf<T>: AsRef<[T]> + AsMut<[T]> + Clone + zeroize::Zeroize {
    /// The all-zero buffer.
    fn zeroed() -> Self;
    /// The all-zero buffer, allocated directly on the heap (no stack copy).
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self>;
}

impl<T: Copy + Default + zeroize::DefaultIsZeroes, const N: usize> Buf<T> for [T; N] {
    #[inline(always)]
    fn zeroed() -> Self {
        [T::default(); N]
    }
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        let v: alloc::boxed::Box<[T]> = alloc::vec![T::default(); N].into_boxed_slice();
        match v.try_into() {
            Ok(b) => b,
            Err(_) => unreachable!("length is N"),
        }
    }
}

/// The numbers of one parameter set (sealed: implemented by the marker types).
pub trait ParameterSet: sealed::Sealed + Copy + Default + 'static {
    /// Name as in the specification, e.g. `mceliece6960119f`.
    const NAME: &'static str;
    /// `m`: field GF(2^m).
    const M: usize;
    /// `n`: code length.
    const N: usize;
    /// `t`: errors corrected.
    const T: usize;
    /// Low terms of the field polynomial f(z) = z^m + ... (bit i = coefficient of z^i).
    const FIELD_POLY: u32;
    /// Low terms of F(y) = y^t + sum c_i y^i as (i, c_i) pairs (Classic McEliece spec §7).
    const F_POLY: &'static [(usize, u16)];
    /// Semi-systematic form (the `f` sets; Classic McEliece spec §2.4.3, (mu, nu) = (32, 64)).
    const SEMI: bool;
    /// Plaintext confirmation (the ISO `pc` sets: ciphertext carries C1 = H(2, e)).
    const PC: bool;

    /// `[u16; 2^m]`.
    type Q16: Buf<u16>;
    /// `[u16; 3 2^m]` (the records of the control-bit sorts).
    type R16: Buf<u16>;
    /// `[u64; 2^m]`.
    type Q64: Buf<u64>;
    /// `[u16; n]`.
    type N16: Buf<u16>;
    /// Public key bytes.
    type PkBytes: Buf<u8>;
    /// Secret key bytes.
    type SkBytes: Buf<u8>;
    /// Ciphertext bytes.
    type CtBytes: Buf<u8>;
}

pub(crate) mod sealed {
    /// Seals [`super::ParameterSet`] and holds each set's entry points into
    /// the KEM, implemented in `crate::kem` (`#[inline(never)]`): the generic
    /// code behind them (key generation, `Encode`, decoding) is instantiated
    /// there, once per set, in this crate, and the generic public API
    /// (`DecapsulationKey<P>`, `generate::<P, _>`, ...) only calls them.
    /// Without them every crate and test binary that uses a set compiled the
    /// whole key generation and decoder of every set it named again (issue
    /// #37 item 7: about a quarter of the workspace's test build).
    pub trait Sealed {
        /// `crate::kem::keypair_impl` of this set.
        fn keypair_entry(pk: &mut [u8], sk: &mut [u8], seed: &[u8; 32]);
        /// `crate::kem::encode_impl` of this set.
        fn encode_entry(pk: &[u8], ct: &mut [u8], e: &[u8]) -> [u8; 32];
        /// `crate::kem::decapsulate_impl` of this set.
        fn decapsulate_entry(sk: &[u8], ct: &[u8]) -> [u8; 32];
        /// `crate::decrypt::prepare_impl` of this set. `out` is a
        /// `crate::decrypt::Prepared`, passed as `Any` because that type is
        /// built on the modules that use this one (no import cycle).
        fn prepare_entry(out: &mut dyn core::any::Any, sk_gc: &[u8]);
        /// `crate::kem::decapsulate_prepared_impl` of this set; `prep` as in
        /// [`Sealed::prepare_entry`].
        fn decapsulate_prepared_entry(sk: &[u8], prep: &dyn core::any::Any, ct: &[u8]) -> [u8; 32];
    }
}

/// Sizes derived from (m, n, t) (Classic McEliece spec §2.2, §3 data formats).
pub(crate) trait Derived: ParameterSet {
    /// 2^m.
    const Q: usize = 1 << Self::M;
    /// m t: rows of the parity-check matrix.
    const MT: usize = Self::M * Self::T;
    /// Bytes of one public-key row: ceil((n - mt) / 8).
    const ROW_BYTES: usize = (Self::N - Self::MT).div_ceil(8);
    /// Public key: mt rows.
    const PK_BYTES: usize = Self::MT * Self::ROW_BYTES;
    /// C0 = H e: ceil(mt / 8) bytes.
    const SYND_BYTES: usize = Self::MT.div_ceil(8);
    /// Ciphertext: C0, plus C1 for the pc sets.
    const CT_BYTES: usize = Self::SYND_BYTES + if Self::PC { 32 } else { 0 };
    /// Goppa polynomial: t coefficients of 2 bytes.
    const IRR_BYTES: usize = 2 * Self::T;
    /// Beneš control bits: (2m - 1) 2^(m-1) bits.
    const COND_BYTES: usize = (2 * Self::M - 1) << (Self::M - 4);
    /// Secret key: delta (32) || c (8) || g || alpha (control bits) || s.
    const SK_BYTES: usize = 40 + Self::IRR_BYTES + Self::COND_BYTES + (Self::N >> 3);
    /// Mask of the field.
    const GF_MASK: u16 = ((1u32 << Self::M) - 1) as u16;
}
impl<P: ParameterSet> Derived for P {}

// Named size maxima over every parameter set, for the working buffers that
// are sized once for the largest set. `variant!` asserts at compile time that
// each set fits.

/// Largest m (the m = 13 sets).
pub(crate) const MAX_M: usize = 13;
/// Largest t (6688128, 8192128).
pub(crate) const MAX_T: usize = 128;
/// Largest n (8192128).
pub(crate) const MAX_N: usize = 8192;
/// Largest n / 8: bytes of an error vector e.
pub(crate) const MAX_N_BYTES: usize = MAX_N >> 3;
/// Largest mt (8192128: 13 x 128): rows of the parity-check matrix.
pub(crate) const MAX_MT: usize = MAX_M * MAX_T;
/// Largest ceil(mt / 8): bytes of C0.
pub(crate) const MAX_SYND_BYTES: usize = MAX_MT.div_ceil(8);
/// Largest ceil((n - mt) / 8): bytes of a public-key row (8192128: 816).
pub(crate) const MAX_ROW_BYTES: usize = (MAX_N - MAX_MT).div_ceil(8);
/// 64-bit words of a 2^m-bit vector (one bit per field element), m = 13.
pub(crate) const MAX_Q_WORDS: usize = (1 << MAX_M) >> 6;

/// Defines a marker type and its [`ParameterSet`] impl in one line.
macro_rules! variant {
    ($(#[$doc:meta])* $ty:ident, $name:literal, m = $m:literal, n = $n:literal, t = $t:literal,
     f = $fp:expr, F = $big_f:expr, semi = $semi:literal, pc = $pc:literal) => {
        $(#[$doc])*
        #[cfg(feature = $name)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $ty;
        // `sealed::Sealed` (the set's entry points) is implemented in `crate::kem`.
        #[cfg(feature = $name)]
        impl $crate::params::ParameterSet for $ty {
            const NAME: &'static str = $name;
            const M: usize = $m;
            const N: usize = $n;
            const T: usize = $t;
            const FIELD_POLY: u32 = $fp;
            const F_POLY: &'static [(usize, u16)] = $big_f;
            const SEMI: bool = $semi;
            const PC: bool = $pc;
            type Q16 = [u16; 1 << $m];
            type R16 = [u16; 3 << $m];
            type Q64 = [u64; 1 << $m];
            type N16 = [u16; $n];
            type PkBytes = [u8; $m * $t * (($n - $m * $t) as usize).div_ceil(8)];
            type SkBytes = [u8; 40 + 2 * $t + ((2 * $m - 1) << ($m - 4)) + ($n >> 3)];
            type CtBytes = [u8; ($m * $t as usize).div_ceil(8) + if $pc { 32 } else { 0 }];
        }
        // The set fits the buffers sized by the named maxima.
        #[cfg(feature = $name)]
        const _: () = {
            use $crate::params::{Derived, MAX_M, MAX_N, MAX_ROW_BYTES, MAX_SYND_BYTES, MAX_T};
            assert!(<$ty as ParameterSet>::M <= MAX_M);
            assert!(<$ty as ParameterSet>::T <= MAX_T);
            assert!(<$ty as ParameterSet>::N <= MAX_N);
            assert!(<$ty as Derived>::SYND_BYTES <= MAX_SYND_BYTES);
            assert!(<$ty as Derived>::ROW_BYTES <= MAX_ROW_BYTES);
        };
    };
}

/// f(z) = z^12 + z^3 + 1, the field polynomial of the m = 12 sets (Classic
/// McEliece spec §7), as its low terms.
#[allow(dead_code, reason = "used by the enabled parameter sets only")]
pub(crate) const FIELD_POLY_M12: u32 = 0b1001;
/// f(z) = z^13 + z^4 + z^3 + z + 1, the field polynomial of the m = 13 sets
/// (Classic McEliece spec §7), as its low terms.
#[allow(dead_code, reason = "used by the enabled parameter sets only")]
pub(crate) const FIELD_POLY_M13: u32 = 0b1_1011;
// F(y) (Classic McEliece spec §7), the terms below y^t.
#[allow(dead_code, reason = "used by the enabled parameter sets only")]
const Y64: &[(usize, u16)] = &[(3, 1), (1, 1), (0, 2)]; // y^64 + y^3 + y + z
#[allow(dead_code, reason = "used by the enabled parameter sets only")]
const Y96: &[(usize, u16)] = &[(10, 1), (9, 1), (6, 1), (0, 1)]; // y^96 + y^10 + y^9 + y^6 + 1
#[allow(dead_code, reason = "used by the enabled parameter sets only")]
const Y119: &[(usize, u16)] = &[(8, 1), (0, 1)]; // y^119 + y^8 + 1
#[allow(dead_code, reason = "used by the enabled parameter sets only")]
const Y128: &[(usize, u16)] = &[(7, 1), (2, 1), (1, 1), (0, 1)]; // y^128 + y^7 + y^2 + y + 1

variant!(/// `mceliece348864` (Classic McEliece spec §7: m = 12, n = 3488, t = 64).
    Mceliece348864, "mceliece348864", m = 12, n = 3488, t = 64, f = FIELD_POLY_M12, F = Y64, semi = false, pc = false);
variant!(/// `mceliece348864f` (semi-systematic key generation).
    Mceliece348864f, "mceliece348864f", m = 12, n = 3488, t = 64, f = FIELD_POLY_M12, F = Y64, semi = true, pc = false);
variant!(/// `mceliece460896` (Classic McEliece spec §7: m = 13, n = 4608, t = 96).
    Mceliece460896, "mceliece460896", m = 13, n = 4608, t = 96, f = FIELD_POLY_M13, F = Y96, semi = false, pc = false);
variant!(/// `mceliece460896f`.
    Mceliece460896f, "mceliece460896f", m = 13, n = 4608, t = 96, f = FIELD_POLY_M13, F = Y96, semi = true, pc = false);
variant!(/// `mceliece6688128` (Classic McEliece spec §7: m = 13, n = 6688, t = 128).
    Mceliece6688128, "mceliece6688128", m = 13, n = 6688, t = 128, f = FIELD_POLY_M13, F = Y128, semi = false, pc = false);
variant!(/// `mceliece6688128f`.
    Mceliece6688128f, "mceliece6688128f", m = 13, n = 6688, t = 128, f = FIELD_POLY_M13, F = Y128, semi = true, pc = false);
variant!(/// `mceliece6960119` (Classic McEliece spec §7: m = 13, n = 6960, t = 119).
    Mceliece6960119, "mceliece6960119", m = 13, n = 6960, t = 119, f = FIELD_POLY_M13, F = Y119, semi = false, pc = false);
variant!(/// `mceliece6960119f`.
    Mceliece6960119f, "mceliece6960119f", m = 13, n = 6960, t = 119, f = FIELD_POLY_M13, F = Y119, semi = true, pc = false);
variant!(/// `mceliece8192128` (Classic McEliece spec §7: m = 13, n = 8192, t = 128).
    Mceliece8192128, "mceliece8192128", m = 13, n = 8192, t = 128, f = FIELD_POLY_M13, F = Y128, semi = false, pc = false);
variant!(/// `mceliece8192128f`.
    Mceliece8192128f, "mceliece8192128f", m = 13, n = 8192, t = 128, f = FIELD_POLY_M13, F = Y128, semi = true, pc = false);

// The ISO plaintext-confirmation sets: the same (m, n, t) with C1 = H(2, e)
// appended to the ciphertext (equal to the round-3 submission's KEM).
variant!(/// `mceliece348864pc`: `mceliece348864` with plaintext confirmation.
    Mceliece348864pc, "mceliece348864pc", m = 12, n = 3488, t = 64, f = FIELD_POLY_M12, F = Y64, semi = false, pc = true);
variant!(/// `mceliece348864pcf`: `mceliece348864f` with plaintext confirmation.
    Mceliece348864pcf, "mceliece348864pcf", m = 12, n = 3488, t = 64, f = FIELD_POLY_M12, F = Y64, semi = true, pc = true);
variant!(/// `mceliece460896pc`: `mceliece460896` with plaintext confirmation.
    Mceliece460896pc, "mceliece460896pc", m = 13, n = 4608, t = 96, f = FIELD_POLY_M13, F = Y96, semi = false, pc = true);
variant!(/// `mceliece460896pcf`: `mceliece460896f` with plaintext confirmation.
    Mceliece460896pcf, "mceliece460896pcf", m = 13, n = 4608, t = 96, f = FIELD_POLY_M13, F = Y96, semi = true, pc = true);
variant!(/// `mceliece6688128pc`: `mceliece6688128` with plaintext confirmation.
    Mceliece6688128pc, "mceliece6688128pc", m = 13, n = 6688, t = 128, f = FIELD_POLY_M13, F = Y128, semi = false, pc = true);
variant!(/// `mceliece6688128pcf`: `mceliece6688128f` with plaintext confirmation.
    Mceliece6688128pcf, "mceliece6688128pcf", m = 13, n = 6688, t = 128, f = FIELD_POLY_M13, F = Y128, semi = true, pc = true);
variant!(/// `mceliece6960119pc`: `mceliece6960119` with plaintext confirmation.
    Mceliece6960119pc, "mceliece6960119pc", m = 13, n = 6960, t = 119, f = FIELD_POLY_M13, F = Y119, semi = false, pc = true);
variant!(/// `mceliece6960119pcf`: `mceliece6960119f` with plaintext confirmation.
    Mceliece6960119pcf, "mceliece6960119pcf", m = 13, n = 6960, t = 119, f = FIELD_POLY_M13, F = Y119, semi = true, pc = true);
variant!(/// `mceliece8192128pc`: `mceliece8192128` with plaintext confirmation.
    Mceliece8192128pc, "mceliece8192128pc", m = 13, n = 8192, t = 128, f = FIELD_POLY_M13, F = Y128, semi = false, pc = true);
variant!(/// `mceliece8192128pcf`: `mceliece8192128f` with plaintext confirmation.
    Mceliece8192128pcf, "mceliece8192128pcf", m = 13, n = 8192, t = 128, f = FIELD_POLY_M13, F = Y128, semi = true, pc = true);
