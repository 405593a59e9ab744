//! The only place with secret-dependent masks and selects: the shared
//! helpers of `pqdr_common::ct` (a mask is always derived from a [`Choice`],
//! whose byte passes an optimisation barrier, so the compiler cannot turn
//! mask arithmetic back into a branch or a `cmov` + `memcpy`), and
//! `crypto_sort_uint32`'s comparator. The spec asks for this in general
//! (NTRU Prime spec §2.3.4: no branch on the weight test; §2.3.8: the choice
//! between the two session keys is secret).

pub(crate) use pqdr_common::ct::{
    Choice, ConditionallySelectable, ConstantTimeEq, bytes_eq, choice_from_bit, cmov_bytes,
    cswap_i8, cswap_i16, mask_i8, mask_i16, mask_i32, nonzero_i32, positive_i32,
};

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
