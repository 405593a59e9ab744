//! Sorting many independent columns at once with whole-row comparators
//! (the control-bit levels with eight or more subproblems, Classic McEliece
//! spec §2.4.2 / §3.3).

/// Sorts `b` independent columns at once: element i of column l is
/// `key[i b + l]` (n = `key.len() / b` rows, a power of two; b a multiple
/// of 8), carried along with `v1` and `v2` (each empty or as long as
/// `key`; `v2` only with `v1`), ascending by key (keys below 2^15). The
/// bitonic network of [`sort_u64`](super::sort_u64) on whole rows: every comparator is the
/// same for all columns, so the lanes never mix (no shuffle), and one mask
/// serves the key and the values.
///
/// [`sort_cols_with`] on the portable path ([`Portable`]); the control
/// bits' caller picks the AVX2 twin where there is one.
pub(crate) fn sort_cols(key: &mut [u16], v1: &mut [u16], v2: &mut [u16], b: usize) {
    sort_cols_with(Portable, key, v1, v2, b);
}

/// How a path compare-exchanges two spans of rows.
pub(crate) trait SpanPath: Copy {
    /// Puts `key[i]` and `key[len + i]` (i < len, `key.len()` = 2 len, len a
    /// multiple of 8) in ascending order (descending if `d` is all-ones),
    /// swapping the first `V` of `v1` and `v2` (as long as `key`) with them.
    fn cx_spans<const V: usize>(self, key: &mut [u16], v1: &mut [u16], v2: &mut [u16], d: u16);
}

/// [`sort_cols`] on the path `path`.
#[inline(always)]
pub(crate) fn sort_cols_with<P: SpanPath>(
    path: P,
    key: &mut [u16],
    v1: &mut [u16],
    v2: &mut [u16],
    b: usize,
) {
    debug_assert!(b.is_power_of_two() && b >= 8);
    debug_assert!(v2.is_empty() || !v1.is_empty());
    let n = key.len() >> b.trailing_zeros();
    debug_assert!(n.is_power_of_two());
    // One copy of the network per number of value arrays.
    match (v1.is_empty(), v2.is_empty()) {
        (true, _) => network::<P, 0>(path, key, v1, v2, b, n),
        (false, true) => network::<P, 1>(path, key, v1, v2, b, n),
        (false, false) => network::<P, 2>(path, key, v1, v2, b, n),
    }
}

/// [`sort_cols_with`] with `V` value arrays, n rows.
#[inline(always)]
fn network<P: SpanPath, const V: usize>(
    path: P,
    key: &mut [u16],
    v1: &mut [u16],
    v2: &mut [u16],
    b: usize,
    n: usize,
) {
    let mut k = 2;
    while k <= n {
        let mut j = k >> 1;
        while j > 0 {
            // Rows i and i + j for i in a block of 2j rows: the block's first
            // half against its second half, lane by lane (one direction per
            // block, as 2j <= k).
            let mut s0 = 0;
            while s0 < n {
                let d = (((s0 & k) != 0) as u16).wrapping_neg();
                let span = s0 * b..(s0 + 2 * j) * b;
                let a = if V >= 1 {
                    &mut v1[span.clone()]
                } else {
                    &mut []
                };
                let c = if V == 2 {
                    &mut v2[span.clone()]
                } else {
                    &mut []
                };
                path.cx_spans::<V>(&mut key[span], a, c, d);
                s0 += 2 * j;
            }
            j >>= 1;
        }
        k <<= 1;
    }
}

/// The portable path: 8 lanes at a time (one SSE2 register).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl SpanPath for Portable {
    #[inline(always)]
    fn cx_spans<const V: usize>(self, key: &mut [u16], v1: &mut [u16], v2: &mut [u16], d: u16) {
        let len = key.len() >> 1;
        let (xk, yk) = halves(key, len);
        if V == 0 {
            for (x, y) in xk.iter_mut().zip(yk.iter_mut()) {
                cx_keys(x, y, d);
            }
        } else if V == 1 {
            let (xa, ya) = halves(v1, len);
            let it = xk.iter_mut().zip(yk.iter_mut());
            for ((x, y), (a, c)) in it.zip(xa.iter_mut().zip(ya.iter_mut())) {
                let m = cx_keys(x, y, d);
                swap_lanes(a, c, &m);
            }
        } else {
            let (xa, ya) = halves(v1, len);
            let (xb, yb) = halves(v2, len);
            let it = xk.iter_mut().zip(yk.iter_mut());
            let va = xa.iter_mut().zip(ya.iter_mut());
            let vb = xb.iter_mut().zip(yb.iter_mut());
            for (((x, y), (a, c)), (e, f)) in it.zip(va).zip(vb) {
                let m = cx_keys(x, y, d);
                swap_lanes(a, c, &m);
                swap_lanes(e, f, &m);
            }
        }
    }
}

