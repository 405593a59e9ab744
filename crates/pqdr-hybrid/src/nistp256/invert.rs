//! Inversion modulo p = 2^256 − 2^224 + 2^192 + 2^96 − 1 (the P-256 field
//! prime, SP 800-186 §3.2.1.3; the final `1/Z` of the scalar products) by
//! the constant-time Bernstein–Yang divsteps of [`crate::modinv62`] (TCHES
//! 2019(3), §§8–11; libsecp256k1's `modinv64` form): p in signed 62-bit
//! limbs, 10 batches of 59 portable divsteps. On plain integers (the
//! field's `Arith::invert` brings the Montgomery form back with one
//! product).

use crate::modinv62::{self, Modulus62, inv_mod_2_62};

/// The P-256 prime for [`modinv62::invert`].
struct P256;

impl Modulus62 for P256 {
    /// p in signed 62-bit limbs: `−1 + 2^34·2^62 + (2^6 − 2^38)·2^186 + 2^8·2^248`
    /// (`2^96`, `2^192 − 2^224`, `2^256`).
    const P62: [i64; 5] = [-1, 1 << 34, 0, (1 << 6) - (1 << 38), 256];

    /// p ≡ −1 (mod 2^64), so `p^(−1) mod 2^62` is −1.
    const P_INV62: u64 = inv_mod_2_62(u64::MAX);
}

/// `w^(−1) mod p` (0 for `w = 0`), canonical limbs, for `w < p`
/// (little-endian limbs, the plain integer: the field's Montgomery form is
/// the caller's business).
pub(crate) fn invert(w: &[u64; 4]) -> [u64; 4] {
    modinv62::invert::<P256>(w, |zeta, f0, g0| modinv62::divsteps::<59>(zeta, f0, g0, 8))
}
