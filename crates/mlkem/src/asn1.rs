//! PKCS#8 private keys and SubjectPublicKeyInfo public keys (RFC 9935),
//! feature `pkcs8`: the DER is read and written by the RustCrypto `der`,
//! `spki` and `pkcs8` crates, into caller buffers (no heap). With `alloc`,
//! the `pkcs8` crate's `EncodePrivateKey` / `EncodePublicKey` traits too;
//! `DecodePrivateKey` / `DecodePublicKey` come from the `TryFrom` impls.
//!
//! Secrets: the seed and expanded key are copied only into [`Zeroizing`]
//! buffers; branches depend on lengths and tags (public), never on key bytes.

use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier, OctetStringRef};
use der::{Decode, Encode, Length, Reader, SliceReader, SliceWriter, Tag, TagNumber};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::error::{Error, check_length};
use crate::params::{ByteArray, MAX_K, ParameterSet, dk_size};
use crate::types::{DecapsulationKey, EncapsulationKey, SEED_SIZE};

/// RFC 9935 §3: `id-alg-ml-kem-512 ::= { nistAlgorithms 4 1 }`.
pub const ML_KEM_512_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.4.1");
/// RFC 9935 §3: `id-alg-ml-kem-768 ::= { nistAlgorithms 4 2 }`.
pub const ML_KEM_768_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.4.2");
/// RFC 9935 §3: `id-alg-ml-kem-1024 ::= { nistAlgorithms 4 3 }`.
pub const ML_KEM_1024_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.4.3");

/// The RFC 9935 §3 OID of the parameter set `P` (chosen by its rank `k`).
pub fn algorithm_oid<P: ParameterSet>() -> ObjectIdentifier {
    match P::K {
        2 => ML_KEM_512_OID,
        3 => ML_KEM_768_OID,
        _ => ML_KEM_1024_OID,
    }
}

/// Which alternative of the RFC 9935 §6 `ML-KEM-xxx-PrivateKey` CHOICE an
/// encoding uses. [`PrivateKeyForm::Seed`] is the default (the RFC's
/// RECOMMENDED form).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PrivateKeyForm {
    /// `seed [0] OCTET STRING (SIZE (64))`: `d ‖ z`.
    #[default]
    Seed,
    /// `expandedKey OCTET STRING`: the `768k + 96`-byte decapsulation key.
    ExpandedKey,
    /// `both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING }`.
    Both,
}

/// The `seed` alternative's tag: `[0]` IMPLICIT, primitive (RFC 9935 §6, 0x80).
const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

/// The longest CHOICE encoding (`both` of ML-KEM-1024): SEQUENCE header (4),
/// seed OCTET STRING (2 + 64), expandedKey OCTET STRING (4 + 3168).
const MAX_CHOICE_LEN: usize = 4 + 2 + SEED_SIZE + 4 + dk_size(MAX_K);

/// Any `der` failure while reading is a malformed input.
#[allow(clippy::needless_pass_by_value, reason = "used as map_err(der_err)")]
fn der_err(_: der::Error) -> Error {
    Error::Der
}

/// `usize` of a DER length (lengths here are far below `u32::MAX`).
fn len_usize(len: Length) -> Result<usize, Error> {
    usize::try_from(len).map_err(der_err)
}

/// RFC 9935 §3: the OID must be `P`'s and the parameters absent.
fn check_algorithm<P: ParameterSet>(alg: &AlgorithmIdentifierRef<'_>) -> Result<(), Error> {
    if alg.oid == algorithm_oid::<P>() && alg.parameters.is_none() {
        Ok(())
    } else {
        Err(Error::Algorithm)
    }
}

/// The RFC 9935 §3 AlgorithmIdentifier of `P` (parameters absent).
fn algorithm<P: ParameterSet>() -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid: algorithm_oid::<P>(),
        parameters: None,
    }
}

/// Encodes `msg` into `out`, whose length must be at least `msg`'s DER length.
fn encode_into<'o, T: Encode>(msg: &T, out: &'o mut [u8]) -> Result<&'o [u8], Error> {
    let needed = len_usize(msg.encoded_len().map_err(der_err)?)?;
    if out.len() < needed {
        return Err(Error::Length {
            expected: needed,
            actual: out.len(),
        });
    }
    msg.encode_to_slice(out).map_err(der_err)
}

/// Decodes a SubjectPublicKeyInfo (RFC 9935 §4) into an encapsulation key.
fn ek_from_spki<P: ParameterSet>(
    spki: &SubjectPublicKeyInfoRef<'_>,
) -> Result<EncapsulationKey<P>, Error> {
    check_algorithm::<P>(&spki.algorithm)?;
    let bytes = spki.subject_public_key.as_bytes().ok_or(Error::Der)?;
    EncapsulationKey::from_bytes(bytes)
}

