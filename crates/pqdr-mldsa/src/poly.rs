//! Arithmetic in R_q = Z_q[X]/(X^256 + 1) and the NTT (FIPS 204 §7.5:
//! `NTT` and `NTT^−1`, Algorithms 41 and 42), with Montgomery multiplication
//! on `i32`.
//!
//! Representation: coefficients are `i32`, not always reduced. NTT values are
//! kept in the ordinary (not Montgomery) domain; the twiddle factors carry the
//! Montgomery factor R = 2^32 so that `mont(ζ·a) = ζ·a`. A pointwise product
//! `mont(â·b̂)` carries R^−1, which [`Poly::invntt_tomont`] removes again.
//! Every function here is constant time (no branches or indices on values).
#![allow(
    clippy::cast_possible_truncation,
    reason = "Montgomery reduction keeps the low 32 bits on purpose"
)]

use zeroize::Zeroize;

use crate::arch;
#[cfg(test)]
use crate::field::Q;
use crate::field::{freeze, mont, reduce32};

pub(crate) use crate::zetas::N;
use crate::zetas::{INV_NTT_F, INV_NTT_F_ZETA1, ZETAS};
#[cfg(test)]
use crate::zetas::{bitrev8, pow_mod};

/// A polynomial of R_q (256 coefficients).
#[derive(Clone, Copy, Debug)]
pub struct Poly(pub(crate) [i32; N]);

impl Zeroize for Poly {
    /// Every coefficient to 0: with 32-byte stores on AVX2
    /// (`arch::zeroize_poly`), else the `zeroize` crate's volatile writes.
    fn zeroize(&mut self) {
        if let Some(avx2) = arch::avx2() {
            return arch::zeroize_poly(avx2, &mut self.0);
        }
        self.0.zeroize();
    }
}

impl Default for Poly {
    fn default() -> Self {
        Self::ZERO
    }
}

/// One layer of `NTT` (FIPS 204 Algorithm 41) with blocks of 2·LEN coefficients.
#[inline(always)]
fn ntt_layer<const LEN: usize>(a: &mut [i32; N], m: &mut usize) {
    for block in a.chunks_exact_mut(2 * LEN) {
        *m += 1;
        let z = i64::from(ZETAS[*m]);
        let (lo, hi) = block.split_at_mut(LEN);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = mont(z.wrapping_mul(i64::from(*y)));
            *y = x.wrapping_sub(t);
            *x = x.wrapping_add(t);
        }
    }
}

/// One layer of `NTT^−1` (FIPS 204 Algorithm 42) with blocks of 2·LEN coefficients.
#[inline(always)]
fn invntt_layer<const LEN: usize>(a: &mut [i32; N], m: &mut usize) {
    for block in a.chunks_exact_mut(2 * LEN) {
        *m -= 1;
        let z = -i64::from(ZETAS[*m]);
        let (lo, hi) = block.split_at_mut(LEN);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = *x;
            *x = t.wrapping_add(*y);
            *y = mont(z.wrapping_mul(i64::from(t.wrapping_sub(*y))));
        }
    }
}

impl Poly {
    /// The zero polynomial.
    pub(crate) const ZERO: Self = Self([0; N]);

    /// `NTT(w)` in place (FIPS 204 Algorithm 41). Input |a| < q, output |a| < 9q.
    /// AVX2 when the CPU has it (bit-identical to [`Self::ntt_portable`]).
    #[inline]
    pub(crate) fn ntt(&mut self) {
        if let Some(avx2) = arch::avx2() {
            return arch::ntt(avx2, &mut self.0);
        }
        self.ntt_portable();
    }

    /// The portable `NTT` (the reference twin of the AVX2 code).
    pub(crate) fn ntt_portable(&mut self) {
        let a = &mut self.0;
        let mut m = 0;
        ntt_layer::<128>(a, &mut m);
        ntt_layer::<64>(a, &mut m);
        ntt_layer::<32>(a, &mut m);
        ntt_layer::<16>(a, &mut m);
        ntt_layer::<8>(a, &mut m);
        ntt_layer::<4>(a, &mut m);
        ntt_layer::<2>(a, &mut m);
        ntt_layer::<1>(a, &mut m);
    }

