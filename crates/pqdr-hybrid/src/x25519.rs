//! X25519 (RFC 7748 §5) through `x25519-dalek`: no curve arithmetic here,
//! only the two calls the hybrids need and the all-zero test of TLS 1.3.

use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::error::Error;

/// Size of an X25519 scalar, point and shared secret in bytes.
pub(crate) const X25519_SIZE: usize = 32;

/// `X25519(k, X25519_BASE)`: the public key (or the ephemeral "ciphertext")
/// of the secret scalar `k` (RFC 7748 §6.1; the base point `u = 9`).
///
/// Through `StaticSecret` → `PublicKey`, x25519-dalek's fixed-base
/// multiplication (clamped scalar times the Ed25519 base point, mapped to
/// Montgomery u): the same value as the ladder on `u = 9`, and with the
/// feature `precomputed-tables` several times faster. Both secrets are
/// zeroized on drop (x25519-dalek's `zeroize` feature).
pub(crate) fn public(k: &[u8; X25519_SIZE]) -> [u8; X25519_SIZE] {
    let secret = x25519_dalek::StaticSecret::from(*k);
    let mut p = x25519_dalek::PublicKey::from(&secret).to_bytes();
    // Public by design: the result is sent (a public key or ct_X), or hashed
    // with the other public inputs of the combiner.
    pqdr_ctgrind::hook::declassify(&mut p);
    p
}

/// `X25519(k, u)`, the shared secret, in a buffer wiped on drop.
pub(crate) fn dh(k: &[u8; X25519_SIZE], u: &[u8; X25519_SIZE]) -> Zeroizing<[u8; X25519_SIZE]> {
    Zeroizing::new(x25519_dalek::x25519(*k, *u))
}

/// [`dh`] that refuses an all-zero output (RFC 8446 §7.4.2, RFC 7748 §6.1),
/// as the TLS 1.3 hybrid groups require.
///
/// The output is compared with zero in constant time; only the verdict is
/// made public.
pub(crate) fn dh_checked(
    k: &[u8; X25519_SIZE],
    u: &[u8; X25519_SIZE],
) -> Result<Zeroizing<[u8; X25519_SIZE]>, Error> {
    let out = dh(k, u);
    let mut zero = out.ct_eq(&[0u8; X25519_SIZE]).unwrap_u8();
    // Public by design: for a clamped scalar the output is zero iff `u` has
    // low order, a property of the public point alone, and the handshake
    // aborts on it (the error is returned to the peer's side as an alert).
    pqdr_ctgrind::hook::declassify(&mut zero);
    if zero == 1 {
        Err(Error::LowOrderPoint)
    } else {
        Ok(out)
    }
}
