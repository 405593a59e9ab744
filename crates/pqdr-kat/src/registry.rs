//! The algorithm-independent half of the KAT tools: what a parameter set
//! must provide ([`KemAlg`], [`SignAlg`]), and how a `.req` becomes a `.rsp`
//! and a stored `.rsp` is re-checked record by record, as the reference
//! `PQCgenKAT_kem.c` / `PQCgenKAT_sign.c` write them.
//!
//! Each algorithm crate's `tests/kat_registry/` holds its table of entries
//! (one per parameter set): how the 48-byte `seed` of a `.req` record turns
//! into the record's values, drawing randomness from the NIST DRBG in the
//! reference implementation's call pattern, and how to check a record it did
//! not produce (decapsulate its `ct`, open its `sm`). The crate's own
//! `tests/kat.rs` and the `katkem` / `katsign` tools of the root package use
//! the same table.

use crate::rsp::{self, ParseError};

/// The values of one KEM record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KemOutput {
    /// `pk`
    pub pk: Vec<u8>,
    /// `sk`
    pub sk: Vec<u8>,
    /// `ct`
    pub ct: Vec<u8>,
    /// `ss`
    pub ss: Vec<u8>,
}

/// `crypto_kem_dec(ct, sk)` / `crypto_sign_open(sm, pk)`: bytes out, or why not.
pub type CheckFn = fn(key: &[u8], input: &[u8]) -> Result<Vec<u8>, String>;

/// A KEM parameter set as the KAT tools see it.
#[derive(Clone, Copy, Debug)]
pub struct KemAlg {
    /// Command-line name, e.g. `ml-kem-768`, `sntrup761`, `mceliece348864`.
    pub name: &'static str,
    /// The `.rsp` header without `# `, e.g. `ML-KEM-768`, `kem/sntrup761`.
    pub header: &'static str,
    /// `crypto_kem_keypair` then `crypto_kem_enc` with a DRBG seeded by `seed`.
    pub record: fn(seed: &[u8; 48]) -> KemOutput,
    /// `crypto_kem_dec(ct, sk)`; `Err` for inputs of the wrong size.
    pub decapsulate: CheckFn,
}

/// The values of one signature record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignOutput {
    /// `pk`
    pub pk: Vec<u8>,
    /// `sk`
    pub sk: Vec<u8>,
    /// `sm` = signature ‖ message
    pub sm: Vec<u8>,
}

/// A signature parameter set as the KAT tools see it.
#[derive(Clone, Copy, Debug)]
pub struct SignAlg {
    /// Command-line name, e.g. `ml-dsa-65`.
    pub name: &'static str,
    /// The `.rsp` header without `# `, e.g. `ML-DSA-65`.
    pub header: &'static str,
    /// `crypto_sign_keypair` then `crypto_sign(msg)` with a DRBG seeded by `seed`.
    pub record: fn(seed: &[u8; 48], msg: &[u8]) -> SignOutput,
    /// `crypto_sign_open(sm, pk)`: the message, or `Err` if the signature is invalid.
    pub open: CheckFn,
}

/// Computes the KEM record for one parsed `.req`/`.rsp` record (uses its `count` and `seed`).
///
/// # Errors
/// The record lacks a valid `count` or 48-byte `seed`.
pub fn kem_record(alg: &KemAlg, rec: &rsp::Record) -> Result<String, ParseError> {
    let count = rec.number("count")?;
    let seed: [u8; 48] = rec.hex_array("seed")?;
    let o = (alg.record)(&seed);
    Ok(rsp::kem_record(count, &seed, &o.pk, &o.sk, &o.ct, &o.ss))
}

/// Writes the whole `.rsp` text for a `.req` text, as `PQCgenKAT_kem.c` does.
///
/// # Errors
/// A malformed `.req` record.
pub fn kem_rsp(alg: &KemAlg, req: &str) -> Result<String, ParseError> {
    let file = rsp::parse_file(req)?;
    let mut out = rsp::header(alg.header);
    for rec in &file.records {
        out.push_str(&kem_record(alg, rec)?);
    }
    Ok(out)
}

/// Computes the signature record for one parsed record (uses `count`, `seed`, `msg`).
///
/// # Errors
/// The record lacks `count`, a 48-byte `seed`, or a hex `msg` of length `mlen`.
pub fn sign_record(alg: &SignAlg, rec: &rsp::Record) -> Result<String, ParseError> {
    let count = rec.number("count")?;
    let seed: [u8; 48] = rec.hex_array("seed")?;
    let mlen = rec.number("mlen")?;
    let msg = if mlen == 0 {
        Vec::new()
    } else {
        rec.hex("msg")?
    };
    if msg.len() != mlen {
        return Err(rec.err(format!("`msg` has {} bytes but mlen = {mlen}", msg.len())));
    }
    let o = (alg.record)(&seed, &msg);
    Ok(rsp::SignRecord {
        count,
        seed: &seed,
        msg: &msg,
        pk: &o.pk,
        sk: &o.sk,
        sm: &o.sm,
    }
    .to_rsp())
}

