//! The constant-time sort of `Short_fromlist` (NTRU Prime spec §2.3,
//! `Short_random`; reference `crypto_sort_uint32`) with AVX2: twin of
//! `sample::sort_u32_on(.., None)`, the same network (Batcher's merge
//! exchange, Knuth TAOCP 5.2.2 Algorithm M) with the same comparators in the
//! same passes, eight 32-bit lanes per register (`vpminud` / `vpmaxud`).
//!
//! In a pass `(p, r, d)` the comparators are `(i, i + d)` for every `i` with
//! `i & p == r` and `i + d < n`; `d` is an odd multiple of `p`, so `i + d`
//! has the other value of bit `p` and no element is in two comparators.
//! With `d >= 8` a block of eight `i` and the block of their partners do
//! not overlap: both are loaded, and min and max written back to the
//! comparators' lanes (a lane mask when `p < 8`). With `d < 8` each block
//! is computed from the pass's input values: the low lanes take the minimum
//! with `x[i + d]`, the high lanes the maximum with `x[i - d]`, the latter
//! assembled from the previous block's input kept in a register. The last
//! few lanes (fewer than `d + 16`) go through the scalar comparator. Every
//! index, mask and loop bound depends on `n` alone.

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi32, _mm256_cmpgt_epi32,
    _mm256_loadu_si256, _mm256_max_epu32, _mm256_min_epu32, _mm256_permutevar8x32_epi32,
    _mm256_set1_epi32, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_storeu_si256,
    _mm256_sub_epi32,
};

use crate::ct;
use pqdr_common::simd::Avx2;

/// Lanes per register.
const L: usize = 8;

/// `x[k..k + 8]` as one register.
#[target_feature(enable = "avx2")]
#[inline]
fn ld(x: &[u32], k: usize) -> __m256i {
    let s = &x[k..k + L];
    // SAFETY: `s` is 8 readable `u32` (32 bytes); `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Stores `v` into `x[k..k + 8]`.
#[target_feature(enable = "avx2")]
#[inline]
fn st(x: &mut [u32], k: usize, v: __m256i) {
    let s = &mut x[k..k + L];
    // SAFETY: `s` is 8 writable `u32` (32 bytes); `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
}

/// All-ones in lane `j` iff `(j & p) == r` (`p < 8`): the lanes of a block
/// that hold the lower element of their comparator.
#[target_feature(enable = "avx2")]
#[inline]
fn low_lanes(p: usize, r: usize) -> __m256i {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        reason = "p, r < 8"
    )]
    let (p, r) = (p as i32, r as i32);
    let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let bits = _mm256_and_si256(lanes, _mm256_set1_epi32(p));
    _mm256_cmpeq_epi32(bits, _mm256_set1_epi32(r))
}

/// The scalar comparator on `(x[i], x[i + d])`.
#[inline(always)]
fn cmp_scalar(x: &mut [u32], i: usize, d: usize) {
    let (lo, hi) = x.split_at_mut(i + d);
    ct::minmax_u32_slices(&mut lo[i..=i], &mut hi[..1]);
}

/// One pass with `d >= 8`: blocks of low elements and their partners.
#[target_feature(enable = "avx2")]
#[inline]
fn pass_far(x: &mut [u32], p: usize, r: usize, d: usize) {
    let n = x.len();
    // Blocks k (multiples of 8) with both windows inside x: k + d + 8 <= n.
    let k_end = (n - d) & !(L - 1);
    if p < L {
        let m = low_lanes(p, r);
        let mut k = 0;
        while k < k_end {
            let (a, b) = (ld(x, k), ld(x, k + d));
            let (mn, mx) = (_mm256_min_epu32(a, b), _mm256_max_epu32(a, b));
            st(x, k, _mm256_blendv_epi8(a, mn, m));
            st(x, k + d, _mm256_blendv_epi8(b, mx, m));
            k += L;
        }
    } else {
        // Runs of p low elements start at r, r + 2p, ...: whole blocks.
        let mut start = r;
        while start < k_end {
            let mut k = start;
            while k < (start + p).min(k_end) {
                let (a, b) = (ld(x, k), ld(x, k + d));
                st(x, k, _mm256_min_epu32(a, b));
                st(x, k + d, _mm256_max_epu32(a, b));
                k += L;
            }
            start += 2 * p;
        }
    }
    for i in k_end..n - d {
        if i & p == r {
            cmp_scalar(x, i, d);
        }
    }
}

