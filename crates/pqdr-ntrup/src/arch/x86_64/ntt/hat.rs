//! The transforms of one factor of the AVX2 product, made once and kept
//! (a prepared decapsulation key's f, 1/g and h, `PreparedDecapsulationKey`):
//! exactly the values `half` computes for that factor on the way, so a
//! product from them ([`super::ntt_mul_sides`]) equals the one from the
//! coefficients. Twin: the same product from the coefficients (compared in
//! `mult::tests::avx2_prepared_products_match`).

use super::{Hat, N, P1, P2, Prime, consts, forward, load_a, load_b};
use pqdr_common::simd::Avx2;

/// The prime of transform `n` (index `2 i + s`).
fn prime(n: usize) -> &'static Prime {
    if n < 2 { &P1 } else { &P2 }
}

/// `out[2 i + s]`: the forward transform of `a` (`|a| <= (q - 1) / 2`, at
/// most 1024 coefficients) modulo prime i, ψ-twisted for s = 1; one or two
/// primes as `out` has 2 or 4 entries.
pub(crate) fn ntt_prepare_a<const P: usize>(token: Avx2, out: &mut [Hat], a: &[i16; P]) {
    assert!(P <= N && out.len() <= 4, "ntt_prepare_a: sizes");
    let _ = token;
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { prepare_a_avx2(out, a) }
}

/// As [`ntt_prepare_a`] for a small factor `b` (coefficients in {-1, 0, 1}).
pub(crate) fn ntt_prepare_b<const P: usize>(token: Avx2, out: &mut [Hat], b: &[i8; P]) {
    assert!(P <= N && out.len() <= 4, "ntt_prepare_b: sizes");
    let _ = token;
    // SAFETY: as above.
    unsafe { prepare_b_avx2(out, b) }
}

#[target_feature(enable = "avx2")]
fn prepare_a_avx2(out: &mut [Hat], a: &[i16]) {
    for (n, x) in out.iter_mut().enumerate() {
        let t = prime(n);
        let k = consts(t);
        load_a(x, a, n & 1 == 1, t, k);
        forward(x, t, k);
    }
}

#[target_feature(enable = "avx2")]
fn prepare_b_avx2(out: &mut [Hat], b: &[i8]) {
    for (n, x) in out.iter_mut().enumerate() {
        let t = prime(n);
        let k = consts(t);
        load_b(x, b, n & 1 == 1, t, k);
        forward(x, t, k);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Side, ntt_mul, ntt_mul_sides};
    use super::*;
    use crate::test_util::lcg;
    use std::prelude::rust_2024::*;

    /// Products from kept transforms (either factor, both, R/q and R/3)
    /// equal the products from the coefficients (`ntt_mul`, itself compared
    /// with the portable Karatsuba product in `mult::tests`), on random and
    /// extreme factors.
    fn check<const P: usize, const Q: i16>(token: Avx2, seed: u64) {
        let mut s = seed;
        let h = (Q - 1) / 2;
        for round in 0..60 {
            let a: [i16; P] = core::array::from_fn(|i| match round {
                0 => h,
                1 => -h,
                2 => {
                    if i & 1 == 0 {
                        h
                    } else {
                        -h
                    }
                }
                _ => (lcg(&mut s) % (Q as u32)) as i16 - h,
            });
            let e: [i16; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i16 - 1);
            let b: [i8; P] = core::array::from_fn(|_| match round {
                0 | 2 => 1,
                1 => -1,
                _ => (lcg(&mut s) % 3) as i8 - 1,
            });
            let (mut ha, mut hb) = (vec![[[0i16; 16]; 64]; 4], vec![[[0i16; 16]; 64]; 4]);
            ntt_prepare_a(token, &mut ha, &a);
            ntt_prepare_b(token, &mut hb, &b);
            let mut want = vec![0i16; 2 * N];
            ntt_mul::<P, Q, true>(token, &mut want, &a, &b);
            for (sa, sb) in [
                (Side::Hat(&ha[..]), Side::Coeffs(&b[..])),
                (Side::Coeffs(&a[..]), Side::Hat(&hb[..])),
                (Side::Hat(&ha[..]), Side::Hat(&hb[..])),
            ] {
                let mut got = vec![0i16; 2 * N];
                ntt_mul_sides::<P, Q, true>(token, &mut got, sa, sb);
                assert_eq!(got[..2 * P], want[..2 * P], "p = {P}, round {round}");
            }
            // R/3: 12289 only (two transforms of b).
            let mut hb3 = vec![[[0i16; 16]; 64]; 2];
            ntt_prepare_b(token, &mut hb3, &b);
            let mut want = vec![0i16; 2 * N];
            ntt_mul::<P, 3, false>(token, &mut want, &e, &b);
            let mut got = vec![0i16; 2 * N];
            ntt_mul_sides::<P, 3, false>(token, &mut got, Side::Coeffs(&e[..]), Side::Hat(&hb3));
            assert_eq!(got[..2 * P], want[..2 * P], "R/3, p = {P}, round {round}");
            // The short scratch (2p entries, p = 653's path) agrees too.
            let mut short = vec![0i16; 2 * P];
            ntt_mul_sides::<P, Q, true>(token, &mut short, Side::Coeffs(&a[..]), Side::Hat(&hb));
            let mut want = vec![0i16; 2 * N];
            ntt_mul::<P, Q, true>(token, &mut want, &a, &b);
            assert_eq!(short[..2 * P - 1], want[..2 * P - 1], "short, p = {P}");
        }
    }

    #[test]
    fn prepared_products_match() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        check::<653, 4621>(token, 1);
        check::<761, 4591>(token, 2);
        check::<1013, 7177>(token, 3);
    }
}
