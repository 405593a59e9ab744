//! One level of `Encode` (NTRU Prime spec §3.1, the general-purpose
//! encoding; reference `Encode`) with AVX2: eight pairs per register. Twin
//! of the pair loop of `encode::encode` (the portable code's `emit_bytes`
//! on pairs whose moduli are both `m`).
//!
//! Pair k of a level merges `x = r[2k] + m r[2k + 1]` (`r[i] < m < 16384`,
//! so `x < 2^28`), emits the `bytes` (0, 1 or 2) low bytes of x to
//! `out[k bytes ..]`, low byte first, and keeps `x >> 8 bytes` in `r[k]`.
//! `vpmaddwd` with the word pair `(1, m)` makes the eight x of sixteen
//! coefficients; the low bytes and the new values are packed back with
//! `vpackusdw` / `vpackuswb` and one lane permute. The level's byte count
//! and m are public (parameters); no data-dependent branch or index.

use core::arch::x86_64::{
    __m256i, _mm_storel_epi64, _mm_storeu_si128, _mm256_and_si256, _mm256_castsi256_si128,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_packus_epi16, _mm256_packus_epi32,
    _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_srli_epi32,
};

use pqdr_common::simd::Avx2;

/// Pairs per block (one register of sixteen coefficients).
const B: usize = 8;

/// The eight 32-bit lanes of `v` (each below 2^16) as eight u16 in the low
/// 128 bits.
#[target_feature(enable = "avx2")]
#[inline]
fn low_words(v: __m256i) -> __m256i {
    let w = _mm256_packus_epi32(v, _mm256_setzero_si256());
    _mm256_permute4x64_epi64::<0b1000>(w)
}

/// [`encode_pairs`] with AVX2 enabled.
#[target_feature(enable = "avx2")]
fn encode_pairs_avx2(out: &mut [u8], r: &mut [i16], blocks: usize, m: u32, bytes: usize) {
    #[allow(clippy::cast_possible_wrap, reason = "m < 16384")]
    let mm = _mm256_set1_epi32(((m << 16) | 1) as i32);
    let byte0 = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
    for blk in 0..blocks {
        let src = &r[2 * B * blk..2 * B * (blk + 1)];
        // SAFETY: `src` is 16 readable `i16` (32 bytes); `loadu` has no alignment requirement.
        let v = unsafe { _mm256_loadu_si256(src.as_ptr().cast()) };
        let x = _mm256_madd_epi16(v, mm);
        let o = &mut out[bytes * B * blk..bytes * B * (blk + 1)];
        let rest = match bytes {
            0 => x,
            1 => {
                let lo = _mm256_and_si256(x, _mm256_set1_epi32(0xff));
                let w = _mm256_packus_epi32(lo, _mm256_setzero_si256());
                let b = _mm256_packus_epi16(w, _mm256_setzero_si256());
                let b = _mm256_permutevar8x32_epi32(b, byte0);
                // SAFETY: `o` is 8 writable bytes; `storel_epi64` writes 8 bytes, unaligned.
                unsafe { _mm_storel_epi64(o.as_mut_ptr().cast(), _mm256_castsi256_si128(b)) };
                _mm256_srli_epi32::<8>(x)
            }
            _ => {
                let lo = _mm256_and_si256(x, _mm256_set1_epi32(0xffff));
                let w = low_words(lo);
                // SAFETY: `o` is 16 writable bytes; `storeu_si128` has no alignment requirement.
                unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), _mm256_castsi256_si128(w)) };
                _mm256_srli_epi32::<16>(x)
            }
        };
        let dst = &mut r[B * blk..B * (blk + 1)];
        // SAFETY: `dst` is 8 writable `i16` (16 bytes), below the pairs not yet
        // read (block blk + 1 reads from 16 (blk + 1) > 8 (blk + 1)); unaligned store.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm256_castsi256_si128(low_words(rest))) };
    }
}

/// Pairs `0 .. 8 (pairs / 8)` of one `Encode` level whose pairs have both
/// moduli `m < 16384` and emit `bytes <= 2` bytes each: bytes to
/// `out[.. 8 bytes (pairs / 8)]`, the merged values to `r[k]`. Returns the
/// number of pairs done (the caller's scalar loop does the rest).
#[inline]
pub(crate) fn encode_pairs(
    token: Avx2,
    out: &mut [u8],
    r: &mut [i16],
    pairs: usize,
    m: u32,
    bytes: usize,
) -> usize {
    let _ = token;
    assert!(m < 16384 && bytes <= 2 && 2 * pairs <= r.len() && bytes * pairs <= out.len());
    let blocks = pairs / B;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { encode_pairs_avx2(out, r, blocks, m, bytes) };
    blocks * B
}
