//! The table scan of the X25519 base-point product (`x25519::base`) on
//! AVX2: entry `abs` of a row of eight `(y + x, y − x, 2d·x·y)` entries
//! (12 limbs, three ymm registers each), the identity `(1, 1, 0)` for
//! `abs` = 0, read as the portable twin `x25519::base::scan_portable`
//! does: every entry loaded and OR-ed in under a mask from `VPCMPEQQ` of
//! its index with `abs`, so neither a branch nor an address depends on
//! `abs` (a secret digit).
//!
//! `unsafe` here: the call of the `#[target_feature(enable = "avx2")]`
//! body, which the [`Avx2`] token (made only by detection) allows, and the
//! unaligned loads and stores, each inside its array.

use pqdr_common::simd::Avx2;

/// Entry `abs` of `row` (the identity for 0, zero above 8), the same limbs
/// as `x25519::base::scan_portable` for every `abs`.
#[inline(always)]
pub(crate) fn fe_base_scan(token: Avx2, row: &[[u64; 12]; 8], abs: u64) -> [u64; 12] {
    let _ = token;
    // SAFETY: the token (made only by `pqdr_common::simd::Avx2::detect`)
    // proves that AVX2 executes here.
    unsafe { scan_avx2(row, abs) }
}

/// [`fe_base_scan`]'s body, compiled for AVX2.
#[target_feature(enable = "avx2")]
fn scan_avx2(row: &[[u64; 12]; 8], abs: u64) -> [u64; 12] {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256,
        _mm256_storeu_si256,
    };
    let target = _mm256_set1_epi64x(i64::from_ne_bytes(abs.to_ne_bytes()));
    let one = _mm256_set1_epi64x(1);
    // Index 0: the identity, y + x = y − x = 1, 2d·x·y = 0.
    let id = _mm256_set_epi64x(0, 0, 0, 1);
    let mask = _mm256_cmpeq_epi64(_mm256_setzero_si256(), target);
    let mut acc = [
        _mm256_and_si256(id, mask),
        _mm256_and_si256(id, mask),
        _mm256_setzero_si256(),
    ];
    let mut k = _mm256_setzero_si256();
    for entry in row {
        k = _mm256_add_epi64(k, one);
        let mask = _mm256_cmpeq_epi64(k, target);
        for (j, a) in acc.iter_mut().enumerate() {
            // SAFETY: `4 * j + 4 ≤ 12`: the 32 bytes read lie inside
            // `entry` (an unaligned load).
            let v = unsafe { _mm256_loadu_si256(entry.as_ptr().add(4 * j).cast::<__m256i>()) };
            *a = _mm256_or_si256(*a, _mm256_and_si256(v, mask));
        }
    }
    let mut out = [0u64; 12];
    for (j, a) in acc.iter().enumerate() {
        // SAFETY: `4 * j + 4 ≤ 12`: the 32 bytes written lie inside `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(4 * j).cast::<__m256i>(), *a) };
    }
    out
}
