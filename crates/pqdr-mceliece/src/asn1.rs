//! PKCS#8 private keys and SubjectPublicKeyInfo public keys as BouncyCastle
//! 1.87 writes them for its `CMCE` keys (feature `pkcs8`; see the README,
//! "PKCS#8 and SubjectPublicKeyInfo", for the table and sources). The DER
//! envelopes come from `pqdr_common::asn1` (the RustCrypto `der`, `spki`
//! and `pkcs8` crates), into caller buffers.
//!
//! - OIDs: `id-kem-cm` = `1.0.18033.2.2.6` (ISO/IEC 18033-2 AMD 2), arcs 1
//!   to 16 for `mceliece460896` … `mceliece8192128pcf` (BouncyCastle
//!   `ISOIECObjectIdentifiers`). The `mceliece348864*` sets have no OID
//!   there (BouncyCastle 1.87 does not implement them): encoding or
//!   decoding them is [`Error::Algorithm`].
//! - SubjectPublicKeyInfo: the BIT STRING holds the raw public key T
//!   (Classic McEliece spec §3.1).
//! - PKCS#8: the `privateKey` OCTET STRING holds an OCTET STRING of the raw
//!   secret key `delta ‖ c ‖ g ‖ alpha (control bits) ‖ s` (spec §3.3, the
//!   reference layout; no embedded public key).
//!
//! The public key is never put on the stack: it is decoded as a slice of
//! the input and encoded from the caller's buffer. Secrets are copied only
//! into [`Zeroizing`] buffers or the key itself; the regeneration check of
//! [`DecapsulationKey::from_private_key_der_into`] compares in constant
//! time.

use der::asn1::ObjectIdentifier;
use pkcs8::PrivateKeyInfoRef;
use pqdr_common::asn1::{self as common, PrivateKeyParts};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::error::Error;
use crate::kem;
use crate::params::{Buf, MAX_M, MAX_N_BYTES, MAX_T, ParameterSet};
use crate::types::{DecapsulationKey, validate_encapsulation_key};

/// The `id-kem-cm` OIDs (ISO/IEC 18033-2 AMD 2, BouncyCastle 1.87
/// `ISOIECObjectIdentifiers.mcelieceXXX`), in arc order 1 to 16.
const OIDS: [(&str, ObjectIdentifier); 16] = [
    (
        "mceliece460896",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.1"),
    ),
    (
        "mceliece460896f",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.2"),
    ),
    (
        "mceliece460896pc",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.3"),
    ),
    (
        "mceliece460896pcf",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.4"),
    ),
    (
        "mceliece6688128",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.5"),
    ),
    (
        "mceliece6688128f",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.6"),
    ),
    (
        "mceliece6688128pc",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.7"),
    ),
    (
        "mceliece6688128pcf",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.8"),
    ),
    (
        "mceliece6960119",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.9"),
    ),
    (
        "mceliece6960119f",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.10"),
    ),
    (
        "mceliece6960119pc",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.11"),
    ),
    (
        "mceliece6960119pcf",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.12"),
    ),
    (
        "mceliece8192128",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.13"),
    ),
    (
        "mceliece8192128f",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.14"),
    ),
    (
        "mceliece8192128pc",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.15"),
    ),
    (
        "mceliece8192128pcf",
        ObjectIdentifier::new_unwrap("1.0.18033.2.2.6.16"),
    ),
];

/// The `id-kem-cm` OID of the parameter set `P` (BouncyCastle 1.87), or
/// `None` for the `mceliece348864*` sets, which have none.
pub fn algorithm_oid<P: ParameterSet>() -> Option<ObjectIdentifier> {
    OIDS.iter()
        .find(|(name, _)| *name == P::NAME)
        .map(|(_, oid)| *oid)
}

/// [`algorithm_oid`], or [`Error::Algorithm`].
fn oid<P: ParameterSet>() -> Result<ObjectIdentifier, Error> {
    algorithm_oid::<P>().ok_or(Error::Algorithm)
}

/// The longest secret key (8192128: 40 + 2t + control bits + n/8) in its
/// OCTET STRING (header 4 bytes).
const MAX_WRAPPED_SK: usize = 4 + 40 + 2 * MAX_T + ((2 * MAX_M - 1) << (MAX_M - 4)) + MAX_N_BYTES;

/// `OCTET STRING (sk)` of `dk` into `buf`.
fn wrapped_sk<'b, P: ParameterSet>(
    dk: &DecapsulationKey<P>,
    buf: &'b mut [u8; MAX_WRAPPED_SK],
) -> Result<&'b [u8], Error> {
    Ok(common::octet_string_into(dk.as_bytes().as_ref(), buf)?)
}

