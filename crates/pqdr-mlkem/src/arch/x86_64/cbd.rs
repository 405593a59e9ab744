//! `SamplePolyCBD_2` (FIPS 203 Algorithm 8 with `η = 2`) with AVX2: 128
//! bytes to 256 coefficients in `[-2, 2]`, 32 coefficients per 16 bytes.
//!
//! Each byte holds two coefficients (a nibble each, bits `x₀ x₁ y₀ y₁`):
//! the bytes are widened to 16-bit lanes, the bit pairs summed with masks
//! (`(b & 0x55) + ((b >> 1) & 0x55)`), and `x − y` taken per nibble; the
//! low-nibble and high-nibble results are interleaved back into coefficient
//! order. Computes exactly what `sample::sample_cbd` computes for `η = 2`;
//! no table lookups, branches or addresses depend on the (secret) bytes.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm256_add_epi16, _mm256_and_si256, _mm256_cvtepu8_epi16,
    _mm256_permute2x128_si256, _mm256_set1_epi16, _mm256_srli_epi16, _mm256_storeu_si256,
    _mm256_sub_epi16, _mm256_unpackhi_epi16, _mm256_unpacklo_epi16,
};

use pqdr_common::simd::Avx2;

use crate::poly::N;

/// `SamplePolyCBD_2(B)` of the 128 bytes `b` into `f`.
#[inline]
pub(crate) fn cbd2(token: Avx2, b: &[u8; 128], f: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { cbd2_avx2(b, f) }
}

#[target_feature(enable = "avx2")]
fn cbd2_avx2(b: &[u8; 128], f: &mut [i16; N]) {
    let m55 = _mm256_set1_epi16(0x55);
    let m3 = _mm256_set1_epi16(3);
    for (o, x) in f
        .as_chunks_mut::<32>()
        .0
        .iter_mut()
        .zip(b.as_chunks::<16>().0)
    {
        // SAFETY: `x` is 16 readable bytes; `loadu` has no alignment requirement.
        let w = _mm256_cvtepu8_epi16(unsafe { _mm_loadu_si128(x.as_ptr().cast::<__m128i>()) });
        let d = _mm256_add_epi16(
            _mm256_and_si256(w, m55),
            _mm256_and_si256(_mm256_srli_epi16::<1>(w), m55),
        );
        let lo = _mm256_sub_epi16(
            _mm256_and_si256(d, m3),
            _mm256_and_si256(_mm256_srli_epi16::<2>(d), m3),
        );
        let hi = _mm256_sub_epi16(
            _mm256_and_si256(_mm256_srli_epi16::<4>(d), m3),
            _mm256_and_si256(_mm256_srli_epi16::<6>(d), m3),
        );
        // Bytes 0–7 sit in the low half, 8–15 in the high half: interleaving
        // gives coefficients [0..8 | 16..24] and [8..16 | 24..32].
        let a = _mm256_unpacklo_epi16(lo, hi);
        let c = _mm256_unpackhi_epi16(lo, hi);
        let (first, second) = o.split_at_mut(16);
        // SAFETY: each half of `o` is 16 writable `i16` (32 bytes); `storeu`
        // has no alignment requirement.
        unsafe {
            _mm256_storeu_si256(
                first.as_mut_ptr().cast::<__m256i>(),
                _mm256_permute2x128_si256::<0x20>(a, c),
            );
            _mm256_storeu_si256(
                second.as_mut_ptr().cast::<__m256i>(),
                _mm256_permute2x128_si256::<0x31>(a, c),
            );
        }
    }
}
