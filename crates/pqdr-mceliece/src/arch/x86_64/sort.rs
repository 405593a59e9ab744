//! AVX2 sorts of the control-bit computation (Classic McEliece spec
//! §2.4.2 / §3.3). Records: the network of `crate::sort::sort_records` (the same
//! driver, `crate::sort::records::sort_records_with`) with a record group in
//! registers: keys and first values (16 lanes) in one 256-bit register,
//! the second values (W = 24) in a 128-bit one. Columns: the network of
//! `crate::sort::sort_cols` (driver `crate::sort::columns::sort_cols_with`), its
//! row comparators 16 lanes per register.
//!
//! Keys, values and decisions are secret: every compare-exchange is a
//! signed 16-bit compare (keys below 2^15) turned into a mask, the lane
//! pairings are fixed shuffles, and the loads and stores follow the public
//! length only. The output is identical to the portable path's
//! (`crate::sort::Portable`, `crate::sort::columns::Portable`), which
//! the tests below compare them with.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_cmpgt_epi16, _mm_loadu_si128, _mm_set1_epi16,
    _mm_setr_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_storeu_si128, _mm_xor_si128,
    _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_castsi256_si128, _mm256_cmpgt_epi16,
    _mm256_loadu_si256, _mm256_set1_epi16, _mm256_shuffle_epi8, _mm256_storeu_si256,
    _mm256_xor_si256, _mm256_zextsi128_si256,
};

use pqdr_common::simd::Avx2;

use crate::sort::GroupPath;
use crate::sort::columns::{SpanPath, sort_cols_with};
use crate::sort::records::{RecordPath, sort_records_with};

/// Sorts records of W = 16 or 24 16-bit fields by key, as
/// `crate::sort::sort_records` (8 keys per group, distinct and below 2^15;
/// the record of rank i ends at `crate::sort::rank_pos(n, i)`).
///
/// # Panics
/// If W is neither 16 nor 24.
#[inline]
pub(crate) fn sort_records<const W: usize>(token: Avx2, r: &mut [[u16; W]]) {
    assert!(W == 16 || W == 24, "record width");
    // SAFETY: the token proves AVX2 was detected.
    unsafe { sort_records_avx2(Records(token), r) }
}

#[target_feature(enable = "avx2")]
fn sort_records_avx2<const W: usize>(path: Records, r: &mut [[u16; W]]) {
    sort_records_with(path, r);
}

/// The AVX2 path of the record sorts (W = 16 or 24, which
/// [`sort_records`] checks). Its methods are only inlined into
/// `sort_records_avx2` (AVX2 enabled) and exist only with the token.
#[derive(Clone, Copy, Debug)]
struct Records(Avx2);

/// The key masks of `a` and `b` (signed compare: all-ones where a's key is
/// greater, xor `d`) in both 128-bit halves, so one mask serves the keys
/// and the first values.
#[inline(always)]
fn key_mask(a: __m256i, b: __m256i, d: __m128i) -> (__m256i, __m128i) {
    // SAFETY: only reached from `sort_records_avx2` (AVX2 enabled, by the
    // token); register operations only.
    unsafe {
        let m = _mm_xor_si128(
            _mm_cmpgt_epi16(_mm256_castsi256_si128(a), _mm256_castsi256_si128(b)),
            d,
        );
        (_mm256_broadcastsi128_si256(m), m)
    }
}

impl<const W: usize> GroupPath<[u16; W]> for Records {
    /// Lanes 0..16 (keys, first values), lanes 16..24 (second values, zero
    /// for W = 16).
    type Reg = (__m256i, __m128i);

    #[inline(always)]
    fn load(self, g: &[u16; W]) -> Self::Reg {
        // SAFETY: AVX2 (the token); W >= 16, so lanes 0..16 are in `g`,
        // and lanes 16..24 where W = 24.
        unsafe {
            let a = _mm256_loadu_si256(g.as_ptr().cast());
            if W == 24 {
                (a, _mm_loadu_si128(g.as_ptr().add(16).cast()))
            } else {
                (a, _mm_setzero_si128())
            }
        }
    }