/// The public key in a DER SubjectPublicKeyInfo of `P` (BouncyCastle 1.87's
/// form), as a slice of `der` (never copied): the set's OID, no
/// parameters, a BIT STRING of exactly the public key, which passes
/// [`validate_encapsulation_key`].
///
/// # Errors
/// [`Error::Der`] (malformed or trailing DER, unused bits),
/// [`Error::Algorithm`] (another OID, parameters, or a set without an
/// OID), [`Error::Length`] / [`Error::InvalidKey`] (the key itself).
pub fn public_key_from_spki_der<P: ParameterSet>(der: &[u8]) -> Result<&[u8], Error> {
    let pk = common::decode_spki(der, oid::<P>()?)?;
    validate_encapsulation_key::<P>(pk)?;
    Ok(pk)
}

/// Encodes the public key `pk` (in a caller buffer) as a DER
/// SubjectPublicKeyInfo of `P` (BouncyCastle 1.87's form) into `out`, and
/// returns the encoding (a prefix of `out`; the public key plus 23 bytes).
///
/// # Errors
/// [`Error::Algorithm`] for a set without an OID, [`Error::Length`] if
/// `out` is too short.
pub fn public_key_to_spki_der<'o, P: ParameterSet>(
    pk: &P::PkBytes,
    out: &'o mut [u8],
) -> Result<&'o [u8], Error> {
    common::spki_into(oid::<P>()?, pk.as_ref(), out).map_err(Error::output)
}

/// The secret key inside a OneAsymmetricKey, format-checked.
fn dk_from_parts<P: ParameterSet>(
    parts: &PrivateKeyParts<'_>,
) -> Result<DecapsulationKey<P>, Error> {
    DecapsulationKey::from_slice(common::decode_octet_string(parts.private_key)?)
}

/// Runs `SeededKeyGen` from the key's stored delta (Classic McEliece spec
/// §7.1 / ref `crypto_kem_keypair`: the stored delta is the one whose
/// attempt succeeded, so it regenerates the same key at once) into `pk`,
/// and checks that it gives back the same secret key (constant time: only
/// the verdict is revealed) and, if given, the same public key.
fn check_regenerates<P: ParameterSet>(
    dk: &DecapsulationKey<P>,
    included: Option<&[u8]>,
    pk: &mut P::PkBytes,
) -> Result<(), Error> {
    let sk = dk.as_bytes().as_ref();
    let mut delta = Zeroizing::new([0u8; 32]);
    delta.copy_from_slice(&sk[..32]);
    let mut again = Zeroizing::new(P::SkBytes::zeroed());
    kem::keypair::<P>(pk.as_mut(), AsMut::<[u8]>::as_mut(&mut *again), &delta);
    let mut same = AsRef::<[u8]>::as_ref(&*again).ct_eq(sk).unwrap_u8();
    // The verdict is public (the key is accepted or refused).
    pqdr_ctgrind::hook::declassify(&mut same);
    if same != 1 {
        return Err(Error::InconsistentKey);
    }
    Ok(common::check_public_key(included, pk.as_ref())?)
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// Decodes a DER PKCS#8 OneAsymmetricKey as BouncyCastle 1.87 writes
    /// it (the set's OID, an OCTET STRING of the raw secret key), with the
    /// secret key's format checks ([`Self::from_slice`]). A version-2
    /// `publicKey`, which BouncyCastle does not write, is checked as in
    /// [`Self::from_private_key_der_into`] (a key generation; with `alloc`,
    /// in a heap buffer).
    ///
    /// # Errors
    /// [`Error::Der`], [`Error::Algorithm`] (another OID, or a set without
    /// one), [`Error::Length`] / [`Error::InvalidKey`] (the secret key),
    /// [`Error::InconsistentKey`] (a `publicKey` that is not the key's);
    /// without `alloc`, [`Error::Unverifiable`] for a key with a `publicKey`.
    pub fn from_private_key_der(der: &[u8]) -> Result<Self, Error> {
        let parts = common::decode_private_key(der, oid::<P>()?)?;
        dk_with_public_check(&parts)
    }

    /// Decodes a DER PKCS#8 OneAsymmetricKey as [`Self::from_private_key_der`]
    /// does, then regenerates the key pair from the secret key's delta
    /// (Classic McEliece spec §7.1 `SeededKeyGen`) into `pk`: the secret key
    /// must come out the same (compared in constant time), and so must an
    /// included `publicKey`. On success `pk` holds the matching public key
    /// (which BouncyCastle's private-key files do not carry). Costs one key
    /// generation.
    ///
    /// # Errors
    /// As [`Self::from_private_key_der`]; [`Error::InconsistentKey`] if the
    /// key does not regenerate from its delta.
    pub fn from_private_key_der_into(der: &[u8], pk: &mut P::PkBytes) -> Result<Self, Error> {
        let parts = common::decode_private_key(der, oid::<P>()?)?;
        let dk = dk_from_parts::<P>(&parts)?;
        check_regenerates(&dk, parts.public_key, pk)?;
        Ok(dk)
    }

    /// Encodes the key as a DER PKCS#8 PrivateKeyInfo (version 1, no public
    /// key; BouncyCastle 1.87's form) into `out`, and returns the encoding
    /// (a prefix of `out`, which then holds secrets; the secret key plus 27
    /// bytes).
    ///
    /// # Errors
    /// [`Error::Algorithm`] for a set without an OID, [`Error::Length`] if
    /// `out` is too short.
    pub fn to_private_key_der<'o>(&self, out: &'o mut [u8]) -> Result<&'o [u8], Error> {
        let mut buf = Zeroizing::new([0u8; MAX_WRAPPED_SK]);
        let private = wrapped_sk(self, &mut buf)?;
        common::private_key_into(oid::<P>()?, private, out).map_err(Error::output)
    }
}

