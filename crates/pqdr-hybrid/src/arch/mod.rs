//! Architecture-specific code: the only place `unsafe` is allowed, each
//! block with a `// SAFETY:` comment.
//!
//! Dispatch (the pattern of `pqdr_common::simd`): every kernel is a safe
//! function taking the [`Bmi2Adx`] token, which only detection makes;
//! [`bmi2_adx`] hands one out when this crate's feature `simd` is on and the
//! CPU has BMI2 and ADX (CPUID once per process), else `None`. Off x86-64,
//! or without `simd`, `Bmi2Adx` is an empty enum: no token exists, the stubs
//! below are never reached and no assembly is built.
//!
//! | kernel (`x86_64`, MULX/ADCX/ADOX) | portable twin | differential test |
//! |---|---|---|
//! | `fe_mul` | `x25519::field::Fe::mul` | `x25519::tests::bmi2_adx_matches_portable` (random, edge and all-ones limbs; bit-identical limbs) |
//! | `fe_square` | `x25519::field::Fe::square` | `x25519::tests::bmi2_adx_matches_portable` |
//! | `fe_add`, `fe_sub` | `Fe::add`, `Fe::sub` | `x25519::tests::bmi2_adx_matches_portable` |
//! | `fe_mul_a24` | `Fe::mul_a24` | `x25519::tests::bmi2_adx_matches_portable` |
//!
//! `fe_add`, `fe_sub` and `fe_mul_a24` are in assembly not for speed but for
//! constant time: in the MULX ladder LLVM turned the Rust carry folds of
//! `Fe::add` / `Fe::sub` into branches on the carry (valgrind,
//! tests/ct_valgrind.rs), which `SBB`-made masks rule out.
//!
//! The X25519 tests (RFC 7748 vectors, the differential test against
//! x25519-dalek) run on the path detection picks, and the portable ladder
//! is forced in `x25519::tests`; tests/ct_valgrind.rs runs whichever path
//! detection picks under valgrind.

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[allow(unsafe_code, reason = "inline assembly (MULX/ADCX/ADOX) only")]
mod x86_64;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{fe_add, fe_mul, fe_mul_a24, fe_square, fe_sub};

/// Proof for the kernels that this CPU executes MULX, ADCX and ADOX: made
/// only by [`bmi2_adx`], from the cached detection of
/// `pqdr_common::simd::Bmi2Adx` (or, in `--cfg pqct_valgrind` builds only,
/// from valgrind's presence: see [`bmi2_adx`]).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2Adx(());

/// The BMI2+ADX token if this crate's feature `simd` is on and the CPU has
/// both (cached detection), else `None`: the one place that picks the path.
///
/// Under valgrind (3.19, x86-64) the virtual CPUID clears the ADX bit
/// although VEX executes ADCX and ADOX (and MULX, BMI2, on an AVX2 host), so
/// detection alone would keep the kernels out of the constant-time check
/// and the instruction counts. Builds with `--cfg pqct_valgrind` (made only
/// for those runs, scripts/ct-check.sh) therefore also take the kernels
/// when running on valgrind with AVX2 detected (valgrind's AVX2 CPU model).
#[inline(always)]
pub(crate) fn bmi2_adx() -> Option<Bmi2Adx> {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    {
        if pqdr_common::simd::Bmi2Adx::detect().is_some() {
            return Some(Bmi2Adx(()));
        }
        #[cfg(pqct_valgrind)]
        if pqdr_ctgrind::running_on_valgrind() > 0 && pqdr_common::simd::Avx2::detect().is_some() {
            return Some(Bmi2Adx(()));
        }
        None
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    {
        None
    }
}

/// No MULX/ADX path in this build (feature `simd` off, or not x86-64): no
/// value of this type exists, so `bmi2_adx()` is `None` and the stubs are
/// never run.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Bmi2Adx {}

#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
pub(crate) use stubs::*;

/// The kernels' signatures in builds without the MULX/ADX path.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
mod stubs {
    use super::Bmi2Adx;
    pub(crate) fn fe_mul(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_square(token: Bmi2Adx, _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_add(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_sub(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_mul_a24(token: Bmi2Adx, _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
}
