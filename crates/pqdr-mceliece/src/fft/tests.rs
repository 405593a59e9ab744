//! Tests of the FFT and its transpose against Horner evaluation and power
//! sums, in the layout of the values (`super::kernel_layout`), and of the
//! AVX2 kernels against the portable levels.

use super::*;
use crate::gf;
use crate::params::{Derived, MAX_Q_WORDS, Mceliece348864, Mceliece6960119, Mceliece8192128};
use crate::test_util::xorshift;
use core::mem::MaybeUninit;

fn rng(s: &mut u64) -> u16 {
    (xorshift(s) >> 20) as u16
}

/// The value-array position of standard position pos: the inverse of
/// `consts::swapped_pos(0, ..)` (position bit 0 to entry bit 0, bits
/// 1..5 to in-word bits 0..4, bit 7 to in-word bit 5) in the kernel
/// layout, else pos.
fn slot<P: ParameterSet>(pos: usize) -> usize {
    if !kernel_layout::<P>() {
        return pos;
    }
    (pos & !0xBF) | ((pos & 1) << 7) | ((pos >> 1) & 0x1F) | (((pos >> 7) & 1) << 5)
}

/// The value at standard position pos, in the layout of P's values.
fn get<P: ParameterSet>(v: &Values, pos: usize) -> u16 {
    let s = slot::<P>(pos);
    let mut x = 0;
    for b in 0..P::M {
        x |= (((v[s >> 7][b][(s >> 6) & 1] >> (s & 63)) & 1) as u16) << b;
    }
    x
}

/// `v` (standard layout) moved to the kernel layout: position s of the
/// result holds `v`'s position `consts::swapped_pos(0, s)`.
fn to_kernel(v: &Values, m: usize) -> Values {
    let mut out = zero_values();
    for s in 0..1 << m {
        let p = consts::swapped_pos(0, s);
        for b in 0..MAX_M {
            let bit = (v[p >> 7][b][(p >> 6) & 1] >> (p & 63)) & 1;
            out[s >> 7][b][(s >> 6) & 1] |= bit << (s & 63);
        }
    }
    out
}

#[test]
fn slot_inverts_swapped_pos() {
    for pos in 0..1 << MAX_M {
        let s = slot::<Mceliece6960119>(pos);
        let back = if kernel_layout::<Mceliece6960119>() {
            consts::swapped_pos(0, s)
        } else {
            s
        };
        assert_eq!(back, pos);
    }
}

/// `arch::bits_layout` against the position map bit by bit: to the
/// kernel layout, position s gets the bit of position
/// `consts::swapped_pos(0, s)`, and back gives the input; random words,
/// all ones, single bits at the first and last position, m = 12, 13.
#[test]
fn avx2_bits_layout_matches_position_map() {
    let Some(token) = crate::arch::avx2() else {
        return;
    };
    let mut s = 99;
    for m in [12, 13] {
        for round in 0..8 {
            let mut x = [0u64; MAX_Q_WORDS];
            match round {
                0 => x.fill(!0),
                1 => x[0] = 1,
                2 => x[(1 << (m - 6)) - 1] = 1 << 63,
                3 => x[3] = 1 << 40,
                _ => x.iter_mut().for_each(|w| {
                    *w = (u64::from(rng(&mut s)) << 40)
                        ^ u64::from(rng(&mut s))
                        ^ (u64::from(rng(&mut s)) << 20)
                }),
            }
            let mut got = x;
            crate::arch::bits_layout::<true>(token, m, &mut got);
            for q in 0..1 << m {
                let p = consts::swapped_pos(0, q);
                let want = (x[p >> 6] >> (p & 63)) & 1;
                assert_eq!(
                    (got[q >> 6] >> (q & 63)) & 1,
                    want,
                    "m {m} round {round} {q}"
                );
            }
            assert_eq!(got[1 << (m - 6)..], x[1 << (m - 6)..], "words past 2^m");
            crate::arch::bits_layout::<false>(token, m, &mut got);
            assert_eq!(got, x, "m {m} round {round} back");
        }
    }
}

fn set4(v: &mut Bitsliced<4>, i: usize, x: u16, m: usize) {
    for b in 0..m {
        v[b][i >> 6] |= u64::from((x >> b) & 1) << (i & 63);
    }
}