/// One pass with `d < 8` (so `p < 8`): each block from the pass's input.
#[target_feature(enable = "avx2")]
#[inline]
fn pass_near(x: &mut [u32], p: usize, r: usize, d: usize) {
    let n = x.len();
    let m = low_lanes(p, r);
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        reason = "d < 8"
    )]
    let di = d as i32;
    let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // Lane j of x[k - d .. k - d + 8]: previous block's lane j - d + 8 for
    // j < d, else this block's lane j - d; one rotation serves both.
    let rot = _mm256_and_si256(
        _mm256_sub_epi32(lanes, _mm256_set1_epi32(di)),
        _mm256_set1_epi32(7),
    );
    let from_prev = _mm256_cmpgt_epi32(_mm256_set1_epi32(di), lanes);
    // Blocks k with x[k + d .. k + d + 8] inside x.
    let k_end = (n - d) & !(L - 1);
    // No element below 0: the maximum with 0 leaves a lane as it is.
    let mut prev = _mm256_setzero_si256();
    let mut k = 0;
    while k < k_end {
        let cur = ld(x, k);
        let right = ld(x, k + d);
        let left = _mm256_blendv_epi8(
            _mm256_permutevar8x32_epi32(cur, rot),
            _mm256_permutevar8x32_epi32(prev, rot),
            from_prev,
        );
        let lo = _mm256_min_epu32(cur, right);
        let hi = _mm256_max_epu32(left, cur);
        st(x, k, _mm256_blendv_epi8(hi, lo, m));
        prev = cur;
        k += L;
    }
    // The tail: x[k_end - 8 .. k_end] holds outputs; its inputs are `prev`.
    // Restore them in a copy of the last (< d + 16) entries, run the
    // remaining comparators there, and copy the tail back.
    let base = k_end.saturating_sub(L);
    let mut t = [0u32; 3 * L];
    let len = n - base;
    t[..len].copy_from_slice(&x[base..]);
    if k_end >= L {
        st(&mut t, 0, prev);
    }
    for i in 0..len - d {
        if (base + i) & p == r && base + i + d >= k_end {
            cmp_scalar(&mut t[..len], i, d);
        }
    }
    x[k_end..].copy_from_slice(&t[k_end - base..len]);
}

/// [`sort_u32`] with AVX2 enabled (the network of `sample::sort_u32_on`).
#[target_feature(enable = "avx2")]
fn sort_u32_avx2(x: &mut [u32]) {
    let n = x.len();
    let t = usize::BITS - (n - 1).leading_zeros(); // ceil(log2 n)
    let mut p = 1usize << (t - 1);
    while p > 0 {
        let mut q = 1usize << (t - 1);
        let mut r = 0usize;
        let mut d = p;
        loop {
            if d < n {
                if d >= L {
                    pass_far(x, p, r, d);
                } else {
                    pass_near(x, p, r, d);
                }
            }
            if q == p {
                break;
            }
            d = q - p;
            q >>= 1;
            r = p;
        }
        p >>= 1;
    }
}

/// Sorts `x` (`x.len() >= 32`) with the AVX2 network, behind the [`Avx2`]
/// token (twin of `sample::sort_u32_on(.., None)`); lengths 513..=2048 go
/// to the bitonic networks of `bitonic.rs` instead (same output: a sorted
/// list is unique).
#[inline]
pub(crate) fn sort_u32(token: Avx2, x: &mut [u32]) {
    if x.len() > 512 && x.len() <= 1024 {
        // Every set but sntrup1277: the bitonic network on 1024 entries.
        super::bitonic::sort_u32_1024(token, x);
        return;
    }
    if x.len() > 1024 && x.len() <= 2048 {
        // sntrup1277: the bitonic network on 2048 entries.
        super::bitonic::sort_u32_2048(token, x);
        return;
    }
    assert!(x.len() >= 4 * L);
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { sort_u32_avx2(x) }
}
