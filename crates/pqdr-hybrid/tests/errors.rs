//! Every error message is one full sentence that names what was wrong: a
//! length error names the object (key, ciphertext, key share) and both
//! sizes (issue #37 item 9). Sizes: draft-connolly-cfrg-xwing-kem §5
//! (1216-byte keys, 32-byte seeds, 1120-byte ciphertexts) and
//! draft-ietf-tls-ecdhe-mlkem §3 (shares 1216 / 1120, P-256: 1249 / 1153).
#![allow(clippy::unwrap_used, reason = "tests")]

use pqdr_hybrid::{Error, x25519_mlkem768, xwing};

/// A sentence: a capital first letter, one final full stop, no line break.
fn assert_sentence(msg: &str) {
    assert!(msg.starts_with(char::is_uppercase), "{msg:?}");
    assert!(msg.ends_with('.') && !msg.contains('\n'), "{msg:?}");
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

#[test]
fn length_errors_name_the_object_and_both_sizes() {
    for n in [0, 1215, 1217] {
        let e = xwing::EncapsulationKey::from_slice(&vec![0; n]).unwrap_err();
        assert_length(e, "encapsulation key", 1216, n);
        let e = x25519_mlkem768::ClientShare::from_slice(&vec![0; n]).unwrap_err();
        assert_length(e, "client key share", 1216, n);
    }
    for n in [0, 31, 33] {
        let e = xwing::DecapsulationKey::from_slice(&vec![0; n]).unwrap_err();
        assert_length(e, "decapsulation key", 32, n);
    }
    for n in [0, 1119, 1121] {
        let e = xwing::Ciphertext::from_slice(&vec![0; n]).unwrap_err();
        assert_length(e, "ciphertext", 1120, n);
        let e = x25519_mlkem768::ServerShare::from_slice(&vec![0; n]).unwrap_err();
        assert_length(e, "server key share", 1120, n);
    }
    #[cfg(feature = "p256")]
    {
        use pqdr_hybrid::secp256r1_mlkem768 as p256;
        let e = p256::ClientShare::from_slice(&[4; 1248]).unwrap_err();
        assert_length(e, "client key share", 1249, 1248);
        let e = p256::ServerShare::from_slice(&[4; 1154]).unwrap_err();
        assert_length(e, "server key share", 1153, 1154);
    }
    #[cfg(feature = "p384")]
    {
        use pqdr_hybrid::secp384r1_mlkem1024 as p384;
        let e = p384::ClientShare::from_slice(&[4; 1664]).unwrap_err();
        assert_length(e, "client key share", 1665, 1664);
        let e = p384::ServerShare::from_slice(&[4; 1666]).unwrap_err();
        assert_length(e, "server key share", 1665, 1666);
    }
}

#[test]
fn every_other_error_is_a_sentence() {
    for e in [Error::InvalidKey, Error::LowOrderPoint, Error::InvalidPoint] {
        assert_sentence(&e.to_string());
    }
    // pk_M's first coefficient is 4095 >= q: the FIPS 203 §7.2 check.
    let mut ek = [0u8; 1216];
    ek[0] = 0xff;
    ek[1] = 0x0f;
    let e = xwing::EncapsulationKey::from_array(&ek).unwrap_err();
    assert_eq!(e, Error::InvalidKey);
    assert!(e.to_string().contains("§7.2"), "{e}");
}