/// The key of a OneAsymmetricKey; a `publicKey` is checked by regenerating
/// the pair (heap buffer), or refused without `alloc`.
fn dk_with_public_check<P: ParameterSet>(
    parts: &PrivateKeyParts<'_>,
) -> Result<DecapsulationKey<P>, Error> {
    let dk = dk_from_parts::<P>(parts)?;
    if parts.public_key.is_some() {
        #[cfg(feature = "alloc")]
        check_regenerates(&dk, parts.public_key, &mut P::PkBytes::boxed_zeroed())?;
        #[cfg(not(feature = "alloc"))]
        return Err(Error::Unverifiable);
    }
    Ok(dk)
}

impl<P: ParameterSet> TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey<P> {
    type Error = pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> Result<Self, pkcs8::Error> {
        oid::<P>()
            .and_then(|oid| Ok(common::private_key_parts(&info, oid)?))
            .and_then(|parts| dk_with_public_check(&parts))
            .map_err(|e| common::pkcs8_error(e == Error::Algorithm, info.algorithm.oid))
    }
}

#[cfg(feature = "alloc")]
mod owned {
    //! The owned public key's encodings and the RustCrypto traits (`alloc`).

    use super::{Error, ParameterSet, common, oid, public_key_from_spki_der, wrapped_sk};
    use crate::types::{DecapsulationKey, EncapsulationKey};
    use spki::SubjectPublicKeyInfoRef;
    use zeroize::Zeroizing;
    #[cfg(feature = "pem")]
    use {alloc::string::String, pkcs8::LineEnding};

    impl<P: ParameterSet> EncapsulationKey<P> {
        /// Decodes a DER SubjectPublicKeyInfo as BouncyCastle 1.87 writes it
        /// (see [`public_key_from_spki_der`]) into a heap key.
        ///
        /// # Errors
        /// As [`public_key_from_spki_der`].
        pub fn from_spki_der(der: &[u8]) -> Result<Self, Error> {
            Self::from_slice(public_key_from_spki_der::<P>(der)?)
        }

