//! PKCS#8 private keys and SubjectPublicKeyInfo public keys as BouncyCastle
//! 1.87 writes them for its `SNTRUPrime` keys (feature `pkcs8`; see the
//! README, "PKCS#8 and SubjectPublicKeyInfo", for the table and sources).
//! The DER envelopes come from `pqdr_common::asn1` (the RustCrypto `der`,
//! `spki` and `pkcs8` crates), into caller buffers (no heap).
//!
//! - OIDs: `1.3.6.1.4.1.22554.5.7.2.{1..6}` (BouncyCastle
//!   `BCObjectIdentifiers.sntrup653` … `sntrup1277`).
//! - SubjectPublicKeyInfo: the BIT STRING holds an OCTET STRING of the
//!   reference `pk` (`Rq_encode(h)`, NTRU Prime spec §3.1).
//! - PKCS#8: the `privateKey` OCTET STRING holds
//!   `SEQUENCE { f, ginv, pk, rho, hash }` of five OCTET STRINGs
//!   (BouncyCastle `SNTRUPrimePrivateKey`), the five fields of the reference
//!   `sk` in order: `Small_encode(f)`, `Small_encode(1/g)`, `pk`, `rho`,
//!   `Hash4(pk)` (NTRU Prime spec §3.1, the secret-key encoding).
//!
//! Secrets: the key fields are joined only in a [`Zeroizing`] buffer and
//! checked by [`DecapsulationKey::from_slice`]; branches depend on lengths
//! and tags (public), never on key bytes.

use der::asn1::ObjectIdentifier;
use pqdr_common::asn1::{self as common, PrivateKeyParts};
use zeroize::Zeroizing;
#[cfg(feature = "pem")]
extern crate alloc;

use crate::encode::small_bytes;
use crate::error::Error;
use crate::kem::HASH_BYTES;
use crate::params::{ByteArray, MAX_P, MAX_Q, ParameterSet, pk_bytes, sk_bytes};
use crate::types::{DecapsulationKey, EncapsulationKey};

/// `sntrup653`: BouncyCastle `BCObjectIdentifiers.sntrup653`.
pub const SNTRUP653_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.4.1.22554.5.7.2.1");
/// `sntrup761`: BouncyCastle `BCObjectIdentifiers.sntrup761`.
pub const SNTRUP761_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.4.1.22554.5.7.2.2");
/// `sntrup857`: BouncyCastle `BCObjectIdentifiers.sntrup857`.
pub const SNTRUP857_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.4.1.22554.5.7.2.3");
/// `sntrup953`: BouncyCastle `BCObjectIdentifiers.sntrup953`.
pub const SNTRUP953_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.4.1.22554.5.7.2.4");
/// `sntrup1013`: BouncyCastle `BCObjectIdentifiers.sntrup1013`.
pub const SNTRUP1013_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.4.1.22554.5.7.2.5");
/// `sntrup1277`: BouncyCastle `BCObjectIdentifiers.sntrup1277`.
pub const SNTRUP1277_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.4.1.22554.5.7.2.6");

/// The BouncyCastle OID of the parameter set `S` (chosen by its degree p).
pub fn algorithm_oid<S: ParameterSet>() -> ObjectIdentifier {
    match S::P {
        653 => SNTRUP653_OID,
        761 => SNTRUP761_OID,
        857 => SNTRUP857_OID,
        953 => SNTRUP953_OID,
        1013 => SNTRUP1013_OID,
        _ => SNTRUP1277_OID,
    }
}

/// The public key wrapped in its OCTET STRING (header 4 bytes at most).
const MAX_WRAPPED_PK: usize = 4 + pk_bytes(MAX_P, MAX_Q);
/// The private-key SEQUENCE: its header and five OCTET STRING headers.
const MAX_PRIVATE: usize = 4 + 5 * 4 + sk_bytes(MAX_P, MAX_Q);

