//! The choice between the portable code and the AVX2 kernels (feature
//! `simd`, x86-64): detected once per operation and passed down to the
//! products and reciprocals. No function here is a spec step.

/// Which implementation of the ring arithmetic runs. The outputs are
/// identical; only the speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// The portable code (the reference twin of every AVX2 kernel).
    Portable,
    /// The AVX2 kernels of `arch::x86_64`. Only [`Backend::detect`] returns
    /// it, and only on a CPU that executes AVX2.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    Avx2,
}

impl Backend {
    /// AVX2 when the feature `simd` is on, the target is x86-64 and the CPU
    /// has AVX2 (CPUID, cached); otherwise the portable code.
    #[inline]
    pub(crate) fn detect() -> Self {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        if crate::arch::x86_64::has_avx2() {
            return Backend::Avx2;
        }
        Backend::Portable
    }
}
