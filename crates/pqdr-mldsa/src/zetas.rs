//! The constants of `NTT` and `NTT^−1` (FIPS 204 §7.5, Appendix B): the
//! twiddle factors ζ^BitRev8(k) in Montgomery form and the final scaling,
//! computed at compile time; shared by the portable code (`poly.rs`) and the
//! AVX2 code (`arch/x86_64`).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "compile-time tables of values below q"
)]

use crate::field::Q;

/// Coefficients per polynomial (n = 256, FIPS 204 §2.3).
pub(crate) const N: usize = 256;

/// a^e mod q, for building the constant tables.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time tables of public constants"
)]
pub(crate) const fn pow_mod(a: u64, mut e: u64) -> u64 {
    let q = Q as u64;
    let mut base = a % q;
    let mut r = 1u64;
    while e > 0 {
        if e & 1 == 1 {
            r = r * base % q;
        }
        base = base * base % q;
        e >>= 1;
    }
    r
}

/// `BitRev8(k)` (FIPS 204 Algorithm 43), which orders the ζ powers.
pub(crate) const fn bitrev8(k: usize) -> u64 {
    let mut r = 0;
    let mut i = 0;
    while i < 8 {
        r |= ((k >> i) & 1) << (7 - i);
        i += 1;
    }
    r as u64
}

/// ζ^BitRev8(k)·2^32 mod q, centred; ζ = 1753 (FIPS 204 §7.5, Appendix B).
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time table of public constants"
)]
pub(crate) const ZETAS: [i32; N] = {
    let q = Q as u64;
    let r_mod_q = (1u64 << 32) % q;
    let mut t = [0i32; N];
    let mut k = 0;
    while k < N {
        let z = pow_mod(1753, bitrev8(k)) * r_mod_q % q;
        t[k] = if z > q / 2 { z as i32 - Q } else { z as i32 };
        k += 1;
    }
    t
};

/// 2^64/256 mod q: undoes the 256 of the inverse NTT and adds the factor R.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time public constant"
)]
pub(crate) const INV_NTT_F: i32 = {
    let q = Q as u64;
    let r2 = pow_mod((1u64 << 32) % q, 2);
    let inv256 = pow_mod(256, q - 2);
    (r2 * inv256 % q) as i32
};

/// f·(−ζ^BitRev8(1))·R^−1 mod q: the last inverse-NTT twiddle with the
/// final scaling folded in.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time public constant"
)]
pub(crate) const INV_NTT_F_ZETA1: i32 = {
    let q = Q as u64;
    let r_inv = pow_mod((1u64 << 32) % q, q - 2);
    let z = (q as i64 - ZETAS[1] as i64).rem_euclid(q as i64) as u64; // −ζ' (Montgomery form)
    (INV_NTT_F as u64 * z % q * r_inv % q) as i32
};
