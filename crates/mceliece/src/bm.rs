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

use crate::ct::opaque;
use crate::gf;
use crate::params::Params;
use crate::vec::{self, Vec};

/// Bit N of the bitsliced sequence `s`, as a field element.
#[inline(always)]
fn element<P: Params>(s: &Vec<4>, n: usize) -> u16 {
    let mut x = 0u16;
    for (b, w) in s.iter().enumerate().take(P::M) {
        x |= (((w[n >> 6] >> (n & 63)) & 1) as u16) << b;
    }
    x
}

/// Sum of the 64 W lanes of `v`.
#[inline(always)]
fn lane_sum<P: Params, const W: usize>(v: &Vec<W>) -> u16 {
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
fn shift_in<P: Params, const W: usize>(v: &mut Vec<W>, c: u16) {
    for (b, w) in v.iter_mut().enumerate().take(P::M) {
        for i in (1..W).rev() {
            w[i] = (w[i] << 1) | (w[i - 1] >> 63);
        }
        w[0] = (w[0] << 1) | u64::from((c >> b) & 1);
    }
}

/// The error locator sigma(x) = x^t C(1/x) of the 2t syndromes `s`
/// (positions 0..2t of `s`): `out` gets sigma_0 .. sigma_(t-1) at positions
/// 0..t (sigma_t = 1). Runs 2t iterations with no branch on secret data.
pub(crate) fn bm<P: Params>(out: &mut Vec<4>, s: &Vec<4>) {
    if P::T <= 64 {
        bm_words::<P, 1>(out, s);
    } else {
        bm_words::<P, 2>(out, s);
    }
}

/// [`bm`] with the polynomials in W words per plane (t <= 64 W).
fn bm_words<P: Params, const W: usize>(out: &mut Vec<4>, s: &Vec<4>) {
    let t = P::T;
    let keep: [u64; W] = core::array::from_fn(|i| {
        let lo = 64 * i;
        if t >= lo + 64 {
            !0
        } else if t > lo {
            (1u64 << (t - lo)) - 1
        } else {
            0
        }
    });
    // C = c0 + x (cv at positions 0..t = C_1..C_t); B = x (bv: B_1..B_t).
    let mut cv = vec::zero::<W>();
    let mut c0 = 1u16;
    let mut bv = vec::zero::<W>();
    bv[0][0] = 1;
    let mut gamma = 1u16;
    let mut l = 0u16;
    // rv at position j: S_(N-1-j).
    let mut rv = vec::zero::<W>();
    let mut p = vec::zero::<W>();
    let mut q = vec::zero::<W>();
    let mut k = vec::zero::<W>();
    for n in 0..2 * t {
        let sn = element::<P>(s, n);
        vec::mul::<P, W>(&mut p, &cv, &rv);
        let d = gf::mul::<P>(c0, sn) ^ lane_sum::<P, W>(&p);
        let mne = opaque(!gf::is_zero_mask(d));
        // n >= 2l  <=>  n - 2l does not go negative
        // (the difference is hidden, else LLVM turns the sign test into a jump)
        let diff = opaque((n as u32).wrapping_sub(2 * u32::from(l)));
        let mle = opaque(((diff >> 31) as u16).wrapping_sub(1) & mne);
        let wide = opaque(u64::from(mle & 1).wrapping_neg());
        // C <- gamma C + d B.
        let (prev, prev0) = (cv, c0);
        vec::splat::<P, W>(&mut k, gamma);
        vec::mul::<P, W>(&mut p, &cv, &k);
        vec::splat::<P, W>(&mut k, d);
        vec::mul::<P, W>(&mut q, &bv, &k);
        for b in 0..P::M {
            for i in 0..W {
                cv[b][i] = p[b][i] ^ q[b][i];
            }
        }
        c0 = gf::mul::<P>(c0, gamma);
        l = (l & !mle) | ((n as u16 + 1).wrapping_sub(l) & mle);
        // B <- x (mle ? old C : B).
        for b in 0..P::M {
            for i in 0..W {
                bv[b][i] ^= (bv[b][i] ^ prev[b][i]) & wide;
            }
        }
        shift_in::<P, W>(&mut bv, prev0 & mle);
        for w in bv.iter_mut().take(P::M) {
            for i in 0..W {
                w[i] &= keep[i];
            }
        }
        gamma = (gamma & !mle) | (d & mle);
        shift_in::<P, W>(&mut rv, sn);
    }
    // Normalize (C_0 = 1) and reverse: sigma_j = C_(t-j).
    vec::splat::<P, W>(&mut k, gf::inv::<P>(c0));
    vec::mul::<P, W>(&mut p, &cv, &k);
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
    for w in [&mut cv, &mut bv, &mut rv, &mut p, &mut q, &mut k] {
        zeroize::Zeroize::zeroize(w.as_flattened_mut());
    }
}

#[cfg(all(test, feature = "mceliece348864", feature = "mceliece6960119"))]
mod tests {
    use super::*;
    use crate::params::{Derived, Mceliece348864, Mceliece6960119, Mceliece8192128};

    /// Textbook Berlekamp–Massey with a division per step (the reference's
    /// recurrence), returning sigma_0..sigma_t.
    fn naive<P: Params>(s: &[u16]) -> [u16; 129] {
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

    fn check<P: Params>(seed: u64, sparse: bool) {
        let t = P::T;
        let mut x = seed;
        let mut s = [0u16; 256];
        let mut sv = vec::zero::<4>();
        for (j, v) in s.iter_mut().enumerate().take(2 * t) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
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
