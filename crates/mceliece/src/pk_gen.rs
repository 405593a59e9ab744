//! Public-key generation: the systematic form [I_mt | T] of the parity-check
//! matrix (spec §2.4.3, "MatGen"), and the semi-systematic form with
//! (mu, nu) = (32, 64) of the `f` sets (spec §2.4.3 / §7).
//!
//! Memory: no mt x n matrix is built. The caller's public-key buffer holds,
//! in its last bytes, the augmented matrix [H_left | I] (the first mt
//! columns of H, plus the 32 window columns for the `f` sets, beside an
//! identity). Gauss–Jordan elimination turns the identity into
//! A = H_left^-1; then T = A H_right is produced in blocks of 64 rows from
//! the front of the buffer, regenerating 64 columns of H_right at a time
//! (bitsliced), so the output never overtakes the rows still to be read.
// ref: pk_gen.c

use crate::ct::opaque;
use crate::gf;
use crate::params::{Derived, ParameterSet};
use crate::vec;
use zeroize::Zeroize;

/// Words per augmented row for the H part (window columns included for `f`).
const fn a_words(mt: usize, semi: bool) -> usize {
    (mt + if semi { 32 } else { 0 }).div_ceil(64)
}

/// Chunks of 64 columns handled together by one bitsliced operation.
const LANES: usize = 8;

/// Bitsliced evaluation of 8 chunks of 64 columns from column `start`
/// (chunk l = columns start + 64 l ..): `alpha` gets the support elements
/// alpha_j and `v` gets 1/g(alpha_j) (spec §2.4.3: column j of H is
/// (1, alpha_j, ..., alpha_j^(t-1))^T / g(alpha_j)); columns at or past n
/// are zero in `v`.
fn eval_group<P: ParameterSet>(
    alpha: &mut vec::Vec<LANES>,
    v: &mut vec::Vec<LANES>,
    g: &[u16],
    support: &[u16],
    start: usize,
) {
    let (m, t, n) = (P::M, P::T, P::N);
    let mut valid = [0u64; LANES];
    for (lane, vl) in valid.iter_mut().enumerate() {
        let mut el = [0u16; 64];
        for (i, e) in el.iter_mut().enumerate() {
            let j = start + 64 * lane + i;
            if j < n {
                *e = support[j];
                *vl |= 1 << i;
            }
        }
        vec::from_elements::<P, LANES>(alpha, lane, &el);
    }
    // g(alpha) by Horner, g monic.
    let mut acc = vec::zero::<LANES>();
    acc[0] = [!0; LANES];
    let mut tmp = vec::zero::<LANES>();
    let mut gc = vec::zero::<LANES>();
    for &gi in g[..t].iter().rev() {
        vec::mul::<P, LANES>(&mut tmp, &acc, alpha);
        vec::splat::<P, LANES>(&mut gc, gi);
        for b in 0..m {
            for l in 0..LANES {
                acc[b][l] = tmp[b][l] ^ gc[b][l];
            }
        }
    }
    vec::inv::<P, LANES>(v, &acc);
    for w in v.iter_mut().take(m) {
        for (x, &vl) in w.iter_mut().zip(&valid) {
            *x &= vl;
        }
    }
    acc.zeroize();
    tmp.zeroize();
}

/// Writes the first `aw` words of every row of H (the columns of H_left,
/// plus the window for the `f` sets) into the augmented matrix `mat`.
fn write_h_left<P: ParameterSet>(mat: &mut [u8], rb: usize, aw: usize, g: &[u16], support: &[u16]) {
    let (m, t) = (P::M, P::T);
    let mut alpha = vec::zero::<LANES>();
    let mut v = vec::zero::<LANES>();
    let mut tmp = vec::zero::<LANES>();
    for grp in 0..aw.div_ceil(LANES) {
        eval_group::<P>(&mut alpha, &mut v, g, support, 64 * LANES * grp);
        let lanes = (aw - LANES * grp).min(LANES);
        for r in 0..t {
            for b in 0..m {
                let row = &mut mat[(r * m + b) * rb + 64 * grp..];
                for (dst, w) in row.chunks_exact_mut(8).zip(&v[b][..lanes]) {
                    dst.copy_from_slice(&w.to_le_bytes());
                }
            }
            if r + 1 < t {
                vec::mul::<P, LANES>(&mut tmp, &v, &alpha);
                v = tmp;
            }
        }
    }
    v.zeroize();
    tmp.zeroize();
}

