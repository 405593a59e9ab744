//! Architecture-specific code: the only place `unsafe` is allowed, each
//! block with a `// SAFETY:` comment. Every kernel is a safe function taking
//! the [`Avx2`] token (`pqdr_common::simd`), the proof that detection saw
//! AVX2; on other targets the token type is empty and the stubs below are
//! never reached (a value of it cannot exist).
//!
//! | kernel (x86-64, AVX2) | portable twin | differential test |
//! |---|---|---|
//! | `f1600_x4` | `x4::f1600_x4_portable` (4 × `f1600`) | `tests/x4.rs` `x4_matches_scalar`, every sponge test over both paths; `tests/ct_valgrind.rs` |

#[cfg(not(target_arch = "x86_64"))]
use pqdr_common::simd::Avx2;

#[cfg(target_arch = "x86_64")]
#[allow(
    unsafe_code,
    reason = "AVX2 dispatch and unaligned lane loads/stores only"
)]
mod x86_64;

#[cfg(target_arch = "x86_64")]
pub(crate) use x86_64::f1600_x4;

/// Stub on targets without AVX2: no token exists, so it is never called.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn f1600_x4(token: Avx2, _: &mut [[u64; 4]; 25]) {
    match token {}
}
