//! Fixed-base scalar multiplication `d·G` on P-256 (the public key of
//! SEC 1 v2 §3.2.1 / the ECDH key share) with a table of multiples of the
//! generator G (SP 800-186 §3.2.1.3).
//!
//! The scalar `d < 2^256` is written in 65 signed radix-16 digits
//! `e_i ∈ [−8, 8]`, `d = Σ e_i·16^i` (the 65th is the carry out of the top
//! nibble, 0 or 1). With the table entry `T[j][m − 1] = m·256^j·G`
//! (`m = 1 … 8`, `j = 0 … 32`; `tools/gen_p256_table.py`),
//! `d·G = 16·Σ_j e_{2j+1}·256^j·G + Σ_j e_{2j}·256^j·G`: 65 mixed additions
//! (RCB 2016 Algorithm 5), 4 doublings (Algorithm 6) and one inversion.
//!
//! Constant time: the digits are computed without branches; each addition
//! reads all eight entries of its (public) row and keeps the one whose
//! index equals `|e_i|` by masks, negates `y` by a mask if `e_i < 0`, and
//! for `e_i = 0` (no affine identity) adds whatever was selected and keeps
//! the previous sum by a mask.

use zeroize::Zeroize;

use super::field::{Arith, Fe};
use super::{Affine, Point, abs_sign, add_affine, double, eq_mask};

/// Rows of the table: `256^j·G` for `j = 0 … 32` (row 32 for the carry
/// digit `e_64`).
const ROWS: usize = 33;

/// Limbs of one entry: `x`, `y`, four limbs each (Montgomery form).
const ENTRY: usize = 8;

/// The table file: `33 × 8` entries of 8 little-endian `u64` limbs.
const TABLE_BYTES: &[u8; ROWS * 8 * ENTRY * 8] = include_bytes!("base_table.bin");

/// `T[j][m − 1] = m·256^j·G` as affine `(x, y)` in Montgomery form.
static TABLE: [[[u64; ENTRY]; 8]; ROWS] = decode(TABLE_BYTES);

/// The table file's bytes as limbs, at compile time.
const fn decode(b: &[u8; ROWS * 8 * ENTRY * 8]) -> [[[u64; ENTRY]; 8]; ROWS] {
    let mut t = [[[0u64; ENTRY]; 8]; ROWS];
    let mut j = 0;
    while j < ROWS {
        let mut m = 0;
        while m < 8 {
            let mut l = 0;
            while l < ENTRY {
                let o = ((j * 8 + m) * ENTRY + l) * 8;
                t[j][m][l] = u64::from_le_bytes([
                    b[o],
                    b[o + 1],
                    b[o + 2],
                    b[o + 3],
                    b[o + 4],
                    b[o + 5],
                    b[o + 6],
                    b[o + 7],
                ]);
                l += 1;
            }
            m += 1;
        }
        j += 1;
    }
    t
}

/// The signed radix-16 digits of `d < 2^256`: nibbles, then each digit
/// above 7 carried into the next (`e − 16`, carry 1), without branches;
/// the carry out of the top nibble is `e_64` (the 66th slot stays 0).
fn digits_w4(d: &[u64; 4]) -> [i8; 66] {
    let mut e = [0i8; 66];
    for (i, ei) in e.iter_mut().take(64).enumerate() {
        let nib = (d[i >> 4] >> (4 * (i & 15))) & 15;
        *ei = i8::from_ne_bytes([nib.to_ne_bytes()[0]]);
    }
    let mut carry = 0i8;
    for d in e.iter_mut().take(64) {
        *d += carry;
        carry = (*d + 8) >> 4;
        *d -= carry << 4;
    }
    e[64] = carry;
    e
}

/// `e·256^j·G` for `e ∈ [−8, 8] \ {0}` from row `j`, and the mask "e = 0"
/// (all ones), in which case the point returned is not on the curve and
/// must not be kept.
#[inline(always)]
fn select(row: &[[u64; ENTRY]; 8], e: i8) -> (Affine, u64) {
    let (abs, neg) = abs_sign(e);
    let mut r = [0u64; ENTRY];
    for (m, entry) in (1u64..).zip(row) {
        let eq = eq_mask(abs, m);
        for (ri, ei) in r.iter_mut().zip(entry) {
            *ri = (*ri & !eq) | (ei & eq);
        }
    }
    let x = Fe([r[0], r[1], r[2], r[3]]);
    let y = Fe([r[4], r[5], r[6], r[7]]);
    r.zeroize();
    let ny = y.neg();
    let a = Affine {
        x,
        y: Fe::select(neg, &ny, &y),
    };
    (a, eq_mask(abs, 0))
}

/// `r + e·256^j·G`, keeping `r` if `e = 0`.
#[inline(always)]
fn add_digit<A: Arith>(ar: A, r: &Point, row: &[[u64; ENTRY]; 8], e: i8) -> Point {
    let (mut q, zero) = select(row, e);
    let s = add_affine(ar, r, &q);
    q.x.0.zeroize();
    q.y.0.zeroize();
    Point::select(zero, r, &s)
}

/// `d·G` for `d < 2^256` (little-endian limbs), projective. The working
/// values are wiped.
pub(crate) fn mul_base<A: Arith>(ar: A, d: &[u64; 4]) -> Point {
    let mut e = digits_w4(d);
    let mut r = Point::IDENTITY;
    // Odd digits: e_{2j+1} with j = 0 … 31 (e_65 is 0: row 32 skipped).
    for (row, pair) in TABLE.iter().zip(e.chunks_exact(2)).take(ROWS - 1) {
        r = add_digit(ar, &r, row, pair[1]);
    }
    for _ in 0..4 {
        r = double(ar, &r);
    }
    for (row, pair) in TABLE.iter().zip(e.chunks_exact(2)) {
        r = add_digit(ar, &r, row, pair[0]);
    }
    e.zeroize();
    r
}
