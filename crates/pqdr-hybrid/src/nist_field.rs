//! The field layer shared by our NIST curves (`nistp256`, `nistp384`),
//! written once over the limb count `L`: the arithmetic trait
//! [`FieldArith`] the point formulas are generic over (the portable code or
//! the MULX/ADX kernels; `triple`, `sub2` and `square_n` defaults), and the
//! masked limb helpers (`a − b` with its borrow, selection, `a ± b mod p`,
//! the zero test). Each curve keeps its element type, its reduction (the
//! form of its p, HAC Algorithm 14.32) and its inversion chain (its own
//! `Arith` extension of [`FieldArith`]).
//!
//! Constant time: no operation branches on or indexes by limb values;
//! selections are masks.

use pqdr_common::ct::opaque;

/// The field operations of the group formulas over a curve's element `F`
/// (Montgomery form, fully reduced): the portable code or the x86-64
/// kernels (the `Bmi2Adx` token), bit-identical. The point formulas are
/// generic over it, so each path is one monomorphized loop.
pub(crate) trait FieldArith<F: Copy>: Copy {
    /// `a·b` (Montgomery).
    fn mul(self, a: &F, b: &F) -> F;

    /// `a + b`.
    fn add(self, a: &F, b: &F) -> F;

    /// `a − b`.
    fn sub(self, a: &F, b: &F) -> F;

    /// `a²` (Montgomery).
    fn square(self, a: &F) -> F;

    /// `3a`: `(a + a) + a` (the portable twin of `arch::p256_triple`).
    #[inline(always)]
    fn triple(self, a: &F) -> F {
        self.add(&self.add(a, a), a)
    }

    /// `a − 2b`: `(a − b) − b` (the portable twin of `arch::p256_sub2`).
    #[inline(always)]
    fn sub2(self, a: &F, b: &F) -> F {
        self.sub(&self.sub(a, b), b)
    }

    /// `n` doublings of the Jacobian point `p = (X, Y, Z)` on a curve with
    /// a = −3 (EFD "dbl-2001-b", the formula `nist_curve`'s
    /// `jacobian_double` documents: `δ = Z²`, `g = 2Y²`, `4β = 2·X·g`,
    /// `α = 3(X − δ)(X + δ)`, `X3 = α² − 2·4β`, `Z3 = 2·Y·Z`,
    /// `Y3 = α(4β − X3) − 2g²`), in these field operations; P-256's
    /// `Bmi2Adx` path overrides it with the one-block kernel
    /// `arch::p256_jacobian_double_n` (bit-identical).
    #[inline(always)]
    fn jacobian_double_n(self, p: &[F; 3], n: u32) -> [F; 3] {
        let [mut x, mut y, mut z] = *p;
        for _ in 0..n {
            let delta = self.square(&z);
            let gamma = self.square(&y);
            let g = self.add(&gamma, &gamma);
            let beta2 = self.mul(&x, &g);
            let beta4 = self.add(&beta2, &beta2);
            let alpha = self.mul(&self.sub(&x, &delta), &self.add(&x, &delta));
            let alpha = self.triple(&alpha);
            let x3 = self.sub2(&self.square(&alpha), &beta4);
            let yz = self.mul(&y, &z);
            z = self.add(&yz, &yz);
            let g2 = self.square(&g);
            let y3 = self.mul(&alpha, &self.sub(&beta4, &x3));
            y = self.sub2(&y3, &g2);
            x = x3;
        }
        [x, y, z]
    }

    /// `p + q` for a Jacobian `p = (X1, Y1, Z1)` and an affine `q = (x2, y2)`
    /// (EFD "madd-2004-hmv", the formula `nist_curve`'s
    /// `jacobian_add_affine` documents, with its exceptions), in these field
    /// operations; P-256's `Bmi2Adx` path overrides it with the one-block
    /// kernel `arch::p256_jacobian_madd` (bit-identical).
    #[inline(always)]
    fn jacobian_add_affine(self, p: &[F; 3], q: &[F; 2]) -> [F; 3] {
        let [x1, y1, z1] = p;
        let [x2, y2] = q;
        let z1z1 = self.square(z1);
        let u2 = self.mul(x2, &z1z1);
        let s2 = self.mul(y2, &self.mul(z1, &z1z1));
        let h = self.sub(&u2, x1);
        let r = self.sub(&s2, y1);
        let hh = self.square(&h);
        let hhh = self.mul(&h, &hh);
        let v = self.mul(x1, &hh);
        let x3 = self.sub2(&self.sub(&self.square(&r), &hhh), &v);
        let y3 = self.sub(&self.mul(&r, &self.sub(&v, &x3)), &self.mul(y1, &hhh));
        let z3 = self.mul(z1, &h);
        [x3, y3, z3]
    }

