//! Fixed-base scalar multiplication `d·G` on P-256 (the public key of
//! SEC 1 v2 §3.2.1 / the ECDH key share) with a table of multiples of the
//! generator G (SP 800-186 §3.2.1.3).
//!
//! The scalar `d < n` is written in 43 signed radix-64 digits
//! `e_i ∈ [−32, 32]`, `d = Σ e_i·64^i` (`nist_curve::digits_signed` with
//! `W = 6`; the top one, from bits 252–255 and a carry, is at most 16).
//! With the table entry `T[i][m − 1] = m·64^i·G` (`m = 1 … 32`,
//! `i = 0 … 42`; `tools/gen_p256_table.py`, 88,064 bytes),
//! `d·G = Σ_i e_i·64^i·G`: 42 mixed additions in Jacobian coordinates
//! (`super::jacobian_add_affine`, 8M + 3S), no doubling, and one inversion.
//! (Radix 32 needed 51 additions over a 53,248-byte table; each row scan
//! now reads 32 entries, two 16-entry scans.)
//!
//! The mixed addition is not complete; its exceptions never occur by value.
//! With `S_i = Σ_{j < i} e_j·64^j` the accumulator before row `i`, the cases
//! "`S_i = 0`" (the identity: all lower digits 0) and "`e_i = 0`" are tracked
//! by masks and selected around. Otherwise the addition would need
//! `S_i ≡ ±e_i·64^i (mod n)`. `|S_i| ≤ 32·(64^i − 1)/63 < 64^i ≤ |e_i·64^i|`,
//! so for `i ≤ 41` (`|S_i| + 32·64^i < 2^252 < n`) it fails over the
//! integers. For `i = 42`, `S_42 ≡ −e_42·2^252` is `d ≡ 0`, and
//! `S_42 ≡ e_42·2^252` needs `e_42·2^252 − S_42`, which lies in
//! `(0, 17·2^252)`, to be `n` (`2n > 17·2^252`): for `e_42 ≤ 15` then
//! `|S_42| = n − e_42·2^252 > 2^251`, too large, and for `e_42 = 16`
//! `d = S_42 + 2^256 = 2^257 − n > n`.
//!
//! Constant time: the digits are computed without branches; each addition
//! reads all 32 entries of its (public) row whole (two 16-entry halves),
//! ANDs each with the mask "index = `|e_i|`" and ORs them together
//! (`nist_curve::scan`, or its AVX2 kernel), negates `y` by a mask if
//! `e_i < 0`; the identity cases are masked selections.

use zeroize::Zeroize;

use super::field::{Arith, Fe};
use super::{Affine, Jacobian, Point, jacobian_add_affine};
use crate::arch::Avx2;
use crate::nist_curve::{abs_sign, decode_table, digits_signed, eq_mask, opaque, scan_with};

/// Rows of the table: `64^i·G` for `i = 0 … 42`.
const ROWS: usize = 43;

/// Entries of a row: `m·64^i·G` for `m = 1 … 32`, stored as two halves of
/// 16 (the scan's unit).
const COLS: usize = 32;

/// Limbs of one entry: `x`, `y`, four limbs each (Montgomery form).
const ENTRY: usize = 8;

/// The table file: `43 × 32` entries of 8 little-endian `u64` limbs.
const TABLE_BYTES: &[u8; ROWS * COLS * ENTRY * 8] = include_bytes!("base_table.bin");

/// `T[i][m − 1] = m·64^i·G` as affine `(x, y)` in Montgomery form: half
/// `2i` holds `m = 1 … 16`, half `2i + 1` holds `m = 17 … 32`.
static TABLE: [[[u64; ENTRY]; 16]; 2 * ROWS] = decode_table(TABLE_BYTES);

/// `e·T` for `e ∈ [−32, 32] \ {0}` from a table row given as its halves
/// `lo[m − 1] = m·T`, `hi[m − 17] = m·T`, and the mask "e = 0" (all ones),
/// in which case the point returned is not on the curve and must not be
/// kept: both halves are scanned whole (`lo` at `|e|`, `hi` at
/// `(|e| − 16) mod 64`, which is in `1 … 16` iff `|e| > 16`, and never
/// matches otherwise), `y` negated by a mask if `e < 0`.
#[inline(always)]
fn select_row(
    lo: &[[u64; ENTRY]; 16],
    hi: &[[u64; ENTRY]; 16],
    e: i8,
    avx: Option<Avx2>,
) -> (Affine, u64) {
    let (abs, neg) = abs_sign(e);
    let mut r = scan_with(avx, lo, abs);
    let mut r2 = scan_with(avx, hi, abs.wrapping_sub(16) & 63);
    for (a, b) in r.iter_mut().zip(&r2) {
        *a |= b;
    }
    let x = Fe(core::array::from_fn(|i| r[i]));
    let y = Fe(core::array::from_fn(|i| r[4 + i]));
    r.zeroize();
    r2.zeroize();
    let ny = y.neg();
    let a = Affine {
        x,
        y: Fe::select(neg, &ny, &y),
    };
    (a, eq_mask(abs, 0))
}

/// `d·G` for `d < n` (little-endian limbs), projective (the identity for
/// `d = 0`); the rows are scanned with AVX2 if `avx` holds the token. The
/// working values are wiped.
pub(crate) fn mul_base<A: Arith>(ar: A, d: &[u64; 4], avx: Option<Avx2>) -> Point {
    let mut e: [i8; ROWS] = digits_signed::<6, 4, ROWS>(d);
    let (mut q, mut inf) = select_row(&TABLE[0], &TABLE[1], e[0], avx);
    let mut r = Jacobian {
        x: q.x,
        y: q.y,
        z: Fe::ONE,
    };
    for (row, &ei) in TABLE.chunks_exact(2).zip(&e).skip(1) {
        let zero;
        (q, zero) = select_row(&row[0], &row[1], ei, avx);
        let s = jacobian_add_affine(ar, &r, &q);
        let a = Jacobian {
            x: q.x,
            y: q.y,
            z: Fe::ONE,
        };
        // r + e_i·64^i·G: that point if r is the identity, r if e_i = 0.
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
