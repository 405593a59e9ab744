//! Fixed-base scalar multiplication `d·G` on P-256 (the public key of
//! SEC 1 v2 §3.2.1 / the ECDH key share) with a table of multiples of the
//! generator G (SP 800-186 §3.2.1.3).
//!
//! The scalar `d < 2^256` is written in 52 signed radix-32 digits
//! `e_i ∈ [−16, 16]`, `d = Σ e_i·32^i` (`nist_curve::digits_w5`, the digits of
//! the variable-base product; the top one is at most 2). With the table
//! entry `T[j][m − 1] = m·1024^j·G` (`m = 1 … 16`, `j = 0 … 25`;
//! `tools/gen_p256_table.py`), `d·G = 32·Σ_j e_{2j+1}·1024^j·G +
//! Σ_j e_{2j}·1024^j·G`: 52 mixed additions (RCB 2016 Algorithm 5, complete),
//! 5 doublings (Jacobian, `super::jacobian_double`) and one inversion.
//!
//! Constant time: the digits are computed without branches; each addition
//! reads all sixteen entries of its (public) row whole, ANDs each with the
//! mask "index = `|e_i|`" and ORs them together (`nist_curve::scan`, or its AVX2
//! kernel), negates `y` by a mask if
//! `e_i < 0`, and for `e_i = 0` (no affine identity) adds whatever was
//! selected and keeps the previous sum by a mask.

use zeroize::Zeroize;

use super::field::Arith;
use super::{Jacobian, Point, add_digit, jacobian_double};
use crate::arch::Avx2;
use crate::nist_curve::{decode_table, digits_w5};

/// Rows of the table: `1024^j·G` for `j = 0 … 25`.
const ROWS: usize = 26;

/// Entries of a row: `m·1024^j·G` for `m = 1 … 16`.
const COLS: usize = 16;

/// Limbs of one entry: `x`, `y`, four limbs each (Montgomery form).
const ENTRY: usize = 8;

/// The table file: `26 × 16` entries of 8 little-endian `u64` limbs.
const TABLE_BYTES: &[u8; ROWS * COLS * ENTRY * 8] = include_bytes!("base_table.bin");

/// `T[j][m − 1] = m·1024^j·G` as affine `(x, y)` in Montgomery form.
static TABLE: [[[u64; ENTRY]; COLS]; ROWS] = decode_table(TABLE_BYTES);

/// `d·G` for `d < 2^256` (little-endian limbs), projective; the rows are
/// scanned with AVX2 if `avx` holds the token. The working values are wiped.
pub(crate) fn mul_base<A: Arith>(ar: A, d: &[u64; 4], avx: Option<Avx2>) -> Point {
    let mut e: [i8; 52] = digits_w5(d);
    let mut r = Point::IDENTITY;
    // Odd digits: e_{2j+1} with j = 0 … 25.
    for (row, pair) in TABLE.iter().zip(e.chunks_exact(2)) {
        r = add_digit(ar, &r, row, pair[1], avx);
    }
    let mut j = Jacobian::from_projective(ar, &r);
    for _ in 0..5 {
        j = jacobian_double(ar, &j);
    }
    r = j.to_projective(ar);
    j.wipe();
    // Even digits: e_{2j}.
    for (row, pair) in TABLE.iter().zip(e.chunks_exact(2)) {
        r = add_digit(ar, &r, row, pair[0], avx);
    }
    e.zeroize();
    r
}
