//! Keccak-f\[1600\]×4: four independent permutations (FIPS 202 §3.3, §3.4)
//! on interleaved states, and the choice of the code that runs them.
//!
//! With the `simd` feature on x86-64, [`Backend::detect`] picks the AVX2
//! permutation when the CPU has AVX2 (CPUID, through `cpufeatures`, no
//! `std`); everywhere else, and through [`Backend::PORTABLE`], four calls of
//! the scalar [`f1600`](crate::f1600). Both give the same output.

use crate::f1600::f1600;
use zeroize::Zeroize;

/// Four Keccak-f\[1600\] states, interleaved: `state[i][k]` is lane `i`
/// (`A[x, y]` with `i = x + 5y`) of state `k`.
pub type StateX4 = [[u64; 4]; 25];

/// Which code runs the 4-way permutation.
///
/// [`Backend::detect`] is the normal choice (AVX2 when the feature `simd` is
/// on, the target is x86-64 and the CPU has AVX2); [`Backend::PORTABLE`]
/// forces the portable code, so tests can run both paths in one process
/// without touching the environment. A `Backend` that uses AVX2 can only be
/// obtained by detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backend {
    avx2: bool,
}

impl Default for Backend {
    #[inline]
    fn default() -> Self {
        Self::detect()
    }
}

impl Backend {
    /// Four calls of the scalar permutation (every target).
    pub const PORTABLE: Self = Self { avx2: false };

    /// The fastest code this CPU runs: AVX2 if available (feature `simd`,
    /// x86-64), else [`Backend::PORTABLE`]. The CPUID result is cached.
    #[inline]
    pub fn detect() -> Self {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        {
            Self {
                avx2: crate::arch::x86_64::has_avx2(),
            }
        }
        #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
        {
            Self::PORTABLE
        }
    }

    /// Whether this backend runs SIMD code (AVX2).
    #[inline]
    pub const fn is_simd(self) -> bool {
        self.avx2
    }

    /// Keccak-f\[1600\] on each of the four interleaved states.
    ///
    /// ```
    /// use pqdr_keccak::{Backend, StateX4};
    /// let mut four: StateX4 = [[0; 4]; 25];
    /// four[0] = [1, 2, 3, 4];
    /// Backend::detect().f1600_x4(&mut four);
    /// // The same as four scalar permutations.
    /// let mut one = [0u64; 25];
    /// one[0] = 3;
    /// pqdr_keccak::f1600(&mut one);
    /// assert!((0..25).all(|i| four[i][2] == one[i]));
    /// ```
    #[inline]
    pub fn f1600_x4(self, state: &mut StateX4) {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        if self.avx2 {
            crate::arch::x86_64::f1600_x4(state);
            return;
        }
        f1600_x4_portable(state);
    }
}

/// The portable twin: the scalar permutation on each state in turn.
fn f1600_x4_portable(state: &mut StateX4) {
    let mut one = [0u64; 25];
    for k in 0..4 {
        for (o, lane) in one.iter_mut().zip(state.iter()) {
            *o = lane[k];
        }
        f1600(&mut one);
        for (o, lane) in one.iter().zip(state.iter_mut()) {
            lane[k] = *o;
        }
    }
    one.zeroize();
}

/// Keccak-f\[1600\] on four interleaved states with [`Backend::detect`].
#[inline]
pub fn f1600_x4(state: &mut StateX4) {
    Backend::detect().f1600_x4(state);
}
