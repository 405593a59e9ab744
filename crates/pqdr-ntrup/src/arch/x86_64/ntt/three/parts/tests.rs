//! Tests of the 512-point parts (`parts.rs`): kept parts against
//! coefficients, and the lazy transform, the interpolation and Garner's
//! step at their bounds.

use super::super::super::regs::tests::at_bound;
use super::super::{combine, newton_of, ntt3_mul, ntt3_mul_sides, ntt3_prepare};
use super::*;
use crate::test_util::lcg;
use std::prelude::rust_2024::*;
use std::vec;

/// Products from kept 512-point parts (either factor, both; R/q and
/// R/3) equal the products from the coefficients (`ntt3_mul`, itself
/// compared with the portable product in `mult::tests`), on random and
/// extreme factors (all ±(q - 1)/2, alternating, all ±1).
fn check<const P: usize, const Q: i16>(token: Avx2) {
    let mut s = P as u64;
    for round in 0..40 {
        let (a, b) = super::super::test_factors::<P, Q>(round, &mut s);
        let e: [i16; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i16 - 1);
        let k = parts(P);
        let (mut ha, mut hb) = (vec![[[0i16; 16]; 64]; k], vec![[[0i16; 16]; 64]; k]);
        ntt3_prepare(token, &mut ha, Some(&a), &b);
        ntt3_prepare(token, &mut hb, None, &b);
        let mut want = vec![0i16; 3 * P];
        ntt3_mul::<P, Q, true>(token, &mut want, &a, &b);
        // Either factor kept, or both.
        let (ka, kb) = (Side::Hat(&ha[..]), Side::Hat(&hb[..]));
        for (x, y) in [
            (ka, Side::Coeffs(&b[..])),
            (Side::Coeffs(&a[..]), kb),
            (ka, kb),
        ] {
            let mut got = vec![0i16; 3 * P];
            ntt3_mul_sides::<P, Q, true>(token, &mut got, x, y);
            assert_eq!(got[..2 * P], want[..2 * P], "p = {P}, round {round}");
        }
        // R/3: 7681 only (k/2 Hats of b).
        let mut hb3 = vec![[[0i16; 16]; 64]; k.div_ceil(2)];
        ntt3_prepare(token, &mut hb3, None, &b);
        let mut want = vec![0i16; 3 * P];
        ntt3_mul::<P, 3, false>(token, &mut want, &e, &b);
        let mut got = vec![0i16; 3 * P];
        ntt3_mul_sides::<P, 3, false>(token, &mut got, Side::Coeffs(&e[..]), Side::Hat(&hb3));
        assert_eq!(got[..2 * P], want[..2 * P], "R/3, p = {P}, round {round}");
    }
}

/// The inverse (lazy block steps, [`dit_last_512`]) of `forward_512(v)`
/// = 2^15 times part i of `v`,
/// `ψ^(ij) (v_j + ω^i v_(j+512))` (part 3: `σ^j (v_j + ζ v_(j+512))`),
/// mod p, for both primes and every part, with `v` (p = 768 and 1024:
/// an upper half of 256 and 512) at the loaders' bound ±(2^12 - 1),
/// fixed and random signs: the lazy first layer, block steps and last
/// layer on their largest inputs (a lane that leaves its 16 bits breaks
/// the congruence); and the same for the small factor (`forward_512_b`,
/// the exact fold of [`fold_twist`]) with `v`'s signs (±1, at its bound).
#[test]
fn lazy_512_roundtrip_at_the_bounds() {
    let Some(_token) = crate::arch::avx2() else {
        return;
    };
    roundtrip_check::<768>();
    roundtrip_check::<1024>();
    roundtrip_check::<1280>();
}

