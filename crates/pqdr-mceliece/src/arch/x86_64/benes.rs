//! The Beneš network on packed bit vectors (`crate::benes::apply_bits`,
//! Classic McEliece spec §2.4.2 / §3.3 control bits; McBits, CHES 2013, §5)
//! on AVX2: four 64-bit words per 256-bit register, so one register
//! operation conditionally swaps the pairs of four words. Same layers, same
//! control-bit order and the same result as the portable code; no branch or
//! address depends on the (secret) control bits or the vectors.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_cvtsi32_si128, _mm_loadu_si128, _mm256_and_si256,
    _mm256_broadcastsi128_si256, _mm256_castsi128_si256, _mm256_cvtepu32_epi64, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set1_epi64x, _mm256_shuffle_epi32,
    _mm256_sll_epi64, _mm256_srl_epi64, _mm256_xor_si256,
};

use super::{load4, store4};
use pqdr_common::simd::Avx2;

/// `crate::benes::apply_bits` on AVX2: the 2w - 1 layers of the network on
/// the N bit vectors `xs` (2^w bits each, as 2^(w-6) little-endian words),
/// in reverse order with `inverse`. Needs 8 <= w and every `xs[j]` of
/// exactly 2^(w-6) words, `control_bits` at least (2w - 1) 2^(w-4) bytes
/// (the caller checks; else a slice index panics).
#[inline]
pub(crate) fn benes_bits<const N: usize>(
    token: Avx2,
    xs: &mut [&mut [u64]; N],
    control_bits: &[u8],
    w: usize,
    inverse: bool,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { benes_avx2::<N>(xs, control_bits, w, inverse) }
}

#[target_feature(enable = "avx2")]
fn benes_avx2<const N: usize>(
    xs: &mut [&mut [u64]; N],
    control_bits: &[u8],
    w: usize,
    inverse: bool,
) {
    let words = 1usize << (w - 6);
    // One layer: 2^(w-1) pairs, one control bit each.
    let layer_bytes = 1usize << (w - 4);
    let layers = 2 * w - 1;
    for j in 0..layers {
        let j = if inverse { layers - 1 - j } else { j };
        let s = if j < w { j } else { 2 * w - 2 - j };
        let ctl = &control_bits[j * layer_bytes..(j + 1) * layer_bytes];
        match s {
            0..6 => in_word(xs, ctl, s, words),
            6 => stride1(xs, ctl, words),
            7 => stride2(xs, ctl, words),
            _ => wide(xs, ctl, s - 6, words),
        }
    }
}

/// 16 control bytes as a 128-bit register.
#[target_feature(enable = "avx2")]
#[inline]
fn load16(c: &[u8; 16]) -> __m128i {
    // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(c.as_ptr().cast::<__m128i>()) }
}

/// 32 control bytes as a register: four little-endian 64-bit words (x86-64
/// is little-endian).
#[target_feature(enable = "avx2")]
#[inline]
fn load32(c: &[u8; 32]) -> __m256i {
    // SAFETY: `c` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast::<__m256i>()) }
}

/// Stride 2^s < 64 (inside each word): word i's 32 control bits (bytes
/// 4i..4i + 4) spread to the lower position of each of its pairs (the
/// positions with bit s clear), then d = (x ^ x >> 2^s) & mask,
/// x ^= d ^ d << 2^s; four words per step.
#[target_feature(enable = "avx2")]
fn in_word<const N: usize>(xs: &mut [&mut [u64]; N], ctl: &[u8], s: usize, words: usize) {
    const STEPS: [(i32, u64); 5] = [
        (16, 0x0000_FFFF_0000_FFFF),
        (8, 0x00FF_00FF_00FF_00FF),
        (4, 0x0F0F_0F0F_0F0F_0F0F),
        (2, 0x3333_3333_3333_3333),
        (1, 0x5555_5555_5555_5555),
    ];
    let stride = _mm_cvtsi32_si128(1 << s);
    let ctl16 = ctl.as_chunks::<16>().0;
    for (k, c) in ctl16.iter().enumerate().take(words >> 2) {
        // Four 32-bit control words, zero-extended to the 64-bit lanes.
        let mut mask = _mm256_cvtepu32_epi64(load16(c));
        for &(g, m) in STEPS.iter().take(5 - s) {
            let shifted = _mm256_sll_epi64(mask, _mm_cvtsi32_si128(g));
            mask = _mm256_and_si256(_mm256_or_si256(mask, shifted), _mm256_set1_epi64x(m as i64));
        }
        for x in xs.iter_mut() {
            let chunk = &mut x.as_chunks_mut::<4>().0[k];
            let v = load4(chunk);
            let d = _mm256_and_si256(_mm256_xor_si256(v, _mm256_srl_epi64(v, stride)), mask);
            let v = _mm256_xor_si256(v, _mm256_xor_si256(d, _mm256_sll_epi64(d, stride)));
            store4(chunk, v);
        }
    }
}

