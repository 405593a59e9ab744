//! The NIST `.req` / `.rsp` known-answer formats, byte for byte as
//! `PQCgenKAT_kem.c` and `PQCgenKAT_sign.c` print them.
//!
//! ```text
//! # ML-KEM-768            <- header (.rsp only), then an empty line
//!
//! count = 0
//! seed = 0615...          <- uppercase hex, `00` for an empty value
//! pk = ...
//! ...
//!                         <- every record ends with an empty line
//! ```

use crate::Drbg;
use crate::hex;
use std::fmt::Write as _;

/// One record: its `key = value` lines in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `(key, value)` pairs; `value` is empty for `pk =` lines of a `.req` file.
    pub fields: Vec<(String, String)>,
    /// 1-based line number of the record's first line (for error messages).
    pub line: usize,
}

impl Record {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `key` decoded from hex.
    ///
    /// # Errors
    /// A message naming the record and the key if it is missing or not hex.
    pub fn hex(&self, key: &str) -> Result<Vec<u8>, ParseError> {
        let v = self
            .get(key)
            .ok_or_else(|| self.err(format!("missing `{key} = `")))?;
        hex::decode(v).ok_or_else(|| self.err(format!("`{key}` is not hex")))
    }

    /// The value of `key` as a fixed-size array.
    ///
    /// # Errors
    /// Missing key, bad hex or wrong length.
    pub fn hex_array<const N: usize>(&self, key: &str) -> Result<[u8; N], ParseError> {
        let v = self.hex(key)?;
        let len = v.len();
        v.try_into()
            .map_err(|_| self.err(format!("`{key}` has {len} bytes, expected {N}")))
    }

    /// The value of `key` as a decimal number.
    ///
    /// # Errors
    /// Missing key or not a number.
    pub fn number(&self, key: &str) -> Result<usize, ParseError> {
        let v = self
            .get(key)
            .ok_or_else(|| self.err(format!("missing `{key} = `")))?;
        v.parse()
            .map_err(|_| self.err(format!("`{key}` is not a decimal number")))
    }

    /// An error located at this record.
    pub fn err(&self, message: String) -> ParseError {
        ParseError {
            line: self.line,
            message,
        }
    }
}

/// A malformed `.req` / `.rsp` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A parsed file: the optional `# name` header and the records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct File {
    /// The header without `# ` (e.g. `ML-KEM-768`, `kem/sntrup761`), if any.
    pub header: Option<String>,
    /// The records in file order.
    pub records: Vec<Record>,
}

/// Parses a `.req` or `.rsp` file.
///
/// # Errors
/// A line that is neither a comment, empty, nor `key = value`; or a record
/// that does not start with `count = `.
pub fn parse_file(text: &str) -> Result<File, ParseError> {
    let mut file = File::default();
    let mut cur: Option<Record> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        let lineno = i + 1;
        if let Some(h) = line.strip_prefix('#') {
            if file.header.is_none() && file.records.is_empty() && cur.is_none() {
                file.header = Some(h.trim().to_string());
            }
            continue;
        }
        if line.trim().is_empty() {
            if let Some(r) = cur.take() {
                file.records.push(r);
            }
            continue;
        }
        let (k, v) = line.split_once('=').ok_or_else(|| ParseError {
            line: lineno,
            message: format!("expected `key = value`, found {line:?}"),
        })?;
        let (k, v) = (k.trim().to_string(), v.trim().to_string());
        let rec = cur.get_or_insert_with(|| Record {
            fields: Vec::new(),
            line: lineno,
        });
        if rec.fields.is_empty() && k != "count" {
            return Err(ParseError {
                line: lineno,
                message: format!("a record must start with `count = `, found `{k}`"),
            });
        }
        rec.fields.push((k, v));
    }
    if let Some(r) = cur.take() {
        file.records.push(r);
    }
    Ok(file)
}

/// Parses a file and returns only its records.
///
/// # Errors
/// As [`parse_file`].
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    Ok(parse_file(text)?.records)
}

