//! Additive FFT over GF(2^m) (Gao–Mateer, "Additive fast Fourier transforms
//! over finite fields", 2010, §3, with the small-polynomial shortcuts of
//! Bernstein–Chou–Schwabe "McBits", CHES 2013, §3) and its transpose (McBits
//! §4: the syndrome is the transposed evaluation map).
//!
//! [`fft`] evaluates a polynomial of 2^k coefficients at all 2^m field
//! elements; [`fft_tr`] is the transposed linear map: from 2^m values v(a) to
//! the 2^k power sums sum_a v(a) a^j.
//!
//! Layout. Coefficients are bitsliced in a `Bitsliced<4>` (position i = coefficient
//! i, up to 256). The 2^m values are bitsliced in `Bitsliced<2>` entries: position
//! pos = 128 e + 64 l + bit holds the value at the field element
//! `bitrev_m(pos)` (the basis is beta_j = z^j, and the recursion writes its
//! output in bit-reversed index order). That is the position of alpha_i =
//! bitrev(pi(i)) at pi(i), so a Beneš network moves support-ordered bits there.
//!
//! Recursion. At depth d the basis B^d (dimension m - d) has last element
//! tau_d; f(x) -> f(tau_d x) (the twist), then the Taylor expansion at
//! x^2 + x splits f into f0, f1 (even and odd positions), both evaluated on
//! B^(d+1)_i = gamma_i^2 + gamma_i with gamma = B^d / tau_d. All 2^d
//! polynomials of depth d are stored interleaved (coefficient i of polynomial
//! p at position 2^d i + p), so the radix conversions run in place; after k
//! levels the polynomials are constants and the butterflies
//! (U, V) -> (U + a V, U + a V + V) run back up, also in place.
//! All constants (twists, butterfly multipliers) are public and computed at
//! compile time from m and f(z) (`consts.rs`); the transposed FFT is in
//! `transposed.rs`. Both serve `Decode` (Classic McEliece spec §2.3.3): g
//! and the error locator evaluated at every field element, the syndrome.
// ref: vec/fft.c, vec/fft_tr.c (same algorithm; layout and constants are ours)
#![allow(
    clippy::needless_range_loop,
    reason = "planes and lanes of several bitsliced arrays are walked in step"
)]

mod consts;
mod init;
mod transposed;

use crate::params::{FIELD_POLY_M12, FIELD_POLY_M13, MAX_M, ParameterSet};
use crate::vec::{self, Bitsliced};
use consts::{BIT_SET, Consts, FftConsts, TAYLOR_MASK};
pub(crate) use init::eval_monic_init;
use init::spread;
pub(crate) use transposed::fft_tr;

/// Whether P's values are in the kernel layout (the module doc): the AVX2
/// in-word kernel runs for P (AVX2 detected, a spec field).
#[inline(always)]
pub(crate) fn kernel_layout<P: ParameterSet>() -> bool {
    crate::arch::avx2().is_some() && spec_field::<P>()
}

/// Most value entries: 2^13 / 128.
pub(crate) const MAX_ENTRIES: usize = 1 << (MAX_M - 7);

/// The 2^m values of an evaluation, bitsliced (see the module doc).
pub(crate) type Values = [Bitsliced<2>; MAX_ENTRIES];

/// The all-zero value array.
pub(crate) const fn zero_values() -> Values {
    [vec::zero::<2>(); MAX_ENTRIES]
}

/// x ^= (x & mask) >> s on every plane (256-bit words, public s).
#[inline(always)]
fn shr_xor<P: ParameterSet>(x: &mut Bitsliced<4>, mask: &[u64; 4], s: usize) {
    let (word_shift, bit_shift) = (s >> 6, s & 63);
    for plane in x.iter_mut().take(P::M) {
        let y: [u64; 4] = core::array::from_fn(|i| plane[i] & mask[i]);
        for i in 0..4 {
            let lo = if i + word_shift < 4 {
                y[i + word_shift]
            } else {
                0
            };
            let hi = if i + word_shift + 1 < 4 {
                y[i + word_shift + 1]
            } else {
                0
            };
            plane[i] ^= if bit_shift == 0 {
                lo
            } else {
                (lo >> bit_shift) | (hi << (64 - bit_shift))
            };
        }
    }
}

/// All-ones if bit b of x is set.
#[inline(always)]
fn bit_mask(x: u16, b: usize) -> u64 {
    u64::from((x >> b) & 1).wrapping_neg()
}

