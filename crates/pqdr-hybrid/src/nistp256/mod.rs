//! The P-256 group (SP 800-186 §3.2.1.3, SEC 2 v2 §2.4.2: short Weierstrass
//! `y² = x³ − 3x + b` over GF(p), prime order n) for ECDH: the scalar
//! products in Jacobian coordinates `(X : Y : Z)`, `x = X/Z²`, `y = Y/Z³`,
//! returned projective (`x = X/Z`, `y = Y/Z`; the identity `(0 : 1 : 0)`).
//! The Jacobian additions are not complete: the identity cases are
//! selected by masks and the others never occur for scalars below n (the
//! proofs are in the docs of `mul` and `base`). The field is [`field`]
//! (Montgomery form; portable or MULX, with one-block point kernels); its
//! inversion is [`invert`] (Bernstein–Yang divsteps).
//!
//! - [`mul`]: variable-base `d·Q` with signed radix-32 digits (w = 5) and an
//!   affine table of `1·Q … 16·Q` (one simultaneous inversion) read by a
//!   full masked scan, in Jacobian coordinates (EFD "dbl-2001-b" doublings
//!   for a = −3, "madd-2004-hmv" mixed additions; the identity cases by
//!   masks, the others ruled out by value;
//!   the point code is `nist_curve::a3_curve!`, shared with P-384: 52
//!   digits on four limbs here);
//! - `base::mul_base`: fixed-base `d·G` with a precomputed table of
//!   multiples of G (signed radix-64 digits, `m·64^i·G` for `m ≤ 32`,
//!   `tools/gen_p256_table.py`), 42 Jacobian mixed additions.
//!
//! Constant time: the digits are computed without branches, every table
//! lookup reads every entry and keeps one by masks, negation is a masked
//! select; only public values (the peer's point, the result's verdicts)
//! take branches.

mod base;
pub(crate) mod field;
mod invert;
#[cfg(test)]
mod tests;

use zeroize::Zeroize;

pub(crate) use base::mul_base;
use field::{Arith, Fe};

use crate::arch::Avx2;
#[cfg(test)]
pub(crate) use crate::nist_curve::scan;

crate::nist_curve::a3_curve!(limbs = 4, digits = 52);
