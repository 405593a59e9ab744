//! The twiddle factors of the NTT (FIPS 203 §4.3): `ζ^BitRev₇(i)` for
//! Algorithms 9 and 10 and `ζ^(2·BitRev₇(i)+1)` for Algorithm 11, with
//! `ζ = 17`, in Montgomery form; computed at compile time. Shared by the
//! portable NTT (`ntt`) and the AVX2 one (`arch::x86_64`).

use crate::field::Q32;

/// `ζ^e mod q` for `ζ = 17` (compile time only).
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time table of public constants"
)]
pub(crate) const fn pow17(e: usize) -> i64 {
    let mut r = 1i64;
    let mut i = 0;
    while i < e {
        r = (r * 17) % Q32 as i64;
        i += 1;
    }
    r
}

/// `BitRev₇(i)` (FIPS 203 §2.3): the 7-bit reversal of `i`.
pub(crate) const fn bitrev7(i: usize) -> usize {
    let mut r = 0;
    let mut b = 0;
    while b < 7 {
        r |= ((i >> b) & 1) << (6 - b);
        b += 1;
    }
    r
}

/// `x·2^16 mod q` as a centered `i16`.
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "compile-time table of public constants, |result| < q/2"
)]
const fn to_mont_centered(x: i64) -> i16 {
    let mut r = (x * (1 << 16)) % Q32 as i64;
    if r > (Q32 as i64) / 2 {
        r -= Q32 as i64;
    }
    r as i16
}

/// `ZETAS[i] = ζ^BitRev₇(i) · 2^16 mod q` (Algorithms 9 and 10).
pub(crate) static ZETAS: [i16; 128] = {
    let mut t = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = to_mont_centered(pow17(bitrev7(i)));
        i += 1;
    }
    t
};

/// `GAMMAS[i] = ζ^(2·BitRev₇(i)+1) · 2^16 mod q` (Algorithm 11).
pub(crate) static GAMMAS: [i16; 128] = {
    let mut t = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = to_mont_centered(pow17(2 * bitrev7(i) + 1));
        i += 1;
    }
    t
};

/// `2^32 / 128 mod q`: the final scaling of `NTT⁻¹` (`128^{-1}`), times
/// `2^16` to cancel the factor `2^{-16}` left by the Montgomery products
/// that produced the input.
pub(crate) const INV_NTT_SCALE: i16 = 1441;
