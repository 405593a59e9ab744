//! AVX2 `FixedWeight`'s checks and `Encode`'s row products (Classic McEliece spec §2.4.5: C0 = H e
//! with H = (I | T)): the bits of `T_i & e_tail` for eight public-key rows
//! at once, 32 bytes of each row per step. Twin: the portable word loop of
//! `encrypt::syndrome_rows_with(.., None)` (test
//! `encrypt::tests::avx2_row_products_match_portable`); `FixedWeight`'s
//! distinctness check and index-to-word spread (Classic McEliece spec
//! §2.4.5): the portable loops (`encrypt::repeated_index`,
//! `encrypt::index_words`) compiled with AVX2, sixteen 16-bit lanes per
//! operation (test `encrypt::tests::avx2_fixed_weight_matches_portable`).

use core::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_unpackhi_epi64, _mm_xor_si128, _mm256_and_si256,
    _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_setzero_si256,
    _mm256_xor_si256,
};

use pqdr_common::simd::Avx2;

use crate::params::ParameterSet;

/// Eight rows' products with `tail`, each folded to one 64-bit word by XOR:
/// the parity of word q is `<T_q, e_tail>` (row q of `group`, rows of
/// `tail.len()` bytes, one after the other).
///
/// # Panics
/// If a row is shorter than 32 bytes or `group` is not eight rows.
#[inline]
pub(crate) fn row_products(token: Avx2, group: &[u8], tail: &[u8]) -> [u64; 8] {
    let _ = token;
    let rb = tail.len();
    assert!(
        rb >= 32 && group.len() == 8 * rb,
        "eight rows of 32 bytes or more"
    );
    // SAFETY: the token proves AVX2 was detected.
    unsafe { row_products_avx2(group, tail) }
}

#[target_feature(enable = "avx2")]
fn row_products_avx2(group: &[u8], tail: &[u8]) -> [u64; 8] {
    let rb = tail.len();
    let (full, rem) = (rb >> 5, rb & 31);
    // Each row's last `rem` bytes: one load of its last 32 bytes, against
    // the tail's last 32 bytes with the 32 - rem already counted zeroed.
    let mut last = [0u8; 32];
    last[32 - rem..].copy_from_slice(&tail[rb - rem..]);
    let (g, t) = (group.as_ptr(), tail.as_ptr());
    let mut acc = [_mm256_setzero_si256(); 8];
    let step = |a: &mut [__m256i; 8], t: __m256i, at: usize| {
        for (q, a) in a.iter_mut().enumerate() {
            // SAFETY: `at + 32 <= rb` (callers below) and `group` is 8 rows
            // of rb bytes (`row_products`), so row q's bytes `at..at + 32`
            // are in `group`; unaligned load.
            let r = unsafe { _mm256_loadu_si256(g.add(q * rb + at).cast()) };
            *a = _mm256_xor_si256(*a, _mm256_and_si256(r, t));
        }
    };
    for j in 0..full {
        // SAFETY: 32 j + 32 <= rb = tail.len(); unaligned load.
        let tj = unsafe { _mm256_loadu_si256(t.add(32 * j).cast()) };
        step(&mut acc, tj, 32 * j);
    }
    if rem != 0 {
        // SAFETY: `last` is 32 bytes; unaligned load.
        let tl = unsafe { _mm256_loadu_si256(last.as_ptr().cast()) };
        step(&mut acc, tl, rb - 32);
    }
    acc.map(|a| {
        let x = _mm_xor_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a));
        _mm_cvtsi128_si64(_mm_xor_si128(x, _mm_unpackhi_epi64(x, x))).cast_unsigned()
    })
}

/// `crate::encrypt::repeated_index` with AVX2 enabled, on P's t indices
/// (the lengths known when compiled).
#[inline]
pub(crate) fn repeated_index<P: ParameterSet>(token: Avx2, ind: &[u16]) -> u16 {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { repeated_index_avx2::<P>(ind) }
}

#[target_feature(enable = "avx2")]
fn repeated_index_avx2<P: ParameterSet>(ind: &[u16]) -> u16 {
    crate::encrypt::weight::repeated_index(&ind[..P::T])
}

/// `crate::encrypt::index_words` with AVX2 enabled, on P's t indices and
/// ⌈n/16⌉ words (the lengths known when compiled).
#[inline]
pub(crate) fn index_words<P: ParameterSet>(token: Avx2, ind: &[u16], words: &mut [u16]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { index_words_avx2::<P>(ind, words) }
}

#[target_feature(enable = "avx2")]
fn index_words_avx2<P: ParameterSet>(ind: &[u16], words: &mut [u16]) {
    crate::encrypt::weight::index_words(&ind[..P::T], &mut words[..P::N.div_ceil(16)]);
}
