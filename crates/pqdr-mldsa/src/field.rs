//! Arithmetic in Z_q, q = 2^23 − 2^13 + 1 (FIPS 204 §2.3, §7.5): Montgomery
//! reduction and the reductions to [0, q) and to the centred representative.
//! Every function here is constant time (no branches or indices on values).
#![allow(
    clippy::cast_possible_truncation,
    reason = "Montgomery reduction keeps the low 32 bits on purpose"
)]

/// q = 2^23 − 2^13 + 1 (FIPS 204 §4, Table 1).
pub(crate) const Q: i32 = 8_380_417;

/// q^−1 mod 2^32.
pub(crate) const QINV: i32 = 58_728_449;

/// Montgomery reduction: a·2^−32 mod q in (−q, q), for |a| < 2^31·q.
#[inline(always)]
pub(crate) fn mont(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    (a.wrapping_sub(i64::from(t).wrapping_mul(i64::from(Q))) >> 32) as i32
}

/// A representative of a mod q in (−q, q) for |a| < 2^31 − 2^22: subtracts
/// ⌊(a + 2^22)/2^23⌋·q (a shift, no division); |result| ≤ 2^22 + 256·(2^13 − 1) < q.
#[inline(always)]
pub(crate) fn reduce32(a: i32) -> i32 {
    let t = a.wrapping_add(1 << 22) >> 23;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// Maps a value of (−q, q) to [0, q).
#[inline(always)]
pub(crate) fn freeze(a: i32) -> i32 {
    a.wrapping_add((a >> 31) & Q)
}

/// Maps a value of (−q, 2q) to [0, q).
#[inline(always)]
pub(crate) fn reduce_wide(a: i32) -> i32 {
    freeze(freeze(a).wrapping_sub(Q))
}

/// Maps a value of [0, q) to the centred representative in (−(q−1)/2, (q−1)/2].
#[inline(always)]
pub(crate) fn center(a: i32) -> i32 {
    a.wrapping_sub((((Q - 1) >> 1).wrapping_sub(a) >> 31) & Q)
}

/// Negative exactly when |a| ≥ bound (`a` centred): (bound − 1 − a) or
/// (a + bound − 1) is negative. Callers OR these values together and test
/// the sign bit once, so no 0/−1 mask appears that a compiler could turn
/// into a branch (as LLVM did at opt-level `z` with a mask form).
#[inline(always)]
pub(crate) fn exceeds(a: i32, bound: i32) -> i32 {
    bound.wrapping_sub(1).wrapping_sub(a) | a.wrapping_add(bound).wrapping_sub(1)
}
