//! Berlekamp–Massey (Massey, "Shift-register synthesis and BCH decoding",
//! 1969) in the inversion-free form, constant time, on bitsliced polynomials
//! (McBits revisited, Chou, CHES 2017, §4: the connection polynomial as one
//! bitsliced vector, so each update is a few vector multiplications).
//!
//! 2t iterations for the 2t syndromes (the Goppa weights 1/g(a)^2 break the
//! S_(2j) = S_j^2 identity that would allow skipping odd steps). The update
//! C <- gamma C - d x B keeps C a nonzero multiple of the textbook
//! connection polynomial; one division at the end makes it exact.
// ref: bm.c (same recurrence, with the division per step)
#![allow(
    clippy::needless_range_loop,
    reason = "planes and lanes of several bitsliced arrays are walked in step"
)]

use crate::arch::{self, Avx2};
use crate::ct::opaque;
use crate::gf;
use crate::params::{MAX_T, ParameterSet};
use crate::vec::{self, Bitsliced};
use zeroize::Zeroize;

/// Bit N of the bitsliced sequence `s`, as a field element.
#[inline(always)]
fn element<P: ParameterSet>(s: &Bitsliced<4>, n: usize) -> u16 {
    let mut x = 0u16;
    for (b, w) in s.iter().enumerate().take(P::M) {
        x |= (((w[n >> 6] >> (n & 63)) & 1) as u16) << b;
    }
    x
}

/// The 2t syndromes of `s` as field elements into `syn` (the rest left
/// zero): with an `avx2` token the AVX2 conversion (`crate::arch::bm_elements`),
/// else [`element`] per position.
fn elements<P: ParameterSet>(syn: &mut [u16; 2 * MAX_T + 1], s: &Bitsliced<4>, avx2: Option<Avx2>) {
    if let Some(token) = avx2 {
        arch::bm_elements(token, P::M, s, syn, 2 * P::T);
        return;
    }
    for (n, x) in syn.iter_mut().enumerate().take(2 * P::T) {
        *x = element::<P>(s, n);
    }
}

/// Sum of the 64 W lanes of `v`.
#[inline(always)]
fn lane_sum<P: ParameterSet, const W: usize>(v: &Bitsliced<W>) -> u16 {
    let mut x = 0u16;
    for (b, w) in v.iter().enumerate().take(P::M) {
        let mut f = w.iter().fold(0, |acc, &y| acc ^ y);
        // Parity by folding (not `count_ones() & 1`: that becomes a flag read).
        for sh in [32, 16, 8, 4, 2, 1] {
            f ^= f >> sh;
        }
        x |= ((f & 1) as u16) << b;
    }
    x
}

/// Shifts the 64 W positions up by one and puts `c` at position 0.
#[inline(always)]
fn shift_in<P: ParameterSet, const W: usize>(v: &mut Bitsliced<W>, c: u16) {
    for (b, w) in v.iter_mut().enumerate().take(P::M) {
        for i in (1..W).rev() {
            w[i] = (w[i] << 1) | (w[i - 1] >> 63);
        }
        w[0] = (w[0] << 1) | u64::from((c >> b) & 1);
    }
}

/// The state of [`bm`] with the polynomials in W words per plane.
struct State<const W: usize> {
    /// C_1..C_t at positions 0..t (C_0 in `c0`).
    cv: Bitsliced<W>,
    c0: u16,
    /// B = x B'': B''_j = B_(j+1) at position j.
    bv: Bitsliced<W>,
    /// The discrepancy of the last length change.
    gamma: u16,
    /// The register length L.
    l: u16,
    /// At position j: S_(N-1-j).
    rv: Bitsliced<W>,
}

