//! Inversion modulo p = 2^255 − 19 (the final `z_2^(p−2)` of RFC 7748 §5
//! and the base-point product's `1 / (Z − Y)`) by the constant-time
//! division steps of Bernstein and Yang ("Fast constant-time gcd
//! computation and modular inversion", TCHES 2019(3), §§8–11), arranged as
//! libsecp256k1's `modinv64` does (the "half-delta" divstep, `ζ = −(δ + ½)`):
//! signed 62-bit limbs, 10 batches of 60 divsteps (each two runs of 30,
//! `field::divsteps_60`, so that a run's matrix entries fit 32 bits and
//! the kernel packs two of them in one register). 590 divsteps suffice
//! for every `f = p` and `0 ≤ g < p` (libsecp256k1's bound for 256-bit
//! moduli), after which `g = 0`, `f = ±1` and `d = ±g^(−1)`; the 10 more
//! keep `g = 0`.
//!
//! Constant time: every batch runs its 60 divsteps whatever the values,
//! each a fixed sequence of additions, shifts and masks (the masks hidden
//! from the optimiser with `opaque`, so they do not become branches); the
//! matrix products are fixed-length limb arithmetic. Nothing branches on or
//! indexes by a secret.

use pqdr_common::ct::opaque;
use zeroize::Zeroize;

use super::field::{Arith, Fe, Portable, divsteps_60};
use crate::arch::Bmi2Adx;

/// The low 62 bits.
const M62: u64 = u64::MAX >> 2;

/// p = 2^255 − 19 in signed 62-bit limbs: `−19 + 2^7·2^248`.
const P62: [i64; 5] = [-19, 0, 0, 0, 128];

/// `p^(−1) mod 2^62`.
const P_INV62: u64 = inv_mod_2_64(0xffff_ffff_ffff_ffed) & M62;

/// `a^(−1) mod 2^64` for odd `a` by Newton's iteration `x ← x·(2 − a·x)`
/// (each round doubles the correct low bits; `x = a` is right to 3 bits).
const fn inv_mod_2_64(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// The transition matrix `[u, v, q, r]` of a batch, scaled by 2^62:
/// `(f, g) ← ([u, v; q, r]·(f, g)) / 2^62`.
type Trans = [i64; 4];

/// The inversion on a path: [`invert`] with the path's divstep batches
/// (`Arith::divsteps_30`), or (in the tests' timing report) another method.
pub(crate) trait Invert: Arith {
    /// `z^(−1) mod p` (0 for `z ≡ 0`), canonical limbs.
    #[inline(always)]
    fn invert(self, z: &Fe) -> Fe {
        invert(self, z)
    }
}

impl Invert for Portable {}

impl Invert for Bmi2Adx {}

/// The low 62 bits of `x` as a limb.
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the low 62 bits, by design"
)]
fn low62(x: i128) -> i64 {
    ((x.cast_unsigned() as u64) & M62).cast_signed()
}

/// The top limb: `x` fits in 64 bits by the bounds on `d`, `e`, `f`, `g`
/// (a truncation, not a checked conversion, which would branch).
#[inline(always)]
#[allow(clippy::cast_possible_truncation, reason = "fits by construction")]
fn top(x: i128) -> i64 {
    x as i64
}

/// `(d, e) ← (t·(d, e) + p·(md, me)) / 2^62` with `md`, `me` chosen so
/// the division is exact (libsecp256k1 `secp256k1_modinv64_update_de_62`):
/// keeps `d`, `e` in `(−2p, p)` and congruent to `t·(d, e) / 2^62`.
fn update_de(d: &mut [i64; 5], e: &mut [i64; 5], t: &Trans) {
    let [u, v, q, r] = t.map(i128::from);
    let (sd, se) = (opaque(d[4] >> 63), opaque(e[4] >> 63));
    // md, me start as u, v, q, r of the negative inputs (to bring them up).
    let mut md = (t[0] & sd) + (t[1] & se);
    let mut me = (t[2] & sd) + (t[3] & se);
    let mut cd = u * i128::from(d[0]) + v * i128::from(e[0]);
    let mut ce = q * i128::from(d[0]) + r * i128::from(e[0]);
    // Make the low 62 bits of cd + p·md, ce + p·me zero.
    md -= (P_INV62
        .wrapping_mul(low62(cd).cast_unsigned())
        .wrapping_add(md.cast_unsigned())
        & M62)
        .cast_signed();
    me -= (P_INV62
        .wrapping_mul(low62(ce).cast_unsigned())
        .wrapping_add(me.cast_unsigned())
        & M62)
        .cast_signed();
    let (md, me) = (i128::from(md), i128::from(me));
    cd += i128::from(P62[0]) * md;
    ce += i128::from(P62[0]) * me;
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        cd += u * i128::from(d[i]) + v * i128::from(e[i]) + i128::from(P62[i]) * md;
        ce += q * i128::from(d[i]) + r * i128::from(e[i]) + i128::from(P62[i]) * me;
        d[i - 1] = low62(cd);
        e[i - 1] = low62(ce);
        cd >>= 62;
        ce >>= 62;
    }
    d[4] = top(cd);
    e[4] = top(ce);
}

