//! `PUBLIC_KEY_DER_MAX_SIZE` / `PRIVATE_KEY_DER_MAX_SIZE` against the
//! RFC 9935 Appendix C examples in `vectors/pkcs8/` (the public keys of
//! every set; the `both` private key of ML-KEM-768, the largest form), and
//! against what the encoders write (issue #37 item 9).
#![cfg(feature = "pkcs8")]
#![allow(clippy::unwrap_used, reason = "tests")]

use pqdr_common::test_support::pem_der;
use pqdr_mlkem::{PrivateKeyForm, ml_kem_512, ml_kem_768, ml_kem_1024};

macro_rules! sizes {
    ($set:ident, $pub_pem:literal) => {{
        let official = pem_der(include_str!(concat!("../../../vectors/pkcs8/", $pub_pem)));
        assert_eq!(official.len(), $set::PUBLIC_KEY_DER_MAX_SIZE, $pub_pem);
        let (dk, ek) = $set::generate_deterministic(&[1; 32], &[2; 32]);
        let mut out = [0u8; $set::PUBLIC_KEY_DER_MAX_SIZE];
        assert_eq!(ek.to_spki_der(&mut out).unwrap().len(), out.len());
        let mut out = [0u8; $set::PRIVATE_KEY_DER_MAX_SIZE];
        let both = dk.to_private_key_der(PrivateKeyForm::Both, &mut out);
        assert_eq!(both.unwrap().len(), $set::PRIVATE_KEY_DER_MAX_SIZE);
        for form in [PrivateKeyForm::Seed, PrivateKeyForm::ExpandedKey] {
            assert!(dk.to_private_key_der(form, &mut out).is_ok());
        }
    }};
}

#[test]
fn der_sizes_match_the_rfc_9935_examples_and_the_encoders() {
    sizes!(ml_kem_512, "ML-KEM-512.pub");
    sizes!(ml_kem_768, "ML-KEM-768.pub");
    sizes!(ml_kem_1024, "ML-KEM-1024.pub");
    let both = pem_der(include_str!("../../../vectors/pkcs8/ML-KEM-768-both.priv"));
    assert_eq!(both.len(), ml_kem_768::PRIVATE_KEY_DER_MAX_SIZE);
}
