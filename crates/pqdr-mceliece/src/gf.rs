//! GF(2^m) arithmetic (Classic McEliece spec §2.1 / §7: the field F_q =
//! F_2\[z\]/f(z)).
//!
//! Elements are `u16` with bit i = coefficient of z^i. Every function runs in
//! time independent of its inputs: products use multiplication by a masked
//! bit and reduction by masked shifts, never a table or a branch.
// ref: gf.c

use crate::ct;
use crate::params::{Derived, MAX_M, MAX_T, ParameterSet};

/// Reduces a product of two field elements (degree <= 2m - 2) modulo f(z):
/// z^(m+k) = z^k (f(z) - z^m), folded twice (the low terms of f have degree
/// at most 4, so two folds bring the degree below m). Shifts and XORs only.
#[inline(always)]
fn reduce<P: ParameterSet>(mut t: u32) -> u16 {
    let m = P::M;
    let low = (1u32 << m) - 1;
    for _ in 0..2 {
        let h = t >> m;
        t &= low;
        for e in 0..m {
            if (P::FIELD_POLY >> e) & 1 == 1 {
                t ^= h << e;
            }
        }
    }
    t as u16
}

/// Carry-less product of two values below 2^16, by integer multiplications of
/// operands with holes (every fourth bit): each column sums at most four
/// bits, so carries never reach the next column kept. No operand is ever a
/// known 0/1 value, so the compiler cannot turn it into a select.
#[inline(always)]
fn clmul16(a: u16, b: u16) -> u32 {
    let (a, b) = (u64::from(a), u64::from(b));
    let (a0, a1, a2, a3) = (a & 0x1111, a & 0x2222, a & 0x4444, a & 0x8888);
    let (b0, b1, b2, b3) = (b & 0x1111, b & 0x2222, b & 0x4444, b & 0x8888);
    let m = u64::wrapping_mul;
    let z0 = m(a0, b0) ^ m(a1, b3) ^ m(a2, b2) ^ m(a3, b1);
    let z1 = m(a0, b1) ^ m(a1, b0) ^ m(a2, b3) ^ m(a3, b2);
    let z2 = m(a0, b2) ^ m(a1, b1) ^ m(a2, b0) ^ m(a3, b3);
    let z3 = m(a0, b3) ^ m(a1, b2) ^ m(a2, b1) ^ m(a3, b0);
    ((z0 & 0x1111_1111) | (z1 & 0x2222_2222) | (z2 & 0x4444_4444) | (z3 & 0x8888_8888)) as u32
}

/// a b in GF(2^m).
#[inline(always)]
pub(crate) fn mul<P: ParameterSet>(a: u16, b: u16) -> u16 {
    reduce::<P>(clmul16(a, b))
}

/// a^2 in GF(2^m).
#[inline(always)]
pub(crate) fn sq<P: ParameterSet>(a: u16) -> u16 {
    // Spread the bits: the square of a binary polynomial has no cross terms.
    let mut x = u32::from(a);
    x = (x | (x << 8)) & 0x00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333;
    x = (x | (x << 1)) & 0x5555_5555;
    reduce::<P>(x)
}

/// a^(2^m - 2) = 1/a for a != 0 (and 0 for a = 0), by a fixed chain.
pub(crate) fn inv<P: ParameterSet>(a: u16) -> u16 {
    // a^(2^m - 2) = (a^(2^(m-1) - 1))^2; build a^(2^k - 1) by
    // x_{k+1} = x_k^2 a.
    let mut x = a; // a^(2^1 - 1)
    for _ in 1..P::M - 1 {
        x = mul::<P>(sq::<P>(x), a);
    }
    sq::<P>(x)
}

/// num / den in GF(2^m) (den != 0 for a meaningful result).
#[cfg(test)]
pub(crate) fn frac<P: ParameterSet>(den: u16, num: u16) -> u16 {
    mul::<P>(inv::<P>(den), num)
}

/// 0xFFFF if a == 0, else 0.
#[inline(always)]
pub(crate) fn is_zero_mask(a: u16) -> u16 {
    let t = u32::from(a).wrapping_sub(1) >> 31;
    (t as u16).wrapping_neg()
}

