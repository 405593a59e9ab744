//! AVX2 kernels of key generation (MatGen, Classic McEliece spec §2.4.3):
//! the rows of the blocked Gauss–Jordan elimination receiving their
//! combination of a block's eight pivot rows (`crate::pk_gen::rows`), and
//! one row of T = A H_right receiving sum_b A[i][r m + b] H[r m + b]
//! (`crate::pk_gen::t_stage`), 256 bits per register; and the Goppa
//! polynomial's linear algebra over GF(2^m) (`crate::sk_gen`).
//!
//! Everything here is secret (H, A, the elimination's decisions): the
//! selections are AND masks made by compares, every address and branch
//! depends on the public sizes only. Outputs are bit-identical to the
//! portable twins (`pk_gen::rows::fold_rows_portable`,
//! `pk_gen::t_stage::t_row_portable`), which the differential tests in
//! `pk_gen` compare them with.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_loadu_si128, _mm_storeu_si128, _mm_xor_si128,
    _mm256_and_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_cmpeq_epi32,
    _mm256_loadu_si256, _mm256_set1_epi8, _mm256_set1_epi32, _mm256_storeu_si256, _mm256_xor_si256,
};
// The window kernels' lane moves and 64-bit lanes.
use core::arch::x86_64::{_mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_extract_epi64};
use core::arch::x86_64::{_mm256_add_epi64, _mm256_andnot_si256, _mm256_blend_epi32};
use core::arch::x86_64::{_mm256_cmpgt_epi64, _mm256_extracti128_si256, _mm256_or_si256};
use core::arch::x86_64::{_mm256_permute4x64_epi64, _mm256_set1_epi64x, _mm256_setr_epi64x};
use core::arch::x86_64::{_mm256_setzero_si256, _mm256_sll_epi64};
// The T rows' last partial group.
use core::arch::x86_64::_mm256_setr_epi32;
use core::arch::x86_64::{_mm256_cmpgt_epi32, _mm256_maskload_epi32, _mm256_maskstore_epi32};

use pqdr_common::simd::Avx2;

use crate::params::MAX_M;

/// 16-byte chunks of a pivot row (`crate::pk_gen::rows::Pivots`).
type Chunk = [u8; 16];

/// Rows `rows` of `mat` (rows `stride` bytes apart) receive, in bytes
/// `w0 .. w1` (a multiple of 16 long, at most 16 C), the XOR of the pivot
/// rows `q[j]` whose bit j is set in `bits[k]` (Classic McEliece spec
/// §2.4.3, a Gauss–Jordan elimination step for eight pivots at once).
///
/// # Panics
/// If the rows or the byte range are out of bounds of `mat`, `bits` or `q`.
#[inline]
pub(crate) fn fold_pivot_rows<const C: usize>(
    token: Avx2,
    mat: &mut [u8],
    stride: usize,
    (w0, w1): (usize, usize),
    rows: core::ops::Range<usize>,
    q: &[[Chunk; C]; 8],
    bits: &[u8],
) {
    let _ = token;
    let width = w1 - w0;
    assert!(
        width & 15 == 0 && width <= 16 * C && w1 <= stride && rows.end <= bits.len(),
        "row width or rows"
    );
    if rows.start >= rows.end {
        return;
    }
    assert!((rows.end - 1) * stride + w1 <= mat.len(), "rows");
    // SAFETY: the token proves AVX2 was detected; every row's bytes
    // k stride + w0 .. k stride + w1 (k < rows.end) lie in `mat`, and the
    // width is at most the 16 C bytes of each pivot row (asserted above).
    unsafe { fold_rows_avx2(mat, stride, (w0, width), rows, q, bits) }
}

/// The eight byte masks of `bits` (mask j all-ones where bit j is set).
/// The broadcast passes through `black_box`: LLVM otherwise may rewrite
/// the eight compares as a scalar bit test and broadcast per mask (seen
/// after unrelated changes in the crate: +23 % instructions in
/// [`fold_rows_avx2`]).
#[target_feature(enable = "avx2")]
#[inline]
fn byte_masks(bits: u8) -> [__m256i; 8] {
    let b = core::hint::black_box(_mm256_set1_epi8(bits.cast_signed()));
    core::array::from_fn(|j| {
        let c = _mm256_set1_epi8((1u8 << j).cast_signed());
        _mm256_cmpeq_epi8(_mm256_and_si256(b, c), c)
    })
}