/// Stride one word: the four words [l0, u0, l1, u1] hold two pairs, their
/// control words are c0, c1 (pair index = lower word / 2).
#[target_feature(enable = "avx2")]
fn stride1<const N: usize>(xs: &mut [&mut [u64]; N], ctl: &[u8], words: usize) {
    let ctl16 = ctl.as_chunks::<16>().0;
    for (k, c) in ctl16.iter().enumerate().take(words >> 2) {
        // [c0, c0, c1, c1].
        let c = _mm256_castsi128_si256(load16(c));
        let c = _mm256_permute4x64_epi64::<0b01_01_00_00>(c);
        for x in xs.iter_mut() {
            let chunk = &mut x.as_chunks_mut::<4>().0[k];
            let v = load4(chunk);
            // [u0, l0, u1, l1].
            let partner = _mm256_shuffle_epi32::<0b01_00_11_10>(v);
            let d = _mm256_and_si256(_mm256_xor_si256(v, partner), c);
            store4(chunk, _mm256_xor_si256(v, d));
        }
    }
}

/// Stride two words: the four words [l0, l1, u0, u1] hold two pairs, their
/// control words c0, c1.
#[target_feature(enable = "avx2")]
fn stride2<const N: usize>(xs: &mut [&mut [u64]; N], ctl: &[u8], words: usize) {
    let ctl16 = ctl.as_chunks::<16>().0;
    for (k, c) in ctl16.iter().enumerate().take(words >> 2) {
        // [c0, c1, c0, c1].
        let c = _mm256_broadcastsi128_si256(load16(c));
        for x in xs.iter_mut() {
            let chunk = &mut x.as_chunks_mut::<4>().0[k];
            let v = load4(chunk);
            // [u0, u1, l0, l1].
            let partner = _mm256_permute4x64_epi64::<0b01_00_11_10>(v);
            let d = _mm256_and_si256(_mm256_xor_si256(v, partner), c);
            store4(chunk, _mm256_xor_si256(v, d));
        }
    }
}

/// Stride ws = 2^ls >= 4 words: in each block of 2 ws words, lower words i and
/// upper words i + ws, four pairs per step; the pairs (and their control
/// words) are numbered in order of the lower word across the blocks.
#[target_feature(enable = "avx2")]
fn wide<const N: usize>(xs: &mut [&mut [u64]; N], ctl: &[u8], ls: usize, words: usize) {
    let ws = 1 << ls;
    let quads = ws >> 2;
    let ctl32 = ctl.as_chunks::<32>().0;
    for block in 0..words >> (ls + 1) {
        for q in 0..quads {
            // Pairs block ws + 4q .. + 4: control bytes 8 (block ws + 4q)...
            let c = load32(&ctl32[block * quads + q]);
            for x in xs.iter_mut() {
                let (lo, hi) = x[2 * ws * block..2 * ws * (block + 1)].split_at_mut(ws);
                let (lo, hi) = (
                    &mut lo.as_chunks_mut::<4>().0[q],
                    &mut hi.as_chunks_mut::<4>().0[q],
                );
                let (a, b) = (load4(lo), load4(hi));
                let d = _mm256_and_si256(_mm256_xor_si256(a, b), c);
                store4(lo, _mm256_xor_si256(a, d));
                store4(hi, _mm256_xor_si256(b, d));
            }
        }
    }
}