/// The lengths of the five private-key fields of `S` (f, 1/g, pk, rho,
/// Hash4(pk)).
fn field_lengths<S: ParameterSet>() -> [usize; 5] {
    let small = small_bytes(S::P);
    let pk = <S::EncapsulationKeyBytes as ByteArray>::LEN;
    [small, small, pk, small, HASH_BYTES]
}

/// `OCTET STRING (pk)`, the contents of the SubjectPublicKeyInfo BIT STRING.
fn wrapped_pk<'b, S: ParameterSet>(
    ek: &EncapsulationKey<S>,
    buf: &'b mut [u8; MAX_WRAPPED_PK],
) -> Result<&'b [u8], Error> {
    Ok(common::octet_string_into(ek.as_bytes().as_ref(), buf)?)
}

/// The encapsulation key in a SubjectPublicKeyInfo BIT STRING's contents.
fn ek_from_bits<S: ParameterSet>(bits: &[u8]) -> Result<EncapsulationKey<S>, Error> {
    EncapsulationKey::from_slice(common::decode_octet_string(bits)?)
}

/// The key of a OneAsymmetricKey: the five fields joined into the reference
/// `sk` and checked; an included `publicKey` must be the key's own.
fn dk_from_parts<S: ParameterSet>(
    parts: PrivateKeyParts<'_>,
) -> Result<DecapsulationKey<S>, Error> {
    let fields = common::decode_octet_strings(parts.private_key, field_lengths::<S>())?;
    let mut sk = Zeroizing::new(S::DecapsulationKeyBytes::zeroed());
    let mut at = 0;
    for field in fields {
        sk.as_mut()[at..at + field.len()].copy_from_slice(field);
        at += field.len();
    }
    // Checks the Small_encode fields and Hash4(pk) against the embedded pk.
    let dk = DecapsulationKey::from_slice(sk.as_ref())?;
    let mut buf = [0u8; MAX_WRAPPED_PK];
    common::check_public_key(
        parts.public_key,
        wrapped_pk(dk.encapsulation_key(), &mut buf)?,
    )?;
    Ok(dk)
}

/// The five fields of `dk` as the private-key SEQUENCE, into `buf`.
fn private_into<'b, S: ParameterSet>(
    dk: &DecapsulationKey<S>,
    buf: &'b mut [u8; MAX_PRIVATE],
) -> Result<&'b [u8], Error> {
    let sk = dk.as_bytes().as_ref();
    let mut fields: [&[u8]; 5] = [&[]; 5];
    let mut at = 0;
    for (field, len) in fields.iter_mut().zip(field_lengths::<S>()) {
        *field = &sk[at..at + len];
        at += len;
    }
    Ok(common::octet_strings_into(&fields, buf)?)
}

