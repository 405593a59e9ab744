//! Keccak-f\[1600\] on one state (FIPS 202 §3.3, §3.4): the choice of the
//! code that runs it. The caller passes an `Option<`[`Bmi1Bmi2`]`>`: a token
//! (only detection makes one, `pqdr_common::simd`) runs the ANDN/RORX
//! permutation of `arch/x86_64/scalar.rs`; `None` runs
//! [`f1600_portable`]. Both give the same output.

use crate::f1600::f1600_portable;
use pqdr_common::simd::Bmi1Bmi2;

/// Keccak-f\[1600\] with ANDN and RORX if `bmi` holds a token (x86-64 with
/// BMI1 and BMI2; only detection makes one), else [`f1600_portable`]. Both
/// give the same output. The caller picks, from its own `simd` feature:
/// `Bmi1Bmi2::detect_if(cfg!(feature = "simd"))`.
///
/// ```
/// use pqdr_common::simd::Bmi1Bmi2;
/// let mut a = [7u64; 25];
/// let mut b = a;
/// pqdr_keccak::f1600_with(Bmi1Bmi2::detect(), &mut a);
/// pqdr_keccak::f1600_portable(&mut b);
/// assert_eq!(a, b);
/// ```
#[inline(always)]
pub fn f1600_with(bmi: Option<Bmi1Bmi2>, state: &mut [u64; 25]) {
    match bmi {
        Some(token) => crate::arch::f1600_bmi(token, state),
        None => f1600_portable(state),
    }
}
