//! The PKCS#8 / SubjectPublicKeyInfo harness shared by the `*_pkcs8`
//! targets: one [`Codec`] impl per algorithm, the checks written once.
//!
//! Operations (picked by the target from its first byte):
//!
//! 0. the private-key decoder on arbitrary bytes: no panic, only the typed
//!    decoding errors, the same verdict as the `pkcs8::DecodePrivateKey`
//!    trait; an accepted key re-encodes in every form it has to DER that
//!    decodes to the same key, and when the input is a version-1
//!    OneAsymmetricKey without attributes (its `der` re-encoding is itself)
//!    one of those encodings is the input, byte for byte.
//! 1. the SubjectPublicKeyInfo decoder on arbitrary bytes: no panic, the
//!    same verdict as `spki::DecodePublicKey`, an accepted key re-encodes to
//!    the input.
//! 2. a key from the fuzz data, encoded in a fuzz-chosen form, then
//!    truncated, extended by a byte, or with a byte xor-ed at a fuzz
//!    position: a truncated or extended encoding is rejected; any accepted
//!    one passes the checks of 0. The untouched encoding decodes to the key.
//! 3. the same on the key's SubjectPublicKeyInfo, with the checks of 1.
#![allow(dead_code)]

use pqdr_mlkem::pkcs8::PrivateKeyInfoRef;
use pqdr_mlkem::pkcs8::der::Encode as _;

/// One algorithm's (one parameter set's) encodings.
pub trait Codec {
    /// The private key.
    type Sk;
    /// The public key.
    type Pk;
    /// The crate's error.
    type Err: core::fmt::Debug;
    /// How many private-key forms [`Codec::encode_sk`] knows.
    const FORMS: usize;
    /// Our private-key decoder.
    fn decode_sk(der: &[u8]) -> Result<Self::Sk, Self::Err>;
    /// The `pkcs8::DecodePrivateKey` verdict.
    fn decode_sk_trait(der: &[u8]) -> bool;
    /// The encoding in form `form`, or `None` if the key lacks that form
    /// (the impl asserts why).
    fn encode_sk(sk: &Self::Sk, form: usize) -> Option<Vec<u8>>;
    /// Whether two private keys are the same.
    fn same_sk(a: &Self::Sk, b: &Self::Sk) -> bool;
    /// Our SubjectPublicKeyInfo decoder.
    fn decode_pk(der: &[u8]) -> Result<Self::Pk, Self::Err>;
    /// The `spki::DecodePublicKey` verdict.
    fn decode_pk_trait(der: &[u8]) -> bool;
    /// The SubjectPublicKeyInfo of a public key.
    fn encode_pk(pk: &Self::Pk) -> Vec<u8>;
    /// The SubjectPublicKeyInfo of a private key's public key.
    fn encode_pk_of(sk: &Self::Sk) -> Vec<u8>;
    /// Whether `e` is an error a decoder may return for bad input (a
    /// public-key decoder when `private` is false).
    fn decoding_error(e: &Self::Err, private: bool) -> bool;
    /// A private key made from the fuzz data, and the unused rest.
    fn key(data: &[u8]) -> (Self::Sk, &[u8]);
}

/// Whether `der` is a OneAsymmetricKey v1 whose `der` re-encoding is itself
/// (no attributes, no public key, no extensions).
fn plain_v1(der: &[u8]) -> bool {
    let Ok(info) = PrivateKeyInfoRef::try_from(der) else {
        return false;
    };
    let mut buf = vec![0u8; der.len() + 16];
    info.public_key.is_none() && info.encode_to_slice(&mut buf).is_ok_and(|enc| enc == der)
}

/// Operation 0 on `der`.
pub fn check_private<C: Codec>(der: &[u8]) {
    let ours = C::decode_sk(der);
    assert_eq!(ours.is_ok(), C::decode_sk_trait(der));
    let sk = match ours {
        Ok(sk) => sk,
        Err(e) => {
            assert!(C::decoding_error(&e, true), "{e:?}");
            return;
        }
    };
    let mut found = false;
    for form in 0..C::FORMS {
        if let Some(enc) = C::encode_sk(&sk, form) {
            found |= enc == der;
            let back = C::decode_sk(&enc).expect("an encoding decodes");
            assert!(C::same_sk(&back, &sk));
        }
    }
    if plain_v1(der) {
        assert!(found, "an accepted plain v1 key is one of the encodings");
    }
}

/// Operation 1 on `der`.
pub fn check_public<C: Codec>(der: &[u8]) {
    let ours = C::decode_pk(der);
    assert_eq!(ours.is_ok(), C::decode_pk_trait(der));
    match ours {
        Ok(pk) => assert_eq!(C::encode_pk(&pk), der),
        Err(e) => assert!(C::decoding_error(&e, false), "{e:?}"),
    }
}

/// Truncates, extends or patches `der` as `how`, `at` and `x` say; returns
/// whether the result must be rejected (a changed length).
fn mutate(der: &mut Vec<u8>, how: u8, at: u32, x: u8) -> bool {
    let at = usize::try_from(at).unwrap_or(0) % der.len();
    match how % 3 {
        0 => {
            der.truncate(at);
            true
        }
        1 => {
            der.push(x);
            true
        }
        _ => {
            der[at] ^= x.max(1);
            false
        }
    }
}

/// Operation `op % 4` on `data`.
pub fn run<C: Codec>(op: u8, data: &[u8]) {
    match op % 4 {
        0 => check_private::<C>(data),
        1 => check_public::<C>(data),
        _ => {
            let (sk, rest) = C::key(data);
            let get = |i: usize| rest.get(i).copied().unwrap_or(0);
            let private = op % 4 == 2;
            let mut der = if private {
                let form = usize::from(get(0)) % C::FORMS;
                let enc = (0..C::FORMS)
                    .find_map(|i| C::encode_sk(&sk, (form + i) % C::FORMS))
                    .expect("some form");
                assert!(C::same_sk(&C::decode_sk(&enc).expect("decodes"), &sk));
                enc
            } else {
                C::encode_pk_of(&sk)
            };
            let at = u32::from_le_bytes([get(2), get(3), get(5), 0]);
            let rejected = mutate(&mut der, get(1), at, get(4));
            if private {
                if rejected {
                    assert!(C::decode_sk(&der).is_err());
                }
                check_private::<C>(&der);
            } else {
                if rejected {
                    assert!(C::decode_pk(&der).is_err());
                }
                check_public::<C>(&der);
            }
        }
    }
}
