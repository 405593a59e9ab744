//! NIST-format KATs for ML-KEM-512/768/1024: 100 records generated from the
//! standard `.req` seeds, compared by SHA-256 with `vectors/kat-checksums.json`
//! (first record = PQClean `nistkat-sha256`, all records = liboqs `all`, whole
//! file) and byte for byte with the stored `.rsp`; the stored files are also
//! re-checked record by record (`kem_check`, which also decapsulates every `ct`).
#![cfg(all(
    feature = "ml_kem_512",
    feature = "ml_kem_768",
    feature = "ml_kem_1024"
))]

use pqdr_kat::checks::*;
use pqdr_kat::registry::{KemAlg, kem_by_name, kem_check, kem_rsp};
use pqdr_kat::rsp::kem_req;
mod kat_registry;

/// The registry entry named `name` (as `katkem` names it).
fn find_kem(name: &str) -> Option<&'static KemAlg> {
    kem_by_name(kat_registry::ALGORITHMS, name)
}

fn check(name: &str) {
    let alg = find_kem(name).expect("registered");
    let ours = kem_rsp(alg, &kem_req(100)).expect("rsp");
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
    let stored = stored_rsp(&format!("PQCkemKAT_{}", alg.header));
    assert!(
        ours == stored,
        "generated .rsp differs from the stored file"
    );
    let report = kem_check(alg, &stored).expect("parse");
    assert_clean_report(alg.header, &report, 100);
}

#[test]
fn kat_ml_kem_512() {
    check("ml-kem-512");
}

#[test]
fn kat_ml_kem_768() {
    check("ml-kem-768");
}

#[test]
fn kat_ml_kem_1024() {
    check("ml-kem-1024");
}

#[test]
fn kem_check_detects_a_tampered_ciphertext() {
    let alg = find_kem("ml-kem-768").expect("registered");
    let stored = stored_rsp(&format!("PQCkemKAT_{}", alg.header));
    // Flip one hex digit inside the first record's ct.
    let pos = stored.find("ct = ").expect("ct") + 5 + 100;
    let mut bytes = stored.into_bytes();
    bytes[pos] = if bytes[pos] == b'0' { b'1' } else { b'0' };
    let tampered = String::from_utf8(bytes).expect("UTF-8");
    let report = kem_check(alg, &tampered).expect("parse");
    println!("tampered ct: {} mismatches", report.mismatches.len());
    assert!(!report.mismatches.is_empty());
}
