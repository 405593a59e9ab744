//! Fixed-base scalar multiplication `d·G` on P-384 (the public key of
//! SEC 1 v2 §3.2.1 / the ECDH key share) with a table of multiples of the
//! generator G (SP 800-186 §3.2.1.4).
//!
//! The scalar `d < 2^384` is written in 77 signed radix-32 digits
//! `e_k ∈ [−16, 16]` (`nist_curve::digits_w5`). With the table entry
//! `T[j][m − 1] = m·2^(20j)·G` (`m = 1 … 16`, `j = 0 … 19`;
//! `tools/gen_p256_table.py`), `d·G = Σ_{r=0}^{3} 32^r·Σ_j e_{4j+r}·T[j]`,
//! evaluated from `r = 3` down (Horner): 77 mixed additions (RCB 2016
//! Algorithm 5, complete, `add_digit`), 15 doublings (Jacobian,
//! `jacobian_double`) and one inversion. P-256's table has two digit
//! classes and 26 rows; four classes here keep the table at 30 KiB.
//!
//! Constant time as P-256's: each addition reads all sixteen entries of its
//! (public) row whole and keeps one by masks, negates `y` by a mask, and for
//! `e_k = 0` keeps the previous sum by a mask.

use zeroize::Zeroize;

use super::field::Arith;
use super::{Jacobian, Point, add_digit, jacobian_double};
use crate::arch::Avx2;
use crate::nist_curve::{decode_table, digits_w5};

/// Rows of the table: `2^(20j)·G` for `j = 0 … 19`.
const ROWS: usize = 20;

/// Digit classes: digit `k = 4j + r` uses row `j`, class `r`.
const CLASSES: usize = 4;

/// `T[j][m − 1] = m·2^(20j)·G` as affine `(x, y)` in Montgomery form, from
/// the table file (`20 × 16` entries of 12 little-endian `u64` limbs).
static TABLE: [[[u64; 12]; 16]; ROWS] = decode_table(include_bytes!("base_table.bin"));

/// `d·G` for `d < 2^384` (little-endian limbs), projective; the rows are
/// scanned with AVX2 if `avx` holds the token. The working values are wiped.
pub(crate) fn mul_base<A: Arith>(ar: A, d: &[u64; 6], avx: Option<Avx2>) -> Point {
    let mut e: [i8; 77] = digits_w5(d);
    let mut r = Point::IDENTITY;
    for class in (0..CLASSES).rev() {
        if class + 1 < CLASSES {
            let mut j = Jacobian::from_projective(ar, &r);
            for _ in 0..5 {
                j = jacobian_double(ar, &j);
            }
            r = j.to_projective(ar);
            j.wipe();
        }
        for (row, k) in TABLE.iter().zip((class..).step_by(CLASSES)) {
            // Public: the digit's position, not its value, decides this.
            if let Some(&ek) = e.get(k) {
                r = add_digit(ar, &r, row, ek, avx);
            }
        }
    }
    e.zeroize();
    r
}