#[target_feature(enable = "avx2")]
fn fold_rows_avx2<const C: usize>(
    mat: &mut [u8],
    stride: usize,
    (w0, width): (usize, usize),
    rows: core::ops::Range<usize>,
    q: &[[Chunk; C]; 8],
    bits: &[u8],
) {
    let qp: [*const u8; 8] = core::array::from_fn(|j| q[j].as_ptr().cast::<u8>());
    for k in rows {
        let m = byte_masks(bits[k]);
        let row = &mut mat[k * stride + w0..k * stride + w0 + width];
        let p = row.as_mut_ptr();
        let mut off = 0;
        while off + 32 <= width {
            // SAFETY: bytes off .. off + 32 lie in `row` and in each pivot
            // row (width <= 16 C, checked by the caller); unaligned loads
            // and stores have no alignment requirement.
            unsafe {
                let mut x = _mm256_loadu_si256(p.add(off).cast::<__m256i>());
                for j in 0..8 {
                    let y = _mm256_loadu_si256(qp[j].add(off).cast::<__m256i>());
                    x = _mm256_xor_si256(x, _mm256_and_si256(y, m[j]));
                }
                _mm256_storeu_si256(p.add(off).cast::<__m256i>(), x);
            }
            off += 32;
        }
        if off < width {
            // SAFETY: as above for the last 16 bytes (width is a multiple
            // of 16).
            unsafe {
                let mut x = _mm_loadu_si128(p.add(off).cast::<__m128i>());
                for j in 0..8 {
                    let y = _mm_loadu_si128(qp[j].add(off).cast::<__m128i>());
                    x = _mm_xor_si128(x, _mm_and_si128(y, _mm256_castsi256_si128(m[j])));
                }
                _mm_storeu_si128(p.add(off).cast::<__m128i>(), x);
            }
        }
    }
}

/// The fix-up of pivot j (in column `pivot_bit`) in a block's window of N
/// rows, `win` = [panel words, masks received, fix-up masks] (Classic
/// McEliece spec §2.4.3; the twin, with the contract, is
/// `crate::pk_gen::eliminate::window_fix_portable`): the first row kk > j
/// with the bit set is added to the pivot row, unless the pivot row has
/// it. Returns the pivot row's word and mask, and 1 if a row had the bit.
///
/// # Panics
/// If j or `pivot_bit` is out of range, or N is not a multiple of 4.
#[inline]
pub(crate) fn window_fix<const N: usize>(
    t: Avx2,
    win: &mut [[u64; N]; 3],
    pivot: (usize, usize),
) -> [u64; 3] {
    let _ = t;
    assert!(pivot.0 < N.min(64) && pivot.1 < 64 && N & 3 == 0, "pivot");
    // SAFETY: the token proves AVX2 was detected.
    unsafe { window_fix_avx2(win, pivot) }
}

/// The per-pivot constants of the window kernels: the shift of bit
/// `pivot_bit` to the sign, j and bit j in every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn pivot_consts((j, pivot_bit): (usize, usize)) -> (__m128i, __m256i, __m256i) {
    let to_sign = _mm_cvtsi64_si128((63 - pivot_bit) as i64);
    (
        to_sign,
        _mm256_set1_epi64x(j as i64),
        _mm256_set1_epi64x(1 << j),
    )
}

/// The lanes of the four window rows 4 c .. 4 c + 4 with bit `pivot_bit`
/// set and index > j, as all-ones lanes: the bit shifted to the sign, a
/// signed compare with zero.
#[target_feature(enable = "avx2")]
#[inline]
fn row_bits(x: __m256i, (to_sign, j, _): (__m128i, __m256i, __m256i), c: usize) -> __m256i {
    let zero = _mm256_setzero_si256();
    let idx = _mm256_add_epi64(
        _mm256_set1_epi64x((4 * c) as i64),
        _mm256_setr_epi64x(0, 1, 2, 3),
    );
    _mm256_and_si256(
        _mm256_cmpgt_epi64(zero, _mm256_sll_epi64(x, to_sign)),
        _mm256_cmpgt_epi64(idx, j),
    )
}

