//! PKCS#8 / SubjectPublicKeyInfo plumbing shared by the primitive crates'
//! `pkcs8` features (feature `pkcs8` of this crate): the envelopes of
//! RFC 5280 §4.1.2.7 (SubjectPublicKeyInfo) and RFC 5958 §2
//! (OneAsymmetricKey), the `seed` / `expandedKey` / `both` private-key
//! CHOICE of RFC 9935 §6 and RFC 9881 §6, and the OCTET STRING shapes the
//! BouncyCastle encodings of Classic McEliece and sntrup put inside.
//!
//! Nothing here knows an algorithm: the callers pass their OID and check
//! the key bytes themselves. All DER is read and written by the RustCrypto
//! `der` / `spki` / `pkcs8` crates, into caller buffers (no heap; with
//! `alloc`, the `der::Document` / `der::SecretDocument` helpers too).
//! Branches depend on tags and lengths (public), never on key bytes.
//!
//! The per-key-type glue built on these helpers (the `from_spki_der` …
//! `to_private_key_pem` methods and the `spki` / `pkcs8` trait impls) is
//! generated in each primitive crate by the hidden macro
//! `pqdr_common::key_asn1_glue!`, documented in `asn1/glue.rs`.

use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier, OctetStringRef};
use der::{Decode, Encode, Length, Reader, SliceReader, SliceWriter, Tag, TagNumber};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};

mod glue;
pub mod seed_key;
pub use seed_key::SeedKey;

/// Why a DER input was rejected, or an encoding could not be written. The
/// primitive crates turn it into their own `Error` (same variant names).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// Not valid DER of the expected structure: truncated, trailing data, a
    /// wrong tag or CHOICE alternative, a non-minimal length, a BIT STRING
    /// with unused bits.
    Der,
    /// The AlgorithmIdentifier is not the expected OID, or has parameters
    /// (every OID used here requires them absent).
    Algorithm,
    /// A key field, or an output buffer, had the wrong length.
    Length {
        /// The length required.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// The OneAsymmetricKey `publicKey` is not the private key's own.
    InconsistentKey,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Der => {
                f.write_str("PKCS#8/SPKI input is not valid DER of the expected structure")
            }
            Self::Algorithm => {
                f.write_str("PKCS#8/SPKI algorithm identifier is not the expected one")
            }
            Self::Length { expected, actual } => {
                write!(
                    f,
                    "PKCS#8/SPKI field of {actual} bytes, expected {expected}"
                )
            }
            Self::InconsistentKey => f.write_str("PKCS#8 public key is not the private key's"),
        }
    }
}

impl core::error::Error for Error {}

/// Any `der` failure while reading is a malformed input.
#[allow(clippy::needless_pass_by_value, reason = "used as map_err(der_err)")]
fn der_err(_: der::Error) -> Error {
    Error::Der
}

/// `usize` of a DER length (lengths here are far below `u32::MAX`).
fn len_usize(len: Length) -> Result<usize, Error> {
    usize::try_from(len).map_err(der_err)
}

/// [`Error::Length`] unless `actual == expected`.
///
/// # Errors
/// [`Error::Length`].
pub fn check_length(expected: usize, actual: usize) -> Result<(), Error> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::Length { expected, actual })
    }
}

/// The AlgorithmIdentifier `{ oid }` with parameters absent.
pub fn algorithm(oid: ObjectIdentifier) -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid,
        parameters: None,
    }
}

/// Checks that `alg` is `oid` with parameters absent.
///
/// # Errors
/// [`Error::Algorithm`].
pub fn check_algorithm(
    alg: &AlgorithmIdentifierRef<'_>,
    oid: ObjectIdentifier,
) -> Result<(), Error> {
    if alg.oid == oid && alg.parameters.is_none() {
        Ok(())
    } else {
        Err(Error::Algorithm)
    }
}

