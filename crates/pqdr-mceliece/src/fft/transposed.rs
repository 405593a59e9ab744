//! The transposed additive FFT (McBits, Bernstein–Chou–Schwabe CHES 2013,
//! §4): the syndrome of `Decode` (Classic McEliece spec §2.3.3), the power
//! sums sum_a v(a) a^j, is the transpose of the evaluation map of
//! [`fft`](super::fft), computed by its operations in reverse order, each
//! transposed.
// ref: vec/fft_tr.c

#![allow(
    clippy::needless_range_loop,
    reason = "planes and lanes of several bitsliced arrays are walked in step"
)]

use super::consts::{BIT_SET, Consts};
use super::consts::{FftConsts, TAYLOR_MASK};
use super::{Values, lane_multiplier, next_without, packed_multiplier};
use crate::params::ParameterSet;
use crate::vec::{self, Bitsliced};

/// x ^= (x & mask) << s on every plane (256-bit words, public s).
#[inline(always)]
fn shl_xor<P: ParameterSet>(x: &mut Bitsliced<4>, mask: &[u64; 4], s: usize) {
    let (word_shift, bit_shift) = (s >> 6, s & 63);
    for plane in x.iter_mut().take(P::M) {
        let y: [u64; 4] = core::array::from_fn(|i| plane[i] & mask[i]);
        for i in (0..4).rev() {
            let lo = if i >= word_shift {
                y[i - word_shift]
            } else {
                0
            };
            let hi = if i > word_shift {
                y[i - word_shift - 1]
            } else {
                0
            };
            plane[i] ^= if bit_shift == 0 {
                lo
            } else {
                (lo << bit_shift) | (hi >> (64 - bit_shift))
            };
        }
    }
}

/// Transposed butterflies of in-word depth D < 6, two entries per product
/// (two such products per [`vec::mul_pair`]).
#[inline(never)]
pub(super) fn tr_word<P: ParameterSet, const D: usize>(x: &mut Values, c: &Consts, entries: usize) {
    let (s, hi) = (1 << D, BIT_SET[D]);
    let mut a = [vec::zero::<2>(); 2];
    let mut p = [vec::zero::<2>(); 2];
    let mut v_halves = [vec::zero::<2>(); 2];
    for (i, quad) in x[..entries].chunks_exact_mut(4).enumerate() {
        for (j, pair) in quad.chunks_exact_mut(2).enumerate() {
            let [v0, v1] = pair else { unreachable!() };
            for b in 0..P::M {
                for l in 0..2 {
                    v0[b][l] ^= (v0[b][l] & hi) >> s;
                    v1[b][l] ^= (v1[b][l] & hi) >> s;
                    v_halves[j][b][l] = (v0[b][l] & !hi) | ((v1[b][l] & !hi) << s);
                }
            }
            packed_multiplier::<P>(&mut a[j], c, D, 4 * i + 2 * j, !hi);
        }
        let [p0, p1] = &mut p;
        vec::mul_pair::<P>([p0, p1], [&v_halves[0], &v_halves[1]], [&a[0], &a[1]]);
        for (j, pair) in quad.chunks_exact_mut(2).enumerate() {
            let [v0, v1] = pair else { unreachable!() };
            for b in 0..P::M {
                for l in 0..2 {
                    v0[b][l] ^= (p[j][b][l] & !hi) << s;
                    v1[b][l] ^= p[j][b][l] & hi;
                }
            }
        }
    }
}

