//! Beneš network (Classic McEliece spec §2.4.2 / §3.3 "field ordering" encoded as control bits).
//!
//! The network for 2^w positions has 2w - 1 layers of 2^(w-1) conditional
//! swaps: layers with stride 2^0, 2^1, ..., 2^(w-1), then 2^(w-2), ..., 2^0.
//! Within a layer the swaps are numbered in order of their lower position.
//! Control bit k of the byte string is bit k mod 8 of byte k / 8.
//!
//! [`apply_bits`] runs the same network on a vector of 2^w bits packed in
//! 64-bit words (McBits, Bernstein–Chou–Schwabe CHES 2013, §5: the support
//! permutation applied to bit vectors instead of field elements): strides of
//! 64 and more swap whole words under a word of control bits, smaller strides
//! swap bits inside each word under 32 control bits spread to the lower
//! position of every pair.
// ref: controlbits.c (`layer`), benes.c

use crate::arch::{self, Avx2};
use crate::ct::cswap_u16;

/// One layer: conditionally swaps `p[i]` and `p[i + 2^s]` for each pair.
fn layer(p: &mut [u16], control_bits: &[u8], s: usize, first_bit: usize) {
    let stride = 1 << s;
    let mut index = first_bit;
    for blk in p.chunks_exact_mut(2 * stride) {
        let (lo, hi) = blk.split_at_mut(stride);
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let bit = u16::from((control_bits[index >> 3] >> (index & 7)) & 1);
            cswap_u16(a, b, bit);
            index += 1;
        }
    }
}

/// Applies the whole network to `p` (length 2^w): afterwards `p[i]` holds the
/// old `p[pi(i)]`, where pi is the permutation the control bits encode.
pub(crate) fn apply(p: &mut [u16], control_bits: &[u8], w: usize) {
    let step = p.len() >> 1; // bits per layer
    let mut off = 0;
    for s in 0..w {
        layer(p, control_bits, s, off);
        off += step;
    }
    for s in (0..w - 1).rev() {
        layer(p, control_bits, s, off);
        off += step;
    }
}

/// Spreads the 32 control bits of one word's pairs at stride 2^s (s < 6) to
/// the lower position of each pair (positions with bit s clear, in order).
#[inline(always)]
fn spread(c: u32, s: usize) -> u64 {
    const STEPS: [(u32, u64); 5] = [
        (16, 0x0000_FFFF_0000_FFFF),
        (8, 0x00FF_00FF_00FF_00FF),
        (4, 0x0F0F_0F0F_0F0F_0F0F),
        (2, 0x3333_3333_3333_3333),
        (1, 0x5555_5555_5555_5555),
    ];
    let mut y = u64::from(c);
    for &(g, mask) in STEPS.iter().take(5 - s) {
        y = (y | (y << g)) & mask;
    }
    y
}

/// Little-endian word of `control_bits` at byte offset `at` (`N` bytes).
#[inline(always)]
fn load_le<const N: usize>(control_bits: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..N].copy_from_slice(&control_bits[at..at + N]);
    u64::from_le_bytes(b)
}

/// One layer on packed bits: conditionally swaps bits i and i + 2^s of
/// every vector in `xs` (the control words are loaded once for all).
fn layer_bits<const N: usize>(
    xs: &mut [&mut [u64]; N],
    control_bits: &[u8],
    s: usize,
    first_bit: usize,
) {
    let at = first_bit >> 3;
    let words = xs[0].len();
    if s >= 6 {
        let word_stride = 1 << (s - 6);
        let mut pair = 0; // index of the word pair, and of its control word
        for base in (0..words).step_by(2 * word_stride) {
            for i in base..base + word_stride {
                let c = load_le::<8>(control_bits, at + 8 * pair);
                for x in xs.iter_mut() {
                    let d = (x[i] ^ x[i + word_stride]) & c;
                    x[i] ^= d;
                    x[i + word_stride] ^= d;
                }
                pair += 1;
            }
        }
    } else {
        match s {
            0 => in_word::<N, 0>(xs, control_bits, at),
            1 => in_word::<N, 1>(xs, control_bits, at),
            2 => in_word::<N, 2>(xs, control_bits, at),
            3 => in_word::<N, 3>(xs, control_bits, at),
            4 => in_word::<N, 4>(xs, control_bits, at),
            _ => in_word::<N, 5>(xs, control_bits, at),
        }
    }
}

/// The in-word layer of stride 2^S (S < 6), control bits from byte `at`.
#[inline(never)]
fn in_word<const N: usize, const S: usize>(
    xs: &mut [&mut [u64]; N],
    control_bits: &[u8],
    at: usize,
) {
    let stride = 1 << S;
    for i in 0..xs[0].len() {
        let mask = spread(load_le::<4>(control_bits, at + 4 * i) as u32, S);
        for x in xs.iter_mut() {
            let d = (x[i] ^ (x[i] >> stride)) & mask;
            x[i] ^= d ^ (d << stride);
        }
    }
}