/// T rows [s0, s1) = A rows times H_right (spec §2.4.3: T is the right part
/// of the systematic form), with A row i at `a[(i - s0) ab ..]`. H_right is
/// regenerated one row index r at a time (the m rows r m + b, bitsliced in
/// G groups of 8 chunks), and each T row gets sum_b A[i][r m + b] H[r m + b].
fn t_rows<P: ParameterSet, const G: usize>(
    t_out: &mut [u8],
    a: &[u8],
    ab: usize,
    s0: usize,
    s1: usize,
    g: &[u16],
    support: &[u16],
) {
    let (m, t, mt) = (P::M, P::T, P::MT);
    let rbytes = P::ROW_BYTES;
    let chunks = (P::N - mt).div_ceil(64);
    debug_assert!(chunks.div_ceil(LANES) <= G);
    let mut alpha = [vec::zero::<LANES>(); G];
    let mut v = [vec::zero::<LANES>(); G];
    let groups = chunks.div_ceil(LANES);
    for grp in 0..groups {
        eval_group::<P>(
            &mut alpha[grp],
            &mut v[grp],
            g,
            support,
            mt + 64 * LANES * grp,
        );
    }
    t_out[s0 * rbytes..s1 * rbytes].fill(0);
    let mut tmp = vec::zero::<LANES>();
    for r in 0..t {
        for i in s0..s1 {
            let arow = &a[(i - s0) * ab..(i - s0 + 1) * ab];
            let mut masks = [0u64; vec::MAX_M];
            // Bits r m .. r m + m of the A row (m <= 13 bits within 3 bytes).
            let k0 = r * m;
            let mut fb = [0u8; 4];
            let avail = (arow.len() - (k0 >> 3)).min(4);
            fb[..avail].copy_from_slice(&arow[k0 >> 3..(k0 >> 3) + avail]);
            let field = u32::from_le_bytes(fb) >> (k0 & 7);
            // The masks go straight to the vector kernel (through `opaque`
            // they took a store and a reload per row; the valgrind keygen
            // check confirms they stay masks).
            for (b, mk) in masks.iter_mut().enumerate().take(m) {
                *mk = u64::from((field >> b) & 1).wrapping_neg();
            }
            let row = &mut t_out[i * rbytes..(i + 1) * rbytes];
            let full_groups = rbytes >> 6;
            let (head, rest) = row.split_at_mut(64 * full_groups);
            let (head, _) = head.as_chunks_mut::<64>();
            for (bytes, vg) in head.iter_mut().zip(v.iter()) {
                let (ws, _) = bytes.as_chunks_mut::<8>();
                let mut x: [u64; LANES] = core::array::from_fn(|l| u64::from_le_bytes(ws[l]));
                for (vb, &mk) in vg.iter().zip(masks.iter()).take(m) {
                    for l in 0..LANES {
                        x[l] ^= mk & vb[l];
                    }
                }
                for (w, xl) in ws.iter_mut().zip(x) {
                    *w = xl.to_le_bytes();
                }
            }
            if !rest.is_empty() {
                let vg = &v[full_groups];
                let mut buf = [0u8; 8 * LANES];
                buf[..rest.len()].copy_from_slice(rest);
                let mut x: [u64; LANES] = core::array::from_fn(|l| {
                    u64::from_le_bytes(buf[8 * l..8 * l + 8].try_into().expect("8"))
                });
                for (vb, &mk) in vg.iter().zip(masks.iter()).take(m) {
                    for l in 0..LANES {
                        x[l] ^= mk & vb[l];
                    }
                }
                for l in 0..LANES {
                    buf[8 * l..8 * l + 8].copy_from_slice(&x[l].to_le_bytes());
                }
                rest.copy_from_slice(&buf[..rest.len()]);
            }
        }
        if r + 1 < t {
            for grp in 0..groups {
                vec::mul::<P, LANES>(&mut tmp, &v[grp], &alpha[grp]);
                v[grp] = tmp;
            }
        }
    }
    v.zeroize();
    tmp.zeroize();
}

fn load_window(row: &[u8], start: usize) -> u64 {
    let (b, sh) = (start >> 3, start & 7);
    let mut w = [0u8; 16];
    let len = (row.len() - b).min(9);
    w[..len].copy_from_slice(&row[b..b + len]);
    let v = u128::from_le_bytes(w);
    (v >> sh) as u64
}

fn store_window(row: &mut [u8], start: usize, x: u64) {
    let (b, sh) = (start >> 3, start & 7);
    let mut w = [0u8; 16];
    let len = (row.len() - b).min(9);
    w[..len].copy_from_slice(&row[b..b + len]);
    let mut v = u128::from_le_bytes(w);
    let mask = u128::from(u64::MAX) << sh;
    v = (v & !mask) | (u128::from(x) << sh);
    row[b..b + len].copy_from_slice(&v.to_le_bytes()[..len]);
}

/// Number of trailing zeros of a nonzero word, without a branch.
fn ctz(x: u64) -> u64 {
    let mut seen = 0u64;
    let mut r = 0u64;
    for i in 0..64 {
        let b = (x >> i) & 1;
        seen |= b;
        r += (seen ^ 1) & (b ^ 1);
    }
    r
}

/// Semi-systematic step (spec §2.4.3 with mu = 32, nu = 64): after mt - 32
/// pivots, find the pivot columns of the remaining 32 rows inside the
/// 64-column window starting at column mt - 32, then move them to the front of
/// the window, in the matrix and in the permutation pi. Returns `None` if the
/// window has rank below 32.
// ref: pk_gen.c (`mov_columns`)
fn mov_columns<P: ParameterSet>(mat: &mut [u8], rb: usize, pi: &mut [u16]) -> Option<u64> {
    let mt = P::MT;
    let row0 = mt - 32;
    let mut buf = [0u64; 32];
    for (i, w) in buf.iter_mut().enumerate() {
        *w = load_window(&mat[(row0 + i) * rb..(row0 + i + 1) * rb], row0);
    }
    let mut ctz_list = [0u64; 32];
    let mut pivots = 0u64;
    for i in 0..32 {
        let mut t = 0u64;
        for w in &buf[i..] {
            t |= w;
        }
        let mut zero = u64::from(t == 0);
        // Public by design (libmceliece `pk_gen`): a rank failure rejects this key.
        pqdr_ct::hook::declassify(&mut zero);
        if zero != 0 {
            return None;
        }
        let s = ctz(t);
        ctz_list[i] = s;
        // Column s as a one-hot word (a register shift) and the masks from
        // ANDs, each through `opaque`: LLVM turned `(buf[i] >> s) & 1` into a
        // branch, and into `bt` with a memory operand, whose address depends
        // on s (both found by the valgrind keygen check of 460896f).
        let col = opaque(1u64 << s);
        pivots |= col;
        for j in i + 1..32 {
            let m = opaque(!crate::ct::nonzero_mask_u64(buf[i] & col));
            buf[i] ^= buf[j] & m;
        }
        for j in i + 1..32 {
            let m = opaque(crate::ct::nonzero_mask_u64(buf[j] & col));
            buf[j] ^= buf[i] & m;
        }
    }
    // Permutation: swap pi[row0 + j] and pi[row0 + ctz_list[j]], j in order.
    for (j, &s) in ctz_list.iter().enumerate() {
        for k in j + 1..64 {
            let m = crate::ct::eq_mask_u16(k as u16, s as u16);
            let d = (pi[row0 + j] ^ pi[row0 + k]) & m;
            pi[row0 + j] ^= d;
            pi[row0 + k] ^= d;
        }
    }
    // Matrix: the same column swaps in every row.
    for row in mat.chunks_exact_mut(rb).take(mt) {
        let mut t = load_window(row, row0);
        for (j, &s) in ctz_list.iter().enumerate() {
            let d = ((t >> j) ^ (t >> s)) & 1;
            t ^= d << s;
            t ^= d << j;
        }
        store_window(row, row0, t);
    }
    Some(pivots)
}

