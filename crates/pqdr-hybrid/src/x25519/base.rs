//! Fixed-base scalar multiplication for `X25519(k, 9)` (RFC 7748 §6.1):
//! the clamped scalar times the edwards25519 base point `B` (RFC 8032
//! §5.1, birationally equivalent to `u = 9`, RFC 7748 §4.1) with a table
//! of multiples of `B`, then the map to the Montgomery u-coordinate
//! `u = (1 + y) / (1 − y)` (RFC 7748 §4.1).
//!
//! The scalar is written in 64 signed radix-16 digits `e_i ∈ [−8, 8]`,
//! `k = Σ e_i·16^i`. With the table entry `T[i][m − 1] = m·16^i·B`
//! (`m = 1 … 8`, `i = 0 … 63`; `tools/gen_base_table.py`, 48 KiB),
//! `k·B = Σ_i e_i·16^i·B`: 64 mixed additions, no doubling, and one
//! inversion.
//!
//! Constant time: the digits are computed without branches; each addition
//! reads all eight entries of its (public) row and keeps the one whose
//! index equals `|e_i|` by masks, then negates it by masks if `e_i < 0`
//! ([`select_portable`], or its AVX2 kernel `arch::fe_base_select`); the point
//! formulas of RFC 8032 §5.1.4 are complete (no case split, the identity
//! included).

use pqdr_common::ct::opaque;
use zeroize::Zeroize;

use super::X25519_SIZE;
use super::field::{Arith, Fe, Portable};
use super::invert::Invert;
use crate::arch::{self, Avx2, Bmi2Adx};

/// Limbs of one entry: `y + x`, `y − x`, `2d·x·y`, four limbs each.
const ENTRY: usize = 12;

/// Rows of the table: one per radix-16 digit.
const ROWS: usize = 64;

/// One row of the table: `m·16^i·B` for `m = 1 … 8`.
pub(super) type Row = [[u64; ENTRY]; 8];

/// The table file: `64 × 8` entries of 12 little-endian `u64` limbs.
const TABLE_BYTES: &[u8; ROWS * 8 * ENTRY * 8] = include_bytes!("base_table.bin");

/// `T[i][m − 1] = m·16^i·B` as `(y + x, y − x, 2d·x·y)`, canonical limbs.
static TABLE: [Row; ROWS] = decode(TABLE_BYTES);

/// The table, for the tests.
#[cfg(test)]
pub(super) fn table() -> &'static [Row; ROWS] {
    &TABLE
}

