//! Reciprocals in R/3 and R/q by constant-time division steps: the `1/g` in
//! R/3 and `1/(3f)` in R/q of Core `KeyGen` (NTRU Prime spec §2.3); reference
//! `R3_recip`, `Rq_recip3`; Bernstein–Yang "safegcd" divsteps.
//!
//! Both run exactly `2p - 1` division steps on the reversed polynomials
//! `f = x^p - x - 1` and `g = in`. A step conditionally swaps (f, g) and
//! (v, r) when `delta > 0` and `g(0) != 0`, eliminates the constant term of
//! `g`, divides `g` by x and multiplies `v` by x. The swap condition and
//! every coefficient stay secret: swaps are masks, `delta` is arithmetic.
//!
//! Work per step is limited to the coefficients that can still matter, and
//! those bounds depend only on the public step counter: after step `k`,
//! `v` and `r` have degree <= k, and only the first `2p - 1 - k` coefficients
//! of `f` and `g` influence the remaining steps.
//!
//! The steps are written once (`divsteps!`); the two rings differ only in
//! the elimination inside one step ([`block3`] and [`block`], and their
//! one-lane forms).

use crate::arch::{self, Avx2};
use crate::arith::{Fq, f3_freeze_small};
use crate::ct;

/// 16-bit lanes per 128-bit vector register.
const LANES: usize = 8;

/// The division-step state: f, g, r and v, each of p coefficients, carved
/// out of one zeroed scratch buffer, updated in place. The top coefficient
/// `f[p]` of the reversed `f` is the scalar `fp`; `g[p]` is 0 before every
/// step (each step shifts g down), so it is not stored. Coefficient p of v
/// and r never reaches the result (v only moves up), so they end at p - 1.
pub(crate) struct State<'a, T> {
    pub(crate) f: &'a mut [T],
    pub(crate) g: &'a mut [T],
    pub(crate) r: &'a mut [T],
    pub(crate) v: &'a mut [T],
    pub(crate) fp: T,
}

impl<'a, T: Copy + Default + From<i8>> State<'a, T> {
    /// f = x^p - x - 1 and g = `input` (p coefficients), both reversed; r = `r0`; v = 0.
    pub(crate) fn init<const P: usize>(
        flat: &'a mut [T],
        input: impl IntoIterator<Item = i8>,
        r0: T,
    ) -> Self {
        flat.fill(T::default());
        let (f, rest) = flat.split_at_mut(P);
        let (g, rest) = rest.split_at_mut(P);
        let (r, rest) = rest.split_at_mut(P);
        let v = &mut rest[..P];
        r[0] = r0;
        f[0] = T::from(1);
        f[P - 1] = T::from(-1);
        for (gi, x) in g.iter_mut().rev().zip(input) {
            *gi = T::from(x);
        }
        State {
            f,
            g,
            r,
            v,
            fp: T::from(-1),
        }
    }
}

/// 8-bit lanes per 128-bit vector register.
const LANES3: usize = 16;

/// One 16-lane block of an R/3 division step: conditionally swap `(f, g)`,
/// then return `g + sign f` (`sign` as the masks `nz`, `neg`), frozen.
#[inline(always)]
fn block3(f: &mut [i8; LANES3], g: &[i8; LANES3], sm: i8, nz: i8, neg: i8) -> [i8; LANES3] {
    let mut fl = *f;
    let mut o = [0i8; LANES3];
    for l in 0..LANES3 {
        let (a, b) = ct::cswap_i8(fl[l], g[l], sm);
        fl[l] = a;
        o[l] = f3_freeze_small(b.wrapping_add(((a & nz) ^ neg).wrapping_sub(neg)));
    }
    *f = fl;
    o
}

/// One 8-lane block of a division step: conditionally swap `(f, g)`, then
/// return `f0 g - g0 f` (constants `c = [f0, f0', g0, g0']` as lane vectors).
#[inline(always)]
fn block<const Q: i16>(
    f: &mut [i16; LANES],
    g: &[i16; LANES],
    sm: i16,
    c: &[[i16; LANES]; 4],
) -> [i16; LANES] {
    let mut fl = *f;
    let mut o = [0i16; LANES];
    for l in 0..LANES {
        let (a, b) = ct::cswap_i16(fl[l], g[l], sm);
        fl[l] = a;
        o[l] = Fq::<Q>::mul_shoup(b, c[0][l], c[1][l])
            .wrapping_sub(Fq::<Q>::mul_shoup(a, c[2][l], c[3][l]));
    }
    *f = fl;
    o
}

