//! Niederreiter encryption (spec §2.4.5 "FixedWeight" and "Encode": C0 = H e).
// ref: encrypt.c

use crate::params::{Derived, Params};
use rand_core::CryptoRng;
use zeroize::Zeroize;

/// FixedWeight: a uniformly random e of weight t, drawing exactly the bytes
/// the reference draws: one call of 4t bytes per attempt (2t candidate
/// indices; the first t below n are used), or 2t bytes (t indices) when
/// n = 2^m; repeated until the t indices are distinct.
// ref: encrypt.c (`gen_e`)
pub(crate) fn gen_e<P: Params, R: CryptoRng + ?Sized>(e: &mut [u8], rng: &mut R) {
    let (t, n) = (P::T, P::N);
    let mut ind = [0u16; 128];
    let mut bytes = [0u8; 4 * 128];
    loop {
        if n == P::Q {
            let b = &mut bytes[..2 * t];
            rng.fill_bytes(b);
            for (i, x) in ind.iter_mut().enumerate().take(t) {
                *x = u16::from_le_bytes([b[2 * i], b[2 * i + 1]]) & P::GF_MASK;
            }
        } else {
            let b = &mut bytes[..4 * t];
            rng.fill_bytes(b);
            let mut count = 0;
            for i in 0..2 * t {
                if count >= t {
                    break;
                }
                let x = u16::from_le_bytes([b[2 * i], b[2 * i + 1]]) & P::GF_MASK;
                let mut ok = crate::ct::lt_mask_u16(x, n as u16);
                // Public by design (libmceliece `gen_e`): which candidates are
                // out of range says nothing about the accepted ones.
                pqdr_ct::hook::declassify(&mut ok);
                if ok != 0 {
                    ind[count] = x;
                    count += 1;
                }
            }
            if count < t {
                continue;
            }
        }
        let mut eq = 0u16;
        for i in 1..t {
            for j in 0..i {
                eq |= crate::ct::eq_mask_u16(ind[i], ind[j]);
            }
        }
        // Public by design (libmceliece `gen_e`): only whether this attempt
        // repeats an index leaks; the attempt is discarded.
        pqdr_ct::hook::declassify(&mut eq);
        if eq == 0 {
            break;
        }
    }
    // e as 64-bit words: each index sets one bit of the word it selects.
    let mut words = [0u64; 128];
    for &x in &ind[..t] {
        let bit = 1u64 << (x & 63);
        let w = x >> 6;
        for (k, word) in words.iter_mut().enumerate().take(n.div_ceil(64)) {
            let m = u64::from(crate::ct::eq_mask_u16(k as u16, w) & 1).wrapping_neg();
            *word |= bit & crate::ct::opaque(m);
        }
    }
    for (i, byte) in e.iter_mut().enumerate().take(n >> 3) {
        *byte = (words[i >> 3] >> ((i & 7) << 3)) as u8;
    }
    words.zeroize();
    ind.zeroize();
}

/// The bits of e from position mt on, packed from bit 0 (the part T multiplies).
pub(crate) fn e_tail<P: Params>(out: &mut [u8], e: &[u8]) {
    let (mt, rb) = (P::MT, P::ROW_BYTES);
    let (b, sh) = (mt >> 3, mt & 7);
    for (j, o) in out.iter_mut().enumerate().take(rb) {
        let lo = e.get(b + j).copied().unwrap_or(0);
        let hi = e.get(b + j + 1).copied().unwrap_or(0);
        *o = if sh == 0 {
            lo
        } else {
            (lo >> sh) | (hi << (8 - sh))
        };
    }
}

/// Syndrome bits of `rows` public-key rows starting at row `first`:
/// C0_i = e_i + <T_i, e_tail>; ORs them into `c0`.
pub(crate) fn syndrome_rows<P: Params>(
    c0: &mut [u8],
    rows: &[u8],
    first: usize,
    e: &[u8],
    tail: &[u8],
) {
    let rb = P::ROW_BYTES;
    for (k, row) in rows.chunks_exact(rb).enumerate() {
        let i = first + k;
        let mut acc = 0u64;
        let mut it_r = row.chunks_exact(8);
        let mut it_t = tail[..rb].chunks_exact(8);
        for (a, b) in (&mut it_r).zip(&mut it_t) {
            let mut x = [0u8; 8];
            let mut y = [0u8; 8];
            x.copy_from_slice(a);
            y.copy_from_slice(b);
            acc ^= u64::from_le_bytes(x) & u64::from_le_bytes(y);
        }
        for (a, b) in it_r.remainder().iter().zip(it_t.remainder()) {
            acc ^= u64::from(a & b);
        }
        let bit = (acc.count_ones() as u8 & 1) ^ crate::ct::bit(e, i);
        c0[i >> 3] |= bit << (i & 7);
    }
}
