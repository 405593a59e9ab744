//! sntrup1277's products (p = 1277, 3072 = 3 x 1024 points; the parent
//! module's radix-3 layer with n = 1024), AVX2 (the products of Core
//! `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime spec §2.3). The exact R/3
//! product ([`ntt3_exact_avx2`], 12289 only) is the full product from the
//! parts [`combine`](super::combine)d in place. The R/q product ([`ntt3_rq_avx2`]): modulo 12289
//! the three parts' inverse transforms go straight into the product buffer
//! and are [`combine`](super::combine)d there into the full product `c mod 12289` (degree
//! `2p - 2 < 3072`), which is folded in place by x^p = x + 1 into
//! `F_k = c_k + c_(p+k) + c_(p+k-1)` ([`fold_in_place`]); modulo 18433 the
//! scratch left beside that `F` (2551 of 3p entries, and one local
//! transform) does not hold three parts and a working transform, so its
//! folded product is summed part by part (each part's `E_i` added at the
//! positions `F` reads); then Garner's CRT. The small factor may come as its kept part transforms (a prepared
//! decapsulation key's f and 1/g, [`prepare_1024`]: 6 and 3 [`Hat`]s; h's
//! 6 more do not fit the key's 10). Twin: the portable Karatsuba product
//! `mult::mul_full` (compared in `mult::tests::avx2_products_match_portable`);
//! kept parts against coefficients in `kept_1024_products_match` below.
//! Every loop bound and index depends on p only.

use core::arch::x86_64::{__m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_setr_epi16};

use super::super::{K, P1, P2, Prime, REGS, barrett, consts, load, store};
use super::{
    Garner, Part, Regs, Size, Src, T1, T2, accumulate, combine_in_place, f_len, ntt3_scratch, part,
};
use crate::arch::{Hat, Side};
use crate::wipe::Wipe;
use pqdr_common::simd::Avx2;

/// Part i of prime `pi` of the small factor: its coefficients, or its kept
/// transform (`Hat` 3 pi + i).
fn src_b<'a>(b: Side<'a, i8>, pi: usize, i: usize) -> Src<'a, i8, REGS> {
    match b {
        Side::Coeffs(c) => Src::Coeffs(c),
        Side::Hat(h) => Src::Kept(&h[3 * pi + i]),
    }
}

/// The three parts' `Z_i` of prime `pi` into registers `64 i ..` of `regs`
/// (`y` for b's transforms), [`combine`](super::combine)d there: the full product modulo
/// the prime (|.| <= p1/2 + p1/2^9).
#[target_feature(enable = "avx2")]
#[inline]
fn full_mod<const P: usize>(
    regs: &mut [[i16; 16]],
    y: &mut Part<REGS>,
    (a, b): (&[i16], Side<'_, i8>),
    (pi, t): (usize, &Prime),
) {
    let regs = &mut regs[..3 * REGS];
    let (ps, _) = regs.as_chunks_mut::<REGS>();
    for (i, x) in ps.iter_mut().enumerate() {
        part::<P, REGS>(x, y, (Src::Coeffs(a), src_b(b, pi, i)), (i, false), t);
    }
    let t3 = if pi == 0 { &T1 } else { &T2 };
    combine_in_place::<REGS>(regs, t3, consts(t));
}

/// The exact product (R/3, `|a|, |b| <= 1`): the full product `c` (degree
/// `2p - 2 < 3072`, `|c_k| <= p`, so exact modulo 12289) into
/// `full[..3072]` (no zero-fill: `c_k = 0` for `k >= 2p - 1`).
#[target_feature(enable = "avx2")]
pub(super) fn ntt3_exact_avx2<const P: usize>(full: &mut [i16], a: &[i16], b: Side<'_, i8>) {
    let mut y0: Part<REGS> = [[0; 16]; REGS];
    let mut y = Wipe::new(&mut y0);
    let (regs, _) = full.as_chunks_mut::<16>();
    full_mod::<P>(regs, &mut y, (a, b), (0, &P1));
}

/// `ntt3_mul_sides` for sntrup1277: `a` as coefficients, `b` as its
/// coefficients or its kept parts (6 `Hat`s for `REDUCE`, else 3).
pub(super) fn ntt3_mul_sides_1024<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: Side<'_, i16>,
    b: Side<'_, i8>,
) {
    let Side::Coeffs(a) = a else {
        panic!("ntt3_mul_sides: a kept for p > 1024")
    };
    let need = if REDUCE { 6 } else { 3 };
    assert!(b.covers(need), "ntt3_mul_sides: too few transforms");
    let _ = token;
    let full = &mut full[..ntt3_scratch(P)];
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe {
        if REDUCE {
            ntt3_rq_avx2::<P, Q>(full, a, b);
            full[P..2 * P].fill(0);
        } else {
            ntt3_exact_avx2::<P>(full, a, b);
        }
    }
}

