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

/// Declares one capability token: the type (a private field on x86-64, an
/// empty enum elsewhere), its cached CPUID detection (`cpufeatures`, once
/// per process) and `detect` / `detect_if`. The one body shared by every
/// token, so the pattern stays one; `extra` is an additional condition
/// under which detection also answers `Some` (see [`Bmi2Adx::detect`]).
macro_rules! token {
    (
        $(#[$doc:meta])*
        $name:ident, $cpuid:ident, [$($feature:tt),+],
        other = $other_doc:literal,
        detect = $detect_doc:literal,
        extra = $extra:expr $(,)?
    ) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(());

        #[doc = $other_doc]
        #[cfg(not(target_arch = "x86_64"))]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {}

        #[cfg(target_arch = "x86_64")]
        cpufeatures::new!($cpuid, $($feature),+);

        impl $name {
            #[doc = $detect_doc]
            ///
            /// CPUID runs once per process; later calls read the cached
            /// answer (one atomic load). `PQDR_FORCE_PORTABLE=1` (test
            /// builds, [`FORCE_PORTABLE_ENV`]) answers `None`.
            #[inline]
            #[must_use]
            pub fn detect() -> Option<Self> {
                #[cfg(target_arch = "x86_64")]
                {
                    (!forced_portable() && ($cpuid::get() || $extra)).then_some(Self(()))
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    None
                }
            }

            /// `detect()` if `enabled`, else `None`: a crate passes
            /// `cfg!(feature = "simd")`, so its own feature picks its code
            /// path (a constant `false` folds the SIMD branches away).
            #[inline]
            #[must_use]
            pub fn detect_if(enabled: bool) -> Option<Self> {
                if enabled { Self::detect() } else { None }
            }
        }
    };
}

token!(
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
    Avx2, avx2_cpuid, ["avx2"],
    other = "Proof that this CPU executes AVX2: on this target no value exists.",
    detect = "`Some` if this CPU (and OS) supports AVX2.",
    extra = false,
);

token!(
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
    Bmi2Adx, bmi2_adx_cpuid, ["bmi2", "adx"],
    other = "Proof that this CPU executes BMI2 and ADX: on this target no value exists.",
    detect = "`Some` if this CPU supports both BMI2 and ADX.\n\n\
        Under valgrind (3.19+, x86-64) the virtual CPUID clears the ADX bit \
        although VEX executes ADCX and ADOX (and MULX on an AVX2 host), so \
        detection alone would keep the MULX kernels out of the constant-time \
        check and the instruction counts. Builds with `--cfg pqct_valgrind` \
        (made only for those runs, scripts/ct-check.sh) therefore also answer \
        `Some` when running on valgrind with AVX2 detected (valgrind's AVX2 \
        CPU model).",
    extra = valgrind_adx(),
);

token!(
    /// Proof that this CPU executes BMI1 and BMI2 (made only by
    /// [`Bmi1Bmi2::detect`]): `ANDN` (BMI1, CPUID leaf 7 EBX bit 3) and
    /// `RORX` (BMI2, leaf 7 EBX bit 8), Intel SDM Vol. 1 §5.1 and Vol. 2
    /// (the instruction pages). The same pattern as [`Avx2`]: a private
    /// field, no constructor but cached detection; an empty enum off x86-64.
    /// For scalar code with three-operand `andn` and rotations (pqdr-keccak's
    /// scalar Keccak-f\[1600\]).
    ///
    /// ```
    /// use pqdr_common::simd::Bmi1Bmi2;
    /// match Bmi1Bmi2::detect() {
    ///     Some(token) => println!("ANDN/RORX: {token:?}"),
    ///     None => println!("portable code only"),
    /// }
    /// assert!(Bmi1Bmi2::detect_if(false).is_none());
    /// ```
    Bmi1Bmi2, bmi1_bmi2_cpuid, ["bmi1", "bmi2"],
    other = "Proof that this CPU executes BMI1 and BMI2: on this target no value exists.",
    detect = "`Some` if this CPU supports both BMI1 and BMI2.",
    extra = false,
);

/// `true` in a `--cfg pqct_valgrind` build running on valgrind with AVX2
/// detected: valgrind executes MULX, ADCX and ADOX but hides ADX in CPUID
/// (see [`Bmi2Adx::detect`]).
#[cfg(all(target_arch = "x86_64", pqct_valgrind))]
fn valgrind_adx() -> bool {
    pqdr_ctgrind::running_on_valgrind() > 0 && avx2_cpuid::get()
}

/// Builds other than the constant-time check's: CPUID alone decides.
#[cfg(all(target_arch = "x86_64", not(pqct_valgrind)))]
#[inline(always)]
const fn valgrind_adx() -> bool {
    false
}

