//! Arithmetic modulo p = 2^384 − 2^128 − 2^96 + 2^32 − 1, the P-384 field
//! prime (SP 800-186 §3.2.1.4), on six 64-bit limbs, little-endian, in
//! Montgomery form (`x·R mod p`, `R = 2^384`) with `u128` products.
//!
//! Elements are kept fully reduced, in `[0, p)`. Montgomery multiplication
//! (the 768-bit product, or the square with its cross products once, then
//! the reduction: Handbook of Applied Cryptography Algorithm 14.32) uses
//! the form of p: its low limb is `2^32 − 1`, and `(2^32 − 1)(2^32 + 1) =
//! 2^64 − 1 ≡ −1 (mod 2^64)`, so the per-limb multiplier
//! `m = −t·p⁻¹ mod 2^64` is `t_0·(2^32 + 1) = t_0 + (t_0 << 32)`, no
//! product; limbs 3 … 5 of p are equal, so `m·p` takes four products. No
//! operation branches on or indexes by limb values; selections are masks.

use crate::arch::{self, Bmi2Adx};
pub(crate) use crate::nist_field::{FieldArith, mul_wide, sqr_wide};
use crate::nist_field::{hi, lo, sub_p_unless_below};

/// p, little-endian limbs.
pub(crate) const P: [u64; 6] = [
    0x0000_0000_ffff_ffff,
    0xffff_ffff_0000_0000,
    0xffff_ffff_ffff_fffe,
    u64::MAX,
    u64::MAX,
    u64::MAX,
];

/// `R² mod p`, the factor that brings an integer into Montgomery form.
const R2: [u64; 6] = [
    0xffff_fffe_0000_0001,
    0x0000_0002_0000_0000,
    0xffff_fffe_0000_0000,
    0x0000_0002_0000_0000,
    1,
    0,
];

/// A field element in Montgomery form, fully reduced (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fe(pub(crate) [u64; 6]);

impl Fe {
    pub(crate) const ZERO: Fe = Fe([0; 6]);
    /// 1 in Montgomery form, `R mod p`.
    pub(crate) const ONE: Fe = Fe([0xffff_ffff_0000_0001, 0x0000_0000_ffff_ffff, 1, 0, 0, 0]);
    /// The curve coefficient b (SP 800-186 §3.2.1.4) in Montgomery form.
    pub(crate) const B: Fe = Fe([
        0x0811_8871_9d41_2dcc,
        0xf729_add8_7a4c_32ec,
        0x77f2_209b_1920_022e,
        0xe337_4bee_9493_8ae2,
        0xb62b_21f4_1f02_2094,
        0xcd08_114b_604f_bff9,
    ]);

    crate::nist_field::fe_methods!(limbs = 6, bytes = 48);
}

/// Montgomery reduction `t·2^−384 mod p` of a 768-bit `t < p·2^384`: six
/// rounds on the low half, `u ← u + m·p·2^(64i)` with `m = u_i·(2^32 + 1)`
/// (the module docs), each clearing limb `i` and writing a fresh limb
/// `i + 6`; the low half reduced is `(t_lo + M·p) / 2^384 ≤ p`, then
/// `u + t_hi < 2p` on seven limbs and `p` subtracted once unless that
/// borrows (HAC Algorithm 14.32 step 3).
///
/// No products: `m·p = m·2^384 − m·(2^32 + 1)·2^96 + m·(2^32 − 1)` (p's
/// form), so a round adds `a = m·(2^32 − 1) < 2^96` at limb `i`, subtracts
/// `b = m·(2^32 + 1)·2^32 < 2^129` at limb `i + 1` and writes `m` (plus
/// the carry, minus the borrow) to the fresh limb: the window's value
/// `u + m·p` is below `2^448`, so the fresh limb takes it whole.
#[inline(always)]
pub(crate) fn mont_reduce(t: &[u64; 12]) -> [u64; 6] {
    let mut u = [t[0], t[1], t[2], t[3], t[4], t[5], 0, 0, 0, 0, 0, 0];
    for i in 0..6 {
        let m = u[i].wrapping_add(u[i] << 32);
        let a = (u128::from(m) << 32) - u128::from(m);
        // m·(2^32 + 1) < 2^97; b is it shifted by 32 bits, three limbs.
        let mc = (u128::from(m) << 32) + u128::from(m);
        // Add a (two limbs) along the six-limb window.
        let mut c = 0u64;
        for (j, aj) in [lo(a), hi(a), 0, 0, 0, 0].into_iter().enumerate() {
            let v = u128::from(u[i + j]) + u128::from(aj) + u128::from(c);
            u[i + j] = lo(v);
            c = hi(v);
        }
        // Subtract b (limbs i + 1 … i + 3) along limbs i + 1 … i + 5.
        let bl = [lo(mc) << 32, lo(mc >> 32), hi(mc >> 32), 0, 0];
        let mut borrow = 0u64;
        for (j, bj) in bl.into_iter().enumerate() {
            let (d1, b1) = u[i + 1 + j].overflowing_sub(bj);
            let (d2, b2) = d1.overflowing_sub(borrow);
            u[i + 1 + j] = d2;
            borrow = u64::from(b1 | b2);
        }
        u[i + 6] = m.wrapping_add(c).wrapping_sub(borrow);
    }
    let mut s = [0u64; 6];
    let mut c = 0u64;
    for (i, si) in s.iter_mut().enumerate() {
        let v = u128::from(u[i + 6]) + u128::from(t[i + 6]) + u128::from(c);
        *si = lo(v);
        c = hi(v);
    }
    sub_p_unless_below(&s, c, &P)
}

