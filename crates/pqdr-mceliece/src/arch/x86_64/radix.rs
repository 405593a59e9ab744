//! The radix conversions of the additive FFT on AVX2 (`crate::fft`): the
//! twists f(x) -> f(tau_d x) and the Taylor expansions at x^2 + x
//! (Gao–Mateer §3.1; McBits §3) of every depth, and their transposes (McBits
//! §4), with each plane of the 256 coefficients in one 256-bit register from
//! the first twist to the last: the shifts of the Taylor steps cross the
//! 64-bit words by a word permute, and the twists are 256-bit products.
#![allow(
    clippy::needless_range_loop,
    reason = "the depth and Taylor step indices pick constants and bound the inner loops"
)]

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_and_si256, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_setzero_si256, _mm256_sll_epi64, _mm256_srl_epi64, _mm256_xor_si256,
};

use super::{Bitsliced, load4, mul_planes, store4};
use crate::params::MAX_M;
use pqdr_common::simd::Avx2;

/// Most recursion depths (256 coefficients).
const DEPTHS: usize = 8;

/// The radix conversions of depths 0..k (k <= 8) on the 256 coefficients
/// `x` (`crate::fft`'s layout: position i of every plane is coefficient i),
/// for the spec field of size m (12 or 13). Forward (`crate::fft::fft`'s
/// portable loop): for d = 0..k, x <- x twist[d], then for e = k - 2 down
/// to d, x ^= (x & masks[e][3]) >> 2^e and x ^= (x & masks[e][2]) >> 2^e.
/// Transposed (`crate::fft::fft_tr`'s): for d = k - 1 down to 0, for
/// e = d..k - 1, x ^= (x & masks[e][1]) << 2^e and
/// x ^= (x & masks[e][2]) << 2^e, then x <- x twist[d]. Shifts are by
/// positions (toward position 0 for >>). The kernel rotates the 256
/// positions instead (see [`shift_xor`]). Every plane of `x` is written
/// (from m on: zero, as after the portable loop's last product).
#[inline]
pub(crate) fn radix_conversions<const FORWARD: bool>(
    token: Avx2,
    m: usize,
    x: &mut Bitsliced<4>,
    twist: &[Bitsliced<4>; DEPTHS],
    masks: &[[[u64; 4]; 4]; DEPTHS],
    k: usize,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { radix_avx2::<FORWARD>(m, x, twist, masks, k) }
}

#[target_feature(enable = "avx2")]
fn radix_avx2<const FORWARD: bool>(
    m: usize,
    x: &mut Bitsliced<4>,
    twist: &[Bitsliced<4>; DEPTHS],
    masks: &[[[u64; 4]; 4]; DEPTHS],
    k: usize,
) {
    let k = k.min(DEPTHS);
    let mut v = [_mm256_setzero_si256(); MAX_M];
    for (r, w) in v.iter_mut().zip(x.iter()) {
        *r = load4(w);
    }
    if FORWARD {
        for d in 0..k {
            v = mul_planes(m, &v, &planes(&twist[d]));
            for e in (d..k.saturating_sub(1)).rev() {
                shift_xor::<false>(&mut v, &masks[e][3], e);
                shift_xor::<false>(&mut v, &masks[e][2], e);
            }
        }
    } else {
        for d in (0..k).rev() {
            for e in d..k.saturating_sub(1) {
                shift_xor::<true>(&mut v, &masks[e][1], e);
                shift_xor::<true>(&mut v, &masks[e][2], e);
            }
            v = mul_planes(m, &v, &planes(&twist[d]));
        }
    }
    for (w, &r) in x.iter_mut().zip(v.iter()) {
        store4(w, r);
    }
}

/// The planes of a constant, loaded.
#[target_feature(enable = "avx2")]
#[inline]
fn planes(c: &Bitsliced<4>) -> [__m256i; MAX_M] {
    core::array::from_fn(|b| load4(&c[b]))
}

/// v ^= (v & mask) shifted by 2^e positions on every plane: up (toward
/// position 255) if `UP`, else down. e < 6 shifts bits within the 64-bit
/// words and carries the bits that cross into the neighbouring word; e = 6
/// (the largest: e <= k - 2 with k <= 8) moves whole words. The 256
/// positions are rotated rather than shifted: what wraps around comes from
/// the positions p with (p >> e) & 3 = 0 (the lowest 2^e, going down) or 3
/// (the highest 2^e, going up), which the Taylor masks the callers pass
/// (patterns 2 and 3 going down, 1 and 2 going up) have cleared.
#[target_feature(enable = "avx2")]
#[inline]
fn shift_xor<const UP: bool>(v: &mut [__m256i; MAX_M], mask: &[u64; 4], e: usize) {
    let mk = load4(mask);
    match e {
        0..=5 => {
            let s = 1i32 << e;
            let (by, back) = (_mm_cvtsi32_si128(s), _mm_cvtsi32_si128(64 - s));
            for r in v.iter_mut() {
                let y = _mm256_and_si256(*r, mk);
                let sh = if UP {
                    // Word i gets word i - 1's top bits.
                    let prev = words_up(y);
                    _mm256_or_si256(_mm256_sll_epi64(y, by), _mm256_srl_epi64(prev, back))
                } else {
                    // Word i gets word i + 1's low bits.
                    let next = words_down(y);
                    _mm256_or_si256(_mm256_srl_epi64(y, by), _mm256_sll_epi64(next, back))
                };
                *r = _mm256_xor_si256(*r, sh);
            }
        }
        _ => {
            // e = 6 (k <= 8 gives e <= 6): whole words.
            for r in v.iter_mut() {
                let y = _mm256_and_si256(*r, mk);
                let sh = if UP { words_up(y) } else { words_down(y) };
                *r = _mm256_xor_si256(*r, sh);
            }
        }
    }
}

/// [y3, y0, y1, y2]: the words rotated up one place.
#[target_feature(enable = "avx2")]
#[inline]
fn words_up(y: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0b10_01_00_11>(y)
}

/// [y1, y2, y3, y0]: the words rotated down one place.
#[target_feature(enable = "avx2")]
#[inline]
fn words_down(y: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0b00_11_10_01>(y)
}