    #[inline(always)]
    fn store(self, g: &mut [u16; W], v: Self::Reg) {
        // SAFETY: AVX2 (the token); the same lanes as `load`.
        unsafe {
            _mm256_storeu_si256(g.as_mut_ptr().cast(), v.0);
            if W == 24 {
                _mm_storeu_si128(g.as_mut_ptr().add(16).cast(), v.1);
            }
        }
    }

    #[inline(always)]
    fn cx(self, a: &mut Self::Reg, b: &mut Self::Reg, desc: usize) {
        // SAFETY: AVX2 (the token); register operations only.
        unsafe {
            let d = _mm_set1_epi16((desc as u16).wrapping_neg().cast_signed());
            let (m, m2) = key_mask(a.0, b.0, d);
            let t = _mm256_and_si256(_mm256_xor_si256(a.0, b.0), m);
            a.0 = _mm256_xor_si256(a.0, t);
            b.0 = _mm256_xor_si256(b.0, t);
            if W == 24 {
                let t2 = _mm_and_si128(_mm_xor_si128(a.1, b.1), m2);
                a.1 = _mm_xor_si128(a.1, t2);
                b.1 = _mm_xor_si128(b.1, t2);
            }
        }
    }
}

impl<const W: usize> RecordPath<W> for Records {
    #[inline(always)]
    fn lane_step<const D: usize>(self, v: &mut Self::Reg) {
        // Byte shuffle of each 128-bit half: 16-bit lane l takes lane l ^ D.
        let idx: [u8; 16] = core::array::from_fn(|i| ((((i >> 1) ^ D) << 1) | (i & 1)) as u8);
        let up: [i8; 16] = core::array::from_fn(|i| -i8::from((i >> 1) & D != 0));
        // SAFETY: AVX2 (the token); register operations only.
        unsafe {
            let s = bytes(idx.map(u8::cast_signed));
            let p = _mm256_shuffle_epi8(v.0, _mm256_broadcastsi128_si256(s));
            // Each lane compares itself with its partner; the upper lane of
            // a pair takes the opposite decision (keys are distinct).
            let (m, m2) = key_mask(v.0, p, bytes(up));
            v.0 = _mm256_xor_si256(v.0, _mm256_and_si256(_mm256_xor_si256(v.0, p), m));
            if W == 24 {
                let p2 = _mm_shuffle_epi8(v.1, s);
                v.1 = _mm_xor_si128(v.1, _mm_and_si128(_mm_xor_si128(v.1, p2), m2));
            }
        }
    }

    #[inline(always)]
    fn flip_keys(self, v: &mut Self::Reg, pat: [u16; 8]) {
        let b: [i8; 16] = core::array::from_fn(|i| (pat[i >> 1] >> (8 * (i & 1))) as u8 as i8);
        // SAFETY: AVX2 (the token); register operations only.
        unsafe {
            v.0 = _mm256_xor_si256(v.0, _mm256_zextsi128_si256(bytes(b)));
        }
    }
}

/// Sorts `x` ascending, as `crate::sort::sort_u64` (a power-of-two length,
/// values below 2^63): the network of `crate::sort::sort_u64`
/// (its groups of eight lanes and lane-wise masks) compiled with AVX2
/// enabled, so that its compare-exchanges run four 64-bit lanes per
/// register.
#[inline]
pub(crate) fn sort_u64(token: Avx2, x: &mut [u64]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { sort_u64_avx2(x) }
}

#[target_feature(enable = "avx2")]
fn sort_u64_avx2(x: &mut [u64]) {
    crate::sort::sort_u64(x);
}

/// Sorts `b` columns at once, as `crate::sort::sort_cols` (same arguments).
#[inline]
pub(crate) fn sort_cols(token: Avx2, key: &mut [u16], v1: &mut [u16], v2: &mut [u16], b: usize) {
    // SAFETY: the token proves AVX2 was detected.
    unsafe { sort_cols_avx2(Spans(token), key, v1, v2, b) }
}

