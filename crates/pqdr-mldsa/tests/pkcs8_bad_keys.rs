//! The bad private keys of RFC 9881 (the appendix "Examples of Bad Private
//! Keys", `vectors/pkcs8/bad-ML-DSA-44-{2,3}.priv`): ML-DSA-44 expanded keys
//! whose `tr` or `t0` is not the one ρ, s1 and s2 imply. The RFC notes that
//! implementations which do not regenerate the public key from the private
//! key would accept them; pqdr's skDecode does regenerate it.
//!
//! Each test first checks what the example is, against the key our FIPS 204
//! key generation derives from the RFC's seed `00 01 … 1f`, so a copying
//! error in the file would fail here instead of passing for the wrong reason.
#![cfg(feature = "pkcs8")]
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "tests"
)]

use pqdr_common::test_support::pem_der;
use pqdr_mldsa::{Error, MlDsa44, SigningKey};

/// ML-DSA-44's expanded key (FIPS 204 Algorithm 24): ρ (32) ‖ K (32) ‖
/// tr (64) ‖ s1 (4 × 96) ‖ s2 (4 × 96) ‖ t0 (4 × 416).
const TR_AT: usize = 64;
const S1_AT: usize = TR_AT + 64;
const T0_AT: usize = S1_AT + 2 * 384;
const SK_LEN: usize = T0_AT + 4 * 416;

/// The indices where the example's expanded key (the end of the DER)
/// differs from the good key of the RFC's seed.
fn diff_from_good(der: &[u8]) -> Vec<usize> {
    let xi: [u8; 32] = core::array::from_fn(|i| i as u8);
    let good = SigningKey::<MlDsa44>::from_seed(&xi);
    let good = good.as_bytes().as_ref();
    assert_eq!(good.len(), SK_LEN);
    let bad = &der[der.len() - SK_LEN..];
    (0..SK_LEN).filter(|&i| bad[i] != good[i]).collect()
}

#[test]
fn bad_2_tr_not_the_public_keys_hash_is_rejected() {
    let der = pem_der(include_str!("../../../vectors/pkcs8/bad-ML-DSA-44-2.priv"));
    let d = diff_from_good(&der);
    assert!(
        !d.is_empty() && d.iter().all(|i| (TR_AT..S1_AT).contains(i)),
        "{d:?}"
    );
    assert_eq!(
        SigningKey::<MlDsa44>::from_private_key_der(&der).err(),
        Some(Error::InvalidKey)
    );
}

#[test]
fn bad_3_t0_not_the_one_s1_s2_imply_is_rejected() {
    let der = pem_der(include_str!("../../../vectors/pkcs8/bad-ML-DSA-44-3.priv"));
    let d = diff_from_good(&der);
    assert!(!d.is_empty() && d.iter().all(|&i| i >= T0_AT), "{d:?}");
    assert_eq!(
        SigningKey::<MlDsa44>::from_private_key_der(&der).err(),
        Some(Error::InvalidKey)
    );
}