/// Decodes the RFC 9935 §6 private-key CHOICE.
fn dk_from_choice<P: ParameterSet>(choice: &[u8]) -> Result<DecapsulationKey<P>, Error> {
    let mut reader = SliceReader::new(choice).map_err(der_err)?;
    let any = AnyRef::decode(&mut reader).map_err(der_err)?;
    reader.finish().map_err(der_err)?;
    match any.header().tag() {
        SEED_TAG => dk_from_seed(any.value()),
        Tag::OctetString => DecapsulationKey::from_bytes(any.value()),
        Tag::Sequence => {
            let (seed, expanded) = any
                .sequence(|r| {
                    let seed = <&OctetStringRef>::decode(r)?;
                    let expanded = <&OctetStringRef>::decode(r)?;
                    Ok::<_, der::Error>((seed.as_bytes(), expanded.as_bytes()))
                })
                .map_err(der_err)?;
            check_length(P::DecapsulationKeyBytes::LEN, expanded.len())?;
            let dk = dk_from_seed::<P>(seed)?;
            // RFC 9935 §8: the expanded key must be the one the seed
            // generates. Only the verdict is revealed, not where they differ.
            let mut same = dk.as_bytes().as_ref().ct_eq(expanded).unwrap_u8();
            // The verdict is public (the key is accepted or refused).
            pqdr_ct::hook::declassify(&mut same);
            if same == 1 {
                Ok(dk)
            } else {
                Err(Error::InconsistentKey)
            }
        }
        _ => Err(Error::Der),
    }
}

/// The key generated from a 64-byte seed slice, copied through a
/// zeroizing buffer.
fn dk_from_seed<P: ParameterSet>(seed: &[u8]) -> Result<DecapsulationKey<P>, Error> {
    check_length(SEED_SIZE, seed.len())?;
    let mut buf = Zeroizing::new([0u8; SEED_SIZE]);
    buf.copy_from_slice(seed);
    Ok(DecapsulationKey::from_seed(&buf))
}

/// Decodes a OneAsymmetricKey / PrivateKeyInfo (RFC 9935 §6, RFC 5958).
fn dk_from_info<P: ParameterSet>(
    info: &PrivateKeyInfoRef<'_>,
) -> Result<DecapsulationKey<P>, Error> {
    check_algorithm::<P>(&info.algorithm)?;
    let dk = dk_from_choice::<P>(info.private_key.as_bytes())?;
    if let Some(public) = &info.public_key {
        // RFC 9935 §6: an included publicKey must be the key's own.
        let public = public.as_bytes().ok_or(Error::Der)?;
        let own = dk.encapsulation_key().as_bytes().as_ref();
        if public != own {
            return Err(Error::InconsistentKey);
        }
    }
    Ok(dk)
}

/// Writes the RFC 9935 §6 CHOICE of `dk` in `form` into `buf`.
fn choice_into<'b, P: ParameterSet>(
    dk: &DecapsulationKey<P>,
    form: PrivateKeyForm,
    buf: &'b mut [u8],
) -> Result<&'b [u8], Error> {
    let expanded = dk.as_bytes().as_ref();
    if form == PrivateKeyForm::ExpandedKey {
        let octets = OctetStringRef::new(expanded).map_err(der_err)?;
        return octets.encode_to_slice(buf).map_err(der_err);
    }
    let seed = dk.to_seed().ok_or(Error::NoSeed)?;
    if form == PrivateKeyForm::Seed {
        let any = AnyRef::new(SEED_TAG, seed.as_ref()).map_err(der_err)?;
        return any.encode_to_slice(buf).map_err(der_err);
    }
    let seed = OctetStringRef::new(seed.as_ref()).map_err(der_err)?;
    let expanded = OctetStringRef::new(expanded).map_err(der_err)?;
    let inner = (seed.encoded_len().map_err(der_err)? + expanded.encoded_len().map_err(der_err)?)
        .map_err(der_err)?;
    let mut writer = SliceWriter::new(buf);
    writer
        .sequence(inner, |w| {
            seed.encode(w)?;
            expanded.encode(w)
        })
        .map_err(der_err)?;
    writer.finish().map_err(der_err)
}

impl<P: ParameterSet> EncapsulationKey<P> {
    /// Decodes a DER SubjectPublicKeyInfo (RFC 9935 §4): this set's OID,
    /// no parameters, and the `384k + 32`-byte key in the BIT STRING, which
    /// must pass the FIPS 203 §7.2 modulus check.
    ///
    /// # Errors
    /// [`Error::Der`] (malformed or trailing DER), [`Error::Algorithm`]
    /// (another OID, or parameters), [`Error::Length`] / [`Error::InvalidKey`]
    /// (the key itself).
    pub fn from_spki_der(der: &[u8]) -> Result<Self, Error> {
        let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(der_err)?;
        ek_from_spki(&spki)
    }

