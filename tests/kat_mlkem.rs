//! NIST-format KATs for ML-KEM-512/768/1024: 100 records generated from the
//! standard `.req` seeds, compared by SHA-256 with `kat/kat-checksums.json`
//! (first record = PQClean `nistkat-sha256`, all records = liboqs `all`, whole
//! file) and byte for byte with the stored `.rsp`; the stored files are also
//! re-checked record by record (`kem_check`, which also decapsulates every `ct`).
#![cfg(feature = "mlkem")]

use pqdr_kat::rsp::{digest_input, kem_req};
use pqdr_suite::kat::{find_kem, kem_check, kem_rsp};
mod common;
use common::*;

fn check(name: &str) {
    let alg = find_kem(name).expect("registered");
    let ours = kem_rsp(alg, &kem_req(100)).expect("rsp");
    let sums = checksums();
    let want = &sums[alg.header];
    let first = sha256_hex(&digest_input::first_record(&ours));
    let all = sha256_hex(&digest_input::records(&ours, 100));
    let file = sha256_hex(&ours);
    println!("{}: first record {first}", alg.header);
    println!("{}: 100 records  {all}", alg.header);
    println!("{}: whole file   {file}", alg.header);
    assert_eq!(
        first,
        want["pqclean_nistkat_sha256"].as_str().expect("field")
    );
    assert_eq!(all, want["liboqs_all"].as_str().expect("field"));
    assert_eq!(
        file,
        want["stored_file"]["file_sha256"].as_str().expect("field")
    );
    let stored = stored_rsp(&format!("PQCkemKAT_{}", alg.header));
    assert!(
        ours == stored,
        "generated .rsp differs from the stored file"
    );
    let report = kem_check(alg, &stored).expect("parse");
    println!(
        "{}: kem_check {} records, {} mismatches",
        alg.header,
        report.checked,
        report.mismatches.len()
    );
    assert_eq!(report.checked, 100);
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
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
