//! Scalar arithmetic in Z/q and Z/3 (NTRU Prime round-3 spec §3.1, reference
//! functions `Fq_freeze`, `F3_freeze`, `Fq_recip`, `uint32_divmod_uint14`).
//!
//! Every reduction is a multiply-and-shift by a precomputed constant: no
//! division instruction ever sees a secret value.

/// `floor(y / d)` for `y < 2^28` and `1 < d < 2^14`, without a division.
///
/// With `s = 28 + ceil(log2 d)` and `m = ceil(2^s / d) = (2^s + e) / d`
/// (`0 <= e < d`): `y*m / 2^s = y/d + y*e/(d*2^s)` and `y*e < 2^s`, so the
/// floor is exact; `y*m < 2^57` never overflows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    d: u32,
    m: u64,
    s: u32,
}

impl Divisor {
    /// Precomputes the constants for the public divisor `d`.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "d is a public parameter (q, 3 or an encoding radix)"
    )]
    pub(crate) const fn new(d: u32) -> Self {
        let bits = 32 - (d - 1).leading_zeros();
        let s = 28 + bits;
        let m = (1u64 << s).div_ceil(d as u64);
        Divisor { d, m, s }
    }

    /// `floor(y / d)`; `y < 2^28`.
    #[inline(always)]
    pub(crate) fn quotient(&self, y: u32) -> u32 {
        debug_assert!(y < 1 << 28);
        #[allow(clippy::cast_possible_truncation, reason = "the quotient is < 2^28")]
        let t = ((u64::from(y) * self.m) >> self.s) as u32;
        t
    }

    /// `(floor(y / d), y mod d)`; `y < 2^28`.
    #[inline(always)]
    pub(crate) fn divmod(&self, y: u32) -> (u32, u32) {
        let t = self.quotient(y);
        (t, y.wrapping_sub(t.wrapping_mul(self.d)))
    }
}

/// Constants of Z/q for one modulus `Q` (all computed at compile time).
#[derive(Debug)]
pub(crate) struct Fq<const Q: i16>;

impl<const Q: i16> Fq<Q> {
    /// `(q - 1) / 2`: elements are represented in `-Q12..=Q12`.
    #[allow(clippy::integer_division_remainder_used, reason = "public constant")]
    pub(crate) const Q12: i32 = (Q as i32 - 1) / 2;
    /// A multiple of q (plus `Q12`) that makes every input `|x| < 2^26` non-negative.
    #[allow(clippy::integer_division_remainder_used, reason = "public constant")]
    const OFFSET: i32 = Self::Q12 + (Q as i32) * ((1 << 26) / Q as i32 + 1);
    const DIV: Divisor = Divisor::new(Q as u32);
    /// `q^-1 mod 2^16` (Montgomery constant), by Newton iteration.
    pub(crate) const QINV: i16 = {
        let q = Q as u16;
        let mut inv: u16 = q; // correct to 3 bits (q odd)
        let mut i = 0;
        while i < 4 {
            inv = inv.wrapping_mul(2u16.wrapping_sub(q.wrapping_mul(inv)));
            i += 1;
        }
        inv as i16
    };
    /// `2^16 mod q`.
    #[allow(clippy::integer_division_remainder_used, reason = "public constant")]
    pub(crate) const MONT: i32 = (1 << 16) % Q as i32;

    /// `Fq_freeze`: the representative of `x mod q` in `-Q12..=Q12`; `|x| < 2^26`.
    #[inline(always)]
    pub(crate) fn freeze(x: i32) -> i16 {
        debug_assert!(x.unsigned_abs() < 1 << 26);
        #[allow(clippy::cast_sign_loss, reason = "y >= 0 by the choice of OFFSET")]
        let y = x.wrapping_add(Self::OFFSET) as u32;
        let (_, rem) = Self::DIV.divmod(y);
        #[allow(clippy::cast_possible_truncation, reason = "|result| <= Q12 < 2^15")]
        let r = (rem as i32).wrapping_sub(Self::Q12) as i16;
        r
    }

