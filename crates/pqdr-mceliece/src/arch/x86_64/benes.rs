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
/// in reverse order with `inverse`. Needs 9 <= w and every `xs[j]` of
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
    // Position i of the run order runs layer j (stride 2^s). Strides
    // below 2^8 (s < 8) stay inside a 4-word chunk, one register per
    // vector: the first eight positions (s = 0..7) and the last eight
    // (s = 7..0) each run fused in one pass over the chunks; layer j is s or
    // its mirror 2w - 2 - s.
    let mirror = 2 * w - 2;
    fused::<N, true>(xs, control_bits, layer_bytes, words, |s| {
        if inverse { mirror - s } else { s }
    });
    for i in 8..layers - 8 {
        let j = if inverse { layers - 1 - i } else { i };
        let s = if j < w { j } else { mirror - j };
        let ctl = &control_bits[j * layer_bytes..(j + 1) * layer_bytes];
        wide(xs, ctl, s - 6, words);
    }
    fused::<N, false>(xs, control_bits, layer_bytes, words, |s| {
        if inverse { s } else { mirror - s }
    });
}

/// Runs `$body` with `$s` bound to 0, 1, ..., 7 (`UP`) or 7, ..., 0,
/// unrolled: `$s` is a constant in each copy.
macro_rules! for_strides {
    ($up:expr, |$s:ident| $body:block) => {
        if $up {
            for_strides!(@ $s, $body, 0 1 2 3 4 5 6 7)
        } else {
            for_strides!(@ $s, $body, 7 6 5 4 3 2 1 0)
        }
    };
    (@ $s:ident, $body:block, $($i:literal)*) => {{
        $({
            let $s: usize = $i;
            $body
        })*
    }};
}

/// The eight layers of strides 2^0..2^7 (`UP`; else 2^7..2^0), stride 2^s
/// with the control bits of layer `layer_of(s)`, fused: each 4-word chunk
/// of every vector is loaded once, runs the eight layers in its register
/// ([`in_register`]) and is stored once.
#[target_feature(enable = "avx2")]
#[allow(
    clippy::needless_range_loop,
    reason = "chunk k of every vector and of eight control layers, walked in step"
)]
fn fused<const N: usize, const UP: bool>(
    xs: &mut [&mut [u64]; N],
    control_bits: &[u8],
    layer_bytes: usize,
    words: usize,
    layer_of: impl Fn(usize) -> usize,
) {
    let ctl: [&[[u8; 16]]; 8] = core::array::from_fn(|s| {
        let j = layer_of(s);
        control_bits[j * layer_bytes..(j + 1) * layer_bytes]
            .as_chunks::<16>()
            .0
    });
    for k in 0..words >> 2 {
        let mut v: [__m256i; N] = core::array::from_fn(|n| load4(&xs[n].as_chunks::<4>().0[k]));
        for_strides!(UP, |s| {
            in_register(&mut v, &ctl[s][k], s);
        });
        for (x, v) in xs.iter_mut().zip(v) {
            store4(&mut x.as_chunks_mut::<4>().0[k], v);
        }
    }
}

/// One layer of stride 2^s (s < 8) on one 4-word chunk of each vector in
/// `v`, with the chunk's 16 control bytes `c`: inside each word for s < 6
/// (the 32 control bits of a word spread to the lower position of each of
/// its pairs, then d = (x ^ x >> 2^s) & mask, x ^= d ^ d << 2^s), words
/// [l0, u0, l1, u1] for s = 6 (control words [c0, c0, c1, c1]), words
/// [l0, l1, u0, u1] for s = 7 (control words [c0, c1, c0, c1]).
#[target_feature(enable = "avx2")]
#[inline]
fn in_register<const N: usize>(v: &mut [__m256i; N], c: &[u8; 16], s: usize) {
    const STEPS: [(i32, u64); 5] = [
        (16, 0x0000_FFFF_0000_FFFF),
        (8, 0x00FF_00FF_00FF_00FF),
        (4, 0x0F0F_0F0F_0F0F_0F0F),
        (2, 0x3333_3333_3333_3333),
        (1, 0x5555_5555_5555_5555),
    ];
    match s {
        0..6 => {
            // Four 32-bit control words, zero-extended to the 64-bit lanes.
            let mut mask = _mm256_cvtepu32_epi64(load16(c));
            for &(g, m) in STEPS.iter().take(5 - s) {
                let shifted = _mm256_sll_epi64(mask, _mm_cvtsi32_si128(g));
                mask =
                    _mm256_and_si256(_mm256_or_si256(mask, shifted), _mm256_set1_epi64x(m as i64));
            }
            let stride = _mm_cvtsi32_si128(1 << s);
            for x in v.iter_mut() {
                let d = _mm256_and_si256(_mm256_xor_si256(*x, _mm256_srl_epi64(*x, stride)), mask);
                *x = _mm256_xor_si256(*x, _mm256_xor_si256(d, _mm256_sll_epi64(d, stride)));
            }
        }
        6 => {
            // [c0, c0, c1, c1]; partner [u0, l0, u1, l1].
            let c = _mm256_permute4x64_epi64::<0b01_01_00_00>(_mm256_castsi128_si256(load16(c)));
            for x in v.iter_mut() {
                let partner = _mm256_shuffle_epi32::<0b01_00_11_10>(*x);
                *x = _mm256_xor_si256(*x, _mm256_and_si256(_mm256_xor_si256(*x, partner), c));
            }
        }
        _ => {
            // [c0, c1, c0, c1]; partner [u0, u1, l0, l1].
            let c = _mm256_broadcastsi128_si256(load16(c));
            for x in v.iter_mut() {
                let partner = _mm256_permute4x64_epi64::<0b01_00_11_10>(*x);
                *x = _mm256_xor_si256(*x, _mm256_and_si256(_mm256_xor_si256(*x, partner), c));
            }
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