        /// Encodes the key as a DER SubjectPublicKeyInfo (BouncyCastle
        /// 1.87's form) into `out` and returns the encoding.
        ///
        /// # Errors
        /// [`Error::Algorithm`] for a set without an OID, [`Error::Length`]
        /// if `out` is too short.
        pub fn to_spki_der<'o>(&self, out: &'o mut [u8]) -> Result<&'o [u8], Error> {
            super::public_key_to_spki_der::<P>(self.as_bytes(), out)
        }
    }

    #[cfg(feature = "pem")]
    impl<P: ParameterSet> EncapsulationKey<P> {
        /// Decodes a `PUBLIC KEY` PEM document (RFC 7468 §13) holding the
        /// SubjectPublicKeyInfo of [`Self::from_spki_der`]. Unlike
        /// `spki::DecodePublicKey::from_public_key_pem`, it keeps this
        /// crate's typed [`Error`].
        ///
        /// ```no_run
        /// use pqdr_mceliece::{mceliece460896, pkcs8::LineEnding};
        ///
        /// let (dk, ek) = mceliece460896::generate_deterministic(&[1; 32]);
        /// let pem = ek.to_spki_pem(LineEnding::LF)?;
        /// assert!(mceliece460896::EncapsulationKey::from_spki_pem(&pem)? == ek);
        /// let pem = dk.to_private_key_pem(LineEnding::LF)?;
        /// assert!(mceliece460896::DecapsulationKey::from_private_key_pem(&pem)? == dk);
        /// # Ok::<(), pqdr_mceliece::Error>(())
        /// ```
        ///
        /// # Errors
        /// [`Error::Der`] (not PEM, a label other than `PUBLIC KEY`), then
        /// as [`Self::from_spki_der`].
        pub fn from_spki_pem(pem: &str) -> Result<Self, Error> {
            Self::from_spki_der(common::pem_to_der(pem, common::PUBLIC_KEY_LABEL)?.as_bytes())
        }

        /// Encodes the key as a `PUBLIC KEY` PEM document (RFC 7468 §13)
        /// of the SubjectPublicKeyInfo of [`Self::to_spki_der`].
        ///
        /// # Errors
        /// [`Error::Algorithm`] for a set without an OID.
        pub fn to_spki_pem(&self, line_ending: LineEnding) -> Result<String, Error> {
            Ok(common::spki_pem(
                oid::<P>()?,
                self.as_bytes().as_ref(),
                line_ending,
            )?)
        }
    }

    #[cfg(feature = "pem")]
    impl<P: ParameterSet> DecapsulationKey<P> {
        /// Decodes a `PRIVATE KEY` PEM document (RFC 7468 §10) holding the
        /// OneAsymmetricKey of [`Self::from_private_key_der`] (example at
        /// [`EncapsulationKey::from_spki_pem`]). Unlike
        /// `pkcs8::DecodePrivateKey::from_pkcs8_pem`, it keeps this crate's
        /// typed [`Error`]. The decoded DER is wiped on drop.
        ///
        /// # Errors
        /// [`Error::Der`] (not PEM, a label other than `PRIVATE KEY`), then
        /// as [`Self::from_private_key_der`].
        pub fn from_private_key_pem(pem: &str) -> Result<Self, Error> {
            Self::from_private_key_der(
                common::pem_to_der(pem, common::PRIVATE_KEY_LABEL)?.as_bytes(),
            )
        }

        /// Encodes the key as a `PRIVATE KEY` PEM document (RFC 7468 §10)
        /// of the PrivateKeyInfo of [`Self::to_private_key_der`], in a
        /// string wiped on drop.
        ///
        /// # Errors
        /// [`Error::Algorithm`] for a set without an OID.
        pub fn to_private_key_pem(
            &self,
            line_ending: LineEnding,
        ) -> Result<Zeroizing<String>, Error> {
            let oid = oid::<P>()?;
            let mut buf = Zeroizing::new([0u8; super::MAX_WRAPPED_SK]);
            let private = wrapped_sk(self, &mut buf)?;
            Ok(common::private_key_pem(oid, private, line_ending)?)
        }
    }

    impl<P: ParameterSet> TryFrom<SubjectPublicKeyInfoRef<'_>> for EncapsulationKey<P> {
        type Error = spki::Error;

        fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
            oid::<P>()
                .and_then(|oid| Ok(common::spki_key(&spki, oid)?))
                .and_then(Self::from_slice)
                .map_err(|e| common::spki_error(e == Error::Algorithm, spki.algorithm.oid))
        }
    }

    impl<P: ParameterSet> spki::EncodePublicKey for EncapsulationKey<P> {
        fn to_public_key_der(&self) -> spki::Result<der::Document> {
            let oid = oid::<P>().map_err(|_| spki::Error::KeyMalformed)?;
            common::spki_document(oid, self.as_bytes().as_ref())
        }
    }

    impl<P: ParameterSet> pkcs8::EncodePrivateKey for DecapsulationKey<P> {
        fn to_pkcs8_der(&self) -> pkcs8::Result<der::SecretDocument> {
            let invalid = pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid);
            let oid = oid::<P>().map_err(|_| invalid)?;
            let mut buf = Zeroizing::new([0u8; super::MAX_WRAPPED_SK]);
            let private = wrapped_sk(self, &mut buf).map_err(|_| invalid)?;
            common::private_key_document(oid, private)
        }
    }
}
