//! Arithmetic modulo p = 2^255 − 19 (RFC 7748 §4.1, §5) on four 64-bit
//! saturated limbs, little-endian, with `u128` products.
//!
//! Elements are kept *loosely reduced*: any value in `[0, 2^256)` that is
//! congruent to the element; only [`Fe::to_bytes`] reduces fully. Every
//! reduction uses 2^256 ≡ 38 (mod p). No operation branches on or indexes by
//! limb values: carries and borrows are folded back as `carry * 38`.

use pqdr_common::ct::opaque;

use crate::arch::{self, Bmi2Adx};

/// A field element mod 2^255 − 19, loosely reduced (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe(pub(crate) [u64; 4]);

impl Fe {
    /// Used by the tests only.
    #[cfg(test)]
    pub(crate) const ZERO: Fe = Fe([0; 4]);
    pub(crate) const ONE: Fe = Fe([1, 0, 0, 0]);

    /// Decodes a u-coordinate (RFC 7748 §5 `decodeUCoordinate`): little
    /// endian, the most significant bit masked. Non-canonical values
    /// `p ≤ u < 2^255` are accepted as they are (they are reduced by the
    /// arithmetic), as §5 requires.
    pub(crate) fn from_bytes(b: &[u8; 32]) -> Fe {
        let mut l = [0u64; 4];
        for (i, limb) in l.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[8 * i..8 * i + 8]);
            *limb = u64::from_le_bytes(w);
        }
        l[3] &= (1 << 63) - 1;
        Fe(l)
    }

    /// The canonical encoding (RFC 7748 §5 `encodeUCoordinate`): the unique
    /// representative in `[0, p)`, little endian.
    pub(crate) fn to_bytes(self) -> [u8; 32] {
        let mut l = self.0;
        // Fold bit 255: 2^255 ≡ 19. The result is below 2^255 + 19.
        // `opaque` (black_box) keeps LLVM from seeing that the addend is 0 or
        // 19 and turning the carry chain into branches (it did: valgrind).
        let top = l[3] >> 63;
        l[3] &= (1 << 63) - 1;
        add_small(&mut l, opaque(top * 19));
        // Now l < 2^255 + 19 < 2p. Subtract p iff l ≥ p, i.e. iff l + 19
        // reaches 2^255; done with masks.
        let mut t = l;
        add_small(&mut t, opaque(19));
        let ge = opaque((t[3] >> 63).wrapping_neg()); // all ones iff l ≥ p
        t[3] &= (1 << 63) - 1; // t − 2^255 = l − p
        let mut out = [0u8; 32];
        for i in 0..4 {
            let v = (t[i] & ge) | (l[i] & !ge);
            out[8 * i..8 * i + 8].copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// `a + b`.
    #[inline(always)]
    pub(crate) fn add(&self, b: &Fe) -> Fe {
        let mut r = [0u64; 4];
        let mut c = 0u64;
        for (i, ri) in r.iter_mut().enumerate() {
            let s = u128::from(self.0[i]) + u128::from(b.0[i]) + u128::from(c);
            *ri = lo(s);
            c = hi(s);
        }
        fold_carry(&mut r, c);
        Fe(r)
    }

    /// `a − b`.
    #[inline(always)]
    pub(crate) fn sub(&self, b: &Fe) -> Fe {
        let mut r = [0u64; 4];
        let mut borrow = 0u64;
        for (i, ri) in r.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(b.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow);
            *ri = d2;
            borrow = u64::from(b1 | b2);
        }
        // A borrow left r = a − b + 2^256 ≡ a − b + 38: take 38 away. If that
        // borrows again, r was below 38 and wraps to ≥ 2^256 − 38, so one
        // more − 38 cannot borrow.
        let mut bw = borrow * 38;
        for ri in r.iter_mut() {
            let (d, b1) = ri.overflowing_sub(bw);
            *ri = d;
            bw = u64::from(b1);
        }
        r[0] = r[0].wrapping_sub(bw * 38);
        Fe(r)
    }

    /// `a · b`: the 4×4 limb product column by column (product scanning,
    /// a 192-bit accumulator), then the 512-bit result folded with
    /// 2^256 ≡ 38.
    #[inline(always)]
    pub(crate) fn mul(&self, b: &Fe) -> Fe {
        let a = &self.0;
        let b = &b.0;
        let mut t = [0u64; 8];
        let mut acc = 0u128;
        let mut top = 0u64;
        for (k, tk) in t.iter_mut().enumerate().take(7) {
            for i in k.saturating_sub(3)..=k.min(3) {
                let (s, o) = acc.overflowing_add(u128::from(a[i]) * u128::from(b[k - i]));
                acc = s;
                top += u64::from(o);
            }
            *tk = lo(acc);
            acc = (acc >> 64) | (u128::from(top) << 64);
            top = 0;
        }
        t[7] = lo(acc);
        reduce512(&t)
    }

    /// `a²`: the six cross products once, doubled, plus the four squares.
    #[inline(always)]
    pub(crate) fn square(&self) -> Fe {
        let a = &self.0;
        let mut t = [0u64; 8];
        // Cross products a_i·a_j, i < j.
        for i in 0..3 {
            let mut c = 0u64;
            for j in i + 1..4 {
                let uv = u128::from(a[i]) * u128::from(a[j]) + u128::from(t[i + j]) + u128::from(c);
                t[i + j] = lo(uv);
                c = hi(uv);
            }
            t[i + 4] = c;
        }
        // Double them (the sum of cross products is below 2^511).
        let mut top = 0u64;
        for ti in t.iter_mut() {
            let v = *ti;
            *ti = (v << 1) | top;
            top = v >> 63;
        }
        // Add the squares a_i² at positions 2i.
        let mut c = 0u128;
        for i in 0..4 {
            let sq = u128::from(a[i]) * u128::from(a[i]);
            let s0 = u128::from(t[2 * i]) + u128::from(lo(sq)) + c;
            t[2 * i] = lo(s0);
            let s1 = u128::from(t[2 * i + 1]) + (sq >> 64) + (s0 >> 64);
            t[2 * i + 1] = lo(s1);
            c = s1 >> 64;
        }
        reduce512(&t)
    }

    /// `a · 121665` (the ladder constant a24 of RFC 7748 §5).
    #[inline(always)]
    pub(crate) fn mul_a24(&self) -> Fe {
        const A24: u128 = 121_665;
        let mut r = [0u64; 4];
        let mut c = 0u64;
        for (i, ri) in r.iter_mut().enumerate() {
            let uv = u128::from(self.0[i]) * A24 + u128::from(c);
            *ri = lo(uv);
            c = hi(uv);
        }
        fold_carry(&mut r, c);
        Fe(r)
    }

    /// `a^(p−2)` with the portable arithmetic ([`Arith::invert_fermat`]).
    #[cfg(test)]
    pub(crate) fn invert(&self) -> Fe {
        Portable.invert_fermat(self)
    }
}

