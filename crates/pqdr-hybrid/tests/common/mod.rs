//! Scaffolding shared by the integration tests: hex decoding, the text and
//! JSON vector files under `vectors/hybrid/`, and a deterministic test RNG.
#![allow(dead_code, reason = "each test file uses part of the scaffolding")]

use std::collections::BTreeMap;

/// Decodes lower- or upper-case hex; panics on a malformed string (test data).
pub(crate) fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// `hex` into a fixed-size array.
pub(crate) fn hex_array<const N: usize>(s: &str) -> [u8; N] {
    hex(s).try_into().expect("vector field length")
}

/// A record of the draft's appendix format: `name value` lines, a name alone
/// on its line followed by indented continuation lines, records separated
/// by a line starting with `seed`.
pub(crate) fn parse_draft_vectors(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut records = Vec::new();
    let mut cur = BTreeMap::new();
    let mut key = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with(char::is_whitespace) {
            cur.entry(key.clone())
                .or_insert_with(String::new)
                .push_str(line.trim());
            continue;
        }
        let mut parts = line.split_whitespace();
        key = parts.next().expect("name").to_owned();
        if key == "seed" && !cur.is_empty() {
            records.push(core::mem::take(&mut cur));
        }
        cur.insert(key.clone(), parts.next().unwrap_or("").to_owned());
    }
    records.push(cur);
    records
}

/// A deterministic test RNG (xorshift64); not for real use.
pub(crate) struct TestRng(pub(crate) u64);

impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let [a, b, c, d, ..] = self.try_next_u64()?.to_le_bytes();
        Ok(u32::from_le_bytes([a, b, c, d]))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = self.try_next_u64()?.to_le_bytes()[0];
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for TestRng {}
