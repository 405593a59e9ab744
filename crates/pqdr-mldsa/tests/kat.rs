//! NIST-format KATs for ML-DSA-44/65/87: 100 records generated from the
//! standard `.req` seeds, compared by SHA-256 with `vectors/kat-checksums.json`
//! (first record = PQClean `nistkat-sha256`, all records = liboqs `all`, whole
//! file) and byte for byte with the stored `.rsp`; the stored files are also
//! re-checked record by record (`sign_check`, which opens every `sm`).
#![cfg(all(feature = "ml_dsa_44", feature = "ml_dsa_65", feature = "ml_dsa_87"))]

use pqdr_kat::checks::*;
use pqdr_kat::registry::{SignAlg, sign_by_name, sign_check, sign_rsp};
use pqdr_kat::rsp::sign_req;
mod kat_registry;

/// The registry entry named `name` (as `katsign` names it).
fn find_sign(name: &str) -> Option<&'static SignAlg> {
    sign_by_name(kat_registry::ALGORITHMS, name)
}

fn check(name: &str) {
    let alg = find_sign(name).expect("registered");
    let ours = sign_rsp(alg, &sign_req(100)).expect("rsp");
    let want = &checksums()[alg.header];
    let field = |v: &serde_json::Value| v.as_str().expect("field").to_string();
    assert_digests(
        alg.header,
        &ours,
        100,
        Some(&field(&want["pqclean_nistkat_sha256"])),
        Some(&field(&want["liboqs_all"])),
        Some(&field(&want["stored_file"]["file_sha256"])),
    );
    let stored = stored_rsp(&format!("PQCsignKAT_{}", alg.header));
    assert!(
        ours == stored,
        "generated .rsp differs from the stored file"
    );
    let report = sign_check(alg, &stored).expect("parse");
    assert_clean_report(alg.header, &report, 100);
}

#[test]
fn kat_ml_dsa_44() {
    check("ml-dsa-44");
}

#[test]
fn kat_ml_dsa_65() {
    check("ml-dsa-65");
}

#[test]
fn kat_ml_dsa_87() {
    check("ml-dsa-87");
}

#[test]
fn sign_check_detects_a_tampered_signature() {
    let alg = find_sign("ml-dsa-44").expect("registered");
    let stored = stored_rsp(&format!("PQCsignKAT_{}", alg.header));
    // Flip one hex digit inside the first record's sm (past the signature's c̃).
    let pos = stored.find("sm = ").expect("sm") + 5 + 200;
    let mut bytes = stored.into_bytes();
    bytes[pos] = if bytes[pos] == b'0' { b'1' } else { b'0' };
    let tampered = String::from_utf8(bytes).expect("UTF-8");
    let report = sign_check(alg, &tampered).expect("parse");
    assert!(!report.mismatches.is_empty());
}