/// Encodes `msg` into `out` and returns the encoding (a prefix of `out`).
///
/// # Errors
/// [`Error::Length`] if `out` is shorter than the encoding.
pub fn encode_into<'o, T: Encode>(msg: &T, out: &'o mut [u8]) -> Result<&'o [u8], Error> {
    let needed = len_usize(msg.encoded_len().map_err(der_err)?)?;
    if out.len() < needed {
        return Err(Error::Length {
            expected: needed,
            actual: out.len(),
        });
    }
    msg.encode_to_slice(out).map_err(der_err)
}

/// The public-key bytes of a decoded SubjectPublicKeyInfo whose algorithm
/// must be `oid` (no parameters) and whose BIT STRING has no unused bits.
///
/// # Errors
/// [`Error::Algorithm`], [`Error::Der`].
pub fn spki_key<'a>(
    spki: &SubjectPublicKeyInfoRef<'a>,
    oid: ObjectIdentifier,
) -> Result<&'a [u8], Error> {
    check_algorithm(&spki.algorithm, oid)?;
    spki.subject_public_key.as_bytes().ok_or(Error::Der)
}

/// Decodes a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) of `oid` and
/// returns its public-key bytes (borrowed from `der`, not copied).
///
/// # Errors
/// [`Error::Der`] (malformed or trailing DER, unused bits),
/// [`Error::Algorithm`].
pub fn decode_spki(der: &[u8], oid: ObjectIdentifier) -> Result<&[u8], Error> {
    let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(der_err)?;
    spki_key(&spki, oid)
}

/// Encodes the SubjectPublicKeyInfo `{ oid, key }` into `out`.
///
/// # Errors
/// [`Error::Length`] if `out` is too short.
pub fn spki_into<'o>(
    oid: ObjectIdentifier,
    key: &[u8],
    out: &'o mut [u8],
) -> Result<&'o [u8], Error> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm: algorithm(oid),
        subject_public_key: BitStringRef::from_bytes(key).map_err(der_err)?,
    };
    encode_into(&spki, out)
}

/// The SubjectPublicKeyInfo `{ oid, key }` as a `der::Document` (for the
/// `spki::EncodePublicKey` trait).
///
/// # Errors
/// The `der` crate's encoding error (a key too long for DER).
#[cfg(feature = "alloc")]
pub fn spki_document(oid: ObjectIdentifier, key: &[u8]) -> spki::Result<der::Document> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm: algorithm(oid),
        subject_public_key: BitStringRef::from_bytes(key)?,
    };
    Ok(der::Document::encode_msg(&spki)?)
}

/// The parts of a OneAsymmetricKey (RFC 5958 §2) the primitive crates use.
#[derive(Clone, Copy)]
pub struct PrivateKeyParts<'a> {
    /// The `privateKey` OCTET STRING's contents (secret).
    pub private_key: &'a [u8],
    /// The optional version-2 `publicKey` BIT STRING's contents.
    pub public_key: Option<&'a [u8]>,
}

impl core::fmt::Debug for PrivateKeyParts<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PrivateKeyParts")
            .field("public_key", &self.public_key)
            .finish_non_exhaustive()
    }
}

/// The parts of a decoded OneAsymmetricKey whose algorithm must be `oid`.
///
/// # Errors
/// [`Error::Algorithm`], [`Error::Der`] (a `publicKey` with unused bits).
pub fn private_key_parts<'a>(
    info: &PrivateKeyInfoRef<'a>,
    oid: ObjectIdentifier,
) -> Result<PrivateKeyParts<'a>, Error> {
    check_algorithm(&info.algorithm, oid)?;
    let public_key = match &info.public_key {
        Some(bits) => Some(bits.as_bytes().ok_or(Error::Der)?),
        None => None,
    };
    Ok(PrivateKeyParts {
        private_key: info.private_key.as_bytes(),
        public_key,
    })
}

/// Decodes a DER OneAsymmetricKey / PrivateKeyInfo (RFC 5958 §2) of `oid`.
///
/// # Errors
/// [`Error::Der`] (malformed or trailing DER), [`Error::Algorithm`].
pub fn decode_private_key(der: &[u8], oid: ObjectIdentifier) -> Result<PrivateKeyParts<'_>, Error> {
    let info = PrivateKeyInfoRef::from_der(der).map_err(der_err)?;
    private_key_parts(&info, oid)
}