fn roundtrip_check<const P: usize>() {
    let mut s = 5u64;
    for t in [&P7681, &P10753] {
        let (p, t3) = (i64::from(t.p), three_of(t));
        let r16 = super::super::super::pow_mod(65536, t.p as u64 - 2, p);
        let c = |w: i16| i64::from(w) * r16 % p;
        for round in 0..16 {
            let v: [i16; P] = core::array::from_fn(|j| at_bound(&mut s, round, (j, 0, 512), 4095));
            let b: [i8; P] = v.map(|x| x.signum() as i8);
            for (i, small) in (0..parts(P)).flat_map(|i| [(i, false), (i, true)]) {
                let mut x = [[0i16; 16]; HALF];
                let src = if small { Err(&b[..]) } else { Ok(&v[..]) };
                // SAFETY: the token shows the CPU has AVX2.
                unsafe { roundtrip_512_avx2::<P>(&mut x, src, (i, t)) };
                for (j, &got) in x.as_flattened().iter().enumerate() {
                    let (om, ps) = match i {
                        0 => ([1, 1], 1),
                        _ => (
                            t3.omega[i - 1].map(|w| c(w[0])),
                            c(t3.psi[i - 1][0][j / 16][j % 16]),
                        ),
                    };
                    let at = |j: usize| match small {
                        false => v.get(j).map(|&h| i64::from(h)),
                        true => b.get(j).map(|&h| i64::from(h)),
                    };
                    let hi = |d: usize| at(j + 512 * d).unwrap_or(0);
                    let want = (hi(0) + om[0] * hi(1) + om[1] * hi(2)) % p * ps;
                    let d = (i64::from(got) - 32768 * want).rem_euclid(p);
                    assert_eq!(d, 0, "p = {p}, round {round}, part {i}, small {small}");
                }
            }
        }
    }
}

#[target_feature(enable = "avx2")]
fn roundtrip_512_avx2<const P: usize>(
    x: &mut Part<HALF>,
    v: Result<&[i16], &[i8]>,
    (i, t): (usize, &Prime),
) {
    let k = consts(t);
    match v {
        Ok(a) => forward_512_a::<P>(x, a, i, t, k),
        Err(b) => forward_512_b::<P>(x, b, i, t, k),
    }
    let (blocks, _) = x.as_chunks_mut::<16>();
    for (j, block) in blocks.iter_mut().enumerate() {
        regs::block_inverse(block, j, &t.untwist, &t.lane_inv, k);
    }
    dit_last_512(x, t, k);
}

/// [`combine`] (reduced outputs and, for Garner's `c2`, unreduced) on
/// inverse-transform outputs at the i16 extremes (±32767, every sign
/// pattern, random values), for every register of the 512-point parts
/// (7681, 10753), against the exact sums
/// and products mod p; reduced outputs within p/2 + p/2^9. A sum that
/// leaves its 16 bits breaks the congruence.
#[test]
fn combine_at_the_bounds() {
    let Some(_token) = crate::arch::avx2() else {
        return;
    };
    // SAFETY: the token shows the CPU has AVX2.
    unsafe {
        combine_check_avx2::<HALF>(&P7681, &H1);
        combine_check_avx2::<HALF>(&P10753, &H2);
    }
}

#[target_feature(enable = "avx2")]
fn combine_check_avx2<const R: usize>(t: &Prime, t3: &super::super::Three<R>) {
    let (k, p) = (consts(t), i64::from(t.p));
    let r16 = super::super::super::pow_mod(65536, t.p as u64 - 2, p);
    let c = |w: i16| i64::from(w) * r16 % p;
    let mut s = 9u64;
    for round in 0..40 {
        for j in 0..R {
            let z: [[i16; 16]; 3] = core::array::from_fn(|i| {
                core::array::from_fn(|l| at_bound(&mut s, round, (i, l, 1), 32767))
            });
            let zr = z.map(|r| load(&r));
            let got = [
                combine::<R>(zr, j, t3, k, [true; 3]),
                combine::<R>(zr, j, t3, k, [false; 3]),
            ];
            for l in 0..16 {
                let zl = z.map(|r| i64::from(r[l]));
                let u = &t3.untw;
                let a = zl[0] * c(t3.comb[0][0]);
                let x1 = zl[1] * c(u[0][0][j][l]);
                let x2 = zl[2] * c(u[1][0][j][l]);
                let tt = (x1 - x2) % p * c(t3.comb[1][0]);
                let want = [a + 2 * (x1 + x2), a - x1 - x2 + tt, a - x1 - x2 - tt];
                for (reduced, g) in got.iter().enumerate() {
                    let mut out = [[0i16; 16]; 3];
                    for (o, v) in out.iter_mut().zip(g) {
                        store(o, *v);
                    }
                    for (o, w) in out.iter().zip(want) {
                        lane_ok(i64::from(o[l]), w, p, reduced == 0);
                    }
                }
            }
        }
    }
}

