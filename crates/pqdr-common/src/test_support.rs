//! Helpers for the PKCS#8 / SubjectPublicKeyInfo tests of the primitive
//! crates (feature `test-utils`, a dev-dependency only): DER built byte
//! by byte (independently of the `der` crate the code under test uses),
//! PEM to DER, and the rejection checks every encoding gets.
#![allow(
    clippy::cast_possible_truncation,
    clippy::missing_panics_doc,
    reason = "test helpers: lengths are below 2^24, a panic is a failed test"
)]

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// The DER inside a PEM file (RFC 7468), decoded with `base64ct`.
pub fn pem_der(pem: &str) -> Vec<u8> {
    use base64ct::Encoding as _;
    let body: String = pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .map(str::trim)
        .collect();
    base64ct::Base64::decode_vec(&body).expect("PEM body is base64")
}

/// A DER TLV with a definite length (short form, or long form of 1 to 3
/// bytes).
pub fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let n = content.len();
    let mut v = vec![tag];
    if n < 0x80 {
        v.push(n as u8);
    } else if n < 0x100 {
        v.extend([0x81, n as u8]);
    } else if n < 0x1_0000 {
        v.extend([0x82, (n >> 8) as u8, n as u8]);
    } else {
        assert!(n < 0x100_0000, "TLV too long for the helper");
        v.extend([0x83, (n >> 16) as u8, (n >> 8) as u8, n as u8]);
    }
    v.extend_from_slice(content);
    v
}

/// OneAsymmetricKey v1 (RFC 5958) with AlgorithmIdentifier contents `alg`
/// and `privateKey` OCTET STRING contents `private_key`.
pub fn pkcs8_der(alg: &[u8], private_key: &[u8]) -> Vec<u8> {
    let body = [tlv(0x02, &[0]), tlv(0x30, alg), tlv(0x04, private_key)].concat();
    tlv(0x30, &body)
}

/// OneAsymmetricKey v2 (RFC 5958) with a `publicKey [1]` of `public_key`.
pub fn pkcs8_v2_der(alg: &[u8], private_key: &[u8], public_key: &[u8]) -> Vec<u8> {
    let bits = [&[0u8][..], public_key].concat();
    let body = [
        tlv(0x02, &[1]),
        tlv(0x30, alg),
        tlv(0x04, private_key),
        tlv(0x81, &bits),
    ]
    .concat();
    tlv(0x30, &body)
}

/// SubjectPublicKeyInfo with AlgorithmIdentifier contents `alg` and key
/// `pk` in the BIT STRING (no unused bits).
pub fn spki_der(alg: &[u8], pk: &[u8]) -> Vec<u8> {
    let bits = [&[0u8][..], pk].concat();
    tlv(0x30, &[tlv(0x30, alg), tlv(0x03, &bits)].concat())
}

/// `alg` followed by a NULL parameter (which every OID here forbids).
pub fn with_null_parameters(alg: &[u8]) -> Vec<u8> {
    [alg, &[0x05, 0x00]].concat()
}

/// Checks that `decode` rejects `der` cut at every length, and `der` with
/// a trailing zero byte.
pub fn assert_truncations_and_trailing_rejected<E>(
    der: &[u8],
    decode: impl Fn(&[u8]) -> Result<(), E>,
) {
    for len in 0..der.len() {
        assert!(decode(&der[..len]).is_err(), "truncated to {len}");
    }
    assert!(decode(&[der, &[0]].concat()).is_err(), "trailing byte");
}
