//! Inversion modulo an odd prime `p < 2^256` by the constant-time division
//! steps of Bernstein and Yang ("Fast constant-time gcd computation and
//! modular inversion", TCHES 2019(3), §§8–11), arranged as libsecp256k1's
//! `modinv64` does (the "half-delta" divstep, `ζ = −(δ + ½)`): signed
//! 62-bit limbs, 10 batches of at least 59 divsteps each. 590 divsteps
//! suffice for every `f = p` and `0 ≤ g < p` (libsecp256k1's bound for
//! moduli below 2^256), after which `g = 0`, `f = ±1` and `d = ±g^(−1)`;
//! further steps keep `g = 0`.
//!
//! Written once for the fields that use it (X25519's 2^255 − 19, P-256's
//! prime): the modulus is a [`Modulus62`] (its limbs and `p^(−1) mod 2^62`),
//! the batch step a closure (the portable [`divsteps`], or a field's kernel
//! path), so each field's code inlines to its own constants.
//!
//! Constant time: every batch runs its divsteps whatever the values, each
//! a fixed sequence of additions, shifts and masks (the masks hidden from
//! the optimiser with `opaque`, so they do not become branches); the matrix
//! products are fixed-length limb arithmetic. Nothing branches on or
//! indexes by a secret.

use pqdr_common::ct::opaque;
use zeroize::Zeroize;

/// The low 62 bits.
const M62: u64 = u64::MAX >> 2;

/// The transition matrix `[u, v, q, r]` of a batch, scaled by 2^62:
/// `(f, g) ← ([u, v; q, r]·(f, g)) / 2^62`.
pub(crate) type Trans = [i64; 4];

/// An odd modulus `p < 2^256` of the inversion.
pub(crate) trait Modulus62 {
    /// p in signed 62-bit limbs (`Σ P62[i]·2^(62·i)`, any signs).
    const P62: [i64; 5];
    /// `p^(−1) mod 2^62` ([`inv_mod_2_62`]).
    const P_INV62: u64;
}

/// `a^(−1) mod 2^62` for odd `a` by Newton's iteration `x ← x·(2 − a·x)`
/// (each round doubles the correct low bits; `x = a` is right to 3 bits).
pub(crate) const fn inv_mod_2_62(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x & M62
}