    /// `NTT^−1(ŵ)` in place, times R (FIPS 204 Algorithm 42, followed by a
    /// Montgomery scaling folded into the last layer). Input |a| < q, output
    /// |a| < q. Only the upper half of each butterfly is reduced, so the lower
    /// halves grow to at most 128q before the last layer (256q < 2^31).
    /// AVX2 when the CPU has it (bit-identical to [`Self::invntt_tomont_portable`]).
    #[inline]
    pub(crate) fn invntt_tomont(&mut self) {
        if let Some(avx2) = arch::avx2() {
            return arch::invntt_tomont(avx2, &mut self.0);
        }
        self.invntt_tomont_portable();
    }

    /// The portable `NTT^−1` times R (the reference twin of the AVX2 code).
    pub(crate) fn invntt_tomont_portable(&mut self) {
        let a = &mut self.0;
        let mut m = N;
        invntt_layer::<1>(a, &mut m);
        invntt_layer::<2>(a, &mut m);
        invntt_layer::<4>(a, &mut m);
        invntt_layer::<8>(a, &mut m);
        invntt_layer::<16>(a, &mut m);
        invntt_layer::<32>(a, &mut m);
        invntt_layer::<64>(a, &mut m);
        // Last layer (len = 128, ζ index 1) with the scaling by f folded in.
        let f = i64::from(INV_NTT_F);
        let fz = i64::from(INV_NTT_F_ZETA1);
        let (lo, hi) = a.split_at_mut(N >> 1);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = *x;
            *x = mont(f.wrapping_mul(i64::from(t.wrapping_add(*y))));
            *y = mont(fz.wrapping_mul(i64::from(t.wrapping_sub(*y))));
        }
    }

    /// Reduces every coefficient of (−2^31 + 2^22, 2^31 − 2^22) to (−q, q)
    /// (same residue mod q), e.g. a sum of up to 7 Montgomery products.
    pub(crate) fn reduce(&mut self) {
        for x in &mut self.0 {
            *x = reduce32(*x);
        }
    }

    /// Maps every coefficient of (−q, q) to [0, q).
    pub(crate) fn freeze(&mut self) {
        for x in &mut self.0 {
            *x = freeze(*x);
        }
    }
}

/// acc += â ∘ b̂ (products accumulated in i64, reduced later by [`reduce_acc`]).
#[inline]
pub(crate) fn mul_acc(acc: &mut [i64; N], a: &Poly, b: &Poly) {
    if let Some(avx2) = arch::avx2() {
        return arch::mul_acc(avx2, acc, &a.0, &b.0);
    }
    mul_acc_portable(acc, a, b);
}

/// out = mont(acc) coefficient-wise: the pointwise product times R^−1.
/// (On AVX2 the accumulator of [`mul_acc`] has its own layout, so `acc`
/// must come from [`mul_acc`] on the same path, or be zero.)
#[inline]
pub(crate) fn reduce_acc(out: &mut Poly, acc: &[i64; N]) {
    if let Some(avx2) = arch::avx2() {
        return arch::reduce_acc(avx2, &mut out.0, acc, None);
    }
    reduce_acc_portable(out, acc);
}

/// b = mont(acc + â ∘ b̂): [`mul_acc`] of the last pair fused with
/// [`reduce_acc`] (one pass over the accumulator instead of two), in place.
#[inline]
pub(crate) fn mul_acc_reduce_in_place(b: &mut Poly, acc: &[i64; N], a: &Poly) {
    if let Some(avx2) = arch::avx2() {
        return arch::reduce_acc(avx2, &mut b.0, acc, Some(&a.0));
    }
    mul_acc_reduce_in_place_portable(b, acc, a);
}

/// out = mont(Σ_j â_j ∘ b̂_j) over the pairs of `a` and `b` (exact i64
/// sums): on AVX2 the sums stay in registers (`arch::dot_mont`), else
/// [`mul_acc`] into `acc` (zeroed first) and [`reduce_acc`].
#[inline]
pub(crate) fn dot_mont(out: &mut Poly, a: &[Poly], b: &[Poly], acc: &mut [i64; N]) {
    if let Some(avx2) = arch::avx2() {
        let n = a.len().min(b.len());
        return arch::dot_mont(avx2, &mut out.0, n, |j| (&a[j].0, &b[j].0));
    }
    acc.fill(0);
    for (x, y) in a.iter().zip(b) {
        mul_acc_portable(acc, x, y);
    }
    reduce_acc_portable(out, acc);
}

