//! AVX2 `SimpleBitUnpack(·, 2^10 − 1)` of t1 (FIPS 204 Algorithm 18, as in
//! `pkDecode`, Algorithm 23) fused with the shift t1·2^d of verification
//! (Algorithm 8, line 9): eight 10-bit fields per register, as
//! `verify::unpack_t1_shifted_portable`.
//!
//! t1 is public (the verifying key); the code has no branch on it anyway.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_setr_epi8, _mm256_and_si256, _mm256_castsi128_si256,
    _mm256_inserti128_si256, _mm256_set_m128i, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srlv_epi32, _mm256_storeu_si256,
};

use pqdr_common::simd::Avx2;

use crate::params::{D, T1_POLY_SIZE};
use crate::zetas::N;

const _: () = assert!(D == 13, "the shift below is by d = 13");

/// `out[i]` = (10-bit field i of `src`)·2^13 for the 256 fields of the 320
/// bytes of one t1 polynomial.
#[inline]
pub(crate) fn t1_unpack_shift(token: Avx2, out: &mut [i32; N], src: &[u8; T1_POLY_SIZE]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { t1_unpack_shift_avx2(out, src) }
}

/// 16 bytes from `src[off..]`, if in bounds.
#[target_feature(enable = "avx2")]
#[inline]
fn load16(src: &[u8], off: usize) -> Option<__m128i> {
    let b = src.get(off..)?.first_chunk::<16>()?;
    // SAFETY: `b` is 16 readable bytes; unaligned load.
    Some(unsafe { _mm_loadu_si128(b.as_ptr().cast()) })
}

/// Eight fields from the ten bytes at `src[off..]` (the loads read 16 bytes
/// from `off` and from `off + 5`) into `o`, or `false` if `src` is too short.
#[target_feature(enable = "avx2")]
#[inline]
fn group(o: &mut [i32; 8], src: &[u8], off: usize) -> bool {
    let (Some(lo), Some(hi)) = (load16(src, off), load16(src, off + 5)) else {
        return false;
    };
    // In a 128-bit lane, field j starts at bit 10j: bytes j and j + 1 into
    // dword j, shifted right by 2j (2j + 10 ≤ 16), masked, then times 2^13.
    let bytes = _mm_setr_epi8(0, 1, -1, -1, 1, 2, -1, -1, 2, 3, -1, -1, 3, 4, -1, -1);
    let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
    let f = _mm256_and_si256(
        _mm256_srlv_epi32(
            _mm256_shuffle_epi8(v, _mm256_set_m128i(bytes, bytes)),
            _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6),
        ),
        _mm256_set1_epi32(0x3ff),
    );
    let r: __m256i = _mm256_slli_epi32::<13>(f);
    // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), r) };
    true
}

#[target_feature(enable = "avx2")]
fn t1_unpack_shift_avx2(out: &mut [i32; N], src: &[u8; T1_POLY_SIZE]) {
    let (out8, _) = out.as_chunks_mut::<8>();
    let mut g = 0;
    // Straight from `src` while the 16-byte loads stay inside it (groups 0..30).
    while let Some(o) = out8.get_mut(g) {
        if !group(o, src, 10 * g) {
            break;
        }
        g += 1;
    }
    // The last groups from a zero-padded copy of the rest.
    let mut pad = [0u8; 48];
    let rest = src.get(10 * g..).unwrap_or_default();
    if let Some(p) = pad.get_mut(..rest.len()) {
        p.copy_from_slice(rest);
    }
    for (k, o) in out8.iter_mut().skip(g).enumerate() {
        let ok = group(o, &pad, 10 * k);
        debug_assert!(ok, "t1_unpack_shift: padding too short");
    }
}