/// Lanes moved up by one (lane 0 zero).
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_up1(x: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b0000_0011>(
        _mm256_permute4x64_epi64::<0b10_01_00_00>(x),
        _mm256_setzero_si256(),
    )
}

/// XOR of the four lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn xor_lanes(x: __m256i) -> u64 {
    let h = _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    (_mm_cvtsi128_si64(h) ^ _mm_extract_epi64::<1>(h)).cast_unsigned()
}

#[target_feature(enable = "avx2")]
fn window_fix_avx2<const N: usize>(win: &mut [[u64; N]; 3], pivot: (usize, usize)) -> [u64; 3] {
    let k = pivot_consts(pivot);
    let [words, recv, fix] = win;
    let own = [words[pivot.0], recv[pivot.0]];
    // The running OR of the bits, in every lane: the pivot row's own bit.
    let mut seen = _mm256_set1_epi64x((((own[0] >> pivot.1) & 1) as i64).wrapping_neg());
    let (mut acc, mut cacc) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    let rows = words.as_chunks::<4>().0.iter().zip(recv.as_chunks::<4>().0);
    for (c, ((w, u), f)) in rows.zip(fix.as_chunks_mut::<4>().0).enumerate() {
        // SAFETY: each chunk is 32 bytes; unaligned loads and stores.
        unsafe {
            let x = _mm256_loadu_si256(w.as_ptr().cast::<__m256i>());
            let b = row_bits(x, k, c);
            // Inclusive prefix OR over the lanes, then the rows before each.
            let p = _mm256_or_si256(b, lanes_up1(b));
            let incl = _mm256_or_si256(p, lanes_up1(lanes_up1(p)));
            let first = _mm256_andnot_si256(_mm256_or_si256(lanes_up1(incl), seen), b);
            seen = _mm256_or_si256(seen, _mm256_permute4x64_epi64::<0b11_11_11_11>(incl));
            acc = _mm256_xor_si256(acc, _mm256_and_si256(first, x));
            let r = _mm256_loadu_si256(u.as_ptr().cast::<__m256i>());
            cacc = _mm256_xor_si256(cacc, _mm256_and_si256(first, r));
            let fp = f.as_mut_ptr().cast::<__m256i>();
            let fv = _mm256_or_si256(_mm256_loadu_si256(fp), _mm256_and_si256(first, k.2));
            _mm256_storeu_si256(fp, fv);
        }
    }
    let seen = (_mm_cvtsi128_si64(_mm256_castsi256_si128(seen)) & 1).cast_unsigned();
    [own[0] ^ xor_lanes(acc), own[1] ^ xor_lanes(cacc), seen]
}

/// Column `pivot_bit` cleared in the rows kk > j of a block's window of N
/// rows (Classic McEliece spec §2.4.3; the twin is
/// `crate::pk_gen::eliminate::window_clear_portable`): a row with the bit
/// set receives `acc`, and bit j in its mask.
///
/// # Panics
/// If j or `pivot_bit` is out of range, or N is not a multiple of 4.
#[inline]
pub(crate) fn window_clear<const N: usize>(
    t: Avx2,
    win: &mut [[u64; N]; 3],
    pivot: (usize, usize),
    acc: u64,
) {
    let _ = t;
    assert!(pivot.0 < N.min(64) && pivot.1 < 64 && N & 3 == 0, "pivot");
    // SAFETY: the token proves AVX2 was detected.
    unsafe { window_clear_avx2(win, pivot, acc) }
}

#[target_feature(enable = "avx2")]
fn window_clear_avx2<const N: usize>(win: &mut [[u64; N]; 3], pivot: (usize, usize), acc: u64) {
    let k = pivot_consts(pivot);
    let pv = _mm256_set1_epi64x(acc.cast_signed());
    let [words, recv, _] = win;
    let rows = words.as_chunks_mut::<4>().0.iter_mut();
    for (c, (w, u)) in rows.zip(recv.as_chunks_mut::<4>().0).enumerate() {
        let (wp, up) = (
            w.as_mut_ptr().cast::<__m256i>(),
            u.as_mut_ptr().cast::<__m256i>(),
        );
        // SAFETY: each chunk is 32 bytes; unaligned loads and stores.
        unsafe {
            let x = _mm256_loadu_si256(wp);
            let e = row_bits(x, k, c);
            _mm256_storeu_si256(wp, _mm256_xor_si256(x, _mm256_and_si256(e, pv)));
            let r = _mm256_or_si256(_mm256_loadu_si256(up), _mm256_and_si256(e, k.2));
            _mm256_storeu_si256(up, r);
        }
    }
}

