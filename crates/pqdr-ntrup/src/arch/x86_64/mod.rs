//! AVX2 kernels of the ring arithmetic (NTRU Prime spec §2.3: the products
//! of Core `KeyGen`, `Encrypt` and `Decrypt`), each the twin of a portable
//! function with bit-identical outputs: the same operations on the same
//! 16-bit lanes, 16 lanes per register instead of the portable code's
//! compiler-chosen 8.
//!
//! The only `unsafe` in the crate: calling a `#[target_feature(enable =
//! "avx2")]` kernel behind the `Avx2` token (only detection makes one,
//! `pqdr_common::simd`), unaligned 32-byte loads and stores of
//! lane arrays (in the division steps' passes through pointers over a
//! range asserted once per pass, storing each register one position over),
//! and one `vpmulhw` as inline assembly on registers
//! (`mulhi`, where LLVM's lowering of the intrinsic falls apart). The intrinsics in between are safe inside a
//! `target_feature` function. No secret-dependent branch, index or
//! division: every loop bound and window position depends on p only.

mod bitonic;
mod encode;
mod fold;
mod mult;
mod ntt;
mod recip;
mod recip3;
mod sort;

pub(crate) use encode::{decode_pairs, encode_pairs};
pub(crate) use fold::{fold_3, fold_q, r3_from_3rq, round};
pub(crate) use mult::schoolbook;
pub(crate) use ntt::{
    ntt_fits, ntt_mul, ntt_mul_sides, ntt_prepare_a, ntt_prepare_b, ntt3_fits, ntt3_mul,
    ntt3_scratch,
};
pub(crate) use recip::{r3_recip, rq_recip3};
pub(crate) use sort::sort_u32;

use core::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};

/// The 16 lanes of `x` as one register.
#[target_feature(enable = "avx2")]
#[inline]
fn load(x: &[i16; 16]) -> __m256i {
    // SAFETY: `x` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
}

/// Stores the 16 lanes of `v` into `x`.
#[target_feature(enable = "avx2")]
#[inline]
fn store(x: &mut [i16; 16], v: __m256i) {
    // SAFETY: `x` is 32 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
}

/// `_mm256_mulhi_epi16` as one `vpmulhw` that LLVM cannot take apart. The
/// intrinsic becomes generic IR (sign extensions, a 32-bit multiply, a
/// shift); when a loop-invariant operand's extension is hoisted out of a
/// loop, the instruction selector no longer sees the pattern and emits it as
/// two `vpmulld` with extensions, shifts and a pack (8 instructions).
#[target_feature(enable = "avx2")]
#[inline]
fn mulhi(a: __m256i, b: __m256i) -> __m256i {
    let r: __m256i;
    // SAFETY: one `vpmulhw` on registers (no memory, stack or flags); AVX2 is
    // enabled for this function, whose callers hold the `Avx2` token.
    unsafe {
        core::arch::asm!(
            "vpmulhw {r}, {a}, {b}",
            r = lateout(ymm_reg) r,
            a = in(ymm_reg) a,
            b = in(ymm_reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}