/// Pivots per block of the elimination.
const BLOCK: usize = 8;

/// The largest mt of the sets (8192128: 13 x 128).
const MAX_MT: usize = 1664;

/// Bytes of the pivot-row buffers (the longest row of H_left, 8192128f: 216
/// bytes, rounded up to 16).
const QB: usize = 224;

/// The 64-bit word of `row` at byte offset `off`.
#[inline(always)]
fn word(row: &[u8], off: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&row[off..off + 8]);
    u64::from_le_bytes(b)
}

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
const QC: usize = QB >> 4;

/// The block's pivot rows, chunked: `q[j][c]` is one base register plus a
/// constant offset per row j and the running chunk offset, so the kernels
/// keep one pointer for all eight rows (eight slice iterators spilled).
type Pivots = [[Chunk; QC]; BLOCK];

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
    let n = dst.len().min(QC);
    for (c, x) in dst[..n].iter_mut().enumerate() {
        acc_chunk(x, q, c, m);
    }
}

/// `q[j] ^= src & m[j]` for every j: one source row is added to each pivot
/// row that takes it, in a single pass.
#[inline(always)]
fn spread(q: &mut Pivots, src: &[Chunk], m: &Masks) {
    let n = src.len().min(QC);
    for (c, u) in src[..n].iter().enumerate() {
        spread_chunk(q, c, u, m);
    }
}

