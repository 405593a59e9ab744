//! Niederreiter encryption (Classic McEliece spec §2.4.5: `FixedWeight`, and
//! `Encode`: C0 = H e).
// ref: encrypt.c

use crate::params::{Derived, MAX_N_BYTES, MAX_T, ParameterSet};
use rand_core::CryptoRng;
use zeroize::Zeroize;

pub(crate) mod weight;
use weight::{index_words, repeated_index};

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
    let avx2 = crate::arch::avx2();
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
        let mut repeated = match avx2 {
            Some(token) => crate::arch::repeated_index::<P>(token, &ind[..t]),
            None => repeated_index(&ind[..t]),
        };
        // Public by design (libmceliece `gen_e`): only whether this attempt
        // repeats an index leaks; the attempt is discarded.
        pqdr_ctgrind::hook::declassify(&mut repeated);
        if repeated == 0 {
            break;
        }
    }
    match avx2 {
        Some(token) => crate::arch::index_words::<P>(token, &ind[..t], &mut words[..nw]),
        None => index_words(&ind[..t], &mut words[..nw]),
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
/// C0_i = e_i + <T_i, e_tail>; ORs them into `c0`. Eight rows at a time
/// on the AVX2 path ([`crate::arch::row_products`]) when the CPU has it.
pub(crate) fn syndrome_rows<P: ParameterSet>(
    c0: &mut [u8],
    rows: &[u8],
    first: usize,
    e: &[u8],
    tail: &[u8],
) {
    syndrome_rows_with::<P>(c0, rows, first, (e, tail), crate::arch::avx2());
}

/// [`syndrome_rows`] on the given path (`None`: portable).
fn syndrome_rows_with<P: ParameterSet>(
    c0: &mut [u8],
    rows: &[u8],
    first: usize,
    (e, tail): (&[u8], &[u8]),
    avx2: Option<crate::arch::Avx2>,
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
        let x = match avx2 {
            Some(token) => crate::arch::row_products(token, group, &tail[..rb]),
            None => row_products_portable(group, (tw, trem)),
        };
        put_syndrome_byte(c0, e, i, x);
        i += 8;
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

/// Eight rows' products with e_tail (its whole words `tw`, then its
/// trailing bytes), each folded to one word by XOR: the portable twin of
/// [`crate::arch::row_products`].
#[inline(always)]
fn row_products_portable(group: &[u8], (tw, trem): (&[[u8; 8]], &[u8])) -> [u64; 8] {
    let rb = group.len() >> 3;
    let nw = tw.len();
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
    x
}

/// The AND of the trailing (< 8) bytes of a row and of e_tail, as a word.
#[inline(always)]
fn tail_dot(r: &[u8], t: &[u8]) -> u64 {
    r.iter().zip(t).fold(0, |x, (a, b)| x ^ u64::from(a & b))
}

/// C0_(i+q) = e_(i+q) + parity(x_q) for the eight rows from i: one byte
/// written when i is a multiple of 8 (every row of `Encode`; streaming
/// encapsulation's chunks may start elsewhere: then bit by bit).
#[inline(always)]
fn put_syndrome_byte(c0: &mut [u8], e: &[u8], i: usize, x: [u64; 8]) {
    if i & 7 != 0 {
        for (q, xr) in x.into_iter().enumerate() {
            put_syndrome_bit(c0, e, i + q, xr);
        }
        return;
    }
    let mut byte = e[i >> 3];
    for (q, xr) in x.into_iter().enumerate() {
        byte ^= (xr.count_ones() as u8 & 1) << q;
    }
    c0[i >> 3] |= byte;
}

/// C0_i = e_i + parity(x).
#[inline(always)]
fn put_syndrome_bit(c0: &mut [u8], e: &[u8], i: usize, x: u64) {
    let bit = (x.count_ones() as u8 & 1) ^ crate::ct::bit(e, i);
    c0[i >> 3] |= bit << (i & 7);
}

#[cfg(all(
    test,
    feature = "mceliece348864",
    feature = "mceliece460896",
    feature = "mceliece6688128",
    feature = "mceliece6960119",
    feature = "mceliece8192128"
))]
mod tests {
    use super::syndrome_rows_with;
    use crate::arch::avx2;
    use crate::params::{
        Derived, MAX_ROW_BYTES, Mceliece348864, Mceliece460896, Mceliece6688128, Mceliece6960119,
        Mceliece8192128, ParameterSet,
    };
    use crate::test_util::xorshift;

    /// `Encode`'s row products on the AVX2 path against the portable one,
    /// for every row width (340, 324, 628, 677 and 816 bytes: with and
    /// without a partial 32-byte and 8-byte chunk): random rows and tails,
    /// tails of one bit (each position of the last 40 bytes: the AVX2
    /// path's overlapping last load must count each byte once), all ones
    /// and zero; 27 rows (three groups of eight and a rest).
    #[test]
    fn avx2_row_products_match_portable() {
        let Some(token) = avx2() else {
            return;
        };
        case::<Mceliece348864>(token, 1);
        case::<Mceliece460896>(token, 2);
        case::<Mceliece6688128>(token, 3);
        case::<Mceliece6960119>(token, 4);
        case::<Mceliece8192128>(token, 5);
    }