/// An output lane `o` of the interpolation: congruent to `w` mod p and, if
/// `reduced`, within p/2 + p/2^9.
fn lane_ok(o: i64, w: i64, p: i64, reduced: bool) {
    assert_eq!((o - w).rem_euclid(p), 0, "p = {p}: {o} for {w}");
    assert!(!reduced || o.abs() <= p / 2 + p / 512, "p = {p}: {o}");
}

/// [`newton`] (the extra parts' interpolation, four and five parts)
/// at its input bounds: `Z_3`, `Z_4`, `e_2` at the i16 extremes
/// (±32767, every sign pattern, random), `e_0`, `e_1` up to
/// [`combine`]'s unreduced bound 2p + p/2^9, for every register (7681,
/// 10753), against the exact sums and products mod p; the outputs but
/// `c_2` (and for four parts `c_1`: passed through) within p/2 + p/2^9. A sum that leaves its 16
/// bits breaks the congruence.
#[test]
fn newton_at_the_bounds() {
    let Some(_token) = crate::arch::avx2() else {
        return;
    };
    // SAFETY: the token shows the CPU has AVX2.
    unsafe {
        newton_check_avx2::<4>(&P7681, &H1);
        newton_check_avx2::<4>(&P10753, &H2);
        newton_check_avx2::<5>(&P7681, &H1);
        newton_check_avx2::<5>(&P10753, &H2);
    }
}

#[target_feature(enable = "avx2")]
fn newton_check_avx2<const PARTS: usize>(t: &Prime, t3: &super::super::Three<HALF>) {
    let (k, p) = (consts(t), i64::from(t.p));
    let r16 = super::super::super::pow_mod(65536, t.p as u64 - 2, p);
    let c = |w: i16| i64::from(w) * r16 % p;
    let e_bound = (2 * p + p / 512) as i16;
    let mut s = 17u64;
    for round in 0..40 {
        for j in 0..HALF {
            let v: [[i16; 16]; PARTS] = core::array::from_fn(|i| {
                let b = if i < 2 { e_bound } else { 32767 };
                core::array::from_fn(|l| at_bound(&mut s, round, (i, l, 1), b))
            });
            let z = v.map(|r| load(&r));
            let mut got = z;
            newton_of::<HALF, PARTS>(&mut got, &z, j, t3, k);
            let mut out = [[0i16; 16]; PARTS];
            for (o, g) in out.iter_mut().zip(got) {
                store(o, g);
            }
            for l in 0..16 {
                let x = v.map(|r| i64::from(r[l]));
                let g = |i: usize| {
                    let ka = t3.kappa[i].map(|m| c(m[0]));
                    x[3 + i.max(1) - 1] * c(t3.untw_x[i][0][j][l])
                        - (x[0] * ka[0] + x[1] * ka[1] + x[2] * ka[2]) % p
                };
                // Five parts: a = λ g_3, b = λ g_4 from the λ-scaled tables;
                // c_4 = λ (g_3 - g_4), c_3 = g_3 - ζ c_4.
                let (c3, c4) = if PARTS == 4 {
                    (g(0), 0)
                } else {
                    let zeta = c(t3.omega[2][0][0]);
                    let l1 = (zeta - zeta * zeta % p).rem_euclid(p);
                    let c4 = g(1) - g(2);
                    (g(1) % p * l1 - zeta * c4, c4)
                };
                let want = [x[0] - c3, x[1] - c4, x[2], c3, c4];
                for (m, (o, w)) in out.iter().zip(want).enumerate() {
                    // c_2 (and for four parts c_1) passed through.
                    lane_ok(i64::from(o[l]), w, p, m != 2 && (m, PARTS) != (1, 4));
                }
            }
        }
    }
}

