//! Rounding (FIPS 204 §7.4): `Power2Round`, `Decompose`, `HighBits`,
//! `LowBits`, `MakeHint` and `UseHint` (Algorithms 35–40).
//!
//! The secret-side functions use multiply-and-shift, never `/` or `%`, and no
//! branches: a variable-time division in Decompose was CVE-2026-22705 in
//! another Rust implementation.

use crate::field::Q;
use crate::params::D;

/// `Power2Round(r)` (FIPS 204 Algorithm 35) for r in [0, q): (r1, r0) with
/// r = r1·2^d + r0 and r0 in (−2^(d−1), 2^(d−1)].
#[inline(always)]
pub(crate) fn power2round(r: i32) -> (i32, i32) {
    let r1 = r.wrapping_add((1 << (D - 1)) - 1) >> D;
    (r1, r.wrapping_sub(r1 << D))
}

/// `Decompose(r)` (FIPS 204 Algorithm 36) for r in [0, q): (r1, r0) with
/// r ≡ r1·2γ2 + r0, r0 in (−γ2, γ2] (with the q − 1 corner case of the spec).
///
/// r1 = ⌈r/2γ2⌋ is computed as ⌈r/128⌉ times a fixed-point reciprocal of
/// 2γ2/128 (4092 for γ2 = (q−1)/32, 1488 for γ2 = (q−1)/88); the tests check
/// every r in [0, q) against the spec's definition.
#[inline(always)]
pub(crate) fn decompose<const GAMMA2: i32>(r: i32) -> (i32, i32) {
    let a = r.wrapping_add(127) >> 7;
    let r1 = if GAMMA2 == 261_888 {
        // ⌈r/128⌉ ≤ 65472: a·1025/2^22 ≈ a/4092. 16 (the q − 1 corner) wraps to 0.
        (a.wrapping_mul(1025).wrapping_add(1 << 21) >> 22) & 15
    } else {
        // a·11275/2^24 ≈ a/1488. 44 (the q − 1 corner) becomes 0: for t in
        // [0, 44], ⌊1490t/2^16⌋ is 1 exactly when t = 44 (multiply and shift,
        // not a compare, which LLVM turned into a branch at opt-level `z`).
        let t = a.wrapping_mul(11275).wrapping_add(1 << 23) >> 24;
        t.wrapping_sub(44 * (t.wrapping_mul(1490) >> 16))
    };
    let mut r0 = r.wrapping_sub(r1.wrapping_mul(2 * GAMMA2));
    // r0 > (q − 1)/2 only in the corner case: then r0 − q = (r − (q − 1)) − 1.
    r0 = r0.wrapping_sub((((Q - 1) >> 1).wrapping_sub(r0) >> 31) & Q);
    (r1, r0)
}

/// `HighBits(r)` (FIPS 204 Algorithm 37), r in [0, q).
#[inline(always)]
pub(crate) fn high_bits<const GAMMA2: i32>(r: i32) -> i32 {
    decompose::<GAMMA2>(r).0
}

/// `UseHint(h, r)` (FIPS 204 Algorithm 40), r in [0, q). Used by verification only
/// (public inputs), still written without branches.
#[inline(always)]
pub(crate) fn use_hint<const GAMMA2: i32>(h: bool, r: i32) -> i32 {
    let (r1, r0) = decompose::<GAMMA2>(r);
    if !h {
        return r1;
    }
    if GAMMA2 == 261_888 {
        // m = 16
        if r0 > 0 { (r1 + 1) & 15 } else { (r1 - 1) & 15 }
    } else if r0 > 0 {
        // m = 44
        if r1 == 43 { 0 } else { r1 + 1 }
    } else if r1 == 0 {
        43
    } else {
        r1 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mod_pm(r: i32, m: i32) -> i32 {
        let x = r.rem_euclid(m);
        if x > m / 2 { x - m } else { x }
    }

    fn spec_decompose(r: i32, gamma2: i32) -> (i32, i32) {
        let rp = r.rem_euclid(Q);
        let r0 = mod_pm(rp, 2 * gamma2);
        if rp - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((rp - r0) / (2 * gamma2), r0)
        }
    }

    #[test]
    fn decompose_matches_spec_for_every_input() {
        for r in 0..Q {
            assert_eq!(
                decompose::<261_888>(r),
                spec_decompose(r, 261_888),
                "r = {r}"
            );
            assert_eq!(decompose::<95_232>(r), spec_decompose(r, 95_232), "r = {r}");
        }
    }

    #[test]
    fn power2round_matches_spec_for_every_input() {
        for r in 0..Q {
            let r0 = mod_pm(r, 1 << D);
            assert_eq!(power2round(r), ((r - r0) >> D, r0), "r = {r}");
        }
    }
}