fn get4(v: &Bitsliced<4>, i: usize, m: usize) -> u16 {
    let mut x = 0;
    for b in 0..m {
        x |= (((v[b][i >> 6] >> (i & 63)) & 1) as u16) << b;
    }
    x
}

fn horner<P: ParameterSet>(f: &[u16], a: u16) -> u16 {
    f.iter().rev().fold(0, |acc, &c| gf::mul::<P>(acc, a) ^ c)
}

fn check_fft<P: ParameterSet>(k: usize, seed: u64) {
    let mut s = seed;
    let mut f = [0u16; 256];
    let mut fv = vec::zero::<4>();
    for (i, c) in f.iter_mut().enumerate().take(1 << k) {
        *c = rng(&mut s) & P::GF_MASK;
        set4(&mut fv, i, *c, P::M);
    }
    let mut out = zero_values();
    fft::<P>(&mut out, &fv, k);
    for pos in 0..1 << P::M {
        let a = gf::bitrev::<P>(pos as u16);
        assert_eq!(
            get::<P>(&out, pos),
            horner::<P>(&f[..1 << k], a),
            "pos {pos} k {k}"
        );
    }
}

#[test]
fn fft_matches_horner() {
    for k in 6..=8 {
        check_fft::<Mceliece348864>(k, 5 + k as u64);
        check_fft::<Mceliece6960119>(k, 9 + k as u64);
    }
}

fn check_monic<P: ParameterSet>(seed: u64) {
    let mut s = seed;
    let t = P::T;
    let mut f = [0u16; 257];
    let mut fv = vec::zero::<4>();
    for (i, c) in f.iter_mut().enumerate().take(t) {
        *c = rng(&mut s) & P::GF_MASK;
        set4(&mut fv, i, *c, P::M);
    }
    f[t] = 1;
    let mut out = zero_values();
    eval_monic::<P>(&mut out, &fv);
    for pos in 0..1 << P::M {
        let a = gf::bitrev::<P>(pos as u16);
        assert_eq!(get::<P>(&out, pos), horner::<P>(&f[..=t], a));
    }
    // Into an uninitialised array: the same array, zero outside the
    // set's entries and planes.
    let mut slot = MaybeUninit::<Values>::uninit();
    assert_eq!(*eval_monic_init::<P>(&mut slot, &fv), out);
}

#[test]
fn monic_matches_horner() {
    check_monic::<Mceliece348864>(3);
    check_monic::<Mceliece6960119>(4);
    check_monic::<Mceliece8192128>(5);
}

fn check_tr<P: ParameterSet>(k: usize, seed: u64) {
    let mut s = seed;
    let mut x = zero_values();
    let mut vals = [0u16; 8192];
    for (pos, v) in vals.iter_mut().enumerate().take(1 << P::M) {
        *v = rng(&mut s) & P::GF_MASK;
        let q = slot::<P>(pos);
        for b in 0..P::M {
            x[q >> 7][b][(q >> 6) & 1] |= u64::from((*v >> b) & 1) << (q & 63);
        }
    }
    let mut out = vec::zero::<4>();
    fft_tr::<P>(&mut out, &mut x, k);
    let mut sums = [0u16; 256];
    for (pos, &v) in vals.iter().enumerate().take(1 << P::M) {
        let a = gf::bitrev::<P>(pos as u16);
        let mut pw = 1u16;
        for s in sums.iter_mut().take(1 << k) {
            *s ^= gf::mul::<P>(v, pw);
            pw = gf::mul::<P>(pw, a);
        }
    }
    for (j, &s) in sums.iter().enumerate().take(1 << k) {
        assert_eq!(get4(&out, j, P::M), s, "j {j} k {k}");
    }
}

#[test]
fn fft_tr_matches_power_sums() {
    check_tr::<Mceliece348864>(7, 1);
    check_tr::<Mceliece6960119>(8, 2);
    check_tr::<Mceliece8192128>(7, 3);
}

