//! Differential tests of key generation's AVX2 kernels (`crate::arch`,
//! feature `simd`, x86-64) against their portable twins: random and edge
//! inputs (masks of no and of every pivot row, fields of no and of every
//! plane, row widths with and without a 16-byte tail, T rows with and
//! without a partial last group, pivot-row masks of every bit and of
//! byte runs with and without a tail, window rows with the first pivot
//! bit in any lane or in none, or in the pivot row; the Goppa polynomial of
//! rejected and random f), outputs compared bit for bit. The whole
//! elimination on the AVX2 path (invertible, rank-deficient and far-fix-up
//! matrices) is checked against a naive one by `eliminate`'s tests, and key
//! generation of every set by the KATs on both paths.

use super::eliminate::{WIN, Window, window_clear, window_fix};
use super::matrix::LANES;
use super::rows::{Pivots, ZERO_PIVOTS, fold_rows_with, recv_masks_with};
use super::t_stage::t_row_with;
use crate::arch::avx2;
use crate::params::{Derived, MAX_T, Mceliece348864, Mceliece460896, ParameterSet};
use crate::test_util::xorshift;
use crate::vec::zero;

/// xorshift64* (the plain xorshift bits are GF(2)-linear in the seed).
fn rnd(s: &mut u64) -> u64 {
    xorshift(s).wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[test]
fn avx2_fold_rows_match_portable() {
    let Some(token) = avx2() else {
        return;
    };
    const STRIDE: usize = 224; // 8192128f's H_left rows
    const ROWS: usize = 40;
    let mut s = 0x0123_4567_89AB_CDEFu64;
    for case in 0..64 {
        let mut mat = [0u8; ROWS * STRIDE];
        for x in mat.iter_mut() {
            *x = rnd(&mut s) as u8;
        }
        let mut q: Pivots = ZERO_PIVOTS;
        for row in q.iter_mut() {
            for c in row.iter_mut() {
                for x in c.iter_mut() {
                    *x = rnd(&mut s) as u8;
                }
            }
        }
        let mut bits = [0u8; ROWS];
        for (k, b) in bits.iter_mut().enumerate() {
            // Edges first: no pivot row, every pivot row, one pivot row.
            *b = match k {
                0 => 0,
                1 => 0xFF,
                2..=9 => 1 << (k - 2),
                _ => rnd(&mut s) as u8,
            };
        }
        // Widths of an even and an odd number of 16-byte chunks, from
        // byte 0 (the replay) or from a block's first chunk to the end.
        let w0 = 16 * (case % 5);
        let w1 = match case % 4 {
            0 => STRIDE,
            1 => w0 + 16,
            2 => w0 + 48,
            _ => w0 + 16 * ((rnd(&mut s) as usize % ((STRIDE - w0) >> 4)) + 1),
        };
        let rows = (case % 3)..ROWS - (case % 2);
        let mut want = mat;
        fold_rows_with(&mut want, STRIDE, (w0, w1), rows.clone(), &q, &bits, None);
        fold_rows_with(&mut mat, STRIDE, (w0, w1), rows, &q, &bits, Some(token));
        assert!(mat == want, "case {case}: w = {w0}..{w1}");
    }
}

#[test]
fn avx2_recv_masks_match_portable() {
    let Some(token) = avx2() else {
        return;
    };
    let mut s = 0x7777_0123_CAFE_0003u64;
    // Lengths: empty, shorter than a register, one register with and
    // without a tail, the longest (8192128f's rows after a block).
    for (case, len) in [0usize, 1, 31, 32, 33, 64, 95, 1663]
        .into_iter()
        .enumerate()
    {
        for l in 0..12 {
            // `late` of no, of every and of one later pivot row, random,
            // and strictly upper triangular as the elimination makes it.
            let late: [u8; 8] = core::array::from_fn(|j| match l {
                0 => 0,
                1 => 0xFF,
                2 => 1 << (7 - j),
                3..=6 => rnd(&mut s) as u8,
                _ => (rnd(&mut s) as u8) & !((2u16 << j) - 1) as u8,
            });
            let mut bytes = [0u8; 1663];
            for (k, x) in bytes[..len].iter_mut().enumerate() {
                // Edges first: no bit, every bit, each single bit.
                *x = match k {
                    0 => 0,
                    1 => 0xFF,
                    2..=9 => 1 << (k - 2),
                    _ => rnd(&mut s) as u8,
                };
            }
            let mut want = bytes;
            recv_masks_with(&mut want[..len], &late, None);
            recv_masks_with(&mut bytes[..len], &late, Some(token));
            assert_eq!(bytes[..len], want[..len], "case {case}: late {late:?}");
        }
    }
}

#[test]
fn avx2_window_matches_portable() {
    let mut s = 0x3141_5926_5358_9793u64;
    let Some(token) = avx2() else {
        return;
    };
    for case in 0..400 {
        let j = case % 8;
        let pivot_bit = match case % 5 {
            0 => 0,
            1 => 63,
            2 => j,
            _ => rnd(&mut s) as usize % 64,
        };
        let mut win: Window = [[0; WIN]; 3];
        // Rows past a window that ends early are zero.
        let end = if case % 3 == 0 {
            WIN - (rnd(&mut s) as usize % 40)
        } else {
            WIN
        };
        for (row, mask) in win.iter_mut().zip([u64::MAX, 0xFF, 0xFF]) {
            for x in row[..end].iter_mut() {
                *x = rnd(&mut s) & mask;
            }
        }
        // The pivot column: sparse, so the first row with the bit falls in
        // any lane (or in none: the pivot is missing from the window).
        for w in win[0][..end].iter_mut() {
            let bit = match case % 4 {
                0 => 0,
                1 => u64::from(rnd(&mut s).is_multiple_of(97)),
                2 => u64::from(rnd(&mut s).is_multiple_of(9)),
                _ => rnd(&mut s) & 1,
            };
            *w = (*w & !(1 << pivot_bit)) | (bit << pivot_bit);
        }
        if case % 7 == 0 {
            // The pivot row has the bit itself: no fix-up.
            win[0][j] |= 1 << pivot_bit;
        }
        let mut want_win = win;
        let want = window_fix(&mut want_win, (j, pivot_bit), None);
        let got = window_fix(&mut win, (j, pivot_bit), Some(token));
        assert!(
            got == want && win == want_win,
            "case {case}: fix-up, j {j}, bit {pivot_bit}"
        );
        window_clear(&mut want_win, (j, pivot_bit), want[0], None);
        window_clear(&mut win, (j, pivot_bit), want[0], Some(token));
        assert!(
            win == want_win,
            "case {case}: clearing, j {j}, bit {pivot_bit}"
        );
    }
}

fn t_rows_case<P: ParameterSet>(seed: u64) {
    let Some(token) = avx2() else {
        return;
    };
    const G: usize = 13;
    let mut s = seed;
    let mut v = [zero::<LANES>(); G];
    for vg in v.iter_mut() {
        for plane in vg.iter_mut().take(P::M) {
            for w in plane.iter_mut() {
                *w = rnd(&mut s);
            }
        }
    }
    let full: u32 = (1 << P::M) - 1;
    // Row lengths of the sets' T rows (348864: 340 bytes, 460896: 264,
    // 6688128: 628, 6960119: 677, 8192128: 816), partial last groups of
    // 1, 8 and 15 whole words (masked) and of 17 bytes (copied), and every
    // group full.
    for len in [340usize, 264, 628, 677, 816, 4, 96, 60, 17, 64 * G] {
        for f in 0..40u32 {
            let field = match f {
                0 => 0,
                1 => full,
                2..=14 => (1 << (f - 2)) & full,
                _ => rnd(&mut s) as u32 & full,
            };
            let mut row = [0u8; 64 * G];
            for x in row[..len].iter_mut() {
                *x = rnd(&mut s) as u8;
            }
            let mut want = row;
            t_row_with::<P, G>(&mut want[..len], &v, field, None);
            t_row_with::<P, G>(&mut row[..len], &v, field, Some(token));
            assert!(row == want, "m = {}, len {len}, field {field:#x}", P::M);
        }
    }
}

#[test]
fn avx2_t_row_matches_portable() {
    t_rows_case::<Mceliece348864>(0x5555_AAAA_1234_0001);
    t_rows_case::<Mceliece460896>(0x9999_1111_4321_0002);
}

/// The Goppa polynomial (`arch::genpoly_gen`, `sk_gen::minimal_poly`
/// compiled with AVX2) against the portable `sk_gen::genpoly_gen`: result
/// and g, for f = 0 and a constant f (rejected: degree below t), f with
/// every coefficient all-ones, a single top coefficient, and random f.
fn genpoly_case<P: ParameterSet>(seed: u64) {
    let Some(token) = avx2() else {
        return;
    };
    let (t, mask) = (P::T, P::GF_MASK);
    let mut s = seed;
    let mut accepted = 0;
    for case in 0..24 {
        let mut f = [0u16; MAX_T];
        match case {
            0 => {}
            1 => f[0] = 1,
            2 => f[0] = mask,
            3 => f[..t].fill(mask),
            4 => f[t - 1] = 1,
            5 => f[t - 1] = mask,
            _ => f[..t]
                .iter_mut()
                .for_each(|x| *x = rnd(&mut s) as u16 & mask),
        }
        let (mut want, mut got) = ([0xAAAAu16; MAX_T], [0xAAAAu16; MAX_T]);
        let ok_want = crate::sk_gen::genpoly_gen::<P>(&mut want, &f[..t]);
        let ok_got = crate::arch::genpoly_gen::<P>(token, &mut got, &f[..t]);
        assert_eq!(ok_got, ok_want, "m = {}, case {case}", P::M);
        assert!(got == want, "m = {}, case {case}", P::M);
        accepted += usize::from(ok_want);
        if case < 3 {
            assert!(!ok_want, "a constant f has degree 1 < t");
        }
    }
    assert!(accepted >= 16, "random f are almost always accepted");
}

#[test]
fn avx2_genpoly_matches_portable() {
    genpoly_case::<Mceliece348864>(0x7777_0000_1357_0003);
    genpoly_case::<Mceliece460896>(0x3333_0000_2468_0004);
}