/// The `2p - 1` division steps on a [`State`], written once for both rings.
/// Each step computes the constant terms with `terms`, the swap decision and
/// `delta`, then runs the ring's per-step statements, which define `swap`
/// (the conditional swap of two coefficients), `lane` (one coefficient: swap
/// `(f, g)`, return the eliminated `g`) and `block` (the same on one block of
/// `L` lanes). Every array is updated in place: the elimination works
/// position by position on whole blocks, and the division of g by x (the
/// multiplication of v by x) is one memory move of the live part, so no
/// second copy of g or v is kept.
/// Evaluates to the final `(f, v, delta)`.
macro_rules! divsteps {
    (
        $P:expr, $L:expr, $state:expr, terms: $terms:expr,
        per_step($f0:ident, $g0:ident, $swap:ident) { $($body:tt)* }
        swap: $swp:ident, lane: $lane:ident, block: $blk:ident, barrier: $bar:expr $(,)?
    ) => {{
        let State { f, g, r, v, mut fp } = $state;
        let mut delta: i32 = 1;

        for k in 0..2 * $P - 1 {
            // Coefficients of f and g that still matter (f[p] included when n = p + 1),
            // and the length of v and r so far (degree <= k).
            let n = (2 * $P - 1 - k).min($P + 1);
            let m = n.min($P);
            let mv = (k + 1).min($P);
            let ($f0, $g0) = ($terms)(f[0], g[0]);
            let $swap = ct::positive_i32(delta) & ct::nonzero_i32(i32::from($g0));
            // delta = swap ? -delta : delta; then + 1
            let dm = ct::mask_i32($swap);
            delta = ((delta ^ dm).wrapping_sub(dm)).wrapping_add(1);
            $($body)*

            // f, g: swap, eliminate (in place), then divide g by x (one move down).
            f[0] = $swp(f[0], g[0]).0;
            {
                let (fb, ft) = f[1..m].as_chunks_mut::<{ $L }>();
                let (gb, gt) = g[1..m].as_chunks_mut::<{ $L }>();
                for (fc, gc) in fb.iter_mut().zip(gb.iter_mut()) {
                    *gc = $blk(fc, gc);
                    // With `barrier`: keeps the loop vectoriser off this loop
                    // (for 8-lane blocks it would interleave the lanes of 4
                    // blocks, three times slower than the blocks as vectors).
                    if $bar {
                        core::hint::black_box(&*gc);
                    }
                }
                for (fi, gi) in ft.iter_mut().zip(gt.iter_mut()) {
                    *gi = $lane(fi, *gi);
                }
            }
            g.copy_within(1..m, 0);
            if n == $P + 1 {
                // f[p] against g[p] = 0.
                g[$P - 1] = $lane(&mut fp, 0);
            } else {
                g[n - 1] = 0;
            }

            // v, r: v <- x v (one move up), swap with r, eliminate in r (in place).
            v.copy_within(..mv - 1, 1);
            v[0] = 0;
            r[0] = $lane(&mut v[0], r[0]);
            {
                let (vb, vt) = v[1..mv].as_chunks_mut::<{ $L }>();
                let (rb, rt) = r[1..mv].as_chunks_mut::<{ $L }>();
                for (vc, rc) in vb.iter_mut().zip(rb.iter_mut()) {
                    *rc = $blk(vc, rc);
                    if $bar {
                        core::hint::black_box(&*rc);
                    }
                }
                for (vi, ri) in vt.iter_mut().zip(rt.iter_mut()) {
                    *ri = $lane(vi, *ri);
                }
            }
        }
        (f, v, delta)
    }};
}
// The AVX2 twins (arch/x86_64/recip.rs) run the same steps on wider blocks.
#[allow(
    unused_imports,
    reason = "used by arch/x86_64/recip.rs in `simd` builds"
)]
pub(crate) use divsteps;

/// `R3_recip` (Core `KeyGen`'s `1/g`, NTRU Prime spec §2.3): `out = 1/input`
/// in R/3. Returns a set `Choice` if the reciprocal exists (`delta == 0` at
/// the end); `out` is garbage otherwise.
///
/// `buf` is scratch: f, g, r and v, each of p coefficients, updated in place.
pub(crate) fn r3_recip<const P: usize>(
    out: &mut [i8; P],
    input: &[i8; P],
    buf: &mut [[i8; P]; 4],
) -> ct::Choice {
    r3_recip_on(out, input, buf, arch::avx2())
}

