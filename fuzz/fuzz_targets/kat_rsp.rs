//! The NIST `.req` / `.rsp` reader and writers of pqdr-kat (`pqdr_kat::rsp`,
//! `pqdr_kat::hex`). `cargo run --example katkem` / `katsign` reach them
//! through the root crate's `pqdr_suite::nist_rsp` (not a dependency of this fuzz
//! crate), which only calls `rsp::parse_file` and the `Record` accessors
//! fuzzed here, then `rsp::kem_record` / `SignRecord::to_rsp` / `rsp::header`
//! to write. Input: `data[0]` selects the operation, the rest is the input
//! (as text: UTF-8, invalid sequences replaced).
//!
//! Checked properties:
//! - parse (op 0): arbitrary text never panics; `parse_file` succeeds iff
//!   every line is a `#` comment, blank, or `key = value` and every record
//!   starts with `count` (recomputed here, with the error's line number);
//!   `parse` gives the same records; records are non-empty, start with
//!   `count`, keys and values are trimmed, keys hold no `=`, line numbers
//!   increase. For every field: `Record::hex` accepts iff the value is valid
//!   hex (even length, digits 0-9a-fA-F), and then re-encodes to the value
//!   (ignoring case); `hex_array::<48>` iff also 48 bytes; `number` iff an
//!   optional `+` and decimal digits that fit a usize. Round trip through the
//!   writers: `header` + every record rewritten field by field with
//!   `push_num` (numbers) / `push_hex` (hex) parses to the same header, keys
//!   and values (an empty hex value is written `00`, as `fprintBstr` does);
//!   records with count, seed, pk, sk, ct, ss rewritten by `kem_record`, and
//!   those with count, seed, msg, pk, sk, sm by `SignRecord::to_rsp`, parse
//!   back to the same bytes (`mlen` / `smlen` = the lengths);
//! - hex (op 1): `hex::decode` accepts iff valid hex, re-encodes to the input
//!   (ignoring case), `decode_array::<N>` iff also N bytes; `encode` of
//!   arbitrary bytes is uppercase, twice as long, and decodes back;
//! - writers (op 2): a KEM and a signature record built from fuzz bytes, with
//!   a fuzz header, parse back to exactly those values, and
//!   `digest_input::first_record` of the text is the record without its
//!   trailing empty line; `kem_req(n)` / `sign_req(n)` parse to n records
//!   `count = 0..n` with 48-byte seeds (and `mlen = 33 (i + 1)` bytes of msg);
//! - digest input (op 3): `digest_input::first_record` / `records` on
//!   arbitrary text never panic, `first_record == records(_, 1)`, and the
//!   output ends with a newline.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_kat::hex;
use pqdr_kat::rsp::{self, File, ParseError, Record, SignRecord};

fn is_hex(s: &str) -> bool {
    s.len() % 2 == 0 && s.bytes().all(|c| c.is_ascii_hexdigit())
}

/// What `usize::from_str` accepts: an optional `+`, then decimal digits, in range.
fn as_number(s: &str) -> Option<usize> {
    let digits = s.strip_prefix('+').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut n: usize = 0;
    for c in digits.bytes() {
        n = n.checked_mul(10)?.checked_add(usize::from(c - b'0'))?;
    }
    Some(n)
}

/// The format of `rsp`'s module doc, recomputed: `Err(line)` of the first bad line.
fn expected_parse(text: &str) -> Result<(), usize> {
    let mut in_record = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            in_record = false;
            continue;
        }
        let Some((k, _)) = line.split_once('=') else {
            return Err(i + 1);
        };
        if !in_record && k.trim() != "count" {
            return Err(i + 1);
        }
        in_record = true;
    }
    Ok(())
}

fn check_hex_field(rec: &Record, key: &str) {
    let v = rec.get(key).expect("present key");
    match rec.hex(key) {
        Ok(bytes) => {
            assert!(is_hex(v), "non-hex value {v:?} accepted");
            assert!(hex::encode(&bytes).eq_ignore_ascii_case(v));
            match rec.hex_array::<48>(key) {
                Ok(a) => assert_eq!(a[..], bytes[..]),
                Err(_) => assert_ne!(bytes.len(), 48),
            }
        }
        Err(e) => {
            assert!(!is_hex(v), "hex value {v:?} rejected");
            assert_eq!(e.line, rec.line);
            assert!(rec.hex_array::<48>(key).is_err());
        }
    }
    assert_eq!(rec.number(key).ok(), as_number(v), "number({v:?})");
}

/// `value` as written by `push_hex` and read back: an empty value is `00`.
fn written(value: &[u8]) -> Vec<u8> {
    if value.is_empty() {
        vec![0]
    } else {
        value.to_vec()
    }
}