/// Each byte of `bytes`, a row's bits in the columns of a block's eight
/// pivots (bit j: column r0 + j), becomes the mask of the pivot rows, as
/// the block's elimination built them at their own steps, that the row
/// receives to clear those columns (Classic McEliece spec §2.4.3): the
/// fully reduced pivot row j is pivot row j plus the later pivot rows
/// `late[j]`, so the mask is w + sum over the bits j of w of `late[j]`.
/// The twin is `crate::pk_gen::rows::recv_masks_portable`.
#[inline]
pub(crate) fn recv_masks(token: Avx2, bytes: &mut [u8], late: &[u8; 8]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { recv_masks_avx2(bytes, late) }
}

/// [`recv_masks`] on 32 bytes in a register: per bit j a byte compare
/// gives the rows with bit j set, which take `late[j]`.
#[target_feature(enable = "avx2")]
#[inline]
fn recv_masks_x32(w: __m256i, late: &[__m256i; 8]) -> __m256i {
    let mut u = w;
    for (j, &l) in late.iter().enumerate() {
        let c = _mm256_set1_epi8((1u8 << j).cast_signed());
        u = _mm256_xor_si256(
            u,
            _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(w, c), c), l),
        );
    }
    u
}

#[target_feature(enable = "avx2")]
fn recv_masks_avx2(bytes: &mut [u8], late: &[u8; 8]) {
    let l: [__m256i; 8] = core::array::from_fn(|j| _mm256_set1_epi8(late[j].cast_signed()));
    let (full, rest) = bytes.as_chunks_mut::<32>();
    for x in full.iter_mut() {
        let p = x.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `x` is 32 bytes; unaligned load and store.
        unsafe { _mm256_storeu_si256(p, recv_masks_x32(_mm256_loadu_si256(p), &l)) }
    }
    if !rest.is_empty() {
        let mut buf = [0u8; 32];
        buf[..rest.len()].copy_from_slice(rest);
        let p = buf.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `buf` is 32 bytes; unaligned load and store.
        unsafe { _mm256_storeu_si256(p, recv_masks_x32(_mm256_loadu_si256(p), &l)) }
        rest.copy_from_slice(&buf[..rest.len()]);
    }
}

/// One T row of `row.len()` bytes receives sum_b (bit b of `field`) v_b
/// for the m planes v_b of H_right's rows r m + b (Classic McEliece spec
/// §2.4.3, T = A H_right): `v[g][b]` is plane b of columns 512 g .. 512 g
/// + 512 (8 words), `row` covers at most `G` such groups.
///
/// # Panics
/// If `row` is longer than the `G` groups of `v`, or m is not 12 or 13.
#[inline]
pub(crate) fn t_row<const G: usize>(
    token: Avx2,
    m: usize,
    row: &mut [u8],
    v: &[[[u64; 8]; MAX_M]; G],
    field: u32,
) {
    let _ = token;
    assert!(row.len() <= 64 * G && (m == 12 || m == 13), "row or field");
    // SAFETY: the token proves AVX2 was detected.
    unsafe {
        if m == 12 {
            t_row_avx2::<12, G>(row, v, field);
        } else {
            t_row_avx2::<13, G>(row, v, field);
        }
    }
}

/// x ^= sum_b (m_b & v_b) on one 64-byte group (two registers).
#[target_feature(enable = "avx2")]
#[inline]
fn t_group<const M: usize>(x: &mut [__m256i; 2], vg: &[[u64; 8]; MAX_M], masks: &[__m256i; M]) {
    for (b, &mb) in masks.iter().enumerate() {
        // SAFETY: vg[b] is 64 readable bytes; unaligned loads.
        let (lo, hi) = unsafe {
            let p = vg[b].as_ptr().cast::<__m256i>();
            (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)))
        };
        x[0] = _mm256_xor_si256(x[0], _mm256_and_si256(lo, mb));
        x[1] = _mm256_xor_si256(x[1], _mm256_and_si256(hi, mb));
    }
}

