//! The only place with masks on secret data (besides the arithmetic masks of
//! `poly` and `rounding`): constant-time selection helpers.

/// −1 (all ones) if `a == b`, else 0, for `a, b < 2^16`; no branch.
#[inline(always)]
fn eq_mask(a: i32, b: i32) -> i32 {
    // (a ^ b) − 1 is negative exactly when a ^ b == 0.
    (a ^ b).wrapping_sub(1) >> 31
}

/// The update of SampleInBall (FIPS 204 Algorithm 29, steps 7–8):
/// c_i ← c_j; c_j ← sign, for a secret j ≤ i, reading and writing every
/// position so that the memory access pattern does not depend on j.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "k < 256"
)]
pub(crate) fn swap_in_ball(c: &mut [i32; 256], i: usize, j: u8, sign: i32) {
    // The index goes through an optimisation barrier so the compiler cannot
    // specialise the loops on its value.
    let j = core::hint::black_box(i32::from(j));
    let mut cj = 0i32;
    for (k, &v) in c.iter().enumerate() {
        cj |= v & eq_mask(k as i32, j);
    }
    // Position i is public; when j == i the second loop overwrites it.
    c[i] = cj;
    for (k, v) in c.iter_mut().enumerate() {
        let m = eq_mask(k as i32, j);
        *v ^= (*v ^ sign) & m;
    }
}
