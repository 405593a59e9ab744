//! Niederreiter decryption (spec §2.3.3 "Decoding" / §8.3 Decap step 3):
//! recover the weight-t vector e with H e = C0 or report failure.
//!
//! Reference-style: support from the Beneš network, the syndrome of the Goppa
//! code (2t power sums), Berlekamp–Massey for the error locator, evaluation at
//! every support element, and a re-encoding check (weight t and same syndrome).
// ref: decrypt.c, synd.c, bm.c, root.c, benes.c (support_gen)

use crate::benes;
use crate::ct::opaque;
use crate::gf;
use crate::params::{Buf, Derived, Params};
use crate::vec::{self, MAX_M, Vec};
use zeroize::Zeroize;

const MAX_CHUNKS: usize = 128;
/// Steps of two 64-lane batches.
const MAX_STEPS: usize = MAX_CHUNKS >> 1;

const MAX_T: usize = 128;

/// L = (alpha_0, ..., alpha_(2^m - 1)): the network applied to bitrev(0..2^m);
/// the support is the first n entries.
// ref: benes.c (`support_gen`)
fn support_gen_full<P: Params>(v: &mut [u16], cond: &[u8]) {
    for (i, x) in v.iter_mut().enumerate() {
        *x = gf::bitrev::<P>(i as u16);
    }
    benes::apply(v, cond, P::M);
}

/// Lanes per step: two batches of 64 support elements side by side.
const L: usize = 2;

/// Lane-parallel syndrome (bitsliced, 128 support elements per step):
/// out[j] = sum_i r_i alpha_i^j / g(alpha_i)^2 for j < 2t, over `steps`
/// steps of 128 positions, `r` given as one word per 64 positions.
// ref: synd.c (same sums; evaluated 64 lanes at a time as in vec/)
fn synd<P: Params>(out: &mut [u16], alpha: &[Vec<L>], u: &[Vec<L>], r: &[[u64; L]], steps: usize) {
    let (m, t2) = (P::M, 2 * P::T);
    // Both batches fold into one word per (j, bit): only the parity counts.
    let mut acc = [[0u64; MAX_M]; 2 * MAX_T];
    let mut v = vec::zero::<L>();
    let mut tmp = vec::zero::<L>();
    for st in 0..steps {
        for b in 0..m {
            for l in 0..L {
                v[b][l] = u[st][b][l] & r[st][l];
            }
        }
        for (j, a) in acc.iter_mut().enumerate().take(t2) {
            for b in 0..m {
                a[b] ^= v[b][0] ^ v[b][1];
            }
            if j + 1 < t2 {
                vec::mul::<P, L>(&mut tmp, &v, &alpha[st]);
                v = tmp;
            }
        }
    }
    for (o, a) in out.iter_mut().zip(acc.iter()).take(t2) {
        let mut x = 0u16;
        for (b, w) in a.iter().enumerate().take(m) {
            x |= (parity(*w) as u16) << b;
        }
        *o = x;
    }
}

/// XOR of the 64 bits of w.
#[inline(always)]
fn parity(mut w: u64) -> u64 {
    w ^= w >> 32;
    w ^= w >> 16;
    w ^= w >> 8;
    w ^= w >> 4;
    w ^= w >> 2;
    w ^= w >> 1;
    w & 1
}

/// Evaluates f (`deg + 1` coefficients) at every lane of `a` (Horner).
fn eval_vec<P: Params>(out: &mut Vec<L>, f: &[u16], a: &Vec<L>) {
    let m = P::M;
    let mut acc = vec::zero::<L>();
    let mut tmp = vec::zero::<L>();
    let mut c = vec::zero::<L>();
    for (k, &fi) in f.iter().rev().enumerate() {
        if k > 0 {
            vec::mul::<P, L>(&mut tmp, &acc, a);
            acc = tmp;
        }
        vec::splat::<P, L>(&mut c, fi);
        for b in 0..m {
            for l in 0..L {
                acc[b][l] ^= c[b][l];
            }
        }
    }
    *out = acc;
}

/// Berlekamp–Massey: the error locator (reversed connection polynomial) of the
/// 2t syndromes `s`, t + 1 coefficients, in constant time.
// ref: bm.c
fn bm<P: Params>(out: &mut [u16], s: &[u16]) {
    let t = P::T;
    let mut c = [0u16; MAX_T + 1];
    let mut b = [0u16; MAX_T + 1];
    c[0] = 1;
    b[1] = 1;
    let mut l = 0u16;
    let mut bb = 1u16;
    for n in 0..2 * t {
        let mut d = 0u16;
        for i in 0..=n.min(t) {
            d ^= gf::mul::<P>(c[i], s[n - i]);
        }
        let mne = opaque(!gf::is_zero_mask(d));
        // n >= 2l  <=>  n - 2l does not go negative
        let mle = opaque(
            (((n as u32).wrapping_sub(2 * u32::from(l)) >> 31) as u16).wrapping_sub(1) & mne,
        );
        let prev = c;
        let f = gf::frac::<P>(bb, d);
        for i in 0..=t {
            c[i] ^= gf::mul::<P>(f, b[i]) & mne;
        }
        l = (l & !mle) | ((n as u16 + 1).wrapping_sub(l) & mle);
        for i in 0..=t {
            b[i] = (b[i] & !mle) | (prev[i] & mle);
        }
        bb = (bb & !mle) | (d & mle);
        for i in (1..=t).rev() {
            b[i] = b[i - 1];
        }
        b[0] = 0;
    }
    for i in 0..=t {
        out[i] = c[t - i];
    }
}