/// The field operations of the ladder, the inversion and the fixed-base
/// multiplication: the portable [`Fe`] methods ([`Portable`]) or the x86-64
/// MULX/ADCX/ADOX kernels of `crate::arch` (the [`Bmi2Adx`] token), which
/// give bit-identical limbs. The ladder is generic over it, so each path is
/// one monomorphized loop with its field products inlined.
pub(crate) trait Arith: Copy {
    /// `a + b`.
    fn add(self, a: &Fe, b: &Fe) -> Fe;

    /// `a − b`.
    fn sub(self, a: &Fe, b: &Fe) -> Fe;

    /// `a · 121665`.
    fn mul_a24(self, a: &Fe) -> Fe;

    /// `a · b`.
    fn mul(self, a: &Fe, b: &Fe) -> Fe;

    /// `a²`.
    fn square(self, a: &Fe) -> Fe;

    /// 30 divsteps of the inversion (`super::invert`): the new `ζ` and the
    /// transition matrix scaled by 2^30 ([`divsteps_30`] or its x86-64
    /// kernel); [`divsteps_60`] runs two of them per batch.
    #[inline(always)]
    fn divsteps_30(self, zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
        divsteps_30(zeta, f0, g0)
    }

    /// `a^(2^n)`.
    #[inline(always)]
    fn square_n(self, a: &Fe, n: u32) -> Fe {
        let mut r = *a;
        for _ in 0..n {
            r = self.square(&r);
        }
        r
    }

