//! Checks shared by the crates' known-answer tests: SHA-256 digests of
//! `.rsp` texts compared with the upstream checksums of
//! `vectors/kat-checksums.json`, and the stored `.rsp` files of
//! `vectors/nist-kat/`.

use sha2::{Digest, Sha256};

use crate::registry::CheckReport;
use crate::rsp::digest_input;

/// Lowercase hex SHA-256 of a text (as `sha256sum` prints it).
pub fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `vectors/kat-checksums.json`: the upstream checksums per variant.
///
/// # Panics
/// If the file is missing or not JSON.
pub fn checksums() -> serde_json::Value {
    let path = crate::vectors_dir().join("kat-checksums.json");
    serde_json::from_slice(&std::fs::read(&path).expect("kat-checksums.json")).expect("JSON")
}

/// The stored `vectors/nist-kat/<stem>.rsp` (or its `.gz`), as text.
///
/// # Panics
/// If the file is missing or not UTF-8.
pub fn stored_rsp(stem: &str) -> String {
    let path = crate::vectors_dir()
        .join("nist-kat")
        .join(format!("{stem}.rsp"));
    String::from_utf8(crate::read_maybe_gz(&path).expect("stored .rsp")).expect("UTF-8")
}

/// SHA-256 of the first record, of the first `records` records (liboqs `all`)
/// and of the whole text; prints each under `label` and asserts them against
/// the expected upstream values (`None` skips that digest).
///
/// # Panics
/// If a digest differs from its expected value.
pub fn assert_digests(
    label: &str,
    rsp: &str,
    records: usize,
    first: Option<&str>,
    all: Option<&str>,
    file: Option<&str>,
) {
    let got_first = sha256_hex(&digest_input::first_record(rsp));
    let got_all = sha256_hex(&digest_input::records(rsp, records));
    let got_file = sha256_hex(rsp);
    println!("{label}: first record {got_first}");
    println!("{label}: {records} records  {got_all}");
    println!("{label}: whole file   {got_file}");
    for (what, got, want) in [
        ("first record", got_first, first),
        ("all records", got_all, all),
        ("whole file", got_file, file),
    ] {
        if let Some(want) = want {
            assert_eq!(got, want, "{label}: SHA-256 of the {what}");
        }
    }
}

/// Asserts that re-checking a stored file covered `records` records with no mismatch.
///
/// # Panics
/// If another number of records was checked, or any mismatched.
pub fn assert_clean_report(label: &str, report: &CheckReport, records: usize) {
    println!(
        "{label}: {} records re-checked, {} mismatches",
        report.checked,
        report.mismatches.len()
    );
    assert_eq!(report.checked, records);
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}