/// `a[.. len]` and `a[len .. 2 len]`, in chunks of 8.
#[inline(always)]
fn halves(a: &mut [u16], len: usize) -> (&mut [[u16; 8]], &mut [[u16; 8]]) {
    let (x, y) = a[..2 * len].split_at_mut(len);
    (x.as_chunks_mut::<8>().0, y.as_chunks_mut::<8>().0)
}

/// Puts 8 key pairs in ascending order (descending if `d` is all-ones);
/// returns the swap masks.
#[inline(always)]
fn cx_keys(x: &mut [u16; 8], y: &mut [u16; 8], d: u16) -> [u16; 8] {
    let (xv, yv) = (*x, *y);
    let m: [u16; 8] = core::array::from_fn(|l| {
        u16::from(yv[l].cast_signed() < xv[l].cast_signed()).wrapping_neg() ^ d
    });
    swap_lanes(x, y, &m);
    m
}

/// Swaps lane l of `x` and `y` where `m[l]` is all-ones (whole-array
/// expressions, so the compiler keeps them in vector registers).
#[inline(always)]
fn swap_lanes(x: &mut [u16; 8], y: &mut [u16; 8], m: &[u16; 8]) {
    let (xv, yv) = (*x, *y);
    let t: [u16; 8] = core::array::from_fn(|l| (xv[l] ^ yv[l]) & m[l]);
    *x = core::array::from_fn(|l| xv[l] ^ t[l]);
    *y = core::array::from_fn(|l| yv[l] ^ t[l]);
}

#[cfg(test)]
mod tests {
    #[test]
    fn columns() {
        // b columns of n rows: keys with ties (so stability is not assumed:
        // the values are checked as a multiset per key), two payloads.
        let mut s = 4242u64;
        for (rows_log, b) in [(1usize, 8usize), (3, 16), (6, 8), (9, 16), (2, 2048)] {
            let n = 1usize << rows_log;
            let len = n * b;
            let mut next = || crate::test_util::xorshift(&mut s);
            let mut key = [0u16; 8192];
            let mut v1 = [0u16; 8192];
            let mut v2 = [0u16; 8192];
            for i in 0..len {
                key[i] = (next() >> 40) as u16 & 0x7FFF & if i & 1 == 0 { 0x3F } else { 0x7FFF };
                v1[i] = key[i] ^ 0x2AAA;
                v2[i] = (i & (b - 1)) as u16;
            }
            let orig = key;
            for vals in 0..3 {
                let (mut k, mut a, mut c) = (orig, v1, v2);
                let (a_s, c_s): (&mut [u16], &mut [u16]) = match vals {
                    0 => (&mut [], &mut []),
                    1 => (&mut a[..len], &mut []),
                    _ => (&mut a[..len], &mut c[..len]),
                };
                super::sort_cols(&mut k[..len], a_s, c_s, b);
                for col in 0..b {
                    let mut want: [u16; 512] = [0; 512];
                    for (i, w) in want.iter_mut().enumerate().take(n) {
                        *w = orig[i * b + col];
                    }
                    want[..n].sort_unstable();
                    for (i, &wi) in want.iter().enumerate().take(n) {
                        let at = i * b + col;
                        assert_eq!(k[at], wi, "n {n} b {b} col {col}");
                        if vals >= 1 {
                            assert_eq!(a[at], k[at] ^ 0x2AAA, "n {n} b {b}");
                        }
                        if vals == 2 {
                            assert_eq!(c[at] as usize, col, "lanes never mix");
                        }
                    }
                }
            }
        }
    }
}
