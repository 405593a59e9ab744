//! Differential tests of the AVX2 kernels of `crate::arch` (feature `simd`,
//! x86-64) against the portable products of this module and the portable
//! FFT butterflies: random inputs, outputs compared bit for bit.
//!
//! They live here, under `vec`, rather than beside the kernels in
//! `arch/x86_64/`: `vec` dispatches to `arch`, so tests in `arch` naming
//! `vec` would close an import cycle (`scripts/structure.py` counts test code).

use super::{Bitsliced, inv_portable, mul12, mul13, zero};
use crate::arch::{
    Avx2, QuadMultiplier, QuadMultipliers, butterflies_inword, inv_x2, mul_pair, mul_x4,
};
use crate::params::{MAX_M, Mceliece348864, Mceliece460896, ParameterSet};
use crate::test_util::xorshift;

/// The 4- and 2-batch AVX2 products (both through the generated `asm!`
/// products `mul12_regs` / `mul13_regs`) against the portable product of
/// each 2-word half: edge operands, then 200 random ones.
fn check<P: ParameterSet>(token: Avx2, seed: u64) {
    let mut s = seed;
    for round in 0..204 {
        let mut a = zero::<4>();
        let mut b = zero::<4>();
        for k in 0..P::M {
            for l in 0..4 {
                // Edges first: all ones (every column and fold full), one
                // operand 1 or z^(m - 1) (the top fold alone), zero; then
                // random planes.
                (a[k][l], b[k][l]) = match round {
                    0 => (!0, !0),
                    1 => (!0, u64::from(k == 0).wrapping_neg()),
                    2 => (u64::from(k == P::M - 1).wrapping_neg(), !0),
                    3 => (0, !0),
                    _ => (xorshift(&mut s), xorshift(&mut s)),
                };
            }
        }
        // The portable product of each 2-word half.
        let mut want = zero::<4>();
        for h in 0..2 {
            let a2: Bitsliced<2> = core::array::from_fn(|k| [a[k][2 * h], a[k][2 * h + 1]]);
            let b2: Bitsliced<2> = core::array::from_fn(|k| [b[k][2 * h], b[k][2 * h + 1]]);
            let mut o2 = zero::<2>();
            if P::M == 12 {
                mul12::<2>(&mut o2, &a2, &b2);
            } else {
                mul13::<2>(&mut o2, &a2, &b2);
            }
            for k in 0..P::M {
                want[k][2 * h] = o2[k][0];
                want[k][2 * h + 1] = o2[k][1];
            }
        }
        // Every plane is written (planes from m on: zero), as by the
        // portable 4-batch product, whatever `out` held before.
        let mut got = [[!0u64; 4]; MAX_M];
        mul_x4(token, P::M, &mut got, &a, &b);
        assert_eq!(got, want, "round {round}");
        // The paired form: halves in, halves out.
        let a2: [Bitsliced<2>; 2] =
            core::array::from_fn(|h| core::array::from_fn(|k| [a[k][2 * h], a[k][2 * h + 1]]));
        let b2: [Bitsliced<2>; 2] =
            core::array::from_fn(|h| core::array::from_fn(|k| [b[k][2 * h], b[k][2 * h + 1]]));
        let (mut o0, mut o1) = (zero::<2>(), zero::<2>());
        mul_pair(
            token,
            P::M,
            [&mut o0, &mut o1],
            [&a2[0], &a2[1]],
            [&b2[0], &b2[1]],
        );
        for k in 0..P::M {
            assert_eq!([o0[k][0], o0[k][1], o1[k][0], o1[k][1]], want[k]);
        }
    }
}