#[target_feature(enable = "avx2")]
fn sort_cols_avx2(path: Spans, key: &mut [u16], v1: &mut [u16], v2: &mut [u16], b: usize) {
    sort_cols_with(path, key, v1, v2, b);
}

/// The AVX2 path of the column sorts; its method is only inlined into
/// `sort_cols_avx2` (AVX2 enabled) and exists only with the token.
#[derive(Clone, Copy, Debug)]
struct Spans(Avx2);

impl SpanPath for Spans {
    #[inline(always)]
    fn cx_spans<const V: usize>(self, key: &mut [u16], v1: &mut [u16], v2: &mut [u16], d: u16) {
        let len = key.len() >> 1;
        if len < 16 {
            // Spans of 8 (one row of eight columns): the portable path's
            // single 128-bit step.
            crate::sort::columns::Portable.cx_spans::<V>(key, v1, v2, d);
            return;
        }
        // len and the lengths of v1, v2 are multiples of 16 (powers of two).
        cx16::<V>(key, [v1, v2], d);
    }
}

/// [`Spans::cx_spans`] 16 lanes at a time with the first `V` value arrays
/// of `vals`.
#[inline(always)]
fn cx16<const V: usize>(key: &mut [u16], vals: [&mut [u16]; 2], d: u16) {
    let len = key.len() >> 1;
    assert!(
        len & 15 == 0 && vals[..V].iter().all(|v| v.len() == 2 * len),
        "spans"
    );
    let [v1, v2] = vals;
    let k = key.as_mut_ptr();
    let (a, c) = (v1.as_mut_ptr(), v2.as_mut_ptr());
    // SAFETY: AVX2 (the token); i + 16 <= len and the arrays in use are
    // 2 len long (asserted), so every access i .. i + 16 and len + i ..
    // len + i + 16 lies in them.
    unsafe {
        let dm = _mm256_set1_epi16(d.cast_signed());
        let swap = |p: *mut u16, i: usize, m: __m256i| {
            let x = _mm256_loadu_si256(p.add(i).cast());
            let y = _mm256_loadu_si256(p.add(len + i).cast());
            let t = _mm256_and_si256(_mm256_xor_si256(x, y), m);
            _mm256_storeu_si256(p.add(i).cast(), _mm256_xor_si256(x, t));
            _mm256_storeu_si256(p.add(len + i).cast(), _mm256_xor_si256(y, t));
        };
        for i in (0..len).step_by(16) {
            let x = _mm256_loadu_si256(k.add(i).cast());
            let y = _mm256_loadu_si256(k.add(len + i).cast());
            // Keys below 2^15: the signed compare orders them.
            let m = _mm256_xor_si256(_mm256_cmpgt_epi16(x, y), dm);
            swap(k, i, m);
            if V >= 1 {
                swap(a, i, m);
            }
            if V == 2 {
                swap(c, i, m);
            }
        }
    }
}

/// Sixteen bytes as a 128-bit register.
#[inline(always)]
fn bytes(b: [i8; 16]) -> __m128i {
    // SAFETY: SSE2 (x86-64 baseline) register construction only.
    unsafe {
        _mm_setr_epi8(
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15],
        )
    }
}

#[cfg(test)]
mod tests {
    use pqdr_common::simd::Avx2;

    #[test]
    fn avx2_u64_matches_portable() {
        let Some(token) = Avx2::detect() else {
            return;
        };
        // Random below 2^63, few values (equal keys), sorted, reversed, all
        // 2^63 - 1.
        let mut s = 5u64;
        for w in 0..=13 {
            let n = 1usize << w;
            for kind in 0..5 {
                let mut a = [0u64; 8192];
                for (i, x) in a[..n].iter_mut().enumerate() {
                    let r = crate::test_util::xorshift(&mut s) >> 1;
                    *x = match kind {
                        0 => r,
                        1 => r & (3 << 61),
                        2 => i as u64,
                        3 => (1 << 63) - 1 - i as u64,
                        _ => (1 << 63) - 1,
                    };
                }
                let mut b = a;
                super::sort_u64(token, &mut a[..n]);
                crate::sort::sort_u64(&mut b[..n]);
                assert!(a == b, "n {n} kind {kind}");
            }
        }
    }

