//! Every error message is one full sentence that names what was wrong: a
//! length error names the object (key, ciphertext, output buffer) and both
//! sizes (issue #37 item 9). The sizes are the Classic McEliece
//! submission's (spec §7 parameter sets; pc: C1 adds 32 bytes).
#![allow(clippy::unwrap_used, reason = "tests")]

use crate::common::TestRng;
use pqdr_mceliece::{Error, mceliece348864, mceliece348864pc, mceliece460896, mceliece6960119};

/// A sentence: a capital first letter, one final full stop, no line break.
fn assert_sentence(msg: &str) {
    assert!(msg.starts_with(char::is_uppercase), "{msg:?}");
    assert!(msg.ends_with('.') && !msg.contains('\n'), "{msg:?}");
    assert!(
        msg.contains("Classic McEliece"),
        "names the algorithm: {msg:?}"
    );
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
    wrong_lengths!(mceliece348864, 261_120, 6492, 96);
    wrong_lengths!(mceliece348864pc, 261_120, 6492, 128);
    wrong_lengths!(mceliece460896, 524_160, 13_608, 156);
    wrong_lengths!(mceliece6960119, 1_047_319, 13_948, 194);
    // A streamed public key one byte too long.
    let mut st = pqdr_mceliece::StreamingEncapsulation::<pqdr_mceliece::Mceliece348864>::new(
        &mut TestRng(1),
    );
    let e = st.update(&vec![0; 261_121]).unwrap_err();
    assert_length(e, "encapsulation key", 261_120, 261_121);
}

#[test]
fn every_other_error_is_a_sentence() {
    for e in [
        Error::InvalidKey,
        Error::InvalidCiphertext,
        Error::Der,
        Error::Algorithm,
        Error::InconsistentKey,
        Error::Unverifiable,
        Error::PairwiseConsistency,
        Error::SelfTest,
    ] {
        assert_sentence(&e.to_string());
    }
    // Nonzero padding bits at the end of C0 (mceliece6960119: mt = 1547 bits).
    let mut ct = [0u8; 194];
    ct[193] = 0x80;
    let e = mceliece6960119::Ciphertext::from_array(&ct).unwrap_err();
    assert_eq!(e, Error::InvalidCiphertext);
    assert!(e.to_string().contains("padding"), "{e}");
}

/// A too-small output buffer is reported as such, not as a wrong input.
#[cfg(feature = "pkcs8")]
#[test]
fn output_buffer_errors_say_output() {
    use pqdr_mceliece::{Buf, Mceliece460896, ParameterSet};
    let pk = <Mceliece460896 as ParameterSet>::PkBytes::boxed_zeroed();
    let mut short = [0u8; 10];
    let msg = pqdr_mceliece::public_key_to_spki_der::<Mceliece460896>(&pk, &mut short)
        .unwrap_err()
        .to_string();
    assert_sentence(&msg);
    assert!(
        msg.contains("output buffer of 10 bytes is too small"),
        "{msg:?}"
    );
    let mut full = vec![0u8; 525_000];
    let need = pqdr_mceliece::public_key_to_spki_der::<Mceliece460896>(&pk, &mut full)
        .unwrap()
        .len();
    assert!(
        msg.contains(&format!("encoding of {need} bytes")),
        "{msg:?}"
    );
}
