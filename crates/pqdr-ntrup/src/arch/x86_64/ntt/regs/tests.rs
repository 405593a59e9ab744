//! Tests of the block steps (`regs.rs`): the transpose, the reductions
//! and every radix-4 macro, block step and block product at its bounds.

use super::super::{P7681, P10753, Prime, consts, squeeze};
use super::*;
use pqdr_common::simd::Avx2;

/// Test value `i` (register r, lane l) of round `round` at magnitude
/// `bound`: all positive (round 0), all negative (1), alternating (2),
/// negative from register `half` on (3), random signs (4..32), random
/// values (32..), from the generator `s`.
pub(in super::super) fn at_bound(
    s: &mut u64,
    round: usize,
    (r, l, half): (usize, usize, usize),
    bound: i16,
) -> i16 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let neg = match round {
        0 => false,
        1 => true,
        2 => (r + l) & 1 == 1,
        3 => r >= half,
        4..32 => *s >> 63 == 1,
        _ => return (*s >> 40) as i16 % (bound + 1),
    };
    if neg { -bound } else { bound }
}

/// One block of [`at_bound`] values (the sign changes from register 8 on in
/// round 3).
fn block_at_bound(s: &mut u64, round: usize, bound: i16) -> [[i16; 16]; 16] {
    core::array::from_fn(|r| core::array::from_fn(|l| at_bound(s, round, (r, l, 8), bound)))
}

#[test]
fn transpose_transposes() {
    let Some(_token) = Avx2::detect() else { return };
    let mut x: [[i16; 16]; 16] =
        core::array::from_fn(|i| core::array::from_fn(|j| (16 * i + j) as i16));
    // SAFETY: the token shows the CPU has AVX2.
    unsafe { transpose_avx2(&mut x) };
    for (i, row) in x.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            assert_eq!(v, (16 * j + i) as i16);
        }
    }
}

/// [`squeeze`] on every i16: congruent to the input and within the
/// bound the transforms' sums rely on (5629 for 7681, 5800 for 10753).
#[test]
fn squeeze_bounds() {
    let Some(_token) = Avx2::detect() else { return };
    for (t, bound) in [(&P7681, 5629), (&P10753, 5800)] {
        // SAFETY: the token shows the CPU has AVX2.
        let worst = unsafe { squeeze_all_avx2(t) };
        assert_eq!(worst, bound, "p = {}", t.p);
    }
}

/// The largest |squeeze(x)| over every i16 x (asserting x ≡ squeeze(x)).
#[target_feature(enable = "avx2")]
fn squeeze_all_avx2(t: &Prime) -> i32 {
    let k = consts(t);
    let mut worst = 0;
    for hi in 0..4096i32 {
        let x: [i16; 16] = core::array::from_fn(|l| (16 * hi + l as i32 - 32768) as i16);
        let mut r = [0i16; 16];
        store(&mut r, squeeze(load(&x), k));
        for (&a, &b) in x.iter().zip(&r) {
            assert_eq!((i32::from(a) - i32::from(b)) % i32::from(t.p), 0);
            worst = worst.max(i32::from(b).abs());
        }
    }
    worst
}

/// The lazy block steps (7681, 10753: the 512-point parts' blocks 0
/// and 1) at their input bounds, fixed and random signs, through
/// `block_inverse(block_forward(x)) = 16 * 16 * 64 x = 2^14 x` mod p (the
/// untwist carries 2^16 / 1024), so also `block_forward(block_inverse(x))
/// = 2^14 x`: the forward on ±(2^14 - 1) then the inverse, and the
/// inverse on ±32767 (any i16) then the forward on its outputs centred
/// mod p; a lane that leaves its 16 bits breaks the congruence.
#[test]
fn lazy_blocks_at_the_bounds() {
    let Some(_token) = Avx2::detect() else { return };
    let mut s = 11u64;
    for t in [&P7681, &P10753] {
        let p = i64::from(t.p);
        for round in 0..64 {
            for (bound, fwd) in [(16383, true), (32767, false)] {
                for j in 0..2 {
                    let x = block_at_bound(&mut s, round, bound);
                    let mut y = x;
                    // SAFETY: the token shows the CPU has AVX2.
                    unsafe { lazy_block_avx2(&mut y, j, t, fwd) };
                    centre(&mut y, p);
                    // SAFETY: as above.
                    unsafe { lazy_block_avx2(&mut y, j, t, !fwd) };
                    for (a, b) in x.iter().zip(&y) {
                        for (&a, &b) in a.iter().zip(b) {
                            let d = i64::from(b) - 16384 * i64::from(a);
                            assert_eq!(d.rem_euclid(p), 0, "p = {p}, fwd {fwd}, round {round}");
                        }
                    }
                }
            }
        }
    }
}

/// Every entry of `x` centred mod p (`|.| <= p/2`).
fn centre(x: &mut [[i16; 16]; 16], p: i64) {
    for v in x.as_flattened_mut() {
        let r = i64::from(*v).rem_euclid(p);
        *v = i16::try_from(if r > p / 2 { r - p } else { r }).expect("below p");
    }
}