/// Appends `key = HEX\n` (`00` for an empty value, as `fprintBstr` does).
pub fn push_hex(out: &mut String, key: &str, value: &[u8]) {
    out.push_str(key);
    out.push_str(" = ");
    if value.is_empty() {
        out.push_str("00");
    } else {
        out.push_str(&hex::encode(value));
    }
    out.push('\n');
}

/// Appends `key = N\n`.
pub fn push_num(out: &mut String, key: &str, value: usize) {
    let _ = writeln!(out, "{key} = {value}");
}

/// The `.rsp` header: `# NAME\n\n`.
pub fn header(name: &str) -> String {
    format!("# {name}\n\n")
}

/// The master DRBG of `PQCgenKAT_*.c`, seeded with the bytes 00 01 .. 2f.
pub fn master_drbg() -> Drbg {
    let entropy: [u8; 48] = core::array::from_fn(|i| u8::try_from(i).unwrap_or(0));
    Drbg::new(&entropy)
}

/// The `.req` file `PQCgenKAT_kem.c` writes, with `n` records.
pub fn kem_req(n: usize) -> String {
    let mut drbg = master_drbg();
    let mut out = String::new();
    for i in 0..n {
        push_num(&mut out, "count", i);
        push_hex(&mut out, "seed", &drbg.bytes::<48>());
        out.push_str("pk =\nsk =\nct =\nss =\n\n");
    }
    out
}

/// The `.req` file `PQCgenKAT_sign.c` writes, with `n` records
/// (`mlen = 33 (i + 1)`, seeds and messages drawn interleaved).
pub fn sign_req(n: usize) -> String {
    let mut drbg = master_drbg();
    let mut out = String::new();
    for i in 0..n {
        push_num(&mut out, "count", i);
        push_hex(&mut out, "seed", &drbg.bytes::<48>());
        let mlen = 33 * (i + 1);
        push_num(&mut out, "mlen", mlen);
        let mut msg = vec![0u8; mlen];
        drbg.fill(&mut msg);
        push_hex(&mut out, "msg", &msg);
        out.push_str("pk =\nsk =\nsmlen =\nsm =\n\n");
    }
    out
}

/// One KEM `.rsp` record (`count`, `seed`, `pk`, `sk`, `ct`, `ss`, empty line).
pub fn kem_record(count: usize, seed: &[u8], pk: &[u8], sk: &[u8], ct: &[u8], ss: &[u8]) -> String {
    let mut out = String::new();
    push_num(&mut out, "count", count);
    push_hex(&mut out, "seed", seed);
    push_hex(&mut out, "pk", pk);
    push_hex(&mut out, "sk", sk);
    push_hex(&mut out, "ct", ct);
    push_hex(&mut out, "ss", ss);
    out.push('\n');
    out
}

/// The fields of one signature `.rsp` record.
#[derive(Clone, Copy, Debug)]
pub struct SignRecord<'a> {
    /// `count`
    pub count: usize,
    /// `seed` (48 bytes)
    pub seed: &'a [u8],
    /// `msg` (`mlen` is its length)
    pub msg: &'a [u8],
    /// `pk`
    pub pk: &'a [u8],
    /// `sk`
    pub sk: &'a [u8],
    /// `sm` = signature ‖ message (`smlen` is its length)
    pub sm: &'a [u8],
}

impl SignRecord<'_> {
    /// The record as `PQCgenKAT_sign.c` prints it, with its trailing empty line.
    pub fn to_rsp(&self) -> String {
        let mut out = String::new();
        push_num(&mut out, "count", self.count);
        push_hex(&mut out, "seed", self.seed);
        push_num(&mut out, "mlen", self.msg.len());
        push_hex(&mut out, "msg", self.msg);
        push_hex(&mut out, "pk", self.pk);
        push_hex(&mut out, "sk", self.sk);
        push_num(&mut out, "smlen", self.sm.len());
        push_hex(&mut out, "sm", self.sm);
        out.push('\n');
        out
    }
}