/// [`spread`] for two source rows at once (each pivot-row chunk is loaded
/// and stored once for both).
#[inline(always)]
fn spread2(q: &mut Pivots, sa: &[Chunk], sb: &[Chunk], ma: &Masks, mb: &Masks) {
    let n = sa.len().min(sb.len()).min(QC);
    for c in 0..n {
        let (u, v) = (&sa[c], &sb[c]);
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

/// Rows of the block starting at pivot `r0` (up to 8 pivots inside one
/// 64-bit column word; for the `f` sets a block never crosses row mt - 32,
/// where the semi-systematic step runs).
const fn block_len_of(mt: usize, semi: bool, r0: usize) -> usize {
    let mut len = 64 - (r0 & 63);
    if BLOCK < len {
        len = BLOCK;
    }
    if mt - r0 < len {
        len = mt - r0;
    }
    if semi && r0 < mt - 32 && mt - 32 - r0 < len {
        len = mt - 32 - r0;
    }
    len
}

/// [`block_len_of`] for the set.
fn block_len<P: ParameterSet>(r0: usize) -> usize {
    block_len_of(P::MT, P::SEMI, r0)
}

/// Rows after a block's last pivot row where its fix-up rows are looked
/// for first (see [`eliminate`]).
const FIX_WINDOW: usize = 64;

/// End of the rows that fix up the pivot rows of the block at `r0`, unless
/// the block is marked far.
const fn fix_limit(mt: usize, r0: usize, len: usize) -> usize {
    let lim = r0 + len + FIX_WINDOW;
    if lim < mt { lim } else { mt }
}

/// Bytes one block's decisions take in the record (see [`eliminate`]):
/// `comb` (8 bytes), the far flag, one mask byte per row, one fix-up byte
/// per row after r0.
const fn block_record_bytes(mt: usize, r0: usize) -> usize {
    BLOCK + 1 + mt + (mt - r0 - 1)
}

/// The blocks of the set's elimination in order: first pivot r0, length,
/// and the bytes of its decisions in the record.
fn blocks<P: ParameterSet>() -> impl Iterator<Item = (usize, usize, core::ops::Range<usize>)> {
    let (mt, mut r0, mut off) = (P::MT, 0, 0);
    core::iter::from_fn(move || {
        (r0 < mt).then(|| {
            let (len, bytes) = (block_len::<P>(r0), block_record_bytes(mt, r0));
            let item = (r0, len, off..off + bytes);
            (r0, off) = (r0 + len, off + bytes);
            item
        })
    })
}

/// Bytes of the whole decision record.
const fn record_bytes_of(mt: usize, semi: bool) -> usize {
    let (mut r0, mut total) = (0, 0);
    while r0 < mt {
        total += block_record_bytes(mt, r0);
        r0 += block_len_of(mt, semi, r0);
    }
    total
}

/// The wide phase of one block of the elimination, on `mat` (mt rows of
/// `rb` bytes, worked on in bytes `w0 .. w1`): pivot rows `r0 .. r0 + len` are
/// built in `q` from the rows as the block found them, then every row from
/// `f0` on receives its combination of them. `fx[k - r0 - 1]`: the pivot
/// rows that row k fixes up (zero from row `fix_end` on); `bits[k]`: the
/// pivot rows that row k receives (for a pivot row, the later pivot rows of
/// the block); `comb[j]`: the earlier pivot rows that pivot row j receives.
///
/// The same decisions applied to the identity give A = H_left^-1 (see
/// [`replay`]).
///
/// Not generic and never inlined: compiled once in this crate, so the
/// kernels' register allocation does not depend on the crate and codegen
/// unit that instantiates the callers (inlined into a large benchmark
/// crate, the same loops spilled their row pointers and ran 30 % slower).
#[inline(never)]
#[allow(clippy::too_many_arguments, reason = "one block's decisions")]
fn wide_block(
    mat: &mut [u8],
    rb: usize,
    (w0, w1): (usize, usize),
    r0: usize,
    len: usize,
    fix_end: usize,
    f0: usize,
    q: &mut Pivots,
    fx: &[u8],
    bits: &[u8],
    comb: &[u8],
) {
    let mt = bits.len();
    let wc = (w1 - w0) >> 4;
    assert!(
        wc <= QC && w1 <= rb && fx.len() + r0 + 1 == mt && fix_end <= mt,
        "row width or record"
    );
    // Pivot rows as the block found them ...
    for (j, qj) in q.iter_mut().enumerate().take(len) {
        let row = &mat[(r0 + j) * rb..(r0 + j + 1) * rb];
        qj[..wc].copy_from_slice(row[w0..w1].as_chunks::<16>().0);
    }
    // ... plus their fix-up rows (rows r0 + 1 .. fix_end) ...
    let mut k = r0 + 1;
    while k + 1 < fix_end {
        let (ma, mb) = (lane_masks(fx[k - r0 - 1]), lane_masks(fx[k - r0]));
        let (ra, rbb) = mat[k * rb..(k + 2) * rb].split_at(rb);
        spread2(
            q,
            ra[w0..w1].as_chunks().0,
            rbb[w0..w1].as_chunks().0,
            &ma,
            &mb,
        );
        k += 2;
    }
    if k < fix_end {
        let m = lane_masks(fx[k - r0 - 1]);
        spread(q, mat[k * rb + w0..k * rb + w1].as_chunks().0, &m);
    }
    // ... plus, in order, their combinations of the earlier pivot rows.
    for (j, &cj) in comb.iter().enumerate().take(len).skip(1) {
        let (done, rest) = q.split_at_mut(j);
        let m = lane_masks(cj);
        let qj = &mut rest[0][..wc];
        for (qi, mi) in done.iter().zip(&m) {
            for (x, y) in qj.iter_mut().zip(&qi[..wc]) {
                for ((a, &b), &mb) in x.iter_mut().zip(y).zip(mi) {
                    *a ^= b & mb;
                }
            }
        }
    }
    for qj in q.iter_mut().skip(len) {
        qj[..wc].fill([0; 16]);
    }
    // Every row receives its combination of the pivot rows.
    // Pivot rows first take their finished value (then the later pivots).
    for (j, qj) in q.iter().enumerate().take(len) {
        let row = &mut mat[(r0 + j) * rb + w0..(r0 + j) * rb + w1];
        row.as_chunks_mut::<16>().0.copy_from_slice(&qj[..wc]);
    }
    fold_rows(mat, rb, (w0, w1), f0..mt, q, bits);
}

/// Rows `rows` of `mat` receive their combinations of the pivot rows `q`
/// (bytes `w0 .. w1`): row k the rows j with bit j of `bits[k]` set.
#[inline(always)]
fn fold_rows(
    mat: &mut [u8],
    rb: usize,
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
        fold_sources(mat[k * rb + w0..k * rb + w1].as_chunks_mut::<16>().0, q, &m);
    }
}

/// The upward half of the Gauss–Jordan elimination, deferred by
/// [`eliminate`] until the forward half has succeeded: block by block, in
/// order, the rows above the block receive its pivot rows (as the forward
/// pass left them: reduced among themselves, so row k takes pivot row j
/// exactly when its bit in column r0 + j is set). The record gets the same
/// operation in terms of the pivot rows at their own steps (the rows
/// [`replay`] rebuilds), mask u = u' + sum over j in u' of late[j].
#[inline(never)]
fn upward<P: ParameterSet>(mat: &mut [u8], rb: usize, record: &mut [u8]) {
    let mt = P::MT;
    let mut q: Pivots = [[[0; 16]; QC]; BLOCK];
    let mut ub = [0u8; MAX_MT];
    for (r0, len, at) in blocks::<P>().skip(1) {
        let um = &mut record[at][BLOCK + 1..BLOCK + 1 + mt];
        let (pwo, bit0) = ((r0 >> 6) << 3, r0 & 63);
        let lanes = ((1u16 << len) - 1) as u8;
        let late: [u8; BLOCK] = core::array::from_fn(|j| if j < len { um[r0 + j] } else { 0 });
        for (k, (u, up)) in um.iter_mut().zip(ub.iter_mut()).take(r0).enumerate() {
            let w = (word(&mat[k * rb..(k + 1) * rb], pwo) >> bit0) as u8 & lanes;
            *up = w;
            let mut x = w;
            for (j, &l) in late.iter().enumerate() {
                x ^= ((w >> j) & 1).wrapping_neg() & l;
            }
            *u = x;
        }
        let w0 = (r0 >> 7) << 4;
        let wc = (rb - w0) >> 4;
        for (j, qj) in q.iter_mut().enumerate() {
            if j < len {
                let row = &mat[(r0 + j) * rb + w0..(r0 + j + 1) * rb];
                qj[..wc].copy_from_slice(row.as_chunks::<16>().0);
            } else {
                qj[..wc].fill([0; 16]);
            }
        }
        fold_rows(mat, rb, (w0, rb), 0..r0, &q, &ub);
    }
    q.zeroize();
    ub.zeroize();
}

/// Gauss–Jordan elimination of H_left (mt rows of `rb` bytes: the first mt
/// columns of H, plus the window for the `f` sets), pivot in column r for
/// row r: when bit r of row r is zero the later rows are added to it until
/// it is one, then column r is cleared in every other row (spec §2.4.3 /
/// ref pk_gen.c, constant time). For the `f` sets the semi-systematic step
/// runs when row mt - 32 is reached. Returns the pivot word c, or `None` if
/// the key is rejected.
///
/// The identity half of the usual augmented matrix `[H_left | I]` is not
/// carried along: every row operation is written to `record` instead
/// ([`record_bytes_of`]), and [`replay`] applies them to the identity once
/// the elimination has succeeded. A rejected candidate (most are rejected
/// in their last columns: H_left is invertible with probability about
/// 0.29) so costs the narrow left half only, and of that only the forward
/// half: the rows above each block receive its pivot rows in [`upward`],
/// after the last pivot is found (a third less work per rejection).
///
/// Blocked, up to 8 pivots inside one 64-bit column word at a time. Every
/// decision of a block (which rows fix up which pivot row, which pivot rows
/// each row receives) depends only on the rows' 64-bit panel words, so it is
/// made first on those words alone. The wide work is then three passes
/// ([`wide_block`]): each later row is spread into the pivot rows that take
/// it (the rows as the block found them; the effect of the block's earlier
/// pivots on them is a combination of earlier pivot rows, added
/// afterwards), the pivot rows are completed in order, and every row
/// receives its combination of them.
///
/// Fix-up rows are looked for in the [`FIX_WINDOW`] rows after the block
/// first, and the spread pass reads only those; a block that needs rows
/// past the window (negligible probability unless H_left is singular) is
/// marked far in the record and spreads all later rows. The window also
/// bounds the columns [`replay`] works on.
#[inline(never)]
fn eliminate<P: ParameterSet>(
    mat: &mut [u8],
    rb: usize,
    record: &mut [u8],
    pi: &mut [u16],
    support: &mut [u16],
) -> Option<u64> {
    const WIN: usize = BLOCK + FIX_WINDOW;
    let mt = P::MT;
    let mut pivots = 0xFFFF_FFFFu64;
    let mut q: Pivots = [[[0; 16]; QC]; BLOCK];
    // The window rows' panel words and masks as the block's earlier pivots
    // leave them (index k - r0).
    let mut pw = [0u64; WIN];
    let mut wm = [0u8; WIN];
    // Each pivot row's panel word at its own step (what the rows after it
    // receive when their bit is set).
    let mut piv = [0u64; BLOCK];
    let mut rejected = false;
    for (r0, len, at) in blocks::<P>() {
        if P::SEMI && r0 == mt - 32 {
            let Some(c) = mov_columns::<P>(mat, rb, pi) else {
                rejected = true;
                break;
            };
            pivots = c;
            for i in mt - 32..mt + 32 {
                support[i] = gf::bitrev::<P>(pi[i]);
            }
        }
        let pwo = (r0 >> 6) << 3; // byte offset of the panel word
        let bit0 = r0 & 63;
        let row_word = |k: usize| word(&mat[k * rb..(k + 1) * rb], pwo);

        // Narrow phase: the decisions, from the panel words, straight into
        // this block's part of the record.
        let (comb_out, rest) = record[at].split_at_mut(BLOCK);
        let (far_out, rest) = rest.split_at_mut(1);
        let (um, fx) = rest.split_at_mut(mt);
        let lim = fix_limit(mt, r0, len);
        let mut far = false;
        fx.fill(0);
        for (k, (w, u)) in pw.iter_mut().zip(wm.iter_mut()).enumerate() {
            *w = if r0 + k < lim { row_word(r0 + k) } else { 0 };
            *u = 0;
        }
        piv.fill(0);
        let mut cur = [0u64; BLOCK]; // pivot rows' panel words as later pivots change them
        let mut comb = [0u8; BLOCK]; // earlier pivot rows added to pivot row j
        let mut late = [0u8; BLOCK]; // later pivot rows added to pivot row j
        for j in 0..len {
            let bp = bit0 + j;
            // Fix-up: while bit bp of the pivot row is zero, add the later
            // rows (as the earlier pivots left them).
            // Row k is added iff its bit bp is set and no earlier row (nor
            // the pivot row itself) had it: `seen` is the running OR.
            let mut accp = pw[j];
            let mut g = wm[j];
            let mut seen = (accp >> bp) & 1;
            let mut fix = |k: usize, w: u64, u: u8, seen: &mut u64| {
                let b = (w >> bp) & 1;
                let f = b & (*seen ^ 1);
                *seen |= b;
                accp ^= f.wrapping_neg() & w;
                g ^= (f as u8).wrapping_neg() & u;
                fx[k - r0 - 1] |= (f as u8) << j;
            };
            // The fix-up row is the first later row with bit bp set: within
            // the block and the FIX_WINDOW rows after it, except with
            // probability about 2^-64 for a pivot of a random-looking matrix.
            for kk in j + 1..lim - r0 {
                fix(r0 + kk, pw[kk], wm[kk], &mut seen);
            }
            let mut missing = seen ^ 1;
            // Declassified: whether the rows past the window are needed. It
            // is set when H_left is singular here (public: the key is
            // rejected) and otherwise with negligible probability; it lets
            // the wide work skip those rows and [`replay`] keep A's columns
            // past the window untouched.
            pqdr_ct::hook::declassify(&mut missing);
            if missing != 0 {
                far = true;
                for k in lim..mt {
                    let (w, u) = receive(row_word(k), &piv[..j], bit0);
                    fix(k, w, u, &mut seen);
                }
            }
            let mut singular = ((accp >> bp) & 1) ^ 1;
            // Public by design (spec §2.4.3 / libmceliece `pk_gen`): failure to
            // reach systematic form rejects this key; the candidate is discarded.
            pqdr_ct::hook::declassify(&mut singular);
            if singular != 0 {
                rejected = true;
                break;
            }
            piv[j] = accp;
            cur[j] = accp;
            comb[j] = g;
            // Column bp is cleared in the later window rows now (the rows
            // outside the window after the block).
            for (w, u) in pw[j + 1..lim - r0].iter_mut().zip(&mut wm[j + 1..lim - r0]) {
                let e = (*w >> bp) & 1;
                *w ^= e.wrapping_neg() & accp;
                *u |= (e as u8) << j;
            }
            for i in 0..j {
                let e = opaque((cur[i] >> bp) & 1);
                cur[i] ^= e.wrapping_neg() & accp;
                late[i] |= (e as u8) << j;
            }
        }
        if rejected {
            break;
        }
        // The rows after the window receive the pivot rows in order (the
        // rows above the block: in [`upward`]). Words shifted down to the
        // block's first column, all eight pivot words (zero past the block's
        // length; the lanes they give are masked off): a fixed-length loop.
        let sh: [u64; BLOCK] = core::array::from_fn(|j| piv[j] >> bit0);
        let lanes = ((1u16 << len) - 1) as u8;
        for (k, u) in um.iter_mut().enumerate().skip(lim) {
            *u = receive(row_word(k) >> bit0, &sh, 0).1 & lanes;
        }
        um[r0 + len..lim].copy_from_slice(&wm[len..lim - r0]);
        // A pivot row receives the later pivot rows of its block.
        um[r0..r0 + len].copy_from_slice(&late[..len]);
        comb_out.copy_from_slice(&comb);
        far_out[0] = u8::from(far);
        let w0 = (r0 >> 7) << 4;
        let fix_end = if far { mt } else { lim };
        let mat = &mut mat[..mt * rb];
        wide_block(
            mat,
            rb,
            (w0, rb),
            r0,
            len,
            fix_end,
            r0,
            &mut q,
            fx,
            um,
            &comb,
        );
    }
    q.zeroize();
    pw.zeroize();
    piv.zeroize();
    if rejected {
        return None;
    }
    upward::<P>(mat, rb, record);
    Some(pivots)
}

/// A row's panel word `w` after the block's first pivots `piv` (words at
/// their own steps, pivot j in bit `bit0 + j`), and the mask of those it
/// received.
#[inline(always)]
fn receive(mut w: u64, piv: &[u64], bit0: usize) -> (u64, u8) {
    let mut u = 0;
    for (j, &a) in piv.iter().enumerate() {
        let e = (w >> (bit0 + j)) & 1;
        w ^= e.wrapping_neg() & a;
        u |= (e as u8) << j;
    }
    (w, u)
}

/// A = H_left^-1: the identity (mt rows of `rb` bytes) goes through the
/// row operations that [`eliminate`] recorded, block by block.
#[inline(never)]
fn replay<P: ParameterSet>(mat: &mut [u8], rb: usize, record: &[u8]) {
    let mt = P::MT;
    let mat = &mut mat[..mt * rb];
    mat.fill(0);
    for r in 0..mt {
        mat[r * rb + (r >> 3)] |= 1 << (r & 7);
    }
    let mut q: Pivots = [[[0; 16]; QC]; BLOCK];
    // Every row operation so far used rows below `reach` only, so the
    // columns from `reach` on still hold the identity's: only the diagonal
    // of rows past `reach`, which no operation reads.
    let mut reach = 0;
    for (r0, len, at) in blocks::<P>() {
        let (comb, rest) = record[at].split_at(BLOCK);
        let (far, rest) = rest.split_at(1);
        let (bits, fx) = rest.split_at(mt);
        let fix_end = if far[0] != 0 {
            mt
        } else {
            fix_limit(mt, r0, len)
        };
        reach = reach.max(fix_end);
        let w1 = (reach.div_ceil(128) << 4).min(rb);
        wide_block(
            mat,
            rb,
            (0, w1),
            r0,
            len,
            fix_end,
            0,
            &mut q,
            fx,
            bits,
            comb,
        );
    }
    q.zeroize();
}

/// Bytes of A rows copied to the stack per pass of the T computation, for
/// sets with m = 12 (the 64 KiB keygen stack target of 348864: two passes
/// in all) and m = 13 (three or four passes instead of five or six, each
/// pass regenerating H_right, with the keygen peak stack below 120 KB:
/// `tests/stack.rs`).
const A_BUF_M12: usize = 24 * 1024;
const A_BUF_M13: usize = 52 * 1024;

/// [`t_rows`] with the group count of the set (one instantiation each).
fn t_stage<P: ParameterSet>(
    t_out: &mut [u8],
    a: &[u8],
    ab: usize,
    s0: usize,
    s1: usize,
    g: &[u16],
    support: &[u16],
) {
    if (P::N - P::MT).div_ceil(64 * LANES) <= 6 {
        t_rows::<P, 6>(t_out, a, ab, s0, s1, g, support);
    } else {
        t_rows::<P, 13>(t_out, a, ab, s0, s1, g, support);
    }
}

/// Computes every row of T from A (mt rows of `ab16` bytes at the end of
/// pk), after packing A's rows to `8 iw` bytes (separate frame, so its stack
/// buffer is not live during the elimination).
#[inline(never)]
fn t_all<P: ParameterSet, const A_BUF: usize>(
    pk: &mut [u8],
    ab16: usize,
    iw: usize,
    g: &[u16],
    support: &[u16],
) {
    let (mt, row_bytes) = (P::MT, P::ROW_BYTES);
    // A rows packed to ab bytes at the end of pk, last row first (each row
    // moves up, never over a row still to be moved).
    let ab = 8 * iw;
    let a_base = pk.len() - mt * ab;
    if ab != ab16 {
        let base = pk.len() - mt * ab16;
        for r in (0..mt).rev() {
            let src = base + r * ab16;
            pk.copy_within(src..src + ab, a_base + r * ab);
        }
    }
    // T rows whose bytes end before A are computed in one pass; the others in
    // passes over a copy of their A rows (T row i never reaches A row i + 1).
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "public sizes of the set"
    )]
    let split = a_base / row_bytes;
    {
        let (t_out, a) = pk.split_at_mut(a_base);
        t_stage::<P>(t_out, a, ab, 0, split, g, support);
    }
    let mut abuf = [0u8; A_BUF];
    // A_BUF / ab by repeated subtraction: ab is a public size but not a
    // compile-time constant here, and the CI division scan rejects any
    // hardware division in our sources.
    let mut per = 0;
    while (per + 1) * ab <= A_BUF {
        per += 1;
    }
    let mut s0 = split;
    while s0 < mt {
        let s1 = (s0 + per).min(mt);
        let len = (s1 - s0) * ab;
        abuf[..len].copy_from_slice(&pk[a_base + s0 * ab..a_base + s1 * ab]);
        t_stage::<P>(pk, &abuf[..len], ab, s0, s1, g, support);
        s0 = s1;
    }
    abuf.zeroize();
}