/// Checks a OneAsymmetricKey `publicKey`, if there is one, against the
/// private key's own public key (both public: an ordinary comparison).
///
/// # Errors
/// [`Error::InconsistentKey`].
pub fn check_public_key(included: Option<&[u8]>, own: &[u8]) -> Result<(), Error> {
    match included {
        Some(public) if public != own => Err(Error::InconsistentKey),
        _ => Ok(()),
    }
}

/// Encodes the PrivateKeyInfo `{ version 1, oid, privateKey }` (RFC 5958
/// §2, no public key, no attributes) into `out` (which then holds secrets).
///
/// # Errors
/// [`Error::Length`] if `out` is too short.
pub fn private_key_into<'o>(
    oid: ObjectIdentifier,
    private_key: &[u8],
    out: &'o mut [u8],
) -> Result<&'o [u8], Error> {
    let info = PrivateKeyInfoRef::new(
        algorithm(oid),
        OctetStringRef::new(private_key).map_err(der_err)?,
    );
    encode_into(&info, out)
}

/// [`private_key_into`] as a `der::SecretDocument` (for the
/// `pkcs8::EncodePrivateKey` trait).
///
/// # Errors
/// The `der` crate's encoding error.
#[cfg(feature = "alloc")]
pub fn private_key_document(
    oid: ObjectIdentifier,
    private_key: &[u8],
) -> pkcs8::Result<der::SecretDocument> {
    let info = PrivateKeyInfoRef::new(algorithm(oid), OctetStringRef::new(private_key)?);
    Ok(der::SecretDocument::encode_msg(&info)?)
}

/// The `spki::Error` a `TryFrom<SubjectPublicKeyInfoRef>` impl returns for
/// `algorithm` (an [`Error::Algorithm`]) or any other rejection.
pub fn spki_error(algorithm: bool, oid: ObjectIdentifier) -> spki::Error {
    if algorithm {
        spki::Error::OidUnknown { oid }
    } else {
        spki::Error::KeyMalformed
    }
}

/// The `pkcs8::Error` a `TryFrom<PrivateKeyInfoRef>` impl returns for
/// `algorithm` (an [`Error::Algorithm`]) or any other rejection.
pub fn pkcs8_error(algorithm: bool, oid: ObjectIdentifier) -> pkcs8::Error {
    if algorithm {
        pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid })
    } else {
        pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid)
    }
}

/// Which alternative of the private-key CHOICE of RFC 9935 §6 (ML-KEM) and
/// RFC 9881 §6 (ML-DSA) an encoding uses. [`PrivateKeyForm::Seed`] is the
/// default (both RFCs' RECOMMENDED form).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PrivateKeyForm {
    /// `seed [0] OCTET STRING`: the key-generation seed (64 bytes `d ‖ z`
    /// for ML-KEM, 32 bytes ξ for ML-DSA).
    #[default]
    Seed,
    /// `expandedKey OCTET STRING`: the expanded private key (ML-KEM's
    /// `768k + 96`-byte decapsulation key, ML-DSA's skEncode key).
    ExpandedKey,
    /// `both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING }`.
    Both,
}

/// A decoded RFC 9935 §6 / RFC 9881 §6 private-key CHOICE (secret bytes,
/// borrowed from the input; lengths unchecked).
#[derive(Clone, Copy)]
pub enum PrivateKeyChoice<'a> {
    /// `seed [0]`.
    Seed(&'a [u8]),
    /// `expandedKey`.
    ExpandedKey(&'a [u8]),
    /// `both`.
    Both {
        /// The seed.
        seed: &'a [u8],
        /// The expanded key.
        expanded: &'a [u8],
    },
}

impl core::fmt::Debug for PrivateKeyChoice<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Seed(_) => "PrivateKeyChoice::Seed(..)",
            Self::ExpandedKey(_) => "PrivateKeyChoice::ExpandedKey(..)",
            Self::Both { .. } => "PrivateKeyChoice::Both { .. }",
        })
    }
}

