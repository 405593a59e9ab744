//! Fixed-base scalar multiplication `d·G` on P-256 (the public key of
//! SEC 1 v2 §3.2.1 / the ECDH key share) with a table of multiples of the
//! generator G (SP 800-186 §3.2.1.3).
//!
//! The scalar `d < n` is written in 52 signed radix-32 digits
//! `e_i ∈ [−16, 16]`, `d = Σ e_i·32^i` (`nist_curve::digits_w5`, the digits of
//! the variable-base product; the top one is at most 2). With the table
//! entry `T[i][m − 1] = m·32^i·G` (`m = 1 … 16`, `i = 0 … 51`;
//! `tools/gen_p256_table.py`), `d·G = Σ_i e_i·32^i·G`: 51 mixed additions in
//! Jacobian coordinates (`super::jacobian_add_affine`, 8M + 3S), no
//! doubling, and one inversion.
//!
//! The mixed addition is not complete; its exceptions never occur by value.
//! With `S_i = Σ_{j < i} e_j·32^j` the accumulator before row `i`, the cases
//! "`S_i = 0`" (the identity: all lower digits 0) and "`e_i = 0`" are tracked
//! by masks and selected around. Otherwise the addition would need
//! `S_i ≡ ±e_i·32^i (mod n)`. `|S_i| ≤ 16·(32^i − 1)/31 < 32^i ≤ |e_i·32^i|`,
//! so for `i ≤ 50` (`|S_i| + 16·32^i < n`) it fails over the integers. For
//! `i = 51`, `S_51 ≡ −e_51·2^255` is `d ≡ 0`, and `S_51 ≡ e_51·2^255` is
//! `d ≡ e_51·2^256 ≡ e_51·(2^256 − n) (mod n)`, so `d = e_51·(2^256 − n)
//! < 2^226`, whose top digit is 0, not `e_51`.
//!
//! Constant time: the digits are computed without branches; each addition
//! reads all sixteen entries of its (public) row whole, ANDs each with the
//! mask "index = `|e_i|`" and ORs them together (`nist_curve::scan`, or its AVX2
//! kernel), negates `y` by a mask if `e_i < 0`; the identity cases are masked
//! selections.

use zeroize::Zeroize;

use super::field::{Arith, Fe};
use super::{Jacobian, Point, jacobian_add_affine, select_affine};
use crate::arch::Avx2;
use crate::nist_curve::{decode_table, digits_w5, opaque};

/// Rows of the table: `32^i·G` for `i = 0 … 51`.
const ROWS: usize = 52;

/// Entries of a row: `m·32^i·G` for `m = 1 … 16`.
const COLS: usize = 16;

/// Limbs of one entry: `x`, `y`, four limbs each (Montgomery form).
const ENTRY: usize = 8;

/// The table file: `52 × 16` entries of 8 little-endian `u64` limbs.
const TABLE_BYTES: &[u8; ROWS * COLS * ENTRY * 8] = include_bytes!("base_table.bin");

/// `T[i][m − 1] = m·32^i·G` as affine `(x, y)` in Montgomery form.
static TABLE: [[[u64; ENTRY]; COLS]; ROWS] = decode_table(TABLE_BYTES);

/// `d·G` for `d < n` (little-endian limbs), projective (the identity for
/// `d = 0`); the rows are scanned with AVX2 if `avx` holds the token. The
/// working values are wiped.
pub(crate) fn mul_base<A: Arith>(ar: A, d: &[u64; 4], avx: Option<Avx2>) -> Point {
    let mut e: [i8; ROWS] = digits_w5(d);
    let (mut q, mut inf) = select_affine(&TABLE[0], e[0], avx);
    let mut r = Jacobian {
        x: q.x,
        y: q.y,
        z: Fe::ONE,
    };
    for (row, &ei) in TABLE.iter().zip(&e).skip(1) {
        let zero;
        (q, zero) = select_affine(row, ei, avx);
        let s = jacobian_add_affine(ar, &r, &q);
        let a = Jacobian {
            x: q.x,
            y: q.y,
            z: Fe::ONE,
        };
        // r + e_i·32^i·G: that point if r is the identity, r if e_i = 0.
        let s = Jacobian::select(inf, &a, &s);
        r = Jacobian::select(zero, &r, &s);
        inf = opaque(inf & zero);
    }
    q.x.0.zeroize();
    q.y.0.zeroize();
    r = Jacobian::select(inf, &Jacobian::IDENTITY, &r);
    let p = r.to_projective(ar);
    r.wipe();
    e.zeroize();
    p
}