/// Where key generation keeps its work in the public-key buffer: H_left (or
/// A after it) at the end, the elimination's record just before.
struct Layout {
    /// Bytes per row of H_left (a multiple of 16).
    lb: usize,
    /// Bytes per row of A (a multiple of 16).
    ab16: usize,
    /// Bytes at the end of pk for H_left, then A.
    tail: usize,
    /// Bytes of the record.
    record: usize,
}

impl Layout {
    /// The work layout of the set with mt rows (`semi`: an `f` set).
    const fn of(mt: usize, semi: bool) -> Self {
        let lb = (8 * a_words(mt, semi)).next_multiple_of(16);
        let ab16 = (8 * mt.div_ceil(64)).next_multiple_of(16);
        Layout {
            lb,
            ab16,
            tail: mt * if lb > ab16 { lb } else { ab16 },
            record: record_bytes_of(mt, semi),
        }
    }

    /// Whether it fits a public-key buffer of `pk_bytes` and the pivot-row
    /// buffers.
    const fn fits(&self, pk_bytes: usize) -> bool {
        self.tail + self.record <= pk_bytes && self.lb <= QB && self.ab16 <= QB
    }
}

/// Builds the public key into `pk` from the Goppa polynomial `g` (t low
/// coefficients) and the permutation `pi` (length 2^m; the `f` sets may
/// change it). `support` is scratch of length n. Returns the pivot word c
/// (0xFFFFFFFF for the systematic sets), or `None` if this key is rejected.
///
/// Memory: no mt x n matrix is built, nor [H_left | I]: H_left and the
/// record of the elimination live in the caller's public-key buffer, then A
/// in place of H_left, then T overwrites all of it.
pub(crate) fn pk_gen<P: ParameterSet>(
    pk: &mut [u8],
    g: &[u16],
    pi: &mut [u16],
    support: &mut [u16],
) -> Option<u64> {
    let (mt, n) = (P::MT, P::N);
    let aw = a_words(mt, P::SEMI);
    // Checked at compile time for every set: the record and H_left fit
    // the key buffer (64–94 % of it), the rows fit the pivot buffers.
    let lay = const {
        let lay = Layout::of(P::MT, P::SEMI);
        assert!(lay.fits(P::PK_BYTES) && P::MT <= MAX_MT);
        lay
    };
    debug_assert_eq!(pk.len(), P::PK_BYTES);

    for (l, &p) in support.iter_mut().zip(pi.iter()).take(n) {
        *l = gf::bitrev::<P>(p);
    }

    let split = pk.len() - lay.tail;
    let (head, tail) = pk.split_at_mut(split);
    let record = &mut head[split - lay.record..];
    let left = &mut tail[lay.tail - mt * lay.lb..];
    left.fill(0);
    write_h_left::<P>(left, lay.lb, aw, g, support);

    let pivots = eliminate::<P>(left, lay.lb, record, pi, support)?;
    replay::<P>(&mut tail[lay.tail - mt * lay.ab16..], lay.ab16, record);

    if P::M == 12 {
        t_all::<P, A_BUF_M12>(pk, lay.ab16, mt.div_ceil(64), g, support);
    } else {
        t_all::<P, A_BUF_M13>(pk, lay.ab16, mt.div_ceil(64), g, support);
    }
    Some(pivots)
}