    /// `a^(2^n)` (Montgomery), `n` squarings of [`FieldArith::square`];
    /// P-256's paths override it with `mont_sqr_n` / `arch::p256_mont_sqr_n`
    /// (bit-identical: both canonical).
    #[inline(always)]
    #[cfg_attr(
        not(any(test, feature = "p384")),
        allow(
            dead_code,
            reason = "squaring runs serve P-384's inversion and the tests' Fermat reference only"
        )
    )]
    fn square_n(self, a: &F, n: u32) -> F {
        let mut r = *a;
        for _ in 0..n {
            r = self.square(&r);
        }
        r
    }
}

/// `a − b` over `L` limbs and the borrow out (0 or 1).
#[inline(always)]
pub(crate) fn sub_limbs<const L: usize>(a: &[u64; L], b: &[u64; L]) -> ([u64; L], u64) {
    let mut d = [0u64; L];
    let mut borrow = 0u64;
    for (i, di) in d.iter_mut().enumerate() {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow);
        *di = d2;
        borrow = u64::from(b1 | b2);
    }
    (d, borrow)
}

/// `a` where `mask` is all ones, `b` where it is 0.
#[inline(always)]
pub(crate) fn select<const L: usize>(mask: u64, a: &[u64; L], b: &[u64; L]) -> [u64; L] {
    let mut r = [0u64; L];
    for (i, ri) in r.iter_mut().enumerate() {
        *ri = (a[i] & mask) | (b[i] & !mask);
    }
    r
}

/// The `L + 1`-limb `c·2^(64L) + s` (`c` ∈ {0, 1}) less `p` unless that
/// borrows out of the `L + 1` limbs (then `s`), by a mask (HAC Algorithm
/// 14.32 step 3).
#[inline(always)]
pub(crate) fn sub_p_unless_below<const L: usize>(s: &[u64; L], c: u64, p: &[u64; L]) -> [u64; L] {
    let (d, borrow) = sub_limbs(s, p);
    // Keep `s` iff it is below p: the subtraction borrowed and c = 0.
    let keep = opaque((opaque(borrow) & !opaque(c) & 1).wrapping_neg());
    select(keep, s, &d)
}

/// `a + b mod p` for `a, b < p`: the `64L + 1`-bit sum, then `p`
/// subtracted unless that borrows, by a mask.
#[inline(always)]
pub(crate) fn add_mod<const L: usize>(a: &[u64; L], b: &[u64; L], p: &[u64; L]) -> [u64; L] {
    let mut s = [0u64; L];
    let mut c = 0u64;
    for (i, si) in s.iter_mut().enumerate() {
        let v = u128::from(a[i]) + u128::from(b[i]) + u128::from(c);
        *si = lo(v);
        c = hi(v);
    }
    sub_p_unless_below(&s, c, p)
}

/// `a − b mod p` for `a, b < p`: the difference, `p` added back by a mask
/// on a borrow.
#[inline(always)]
pub(crate) fn sub_mod<const L: usize>(a: &[u64; L], b: &[u64; L], p: &[u64; L]) -> [u64; L] {
    let (d, borrow) = sub_limbs(a, b);
    let mask = opaque(opaque(borrow).wrapping_neg());
    let mut r = [0u64; L];
    let mut c = 0u64;
    for (i, ri) in r.iter_mut().enumerate() {
        let v = u128::from(d[i]) + u128::from(p[i] & mask) + u128::from(c);
        *ri = lo(v);
        c = hi(v);
    }
    r
}

/// All ones iff every limb is 0 (constant time).
#[inline(always)]
pub(crate) fn is_zero_mask<const L: usize>(a: &[u64; L]) -> u64 {
    let or = a.iter().fold(0, |acc, l| acc | l);
    // (or | −or) has its top bit set iff or ≠ 0.
    ((or | or.wrapping_neg()) >> 63).wrapping_sub(1)
}

/// The `128L`-bit product `a·b` (schoolbook, row by row), little-endian
/// limbs (`W = 2L`): the first half of the portable Montgomery products
/// (each curve's `mont_mul`, the twins of its MULX kernels).
#[inline(always)]
pub(crate) fn mul_wide<const L: usize, const W: usize>(a: &[u64; L], b: &[u64; L]) -> [u64; W] {
    const { assert!(W == 2 * L) };
    let mut t = [0u64; W];
    for (i, &ai) in a.iter().enumerate() {
        let mut c = 0u64;
        for (j, &bj) in b.iter().enumerate() {
            let v = u128::from(ai) * u128::from(bj) + u128::from(t[i + j]) + u128::from(c);
            t[i + j] = lo(v);
            c = hi(v);
        }
        t[i + L] = c;
    }
    t
}