    /// `a^(p−2)`, the inverse of `a` (0 for 0), as RFC 7748 §5 computes the
    /// final `x_2 · z_2^(p−2)`: a fixed chain of 254 squarings and 11
    /// multiplications (exponent p − 2 = 2^255 − 21), independent of `a`.
    /// The reference of the tests of the divstep inversion
    /// (`super::invert`, which replaced it) and the previous path of the
    /// timing report.
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "the reference of the divstep inversion's tests")
    )]
    fn invert_fermat(self, z: &Fe) -> Fe {
        let z = *z;
        let z2 = self.square(&z); // 2
        let z9 = self.mul(&self.square_n(&z2, 2), &z); // 9
        let z11 = self.mul(&z9, &z2); // 11
        let z_5_0 = self.mul(&self.square(&z11), &z9); // 2^5 − 1
        let z_10_0 = self.mul(&self.square_n(&z_5_0, 5), &z_5_0); // 2^10 − 1
        let z_20_0 = self.mul(&self.square_n(&z_10_0, 10), &z_10_0); // 2^20 − 1
        let z_40_0 = self.mul(&self.square_n(&z_20_0, 20), &z_20_0); // 2^40 − 1
        let z_50_0 = self.mul(&self.square_n(&z_40_0, 10), &z_10_0); // 2^50 − 1
        let z_100_0 = self.mul(&self.square_n(&z_50_0, 50), &z_50_0); // 2^100 − 1
        let z_200_0 = self.mul(&self.square_n(&z_100_0, 100), &z_100_0); // 2^200 − 1
        let z_250_0 = self.mul(&self.square_n(&z_200_0, 50), &z_50_0); // 2^250 − 1
        self.mul(&self.square_n(&z_250_0, 5), &z11) // 2^255 − 32 + 11 = p − 2
    }
}

/// The portable arithmetic (`u128` products), on every target.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Arith for Portable {
    #[inline(always)]
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        a.add(b)
    }

    #[inline(always)]
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        a.sub(b)
    }

    #[inline(always)]
    fn mul_a24(self, a: &Fe) -> Fe {
        a.mul_a24()
    }

    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        a.mul(b)
    }

    #[inline(always)]
    fn square(self, a: &Fe) -> Fe {
        a.square()
    }
}

impl Arith for Bmi2Adx {
    #[inline(always)]
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::fe_add(self, &a.0, &b.0))
    }

    #[inline(always)]
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::fe_sub(self, &a.0, &b.0))
    }

    #[inline(always)]
    fn mul_a24(self, a: &Fe) -> Fe {
        Fe(arch::fe_mul_a24(self, &a.0))
    }

    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        Fe(arch::fe_mul(self, &a.0, &b.0))
    }

    #[inline(always)]
    fn square(self, a: &Fe) -> Fe {
        Fe(arch::fe_square(self, &a.0))
    }

    #[inline(always)]
    fn square_n(self, a: &Fe, n: u32) -> Fe {
        Fe(arch::fe_square_n(self, &a.0, n))
    }

    #[inline(always)]
    fn divsteps_30(self, zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
        arch::fe_divsteps_30(self, zeta, f0, g0)
    }
}

