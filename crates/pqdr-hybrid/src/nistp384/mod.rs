//! The P-384 group (SP 800-186 §3.2.1.4, SEC 2 v2 §2.5.1: short Weierstrass
//! `y² = x³ − 3x + b` over GF(p), prime order n) for ECDH, with the point
//! code of P-256 (`nist_curve::a3_curve!`: projective coordinates, the
//! complete formulas of Renes–Costello–Batina 2016 for a = −3, Jacobian
//! doublings inside the windows, 77 signed radix-32 digits, full masked
//! table scans) over the field [`field`] (Montgomery form on six limbs).
//!
//! - [`mul`]: variable-base `d·Q`;
//! - `base::mul_base`: fixed-base `d·G` with a precomputed table of
//!   multiples of G (`tools/gen_p256_table.py`).
//!
//! Constant time as P-256's: no branch or index depends on the scalar.

mod base;
pub(crate) mod field;
#[cfg(test)]
mod tests;

use zeroize::Zeroize;

pub(crate) use base::mul_base;
use field::{Arith, Fe};

use crate::arch::Avx2;

crate::nist_curve::a3_curve!(limbs = 6, digits = 77);

/// The generator G (SP 800-186 §3.2.1.4), affine, Montgomery form (the
/// tests check it against `p384`'s).
#[cfg(test)]
pub(crate) const G: Affine = Affine {
    x: Fe([
        0x3dd0_7566_49c0_b528,
        0x20e3_78e2_a0d6_ce38,
        0x879c_3afc_541b_4d6e,
        0x6454_8684_59a3_0eff,
        0x812f_f723_614e_de2b,
        0x4d3a_adc2_299e_1513,
    ]),
    y: Fe([
        0x2304_3dad_4b03_a4fe,
        0xa1bf_a8bf_7bb4_a9ac,
        0x8bad_e756_2e83_b050,
        0xc6c3_5219_68f4_ffd9,
        0xdd80_0226_3969_a840,
        0x2b78_abc2_5a15_c5e9,
    ]),
};

/// The digits of `nist_curve::digits_w5` at P-384's sizes recompose the
/// scalar, and the top digit is within `[−16, 16]` (test helper).
#[cfg(test)]
fn digits_check() {
    for d in [
        [u64::MAX; 6],
        [0x8888_8888_8888_8888; 6],
        [1, 0, 0, 0, 0, 1 << 63],
    ] {
        let e: [i8; 77] = crate::nist_curve::digits_w5(&d);
        assert!(e.iter().all(|&x| (-16..=16).contains(&x)));
        // Σ e_i·32^i by Horner over 7 limbs (the sum is d < 2^384).
        let mut acc = [0i128; 7];
        for &x in e.iter().rev() {
            let mut c = 0i128;
            for a in &mut acc {
                let v = *a * 32 + c;
                *a = v & 0xffff_ffff_ffff_ffff;
                c = v >> 64;
            }
            acc[0] += i128::from(x);
            // Propagate a negative or overflowing low limb.
            let mut c = 0i128;
            for a in &mut acc {
                let v = *a + c;
                *a = v & 0xffff_ffff_ffff_ffff;
                c = v >> 64;
            }
        }
        let got: [u64; 6] = core::array::from_fn(|i| u64::try_from(acc[i]).unwrap());
        assert_eq!(got, d);
        assert_eq!(acc[6], 0);
    }
}