/// Block `j`'s lazy forward (`fwd`) or inverse steps.
#[target_feature(enable = "avx2")]
fn lazy_block_avx2(b: &mut [[i16; 16]; 16], j: usize, t: &Prime, fwd: bool) {
    let k = consts(t);
    if fwd {
        block_forward(b, j, &t.twist, &t.lane_fwd, &k);
    } else {
        block_inverse(b, j, &t.untwist, &t.lane_inv, k);
    }
}

/// [`block_product`] (7681, 10753: blocks 0 and 1, with and without its
/// forward steps) on inputs at its bounds (`block` ±(2^14 - 1) with the
/// forward steps, else ±16130 as the kept transforms; `y` ±16130), fixed
/// and random signs, and kept transforms whose pointwise products are
/// all at their extreme (±9347 for 10753: `y` chosen for `x` = 16130),
/// against the block steps on their own (`block_forward`, the pointwise
/// product `x y 2^-16` mod p, `block_inverse` on its reduced outputs;
/// both checked by `lazy_blocks_at_the_bounds`) mod p: a lane that
/// leaves its 16 bits breaks the congruence.
#[test]
fn block_product_at_the_bounds() {
    let Some(_token) = Avx2::detect() else { return };
    let mut s = 17u64;
    for t in [&P7681, &P10753] {
        let (p, rinv) = (
            i64::from(t.p),
            super::super::pow_mod(65536, t.p as u64 - 2, i64::from(t.p)),
        );
        let check = |x: [[i16; 16]; 16], y: [[i16; 16]; 16], j, fwd, round| {
            let mut want = x;
            if fwd {
                // SAFETY: the token shows the CPU has AVX2.
                unsafe { lazy_block_avx2(&mut want, j, t, true) };
            }
            for (wr, yr) in want.iter_mut().zip(&y) {
                for (w, &v) in wr.iter_mut().zip(yr) {
                    let z = (i64::from(*w) * i64::from(v)).rem_euclid(p) * rinv % p;
                    *w = i16::try_from(z).expect("below p");
                }
            }
            let mut got = x;
            // SAFETY: as above.
            unsafe {
                lazy_block_avx2(&mut want, j, t, false);
                product_avx2(&mut got, &y, j, t, fwd);
            }
            for (wr, gr) in want.iter().zip(&got) {
                for (&w, &g) in wr.iter().zip(gr) {
                    let d = (i64::from(g) - i64::from(w)).rem_euclid(p);
                    assert_eq!(d, 0, "p = {p}, fwd {fwd}, round {round}");
                }
            }
        };
        for round in 0..64 {
            for (fwd, xb) in [(true, 16383), (false, 16130)] {
                for (j, y_round) in [(0, round), (1, round ^ 1)] {
                    let (x, y) = (
                        block_at_bound(&mut s, round, xb),
                        block_at_bound(&mut s, y_round, 16130),
                    );
                    check(x, y, j, fwd, round);
                }
            }
        }
        // The pointwise product `vpmulhw(x, y) - vpmulhw(x y p^-1, p)`
        // per lane, and the `y` that take it to each extreme for x = 16130.
        let pinv = super::super::inv16(p);
        let mont = |x: i16, y: i16| {
            let lo = x.wrapping_mul(y).wrapping_mul(pinv);
            ((i32::from(x) * i32::from(y)) >> 16) - ((i32::from(lo) * i32::from(t.p)) >> 16)
        };
        let ys = (-16130..=16130).map(|y| (mont(16130, y), y));
        let (lo, hi) = (ys.clone().min().expect("ys"), ys.max().expect("ys"));
        assert!(hi.0 > 9000 && lo.0 < -9000 || p == 7681, "{lo:?} {hi:?}");
        for (round, (_, y)) in [lo, hi].into_iter().enumerate() {
            let x = [[16130; 16]; 16];
            check(x, [[y; 16]; 16], round, false, 64 + round);
        }
    }
}

#[target_feature(enable = "avx2")]
fn product_avx2(b: &mut [[i16; 16]; 16], y: &[[i16; 16]; 16], j: usize, t: &Prime, fwd: bool) {
    let k = consts(t);
    if fwd {
        block_product::<true>(b, y, (j, None), t, k);
    } else {
        block_product::<false>(b, y, (j, None), t, k);
    }
}

/// Each radix-4 macro on inputs at its bound (forward: 2^14 - 1, and the
/// twist's Montgomery products ±M for [`dif4`] with `sq1 = false`;
/// inverse: any i16, here ±32767; the inverse's first layer by 1 with
/// unreduced inputs at their [`Inputs`] bounds: `Pointwise` ±9347 (7681:
/// ±5867) on registers 0, 1 and ±32767 on 2, 3, `Montgomery` ±M on all
/// four), every sign pattern of the four inputs
/// (one per lane) and random values, against the exact sums and
/// products mod p: an intermediate that leaves its 16 bits breaks the
/// congruence.
#[test]
fn radix4_macros_at_the_bounds() {
    let Some(_token) = Avx2::detect() else { return };
    for t in [&P7681, &P10753] {
        // SAFETY: the token shows the CPU has AVX2.
        unsafe { radix4_avx2(t) };
    }
}

