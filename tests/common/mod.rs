//! Helpers shared by the known-answer tests: digests and the stored data in `kat/`.
#![allow(dead_code, reason = "each test file uses a subset")]

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of a text (as `sha256sum` prints it).
pub(crate) fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `kat/kat-checksums.json`: the upstream checksums per variant.
pub(crate) fn checksums() -> serde_json::Value {
    let path = pqdr_kat::kat_dir().join("kat-checksums.json");
    serde_json::from_slice(&std::fs::read(&path).expect("kat-checksums.json")).expect("JSON")
}

/// The stored `kat/nist-kat/<stem>.rsp` (or its `.gz`), as text.
pub(crate) fn stored_rsp(stem: &str) -> String {
    let path = pqdr_kat::kat_dir()
        .join("nist-kat")
        .join(format!("{stem}.rsp"));
    String::from_utf8(pqdr_kat::read_maybe_gz(&path).expect("stored .rsp")).expect("UTF-8")
}