/// out = mont(â ∘ b̂ + extra), with `extra` added in the same reduction.
#[inline]
pub(crate) fn mul_add_mont(out: &mut Poly, a: &Poly, b: &Poly, extra: &Poly) {
    if let Some(avx2) = arch::avx2() {
        return arch::mul_mont_from(avx2, &mut out.0, &a.0, &b.0, Some(&extra.0));
    }
    mul_add_mont_portable(out, a, b, extra);
}

/// a = mont(a ∘ b̂ + extra).
#[inline]
pub(crate) fn mul_add_mont_in_place(a: &mut Poly, b: &Poly, extra: &Poly) {
    if let Some(avx2) = arch::avx2() {
        return arch::mul_mont_in_place(avx2, &mut a.0, &b.0, Some(&extra.0));
    }
    mul_add_mont_in_place_portable(a, b, extra);
}

/// a = mont(a ∘ b̂).
#[inline]
pub(crate) fn mul_mont_in_place(a: &mut Poly, b: &Poly) {
    if let Some(avx2) = arch::avx2() {
        return arch::mul_mont_in_place(avx2, &mut a.0, &b.0, None);
    }
    mul_mont_in_place_portable(a, b);
}

/// out = mont(â ∘ b̂).
#[inline]
pub(crate) fn mul_mont(out: &mut Poly, a: &Poly, b: &Poly) {
    if let Some(avx2) = arch::avx2() {
        return arch::mul_mont_from(avx2, &mut out.0, &a.0, &b.0, None);
    }
    mul_mont_portable(out, a, b);
}

// The portable twins (the reference for the AVX2 code in `arch`).

/// acc += â ∘ b̂ (products accumulated in i64, reduced later by [`reduce_acc`]).
#[inline(always)]
pub(crate) fn mul_acc_portable(acc: &mut [i64; N], a: &Poly, b: &Poly) {
    for ((c, x), y) in acc.iter_mut().zip(a.0.iter()).zip(b.0.iter()) {
        *c = c.wrapping_add(i64::from(*x).wrapping_mul(i64::from(*y)));
    }
}

/// out = mont(acc) coefficient-wise: the pointwise product times R^−1.
#[inline(always)]
pub(crate) fn reduce_acc_portable(out: &mut Poly, acc: &[i64; N]) {
    for (o, a) in out.0.iter_mut().zip(acc.iter()) {
        *o = mont(*a);
    }
}

/// b = mont(acc + â ∘ b̂) coefficient-wise (the twin of `arch::reduce_acc`
/// with a last product).
#[inline(always)]
pub(crate) fn mul_acc_reduce_in_place_portable(b: &mut Poly, acc: &[i64; N], a: &Poly) {
    for ((y, c), x) in b.0.iter_mut().zip(acc.iter()).zip(a.0.iter()) {
        *y = mont(c.wrapping_add(i64::from(*x).wrapping_mul(i64::from(*y))));
    }
}

/// out = mont(â ∘ b̂ + extra), with `extra` added in the same reduction.
#[inline(always)]
pub(crate) fn mul_add_mont_portable(out: &mut Poly, a: &Poly, b: &Poly, extra: &Poly) {
    for (((o, x), y), e) in out
        .0
        .iter_mut()
        .zip(a.0.iter())
        .zip(b.0.iter())
        .zip(extra.0.iter())
    {
        *o = mont(
            i64::from(*x)
                .wrapping_mul(i64::from(*y))
                .wrapping_add(i64::from(*e)),
        );
    }
}

/// a = mont(a ∘ b̂ + extra).
#[inline(always)]
pub(crate) fn mul_add_mont_in_place_portable(a: &mut Poly, b: &Poly, extra: &Poly) {
    for ((x, y), e) in a.0.iter_mut().zip(b.0.iter()).zip(extra.0.iter()) {
        *x = mont(
            i64::from(*x)
                .wrapping_mul(i64::from(*y))
                .wrapping_add(i64::from(*e)),
        );
    }
}

