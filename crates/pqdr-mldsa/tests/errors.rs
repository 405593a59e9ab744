//! Every error message is one full sentence that names what was wrong: a
//! length error names the object (key, signature, digest, output buffer)
//! and both sizes (issue #37 item 9). The sizes are FIPS 204 Table 2's.
#![allow(clippy::unwrap_used, reason = "tests")]

use pqdr_mldsa::{Error, PreHash, ml_dsa_44, ml_dsa_65, ml_dsa_87};

/// A sentence: a capital first letter, one final full stop, no line break.
fn assert_sentence(msg: &str) {
    assert!(msg.starts_with(char::is_uppercase), "{msg:?}");
    assert!(msg.ends_with('.') && !msg.contains('\n'), "{msg:?}");
    assert!(msg.contains("ML-DSA"), "names the algorithm: {msg:?}");
}

/// `e` is a length error whose message names `what` and both sizes.
fn assert_length(e: &Error, what: &str, expected: usize, actual: usize) {
    let msg = e.to_string();
    assert_sentence(&msg);
    assert!(matches!(e, Error::Length { .. }), "{e:?}");
    assert!(msg.contains(what), "{msg:?} names {what}");
    assert!(
        msg.contains(&format!("must be {expected} bytes")),
        "{msg:?}"
    );
    assert!(msg.contains(&format!("but {actual} bytes")), "{msg:?}");
}

macro_rules! wrong_lengths {
    ($set:ident, $vk:expr, $sk:expr, $sig:expr) => {{
        use $set::{Signature, SigningKey, VerifyingKey};
        for n in [0, $vk - 1, $vk + 1] {
            let e = VerifyingKey::from_slice(&vec![0; n]).unwrap_err();
            assert_length(&e, "verifying key", $vk, n);
        }
        for n in [0, $sk - 1, $sk + 1] {
            let e = SigningKey::from_slice(&vec![0; n]).unwrap_err();
            assert_length(&e, "signing key", $sk, n);
        }
        for n in [0, $sig - 1, $sig + 1] {
            let e = Signature::from_slice(&vec![0; n]).unwrap_err();
            assert_length(&e, "signature", $sig, n);
        }
    }};
}

#[test]
fn length_errors_name_the_object_and_both_sizes() {
    wrong_lengths!(ml_dsa_44, 1312, 2560, 2420);
    wrong_lengths!(ml_dsa_65, 1952, 4032, 3309);
    wrong_lengths!(ml_dsa_87, 2592, 4896, 4627);
    // A HashML-DSA digest of the wrong length (FIPS 204 §5.4: SHA-256 is 32 bytes).
    let (sk, _) = ml_dsa_65::generate_deterministic(&[3; 32]);
    let e = sk
        .sign_prehash_deterministic(PreHash::Sha2_256, &[0; 31], b"")
        .unwrap_err();
    assert_length(&e, "digest", 32, 31);
}

#[test]
fn every_other_error_is_a_sentence() {
    for e in [
        Error::InvalidKey,
        Error::ContextTooLong,
        Error::InvalidSignature,
        Error::Der,
        Error::Algorithm,
        Error::InconsistentKey,
        Error::NoSeed,
        Error::PairwiseConsistency,
        Error::SelfTest,
    ] {
        assert_sentence(&e.to_string());
    }
    let (sk, _) = ml_dsa_44::generate_deterministic(&[4; 32]);
    let e = sk.sign_deterministic(b"m", &[0; 256]).unwrap_err();
    assert_eq!(e, Error::ContextTooLong);
    assert!(e.to_string().contains("255 bytes"), "{e}");
}

/// A too-small output buffer is reported as such, not as a wrong input.
#[cfg(feature = "pkcs8")]
#[test]
fn output_buffer_errors_say_output() {
    use pqdr_mldsa::PrivateKeyForm;
    let (sk, vk) = ml_dsa_65::generate_deterministic(&[5; 32]);
    let mut short = [0u8; 10];
    let msg = vk.to_spki_der(&mut short).unwrap_err().to_string();
    assert_sentence(&msg);
    assert!(
        msg.contains("output buffer of 10 bytes is too small"),
        "{msg:?}"
    );
    let mut full = [0u8; 3000];
    let need = vk.to_spki_der(&mut full).unwrap().len();
    assert!(
        msg.contains(&format!("encoding of {need} bytes")),
        "{msg:?}"
    );
    let e = sk
        .to_private_key_der(PrivateKeyForm::Seed, &mut short)
        .unwrap_err();
    assert!(e.to_string().contains("output buffer"), "{e}");
}
