//! PKCS#8 private keys and SubjectPublicKeyInfo public keys (RFC 9881),
//! feature `pkcs8`: the DER envelopes and the private-key CHOICE come from
//! `pqdr_common::asn1` (the RustCrypto `der`, `spki` and `pkcs8` crates),
//! into caller buffers (no heap). With `alloc`,
//! the `pkcs8` crate's `EncodePrivateKey` / `EncodePublicKey` traits too;
//! `DecodePrivateKey` / `DecodePublicKey` come from the `TryFrom` impls.
//!
//! Secrets: the seed and expanded key are copied only into [`Zeroizing`]
//! buffers; branches depend on lengths and tags (public), never on key bytes.

use der::asn1::ObjectIdentifier;
pub use pqdr_common::asn1::PrivateKeyForm;
use pqdr_common::asn1::{SeedKey, seed_key};
use zeroize::Zeroizing;
#[cfg(feature = "pem")]
extern crate alloc;

use crate::error::{Error, Object, check_length};
use crate::params::{ByteArray, MlDsa87, ParameterSet};
use crate::types::{SEED_SIZE, SigningKey, VerifyingKey};

/// RFC 9881 §2: `id-ml-dsa-44 ::= { sigAlgs 17 }` (`sigAlgs` = 2.16.840.1.101.3.4.3).
pub const ML_DSA_44_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.17");
/// RFC 9881 §2: `id-ml-dsa-65 ::= { sigAlgs 18 }`.
pub const ML_DSA_65_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.18");
/// RFC 9881 §2: `id-ml-dsa-87 ::= { sigAlgs 19 }`.
pub const ML_DSA_87_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.19");

/// The RFC 9881 §2 OID of the parameter set `P` (chosen by its `k`).
pub fn algorithm_oid<P: ParameterSet>() -> ObjectIdentifier {
    match P::K {
        4 => ML_DSA_44_OID,
        6 => ML_DSA_65_OID,
        _ => ML_DSA_87_OID,
    }
}

/// The longest CHOICE encoding (`both` of ML-DSA-87): SEQUENCE header (4),
/// seed OCTET STRING (2 + 32), expandedKey OCTET STRING (4 + 4896).
const MAX_CHOICE_LEN: usize = 4 + 2 + SEED_SIZE + 4 + MlDsa87::SK_SIZE;

/// The BIT STRING contents of a verifying key's SubjectPublicKeyInfo
/// (RFC 9881 §4): the key itself (no buffer needed).
fn vk_bits<'a, P: ParameterSet>(
    vk: &'a VerifyingKey<P>,
    _buf: &'a mut [u8; 0],
) -> Result<&'a [u8], Error> {
    Ok(vk.as_bytes().as_ref())
}

/// RFC 9881 §6: the signing key's private-key CHOICE. The seed is FIPS
/// 204's 32-byte ξ (Algorithm 6); the expanded key is the skEncode key
/// (Algorithm 24, checked by [`SigningKey::from_array`]); `both` must match
/// (RFC 9881 §9).
impl<P: ParameterSet> SeedKey for SigningKey<P> {
    type Error = Error;
    type Seed = [u8; SEED_SIZE];

    fn algorithm_oid() -> ObjectIdentifier {
        algorithm_oid::<P>()
    }

    /// The key generated from a 32-byte seed slice, copied through a
    /// zeroizing buffer.
    fn from_seed_slice(seed: &[u8]) -> Result<Self, Error> {
        check_length(Object::Seed, SEED_SIZE, seed.len())?;
        let mut buf = Zeroizing::new([0u8; SEED_SIZE]);
        buf.copy_from_slice(seed);
        Ok(Self::from_seed(&buf))
    }

    fn from_expanded_slice(expanded: &[u8]) -> Result<Self, Error> {
        Self::from_slice(expanded)
    }

    fn check_expanded_len(len: usize) -> Result<(), Error> {
        check_length(Object::SigningKey, P::SkBytes::LEN, len)
    }

    fn expanded_bytes(&self) -> &[u8] {
        self.as_bytes().as_ref()
    }

    fn public_key_bytes(&self) -> &[u8] {
        self.verifying_key().as_bytes().as_ref()
    }

    fn seed(&self) -> Option<Zeroizing<[u8; SEED_SIZE]>> {
        SigningKey::seed(self).map(|seed| Zeroizing::new(*seed))
    }

    fn no_seed() -> Error {
        Error::NoSeed
    }
}