/// Reverses the low m bits of a (Classic McEliece spec §2.3 / ref `bitrev`: support ordering).
#[inline(always)]
pub(crate) fn bitrev<P: ParameterSet>(a: u16) -> u16 {
    a.reverse_bits() >> (16 - P::M)
}

/// s z^i for i < m: the rows of multiplication by s.
#[inline(always)]
fn scalar_table<P: ParameterSet>(s: u16) -> [u16; 16] {
    let m = P::M;
    let mut tbl = [0u16; 16];
    let mut x = s;
    for e in tbl.iter_mut().take(m) {
        *e = x;
        // x <- x z, folding z^m = f(z) - z^m back in.
        let top = (x >> (m - 1)) & 1;
        x = ((x << 1) & P::GF_MASK) ^ (top.wrapping_neg() & P::FIELD_POLY as u16);
    }
    tbl
}

/// All-ones mask from bit i of v: bit i is moved to the sign and spread by an
/// arithmetic shift whose amount (15) the caller passed through
/// [`ct::opaque`]. The compiler cannot prove the result is 0 or all-ones, so
/// `mask & e` stays an AND: with a visible 0/1 bit, opt-level `s` turned it
/// into a select and then a branch on the secret bit (found by the valgrind
/// check at `s`, issue #19). At opt-level 3 this costs nothing.
#[inline(always)]
fn bit_mask(v: u16, i: usize, fifteen: u32) -> u16 {
    ((v << (15 - i)).cast_signed() >> fifteen).cast_unsigned()
}

/// The multiples of a vector by the powers of z, `planes[k][c] = src[c] z^k`
/// for k < m (`c < src.len() <= N`): the product of the vector by any scalar s
/// is then the sum of the planes selected by the bits of s
/// ([`mul_add_multiples`]). Built once per vector, then used for many
/// scalars: one AND and one XOR per bit and element.
#[inline(always)]
pub(crate) fn multiples<P: ParameterSet, const N: usize>(
    planes: &mut [[u16; N]; MAX_M],
    src: &[u16],
) {
    let n = src.len();
    let fifteen = ct::opaque(15u32);
    planes[0][..n].copy_from_slice(src);
    for k in 1..P::M {
        let (lo, hi) = planes.split_at_mut(k);
        for (d, &x) in hi[0][..n].iter_mut().zip(&lo[k - 1][..n]) {
            // x z, folding z^m = f(z) - z^m back in.
            let top = bit_mask(x, P::M - 1, fifteen);
            *d = ((x << 1) & P::GF_MASK) ^ (top & P::FIELD_POLY as u16);
        }
    }
}

/// `dst[c] ^= s src[c]` for every c < `dst.len()`, src given by its
/// [`multiples`]: the masks of the bits of s (no branch, no table index)
/// select the planes, lane-parallel over c.
///
/// # Panics
/// If `dst` is longer than the planes.
#[inline(always)]
pub(crate) fn mul_add_multiples<P: ParameterSet, const N: usize>(
    dst: &mut [u16],
    planes: &[[u16; N]; MAX_M],
    s: u16,
) {
    assert!(dst.len() <= N, "row longer than its multiples");
    let fifteen = ct::opaque(15u32);
    let masks: [u16; MAX_M] = core::array::from_fn(|k| bit_mask(s, k, fifteen));
    for (c, d) in dst.iter_mut().enumerate() {
        let mut acc = 0u16;
        for (plane, &mask) in planes.iter().zip(&masks).take(P::M) {
            acc ^= mask & plane[c];
        }
        *d ^= acc;
    }
}

/// `x[k] <- s x[k]` for every k: each product is the sum of the entries of
/// the table of s selected by the bits of `x[k]` (masks, no branch).
#[inline(always)]
pub(crate) fn scale<P: ParameterSet>(x: &mut [u16], s: u16) {
    let tbl = scalar_table::<P>(s);
    let fifteen = ct::opaque(15u32);
    for d in x.iter_mut() {
        let v = *d;
        let mut acc = 0u16;
        for (i, &e) in tbl.iter().enumerate().take(P::M) {
            acc ^= bit_mask(v, i, fifteen) & e;
        }
        *d = acc;
    }
}

