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

use pqdr_common::ct::opaque;

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

    /// Decodes a big-endian coordinate (SEC 1 v2 §2.3.6) into Montgomery
    /// form; `None` if it is not below p. Public inputs only (the answer is
    /// a branch).
    pub(crate) fn from_be_bytes(b: &[u8; 48]) -> Option<Fe> {
        let mut l = [0u64; 6];
        for (i, limb) in l.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[40 - 8 * i..48 - 8 * i]);
            *limb = u64::from_be_bytes(w);
        }
        let (_, borrow) = sub_limbs(&l, &P);
        // l < p iff l − p borrows.
        (borrow == 1).then(|| Fe(mont_mul(&l, &R2)))
    }

    /// The canonical big-endian encoding (SEC 1 v2 §2.3.5) of the element.
    pub(crate) fn to_be_bytes(self) -> [u8; 48] {
        let l = mont_mul(&self.0, &[1, 0, 0, 0, 0, 0]);
        let mut out = [0u8; 48];
        for (i, limb) in l.iter().enumerate() {
            out[40 - 8 * i..48 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        out
    }

    /// `a + b mod p`: the 385-bit sum, then `p` subtracted unless that
    /// borrows, by a mask.
    #[inline(always)]
    pub(crate) fn add(&self, b: &Fe) -> Fe {
        let mut s = [0u64; 6];
        let mut c = 0u64;
        for (i, si) in s.iter_mut().enumerate() {
            let v = u128::from(self.0[i]) + u128::from(b.0[i]) + u128::from(c);
            *si = lo(v);
            c = hi(v);
        }
        Fe(sub_p_unless_below(&s, c))
    }

    /// `a − b mod p`: the difference, `p` added back by a mask on a borrow.
    #[inline(always)]
    pub(crate) fn sub(&self, b: &Fe) -> Fe {
        let (d, borrow) = sub_limbs(&self.0, &b.0);
        let mask = opaque(opaque(borrow).wrapping_neg());
        let mut r = [0u64; 6];
        let mut c = 0u64;
        for (i, ri) in r.iter_mut().enumerate() {
            let v = u128::from(d[i]) + u128::from(P[i] & mask) + u128::from(c);
            *ri = lo(v);
            c = hi(v);
        }
        Fe(r)
    }

    /// `−a mod p`.
    #[inline(always)]
    pub(crate) fn neg(&self) -> Fe {
        Fe::ZERO.sub(self)
    }

    /// `a` if `mask` is all ones, else `b` (`mask` ∈ {0, all ones}).
    #[inline(always)]
    pub(crate) fn select(mask: u64, a: &Fe, b: &Fe) -> Fe {
        Fe(select(mask, &a.0, &b.0))
    }

    /// All ones iff the element is 0 (constant time).
    #[inline(always)]
    pub(crate) fn is_zero_mask(&self) -> u64 {
        let or = self.0.iter().fold(0, |acc, l| acc | l);
        // (or | −or) has its top bit set iff or ≠ 0.
        ((or | or.wrapping_neg()) >> 63).wrapping_sub(1)
    }
}

/// `a − b` over six limbs and the borrow out (0 or 1).
#[inline(always)]
fn sub_limbs(a: &[u64; 6], b: &[u64; 6]) -> ([u64; 6], u64) {
    let mut d = [0u64; 6];
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
fn select(mask: u64, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    let mut r = [0u64; 6];
    for (i, ri) in r.iter_mut().enumerate() {
        *ri = (a[i] & mask) | (b[i] & !mask);
    }
    r
}

/// The seven-limb `c·2^384 + s` (`c` ∈ {0, 1}, value below `2p`) reduced:
/// `s − p` unless that borrows out of the seven limbs, by a mask.
#[inline(always)]
fn sub_p_unless_below(s: &[u64; 6], c: u64) -> [u64; 6] {
    let (d, borrow) = sub_limbs(s, &P);
    // Keep `s` iff it is below p: the subtraction borrowed and c = 0.
    let keep = opaque((opaque(borrow) & !opaque(c) & 1).wrapping_neg());
    select(keep, s, &d)
}

/// The 768-bit product `a·b` (schoolbook, row by row), little-endian limbs.
#[inline(always)]
pub(crate) fn mul_wide(a: &[u64; 6], b: &[u64; 6]) -> [u64; 12] {
    let mut t = [0u64; 12];
    for (i, &ai) in a.iter().enumerate() {
        let mut c = 0u64;
        for (j, &bj) in b.iter().enumerate() {
            let v = u128::from(ai) * u128::from(bj) + u128::from(t[i + j]) + u128::from(c);
            t[i + j] = lo(v);
            c = hi(v);
        }
        t[i + 6] = c;
    }
    t
}

/// The 768-bit square `a²`: the fifteen products `a_i·a_j` (`i < j`) once,
/// doubled, plus the six squares `a_i²`.
#[inline(always)]
pub(crate) fn sqr_wide(a: &[u64; 6]) -> [u64; 12] {
    let mut t = [0u64; 12];
    for i in 0..5 {
        let mut c = 0u64;
        for j in i + 1..6 {
            let v = u128::from(a[i]) * u128::from(a[j]) + u128::from(t[i + j]) + u128::from(c);
            t[i + j] = lo(v);
            c = hi(v);
        }
        t[i + 6] = c;
    }
    // 2·t (t < 2^704, so the top bit shifted out of limb 10 lands in limb 11).
    t[11] = t[10] >> 63;
    for k in (1..11).rev() {
        t[k] = (t[k] << 1) | (t[k - 1] >> 63);
    }
    t[0] <<= 1;
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
    sub_p_unless_below(&s, c)
}

/// Montgomery multiplication `a·b·2^−384 mod p`: [`mul_wide`] then
/// [`mont_reduce`] (canonical for inputs below p).
#[inline(always)]
pub(crate) fn mont_mul(a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    mont_reduce(&mul_wide(a, b))
}

/// Montgomery squaring `a²·2^−384 mod p`: [`sqr_wide`] then [`mont_reduce`].
#[inline(always)]
pub(crate) fn mont_sqr(a: &[u64; 6]) -> [u64; 6] {
    mont_reduce(&sqr_wide(a))
}

/// The field operations of the group formulas (`nist_curve::a3_curve!`):
/// the portable [`mont_mul`], [`mont_sqr`], [`Fe::add`], [`Fe::sub`]
/// ([`Portable`]). The point formulas are generic over it, as P-256's.
pub(crate) trait Arith: Copy {
    /// `a·b` (Montgomery).
    fn mul(self, a: &Fe, b: &Fe) -> Fe;

    /// `a + b`.
    fn add(self, a: &Fe, b: &Fe) -> Fe;

    /// `a − b`.
    fn sub(self, a: &Fe, b: &Fe) -> Fe;

    /// `a²` (Montgomery).
    fn square(self, a: &Fe) -> Fe;

    /// `3a`: `(a + a) + a`.
    #[inline(always)]
    fn triple(self, a: &Fe) -> Fe {
        self.add(&self.add(a, a), a)
    }

    /// `a − 2b`: `(a − b) − b`.
    #[inline(always)]
    fn sub2(self, a: &Fe, b: &Fe) -> Fe {
        self.sub(&self.sub(a, b), b)
    }

    /// `a^(2^n)` (Montgomery), `n` squarings.
    #[inline(always)]
    fn square_n(self, a: &Fe, n: u32) -> Fe {
        let mut r = *a;
        for _ in 0..n {
            r = self.square(&r);
        }
        r
    }

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

/// The portable arithmetic (`u128` products), on every target.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Arith for Portable {
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

/// The low 64 bits of a 128-bit value.
#[inline(always)]
#[allow(clippy::cast_possible_truncation, reason = "the low limb, by design")]
fn lo(x: u128) -> u64 {
    x as u64
}

/// The high 64 bits of a 128-bit value.
#[inline(always)]
#[allow(clippy::cast_possible_truncation, reason = "x >> 64 fits")]
fn hi(x: u128) -> u64 {
    (x >> 64) as u64
}
