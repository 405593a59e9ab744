//! Niederreiter encryption (Classic McEliece spec §2.4.5: `FixedWeight`, and
//! `Encode`: C0 = H e).
// ref: encrypt.c

use crate::params::{Derived, MAX_N_BYTES, MAX_T, ParameterSet};
use rand_core::CryptoRng;
use zeroize::Zeroize;

/// `FixedWeight` (Classic McEliece spec §2.4.5).
///
/// A uniformly random e of weight t, drawing exactly the bytes
/// the reference draws: one call of 4t bytes per attempt (2t candidate
/// indices; the first t below n are used), or 2t bytes (t indices) when
/// n = 2^m; repeated until the t indices are distinct.
// ref: encrypt.c (`gen_e`)
pub(crate) fn gen_e<P: ParameterSet, R: CryptoRng + ?Sized>(e: &mut [u8], rng: &mut R) {
    let (t, n) = (P::T, P::N);
    let mut ind = [0u16; MAX_T];
    let mut bytes = [0u8; 4 * MAX_T];
    let nw = n.div_ceil(16);
    let mut words = [0u16; MAX_N_BYTES >> 1];
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
                pqdr_ctgrind::hook::declassify(&mut ok);
                if ok != 0 {
                    ind[count] = x;
                    count += 1;
                }
            }
            if count < t {
                continue;
            }
        }
        // Indices are below 2^13, so d = a ^ b < 2^15 and d - 1 has its top
        // bit set exactly when a = b (and only then): the lanes are ORed and
        // the top bit read once at the end. 16-bit lane arithmetic that LLVM
        // vectorizes (eight pairs per SSE2 operation).
        let mut acc = [0u16; MAX_T];
        for i in 1..t {
            let x = ind[i];
            for (a, &y) in acc[..i].iter_mut().zip(&ind[..i]) {
                *a |= (x ^ y).wrapping_sub(1);
            }
        }
        let mut repeated = acc[..t].iter().fold(0, |e, &a| e | a) >> 15;
        // acc holds the pairwise differences of the secret indices: wiped
        // before the attempt is accepted or retried.
        acc.zeroize();
        // Public by design (libmceliece `gen_e`): only whether this attempt
        // repeats an index leaks; the attempt is discarded.
        pqdr_ctgrind::hook::declassify(&mut repeated);
        if repeated == 0 {
            break;
        }
    }
    // e as 16-bit words: index x sets bit x mod 16 of word x / 16. The word
    // numbers are below 2^9, so d = k ^ w < 2^15 and the 16-bit lane d - 1
    // is negative exactly when d = 0: an arithmetic shift turns it into the
    // select mask (no comparison; eight lanes per SSE2 operation, a quarter
    // of the work of 64-bit words, which SSE2 cannot compare).
    for &x in &ind[..t] {
        let bit = 1u16 << (x & 15);
        let w = x >> 4;
        for (k, word) in words[..nw].iter_mut().enumerate() {
            let m = (((k as u16) ^ w).wrapping_sub(1).cast_signed() >> 15).cast_unsigned();
            *word |= bit & m;
        }
    }
    for (pair, word) in e[..n >> 3].chunks_mut(2).zip(&words) {
        pair.copy_from_slice(&word.to_le_bytes()[..pair.len()]);
    }
    words[..nw].zeroize();
    ind[..t].zeroize();
    bytes.zeroize();
}

/// The bits of e from position mt on, packed from bit 0: the part T
/// multiplies in `Encode` (Classic McEliece spec §2.4.5).
pub(crate) fn e_tail<P: ParameterSet>(out: &mut [u8], e: &[u8]) {
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

/// `Encode` (Classic McEliece spec §2.4.5), row by row.
///
/// Syndrome bits of `rows` public-key rows starting at row `first`:
/// C0_i = e_i + <T_i, e_tail>; ORs them into `c0`.
pub(crate) fn syndrome_rows<P: ParameterSet>(
    c0: &mut [u8],
    rows: &[u8],
    first: usize,
    e: &[u8],
    tail: &[u8],
) {
    let rb = P::ROW_BYTES;
    let (tw, trem) = tail[..rb].as_chunks::<8>();
    // The word count through `opaque`: with a constant trip count LLVM
    // unrolls the loops completely into scalar code; with a runtime one it
    // vectorizes the XOR reductions (16-byte lanes).
    let nw = crate::ct::opaque(tw.len());
    let tw = &tw[..nw];
    // Eight rows per pass share each load of e_tail and the loop overhead.
    let groups = rows.chunks_exact(8 * rb);
    let rest = groups.remainder();
    let mut i = first;
    for group in groups {
        let r: [(&[[u8; 8]], &[u8]); 8] =
            core::array::from_fn(|q| group[q * rb..(q + 1) * rb].as_chunks::<8>());
        let w: [&[[u8; 8]]; 8] = core::array::from_fn(|q| &r[q].0[..nw]);
        let mut x = [0u64; 8];
        for (j, t) in tw.iter().enumerate() {
            let t = u64::from_le_bytes(*t);
            for q in 0..8 {
                x[q] ^= u64::from_le_bytes(w[q][j]) & t;
            }
        }
        for (xr, (_, rrem)) in x.iter_mut().zip(r) {
            *xr ^= tail_dot(rrem, trem);
        }
        for xr in x {
            put_syndrome_bit(c0, e, i, xr);
            i += 1;
        }
    }
    for row in rest.chunks_exact(rb) {
        let (rw, rrem) = row.as_chunks::<8>();
        let mut x = tail_dot(rrem, trem);
        for (a, b) in rw[..nw].iter().zip(tw) {
            x ^= u64::from_le_bytes(*a) & u64::from_le_bytes(*b);
        }
        put_syndrome_bit(c0, e, i, x);
        i += 1;
    }
}

/// The AND of the trailing (< 8) bytes of a row and of e_tail, as a word.
#[inline(always)]
fn tail_dot(r: &[u8], t: &[u8]) -> u64 {
    r.iter().zip(t).fold(0, |x, (a, b)| x ^ u64::from(a & b))
}

/// C0_i = e_i + parity(x).
#[inline(always)]
fn put_syndrome_bit(c0: &mut [u8], e: &[u8], i: usize, x: u64) {
    let bit = (x.count_ones() as u8 & 1) ^ crate::ct::bit(e, i);
    c0[i >> 3] |= bit << (i & 7);
}