/// The R/3 division step's multiplier `sign = -f0 * g0` (it eliminates the
/// constant term whichever way the step swapped) as masks `(nz, neg)`, so
/// that `sign * x = (x & nz) ^ neg - neg` without a branch.
#[inline(always)]
pub(crate) fn r3_sign_masks(f0: i8, g0: i8) -> (i8, i8) {
    let sign = f0.wrapping_mul(g0).wrapping_neg();
    #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
    let nz = ct::mask_i8(ct::choice_from_bit((sign & 1) as u8));
    #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
    let neg = ct::mask_i8(ct::choice_from_bit(((sign >> 1) & 1) as u8));
    (nz, neg)
}

/// One coefficient of the R/3 division step: swap `(f, g)` under `sm`,
/// keep the new `f`, return `g + sign * f` in {-1, 0, 1}.
#[inline(always)]
pub(crate) fn r3_lane(f: &mut i8, g: i8, sm: i8, nz: i8, neg: i8) -> i8 {
    let (a, b) = ct::cswap_i8(*f, g, sm);
    *f = a;
    f3_freeze_small(b.wrapping_add(((a & nz) ^ neg).wrapping_sub(neg)))
}

/// [`r3_recip`] on the given backend (the tests compare both).
pub(crate) fn r3_recip_on<const P: usize>(
    out: &mut [i8; P],
    input: &[i8; P],
    buf: &mut [[i8; P]; 4],
    be: Option<Avx2>,
) -> ct::Choice {
    if let Some(token) = be {
        return arch::r3_recip(token, out, input, buf);
    }
    let (f, v, delta) = divsteps!(
        P, LANES3, State::init::<P>(buf.as_flattened_mut(), input.iter().copied(), 1),
        terms: |f0: i8, g0: i8| (f0, g0),
        per_step(f0, g0, swap) {
            let sm = ct::mask_i8(swap);
            let (nz, neg) = r3_sign_masks(f0, g0);
            let swp = |a: i8, b: i8| ct::cswap_i8(a, b, sm);
            let lane = |f: &mut i8, g: i8| r3_lane(f, g, sm, nz, neg);
            let blk = |f: &mut [i8; LANES3], g: &[i8; LANES3]| block3(f, g, sm, nz, neg);
        }
        swap: swp, lane: lane, block: blk, barrier: false,
    );
    let sign = f[0];
    for (i, o) in out.iter_mut().enumerate() {
        *o = sign.wrapping_mul(v[P - 1 - i]);
    }
    !ct::nonzero_i32(delta)
}

/// `Rq_recip3` (Core `KeyGen`'s `1/(3f)`, NTRU Prime spec §2.3):
/// `buf[0] = 1/(3 input)` in R/q (`input` yields the p coefficients in order). Returns a set `Choice` on success (always,
/// for the short `f` of key generation).
///
/// Coefficients are kept in 16-bit lanes in `(-2q, 2q)`: each update
/// `f0 g - g0 f` is two Shoup products by the (frozen) constant terms, each in
/// `[-q/2, 3q/2)`, so no coefficient is ever fully reduced inside the loop.
/// `buf` is the state as for [`r3_recip`], in 8-lane blocks; the result
/// replaces f (`buf[0]`), so no caller needs a separate output array.
pub(crate) fn rq_recip3<const P: usize, const Q: i16>(
    buf: &mut [[i16; P]; 4],
    input: impl IntoIterator<Item = i8>,
) -> ct::Choice {
    rq_recip3_on::<P, Q>(buf, input, arch::avx2())
}