/// `(f, g) ← t·(f, g) / 2^62` (exact; libsecp256k1
/// `secp256k1_modinv64_update_fg_62`).
fn update_fg(f: &mut [i64; 5], g: &mut [i64; 5], t: &Trans) {
    let [u, v, q, r] = t.map(i128::from);
    let mut cf = u * i128::from(f[0]) + v * i128::from(g[0]);
    let mut cg = q * i128::from(f[0]) + r * i128::from(g[0]);
    cf >>= 62;
    cg >>= 62;
    for i in 1..5 {
        cf += u * i128::from(f[i]) + v * i128::from(g[i]);
        cg += q * i128::from(f[i]) + r * i128::from(g[i]);
        f[i - 1] = low62(cf);
        g[i - 1] = low62(cg);
        cf >>= 62;
        cg >>= 62;
    }
    f[4] = top(cf);
    g[4] = top(cg);
}

/// Brings `r` from `(−2p, p)` to `[0, p)`, negated first iff `sign < 0`
/// (libsecp256k1 `secp256k1_modinv64_normalize_62`), by masks.
fn normalize(r: &mut [i64; 5], sign: i64) {
    let add = opaque(r[4] >> 63);
    for (ri, pi) in r.iter_mut().zip(P62) {
        *ri += pi & add;
    }
    let neg = opaque(sign >> 63);
    for ri in r.iter_mut() {
        *ri = (*ri ^ neg).wrapping_sub(neg);
    }
    carry(r);
    let add = opaque(r[4] >> 63);
    for (ri, pi) in r.iter_mut().zip(P62) {
        *ri += pi & add;
    }
    carry(r);
}

/// Moves the bits above 62 of limbs 0 … 3 up (arithmetic shifts).
fn carry(r: &mut [i64; 5]) {
    for i in 0..4 {
        r[i + 1] += r[i] >> 62;
        r[i] &= M62.cast_signed();
    }
}

/// `z^(−1) mod p` (0 for `z ≡ 0`), canonical limbs: the same value as the
/// Fermat chain `z^(p−2)` (`Arith::invert`), faster; the divstep batches
/// from `ar` (`field::divsteps_30` or its x86-64 kernel).
pub(crate) fn invert<A: Arith>(ar: A, z: &Fe) -> Fe {
    // g = z reduced to [0, p), in 62-bit limbs.
    let b = z.to_bytes();
    let w: [u64; 4] = core::array::from_fn(|i| {
        let mut x = [0u8; 8];
        x.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(x)
    });
    let mut g = [
        w[0] & M62,
        (w[0] >> 62 | w[1] << 2) & M62,
        (w[1] >> 60 | w[2] << 4) & M62,
        (w[2] >> 58 | w[3] << 6) & M62,
        w[3] >> 56,
    ]
    .map(u64::cast_signed);
    let mut f = P62;
    let (mut d, mut e) = ([0i64; 5], [1, 0, 0, 0, 0]);
    let mut zeta = -1i64; // ζ = −(δ + ½), δ = ½
    for _ in 0..10 {
        let (z2, t) = divsteps_60(ar, zeta, f[0].cast_unsigned(), g[0].cast_unsigned());
        zeta = z2;
        update_de(&mut d, &mut e, &t);
        update_fg(&mut f, &mut g, &t);
    }
    // Now g = 0 and f = ±1: d = ±z^(−1).
    normalize(&mut d, f[4]);
    let mut l = d.map(i64::cast_unsigned);
    let out = Fe([
        l[0] | l[1] << 62,
        l[1] >> 2 | l[2] << 60,
        l[2] >> 4 | l[3] << 58,
        l[3] >> 6 | l[4] << 56,
    ]);
    for x in [&mut f, &mut g, &mut d, &mut e] {
        x.zeroize();
    }
    l.zeroize();
    out
}
