//! DHKEM(X25519, HKDF-SHA256) (RFC 9180 §4.1, §7.1) over `x25519-dalek`.

use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use super::{SharedSecret, kem_suite_id};
use crate::error::Error;
use crate::kdf;
use crate::suite::{Kdf, Kem};

/// `pk(sk) = X25519(sk, 9)` (RFC 7748 §6.1). Public by design.
pub(super) fn public(sk: &[u8; 32]) -> [u8; 32] {
    let secret = x25519_dalek::StaticSecret::from(*sk);
    let mut p = x25519_dalek::PublicKey::from(&secret).to_bytes();
    pqdr_ctgrind::hook::declassify(&mut p);
    p
}

/// `DH(sk, pk)` refusing the all-zero output (RFC 9180 §7.1.4: "senders and
/// recipients MUST check whether the shared secret is the all-zero value").
/// The comparison is constant time; only its verdict is made public (for a
/// clamped scalar the output is zero iff `pk` has low order, a property of
/// the public point).
fn dh(sk: &[u8; 32], pk: &[u8; 32]) -> Option<Zeroizing<[u8; 32]>> {
    let out = Zeroizing::new(x25519_dalek::x25519(*sk, *pk));
    let mut zero = out.ct_eq(&[0u8; 32]).unwrap_u8();
    pqdr_ctgrind::hook::declassify(&mut zero);
    if zero == 1 { None } else { Some(out) }
}

/// `ExtractAndExpand(dh, kem_context)` (RFC 9180 §4.1) with
/// `kem_context = enc ‖ pkRm`.
fn extract_and_expand(dh: &[u8; 32], enc: &[u8], pkr: &[u8]) -> Result<SharedSecret, Error> {
    let sid = kem_suite_id(Kem::DhKemX25519);
    let prk = kdf::labeled_extract(Kdf::HkdfSha256, &sid, b"", b"eae_prk", dh);
    let mut ctx = [0u8; 64];
    ctx[..32].copy_from_slice(enc);
    ctx[32..].copy_from_slice(pkr);
    let mut ss = Zeroizing::new([0u8; 32]);
    kdf::labeled_expand(
        Kdf::HkdfSha256,
        &sid,
        &prk[..],
        b"shared_secret",
        &ctx,
        &mut ss[..],
    )?;
    Ok(ss)
}

/// `Encap(pkR)` (RFC 9180 §4.1) with `skE = DeriveKeyPair(ikm_e)`.
///
/// # Errors
/// [`Error::Encap`] if `pkR` has low order.
pub(super) fn encap(ikm_e: &[u8], pkr: &[u8; 32]) -> Result<([u8; 32], SharedSecret), Error> {
    let sid = kem_suite_id(Kem::DhKemX25519);
    let prk = kdf::labeled_extract(Kdf::HkdfSha256, &sid, b"", b"dkp_prk", ikm_e);
    let mut ske = Zeroizing::new([0u8; 32]);
    kdf::labeled_expand(Kdf::HkdfSha256, &sid, &prk[..], b"sk", b"", &mut ske[..])?;
    let pke = public(&ske);
    let dh = dh(&ske, pkr).ok_or(Error::Encap)?;
    Ok((pke, extract_and_expand(&dh, &pke, pkr)?))
}

/// `Decap(enc, skR)` (RFC 9180 §4.1).
///
/// # Errors
/// [`Error::Decap`] if `enc` has low order.
pub(super) fn decap(sk: &[u8; 32], enc: &[u8], pkr: &[u8]) -> Result<SharedSecret, Error> {
    let mut pke = [0u8; 32];
    pke.copy_from_slice(enc);
    let dh = dh(sk, &pke).ok_or(Error::Decap)?;
    extract_and_expand(&dh, enc, pkr)
}