impl<const W: usize> State<W> {
    /// Runs `f` on the state by its parts (the AVX2 iterations' form).
    fn with_parts(&mut self, f: impl FnOnce(arch::BmState<'_, W>)) {
        let mut sc = arch::Scalars {
            c0: self.c0,
            gamma: self.gamma,
            l: self.l,
        };
        f(arch::BmState {
            cv: &mut self.cv,
            bv: &mut self.bv,
            rv: &mut self.rv,
            sc: &mut sc,
        });
        (self.c0, self.gamma, self.l) = (sc.c0, sc.gamma, sc.l);
    }

    fn zeroize(&mut self) {
        for v in [&mut self.cv, &mut self.bv, &mut self.rv] {
            Zeroize::zeroize(v.as_flattened_mut());
        }
        self.c0 = 0;
        self.gamma = 0;
        self.l = 0;
    }
}

/// The length-change masks of iteration n with discrepancy d (16 and 64
/// bits): all-ones if d != 0 and n >= 2l.
#[inline(always)]
fn lengthen_masks(l: u16, n: usize, d: u16) -> (u16, u64) {
    let d_nonzero = opaque(!gf::is_zero_mask(d));
    // n >= 2l  <=>  n - 2l does not go negative
    // (the difference is hidden, else LLVM turns the sign test into a jump)
    let diff = opaque((n as u32).wrapping_sub(2 * u32::from(l)));
    let lengthen = opaque(((diff >> 31) as u16).wrapping_sub(1) & d_nonzero);
    (lengthen, opaque(u64::from(lengthen & 1).wrapping_neg()))
}

/// One Berlekamp–Massey iteration (number n, syndrome sn), inversion-free:
/// d = sum C_i S_(n-i); C <- gamma C + d B; on a length change B <- C,
/// gamma <- d; then B <- x B. `keep` masks the positions below t.
#[inline(always)]
fn iterate<P: ParameterSet, const W: usize>(st: &mut State<W>, n: usize, sn: u16, keep: &[u64; W]) {
    let mut p = vec::zero::<W>();
    let mut q = vec::zero::<W>();
    let mut k = vec::zero::<W>();
    vec::mul::<P, W>(&mut p, &st.cv, &st.rv);
    let d = gf::mul::<P>(st.c0, sn) ^ lane_sum::<P, W>(&p);
    let (lengthen, lengthen64) = lengthen_masks(st.l, n, d);
    // C <- gamma C + d B.
    let (prev, prev0) = (st.cv, st.c0);
    vec::splat::<P, W>(&mut k, st.gamma);
    vec::mul::<P, W>(&mut p, &st.cv, &k);
    vec::splat::<P, W>(&mut k, d);
    vec::mul::<P, W>(&mut q, &st.bv, &k);
    for b in 0..P::M {
        for i in 0..W {
            st.cv[b][i] = p[b][i] ^ q[b][i];
        }
    }
    st.c0 = gf::mul::<P>(st.c0, st.gamma);
    st.l = (st.l & !lengthen) | ((n as u16 + 1).wrapping_sub(st.l) & lengthen);
    // B <- x (old C if the length changes, else B).
    for b in 0..P::M {
        for i in 0..W {
            st.bv[b][i] ^= (st.bv[b][i] ^ prev[b][i]) & lengthen64;
        }
    }
    shift_in::<P, W>(&mut st.bv, prev0 & lengthen);
    for w in st.bv.iter_mut().take(P::M) {
        for i in 0..W {
            w[i] &= keep[i];
        }
    }
    st.gamma = (st.gamma & !lengthen) | (d & lengthen);
    shift_in::<P, W>(&mut st.rv, sn);
}

/// Iterations 0..`first` on one word per plane ([`iterate`]), from the
/// start state; `syn` holds the syndromes (zero from 2t on). With an
/// `avx2` token, the AVX2 form.
fn narrow<P: ParameterSet>(
    st: &mut State<1>,
    syn: &[u16; 2 * MAX_T + 1],
    first: usize,
    keep: u64,
    avx2: Option<Avx2>,
) {
    if let Some(token) = avx2 {
        st.with_parts(|parts| {
            arch::bm_narrow::<P, _>(token, parts, syn, first, keep, lengthen_masks);
        });
        return;
    }
    for (n, &sn) in syn.iter().enumerate().take(first) {
        iterate::<P, 1>(st, n, sn, &[keep]);
    }
}

/// Iterations `first`..2t on two words per plane ([`iterate`]). With an
/// `avx2` token, the AVX2 form.
fn wide_iterations<P: ParameterSet>(
    st: &mut State<2>,
    syn: &[u16; 2 * MAX_T + 1],
    first: usize,
    keep: &[u64; 2],
    avx2: Option<Avx2>,
) {
    if let Some(token) = avx2 {
        // The look-ahead form needs the first discrepancy.
        let mut p = vec::zero::<2>();
        vec::mul::<P, 2>(&mut p, &st.cv, &st.rv);
        let d = gf::mul::<P>(st.c0, syn[first]) ^ lane_sum::<P, 2>(&p);
        p.as_flattened_mut().zeroize();
        st.with_parts(|parts| {
            arch::bm_wide::<P, _>(token, parts, syn, (first, d), keep, lengthen_masks);
        });
        return;
    }
    for (n, &sn) in syn.iter().enumerate().take(2 * P::T).skip(first) {
        iterate::<P, 2>(st, n, sn, keep);
    }
}

/// Normalizes (C_0 = 1) and reverses: out gets sigma_j = C_(t-j), j < t.
fn finish<P: ParameterSet, const W: usize>(out: &mut Bitsliced<4>, st: &State<W>) {
    let t = P::T;
    let mut k = vec::zero::<W>();
    let mut p = vec::zero::<W>();
    vec::splat::<P, W>(&mut k, gf::inv::<P>(st.c0));
    vec::mul::<P, W>(&mut p, &st.cv, &k);
    *out = vec::zero::<4>();
    for b in 0..P::M {
        let mut v = 0u128;
        for i in 0..W {
            v |= u128::from(p[b][i]) << (64 * i);
        }
        let r = v.reverse_bits() >> (128 - t);
        out[b][0] = r as u64;
        out[b][1] = (r >> 64) as u64;
    }
    Zeroize::zeroize(p.as_flattened_mut());
}

/// The error locator sigma(x) = x^t C(1/x) of the 2t syndromes `s`
/// (positions 0..2t of `s`): `out` gets sigma_0 .. sigma_(t-1) at positions
/// 0..t (sigma_t = 1). Runs 2t iterations with no branch on secret data.
/// While n < 64 every polynomial fits in one word per plane (deg C <= n + 1,
/// and the window holds n syndromes), so those iterations run on one word;
/// for t > 64 the rest run on two.
pub(crate) fn bm<P: ParameterSet>(out: &mut Bitsliced<4>, s: &Bitsliced<4>) {
    // One detection per call, passed down.
    bm_with::<P>(out, s, arch::avx2());
}

/// [`bm`] on the AVX2 path with an `avx2` token (only detection makes one),
/// on the portable one with `None`.
fn bm_with<P: ParameterSet>(out: &mut Bitsliced<4>, s: &Bitsliced<4>, avx2: Option<Avx2>) {
    let t = P::T;
    let mut st = State::<1> {
        cv: vec::zero::<1>(),
        c0: 1,
        bv: vec::zero::<1>(),
        gamma: 1,
        l: 0,
        rv: vec::zero::<1>(),
    };
    st.bv[0][0] = 1;
    let keep1 = [if t >= 64 { !0 } else { (1u64 << t) - 1 }];
    let first = if t <= 64 { 2 * t } else { 64 };
    // The 2t syndromes as field elements (and a zero after them).
    let mut syn = [0u16; 2 * MAX_T + 1];
    elements::<P>(&mut syn, s, avx2);
    narrow::<P>(&mut st, &syn, first, keep1[0], avx2);
    if t <= 64 {
        finish::<P, 1>(out, &st);
        st.zeroize();
        syn.zeroize();
        return;
    }
    let widen = |v: &Bitsliced<1>| -> Bitsliced<2> { core::array::from_fn(|b| [v[b][0], 0]) };
    let mut wide = State::<2> {
        cv: widen(&st.cv),
        c0: st.c0,
        bv: widen(&st.bv),
        gamma: st.gamma,
        l: st.l,
        rv: widen(&st.rv),
    };
    st.zeroize();
    let keep2 = [!0, if t >= 128 { !0 } else { (1u64 << (t - 64)) - 1 }];
    wide_iterations::<P>(&mut wide, &syn, first, &keep2, avx2);
    syn.zeroize();
    finish::<P, 2>(out, &wide);
    wide.zeroize();
}

#[cfg(all(
    test,
    feature = "mceliece348864",
    feature = "mceliece460896",
    feature = "mceliece6960119",
    feature = "mceliece8192128"
))]
mod tests {
    extern crate std;
    use super::*;
    use crate::params::{
        Derived, Mceliece348864, Mceliece460896, Mceliece6960119, Mceliece8192128,
    };
    use std::format;

