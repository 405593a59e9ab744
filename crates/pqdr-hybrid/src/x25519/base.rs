//! Fixed-base scalar multiplication for `X25519(k, 9)` (RFC 7748 §6.1):
//! the clamped scalar times the edwards25519 base point `B` (RFC 8032
//! §5.1, birationally equivalent to `u = 9`, RFC 7748 §4.1) with a table
//! of multiples of `B`, then the map to the Montgomery u-coordinate
//! `u = (1 + y) / (1 − y)` (RFC 7748 §4.1).
//!
//! The scalar is written in 64 signed radix-16 digits `e_i ∈ [−8, 8]`,
//! `k = Σ e_i·16^i`. With the table entry `T[j][m − 1] = m·256^j·B`
//! (`m = 1 … 8`, `j = 0 … 31`; `tools/gen_base_table.py`),
//! `k·B = 16·Σ_j e_{2j+1}·256^j·B + Σ_j e_{2j}·256^j·B`: 64 mixed
//! additions, 4 doublings and one inversion.
//!
//! Constant time: the digits are computed without branches; each addition
//! reads all eight entries of its (public) row and keeps the one whose
//! index equals `|e_i|` by masks, then negates it by masks if `e_i < 0`;
//! the point formulas of RFC 8032 §5.1.4 are complete (no case split, the
//! identity included).

use pqdr_common::ct::opaque;
use zeroize::Zeroize;

use super::X25519_SIZE;
use super::field::{Arith, Fe, Portable};
use super::invert::Invert;
use crate::arch::{self, Bmi2Adx};

/// Limbs of one entry: `y + x`, `y − x`, `2d·x·y`, four limbs each.
const ENTRY: usize = 12;

/// The table file: `32 × 8` entries of 12 little-endian `u64` limbs.
const TABLE_BYTES: &[u8; 32 * 8 * ENTRY * 8] = include_bytes!("base_table.bin");

/// `T[j][m − 1] = m·256^j·B` as `(y + x, y − x, 2d·x·y)`, canonical limbs.
static TABLE: [[[u64; ENTRY]; 8]; 32] = decode(TABLE_BYTES);

