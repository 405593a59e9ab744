//! Hexadecimal for known answers and tests: [`decode`] turns the digits of a
//! self-test constant into bytes at compile time (no heap, usable in
//! `const` items); with `alloc` or `test-utils`, [`encode`] for test and bench output
//! (`pqdr-kat`'s `hex` reads vector files).

#[cfg(any(feature = "alloc", feature = "test-utils"))]
use alloc::string::String;

/// Decodes `2N` lowercase hex digits into `N` bytes. In a `const` item a
/// wrong digit count or a character outside `0-9a-f` is a compile error.
///
/// ```
/// const KEY: [u8; 4] = pqdr_common::hex::decode(b"00ff10a5");
/// assert_eq!(KEY, [0x00, 0xff, 0x10, 0xa5]);
/// ```
///
/// # Panics
/// If `s` is not `2N` lowercase hex digits (at compile time in a `const`).
#[must_use]
pub const fn decode<const N: usize>(s: &[u8]) -> [u8; N] {
    assert!(s.len() == 2 * N, "wrong number of hex digits");
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = (nibble(s[2 * i]) << 4) | nibble(s[2 * i + 1]);
        i += 1;
    }
    out
}

/// One lowercase hex digit.
const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => panic!("not a lowercase hex digit"),
    }
}

/// The lowercase hex digits of `bytes`.
///
/// ```
/// assert_eq!(pqdr_common::hex::encode(&[0x00, 0xff, 0x10]), "00ff10");
/// ```
#[cfg(any(feature = "alloc", feature = "test-utils"))]
#[must_use]
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_reads_every_digit() {
        const ALL: [u8; 8] = decode(b"0123456789abcdef");
        assert_eq!(ALL, [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]);
    }

    #[test]
    #[should_panic(expected = "wrong number of hex digits")]
    fn decode_checks_the_length() {
        let _ = decode::<2>(b"abc");
    }

    #[test]
    #[should_panic(expected = "not a lowercase hex digit")]
    fn decode_rejects_other_characters() {
        let _ = decode::<1>(b"AB");
    }

    #[cfg(any(feature = "alloc", feature = "test-utils"))]
    #[test]
    fn encode_is_lowercase_and_inverts_decode() {
        let bytes: [u8; 256] = core::array::from_fn(|i| u8::try_from(i).unwrap_or(0));
        let s = encode(&bytes);
        assert_eq!(&s[..6], "000102");
        assert_eq!(&s[s.len() - 4..], "feff");
        assert_eq!(decode::<256>(s.as_bytes()), bytes);
    }
}
