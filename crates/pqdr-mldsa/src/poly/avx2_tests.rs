//! The AVX2 NTT and product kernels against their portable twins. Here, on
//! the `poly` side, so that `arch` names nothing of `poly`.
use crate::arch::{
    Avx2, dot_mont, invntt_tomont, mul_acc, mul_mont_from, mul_mont_in_place, ntt, reduce_acc,
    zeroize_poly,
};
use crate::field::Q;
use crate::poly::{self, Poly};
use crate::zetas::N;

/// A deterministic generator of test coefficients.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// |x| < bound, or any i32 when bound is 0.
    fn poly(&mut self, bound: i32) -> Poly {
        Poly(core::array::from_fn(|_| {
            let r = self.next() as i32;
            if bound == 0 { r } else { r % bound }
        }))
    }
}

fn avx2() -> Avx2 {
    Avx2::detect().expect("these tests need an AVX2 CPU")
}

/// The AVX2 accumulator layout of `mul_acc` (per eight coefficients: the
/// four even ones, then the four odd ones) from coefficient order.
fn to_avx2_layout(acc: &[i64; N]) -> [i64; N] {
    core::array::from_fn(|k| {
        let (g, p) = (k & !7, k & 7);
        acc[g + if p < 4 { 2 * p } else { 2 * (p - 4) + 1 }]
    })
}

/// Coefficient order from the AVX2 accumulator layout.
fn from_avx2_layout(acc: &[i64; N]) -> [i64; N] {
    core::array::from_fn(|k| {
        let (g, p) = (k & !7, k & 7);
        acc[g + if p & 1 == 0 { p / 2 } else { 4 + p / 2 }]
    })
}

#[test]
fn ntt_and_inverse_match_portable() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for it in 0..1000 {
        // In-range inputs (|a| < q), and arbitrary words every 10th time.
        let bound = if it % 10 == 9 { 0 } else { Q };
        let a = rng.poly(bound);
        let (mut p, mut s) = (a, a);
        p.ntt_portable();
        ntt(avx2(), &mut s.0);
        assert_eq!(p.0, s.0, "NTT, input {it}");
        let (mut p, mut s) = (a, a);
        p.invntt_tomont_portable();
        invntt_tomont(avx2(), &mut s.0);
        assert_eq!(p.0, s.0, "NTT^-1, input {it}");
    }
}

#[test]
fn pointwise_products_match_portable() {
    let mut rng = Rng(0xfeed_beef_1234_5678);
    for it in 0..1000 {
        let (a, b, e) = (rng.poly(9 * Q), rng.poly(9 * Q), rng.poly(Q));
        // Start sums anywhere (k < 3 and k ≥ 253), and sums that a longer
        // chain of products reaches (up to 8·(9q)^2 < 2^52).
        let mut acc_p = [0i64; N];
        for k in (0..3).chain(253..N) {
            acc_p[k] = rng.next() as i64 >> 8;
        }
        if it % 4 == 1 {
            acc_p.iter_mut().for_each(|c| *c = rng.next() as i64 >> 12);
        }
        let mut acc_s = to_avx2_layout(&acc_p);
        poly::mul_acc_portable(&mut acc_p, &a, &b);
        mul_acc(avx2(), &mut acc_s, &a.0, &b.0);
        assert_eq!(acc_p, from_avx2_layout(&acc_s), "mul_acc, input {it}");
        let (mut rp, mut rs) = (Poly::ZERO, Poly::ZERO);
        poly::reduce_acc_portable(&mut rp, &acc_p);
        reduce_acc(avx2(), &mut rs.0, &acc_s, None);
        assert_eq!(rp.0, rs.0, "reduce_acc, input {it}");
        // The last product fused into the reduction.
        let (mut rp, mut rs) = (a, a);
        poly::mul_acc_reduce_in_place_portable(&mut rp, &acc_p, &e);
        reduce_acc(avx2(), &mut rs.0, &acc_s, Some(&e.0));
        assert_eq!(rp.0, rs.0, "mul_acc_reduce_in_place, input {it}");
        let (mut p, mut s) = (a, a);
        poly::mul_mont_in_place_portable(&mut p, &b);
        mul_mont_in_place(avx2(), &mut s.0, &b.0, None);
        assert_eq!(p.0, s.0, "mul_mont, input {it}");
        let (mut p, mut s) = (a, a);
        poly::mul_add_mont_in_place_portable(&mut p, &b, &e);
        mul_mont_in_place(avx2(), &mut s.0, &b.0, Some(&e.0));
        assert_eq!(p.0, s.0, "mul_add_mont, input {it}");
        // Out of place (the output buffer's old contents must not matter).
        let (mut p, mut s) = (Poly::ZERO, e);
        poly::mul_mont_portable(&mut p, &a, &b);
        mul_mont_from(avx2(), &mut s.0, &a.0, &b.0, None);
        assert_eq!(p.0, s.0, "mul_mont_from, input {it}");
        let (mut p, mut s) = (Poly::ZERO, b);
        poly::mul_add_mont_portable(&mut p, &a, &b, &e);
        mul_mont_from(avx2(), &mut s.0, &a.0, &b.0, Some(&e.0));
        assert_eq!(p.0, s.0, "mul_add_mont_from, input {it}");
    }
}