    /// Encodes the key as a DER SubjectPublicKeyInfo (RFC 9935 §4) into
    /// `out` and returns the encoding (a prefix of `out`).
    ///
    /// # Errors
    /// [`Error::Length`] if `out` is shorter than the encoding.
    pub fn to_spki_der<'o>(&self, out: &'o mut [u8]) -> Result<&'o [u8], Error> {
        let spki = SubjectPublicKeyInfoRef {
            algorithm: algorithm::<P>(),
            subject_public_key: BitStringRef::from_bytes(self.as_bytes().as_ref())
                .map_err(der_err)?,
        };
        encode_into(&spki, out)
    }
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// Decodes a DER PKCS#8 OneAsymmetricKey (RFC 9935 §6, RFC 5958) with
    /// any of the three private-key forms. `seed` regenerates the key;
    /// `expandedKey` passes the FIPS 203 §7.3 checks; `both` must have the
    /// expanded key its seed generates; an included `publicKey` must be the
    /// key's own.
    ///
    /// # Errors
    /// [`Error::Der`] (malformed, truncated or trailing DER, an unknown
    /// CHOICE alternative), [`Error::Algorithm`], [`Error::Length`] (a seed
    /// or key of the wrong size), [`Error::InvalidKey`] (an expanded key
    /// failing FIPS 203 §7.3), [`Error::InconsistentKey`].
    ///
    /// # Panics
    /// With the feature `self-test`, as [`Self::from_seed`] (a fault only).
    pub fn from_private_key_der(der: &[u8]) -> Result<Self, Error> {
        let info = PrivateKeyInfoRef::from_der(der).map_err(der_err)?;
        dk_from_info(&info)
    }

    /// Encodes the key as a DER PKCS#8 PrivateKeyInfo (RFC 9935 §6, version
    /// 1, no public key) with the private key in `form` into `out`, and
    /// returns the encoding (a prefix of `out`, which then holds secrets).
    ///
    /// # Errors
    /// [`Error::NoSeed`] for the `seed` / `both` forms of a key loaded from
    /// the expanded form; [`Error::Length`] if `out` is too short.
    pub fn to_private_key_der<'o>(
        &self,
        form: PrivateKeyForm,
        out: &'o mut [u8],
    ) -> Result<&'o [u8], Error> {
        let mut buf = Zeroizing::new([0u8; MAX_CHOICE_LEN]);
        let choice = choice_into(self, form, buf.as_mut())?;
        let info = PrivateKeyInfoRef::new(
            algorithm::<P>(),
            OctetStringRef::new(choice).map_err(der_err)?,
        );
        encode_into(&info, out)
    }
}

impl<P: ParameterSet> TryFrom<SubjectPublicKeyInfoRef<'_>> for EncapsulationKey<P> {
    type Error = spki::Error;

    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        ek_from_spki(&spki).map_err(|e| match e {
            Error::Algorithm => spki::Error::OidUnknown {
                oid: spki.algorithm.oid,
            },
            _ => spki::Error::KeyMalformed,
        })
    }
}

impl<P: ParameterSet> TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey<P> {
    type Error = pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> Result<Self, pkcs8::Error> {
        dk_from_info(&info).map_err(|e| match e {
            Error::Algorithm => pkcs8::Error::PublicKey(spki::Error::OidUnknown {
                oid: info.algorithm.oid,
            }),
            _ => pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid),
        })
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> spki::EncodePublicKey for EncapsulationKey<P> {
    fn to_public_key_der(&self) -> spki::Result<der::Document> {
        let spki = SubjectPublicKeyInfoRef {
            algorithm: algorithm::<P>(),
            subject_public_key: BitStringRef::from_bytes(self.as_bytes().as_ref())?,
        };
        Ok(der::Document::encode_msg(&spki)?)
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> pkcs8::EncodePrivateKey for DecapsulationKey<P> {
    /// The seed form (RFC 9935 §6, RECOMMENDED), or the expanded form for a
    /// key loaded without its seed.
    fn to_pkcs8_der(&self) -> pkcs8::Result<der::SecretDocument> {
        let form = if self.to_seed().is_some() {
            PrivateKeyForm::Seed
        } else {
            PrivateKeyForm::ExpandedKey
        };
        let mut buf = Zeroizing::new([0u8; MAX_CHOICE_LEN]);
        let choice = choice_into(self, form, buf.as_mut())
            .map_err(|_| pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))?;
        let info = PrivateKeyInfoRef::new(algorithm::<P>(), OctetStringRef::new(choice)?);
        Ok(der::SecretDocument::encode_msg(&info)?)
    }
}