/// The `seed` alternative's tag: `[0]` IMPLICIT, primitive (0x80).
const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

/// Reads exactly one DER value from `bytes` (no trailing data).
fn single_any(bytes: &[u8]) -> Result<AnyRef<'_>, Error> {
    let mut reader = SliceReader::new(bytes).map_err(der_err)?;
    let any = AnyRef::decode(&mut reader).map_err(der_err)?;
    reader.finish().map_err(der_err)?;
    Ok(any)
}

/// Decodes the private-key CHOICE (the `privateKey` OCTET STRING's
/// contents).
///
/// # Errors
/// [`Error::Der`]: malformed or trailing DER, another tag, a constructed
/// `[0]`, a `both` without exactly two OCTET STRINGs.
pub fn decode_choice(bytes: &[u8]) -> Result<PrivateKeyChoice<'_>, Error> {
    let any = single_any(bytes)?;
    match any.header().tag() {
        SEED_TAG => Ok(PrivateKeyChoice::Seed(any.value())),
        Tag::OctetString => Ok(PrivateKeyChoice::ExpandedKey(any.value())),
        Tag::Sequence => {
            let (seed, expanded) = any
                .sequence(|r| {
                    let seed = <&OctetStringRef>::decode(r)?;
                    let expanded = <&OctetStringRef>::decode(r)?;
                    Ok::<_, der::Error>((seed.as_bytes(), expanded.as_bytes()))
                })
                .map_err(der_err)?;
            Ok(PrivateKeyChoice::Both { seed, expanded })
        }
        _ => Err(Error::Der),
    }
}

/// Writes the private-key CHOICE `choice` into `buf` and returns it.
///
/// # Errors
/// [`Error::Der`] if `buf` is too short (size it for the longest form).
pub fn choice_into<'b>(choice: PrivateKeyChoice<'_>, buf: &'b mut [u8]) -> Result<&'b [u8], Error> {
    match choice {
        PrivateKeyChoice::Seed(seed) => {
            let any = AnyRef::new(SEED_TAG, seed).map_err(der_err)?;
            any.encode_to_slice(buf).map_err(der_err)
        }
        PrivateKeyChoice::ExpandedKey(expanded) => octet_string_into(expanded, buf),
        PrivateKeyChoice::Both { seed, expanded } => octet_strings_into(&[seed, expanded], buf),
    }
}

/// The contents of `bytes`, which must be exactly one OCTET STRING.
///
/// # Errors
/// [`Error::Der`].
pub fn decode_octet_string(bytes: &[u8]) -> Result<&[u8], Error> {
    let mut reader = SliceReader::new(bytes).map_err(der_err)?;
    let octets = <&OctetStringRef>::decode(&mut reader).map_err(der_err)?;
    reader.finish().map_err(der_err)?;
    Ok(octets.as_bytes())
}

/// Writes the OCTET STRING of `contents` into `buf` and returns it.
///
/// # Errors
/// [`Error::Der`] if `buf` is too short.
pub fn octet_string_into<'b>(contents: &[u8], buf: &'b mut [u8]) -> Result<&'b [u8], Error> {
    let octets = OctetStringRef::new(contents).map_err(der_err)?;
    octets.encode_to_slice(buf).map_err(der_err)
}

/// The contents of `bytes`, which must be exactly one SEQUENCE of `N`
/// OCTET STRINGs whose lengths are `lens`.
///
/// # Errors
/// [`Error::Der`] (another structure), [`Error::Length`] (a field of the
/// wrong length).
pub fn decode_octet_strings<const N: usize>(
    bytes: &[u8],
    lens: [usize; N],
) -> Result<[&[u8]; N], Error> {
    let any = single_any(bytes)?;
    if any.header().tag() != Tag::Sequence {
        return Err(Error::Der);
    }
    let mut parts: [&[u8]; N] = [&[]; N];
    any.sequence(|r| {
        for part in &mut parts {
            *part = <&OctetStringRef>::decode(r)?.as_bytes();
        }
        Ok::<_, der::Error>(())
    })
    .map_err(der_err)?;
    for (part, len) in parts.iter().zip(lens) {
        check_length(len, part.len())?;
    }
    Ok(parts)
}