/// The butterfly multipliers of depth d < 6 for entries e and e + 1, packed:
/// entry e's at the positions selected by `sel`, entry e + 1's elsewhere.
#[inline(always)]
fn packed_multiplier<P: ParameterSet>(
    a: &mut Bitsliced<2>,
    c: &Consts,
    d: usize,
    e: usize,
    sel: u64,
) {
    let o = &c.outer[d][2 * e..2 * e + 4];
    for b in 0..P::M {
        for l in 0..2 {
            a[b][l] = c.inner[d][b] ^ (bit_mask(o[l], b) & sel) ^ (bit_mask(o[2 + l], b) & !sel);
        }
    }
}

/// Twist and Taylor expansion at x^2 + x (Gao–Mateer §3.1) of every depth
/// 0..k, in place on the 2^k coefficients `x`: with an `avx2` token and a
/// spec field (§7) the AVX2 kernel (`crate::arch::radix_conversions`, the
/// planes in registers throughout), else the portable loop.
fn radix_fwd_with<P: ParameterSet>(
    x: &mut Bitsliced<4>,
    c: &Consts,
    k: usize,
    avx2: Option<crate::arch::Avx2>,
) {
    if let Some(token) = avx2
        && spec_field::<P>()
    {
        crate::arch::radix_conversions::<true>(token, P::M, x, &c.twist, &TAYLOR_MASK, k);
        return;
    }
    let mut tmp = vec::zero::<4>();
    for d in 0..k {
        vec::mul::<P, 4>(&mut tmp, x, &c.twist[d]);
        *x = tmp;
        for e in (d..k.saturating_sub(1)).rev() {
            shr_xor::<P>(x, &TAYLOR_MASK[e][3], 1 << e);
            shr_xor::<P>(x, &TAYLOR_MASK[e][2], 1 << e);
        }
    }
}

/// Whether P's field is one of the spec's two (m = 12 or 13 with the
/// spec's f(z)), for which the AVX2 kernels exist.
#[inline(always)]
const fn spec_field<P: ParameterSet>() -> bool {
    matches!(
        (P::M, P::FIELD_POLY),
        (12, FIELD_POLY_M12) | (13, FIELD_POLY_M13)
    )
}

/// The multipliers of depth 6 for entries e (lane 0) and e + 1 (lane 1).
#[inline(always)]
fn lane_multiplier<P: ParameterSet>(a: &mut Bitsliced<2>, c: &Consts, e: usize) {
    let (o0, o1) = (c.outer[6][2 * e], c.outer[6][2 * e + 2]);
    for b in 0..P::M {
        a[b] = [bit_mask(o0, b), bit_mask(o1, b)];
    }
}

/// With AVX2 and a spec field (§7), all six in-word butterfly levels of
/// every quad of entries in one kernel call per quad
/// (`crate::arch::butterflies_inword`; forward: depth 5 down to 0,
/// transposed: 0 up to 5), and the `wide` levels above them (1: the lane
/// level, depth 6; 2: also the first entry level, depth 7; forward: first,
/// transposed: last), with the packed multipliers of
/// `consts::QUAD_M12` / `QUAD_M13`: true if they ran, false otherwise, and
/// then the caller runs the portable levels ([`fwd_wide`] from depth
/// 5 + wide down to 6 and [`fwd_word`], `transposed::tr_word` and
/// `transposed::tr_wide`). When they run, the forward levels leave the
/// values in the kernel layout and the transposed ones read them in it
/// (the module doc; [`kernel_layout`] is true exactly then).
#[inline(always)]
fn avx2_inword<P: ParameterSet, const FORWARD: bool>(
    x: &mut Values,
    entries: usize,
    wide: usize,
) -> bool {
    // Without the AVX2 path `avx2()` is `None` (no token type has a value),
    // so everything below is dead code there.
    let Some(token) = crate::arch::avx2() else {
        return false;
    };
    let table = match (P::M, P::FIELD_POLY) {
        (12, FIELD_POLY_M12) => &consts::QUAD_M12,
        (13, FIELD_POLY_M13) => &consts::QUAD_M13,
        _ => return false,
    };
    let Some(x) = x.get_mut(..entries) else {
        return false;
    };
    for (quad, mult) in x.as_chunks_mut::<4>().0.iter_mut().zip(table.iter()) {
        crate::arch::butterflies_inword::<FORWARD>(token, P::M, quad, mult, wide);
    }
    true
}

