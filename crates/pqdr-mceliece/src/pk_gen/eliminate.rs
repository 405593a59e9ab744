//! Blocked Gauss–Jordan elimination of H_left (Classic McEliece spec
//! §2.4.3: reduction to systematic form, with the semi-systematic step of
//! the `f` sets), recorded: every row operation is written to a record in
//! the key buffer instead of being applied to an identity beside H_left, and
//! [`replay`] applies the record to the identity once the elimination has
//! succeeded, giving A = H_left^-1.

use super::MAX_MT;
use super::rows::{BLOCK, Pivots, ZERO_PIVOTS, fold_rows, recv_masks, wide_block};
use super::semi::mov_columns;
use crate::arch::{self, Avx2};
use crate::ct::opaque;
use crate::gf;
use crate::params::{Derived, ParameterSet};
use zeroize::Zeroize;

/// The 64-bit word of `row` at byte offset `off`.
#[inline(always)]
fn word(row: &[u8], off: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&row[off..off + 8]);
    u64::from_le_bytes(b)
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
    let window_end = r0 + len + FIX_WINDOW;
    if window_end < mt { window_end } else { mt }
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
pub(super) const fn record_bytes_of(mt: usize, semi: bool) -> usize {
    let (mut r0, mut total) = (0, 0);
    while r0 < mt {
        total += block_record_bytes(mt, r0);
        r0 += block_len_of(mt, semi, r0);
    }
    total
}

/// The upward half of the Gauss–Jordan elimination, deferred by
/// [`eliminate`] until the forward half has succeeded: block by block, in
/// order, the rows above the block receive its pivot rows (as the forward
/// pass left them: reduced among themselves, so row k takes pivot row j
/// exactly when its bit in column r0 + j is set). The record gets the same
/// operation in terms of the pivot rows at their own steps (the rows
/// [`replay`] rebuilds), mask u = u' + sum over j in u' of `late[j]`.
#[inline(never)]
fn upward<P: ParameterSet>(mat: &mut [u8], stride: usize, record: &mut [u8]) {
    let mt = P::MT;
    let mut q: Pivots = ZERO_PIVOTS;
    let mut above = [0u8; MAX_MT];
    for (r0, len, at) in blocks::<P>().skip(1) {
        let recv = &mut record[at][BLOCK + 1..BLOCK + 1 + mt];
        let (panel_off, bit0) = ((r0 >> 6) << 3, r0 & 63);
        let lanes = ((1u16 << len) - 1) as u8;
        let late: [u8; BLOCK] = core::array::from_fn(|j| if j < len { recv[r0 + j] } else { 0 });
        for (k, (u, up)) in recv.iter_mut().zip(above.iter_mut()).take(r0).enumerate() {
            let w = (word(&mat[k * stride..(k + 1) * stride], panel_off) >> bit0) as u8 & lanes;
            *up = w;
            *u = w;
        }
        recv_masks(&mut recv[..r0], &late);
        let w0 = (r0 >> 7) << 4;
        let wc = (stride - w0) >> 4;
        for (j, qj) in q.iter_mut().enumerate() {
            if j < len {
                let row = &mat[(r0 + j) * stride + w0..(r0 + j + 1) * stride];
                qj[..wc].copy_from_slice(row.as_chunks::<16>().0);
            } else {
                qj[..wc].fill([0; 16]);
            }
        }
        fold_rows(mat, stride, (w0, stride), 0..r0, &q, &above);
    }
    q.zeroize();
    above.zeroize();
}

