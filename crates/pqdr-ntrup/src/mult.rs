//! Multiplication in R/q and R/3, R = Z\[x\]/(x^p - x - 1): the ring
//! operations of the Streamlined NTRU Prime Core (NTRU Prime spec §2.3:
//! `KeyGen`, `Encrypt`, and `Decrypt` in §2.3.4) and `Round`; reference
//! `Rq_mult_small`, `R3_mult`, `Rq_mult3`, `R3_fromRq`, `Round`.
//!
//! Every product here has one *small* factor (coefficients in {-1, 0, 1}),
//! so products fit 16-bit lanes. The full product of degree 2p - 2 is
//! computed by [`LEVELS`] levels of Karatsuba: with `h = ⌈n/2⌉`,
//! `a = a0 + x^h a1`, `b = b0 + x^h b1`,
//! `a b = a0 b0 + x^h ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) + x^(2h) a1 b1`.
//! The split sizes depend only on p. The sums `b0 + b1` stay small
//! (|coefficient| <= 2^level), and the sums `a0 + a1` are brought back
//! to `-Q12..=Q12` with a masked correction, so the base case sees the same
//! kind of operands as a plain product.
//!
//! The base case is a schoolbook product computed output block by output
//! block (32 coefficients = four 8-lane registers): for each block, every row
//! `i` adds `a[o - i] * b[i]` (a 16-bit multiply by a small value) to
//! accumulators that stay in registers. `a` is read in place; the rows whose
//! window hangs over an end of `a` read from small copies of its ends next to
//! zeros (no zero-padded copy of `a`). On a public schedule (every
//! `ROWS_PER_REDUCTION >> s` rows for `|b| <= 2^s`) the accumulators are
//! brought back into `(-2q, 2q)` by a 16-bit Barrett step; every partial
//! product and every Karatsuba recombination ends in `(-2q, 2q)`. At the end
//! the top half is folded with x^p = x + 1 and every coefficient is frozen
//! once. R/3 products use the same code without reduction: the integer sums
//! stay far below 2^15.
//!
//! On the AVX2 path the full product comes instead from transforms
//! (`arch::ntt3_mul`: 512 k points, k = 3 for p <= 768, 4 for p <= 1024,
//! 5 for sntrup1277, modulo 7681 and 10753, CRT, then mod q; R/3 the first
//! prime only); the fold and freeze below are shared.

use crate::arch::{self, Avx2};
use crate::arith::{BLOCK, Fq, f3_freeze};

/// Karatsuba levels above the schoolbook base case.
const LEVELS: u32 = 2;

/// Scratch space of one product: the full product (2p coefficients), then
/// the Karatsuba sums `a0 + a1` of both levels (`⌈p/2⌉ + ⌈⌈p/2⌉/2⌉ <= p`
/// entries; the middle products overwrite the consumed `a` operands). The
/// sums of the small factor take the first half of the factor itself,
/// restored after use, and the base case reads its operand in place, so
/// nothing else is needed.
pub(crate) type Scratch<const P: usize> = [[i16; P]; 3];

/// Whether the AVX2 product of p takes the radix-3 transforms
/// (`arch::ntt3_mul`), whose scratch fits a [`Scratch`].
const fn ntt3_fits<const P: usize>() -> bool {
    arch::ntt3_fits(P) && 3 * P >= arch::ntt3_scratch(P)
}

/// `x` reduced into `(-2q, 2q)` when `REDUCE`, else unchanged.
#[inline(always)]
fn red<const Q: i16, const REDUCE: bool>(x: i16) -> i16 {
    if REDUCE { Fq::<Q>::reduce16(x) } else { x }
}

/// One schoolbook row: `s += src[k .. k + BLOCK] * m`.
#[inline(always)]
fn row(s: &mut [i16; BLOCK], src: &[i16], k: usize, m: i8) {
    let w: &[i16; BLOCK] = src[k..k + BLOCK].try_into().unwrap_or(&[0; BLOCK]);
    let m = i16::from(m);
    for (x, &y) in s.iter_mut().zip(w) {
        *x = x.wrapping_add(y.wrapping_mul(m));
    }
}

