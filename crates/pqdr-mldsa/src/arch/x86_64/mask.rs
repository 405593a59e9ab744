//! AVX2 `BitUnpack` of `ExpandMask` (FIPS 204 Algorithms 19 and 34): eight
//! fields of `bits` ∈ {18, 20} bits (γ1 = 2^(bits − 1)) per register, each
//! mapped to γ1 − field, as `encode::mask_unpack_portable`.
//!
//! Also [`sk_unpack`]: `BitUnpack` of the signing key's s1, s2 (η − field,
//! 3 or 4 bits) and t0 (2^12 − field, 13 bits) for signing (Algorithms 25,
//! 19, 7 lines 2–5), as `keygen::unpack_eta` / `keygen::unpack_t0`.
//!
//! The bytes are secret (SHAKE256 of ρ'', the signing key): the byte
//! shuffle and the shifts use constant controls, the loads public offsets;
//! no branch on the data.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_setr_epi8, _mm256_and_si256,
    _mm256_broadcastsi128_si256, _mm256_castsi128_si256, _mm256_inserti128_si256, _mm256_set_m128i,
    _mm256_set1_epi32, _mm256_setr_epi8, _mm256_setr_epi32, _mm256_shuffle_epi8, _mm256_srlv_epi32,
    _mm256_storeu_si256, _mm256_sub_epi32,
};

use pqdr_common::simd::Avx2;

/// `out[i]` = γ1 − (field i of `src`), fields of `bits` ∈ {18, 20} bits
/// little-endian from bit 0 of `src`, for `out.len()` (a multiple of 8)
/// fields. `src` must hold `bits/2 + 16` bytes from the start of the last
/// group of eight fields (the 16-byte loads read a few bytes past it);
/// groups it does not cover are left untouched.
#[inline]
pub(crate) fn mask_unpack(token: Avx2, out: &mut [i32], src: &[u8], bits: u32) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { mask_unpack_avx2(out, src, bits) }
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
fn mask_unpack_avx2(out: &mut [i32], src: &[u8], bits: u32) {
    debug_assert!(bits == 18 || bits == 20);
    // Eight fields are `bits` bytes; four fields (half a group) a whole
    // number of bytes, so each 128-bit lane takes four fields from byte 0.
    let gbytes = bits as usize;
    let half = gbytes >> 1;
    // In a lane, field j starts at bit j·bits: three bytes from byte
    // ⌊j·bits/8⌋ into dword j (the fourth zeroed), then a right shift by
    // j·bits mod 8 (shift + bits ≤ 24: the field fits those three bytes).
    let (bytes, shift) = if bits == 18 {
        (
            _mm_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1),
            _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6),
        )
    } else {
        (
            _mm_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1),
            _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4),
        )
    };
    let bytes: __m256i = _mm256_set_m128i(bytes, bytes);
    let mask = _mm256_set1_epi32((1 << bits) - 1);
    let gamma1 = _mm256_set1_epi32(1 << (bits - 1));
    let (out8, _) = out.as_chunks_mut::<8>();
    for (g, o) in out8.iter_mut().enumerate() {
        let off = g * gbytes;
        let (Some(lo), Some(hi)) = (load16(src, off), load16(src, off + half)) else {
            debug_assert!(false, "mask_unpack: source too short");
            break;
        };
        let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
        let f = _mm256_and_si256(
            _mm256_srlv_epi32(_mm256_shuffle_epi8(v, bytes), shift),
            mask,
        );
        // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm256_sub_epi32(gamma1, f)) }
    }
}

/// `out[i]` = `c` − (field i of `src`), fields of `bits` ∈ {3, 4, 13} bits
/// little-endian from bit 0 of `src` (`src.len()` = 32·bits: one
/// polynomial of the signing key); `c` = η for s1, s2 (3 or 4 bits), 2^12
/// for t0 (13 bits). As `encode::unpack` with `v ↦ c − v`.
#[inline]
pub(crate) fn sk_unpack(token: Avx2, out: &mut [i32; 256], src: &[u8], bits: u32, c: i32) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { sk_unpack_avx2(out, src, bits, c) }
}

#[target_feature(enable = "avx2")]
fn sk_unpack_avx2(out: &mut [i32; 256], src: &[u8], bits: u32, c: i32) {
    debug_assert!(matches!(bits, 3 | 4 | 13) && src.len() == 32 * bits as usize);
    // Eight fields are `bits` bytes, loaded into both 128-bit lanes; field j
    // starts at bit j·bits: three bytes from byte ⌊j·bits/8⌋ into dword j
    // (the fourth zeroed), then a right shift by j·bits mod 8 (shift + bits
    // ≤ 20: the field fits those three bytes).
    let (bytes, shift) = match bits {
        3 => (
            _mm256_setr_epi8(
                0, 1, 2, -1, 0, 1, 2, -1, 0, 1, 2, -1, 1, 2, 3, -1, 1, 2, 3, -1, 1, 2, 3, -1, 2, 3,
                4, -1, 2, 3, 4, -1,
            ),
            _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5),
        ),
        4 => (
            _mm256_setr_epi8(
                0, 1, 2, -1, 0, 1, 2, -1, 1, 2, 3, -1, 1, 2, 3, -1, 2, 3, 4, -1, 2, 3, 4, -1, 3, 4,
                5, -1, 3, 4, 5, -1,
            ),
            _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4),
        ),
        _ => (
            _mm256_setr_epi8(
                0, 1, 2, -1, 1, 2, 3, -1, 3, 4, 5, -1, 4, 5, 6, -1, 6, 7, 8, -1, 8, 9, 10, -1, 9,
                10, 11, -1, 11, 12, 13, -1,
            ),
            _mm256_setr_epi32(0, 5, 2, 7, 4, 1, 6, 3),
        ),
    };
    let mask = _mm256_set1_epi32((1 << bits) - 1);
    let cv = _mm256_set1_epi32(c);
    let gbytes = bits as usize;
    let (out8, _) = out.as_chunks_mut::<8>();
    for (g, o) in out8.iter_mut().enumerate() {
        let off = g * gbytes;
        // The last groups' 16-byte loads would pass the end: through `tail`.
        let v = load16(src, off).unwrap_or_else(|| {
            let mut tail = [0u8; 16];
            let rest = src.get(off..).unwrap_or_default();
            let n = rest.len().min(16);
            tail[..n].copy_from_slice(&rest[..n]);
            // SAFETY: `tail` is 16 readable bytes; unaligned load.
            unsafe { _mm_loadu_si128(tail.as_ptr().cast()) }
        });
        let f = _mm256_and_si256(
            _mm256_srlv_epi32(
                _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(v), bytes),
                shift,
            ),
            mask,
        );
        // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm256_sub_epi32(cv, f)) }
    }
}
