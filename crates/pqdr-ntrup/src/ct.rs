//! The only place with secret-dependent masks and selects: thin wrappers over
//! `subtle`. A mask is always derived from a [`Choice`] (whose byte passes an
//! optimisation barrier), so the compiler cannot turn mask arithmetic back
//! into a branch or a `cmov` + `memcpy`. No spec step lives here; the spec
//! asks for it in general (NTRU Prime spec §2.3.4: no branch on the weight
//! test; §2.3.8: the choice between the two session keys is secret).

pub(crate) use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

/// `Choice` for a value known to be 0 or 1.
#[inline(always)]
pub(crate) fn choice_from_bit(bit: u8) -> Choice {
    Choice::from(bit & 1)
}

/// 1 if `x != 0` (for `|x| < 2^31`).
#[inline(always)]
pub(crate) fn nonzero_i32(x: i32) -> Choice {
    #[allow(
        clippy::cast_sign_loss,
        clippy::cast_possible_truncation,
        reason = "bit extraction"
    )]
    let bit = ((x | x.wrapping_neg()) as u32 >> 31) as u8;
    choice_from_bit(bit)
}

/// 1 if `x > 0` (for `|x| < 2^31`).
#[inline(always)]
pub(crate) fn positive_i32(x: i32) -> Choice {
    #[allow(
        clippy::cast_sign_loss,
        clippy::cast_possible_truncation,
        reason = "bit extraction"
    )]
    let bit = (x.wrapping_neg() as u32 >> 31) as u8;
    choice_from_bit(bit)
}

/// All-ones 16-bit mask if `c` is set, else 0.
#[inline(always)]
pub(crate) fn mask_i16(c: Choice) -> i16 {
    i16::from(c.unwrap_u8()).wrapping_neg()
}

/// All-ones 8-bit mask if `c` is set, else 0.
#[inline(always)]
pub(crate) fn mask_i8(c: Choice) -> i8 {
    #[allow(clippy::cast_possible_wrap, reason = "0 or 1")]
    let b = c.unwrap_u8() as i8;
    b.wrapping_neg()
}

/// All-ones 32-bit mask if `c` is set, else 0.
#[inline(always)]
pub(crate) fn mask_i32(c: Choice) -> i32 {
    i32::from(c.unwrap_u8()).wrapping_neg()
}

/// Swaps `a` and `b` when the mask is all ones (mask from [`mask_i16`]).
#[inline(always)]
pub(crate) fn cswap_i16(a: i16, b: i16, mask: i16) -> (i16, i16) {
    let t = mask & (a ^ b);
    (a ^ t, b ^ t)
}

/// Swaps `a` and `b` when the mask is all ones (mask from [`mask_i8`]).
#[inline(always)]
pub(crate) fn cswap_i8(a: i8, b: i8, mask: i8) -> (i8, i8) {
    let t = mask & (a ^ b);
    (a ^ t, b ^ t)
}

/// `(a[i], b[i]) = (min, max)` for every i (`crypto_sort_uint32`'s comparator).
/// The high half of the 64-bit difference `b - a` is an all-ones mask exactly
/// when `b < a`; the masked xor-swap vectorises to compare-and-mask lanes. No
/// branch, no secret index.
#[inline(always)]
pub(crate) fn minmax_u32_slices(a: &mut [u32], b: &mut [u32]) {
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        #[allow(clippy::cast_possible_truncation, reason = "borrow mask")]
        let y_less = (u64::from(*y).wrapping_sub(u64::from(*x)) >> 32) as u32; // all ones iff y < x
        let t = (*x ^ *y) & y_less;
        *x ^= t;
        *y ^= t;
    }
}

/// `dst = src` when `c` is set, byte by byte (never a branch or `memcpy`).
#[inline(always)]
pub(crate) fn cmov_bytes(dst: &mut [u8], src: &[u8], c: Choice) {
    for (d, s) in dst.iter_mut().zip(src) {
        d.conditional_assign(s, c);
    }
}