/// Garner's step at its bounds, without a reduction of `u`: `c` up to
/// the R/q products' bounds p (q - 1) / 2 (p = 768, 1013) and three
/// times that (sntrup1277's folded product, `five_rq`) and random; `c1` mod p1 within
/// p1/2 + p1/2^9 (Barrett's bound), `c2` too or, for 10753, any representative
/// up to [`combine`]'s unreduced bound 2 * 10753 + 21; and for the folded
/// product both unreduced, any representatives up to 3 (p_i/2 + p_i/2^9)
/// (11,565 and 16,191, `five_rq`'s F): the output is `c` mod q, below
/// |c1| + 3q/4 (below 2^14 for a reduced `c1`). An inexact `u` breaks the
/// congruence.
#[test]
fn garner_at_the_bounds() {
    let Some(_token) = crate::arch::avx2() else {
        return;
    };
    // Barrett's bound p_i/2 + p_i/2^9, combine's 2 * 10753 + 21, three Barrett's.
    let (r1, r2, wide) = (3855, 5397, 2 * 10753 + 21);
    // SAFETY: the token shows the CPU has AVX2.
    unsafe {
        garner_check_avx2::<4621, 7681, 10753>(
            Garner::of::<4621, 7681, 10753>(&P10753),
            768,
            [r1, wide],
        );
        garner_check_avx2::<4591, 7681, 10753>(
            Garner::of::<4591, 7681, 10753>(&P10753),
            768,
            [r1, wide],
        );
        garner_check_avx2::<7177, 7681, 10753>(
            Garner::of::<7177, 7681, 10753>(&P10753),
            1013,
            [r1, wide],
        );
        let g = Garner::of::<7879, 7681, 10753>(&P10753);
        garner_check_avx2::<7879, 7681, 10753>(g, 3 * 1277, [r1, wide]);
        garner_check_avx2::<7879, 7681, 10753>(g, 3 * 1277, [3 * r1, 3 * r2]);
    }
}

/// [`garner_at_the_bounds`] for `c` up to p (q - 1) / 2 and the
/// representatives of `c` mod A, B up to `bound` (the largest that reach it).
#[target_feature(enable = "avx2")]
fn garner_check_avx2<const Q: i16, const A: i64, const B: i64>(g: Garner, p: i64, bound: [i64; 2]) {
    let centre = |x: i64, m: i64| {
        let r = x.rem_euclid(m);
        if r > m / 2 { r - m } else { r }
    };
    // A representative of c mod m: the centred one moved by `shift` m, then
    // back towards 0 while above `bound` (shift 0: centred; ±1, ±2: near
    // ±m/2 the other one within Barrett's bound, or further for a wider
    // bound).
    let rep = |c: i64, m: i64, shift: i64, bound: i64| {
        let mut r = centre(c, m) + shift * m;
        while r.abs() > bound {
            r -= r.signum() * m;
        }
        r as i16
    };
    let big = p * (i64::from(Q) - 1) / 2;
    let mut s = 13u64;
    for round in 0..64 {
        let cs: [i64; 16] = core::array::from_fn(|l| match (round, l) {
            (0, _) => big,
            (1, _) => -big,
            (2, _) => [big, -big][l & 1],
            _ => i64::from(lcg(&mut s)) % (2 * big + 1) - big,
        });
        for shift in -3i64..=3 {
            let c1 = cs.map(|c| rep(c, A, shift, bound[0]));
            let c2 = cs.map(|c| rep(c, B, -shift, bound[1]));
            let mut out = [0i16; 16];
            store(&mut out, g.apply(load(&c1), load(&c2)));
            for ((o, c), c1) in out.iter().zip(cs).zip(c1) {
                let (o, c1) = (i64::from(*o), i64::from(c1));
                assert_eq!((o - c).rem_euclid(i64::from(Q)), 0, "q = {Q}, c = {c}");
                assert!(
                    4 * (o.abs() - c1.abs()) < 3 * i64::from(Q),
                    "q = {Q}, c = {c}: {o}"
                );
                assert!(
                    c1.abs() > 3855 || o.abs() < 1 << 14,
                    "q = {Q}, c = {c}: {o}"
                );
            }
        }
    }
}

#[test]
fn kept_parts_products_match() {
    let Some(token) = crate::arch::avx2() else {
        return;
    };
    check::<653, 4621>(token);
    check::<761, 4591>(token);
    check::<857, 5167>(token);
    check::<953, 6343>(token);
    check::<1013, 7177>(token);
    check::<1277, 7879>(token);
}
