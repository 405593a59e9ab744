//! Architecture-specific code: the only place `unsafe` is allowed, each
//! block with a `// SAFETY:` comment. Every kernel is a safe function taking
//! a token (`pqdr_common::simd`): `Avx2` or `Bmi1Bmi2`, the proof that
//! detection saw the instructions; on other targets the token types are
//! empty and the stubs below are never reached (no value of them can exist).
//!
//! | kernel (x86-64) | portable twin | differential test |
//! |---|---|---|
//! | `f1600_x4` | `x4::f1600_x4_portable` (4 × `f1600`) | `tests/x4.rs` `x4_matches_scalar`, every sponge test over both paths; `tests/ct_valgrind.rs` |
//! | `f1600_bmi` (BMI1, BMI2; token `Bmi1Bmi2`) | `f1600::f1600_portable` | `tests/bmi.rs` (random and edge states, every sponge over both paths); `tests/ct_valgrind.rs` |
//! | `f1600_x4_avx512_public` (AVX-512F/VL; token `Avx512Vl`; **public inputs only**, not under valgrind) | `x4::f1600_x4_portable` | `tests/avx512.rs` (random, edge and chained states against the portable and AVX2 paths, public sponges over every path) |

#[cfg(not(target_arch = "x86_64"))]
use pqdr_common::simd::{Avx2, Avx512Vl, Bmi1Bmi2};

#[cfg(target_arch = "x86_64")]
#[allow(
    unsafe_code,
    reason = "AVX2 / AVX-512 / BMI dispatch and unaligned lane loads/stores only"
)]
mod x86_64;

#[cfg(target_arch = "x86_64")]
pub(crate) use x86_64::{f1600_bmi, f1600_x4, f1600_x4_avx512_public};

/// Stub on targets without AVX2: no token exists, so it is never called.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn f1600_x4(token: Avx2, _: &mut [[u64; 4]; 25]) {
    match token {}
}

/// Stub on targets without BMI1/BMI2: no token exists, so it is never called.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn f1600_bmi(token: Bmi1Bmi2, _: &mut [u64; 25]) {
    match token {}
}

/// Stub on targets without AVX-512: no token exists, so it is never called.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn f1600_x4_avx512_public(token: Avx512Vl, _: &mut [[u64; 4]; 25]) {
    match token {}
}