/// `ntt3_prepare` for sntrup1277: the small factor's kept part transforms
/// (`a` must be `None`; both primes for 6 `Hat`s, else 12289's).
pub(super) fn ntt3_prepare_1024<const P: usize>(
    token: Avx2,
    out: &mut [Hat],
    a: Option<&[i16; P]>,
    b: &[i8; P],
) {
    assert!(a.is_none(), "ntt3_prepare: a kept for p > 1024");
    let _ = token;
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { prepare_1024::<P>(out, b) };
}

/// The small factor's kept part transforms (both primes for 6 `Hat`s, else
/// 12289's): `Hat` 3 pi + i holds part i of prime pi, forward-transformed.
#[target_feature(enable = "avx2")]
fn prepare_1024<const P: usize>(out: &mut [Hat], b: &[i8; P]) {
    let primes = if out.len() >= 6 { 2 } else { 1 };
    for (pi, xs) in out[..3 * primes].chunks_exact_mut(3).enumerate() {
        let t = if pi == 0 { &P1 } else { &P2 };
        let k = consts(t);
        for (i, x) in xs.iter_mut().enumerate() {
            <Regs as Size<REGS>>::forward_b::<P>(x, b, i, t, k);
        }
    }
}

/// The folded product modulo q (|.| < 2^14) into `full[..p]` (entries
/// `p..f_len(p)` left arbitrary), from `a` (|a| < 2^12) and the small `b`;
/// `full` holds at least `max(3072, 2 f_len(p) + 1024)` entries.
#[target_feature(enable = "avx2")]
pub(super) fn ntt3_rq_avx2<const P: usize, const Q: i16>(
    full: &mut [i16],
    a: &[i16],
    b: Side<'_, i8>,
) {
    let mut y0: Part<REGS> = [[0; 16]; REGS];
    let mut y = Wipe::new(&mut y0);
    // 12289: the three parts into full[..3072], combined in place, folded.
    let (regs, _) = full.as_chunks_mut::<16>();
    full_mod::<P>(regs, &mut y, (a, b), (0, &P1));
    fold_in_place::<P>(full, consts(&P1));
    // 18433: the folded product part by part (`E_i`, finished), after 12289's.
    let (f1, rest) = full.split_at_mut(f_len(P));
    let (f2, xs) = rest.split_at_mut(f_len(P));
    let (xs, _) = xs.as_chunks_mut::<16>();
    let x: &mut Part<REGS> = (&mut xs[..REGS]).try_into().expect("64 registers");
    let k2 = consts(&P2);
    for i in 0..3 {
        part::<P, REGS>(x, &mut y, (Src::Coeffs(a), src_b(b, 1, i)), (i, true), &P2);
        accumulate::<P, REGS>(f2, x, (i, i == 0), &T2, k2);
    }
    let g = Garner::new::<Q>();
    let (c1s, _) = f1.as_chunks_mut::<16>();
    let (c2s, _) = f2.as_chunks::<16>();
    for (o, c2) in c1s.iter_mut().zip(c2s) {
        let v = g.apply(load(o), load(c2));
        store(o, v);
    }
    // x and f2 (secret) are wiped by the caller's scratch guard.
}

