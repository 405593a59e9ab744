//! Architecture-specific code (feature `simd`, x86-64): the only place
//! `unsafe` is allowed, each block with a `// SAFETY:` comment.

#[allow(
    unsafe_code,
    reason = "AVX2 dispatch and unaligned 32-byte loads/stores only"
)]
pub(crate) mod x86_64;
