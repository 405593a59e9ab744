//! `FixedWeight`'s loops over the secret indices (Classic McEliece spec
//! §2.4.5), in their own module so that the AVX2 kernels
//! (`crate::arch::repeated_index`, `crate::arch::index_words`: these
//! loops compiled with AVX2) can inline them without importing `encrypt`,
//! which dispatches to them.

use crate::params::MAX_T;
use zeroize::Zeroize;

/// 1 if two of the indices `ind` (each below 2^13) are equal, else 0
/// (`FixedWeight`'s distinctness check, Classic McEliece spec §2.4.5),
/// without a secret-dependent branch. Inlined into the AVX2 kernel
/// `crate::arch::repeated_index` too (the same loops on 16 lanes).
#[inline(always)]
pub(crate) fn repeated_index(ind: &[u16]) -> u16 {
    // Indices are below 2^13, so d = a ^ b < 2^15 and d - 1 has its top
    // bit set exactly when a = b (and only then): the lanes are ORed and
    // the top bit read once at the end. 16-bit lane arithmetic that LLVM
    // vectorizes (eight pairs per SSE2 operation, sixteen with AVX2).
    let t = ind.len();
    let mut acc = [0u16; MAX_T];
    for i in 1..t {
        let x = ind[i];
        for (a, &y) in acc[..i].iter_mut().zip(&ind[..i]) {
            *a |= (x ^ y).wrapping_sub(1);
        }
    }
    let repeated = acc[..t].iter().fold(0, |e, &a| e | a) >> 15;
    // acc holds the pairwise differences of the secret indices: wiped
    // before the attempt is accepted or retried.
    acc.zeroize();
    repeated
}

/// e as 16-bit words from its t indices (`words` zero on entry, one word
/// per 16 positions). Inlined into the AVX2 kernel `crate::arch::index_words`
/// too (the same loop on 16 lanes).
#[inline(always)]
pub(crate) fn index_words(ind: &[u16], words: &mut [u16]) {
    // e as 16-bit words: index x sets bit x mod 16 of word x / 16. The word
    // numbers are below 2^9, so d = k ^ w < 2^15 and the 16-bit lane d - 1
    // is negative exactly when d = 0: an arithmetic shift turns it into the
    // select mask (no comparison; eight lanes per SSE2 operation, a quarter
    // of the work of 64-bit words, which SSE2 cannot compare; sixteen
    // lanes with AVX2).
    for &x in ind {
        let bit = 1u16 << (x & 15);
        let w = x >> 4;
        for (k, word) in words.iter_mut().enumerate() {
            let m = (((k as u16) ^ w).wrapping_sub(1).cast_signed() >> 15).cast_unsigned();
            *word |= bit & m;
        }
    }
}