    /// Textbook Berlekamp–Massey with a division per step (the reference's
    /// recurrence), returning sigma_0..sigma_t.
    fn naive<P: ParameterSet>(s: &[u16]) -> [u16; 129] {
        let t = P::T;
        let mut c = [0u16; 129];
        let mut b = [0u16; 129];
        c[0] = 1;
        b[1] = 1;
        let (mut l, mut bb) = (0usize, 1u16);
        for n in 0..2 * t {
            let mut d = 0u16;
            for i in 0..=n.min(t) {
                d ^= gf::mul::<P>(c[i], s[n - i]);
            }
            let prev = c;
            let f = gf::frac::<P>(bb, d);
            for i in 0..=t {
                c[i] ^= gf::mul::<P>(f, b[i]);
            }
            if d != 0 && n >= 2 * l {
                l = n + 1 - l;
                b = prev;
                bb = d;
            }
            for i in (1..=t).rev() {
                b[i] = b[i - 1];
            }
            b[0] = 0;
        }
        let mut out = [0u16; 129];
        for i in 0..=t {
            out[i] = c[t - i];
        }
        out
    }

    fn check<P: ParameterSet>(seed: u64, sparse: bool) {
        let t = P::T;
        let mut x = seed;
        let mut s = [0u16; 256];
        let mut sv = vec::zero::<4>();
        for (j, v) in s.iter_mut().enumerate().take(2 * t) {
            crate::test_util::xorshift(&mut x);
            *v = (x >> 17) as u16 & P::GF_MASK;
            if sparse && (x >> 3) & 3 != 0 {
                *v = 0;
            }
            for b in 0..P::M {
                sv[b][j >> 6] |= u64::from((*v >> b) & 1) << (j & 63);
            }
        }
        let want = naive::<P>(&s[..2 * t]);
        let mut out = vec::zero::<4>();
        bm::<P>(&mut out, &sv);
        assert_eq!(want[t], 1);
        for (j, &w) in want.iter().enumerate().take(t) {
            assert_eq!(element::<P>(&out, j), w, "j {j}");
        }
    }