    /// Records of width W: distinct keys by `kind` (0 random, 1 sorted,
    /// 2 reversed, 3 random among the largest keys below 2^15), values random
    /// or all-ones; the AVX2 sort must give the portable sort's output.
    fn records_case<const W: usize>(n: usize, kind: usize, s: &mut u64) -> [[u16; W]; 512] {
        let mut key: [u16; 4096] = core::array::from_fn(|i| i as u16);
        match kind {
            0 => crate::sort::test_shuffle(&mut key[..n], s),
            1 => {}
            2 => key[..n].reverse(),
            _ => {
                crate::sort::test_shuffle(&mut key[..n], s);
                key[..n].iter_mut().for_each(|k| *k = 0x7FFF - *k);
            }
        }
        let mut r = [[0u16; W]; 512];
        for (x, &k) in key.iter().enumerate().take(n) {
            let g = &mut r[x >> 3];
            g[x & 7] = k;
            for v in (8 + (x & 7)..W).step_by(8) {
                g[v] = if kind == 3 {
                    0xFFFF
                } else {
                    crate::test_util::xorshift(s) as u16
                };
            }
        }
        r
    }

    /// The AVX2 record sort against the portable one on `records_case`.
    fn check_records<const W: usize>(token: Avx2, n: usize, kind: usize, s: &mut u64) {
        let mut a = records_case::<W>(n, kind, s);
        let mut b = a;
        super::sort_records(token, &mut a[..n >> 3]);
        crate::sort::records::sort_records_with(crate::sort::Portable, &mut b[..n >> 3]);
        assert_eq!(a, b, "W {W}, n {n}, kind {kind}");
    }

    #[test]
    fn avx2_records_match_portable() {
        let Some(token) = Avx2::detect() else {
            return;
        };
        let mut s = 99u64;
        for w in 3..=12 {
            for kind in 0..4 {
                check_records::<16>(token, 1 << w, kind, &mut s);
                check_records::<24>(token, 1 << w, kind, &mut s);
            }
        }
    }

    #[test]
    fn avx2_cols_match_portable() {
        let Some(token) = Avx2::detect() else {
            return;
        };
        // Keys below 2^15 with ties (kind 0: random; 1: few values; 2: all
        // 0x7FFF; 3: rows ascending; 4: rows descending), values random;
        // b columns of n rows, no value array, one, or two.
        let mut s = 31u64;
        for (rows_log, b) in [
            (1usize, 8usize),
            (4, 8),
            (3, 16),
            (6, 32),
            (2, 2048),
            (9, 16),
        ] {
            let len = b << rows_log;
            for kind in 0..5 {
                let mut v = [[0u16; 8192]; 3];
                for (i, k) in v[0][..len].iter_mut().enumerate() {
                    let r = crate::test_util::xorshift(&mut s) as u16;
                    *k = match kind {
                        0 => r & 0x7FFF,
                        1 => r & 3,
                        2 => 0x7FFF,
                        3 => (i / b) as u16,
                        _ => 0x7FFF - (i / b) as u16,
                    };
                }
                for x in v[1..].iter_mut().flatten() {
                    *x = crate::test_util::xorshift(&mut s) as u16;
                }
                for vals in 0..3 {
                    let (mut a, mut c) = (v, v);
                    for (x, path) in [(&mut a, Some(token)), (&mut c, None)] {
                        let [k, v1, v2] = x;
                        let v1 = if vals >= 1 { &mut v1[..len] } else { &mut [] };
                        let v2 = if vals == 2 { &mut v2[..len] } else { &mut [] };
                        match path {
                            Some(t) => super::sort_cols(t, &mut k[..len], v1, v2, b),
                            None => crate::sort::columns::sort_cols_with(
                                crate::sort::columns::Portable,
                                &mut k[..len],
                                v1,
                                v2,
                                b,
                            ),
                        }
                    }
                    assert!(a == c, "n {} b {b} kind {kind} vals {vals}", len / b);
                }
            }
        }
    }
}