pqdr_common::key_asn1_glue! {
    impl<P: ParameterSet>;
    oid: algorithm_oid::<P>();
    error: Error;
    public VerifyingKey {
        spki_bits: vk_bits, [u8; 0];
        from_spki_bits: VerifyingKey::from_slice;
        /// Decodes a DER SubjectPublicKeyInfo (RFC 9881 §4): this set's OID,
        /// no parameters, and the pkEncode key (FIPS 204 Algorithm 22) in the
        /// BIT STRING.
        ///
        /// # Errors
        /// [`Error::Der`] (malformed or trailing DER), [`Error::Algorithm`]
        /// (another OID, or parameters), [`Error::Length`] (the key's size).
        from_spki_der;
        /// Encodes the key as a DER SubjectPublicKeyInfo (RFC 9881 §4) into
        /// `out` and returns the encoding (a prefix of `out`).
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
        /// use pqdr_mldsa::{pkcs8::LineEnding, ml_dsa_65};
        ///
        /// let sk = ml_dsa_65::SigningKey::from_seed(&[1; 32]);
        /// let vk = sk.verifying_key().clone();
        /// let pem = vk.to_spki_pem(LineEnding::LF)?;
        /// assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"));
        /// assert!(ml_dsa_65::VerifyingKey::from_spki_pem(&pem)? == vk);
        /// assert_eq!(
        ///     ml_dsa_65::VerifyingKey::from_spki_pem("-----BEGIN PRIVATE KEY-----"),
        ///     Err(pqdr_mldsa::Error::Der)
        /// );
        /// # Ok::<(), pqdr_mldsa::Error>(())
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
    private SigningKey {
        private_bits: seed_key::choice_into, MAX_CHOICE_LEN;
        from_parts: seed_key::from_parts;
        form: form: PrivateKeyForm = seed_key::default_form;
        /// Decodes a DER PKCS#8 OneAsymmetricKey (RFC 9881 §6, RFC 5958) with
        /// any of the three private-key forms. `seed` regenerates the key
        /// (FIPS 204 Algorithm 6); `expandedKey` passes the skDecode checks
        /// ([`SigningKey::from_array`]); `both` must have the expanded key its
        /// seed generates; an included `publicKey` must be the key's own.
        ///
        /// # Errors
        /// [`Error::Der`] (malformed, truncated or trailing DER, an unknown
        /// CHOICE alternative), [`Error::Algorithm`], [`Error::Length`] (a seed
        /// or key of the wrong size), [`Error::InvalidKey`] (an expanded key
        /// failing skDecode's checks), [`Error::InconsistentKey`].
        ///
        /// # Panics
        /// With the feature `self-test`, as [`Self::from_seed`] (a fault only).
        from_private_key_der;
        /// Encodes the key as a DER PKCS#8 PrivateKeyInfo (RFC 9881 §6, version
        /// 1, no public key) with the private key in `form` into `out`, and
        /// returns the encoding (a prefix of `out`, which then holds secrets).
        ///
        /// # Errors
        /// [`Error::NoSeed`] for the `seed` / `both` forms of a key loaded from
        /// the expanded form; [`Error::Length`] if `out` is too short.
        to_private_key_der;
        /// Decodes a `PRIVATE KEY` PEM document (RFC 7468 §10) holding the
        /// OneAsymmetricKey of [`Self::from_private_key_der`] (any of the three
        /// forms). Unlike `pkcs8::DecodePrivateKey::from_pkcs8_pem`, it keeps
        /// this crate's typed [`Error`]. The decoded DER is wiped on drop.
        ///
        /// ```
        /// use pqdr_mldsa::{PrivateKeyForm, pkcs8::LineEnding, ml_dsa_65};
        ///
        /// let sk = ml_dsa_65::SigningKey::from_seed(&[1; 32]);
        /// let vk = sk.verifying_key().clone();
        /// let pem = sk.to_private_key_pem(PrivateKeyForm::Seed, LineEnding::LF)?;
        /// assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
        /// assert!(ml_dsa_65::SigningKey::from_private_key_pem(&pem)? == sk);
        /// # Ok::<(), pqdr_mldsa::Error>(())
        /// ```
        ///
        /// # Errors
        /// [`Error::Der`] (not PEM, a label other than `PRIVATE KEY`), then as
        /// [`Self::from_private_key_der`].
        from_private_key_pem;
        /// Encodes the key as a `PRIVATE KEY` PEM document (RFC 7468 §10) of
        /// the PrivateKeyInfo of [`Self::to_private_key_der`] in `form`, in a
        /// string wiped on drop.
        ///
        /// # Errors
        /// [`Error::NoSeed`] for the `seed` / `both` forms of a key loaded from
        /// the expanded form.
        to_private_key_pem;
        /// The seed form (RFC 9881 §6, RECOMMENDED), or the expanded form for a
        /// key loaded without its seed.
        to_pkcs8_der;
    }
}