/// Multiplication in GF(2^mt) = GF(2^m)\[y\]/F(y) (ref: `GF_mul` in gf.c), used by
/// the minimal-polynomial computation of key generation: out = a b with b
/// given by its [`multiples`] (t coefficients), one scaled row addition per
/// coefficient of a, then the fold by F. Inlined into
/// [`crate::sk_gen::minimal_poly`] (compiled once per path).
#[inline(always)]
pub(crate) fn poly_mul<P: ParameterSet, const N: usize>(
    out: &mut [u16],
    a: &[u16],
    b: &[[u16; N]; MAX_M],
) {
    let t = P::T;
    let mut prod = [0u16; 2 * MAX_T - 1];
    // The coefficients of a in 16 classes i mod 16: consecutive additions
    // then touch the same 32-byte vectors of `prod` (i, i + 16, ...), not
    // ones shifted by one element (a load overlapping part of the last
    // store waits for it: no store forwarding).
    for r in 0..16 {
        for (i, &ai) in a.iter().enumerate().take(t).skip(r).step_by(16) {
            mul_add_multiples::<P, N>(&mut prod[i..i + t], b, ai);
        }
    }
    for i in (t..2 * t - 1).rev() {
        let hi = prod[i];
        for &(e, c) in P::F_POLY {
            prod[i - t + e] ^= if c == 1 { hi } else { mul::<P>(hi, c) };
        }
    }
    out[..t].copy_from_slice(&prod[..t]);
}

#[cfg(all(test, feature = "mceliece348864", feature = "mceliece460896"))]
mod tests {
    use super::*;
    use crate::params::{Mceliece348864 as A, Mceliece460896 as B};

    fn slow_mul(a: u16, b: u16, m: usize, poly: u32) -> u16 {
        let mut r = 0u32;
        for i in 0..m {
            if (b >> i) & 1 == 1 {
                r ^= u32::from(a) << i;
            }
        }
        for i in (m..2 * m).rev() {
            if (r >> i) & 1 == 1 {
                r ^= (poly | (1 << m)) << (i - m);
            }
        }
        r as u16
    }

    #[test]
    fn field_laws() {
        for a in (0u16..4096).step_by(7) {
            for b in (0u16..4096).step_by(13) {
                assert_eq!(mul::<A>(a, b), slow_mul(a, b, 12, 0b1001));
            }
            assert_eq!(sq::<A>(a), mul::<A>(a, a));
            if a != 0 {
                assert_eq!(mul::<A>(a, inv::<A>(a)), 1);
            }
        }
        let src: [u16; 40] = core::array::from_fn(|i| (i as u16).wrapping_mul(997) & 4095);
        for s in [0u16, 1, 2, 0x800, 0xFFF, 1234] {
            let mut d: [u16; 40] = core::array::from_fn(|i| (i as u16).wrapping_mul(31) & 4095);
            let before = d;
            let mut planes = [[0u16; 40]; MAX_M];
            multiples::<A, 40>(&mut planes, &src);
            mul_add_multiples::<A, 40>(&mut d, &planes, s);
            let mut e = src;
            scale::<A>(&mut e, s);
            for i in 0..40 {
                assert_eq!(d[i], before[i] ^ mul::<A>(s, src[i]));
                assert_eq!(e[i], mul::<A>(s, src[i]));
            }
        }
        for a in (1u16..8192).step_by(11) {
            assert_eq!(sq::<B>(a), mul::<B>(a, a));
            assert_eq!(mul::<B>(a, inv::<B>(a)), 1);
            assert_eq!(mul::<B>(a, 77), slow_mul(a, 77, 13, 0b1_1011));
        }
        // Multiples in GF(2^13): every bit of s, and the top bits of src.
        let src: [u16; 40] = core::array::from_fn(|i| 8191 - ((i as u16).wrapping_mul(211) & 8191));
        let mut planes = [[0u16; 40]; MAX_M];
        multiples::<B, 40>(&mut planes, &src);
        for s in [0u16, 1, 0x1000, 0x1FFF, 4321] {
            let mut d = [0u16; 40];
            mul_add_multiples::<B, 40>(&mut d, &planes, s);
            for i in 0..40 {
                assert_eq!(d[i], mul::<B>(s, src[i]));
            }
        }
    }
}
