//! AVX2 multiversioning (feature `simd`, x86-64): the decoder and the
//! public-key generation compiled a second time with AVX2 enabled.
//!
//! There is no hand-written kernel here. [`run`] calls a closure inside a
//! `#[target_feature(enable = "avx2")]` function; the closure's body (the
//! generic Rust code of one kernel: the bitsliced GF(2^m) product, an FFT
//! word layer or stage, Berlekamp–Massey, a Beneš layer, a block of the
//! elimination, T = A H_right) is inlined into it, so LLVM compiles the same
//! source a second time with AVX2: VEX three-operand forms of the 128-bit
//! word pairs and 256-bit registers for the 4-lane words and the long row
//! XORs. Same operations on the same bits: the outputs are identical to the
//! portable copy's, and no branch or address depends on anything new.
//!
//! The only `unsafe` in the crate: calling that function after run-time
//! detection ([`has_avx2`], reached only through `Backend::Avx2`).

cpufeatures::new!(avx2_cpuid, "avx2");

/// Whether this CPU (and OS) supports AVX2; the result is cached.
#[inline]
pub(crate) fn has_avx2() -> bool {
    avx2_cpuid::get()
}

/// Runs `f` compiled with AVX2. The caller must have seen [`has_avx2`]
/// return `true` (`Backend::Avx2` holds that proof).
#[inline(always)]
pub(crate) fn run<R, F: FnOnce() -> R>(f: F) -> R {
    debug_assert!(has_avx2());
    // SAFETY: `Backend::Avx2` is only constructed by `Backend::detect` after
    // `has_avx2()` returned true, and this is only reached through such a
    // `Backend`: the CPU executes AVX2.
    unsafe { with_avx2(f) }
}

/// `f()` with AVX2 enabled for everything inlined into it.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn with_avx2<R, F: FnOnce() -> R>(f: F) -> R {
    f()
}
