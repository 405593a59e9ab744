//! Tests of sntrup1277's products (`rq.rs`): the fold and the residues at
//! their bounds, kept parts against coefficients.

use super::super::{ntt3_mul, ntt3_mul_sides, ntt3_prepare};
use super::*;
use crate::test_util::lcg;
use std::prelude::rust_2024::*;
use std::vec;

/// Coefficient n of `c` from the full product's two places.
fn c_at(c: &[i16], v: &[i16], n: usize) -> i64 {
    i64::from(if n < CYC { c[n] } else { v[n - CYC] })
}

/// [`fold_in_place`] at its bounds (both primes, p = 1277): c at
/// ±(p/2 + p/2^9), constant, alternating and mixed patterns, against
/// the sums in i64 modulo the prime; every entry of F within p/2 + p/2^9.
#[test]
fn fold_in_place_at_the_bounds() {
    const P: usize = 1277;
    if crate::arch::avx2().is_none() {
        return;
    }
    for t in [&P1, &P2] {
        let m = i64::from(t.p);
        let max = m / 2 + m / 512;
        for kind in 0..4 {
            let pat = |j: usize| -> i16 {
                let x = match kind {
                    0 => max,
                    1 => -max,
                    2 => [max, -max][j & 1],
                    _ => (j as i64 * 7919 + 13) % (2 * max + 1) - max,
                };
                x as i16
            };
            let c0: Vec<i16> = (0..CYC).map(pat).collect();
            let v: Vec<i16> = (CYC..CYC + 16 * HALF).map(pat).collect();
            let mut c = c0.clone();
            // SAFETY: AVX2 is present (checked above).
            unsafe { fold_in_place::<P>(&mut c, &v, consts(t)) };
            for (k, &ck) in c[..P].iter().enumerate() {
                let mut want = c_at(&c0, &v, k) + c_at(&c0, &v, P + k);
                if k > 0 {
                    want += c_at(&c0, &v, P + k - 1);
                }
                assert_eq!(
                    (i64::from(ck) - want).rem_euclid(m),
                    0,
                    "kind {kind}, k {k}"
                );
            }
            assert!(
                c[..f_len(P)].iter().all(|&x| i64::from(x).abs() <= max),
                "bound, kind {kind}"
            );
        }
    }
}

/// [`residues`] at its bounds: `a` at ±(2^12 - 1) (constant,
/// alternating, mixed) times `b = ±1` and `±x^1276` (the product's top
/// degree, `c = ±x^1276 a` reaches 2552), both primes, against the
/// product in i64: the parts' folds at their largest (part C's
/// `2^12 + 2 (3p/4)`), every output centred within p/2 + p/2^9.
#[test]
fn residues_at_the_bounds() {
    const P: usize = 1277;
    if crate::arch::avx2().is_none() {
        return;
    }
    let h = (1i64 << 12) - 1;
    let mut s = 5;
    for kind in 0..4 {
        let a: Vec<i16> = (0..P)
            .map(|j| match kind {
                0 => h,
                1 => -h,
                2 => [h, -h][j & 1],
                _ => [h, -h][(lcg(&mut s) & 1) as usize],
            } as i16)
            .collect();
        for (sign, at) in [(1i8, 0), (-1, 0), (1, P - 1), (-1, P - 1)] {
            let mut b = vec![0i8; P];
            b[at] = sign;
            for (pi, t) in [&P1, &P2].into_iter().enumerate() {
                let m = i64::from(t.p);
                let mut w = vec![[0i16; 16]; 2 * REGS];
                let mut y: Part<REGS> = [[0; 16]; REGS];
                // SAFETY: AVX2 is present (checked above).
                unsafe { residues::<P>(&mut w, &mut y, (&a, Side::Coeffs(&b)), pi) };
                let (c, v) = (w.as_flattened(), y[..HALF].as_flattened());
                for n in 0..CYC + 16 * HALF {
                    let want = n
                        .checked_sub(at)
                        .and_then(|i| a.get(i))
                        .map_or(0, |&x| i64::from(x) * i64::from(sign));
                    let got = c_at(c, v, n);
                    assert_eq!((got - want).rem_euclid(m), 0, "kind {kind}, at {at}, n {n}");
                    assert!(got.abs() <= m / 2 + m / 512, "bound, kind {kind}, n {n}");
                }
            }
        }
    }
}

/// sntrup1277's products from the small factor's kept parts (R/q: 6
/// `Hat`s, R/3: 3) equal the products from its coefficients (`ntt3_mul`,
/// itself compared with the portable product in `mult::tests`), on
/// random and extreme factors (all ±(q - 1)/2, alternating, all ±1).
#[test]
fn kept_1024_products_match() {
    const P: usize = 1277;
    const Q: i16 = 7879;
    let Some(token) = crate::arch::avx2() else {
        return;
    };
    let mut s = 7;
    for round in 0..12 {
        let (a, b) = super::super::test_factors::<P, Q>(round, &mut s);
        let e: [i16; P] = core::array::from_fn(|_| match round {
            0 => 1,
            1 => -1,
            _ => (lcg(&mut s) % 3) as i16 - 1,
        });
        let mut hb = vec![[[0i16; 16]; 64]; 6];
        ntt3_prepare(token, &mut hb, None, &b);
        let mut want = vec![0i16; 3 * P];
        ntt3_mul::<P, Q, true>(token, &mut want, &a, &b);
        let mut got = vec![0i16; 3 * P];
        ntt3_mul_sides::<P, Q, true>(token, &mut got, Side::Coeffs(&a), Side::Hat(&hb));
        assert_eq!(got[..P], want[..P], "R/q (folded), round {round}");
        let mut hb3 = vec![[[0i16; 16]; 64]; 3];
        ntt3_prepare(token, &mut hb3, None, &b);
        assert_eq!(hb3[..], hb[..3], "12289's parts, round {round}");
        ntt3_mul::<P, 3, false>(token, &mut want, &e, &b);
        ntt3_mul_sides::<P, 3, false>(token, &mut got, Side::Coeffs(&e), Side::Hat(&hb3));
        assert_eq!(got[..2 * P], want[..2 * P], "R/3, round {round}");
    }
}