    /// The 2t syndromes `s` as a bitsliced sequence.
    fn bitsliced<P: ParameterSet>(s: &[u16]) -> Bitsliced<4> {
        let mut sv = vec::zero::<4>();
        for (j, &v) in s.iter().enumerate().take(2 * P::T) {
            for b in 0..P::M {
                sv[b][j >> 6] |= u64::from((v >> b) & 1) << (j & 63);
            }
        }
        sv
    }

    /// The syndromes of exactly t errors (weights w_i = seed-derived nonzero
    /// elements, locators a_i = the t distinct elements from `first` on, all
    /// nonzero): S_j = sum_i w_i a_i^j (the Goppa syndrome with the weights
    /// 1/g(a_i)^2), so sigma(x) = prod (x - a_i).
    fn t_error_syndromes<P: ParameterSet>(first: u16, seed: u16) -> ([u16; 256], [u16; 128]) {
        let (mut s, mut locators) = ([0u16; 256], [0u16; 128]);
        for i in 0..P::T {
            let a = first + i as u16;
            let w = 1 + (seed.wrapping_mul(31).wrapping_add(7 * i as u16) % P::GF_MASK);
            locators[i] = a;
            let mut power = w;
            for sj in s.iter_mut().take(2 * P::T) {
                *sj ^= power;
                power = gf::mul::<P>(power, a);
            }
        }
        (s, locators)
    }

    /// The AVX2 iterations (look-ahead form) against the portable ones on the
    /// syndromes `s`, returning the AVX2 result.
    fn check_avx2_on<P: ParameterSet>(token: Avx2, s: &[u16], what: &str) -> Bitsliced<4> {
        let sv = bitsliced::<P>(s);
        let (mut want, mut got) = (vec::zero::<4>(), vec::zero::<4>());
        bm_with::<P>(&mut want, &sv, None);
        bm_with::<P>(&mut got, &sv, Some(token));
        assert_eq!(got, want, "{} {what}", P::NAME);
        got
    }

