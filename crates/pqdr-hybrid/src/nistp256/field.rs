//! Arithmetic modulo p = 2^256 − 2^224 + 2^192 + 2^96 − 1, the P-256 field
//! prime (SP 800-186 §3.2.1.3), on four 64-bit limbs, little-endian, in
//! Montgomery form (`x·R mod p`, `R = 2^256`) with `u128` products.
//!
//! Elements are kept fully reduced, in `[0, p)`. Montgomery multiplication
//! (the 512-bit product, or the square with its cross products once, then
//! the reduction: Handbook of Applied Cryptography Algorithm 14.32) uses
//! the special form of p: `p ≡ −1 (mod 2^64)`, so the per-limb multiplier `m = −t·p⁻¹ mod 2^64`
//! is the low limb `t_0` itself, and `m·p` is shifts of `m` plus one
//! product by the top limb `0xffffffff00000001`. No operation branches on
//! or indexes by limb values; selections are masks.

use pqdr_common::ct::opaque;
use zeroize::Zeroize;

use crate::arch::{self, Bmi2Adx};
pub(crate) use crate::nist_field::{FieldArith, mul_wide, sqr_wide};
use crate::nist_field::{hi, lo, select, sub_limbs, sub_p_unless_below};

/// p, little-endian limbs.
pub(crate) const P: [u64; 4] = [u64::MAX, 0xffff_ffff, 0, 0xffff_ffff_0000_0001];

/// `R² mod p`, the factor that brings an integer into Montgomery form.
const R2: [u64; 4] = [
    3,
    0xffff_fffb_ffff_ffff,
    0xffff_ffff_ffff_fffe,
    0x0000_0004_ffff_fffd,
];

/// `R³ mod p` (`R = 2^256`), the factor that brings the integer inverse of
/// a Montgomery form `a·R` to `a^(−1)·R`.
const R3: Fe = Fe([
    0xffff_fffd_0000_000a,
    0xffff_ffed_ffff_fff7,
    0x0000_0005_ffff_fffc,
    0x0000_0018_0000_0001,
]);

/// A field element in Montgomery form, fully reduced (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fe(pub(crate) [u64; 4]);

impl Fe {
    pub(crate) const ZERO: Fe = Fe([0; 4]);
    /// 1 in Montgomery form, `R mod p`.
    pub(crate) const ONE: Fe = Fe([1, 0xffff_ffff_0000_0000, u64::MAX, 0x0000_0000_ffff_fffe]);
    /// The curve coefficient b (SP 800-186 §3.2.1.3) in Montgomery form.
    pub(crate) const B: Fe = Fe([
        0xd89c_df62_29c4_bddf,
        0xacf0_05cd_7884_3090,
        0xe5a2_20ab_f721_2ed6,
        0xdc30_061d_0487_4834,
    ]);

    crate::nist_field::fe_methods!(limbs = 4, bytes = 32);
}

/// Montgomery reduction `t·2^−256 mod p` of a 512-bit `t` (the second half
/// of the portable twin of the MULX kernels): four rounds on the low half,
/// `u = (u + m·p·2^(64i))` with `m = u_i` (p ≡ −1 mod 2^64, so `−p⁻¹ ≡ 1`):
/// `t_i + m·(2^64 − 1)` is `m·2^64`, with `p_1 = 2^32 − 1` limb `i + 1`
/// gains `m·2^32`, `p_2 = 0`, and `m·p_3` lands at limbs `i + 3`, `i + 4`
/// (a fresh limb). The low half reduced is `u = (t_lo + M·p) / 2^256 ≤ p`;
/// then `u + t_hi < 2^256 + p` on five limbs and `p` is subtracted once
/// unless that borrows. `M` is the one value below 2^256 with
/// `t + M·p ≡ 0 (mod 2^256)`, so this is the same integer as an interleaved
/// (operand-scanning) Montgomery product: canonical for inputs below p,
/// and bit-identical to the kernels for any inputs.
#[inline(always)]
pub(crate) fn mont_reduce(t: &[u64; 8]) -> [u64; 4] {
    let u = reduce_rounds(t);
    let mut s = [0u64; 4];
    let mut c = 0u64;
    for (i, si) in s.iter_mut().enumerate() {
        let v = u128::from(u[i]) + u128::from(t[i + 4]) + u128::from(c);
        *si = lo(v);
        c = hi(v);
    }
    // s < p iff the five-limb subtraction borrows: c < borrow.
    sub_p_unless_below(&s, c, &P)
}

