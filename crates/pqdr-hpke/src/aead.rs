//! The AEADs of RFC 9180 §7.3 through RustCrypto (`aes-gcm`, `chacha20poly1305`):
//! `Seal(key, nonce, aad, pt)` = ciphertext ‖ 16-byte tag, on caller buffers.

use aes_gcm::aead::{AeadInOut, KeyInit};
use aes_gcm::{Aes128Gcm, Aes256Gcm};
use chacha20poly1305::ChaCha20Poly1305;

use crate::error::{Error, Object};
use crate::suite::{Aead, TAG_SIZE};

/// Encrypts `pt` into `out[..pt.len()]` and writes the tag after it;
/// returns `pt.len() + 16`.
///
/// # Errors
/// [`Error::Length`] (`Output`) if `out` is shorter than `pt.len() + 16`;
/// [`Error::ExportOnly`] for the export-only AEAD.
pub(crate) fn seal(
    aead: Aead,
    key: &[u8],
    nonce: &[u8; 12],
    aad: &[u8],
    pt: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    let n = pt.len();
    let needed = n.checked_add(TAG_SIZE).ok_or(Error::Length {
        what: Object::Output,
        expected: usize::MAX,
        actual: out.len(),
    })?;
    if out.len() < needed {
        return Err(Error::Length {
            what: Object::Output,
            expected: needed,
            actual: out.len(),
        });
    }
    let (body, rest) = out.split_at_mut(n);
    body.copy_from_slice(pt);
    macro_rules! seal_with {
        ($c:ty) => {{
            let c = <$c>::new_from_slice(key).map_err(|_| Error::ExportOnly)?;
            let tag = c
                .encrypt_inout_detached(nonce.into(), aad, body.into())
                .map_err(|_| Error::Length {
                    what: Object::Output,
                    expected: needed,
                    actual: n,
                })?;
            rest[..TAG_SIZE].copy_from_slice(&tag);
        }};
    }
    match aead {
        Aead::Aes128Gcm => seal_with!(Aes128Gcm),
        Aead::Aes256Gcm => seal_with!(Aes256Gcm),
        Aead::ChaCha20Poly1305 => seal_with!(ChaCha20Poly1305),
        Aead::ExportOnly => return Err(Error::ExportOnly),
    }
    Ok(needed)
}

/// Decrypts `ct` (ciphertext ‖ tag) into `out[..ct.len() - 16]`; returns
/// the plaintext length. On a bad tag `out` is wiped.
///
/// # Errors
/// [`Error::Length`] if `ct` is shorter than a tag (`Ciphertext`) or `out`
/// shorter than the plaintext (`Output`); [`Error::Open`] if the tag does not
/// verify; [`Error::ExportOnly`] for the export-only AEAD.
pub(crate) fn open(
    aead: Aead,
    key: &[u8],
    nonce: &[u8; 12],
    aad: &[u8],
    ct: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    if aead == Aead::ExportOnly {
        return Err(Error::ExportOnly);
    }
    let n = ct.len().checked_sub(TAG_SIZE).ok_or(Error::Length {
        what: Object::Ciphertext,
        expected: TAG_SIZE,
        actual: ct.len(),
    })?;
    if out.len() < n {
        return Err(Error::Length {
            what: Object::Output,
            expected: n,
            actual: out.len(),
        });
    }
    let (body, tag) = ct.split_at(n);
    let mut tag_arr = [0u8; TAG_SIZE];
    tag_arr.copy_from_slice(tag);
    let dst = &mut out[..n];
    dst.copy_from_slice(body);
    macro_rules! open_with {
        ($c:ty) => {{
            let c = <$c>::new_from_slice(key).map_err(|_| Error::ExportOnly)?;
            c.decrypt_inout_detached(nonce.into(), aad, (&mut *dst).into(), (&tag_arr).into())
        }};
    }
    let r = match aead {
        Aead::Aes128Gcm => open_with!(Aes128Gcm),
        Aead::Aes256Gcm => open_with!(Aes256Gcm),
        Aead::ChaCha20Poly1305 => open_with!(ChaCha20Poly1305),
        Aead::ExportOnly => return Err(Error::ExportOnly),
    };
    if r.is_err() {
        dst.fill(0);
        return Err(Error::Open);
    }
    Ok(n)
}