pqdr_common::key_asn1_glue! {
    impl<S: ParameterSet>;
    oid: algorithm_oid::<S>();
    error: Error;
    public EncapsulationKey {
        spki_bits: wrapped_pk, [u8; MAX_WRAPPED_PK];
        from_spki_bits: ek_from_bits;
        /// Decodes a DER SubjectPublicKeyInfo as BouncyCastle 1.87 writes it:
        /// this set's OID, no parameters, and an OCTET STRING of the key in the
        /// BIT STRING.
        ///
        /// # Errors
        /// [`Error::Der`] (malformed or trailing DER, no OCTET STRING),
        /// [`Error::Algorithm`] (another OID, or parameters), [`Error::Length`]
        /// (the key's size).
        from_spki_der;
        /// Encodes the key as a DER SubjectPublicKeyInfo (BouncyCastle 1.87's
        /// form) into `out` and returns the encoding (a prefix of `out`).
        ///
        /// # Errors
        /// [`Error::Length`] if `out` is shorter than the encoding.
        to_spki_der;
        /// Decodes a `PUBLIC KEY` PEM document (RFC 7468 §13) holding the
        /// SubjectPublicKeyInfo of [`Self::from_spki_der`]. Unlike
        /// `spki::DecodePublicKey::from_public_key_pem`, it keeps this crate's
        /// typed [`Error`].
        ///
        /// ```
        /// use pqdr_ntrup::{pkcs8::LineEnding, sntrup761};
        /// # struct Rng(u64); // a toy generator for the example only
        /// # impl rand_core::TryRng for Rng {
        /// #     type Error = core::convert::Infallible;
        /// #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { Ok(self.try_next_u64()? as u32) }
        /// #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        /// #         self.0 ^= self.0 << 13; self.0 ^= self.0 >> 7; self.0 ^= self.0 << 17; Ok(self.0)
        /// #     }
        /// #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
        /// #         for b in d { *b = self.try_next_u64()? as u8; } Ok(())
        /// #     }
        /// # }
        /// # impl rand_core::TryCryptoRng for Rng {}
        ///
        /// let (dk, ek) = sntrup761::generate(&mut Rng(1));
        /// let pem = ek.to_spki_pem(LineEnding::LF)?;
        /// assert!(sntrup761::EncapsulationKey::from_spki_pem(&pem)? == ek);
        /// let pem = dk.to_private_key_pem(LineEnding::LF)?;
        /// assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
        /// assert!(sntrup761::DecapsulationKey::from_private_key_pem(&pem)? == dk);
        /// assert_eq!(
        ///     sntrup761::DecapsulationKey::from_private_key_pem("PRIVATE KEY").err(),
        ///     Some(sntrup761::Error::Der)
        /// );
        /// # Ok::<(), sntrup761::Error>(())
        /// ```
        ///
        /// # Errors
        /// [`Error::Der`] (not PEM, a label other than `PUBLIC KEY`), then as
        /// [`Self::from_spki_der`].
        from_spki_pem;
        /// Encodes the key as a `PUBLIC KEY` PEM document (RFC 7468 §13) of
        /// the SubjectPublicKeyInfo of [`Self::to_spki_der`].
        ///
        /// # Errors
        /// None in practice ([`Error::Der`] if the encoder failed).
        to_spki_pem;
    }
    private DecapsulationKey {
        private_bits: private_into, MAX_PRIVATE;
        from_parts: dk_from_parts;
        /// Decodes a DER PKCS#8 OneAsymmetricKey as BouncyCastle 1.87 writes
        /// it: this set's OID and the five-field `SNTRUPrimePrivateKey`
        /// SEQUENCE, whose fields must have the set's lengths and form a valid
        /// secret key ([`Self::from_slice`]: `Small_encode` fields, `Hash4(pk)`
        /// of the embedded public key). An included version-2 `publicKey` must
        /// be the key's own (in its SubjectPublicKeyInfo form).
        ///
        /// # Errors
        /// [`Error::Der`], [`Error::Algorithm`], [`Error::Length`] (a field of
        /// the wrong size), [`Error::InvalidKey`], [`Error::InconsistentKey`].
        from_private_key_der;
        /// Encodes the key as a DER PKCS#8 PrivateKeyInfo (version 1, no
        /// public key; BouncyCastle 1.87's form) into `out`, and returns the
        /// encoding (a prefix of `out`, which then holds secrets).
        ///
        /// # Errors
        /// [`Error::Length`] if `out` is too short.
        to_private_key_der;
        /// Decodes a `PRIVATE KEY` PEM document (RFC 7468 §10) holding the
        /// OneAsymmetricKey of [`Self::from_private_key_der`] (example at
        /// [`EncapsulationKey::from_spki_pem`]). Unlike
        /// `pkcs8::DecodePrivateKey::from_pkcs8_pem`, it keeps this crate's
        /// typed [`Error`]. The decoded DER is wiped on drop.
        ///
        /// # Errors
        /// [`Error::Der`] (not PEM, a label other than `PRIVATE KEY`), then as
        /// [`Self::from_private_key_der`].
        from_private_key_pem;
        /// Encodes the key as a `PRIVATE KEY` PEM document (RFC 7468 §10) of
        /// the PrivateKeyInfo of [`Self::to_private_key_der`], in a string
        /// wiped on drop.
        ///
        /// # Errors
        /// None in practice ([`Error::Der`] if the encoder failed).
        to_private_key_pem;
        to_pkcs8_der;
    }
}
