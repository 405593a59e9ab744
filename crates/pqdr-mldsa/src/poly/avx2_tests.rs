//! The AVX2 NTT and product kernels against their portable twins. Here, on
//! the `poly` side, so that `arch` names nothing of `poly`.
use crate::arch::{Avx2, invntt_tomont, mul_acc, mul_mont_in_place, ntt, reduce_acc};
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
        let mut acc_p = [0i64; N];
        let mut acc_s = [0i64; N];
        for k in 0..3 {
            acc_p[k] = rng.next() as i64 >> 8;
            acc_s[k] = acc_p[k];
        }
        poly::mul_acc_portable(&mut acc_p, &a, &b);
        mul_acc(avx2(), &mut acc_s, &a.0, &b.0);
        assert_eq!(acc_p, acc_s, "mul_acc, input {it}");
        let (mut rp, mut rs) = (Poly::ZERO, Poly::ZERO);
        poly::reduce_acc_portable(&mut rp, &acc_p);
        reduce_acc(avx2(), &mut rs.0, &acc_s);
        assert_eq!(rp.0, rs.0, "reduce_acc, input {it}");
        let (mut p, mut s) = (a, a);
        poly::mul_mont_in_place_portable(&mut p, &b);
        mul_mont_in_place(avx2(), &mut s.0, &b.0, None);
        assert_eq!(p.0, s.0, "mul_mont, input {it}");
        let (mut p, mut s) = (a, a);
        poly::mul_add_mont_in_place_portable(&mut p, &b, &e);
        mul_mont_in_place(avx2(), &mut s.0, &b.0, Some(&e.0));
        assert_eq!(p.0, s.0, "mul_add_mont, input {it}");
    }
}
