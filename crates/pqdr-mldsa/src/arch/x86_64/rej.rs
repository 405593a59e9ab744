//! AVX2 rejection sampling of `RejNTTPoly` (FIPS 204 Algorithm 30, with
//! `CoeffFromThreeBytes`, Algorithm 14): eight 3-byte candidates per step,
//! the accepted ones (< q) moved to the front by a permutation looked up
//! from the accept mask, as `sample::rej_ntt_consume` storing into a
//! polynomial.
//!
//! The bytes are SHAKE128(ρ‖s‖r) with ρ public: the table lookup by the
//! accept mask and the data-dependent count are on public data only.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "lane indices below 8 and an 8-bit mask"
)]

use core::arch::x86_64::{
    __m128i, _mm_loadl_epi64, _mm_loadu_si128, _mm_setr_epi8, _mm256_and_si256,
    _mm256_castsi128_si256, _mm256_castsi256_ps, _mm256_cmpgt_epi32, _mm256_cvtepu8_epi32,
    _mm256_inserti128_si256, _mm256_movemask_ps, _mm256_permutevar8x32_epi32, _mm256_set_m128i,
    _mm256_set1_epi32, _mm256_shuffle_epi8, _mm256_storeu_si256,
};

use pqdr_common::simd::Avx2;

use crate::field::Q;
use crate::zetas::N;

/// For each 8-bit accept mask, the lanes of the accepted candidates in
/// order (then zeros): the `vpermd` control that packs them to the front.
pub(super) const COMPRESS: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        let mut lane = 0;
        while lane < 8 {
            if m >> lane & 1 == 1 {
                t[m][k] = lane as u8;
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
};

/// `RejNTTPoly`'s loop over `bytes` (a multiple of 3) from coefficient
/// `ctr`: every accepted candidate stored at `out[ctr]`, ctr += 1, until 256
/// are accepted. Returns the new count, as `sample::rej_ntt_consume`.
#[inline]
pub(crate) fn rej_uniform(token: Avx2, out: &mut [i32; N], ctr: usize, bytes: &[u8]) -> usize {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { rej_uniform_avx2(out, ctr, bytes) }
}

/// 16 bytes from `src[off..]`, if in bounds.
#[target_feature(enable = "avx2")]
#[inline]
fn load16(src: &[u8], off: usize) -> Option<__m128i> {
    let b = src.get(off..)?.first_chunk::<16>()?;
    // SAFETY: `b` is 16 readable bytes; unaligned load.
    Some(unsafe { _mm_loadu_si128(b.as_ptr().cast()) })
}

#[target_feature(enable = "avx2")]
fn rej_uniform_avx2(out: &mut [i32; N], mut ctr: usize, bytes: &[u8]) -> usize {
    // Lane 0 holds bytes 0..16 of the step, lane 1 bytes 8..24: candidate j
    // (bytes 3j..3j + 3) into dword j, the fourth byte zeroed.
    let lo = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    let hi = _mm_setr_epi8(4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
    let shuf = _mm256_set_m128i(hi, lo);
    let low23 = _mm256_set1_epi32(0x7f_ffff);
    let q = _mm256_set1_epi32(Q);
    let mut pos = 0;
    // Eight candidates (24 bytes) per step while eight more coefficients fit.
    while ctr + 8 <= N && pos + 24 <= bytes.len() {
        let (Some(a), Some(b)) = (load16(bytes, pos), load16(bytes, pos + 8)) else {
            break;
        };
        let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(a), b);
        // Drop the top bit of the third byte; accept if < q.
        let c = _mm256_and_si256(_mm256_shuffle_epi8(v, shuf), low23);
        let m = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, c))) as usize;
        // Fast path: all eight accepted (probability (q/2^23)^8 ≈ 0.992),
        // stored as they are, no compaction. Branching on the accept mask is
        // allowed: the candidates are SHAKE128 of the public ρ (Â is public).
        if m == 0xff {
            if let Some(o) = out.get_mut(ctr..).and_then(|o| o.first_chunk_mut::<8>()) {
                // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
                unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), c) }
            }
            ctr += 8;
            pos += 24;
            continue;
        }
        let perm = &COMPRESS[m & 0xff];
        // SAFETY: `perm` is 8 readable bytes; unaligned load.
        let idx = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(perm.as_ptr().cast()) });
        let packed = _mm256_permutevar8x32_epi32(c, idx);
        if let Some(o) = out.get_mut(ctr..).and_then(|o| o.first_chunk_mut::<8>()) {
            // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
            // Lanes past the accepted ones are overwritten by later steps.
            unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), packed) }
        }
        ctr += m.count_ones() as usize;
        pos += 24;
    }
    // The rest one candidate at a time.
    for b in bytes[pos..].chunks_exact(3) {
        if ctr == N {
            break;
        }
        let z = i32::from(b[0]) | (i32::from(b[1]) << 8) | (i32::from(b[2] & 0x7f) << 16);
        if z < Q {
            out[ctr] = z;
            ctr += 1;
        }
    }
    ctr
}