/// The table file's bytes as limbs, at compile time.
const fn decode(b: &[u8; 32 * 8 * ENTRY * 8]) -> [[[u64; ENTRY]; 8]; 32] {
    let mut t = [[[0u64; ENTRY]; 8]; 32];
    let mut j = 0;
    while j < 32 {
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

/// An affine point `(x, y)` as `(y + x, y − x, 2d·x·y)`, the operand of
/// [`madd`].
struct Affine {
    ypx: Fe,
    ymx: Fe,
    xy2d: Fe,
}

/// Extended coordinates (RFC 8032 §5.1.4): `x = X/Z`, `y = Y/Z`,
/// `x·y = T/Z`.
struct Ext {
    x: Fe,
    y: Fe,
    z: Fe,
    t: Fe,
}

impl Ext {
    fn wipe(&mut self) {
        for f in [&mut self.x, &mut self.y, &mut self.z, &mut self.t] {
            f.0.zeroize();
        }
    }
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

/// `e·256^j·B` for `e ∈ [−8, 8]` from row `j` of the table: every entry is
/// read and masked in, the identity `(1, 1, 0)` if `e = 0`; a negative `e`
/// negates the point (`−(x, y) = (−x, y)`: swap `y + x` and `y − x`,
/// negate `2d·x·y`), by masks.
fn select<A: Arith>(ar: A, row: &[[u64; ENTRY]; 8], e: i8) -> Affine {
    let sign = e >> 7; // −1 iff e < 0
    let neg = u64::from(u8::from_ne_bytes(sign.to_ne_bytes()) & 1);
    let abs = u64::from(u8::from_ne_bytes(
        (e ^ sign).wrapping_sub(sign).to_ne_bytes(),
    ));
    let mut r = [0u64; ENTRY];
    r[0] = 1;
    r[4] = 1;
    for (m, entry) in (1u64..).zip(row) {
        // All ones iff abs == m: (abs ^ m) − 1 borrows only from 0.
        let eq = opaque(((abs ^ m).wrapping_sub(1) >> 63).wrapping_neg());
        for (ri, ei) in r.iter_mut().zip(entry) {
            *ri = (*ri & !eq) | (ei & eq);
        }
    }
    let limbs = |i: usize| Fe([r[i], r[i + 1], r[i + 2], r[i + 3]]);
    let mut a = Affine {
        ypx: limbs(0),
        ymx: limbs(4),
        xy2d: limbs(8),
    };
    r.zeroize();
    Fe::cswap(opaque(neg), &mut a.ypx, &mut a.ymx);
    let mut minus = ar.sub(&Fe::ZERO, &a.xy2d);
    Fe::cswap(opaque(neg), &mut a.xy2d, &mut minus);
    minus.0.zeroize();
    a
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

/// `2·p` (RFC 8032 §5.1.4 doubling): `A = X1²`, `B = Y1²`, `C = 2·Z1²`,
/// `H = A + B`, `E = H − (X1 + Y1)²`, `G = A − B`, `F = C + G`, then
/// `(EF, GH, FG, EH)`.
fn double<A: Arith>(ar: A, p: &Ext) -> Ext {
    let a = ar.square(&p.x);
    let b = ar.square(&p.y);
    let zz = ar.square(&p.z);
    let c = ar.add(&zz, &zz);
    let h = ar.add(&a, &b);
    let e = ar.sub(&h, &ar.square(&ar.add(&p.x, &p.y)));
    let g = ar.sub(&a, &b);
    let f = ar.add(&c, &g);
    Ext {
        x: ar.mul(&e, &f),
        y: ar.mul(&g, &h),
        z: ar.mul(&f, &g),
        t: ar.mul(&e, &h),
    }
}

/// `X25519(k, 9)` for a clamped scalar `k` (RFC 7748 §5 `decodeScalar25519`
/// already applied): `k·B` on edwards25519, then `u = (Z + Y) / (Z − Y)`.
pub(super) fn base_mul<A: Madd>(ar: A, k: &[u8; X25519_SIZE]) -> [u8; X25519_SIZE] {
    let mut e = digits(k);
    // The running point in slots 0 … 3, starting at the identity.
    let mut s: MaddState = [[0; 4]; arch::MADD_SLOTS];
    (s[1], s[2]) = (Fe::ONE.0, Fe::ONE.0);
    let add_row = |s: &mut MaddState, row: &[[u64; ENTRY]; 8], e_i: i8| {
        let mut q = select(ar, row, e_i);
        (s[4], s[5], s[6]) = (q.ypx.0, q.ymx.0, q.xy2d.0);
        ar.madd(s);
        for f in [&mut q.ypx, &mut q.ymx, &mut q.xy2d] {
            f.0.zeroize();
        }
    };
    for (row, pair) in TABLE.iter().zip(e.chunks_exact(2)) {
        add_row(&mut s, row, pair[1]);
    }
    let mut r = Ext {
        x: Fe(s[0]),
        y: Fe(s[1]),
        z: Fe(s[2]),
        t: Fe(s[3]),
    };
    for _ in 0..4 {
        r = double(ar, &r);
    }
    (s[0], s[1], s[2], s[3]) = (r.x.0, r.y.0, r.z.0, r.t.0);
    r.wipe();
    for (row, pair) in TABLE.iter().zip(e.chunks_exact(2)) {
        add_row(&mut s, row, pair[0]);
    }
    let (y, z) = (Fe(s[1]), Fe(s[2]));
    let u = ar.mul(&ar.add(&z, &y), &ar.invert(&ar.sub(&z, &y)));
    e.zeroize();
    s.zeroize();
    u.to_bytes()
}