/// Decodes `c0` (SYND_BYTES) with the secret key part `sk_gc` = g || control
/// bits into `e` (n/8 bytes). Returns 0xFF if decoding succeeded (weight t,
/// same syndrome), else 0.
pub(crate) fn decrypt<P: Params>(e: &mut [u8], sk_gc: &[u8], c0: &[u8]) -> u8 {
    let (m, t, n, mt) = (P::M, P::T, P::N, P::MT);
    let chunks = n.div_ceil(64);
    let mut g = [0u16; MAX_T + 1];
    for (i, gi) in g.iter_mut().enumerate().take(t) {
        *gi = u16::from_le_bytes([sk_gc[2 * i], sk_gc[2 * i + 1]]) & P::GF_MASK;
    }
    g[t] = 1;

    // Support, bitsliced 2 x 64 at a time, and u_i = 1/g(alpha_i)^2.
    let steps = chunks.div_ceil(L);
    let mut alpha = [vec::zero::<L>(); MAX_STEPS];
    let mut u = [vec::zero::<L>(); MAX_STEPS];
    {
        let mut support = P::Q16::zeroed();
        let support = support.as_mut();
        support_gen_full::<P>(support, &sk_gc[P::IRR_BYTES..P::IRR_BYTES + P::COND_BYTES]);
        let mut el = [0u16; 64];
        let mut gv = vec::zero::<L>();
        let mut sq = vec::zero::<L>();
        for ch in 0..steps * L {
            for (l, x) in el.iter_mut().enumerate() {
                let i = 64 * ch + l;
                *x = if i < n { support[i] } else { 0 };
            }
            vec::from_elements::<P, L>(&mut alpha[ch >> 1], ch & 1, &el);
        }
        for st in 0..steps {
            eval_vec::<P>(&mut gv, &g[..=t], &alpha[st]);
            vec::sq::<P, L>(&mut sq, &gv);
            vec::inv::<P, L>(&mut u[st], &sq);
        }
        support.zeroize();
    }

    // r = (C0, 0, ..., 0) as one word per 64 positions; padding bits ignored.
    let mut r = [[0u64; L]; MAX_STEPS];
    for (i, &byte) in c0.iter().enumerate().take(P::SYND_BYTES) {
        let keep = if 8 * i + 8 <= mt {
            0xFF
        } else {
            (1u8 << (mt & 7)) - 1
        };
        r[i >> 4][(i >> 3) & 1] |= u64::from(byte & keep) << (8 * (i & 7));
    }
    let mut s = [0u16; 2 * MAX_T];
    synd::<P>(&mut s, &alpha, &u, &r, mt.div_ceil(64 * L));
    let mut locator = [0u16; MAX_T + 1];
    bm::<P>(&mut locator, &s[..2 * t]);

    // Roots of the locator among the support: the error positions.
    let mut ew = [[0u64; L]; MAX_STEPS];
    let mut w = 0u32;
    let mut val = vec::zero::<L>();
    for st in 0..steps {
        eval_vec::<P>(&mut val, &locator[..=t], &alpha[st]);
        for l in 0..L {
            let ch = st * L + l;
            let mut nz = 0u64;
            for x in &val[..m] {
                nz |= x[l];
            }
            let valid = if 64 * ch + 64 <= n {
                !0u64
            } else if 64 * ch < n {
                (1u64 << (n - 64 * ch)) - 1
            } else {
                0
            };
            let z = !nz & valid;
            ew[st][l] = z;
            w += z.count_ones();
        }
    }
    for (i, byte) in e.iter_mut().enumerate().take(n >> 3) {
        *byte = (ew[i >> 4][(i >> 3) & 1] >> (8 * (i & 7))) as u8;
    }
    let mut s_cmp = [0u16; 2 * MAX_T];
    synd::<P>(&mut s_cmp, &alpha, &u, &ew, steps);

    let mut check = (w as u16) ^ t as u16;
    for (a, b) in s[..2 * t].iter().zip(&s_cmp[..2 * t]) {
        check |= a ^ b;
    }
    alpha.zeroize();
    u.zeroize();
    ew.zeroize();
    (gf::is_zero_mask(check) & 0xFF) as u8
}
