//! The schoolbook base case of the R/q and R/3 products with AVX2: twin of
//! `mult::schoolbook` (same row order, same reduction points, same Barrett
//! step), one 32-coefficient output block in two 16-lane registers.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_loadu_si256, _mm256_mulhi_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_setzero_si256, _mm256_srai_epi16, _mm256_sub_epi16,
};

use super::store;
use crate::arith::{BLOCK, Fq, MAX_P};
use crate::wipe::Wipe;
use pqdr_common::simd::Avx2;

/// The largest base-case length: `⌈⌈p/2⌉/2⌉` of the largest p (two
/// Karatsuba levels above the base case).
const MAX_BASE: usize = MAX_P.div_ceil(4);

/// One output block: two registers of 16 lanes.
type Acc = [__m256i; 2];

/// `Fq::reduce16` on 16 lanes: `x - q round(x 2^27 / q / 2^27)` by a 16-bit
/// multiply-high, an add-and-shift and a multiply-low; result in `(-2q, 2q)`.
#[target_feature(enable = "avx2")]
#[inline]
fn reduce16<const Q: i16>(x: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(x, _mm256_set1_epi16(Fq::<Q>::BARRETT16));
    let t = _mm256_srai_epi16::<11>(_mm256_add_epi16(t, _mm256_set1_epi16(1 << 10)));
    _mm256_sub_epi16(x, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// The window `ptr[0..BLOCK]` of one row as two registers.
///
/// # Safety
///
/// `ptr[0..BLOCK]` must be readable: the callers' windows
/// `src[base - j .. base - j + BLOCK]` for rows `j` in `i0..i1` lie inside
/// `src` by the range assert of [`rows_into`], and `ptr` points at
/// `src[base - j]`. `loadu` has no alignment requirement.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn row_at(ptr: *const i16) -> (__m256i, __m256i) {
    // SAFETY: the caller guarantees 32 readable `i16` at `ptr`.
    unsafe {
        (
            _mm256_loadu_si256(ptr.cast()),
            _mm256_loadu_si256(ptr.add(16).cast()),
        )
    }
}

/// Rows `i0..i1` of one output block (twin of `mult::rows_into`): row `i`
/// adds `src[base - i .. base - i + BLOCK] * b[i]`; with `REDUCE`, a
/// reduction after every `rows` rows and after the last.
///
/// The window range is checked once, before the loop; the rows then read
/// `src` through a pointer that steps down one entry per row, so the
/// inner loop is the multiply-adds and the pointer step: 7 instructions a
/// row (rows in pairs) where a checked slice per row cost 21.
#[target_feature(enable = "avx2")]
#[inline]
fn rows_into<const Q: i16, const REDUCE: bool>(
    s: &mut Acc,
    src: &[i16],
    base: usize,
    b: &[i16],
    (i0, i1): (usize, usize),
    rows: usize,
) {
    if i0 >= i1 {
        return;
    }
    // Lowest window at row i1 - 1, highest at row i0; all public (p only).
    assert!(i1 <= b.len() && i1 <= base + 1 && base - i0 + BLOCK <= src.len());
    let mut i = i0;
    while i < i1 {
        let end = if REDUCE { (i + rows).min(i1) } else { i1 };
        let mut ptr = src[base + 1 - end..].as_ptr().wrapping_add(end - 1 - i);
        // Rows in pairs (the two products of a pair are independent), then
        // the odd one.
        let (pairs, odd) = b[i..end].as_chunks::<2>();
        for &[b0, b1] in pairs {
            // SAFETY: as in `row_at`; rows j and j + 1 read src[base - j ..]
            // and src[base - j - 1 ..], both inside the asserted range, and
            // `ptr` stays at or above src[base + 1 - end] - 1 (never read).
            let ((x0, x1), (y0, y1)) = unsafe { (row_at(ptr), row_at(ptr.sub(1))) };
            let (m0, m1) = (_mm256_set1_epi16(b0), _mm256_set1_epi16(b1));
            let t0 = _mm256_add_epi16(_mm256_mullo_epi16(x0, m0), _mm256_mullo_epi16(y0, m1));
            let t1 = _mm256_add_epi16(_mm256_mullo_epi16(x1, m0), _mm256_mullo_epi16(y1, m1));
            s[0] = _mm256_add_epi16(s[0], t0);
            s[1] = _mm256_add_epi16(s[1], t1);
            ptr = ptr.wrapping_sub(2);
        }
        for &bi in odd {
            // SAFETY: as in `row_at`: the last row of the group, in range.
            let (x0, x1) = unsafe { row_at(ptr) };
            let m = _mm256_set1_epi16(bi);
            s[0] = _mm256_add_epi16(s[0], _mm256_mullo_epi16(x0, m));
            s[1] = _mm256_add_epi16(s[1], _mm256_mullo_epi16(x1, m));
        }
        if REDUCE {
            s[0] = reduce16::<Q>(s[0]);
            s[1] = reduce16::<Q>(s[1]);
        }
        i = end;
    }
}

/// Schoolbook `out = a * b`, the twin of `mult::schoolbook` (same
/// contract: `out.len() = 2n - 1`, `n = a.len() = b.len() >= BLOCK`,
/// `|b| <= 2^bshift`, outputs in `(-2q, 2q)` when `REDUCE`).
#[target_feature(enable = "avx2")]
fn schoolbook_avx2<const Q: i16, const REDUCE: bool>(
    out: &mut [i16],
    a: &[i16],
    b_in: &[i8],
    bshift: u32,
) {
    let n = a.len();
    assert!(n <= MAX_BASE && b_in.len() == n);
    let len = 2 * n - 1;
    // left = BLOCK zeros ‖ a[..BLOCK]; right = a[n - BLOCK..] ‖ BLOCK zeros.
    let mut left = [0i16; 2 * BLOCK];
    left[BLOCK..].copy_from_slice(&a[..BLOCK]);
    let mut right = [0i16; 2 * BLOCK];
    right[..BLOCK].copy_from_slice(&a[n - BLOCK..]);
    let rows = Fq::<Q>::ROWS_PER_REDUCTION >> bshift;
    // b widened to 16 bits once, so each row broadcasts its multiplier
    // straight from memory (one instruction instead of three); wiped on
    // return (b is secret: f, 1/g or r).
    let mut wide = [0i16; MAX_BASE];
    let mut wide = Wipe::new(&mut wide);
    let b = &mut wide[..n];
    for (x, &y) in b.iter_mut().zip(b_in) {
        *x = i16::from(y);
    }
    let b = &*b;

    let mut ob = 0;
    while ob < len {
        let i_lo = (ob + 1).saturating_sub(n);
        let i_hi = (ob + BLOCK).min(n);
        let r_end = (ob + BLOCK).saturating_sub(n).clamp(i_lo, i_hi);
        let l_start = (ob + 1).clamp(r_end, i_hi);
        let mut s: Acc = [_mm256_setzero_si256(); 2];
        let right_base = (ob + BLOCK).saturating_sub(n);
        rows_into::<Q, REDUCE>(&mut s, &right, right_base, b, (i_lo, r_end), rows);
        rows_into::<Q, REDUCE>(&mut s, a, ob, b, (r_end, l_start), rows);
        rows_into::<Q, REDUCE>(&mut s, &left, ob + BLOCK, b, (l_start, i_hi), rows);
        if REDUCE {
            s[0] = reduce16::<Q>(s[0]);
            s[1] = reduce16::<Q>(s[1]);
        }
        let mut blk = [0i16; BLOCK];
        {
            let (c, _) = blk.as_chunks_mut::<16>();
            store(&mut c[0], s[0]);
            store(&mut c[1], s[1]);
        }
        let take = (len - ob).min(BLOCK);
        out[ob..ob + take].copy_from_slice(&blk[..take]);
        ob += BLOCK;
    }
}

/// [`schoolbook_avx2`] behind the [`Avx2`] token (twin of
/// `mult::schoolbook`).
#[inline]
pub(crate) fn schoolbook<const Q: i16, const REDUCE: bool>(
    token: Avx2,
    out: &mut [i16],
    a: &[i16],
    b: &[i8],
    bshift: u32,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { schoolbook_avx2::<Q, REDUCE>(out, a, b, bshift) }
}
