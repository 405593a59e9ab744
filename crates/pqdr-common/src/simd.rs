//! The one SIMD dispatch pattern of the pqdr crates: a capability token.
//!
//! An [`Avx2`] value is proof that the CPU running this process executes
//! AVX2 (Intel SDM Vol. 1 §14.3, "Detection of AVX2": CPUID leaf 7 EBX bit 5
//! plus OS support of the YMM state through XGETBV, which `cpufeatures`
//! checks). Only [`Avx2::detect`] makes one: the field is private, there is
//! no `Default`, no constructor. On every target other than x86-64 `Avx2` is
//! an empty enum, so no value exists and `Option<Avx2>` is always `None`;
//! code that matches on it needs no `cfg`.
//!
//! How a crate uses it (docs/constant-time.md has the rules for the kernels):
//! - its `arch/x86_64` module takes the token in every safe function that
//!   calls a `#[target_feature(enable = "avx2")]` function, with the SAFETY
//!   comment "the token proves AVX2 was detected";
//! - its algorithm entry points select per call with
//!   [`Avx2::detect_if`]`(cfg!(feature = "simd"))`, so the crate's own `simd`
//!   feature decides its path, whatever features other crates turn on;
//! - tests pass `None` to force the portable path.

/// Proof that this CPU executes AVX2 (made only by [`Avx2::detect`]).
///
/// ```
/// use pqdr_common::simd::Avx2;
/// match Avx2::detect() {
///     Some(token) => println!("AVX2: {token:?}"),
///     None => println!("portable code only"),
/// }
/// // A crate whose `simd` feature is off asks for no token.
/// assert!(Avx2::detect_if(false).is_none());
/// ```
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(());

/// Proof that this CPU executes AVX2: on this target no value exists.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Avx2 {}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(avx2_cpuid, "avx2");

impl Avx2 {
    /// `Some` if this CPU (and OS) supports AVX2. CPUID runs once per
    /// process; later calls read the cached answer (one atomic load).
    #[inline]
    #[must_use]
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            avx2_cpuid::get().then_some(Self(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// [`Avx2::detect`] if `enabled`, else `None`: a crate passes
    /// `cfg!(feature = "simd")`, so its own feature picks its code path
    /// (a constant `false` folds the AVX2 branches away).
    #[inline]
    #[must_use]
    pub fn detect_if(enabled: bool) -> Option<Self> {
        if enabled { Self::detect() } else { None }
    }
}

/// Proof that this CPU executes BMI2 and ADX (made only by
/// [`Bmi2Adx::detect`]): `MULX` (BMI2, CPUID leaf 7 EBX bit 8) and
/// `ADCX` / `ADOX` (ADX, leaf 7 EBX bit 19), Intel SDM Vol. 1 §5.1 and
/// Vol. 2 (the instruction pages). The same pattern as [`Avx2`]: a private
/// field, no constructor but cached detection; an empty enum off x86-64.
/// For multi-precision arithmetic with two independent carry chains
/// (pqdr-hybrid's X25519 field multiplication).
///
/// ```
/// use pqdr_common::simd::Bmi2Adx;
/// match Bmi2Adx::detect() {
///     Some(token) => println!("MULX/ADCX/ADOX: {token:?}"),
///     None => println!("portable code only"),
/// }
/// assert!(Bmi2Adx::detect_if(false).is_none());
/// ```
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bmi2Adx(());

/// Proof that this CPU executes BMI2 and ADX: on this target no value exists.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bmi2Adx {}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(bmi2_adx_cpuid, "bmi2", "adx");

impl Bmi2Adx {
    /// `Some` if this CPU supports both BMI2 and ADX. CPUID runs once per
    /// process; later calls read the cached answer (one atomic load).
    #[inline]
    #[must_use]
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            bmi2_adx_cpuid::get().then_some(Self(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// [`Bmi2Adx::detect`] if `enabled`, else `None` (a crate passes its
    /// own feature, as with [`Avx2::detect_if`]).
    #[inline]
    #[must_use]
    pub fn detect_if(enabled: bool) -> Option<Self> {
        if enabled { Self::detect() } else { None }
    }
}

#[cfg(test)]
mod tests {
    use super::{Avx2, Bmi2Adx};

    #[test]
    fn detection_is_cached_and_stable() {
        let first = Avx2::detect();
        for _ in 0..3 {
            assert_eq!(Avx2::detect(), first);
        }
        assert_eq!(Avx2::detect_if(true), first);
        assert_eq!(Avx2::detect_if(false), None);
        let first = Bmi2Adx::detect();
        for _ in 0..3 {
            assert_eq!(Bmi2Adx::detect(), first);
        }
        assert_eq!(Bmi2Adx::detect_if(true), first);
        assert_eq!(Bmi2Adx::detect_if(false), None);
    }
}