/// The four reduction rounds of [`mont_reduce`] on the low half of `t`:
/// the limbs `u_4 … u_7` of `(t_lo + M·p) / 2^256 ≤ p`.
#[inline(always)]
fn reduce_rounds(t: &[u64; 8]) -> [u64; 4] {
    let mut u = [t[0], t[1], t[2], t[3], 0, 0, 0, 0];
    for i in 0..4 {
        let m = u[i];
        let mp3 = u128::from(m) * u128::from(P[3]);
        let s1 = u128::from(u[i + 1]) + u128::from(m << 32);
        let s2 = u128::from(u[i + 2]) + u128::from(m >> 32) + (s1 >> 64);
        let s3 = u128::from(u[i + 3]) + u128::from(lo(mp3)) + (s2 >> 64);
        u[i + 1] = lo(s1);
        u[i + 2] = lo(s2);
        u[i + 3] = lo(s3);
        // hi(m·p_3) ≤ p_3 − 1, so the carry cannot overflow the fresh limb.
        u[i + 4] = hi(mp3) + hi(s3);
    }
    [u[4], u[5], u[6], u[7]]
}

/// `n` Montgomery squarings of `a` (any value below 2^256), fully reduced
/// (`a` reduced if `n = 0`): the portable twin of the MULX kernel
/// `arch::p256_mont_sqr_n`, bit-identical on every input. Between rounds
/// the reduction is lazy: `s = u + t_hi < 2^256 + p` ([`mont_reduce`])
/// loses `p` only if it carries out of 256 bits (a mask), so it stays below
/// 2^256; one conditional subtraction of `p` after the last round (HAC
/// Algorithm 14.32 step 3, deferred).
#[inline(always)]
#[cfg_attr(
    not(any(test, feature = "p384")),
    allow(
        dead_code,
        reason = "squaring runs serve P-384's inversion and the tests' Fermat reference only"
    )
)]
pub(crate) fn mont_sqr_n(a: &[u64; 4], n: u32) -> [u64; 4] {
    let mut x = *a;
    for _ in 0..n {
        let t = sqr_wide::<4, 8>(&x);
        let u = reduce_rounds(&t);
        let mut s = [0u64; 4];
        let mut c = 0u64;
        for (i, si) in s.iter_mut().enumerate() {
            let v = u128::from(u[i]) + u128::from(t[i + 4]) + u128::from(c);
            *si = lo(v);
            c = hi(v);
        }
        let mask = opaque(opaque(c).wrapping_neg());
        let pm = [P[0] & mask, P[1] & mask, 0, P[3] & mask];
        x = sub_limbs(&s, &pm).0;
    }
    let (d, borrow) = sub_limbs(&x, &P);
    // x < 2^256 < 2p: keep x iff x − p borrows.
    select(opaque(opaque(borrow).wrapping_neg()), &x, &d)
}

/// Montgomery multiplication `a·b·2^−256 mod p`: [`mul_wide`] then
/// [`mont_reduce`] (the portable twin of the MULX kernel
/// `arch::p256_mont_mul`, bit-identical on every input; canonical for
/// inputs below p).
#[inline(always)]
pub(crate) fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    mont_reduce(&mul_wide::<4, 8>(a, b))
}

/// Montgomery squaring `a²·2^−256 mod p`: [`sqr_wide`] then
/// [`mont_reduce`] (the portable twin of `arch::p256_mont_sqr`).
#[inline(always)]
pub(crate) fn mont_sqr(a: &[u64; 4]) -> [u64; 4] {
    mont_reduce(&sqr_wide::<4, 8>(a))
}

