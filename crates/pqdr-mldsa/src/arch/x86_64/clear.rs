//! Zeroization of a polynomial (FIPS 204 §3.6.3: intermediate secret values
//! are destroyed) with eight 32-byte stores instead of 256 volatile 4-byte
//! writes.
//!
//! The stores are kept by an empty `asm!` block that receives the
//! polynomial's address and may read any memory (no `nomem` / `readonly`):
//! the compiler must complete the stores before it, as it must for the
//! `zeroize` crate's volatile writes and fence (the technique of BoringSSL's
//! `OPENSSL_cleanse`). No secret-dependent branch or address.

use core::arch::asm;
use core::arch::x86_64::{_mm256_setzero_si256, _mm256_storeu_si256};

use pqdr_common::simd::Avx2;

use crate::zetas::N;

/// a ← 0, as `zeroize::Zeroize` on `[i32; N]` (the portable twin).
#[inline]
pub(crate) fn zeroize_poly(token: Avx2, a: &mut [i32; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { zeroize_poly_avx2(a) }
    // SAFETY: an empty instruction sequence; it only names the address (no
    // stack use, flags kept). Without `nomem` the compiler assumes it reads
    // the polynomial, so the zero stores above cannot be removed.
    unsafe { asm!("/* {0} */", in(reg) a.as_mut_ptr(), options(nostack, preserves_flags)) }
}

#[target_feature(enable = "avx2")]
fn zeroize_poly_avx2(a: &mut [i32; N]) {
    let zero = _mm256_setzero_si256();
    let (chunks, _) = a.as_chunks_mut::<8>();
    for c in chunks {
        // SAFETY: `c` is 8 `i32` = 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), zero) }
    }
}
