//! Every error message is one full sentence that names what was wrong: a
//! length error names the object (key, ciphertext, seed, output buffer) and
//! both sizes (issue #37 item 9). The sizes are FIPS 203 Table 3's.
#![allow(clippy::unwrap_used, reason = "tests")]

use pqdr_mlkem::{Error, ml_kem_512, ml_kem_768, ml_kem_1024};

/// A sentence: a capital first letter, one final full stop, no line break.
fn assert_sentence(msg: &str) {
    assert!(msg.starts_with(char::is_uppercase), "{msg:?}");
    assert!(msg.ends_with('.') && !msg.contains('\n'), "{msg:?}");
    assert!(msg.contains("ML-KEM"), "names the algorithm: {msg:?}");
}

/// `e` is a length error whose message names `what` and both sizes.
fn assert_length(e: Error, what: &str, expected: usize, actual: usize) {
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
    ($set:ident, $ek:expr, $dk:expr, $ct:expr) => {{
        use $set::{Ciphertext, DecapsulationKey, EncapsulationKey};
        for n in [0, $ek - 1, $ek + 1] {
            let e = EncapsulationKey::from_slice(&vec![0; n]).unwrap_err();
            assert_length(e, "encapsulation key", $ek, n);
        }
        for n in [0, $dk - 1, $dk + 1] {
            let e = DecapsulationKey::from_slice(&vec![0; n]).unwrap_err();
            assert_length(e, "decapsulation key", $dk, n);
        }
        for n in [0, $ct - 1, $ct + 1] {
            let e = Ciphertext::from_slice(&vec![0; n]).unwrap_err();
            assert_length(e, "ciphertext", $ct, n);
        }
    }};
}

#[test]
fn length_errors_name_the_object_and_both_sizes() {
    wrong_lengths!(ml_kem_512, 800, 1632, 768);
    wrong_lengths!(ml_kem_768, 1184, 2400, 1088);
    wrong_lengths!(ml_kem_1024, 1568, 3168, 1568);
}

#[test]
fn every_other_error_is_a_sentence() {
    for e in [
        Error::InvalidKey,
        Error::Der,
        Error::Algorithm,
        Error::InconsistentKey,
        Error::NoSeed,
        Error::PairwiseConsistency,
        Error::SelfTest,
    ] {
        assert_sentence(&e.to_string());
    }
    // The validity check names the spec checks, apart from the length.
    let mut ek = [0xffu8; 1184];
    ek[1152..].fill(0);
    let e = ml_kem_768::EncapsulationKey::from_array(&ek).unwrap_err();
    assert_eq!(e, Error::InvalidKey);
    assert!(e.to_string().contains("§7.2"));
}

/// A too-small output buffer is reported as such, not as a wrong input.
#[cfg(feature = "pkcs8")]
#[test]
fn output_buffer_errors_say_output() {
    use pqdr_mlkem::PrivateKeyForm;
    let (dk, ek) = ml_kem_768::generate_deterministic(&[1; 32], &[2; 32]);
    let mut short = [0u8; 10];
    let msg = ek.to_spki_der(&mut short).unwrap_err().to_string();
    assert_sentence(&msg);
    assert!(
        msg.contains("output buffer of 10 bytes is too small"),
        "{msg:?}"
    );
    let mut full = [0u8; 2000];
    let need = ek.to_spki_der(&mut full).unwrap().len();
    assert!(
        msg.contains(&format!("encoding of {need} bytes")),
        "{msg:?}"
    );
    let e = dk
        .to_private_key_der(PrivateKeyForm::Seed, &mut short)
        .unwrap_err();
    assert!(e.to_string().contains("output buffer"), "{e}");
}
