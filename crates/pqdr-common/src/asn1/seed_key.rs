//! The private keys with the `seed` / `expandedKey` / `both` CHOICE of
//! RFC 9935 §6 (ML-KEM) and RFC 9881 §6 (ML-DSA), generically over
//! [`SeedKey`]: the crates define the OID, the seed and key layouts and
//! the key checks; the CHOICE logic (regenerate, compare, check the
//! included public key, pick the form) is written once here.
//!
//! Secrets: the seed and the expanded key are compared in constant time
//! (only the verdict is revealed); branches depend on tags and lengths.

use der::asn1::ObjectIdentifier;
use pkcs8::PrivateKeyInfoRef;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use super::{Error, PrivateKeyChoice, PrivateKeyForm, PrivateKeyParts};

/// A private key whose PKCS#8 `privateKey` is the RFC 9935 §6 / RFC 9881
/// §6 CHOICE of its seed, its expanded form, or both.
pub trait SeedKey: Sized {
    /// The crate's error (from [`Error`]; compared to tell an
    /// [`Error::Algorithm`] apart in [`try_from_info`]).
    type Error: From<Error> + PartialEq;
    /// The owned seed (wiped on drop through [`Zeroizing`]).
    type Seed: AsRef<[u8]> + Zeroize;

    /// The OID of the key's parameter set.
    fn algorithm_oid() -> ObjectIdentifier;
    /// The key a `seed` slice generates (length checked by the crate).
    ///
    /// # Errors
    /// The crate's length error.
    fn from_seed_slice(seed: &[u8]) -> Result<Self, Self::Error>;
    /// The key of an `expandedKey` slice, with the crate's checks.
    ///
    /// # Errors
    /// The crate's length / key-check errors.
    fn from_expanded_slice(expanded: &[u8]) -> Result<Self, Self::Error>;
    /// `Ok` if `len` is the expanded key's length.
    ///
    /// # Errors
    /// The crate's length error about the expanded key.
    fn check_expanded_len(len: usize) -> Result<(), Self::Error>;
    /// The expanded private key (secret).
    fn expanded_bytes(&self) -> &[u8];
    /// The encoded public key (compared with an included `publicKey`).
    fn public_key_bytes(&self) -> &[u8];
    /// The seed, if the key was made from one.
    fn seed(&self) -> Option<Zeroizing<Self::Seed>>;
    /// The error of asking the `seed` / `both` form of a key without seed.
    fn no_seed() -> Self::Error;
}

/// Decodes the private-key CHOICE (the `privateKey` OCTET STRING's
/// contents): `seed` regenerates, `expandedKey` is checked by the crate,
/// `both` must hold the expanded key its seed generates (RFC 9935 §8,
/// RFC 9881 §9).
///
/// # Errors
/// [`Error::Der`], the crate's errors, [`Error::InconsistentKey`].
pub fn from_choice<K: SeedKey>(choice: &[u8]) -> Result<K, K::Error> {
    match super::decode_choice(choice)? {
        PrivateKeyChoice::Seed(seed) => K::from_seed_slice(seed),
        PrivateKeyChoice::ExpandedKey(expanded) => K::from_expanded_slice(expanded),
        PrivateKeyChoice::Both { seed, expanded } => {
            K::check_expanded_len(expanded.len())?;
            let key = K::from_seed_slice(seed)?;
            // Only the verdict is revealed, not where the keys differ.
            let mut same = key.expanded_bytes().ct_eq(expanded).unwrap_u8();
            // The verdict is public (the key is accepted or refused).
            pqdr_ctgrind::hook::declassify(&mut same);
            if same == 1 {
                Ok(key)
            } else {
                Err(Error::InconsistentKey.into())
            }
        }
    }
}

/// The key of a OneAsymmetricKey (RFC 5958 §2): the CHOICE, and an
/// included `publicKey` must be the key's own (RFC 9935 §6, RFC 9881 §6).
///
/// # Errors
/// As [`from_choice`], [`Error::InconsistentKey`].
pub fn from_parts<K: SeedKey>(parts: PrivateKeyParts<'_>) -> Result<K, K::Error> {
    let key = from_choice::<K>(parts.private_key)?;
    super::check_public_key(parts.public_key, key.public_key_bytes())?;
    Ok(key)
}

/// Decodes a DER OneAsymmetricKey / PrivateKeyInfo of `K`.
///
/// # Errors
/// [`Error::Der`], [`Error::Algorithm`], then as [`from_parts`].
pub fn decode<K: SeedKey>(der: &[u8]) -> Result<K, K::Error> {
    from_parts(super::decode_private_key(der, K::algorithm_oid())?)
}

/// The body of `TryFrom<PrivateKeyInfoRef>` for `K`.
///
/// # Errors
/// An unknown OID for [`Error::Algorithm`], else a malformed key.
pub fn try_from_info<K: SeedKey>(info: &PrivateKeyInfoRef<'_>) -> Result<K, pkcs8::Error> {
    super::private_key_parts(info, K::algorithm_oid())
        .map_err(K::Error::from)
        .and_then(from_parts::<K>)
        .map_err(|e| super::pkcs8_error(e == K::Error::from(Error::Algorithm), info.algorithm.oid))
}

/// Writes the CHOICE of `key` in `form` into `buf` and returns it.
///
/// # Errors
/// [`SeedKey::no_seed`] for the `seed` / `both` forms of a key without
/// seed; [`Error::Der`] if `buf` is too short.
pub fn choice_into<'b, K: SeedKey>(
    key: &K,
    form: PrivateKeyForm,
    buf: &'b mut [u8],
) -> Result<&'b [u8], K::Error> {
    let expanded = key.expanded_bytes();
    if form == PrivateKeyForm::ExpandedKey {
        return Ok(super::choice_into(
            PrivateKeyChoice::ExpandedKey(expanded),
            buf,
        )?);
    }
    let seed = key.seed().ok_or_else(K::no_seed)?;
    let seed = (*seed).as_ref();
    let choice = if form == PrivateKeyForm::Seed {
        PrivateKeyChoice::Seed(seed)
    } else {
        PrivateKeyChoice::Both { seed, expanded }
    };
    Ok(super::choice_into(choice, buf)?)
}

/// The form `pkcs8::EncodePrivateKey` writes: the seed (RECOMMENDED by
/// both RFCs), or the expanded key for a key loaded without its seed.
pub fn default_form<K: SeedKey>(key: &K) -> PrivateKeyForm {
    if key.seed().is_some() {
        PrivateKeyForm::Seed
    } else {
        PrivateKeyForm::ExpandedKey
    }
}

/// The body of `pkcs8::EncodePrivateKey::to_pkcs8_der` for `K`, in the
/// [`default_form`], with `buf` as the CHOICE's scratch space.
///
/// # Errors
/// A malformed key if `buf` is too short; the `der` crate's errors.
#[cfg(feature = "alloc")]
pub fn document<K: SeedKey>(key: &K, buf: &mut [u8]) -> pkcs8::Result<der::SecretDocument> {
    let choice = choice_into(key, default_form(key), buf)
        .map_err(|_| pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))?;
    super::private_key_document(K::algorithm_oid(), choice)
}