/// Writes the SEQUENCE of the OCTET STRINGs of `parts` into `buf`.
///
/// # Errors
/// [`Error::Der`] if `buf` is too short.
pub fn octet_strings_into<'b>(parts: &[&[u8]], buf: &'b mut [u8]) -> Result<&'b [u8], Error> {
    let mut inner = Length::ZERO;
    for part in parts {
        let len = OctetStringRef::new(part)
            .and_then(|o| o.encoded_len())
            .map_err(der_err)?;
        inner = (inner + len).map_err(der_err)?;
    }
    let mut writer = SliceWriter::new(buf);
    writer
        .sequence(inner, |w| {
            for part in parts {
                OctetStringRef::new(part)?.encode(w)?;
            }
            Ok(())
        })
        .map_err(der_err)?;
    writer.finish().map_err(der_err)
}

/// The PEM label of a SubjectPublicKeyInfo (RFC 7468 §13).
#[cfg(feature = "pem")]
pub const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";
/// The PEM label of a OneAsymmetricKey / PrivateKeyInfo (RFC 7468 §10).
#[cfg(feature = "pem")]
pub const PRIVATE_KEY_LABEL: &str = "PRIVATE KEY";

#[cfg(feature = "pem")]
pub use der::pem::LineEnding;

/// The DER inside a PEM document (RFC 7468) whose label must be `label`,
/// in a buffer wiped on drop (it may hold a private key).
///
/// # Errors
/// [`Error::Der`]: not PEM (bad boundaries, bad Base64), another label, or
/// a body that is not one DER element.
#[cfg(feature = "pem")]
pub fn pem_to_der(pem: &str, label: &str) -> Result<der::SecretDocument, Error> {
    let (found, doc) = der::SecretDocument::from_pem(pem).map_err(der_err)?;
    if found == label {
        Ok(doc)
    } else {
        Err(Error::Der)
    }
}

/// The PEM document (RFC 7468) of the DER `der` with `label`.
///
/// # Errors
/// [`Error::Der`] if the encoder fails (an input too long for DER).
#[cfg(feature = "pem")]
pub fn der_to_pem(
    label: &'static str,
    der: &[u8],
    line_ending: LineEnding,
) -> Result<alloc::string::String, Error> {
    der::pem::encode_string(label, line_ending, der).map_err(|_| Error::Der)
}

/// The SubjectPublicKeyInfo `{ oid, key }` as a `PUBLIC KEY` PEM document.
///
/// # Errors
/// [`Error::Der`] if the encoder fails (a key too long for DER).
#[cfg(feature = "pem")]
pub fn spki_pem(
    oid: ObjectIdentifier,
    key: &[u8],
    line_ending: LineEnding,
) -> Result<alloc::string::String, Error> {
    let doc = spki_document(oid, key).map_err(|_| Error::Der)?;
    der_to_pem(PUBLIC_KEY_LABEL, doc.as_bytes(), line_ending)
}

/// The PrivateKeyInfo `{ version 1, oid, privateKey }` as a `PRIVATE KEY`
/// PEM document, in a string wiped on drop.
///
/// # Errors
/// [`Error::Der`] if the encoder fails (a key too long for DER).
#[cfg(feature = "pem")]
pub fn private_key_pem(
    oid: ObjectIdentifier,
    private_key: &[u8],
    line_ending: LineEnding,
) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
    let doc = private_key_document(oid, private_key).map_err(|_| Error::Der)?;
    doc.to_pem(PRIVATE_KEY_LABEL, line_ending)
        .map_err(|_| Error::Der)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests")]
mod tests {
    extern crate std;
    use super::*;

    const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.3.4");