/// Rewrites the file with `header`, `push_num` and `push_hex` when every
/// field is a number or hex (and no key would turn into a comment), and
/// checks that it parses back to the same keys and values.
fn check_generic_round_trip(file: &File) {
    let mut out = String::new();
    if let Some(h) = &file.header {
        out.push_str(&rsp::header(h));
    }
    let mut expect: Vec<Vec<(String, Option<usize>, Option<Vec<u8>>)>> = Vec::new();
    for rec in &file.records {
        if rec.fields.iter().any(|(k, _)| k.starts_with('#')) {
            return;
        }
        let mut fields = Vec::new();
        for (k, v) in &rec.fields {
            if let Some(n) = as_number(v) {
                rsp::push_num(&mut out, k, n);
                fields.push((k.clone(), Some(n), None));
            } else if let Some(b) = hex::decode(v) {
                rsp::push_hex(&mut out, k, &b);
                fields.push((k.clone(), None, Some(written(&b))));
            } else {
                return;
            }
        }
        out.push('\n');
        expect.push(fields);
    }
    let again = rsp::parse_file(&out).unwrap_or_else(|e| panic!("rewritten file: {e}\n{out}"));
    assert_eq!(again.header, file.header);
    assert_eq!(again.records.len(), expect.len());
    for (rec, fields) in again.records.iter().zip(&expect) {
        assert_eq!(rec.fields.len(), fields.len());
        for ((k, v), (ek, en, eb)) in rec.fields.iter().zip(fields) {
            assert_eq!(k, ek);
            match (en, eb) {
                (Some(n), _) => assert_eq!(as_number(v), Some(*n)),
                (None, Some(b)) => assert_eq!(hex::decode(v).as_ref(), Some(b)),
                (None, None) => unreachable!(),
            }
        }
    }
}

/// Records with the fields of a KEM or signature `.rsp` record, rewritten by
/// `kem_record` / `SignRecord::to_rsp`, parse back to the same bytes.
fn check_writer_round_trip(rec: &Record) {
    let Ok(count) = rec.number("count") else {
        return;
    };
    let get = |k: &str| rec.hex(k).ok();
    if let (Some(seed), Some(pk), Some(sk), Some(ct), Some(ss)) =
        (get("seed"), get("pk"), get("sk"), get("ct"), get("ss"))
    {
        let text = rsp::kem_record(count, &seed, &pk, &sk, &ct, &ss);
        let again = rsp::parse(&text).expect("kem_record parses");
        assert_eq!(again.len(), 1);
        let r = &again[0];
        assert_eq!(r.number("count"), Ok(count));
        for (k, v) in [
            ("seed", &seed),
            ("pk", &pk),
            ("sk", &sk),
            ("ct", &ct),
            ("ss", &ss),
        ] {
            assert_eq!(r.hex(k).as_ref(), Ok(&written(v)), "kem_record field {k}");
        }
    }
    if let (Some(seed), Some(msg), Some(pk), Some(sk), Some(sm)) =
        (get("seed"), get("msg"), get("pk"), get("sk"), get("sm"))
    {
        let text = SignRecord {
            count,
            seed: &seed,
            msg: &msg,
            pk: &pk,
            sk: &sk,
            sm: &sm,
        }
        .to_rsp();
        let again = rsp::parse(&text).expect("to_rsp parses");
        assert_eq!(again.len(), 1);
        let r = &again[0];
        assert_eq!(r.number("count"), Ok(count));
        assert_eq!(r.number("mlen"), Ok(msg.len()));
        assert_eq!(r.number("smlen"), Ok(sm.len()));
        for (k, v) in [
            ("seed", &seed),
            ("msg", &msg),
            ("pk", &pk),
            ("sk", &sk),
            ("sm", &sm),
        ] {
            assert_eq!(r.hex(k).as_ref(), Ok(&written(v)), "to_rsp field {k}");
        }
    }
}

fn op_parse(text: &str) {
    let parsed = rsp::parse_file(text);
    assert_eq!(
        rsp::parse(text).map_err(|e| e.line),
        parsed.clone().map(|f| f.records).map_err(|e| e.line)
    );
    let file = match (parsed, expected_parse(text)) {
        (Ok(file), Ok(())) => file,
        (Err(ParseError { line, message }), Err(bad)) => {
            assert_eq!(line, bad, "error line");
            assert!(!message.is_empty());
            return;
        }
        (got, want) => panic!("parse_file {:?}, expected {want:?}", got.map(|_| ())),
    };
    if let Some(h) = &file.header {
        assert!(!h.contains('\n') && h.trim() == h);
    }
    let mut last_line = 0;
    for rec in &file.records {
        assert!(rec.line > last_line, "line numbers");
        last_line = rec.line;
        assert_eq!(rec.fields.first().map(|(k, _)| k.as_str()), Some("count"));
        for (k, v) in &rec.fields {
            assert!(k.trim() == k && v.trim() == v && !k.contains('=') && !k.contains('\n'));
            check_hex_field(rec, k);
        }
        check_writer_round_trip(rec);
    }
    check_generic_round_trip(&file);
}