/// Gauss–Jordan elimination of H_left (mt rows of `stride` bytes: the first mt
/// columns of H, plus the window for the `f` sets), pivot in column r for
/// row r: when bit r of row r is zero the later rows are added to it until
/// it is one, then column r is cleared in every other row (Classic McEliece spec §2.4.3 /
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
pub(super) fn eliminate<P: ParameterSet>(
    mat: &mut [u8],
    stride: usize,
    record: &mut [u8],
    pi: &mut [u16],
    support: &mut [u16],
) -> Option<u64> {
    let mt = P::MT;
    let mut pivots = 0xFFFF_FFFFu64;
    let mut q: Pivots = ZERO_PIVOTS;
    // The window rows' panel words, masks received and fix-up masks as the
    // block's earlier pivots leave them (see [`Window`]).
    let mut win: Window = [[0; WIN]; 3];
    // Each pivot row's panel word at its own step (what the rows after it
    // receive when their bit is set).
    let mut pivot_words = [0u64; BLOCK];
    let mut rejected = false;
    for (r0, len, at) in blocks::<P>() {
        if P::SEMI && r0 == mt - 32 {
            let Some(c) = mov_columns::<P>(mat, stride, pi) else {
                rejected = true;
                break;
            };
            pivots = c;
            for i in mt - 32..mt + 32 {
                support[i] = gf::bitrev::<P>(pi[i]);
            }
        }
        let panel_off = (r0 >> 6) << 3; // byte offset of the panel word
        let bit0 = r0 & 63;
        let row_word = |k: usize| word(&mat[k * stride..(k + 1) * stride], panel_off);

        // Narrow phase: the decisions, from the panel words, straight into
        // this block's part of the record.
        let (comb_out, rest) = record[at].split_at_mut(BLOCK);
        let (far_out, rest) = rest.split_at_mut(1);
        let (recv, fixups) = rest.split_at_mut(mt);
        let window_end = fix_limit(mt, r0, len);
        let mut far = false;
        fixups.fill(0);
        for (k, w) in win[WORDS].iter_mut().enumerate() {
            *w = if r0 + k < window_end {
                row_word(r0 + k)
            } else {
                0
            };
        }
        win[RECV].fill(0);
        win[FIX].fill(0);
        pivot_words.fill(0);
        let mut cur = [0u64; BLOCK]; // pivot rows' panel words as later pivots change them
        let mut comb = [0u8; BLOCK]; // earlier pivot rows added to pivot row j
        let mut late = [0u8; BLOCK]; // later pivot rows added to pivot row j
        for j in 0..len {
            let pivot_bit = bit0 + j;
            // Fix-up: while bit pivot_bit of the pivot row is zero, add the later
            // rows (as the earlier pivots left them).
            // The fix-up row is the first later row with bit pivot_bit set: within
            // the block and the FIX_WINDOW rows after it, except with
            // probability about 2^-64 for a pivot of a random-looking matrix.
            let [mut pivot_acc, comb_acc, mut seen] =
                window_fix(&mut win, (j, pivot_bit), arch::avx2());
            let mut comb_acc = comb_acc as u8;
            // Past the window, as in [`window_fix_portable`].
            let mut fix = |k: usize, w: u64, u: u8, seen: &mut u64| {
                let b = (w >> pivot_bit) & 1;
                let f = b & (*seen ^ 1);
                *seen |= b;
                pivot_acc ^= f.wrapping_neg() & w;
                comb_acc ^= (f as u8).wrapping_neg() & u;
                fixups[k - r0 - 1] |= (f as u8) << j;
            };
            let mut missing = seen ^ 1;
            // Declassified: whether the rows past the window are needed. It
            // is set when H_left is singular here (public: the key is
            // rejected) and otherwise with negligible probability; it lets
            // the wide work skip those rows and [`replay`] keep A's columns
            // past the window untouched.
            pqdr_ctgrind::hook::declassify(&mut missing);
            if missing != 0 {
                far = true;
                for k in window_end..mt {
                    let (w, u) = receive(row_word(k), &pivot_words[..j], bit0);
                    fix(k, w, u, &mut seen);
                }
            }
            let mut singular = ((pivot_acc >> pivot_bit) & 1) ^ 1;
            // Public by design (Classic McEliece spec §2.4.3 / libmceliece `pk_gen`): failure to
            // reach systematic form rejects this key; the candidate is discarded.
            pqdr_ctgrind::hook::declassify(&mut singular);
            if singular != 0 {
                rejected = true;
                break;
            }
            pivot_words[j] = pivot_acc;
            cur[j] = pivot_acc;
            comb[j] = comb_acc;
            // Column pivot_bit is cleared in the later window rows now (the rows
            // outside the window after the block).
            window_clear(&mut win, (j, pivot_bit), pivot_acc, arch::avx2());
            for i in 0..j {
                let e = opaque((cur[i] >> pivot_bit) & 1);
                cur[i] ^= e.wrapping_neg() & pivot_acc;
                late[i] |= (e as u8) << j;
            }
        }
        if rejected {
            break;
        }
        // The rows after the window receive the pivot rows (the rows above
        // the block: in [`upward`]): their masks from their bits in the
        // block's columns, as they are (no pivot row of the block has
        // touched them), and `late` ([`recv_masks`]; `late[j]` is zero for
        // j >= len, and the bits past the block are masked off).
        let lanes = ((1u16 << len) - 1) as u8;
        for (k, u) in recv.iter_mut().enumerate().skip(window_end) {
            *u = (row_word(k) >> bit0) as u8 & lanes;
        }
        recv_masks(&mut recv[window_end..], &late);
        for (u, &v) in recv[r0 + len..window_end].iter_mut().zip(&win[RECV][len..]) {
            *u = v as u8;
        }
        for (f, &v) in fixups[..window_end - r0 - 1].iter_mut().zip(&win[FIX][1..]) {
            *f = v as u8;
        }
        // A pivot row receives the later pivot rows of its block.
        recv[r0..r0 + len].copy_from_slice(&late[..len]);
        comb_out.copy_from_slice(&comb);
        far_out[0] = u8::from(far);
        let w0 = (r0 >> 7) << 4;
        let fix_end = if far { mt } else { window_end };
        let mat = &mut mat[..mt * stride];
        wide_block(
            mat,
            stride,
            (w0, stride),
            r0,
            len,
            fix_end,
            r0,
            &mut q,
            fixups,
            recv,
            &comb,
        );
    }
    q.zeroize();
    win.zeroize();
    pivot_words.zeroize();
    if rejected {
        return None;
    }
    upward::<P>(mat, stride, record);
    Some(pivots)
}

