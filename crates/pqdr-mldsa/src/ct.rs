//! The only place with masks on secret data (besides the arithmetic masks of
//! `poly` and `rounding`): the constant-time update of `SampleInBall`, on
//! the shared helpers of `pqdr_common::ct`.

use pqdr_common::ct::{eq_mask_u8, opaque};

/// The update of `SampleInBall` (FIPS 204 Algorithm 29, lines 7–8):
/// c_i ← c_j; c_j ← sign, for a secret j ≤ i, reading and writing every
/// position so that the memory access pattern does not depend on j.
/// Coefficients are bytes (−1 as 0xff) so the loops run 16 or 32 per vector.
/// AVX2 with the token (`arch::swap_in_ball`, one pass; the same bytes
/// whenever c_i = 0, which Algorithm 29 guarantees: positions from i on are
/// untouched before step i), else [`swap_in_ball_portable`].
#[inline]
pub(crate) fn swap_in_ball(
    avx2: Option<crate::arch::Avx2>,
    c: &mut [u8; 256],
    i: usize,
    j: u8,
    sign: u8,
) {
    if let Some(token) = avx2 {
        return crate::arch::swap_in_ball(token, c, i, j, sign);
    }
    swap_in_ball_portable(c, i, j, sign);
}

/// The portable update of `SampleInBall` (the twin of the AVX2 kernel).
#[allow(clippy::cast_possible_truncation, reason = "k < 256")]
pub(crate) fn swap_in_ball_portable(c: &mut [u8; 256], i: usize, j: u8, sign: u8) {
    // The index goes through an optimisation barrier so the compiler cannot
    // specialise the loops on its value.
    let j = opaque(j);
    let mut cj = 0u8;
    for (k, &v) in c.iter().enumerate() {
        cj |= v & eq_mask_u8(k as u8, j);
    }
    // Position i is public; when j == i the second loop overwrites it.
    c[i] = cj;
    for (k, v) in c.iter_mut().enumerate() {
        *v ^= (*v ^ sign) & eq_mask_u8(k as u8, j);
    }
}
