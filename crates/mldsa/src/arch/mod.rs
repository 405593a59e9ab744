//! Architecture-specific code (feature `simd`): the only place `unsafe` is
//! allowed, each block with a `// SAFETY:` comment.

#[cfg(target_arch = "x86_64")]
#[allow(
    unsafe_code,
    reason = "AVX2 dispatch and unaligned loads/stores of coefficients only"
)]
pub(crate) mod x86_64;
