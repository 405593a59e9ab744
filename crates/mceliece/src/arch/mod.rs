//! Architecture-specific code (feature `simd`): the only place `unsafe` is
//! allowed, each block with a `// SAFETY:` comment.

#[cfg(target_arch = "x86_64")]
#[allow(
    unsafe_code,
    reason = "the call into the AVX2 copy after detection only"
)]
pub(crate) mod x86_64;
