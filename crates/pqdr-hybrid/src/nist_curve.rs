//! The group law and scalar multiplication shared by our NIST curves
//! (`nistp256`, `nistp384`): short Weierstrass `y² = x³ − 3x + b` of prime
//! order (SP 800-186 §3.2.1), written once. The curve-independent helpers
//! (signed radix-32 digits, masked table scans) are functions here; the
//! point code is the macro [`a3_curve!`], expanded in each curve's module
//! with its own field element `Fe` (constants `ZERO`, `ONE`, `B`; `select`,
//! `neg`, `is_zero_mask`, from `nist_field::fe_methods!`) and field trait
//! `Arith` (`nist_field::FieldArith`'s `mul`, `square`, `add`, `sub`,
//! `triple`, `sub2`, `jacobian_double_n`, `jacobian_add_affine`, and the
//! curve's `invert`) in scope.
//!
//! Constant time: the digits are computed without branches, every table
//! lookup reads every entry and keeps one by masks, negation is a masked
//! select; only public values (the peer's point, the result's verdicts)
//! take branches.

pub(crate) use pqdr_common::ct::opaque;

use crate::arch::{self, Avx2};

/// The scalar `d < 2^(64·L)` (little-endian limbs) in `D` signed radix-32
/// digits `e_i ∈ [−16, 16]`, `d = Σ e_i·32^i` ([`digits_signed`] with
/// `W = 5`). `D` is `⌈64·L / 5⌉`, so the top window holds fewer than five
/// bits (bit 255 alone for P-256, bits 380–383 for P-384), ends at most 16
/// and carries nothing.
pub(crate) fn digits_w5<const L: usize, const D: usize>(d: &[u64; L]) -> [i8; D] {
    digits_signed::<5, L, D>(d)
}

/// The scalar `d < 2^(64·L)` (little-endian limbs) in `D` signed radix-2^W
/// digits `e_i ∈ [−2^(W−1), 2^(W−1)]`, `d = Σ e_i·2^(W·i)`: W-bit windows,
/// each above `2^(W−1)` carried into the next (`e − 2^W`, carry 1), without
/// branches (`2 ≤ W ≤ 7`). With `D = ⌈64·L / W⌉` the top window holds at
/// most `W − 1` bits plus the carry, so it ends at most `2^(W−1)` and
/// carries nothing.
#[inline(always)]
pub(crate) fn digits_signed<const W: usize, const L: usize, const D: usize>(
    d: &[u64; L],
) -> [i8; D] {
    let mut e = [0i8; D];
    let mut carry = 0u64;
    for (i, ei) in e.iter_mut().enumerate() {
        let bit = W * i;
        let (limb, off) = (bit >> 6, bit & 63);
        let mut w = d[limb] >> off;
        if off > 64 - W && limb + 1 < L {
            // Public: the window position, not the scalar, decides this.
            w |= d[limb + 1] << (64 - off);
        }
        let w = (w & ((1 << W) - 1)) + carry;
        carry = (w + (1 << (W - 1)) - 1) >> W;
        let v = w.wrapping_sub(carry << W);
        *ei = i8::from_ne_bytes([v.to_ne_bytes()[0]]);
    }
    e
}

/// `|e|` and the sign mask (all ones iff `e < 0`) of a digit, without
/// branches.
#[inline(always)]
pub(crate) fn abs_sign(e: i8) -> (u64, u64) {
    let sign = e >> 7; // −1 iff e < 0
    let abs = u64::from(u8::from_ne_bytes(
        (e ^ sign).wrapping_sub(sign).to_ne_bytes(),
    ));
    let neg = u64::from(u8::from_ne_bytes(sign.to_ne_bytes()) & 1).wrapping_neg();
    (abs, opaque(neg))
}

/// All ones iff `a == b` (`a, b < 2^63`): `(a ^ b) − 1` borrows only from 0.
#[inline(always)]
pub(crate) fn eq_mask(a: u64, b: u64) -> u64 {
    opaque(((a ^ b).wrapping_sub(1) >> 63).wrapping_neg())
}