/// The field operations of the group formulas: [`FieldArith`] over [`Fe`]
/// (the portable [`mont_mul`], [`mont_sqr`], [`Fe::add`], [`Fe::sub`] of
/// [`Portable`], or the x86-64 kernels `arch::p256_mont_mul`,
/// `p256_mont_sqr` (MULX/ADCX/ADOX), `p256_add`, `p256_sub` of
/// [`Bmi2Adx`], bit-identical) with P-256's inversion chain; every
/// [`FieldArith`] path has it.
pub(crate) trait Arith: FieldArith<Fe> {
    /// The inverse of `a` (0 for 0): Bernstein–Yang divsteps on the
    /// integer `a·R` ([`super::invert::invert`]), then the Montgomery product
    /// with `R³ mod p`, `(a·R)^(−1)·R³/R = a^(−1)·R`; the same value as the
    /// Fermat chain `Arith::invert_fermat`, in less time (short-latency ALU
    /// work instead of 255 dependent squarings).
    #[inline(always)]
    fn invert(self, a: &Fe) -> Fe {
        let mut x = Fe(super::invert::invert(&a.0));
        let r = self.mul(&x, &R3);
        x.0.zeroize();
        r
    }

    /// `a^(p−2)`, the inverse of `a` (0 for 0), by Fermat's little theorem
    /// with a fixed chain independent of `a`: p − 2 is, from the top, 32
    /// ones, 31 zeros and a one, 96 zeros, 94 ones, a zero and a one (the
    /// previous inversion, kept as the reference of the tests).
    #[cfg(test)]
    fn invert_fermat(self, a: &Fe) -> Fe {
        let x2 = self.mul(&self.square(a), a); // 2^2 − 1
        let x3 = self.mul(&self.square(&x2), a); // 2^3 − 1
        let x6 = self.mul(&self.square_n(&x3, 3), &x3);
        let x12 = self.mul(&self.square_n(&x6, 6), &x6);
        let x15 = self.mul(&self.square_n(&x12, 3), &x3);
        let x30 = self.mul(&self.square_n(&x15, 15), &x15);
        let x32 = self.mul(&self.square_n(&x30, 2), &x2);
        let t = self.mul(&self.square_n(&x32, 32), a); // 32 ones, 31 zeros, 1
        let t = self.square_n(&t, 96);
        let t = self.mul(&self.square_n(&t, 32), &x32);
        let t = self.mul(&self.square_n(&t, 32), &x32);
        let t = self.mul(&self.square_n(&t, 30), &x30); // 94 ones
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
    fn square_n(self, a: &Fe, n: u32) -> Fe {
        Fe(mont_sqr_n(&a.0, n))
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

impl FieldArith<Fe> for Bmi2Adx {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::p256_mont_mul(self, &a.0, &b.0))
    }

    #[inline(always)]
    fn square(self, a: &Fe) -> Fe {
        Fe(arch::p256_mont_sqr(self, &a.0))
    }

    #[inline(always)]
    fn square_n(self, a: &Fe, n: u32) -> Fe {
        Fe(arch::p256_mont_sqr_n(self, &a.0, n))
    }

    #[inline(always)]
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::p256_add(self, &a.0, &b.0))
    }

    #[inline(always)]
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::p256_sub(self, &a.0, &b.0))
    }

    #[inline(always)]
    fn triple(self, a: &Fe) -> Fe {
        Fe(arch::p256_triple(self, &a.0))
    }

    #[inline(always)]
    fn jacobian_double_n(self, p: &[Fe; 3], n: u32) -> [Fe; 3] {
        let mut st = [[0u64; 4]; arch::P256_DBL_SLOTS];
        st[0] = p[0].0;
        st[1] = p[1].0;
        st[2] = p[2].0;
        arch::p256_jacobian_double_n(self, &mut st, n);
        let r = [Fe(st[0]), Fe(st[1]), Fe(st[2])];
        st.zeroize();
        r
    }

    #[inline(always)]
    fn jacobian_add_affine(self, p: &[Fe; 3], q: &[Fe; 2]) -> [Fe; 3] {
        let mut st = [[0u64; 4]; arch::P256_MADD_SLOTS];
        st[0] = p[0].0;
        st[1] = p[1].0;
        st[2] = p[2].0;
        st[3] = q[0].0;
        st[4] = q[1].0;
        arch::p256_jacobian_madd(self, &mut st);
        let r = [Fe(st[0]), Fe(st[1]), Fe(st[2])];
        st.zeroize();
        r
    }

    #[inline(always)]
    fn sub2(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::p256_sub2(self, &a.0, &b.0))
    }
}
