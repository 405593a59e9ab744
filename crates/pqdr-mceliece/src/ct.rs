//! Constant-time helpers: the only place with mask arithmetic on secrets.
//!
//! Masks are all-zero or all-one words computed with wrapping arithmetic, so
//! no comparison on a secret becomes a branch.

/// Hides `x` from the optimizer, so a mask stays a mask: without it LLVM may
/// prove that a value is 0 or all-ones and turn `x ^= y & mask` back into a
/// branch (seen under valgrind in the elimination loops and in BM).
#[inline(always)]
pub(crate) fn opaque<T>(x: T) -> T {
    core::hint::black_box(x)
}

/// 0xFF..FF if `x != 0`, else 0.
#[inline(always)]
pub(crate) fn nonzero_mask_u64(x: u64) -> u64 {
    // (x | -x) has its top bit set exactly when x != 0.
    ((x | x.wrapping_neg()) >> 63).wrapping_neg()
}

/// 0xFFFF if `a == b`, else 0.
#[inline(always)]
pub(crate) fn eq_mask_u16(a: u16, b: u16) -> u16 {
    !(nonzero_mask_u64(u64::from(a ^ b)) as u16)
}

/// 0xFFFF if `a < b` (both < 2^31), else 0.
#[inline(always)]
pub(crate) fn lt_mask_u16(a: u16, b: u16) -> u16 {
    let d = u32::from(a).wrapping_sub(u32::from(b));
    ((d >> 31) as u16).wrapping_neg()
}

/// min(a, b) without a branch.
#[inline(always)]
pub(crate) fn min_u16(a: u16, b: u16) -> u16 {
    let m = lt_mask_u16(b, a);
    a ^ ((a ^ b) & m)
}

/// Swaps `a` and `b` when `bit` is 1 (`bit` in {0, 1}).
#[inline(always)]
pub(crate) fn cswap_u16(a: &mut u16, b: &mut u16, bit: u16) {
    let d = (*a ^ *b) & bit.wrapping_neg();
    *a ^= d;
    *b ^= d;
}

/// Bit `i` of a little-endian bit string, as 0 or 1.
#[inline(always)]
pub(crate) fn bit(bytes: &[u8], i: usize) -> u8 {
    (bytes[i >> 3] >> (i & 7)) & 1
}