/// The transposed butterflies of depth d >= 6 (the lane level and the
/// entry levels), two products per [`vec::mul_pair`].
#[inline(never)]
pub(super) fn tr_wide<P: ParameterSet>(x: &mut Values, c: &Consts, entries: usize, d: usize) {
    let mut a = [vec::zero::<2>(); 2];
    let mut p = [vec::zero::<2>(); 2];
    if d == 6 {
        let mut v_halves = [vec::zero::<2>(); 2];
        for (i, quad) in x[..entries].chunks_exact_mut(4).enumerate() {
            for (j, pair) in quad.chunks_exact_mut(2).enumerate() {
                let [v0, v1] = pair else { unreachable!() };
                for b in 0..P::M {
                    v0[b][0] ^= v0[b][1];
                    v1[b][0] ^= v1[b][1];
                    v_halves[j][b] = [v0[b][0], v1[b][0]];
                }
                lane_multiplier::<P>(&mut a[j], c, 4 * i + 2 * j);
            }
            let [p0, p1] = &mut p;
            vec::mul_pair::<P>([p0, p1], [&v_halves[0], &v_halves[1]], [&a[0], &a[1]]);
            for (j, pair) in quad.chunks_exact_mut(2).enumerate() {
                let [v0, v1] = pair else { unreachable!() };
                for b in 0..P::M {
                    v0[b][1] ^= p[j][b][0];
                    v1[b][1] ^= p[j][b][1];
                }
            }
        }
        return;
    }
    let h = 1 << (d - 7);
    let mut e0 = 0;
    while e0 < entries {
        let e1 = next_without(e0, h);
        for e in [e0, e1] {
            for b in 0..P::M {
                for l in 0..2 {
                    x[e][b][l] ^= x[e + h][b][l];
                }
            }
        }
        vec::splat::<P, 2>(&mut a[0], c.outer[d][2 * e0]);
        vec::splat::<P, 2>(&mut a[1], c.outer[d][2 * e1]);
        let [p0, p1] = &mut p;
        vec::mul_pair::<P>([p0, p1], [&x[e0], &x[e1]], [&a[0], &a[1]]);
        for (e, p) in [(e0, &p[0]), (e1, &p[1])] {
            for b in 0..P::M {
                for l in 0..2 {
                    x[e + h][b][l] ^= p[b][l];
                }
            }
        }
        e0 = next_without(e1, h);
    }
}

/// The transpose of [`fft`](super::fft) (McBits §4): from values v at every element to
/// the 2^k sums sum_a v(a) a^j in `out` (the operations of [`fft`](super::fft) in
/// reverse order, each transposed; 6 <= k <= 8). `x` is consumed (used as scratch).
pub(crate) fn fft_tr<P: ParameterSet>(out: &mut Bitsliced<4>, x: &mut Values, k: usize) {
    let c = &<P as FftConsts>::FFT;
    let entries = 1 << (P::M - 7);
    // Butterflies transposed: (x0, x1) -> (x0 + x1, x1 + a (x0 + x1)).
    // (k >= 6: every in-word level runs.)
    // Depths 6 and 7 (as far as k reaches) run in the AVX2 kernel if it runs.
    let wide = k.min(8).saturating_sub(6);
    if !super::avx2_inword::<P, false>(x, entries, wide) {
        tr_word::<P, 0>(x, c, entries);
        tr_word::<P, 1>(x, c, entries);
        tr_word::<P, 2>(x, c, entries);
        tr_word::<P, 3>(x, c, entries);
        tr_word::<P, 4>(x, c, entries);
        tr_word::<P, 5>(x, c, entries);
        for d in 6..6 + wide {
            tr_wide::<P>(x, c, entries, d);
        }
    }
    for d in 6 + wide..k {
        tr_wide::<P>(x, c, entries, d);
    }
    // Transposed broadcast: each constant collects its coset.
    let words = (1usize << k) >> 6;
    let mut y = vec::zero::<4>();
    for (e, v) in x.iter().enumerate().take(entries) {
        for b in 0..P::M {
            y[b][(2 * e) & (words - 1)] ^= v[b][0];
            y[b][(2 * e + 1) & (words - 1)] ^= v[b][1];
        }
    }
    radix_tr_with::<P>(&mut y, c, k, crate::arch::avx2());
    *out = y;
}

/// Taylor expansions and twists transposed, depth k - 1 down to 0, in place
/// on the 2^k sums `y`: with an `avx2` token and a spec field (§7) the AVX2
/// kernel (`crate::arch::radix_conversions`), else the portable loop.
pub(super) fn radix_tr_with<P: ParameterSet>(
    y: &mut Bitsliced<4>,
    c: &Consts,
    k: usize,
    avx2: Option<crate::arch::Avx2>,
) {
    if let Some(token) = avx2
        && super::spec_field::<P>()
    {
        crate::arch::radix_conversions::<false>(token, P::M, y, &c.twist, &TAYLOR_MASK, k);
        return;
    }
    let mut tmp = vec::zero::<4>();
    for d in (0..k).rev() {
        for e in d..k.saturating_sub(1) {
            shl_xor::<P>(y, &TAYLOR_MASK[e][1], 1 << e);
            shl_xor::<P>(y, &TAYLOR_MASK[e][2], 1 << e);
        }
        vec::mul::<P, 4>(&mut tmp, y, &c.twist[d]);
        *y = tmp;
    }
}
