//! `ssh-ed25519` host keys (RFC 8709) through `ed25519-dalek`.
//!
//! - public key blob (§4): `string "ssh-ed25519"`, `string key` (32 bytes);
//! - signature blob (§6): `string "ssh-ed25519"`, `string signature` (64
//!   bytes), an Ed25519 signature (RFC 8032 §5.1) of the exchange hash `H`.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::error::{Error, Field};
use crate::hash::ExchangeHash;
use crate::wire::{Reader, Sink, SliceSink};

const NAME: &[u8] = b"ssh-ed25519";
/// The length of an `ssh-ed25519` public key blob.
pub const PUBLIC_BLOB_LEN: usize = 4 + NAME.len() + 4 + 32;
/// The length of an `ssh-ed25519` signature blob.
pub const SIGNATURE_BLOB_LEN: usize = 4 + NAME.len() + 4 + 64;

/// A server's Ed25519 host key; its secret is wiped on drop.
pub struct HostKey {
    key: SigningKey,
}

impl core::fmt::Debug for HostKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HostKey").finish_non_exhaustive()
    }
}

fn blob(value: &[u8], out: &mut [u8]) {
    let mut s = SliceSink::new(out);
    // The sizes are fixed by the constants above: these writes fit.
    let _ = s.put_string(NAME);
    let _ = s.put_string(value);
}

impl HostKey {
    /// The host key with this 32-byte Ed25519 secret (RFC 8032 §5.1.5).
    #[must_use]
    pub fn from_secret(secret: &[u8; 32]) -> Self {
        Self {
            key: SigningKey::from_bytes(secret),
        }
    }

    /// A new random host key.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        let mut secret = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(secret.as_mut());
        Self::from_secret(&secret)
    }

    /// The public key blob `K_S`.
    #[must_use]
    pub fn public_blob(&self) -> [u8; PUBLIC_BLOB_LEN] {
        let mut out = [0u8; PUBLIC_BLOB_LEN];
        blob(self.key.verifying_key().as_bytes(), &mut out);
        out
    }

    /// The signature blob over the exchange hash `h`.
    #[must_use]
    pub fn sign(&self, h: &ExchangeHash) -> [u8; SIGNATURE_BLOB_LEN] {
        let mut sig = self.key.sign(h.as_bytes()).to_bytes();
        // Public by design: the signature is sent in KEX_ECDH_REPLY.
        pqdr_ctgrind::hook::declassify(&mut sig);
        let mut out = [0u8; SIGNATURE_BLOB_LEN];
        blob(&sig, &mut out);
        out
    }
}

/// Parses `string "ssh-ed25519"`, `string value` with a value of `len` bytes.
fn parse_blob(data: &[u8], field: Field, len: usize) -> Result<&[u8], Error> {
    let mut r = Reader::new(data);
    if r.string()? != NAME {
        return Err(Error::HostKeyType);
    }
    let value = r.string()?;
    if value.len() != len {
        return Err(Error::Length {
            field,
            expected: len,
            actual: value.len(),
        });
    }
    r.finish()?;
    Ok(value)
}

/// The 32-byte Ed25519 key inside a public key blob `K_S`.
///
/// # Errors
/// [`Error::HostKeyType`] for another key type, [`Error::Length`] or
/// [`Error::Field`] for a malformed blob.
pub fn parse_public_blob(k_s: &[u8]) -> Result<[u8; 32], Error> {
    let mut out = [0u8; 32];
    out.copy_from_slice(parse_blob(k_s, Field::HostKey, 32)?);
    Ok(out)
}

/// Verifies the server's signature blob over `h` with the key in `k_s`
/// (RFC 4253 §8: the client checks that the signature is over `H`), and
/// returns the host key's 32 bytes for the caller's known-hosts check.
///
/// # Errors
/// [`Error::HostKeyType`] for another key type or an invalid point,
/// [`Error::Length`] / [`Error::Field`] for malformed blobs,
/// [`Error::BadSignature`] if the signature does not verify.
pub fn verify(k_s: &[u8], signature: &[u8], h: &ExchangeHash) -> Result<[u8; 32], Error> {
    let public = parse_public_blob(k_s)?;
    let sig = parse_blob(signature, Field::Signature, 64)?;
    let key = VerifyingKey::from_bytes(&public).map_err(|_| Error::HostKeyType)?;
    let mut s = [0u8; 64];
    s.copy_from_slice(sig);
    key.verify_strict(h.as_bytes(), &Signature::from_bytes(&s))
        .map_err(|_| Error::BadSignature)?;
    Ok(public)
}