/// Writes the whole `.rsp` text for a `.req` text, as `PQCgenKAT_sign.c` does.
///
/// # Errors
/// A malformed `.req` record.
pub fn sign_rsp(alg: &SignAlg, req: &str) -> Result<String, ParseError> {
    let file = rsp::parse_file(req)?;
    let mut out = rsp::header(alg.header);
    for rec in &file.records {
        out.push_str(&sign_record(alg, rec)?);
    }
    Ok(out)
}

/// Result of re-checking an existing `.rsp` file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Records checked.
    pub checked: usize,
    /// One line per mismatch (`count = N: field differs`, or a parse problem).
    pub mismatches: Vec<String>,
}

fn compare(rec: &rsp::Record, ours: &str, report: &mut CheckReport) -> Result<(), ParseError> {
    let ours = &rsp::parse(ours)?[0];
    let count = rec.get("count").unwrap_or("?");
    for (k, v) in &ours.fields {
        match rec.get(k) {
            Some(theirs) if theirs.eq_ignore_ascii_case(v) => {}
            Some(_) => report
                .mismatches
                .push(format!("count = {count}: `{k}` differs")),
            None => report
                .mismatches
                .push(format!("count = {count}: `{k}` missing")),
        }
    }
    Ok(())
}

/// Re-computes every record of a KEM `.rsp` text and also decapsulates its
/// `ct` with its `sk` (so a file made by another implementation is checked
/// for interoperability, not only for equality).
///
/// # Errors
/// The file cannot be parsed at all.
pub fn kem_check(alg: &KemAlg, rsp_text: &str) -> Result<CheckReport, ParseError> {
    let file = rsp::parse_file(rsp_text)?;
    let mut report = CheckReport::default();
    for rec in &file.records {
        report.checked += 1;
        match kem_record(alg, rec) {
            Ok(ours) => compare(rec, &ours, &mut report)?,
            Err(e) => {
                report.mismatches.push(e.to_string());
                continue;
            }
        }
        let count = rec.get("count").unwrap_or("?");
        match (rec.hex("sk"), rec.hex("ct"), rec.hex("ss")) {
            (Ok(sk), Ok(ct), Ok(ss)) => match (alg.decapsulate)(&sk, &ct) {
                Ok(k) if k == ss => {}
                Ok(_) => report.mismatches.push(format!(
                    "count = {count}: decapsulating the file's ct gives another ss"
                )),
                Err(e) => report
                    .mismatches
                    .push(format!("count = {count}: decapsulation: {e}")),
            },
            _ => report
                .mismatches
                .push(format!("count = {count}: missing sk/ct/ss")),
        }
    }
    Ok(report)
}

/// Re-computes every record of a signature `.rsp` text and also opens its `sm`
/// with its `pk`.
///
/// # Errors
/// The file cannot be parsed at all.
pub fn sign_check(alg: &SignAlg, rsp_text: &str) -> Result<CheckReport, ParseError> {
    let file = rsp::parse_file(rsp_text)?;
    let mut report = CheckReport::default();
    for rec in &file.records {
        report.checked += 1;
        match sign_record(alg, rec) {
            Ok(ours) => compare(rec, &ours, &mut report)?,
            Err(e) => {
                report.mismatches.push(e.to_string());
                continue;
            }
        }
        let count = rec.get("count").unwrap_or("?");
        match (rec.hex("pk"), rec.hex("sm"), rec.hex("msg")) {
            (Ok(pk), Ok(sm), Ok(msg)) => match (alg.open)(&pk, &sm) {
                Ok(m) if m == msg || (msg == [0] && m.is_empty()) => {}
                Ok(_) => report
                    .mismatches
                    .push(format!("count = {count}: opened message differs")),
                Err(e) => report
                    .mismatches
                    .push(format!("count = {count}: open: {e}")),
            },
            _ => report
                .mismatches
                .push(format!("count = {count}: missing pk/sm/msg")),
        }
    }
    Ok(report)
}

/// The entry of `table` named `name` (case-insensitive), e.g. `ml-kem-768`.
pub fn kem_by_name<'a>(table: &'a [KemAlg], name: &str) -> Option<&'a KemAlg> {
    table.iter().find(|a| a.name.eq_ignore_ascii_case(name))
}

/// The entry of `table` named `name` (case-insensitive), e.g. `ml-dsa-65`.
pub fn sign_by_name<'a>(table: &'a [SignAlg], name: &str) -> Option<&'a SignAlg> {
    table.iter().find(|a| a.name.eq_ignore_ascii_case(name))
}