/// Rows `i0..i1` of one output block: row `i` adds `src[base - i ..] * b[i]`;
/// with `REDUCE`, a reduction after every `rows` rows and after the last.
#[inline(always)]
fn rows_into<const Q: i16, const REDUCE: bool>(
    s: &mut [i16; BLOCK],
    src: &[i16],
    base: usize,
    b: &[i8],
    (i0, i1): (usize, usize),
    rows: usize,
) {
    if REDUCE {
        let mut i = i0;
        while i < i1 {
            let end = (i + rows).min(i1);
            for (j, &bi) in b[i..end].iter().enumerate() {
                row(s, src, base - i - j, bi);
            }
            for x in s.iter_mut() {
                *x = Fq::<Q>::reduce16(*x);
            }
            i = end;
        }
    } else {
        for (i, &bi) in b.iter().enumerate().take(i1).skip(i0) {
            row(s, src, base - i, bi);
        }
    }
}

/// Schoolbook `out = a * b` (`out.len() = 2n - 1` for `n = a.len() = b.len()`,
/// `n >= BLOCK`), `|b| <= 2^bshift`, every output in `(-2q, 2q)` when `REDUCE`.
///
/// Output block `ob` takes row `i` from the window `a[ob - i .. ob - i + BLOCK]`.
/// Windows inside `a` are read in place; the few that hang over either end
/// (at most `BLOCK - 1` rows on each side of a block) read from two
/// `2 BLOCK`-entry copies of the ends of `a` next to a block of zeros, so
/// no zero-padded copy of all of `a` is needed.
#[inline(never)]
fn schoolbook<const Q: i16, const REDUCE: bool>(out: &mut [i16], a: &[i16], b: &[i8], bshift: u32) {
    let n = a.len();
    let len = 2 * n - 1;
    // left = BLOCK zeros ‖ a[..BLOCK]; right = a[n - BLOCK..] ‖ BLOCK zeros.
    let mut left = [0i16; 2 * BLOCK];
    left[BLOCK..].copy_from_slice(&a[..BLOCK]);
    let mut right = [0i16; 2 * BLOCK];
    right[..BLOCK].copy_from_slice(&a[n - BLOCK..]);
    // Rows of |a| <= Q12 times |b| <= 2^bshift between two reductions.
    let rows = Fq::<Q>::ROWS_PER_REDUCTION >> bshift;
    debug_assert!(!REDUCE || rows >= 1);

    let mut ob = 0;
    while ob < len {
        // Rows contributing to outputs ob..ob+BLOCK: ob - (n-1) <= i <= ob + BLOCK - 1.
        let i_lo = (ob + 1).saturating_sub(n);
        let i_hi = (ob + BLOCK).min(n);
        // Rows below r_end hang over the top of a (ob - i + BLOCK > n), rows from
        // l_start on hang below its start (i > ob); the rows between are inside.
        let r_end = (ob + BLOCK).saturating_sub(n).clamp(i_lo, i_hi);
        let l_start = (ob + 1).clamp(r_end, i_hi);
        let mut s = [0i16; BLOCK];
        let right_base = (ob + BLOCK).saturating_sub(n);
        rows_into::<Q, REDUCE>(&mut s, &right, right_base, b, (i_lo, r_end), rows);
        rows_into::<Q, REDUCE>(&mut s, a, ob, b, (r_end, l_start), rows);
        rows_into::<Q, REDUCE>(&mut s, &left, ob + BLOCK, b, (l_start, i_hi), rows);
        let take = (len - ob).min(BLOCK);
        for (o, &x) in out[ob..ob + take].iter_mut().zip(&s) {
            *o = red::<Q, REDUCE>(x);
        }
        ob += BLOCK;
    }
}