fn op_hex(bytes: &[u8], text: &str) {
    match hex::decode(text) {
        Some(b) => {
            assert!(is_hex(text));
            assert!(hex::encode(&b).eq_ignore_ascii_case(text));
            assert_eq!(hex::decode_array::<32>(text).is_some(), b.len() == 32);
            assert_eq!(hex::decode_array::<0>(text).is_some(), b.is_empty());
        }
        None => {
            assert!(!is_hex(text));
            assert!(hex::decode_array::<1>(text).is_none());
        }
    }
    let e = hex::encode(bytes);
    assert_eq!(e.len(), 2 * bytes.len());
    assert!(e.bytes().all(|c| matches!(c, b'0'..=b'9' | b'A'..=b'F')));
    assert_eq!(hex::decode(&e).as_deref(), Some(bytes));
}

/// Splits `data` into `n` parts at lengths given by its first bytes.
fn split(data: &[u8], n: usize) -> Vec<&[u8]> {
    let (lens, mut rest) = data.split_at(n.min(data.len()));
    let mut out = Vec::new();
    for i in 0..n {
        let want = usize::from(lens.get(i).copied().unwrap_or(0));
        let (a, b) = rest.split_at(want.min(rest.len()));
        out.push(a);
        rest = b;
    }
    out
}

fn op_writers(data: &[u8]) {
    let p = split(data, 8);
    let name: String = String::from_utf8_lossy(p[0]).replace(['\n', '\r'], " ");
    let count = p[7].iter().fold(0usize, |n, &b| (n << 8) | usize::from(b)) & 0xffff_ffff;
    let kem = rsp::kem_record(count, p[1], p[2], p[3], p[4], p[5]);
    let sign = SignRecord {
        count: count + 1,
        seed: p[1],
        msg: p[6],
        pk: p[2],
        sk: p[3],
        sm: p[4],
    }
    .to_rsp();
    let text = format!("{}{kem}{sign}", rsp::header(&name));
    let file = rsp::parse_file(&text).unwrap_or_else(|e| panic!("writers' text: {e}\n{text}"));
    assert_eq!(file.header.as_deref(), Some(name.trim()));
    assert_eq!(file.records.len(), 2);
    let (k, s) = (&file.records[0], &file.records[1]);
    let keys: Vec<&str> = k.fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["count", "seed", "pk", "sk", "ct", "ss"]);
    let keys: Vec<&str> = s.fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["count", "seed", "mlen", "msg", "pk", "sk", "smlen", "sm"]
    );
    assert_eq!(k.number("count"), Ok(count));
    assert_eq!(s.number("count"), Ok(count + 1));
    assert_eq!(s.number("mlen"), Ok(p[6].len()));
    assert_eq!(s.number("smlen"), Ok(p[4].len()));
    for (key, v) in [
        ("seed", p[1]),
        ("pk", p[2]),
        ("sk", p[3]),
        ("ct", p[4]),
        ("ss", p[5]),
    ] {
        assert_eq!(k.hex(key), Ok(written(v)), "kem field {key}");
    }
    for (key, v) in [
        ("seed", p[1]),
        ("msg", p[6]),
        ("pk", p[2]),
        ("sk", p[3]),
        ("sm", p[4]),
    ] {
        assert_eq!(s.hex(key), Ok(written(v)), "sign field {key}");
    }
    assert_eq!(rsp::digest_input::first_record(&text), kem[..kem.len() - 1]);

    let n = usize::from(data.first().copied().unwrap_or(0) % 4);
    let kem_req = rsp::parse(&rsp::kem_req(n)).expect("kem_req parses");
    let sign_req = rsp::parse(&rsp::sign_req(n)).expect("sign_req parses");
    assert_eq!((kem_req.len(), sign_req.len()), (n, n));
    for (i, (k, s)) in kem_req.iter().zip(&sign_req).enumerate() {
        assert_eq!((k.number("count"), s.number("count")), (Ok(i), Ok(i)));
        assert!(k.hex_array::<48>("seed").is_ok() && s.hex_array::<48>("seed").is_ok());
        assert_eq!(k.get("pk"), Some(""));
        assert_eq!(s.number("mlen"), Ok(33 * (i + 1)));
        assert_eq!(s.hex("msg").map(|m| m.len()), Ok(33 * (i + 1)));
    }
}

fn op_digest(text: &str, n: u8) {
    let first = rsp::digest_input::first_record(text);
    assert_eq!(first, rsp::digest_input::records(text, 1));
    assert!(first.ends_with('\n'));
    assert!(rsp::digest_input::records(text, usize::from(n)).ends_with('\n'));
}

fuzz_target!(|data: &[u8]| {
    let [op, input @ ..] = data else {
        return;
    };
    let text = String::from_utf8_lossy(input);
    match op % 4 {
        0 => op_parse(&text),
        1 => op_hex(input, &text),
        2 => op_writers(input),
        _ => op_digest(&text, input.first().copied().unwrap_or(0) % 8),
    }
});
