//! Reciprocals in R/3 and R/q by constant-time division steps (spec §3.1 and
//! the reference `R3_recip`, `Rq_recip3`; Bernstein–Yang "safegcd" divsteps).
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

use crate::arith::{Fq, f3_freeze_small};
use crate::ct;

/// `R3_recip`: `out = 1/input` in R/3. Returns a set `Choice` if the
/// reciprocal exists (`delta == 0` at the end); `out` is garbage otherwise.
///
/// `buf` is scratch (6p entries hold f, g, r, v and the next v, each of p+1 coefficients).
pub(crate) fn r3_recip<const P: usize>(
    out: &mut [i8; P],
    input: &[i8; P],
    buf: &mut [[i8; P]; 6],
) -> ct::Choice {
    let flat = buf.as_flattened_mut();
    flat.fill(0);
    let (f, rest) = flat.split_at_mut(P + 1);
    let (g, rest) = rest.split_at_mut(P + 1);
    let (r, rest) = rest.split_at_mut(P + 1);
    let (va, vb) = rest.split_at_mut(P + 1);
    let (mut v, mut vnew) = (va, &mut vb[..P + 1]);

    r[0] = 1;
    f[0] = 1;
    f[P - 1] = -1;
    f[P] = -1;
    for (i, &x) in input.iter().enumerate() {
        g[P - 1 - i] = x;
    }
    let mut delta: i32 = 1;

    for k in 0..2 * P - 1 {
        let n = (2 * P - 1 - k).min(P + 1);
        let mv = (k + 1).min(P + 1);
        let (f0, g0) = (f[0], g[0]);
        let swap = ct::positive_i32(delta) & ct::nonzero_i32(i32::from(g0));
        let sm = ct::mask_i8(swap);
        // delta = swap ? -delta : delta; then + 1
        let dm = ct::mask_i32(swap);
        delta = ((delta ^ dm).wrapping_sub(dm)).wrapping_add(1);
        // sign = -f0 * g0 eliminates the constant term whichever way we swapped.
        let sign = f0.wrapping_mul(g0).wrapping_neg();

        let (nf0, _) = ct::cswap_i8(f0, g0, sm);
        f[0] = nf0;
        for i in 1..n {
            let (fi, gi) = ct::cswap_i8(f[i], g[i], sm);
            f[i] = fi;
            g[i - 1] = f3_freeze_small(gi.wrapping_add(sign.wrapping_mul(fi)));
        }
        g[n - 1] = 0;

        // v <- x v (into vnew), then swap with r, then r <- r + sign v.
        let (vi, ri) = ct::cswap_i8(0, r[0], sm);
        vnew[0] = vi;
        r[0] = f3_freeze_small(ri.wrapping_add(sign.wrapping_mul(vi)));
        for i in 1..mv {
            let (vi, ri) = ct::cswap_i8(v[i - 1], r[i], sm);
            vnew[i] = vi;
            r[i] = f3_freeze_small(ri.wrapping_add(sign.wrapping_mul(vi)));
        }
        core::mem::swap(&mut v, &mut vnew);
    }

    let sign = f[0];
    for (i, o) in out.iter_mut().enumerate() {
        *o = sign.wrapping_mul(v[P - 1 - i]);
    }
    !ct::nonzero_i32(delta)
}

/// `Rq_recip3`: `out = 1/(3 input)` in R/q. Returns a set `Choice` on success
/// (always, for the short `f` of key generation).
///
/// Coefficients are kept in Montgomery-friendly 16-bit lanes, in
/// `(-1.24 q, 1.24 q)`: each update is two Montgomery products by the
/// (pre-scaled) constant terms, so no coefficient is ever fully reduced
/// inside the loop.
pub(crate) fn rq_recip3<const P: usize, const Q: i16>(
    out: &mut [i16; P],
    input: &[i8; P],
    buf: &mut [[i16; P]; 6],
) -> ct::Choice {
    let flat = buf.as_flattened_mut();
    flat.fill(0);
    let (f, rest) = flat.split_at_mut(P + 1);
    let (g, rest) = rest.split_at_mut(P + 1);
    let (r, rest) = rest.split_at_mut(P + 1);
    let (va, vb) = rest.split_at_mut(P + 1);
    let (mut v, mut vnew) = (va, &mut vb[..P + 1]);

    r[0] = Fq::<Q>::recip(3);
    f[0] = 1;
    f[P - 1] = -1;
    f[P] = -1;
    for (i, &x) in input.iter().enumerate() {
        g[P - 1 - i] = i16::from(x);
    }
    let mut delta: i32 = 1;

    for k in 0..2 * P - 1 {
        let n = (2 * P - 1 - k).min(P + 1);
        let mv = (k + 1).min(P + 1);
        let f0 = Fq::<Q>::freeze(i32::from(f[0]));
        let g0 = Fq::<Q>::freeze(i32::from(g[0]));
        let swap = ct::positive_i32(delta) & ct::nonzero_i32(i32::from(g0));
        let sm = ct::mask_i16(swap);
        let dm = ct::mask_i32(swap);
        delta = ((delta ^ dm).wrapping_sub(dm)).wrapping_add(1);
        let (f0, g0) = ct::cswap_i16(f0, g0, sm);
        // Montgomery-scaled constants: montmul(x * 2^16, y) = x y mod q.
        let f0m = Fq::<Q>::freeze(i32::from(f0) * Fq::<Q>::MONT);
        let g0m = Fq::<Q>::freeze(i32::from(g0) * Fq::<Q>::MONT);

        let (nf0, _) = ct::cswap_i16(f[0], g[0], sm);
        f[0] = nf0;
        for i in 1..n {
            let (fi, gi) = ct::cswap_i16(f[i], g[i], sm);
            f[i] = fi;
            g[i - 1] = Fq::<Q>::montmul(f0m, gi).wrapping_sub(Fq::<Q>::montmul(g0m, fi));
        }
        g[n - 1] = 0;

        let (vi, ri) = ct::cswap_i16(0, r[0], sm);
        vnew[0] = vi;
        r[0] = Fq::<Q>::montmul(f0m, ri).wrapping_sub(Fq::<Q>::montmul(g0m, vi));
        for i in 1..mv {
            let (vi, ri) = ct::cswap_i16(v[i - 1], r[i], sm);
            vnew[i] = vi;
            r[i] = Fq::<Q>::montmul(f0m, ri).wrapping_sub(Fq::<Q>::montmul(g0m, vi));
        }
        core::mem::swap(&mut v, &mut vnew);
    }

    let scale = Fq::<Q>::recip(Fq::<Q>::freeze(i32::from(f[0])));
    for (i, o) in out.iter_mut().enumerate() {
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
            let mut buf = Box::new([[0i8; P]; 6]);
            if bool::from(r3_recip(&mut inv, &g, &mut buf)) {
                ok3 += 1;
                let prod = naive(&g.map(i32::from), &inv.map(i32::from), 3);
                let mut one = [0i32; P];
                one[0] = 1;
                assert_eq!(prod, one);
            }
            let mut invq = [0i16; P];
            let mut bufq = Box::new([[0i16; P]; 6]);
            assert!(bool::from(rq_recip3::<P, Q>(&mut invq, &g, &mut bufq)));
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
        let mut buf = Box::new([[0i8; P]; 6]);
        assert!(!bool::from(r3_recip(&mut inv, &z, &mut buf)));
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