/// The name of the environment variable that turns every token (AVX2,
/// BMI2/ADX, BMI1/BMI2) off in test builds.
///
/// Test builds only (feature `test-utils`, enabled from `[dev-dependencies]`,
/// never in production): with `PQDR_FORCE_PORTABLE=1` in the environment,
/// [`Avx2::detect`] (and every other token's `detect`) answers `None` for the whole process, so a test binary
/// built once (with `simd`) also runs its known-answer suites on the portable
/// paths: CI re-runs the workspace's KAT/ACVP binaries that way instead of
/// compiling the crates a second time without `simd` (issue #37 item 7).
/// Without `test-utils` the variable is never read.
pub const FORCE_PORTABLE_ENV: &str = "PQDR_FORCE_PORTABLE";

/// `true` if [`FORCE_PORTABLE_ENV`] is `1` (read once per process).
#[cfg(all(target_arch = "x86_64", feature = "test-utils"))]
fn forced_portable() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not read yet, 1: AVX2 allowed, 2: portable forced.
    static STATE: AtomicU8 = AtomicU8::new(0);
    match STATE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            extern crate std;
            let forced = std::env::var_os(FORCE_PORTABLE_ENV).is_some_and(|v| v == "1");
            STATE.store(if forced { 2 } else { 1 }, Ordering::Relaxed);
            forced
        }
    }
}

/// Production builds: the environment is never consulted.
#[cfg(all(target_arch = "x86_64", not(feature = "test-utils")))]
#[inline(always)]
const fn forced_portable() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::{Avx2, Bmi1Bmi2, Bmi2Adx};

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
        let first = Bmi1Bmi2::detect();
        for _ in 0..3 {
            assert_eq!(Bmi1Bmi2::detect(), first);
        }
        assert_eq!(Bmi1Bmi2::detect_if(true), first);
        assert_eq!(Bmi1Bmi2::detect_if(false), None);
    }

    /// `Bmi1Bmi2` is exactly CPUID's BMI1 and BMI2 (unless
    /// `PQDR_FORCE_PORTABLE=1`).
    #[cfg(all(target_arch = "x86_64", feature = "test-utils"))]
    #[test]
    fn bmi1_bmi2_detection_matches_cpuid() {
        extern crate std;
        let forced = std::env::var_os(super::FORCE_PORTABLE_ENV).is_some_and(|v| v == "1");
        let cpuid = std::is_x86_feature_detected!("bmi1") && std::is_x86_feature_detected!("bmi2");
        assert_eq!(Bmi1Bmi2::detect().is_some(), !forced && cpuid);
    }

    /// Natively, `Bmi2Adx` is exactly CPUID's BMI2 and ADX (unless
    /// `PQDR_FORCE_PORTABLE=1`); in a `--cfg pqct_valgrind` build running on
    /// valgrind with AVX2, it is made although valgrind hides ADX.
    #[cfg(all(target_arch = "x86_64", feature = "test-utils"))]
    #[test]
    fn bmi2_adx_detection_matches_cpuid_or_valgrind() {
        extern crate std;
        let forced = std::env::var_os(super::FORCE_PORTABLE_ENV).is_some_and(|v| v == "1");
        let cpuid = std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx");
        #[cfg(pqct_valgrind)]
        let on_valgrind =
            pqdr_ctgrind::running_on_valgrind() > 0 && std::is_x86_feature_detected!("avx2");
        #[cfg(not(pqct_valgrind))]
        let on_valgrind = false;
        assert_eq!(
            Bmi2Adx::detect().is_some(),
            !forced && (cpuid || on_valgrind)
        );
    }

    /// CI's portable re-run (`PQDR_FORCE_PORTABLE=1`, scripts/ci-extra.sh)
    /// runs this test too: it fails if the variable did not take effect, so
    /// the KAT suites of that run cannot silently stay on AVX2.
    #[cfg(feature = "test-utils")]
    #[test]
    fn force_portable_env_turns_avx2_off() {
        extern crate std;
        let forced = std::env::var_os(super::FORCE_PORTABLE_ENV).is_some_and(|v| v == "1");
        if forced {
            assert_eq!(Avx2::detect(), None);
            assert_eq!(Avx2::detect_if(true), None);
            assert_eq!(Bmi2Adx::detect(), None);
            assert_eq!(Bmi1Bmi2::detect(), None);
        } else {
            #[cfg(target_arch = "x86_64")]
            assert_eq!(
                Avx2::detect().is_some(),
                std::is_x86_feature_detected!("avx2")
            );
        }
    }
}