/// [`apply`] on N bit vectors of 2^w bits each (every `xs[j]` holds
/// 2^(w-6) words, bit i of a vector is bit i & 63 of word i >> 6):
/// afterwards bit i is the old bit pi(i). With `inverse`, the layers run in
/// reverse order: bit pi(i) becomes the old bit i. On AVX2 CPUs (feature
/// `simd`), `crate::arch::benes_bits` runs the same layers.
pub(crate) fn apply_bits<const N: usize>(
    xs: [&mut [u64]; N],
    control_bits: &[u8],
    w: usize,
    inverse: bool,
) {
    apply_bits_with(xs, control_bits, w, inverse, arch::avx2());
}

/// [`apply_bits`] on the AVX2 path with an `avx2` token (only detection
/// makes one) where the sizes fit it (w >= 9, 2^(w-6) words per vector, all
/// control bits present), else on the portable one.
fn apply_bits_with<const N: usize>(
    mut xs: [&mut [u64]; N],
    control_bits: &[u8],
    w: usize,
    inverse: bool,
    avx2: Option<Avx2>,
) {
    let step = 1 << (w - 1);
    let layers = 2 * w - 1;
    if let Some(token) = avx2 {
        let words = 1 << (w - 6);
        if w >= 9
            && xs.iter().all(|x| x.len() == words)
            && control_bits.len() >= (layers * step) >> 3
        {
            arch::benes_bits(token, &mut xs, control_bits, w, inverse);
            return;
        }
    }
    for j in 0..layers {
        let j = if inverse { layers - 1 - j } else { j };
        let s = if j < w { j } else { 2 * w - 2 - j };
        layer_bits(&mut xs, control_bits, s, j * step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(w: usize, seed: u64) {
        let n = 1usize << w;
        let mut s = seed;
        let mut control_bits = [0u8; (25 << 12) >> 3];
        for b in control_bits.iter_mut() {
            *b = (crate::test_util::xorshift(&mut s) >> 24) as u8;
        }
        let mut p = [0u16; 8192];
        for (i, x) in p.iter_mut().enumerate().take(n) {
            *x = i as u16;
        }
        apply(&mut p[..n], &control_bits, w);
        // Every single-bit vector must land where the u16 network sends it.
        for src in (0..n).step_by(37).chain([0, n - 1]) {
            let mut x = [0u64; 128];
            x[src >> 6] |= 1 << (src & 63);
            apply_bits([&mut x[..n >> 6]], &control_bits, w, false);
            for (i, &pi) in p.iter().enumerate().take(n) {
                let bit = (x[i >> 6] >> (i & 63)) & 1;
                assert_eq!(bit, u64::from(usize::from(pi) == src), "w {w} i {i}");
            }
            apply_bits([&mut x[..n >> 6]], &control_bits, w, true);
            let mut y = [0u64; 128];
            y[src >> 6] |= 1 << (src & 63);
            assert_eq!(x, y);
        }
    }

    /// The AVX2 network (`crate::arch::benes_bits`) against the portable
    /// layers: random control bits and vectors, one and two vectors, both
    /// directions, w = 12 and 13.
    #[test]
    fn avx2_matches_portable() {
        // Only a detected token reaches the AVX2 path (none without AVX2).
        let Some(token) = arch::avx2() else {
            return;
        };
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || crate::test_util::xorshift(&mut s);
        let mut control_bits = [0u8; (25 << 12) >> 3];
        for w in [12, 13] {
            let words = 1 << (w - 6);
            for round in 0..6 {
                for b in control_bits.iter_mut() {
                    *b = next() as u8;
                }
                if round == 0 {
                    control_bits.fill(0xFF);
                }
                let mut x = [[0u64; 128]; 2];
                for v in x.iter_mut().flatten() {
                    *v = next();
                }
                for inverse in [false, true] {
                    for two in [false, true] {
                        let (mut want, mut got) = (x, x);
                        for (v, avx2) in [(&mut want, None), (&mut got, Some(token))] {
                            let [v0, v1] = v;
                            if two {
                                let xs = [&mut v0[..words], &mut v1[..words]];
                                apply_bits_with(xs, &control_bits, w, inverse, avx2);
                            } else {
                                apply_bits_with(
                                    [&mut v0[..words]],
                                    &control_bits,
                                    w,
                                    inverse,
                                    avx2,
                                );
                            }
                        }
                        assert_eq!(got, want, "w {w} round {round} inverse {inverse} two {two}");
                    }
                }
            }
        }
    }

    #[test]
    fn bits_match_u16_network() {
        check(12, 1);
        check(13, 2);
    }
}