/// Rows of a block's window: the block and the [`FIX_WINDOW`] rows after it.
pub(super) const WIN: usize = BLOCK + FIX_WINDOW;

/// A block's window rows (index k - r0, zero past the window) as its
/// earlier pivots leave them: `[WORDS]` their panel words, `[RECV]` the
/// pivot rows each received and `[FIX]` the pivot rows each fixes up (masks
/// in the low byte).
pub(super) type Window = [[u64; WIN]; 3];
/// Rows of [`Window`].
const WORDS: usize = 0;
/// Rows of [`Window`].
const RECV: usize = 1;
/// Rows of [`Window`].
const FIX: usize = 2;

/// The fix-up of pivot j (in column `pivot_bit`) in a block's window
/// (Classic McEliece spec §2.4.3: while the pivot row's bit is zero, the
/// later rows are added to it): row kk > j is added iff its bit is set and
/// no earlier row (nor the pivot row itself) had it; bit j of its `[FIX]`
/// is set. Returns the pivot row's panel word and mask after the fix-up,
/// and whether a row with the bit was found (1) or not (0). With AVX2, four
/// rows per register (`arch::window_fix`), else [`window_fix_portable`].
#[inline(always)]
pub(super) fn window_fix(win: &mut Window, pivot: (usize, usize), t: Option<Avx2>) -> [u64; 3] {
    match t {
        Some(token) => arch::window_fix(token, win, pivot),
        None => window_fix_portable(win, pivot),
    }
}

