//! The AVX2 NTT kernels against their portable twins (random and edge
//! inputs). Here, on the `ntt` side, so that `arch` names nothing of `ntt`.
use crate::ntt::{Accumulator, MulCache, inv_ntt_mont, inv_ntt_mont_portable, ntt, ntt_portable};
use crate::poly::{N, Poly};

/// xorshift64: reproducible test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Any `i16`.
    fn any(&mut self) -> i16 {
        self.next() as i16
    }
    /// In `(-q, q)`.
    fn below_q(&mut self) -> i16 {
        (self.next() % 6657) as i16 - 3328
    }
    fn poly(&mut self, f: fn(&mut Self) -> i16) -> Poly {
        let mut p = Poly::ZERO;
        for c in &mut p.c {
            *c = f(self);
        }
        p
    }
}

const ITERATIONS: usize = 1000;

/// The tests compare the dispatching functions (AVX2 here) with the
/// portable twins; without AVX2 there is nothing to compare.
fn avx2() -> bool {
    let yes = crate::arch::avx2().is_some();
    if !yes {
        std::eprintln!("no AVX2 on this CPU: differential tests skipped");
    }
    yes
}

extern crate std;

#[test]
fn ntt_matches_portable() {
    if !avx2() {
        return;
    }
    let mut rng = Rng(1);
    for i in 0..ITERATIONS {
        // Any i16 input: both paths wrap identically.
        let mut a = rng.poly(Rng::any);
        let mut b = a;
        ntt(&mut a);
        ntt_portable(&mut b);
        assert_eq!(a.c, b.c, "iteration {i}");
    }
}

#[test]
fn inv_ntt_matches_portable() {
    if !avx2() {
        return;
    }
    let mut rng = Rng(2);
    for i in 0..ITERATIONS {
        let mut a = rng.poly(Rng::any);
        let mut b = a;
        inv_ntt_mont(&mut a);
        inv_ntt_mont_portable(&mut b);
        assert_eq!(a.c, b.c, "iteration {i}");
    }
}

/// `ntt` and `inv_ntt_mont` against their portable twins on edge
/// inputs: constant `i16::MIN`, `i16::MAX`, `±(q − 1)`, zero, and
/// one coefficient set in each position (every lane of every vector
/// pair of the register-resident short layers).
#[test]
fn ntt_edge_inputs() {
    if !avx2() {
        return;
    }
    let mut inputs = std::vec::Vec::new();
    for v in [i16::MIN, i16::MAX, 3328, -3328, 0, 1] {
        inputs.push(Poly { c: [v; N] });
    }
    inputs.push(Poly {
        c: core::array::from_fn(|i| if i & 1 == 0 { i16::MIN } else { i16::MAX }),
    });
    for i in 0..N {
        let mut p = Poly::ZERO;
        p.c[i] = 1 + i as i16;
        inputs.push(p);
    }
    for (n, x) in inputs.iter().enumerate() {
        let (mut a, mut b) = (*x, *x);
        ntt(&mut a);
        ntt_portable(&mut b);
        assert_eq!(a.c, b.c, "ntt, input {n}");
        let (mut a, mut b) = (*x, *x);
        inv_ntt_mont(&mut a);
        inv_ntt_mont_portable(&mut b);
        assert_eq!(a.c, b.c, "inv_ntt_mont, input {n}");
    }
}

#[test]
fn add_product_matches_portable() {
    if !avx2() {
        return;
    }
    let mut rng = Rng(3);
    for i in 0..ITERATIONS {
        let mut acc_a = Accumulator::ZERO;
        for c in &mut acc_a.c {
            *c = (rng.next() as i32) >> 3;
        }
        let mut acc_b = Accumulator { c: acc_a.c };
        // Four products, as in the widest row sum (k = 4).
        for _ in 0..4 {
            let f = rng.poly(Rng::below_q);
            let g = rng.poly(Rng::below_q);
            let cache = MulCache::new(&g);
            acc_a.add_product(&f, &g, &cache);
            acc_b.add_product_portable(&f, &g, &cache);
        }
        assert_eq!(acc_a.c, acc_b.c, "iteration {i}");
    }
}

#[test]
fn reduce_into_matches_portable() {
    if !avx2() {
        return;
    }
    let mut rng = Rng(4);
    for i in 0..ITERATIONS {
        // Any i32 input: both paths truncate and wrap identically.
        let acc = Accumulator {
            c: core::array::from_fn(|_| rng.next() as i32),
        };
        let (mut a, mut b) = (Poly::ZERO, Poly::ZERO);
        acc.reduce_into(&mut a);
        acc.reduce_into_portable(&mut b);
        assert_eq!(a.c, b.c, "iteration {i}");
    }
}

#[test]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "positions below 256 as i16 offsets"
)]
fn poly_reduce_matches_portable() {
    if !avx2() {
        return;
    }
    // Every i16 value at every position (value x + i at position i).
    for x in i16::MIN..=i16::MAX {
        let f = Poly {
            c: core::array::from_fn(|i| x.wrapping_add(i as i16)),
        };
        let (mut a, mut b) = (f, f);
        a.reduce();
        b.reduce_portable();
        assert_eq!(a.c, b.c, "reduce, x {x}");
        let (mut a, mut b) = (f, f);
        a.canonicalize();
        b.canonicalize_portable();
        assert_eq!(a.c, b.c, "canonicalize, x {x}");
    }
}
