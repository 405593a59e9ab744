//! The semi-systematic column moves of the `f` sets (Classic McEliece spec
//! §2.4.3 with (mu, nu) = (32, 64)): when the elimination reaches row
//! mt - 32, the pivots of the last 32 rows are looked for in the 64 columns
//! from mt - 32 on and moved to the front of that window, in H_left and in
//! the permutation pi.

use crate::ct::{eq_mask_u16, nonzero_mask_u64, opaque};
use crate::params::{Derived, ParameterSet};

/// The 64 bits of `row` from bit `start` on (the window columns).
fn load_window(row: &[u8], start: usize) -> u64 {
    let (b, sh) = (start >> 3, start & 7);
    let mut w = [0u8; 16];
    let len = (row.len() - b).min(9);
    w[..len].copy_from_slice(&row[b..b + len]);
    let v = u128::from_le_bytes(w);
    (v >> sh) as u64
}

/// Writes `x` over the 64 bits of `row` from bit `start` on.
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

/// Semi-systematic step (Classic McEliece spec §2.4.3 with mu = 32, nu = 64): after mt - 32
/// pivots, find the pivot columns of the remaining 32 rows inside the
/// 64-column window starting at column mt - 32, then move them to the front of
/// the window, in the matrix and in the permutation pi. Returns `None` if the
/// window has rank below 32.
// ref: pk_gen.c (`mov_columns`)
pub(super) fn mov_columns<P: ParameterSet>(
    mat: &mut [u8],
    stride: usize,
    pi: &mut [u16],
) -> Option<u64> {
    let mt = P::MT;
    let row0 = mt - 32;
    let mut buf = [0u64; 32];
    for (i, w) in buf.iter_mut().enumerate() {
        *w = load_window(&mat[(row0 + i) * stride..(row0 + i + 1) * stride], row0);
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
        pqdr_ctgrind::hook::declassify(&mut zero);
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
            let m = opaque(!nonzero_mask_u64(buf[i] & col));
            buf[i] ^= buf[j] & m;
        }
        for j in i + 1..32 {
            let m = opaque(nonzero_mask_u64(buf[j] & col));
            buf[j] ^= buf[i] & m;
        }
    }
    // Permutation: swap pi[row0 + j] and pi[row0 + ctz_list[j]], j in order.
    for (j, &s) in ctz_list.iter().enumerate() {
        for k in j + 1..64 {
            let m = eq_mask_u16(k as u16, s as u16);
            let d = (pi[row0 + j] ^ pi[row0 + k]) & m;
            pi[row0 + j] ^= d;
            pi[row0 + k] ^= d;
        }
    }
    // Matrix: the same column swaps in every row.
    for row in mat.chunks_exact_mut(stride).take(mt) {
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