/// `out = a * b` by `levels` levels of Karatsuba over [`schoolbook`]
/// (`out.len() = 2n - 1`, `n = a.len() = b.len()`, `|a| <= Q12` when
/// `REDUCE`, `|b| <= 2^bshift`); `a` is consumed (it holds the middle
/// product once `a0 b0` and `a1 b1` are done); `b` holds the sums `b0 + b1`
/// in its first half during the middle product and is restored before
/// returning; `w` is scratch. `be` runs the base case.
fn karatsuba<const Q: i16, const REDUCE: bool>(
    out: &mut [i16],
    a: &mut [i16],
    b: &mut [i8],
    w: &mut [i16],
    (levels, bshift): (u32, u32),
    be: Option<Avx2>,
) {
    let n = a.len();
    if levels == 0 || n < 4 * BLOCK {
        match be {
            None => schoolbook::<Q, REDUCE>(out, a, b, bshift),
            Some(token) => arch::schoolbook::<Q, REDUCE>(token, out, a, b, bshift),
        }
        return;
    }
    let h = n - (n >> 1);
    let (sa, w) = w.split_at_mut(h);
    {
        let (a0, a1) = a.split_at_mut(h);
        let (b0, b1) = b.split_at_mut(h);
        // sa = a0 + a1 (back into -Q12..=Q12).
        sa.copy_from_slice(a0);
        for (x, &y) in sa.iter_mut().zip(&*a1) {
            let mut t = x.wrapping_add(y);
            if REDUCE {
                #[allow(clippy::cast_possible_truncation, reason = "Q12 < 2^15")]
                let q12 = Fq::<Q>::Q12 as i16;
                // t in -2 Q12..=2 Q12: subtract q where t > Q12, add q where t < -Q12.
                t = t.wrapping_sub(Q & (q12.wrapping_sub(t) >> 15));
                t = t.wrapping_add(Q & (t.wrapping_add(q12) >> 15));
            }
            *x = t;
        }
        let (lo, rest) = out.split_at_mut(2 * h - 1);
        let (gap, hi) = rest.split_at_mut(1);
        gap[0] = 0;
        karatsuba::<Q, REDUCE>(lo, a0, b0, w, (levels - 1, bshift), be);
        karatsuba::<Q, REDUCE>(hi, a1, b1, w, (levels - 1, bshift), be);
        // b0 <- b0 + b1 (undone below), so b needs no scratch of its own.
        for (x, &y) in b0.iter_mut().zip(&*b1) {
            *x = x.wrapping_add(y);
        }
    }
    // a is free: m = (a0 + a1)(b0 + b1) there (2h - 1 <= n entries).
    let m = &mut a[..2 * h - 1];
    {
        let (sb, b1) = b.split_at_mut(h);
        karatsuba::<Q, REDUCE>(m, sa, sb, w, (levels - 1, bshift + 1), be);
        for (x, &y) in sb.iter_mut().zip(&*b1) {
            *x = x.wrapping_sub(y);
        }
    }
    {
        let (lo, rest) = out.split_at(2 * h - 1);
        let hi = &rest[1..];
        // m = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1
        for (x, &y) in m.iter_mut().zip(lo) {
            *x = red::<Q, REDUCE>(x.wrapping_sub(y));
        }
        for (x, &y) in m.iter_mut().zip(hi) {
            *x = red::<Q, REDUCE>(x.wrapping_sub(y));
        }
    }
    for (o, &x) in out[h..h + 2 * h - 1].iter_mut().zip(&*m) {
        *o = red::<Q, REDUCE>(o.wrapping_add(x));
    }
}

/// The full product `a * b` (mod q when `REDUCE`, else exactly) into the
/// first `2p` entries of `buf` (the last one 0); `a` is consumed.
#[inline(always)]
fn mul_full<const P: usize, const Q: i16, const REDUCE: bool>(
    a: &mut [i16; P],
    b: &mut [i8; P],
    buf: &mut Scratch<P>,
    be: Option<Avx2>,
) {
    const { assert!(P >= 4 * BLOCK) };
    // At least one row between two reductions at the deepest level.
    const { assert!(Fq::<Q>::ROWS_PER_REDUCTION >> LEVELS >= 1) };
    // The sums of both levels (⌈p/2⌉ + ⌈⌈p/2⌉/2⌉ entries) fit the p entries
    // after the full product.
    const { assert!(LEVELS == 2) };
    let (full, w) = buf.as_flattened_mut().split_at_mut(2 * P);
    full[2 * P - 1] = 0;
    karatsuba::<Q, REDUCE>(&mut full[..2 * P - 1], a, b, w, (LEVELS, 0), be);
}