/// Forward butterflies of in-word depth D < 6, two entries per product:
/// entry 2i's V halves at the bit-D positions, entry 2i + 1's shifted below
/// (two such products per [`vec::mul_pair`]).
#[inline(never)]
fn fwd_word<P: ParameterSet, const D: usize>(out: &mut Values, c: &Consts, entries: usize) {
    let (s, hi) = (1 << D, BIT_SET[D]);
    let mut a = [vec::zero::<2>(); 2];
    let mut p = [vec::zero::<2>(); 2];
    let mut v_halves = [vec::zero::<2>(); 2];
    for (i, quad) in out[..entries].chunks_exact_mut(4).enumerate() {
        for (j, a) in a.iter_mut().enumerate() {
            packed_multiplier::<P>(a, c, D, 4 * i + 2 * j, hi);
        }
        for (j, pair) in quad.chunks_exact(2).enumerate() {
            let [v0, v1] = pair else { unreachable!() };
            for b in 0..P::M {
                for l in 0..2 {
                    v_halves[j][b][l] = (v0[b][l] & hi) | ((v1[b][l] & hi) >> s);
                }
            }
        }
        let [p0, p1] = &mut p;
        vec::mul_pair::<P>([p0, p1], [&v_halves[0], &v_halves[1]], [&a[0], &a[1]]);
        for (j, pair) in quad.chunks_exact_mut(2).enumerate() {
            let [v0, v1] = pair else { unreachable!() };
            let p = &p[j];
            for b in 0..P::M {
                for l in 0..2 {
                    v0[b][l] ^= (p[b][l] & hi) >> s;
                    v0[b][l] ^= (v0[b][l] & !hi) << s;
                    v1[b][l] ^= p[b][l] & !hi;
                    v1[b][l] ^= (v1[b][l] & !hi) << s;
                }
            }
        }
    }
}

/// The first entry after e without bit h (public indices).
#[inline(always)]
const fn next_without(e: usize, h: usize) -> usize {
    let n = e + 1;
    // n has bit h only if every bit below it is zero: adding h clears it.
    if n & h == 0 { n } else { n + h }
}

/// The forward butterflies of depth d >= 6 (the lane level and the entry
/// levels), two products per [`vec::mul_pair`].
#[inline(never)]
fn fwd_wide<P: ParameterSet>(out: &mut Values, c: &Consts, entries: usize, d: usize) {
    let mut a = [vec::zero::<2>(); 2];
    let mut p = [vec::zero::<2>(); 2];
    if d == 6 {
        // Lane 1 of entries 2i and 2i + 1 packed into one vector.
        let mut v_halves = [vec::zero::<2>(); 2];
        for (i, quad) in out[..entries].chunks_exact_mut(4).enumerate() {
            for (j, pair) in quad.chunks_exact(2).enumerate() {
                let [v0, v1] = pair else { unreachable!() };
                for b in 0..P::M {
                    v_halves[j][b] = [v0[b][1], v1[b][1]];
                }
                lane_multiplier::<P>(&mut a[j], c, 4 * i + 2 * j);
            }
            let [p0, p1] = &mut p;
            vec::mul_pair::<P>([p0, p1], [&v_halves[0], &v_halves[1]], [&a[0], &a[1]]);
            for (j, pair) in quad.chunks_exact_mut(2).enumerate() {
                let [v0, v1] = pair else { unreachable!() };
                for b in 0..P::M {
                    v0[b][0] ^= p[j][b][0];
                    v0[b][1] ^= v0[b][0];
                    v1[b][0] ^= p[j][b][1];
                    v1[b][1] ^= v1[b][0];
                }
            }
        }
        return;
    }
    // Entry level: (U, V) = (out[e], out[e + h]) for e without bit h, two
    // such e (e0 < e1, the next one) per product.
    let h = 1 << (d - 7);
    let mut e0 = 0;
    while e0 < entries {
        let e1 = next_without(e0, h);
        vec::splat::<P, 2>(&mut a[0], c.outer[d][2 * e0]);
        vec::splat::<P, 2>(&mut a[1], c.outer[d][2 * e1]);
        let [p0, p1] = &mut p;
        vec::mul_pair::<P>([p0, p1], [&out[e0 + h], &out[e1 + h]], [&a[0], &a[1]]);
        for (e, p) in [(e0, &p[0]), (e1, &p[1])] {
            for b in 0..P::M {
                for l in 0..2 {
                    out[e][b][l] ^= p[b][l];
                    out[e + h][b][l] ^= out[e][b][l];
                }
            }
        }
        e0 = next_without(e1, h);
    }
}