#[cfg(all(test, feature = "mceliece348864"))]
mod tests {
    use super::*;
    use crate::params::Mceliece348864 as P;

    /// Straightforward Gauss–Jordan of spec §2.4.3, one pivot at a time.
    fn naive(mat: &mut [u8], rb: usize, mt: usize) -> bool {
        for r in 0..mt {
            for k in r + 1..mt {
                if (mat[r * rb + (r >> 3)] >> (r & 7)) & 1 == 0 {
                    for b in 0..rb {
                        let x = mat[k * rb + b];
                        mat[r * rb + b] ^= x;
                    }
                }
            }
            if (mat[r * rb + (r >> 3)] >> (r & 7)) & 1 == 0 {
                return false;
            }
            for k in 0..mt {
                if k != r && (mat[k * rb + (r >> 3)] >> (r & 7)) & 1 == 1 {
                    for b in 0..rb {
                        let x = mat[r * rb + b];
                        mat[k * rb + b] ^= x;
                    }
                }
            }
        }
        true
    }

    /// Blocks of a record whose fix-up rows reach past the window.
    fn far_blocks(record: &[u8]) -> usize {
        blocks::<P>()
            .map(|(_, _, at)| usize::from(record[at.start + BLOCK]))
            .sum()
    }

    /// [`eliminate`] then [`replay`] on the augmented test matrix [H_left | I]
    /// (rows of 192 bytes, halves of 96): returns [I | A], or `None`.
    fn invert(aug: &[u8; 768 * 192]) -> Option<[u8; 768 * 192]> {
        invert_far(aug).map(|(out, _)| out)
    }

