//! Keccak-f\[1600\]×4: four independent permutations (FIPS 202 §3.3, §3.4)
//! on interleaved states, and the choice of the code that runs them.
//!
//! The caller passes an `Option<`[`Avx2`]`>`: a token (only detection makes
//! one, `pqdr_common::simd`) runs the AVX2 permutation on x86-64; `None`
//! runs four calls of the scalar [`f1600`](crate::f1600). Both give the same
//! output. [`f1600_x4_public`] also takes an `Option<`[`Avx512Vl`]`>`, for
//! states whose every input is public.

use crate::f1600::f1600;
use pqdr_common::simd::{Avx2, Avx512Vl};
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

/// Keccak-f\[1600\] on each of the four interleaved states **whose every
/// input is public**: the AVX-512F/VL permutation if `avx512` holds a token
/// (only detection makes one), else [`f1600_x4`] with `avx2`. All give the
/// same output.
///
/// Public inputs only: valgrind cannot execute AVX-512, so the
/// constant-time check cannot cover the AVX-512 code (docs/constant-time.md
/// §8); under valgrind CPUID reports no AVX-512 and this is [`f1600_x4`].
/// Secret states go through [`f1600_x4`], which never runs AVX-512.
///
/// ```
/// use pqdr_common::simd::{Avx2, Avx512Vl};
/// use pqdr_keccak::StateX4;
/// let mut a: StateX4 = [[0; 4]; 25];
/// a[0] = [1, 2, 3, 4];
/// let mut b = a;
/// pqdr_keccak::f1600_x4_public(Avx512Vl::detect(), Avx2::detect(), &mut a);
/// pqdr_keccak::f1600_x4_portable(&mut b);
/// assert_eq!(a, b);
/// ```
#[inline]
pub fn f1600_x4_public(avx512: Option<Avx512Vl>, avx2: Option<Avx2>, state: &mut StateX4) {
    if let Some(token) = avx512 {
        crate::arch::f1600_x4_avx512_public(token, state);
        return;
    }
    f1600_x4(avx2, state);
}

/// The portable twin of the AVX2 and AVX-512 permutations (every target): the scalar
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
