//! Niederreiter decryption (spec §2.3.3 "Decoding" / §8.3 Decap step 3):
//! recover the weight-t vector e with H e = C0 or report failure.
//!
//! Reference-style: support from the Beneš network, the syndrome of the Goppa
//! code (2t power sums), Berlekamp–Massey for the error locator, evaluation at
//! every support element, and a re-encoding check (weight t and same syndrome).
// ref: decrypt.c, synd.c, bm.c, root.c, benes.c (support_gen)

use crate::benes;
use crate::ct::bit;
use crate::gf;
use crate::params::{Buf, Derived, Params};

const MAX_T: usize = 128;

/// L = (alpha_0, ..., alpha_(n-1)): applies the network to bitrev(0..2^m).
// ref: benes.c (`support_gen`)
pub(crate) fn support_gen<P: Params>(support: &mut [u16], cond: &[u8]) {
    let mut v = P::Q16::zeroed();
    let v = v.as_mut();
    for (i, x) in v.iter_mut().enumerate() {
        *x = gf::bitrev::<P>(i as u16);
    }
    benes::apply(v, cond, P::M);
    support[..P::N].copy_from_slice(&v[..P::N]);
}

/// out[j] = sum_i r_i alpha_i^j / g(alpha_i)^2, j < 2t, over the first `len` positions.
// ref: synd.c
fn synd<P: Params>(out: &mut [u16], g: &[u16], support: &[u16], r: &[u8], len: usize) {
    let t2 = 2 * P::T;
    out[..t2].fill(0);
    for (i, &a) in support.iter().enumerate().take(len) {
        let c = u16::from(bit(r, i)).wrapping_neg();
        let e = gf::eval::<P>(g, a);
        let mut e_inv = gf::inv::<P>(gf::sq::<P>(e)) & c;
        for o in out[..t2].iter_mut() {
            *o ^= e_inv;
            e_inv = gf::mul::<P>(e_inv, a);
        }
    }
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
        let mne = !gf::is_zero_mask(d);
        // n >= 2l  <=>  n - 2l does not go negative
        let mle = (((n as u32).wrapping_sub(2 * u32::from(l)) >> 31) as u16).wrapping_sub(1) & mne;
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
/// bits into `e` (n/8 bytes). Returns 0xFF.. if decoding succeeded (weight t,
/// same syndrome), else 0.
pub(crate) fn decrypt<P: Params>(e: &mut [u8], sk_gc: &[u8], c0: &[u8]) -> u8 {
    let (t, n, mt) = (P::T, P::N, P::MT);
    let mut g = [0u16; MAX_T + 1];
    for (i, gi) in g.iter_mut().enumerate().take(t) {
        *gi = u16::from_le_bytes([sk_gc[2 * i], sk_gc[2 * i + 1]]) & P::GF_MASK;
    }
    g[t] = 1;
    let mut support = P::N16::zeroed();
    let support = support.as_mut();
    support_gen::<P>(support, &sk_gc[P::IRR_BYTES..P::IRR_BYTES + P::COND_BYTES]);

    // r = (C0, 0, ..., 0); the padding bits of C0 (6960119) are ignored.
    let mut r = [0u8; 208];
    r[..P::SYND_BYTES].copy_from_slice(&c0[..P::SYND_BYTES]);
    if mt % 8 != 0 {
        r[P::SYND_BYTES - 1] &= (1u8 << (mt % 8)) - 1;
    }
    let mut s = [0u16; 2 * MAX_T];
    synd::<P>(&mut s, &g[..=t], support, &r, mt);
    let mut locator = [0u16; MAX_T + 1];
    bm::<P>(&mut locator, &s[..2 * t]);

    e[..n / 8].fill(0);
    let mut w = 0u16;
    for (i, &a) in support.iter().enumerate() {
        let z = gf::is_zero_mask(gf::eval::<P>(&locator[..=t], a)) & 1;
        e[i >> 3] |= (z as u8) << (i & 7);
        w += z;
    }
    let mut s_cmp = [0u16; 2 * MAX_T];
    synd::<P>(&mut s_cmp, &g[..=t], support, e, n);

    let mut check = w ^ t as u16;
    for (a, b) in s[..2 * t].iter().zip(&s_cmp[..2 * t]) {
        check |= a ^ b;
    }
    // check == 0 -> 0xFF
    (gf::is_zero_mask(check) & 0xFF) as u8
}