    /// [`invert`], also counting the far blocks of the record.
    fn invert_far(aug: &[u8; 768 * 192]) -> Option<([u8; 768 * 192], usize)> {
        let (mt, rb, half) = (768, 192, 96);
        let mut left = [0u8; 768 * 96];
        for r in 0..mt {
            left[r * half..(r + 1) * half].copy_from_slice(&aug[r * rb..r * rb + half]);
        }
        let mut record = [0u8; 112 * 1024];
        assert!(record_bytes_of(P::MT, P::SEMI) <= record.len());
        let mut pi = [0u16; 4096];
        let mut support = [0u16; 3488];
        eliminate::<P>(&mut left, half, &mut record, &mut pi, &mut support)?;
        let mut a = [0u8; 768 * 96];
        replay::<P>(&mut a, half, &record);
        let mut out = [0u8; 768 * 192];
        for r in 0..mt {
            out[r * rb..r * rb + half].copy_from_slice(&left[r * half..(r + 1) * half]);
            out[r * rb + half..(r + 1) * rb].copy_from_slice(&a[r * half..(r + 1) * half]);
        }
        Some((out, far_blocks(&record)))
    }

    #[test]
    fn naive_sanity() {
        let (mt, rb) = (768, 192);
        let mut mat = [0u8; 768 * 192];
        for r in 0..mt {
            mat[r * rb + (r >> 3)] |= 1 << (r & 7);
            mat[r * rb + 96 + (r >> 3)] |= 1 << (r & 7);
        }
        let mut a = mat;
        assert!(naive(&mut a, rb, mt), "identity");
        // upper triangular with ones on the diagonal
        let mut s = 99u64;
        for r in 0..mt {
            for b in (r >> 3) + 1..96 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                mat[r * rb + b] = s as u8;
            }
        }
        let mut a = mat;
        assert!(naive(&mut a, rb, mt), "upper");
        assert!(invert(&mat) == Some(a), "upper, blocked");
    }

    #[test]
    fn blocked_elimination_matches_naive() {
        let mt = P::MT;
        let aw = a_words(mt, false);
        let rb = 192;
        let mut s = 0x1234_5678_9abc_def0u64;
        for case in 0..4 {
            // Draw until the matrix has the wanted outcome (a random square
            // matrix is invertible with probability about 0.29).
            let mut mat = [0u8; 768 * 192];
            for _ in 0..100 {
                mat.fill(0);
                for r in 0..mt {
                    for b in 0..aw * 8 {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        // xorshift64* (the plain xorshift bits are GF(2)-linear
                        // in the seed and would give a low-rank matrix).
                        mat[r * rb + b] = (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8;
                    }
                    mat[r * rb + aw * 8 + (r >> 3)] |= 1 << (r & 7);
                }
                if case == 1 {
                    // A dependent row: the elimination must fail.
                    for b in 0..aw * 8 {
                        mat[700 * rb + b] = mat[3 * rb + b] ^ mat[650 * rb + b];
                    }
                }
                if case == 2 {
                    // Sparse leading columns: many fix-ups.
                    for r in 0..mt {
                        if r & 3 != 0 {
                            mat[r * rb] &= 0xF0;
                        }
                    }
                }
                if case == 3 {
                    // Column 100 set in row 700 only: pivot 100 is fixed up
                    // by a row far past the window.
                    for r in 0..mt {
                        mat[r * rb + 12] &= !0x10;
                    }
                    mat[700 * rb + 12] |= 0x10;
                }
                let mut probe = mat;
                if naive(&mut probe, rb, mt) == (case != 1) {
                    break;
                }
            }
            let mut want = mat;
            let ok = naive(&mut want, rb, mt);
            assert_eq!(ok, case != 1, "case {case}: the test matrix itself");
            let got = invert_far(&mat);
            assert_eq!(got.is_some(), ok, "case {case}");
            if let Some((got, far)) = got {
                assert!(got == want, "case {case}");
                assert_eq!(far > 0, case == 3, "case {case}: far blocks");
            }
        }
    }
}