/// The `128L`-bit square `a²` (`W = 2L`): the products `a_i·a_j` (`i < j`)
/// once, doubled, plus the squares `a_i²` (the first half of each curve's
/// portable `mont_sqr`).
#[inline(always)]
pub(crate) fn sqr_wide<const L: usize, const W: usize>(a: &[u64; L]) -> [u64; W] {
    const { assert!(W == 2 * L) };
    let mut t = [0u64; W];
    for i in 0..L - 1 {
        let mut c = 0u64;
        for j in i + 1..L {
            let v = u128::from(a[i]) * u128::from(a[j]) + u128::from(t[i + j]) + u128::from(c);
            t[i + j] = lo(v);
            c = hi(v);
        }
        t[i + L] = c;
    }
    // 2·t (t < 2^(64(W − 1)), so the top bit shifted out of limb W − 2
    // lands in limb W − 1; limb 0 is 0).
    t[W - 1] = t[W - 2] >> 63;
    for k in (1..W - 1).rev() {
        t[k] = (t[k] << 1) | (t[k - 1] >> 63);
    }
    let mut c = 0u64;
    for (i, &ai) in a.iter().enumerate() {
        let sq = u128::from(ai) * u128::from(ai);
        let v = u128::from(t[2 * i]) + u128::from(lo(sq)) + u128::from(c);
        t[2 * i] = lo(v);
        let w = u128::from(t[2 * i + 1]) + u128::from(hi(sq)) + u128::from(hi(v));
        t[2 * i + 1] = lo(w);
        c = hi(w);
    }
    t
}

/// The methods every curve's field element has, written once: expanded
/// inside the curve's `impl Fe` with its `P`, `R2` (`R² mod p`) and
/// `mont_mul` in scope; `limbs` is the limb count, `bytes` the coordinate
/// size. Decoding and encoding (SEC 1 v2 §2.3.5–2.3.6), `a ± b mod p`,
/// `−a`, the masked select and the zero test.
macro_rules! fe_methods {
    (limbs = $limbs:literal, bytes = $bytes:literal) => {
        /// Decodes a big-endian coordinate (SEC 1 v2 §2.3.6) into Montgomery
        /// form; `None` if it is not below p. Public inputs only (the answer
        /// is a branch).
        pub(crate) fn from_be_bytes(b: &[u8; $bytes]) -> Option<Fe> {
            let mut l = [0u64; $limbs];
            for (i, limb) in l.iter_mut().enumerate() {
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[$bytes - 8 - 8 * i..$bytes - 8 * i]);
                *limb = u64::from_be_bytes(w);
            }
            let (_, borrow) = $crate::nist_field::sub_limbs(&l, &P);
            // l < p iff l − p borrows.
            (borrow == 1).then(|| Fe(mont_mul(&l, &R2)))
        }

        /// The canonical big-endian encoding (SEC 1 v2 §2.3.5) of the element.
        pub(crate) fn to_be_bytes(self) -> [u8; $bytes] {
            let mut one = [0u64; $limbs];
            one[0] = 1;
            let l = mont_mul(&self.0, &one);
            let mut out = [0u8; $bytes];
            for (i, limb) in l.iter().enumerate() {
                out[$bytes - 8 - 8 * i..$bytes - 8 * i].copy_from_slice(&limb.to_be_bytes());
            }
            out
        }

        /// `a + b mod p` (`nist_field::add_mod`).
        #[inline(always)]
        pub(crate) fn add(&self, b: &Fe) -> Fe {
            Fe($crate::nist_field::add_mod(&self.0, &b.0, &P))
        }

        /// `a − b mod p` (`nist_field::sub_mod`).
        #[inline(always)]
        pub(crate) fn sub(&self, b: &Fe) -> Fe {
            Fe($crate::nist_field::sub_mod(&self.0, &b.0, &P))
        }

        /// `−a mod p`.
        #[inline(always)]
        pub(crate) fn neg(&self) -> Fe {
            Fe::ZERO.sub(self)
        }

        /// `a` if `mask` is all ones, else `b` (`mask` ∈ {0, all ones}).
        #[inline(always)]
        pub(crate) fn select(mask: u64, a: &Fe, b: &Fe) -> Fe {
            Fe($crate::nist_field::select(mask, &a.0, &b.0))
        }

        /// All ones iff the element is 0 (constant time).
        #[inline(always)]
        pub(crate) fn is_zero_mask(&self) -> u64 {
            $crate::nist_field::is_zero_mask(&self.0)
        }
    };
}
pub(crate) use fe_methods;

/// The low 64 bits of a 128-bit value.
#[inline(always)]
#[allow(clippy::cast_possible_truncation, reason = "the low limb, by design")]
pub(crate) fn lo(x: u128) -> u64 {
    x as u64
}

/// The high 64 bits of a 128-bit value.
#[inline(always)]
#[allow(clippy::cast_possible_truncation, reason = "x >> 64 fits")]
pub(crate) fn hi(x: u128) -> u64 {
    (x >> 64) as u64
}
