//! Scalar arithmetic in Z/q and Z/3, the coefficient rings of R/q and R/3 in
//! the Streamlined NTRU Prime Core (NTRU Prime spec §2.3); reference functions
//! `Fq_freeze`, `F3_freeze`, `Fq_recip`, `uint32_divmod_uint14`, plus the
//! 16-bit-lane Barrett and Shoup steps of the fast loops. No function here is
//! a spec step of its own.
//!
//! Every reduction is a multiply-and-shift by a precomputed constant: no
//! division instruction ever sees a secret value.

/// The largest degree p of any set (sntrup1277): `Encode`'s level tables
/// (sized for `encode::MAX_LEN` values) hold every polynomial, and the
/// fixed-size scratch buffers (the products' padded base operand, the
/// `Small_encode` of r) are sized by it.
pub(crate) const MAX_P: usize = 1277;

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

    /// The constants `(d, m, s)`: `floor(y / d) = (y m) >> s` (for the AVX2
    /// `Decode`, `arch::decode_pairs`).
    pub(crate) fn parts(&self) -> (u32, u64, u32) {
        (self.d, self.m, self.s)
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
    #[allow(clippy::cast_sign_loss, reason = "q > 0")]
    const DIV: Divisor = Divisor::new(Q as u32);
    /// `round(2^27 / q)` for the 16-bit Barrett step (`q > 4096`, so it fits in i16).
    #[allow(clippy::integer_division_remainder_used, reason = "public constant")]
    #[allow(clippy::cast_possible_truncation, reason = "< 2^15 for q > 4096")]
    pub(crate) const BARRETT16: i16 = (((1i32 << 27) + Q as i32 / 2) / Q as i32) as i16;

    /// Rows of `±a` (|a| <= Q12) a 16-bit accumulator in `(-2q, 2q)` can absorb
    /// before it must be reduced again.
    #[allow(
        clippy::integer_division_remainder_used,
        clippy::cast_sign_loss,
        reason = "public constant"
    )]
    pub(crate) const ROWS_PER_REDUCTION: usize = ((32767 - 2 * Q as i32) / Self::Q12) as usize;

    /// A representative of `x mod q` in `(-2q, 2q)` (Barrett with a 16-bit
    /// multiply-high, so it vectorises on 16-bit lanes); any `x`.
    #[inline(always)]
    pub(crate) fn reduce16(x: i16) -> i16 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "high half of a 32-bit product"
        )]
        let t = ((i32::from(x) * i32::from(Self::BARRETT16)) >> 16) as i16;
        let t = t.wrapping_add(1 << 10) >> 11;
        x.wrapping_sub(t.wrapping_mul(Q))
    }

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

    /// Shoup's precomputed companion of a multiplier `c` (`|c| <= Q12`):
    /// `c' ≈ c 2^16 / q` (within 1), for [`Self::mul_shoup`].
    #[inline(always)]
    pub(crate) fn shoup(c: i16) -> i16 {
        #[allow(clippy::integer_division_remainder_used, reason = "public constant")]
        const {
            assert!(Q > 4096)
        };
        let m: i64 = (1i64 << 48).div_euclid(i64::from(Q));
        #[allow(
            clippy::cast_possible_truncation,
            reason = "|c'| <= 2^15 q12 / q < 2^15"
        )]
        let r = ((i64::from(c) * m) >> 32) as i16;
        r
    }

    /// `c g mod q` as a value in `[-q/2, 3q/2)`, for `|g| < 2^15` and `c' = shoup(c)`:
    /// `c g - q floor(c' g / 2^16)`, all in 16-bit lanes (multiply-low,
    /// multiply-high, multiply-low by q, subtract).
    #[inline(always)]
    pub(crate) fn mul_shoup(g: i16, c: i16, c_shoup: i16) -> i16 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "high half of a 32-bit product"
        )]
        let t = ((i32::from(c_shoup) * i32::from(g)) >> 16) as i16;
        c.wrapping_mul(g).wrapping_sub(t.wrapping_mul(Q))
    }

    /// `Fq_recip`: `a^(q-2)` (the inverse of a nonzero `a`), constant time.
    pub(crate) fn recip(a: i16) -> i16 {
        let mut e = (Q - 2).cast_unsigned();
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
#[allow(clippy::integer_division_remainder_used, reason = "public constant")]
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

/// `F3_freeze` for `x` in `-2..=2` (sums of two elements): subtract 3 where
/// `x > 1`, add 3 where `x < -1`; compare masks, so it vectorises on bytes.
#[inline(always)]
pub(crate) fn f3_freeze_small(x: i8) -> i8 {
    let hi = i8::from(x > 1).wrapping_neg() & 3;
    let lo = i8::from(x < -1).wrapping_neg() & 3;
    x.wrapping_sub(hi).wrapping_add(lo)
}

/// Output coefficients per schoolbook block of the R/q and R/3 products
/// (four 8-lane vectors): the base case of `mult` and of its AVX2 twin.
pub(crate) const BLOCK: usize = 32;

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
        for c in [-Fq::<Q>::Q12, -1000, -1, 0, 1, 2, 999, Fq::<Q>::Q12] {
            let cs = Fq::<Q>::shoup(c as i16);
            for g in (i32::from(i16::MIN)..=i32::from(i16::MAX)).step_by(3) {
                let r = i32::from(Fq::<Q>::mul_shoup(g as i16, c as i16, cs));
                assert!(
                    (-q / 2 - 1..3 * q / 2 + 1).contains(&r),
                    "c={c} g={g} r={r}"
                );
                assert_eq!((r - c * g).rem_euclid(q), 0);
            }
        }
        for x in i16::MIN..=i16::MAX {
            let r = i32::from(Fq::<Q>::reduce16(x));
            assert!(r.abs() < 2 * q, "reduce16({x}) = {r} for q = {q}");
            assert_eq!((i32::from(x) - r).rem_euclid(q), 0);
        }
        assert!(Fq::<Q>::ROWS_PER_REDUCTION >= 4);
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
