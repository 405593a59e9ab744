//! The wide row kernels of the blocked Gauss–Jordan elimination of key
//! generation (Classic McEliece spec §2.4.3, systematic form): one block's
//! pivot rows built from the rows that fix them up, and every other row
//! receiving its combination of them, 16 bytes (one SSE2 register) at a
//! time under byte masks. The decisions come from `eliminate.rs`; the same
//! kernels run on H_left and, replayed, on the identity.

use super::MAX_MT;
use crate::arch::{self, Avx2};
use crate::ct::opaque;

/// Pivots per block of the elimination.
pub(super) const BLOCK: usize = 8;

/// Bytes of the pivot-row buffers: the longest row of H_left (8192128f:
/// mt + 32 columns, 216 bytes), rounded up to 16.
pub(super) const PIVOT_ROW_BYTES: usize = (8 * (MAX_MT + 32).div_ceil(64)).next_multiple_of(16);

/// A 16-byte chunk of a row (one SSE2 register).
type Chunk = [u8; 16];

/// The masks of the eight pivot rows for one row, each a whole chunk of
/// 0 or 0xFF bytes (the kernels use them as they are, no broadcast).
type Masks = [Chunk; BLOCK];

/// [`Masks`] of the bits of `bits`: one broadcast, then an AND and a byte
/// compare per mask (vector code; a per-byte scalar version followed by
/// sixteen broadcasts cost more than the kernels of a narrow row).
#[inline(always)]
fn lane_masks(bits: u8) -> Masks {
    // The broadcast through `opaque`, so LLVM keeps the per-mask work in
    // vector form instead of folding it back to scalars. The masks
    // themselves stay in registers (an `opaque` on them went through the
    // stack: 3-5 % of key generation); the valgrind keygen check confirms
    // that the kernels use them as masks, not branches.
    let v = opaque([bits; 16]);
    let mut m = [[0u8; 16]; BLOCK];
    for (j, mj) in m.iter_mut().enumerate() {
        let c = 1u8 << j;
        for (x, &b) in mj.iter_mut().zip(&v) {
            *x = u8::from(b & c == c).wrapping_neg();
        }
    }
    m
}

/// Chunks of a pivot-row buffer.
const PIVOT_ROW_CHUNKS: usize = PIVOT_ROW_BYTES >> 4;

/// The block's pivot rows, chunked: `q[j][c]` is one base register plus a
/// constant offset per row j and the running chunk offset, so the kernels
/// keep one pointer for all eight rows (eight slice iterators spilled).
pub(super) type Pivots = [[Chunk; PIVOT_ROW_CHUNKS]; BLOCK];

/// All-zero [`Pivots`].
pub(super) const ZERO_PIVOTS: Pivots = [[[0; 16]; PIVOT_ROW_CHUNKS]; BLOCK];

/// `x ^= sum_j q[j][c] & m[j]` for one chunk (the eight terms written out:
/// as a loop over j, LLVM vectorized across j instead of the 16 bytes).
#[inline(always)]
fn acc_chunk(x: &mut Chunk, q: &Pivots, c: usize, m: &Masks) {
    let [a0, a1, a2, a3, a4, a5, a6, a7] = q.each_ref().map(|r| &r[c]);
    for i in 0..16 {
        x[i] ^= (a0[i] & m[0][i])
            ^ (a1[i] & m[1][i])
            ^ (a2[i] & m[2][i])
            ^ (a3[i] & m[3][i])
            ^ (a4[i] & m[4][i])
            ^ (a5[i] & m[5][i])
            ^ (a6[i] & m[6][i])
            ^ (a7[i] & m[7][i]);
    }
}

/// `q[j][c] ^= u & m[j]` for every j.
#[inline(always)]
fn spread_chunk(q: &mut Pivots, c: usize, u: &Chunk, m: &Masks) {
    let [a0, a1, a2, a3, a4, a5, a6, a7] = q.each_mut().map(|r| &mut r[c]);
    for i in 0..16 {
        let v = u[i];
        a0[i] ^= v & m[0][i];
        a1[i] ^= v & m[1][i];
        a2[i] ^= v & m[2][i];
        a3[i] ^= v & m[3][i];
        a4[i] ^= v & m[4][i];
        a5[i] ^= v & m[5][i];
        a6[i] ^= v & m[6][i];
        a7[i] ^= v & m[7][i];
    }
}

/// `dst ^= sum_j q[j] & m[j]` over `dst.len()` chunks: one destination row
/// receives its combination of the block's pivot rows in a single pass.
#[inline(always)]
fn fold_sources(dst: &mut [Chunk], q: &Pivots, m: &Masks) {
    let n = dst.len().min(PIVOT_ROW_CHUNKS);
    for (c, x) in dst[..n].iter_mut().enumerate() {
        acc_chunk(x, q, c, m);
    }
}