/// The portable butterflies of one register pair at in-word depth d (the
/// formulas of `butterflies_inword`, in plain words): forward, the register
/// bit (v0 or v1) exchanged with in-word bit d, then v0 ^= a v1,
/// v1 ^= v0; transposed, v0 ^= v1, v1 ^= a v0, then the exchange. `hi`:
/// the bits with bit d of their index set.
fn pair_portable<P: ParameterSet>(
    forward: bool,
    d: u32,
    hi: u64,
    v0: &mut Bitsliced<2>,
    v1: &mut Bitsliced<2>,
    a: &Bitsliced<2>,
) {
    let s = 1u32 << d;
    // v0's bits at hi trade places with v1's 2^d below them.
    let exchange = |v0: &mut Bitsliced<2>, v1: &mut Bitsliced<2>| {
        for b in 0..P::M {
            for l in 0..2 {
                let (x, y) = (v0[b][l], v1[b][l]);
                v0[b][l] = (x & !hi) | ((y & !hi) << s);
                v1[b][l] = ((x & hi) >> s) | (y & hi);
            }
        }
    };
    if forward {
        exchange(v0, v1);
    } else {
        for b in 0..P::M {
            for l in 0..2 {
                v0[b][l] ^= v1[b][l];
            }
        }
    }
    let mut p = zero::<2>();
    let x = if forward { &*v1 } else { &*v0 };
    if P::M == 12 {
        mul12::<2>(&mut p, x, a);
    } else {
        mul13::<2>(&mut p, x, a);
    }
    for b in 0..P::M {
        for l in 0..2 {
            if forward {
                v0[b][l] ^= p[b][l];
                v1[b][l] ^= v0[b][l];
            } else {
                v1[b][l] ^= p[b][l];
            }
        }
    }
    if !forward {
        exchange(v0, v1);
    }
}

/// The portable lane level (depth 6) of one entry pair (`fft::fwd_wide` /
/// `tr_wide` at d = 6): per entry, forward word 0 ^= a word 1, word 1 ^=
/// word 0; transposed word 0 ^= word 1, word 1 ^= a word 0; `a` holds the
/// two entries' multipliers in its two words.
fn lane_portable<P: ParameterSet>(
    forward: bool,
    v0: &mut Bitsliced<2>,
    v1: &mut Bitsliced<2>,
    a: &Bitsliced<2>,
) {
    let (from, to) = if forward { (1, 0) } else { (0, 1) };
    if !forward {
        for b in 0..P::M {
            v0[b][0] ^= v0[b][1];
            v1[b][0] ^= v1[b][1];
        }
    }
    let vh: Bitsliced<2> = core::array::from_fn(|b| [v0[b][from], v1[b][from]]);
    let mut p = zero::<2>();
    if P::M == 12 {
        mul12::<2>(&mut p, &vh, a);
    } else {
        mul13::<2>(&mut p, &vh, a);
    }
    for b in 0..P::M {
        v0[b][to] ^= p[b][0];
        v1[b][to] ^= p[b][1];
        if forward {
            v0[b][1] ^= v0[b][0];
            v1[b][1] ^= v1[b][0];
        }
    }
}

/// The portable first entry level (depth 7, `fft::fwd_wide` / `tr_wide` at
/// d = 7) of one entry pair (u, v) with multiplier words `a`: forward
/// u ^= a v, v ^= u; transposed u ^= v, v ^= a u.
fn entry_portable<P: ParameterSet>(
    forward: bool,
    u: &mut Bitsliced<2>,
    v: &mut Bitsliced<2>,
    a: &Bitsliced<2>,
) {
    if !forward {
        for b in 0..P::M {
            for l in 0..2 {
                u[b][l] ^= v[b][l];
            }
        }
    }
    let x = if forward { &*v } else { &*u };
    let mut p = zero::<2>();
    if P::M == 12 {
        mul12::<2>(&mut p, x, a);
    } else {
        mul13::<2>(&mut p, x, a);
    }
    for b in 0..P::M {
        for l in 0..2 {
            if forward {
                u[b][l] ^= p[b][l];
                v[b][l] ^= u[b][l];
            } else {
                v[b][l] ^= p[b][l];
            }
        }
    }
}

