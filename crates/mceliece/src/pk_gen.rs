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

use crate::ct::{bit, opaque};
use crate::gf;
use crate::params::{Derived, Params};
use crate::vec;
use zeroize::Zeroize;

/// Words per augmented row for the H part (window columns included for `f`).
const fn a_words(mt: usize, semi: bool) -> usize {
    (mt + if semi { 32 } else { 0 }).div_ceil(64)
}

/// Bytes of one augmented row: H part then identity part (a multiple of 16).
pub(crate) const fn aug_row_bytes(mt: usize, semi: bool) -> usize {
    ((a_words(mt, semi) + mt.div_ceil(64)) * 8).next_multiple_of(16)
}

/// Writes columns [start, start + 64) of H (rows r m + b = bit b of
/// alpha_j^r / g(alpha_j)) as mt words, lane l = column start + l; columns
/// at or past n are zero.
fn column_chunk<P: Params>(out: &mut [u64], g: &[u16], support: &[u16], start: usize) {
    let (m, t, n) = (P::M, P::T, P::N);
    let mut el = [0u16; 64];
    let mut valid = 0u64;
    for (lane, e) in el.iter_mut().enumerate() {
        if start + lane < n {
            *e = support[start + lane];
            valid |= 1 << lane;
        }
    }
    let mut a = vec::zero::<1>();
    vec::from_elements::<P, 1>(&mut a, 0, &el);
    // g(alpha) by Horner, g monic.
    let mut acc = vec::zero::<1>();
    acc[0] = [!0];
    let mut tmp = vec::zero::<1>();
    let mut gc = vec::zero::<1>();
    for &gi in g[..t].iter().rev() {
        vec::mul::<P, 1>(&mut tmp, &acc, &a);
        vec::splat::<P, 1>(&mut gc, gi);
        for b in 0..m {
            acc[b][0] = tmp[b][0] ^ gc[b][0];
        }
    }
    let mut v = vec::zero::<1>();
    vec::inv::<P, 1>(&mut v, &acc);
    for r in 0..t {
        for b in 0..m {
            out[r * m + b] = v[b][0] & valid;
        }
        if r + 1 < t {
            vec::mul::<P, 1>(&mut tmp, &v, &a);
            v = tmp;
        }
    }
}

