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
mod sha512;
mod sort;

pub(crate) use encode::{decode_pairs, encode_pairs, small_decode, small_encode};
pub(crate) use fold::{fold_3, fold_q, freeze_folded, r3_from_3rq, round};
pub(crate) use mult::schoolbook;
pub(crate) use ntt::three::ntt3_folds;
pub(crate) use ntt::{ntt3_fits, ntt3_mul, ntt3_mul_sides, ntt3_parts, ntt3_prepare, ntt3_scratch};
pub(crate) use recip::{r3_recip, rq_recip3};
pub(crate) use sha512::sha512_blocks;
pub(crate) use sort::sort_u32;

use core::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_setzero_si256, _mm256_storeu_si256};
use pqdr_common::simd::Avx2;

/// The memory of `x` as bytes, for `Short_random`'s one 4p-byte draw
/// (`sample::random_words`) straight into its word list: x86-64 is little
/// endian, so word i is `u32::from_le_bytes` of bytes 4i..4i + 4, the words
/// the portable path converts from a separate byte buffer (twin:
/// `random_words_on(.., None)`; test `sample::tests::avx2_draw_matches_portable`).
/// The token only selects the path (no AVX2 instruction here).
#[inline(always)]
pub(crate) fn words_as_bytes(token: Avx2, x: &mut [u32]) -> &mut [u8] {
    let _ = token;
    let len = size_of_val(x);
    // SAFETY: the pointer and length cover exactly `x`'s memory, which the
    // returned slice borrows mutably for as long as `x` was (no alias); u8 has
    // alignment 1; u32 has no padding and every byte pattern is a valid u32.
    unsafe { core::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<u8>(), len) }
}

/// The memory of `Decap`'s product scratch (`mult::Scratch`, 6p bytes) as
/// bytes, for the re-encrypted ciphertext once the last product is done
/// (`kem::reencrypt`), so that it needs no buffer (and no zero fill, nor
/// a wipe of its own: the scratch is wiped at the end). The token only
/// selects the path (no AVX2 instruction here); twin: `reencrypt`'s own
/// buffer (`kem::compare_own`).
#[inline(always)]
pub(crate) fn scratch_bytes<const P: usize>(token: Avx2, x: &mut [[i16; P]; 3]) -> &mut [u8] {
    let _ = token;
    let len = size_of_val(x);
    // SAFETY: the pointer and length cover exactly `x`'s memory, which the
    // returned slice borrows mutably for as long as `x` was (no alias); u8 has
    // alignment 1; i16 has no padding and every byte pattern is a valid i16.
    unsafe { core::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<u8>(), len) }
}

/// The first 4p bytes of `Encap`'s product scratch as `Short_random`'s
/// list of p words (`ListScratch`), so that the list needs no buffer (and
/// no zero fill) of its own. The token only selects the path (no AVX2
/// instruction here); twin: `sample::short_random`'s own list.
#[inline(always)]
pub(crate) fn scratch_words<const P: usize>(
    token: Avx2,
    x: &mut super::ListScratch<P>,
) -> &mut [u32; P] {
    let _ = token;
    const { assert!(size_of::<[u32; P]>() <= size_of::<super::ListScratch<P>>()) };
    // SAFETY: `ListScratch` is 4-byte aligned and (asserted above) at least
    // 4p bytes, all of them initialized i16 (repr(C), no padding before `s`);
    // every byte pattern is a valid u32; the result borrows `x` mutably for
    // as long as `x` was (no alias).
    unsafe { &mut *core::ptr::from_mut(x).cast::<[u32; P]>() }
}

/// `x ← 0` with 32-byte stores: twin of `zeroize` on the same slice
/// (`wipe::Wipe`'s buffers of any [`Plain`](super::Plain) entries: the
/// products' i16 scratch, the i8 polynomials, byte strings and
/// `Short_random`'s word list). The stores are kept by an empty `asm!` block that
/// receives the address and may read any memory (no `nomem` /
/// `readonly`), so the compiler must complete them before it, as for
/// `zeroize`'s volatile writes (pqdr-mldsa's `clear.rs`, BoringSSL's
/// `OPENSSL_cleanse`). No secret-dependent branch or address.
#[inline]
pub(crate) fn wipe<T: super::Plain>(token: Avx2, x: &mut [T]) {
    let _ = token;
    let len = size_of_val(x);
    // SAFETY: the pointer and length cover exactly `x`'s memory, borrowed
    // mutably for this call only (no alias); u8 has alignment 1; `Plain`
    // entries are integers (no padding, every byte pattern valid, all-zero
    // bytes the value 0).
    let bytes = unsafe { core::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<u8>(), len) };
    // SAFETY: the token proves AVX2 was detected.
    unsafe { wipe_avx2(bytes) }
    // SAFETY: an empty instruction sequence; it only names the address (no
    // stack use, flags kept). Without `nomem` the compiler assumes it reads
    // the buffer, so the zero stores above cannot be removed.
    unsafe {
        core::arch::asm!("/* {0} */", in(reg) x.as_mut_ptr(), options(nostack, preserves_flags));
    }
}

/// 32 bytes a store; the last store of a slice of at least 32 bytes ends at
/// its end (overlapping the one before), shorter slices byte by byte.
#[target_feature(enable = "avx2")]
fn wipe_avx2(x: &mut [u8]) {
    // Opaque, so that LLVM does not turn the loop into a `memset` call.
    let zero = core::hint::black_box(_mm256_setzero_si256());
    let n = x.len();
    let (chunks, rest) = x.as_chunks_mut::<32>();
    let tail = !rest.is_empty();
    for c in chunks {
        // SAFETY: `c` is 32 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), zero) }
    }
    if n < 32 {
        for b in x {
            *b = 0;
        }
    } else if tail {
        let last = &mut x[n - 32..];
        // SAFETY: `last` is 32 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(last.as_mut_ptr().cast(), zero) }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// `wipe` zeroes exactly the slice, like `zeroize`, with the entries
    /// around it left alone: every length 0..=100 at every offset mod 32,
    /// and the buffers' sizes (i16: the products' scratch; u8: a ciphertext,
    /// i8: a polynomial, u32: `Short_random`'s list), entries never zero before.
    fn check<T: crate::arch::Plain + Default + PartialEq + core::fmt::Debug>(
        token: Avx2,
        sizes: &[usize],
        entry: fn(u32) -> T,
    ) {
        let mut s = 7u32;
        for &len in (0..=100).collect::<std::vec::Vec<_>>().iter().chain(sizes) {
            for off in 0..32 {
                let mut buf: std::vec::Vec<T> = (0..len + 64)
                    .map(|_| {
                        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        entry((s >> 16) | 1)
                    })
                    .collect();
                let before = buf.clone();
                wipe(token, &mut buf[off..off + len]);
                for (i, (v, w)) in buf.iter().zip(&before).enumerate() {
                    let want = if (off..off + len).contains(&i) {
                        T::default()
                    } else {
                        *w
                    };
                    assert_eq!(*v, want, "len {len}, offset {off}, entry {i}");
                }
            }
        }
    }

    #[test]
    fn wipe_matches_zeroize() {
        let Some(token) = Avx2::detect() else { return };
        check::<i16>(token, &[1277, 2283, 3831, 4096], |x| x as i16);
        check::<u8>(token, &[320, 1039, 1879], |x| x as u8);
        check::<i8>(token, &[761, 1277], |x| x as i8);
        check::<u32>(token, &[653, 761, 1277], |x| x);
    }
}