/// Checksum inputs of KAT-CHECKSUMS.md, computed from a whole `.rsp` text.
pub mod digest_input {
    /// The bytes PQClean's `nistkat-sha256` (= liboqs `single`) hashes: the
    /// first record without the header and without its trailing empty line.
    pub fn first_record(rsp: &str) -> String {
        records(rsp, 1)
    }

    /// The bytes liboqs `all` hashes: the first `n` records separated by one
    /// empty line, no header, no empty line after the last record.
    pub fn records(rsp: &str, n: usize) -> String {
        let body = rsp
            .split_once("\n\n")
            .map(|(h, b)| if h.starts_with('#') { b } else { rsp })
            .unwrap_or(rsp);
        let recs: Vec<&str> = body
            .split("\n\n")
            .filter(|r| !r.is_empty())
            .take(n)
            .collect();
        let mut out = recs.join("\n\n");
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The master DRBG of `PQCgenKAT_*.c`, seeded with 00 01 .. 2f, produces the
    /// `seed = ` values of every reference KAT file (here: records 0, 1 and 2 of
    /// the ML-KEM-768 file in `vectors/`).
    #[test]
    fn master_drbg_reproduces_kat_seeds() {
        let entropy: [u8; 48] = core::array::from_fn(|i| u8::try_from(i).unwrap_or(0));
        let mut drbg = Drbg::new(&entropy);
        let data =
            crate::read_maybe_gz(&crate::vectors_dir().join("nist-kat/PQCkemKAT_ML-KEM-768.rsp"))
                .expect("kat file");
        let text = String::from_utf8(data).expect("utf8");
        let records = parse(&text).expect("parse");
        assert!(records.len() >= 3);
        for rec in &records[..3] {
            let seed: [u8; 48] = drbg.bytes();
            assert_eq!(hex::encode(&seed), rec.get("seed").expect("seed"));
        }
    }

    #[test]
    fn req_matches_reference_seeds_and_round_trips() {
        let req = kem_req(3);
        let f = parse_file(&req).expect("parse");
        assert_eq!(f.header, None);
        assert_eq!(f.records.len(), 3);
        assert_eq!(f.records[1].number("count"), Ok(1));
        assert_eq!(f.records[0].get("pk"), Some(""));
        assert!(
            f.records[0]
                .get("seed")
                .expect("seed")
                .starts_with("061550234D158C5E")
        );
    }

    #[test]
    fn malformed_is_an_error() {
        assert!(parse("count = 0\nthis line has no equals sign\n").is_err());
        assert!(parse("seed = 00\n").is_err());
        let r = &parse("count = 0\nseed = XYZ\n").expect("parse")[0];
        assert!(r.hex("seed").is_err());
        assert!(r.hex("pk").is_err());
    }

    #[test]
    fn record_layout_is_exact() {
        let r = kem_record(0, &[0xab], &[], &[1], &[2], &[3]);
        assert_eq!(
            r,
            "count = 0\nseed = AB\npk = 00\nsk = 01\nct = 02\nss = 03\n\n"
        );
        let text = format!(
            "{}{}{}",
            header("X"),
            r,
            kem_record(1, &[1], &[1], &[1], &[1], &[1])
        );
        assert_eq!(
            digest_input::first_record(&text),
            "count = 0\nseed = AB\npk = 00\nsk = 01\nct = 02\nss = 03\n"
        );
        assert!(digest_input::records(&text, 2).ends_with("ss = 01\n"));
        assert!(digest_input::records(&text, 2).contains("ss = 03\n\ncount = 1\n"));
    }

    #[test]
    fn sign_req_layout() {
        let f = parse(&sign_req(2)).expect("parse");
        assert_eq!(f[1].number("mlen"), Ok(66));
        assert_eq!(f[1].hex("msg").expect("msg").len(), 66);
    }
}
