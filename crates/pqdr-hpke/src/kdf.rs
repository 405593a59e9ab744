//! The labeled KDF functions: RFC 9180 §4 `LabeledExtract` / `LabeledExpand`
//! over HKDF (RFC 5869), and the one-stage `LabeledDerive` of the SHAKE KDFs
//! (draft-ietf-hpke-hpke §4, used by draft-ietf-hpke-pq). No heap: the
//! labeled inputs are fed to HKDF / SHAKE piece by piece.

use hkdf::{Hkdf, HkdfExtract};
use sha2::{Sha256, Sha384, Sha512};
use shake::{ExtendableOutput, Shake128, Shake256, Update, XofReader};
use zeroize::Zeroizing;

use crate::error::{Error, Object};
use crate::suite::Kdf;

/// The version label `"HPKE-v1"` of RFC 9180 §4.
const VERSION: &[u8] = b"HPKE-v1";

/// The largest `Nh` (HKDF-SHA512, SHAKE256).
pub(crate) const MAX_NH: usize = 64;

/// A PRK / secret of up to [`MAX_NH`] bytes; wiped on drop.
pub(crate) type Prk = Zeroizing<[u8; MAX_NH]>;

/// `LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" ‖ suite_id ‖
/// label ‖ ikm)` (RFC 9180 §4). The PRK is the first `kdf.nh()` bytes of the
/// result. Two-stage KDFs only.
pub(crate) fn labeled_extract(
    kdf: Kdf,
    suite_id: &[u8],
    salt: &[u8],
    label: &[u8],
    ikm: &[u8],
) -> Prk {
    let mut prk = Zeroizing::new([0u8; MAX_NH]);
    macro_rules! extract {
        ($h:ty) => {{
            let mut e = HkdfExtract::<$h>::new(Some(salt));
            for part in [VERSION, suite_id, label, ikm] {
                e.input_ikm(part);
            }
            let (out, _) = e.finalize();
            prk[..out.len()].copy_from_slice(&out);
        }};
    }
    match kdf {
        Kdf::HkdfSha256 => extract!(Sha256),
        Kdf::HkdfSha384 => extract!(Sha384),
        Kdf::HkdfSha512 => extract!(Sha512),
        Kdf::Shake128 | Kdf::Shake256 => unreachable!("one-stage KDF has no Extract"),
    }
    prk
}

/// `LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) ‖ "HPKE-v1"
/// ‖ suite_id ‖ label ‖ info, L)` (RFC 9180 §4), `L = out.len()`.
///
/// # Errors
/// [`Error::Length`] (`ExportLength`) if `L > 255 * Nh` (RFC 5869 §2.3).
pub(crate) fn labeled_expand(
    kdf: Kdf,
    suite_id: &[u8],
    prk: &[u8],
    label: &[u8],
    info: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    let max = kdf.max_export_size();
    if out.len() > max {
        return Err(Error::Length {
            what: Object::ExportLength,
            expected: max,
            actual: out.len(),
        });
    }
    let l = u16::try_from(out.len()).unwrap_or(u16::MAX).to_be_bytes();
    let prk = &prk[..kdf.nh()];
    macro_rules! expand {
        ($h:ty) => {{
            // `prk` has the hash's output length, so `from_prk` cannot fail, and
            // `L ≤ 255 * Nh` was checked, so neither can `expand`.
            let h = Hkdf::<$h>::from_prk(prk).map_err(|_| Error::Length {
                what: Object::ExportLength,
                expected: max,
                actual: out.len(),
            })?;
            h.expand_multi_info(&[&l, VERSION, suite_id, label, info], out)
                .map_err(|_| Error::Length {
                    what: Object::ExportLength,
                    expected: max,
                    actual: out.len(),
                })?;
        }};
    }
    match kdf {
        Kdf::HkdfSha256 => expand!(Sha256),
        Kdf::HkdfSha384 => expand!(Sha384),
        Kdf::HkdfSha512 => expand!(Sha512),
        Kdf::Shake128 | Kdf::Shake256 => unreachable!("one-stage KDF has no Expand"),
    }
    Ok(())
}

/// The two-byte big-endian length prefix `I2OSP(len, 2)` of a one-stage
/// input.
///
/// # Errors
/// [`Error::Length`] (`KeyScheduleInput`) if `len > 65535`.
pub(crate) fn len16(len: usize) -> Result<[u8; 2], Error> {
    u16::try_from(len)
        .map(u16::to_be_bytes)
        .map_err(|_| Error::Length {
            what: Object::KeyScheduleInput,
            expected: 0xFFFF,
            actual: len,
        })
}

/// `LabeledDerive(ikm, label, context, L) = SHAKE(ikm ‖ "HPKE-v1" ‖ suite_id
/// ‖ I2OSP(len(label), 2) ‖ label ‖ I2OSP(L, 2) ‖ context, L)`
/// (draft-ietf-hpke-hpke §4, one-stage KDFs), `ikm` and `context` the
/// concatenations of `ikm_parts` and `context_parts`, `L = out.len()`. Also `SHAKE256`'s use in the KEMs'
/// `DeriveKeyPair` (draft-ietf-hpke-pq §3, §4).
///
/// # Errors
/// [`Error::Length`] if `L` or `len(label)` exceeds 65535.
pub(crate) fn labeled_derive(
    kdf: Kdf,
    suite_id: &[u8],
    ikm_parts: &[&[u8]],
    label: &[u8],
    context_parts: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    let l = u16::try_from(out.len())
        .map_err(|_| Error::Length {
            what: Object::ExportLength,
            expected: 0xFFFF,
            actual: out.len(),
        })?
        .to_be_bytes();
    let label_len = len16(label.len())?;
    macro_rules! derive {
        ($x:ty) => {{
            let mut x = <$x>::default();
            for part in ikm_parts {
                x.update(part);
            }
            for part in [VERSION, suite_id, &label_len, label, &l] {
                x.update(part);
            }
            for part in context_parts {
                x.update(part);
            }
            x.finalize_xof().read(out);
        }};
    }
    match kdf {
        Kdf::Shake128 => derive!(Shake128),
        Kdf::Shake256 => derive!(Shake256),
        _ => unreachable!("two-stage KDF has no Derive"),
    }
    Ok(())
}