/// The portable twin of `arch::window_fix`: [`window_fix`] a row at a time,
/// `seen` the running OR of the rows' bits.
#[inline(always)]
pub(super) fn window_fix_portable(win: &mut Window, (j, pivot_bit): (usize, usize)) -> [u64; 3] {
    let [words, recv, fix] = win;
    let (mut pivot_acc, mut comb_acc) = (words[j], recv[j]);
    let mut seen = (pivot_acc >> pivot_bit) & 1;
    for ((&w, &u), x) in words
        .iter()
        .zip(recv.iter())
        .zip(fix.iter_mut())
        .skip(j + 1)
    {
        let b = (w >> pivot_bit) & 1;
        let f = b & (seen ^ 1);
        seen |= b;
        pivot_acc ^= f.wrapping_neg() & w;
        comb_acc ^= f.wrapping_neg() & u;
        *x |= f << j;
    }
    [pivot_acc, comb_acc, seen]
}

/// Column `pivot_bit` cleared in the window rows after pivot j (Classic
/// McEliece spec §2.4.3): each row kk > j with the bit set receives the
/// pivot row's panel word `pivot_acc`, and bit j of its `[RECV]`. With
/// AVX2, four rows per register (`arch::window_clear`), else
/// [`window_clear_portable`].
#[inline(always)]
pub(super) fn window_clear(win: &mut Window, pivot: (usize, usize), acc: u64, t: Option<Avx2>) {
    match t {
        Some(token) => arch::window_clear(token, win, pivot, acc),
        None => window_clear_portable(win, pivot, acc),
    }
}

/// The portable twin of `arch::window_clear`: [`window_clear`] a row at a
/// time.
#[inline(always)]
pub(super) fn window_clear_portable(win: &mut Window, (j, pivot_bit): (usize, usize), acc: u64) {
    let [words, recv, _] = win;
    for (w, u) in words[j + 1..].iter_mut().zip(&mut recv[j + 1..]) {
        let e = (*w >> pivot_bit) & 1;
        *w ^= e.wrapping_neg() & acc;
        *u |= e << j;
    }
}

/// A row's panel word `w` after the block's first pivots `pivot_words` (words at
/// their own steps, pivot j in bit `bit0 + j`), and the mask of those it
/// received.
#[inline(always)]
fn receive(mut w: u64, pivot_words: &[u64], bit0: usize) -> (u64, u8) {
    let mut u = 0;
    for (j, &a) in pivot_words.iter().enumerate() {
        let e = (w >> (bit0 + j)) & 1;
        w ^= e.wrapping_neg() & a;
        u |= (e as u8) << j;
    }
    (w, u)
}

/// A = H_left^-1: the identity (mt rows of `stride` bytes) goes through the
/// row operations that [`eliminate`] recorded, block by block.
#[inline(never)]
pub(super) fn replay<P: ParameterSet>(mat: &mut [u8], stride: usize, record: &[u8]) {
    let mt = P::MT;
    let mat = &mut mat[..mt * stride];
    mat.fill(0);
    for r in 0..mt {
        mat[r * stride + (r >> 3)] |= 1 << (r & 7);
    }
    let mut q: Pivots = ZERO_PIVOTS;
    // Every row operation so far used rows below `reach` only, so the
    // columns from `reach` on still hold the identity's: only the diagonal
    // of rows past `reach`, which no operation reads.
    let mut reach = 0;
    for (r0, len, at) in blocks::<P>() {
        let (comb, rest) = record[at].split_at(BLOCK);
        let (far, rest) = rest.split_at(1);
        let (bits, fixups) = rest.split_at(mt);
        let fix_end = if far[0] != 0 {
            mt
        } else {
            fix_limit(mt, r0, len)
        };
        reach = reach.max(fix_end);
        let w1 = (reach.div_ceil(128) << 4).min(stride);
        wide_block(
            mat,
            stride,
            (0, w1),
            r0,
            len,
            fix_end,
            0,
            &mut q,
            fixups,
            bits,
            comb,
        );
    }
    q.zeroize();
}

#[cfg(all(test, feature = "mceliece348864"))]
mod tests {
    use super::*;
    use crate::params::Mceliece348864 as P;