/// [`rq_recip3`] on the given backend (the tests compare both).
pub(crate) fn rq_recip3_on<const P: usize, const Q: i16>(
    buf: &mut [[i16; P]; 4],
    input: impl IntoIterator<Item = i8>,
    be: Option<Avx2>,
) -> ct::Choice {
    if let Some(token) = be {
        return arch::rq_recip3::<P, Q>(token, buf, input);
    }
    let freeze = |x: i16| Fq::<Q>::freeze(i32::from(x));
    let (f, v, delta) = divsteps!(
        P, LANES, State::init::<P>(buf.as_flattened_mut(), input, Fq::<Q>::recip(3)),
        terms: |f0: i16, g0: i16| (freeze(f0), freeze(g0)),
        per_step(f0, g0, swap) {
            let sm = ct::mask_i16(swap);
            let (f0, g0) = ct::cswap_i16(f0, g0, sm);
            let (f0s, g0s) = (Fq::<Q>::shoup(f0), Fq::<Q>::shoup(g0));
            // The constants as 8-lane vectors. The barrier keeps them 16-bit
            // vectors, so the products compile to 16-bit multiply-high lanes
            // instead of widened 32-bit multiplies (values are unchanged).
            let c = core::hint::black_box([[f0; LANES], [f0s; LANES], [g0; LANES], [g0s; LANES]]);
            let swp = |a: i16, b: i16| ct::cswap_i16(a, b, sm);
            let lane = |f: &mut i16, g: i16| -> i16 {
                let (a, b) = ct::cswap_i16(*f, g, sm);
                *f = a;
                Fq::<Q>::mul_shoup(b, f0, f0s).wrapping_sub(Fq::<Q>::mul_shoup(a, g0, g0s))
            };
            let blk = |f: &mut [i16; LANES], g: &[i16; LANES]| block::<Q>(f, g, sm, &c);
        }
        swap: swp, lane: lane, block: blk, barrier: true,
    );
    let scale = Fq::<Q>::recip(freeze(f[0]));
    for (i, o) in f.iter_mut().enumerate() {
        *o = Fq::<Q>::freeze(i32::from(scale) * i32::from(v[P - 1 - i]));
    }
    !ct::nonzero_i32(delta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::prelude::rust_2024::*;

    use crate::mult::tests::naive;

    fn lcg(s: &mut u64) -> u32 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*s >> 33) as u32
    }

    fn check<const P: usize, const Q: i16>() {
        let mut s = 7u64;
        let mut ok3 = 0;
        for _ in 0..4 {
            let g: [i8; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1);
            let mut inv = [0i8; P];
            let mut buf = Box::new([[0i8; P]; 4]);
            if bool::from(r3_recip(&mut inv, &g, &mut buf)) {
                ok3 += 1;
                let prod = naive(&g.map(i32::from), &inv.map(i32::from), 3);
                let mut one = [0i32; P];
                one[0] = 1;
                assert_eq!(prod, one);
            }
            let mut bufq = Box::new([[0i16; P]; 4]);
            assert!(bool::from(rq_recip3::<P, Q>(&mut bufq, g.iter().copied())));
            let invq = bufq[0];
            let prod = naive(
                &g.map(|x| 3 * i32::from(x)),
                &invq.map(i32::from),
                i32::from(Q),
            );
            let mut one = [0i32; P];
            one[0] = 1;
            assert_eq!(prod, one);
        }
        assert!(ok3 > 0);
        // Not invertible mod 3: g = 0 and g = x - 1 + ... (all ones sums to 0 at x = 1? no; use 0).
        let z = [0i8; P];
        let mut inv = [0i8; P];
        let mut buf = Box::new([[0i8; P]; 4]);
        assert!(!bool::from(r3_recip(&mut inv, &z, &mut buf)));
    }

    /// AVX2 against portable reciprocals: `n` random small inputs (and
    /// the non-invertible 0) for one (p, q), bit-identical outputs and
    /// success flags.
    fn differential<const P: usize, const Q: i16>(n: usize, seed: u64) {
        let be = crate::mult::tests::detected();
        let mut s = seed;
        let mut buf3 = Box::new([[0i8; P]; 4]);
        let mut bufq = Box::new([[0i16; P]; 4]);
        for round in 0..n {
            let g: [i8; P] = if round == 0 {
                [0; P]
            } else {
                core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1)
            };
            let mut inv = [[0i8; P]; 2];
            let mut ok = [false; 2];
            let mut invq = [[0i16; P]; 2];
            let mut okq = [false; 2];
            for (k, on) in [None, be].into_iter().enumerate() {
                ok[k] = bool::from(r3_recip_on(&mut inv[k], &g, &mut buf3, on));
                okq[k] = bool::from(rq_recip3_on::<P, Q>(&mut bufq, g.iter().copied(), on));
                invq[k] = bufq[0];
            }
            assert_eq!(
                (ok[0], inv[0]),
                (ok[1], inv[1]),
                "R3_recip p = {P}, round {round}"
            );
            assert_eq!(
                (okq[0], invq[0]),
                (okq[1], invq[1]),
                "Rq_recip3 p = {P}, round {round}"
            );
        }
    }

    #[test]
    fn avx2_recips_match_portable() {
        differential::<653, 4621>(50, 21);
        differential::<761, 4591>(200, 22);
        differential::<857, 5167>(50, 23);
        differential::<953, 6343>(50, 24);
        differential::<1013, 7177>(50, 25);
        differential::<1277, 7879>(50, 26);
    }

    #[test]
    fn recip_653() {
        check::<653, 4621>();
    }

    #[test]
    fn recip_761() {
        check::<761, 4591>();
    }

    #[test]
    fn recip_1277() {
        check::<1277, 7879>();
    }
}