/// The table file's bytes as limbs, at compile time.
const fn decode(b: &[u8; ROWS * 8 * ENTRY * 8]) -> [Row; ROWS] {
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

/// The signed radix-16 digits of a clamped scalar (`k < 2^255`): nibbles,
/// then each digit above 7 carried into the next (`e − 16`, carry 1),
/// without branches. The last digit is at most `7 + 1 = 8`.
fn digits(k: &[u8; X25519_SIZE]) -> [i8; 64] {
    let mut e = [0i8; 64];
    for (pair, b) in e.chunks_exact_mut(2).zip(k) {
        pair[0] = i8::from_ne_bytes([b & 15]);
        pair[1] = i8::from_ne_bytes([b >> 4]);
    }
    let mut carry = 0i8;
    for d in e.iter_mut().take(63) {
        *d += carry;
        carry = (*d + 8) >> 4;
        *d -= carry << 4;
    }
    e[63] += carry;
    e
}

/// Entry `abs` of `row` (`abs` = 1 … 8), the identity `(1, 1, 0)` for
/// `abs` = 0 (zero for `abs` > 8, which [`digits`] never gives): every
/// entry is read and OR-ed in under a mask that is all ones iff its index
/// equals `abs`.
pub(super) fn scan_portable(row: &Row, abs: u64) -> [u64; ENTRY] {
    let mut r = [0u64; ENTRY];
    let mut identity = [0u64; ENTRY];
    (identity[0], identity[4]) = (1, 1);
    for (m, entry) in (0u64..).zip(core::iter::once(&identity).chain(row)) {
        // All ones iff abs == m: (abs ^ m) − 1 borrows only from 0.
        let eq = opaque(((abs ^ m).wrapping_sub(1) >> 63).wrapping_neg());
        for (ri, ei) in r.iter_mut().zip(entry) {
            *ri |= ei & eq;
        }
    }
    r
}

/// `2p = 2^256 − 38` in limbs: `2p − x` negates a canonical `x` without a
/// final borrow.
const TWO_P: [u64; 4] = [u64::MAX - 37, u64::MAX, u64::MAX, u64::MAX];

/// `e·16^i·B` for `e ∈ [−8, 8]` from row `i` of the table as the addend
/// `(y + x, y − x, 2d·x·y)` in `q`: [`scan_portable`] of `|e|`, then, iff
/// `e < 0`, the point negated (`−(x, y) = (−x, y)`: `y + x` and `y − x`
/// swapped, `2d·x·y` replaced by `2p − 2d·x·y`), by masks. The portable
/// twin of `arch::fe_base_select`.
pub(super) fn select_portable(row: &Row, e: i8, q: &mut [[u64; 4]; 3]) {
    let sign = e >> 7; // −1 iff e < 0
    // All ones iff e < 0.
    let neg = opaque(u64::from(u8::from_ne_bytes(sign.to_ne_bytes()) & 1).wrapping_neg());
    let abs = u64::from(u8::from_ne_bytes(
        (e ^ sign).wrapping_sub(sign).to_ne_bytes(),
    ));
    let mut r = scan_portable(row, abs);
    let mut borrow = 0u64;
    for i in 0..4 {
        let t = (r[i] ^ r[i + 4]) & neg;
        q[0][i] = r[i] ^ t;
        q[1][i] = r[i + 4] ^ t;
        let (d1, b1) = TWO_P[i].overflowing_sub(r[i + 8]);
        let (d2, b2) = d1.overflowing_sub(borrow);
        borrow = u64::from(b1 | b2);
        q[2][i] = r[i + 8] ^ ((r[i + 8] ^ d2) & neg);
    }
    r.zeroize();
}

/// The state of a mixed addition (`arch::MADD_SLOTS` field elements): 0 … 3
/// `X`, `Y`, `Z`, `T` of the running point, 4 … 6 `y + x`, `y − x`,
/// `2d·x·y` of the affine addend, then scratch for `arch::fe_madd`.
pub(super) type MaddState = [[u64; 4]; arch::MADD_SLOTS];

/// The mixed addition `p ← p + q` on a [`MaddState`]: the portable formulas
/// ([`madd_portable`]) with the field operations of the path, or on x86-64
/// with BMI2 and ADX one assembly block (`arch::fe_madd`), same limbs.
pub(super) trait Madd: Invert {
    /// `p ← p + q` on `s`.
    #[inline(always)]
    fn madd(self, s: &mut MaddState) {
        madd_portable(self, s);
    }
}

impl Madd for Portable {}

impl Madd for Bmi2Adx {
    #[inline(always)]
    fn madd(self, s: &mut MaddState) {
        arch::fe_madd(self, s);
    }
}

/// `p + q` for an affine `q` (RFC 8032 §5.1.4 addition with `Z2 = 1`,
/// `T2 = x2·y2`): `A = (Y1 − X1)(y2 − x2)`, `B = (Y1 + X1)(y2 + x2)`,
/// `C = T1·2d·T2`, `D = 2·Z1`, then `E, F, G, H = B − A, D − C, D + C,
/// B + A` and `(EF, GH, FG, EH)`; `p` in slots 0 … 3 of `s`, `q` in 4 … 6.
#[inline(always)]
pub(super) fn madd_portable<A: Arith>(ar: A, s: &mut MaddState) {
    let f = |i: usize| Fe(s[i]);
    let (px, py, pz, pt) = (f(0), f(1), f(2), f(3));
    let (ypx, ymx, xy2d) = (f(4), f(5), f(6));
    let a = ar.mul(&ar.sub(&py, &px), &ymx);
    let b = ar.mul(&ar.add(&py, &px), &ypx);
    let c = ar.mul(&pt, &xy2d);
    let d = ar.add(&pz, &pz);
    let (e, f) = (ar.sub(&b, &a), ar.sub(&d, &c));
    let (g, h) = (ar.add(&d, &c), ar.add(&b, &a));
    s[0] = ar.mul(&e, &f).0;
    s[1] = ar.mul(&g, &h).0;
    s[2] = ar.mul(&f, &g).0;
    s[3] = ar.mul(&e, &h).0;
}

/// `X25519(k, 9)` for a clamped scalar `k` (RFC 7748 §5 `decodeScalar25519`
/// already applied): `k·B` on edwards25519, then `u = (Z + Y) / (Z − Y)`;
/// the table scans on AVX2 with `avx2` (the kernel path only).
pub(super) fn base_mul<A: Madd>(
    ar: A,
    avx2: Option<Avx2>,
    k: &[u8; X25519_SIZE],
) -> [u8; X25519_SIZE] {
    let mut e = digits(k);
    // The running point in slots 0 … 3, starting at the identity.
    let mut s: MaddState = [[0; 4]; arch::MADD_SLOTS];
    (s[1], s[2]) = (Fe::ONE.0, Fe::ONE.0);
    let mut q = [[0u64; 4]; 3];
    for (row, &e_i) in TABLE.iter().zip(e.iter()) {
        match avx2 {
            Some(token) => arch::fe_base_select(token, row, e_i, &mut q),
            None => select_portable(row, e_i, &mut q),
        }
        (s[4], s[5], s[6]) = (q[0], q[1], q[2]);
        ar.madd(&mut s);
    }
    q.zeroize();
    let (y, z) = (Fe(s[1]), Fe(s[2]));
    let u = ar.mul(&ar.add(&z, &y), &ar.invert(&ar.sub(&z, &y)));
    e.zeroize();
    s.zeroize();
    u.to_bytes()
}