    /// [`check_avx2_on`] on random syndromes and the edges: all zero, all
    /// ones, a single nonzero syndrome (all ones or 1) at the first or the
    /// last position, and the syndromes of exactly t errors (whose locator
    /// the AVX2 result must vanish at, checked on the field elements).
    fn check_avx2<P: ParameterSet>(token: Avx2, seed: u64) {
        let t = P::T;
        let mut x = seed;
        let mut s = [0u16; 256];
        for v in s.iter_mut().take(2 * t) {
            crate::test_util::xorshift(&mut x);
            *v = (x >> 17) as u16 & P::GF_MASK;
        }
        check_avx2_on::<P>(token, &s, &format!("seed {seed}"));
        if seed > 1 {
            return;
        }
        check_avx2_on::<P>(token, &[0; 256], "all zero");
        check_avx2_on::<P>(token, &[P::GF_MASK; 256], "all ones");
        for pos in [0, 2 * t - 1] {
            for v in [1, P::GF_MASK] {
                let mut s = [0u16; 256];
                s[pos] = v;
                check_avx2_on::<P>(token, &s, &format!("single {v} at {pos}"));
            }
        }
        for (first, wseed) in [(1, 3), (P::GF_MASK - t as u16 + 1, 11), (1000, 5)] {
            let (s, locators) = t_error_syndromes::<P>(first, wseed);
            let got = check_avx2_on::<P>(token, &s, &format!("{t} errors from {first}"));
            for &a in locators.iter().take(t) {
                // sigma(a) = a^t + sum_(j < t) sigma_j a^j.
                let (mut sum, mut power) = (0u16, 1u16);
                for j in 0..t {
                    sum ^= gf::mul::<P>(element::<P>(&got, j), power);
                    power = gf::mul::<P>(power, a);
                }
                assert_eq!(sum ^ power, 0, "{} locator {a} from {first}", P::NAME);
            }
        }
    }

    #[test]
    fn avx2_matches_portable() {
        // Only a detected token reaches the AVX2 path (none without AVX2).
        let Some(token) = arch::avx2() else {
            return;
        };
        for seed in 1..40 {
            check_avx2::<Mceliece348864>(token, seed);
            check_avx2::<Mceliece460896>(token, seed);
            check_avx2::<Mceliece6960119>(token, seed);
            check_avx2::<Mceliece8192128>(token, seed);
        }
    }

    /// The AVX2 conversion of the syndromes against [`element`]: random
    /// planes (positions from 2t on too, which must not be read) and all
    /// ones.
    fn check_elements<P: ParameterSet>(token: Avx2, seed: u64) {
        let mut x = seed;
        for round in 0..20 {
            let mut sv = vec::zero::<4>();
            for plane in sv.iter_mut() {
                for w in plane.iter_mut() {
                    crate::test_util::xorshift(&mut x);
                    *w = if round == 0 { !0 } else { x };
                }
            }
            let (mut want, mut got) = ([0u16; 2 * MAX_T + 1], [0u16; 2 * MAX_T + 1]);
            elements::<P>(&mut want, &sv, None);
            elements::<P>(&mut got, &sv, Some(token));
            assert_eq!(got, want, "seed {seed} round {round}");
        }
    }

    #[test]
    fn avx2_elements_match_portable() {
        let Some(token) = arch::avx2() else {
            return;
        };
        check_elements::<Mceliece348864>(token, 7);
        check_elements::<Mceliece6960119>(token, 8);
        check_elements::<Mceliece8192128>(token, 9);
    }

    #[test]
    fn matches_naive() {
        for seed in 1..4 {
            check::<Mceliece348864>(seed, false);
            check::<Mceliece348864>(seed, true);
            check::<Mceliece6960119>(seed, false);
            check::<Mceliece6960119>(seed, true);
            check::<Mceliece8192128>(seed, seed == 2);
        }
    }
}