/// `F_k = c_k + c_(p+k) + c_(p+k-1)` (the last for k >= 1) of the full
/// product `c` in `full[..2p - 1]` (|c| <= p1/2 + p1/2^9, so the sums stay
/// in i16) into `full[..p]`, reduced (|.| <= p1/2 + p1/2^9), register by
/// register upwards: register r writes entries below `16 r + 16` and reads
/// `c_(p+k-1)` at `p + 16 r - 1` and above, which no earlier register
/// wrote (entries `p..f_len(p)` of the last register are written after
/// register 0, their only reader).
#[target_feature(enable = "avx2")]
#[inline]
fn fold_in_place<const P: usize>(full: &mut [i16], k: K) {
    const { assert!(P > 16 && 2 * P + 16 < 3 * 16 * REGS) };
    let at = |full: &[i16], n: usize| -> __m256i {
        load(full[n..].first_chunk::<16>().expect("inside the product"))
    };
    // Register 0 without c_(p-1) in lane 0.
    let not0 = _mm256_setr_epi16(
        0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    for n in (0..f_len(P)).step_by(16) {
        let mut low = at(full, P + n - 1);
        if n == 0 {
            low = _mm256_and_si256(low, not0);
        }
        let s = _mm256_add_epi16(_mm256_add_epi16(at(full, n), at(full, P + n)), low);
        let o = full[n..]
            .first_chunk_mut::<16>()
            .expect("inside the product");
        store(o, barrett(s, k));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ntt3_mul, ntt3_mul_sides, ntt3_prepare};
    use super::*;
    use crate::test_util::lcg;
    use std::prelude::rust_2024::*;
    use std::vec;

    /// [`accumulate`] at its bounds (18433, p = 1277): E at ±13,824 (|E| <
    /// 3p/4) and F at ±9,252 (p/2 + p/2^9), constant, alternating and mixed
    /// patterns, every part i, first or not, against the sums modulo 18433
    /// in i64; every entry of F stays within p/2 + p/2^9.
    #[test]
    fn accumulate_at_the_bounds() {
        const P: usize = 1277;
        const M: i64 = 18433;
        if crate::arch::avx2().is_none() {
            return;
        }
        let (emax, fmax) = (13_824i64, 9_252i64);
        // ω (plain) from its Montgomery form: w 2^-16 mod M.
        let omega = i64::from(T2.omega[0][0]) * super::super::pow_mod(65536, M as u64 - 2, M) % M;
        let pw = |e: i64| super::super::pow_mod(omega, e.rem_euclid(3) as u64, M);
        let pattern = |kind: usize, j: usize, max: i64| -> i64 {
            match kind {
                0 => max,
                1 => -max,
                2 => [max, -max][j & 1],
                _ => (j as i64 * 7919 + 13) % (2 * max + 1) - max,
            }
        };
        for kind in 0..4 {
            let ef: Vec<i16> = (0..1024).map(|j| pattern(kind, j, emax) as i16).collect();
            let mut e: Part<REGS> = [[0; 16]; REGS];
            e.as_flattened_mut().copy_from_slice(&ef);
            for i in 0..3 {
                for first in [true, false] {
                    let f0: Vec<i16> = (0..f_len(P))
                        .map(|k| pattern(3 - kind, k, fmax) as i16)
                        .collect();
                    let mut f = f0.clone();
                    // SAFETY: AVX2 is present (checked above).
                    unsafe { accumulate::<P, REGS>(&mut f, &e, (i, first), &T2, consts(&P2)) };
                    let c = |n: usize| i64::from(ef[n % 1024]) * pw(-((i * (n / 1024)) as i64));
                    for k in 0..P {
                        let mut want = if first { 0 } else { i64::from(f0[k]) };
                        want += c(k) + c(P + k);
                        if k > 0 {
                            want += c(P + k - 1);
                        }
                        assert_eq!(
                            (i64::from(f[k]) - want).rem_euclid(M),
                            0,
                            "kind {kind}, i {i}, first {first}, k {k}"
                        );
                    }
                    assert!(
                        f.iter().all(|&v| i64::from(v).abs() <= fmax),
                        "bound, kind {kind}, i {i}"
                    );
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
        let h = (Q - 1) / 2;
        for round in 0..12 {
            let a: [i16; P] = core::array::from_fn(|i| match round {
                0 => h,
                1 => -h,
                2 => [h, -h][i & 1],
                _ => (lcg(&mut s) % (Q as u32)) as i16 - h,
            });
            let b: [i8; P] = core::array::from_fn(|i| match round {
                0 | 2 => 1,
                1 => [-1, 1][usize::from(i == P - 1)],
                _ => (lcg(&mut s) % 3) as i8 - 1,
            });
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
            assert_eq!(got[..2 * P], want[..2 * P], "R/q, round {round}");
            let mut hb3 = vec![[[0i16; 16]; 64]; 3];
            ntt3_prepare(token, &mut hb3, None, &b);
            assert_eq!(hb3[..], hb[..3], "12289's parts, round {round}");
            ntt3_mul::<P, 3, false>(token, &mut want, &e, &b);
            ntt3_mul_sides::<P, 3, false>(token, &mut got, Side::Coeffs(&e), Side::Hat(&hb3));
            assert_eq!(got[..2 * P], want[..2 * P], "R/3, round {round}");
        }
    }
}
