//! Arithmetic in `Z_q`, `q = 3329` (FIPS 203 §2.3, §4.3).
//!
//! Coefficients are `i16`. Products are reduced with Montgomery reduction
//! (`R = 2^16`) and sums with Barrett reduction; both are branch-free and use
//! no division, and are written so that loops over 256 coefficients compile
//! to SIMD multiply-high instructions. All arithmetic wraps explicitly, so an
//! `overflow-checks` build cannot add branches on secret values.

#![allow(
    clippy::cast_possible_truncation,
    reason = "Montgomery and Barrett reduction take the low or high 16 bits on purpose"
)]

/// Number of coefficients of a polynomial, `n = 256` (here so that the
/// `arch` kernels need not import `poly`, which dispatches to them).
pub(crate) const N: usize = 256;

/// The modulus `q = 3329`.
pub(crate) const Q: i16 = 3329;
/// `q` as `i32`.
pub(crate) const Q32: i32 = Q as i32;
/// `q^{-1} mod 2^16`, as a signed 16-bit value (`62209 - 65536`).
pub(crate) const QINV: i16 = -3327;
/// `2^16 mod q`: Montgomery form of 1.
#[cfg(test)]
pub(crate) const MONT: i16 = 2285;
/// `2^32 mod q`: multiplying by this Montgomery-style converts into Montgomery form.
pub(crate) const MONT2: i16 = 1353;
/// `⌊2^26 / q⌉`: the Barrett constant.
const BARRETT_V: i32 = 20159;

/// Montgomery reduction: for `|a| < q·2^15` returns `r ≡ a·2^{-16} (mod q)`, `|r| < q`.
#[inline(always)]
pub(crate) fn montgomery_reduce(a: i32) -> i16 {
    // Low 16 bits of a·q^{-1}; then (a - t·q) is divisible by 2^16 and both
    // terms agree in their low halves, so the high halves can be subtracted.
    let t = (a as i16).wrapping_mul(QINV);
    let hi = (a >> 16) as i16;
    let tq = ((i32::from(t) * Q32) >> 16) as i16;
    hi.wrapping_sub(tq)
}

/// `a·b·2^{-16} mod q` for `|a·b| < q·2^15`; result in `(-q, q)`.
///
/// The same Montgomery reduction as [`montgomery_reduce`], written with
/// 16-bit products only (low half `a·b mod 2^16`, high half `⌊a·b / 2^16⌋`),
/// which loops compile to SIMD `pmullw`/`pmulhw` pairs.
#[inline(always)]
pub(crate) fn fqmul(a: i16, b: i16) -> i16 {
    let lo = a.wrapping_mul(b);
    let hi = ((i32::from(a) * i32::from(b)) >> 16) as i16;
    let t = lo.wrapping_mul(QINV);
    let tq = ((i32::from(t) * Q32) >> 16) as i16;
    hi.wrapping_sub(tq)
}

/// Barrett reduction: the centered representative of `a mod q`, in
/// `[-(q-1)/2, (q-1)/2]`.
#[inline(always)]
pub(crate) fn barrett_reduce(a: i16) -> i16 {
    let t = ((BARRETT_V * i32::from(a) + (1 << 25)) >> 26) as i16;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// Maps any `i16` to its representative in `[0, q)`, without branches.
#[inline(always)]
pub(crate) fn to_canonical(a: i16) -> i16 {
    // The centered representative, shifted up by q when negative.
    let r = barrett_reduce(a);
    r.wrapping_add((r >> 15) & Q)
}

/// Subtracts `q` from `a ∈ [0, 2q)` when `a ≥ q`, without branches.
#[inline(always)]
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) fn csubq(a: i16) -> i16 {
    let r = a.wrapping_sub(Q);
    r.wrapping_add((r >> 15) & Q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        assert_eq!((i32::from(QINV) * Q32) & 0xffff, 1);
        assert_eq!(i32::from(MONT), (1 << 16) % Q32);
        assert_eq!(i64::from(MONT2), (1i64 << 32) % i64::from(Q32));
        assert_eq!(BARRETT_V, ((1 << 26) + Q32 / 2) / Q32);
    }

    #[test]
    fn barrett_and_canonical_all_i16() {
        for a in i16::MIN..=i16::MAX {
            let want = i32::from(a).rem_euclid(Q32);
            let r = barrett_reduce(a);
            assert!(i32::from(r).abs() <= (Q32 - 1) / 2, "{a} -> {r}");
            assert_eq!(i32::from(r).rem_euclid(Q32), want);
            assert_eq!(i32::from(to_canonical(a)), want);
        }
    }

    #[test]
    fn montgomery_range() {
        let r_inv = (1..Q32).find(|x| (x << 16) % Q32 == 1).unwrap_or(0);
        let bound = Q32 << 15;
        for a in (-bound + 1..bound).step_by(9973) {
            let r = montgomery_reduce(a);
            assert!(i32::from(r).abs() < Q32);
            let want = (i64::from(a) * i64::from(r_inv)).rem_euclid(i64::from(Q32));
            assert_eq!(i64::from(r).rem_euclid(i64::from(Q32)), want);
        }
    }

    #[test]
    fn fqmul_matches_montgomery_reduce() {
        for a in (-32768i32..32768).step_by(7) {
            for b in [-3328i32, -1665, -17, 0, 1, 17, 1353, 1441, 3328] {
                let (a, b) = (a as i16, b as i16);
                if (i32::from(a) * i32::from(b)).abs() < Q32 << 15 {
                    assert_eq!(fqmul(a, b), montgomery_reduce(i32::from(a) * i32::from(b)));
                }
            }
        }
    }

    #[test]
    fn csubq_range() {
        for a in 0..2 * Q {
            assert_eq!(i32::from(csubq(a)), i32::from(a) % Q32);
        }
    }
}
