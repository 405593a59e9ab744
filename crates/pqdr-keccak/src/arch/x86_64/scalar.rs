//! Keccak-f\[1600\] on one state with BMI1 and BMI2 (FIPS 202 §3.3, §3.4):
//! the rounds of the portable [`crate::f1600::f1600`] compiled with
//! `#[target_feature(enable = "bmi1,bmi2")]`, so that χ's `¬b ∧ c` is one
//! three-operand `andn` (no NOT, no register copy: the lane complementing
//! of the portable code is not needed) and each ρ rotation one
//! non-destructive `rorx`. Straight-line code: no table lookups, no
//! data-dependent branches or addresses.

use pqdr_common::simd::Bmi1Bmi2;
use zeroize::Zeroize;

use crate::f1600::RC;

/// Keccak-f\[1600\] with ANDN and RORX. Twin of `f1600::f1600_portable`.
#[inline]
pub(crate) fn f1600_bmi(token: Bmi1Bmi2, state: &mut [u64; 25]) {
    let _ = token;
    // SAFETY: the token proves BMI1 and BMI2 were detected (only
    // `pqdr_common::simd::Bmi1Bmi2::detect` makes one).
    unsafe { f1600_bmi1_bmi2(state) }
}

/// One round `Rnd(A, i_r)` (FIPS 202 §3.3) from `s` into `d`; lane
/// `A[x, y]` is `s[x + 5y]`. Inlined into [`f1600_bmi1_bmi2`], where it is
/// compiled with BMI1 and BMI2.
#[inline(always)]
fn round(s: &[u64; 25], d: &mut [u64; 25], rc: u64) {
    // θ (Algorithm 1): C[x] = A[x, 0] ⊕ … ⊕ A[x, 4], D[x] = C[x-1] ⊕ (C[x+1] <<< 1).
    let c: [u64; 5] = core::array::from_fn(|x| s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]);
    let d0 = c[4] ^ c[1].rotate_left(1);
    let d1 = c[0] ^ c[2].rotate_left(1);
    let d2 = c[1] ^ c[3].rotate_left(1);
    let d3 = c[2] ^ c[4].rotate_left(1);
    let d4 = c[3] ^ c[0].rotate_left(1);
    // ρ (Algorithm 2), π (Algorithm 3): A[x, y] ⊕ D[x] rotated by r[x, y]
    // lands at (y, 2x + 3y mod 5). χ (Algorithm 4) on each output row:
    // A'[x] = B[x] ⊕ (¬B[x+1] ∧ B[x+2]), the `!b & c` being one ANDN.
    macro_rules! row {
        ($y:literal, $iota:expr, $($i:literal ^ $dx:ident <<< $r:literal),+) => {{
            let [b0, b1, b2, b3, b4] = [$((s[$i] ^ $dx).rotate_left($r)),+];
            d[5 * $y] = b0 ^ (!b1 & b2) ^ $iota;
            d[5 * $y + 1] = b1 ^ (!b2 & b3);
            d[5 * $y + 2] = b2 ^ (!b3 & b4);
            d[5 * $y + 3] = b3 ^ (!b4 & b0);
            d[5 * $y + 4] = b4 ^ (!b0 & b1);
        }};
    }
    // ι (Algorithm 6) on lane (0, 0), with row 0.
    row!(0, rc, 0 ^ d0 <<< 0, 6 ^ d1 <<< 44, 12 ^ d2 <<< 43, 18 ^ d3 <<< 21, 24 ^ d4 <<< 14);
    row!(1, 0, 3 ^ d3 <<< 28, 9 ^ d4 <<< 20, 10 ^ d0 <<< 3, 16 ^ d1 <<< 45, 22 ^ d2 <<< 61);
    row!(2, 0, 1 ^ d1 <<< 1, 7 ^ d2 <<< 6, 13 ^ d3 <<< 25, 19 ^ d4 <<< 8, 20 ^ d0 <<< 18);
    row!(3, 0, 4 ^ d4 <<< 27, 5 ^ d0 <<< 36, 11 ^ d1 <<< 10, 17 ^ d2 <<< 15, 23 ^ d3 <<< 56);
    row!(4, 0, 2 ^ d2 <<< 62, 8 ^ d3 <<< 55, 14 ^ d4 <<< 39, 15 ^ d0 <<< 41, 21 ^ d1 <<< 2);
}

/// `KECCAK-p[1600, 24]` (FIPS 202 Algorithm 7): the rounds alternate
/// between `state` and one scratch copy (two rounds per iteration).
#[target_feature(enable = "bmi1,bmi2")]
fn f1600_bmi1_bmi2(state: &mut [u64; 25]) {
    let mut e = [0u64; 25];
    for rc in RC.chunks_exact(2) {
        round(state, &mut e, rc[0]);
        round(&e, state, rc[1]);
    }
    // The intermediate state (secret whenever the input is).
    e.zeroize();
}