/// `q[j] ^= src & m[j]` for every j: one source row is added to each pivot
/// row that takes it, in a single pass.
#[inline(always)]
fn spread(q: &mut Pivots, src: &[Chunk], m: &Masks) {
    let n = src.len().min(PIVOT_ROW_CHUNKS);
    for (c, u) in src[..n].iter().enumerate() {
        spread_chunk(q, c, u, m);
    }
}

/// [`spread`] for two source rows at once (each pivot-row chunk is loaded
/// and stored once for both).
#[inline(always)]
fn spread_pair(q: &mut Pivots, src_a: &[Chunk], src_b: &[Chunk], masks_a: &Masks, masks_b: &Masks) {
    let (ma, mb) = (masks_a, masks_b);
    let n = src_a.len().min(src_b.len()).min(PIVOT_ROW_CHUNKS);
    for c in 0..n {
        let (u, v) = (&src_a[c], &src_b[c]);
        let [a0, a1, a2, a3, a4, a5, a6, a7] = q.each_mut().map(|r| &mut r[c]);
        for i in 0..16 {
            let (u, v) = (u[i], v[i]);
            a0[i] ^= (u & ma[0][i]) ^ (v & mb[0][i]);
            a1[i] ^= (u & ma[1][i]) ^ (v & mb[1][i]);
            a2[i] ^= (u & ma[2][i]) ^ (v & mb[2][i]);
            a3[i] ^= (u & ma[3][i]) ^ (v & mb[3][i]);
            a4[i] ^= (u & ma[4][i]) ^ (v & mb[4][i]);
            a5[i] ^= (u & ma[5][i]) ^ (v & mb[5][i]);
            a6[i] ^= (u & ma[6][i]) ^ (v & mb[6][i]);
            a7[i] ^= (u & ma[7][i]) ^ (v & mb[7][i]);
        }
    }
}

/// The wide phase of one block of the elimination, on `mat` (mt rows of
/// `stride` bytes, worked on in bytes `w0 .. w1`): pivot rows `r0 .. r0 + len` are
/// built in `q` from the rows as the block found them, then every row from
/// `f0` on receives its combination of them. `fixups[k - r0 - 1]`: the pivot
/// rows that row k fixes up (zero from row `fix_end` on); `bits[k]`: the
/// pivot rows that row k receives (for a pivot row, the later pivot rows of
/// the block); `comb[j]`: the earlier pivot rows that pivot row j receives.
///
/// The same decisions applied to the identity give A = H_left^-1 (see
/// [`replay`](super::eliminate::replay)).
///
/// Not generic and never inlined: compiled once in this crate, so the
/// kernels' register allocation does not depend on the crate and codegen
/// unit that instantiates the callers (inlined into a large benchmark
/// crate, the same loops spilled their row pointers and ran 30 % slower).
#[inline(never)]
#[allow(clippy::too_many_arguments, reason = "one block's decisions")]
pub(super) fn wide_block(
    mat: &mut [u8],
    stride: usize,
    (w0, w1): (usize, usize),
    r0: usize,
    len: usize,
    fix_end: usize,
    f0: usize,
    q: &mut Pivots,
    fixups: &[u8],
    bits: &[u8],
    comb: &[u8],
) {
    let mt = bits.len();
    let chunks = (w1 - w0) >> 4;
    assert!(
        chunks <= PIVOT_ROW_CHUNKS && w1 <= stride && fixups.len() + r0 + 1 == mt && fix_end <= mt,
        "row width or record"
    );
    // Pivot rows as the block found them ...
    for (j, qj) in q.iter_mut().enumerate().take(len) {
        let row = &mat[(r0 + j) * stride..(r0 + j + 1) * stride];
        qj[..chunks].copy_from_slice(row[w0..w1].as_chunks::<16>().0);
    }
    // ... plus their fix-up rows (rows r0 + 1 .. fix_end) ...
    let mut k = r0 + 1;
    while k + 1 < fix_end {
        let (ma, mb) = (lane_masks(fixups[k - r0 - 1]), lane_masks(fixups[k - r0]));
        let (row_a, row_b) = mat[k * stride..(k + 2) * stride].split_at(stride);
        spread_pair(
            q,
            row_a[w0..w1].as_chunks().0,
            row_b[w0..w1].as_chunks().0,
            &ma,
            &mb,
        );
        k += 2;
    }
    if k < fix_end {
        let m = lane_masks(fixups[k - r0 - 1]);
        spread(q, mat[k * stride + w0..k * stride + w1].as_chunks().0, &m);
    }
    // ... plus, in order, their combinations of the earlier pivot rows.
    for (j, &cj) in comb.iter().enumerate().take(len).skip(1) {
        let (done, rest) = q.split_at_mut(j);
        let m = lane_masks(cj);
        let qj = &mut rest[0][..chunks];
        for (qi, mi) in done.iter().zip(&m) {
            for (x, y) in qj.iter_mut().zip(&qi[..chunks]) {
                for ((a, &b), &mb) in x.iter_mut().zip(y).zip(mi) {
                    *a ^= b & mb;
                }
            }
        }
    }
    for qj in q.iter_mut().skip(len) {
        qj[..chunks].fill([0; 16]);
    }
    // Every row receives its combination of the pivot rows.
    // Pivot rows first take their finished value (then the later pivots).
    for (j, qj) in q.iter().enumerate().take(len) {
        let row = &mut mat[(r0 + j) * stride + w0..(r0 + j) * stride + w1];
        row.as_chunks_mut::<16>().0.copy_from_slice(&qj[..chunks]);
    }
    fold_rows(mat, stride, (w0, w1), f0..mt, q, bits);
}