/// Montgomery multiplication `a·b·2^−384 mod p`: [`mul_wide`] then
/// [`mont_reduce`] (canonical for inputs below p).
#[inline(always)]
pub(crate) fn mont_mul(a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    mont_reduce(&mul_wide::<6, 12>(a, b))
}

/// Montgomery squaring `a²·2^−384 mod p`: [`sqr_wide`] then [`mont_reduce`].
#[inline(always)]
pub(crate) fn mont_sqr(a: &[u64; 6]) -> [u64; 6] {
    mont_reduce(&sqr_wide::<6, 12>(a))
}

/// The field operations of the group formulas (`nist_curve::a3_curve!`):
/// [`FieldArith`] over [`Fe`] (the portable [`mont_mul`], [`mont_sqr`],
/// [`Fe::add`], [`Fe::sub`] of [`Portable`], or the MULX/ADCX/ADOX kernels
/// `arch::p384_mont_mul`, `arch::p384_mont_sqr` of [`Bmi2Adx`],
/// bit-identical) with P-384's inversion chain; every [`FieldArith`] path
/// has it.
pub(crate) trait Arith: FieldArith<Fe> {
    /// `a^(p−2)`, the inverse of `a` (0 for 0), by Fermat's little theorem
    /// with a fixed chain independent of `a`: p − 2 is, from the top, 255
    /// ones, a zero, 32 ones, 64 zeros, 30 ones, a zero and a one
    /// (`x_k = a^(2^k − 1)`).
    fn invert(self, a: &Fe) -> Fe {
        let x2 = self.mul(&self.square(a), a);
        let x3 = self.mul(&self.square(&x2), a);
        let x6 = self.mul(&self.square_n(&x3, 3), &x3);
        let x12 = self.mul(&self.square_n(&x6, 6), &x6);
        let x15 = self.mul(&self.square_n(&x12, 3), &x3);
        let x30 = self.mul(&self.square_n(&x15, 15), &x15);
        let x32 = self.mul(&self.square_n(&x30, 2), &x2);
        let x60 = self.mul(&self.square_n(&x30, 30), &x30);
        let x120 = self.mul(&self.square_n(&x60, 60), &x60);
        let x240 = self.mul(&self.square_n(&x120, 120), &x120);
        let x255 = self.mul(&self.square_n(&x240, 15), &x15);
        let t = self.mul(&self.square_n(&x255, 33), &x32); // 255 ones, 0, 32 ones
        let t = self.square_n(&t, 64);
        let t = self.mul(&self.square_n(&t, 30), &x30); // 30 ones
        self.mul(&self.square_n(&t, 2), a) // then 0, 1
    }
}

impl<A: FieldArith<Fe>> Arith for A {}

/// The portable arithmetic (`u128` products), on every target.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl FieldArith<Fe> for Portable {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        Fe(mont_mul(&a.0, &b.0))
    }

    #[inline(always)]
    fn square(self, a: &Fe) -> Fe {
        Fe(mont_sqr(&a.0))
    }

    #[inline(always)]
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        a.add(b)
    }

    #[inline(always)]
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        a.sub(b)
    }
}

/// The x86-64 kernels (MULX/ADCX/ADOX) for the products; add and sub stay
/// the portable masked code.
impl FieldArith<Fe> for Bmi2Adx {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::p384_mont_mul(self, &a.0, &b.0))
    }

    #[inline(always)]
    fn square(self, a: &Fe) -> Fe {
        Fe(arch::p384_mont_sqr(self, &a.0))
    }

    #[inline(always)]
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        a.add(b)
    }

    #[inline(always)]
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        a.sub(b)
    }
}