/// The six in-word levels of `butterflies_inword` against six rounds of
/// [`pair_portable`] on both entry pairs, with random multiplier tables
/// (`edge`: every input bit set), and the `wide` levels above them
/// ([`lane_portable`], then [`entry_portable`]) before (forward, depth 7
/// first) or after (transposed) them.
fn check_quad<P: ParameterSet>(token: Avx2, seed: u64, edge: bool, wide: usize) {
    // Bits with bit d of their index set (the FFT's BIT_SET[d]).
    let bit_set = |d: u32| {
        (0..64u32)
            .filter(|i| (i >> d) & 1 == 1)
            .fold(0u64, |m, i| m | 1 << i)
    };
    let mut s = seed;
    let r = |s: &mut u64| if edge { !0 } else { xorshift(s) };
    for forward in [true, false] {
        let mut quad = [zero::<2>(); 4];
        for v in &mut quad {
            for w in v.iter_mut().take(P::M) {
                *w = [r(&mut s), r(&mut s)];
            }
        }
        let mut mult: QuadMultipliers = [QuadMultiplier([[0; 4]; MAX_M]); 8];
        for level in &mut mult {
            for w in level.0.iter_mut().take(P::M) {
                *w = core::array::from_fn(|_| r(&mut s));
            }
        }
        let mut want = quad;
        // Depth d (6 or 7) of the levels above the in-word ones.
        let wide_step = |want: &mut [Bitsliced<2>; 4], d: usize| {
            for j in 0..2 {
                let a: Bitsliced<2> =
                    core::array::from_fn(|b| [mult[d].0[b][2 * j], mult[d].0[b][2 * j + 1]]);
                let [x, y] = &mut want[2 * j..2 * j + 2] else {
                    unreachable!()
                };
                if d == 6 {
                    lane_portable::<P>(forward, x, y, &a);
                } else {
                    entry_portable::<P>(forward, x, y, &a);
                }
            }
        };
        if forward {
            for d in (6..6 + wide).rev() {
                wide_step(&mut want, d);
            }
        }
        for step in 0..6u32 {
            let d = if forward { 5 - step } else { step };
            let lanes = &mult[d as usize].0;
            for j in 0..2 {
                let a: Bitsliced<2> =
                    core::array::from_fn(|b| [lanes[b][2 * j], lanes[b][2 * j + 1]]);
                let [x, y] = &mut want[2 * j..2 * j + 2] else {
                    unreachable!()
                };
                pair_portable::<P>(forward, d, bit_set(d), x, y, &a);
            }
        }
        if !forward {
            for d in 6..6 + wide {
                wide_step(&mut want, d);
            }
        }
        if forward {
            butterflies_inword::<true>(token, P::M, &mut quad, &mult, wide);
        } else {
            butterflies_inword::<false>(token, P::M, &mut quad, &mult, wide);
        }
        assert_eq!(quad, want, "forward {forward} wide {wide} seed {seed}");
    }
}

#[test]
fn avx2_butterflies_match_portable() {
    let Some(token) = Avx2::detect() else {
        return;
    };
    for wide in 0..3 {
        for seed in 1..20 {
            check_quad::<Mceliece348864>(token, seed, false, wide);
            check_quad::<Mceliece460896>(token, seed + 100, false, wide);
        }
        check_quad::<Mceliece348864>(token, 0, true, wide);
        check_quad::<Mceliece460896>(token, 0, true, wide);
    }
}

#[test]
fn avx2_products_match_portable() {
    let Some(token) = Avx2::detect() else {
        return;
    };
    check::<Mceliece348864>(token, 1);
    check::<Mceliece460896>(token, 2);
}

/// The Itoh–Tsujii inversion kernel against the portable chain: random
/// planes, then the edges (every lane 0, 1 and all ones); planes from m on
/// of the output are left as they were.
fn check_inv<P: ParameterSet>(token: Avx2, seed: u64) {
    let mut s = seed;
    for round in 0..203 {
        let mut a = zero::<2>();
        for (k, plane) in a.iter_mut().enumerate().take(P::M) {
            for w in plane.iter_mut() {
                *w = match round {
                    0 => 0,
                    1 => u64::from(k == 0).wrapping_neg(),
                    2 => !0,
                    _ => xorshift(&mut s),
                };
            }
        }
        let (mut want, mut got) = ([[round; 2]; MAX_M], [[round; 2]; MAX_M]);
        inv_portable::<P, 2>(&mut want, &a);
        inv_x2(token, P::M, &mut got, &a);
        assert_eq!(got, want, "round {round}");
    }
}

#[test]
fn avx2_inv_matches_portable() {
    let Some(token) = Avx2::detect() else {
        return;
    };
    check_inv::<Mceliece348864>(token, 3);
    check_inv::<Mceliece460896>(token, 4);
}
