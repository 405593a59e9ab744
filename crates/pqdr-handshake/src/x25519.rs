//! X25519 (RFC 7748) through `x25519-dalek`, for the `-X` suites.

use crate::Error;

/// `X25519(k, 9)`: the public key of scalar `k`.
#[cfg(feature = "hybrid")]
pub(crate) fn public(k: &[u8; 32]) -> [u8; 32] {
    let mut p = x25519_dalek::x25519(*k, x25519_dalek::X25519_BASEPOINT_BYTES);
    // A public key (sent, or hashed into the key id).
    pqdr_ctgrind::hook::declassify(&mut p);
    p
}

/// `X25519(k, u)`; an all-zero output (a low-order `u`) is refused.
#[cfg(feature = "hybrid")]
pub(crate) fn dh(k: &[u8; 32], u: &[u8]) -> Result<[u8; 32], Error> {
    let mut p = [0u8; 32];
    if u.len() != 32 {
        return Err(Error::length(32, u.len()));
    }
    p.copy_from_slice(u);
    let out = x25519_dalek::x25519(*k, p);
    // Constant-time all-zero test of a secret value; the verdict is public.
    let mut zero = subtle::ConstantTimeEq::ct_eq(&out[..], &[0u8; 32][..]).unwrap_u8();
    // Public: for a clamped scalar the output is zero iff `u` has low order,
    // a property of the public point alone (and the error is returned).
    pqdr_ctgrind::hook::declassify(&mut zero);
    if zero == 1 {
        Err(Error::LowOrderPoint)
    } else {
        Ok(out)
    }
}

#[cfg(not(feature = "hybrid"))]
pub(crate) fn public(_: &[u8; 32]) -> [u8; 32] {
    [0; 32]
}

#[cfg(not(feature = "hybrid"))]
pub(crate) fn dh(_: &[u8; 32], _: &[u8]) -> Result<[u8; 32], Error> {
    Err(Error::SuiteNotAccepted)
}