    /// Montgomery product `a * b / 2^16 mod q` for `|a * b| < q * 2^15`,
    /// result `|r| < q/2 + 2^15 q / 2^16`. Written as high-half differences so
    /// the vectoriser maps it to 16-bit multiply-high lanes.
    #[inline(always)]
    pub(crate) fn montmul(a: i16, b: i16) -> i16 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "high half of a 32-bit product"
        )]
        let hi = ((i32::from(a) * i32::from(b)) >> 16) as i16;
        let t = a.wrapping_mul(b).wrapping_mul(Self::QINV);
        #[allow(
            clippy::cast_possible_truncation,
            reason = "high half of a 32-bit product"
        )]
        let tq = ((i32::from(t) * i32::from(Q)) >> 16) as i16;
        hi.wrapping_sub(tq)
    }

    /// `Fq_recip`: `a^(q-2)` (the inverse of a nonzero `a`), constant time.
    pub(crate) fn recip(a: i16) -> i16 {
        let mut e = (Q - 2) as u16;
        let mut base = a;
        let mut acc: i16 = 1;
        // Square and multiply over the public exponent bits.
        while e != 0 {
            if e & 1 == 1 {
                acc = Self::freeze(i32::from(acc) * i32::from(base));
            }
            base = Self::freeze(i32::from(base) * i32::from(base));
            e >>= 1;
        }
        acc
    }
}

const DIV3: Divisor = Divisor::new(3);
const F3_OFFSET: i32 = 1 + 3 * ((1 << 26) / 3 + 1);

/// `F3_freeze`: the representative of `x mod 3` in `{-1, 0, 1}`; `|x| < 2^26`.
#[inline(always)]
pub(crate) fn f3_freeze(x: i32) -> i8 {
    #[allow(clippy::cast_sign_loss, reason = "y >= 0 by the choice of F3_OFFSET")]
    let y = x.wrapping_add(F3_OFFSET) as u32;
    let (_, rem) = DIV3.divmod(y);
    #[allow(clippy::cast_possible_truncation, reason = "rem - 1 is in -1..=1")]
    let r = (rem as i8).wrapping_sub(1);
    r
}

/// `F3_freeze` for `x` in `-2..=2` (sums of two elements), branch-free and
/// multiplication-free so that it vectorises on bytes: `y = x + 4` lies in
/// `2..=6`, where `(11 y) >> 5 = floor(y / 3)`.
#[inline(always)]
pub(crate) fn f3_freeze_small(x: i8) -> i8 {
    let y = x.wrapping_add(4);
    let t = y.wrapping_mul(11) >> 5;
    y.wrapping_sub(t.wrapping_mul(3)).wrapping_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisor_is_exact() {
        for d in [2u32, 3, 4591, 1531, 16383, 9, 256, 13] {
            let div = Divisor::new(d);
            let mut y = 0u32;
            while y < 1 << 28 {
                let (t, r) = div.divmod(y);
                assert_eq!((t, r), (y / d, y % d), "y={y} d={d}");
                y = y * 3 + 1 + (y >> 7);
            }
            let top = (1 << 28) - 1;
            assert_eq!(div.divmod(top), (top / d, top % d));
        }
    }

    fn check_q<const Q: i16>() {
        let q = i32::from(Q);
        for x in (-(1 << 26) + 1..(1 << 26))
            .step_by(997)
            .chain(-5 * q..5 * q)
        {
            let r = i32::from(Fq::<Q>::freeze(x));
            assert!(r.abs() <= Fq::<Q>::Q12);
            assert_eq!((x - r).rem_euclid(q), 0);
        }
        assert_eq!(
            i32::from(Fq::<Q>::QINV).wrapping_mul(q) & 0xffff,
            1,
            "qinv for {q}"
        );
        for a in (-2 * q + 1..2 * q).step_by(7) {
            for b in [-Fq::<Q>::Q12, -1, 0, 1, 17, Fq::<Q>::Q12] {
                let m = i32::from(Fq::<Q>::montmul(a as i16, b as i16));
                assert!(m.abs() < q);
                assert_eq!((m * 65536 - a * b).rem_euclid(q), 0);
            }
        }
        for a in 1..50 {
            let inv = i32::from(Fq::<Q>::recip(a as i16));
            assert_eq!((inv * a).rem_euclid(q), 1);
        }
    }

    #[test]
    fn fq_all_moduli() {
        check_q::<4621>();
        check_q::<4591>();
        check_q::<5167>();
        check_q::<6343>();
        check_q::<7177>();
        check_q::<7879>();
    }

    #[test]
    fn f3() {
        for x in -100_000..100_000 {
            let r = i32::from(f3_freeze(x));
            assert!((-1..=1).contains(&r));
            assert_eq!((x - r).rem_euclid(3), 0);
        }
        for x in -2i8..=2 {
            assert_eq!(f3_freeze_small(x), f3_freeze(i32::from(x)));
        }
    }
}