#[target_feature(enable = "avx2")]
fn radix4_avx2(t: &Prime) {
    let (k, p) = (consts(t), i64::from(t.p));
    let r = super::super::pow_mod(65536, t.p as u64 - 2, p);
    let c = |m: Mul| i64::from(m[0]) * r % p;
    let (tw, ti) = (&t.lane_fwd, &t.lane_inv);
    let mut s = 3u64;
    // The pointwise products' and the Montgomery products' bounds.
    let pw = if t.p == 7681 { 5867 } else { 9347 };
    let mm = ((32768 * (i32::from(t.p) - 1) / 2) >> 16) as i16 + t.p / 2 + 1;
    let cases = [
        ([16383; 4], true, 0..2),
        // The twist's products.
        ([mm; 4], true, 2..3),
        ([32767; 4], false, 0..2),
        ([pw, pw, 32767, 32767], false, 2..3),
        ([mm; 4], false, 3..4),
    ];
    for (bounds, fwd, variants) in cases {
        for round in 0..64 {
            let a: [[i16; 16]; 4] = core::array::from_fn(|i| {
                core::array::from_fn(|l| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let bound = bounds[i];
                    let m = if round < 32 {
                        bound
                    } else {
                        (s >> 50) as i16 % (bound + 1)
                    };
                    if (l >> i) & 1 == 1 { -m } else { m }
                })
            });
            // `dit16_inv`'s butterflies.
            let (bf, _, bf2, _) = inv_butterflies!(k);
            // (variant, roots (w0, w1, v) as multipliers of the reference)
            for v in variants.clone() {
                let mut x: [__m256i; 4] = core::array::from_fn(|i| load(&a[i]));
                let roots = match (fwd, v) {
                    (true, 0) => {
                        dif4!(x, [0, 1, 2, 3], [tw[1], tw[5], tw[2]], k, true);
                        [c(tw[1]), c(tw[5]), c(tw[2])]
                    }
                    (true, 1) => {
                        dif4_unit!(x, [0, 1, 2, 3], tw[4], k);
                        [1, c(tw[4]), 1]
                    }
                    (true, _) => {
                        dif4!(x, [0, 1, 2, 3], [tw[1], tw[5], tw[2]], k, false);
                        [c(tw[1]), c(tw[5]), c(tw[2])]
                    }
                    (false, 0) => {
                        dit4!(x, bf, bf2, [0, 1, 2, 3], [ti[2], ti[1], ti[5]]);
                        [c(ti[1]), c(ti[5]), c(ti[2])]
                    }
                    (false, _) => {
                        let inputs = [Inputs::Any, Inputs::Pointwise, Inputs::Montgomery];
                        let (_, _, bf2, one2, one01, one23) = inv_first!(k, inputs[v - 1]);
                        dit16_inv_first!(x, [0, 1, 2, 3], ti, (one01, one23, bf2, one2));
                        [1, c(ti[4]), 1]
                    }
                };
                let mut out = [[0i16; 16]; 4];
                for (o, v) in out.iter_mut().zip(x) {
                    store(o, v);
                }
                let [w0, w1, cv] = roots;
                for l in 0..16 {
                    let [a0, a1, a2, a3] = [0, 1, 2, 3].map(|i| i64::from(a[i][l]));
                    let want = if fwd {
                        let (b0, b2) = (a0 + a2, (a0 - a2) * w0);
                        let (b1, b3) = (a1 + a3, (a1 - a3) * w1);
                        [b0 + b1, (b0 - b1) * cv, b2 + b3, (b2 - b3) * cv]
                    } else {
                        let (b0, b1) = (a0 + a1 * cv, a0 - a1 * cv);
                        let (b2, b3) = (a2 + a3 * cv, a2 - a3 * cv);
                        [b0 + b2 * w0, b1 + b3 * w1, b0 - b2 * w0, b1 - b3 * w1]
                    };
                    for (i, w) in want.iter().enumerate() {
                        let d = (i64::from(out[i][l]) - w).rem_euclid(p);
                        assert_eq!(d, 0, "p = {p}, fwd {fwd}, variant {v}, round {round}");
                        // The first pass's outputs are the next pass's inputs.
                        let o = out[i][l];
                        if fwd {
                            assert!(o.abs() < 1 << 14, "p = {p}, variant {v}: {o}");
                        }
                    }
                }
            }
        }
    }
}

#[target_feature(enable = "avx2")]
fn transpose_avx2(x: &mut [[i16; 16]; 16]) {
    let mut r: Regs = core::array::from_fn(|i| load(&x[i]));
    transpose(&mut r);
    for (o, v) in x.iter_mut().zip(r) {
        store(o, v);
    }
}
