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
/// under which detection also answers `Some` (see [`Bmi2Adx::detect`]),
/// `forced` the test-build condition under which it answers `None`
/// ([`FORCE_PORTABLE_ENV`]).
macro_rules! token {
    (
        $(#[$doc:meta])*
        $name:ident, $cpuid:ident, [$($feature:tt),+],
        other = $other_doc:literal,
        detect = $detect_doc:literal,
        extra = $extra:expr,
        forced = $forced:expr $(,)?
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
                    (!$forced && ($cpuid::get() || $extra)).then_some(Self(()))
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
    forced = forced_portable(),
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
    forced = forced_portable(),
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
    forced = forced_portable(),
);

token!(
    /// Proof that this CPU executes AVX-512F and AVX-512VL (made only by
    /// [`Avx512Vl::detect`]): the EVEX-encoded instructions on 256-bit
    /// registers, 32 of them (`ymm0`–`ymm31`), with `vprolq` and
    /// `vpternlogq` (AVX-512F, CPUID leaf 7 EBX bit 16; VL, leaf 7 EBX bit
    /// 31; OS support of the opmask and ZMM state through XGETBV, which
    /// `cpufeatures` checks), Intel SDM Vol. 1 §15.2 and §15.4. The same
    /// pattern as [`Avx2`]: a private field, no constructor but cached
    /// detection; an empty enum off x86-64.
    ///
    /// **Public inputs only** (docs/constant-time.md §8): valgrind cannot
    /// execute AVX-512, so the constant-time check cannot cover code behind
    /// this token. pqdr-keccak uses it only in its `_public` entry points,
    /// for Keccak streams whose every input byte is public (ML-DSA's
    /// `ExpandA`, `tr = H(pk)`, verification).
    ///
    /// ```
    /// use pqdr_common::simd::Avx512Vl;
    /// match Avx512Vl::detect() {
    ///     Some(token) => println!("AVX-512F/VL: {token:?}"),
    ///     None => println!("AVX2 or portable code only"),
    /// }
    /// assert!(Avx512Vl::detect_if(false).is_none());
    /// ```
    Avx512Vl, avx512vl_cpuid, ["avx512f", "avx512vl"],
    other = "Proof that this CPU executes AVX-512F and AVX-512VL: on this target no value exists.",
    detect = "`Some` if this CPU (and OS) supports AVX-512F and AVX-512VL.\n\n\
        `PQDR_FORCE_PORTABLE=avx2` (test builds, [`FORCE_PORTABLE_ENV`]) \
        answers `None` too, so that a test binary also runs on the AVX2 \
        paths of a machine with AVX-512.",
    extra = false,
    forced = forced_level() != FORCE_NONE,
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

/// The name of the environment variable that turns tokens off in test
/// builds.
///
/// Test builds only (feature `test-utils`, enabled from `[dev-dependencies]`,
/// never in production): with `PQDR_FORCE_PORTABLE=1` in the environment,
/// [`Avx2::detect`] (and every other token's `detect`) answers `None` for the whole process, so a test binary
/// built once (with `simd`) also runs its known-answer suites on the portable
/// paths: CI re-runs the workspace's KAT/ACVP binaries that way instead of
/// compiling the crates a second time without `simd` (issue #37 item 7).
/// With `PQDR_FORCE_PORTABLE=avx2`, only [`Avx512Vl::detect`] answers
/// `None` (AVX2, BMI1/BMI2 and BMI2/ADX are detected as usual), so the same
/// binaries also run on the AVX2 paths of a machine with AVX-512.
/// Without `test-utils` the variable is never read.
pub const FORCE_PORTABLE_ENV: &str = "PQDR_FORCE_PORTABLE";

/// [`forced_level`]: nothing forced.
#[cfg(target_arch = "x86_64")]
const FORCE_NONE: u8 = 1;
/// [`forced_level`]: AVX-512 off (`PQDR_FORCE_PORTABLE=avx2`).
#[cfg(all(target_arch = "x86_64", feature = "test-utils"))]
const FORCE_AVX2: u8 = 2;
/// [`forced_level`]: every token off (`PQDR_FORCE_PORTABLE=1`).
#[cfg(all(target_arch = "x86_64", feature = "test-utils"))]
const FORCE_PORTABLE: u8 = 3;

/// What [`FORCE_PORTABLE_ENV`] asks for (read once per process):
/// `FORCE_NONE`, `FORCE_AVX2` or `FORCE_PORTABLE`.
#[cfg(all(target_arch = "x86_64", feature = "test-utils"))]
fn forced_level() -> u8 {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not read yet, else the level.
    static STATE: AtomicU8 = AtomicU8::new(0);
    match STATE.load(Ordering::Relaxed) {
        0 => {
            extern crate std;
            let level = match std::env::var_os(FORCE_PORTABLE_ENV) {
                Some(v) if v == "1" => FORCE_PORTABLE,
                Some(v) if v == "avx2" => FORCE_AVX2,
                _ => FORCE_NONE,
            };
            STATE.store(level, Ordering::Relaxed);
            level
        }
        level => level,
    }
}

/// Production builds: the environment is never consulted.
#[cfg(all(target_arch = "x86_64", not(feature = "test-utils")))]
#[inline(always)]
const fn forced_level() -> u8 {
    FORCE_NONE
}

/// `true` if [`FORCE_PORTABLE_ENV`] is `1`: every token off.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn forced_portable() -> bool {
    #[cfg(feature = "test-utils")]
    {
        forced_level() == FORCE_PORTABLE
    }
    #[cfg(not(feature = "test-utils"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{Avx2, Avx512Vl, Bmi1Bmi2, Bmi2Adx};

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
        let first = Avx512Vl::detect();
        for _ in 0..3 {
            assert_eq!(Avx512Vl::detect(), first);
        }
        assert_eq!(Avx512Vl::detect_if(true), first);
        assert_eq!(Avx512Vl::detect_if(false), None);
    }

    /// `Avx512Vl` is exactly CPUID's AVX-512F and AVX-512VL, unless
    /// `PQDR_FORCE_PORTABLE` is `1` or `avx2` (then `None`, with AVX2 still
    /// detected under `avx2`).
    #[cfg(all(target_arch = "x86_64", feature = "test-utils"))]
    #[test]
    fn avx512vl_detection_matches_cpuid_or_force() {
        extern crate std;
        let env = std::env::var_os(super::FORCE_PORTABLE_ENV);
        let forced = env.as_ref().is_some_and(|v| v == "1" || v == "avx2");
        let cpuid =
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl");
        assert_eq!(Avx512Vl::detect().is_some(), !forced && cpuid);
        if env.is_some_and(|v| v == "avx2") {
            assert_eq!(
                Avx2::detect().is_some(),
                std::is_x86_feature_detected!("avx2")
            );
        }
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
            assert_eq!(Avx512Vl::detect(), None);
        } else {
            #[cfg(target_arch = "x86_64")]
            assert_eq!(
                Avx2::detect().is_some(),
                std::is_x86_feature_detected!("avx2")
            );
        }
    }
}