/// dst ^= src & m (m is 0 or all ones; equal lengths, multiples of 16).
#[inline(always)]
fn xor_masked(dst: &mut [u8], src: &[u8], m: u64) {
    let mb = m as u8;
    let (d, _) = dst.as_chunks_mut::<16>();
    let (s, _) = src.as_chunks::<16>();
    for (x, y) in d.iter_mut().zip(s) {
        for (a, b) in x.iter_mut().zip(y) {
            *a ^= b & mb;
        }
    }
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
fn mov_columns<P: Params>(mat: &mut [u8], rb: usize, pi: &mut [u16]) -> Option<u64> {
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
        pivots |= 1u64 << s;
        for j in i + 1..32 {
            let m = ((buf[i] >> s) & 1).wrapping_sub(1);
            buf[i] ^= buf[j] & m;
        }
        for j in i + 1..32 {
            let m = ((buf[j] >> s) & 1).wrapping_neg();
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

/// Builds the public key into `pk` from the Goppa polynomial `g` (t low
/// coefficients) and the permutation `pi` (length 2^m; the `f` sets may
/// change it). `support` is scratch of length n. Returns the pivot word c
/// (0xFFFFFFFF for the systematic sets), or `None` if this key is rejected.
pub(crate) fn pk_gen<P: Params>(
    pk: &mut [u8],
    g: &[u16],
    pi: &mut [u16],
    support: &mut [u16],
) -> Option<u64> {
    let (mt, n) = (P::MT, P::N);
    let aw = a_words(mt, P::SEMI);
    let iw = mt.div_ceil(64);
    let rb = aug_row_bytes(mt, P::SEMI);
    let row_bytes = P::ROW_BYTES;
    const { assert!(aug_row_bytes(13 * 128, true) <= 628) };
    debug_assert!(rb <= row_bytes);
    let base = pk.len() - mt * rb;

    for (l, &p) in support.iter_mut().zip(pi.iter()).take(n) {
        *l = gf::bitrev::<P>(p);
    }

    // [H_left | I] in the tail of pk.
    let mut words = [0u64; 13 * 128];
    {
        let mat = &mut pk[base..];
        mat.fill(0);
        for c in 0..aw {
            column_chunk::<P>(&mut words[..mt], g, support, 64 * c);
            for (r, w) in words[..mt].iter().enumerate() {
                mat[r * rb + 8 * c..r * rb + 8 * c + 8].copy_from_slice(&w.to_le_bytes());
            }
        }
        for r in 0..mt {
            mat[r * rb + aw * 8 + (r >> 3)] |= 1 << (r & 7);
        }
    }

    // Gauss–Jordan elimination, pivot in column r for row r.
    let mut pivots = 0xFFFF_FFFFu64;
    for r in 0..mt {
        let mat = &mut pk[base..base + mt * rb];
        if P::SEMI && r == mt - 32 {
            pivots = mov_columns::<P>(mat, rb, pi)?;
            for i in mt - 32..mt + 32 {
                support[i] = gf::bitrev::<P>(pi[i]);
            }
        }
        let (cb, sh) = (r >> 3, r & 7);
        // Columns below r are zero in every row this step adds, so the row
        // operations can start at the 16-byte block holding column r.
        let w0 = (r >> 7) << 4;
        for k in r + 1..mt {
            let (head, tail) = mat.split_at_mut(k * rb);
            let row_r = &mut head[r * rb..(r + 1) * rb];
            let row_k = &tail[..rb];
            let m = opaque(u64::from((!row_r[cb] & row_k[cb]) >> sh & 1).wrapping_neg());
            xor_masked(&mut row_r[w0..], &row_k[w0..], m);
        }
        let mut singular = bit(&mat[r * rb..(r + 1) * rb], r) ^ 1;
        // Public by design (spec §2.4.3 / libmceliece `pk_gen`): failure to reach
        // systematic form rejects this key; the candidate is discarded.
        pqdr_ct::hook::declassify(&mut singular);
        if singular != 0 {
            return None;
        }
        for k in 0..mt {
            if k == r {
                continue;
            }
            let (row_k, row_r) = if k < r {
                let (head, tail) = mat.split_at_mut(r * rb);
                (&mut head[k * rb..(k + 1) * rb], &tail[..rb])
            } else {
                let (head, tail) = mat.split_at_mut(k * rb);
                (&mut tail[..rb], &head[r * rb..(r + 1) * rb])
            };
            let m = opaque(u64::from(row_k[cb] >> sh & 1).wrapping_neg());
            xor_masked(&mut row_k[w0..], &row_r[w0..], m);
        }
    }

    // T = A H_right, 64 rows at a time, written from the front of pk.
    let tcols = n - mt;
    let chunks = tcols.div_ceil(64);
    // A rows of the current block, transposed: ainv_t[w * 64 + i] = word w of row i.
    let mut ainv_t = [0u64; 26 * 64];
    let mut r0 = 0;
    while r0 < mt {
        let rows = (mt - r0).min(64);
        ainv_t.fill(0);
        for i in 0..rows {
            let off = base + (r0 + i) * rb + aw * 8;
            for w in 0..iw {
                let mut b = [0u8; 8];
                b.copy_from_slice(&pk[off + 8 * w..off + 8 * w + 8]);
                ainv_t[w * 64 + i] = u64::from_le_bytes(b);
            }
        }
        for c in 0..chunks {
            column_chunk::<P>(&mut words[..mt], g, support, mt + 64 * c);
            // acc[i] = sum_k A[r0 + i][k] H_right[k][64c .. 64c + 64]
            let mut acc = [0u64; 64];
            for w in 0..iw {
                let col: &[u64; 64] = ainv_t[w * 64..w * 64 + 64].try_into().expect("64");
                for (b, &x) in words[64 * w..(64 * w + 64).min(mt)].iter().enumerate() {
                    for (a, &cw) in acc.iter_mut().zip(col.iter()) {
                        *a ^= x & ((cw >> b) & 1).wrapping_neg();
                    }
                }
            }
            let len = (row_bytes - 8 * c).min(8);
            for (i, a) in acc.iter().enumerate().take(rows) {
                let dst = (r0 + i) * row_bytes + 8 * c;
                pk[dst..dst + len].copy_from_slice(&a.to_le_bytes()[..len]);
            }
        }
        r0 += rows;
    }
    ainv_t.zeroize();
    words.zeroize();
    Some(pivots)
}