/// The coefficient `k < p` of the folded product: x^(p+j) = x^(j+1) + x^j.
#[inline(always)]
fn folded<const P: usize>(full: &[i16], k: usize) -> i32 {
    let mut x = i32::from(full[k]) + i32::from(full[P + k]); // full[2p-1] = 0
    if k >= 1 {
        x += i32::from(full[P + k - 1]);
    }
    x
}

/// `Rq_mult_small`: `a = a * b` in R/q with `b` small (the products of Core
/// `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime spec §2.3).
pub(crate) fn rq_mult_small<const P: usize, const Q: i16>(
    a: &mut [i16; P],
    b: &mut [i8; P],
    buf: &mut Scratch<P>,
) {
    rq_mult_small_on::<P, Q>(a, b, buf, arch::avx2());
}

/// [`rq_mult_small`] on the given backend (the tests compare both).
pub(crate) fn rq_mult_small_on<const P: usize, const Q: i16>(
    a: &mut [i16; P],
    b: &mut [i8; P],
    buf: &mut Scratch<P>,
    be: Option<Avx2>,
) {
    match be {
        Some(token) if const { ntt3_fits::<P>() } => {
            arch::ntt3_mul::<P, Q, true>(token, buf.as_flattened_mut(), a, b);
            return fold_q_ntt3::<P, Q>(token, a, buf.as_flattened());
        }
        _ => mul_full::<P, Q, true>(a, b, buf, be),
    }
    fold_q_on::<P, Q>(a, &buf.as_flattened()[..2 * P], be);
}

/// The end of a transform product (`arch::ntt3_mul`, `ntt3_mul_sides`) in `full`: [`fold_q_on`]
/// of `full[..2p]`, or only the freeze of `full[..p]` if folded (`arch::ntt3_folds`: sntrup1277).
pub(crate) fn fold_q_ntt3<const P: usize, const Q: i16>(t: Avx2, a: &mut [i16; P], full: &[i16]) {
    if const { arch::ntt3_folds(P) } {
        arch::freeze_folded::<P, Q>(t, a, full);
    } else {
        fold_q_on::<P, Q>(a, &full[..2 * P], Some(t));
    }
}

/// `a = freeze(full mod x^p - x - 1)`: the end of [`rq_mult_small_on`], on
/// the given backend (`full[2p - 1] = 0`).
pub(crate) fn fold_q_on<const P: usize, const Q: i16>(
    a: &mut [i16; P],
    full: &[i16],
    be: Option<Avx2>,
) {
    match be {
        Some(token) => arch::fold_q::<P, Q>(token, a, full),
        None => {
            for (k, ak) in a.iter_mut().enumerate() {
                *ak = Fq::<Q>::freeze(folded::<P>(full, k));
            }
        }
    }
}

/// `R3_mult` (the product by `v = 1/g` of Core `Decrypt`, NTRU Prime spec §2.3.4):
/// `b = a * b` in R/3 for `a` with coefficients in {-1, 0, 1}
/// held in i16 (exact integer sums); `a` is consumed. The result is
/// written over `b` (the product has read all of it before the fold
/// writes it), so `Decrypt` needs no third p-coefficient buffer.
pub(crate) fn r3_mult<const P: usize>(a: &mut [i16; P], b: &mut [i8; P], buf: &mut Scratch<P>) {
    r3_mult_on::<P>(a, b, buf, arch::avx2());
}

/// [`r3_mult`] on the given backend (the tests compare both).
pub(crate) fn r3_mult_on<const P: usize>(
    a: &mut [i16; P],
    b: &mut [i8; P],
    buf: &mut Scratch<P>,
    be: Option<Avx2>,
) {
    match be {
        Some(token) if const { ntt3_fits::<P>() } => {
            arch::ntt3_mul::<P, 3, false>(token, buf.as_flattened_mut(), a, b);
        }
        _ => mul_full::<P, 3, false>(a, b, buf, be),
    }
    fold_3_on::<P>(b, &buf.as_flattened()[..2 * P], be);
}

/// `h = F3_freeze(full mod x^p - x - 1)` for an exact integer product
/// (`|full[k]| <= p`, `full[2p - 1] = 0`): the end of [`r3_mult_on`], on the
/// given backend.
pub(crate) fn fold_3_on<const P: usize>(h: &mut [i8; P], full: &[i16], be: Option<Avx2>) {
    match be {
        Some(token) => arch::fold_3::<P>(token, h, full),
        None => {
            for (k, hk) in h.iter_mut().enumerate() {
                *hk = f3_freeze(folded::<P>(full, k));
            }
        }
    }
}

