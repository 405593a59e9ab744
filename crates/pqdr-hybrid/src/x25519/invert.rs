//! Inversion modulo p = 2^255 − 19 (the final `z_2^(p−2)` of RFC 7748 §5
//! and the base-point product's `1 / (Z − Y)`) by the constant-time
//! Bernstein–Yang divsteps of [`crate::modinv62`] (TCHES 2019(3), §§8–11;
//! libsecp256k1's `modinv64` form): p in signed 62-bit limbs, 10 batches of
//! 60 divsteps (each two runs of 30, `field::divsteps_60`, so that a run's
//! matrix entries fit 32 bits and the kernel packs two of them in one
//! register). 590 divsteps suffice; the 10 more keep `g = 0`.

use super::field::{Arith, Fe, Portable, divsteps_60};
use crate::arch::Bmi2Adx;
use crate::modinv62::{self, Modulus62, inv_mod_2_62};

/// p = 2^255 − 19 for [`modinv62::invert`].
struct P25519;

impl Modulus62 for P25519 {
    /// p in signed 62-bit limbs: `−19 + 2^7·2^248`.
    const P62: [i64; 5] = [-19, 0, 0, 0, 128];

    /// `p^(−1) mod 2^62`.
    const P_INV62: u64 = inv_mod_2_62(0xffff_ffff_ffff_ffed);
}

/// The inversion on a path: [`invert`] with the path's divstep batches
/// (`Arith::divsteps_30`), or (in the tests' timing report) another method.
pub(crate) trait Invert: Arith {
    /// `z^(−1) mod p` (0 for `z ≡ 0`), canonical limbs.
    #[inline(always)]
    fn invert(self, z: &Fe) -> Fe {
        invert(self, z)
    }
}

impl Invert for Portable {}

impl Invert for Bmi2Adx {}

/// `z^(−1) mod p` (0 for `z ≡ 0`), canonical limbs: the same value as the
/// Fermat chain `z^(p−2)` (`Arith::invert`), faster; the divstep batches
/// from `ar` (`field::divsteps_30` or its x86-64 kernel).
pub(crate) fn invert<A: Arith>(ar: A, z: &Fe) -> Fe {
    // z reduced to [0, p), as limbs.
    let b = z.to_bytes();
    let w: [u64; 4] = core::array::from_fn(|i| {
        let mut x = [0u8; 8];
        x.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(x)
    });
    Fe(modinv62::invert::<P25519>(&w, |zeta, f0, g0| {
        divsteps_60(ar, zeta, f0, g0)
    }))
}
