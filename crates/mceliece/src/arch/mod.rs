//! Architecture-specific code (feature `simd`, x86-64): the only place
//! `unsafe` is allowed, each block with a `// SAFETY:` comment.

#[allow(
    unsafe_code,
    reason = "calls into the AVX2 kernels after run-time detection only"
)]
pub(crate) mod x86_64;
