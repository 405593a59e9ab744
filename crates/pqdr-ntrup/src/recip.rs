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

use crate::arch::{self, Avx2, RecipState};
use crate::arith::{Fq, f3_freeze_small};
use crate::ct;
use crate::divsteps::{State, divsteps, r3_lane, r3_sign_masks, rows_fg_moved, rows_vr_moved};

/// 16-bit lanes per 128-bit vector register.
const LANES: usize = 8;

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
            let rfg = |f: &mut [i8], g: &mut [i8], nb, _| rows_fg_moved(f, g, nb, blk, false);
            let rvr = |v: &mut [i8], r: &mut [i8], nb, _| rows_vr_moved(v, r, nb, blk, false);
        }
        swap: swp, lane: lane, rows_fg: rfg, rows_vr: rvr,
    );
    let sign = f[0];
    for (i, o) in out.iter_mut().enumerate() {
        *o = sign.wrapping_mul(v[P - 1 - i]);
    }
    !ct::nonzero_i32(delta)
}

/// `Rq_recip3` (Core `KeyGen`'s `1/(3f)`, NTRU Prime spec §2.3):
/// `buf.c[0] = 1/(3 input)` in R/q (`input` yields the p coefficients in order). Returns a set `Choice` on success (always,
/// for the short `f` of key generation).
///
/// Coefficients are kept in 16-bit lanes in `(-2q, 2q)`: each update
/// `f0 g - g0 f` is two Shoup products by the (frozen) constant terms, each in
/// `[-q/2, 3q/2)`, so no coefficient is ever fully reduced inside the loop.
/// `buf` is the state as for [`r3_recip`], in 8-lane blocks; the result
/// replaces f (`buf[0]`), so no caller needs a separate output array.
pub(crate) fn rq_recip3<const P: usize, const Q: i16>(
    buf: &mut RecipState<P>,
    input: impl IntoIterator<Item = i8>,
) -> ct::Choice {
    rq_recip3_on::<P, Q>(buf, input, arch::avx2())
}

/// [`rq_recip3`] on the given backend (the tests compare both).
pub(crate) fn rq_recip3_on<const P: usize, const Q: i16>(
    buf: &mut RecipState<P>,
    input: impl IntoIterator<Item = i8>,
    be: Option<Avx2>,
) -> ct::Choice {
    if let Some(token) = be {
        return arch::rq_recip3::<P, Q>(token, buf, input);
    }
    let freeze = |x: i16| Fq::<Q>::freeze(i32::from(x));
    let (f, v, delta) = divsteps!(
        P, LANES, State::init::<P>(buf.c.as_flattened_mut(), input, Fq::<Q>::recip(3)),
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
            let rfg = |f: &mut [i16], g: &mut [i16], nb, _| rows_fg_moved(f, g, nb, blk, true);
            let rvr = |v: &mut [i16], r: &mut [i16], nb, _| rows_vr_moved(v, r, nb, blk, true);
        }
        swap: swp, lane: lane, rows_fg: rfg, rows_vr: rvr,
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
    use crate::test_util::lcg;
    use std::prelude::rust_2024::*;

    use crate::mult::tests::naive;

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
            let mut bufq = Box::new(RecipState::<P>::new());
            assert!(bool::from(rq_recip3::<P, Q>(&mut bufq, g.iter().copied())));
            let invq = bufq.c[0];
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

    /// Edge inputs of the reciprocal tests: 0 (not invertible), the
    /// constants ±1, the monomials at both ends, all ones / all minus ones,
    /// alternating signs, the densest and a single top coefficient.
    fn edge_inputs<const P: usize>() -> Vec<[i8; P]> {
        let mut v = vec![[0i8; P]];
        for c in [1i8, -1] {
            let mut g = [0i8; P];
            g[0] = c;
            v.push(g);
            let mut g = [0i8; P];
            g[P - 1] = c;
            v.push(g);
            v.push([c; P]);
            v.push(core::array::from_fn(|i| if i % 2 == 0 { c } else { -c }));
            let mut g = [0i8; P];
            g[0] = c;
            g[1] = -c; // c (1 - x)
            v.push(g);
            let mut g = [c; P];
            g[P - 1] = 0;
            v.push(g);
        }
        v
    }

    /// AVX2 against portable reciprocals: the edge inputs, then `n` random
    /// small inputs for one (p, q), bit-identical outputs and success
    /// flags; both outcomes (invertible in R/3 or not) must occur.
    fn differential<const P: usize, const Q: i16>(n: usize, seed: u64) {
        let be = crate::mult::tests::detected();
        let mut s = seed;
        let mut buf3 = Box::new([[0i8; P]; 4]);
        let mut bufq = Box::new(RecipState::<P>::new());
        let edges = edge_inputs::<P>();
        let mut seen = [0usize; 2];
        for round in 0..edges.len() + n {
            let g: [i8; P] = match edges.get(round) {
                Some(g) => *g,
                None => core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1),
            };
            let mut inv = [[0i8; P]; 2];
            let mut ok = [false; 2];
            let mut invq = [[0i16; P]; 2];
            let mut okq = [false; 2];
            for (k, on) in [None, be].into_iter().enumerate() {
                ok[k] = bool::from(r3_recip_on(&mut inv[k], &g, &mut buf3, on));
                okq[k] = bool::from(rq_recip3_on::<P, Q>(&mut bufq, g.iter().copied(), on));
                invq[k] = bufq.c[0];
            }
            seen[usize::from(ok[0])] += 1;
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
        assert!(seen[0] > 0 && seen[1] > 0, "p = {P}: outcomes {seen:?}");
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
