//! Keccak-f\[1600\]×4: four independent permutations (FIPS 202 §3.3, §3.4)
//! on interleaved states, and the choice of the code that runs them.
//!
//! The caller passes an `Option<`[`Avx2`]`>`: a token (only detection makes
//! one, `pqdr_common::simd`) runs the AVX2 permutation on x86-64; `None`
//! runs four calls of the scalar [`f1600`](crate::f1600). Both give the same
//! output.

use crate::f1600::f1600;
use pqdr_common::simd::Avx2;
use zeroize::Zeroize;

/// Four Keccak-f\[1600\] states, interleaved: `state[i][k]` is lane `i`
/// (`A[x, y]` with `i = x + 5y`) of state `k`.
pub type StateX4 = [[u64; 4]; 25];

/// Keccak-f\[1600\] on each of the four interleaved states: the AVX2
/// permutation if `avx2` holds a token (only detection makes one), else
/// [`f1600_x4_portable`]. Both give the same output. The caller picks: its
/// own `simd` feature decides, e.g. `Avx2::detect_if(cfg!(feature = "simd"))`.
///
/// ```
/// use pqdr_common::simd::Avx2;
/// use pqdr_keccak::StateX4;
/// let mut four: StateX4 = [[0; 4]; 25];
/// four[0] = [1, 2, 3, 4];
/// pqdr_keccak::f1600_x4(Avx2::detect(), &mut four);
/// // The same as four scalar permutations.
/// let mut one = [0u64; 25];
/// one[0] = 3;
/// pqdr_keccak::f1600(&mut one);
/// assert!((0..25).all(|i| four[i][2] == one[i]));
/// ```
#[inline]
pub fn f1600_x4(avx2: Option<Avx2>, state: &mut StateX4) {
    if let Some(token) = avx2 {
        crate::arch::f1600_x4(token, state);
        return;
    }
    f1600_x4_portable(state);
}

/// The portable twin of the AVX2 permutation (every target): the scalar
/// [`f1600`] on each state in turn.
pub fn f1600_x4_portable(state: &mut StateX4) {
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