/// Evaluates f (2^k coefficients bitsliced in `f`, 6 <= k <= 8, positions
/// from 2^k on zero) at every element of GF(2^m) into `out` (Gao–Mateer
/// Algorithm 2 unrolled: radix conversions down, butterflies up).
pub(crate) fn fft<P: ParameterSet>(out: &mut Values, f: &Bitsliced<4>, k: usize) {
    let x = radix_fwd::<P>(f, k);
    spread::<P>(out, &x, k);
    butterflies::<P>(out, k);
}

/// f's radix conversions (Gao–Mateer §3.1, every depth 0..k) on a copy.
#[inline(always)]
fn radix_fwd<P: ParameterSet>(f: &Bitsliced<4>, k: usize) -> Bitsliced<4> {
    let mut x = *f;
    radix_fwd_with::<P>(&mut x, &<P as FftConsts>::FFT, k, crate::arch::avx2());
    x
}

/// The FFT's butterflies (Gao–Mateer Algorithm 2 from depth k - 1 up) in
/// place on the values [`spread`] wrote.
fn butterflies<P: ParameterSet>(out: &mut Values, k: usize) {
    let c = &<P as FftConsts>::FFT;
    let entries = 1 << (P::M - 7);
    // Butterflies, depth k - 1 up to 0. In-word levels (d < 6) and the lane
    // level (d = 6) multiply two entries' V halves packed into one vector.
    // (k >= 6: every in-word level runs.)
    // Depths 6 and 7 (as far as k reaches) run in the AVX2 kernel if it runs.
    let wide = k.min(8).saturating_sub(6);
    for d in (6 + wide..k).rev() {
        fwd_wide::<P>(out, c, entries, d);
    }
    if !avx2_inword::<P, true>(out, entries, wide) {
        for d in (6..6 + wide).rev() {
            fwd_wide::<P>(out, c, entries, d);
        }
        fwd_word::<P, 5>(out, c, entries);
        fwd_word::<P, 4>(out, c, entries);
        fwd_word::<P, 3>(out, c, entries);
        fwd_word::<P, 2>(out, c, entries);
        fwd_word::<P, 1>(out, c, entries);
        fwd_word::<P, 0>(out, c, entries);
    }
}

/// Evaluates the monic polynomial x^t + sum_(i<t) low_i x^i (`low` bitsliced,
/// positions from t on zero) at every element: one FFT of 2^k >= t + 1
/// coefficients, or for t = 2^k an FFT of the low part plus a^t. The map
/// a -> a^(2^k) is GF(2)-linear, and the element at position pos is
/// sum_j pos_j z^(m-1-j), so a^t = sum_j pos_j (z^(m-1-j))^t.
pub(crate) fn eval_monic<P: ParameterSet>(out: &mut Values, low: &Bitsliced<4>) {
    let (f, k) = monic_input::<P>(low);
    fft::<P>(out, &f, k);
    add_power_t::<P>(out);
}

/// The FFT's input for x^t + low and its size 2^k: for t = 2^k the low
/// part alone (a^t is added after), else with x^t set.
#[inline(always)]
fn monic_input<P: ParameterSet>(low: &Bitsliced<4>) -> (Bitsliced<4>, usize) {
    let t = P::T;
    let mut f = *low;
    if t.is_power_of_two() {
        (f, t.trailing_zeros() as usize)
    } else {
        f[0][t >> 6] |= 1 << (t & 63);
        (f, (t + 1).next_power_of_two().trailing_zeros() as usize)
    }
}

/// For t = 2^k: out += a^t at every element, from the compile-time
/// constants of the values' layout (nothing for other t).
#[inline(always)]
fn add_power_t<P: ParameterSet>(out: &mut Values) {
    let (m, t) = (P::M, P::T);
    if !t.is_power_of_two() {
        return;
    }
    let pt = if kernel_layout::<P>() {
        &<P as FftConsts>::POWER_T_KERNEL
    } else {
        &<P as FftConsts>::POWER_T
    };
    for (v, &outer) in out.iter_mut().zip(pt.outer.iter()).take(1 << (m - 7)) {
        for b in 0..m {
            let o = bit_mask(outer, b);
            for l in 0..2 {
                v[b][l] ^= pt.inner[b][l] ^ o;
            }
        }
    }
}

#[cfg(all(test, feature = "mceliece348864", feature = "mceliece6960119"))]
mod tests;