/// `Round` (Core `Encrypt`, NTRU Prime spec §2.3): each coefficient to the nearest multiple of 3.
pub(crate) fn round<const P: usize>(c: &mut [i16; P]) {
    round_on(c, arch::avx2());
}

/// [`round`] on the given backend (`|c_k| <= (q - 1)/2`; the tests compare both).
pub(crate) fn round_on<const P: usize>(c: &mut [i16; P], be: Option<Avx2>) {
    match be {
        Some(token) => arch::round::<P>(token, c),
        None => {
            for x in c.iter_mut() {
                *x = x.wrapping_sub(i16::from(f3_freeze(i32::from(*x))));
            }
        }
    }
}

/// `R3_fromRq(Rq_mult3(c))` (Core `Decrypt`, NTRU Prime spec §2.3.4), in place:
/// the coefficients of `3c` in R/q, lifted and reduced mod 3.
pub(crate) fn r3_from_3rq<const P: usize, const Q: i16>(c: &mut [i16; P]) {
    r3_from_3rq_on::<P, Q>(c, arch::avx2());
}

/// [`r3_from_3rq`] on the given backend (`|c_k| <= (q - 1)/2`; the tests compare both).
pub(crate) fn r3_from_3rq_on<const P: usize, const Q: i16>(c: &mut [i16; P], be: Option<Avx2>) {
    match be {
        Some(token) => arch::r3_from_3rq::<P, Q>(token, c),
        None => {
            for x in c.iter_mut() {
                *x = i16::from(f3_freeze(i32::from(Fq::<Q>::freeze(3 * i32::from(*x)))));
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::test_util::lcg;
    use std::prelude::rust_2024::*;
    use std::vec;

    /// Schoolbook reference product with explicit reduction (test oracle).
    pub(crate) fn naive<const P: usize>(a: &[i32; P], b: &[i32; P], m: i32) -> [i32; P] {
        let mut full = vec![0i64; 2 * P - 1];
        for i in 0..P {
            for j in 0..P {
                full[i + j] += i64::from(a[i]) * i64::from(b[j]);
            }
        }
        for k in (P..2 * P - 1).rev() {
            full[k - P] += full[k];
            full[k - P + 1] += full[k];
            full[k] = 0;
        }
        let mut out = [0i32; P];
        for i in 0..P {
            let mut r = full[i].rem_euclid(i64::from(m));
            if r > i64::from(m) / 2 {
                r -= i64::from(m);
            }
            out[i] = r as i32;
        }
        out
    }

    /// Random `a` (mod q) and small `b`, `Rq_mult_small` and `R3_mult`
    /// against the naive products, for one (p, q).
    fn check<const P: usize, const Q: i16>(seed: u64) {
        let mut s = seed;
        let q = i32::from(Q);
        // Scratch of any contents (the callers share one across products).
        let mut buf = Box::new([[-21846i16; P]; 3]);
        for round in 0..3 {
            let mut a: [i16; P] =
                core::array::from_fn(|_| ((lcg(&mut s) % q as u32) as i32 - (q - 1) / 2) as i16);
            let mut b: [i8; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1);
            if round == 1 {
                // Extreme operands: every sum at its bound.
                a = [((q - 1) / 2) as i16; P];
                b = [1; P];
            }
            if round == 2 {
                a = [(-(q - 1) / 2) as i16; P];
                b = [-1; P];
            }
            let mut h = a;
            let b_in = b;
            rq_mult_small::<P, Q>(&mut h, &mut b, &mut buf);
            // b served as scratch for its Karatsuba sums and is restored.
            assert_eq!(b, b_in, "b restored, p = {P}");
            let want = naive(&a.map(i32::from), &b.map(i32::from), q);
            assert_eq!(h.map(i32::from), want, "Rq_mult_small p = {P}, q = {Q}");
            let c: [i8; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1);
            let mut h3 = b;
            r3_mult(&mut c.map(i16::from), &mut h3, &mut buf);
            let want3 = naive(&c.map(i32::from), &b.map(i32::from), 3);
            assert_eq!(h3.map(i32::from), want3, "R3_mult p = {P}");
        }
    }

    #[test]
    fn mult_matches_naive_every_set() {
        check::<653, 4621>(1);
        check::<761, 4591>(2);
        check::<857, 5167>(3);
        check::<953, 6343>(4);
        check::<1013, 7177>(5);
        check::<1277, 7879>(6);
    }

    /// The detected path; on an AVX2 CPU with `simd` it must be AVX2,
    /// so the differential tests below cannot compare portable with itself.
    pub(crate) fn detected() -> Option<Avx2> {
        use pqdr_common::simd::Avx2 as CpuAvx2;
        let be = arch::avx2();
        if cfg!(feature = "simd") && CpuAvx2::detect().is_some() {
            assert!(be.is_some());
        }
        be
    }

    /// AVX2 against portable products: 1,000 random operand pairs (and the
    /// extreme ones) for one (p, q), bit-identical outputs.
    fn differential<const P: usize, const Q: i16>(seed: u64) {
        let be = detected();
        let mut s = seed;
        let q = Q as u32;
        // Scratch of any contents (the callers share one across products).
        let mut buf = Box::new([[-21846i16; P]; 3]);
        for round in 0..1000 {
            let mut a: [i16; P] = core::array::from_fn(|_| (lcg(&mut s) % q) as i16 - (Q - 1) / 2);
            let mut b: [i8; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1);
            let mut c: [i8; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1);
            if round < 2 {
                let sign = if round == 0 { 1 } else { -1 };
                a = [sign * (Q - 1) / 2; P];
                b = [sign as i8; P];
                c = [sign as i8; P];
            }
            let mut outs = [[0i16; P]; 2];
            let mut outs3 = [[0i8; P]; 2];
            for (k, on) in [None, be].into_iter().enumerate() {
                let mut h = a;
                rq_mult_small_on::<P, Q>(&mut h, &mut b, &mut buf, on);
                outs[k] = h;
                outs3[k] = b;
                r3_mult_on::<P>(&mut c.map(i16::from), &mut outs3[k], &mut buf, on);
            }
            assert_eq!(outs[0], outs[1], "Rq product, p = {P}, round {round}");
            assert_eq!(outs3[0], outs3[1], "R3 product, p = {P}, round {round}");
            if round < 200 {
                // Karatsuba over the AVX2 schoolbook (which no product of
                // the AVX2 path takes since every set has a transform product).
                for (k, on) in [None, be].into_iter().enumerate() {
                    let mut h = a;
                    mul_full::<P, Q, true>(&mut h, &mut b, &mut buf, on);
                    fold_q_on::<P, Q>(&mut outs[k], &buf.as_flattened()[..2 * P], None);
                    mul_full::<P, 3, false>(&mut c.map(i16::from), &mut b, &mut buf, on);
                    fold_3_on::<P>(&mut outs3[k], &buf.as_flattened()[..2 * P], None);
                }
                assert_eq!(outs[0], outs[1], "Rq Karatsuba, p = {P}, round {round}");
                assert_eq!(outs3[0], outs3[1], "R3 Karatsuba, p = {P}, round {round}");
            }
        }
    }

    /// The fold and freeze alone, AVX2 against portable, on products
    /// outside what a product makes: term 0 over every i16 value (R/3:
    /// every value in `-p..=p`) beside fixed and random other terms, so
    /// the sums reach both ends of every rounding step.
    fn fold_differential<const P: usize, const Q: i16>(seed: u64) {
        let Some(be) = detected() else { return };
        let mut s = seed;
        let q = i32::from(Q);
        let consts = [
            0,
            1,
            -1,
            q / 2,
            -q / 2,
            (q + 1) / 2,
            -(q + 1) / 2,
            3 * q,
            -3 * q,
            32767,
            -32768,
        ];
        let p = P as i32;
        let mut full = vec![0i16; 2 * P];
        // The top half (terms 1 and 2 of neighbouring outputs): `c` or random.
        for _ in 0..4 {
            for &c in &consts {
                let mut x0 = -32768i32;
                while x0 <= 32767 {
                    for k in 0..P {
                        full[k] = (x0 + k as i32).min(32767) as i16;
                        full[P + k] = if lcg(&mut s) & 1 == 0 {
                            c as i16
                        } else {
                            lcg(&mut s) as i16
                        };
                    }
                    full[2 * P - 1] = 0;
                    let mut out = [[0i16; P]; 2];
                    fold_q_on::<P, Q>(&mut out[0], &full, None);
                    fold_q_on::<P, Q>(&mut out[1], &full, Some(be));
                    assert_eq!(out[0], out[1], "fold_q p = {P}, x0 = {x0}, c = {c}");
                    x0 += P as i32;
                }
            }
        }
        // R/3: |terms| <= p.
        for _ in 0..200 {
            let mut x0 = -p;
            while x0 <= p {
                for k in 0..P {
                    full[k] = (x0 + k as i32).min(p) as i16;
                    let r = (lcg(&mut s) % (2 * p as u32 + 1)) as i32 - p;
                    full[P + k] = if lcg(&mut s) & 3 == 0 {
                        p as i16
                    } else {
                        r as i16
                    };
                }
                full[2 * P - 1] = 0;
                let mut out = [[0i8; P]; 2];
                fold_3_on::<P>(&mut out[0], &full, None);
                fold_3_on::<P>(&mut out[1], &full, Some(be));
                assert_eq!(out[0], out[1], "fold_3 p = {P}, x0 = {x0}");
                x0 += P as i32;
            }
        }
    }

    /// `Round` and `R3_fromRq(Rq_mult3(.))`, AVX2 against portable, over
    /// every centred value mod q (p consecutive values per call).
    fn maps_differential<const P: usize, const Q: i16>() {
        let Some(be) = detected() else { return };
        let q12 = (i32::from(Q) - 1) / 2;
        let mut x0 = -q12;
        while x0 <= q12 {
            let c: [i16; P] = core::array::from_fn(|k| (x0 + k as i32).min(q12) as i16);
            for (name, f) in [
                ("round", round_on::<P> as fn(&mut [i16; P], Option<Avx2>)),
                ("r3_from_3rq", r3_from_3rq_on::<P, Q>),
            ] {
                let mut out = [c, c];
                f(&mut out[0], None);
                f(&mut out[1], Some(be));
                assert_eq!(out[0], out[1], "{name} p = {P}, from {x0}");
            }
            x0 += P as i32 - 7;
        }
    }

    #[test]
    fn avx2_coefficient_maps_match_portable() {
        maps_differential::<653, 4621>();
        maps_differential::<761, 4591>();
        maps_differential::<857, 5167>();
        maps_differential::<953, 6343>();
        maps_differential::<1013, 7177>();
        maps_differential::<1277, 7879>();
    }

    #[test]
    fn avx2_fold_matches_portable() {
        fold_differential::<653, 4621>(21);
        fold_differential::<761, 4591>(22);
        fold_differential::<857, 5167>(23);
        fold_differential::<953, 6343>(24);
        fold_differential::<1013, 7177>(25);
        fold_differential::<1277, 7879>(26);
    }

    #[test]
    fn avx2_products_match_portable() {
        differential::<653, 4621>(11);
        differential::<761, 4591>(12);
        differential::<857, 5167>(13);
        differential::<953, 6343>(14);
        differential::<1013, 7177>(15);
        differential::<1277, 7879>(16);
    }

    #[test]
    fn rq_mult_matches_naive() {
        const P: usize = 761;
        const Q: i16 = 4591;
        let mut s = 1u64;
        for _ in 0..3 {
            let a: [i16; P] = core::array::from_fn(|_| (lcg(&mut s) % 4591) as i16 - 2295);
            let mut b: [i8; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1);
            let mut h = a;
            let mut acc = Box::new([[0i16; P]; 3]);
            rq_mult_small::<P, Q>(&mut h, &mut b, &mut acc);
            let want = naive(&a.map(i32::from), &b.map(i32::from), 4591);
            assert_eq!(h.map(i32::from), want);
            let mut h3 = b;
            r3_mult(&mut b.map(i16::from), &mut h3, &mut acc);
            let want3 = naive(&b.map(i32::from), &b.map(i32::from), 3);
            assert_eq!(h3.map(i32::from), want3);
        }
    }
}
