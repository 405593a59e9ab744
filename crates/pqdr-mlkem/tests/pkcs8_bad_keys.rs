//! The bad private keys of RFC 9935 Appendix C.4 ("Examples of Bad Private
//! Keys", `vectors/pkcs8/bad-ML-KEM-512-{1,2,3,4}.priv`): four ML-KEM-512 keys
//! that a careful decoder must not accept as the key they claim to be.
//!
//! Each test first checks what the example is, against the key our FIPS 203
//! key generation derives from the RFC's seed `00 01 … 3f`, so a copying
//! error in the file would fail here instead of passing for the wrong
//! reason; then it checks how pqdr treats it.
#![cfg(feature = "pkcs8")]
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "tests"
)]

use pqdr_common::test_support::pem_der;
use pqdr_mlkem::{DecapsulationKey, Error, MlKem512};

/// ML-KEM-512's expanded key: dk_PKE (768) ‖ ek (800) ‖ H(ek) (32) ‖ z (32)
/// (FIPS 203 Algorithm 16, line 3).
const H_AT: usize = 768 + 800;
const Z_AT: usize = H_AT + 32;
const DK_LEN: usize = Z_AT + 32;

/// The RFC's seed d ‖ z = 00 01 … 3f.
fn rfc_seed() -> [u8; 64] {
    core::array::from_fn(|i| i as u8)
}

/// The good expanded key of the RFC's seed.
fn good_dk() -> Vec<u8> {
    DecapsulationKey::<MlKem512>::from_seed(&rfc_seed())
        .as_bytes()
        .as_ref()
        .to_vec()
}

/// The last `n` bytes of the PKCS#8 privateKey: the expanded key of every
/// example sits at the end of the DER.
fn tail(der: &[u8], n: usize) -> &[u8] {
    &der[der.len() - n..]
}

/// The indices where two equal-length byte strings differ.
fn diff(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

/// Encapsulates to the key's own encapsulation key and decapsulates: the
/// pair-wise consistency check the RFC refers to.
fn pairwise_consistent(dk: &DecapsulationKey<MlKem512>) -> bool {
    let (ct, k) = dk
        .encapsulation_key()
        .encapsulate_deterministic(&[0x33; 32]);
    dk.decapsulate(&ct).as_bytes() == k.as_bytes()
}

#[test]
fn bad_1_both_with_a_seed_that_is_not_the_expanded_keys() {
    let der = pem_der(include_str!("../../../vectors/pkcs8/bad-ML-KEM-512-1.priv"));
    // `both`: SEQUENCE { OCTET STRING seed(64), OCTET STRING expanded }.
    let seed = &der[der.len() - DK_LEN - 4 - 64..der.len() - DK_LEN - 4];
    assert_ne!(seed, rfc_seed(), "the example's seed is not the RFC's");
    let mut s = [0u8; 64];
    s.copy_from_slice(seed);
    let from_seed = DecapsulationKey::<MlKem512>::from_seed(&s);
    assert_ne!(from_seed.as_bytes().as_ref(), tail(&der, DK_LEN));
    assert_eq!(
        DecapsulationKey::<MlKem512>::from_private_key_der(&der).err(),
        Some(Error::InconsistentKey)
    );
}

#[test]
fn bad_2_expanded_with_a_mutated_s0_decodes_but_fails_the_pairwise_check() {
    let der = pem_der(include_str!("../../../vectors/pkcs8/bad-ML-KEM-512-2.priv"));
    let good = good_dk();
    // Only the first byte of ŝ (dk_PKE) differs from the good key.
    assert_eq!(diff(tail(&der, DK_LEN), &good), [0]);
    // H(ek) is intact, so FIPS 203 §7.3's check passes and the key decodes…
    let dk = DecapsulationKey::<MlKem512>::from_private_key_der(&der).unwrap();
    // …but it does not decapsulate what its own public key encapsulates.
    assert!(!pairwise_consistent(&dk));
    #[cfg(feature = "self-test")]
    assert_eq!(
        pqdr_mlkem::self_test::pairwise_consistency(&dk, dk.encapsulation_key()),
        Err(Error::PairwiseConsistency)
    );
    // The same check passes on the good key (it can tell the two apart).
    let good_key = DecapsulationKey::<MlKem512>::from_seed(&rfc_seed());
    assert!(pairwise_consistent(&good_key));
}

#[test]
fn bad_3_expanded_with_a_mutated_hash_of_ek_is_rejected() {
    let der = pem_der(include_str!("../../../vectors/pkcs8/bad-ML-KEM-512-3.priv"));
    let d = diff(tail(&der, DK_LEN), &good_dk());
    assert_eq!(d.len(), 1);
    assert!((H_AT..Z_AT).contains(&d[0]), "the mutated byte is in H(ek)");
    // FIPS 203 §7.3 (the hash check of the decapsulation key).
    assert_eq!(
        DecapsulationKey::<MlKem512>::from_private_key_der(&der).err(),
        Some(Error::InvalidKey)
    );
}

#[test]
fn bad_4_both_differing_only_in_z_is_rejected() {
    let der = pem_der(include_str!("../../../vectors/pkcs8/bad-ML-KEM-512-4.priv"));
    let seed = &der[der.len() - DK_LEN - 4 - 64..der.len() - DK_LEN - 4];
    assert_eq!(seed, rfc_seed());
    let d = diff(tail(&der, DK_LEN), &good_dk());
    assert!(
        !d.is_empty() && d.iter().all(|&i| i >= Z_AT),
        "only z differs"
    );
    // The pair-wise check cannot see this (z only matters for rejected
    // ciphertexts); the seed comparison of the `both` form does.
    assert_eq!(
        DecapsulationKey::<MlKem512>::from_private_key_der(&der).err(),
        Some(Error::InconsistentKey)
    );
}