/// `N` divsteps (libsecp256k1 `secp256k1_modinv64_divsteps_59` with `N`
/// steps and the matrix starting at `one`) on the low bits `f0` (odd), `g0`
/// of `f` and `g` from `ζ`: the new `ζ` and the transition matrix, scaled
/// by `one·2^N`. Per step, by masks: if `ζ < 0` and `g` is odd,
/// `(f, g) ← (g, g − f)` and `ζ ← −ζ − 2`, else `g ← g + (g odd)·f` and
/// `ζ ← ζ − 1`; then `g ← g / 2` (the matrix: `u, v` doubled instead).
/// P-256's batch is `N = 59`, `one = 8` (scaled by 2^62); X25519's
/// `field::divsteps_30` is `N = 30`, `one = 1`.
#[inline(always)]
pub(crate) fn divsteps<const N: usize>(zeta: i64, f0: u64, g0: u64, one: u64) -> (i64, Trans) {
    let (mut u, mut v, mut q, mut r) = (one, 0u64, 0u64, one);
    let (mut f, mut g, mut zeta) = (f0, g0, zeta);
    for _ in 0..N {
        // All ones iff ζ < 0; all ones iff g is odd.
        let m1 = opaque((zeta >> 63).cast_unsigned());
        let m2 = opaque((g & 1).wrapping_neg());
        // x, y, z = f, u, v negated iff ζ < 0; added to g, q, r iff g odd.
        let x = (f ^ m1).wrapping_sub(m1);
        let y = (u ^ m1).wrapping_sub(m1);
        let z = (v ^ m1).wrapping_sub(m1);
        g = g.wrapping_add(x & m2);
        q = q.wrapping_add(y & m2);
        r = r.wrapping_add(z & m2);
        // Iff ζ < 0 and g was odd: ζ ← −ζ − 2 and f, u, v ← old g, q, r
        // (f + (g − f) = g); else ζ ← ζ − 1.
        let m = m1 & m2;
        zeta = (zeta ^ m.cast_signed()).wrapping_sub(1);
        f = f.wrapping_add(g & m);
        u = u.wrapping_add(q & m);
        v = v.wrapping_add(r & m);
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    (
        zeta,
        [
            u.cast_signed(),
            v.cast_signed(),
            q.cast_signed(),
            r.cast_signed(),
        ],
    )
}

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
fn update_de<M: Modulus62>(d: &mut [i64; 5], e: &mut [i64; 5], t: &Trans) {
    let [u, v, q, r] = t.map(i128::from);
    let (sd, se) = (opaque(d[4] >> 63), opaque(e[4] >> 63));
    // md, me start as u, v, q, r of the negative inputs (to bring them up).
    let mut md = (t[0] & sd) + (t[1] & se);
    let mut me = (t[2] & sd) + (t[3] & se);
    let mut cd = u * i128::from(d[0]) + v * i128::from(e[0]);
    let mut ce = q * i128::from(d[0]) + r * i128::from(e[0]);
    // Make the low 62 bits of cd + p·md, ce + p·me zero.
    md -= (M::P_INV62
        .wrapping_mul(low62(cd).cast_unsigned())
        .wrapping_add(md.cast_unsigned())
        & M62)
        .cast_signed();
    me -= (M::P_INV62
        .wrapping_mul(low62(ce).cast_unsigned())
        .wrapping_add(me.cast_unsigned())
        & M62)
        .cast_signed();
    let (md, me) = (i128::from(md), i128::from(me));
    cd += i128::from(M::P62[0]) * md;
    ce += i128::from(M::P62[0]) * me;
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        cd += u * i128::from(d[i]) + v * i128::from(e[i]) + i128::from(M::P62[i]) * md;
        ce += q * i128::from(d[i]) + r * i128::from(e[i]) + i128::from(M::P62[i]) * me;
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
fn normalize<M: Modulus62>(r: &mut [i64; 5], sign: i64) {
    let add = opaque(r[4] >> 63);
    for (ri, pi) in r.iter_mut().zip(M::P62) {
        *ri += pi & add;
    }
    let neg = opaque(sign >> 63);
    for ri in r.iter_mut() {
        *ri = (*ri ^ neg).wrapping_sub(neg);
    }
    carry(r);
    let add = opaque(r[4] >> 63);
    for (ri, pi) in r.iter_mut().zip(M::P62) {
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

/// `w^(−1) mod p` (0 for `w = 0`) for `w < p` (little-endian limbs, the
/// plain integer), canonical limbs. `batch(ζ, f0, g0)` runs one batch of
/// at least 59 divsteps on the low 62 bits of `f` and `g` and returns the
/// new `ζ` and the transition matrix scaled by 2^62 (as [`divsteps`]
/// `::<59>` with `one = 8` does). Inlined into each field's `invert`, which
/// so compiles to the code it had with its own copy.
#[inline(always)]
pub(crate) fn invert<M: Modulus62>(
    w: &[u64; 4],
    mut batch: impl FnMut(i64, u64, u64) -> (i64, Trans),
) -> [u64; 4] {
    // g = w in 62-bit limbs.
    let mut g = [
        w[0] & M62,
        (w[0] >> 62 | w[1] << 2) & M62,
        (w[1] >> 60 | w[2] << 4) & M62,
        (w[2] >> 58 | w[3] << 6) & M62,
        w[3] >> 56,
    ]
    .map(u64::cast_signed);
    let mut f = M::P62;
    let (mut d, mut e) = ([0i64; 5], [1, 0, 0, 0, 0]);
    let mut zeta = -1i64; // ζ = −(δ + ½), δ = ½
    for _ in 0..10 {
        let (z2, t) = batch(zeta, f[0].cast_unsigned(), g[0].cast_unsigned());
        zeta = z2;
        update_de::<M>(&mut d, &mut e, &t);
        update_fg(&mut f, &mut g, &t);
    }
    // Now g = 0 and f = ±1: d = ±w^(−1).
    normalize::<M>(&mut d, f[4]);
    let mut l = d.map(i64::cast_unsigned);
    let out = [
        l[0] | l[1] << 62,
        l[1] >> 2 | l[2] << 60,
        l[2] >> 4 | l[3] << 58,
        l[3] >> 6 | l[4] << 56,
    ];
    for y in [&mut f, &mut g, &mut d, &mut e] {
        y.zeroize();
    }
    l.zeroize();
    out
}
