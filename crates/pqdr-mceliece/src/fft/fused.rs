//! The butterfly level of depth k - 1 (k >= 7) of the additive FFT fused
//! with the broadcast of the 2^k converted coefficients to every coset
//! ([`broadcast_fused`]), and its transpose ([`collect_fused`], McBits §4).
//! At that level U and V are the same on every coset and the multiplier is
//! GF(2)-linear in the coset index (Gao–Mateer §3; `consts::multiplier`),
//! so the level costs m - k products instead of one per coset.

#![allow(
    clippy::needless_range_loop,
    reason = "planes and lanes of several bitsliced arrays are walked in step"
)]

use super::Values;
use super::consts::Consts;
use crate::params::{MAX_M, ParameterSet};
use crate::vec::{self, Bitsliced};

/// Most coset bits of a fused level: m - k with k >= 7.
const MAX_COSET_BITS: usize = MAX_M - 7;

/// The fused level's products G_j V for every coset bit j < m - k (the
/// multiplier of depth k - 1 is GF(2)-linear in the position bits from k
/// up, `consts::multiplier`: G_j is its value at position 2^(k + j)),
/// two per [`vec::mul_pair`], the operand of bit j in `v[j]` (forward:
/// the V words of a coset in the words of one entry, k = 7: the one V word
/// in both; k = 8: both).
fn coset_products<P: ParameterSet>(
    c: &Consts,
    k: usize,
    v: [&Bitsliced<2>; MAX_COSET_BITS],
) -> [Bitsliced<2>; MAX_COSET_BITS] {
    let bits = P::M - k;
    let mut q = [vec::zero::<2>(); MAX_COSET_BITS];
    let mut g = [vec::zero::<2>(); 2];
    for (j, pair) in (0..bits)
        .step_by(2)
        .zip(q.as_chunks_mut::<2>().0.iter_mut())
    {
        for (i, gi) in g.iter_mut().enumerate() {
            // Past the last bit (odd m - k): a zero multiplier, unused product.
            let w = if j + i < bits {
                1 << (k - 6 + j + i)
            } else {
                0
            };
            vec::splat::<P, 2>(gi, c.outer[k - 1][w]);
        }
        let [q0, q1] = pair;
        vec::mul_pair::<P>([q0, q1], [v[j], v[j + 1]], [&g[0], &g[1]]);
    }
    q
}

/// The fused level's walk over the entries (its cosets, s = e >> (k - 7),
/// are runs of 2^(k - 7) entries): entry e >= 2^(k - 7) is entry `src`,
/// the same entry of coset s with its lowest set bit j cleared, plus the
/// product of coset bit `j` (public indices).
#[inline(always)]
fn coset_source(e: usize, k: usize) -> (usize, usize) {
    let j = (e >> (k - 7)).trailing_zeros() as usize;
    (e ^ (1 << (k - 7 + j)), j)
}

/// The broadcast of the 2^k converted coefficients `x` (7 <= k <= 8) to
/// every coset fused with the butterflies of depth k - 1 (Gao–Mateer §3
/// at the last level: U + a V, U + a V + V with U, V the same on every
/// coset): the multiplier a is GF(2)-linear in the coset index s (the
/// position bits from k up), so a V = sum over the bits j of s of G_j V,
/// m - k products in all instead of one per coset ([`coset_products`]),
/// and each coset is an earlier one plus one of them ([`coset_source`]).
pub(super) fn broadcast_fused<P: ParameterSet>(
    out: &mut Values,
    x: &Bitsliced<4>,
    c: &Consts,
    k: usize,
) {
    let half = 1 << (k - 7);
    let mut v = vec::zero::<2>();
    for b in 0..P::M {
        v[b] = [0, 1].map(|l| x[b][half + (l & (half - 1))]);
    }
    let q = coset_products::<P>(c, k, [&v; MAX_COSET_BITS]);
    // Coset 0 (a = 0): the words U, then U + V.
    for w in 0..2 * half {
        let (hi, u) = (w >= half, w & (half - 1));
        for b in 0..P::M {
            out[w >> 1][b][w & 1] = x[b][u] ^ if hi { x[b][w] } else { 0 };
        }
    }
    for e in half..1 << (P::M - 7) {
        let (src, j) = coset_source(e, k);
        for b in 0..P::M {
            for l in 0..2 {
                out[e][b][l] = out[src][b][l] ^ q[j][b][l];
            }
        }
    }
}

/// The transpose of `broadcast_fused` (7 <= k <= 8): the transposed
/// butterflies of depth k - 1 and the transposed broadcast into the 2^k
/// sums `y` (zero on entry). Its walk backwards: each entry e from the last
/// down to coset 0's adds itself to its source entry and to the sum R_j of
/// its coset bit j, then y's V words collect G_j R_j ([`coset_products`])
/// and coset 0's entries (the sums of all cosets) give U and U + V. `x` is
/// consumed.
pub(super) fn collect_fused<P: ParameterSet>(
    y: &mut Bitsliced<4>,
    x: &mut Values,
    c: &Consts,
    k: usize,
) {
    let half = 1 << (k - 7);
    let mut sums = [vec::zero::<2>(); MAX_COSET_BITS];
    for e in (half..1 << (P::M - 7)).rev() {
        let (src, j) = coset_source(e, k);
        for b in 0..P::M {
            for l in 0..2 {
                x[src][b][l] ^= x[e][b][l];
                sums[j][b][l] ^= x[e][b][l];
            }
        }
    }
    for w in 0..2 * half {
        let (hi, u) = (w >= half, w & (half - 1));
        for b in 0..P::M {
            let z = x[w >> 1][b][w & 1];
            y[b][u] ^= z;
            if hi {
                y[b][w] ^= z;
            }
        }
    }
    let p = coset_products::<P>(c, k, sums.each_ref());
    for p in p.iter().take(P::M - k) {
        for b in 0..P::M {
            for l in 0..2 {
                y[b][half + (l & (half - 1))] ^= p[b][l];
            }
        }
    }
}