/// The in-register dot product against `mul_acc` over j then `reduce_acc`
/// (portable): 1 to 8 pairs (ℓ up to 7, plus verification's ĉ∘t̂1), inputs
/// below 9q (NTT outputs) and, every 8th input, at ±(9q − 1).
#[test]
fn dot_product_matches_portable() {
    let mut rng = Rng(0x5151_7a7a_0f0f_9999);
    for it in 0..400 {
        let n = 1 + it % 8;
        let mut a = [Poly::ZERO; 8];
        let mut b = [Poly::ZERO; 8];
        for (x, y) in a.iter_mut().zip(b.iter_mut()) {
            *x = rng.poly(9 * Q);
            *y = rng.poly(9 * Q);
            if it % 8 == 7 {
                x.0.iter_mut().for_each(|c| *c = 9 * Q - 1);
                y.0.iter_mut()
                    .enumerate()
                    .for_each(|(i, c)| *c = if i & 1 == 0 { 9 * Q - 1 } else { -(9 * Q - 1) });
            }
        }
        let mut acc = [0i64; N];
        for (x, y) in a[..n].iter().zip(&b[..n]) {
            poly::mul_acc_portable(&mut acc, x, y);
        }
        let mut want = Poly::ZERO;
        poly::reduce_acc_portable(&mut want, &acc);
        let mut got = Poly::ZERO;
        dot_mont(avx2(), &mut got.0, n, |j| (&a[j].0, &b[j].0));
        assert_eq!(got.0, want.0, "dot product of {n}, input {it}");
        // Through `poly::dot_mont` (which picks AVX2 here).
        let mut via = Poly::ZERO;
        let mut scratch = [7i64; N];
        poly::dot_mont(&mut via, &a[..n], &b[..n], &mut scratch);
        assert_eq!(via.0, want.0, "poly::dot_mont of {n}, input {it}");
    }
}

/// The AVX2 zeroization against the `zeroize` crate's (every coefficient
/// 0, nothing outside the polynomial touched), and `Poly::zeroize`.
#[test]
fn zeroize_matches_portable() {
    use zeroize::Zeroize;
    let mut rng = Rng(0x5eed_0f2e_2000);
    for it in 0..100 {
        // Three polynomials side by side: only the middle one is cleared.
        let mut polys = [rng.poly(0), rng.poly(0), rng.poly(0)];
        let before = polys;
        let mut want = polys[1];
        want.0.zeroize();
        zeroize_poly(avx2(), &mut polys[1].0);
        assert_eq!(polys[1].0, want.0, "input {it}");
        assert_eq!(
            (polys[0].0, polys[2].0),
            (before[0].0, before[2].0),
            "input {it}"
        );
        let mut p = before[1];
        p.zeroize();
        assert_eq!(p.0, [0; N], "Poly::zeroize, input {it}");
    }
}
