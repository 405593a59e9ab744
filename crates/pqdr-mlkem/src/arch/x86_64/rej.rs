//! The rejection step of `SampleNTT` (FIPS 203 Algorithm 7, lines 5–15)
//! with AVX2: one SHAKE128 block (168 bytes) gives 112 12-bit candidates,
//! sixteen per 24 bytes; those below `q` are appended in order.
//!
//! Each group of 24 bytes is spread so that every 16-bit lane holds the two
//! bytes of its candidate (`vpshufb`), the odd candidates are shifted down
//! by 4 and the even ones masked to 12 bits; a comparison with `q` gives an
//! 8-bit acceptance mask per 128-bit half, and a 256-entry table turns that
//! mask into the `vpshufb` pattern that moves the accepted lanes to the
//! front. The table is indexed by the mask, which depends only on XOF output
//! on the public seed `ρ` (as the scalar sampler's branches do), never on
//! secrets.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_storeu_si128, _mm256_and_si256, _mm256_blend_epi16,
    _mm256_castsi256_si128, _mm256_cmpgt_epi16, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_packs_epi16, _mm256_permute4x64_epi64, _mm256_set_m128i,
    _mm256_set1_epi16, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_srli_epi16,
};

use pqdr_common::simd::Avx2;

use crate::arch::{REJ_BLOCK, REJ_OUT};
use crate::field::Q;

/// For each 8-bit acceptance mask: the `vpshufb` pattern that moves the
/// accepted 16-bit lanes (in order) to the front of a 128-bit half.
static COMPACT: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        let mut lane: u8 = 0;
        while lane < 8 {
            if (m >> lane) & 1 == 1 {
                t[m][2 * k] = 2 * lane;
                t[m][2 * k + 1] = 2 * lane + 1;
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
};

/// The number of set bits of each byte (no `popcnt` without its target
/// feature; the index is the public acceptance mask).
#[allow(
    clippy::cast_possible_truncation,
    reason = "compile-time table: counts up to 8"
)]
static COUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// `SampleNTT`'s candidate loop on one block (twin:
/// `sample::rej_uniform_portable`): appends the candidates of
/// `block[..168]` that are below `q` to `out[n..]` (in order) and returns
/// the new count. `n ≤ 15`, else the result is the count reached when the
/// output has no room left (never out of bounds).
#[inline]
pub(crate) fn rej_uniform(
    token: Avx2,
    block: &[u8; REJ_BLOCK],
    out: &mut [i16; REJ_OUT],
    n: usize,
) -> usize {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { rej_uniform_avx2(block, out, n) }
}

/// Stores the first `count` lanes of `v` at `out[n..]` (all eight lanes are
/// written when they fit) and returns `n + count`; with no room for eight
/// lanes nothing is stored and `n` is returned.
#[target_feature(enable = "avx2")]
#[inline]
fn append(out: &mut [i16; REJ_OUT], n: usize, v: __m128i, count: usize) -> usize {
    match out.get_mut(n..n + 8) {
        Some(o) => {
            // SAFETY: `o` is 8 writable `i16` (16 bytes); `storeu` has no
            // alignment requirement.
            unsafe { _mm_storeu_si128(o.as_mut_ptr().cast::<__m128i>(), v) };
            n + count
        }
        None => n,
    }
}

#[target_feature(enable = "avx2")]
fn rej_uniform_avx2(block: &[u8; REJ_BLOCK], out: &mut [i16; REJ_OUT], mut n: usize) -> usize {
    // Per 128-bit half (12 bytes at offset 0 of the low half, 4 of the
    // high), lane j takes bytes 3⌊j/2⌋ + (j & 1) and the next one.
    #[allow(clippy::cast_possible_wrap, reason = "byte indices < 16")]
    let spread = _mm256_setr_epi8(
        0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, //
        4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15,
    );
    let mask12 = _mm256_set1_epi16(0x0fff);
    let q = _mm256_set1_epi16(Q);
    for g in block.as_chunks::<8>().0.windows(4).step_by(3) {
        // SAFETY: `g` is four 8-byte chunks, 32 readable bytes; `loadu` has
        // no alignment requirement.
        let v = unsafe { _mm256_loadu_si256(g.as_ptr().cast::<__m256i>()) };
        // Bytes 0..16 in the low half, 8..24 in the high half.
        let v = _mm256_permute4x64_epi64::<0b10_01_01_00>(v);
        let v = _mm256_shuffle_epi8(v, spread);
        let even = _mm256_and_si256(v, mask12);
        let odd = _mm256_srli_epi16::<4>(v);
        let d = _mm256_blend_epi16::<0b1010_1010>(even, odd);
        let ok = _mm256_cmpgt_epi16(q, d);
        #[allow(clippy::cast_sign_loss, reason = "the bit pattern of the mask")]
        let m = _mm256_movemask_epi8(_mm256_packs_epi16(ok, _mm256_setzero_si256())) as u32;
        let (lo, hi) = ((m & 0xff) as usize, ((m >> 16) & 0xff) as usize);
        // SAFETY: each table entry is 16 readable bytes; `loadu` has no
        // alignment requirement.
        let (ilo, ihi) = unsafe {
            (
                _mm_loadu_si128(COMPACT[lo].as_ptr().cast::<__m128i>()),
                _mm_loadu_si128(COMPACT[hi].as_ptr().cast::<__m128i>()),
            )
        };
        let c = _mm256_shuffle_epi8(d, _mm256_set_m128i(ihi, ilo));
        n = append(out, n, _mm256_castsi256_si128(c), usize::from(COUNT[lo]));
        n = append(
            out,
            n,
            _mm256_extracti128_si256::<1>(c),
            usize::from(COUNT[hi]),
        );
    }
    n
}
