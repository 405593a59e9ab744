//! Multiplication in R/q and R/3, R = Z[x]/(x^p - x - 1) (spec, parameter space: the rings R/q and R/3; reference
//! `Rq_mult_small`, `R3_mult`, `Rq_mult3`, `R3_fromRq`, `Round`).
//!
//! Every product here has one *small* factor (coefficients in {-1, 0, 1}),
//! so products fit 16-bit lanes. The schoolbook product is computed output
//! block by output block (32 coefficients = four 8-lane registers): for each
//! block, every row `i` adds `a[o - i] * b[i]` (a 16-bit multiply by a value
//! in {-1, 0, 1}) to accumulators that stay in registers. `a` is read from a
//! zero-padded copy so that edge rows need no special case. On a public
//! schedule of `ROWS_PER_REDUCTION` rows the accumulators are brought back into
//! `(-2q, 2q)` by a 16-bit Barrett step. At the end the top half is folded with
//! x^p = x + 1 and every coefficient is frozen once.

use crate::arith::{Fq, f3_freeze};

/// Output coefficients per block (four 8-lane vectors).
const BLOCK: usize = 32;

/// `a * b` (mod q when `REDUCE`, else exactly): the coefficients of
/// x^0 … x^(p-1) overwrite `a`, those of x^p … x^(2p-2) go to `buf[2]`;
/// `buf[0..2]` is scratch for the zero-padded copy of `a`.
#[inline(always)]
fn mul_acc<const P: usize, const Q: i16, const REDUCE: bool>(
    a: &mut [i16; P],
    b: &[i8; P],
    buf: &mut [[i16; P]; 3],
) {
    const { assert!(P >= 2 * BLOCK) };
    let (pad, hi) = buf.split_at_mut(2);
    let hi = &mut hi[0];
    let pad = pad.as_flattened_mut();
    // pad = BLOCK zeros ‖ a ‖ BLOCK zeros
    pad.fill(0);
    pad[BLOCK..BLOCK + P].copy_from_slice(a);
    let pad = &pad[..P + 2 * BLOCK];
    let rows = if REDUCE {
        Fq::<Q>::ROWS_PER_REDUCTION
    } else {
        P
    };

    let mut ob = 0;
    while ob < 2 * P - 1 {
        // Rows contributing to outputs ob..ob+BLOCK: ob - (p-1) <= i <= ob + BLOCK - 1.
        let i_lo = (ob + 1).saturating_sub(P);
        let i_hi = (ob + BLOCK).min(P);
        let mut s = [0i16; BLOCK];
        let mut since = 0;
        for (i, &bi) in b.iter().enumerate().take(i_hi).skip(i_lo) {
            // Window a[ob - i .. ob - i + BLOCK] = pad[ob - i + BLOCK ..].
            let at = ob + BLOCK - i;
            let w: &[i16; BLOCK] = pad[at..at + BLOCK].try_into().unwrap_or(&[0; BLOCK]);
            let m = i16::from(bi);
            for l in 0..BLOCK {
                s[l] = s[l].wrapping_add(w[l].wrapping_mul(m));
            }
            since += 1;
            if since == rows {
                for x in &mut s {
                    *x = Fq::<Q>::reduce16(*x);
                }
                since = 0;
            }
        }
        for (l, &x) in s.iter().enumerate() {
            let o = ob + l;
            if o < P {
                a[o] = x;
            } else if o < 2 * P - 1 {
                hi[o - P] = x;
            }
        }
        ob += BLOCK;
    }
    hi[P - 1] = 0;
}

/// The coefficient `k < p` of the folded product: x^(p+j) = x^(j+1) + x^j.
#[inline(always)]
fn folded<const P: usize>(lo: &[i16; P], hi: &[i16; P], k: usize) -> i32 {
    let mut x = i32::from(lo[k]) + i32::from(hi[k]); // hi[p-1] = 0
    if k >= 1 {
        x += i32::from(hi[k - 1]);
    }
    x
}

/// `Rq_mult_small`: `a = a * b` in R/q with `b` small.
pub(crate) fn rq_mult_small<const P: usize, const Q: i16>(
    a: &mut [i16; P],
    b: &[i8; P],
    buf: &mut [[i16; P]; 3],
) {
    mul_acc::<P, Q, true>(a, b, buf);
    let hi = &buf[2];
    for k in 0..P {
        a[k] = Fq::<Q>::freeze(folded(a, hi, k));
    }
}

/// `R3_mult`: `h = a * b` in R/3 for `a` with coefficients in {-1, 0, 1}
/// held in i16 (exact integer sums: |sum| <= p); `a` is consumed.
pub(crate) fn r3_mult<const P: usize>(
    h: &mut [i8; P],
    a: &mut [i16; P],
    b: &[i8; P],
    buf: &mut [[i16; P]; 3],
) {
    mul_acc::<P, 3, false>(a, b, buf);
    let hi = &buf[2];
    for (k, hk) in h.iter_mut().enumerate() {
        *hk = f3_freeze(folded(a, hi, k));
    }
}

/// `Round`: each coefficient to the nearest multiple of 3.
pub(crate) fn round<const P: usize>(c: &mut [i16; P]) {
    for x in c.iter_mut() {
        *x = x.wrapping_sub(i16::from(f3_freeze(i32::from(*x))));
    }
}

/// `R3_fromRq(Rq_mult3(c))`, in place: the coefficients of `3c` in R/q,
/// lifted and reduced mod 3.
pub(crate) fn r3_from_3rq<const P: usize, const Q: i16>(c: &mut [i16; P]) {
    for x in c.iter_mut() {
        *x = i16::from(f3_freeze(i32::from(Fq::<Q>::freeze(3 * i32::from(*x)))));
    }
}

#[cfg(test)]
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "test code on public values"
)]
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
            let mut h = a;
            let mut acc = Box::new([[0i16; P]; 3]);
            rq_mult_small::<P, Q>(&mut h, &b, &mut acc);
            let want = naive(&a.map(i32::from), &b.map(i32::from), 4591);
            assert_eq!(h.map(i32::from), want);
            let mut h3 = [0i8; P];
            r3_mult(&mut h3, &mut b.map(i16::from), &b, &mut acc);
            let want3 = naive(&b.map(i32::from), &b.map(i32::from), 3);
            assert_eq!(h3.map(i32::from), want3);
        }
    }
}