    /// Straightforward Gauss–Jordan of Classic McEliece spec §2.4.3, one pivot at a time.
    fn naive(mat: &mut [u8], stride: usize, mt: usize) -> bool {
        for r in 0..mt {
            for k in r + 1..mt {
                if (mat[r * stride + (r >> 3)] >> (r & 7)) & 1 == 0 {
                    for b in 0..stride {
                        let x = mat[k * stride + b];
                        mat[r * stride + b] ^= x;
                    }
                }
            }
            if (mat[r * stride + (r >> 3)] >> (r & 7)) & 1 == 0 {
                return false;
            }
            for k in 0..mt {
                if k != r && (mat[k * stride + (r >> 3)] >> (r & 7)) & 1 == 1 {
                    for b in 0..stride {
                        let x = mat[r * stride + b];
                        mat[k * stride + b] ^= x;
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
        let (mt, stride, half) = (768, 192, 96);
        let mut left = [0u8; 768 * 96];
        for r in 0..mt {
            left[r * half..(r + 1) * half].copy_from_slice(&aug[r * stride..r * stride + half]);
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
            out[r * stride..r * stride + half].copy_from_slice(&left[r * half..(r + 1) * half]);
            out[r * stride + half..(r + 1) * stride].copy_from_slice(&a[r * half..(r + 1) * half]);
        }
        Some((out, far_blocks(&record)))
    }

    #[test]
    fn naive_sanity() {
        let (mt, stride) = (768, 192);
        let mut mat = [0u8; 768 * 192];
        for r in 0..mt {
            mat[r * stride + (r >> 3)] |= 1 << (r & 7);
            mat[r * stride + 96 + (r >> 3)] |= 1 << (r & 7);
        }
        let mut a = mat;
        assert!(naive(&mut a, stride, mt), "identity");
        // upper triangular with ones on the diagonal
        let mut s = 99u64;
        for r in 0..mt {
            for b in (r >> 3) + 1..96 {
                mat[r * stride + b] = crate::test_util::xorshift(&mut s) as u8;
            }
        }
        let mut a = mat;
        assert!(naive(&mut a, stride, mt), "upper");
        assert!(invert(&mat) == Some(a), "upper, blocked");
    }

    #[test]
    fn blocked_elimination_matches_naive() {
        let mt = P::MT;
        let aw = mt.div_ceil(64); // 64-bit words of H_left columns per row
        let stride = 192;
        let mut s = 0x1234_5678_9abc_def0u64;
        for case in 0..4 {
            // Draw until the matrix has the wanted outcome (a random square
            // matrix is invertible with probability about 0.29).
            let mut mat = [0u8; 768 * 192];
            for _ in 0..100 {
                mat.fill(0);
                for r in 0..mt {
                    for b in 0..aw * 8 {
                        let s = crate::test_util::xorshift(&mut s);
                        // xorshift64* (the plain xorshift bits are GF(2)-linear
                        // in the seed and would give a low-rank matrix).
                        mat[r * stride + b] = (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8;
                    }
                    mat[r * stride + aw * 8 + (r >> 3)] |= 1 << (r & 7);
                }
                if case == 1 {
                    // A dependent row: the elimination must fail.
                    for b in 0..aw * 8 {
                        mat[700 * stride + b] = mat[3 * stride + b] ^ mat[650 * stride + b];
                    }
                }
                if case == 2 {
                    // Sparse leading columns: many fix-ups.
                    for r in 0..mt {
                        if r & 3 != 0 {
                            mat[r * stride] &= 0xF0;
                        }
                    }
                }
                if case == 3 {
                    // Column 100 set in row 700 only: pivot 100 is fixed up
                    // by a row far past the window.
                    for r in 0..mt {
                        mat[r * stride + 12] &= !0x10;
                    }
                    mat[700 * stride + 12] |= 0x10;
                }
                let mut probe = mat;
                if naive(&mut probe, stride, mt) == (case != 1) {
                    break;
                }
            }
            let mut want = mat;
            let ok = naive(&mut want, stride, mt);
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
