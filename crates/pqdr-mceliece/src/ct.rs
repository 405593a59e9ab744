//! Constant-time helpers: the shared ones of `pqdr_common::ct` (masks are
//! all-zero or all-one words from wrapping arithmetic; `opaque` keeps LLVM
//! from proving a mask constant and turning `x ^= y & mask` back into a
//! branch, as seen under valgrind in the elimination loops and in BM), and
//! the two bit-level ones of the Beneš network and the error vector.

pub(crate) use pqdr_common::ct::{eq_mask_u16, lt_mask_u16, min_u16, nonzero_mask_u64, opaque};

/// Swaps `a` and `b` when `bit` is 1 (`bit` in {0, 1}): the conditional swap
/// of the Beneš network and of `controlbits`.
#[inline(always)]
pub(crate) fn cswap_u16(a: &mut u16, b: &mut u16, bit: u16) {
    (*a, *b) = pqdr_common::ct::cswap_u16(*a, *b, bit.wrapping_neg());
}

/// Bit `i` of a little-endian bit string, as 0 or 1.
#[inline(always)]
pub(crate) fn bit(bytes: &[u8], i: usize) -> u8 {
    (bytes[i >> 3] >> (i & 7)) & 1
}