/// 30 divsteps of the inversion `super::invert` (Bernstein–Yang, TCHES
/// 2019(3), in libsecp256k1's half-delta form, `secp256k1_modinv64_divsteps_59`
/// with 30 steps and the matrix starting at 1: `modinv62::divsteps`) on
/// the low bits of `f` (odd) and `g` (the low 30 bits decide): the new `ζ` and the transition matrix
/// `[u, v, q, r]` scaled by 2^30 (`|u| + |v|, |q| + |r| ≤ 2^30`). Per step,
/// by masks: if `ζ < 0` and `g` is odd, `(f, g) ← (g, g − f)` and
/// `ζ ← −ζ − 2`, else `g ← g + (g odd)·f` and `ζ ← ζ − 1`; then `g ← g / 2`
/// (the matrix: `u, v` doubled instead). The portable twin of
/// `arch::fe_divsteps_30`.
pub(crate) fn divsteps_30(zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    crate::modinv62::divsteps::<30>(zeta, f0, g0, 1)
}

/// 60 divsteps of the inversion `super::invert` from `ζ` and the low 62
/// bits `f0` (odd), `g0` of `f`, `g`, as two runs of 30 ([`Arith::divsteps_30`]):
/// the second starts from bits 30 … 61 of `M1·(f0, g0)` (exact, `M1` being
/// the first run's matrix scaled by 2^30), and the product `M2·M1` (scaled
/// by 2^60, `|u| + |v| ≤ 2^60`) is returned scaled by 2^62, as one batch of
/// libsecp256k1's `divsteps_59` with its matrix starting at 8 would be.
#[inline(always)]
pub(crate) fn divsteps_60<A: Arith>(ar: A, zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    let (zeta, [u1, v1, q1, r1]) = ar.divsteps_30(zeta, f0, g0);
    let (f0, g0) = (f0.cast_signed(), g0.cast_signed());
    // The low 62 bits of u1·f + v1·g are known, the low 30 zero: its bits
    // 30 … 61 are the low 32 bits of the new f (the next run reads 30).
    let f1 = (u1.wrapping_mul(f0).wrapping_add(v1.wrapping_mul(g0))).cast_unsigned() >> 30;
    let g1 = (q1.wrapping_mul(f0).wrapping_add(r1.wrapping_mul(g0))).cast_unsigned() >> 30;
    let (zeta, [u2, v2, q2, r2]) = ar.divsteps_30(zeta, f1, g1);
    (
        zeta,
        [
            (u2 * u1 + v2 * q1) << 2,
            (u2 * v1 + v2 * r1) << 2,
            (q2 * u1 + r2 * q1) << 2,
            (q2 * v1 + r2 * r1) << 2,
        ],
    )
}

/// Adds `v` to a limb vector that cannot overflow 2^256 by it (callers
/// ensure it), as a full carry chain.
#[inline(always)]
fn add_small(l: &mut [u64; 4], v: u64) {
    let mut c = v;
    for li in l.iter_mut() {
        let s = u128::from(*li) + u128::from(c);
        *li = lo(s);
        c = hi(s);
    }
}

/// Folds a carry `c` out of bit 256 (`c` ≤ 2^58) back in as `c · 38`. The
/// addition can carry once more only if `r` wraps to a value below 2^64,
/// so the second fold (of 38 at most) cannot carry.
#[inline(always)]
fn fold_carry(r: &mut [u64; 4], c: u64) {
    let mut c = c * 38;
    for ri in r.iter_mut() {
        let (s, o) = ri.overflowing_add(c);
        *ri = s;
        c = u64::from(o);
    }
    r[0] = r[0].wrapping_add(c * 38);
}

/// Reduces a 512-bit product `t` to four limbs: `t_lo + 38 · t_hi`, then the
/// carry folded with [`fold_carry`].
#[inline(always)]
fn reduce512(t: &[u64; 8]) -> Fe {
    let mut r = [0u64; 4];
    let mut c = 0u64;
    for (i, ri) in r.iter_mut().enumerate() {
        let uv = u128::from(t[i + 4]) * 38 + u128::from(t[i]) + u128::from(c);
        *ri = lo(uv);
        c = hi(uv);
    }
    fold_carry(&mut r, c);
    Fe(r)
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
