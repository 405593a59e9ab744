//! AVX2 rejection sampling of `RejBoundedPoly` (FIPS 204 Algorithm 31, with
//! `CoeffFromHalfByte`, Algorithm 15): sixteen half-bytes (eight bytes) per
//! step, each mapped to its coefficient by a 16-entry byte table
//! (`vpshufb`), the accepted ones packed to the front by a byte shuffle
//! looked up from the accept mask, as `sample::rej_bounded_consume`.
//!
//! The bytes are secret (SHAKE256 of ρ'). The half-bytes only ever index the
//! in-register table; the accept mask is released (declassified) before it
//! picks a shuffle control or moves the count, exactly the bits the portable
//! loop releases (see `sample::rej_bounded_poly`): the accepted coefficients
//! are uniform whatever was rejected.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "a 16-bit mask and table bytes of small values"
)]

use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_and_si128, _mm_cmpgt_epi8, _mm_loadl_epi64, _mm_movemask_epi8,
    _mm_set1_epi8, _mm_setr_epi8, _mm_shuffle_epi8, _mm_srli_epi16, _mm_unpacklo_epi8,
    _mm256_cvtepi8_epi32, _mm256_storeu_si256,
};

use pqdr_common::simd::Avx2;
use pqdr_ctgrind::hook;

use super::rej::COMPRESS;
use crate::zetas::N;

/// `RejBoundedPoly`'s loop over `bytes` from coefficient `ctr`, whole
/// groups of eight bytes while sixteen more coefficients fit: every accepted
/// half-byte's coefficient stored at `out[ctr]`, ctr += 1. Returns the new
/// count and the bytes used (a multiple of 8); the caller finishes the rest
/// of `bytes` with the portable loop.
#[inline]
pub(crate) fn rej_eta(
    token: Avx2,
    out: &mut [i32; N],
    ctr: usize,
    bytes: &[u8],
    eta: i32,
) -> (usize, usize) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { rej_eta_avx2(out, ctr, bytes, eta) }
}

/// Eight bytes from `src[off..]`, if in bounds, in the low half of a register.
#[target_feature(enable = "avx2")]
#[inline]
fn load8(src: &[u8], off: usize) -> Option<__m128i> {
    let b = src.get(off..)?.first_chunk::<8>()?;
    // SAFETY: `b` is 8 readable bytes; unaligned 64-bit load.
    Some(unsafe { _mm_loadl_epi64(b.as_ptr().cast()) })
}

/// The `vpshufb` control that packs the accepted bytes of one 8-byte half
/// (`half` = 0 or 8) to the front, from its released 8-bit accept mask.
#[target_feature(enable = "avx2")]
#[inline]
fn compress_ctrl(mask: usize, half: i8) -> __m128i {
    let perm = &COMPRESS[mask & 0xff];
    // SAFETY: `perm` is 8 readable bytes; unaligned 64-bit load.
    let idx = unsafe { _mm_loadl_epi64(perm.as_ptr().cast()) };
    _mm_add_epi8(idx, _mm_set1_epi8(half))
}

#[target_feature(enable = "avx2")]
fn rej_eta_avx2(out: &mut [i32; N], mut ctr: usize, bytes: &[u8], eta: i32) -> (usize, usize) {
    // CoeffFromHalfByte (Algorithm 15) as a table of the half-byte b:
    // η = 2: 2 − (b mod 5), accepted for b < 15; η = 4: 4 − b, for b < 9.
    // The entries of rejected b are never stored as coefficients.
    let (table, bound) = if eta == 2 {
        (
            _mm_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0),
            _mm_set1_epi8(15),
        )
    } else {
        (
            _mm_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0),
            _mm_set1_epi8(9),
        )
    };
    let low4 = _mm_set1_epi8(0x0f);
    let mut pos = 0;
    while ctr + 16 <= N {
        let Some(b) = load8(bytes, pos) else { break };
        // Half-bytes in stream order: byte j gives b mod 16, then ⌊b/16⌋.
        let lo = _mm_and_si128(b, low4);
        let hi = _mm_and_si128(_mm_srli_epi16::<4>(b), low4);
        let nib = _mm_unpacklo_epi8(lo, hi);
        let mut m = _mm_movemask_epi8(_mm_cmpgt_epi8(bound, nib)) as u32;
        // Released on purpose, see the module doc.
        hook::declassify(&mut m);
        let vals = _mm_shuffle_epi8(table, nib);
        for half in 0..2 {
            let mh = (m >> (8 * half)) as usize & 0xff;
            let packed = _mm_shuffle_epi8(vals, compress_ctrl(mh, 8 * half as i8));
            if let Some(o) = out.get_mut(ctr..).and_then(|o| o.first_chunk_mut::<8>()) {
                // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
                // Lanes past the accepted ones are overwritten by later steps.
                unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm256_cvtepi8_epi32(packed)) }
            }
            ctr += mh.count_ones() as usize;
        }
        pos += 8;
    }
    (ctr, pos)
}
