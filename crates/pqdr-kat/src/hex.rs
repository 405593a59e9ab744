//! Uppercase hex, as the NIST KAT files and ACVP JSON print it.

/// Encodes bytes as uppercase hex (`%02X` per byte).
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// Decodes hex (either case). `None` on odd length or a non-hex digit.
pub fn decode(s: &str) -> Option<Vec<u8>> {
    fn nib(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    b.chunks_exact(2)
        .map(|p| Some((nib(p[0])? << 4) | nib(p[1])?))
        .collect()
}

/// Decodes hex into a fixed-size array; `None` on bad hex or wrong length.
pub fn decode_array<const N: usize>(s: &str) -> Option<[u8; N]> {
    decode(s)?.try_into().ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip() {
        let v = [0u8, 1, 0xab, 0xff];
        assert_eq!(super::encode(&v), "0001ABFF");
        assert_eq!(super::decode("0001abFF").as_deref(), Some(&v[..]));
        assert_eq!(super::decode("0"), None);
        assert_eq!(super::decode("zz"), None);
    }
}