    /// `FixedWeight`'s distinctness check and index spread on the AVX2 path
    /// against the portable loops and the definition: each t (64, 96, 128,
    /// 119, 128) indices below n, distinct or with one repeat at each pair of
    /// places of a sample (first and last included); words compared bit for
    /// bit, and each index's bit checked set.
    #[test]
    fn avx2_fixed_weight_matches_portable() {
        let Some(token) = avx2() else {
            return;
        };
        let mut s = 0x1234_5678_9ABC_DEF1u64;
        fixed_weight_case::<Mceliece348864>(token, &mut s);
        fixed_weight_case::<Mceliece460896>(token, &mut s);
        fixed_weight_case::<Mceliece6688128>(token, &mut s);
        fixed_weight_case::<Mceliece6960119>(token, &mut s);
        fixed_weight_case::<Mceliece8192128>(token, &mut s);
    }

    fn fixed_weight_case<P: ParameterSet>(token: crate::arch::Avx2, s: &mut u64) {
        use super::{index_words, repeated_index};
        use crate::params::{MAX_N_BYTES, MAX_T};
        let (t, nw) = (P::T, P::N.div_ceil(16));
        for case in 0..40 {
            let mut ind = [0u16; MAX_T];
            // Distinct: the first t of a random permutation of 0..n.
            let mut all: [u16; 8192] = core::array::from_fn(|i| i as u16);
            for i in 0..t {
                let j = i + xorshift(s) as usize % (P::N - i);
                all.swap(i, j);
            }
            ind[..t].copy_from_slice(&all[..t]);
            let repeat = match case {
                0 => None,
                1 => Some((0, t - 1)),
                2 => Some((t - 2, t - 1)),
                3 => Some((0, 1)),
                _ if case % 2 == 0 => None,
                _ => Some((xorshift(s) as usize % t, xorshift(s) as usize % t)),
            };
            let mut want_rep = 0;
            if let Some((i, j)) = repeat
                && i != j
            {
                ind[j] = ind[i];
                want_rep = 1;
            }
            let ind = &ind[..t];
            let name = P::NAME;
            assert_eq!(repeated_index(ind), want_rep, "{name} case {case}");
            let got = crate::arch::repeated_index::<P>(token, ind);
            assert_eq!(got, want_rep, "{name} case {case}");
            let (mut want, mut got) = ([0u16; MAX_N_BYTES >> 1], [0u16; MAX_N_BYTES >> 1]);
            index_words(ind, &mut want[..nw]);
            crate::arch::index_words::<P>(token, ind, &mut got[..nw]);
            assert!(got == want, "{name} case {case}: words");
            let ones: u32 = want.iter().map(|w| w.count_ones()).sum();
            assert_eq!(
                ones as usize,
                t - want_rep as usize,
                "{name} case {case}: weight"
            );
            for &x in ind {
                assert_eq!(want[usize::from(x >> 4)] >> (x & 15) & 1, 1, "index {x}");
            }
        }
    }

    fn case<P: ParameterSet>(token: crate::arch::Avx2, seed: u64) {
        const ROWS: usize = 27;
        let rb = P::ROW_BYTES;
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut rows = [0u8; ROWS * MAX_ROW_BYTES];
        let rows = &mut rows[..ROWS * rb];
        rows.iter_mut().for_each(|b| *b = xorshift(&mut s) as u8);
        let mut e = [0u8; 4];
        e.iter_mut().for_each(|b| *b = xorshift(&mut s) as u8);
        for k in 0..60 {
            let mut tail = [0u8; MAX_ROW_BYTES];
            match k {
                0 => {}
                1 => tail[..rb].fill(0xFF),
                2..40 => tail[rb - 1 - (k - 2)] = 1 << (k % 8),
                _ => tail[..rb]
                    .iter_mut()
                    .for_each(|b| *b = xorshift(&mut s) as u8),
            }
            let (mut want, mut got) = ([0u8; 4], [0u8; 4]);
            syndrome_rows_with::<P>(&mut want, rows, 0, (&e, &tail), None);
            syndrome_rows_with::<P>(&mut got, rows, 0, (&e, &tail), Some(token));
            assert_eq!(got, want, "{}: tail case {k}", P::NAME);
            // Rows numbered from 5 (a streaming chunk's start): e = 0, the
            // same bits five places on.
            let (mut at0, mut at5) = ([0u8; 4], [0u8; 5]);
            syndrome_rows_with::<P>(&mut at0, rows, 0, (&[0; 4], &tail), Some(token));
            syndrome_rows_with::<P>(&mut at5, rows, 5, (&[0; 5], &tail), Some(token));
            let mut b = [0u8; 8];
            b[..5].copy_from_slice(&at5);
            let (a, b) = (u32::from_le_bytes(at0), u64::from_le_bytes(b));
            assert_eq!(
                u64::from(a) << 5,
                b,
                "{}: rows from 5, tail case {k}",
                P::NAME
            );
            // A tail of one bit selects that column: the portable syndrome
            // is e's bits plus the rows' bits there (the test's own check).
            if (2..40).contains(&k) {
                let byte = rb - 1 - (k - 2);
                for i in 0..ROWS {
                    let bit = (rows[i * rb + byte] >> (k % 8)) & 1 ^ (e[i / 8] >> (i % 8)) & 1;
                    assert_eq!((want[i / 8] >> (i % 8)) & 1, bit, "row {i}, tail case {k}");
                }
            }
        }
    }
}
