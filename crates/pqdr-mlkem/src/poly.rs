//! Polynomials of `R_q = Z_q[X]/(X^256 + 1)` and of its NTT image `T_q`
//! (FIPS 203 §2.4.4), with coefficient-wise operations.

use zeroize::Zeroize;

pub(crate) use crate::field::N;
use crate::field::{MONT2, barrett_reduce, fqmul, to_canonical};

/// A polynomial (or its NTT representation): 256 signed 16-bit coefficients.
///
/// Coefficients are kept in a bounded range that each function documents;
/// they are only brought to `[0, q)` before encoding.
#[derive(Clone, Copy)]
#[repr(align(32))]
pub(crate) struct Poly {
    pub(crate) c: [i16; N],
}

impl Zeroize for Poly {
    fn zeroize(&mut self) {
        self.c.zeroize();
    }
}

impl Poly {
    /// The zero polynomial.
    pub(crate) const ZERO: Self = Self { c: [0; N] };

    /// `self += other`, coefficient-wise (no reduction).
    #[inline(always)]
    pub(crate) fn add_assign(&mut self, other: &Self) {
        for (a, b) in self.c.iter_mut().zip(other.c.iter()) {
            *a = a.wrapping_add(*b);
        }
    }

    /// `self = other - self`, coefficient-wise (no reduction).
    #[inline(always)]
    pub(crate) fn sub_from(&mut self, other: &Self) {
        for (a, b) in self.c.iter_mut().zip(other.c.iter()) {
            *a = b.wrapping_sub(*a);
        }
    }

    /// Barrett-reduces every coefficient to its centered representative.
    #[inline(always)]
    pub(crate) fn reduce(&mut self) {
        if let Some(token) = crate::arch::avx2() {
            crate::arch::poly_reduce(token, &mut self.c);
            return;
        }
        self.reduce_portable();
    }

    /// [`Self::reduce`] without SIMD: the reference twin of the AVX2 path.
    #[inline(always)]
    pub(crate) fn reduce_portable(&mut self) {
        for a in &mut self.c {
            *a = barrett_reduce(*a);
        }
    }

    /// Brings every coefficient to `[0, q)`.
    #[inline(always)]
    pub(crate) fn canonicalize(&mut self) {
        if let Some(token) = crate::arch::avx2() {
            crate::arch::poly_canonicalize(token, &mut self.c);
            return;
        }
        self.canonicalize_portable();
    }

    /// [`Self::canonicalize`] without SIMD: the reference twin of the AVX2 path.
    #[inline(always)]
    pub(crate) fn canonicalize_portable(&mut self) {
        for a in &mut self.c {
            *a = to_canonical(*a);
        }
    }

    /// Multiplies every coefficient by `2^16` (`x ↦ x·2^32·2^{-16}`),
    /// undoing the `2^{-16}` factor a Montgomery product leaves.
    #[inline(always)]
    pub(crate) fn scale_mont(&mut self) {
        for a in &mut self.c {
            *a = fqmul(*a, MONT2);
        }
    }
}
