//! `SamplePolyCBD_η` (FIPS 203 Algorithm 8) with AVX2 for `η = 2` (128
//! bytes to 256 coefficients in `[-2, 2]`, 32 coefficients per 16 bytes)
//! and `η = 3` (192 bytes to 256 coefficients in `[-3, 3]`, 32 coefficients
//! per 24 bytes, see [`cbd3`]).
//!
//! Each byte holds two coefficients (a nibble each, bits `x₀ x₁ y₀ y₁`):
//! the bytes are widened to 16-bit lanes, the bit pairs summed with masks
//! (`(b & 0x55) + ((b >> 1) & 0x55)`), and `x − y` taken per nibble; the
//! low-nibble and high-nibble results are interleaved back into coefficient
//! order. Computes exactly what `sample::sample_cbd` computes for `η = 2`;
//! no table lookups, branches or addresses depend on the (secret) bytes.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm256_add_epi16, _mm256_add_epi32, _mm256_and_si256,
    _mm256_cvtepu8_epi16, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_m128i,
    _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi32,
    _mm256_srli_epi16, _mm256_srli_epi32, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_sub_epi32,
    _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32,
};

use pqdr_common::simd::Avx2;

use crate::field::N;

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

/// `SamplePolyCBD_3(B)` of the 192 bytes `b` into `f`.
///
/// Each 3 bytes (24 bits, little-endian) give four coefficients, bits
/// `x₀ x₁ x₂ y₀ y₁ y₂` each (Algorithm 8, lines 2–6 with `η = 3`): a byte
/// shuffle puts the eight 3-byte groups of 24 input bytes into the eight
/// 32-bit lanes, the three bits of every 3-bit field are summed with masks
/// (`(t & 0x249249) + ((t >> 1) & 0x249249) + ((t >> 2) & 0x249249)`), and
/// `x − y` is taken per 6-bit field, four per lane; the four results of a
/// lane are packed into 16-bit coefficients and put back in order. The same
/// arithmetic as `sample::sample_cbd_portable` with `η = 3`; no table
/// lookups, branches or addresses depend on the (secret) bytes.
#[inline]
pub(crate) fn cbd3(token: Avx2, b: &[u8; 192], f: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { cbd3_avx2(b, f) }
}

#[target_feature(enable = "avx2")]
fn cbd3_avx2(b: &[u8; 192], f: &mut [i16; N]) {
    // Lane k of each 128-bit half takes the half's bytes 3k, 3k + 1, 3k + 2
    // (the low half loads bytes 0..16 of the 24, the high half 8..24 and
    // uses its bytes 4..16 = group bytes 12..24).
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
    );
    let m249 = _mm256_set1_epi32(0x0024_9249);
    let m7 = _mm256_set1_epi32(7);
    let mffff = _mm256_set1_epi32(0xffff);
    for (o, x) in f
        .as_chunks_mut::<32>()
        .0
        .iter_mut()
        .zip(b.as_chunks::<24>().0)
    {
        // SAFETY: `x` is 24 readable bytes: the loads read bytes 0..16 and
        // 8..24; `loadu` has no alignment requirement.
        let (lo, hi) = unsafe {
            (
                _mm_loadu_si128(x.as_ptr().cast::<__m128i>()),
                _mm_loadu_si128(x[8..].as_ptr().cast::<__m128i>()),
            )
        };
        let t = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), spread);
        let d = _mm256_add_epi32(
            _mm256_add_epi32(
                _mm256_and_si256(t, m249),
                _mm256_and_si256(_mm256_srli_epi32::<1>(t), m249),
            ),
            _mm256_and_si256(_mm256_srli_epi32::<2>(t), m249),
        );
        // Coefficient j of the lane: field 2j minus field 2j + 1.
        macro_rules! coeff {
            ($a:literal, $c:literal) => {
                _mm256_sub_epi32(
                    _mm256_and_si256(_mm256_srli_epi32::<$a>(d), m7),
                    _mm256_and_si256(_mm256_srli_epi32::<$c>(d), m7),
                )
            };
        }
        let e0 = _mm256_sub_epi32(
            _mm256_and_si256(d, m7),
            _mm256_and_si256(_mm256_srli_epi32::<3>(d), m7),
        );
        let e1 = coeff!(6, 9);
        let e2 = coeff!(12, 15);
        let e3 = coeff!(18, 21);
        // Lane k: coefficients (4k, 4k + 1) and (4k + 2, 4k + 3) as 16-bit pairs.
        let p01 = _mm256_or_si256(_mm256_and_si256(e0, mffff), _mm256_slli_epi32::<16>(e1));
        let p23 = _mm256_or_si256(_mm256_and_si256(e2, mffff), _mm256_slli_epi32::<16>(e3));
        // Per half: lanes 0, 1 give coefficients 0..8 (16..24 in the high
        // half), lanes 2, 3 give 8..16 (24..32).
        let a = _mm256_unpacklo_epi32(p01, p23);
        let c = _mm256_unpackhi_epi32(p01, p23);
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
