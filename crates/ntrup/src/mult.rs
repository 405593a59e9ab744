//! Multiplication in R/q and R/3, R = Z[x]/(x^p - x - 1) (spec §3.1; reference
//! `Rq_mult_small`, `R3_mult`, `Rq_mult3`, `R3_fromRq`, `Round`).
//!
//! Every product here has one *small* factor (coefficients in {-1, 0, 1}), so
//! the schoolbook product needs no multiplication at all: row `i` adds
//! `±a` or nothing, selected by two masks derived from `b[i]`. The exact
//! integer product (|coefficient| <= p (q-1)/2 < 2^23) is accumulated in
//! 32-bit lanes, folded with x^p = x + 1, and reduced once per coefficient.

use crate::arith::{Fq, f3_freeze};
use crate::ct;

/// `acc[0..2p-1] = a * b` as integers, then folded mod `x^p - x - 1` into `acc[0..p]`.
#[inline(always)]
fn mul_fold<const P: usize>(acc: &mut [[i32; P]; 2], a: &[i16; P], b: &[i8; P]) {
    let acc = acc.as_flattened_mut();
    acc.fill(0);
    for (i, &bi) in b.iter().enumerate() {
        #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
        let nonzero = ct::choice_from_bit((bi & 1) as u8);
        #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
        let negative = ct::choice_from_bit(((bi >> 1) & 1) as u8);
        let m = ct::mask_i32(nonzero);
        let s = ct::mask_i32(negative);
        let row = &mut acc[i..i + P];
        for (c, &aj) in row.iter_mut().zip(a) {
            *c = c.wrapping_add(((i32::from(aj) & m) ^ s).wrapping_sub(s));
        }
    }
    // x^k = x^(k-p+1) + x^(k-p) for p <= k <= 2p-2; targets stay below p.
    let (low, high) = acc.split_at_mut(P);
    for (k, &h) in high[..P - 1].iter().enumerate() {
        low[k] = low[k].wrapping_add(h);
        low[k + 1] = low[k + 1].wrapping_add(h);
    }
}

/// `Rq_mult_small`: `h = a * b` in R/q with `b` small.
pub(crate) fn rq_mult_small<const P: usize, const Q: i16>(
    h: &mut [i16; P],
    a: &[i16; P],
    b: &[i8; P],
    acc: &mut [[i32; P]; 2],
) {
    mul_fold(acc, a, b);
    for (hi, &x) in h.iter_mut().zip(&acc[0]) {
        *hi = Fq::<Q>::freeze(x);
    }
}

/// `R3_mult`: `h = a * b` in R/3.
pub(crate) fn r3_mult<const P: usize>(
    h: &mut [i8; P],
    a: &[i8; P],
    b: &[i8; P],
    acc: &mut [[i32; P]; 2],
    tmp: &mut [i16; P],
) {
    for (t, &x) in tmp.iter_mut().zip(a) {
        *t = i16::from(x);
    }
    mul_fold(acc, tmp, b);
    for (hi, &x) in h.iter_mut().zip(&acc[0]) {
        *hi = f3_freeze(x);
    }
}

/// `Round`: each coefficient to the nearest multiple of 3.
pub(crate) fn round<const P: usize>(c: &mut [i16; P]) {
    for x in c.iter_mut() {
        *x = x.wrapping_sub(i16::from(f3_freeze(i32::from(*x))));
    }
}

/// `R3_fromRq(Rq_mult3(c))`: the coefficients of `3c` in R/q, lifted and reduced mod 3.
pub(crate) fn r3_from_3rq<const P: usize, const Q: i16>(e: &mut [i8; P], c: &[i16; P]) {
    for (ei, &x) in e.iter_mut().zip(c) {
        *ei = f3_freeze(i32::from(Fq::<Q>::freeze(3 * i32::from(x))));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::prelude::rust_2024::*;
    use std::vec;

    /// Schoolbook reference product with explicit reduction (test oracle).
    pub(crate) fn naive<const P: usize>(a: &[i32; P], b: &[i32; P], m: i32) -> [i32; P] {
        let mut full = vec![0i64; 2 * P - 1];
        for i in 0..P {
            for j in 0..P {
                full[i + j] += i64::from(a[i]) * i64::from(b[j]);
            }
        }
        for k in (P..2 * P - 1).rev() {
            full[k - P] += full[k];
            full[k - P + 1] += full[k];
            full[k] = 0;
        }
        let mut out = [0i32; P];
        for i in 0..P {
            let mut r = full[i].rem_euclid(i64::from(m));
            if r > i64::from(m) / 2 {
                r -= i64::from(m);
            }
            out[i] = r as i32;
        }
        out
    }

    fn lcg(s: &mut u64) -> u32 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*s >> 33) as u32
    }

    #[test]
    fn rq_mult_matches_naive() {
        const P: usize = 761;
        const Q: i16 = 4591;
        let mut s = 1u64;
        for _ in 0..3 {
            let a: [i16; P] = core::array::from_fn(|_| (lcg(&mut s) % 4591) as i16 - 2295);
            let b: [i8; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1);
            let mut h = [0i16; P];
            let mut acc = Box::new([[0i32; P]; 2]);
            rq_mult_small::<P, Q>(&mut h, &a, &b, &mut acc);
            let want = naive(&a.map(i32::from), &b.map(i32::from), 4591);
            assert_eq!(h.map(i32::from), want);
            let mut h3 = [0i8; P];
            let mut tmp = [0i16; P];
            r3_mult(&mut h3, &b, &b, &mut acc, &mut tmp);
            let want3 = naive(&b.map(i32::from), &b.map(i32::from), 3);
            assert_eq!(h3.map(i32::from), want3);
        }
    }
}