#[target_feature(enable = "avx2")]
fn t_row_avx2<const M: usize, const G: usize>(
    row: &mut [u8],
    v: &[[[u64; 8]; MAX_M]; G],
    field: u32,
) {
    // `black_box`: as in [`byte_masks`] (the masks stay vector compares).
    let f = core::hint::black_box(_mm256_set1_epi32(field.cast_signed()));
    let masks: [__m256i; M] = core::array::from_fn(|b| {
        let c = _mm256_set1_epi32(1 << b);
        _mm256_cmpeq_epi32(_mm256_and_si256(f, c), c)
    });
    let (full, rest) = row.as_chunks_mut::<64>();
    for (bytes, vg) in full.iter_mut().zip(v.iter()) {
        let p = bytes.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `bytes` is 64 bytes; unaligned loads and stores.
        unsafe {
            let mut x = [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))];
            t_group::<M>(&mut x, vg, &masks);
            _mm256_storeu_si256(p, x[0]);
            _mm256_storeu_si256(p.add(1), x[1]);
        }
    }
    if rest.is_empty() {
        return;
    }
    let vg = &v[full.len()];
    if rest.len() & 3 == 0 {
        // Whole 32-bit words (every set's T rows but 6960119's): masked
        // loads and stores of the rest's words, lanes chosen by its public
        // length (no copy through a buffer: two `memcpy` calls per row).
        let words = (rest.len() >> 2) as i32;
        let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let lo = _mm256_cmpgt_epi32(_mm256_set1_epi32(words), lane);
        let hi = _mm256_cmpgt_epi32(_mm256_set1_epi32(words - 8), lane);
        let p = rest.as_mut_ptr().cast::<i32>();
        // `wrapping_add`: with 8 words or fewer the second register's lanes
        // are all masked off and its address may be past the row.
        let q = p.wrapping_add(8);
        // SAFETY: the masks enable exactly the `words` 4-byte words of
        // `rest` (lanes 0 .. words of p, then of q = p + 8 words); masked-off
        // lanes are neither read nor written and do not fault.
        unsafe {
            let mut x = [_mm256_maskload_epi32(p, lo), _mm256_maskload_epi32(q, hi)];
            t_group::<M>(&mut x, vg, &masks);
            _mm256_maskstore_epi32(p, lo, x[0]);
            _mm256_maskstore_epi32(q, hi, x[1]);
        }
        return;
    }
    let mut buf = [0u8; 64];
    buf[..rest.len()].copy_from_slice(rest);
    let p = buf.as_mut_ptr().cast::<__m256i>();
    // SAFETY: `buf` is 64 bytes; unaligned loads and stores; the
    // caller checked that `v` has the group of these bytes.
    unsafe {
        let mut x = [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))];
        t_group::<M>(&mut x, vg, &masks);
        _mm256_storeu_si256(p, x[0]);
        _mm256_storeu_si256(p.add(1), x[1]);
    }
    rest.copy_from_slice(&buf[..rest.len()]);
}

/// Irreducible-polynomial generation (Classic McEliece spec §2.4.1), as
/// `crate::sk_gen::genpoly_gen` (same arguments and result): the portable
/// `crate::sk_gen::minimal_poly` compiled with AVX2 enabled, so that its
/// scaled row additions (`gf::mul_add_multiples`: AND masks of the bits of
/// each element, no table, no branch) run 16 field elements per register.
#[inline]
pub(crate) fn genpoly_gen<P: crate::params::ParameterSet>(
    token: Avx2,
    g: &mut [u16],
    f: &[u16],
) -> bool {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { genpoly_gen_avx2::<P>(g, f) }
}

#[target_feature(enable = "avx2")]
#[inline(never)]
fn genpoly_gen_avx2<P: crate::params::ParameterSet>(g: &mut [u16], f: &[u16]) -> bool {
    crate::sk_gen::minimal_poly::<P>(g, f)
}
