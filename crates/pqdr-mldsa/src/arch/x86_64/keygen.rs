//! AVX2 end of key generation (FIPS 204 Algorithm 6, lines 6–8): t = t' +
//! s2 brought to [0, q), `Power2Round` (Algorithm 35) and the packing of
//! t1 (`SimpleBitPack`, 10 bits, Algorithm 16) and of t0 (`BitPack` of
//! 2^12 − t0, 13 bits, Algorithm 17), eight coefficients per register, as
//! `keygen::power2round_pack_portable`.
//!
//! t and t0 are secret: shifts, masks and shuffles with constant controls
//! only, stores at public offsets; no branch, index or division on the data.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_blend_epi32, _mm_bsrli_si128, _mm_cvtsi32_si128, _mm_extract_epi64,
    _mm_or_si128, _mm_sll_epi64, _mm_srl_epi64, _mm_storel_epi64, _mm256_add_epi32,
    _mm256_and_si256, _mm256_bsrli_epi128, _mm256_castsi256_si128, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set1_epi32, _mm256_set1_epi64x,
    _mm256_sll_epi64, _mm256_slli_epi32, _mm256_srai_epi32, _mm256_srl_epi64, _mm256_sub_epi32,
};

use pqdr_common::simd::Avx2;

use crate::field::Q;
use crate::params::{D, T0_POLY_SIZE, T1_POLY_SIZE};

const _: () = assert!(D == 13, "the shifts below are by d = 13");
use crate::zetas::N;

/// t1 into `t1_out` (320 bytes) and 2^12 − t0 into `t0_out` (416 bytes;
/// eight coefficients per 10 and 13 bytes, shorter slices get fewer),
/// (t1, t0) = Power2Round(t + s2 mod q) for t in (−q, q), s2 in [−η, η].
#[inline]
pub(crate) fn power2round_pack(
    token: Avx2,
    t: &[i32; N],
    s2: &[i32; N],
    t1_out: &mut [u8],
    t0_out: &mut [u8],
) {
    let _ = token;
    debug_assert_eq!((t1_out.len(), t0_out.len()), (T1_POLY_SIZE, T0_POLY_SIZE));
    // SAFETY: the token proves AVX2 was detected.
    unsafe { power2round_pack_avx2(t, s2, t1_out, t0_out) }
}

/// x + q where x < 0: (−q, q) → [0, q), as `field::freeze`.
#[target_feature(enable = "avx2")]
#[inline]
fn freeze(x: __m256i) -> __m256i {
    _mm256_add_epi32(
        x,
        _mm256_and_si256(_mm256_srai_epi32::<31>(x), _mm256_set1_epi32(Q)),
    )
}

/// The eight `bits`-bit fields in the 32-bit lanes of `a` (each below
/// 2^bits), packed little-endian: `bits` bytes, in the low 8·bits bits of
/// the result. Pairs of lanes are joined in each 64-bit lane, pairs of those
/// in each 128-bit lane, and the two 128-bit halves across the 64-bit seam.
#[target_feature(enable = "avx2")]
#[inline]
fn pack8(a: __m256i, bits: i32) -> __m128i {
    let n = |s: i32| _mm_cvtsi32_si128(s);
    // Odd lane shifted down next to its even neighbour: 2·bits bits per 64-bit lane.
    let p = _mm256_and_si256(
        _mm256_or_si256(a, _mm256_srl_epi64(a, n(32 - bits))),
        _mm256_set1_epi64x((1i64 << (2 * bits)) - 1),
    );
    // The upper 64-bit lane of each 128-bit half above the lower: 4·bits bits.
    let r = _mm256_or_si256(
        p,
        _mm256_sll_epi64(_mm256_bsrli_epi128::<8>(p), n(2 * bits)),
    );
    // The two halves' low 64-bit lanes side by side: [e0, e1].
    let e = _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b1000>(r));
    // [e0 | e1 << 4·bits, e1 >> (64 − 4·bits)].
    let lo = _mm_blend_epi32::<0b1100>(e, _mm_srl_epi64(e, n(64 - 4 * bits)));
    _mm_or_si128(lo, _mm_bsrli_si128::<8>(_mm_sll_epi64(e, n(4 * bits))))
}

/// Stores the first `B` (8..16) bytes of `v`.
#[target_feature(enable = "avx2")]
#[inline]
fn store_bytes<const B: usize>(out: &mut [u8; B], v: __m128i) {
    let (head, tail) = out.split_at_mut(8);
    // SAFETY: `head` is 8 writable bytes; unaligned 64-bit store.
    unsafe { _mm_storel_epi64(head.as_mut_ptr().cast(), v) }
    let hi = _mm_extract_epi64::<1>(v).to_le_bytes();
    tail.copy_from_slice(&hi[..B - 8]);
}

#[target_feature(enable = "avx2")]
fn power2round_pack_avx2(t: &[i32; N], s2: &[i32; N], t1_out: &mut [u8], t0_out: &mut [u8]) {
    let q = _mm256_set1_epi32(Q);
    let round = _mm256_set1_epi32((1 << (D - 1)) - 1);
    let half = _mm256_set1_epi32(1 << (D - 1));
    let (tc, _) = t.as_chunks::<8>();
    let (sc, _) = s2.as_chunks::<8>();
    let (o1, _) = t1_out.as_chunks_mut::<10>();
    let (o0, _) = t0_out.as_chunks_mut::<13>();
    for (((x, e), a), b) in tc.iter().zip(sc).zip(o1.iter_mut()).zip(o0.iter_mut()) {
        // SAFETY: `x` and `e` are 8 `i32` = 32 readable bytes each; unaligned loads.
        let (x, e) = unsafe {
            (
                _mm256_loadu_si256(x.as_ptr().cast()),
                _mm256_loadu_si256(e.as_ptr().cast()),
            )
        };
        // (−q, q) + [−η, η] → [0, q), as the portable loop.
        let v = freeze(_mm256_sub_epi32(freeze(_mm256_add_epi32(freeze(x), e)), q));
        // Power2Round: r1 = ⌊(r + 2^(d−1) − 1) / 2^d⌋, r0 = r − r1·2^d.
        let r1 = _mm256_srai_epi32::<13>(_mm256_add_epi32(v, round));
        let r0 = _mm256_sub_epi32(v, _mm256_slli_epi32::<13>(r1));
        store_bytes(a, pack8(r1, 10));
        store_bytes(b, pack8(_mm256_sub_epi32(half, r0), 13));
    }
}