/// a = mont(a ∘ b̂).
#[inline(always)]
pub(crate) fn mul_mont_in_place_portable(a: &mut Poly, b: &Poly) {
    for (x, y) in a.0.iter_mut().zip(b.0.iter()) {
        *x = mont(i64::from(*x).wrapping_mul(i64::from(*y)));
    }
}

/// out = mont(â ∘ b̂).
#[inline(always)]
pub(crate) fn mul_mont_portable(out: &mut Poly, a: &Poly, b: &Poly) {
    for ((o, x), y) in out.0.iter_mut().zip(a.0.iter()).zip(b.0.iter()) {
        *o = mont(i64::from(*x).wrapping_mul(i64::from(*y)));
    }
}

#[cfg(all(test, feature = "simd", target_arch = "x86_64"))]
mod avx2_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn schoolbook(a: &Poly, b: &Poly) -> Poly {
        let q = i64::from(Q);
        let mut r = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = i64::from(a.0[i]) * i64::from(b.0[j]) % q;
                if i + j < N {
                    r[i + j] = (r[i + j] + p) % q;
                } else {
                    r[i + j - N] = (r[i + j - N] - p) % q;
                }
            }
        }
        let mut out = Poly::ZERO;
        for i in 0..N {
            out.0[i] = ((r[i] % q + q) % q) as i32;
        }
        out
    }

    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let mut a = Poly::ZERO;
        let mut b = Poly::ZERO;
        let mut s = 12345u32;
        for i in 0..N {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            a.0[i] = (s >> 9) as i32 % Q - Q / 2;
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            b.0[i] = (s >> 20) as i32 - 2048;
        }
        let expect = schoolbook(&a, &b);
        let (mut ah, mut bh) = (a, b);
        ah.ntt();
        bh.ntt();
        let mut c = Poly::ZERO;
        mul_mont(&mut c, &ah, &bh);
        c.invntt_tomont();
        c.freeze();
        assert_eq!(c.0, expect.0);
        // NTT then inverse is the identity.
        let mut t = a;
        t.ntt();
        for x in &mut t.0 {
            *x = mont(i64::from(*x));
        }
        t.invntt_tomont();
        t.freeze();
        let mut a2 = a;
        a2.0.iter_mut().for_each(|x| *x = freeze(*x));
        assert_eq!(t.0, a2.0);
    }

    /// FIPS 204 errata (NIST, September 2024): equations (2.1) and (7.1)
    /// define `NTT(w)_i = w(ζ^(2·BitRev8(i)+1)) mod q`; the published text
    /// wrongly evaluated w twice. Our NTT (Algorithm 41, which the errata
    /// leaves unchanged) must match the corrected equation: checked here by
    /// evaluating w directly at each root.
    #[test]
    fn ntt_evaluates_at_the_roots_of_the_corrected_equation() {
        let q = Q as u64;
        let mut w = Poly::ZERO;
        let mut s = 777u32;
        for c in &mut w.0 {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            *c = (s >> 9) as i32 % Q;
        }
        let mut hat = w;
        hat.ntt(); // |coefficients| < 9q: reduce fully for the comparison
        hat.0.iter_mut().for_each(|c| *c = c.rem_euclid(Q));
        for (i, &got) in hat.0.iter().enumerate() {
            let root = pow_mod(1753, 2 * bitrev8(i) + 1);
            // Horner: w(root) mod q.
            let value =
                w.0.iter()
                    .rev()
                    .fold(0u64, |acc, &c| (acc * root + c as u64) % q);
            assert_eq!(got as u64, value, "NTT coefficient {i}");
        }
        // The errata's wrong reading, w(w(root)), gives other values.
        let root = pow_mod(1753, 2 * bitrev8(0) + 1);
        let once =
            w.0.iter()
                .rev()
                .fold(0u64, |acc, &c| (acc * root + c as u64) % q);
        let twice =
            w.0.iter()
                .rev()
                .fold(0u64, |acc, &c| (acc * once + c as u64) % q);
        assert_ne!(hat.0[0] as u64, twice);
    }
}
