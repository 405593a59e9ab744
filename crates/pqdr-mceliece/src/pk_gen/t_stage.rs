//! The T stage of key generation (Classic McEliece spec §2.4.3: T is the
//! right part of the systematic form [I_mt | T] = A H with A = H_left^-1):
//! T = A H_right, computed in passes of rows over A, each pass regenerating
//! H_right 64 columns at a time, T written from the front of the public-key
//! buffer while A is read from its end.

use super::matrix::{LANES, eval_group, mul8};
use crate::arch::{self, Avx2};
use crate::params::{Derived, MAX_M, ParameterSet};
use crate::vec;
use zeroize::Zeroize;

/// T rows `rows` = A rows times H_right (Classic McEliece spec §2.4.3: T is the right part
/// of the systematic form), with A row i at `a[(i - rows.start) a_stride ..]`. H_right is
/// regenerated one row index r at a time (the m rows r m + b, bitsliced in
/// G groups of 8 chunks), and each T row gets sum_b A[i][r m + b] H[r m + b].
fn t_rows<P: ParameterSet, const G: usize>(
    t_out: &mut [u8],
    a: &[u8],
    a_stride: usize,
    rows: core::ops::Range<usize>,
    g: &[u16],
    support: &[u16],
) {
    let (m, t, mt) = (P::M, P::T, P::MT);
    let (s0, s1) = (rows.start, rows.end);
    let row_bytes = P::ROW_BYTES;
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
    t_out[s0 * row_bytes..s1 * row_bytes].fill(0);
    let token = arch::avx2();
    let mut tmp = vec::zero::<LANES>();
    for r in 0..t {
        for i in s0..s1 {
            let arow = &a[(i - s0) * a_stride..(i - s0 + 1) * a_stride];
            // Bits r m .. r m + m of the A row (m <= 13 bits within 3 bytes).
            let k0 = r * m;
            // Four bytes where the row has them (all but its last bits:
            // a fixed-size read, no `memcpy` call), else the bytes left.
            let at = k0 >> 3;
            let fb: [u8; 4] = match arow.get(at..at + 4) {
                Some(w) => w.try_into().expect("4 bytes"),
                None => {
                    let mut fb = [0u8; 4];
                    fb[..arow.len() - at].copy_from_slice(&arow[at..]);
                    fb
                }
            };
            let field = (u32::from_le_bytes(fb) >> (k0 & 7)) & ((1 << m) - 1);
            let row = &mut t_out[i * row_bytes..(i + 1) * row_bytes];
            t_row_with::<P, G>(row, &v, field, token);
        }
        if r + 1 < t {
            for grp in 0..groups {
                mul8::<P>(&mut tmp, &v[grp], &alpha[grp]);
                v[grp] = tmp;
            }
        }
    }
    v.zeroize();
    tmp.zeroize();
}

/// One T row receives sum_b (bit b of `field`) H_right[r m + b], the m
/// planes of `v` (columns 512 g .. 512 g + 512 in `v[g]`): with AVX2 by
/// `arch::t_row`, else by [`t_row_portable`].
#[inline(always)]
pub(super) fn t_row_with<P: ParameterSet, const G: usize>(
    row: &mut [u8],
    v: &[vec::Bitsliced<LANES>; G],
    field: u32,
    token: Option<Avx2>,
) {
    if let Some(token) = token {
        arch::t_row(token, P::M, row, v, field);
    } else {
        t_row_portable::<P, G>(row, v, field);
    }
}

/// The portable twin of `arch::t_row` (Classic McEliece spec §2.4.3,
/// T = A H_right): 64-bit words under masks.
#[inline(always)]
pub(super) fn t_row_portable<P: ParameterSet, const G: usize>(
    row: &mut [u8],
    v: &[vec::Bitsliced<LANES>; G],
    field: u32,
) {
    let m = P::M;
    let mut masks = [0u64; MAX_M];
    // The masks go straight to the vector kernel (through `opaque` they
    // took a store and a reload per row; the valgrind keygen check
    // confirms they stay masks).
    for (b, mk) in masks.iter_mut().enumerate().take(m) {
        *mk = u64::from((field >> b) & 1).wrapping_neg();
    }
    let full_groups = row.len() >> 6;
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

/// Bytes of A rows copied to the stack per pass of the T computation, for
/// sets with m = 12 (the 64 KiB keygen stack target of 348864: two passes
/// in all) and m = 13 (three or four passes instead of five or six, each
/// pass regenerating H_right, with the keygen peak stack below 120 KB:
/// `tests/stack.rs`).
const A_BUF_M12: usize = 24 * 1024;
const A_BUF_M13: usize = 52 * 1024;

/// Computes every row of T into `pk` from A (mt rows of `a_stride` bytes at
/// the end of pk): the T stage of MatGen (Classic McEliece spec §2.4.3).
pub(super) fn t_from_a<P: ParameterSet>(
    pk: &mut [u8],
    a_stride: usize,
    g: &[u16],
    support: &[u16],
) {
    if P::M == 12 {
        t_all::<P, A_BUF_M12>(pk, a_stride, g, support);
    } else {
        t_all::<P, A_BUF_M13>(pk, a_stride, g, support);
    }
}

/// [`t_from_a`] with `A_BUF` bytes of A copied per pass, after packing A's
/// rows to whole 64-bit words (separate frame, so its stack buffer is not
/// live during the elimination).
#[inline(never)]
fn t_all<P: ParameterSet, const A_BUF: usize>(
    pk: &mut [u8],
    a_stride: usize,
    g: &[u16],
    support: &[u16],
) {
    let (mt, row_bytes) = (P::MT, P::ROW_BYTES);
    // A rows packed to `packed` bytes (mt bits rounded up to 64) at the end
    // of pk, last row first (each row moves up, never over a row still to
    // be moved).
    let packed = 8 * mt.div_ceil(64);
    let a_base = pk.len() - mt * packed;
    if packed != a_stride {
        let base = pk.len() - mt * a_stride;
        for r in (0..mt).rev() {
            let src = base + r * a_stride;
            pk.copy_within(src..src + packed, a_base + r * packed);
        }
    }
    // One instantiation of [`t_rows`] per set, with its group count.
    let t_stage = |t_out: &mut [u8], a: &[u8], rows: core::ops::Range<usize>| {
        if (P::N - P::MT).div_ceil(64 * LANES) <= 6 {
            t_rows::<P, 6>(t_out, a, packed, rows, g, support);
        } else {
            t_rows::<P, 13>(t_out, a, packed, rows, g, support);
        }
    };
    // T rows whose bytes end before A are computed in one pass; the others in
    // passes over a copy of their A rows (T row i never reaches A row i + 1).
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "public sizes of the set"
    )]
    let split = a_base / row_bytes; // ct: public division
    {
        let (t_out, a) = pk.split_at_mut(a_base);
        t_stage(t_out, a, 0..split);
    }
    let mut a_copy = [0u8; A_BUF];
    // A_BUF / packed by repeated subtraction: packed is a public size but not a
    // compile-time constant here, and the CI division scan rejects any
    // hardware division in our sources.
    let mut rows_per_pass = 0;
    while (rows_per_pass + 1) * packed <= A_BUF {
        rows_per_pass += 1;
    }
    let mut s0 = split;
    while s0 < mt {
        let s1 = (s0 + rows_per_pass).min(mt);
        let len = (s1 - s0) * packed;
        a_copy[..len].copy_from_slice(&pk[a_base + s0 * packed..a_base + s1 * packed]);
        t_stage(pk, &a_copy[..len], s0..s1);
        s0 = s1;
    }
    a_copy.zeroize();
}