/// Rows `rows` of `mat` receive their combinations of the pivot rows `q`
/// (bytes `w0 .. w1`): row k the rows j with bit j of `bits[k]` set. With
/// AVX2, 32 bytes per register (`arch::fold_pivot_rows`), else
/// [`fold_rows_portable`].
#[inline(always)]
pub(super) fn fold_rows(
    mat: &mut [u8],
    stride: usize,
    w: (usize, usize),
    rows: core::ops::Range<usize>,
    q: &Pivots,
    bits: &[u8],
) {
    fold_rows_with(mat, stride, w, rows, q, bits, arch::avx2());
}

/// [`fold_rows`] on the path `token` picks (`None`: the portable one).
#[inline(always)]
pub(super) fn fold_rows_with(
    mat: &mut [u8],
    stride: usize,
    w: (usize, usize),
    rows: core::ops::Range<usize>,
    q: &Pivots,
    bits: &[u8],
    token: Option<Avx2>,
) {
    if let Some(token) = token {
        arch::fold_pivot_rows(token, mat, stride, w, rows, q, bits);
    } else {
        fold_rows_portable(mat, stride, w, rows, q, bits);
    }
}

/// The portable twin of `arch::fold_pivot_rows`: [`fold_rows`] 16 bytes
/// (one SSE2 register) at a time.
#[inline(always)]
pub(super) fn fold_rows_portable(
    mat: &mut [u8],
    stride: usize,
    (w0, w1): (usize, usize),
    rows: core::ops::Range<usize>,
    q: &Pivots,
    bits: &[u8],
) {
    // One row at a time: its eight masks then stay in registers beside the
    // accumulator (two rows at once shared the pivot-row loads but spilled
    // their sixteen masks: 2-3 % slower key generation).
    for k in rows {
        let m = lane_masks(bits[k]);
        fold_sources(
            mat[k * stride + w0..k * stride + w1]
                .as_chunks_mut::<16>()
                .0,
            q,
            &m,
        );
    }
}

/// Each byte of `bytes`, a row's bits in the columns of a block's pivots
/// (bit j: the block's column j), becomes the mask of the pivot rows (as
/// [`wide_block`] builds them, each at its own step) that the row receives
/// to clear those columns (Classic McEliece spec §2.4.3). The fully reduced
/// pivot row j is pivot row j plus the later pivot rows `late[j]`, so the
/// mask is w + sum over the bits j of w of `late[j]`. With AVX2, 32 bytes
/// per register (`arch::recv_masks`), else [`recv_masks_portable`].
#[inline(always)]
pub(super) fn recv_masks(bytes: &mut [u8], late: &[u8; BLOCK]) {
    recv_masks_with(bytes, late, arch::avx2());
}

/// [`recv_masks`] on the path `token` picks (`None`: the portable one).
#[inline(always)]
pub(super) fn recv_masks_with(bytes: &mut [u8], late: &[u8; BLOCK], token: Option<Avx2>) {
    if let Some(token) = token {
        arch::recv_masks(token, bytes, late);
    } else {
        recv_masks_portable(bytes, late);
    }
}

/// The portable twin of `arch::recv_masks`: [`recv_masks`] a byte at a time.
#[inline(always)]
pub(super) fn recv_masks_portable(bytes: &mut [u8], late: &[u8; BLOCK]) {
    for x in bytes.iter_mut() {
        let w = *x;
        let mut u = w;
        for (j, &l) in late.iter().enumerate() {
            u ^= ((w >> j) & 1).wrapping_neg() & l;
        }
        *x = u;
    }
}