/// The AVX2 in-word levels (`avx2_inword`: one kernel call per quad,
/// the packed tables of `consts`) give the portable levels' result
/// ([`fwd_word`] depth 5..0, `tr_word` depth 0..5, each with the
/// multipliers packed per level), forward and transposed, both fields,
/// random and all-ones values, with none, one or both of the levels
/// above them ([`fwd_wide`] / `tr_wide` at depth 6 and 7, with
/// `lane_multiplier`'s and `splat`'s constants); they run exactly when
/// the CPU has AVX2 (else the values are untouched).
fn check_inword<P: ParameterSet>(seed: u64) {
    let c = &<P as FftConsts>::FFT;
    let entries = 1 << (P::M - 7);
    let mut s = seed;
    for (edge, wide) in [
        (false, 0),
        (true, 0),
        (false, 1),
        (true, 1),
        (false, 2),
        (true, 2),
    ] {
        let mut x = zero_values();
        for v in x.iter_mut().take(entries) {
            for w in v.iter_mut().take(P::M) {
                *w = if edge {
                    [!0; 2]
                } else {
                    [0, 1].map(|_| {
                        (u64::from(rng(&mut s)) << 40)
                            ^ u64::from(rng(&mut s))
                            ^ (u64::from(rng(&mut s)) << 20)
                    })
                };
            }
        }
        let mut want = x;
        for d in (6..6 + wide).rev() {
            fwd_wide::<P>(&mut want, c, entries, d);
        }
        fwd_word::<P, 5>(&mut want, c, entries);
        fwd_word::<P, 4>(&mut want, c, entries);
        fwd_word::<P, 3>(&mut want, c, entries);
        fwd_word::<P, 2>(&mut want, c, entries);
        fwd_word::<P, 1>(&mut want, c, entries);
        fwd_word::<P, 0>(&mut want, c, entries);
        let mut got = x;
        let ran = avx2_inword::<P, true>(&mut got, entries, wide);
        assert_eq!(ran, crate::arch::avx2().is_some());
        // The forward kernel leaves the kernel layout.
        let want = to_kernel(&want, P::M);
        assert_eq!(got, if ran { want } else { x }, "forward wide {wide}");
        let mut want = x;
        transposed::tr_word::<P, 0>(&mut want, c, entries);
        transposed::tr_word::<P, 1>(&mut want, c, entries);
        transposed::tr_word::<P, 2>(&mut want, c, entries);
        transposed::tr_word::<P, 3>(&mut want, c, entries);
        transposed::tr_word::<P, 4>(&mut want, c, entries);
        transposed::tr_word::<P, 5>(&mut want, c, entries);
        for d in 6..6 + wide {
            transposed::tr_wide::<P>(&mut want, c, entries, d);
        }
        // The transposed kernel reads the kernel layout.
        let mut got = if crate::arch::avx2().is_some() {
            to_kernel(&x, P::M)
        } else {
            x
        };
        let ran = avx2_inword::<P, false>(&mut got, entries, wide);
        assert_eq!(ran, crate::arch::avx2().is_some());
        assert_eq!(got, if ran { want } else { x }, "transposed wide {wide}");
    }
}

/// The AVX2 radix conversions (`crate::arch::radix_conversions`, both
/// directions) give the portable loops' result for every k from 0 to 8,
/// both fields, on random coefficients (all 256 positions, all planes
/// below m) and on all-ones; without AVX2 the test checks nothing more
/// than the portable path against itself.
fn check_radix<P: ParameterSet>(seed: u64) {
    let c = &<P as FftConsts>::FFT;
    let mut s = seed;
    for k in 0..=8 {
        for edge in [false, true] {
            let mut x = vec::zero::<4>();
            for w in x.iter_mut().take(P::M) {
                *w = if edge {
                    [!0; 4]
                } else {
                    [0; 4].map(|_: u64| {
                        (u64::from(rng(&mut s)) << 40)
                            ^ u64::from(rng(&mut s))
                            ^ (u64::from(rng(&mut s)) << 20)
                    })
                };
            }
            let (mut want, mut got) = (x, x);
            radix_fwd_with::<P>(&mut want, c, k, None);
            radix_fwd_with::<P>(&mut got, c, k, crate::arch::avx2());
            assert_eq!(got, want, "forward k {k}");
            let (mut want, mut got) = (x, x);
            transposed::radix_tr_with::<P>(&mut want, c, k, None);
            transposed::radix_tr_with::<P>(&mut got, c, k, crate::arch::avx2());
            assert_eq!(got, want, "transposed k {k}");
        }
    }
}

#[test]
fn avx2_radix_matches_portable() {
    check_radix::<Mceliece348864>(21);
    check_radix::<Mceliece6960119>(22);
}

#[test]
fn avx2_inword_matches_portable_levels() {
    check_inword::<Mceliece348864>(11);
    check_inword::<Mceliece6960119>(12);
    check_inword::<Mceliece8192128>(13);
}