    #[test]
    fn choice_round_trips() {
        let mut buf = [0u8; 64];
        let seed = [1u8; 4];
        let expanded = [2u8; 3];
        let enc = choice_into(PrivateKeyChoice::Seed(&seed), &mut buf).unwrap();
        assert_eq!(enc, [0x80, 4, 1, 1, 1, 1]);
        assert!(matches!(decode_choice(enc), Ok(PrivateKeyChoice::Seed(s)) if s == seed));
        let enc = choice_into(
            PrivateKeyChoice::Both {
                seed: &seed,
                expanded: &expanded,
            },
            &mut buf,
        )
        .unwrap();
        assert_eq!(enc, [0x30, 11, 4, 4, 1, 1, 1, 1, 4, 3, 2, 2, 2]);
        assert!(matches!(
            decode_choice(enc),
            Ok(PrivateKeyChoice::Both { seed: s, expanded: e }) if s == seed && e == expanded
        ));
        assert_eq!(decode_choice(&[0x81, 0]).map(|_| ()), Err(Error::Der));
    }

    #[test]
    fn octet_strings_check_count_and_lengths() {
        let mut buf = [0u8; 64];
        let enc = octet_strings_into(&[&[1, 2], &[3]], &mut buf).unwrap();
        assert_eq!(enc, [0x30, 7, 4, 2, 1, 2, 4, 1, 3]);
        assert_eq!(
            decode_octet_strings(enc, [2, 1]).unwrap(),
            [&[1, 2][..], &[3]]
        );
        assert_eq!(
            decode_octet_strings(enc, [1, 1]),
            Err(Error::Length {
                expected: 1,
                actual: 2
            })
        );
        assert_eq!(decode_octet_strings(enc, [2, 1, 0]), Err(Error::Der));
        assert_eq!(decode_octet_strings(enc, [2]), Err(Error::Der));
        assert_eq!(decode_octet_string(&[4, 1, 9]), Ok(&[9][..]));
        assert_eq!(decode_octet_string(&[4, 1, 9, 0]), Err(Error::Der));
    }

    #[test]
    fn envelopes_check_the_algorithm() {
        let mut buf = [0u8; 64];
        let spki = spki_into(OID, &[7, 7], &mut buf).unwrap().to_vec();
        assert_eq!(decode_spki(&spki, OID), Ok(&[7, 7][..]));
        let other = ObjectIdentifier::new_unwrap("1.2.3.5");
        assert_eq!(decode_spki(&spki, other), Err(Error::Algorithm));
        let pkcs8 = private_key_into(OID, &[4, 0], &mut buf).unwrap().to_vec();
        let parts = decode_private_key(&pkcs8, OID).unwrap();
        assert_eq!(parts.private_key, [4, 0]);
        assert!(parts.public_key.is_none());
        assert_eq!(
            decode_private_key(&pkcs8, other).map(|_| ()),
            Err(Error::Algorithm)
        );
        let mut short = [0u8; 4];
        assert!(matches!(
            private_key_into(OID, &[4, 0], &mut short),
            Err(Error::Length { .. })
        ));
        assert_eq!(
            check_public_key(Some(&[1]), &[2]),
            Err(Error::InconsistentKey)
        );
        assert_eq!(check_public_key(None, &[2]), Ok(()));
    }

    #[cfg(feature = "pem")]
    #[test]
    fn pem_checks_the_label_and_round_trips() {
        let pem = spki_pem(OID, &[7, 7], LineEnding::LF).unwrap();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        let der = pem_to_der(&pem, PUBLIC_KEY_LABEL).unwrap();
        assert_eq!(decode_spki(der.as_bytes(), OID), Ok(&[7, 7][..]));
        assert_eq!(
            pem_to_der(&pem, PRIVATE_KEY_LABEL).map(|_| ()),
            Err(Error::Der)
        );
        assert_eq!(
            pem_to_der("not pem", PUBLIC_KEY_LABEL).map(|_| ()),
            Err(Error::Der)
        );
        let pem = private_key_pem(OID, &[4, 0], LineEnding::CRLF).unwrap();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\r\n"));
        let der = pem_to_der(&pem, PRIVATE_KEY_LABEL).unwrap();
        assert_eq!(
            decode_private_key(der.as_bytes(), OID).unwrap().private_key,
            [4, 0]
        );
    }
}