/// The masked scan of a 16-entry table: `Σ_k table[k] AND m_k` (OR),
/// `m_k` all ones iff `k + 1 = idx` ([`eq_mask`]), so every entry is read
/// whole and `idx = 0` gives all zeros (the portable twin of the AVX2
/// kernel `arch::p256_scan`).
#[inline(always)]
pub(crate) fn scan<const N: usize>(table: &[[u64; N]; 16], idx: u64) -> [u64; N] {
    let mut r = [0u64; N];
    for (m, entry) in (1u64..).zip(table) {
        let eq = eq_mask(idx, m);
        for (ri, li) in r.iter_mut().zip(entry) {
            *ri |= li & eq;
        }
    }
    r
}

/// [`scan`] with the AVX2 kernel if `avx` holds the token.
#[inline(always)]
pub(crate) fn scan_with<const N: usize>(
    avx: Option<Avx2>,
    table: &[[u64; N]; 16],
    idx: u64,
) -> [u64; N] {
    match avx {
        Some(t) => arch::p256_scan(t, table, idx),
        None => scan(table, idx),
    }
}

/// A fixed-base table file (`R` rows of 16 entries of `E` little-endian
/// `u64` limbs, `tools/gen_p256_table.py`) as limbs, at compile time.
pub(crate) const fn decode_table<const R: usize, const E: usize>(b: &[u8]) -> [[[u64; E]; 16]; R] {
    assert!(b.len() == R * 16 * E * 8);
    let mut t = [[[0u64; E]; 16]; R];
    let mut j = 0;
    while j < R {
        let mut m = 0;
        while m < 16 {
            let mut l = 0;
            while l < E {
                let o = ((j * 16 + m) * E + l) * 8;
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

/// The point types and formulas of one curve (see the module docs):
/// `limbs` is the field's limb count, `digits` the scalar's digit count
/// for [`digits_w5`] (the table entries of `mul` and of the fixed-base
/// rows are affine `x ‖ y`, `2·limbs`, a multiple of 4 for the AVX2 scan).
macro_rules! a3_curve {
    (limbs = $limbs:literal, digits = $digits:literal) => {
        /// A point in projective coordinates (the identity is `(0 : 1 : 0)`).
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct Point {
            pub(crate) x: Fe,
            pub(crate) y: Fe,
            pub(crate) z: Fe,
        }

        /// An affine point `(x, y)` (never the identity), Montgomery form.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct Affine {
            pub(crate) x: Fe,
            pub(crate) y: Fe,
        }

        impl Point {
            #[allow(dead_code, reason = "P-384's fixed-base product only (nistp384/base.rs); P-256's adds in Jacobian coordinates")]
            /// The identity `(0 : 1 : 0)`.
            pub(crate) const IDENTITY: Point = Point {
                x: Fe::ZERO,
                y: Fe::ONE,
                z: Fe::ZERO,
            };

            #[allow(dead_code, reason = "P-384's fixed-base product only (nistp384/base.rs); P-256's adds in Jacobian coordinates")]
            /// `a` if `mask` is all ones, else `b`.
            #[inline(always)]
            pub(crate) fn select(mask: u64, a: &Point, b: &Point) -> Point {
                Point {
                    x: Fe::select(mask, &a.x, &b.x),
                    y: Fe::select(mask, &a.y, &b.y),
                    z: Fe::select(mask, &a.z, &b.z),
                }
            }

            /// The affine x- and y-coordinates, `None` for the identity (`Z = 0`).
            /// The verdict is computed in constant time and returned as a mask
            /// (all ones iff the identity); the caller makes it public.
            pub(crate) fn to_affine<A: Arith>(self, ar: A) -> (Affine, u64) {
                let zi = ar.invert(&self.z);
                let a = Affine {
                    x: ar.mul(&self.x, &zi),
                    y: ar.mul(&self.y, &zi),
                };
                (a, self.z.is_zero_mask())
            }

            /// Wipes the coordinates.
            pub(crate) fn wipe(&mut self) {
                for f in [&mut self.x, &mut self.y, &mut self.z] {
                    f.0.zeroize();
                }
            }
        }

        #[allow(dead_code, reason = "P-384's fixed-base product only (nistp384/base.rs); P-256's adds in Jacobian coordinates")]
        /// `p + q` for an affine `q` (`Z2 = 1`), RCB 2016 Algorithm 5 (a = −3).
        /// Complete for every `p`; `q` cannot be the identity (callers that need
        /// that select `p` afterwards).
        #[inline(always)]
        pub(crate) fn add_affine<A: Arith>(ar: A, p: &Point, q: &Affine) -> Point {
            let (x1, y1, z1, x2, y2) = (&p.x, &p.y, &p.z, &q.x, &q.y);
            let t0 = ar.mul(x1, x2);
            let t1 = ar.mul(y1, y2);
            let t3 = ar.mul(&ar.add(x2, y2), &ar.add(x1, y1));
            let t4 = ar.add(&t0, &t1);
            let t3 = ar.sub(&t3, &t4);
            let t4 = ar.add(&ar.mul(y2, z1), y1);
            let y3 = ar.add(&ar.mul(x2, z1), x1);
            finish(ar, t0, t1, *z1, t3, t4, y3)
        }

        #[allow(dead_code, reason = "P-384's fixed-base product only (nistp384/base.rs); P-256's adds in Jacobian coordinates")]
        /// The common tail of Algorithms 4 and 5 of RCB 2016 (from `Z3 ← b·t2`; `t2 = Z1·Z2`,
        /// which is `Z1` in Algorithm 5, and `y3` the `(X1 + Z1)(X2 + Z2) − t0 −
        /// t2` of Algorithm 4 / `X2·Z1 + X1` of Algorithm 5). Each "`t ← u + u;
        /// u ← t + u`" of the paper (`u ← 3u`) is one [`Arith::triple`].
        #[inline(always)]
        fn finish<A: Arith>(ar: A, t0: Fe, t1: Fe, t2: Fe, t3: Fe, t4: Fe, y3: Fe) -> Point {
            let z3 = ar.mul(&Fe::B, &t2);
            let x3 = ar.triple(&ar.sub(&y3, &z3));
            let z3 = ar.sub(&t1, &x3);
            let x3 = ar.add(&t1, &x3);
            let y3 = ar.mul(&Fe::B, &y3);
            let t2 = ar.triple(&t2);
            let y3 = ar.sub(&y3, &t2);
            let y3 = ar.triple(&ar.sub(&y3, &t0));
            let t0 = ar.sub(&ar.triple(&t0), &t2);
            let t1 = ar.mul(&t4, &y3);
            let t2 = ar.mul(&t0, &y3);
            let y3 = ar.mul(&x3, &z3);
            let y3 = ar.add(&y3, &t2);
            let x3 = ar.mul(&t3, &x3);
            let x3 = ar.sub(&x3, &t1);
            let z3 = ar.mul(&t4, &z3);
            let t1 = ar.mul(&t3, &t0);
            let z3 = ar.add(&z3, &t1);
            Point {
                x: x3,
                y: y3,
                z: z3,
            }
        }

        /// A point in Jacobian coordinates `(X : Y : Z)`, `x = X/Z²`, `y = Y/Z³`;
        /// the identity is any `(t² : t³ : 0)`, `t ≠ 0`.
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct Jacobian {
            pub(crate) x: Fe,
            pub(crate) y: Fe,
            pub(crate) z: Fe,
        }

        impl Jacobian {
            /// The identity `(1 : 1 : 0)`.
            pub(crate) const IDENTITY: Jacobian = Jacobian {
                x: Fe::ONE,
                y: Fe::ONE,
                z: Fe::ZERO,
            };

            /// `a` if `mask` is all ones, else `b`.
            #[inline(always)]
            pub(crate) fn select(mask: u64, a: &Jacobian, b: &Jacobian) -> Jacobian {
                Jacobian {
                    x: Fe::select(mask, &a.x, &b.x),
                    y: Fe::select(mask, &a.y, &b.y),
                    z: Fe::select(mask, &a.z, &b.z),
                }
            }

            #[allow(dead_code, reason = "P-384's fixed-base product only (nistp384/base.rs); P-256's adds in Jacobian coordinates")]
            /// The projective `(X : Y : Z)` as `(X·Z : Y·Z² : Z)`. The identity
            /// `(0 : Y : 0)` would become `(0 : 0 : 0)`, which is no point: `Y` is
            /// set to 1 by a mask when `Z = 0` (on the curve `Z = 0` forces
            /// `X = 0`; [`jacobian_double`] keeps `(0 : Y : 0)`, `Y ≠ 0`, the identity).
            #[inline(always)]
            pub(crate) fn from_projective<A: Arith>(ar: A, p: &Point) -> Jacobian {
                let zz = ar.square(&p.z);
                let y = ar.mul(&p.y, &zz);
                let inf = $crate::nist_curve::opaque(p.z.is_zero_mask());
                Jacobian {
                    x: ar.mul(&p.x, &p.z),
                    y: Fe::select(inf, &Fe::ONE, &y),
                    z: p.z,
                }
            }

            /// The projective `(X·Z : Y : Z³)` (`x = X·Z/Z³ = X/Z²`, `y = Y/Z³`);
            /// the identity `(X : Y : 0)` becomes `(0 : Y : 0)` with `Y ≠ 0`.
            #[inline(always)]
            pub(crate) fn to_projective<A: Arith>(self, ar: A) -> Point {
                let zz = ar.square(&self.z);
                Point {
                    x: ar.mul(&self.x, &self.z),
                    y: self.y,
                    z: ar.mul(&zz, &self.z),
                }
            }

            /// Wipes the coordinates.
            pub(crate) fn wipe(&mut self) {
                for f in [&mut self.x, &mut self.y, &mut self.z] {
                    f.0.zeroize();
                }
            }
        }

        /// `2·p` in Jacobian coordinates for a = −3: "dbl-2001-b" of the
        /// Explicit-Formulas Database (Bernstein 2001): `δ = Z²`, `γ = Y²`,
        /// `β = X·γ`, `α = 3(X − δ)(X + δ)`, `X3 = α² − 8β`, `Z3 = 2·Y·Z` (the
        /// database's `(Y + Z)² − γ − δ`, the same value), `Y3 = α(4β − X3) − 8γ²`;
        /// here with `g = 2γ`: `4β = 2·X·g`, `8γ² = 2·g²`. 4M + 4S. Never divides,
        /// so no case split: the identity as [`Jacobian::from_projective`] makes it,
        /// `(0 : Y : 0)` with `Y ≠ 0`, stays one (`δ = α = 0`, so `X3 = Z3 = 0` and
        /// `Y3 = −8Y⁴ ≠ 0`), and a prime-order curve has no point with `Y = 0`.
        #[inline(always)]
        pub(crate) fn jacobian_double<A: Arith>(ar: A, p: &Jacobian) -> Jacobian {
            jacobian_double_n(ar, p, 1)
        }

        /// `n` doublings ([`jacobian_double`] `n` times) in one call of
        /// `FieldArith::jacobian_double_n` (one assembly block on P-256's
        /// kernel path).
        #[inline(always)]
        pub(crate) fn jacobian_double_n<A: Arith>(ar: A, p: &Jacobian, n: u32) -> Jacobian {
            let [x, y, z] = ar.jacobian_double_n(&[p.x, p.y, p.z], n);
            Jacobian { x, y, z }
        }

        /// `p + q` for an affine `q` (`Z2 = 1`) in Jacobian coordinates:
        /// "madd-2004-hmv" of the Explicit-Formulas Database (Hankerson–
        /// Menezes–Vanstone 2004, Algorithm 3.22): `U2 = X2·Z1²`, `S2 = Y2·Z1³`,
        /// `H = U2 − X1`, `r = S2 − Y1`, `X3 = r² − H³ − 2·X1·H²`, `Y3 = r·(X1·H²
        /// − X3) − Y1·H³`, `Z3 = Z1·H`. 8M + 3S. Not complete: wrong for `p = q`
        /// (`H = r = 0`, `Z3 = 0`) and for `p` the identity; `p = −q` gives
        /// `Z3 = 0`, the identity. The callers rule the first case out for their
        /// scalars and select around the identities by masks. The formula is
        /// `FieldArith::jacobian_add_affine` (one assembly block on P-256's
        /// kernel path).
        #[inline(always)]
        pub(crate) fn jacobian_add_affine<A: Arith>(ar: A, p: &Jacobian, q: &Affine) -> Jacobian {
            let [x, y, z] = ar.jacobian_add_affine(&[p.x, p.y, p.z], &[q.x, q.y]);
            Jacobian { x, y, z }
        }

        /// `d·Q` (SEC 1 v2 §3.3.1's ECDH primitive needs its x-coordinate) for
        /// `d ∈ [0, n − 1]`: the fixed-window method, w = 5, over the signed
        /// digits `e_i` of `nist_curve::digits_w5`, in Jacobian coordinates:
        /// five doublings ([`jacobian_double`], 4M + 4S) and one mixed addition
        /// ([`jacobian_add_affine`], 8M + 3S) of a scanned table entry per digit
        /// below the top one, the same sequence for every `d`. The table
        /// `1·Q … 16·Q` is built in Jacobian coordinates with doublings and
        /// mixed additions of the affine `Q`, made affine with one inversion,
        /// and scanned with AVX2 if `avx` holds the token. `Q` is
        /// public (a point of prime order n); `d` secret. The working values
        /// are wiped.
        ///
        /// The addition is not complete, and needs none of its exceptions by
        /// value: with `k_i = Σ_{j ≥ i} e_j·32^(j−i)` the accumulator before
        /// digit `i` is `32·k_{i+1}·Q` and `k_i = 32·k_{i+1} + e_i`. The cases
        /// "accumulator is the identity" (`k_{i+1} = 0`) and "`e_i = 0`" are
        /// tracked by masks and selected around. Otherwise `32·k_{i+1} ≡ ±e_i
        /// (mod n)` would be needed: for `i ≥ 1`, `|k_i| < n/32 + 1`, so it
        /// would hold over the integers, impossible for `k_{i+1} ≠ 0` since
        /// `|e_i| ≤ 16 < 32`; for `i = 0` (`k_0 = d`), `d ≢ 0`, and `d = 2·e_0 + n`
        /// would need `e_0 ≡ −n (mod 32)`, which is 15 for P-256 and 13 for
        /// P-384, not a digit in `[−16, −1]`.
        pub(crate) fn mul<A: Arith>(
            ar: A,
            q: &Affine,
            d: &[u64; $limbs],
            avx: Option<Avx2>,
        ) -> Point {
            // The table `m·Q`, `m = 1 … 16`: even `m` by doubling `(m/2)·Q`
            // (4M + 4S), odd `m` by the mixed addition `(m − 1)·Q + Q` (8M + 3S;
            // `(m − 1)·Q ≠ ±Q` for `m ≤ 16 < n − 1`, so it is exact). The order
            // is public (Q is the peer's point).
            let mut jt = [Jacobian {
                x: q.x,
                y: q.y,
                z: Fe::ONE,
            }; 16];
            for k in 1..16 {
                let m = k + 1;
                jt[k] = if m & 1 == 0 {
                    jacobian_double(ar, &jt[(m >> 1) - 1])
                } else {
                    jacobian_add_affine(ar, &jt[m - 2], q)
                };
            }
            // Made affine with one inversion (Montgomery's simultaneous
            // inversion: prefix products `c_k = Z_1···Z_k`, then `1/Z_k =
            // c_(k−1)/c_k` walking down), so that each window adds by the mixed
            // formula (8M + 3S instead of 12M + 4S) and scans 2 coordinates, not
            // 3. No `Z_k` is 0: `m·Q ≠ O` for `m ≤ 16 < n`.
            let mut c = [Fe::ONE; 16];
            for k in 1..16 {
                c[k] = ar.mul(&c[k - 1], &jt[k].z);
            }
            let mut inv = ar.invert(&c[15]);
            let mut table = [[0u64; 2 * $limbs]; 16];
            for k in (0..16).rev() {
                let zi = if k > 0 { ar.mul(&inv, &c[k - 1]) } else { inv };
                if k > 0 {
                    inv = ar.mul(&inv, &jt[k].z);
                }
                let zi2 = ar.square(&zi);
                let x = ar.mul(&jt[k].x, &zi2);
                let y = ar.mul(&jt[k].y, &ar.mul(&zi2, &zi));
                for (l, v) in table[k].iter_mut().zip(x.0.iter().chain(&y.0)) {
                    *l = *v;
                }
            }
            let mut e: [i8; $digits] = $crate::nist_curve::digits_w5(d);
            let (mut t, mut inf) = select_affine(&table, e[$digits - 1], avx);
            let mut r = Jacobian {
                x: t.x,
                y: t.y,
                z: Fe::ONE,
            };
            for &ei in e[..$digits - 1].iter().rev() {
                r = jacobian_double_n(ar, &r, 5);
                let zero;
                (t, zero) = select_affine(&table, ei, avx);
                let s = jacobian_add_affine(ar, &r, &t);
                let a = Jacobian {
                    x: t.x,
                    y: t.y,
                    z: Fe::ONE,
                };
                // r + t: t if r is the identity, r if t is (e_i = 0).
                let s = Jacobian::select(inf, &a, &s);
                r = Jacobian::select(zero, &r, &s);
                inf = $crate::nist_curve::opaque(inf & zero);
            }
            t.x.0.zeroize();
            t.y.0.zeroize();
            r = Jacobian::select(inf, &Jacobian::IDENTITY, &r);
            let p = r.to_projective(ar);
            r.wipe();
            e.zeroize();
            p
        }

        /// `e·T` for `e ∈ [−16, 16] \ {0}` from a fixed-base table row `T[m − 1] =
        /// m·T` (affine `x ‖ y`), and the mask "e = 0" (all ones), in which case
        /// the point returned is not on the curve and must not be kept: the row is
        /// scanned whole at `|e|`, `y` negated by a mask if `e < 0`.
        #[inline(always)]
        fn select_affine(row: &[[u64; 2 * $limbs]; 16], e: i8, avx: Option<Avx2>) -> (Affine, u64) {
            let (abs, neg) = $crate::nist_curve::abs_sign(e);
            let mut r = $crate::nist_curve::scan_with(avx, row, abs);
            let x = Fe(core::array::from_fn(|i| r[i]));
            let y = Fe(core::array::from_fn(|i| r[$limbs + i]));
            r.zeroize();
            let ny = y.neg();
            let a = Affine {
                x,
                y: Fe::select(neg, &ny, &y),
            };
            (a, $crate::nist_curve::eq_mask(abs, 0))
        }

        #[allow(dead_code, reason = "P-384's fixed-base product only (nistp384/base.rs); P-256's adds in Jacobian coordinates")]
        /// `r + e·T` from a fixed-base table row ([`select_affine`]) by the mixed
        /// addition (RCB 2016 Algorithm 5), keeping `r` if `e = 0`.
        #[inline(always)]
        pub(crate) fn add_digit<A: Arith>(
            ar: A,
            r: &Point,
            row: &[[u64; 2 * $limbs]; 16],
            e: i8,
            avx: Option<Avx2>,
        ) -> Point {
            let (mut q, zero) = select_affine(row, e, avx);
            let s = add_affine(ar, r, &q);
            q.x.0.zeroize();
            q.y.0.zeroize();
            Point::select(zero, r, &s)
        }
    };
}
pub(crate) use a3_curve;
