//! docs/protocol/ratchet.md §1.6: systematic Reed–Solomon erasure code over GF(2^8) for the
//! KEM blobs (ek, ct).
//!
//! A blob of `len` bytes is cut into `k = ⌈len / sym_len⌉` data symbols (last
//! one zero-padded). Each byte position is one codeword: the unique polynomial
//! `P` of degree `< k` with `P(i) = data_i[b]` for `i < k`; the symbol with index
//! `idx ∈ 0..=254` is `P(idx)` at every byte position (data symbols are the
//! systematic part `idx < k`, parity `idx ≥ k`). Any `k` distinct symbols decode
//! by Lagrange interpolation. Field: `x^8 + x^4 + x^3 + x^2 + 1` (0x11d).
//! All data here is public (ek and ct travel in clear inside the AEAD), so
//! table lookups and branches are fine.

use crate::Error;
use crate::kem::MAX_BLOB_LEN;

/// Largest symbol length accepted.
pub const MAX_SYM_LEN: usize = 1024;
/// Smallest symbol length accepted.
pub const MIN_SYM_LEN: usize = 16;
/// Highest symbol index (evaluation points are `0..=254`).
pub const MAX_INDEX: u8 = 254;

#[allow(
    clippy::cast_possible_truncation,
    reason = "x < 256 and i < 255 by construction"
)]
const fn tables() -> ([u8; 256], [u8; 512]) {
    let mut log = [0u8; 256];
    let mut exp = [0u8; 512];
    let mut x: u16 = 1;
    let mut i = 0;
    while i < 255 {
        exp[i] = x as u8;
        exp[i + 255] = x as u8;
        log[x as usize] = i as u8;
        x <<= 1;
        if x & 0x100 != 0 {
            x ^= 0x11d;
        }
        i += 1;
    }
    (log, exp)
}

const LOG_EXP: ([u8; 256], [u8; 512]) = tables();

/// GF(2^8) multiplication.
fn mul(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        return 0;
    }
    let (log, exp) = (&LOG_EXP.0, &LOG_EXP.1);
    exp[usize::from(log[usize::from(a)]) + usize::from(log[usize::from(b)])]
}

/// GF(2^8) inverse of a non-zero element.
fn inv(a: u8) -> u8 {
    let (log, exp) = (&LOG_EXP.0, &LOG_EXP.1);
    exp[255 - usize::from(log[usize::from(a)])]
}

/// Number of data symbols for a blob, or `None` if the parameters are out of range.
pub fn symbol_count(len: usize, sym_len: usize) -> Option<u8> {
    if !(MIN_SYM_LEN..=MAX_SYM_LEN).contains(&sym_len) || len == 0 || len > MAX_BLOB_LEN {
        return None;
    }
    let k = len.div_ceil(sym_len);
    u8::try_from(k).ok().filter(|&k| k <= MAX_INDEX)
}

/// Lagrange basis values `L_m(x)` over the points `xs`, written to `coef`.
fn lagrange(xs: &[u8], x: u8, coef: &mut [u8]) {
    for (m, &xm) in xs.iter().enumerate() {
        let mut num = 1u8;
        let mut den = 1u8;
        for (j, &xj) in xs.iter().enumerate() {
            if j != m {
                num = mul(num, x ^ xj);
                den = mul(den, xm ^ xj);
            }
        }
        coef[m] = mul(num, inv(den));
    }
}

/// Writes the symbol of index `idx` of `blob` (symbol length `sym_len`) to `out[..sym_len]`.
///
/// # Errors
/// [`Error::Malformed`] if `blob.len()` and `sym_len` do not satisfy
/// [`symbol_count`] or `idx > MAX_INDEX`; [`Error::BufferTooSmall`] if
/// `out.len() < sym_len`. On error `out` is left unchanged.
pub fn encode_symbol(blob: &[u8], sym_len: usize, idx: u8, out: &mut [u8]) -> Result<(), Error> {
    let k = symbol_count(blob.len(), sym_len).ok_or(Error::Malformed)?;
    if idx > MAX_INDEX {
        return Err(Error::Malformed);
    }
    let got = out.len();
    let out = out.get_mut(..sym_len).ok_or(Error::short(sym_len, got))?;
    let row = |i: usize, b: usize| blob.get(i * sym_len + b).copied().unwrap_or(0);
    if idx < k {
        for (b, o) in out.iter_mut().enumerate() {
            *o = row(usize::from(idx), b);
        }
        return Ok(());
    }
    let mut xs = [0u8; 255];
    for (x, i) in xs.iter_mut().zip(0..k) {
        *x = i;
    }
    let mut coef = [0u8; 255];
    lagrange(&xs[..usize::from(k)], idx, &mut coef);
    out.fill(0);
    for (i, &c) in coef.iter().enumerate().take(usize::from(k)) {
        for (b, o) in out.iter_mut().enumerate() {
            *o ^= mul(c, row(i, b));
        }
    }
    Ok(())
}

/// Collects symbols of one blob until any `k` distinct indices are present.
/// (Public data only: `Clone` copies a partial collection.)
#[derive(Clone, Debug)]
pub struct Decoder {
    len: usize,
    sym_len: usize,
    k: u8,
    have: u8,
    xs: [u8; 255],
    seen: [u64; 4],
    rows: [u8; MAX_BLOB_LEN + MAX_SYM_LEN],
}

impl Decoder {
    /// An idle decoder.
    pub const fn new() -> Self {
        Decoder {
            len: 0,
            sym_len: 0,
            k: 0,
            have: 0,
            xs: [0; 255],
            seen: [0; 4],
            rows: [0; MAX_BLOB_LEN + MAX_SYM_LEN],
        }
    }

    /// Starts collecting a blob of `len` bytes; the first symbol fixes `sym_len`.
    pub fn reset(&mut self, len: usize) {
        self.len = len;
        self.sym_len = 0;
        self.k = 0;
        self.have = 0;
        self.seen = [0; 4];
    }

    /// Symbols still missing (0 once decodable).
    pub fn missing(&self) -> u8 {
        self.k.saturating_sub(self.have)
    }

    /// Number of distinct symbols held.
    pub fn have(&self) -> u8 {
        self.have
    }

    /// Adds one symbol. Returns `true` once `k` distinct symbols are held.
    /// Inconsistent parameters or duplicates are ignored (returns the current state).
    pub fn add(&mut self, k: u8, sym_len: usize, idx: u8, data: &[u8]) -> bool {
        if self.len == 0 || idx > MAX_INDEX || data.len() != sym_len {
            return false;
        }
        if symbol_count(self.len, sym_len) != Some(k) {
            return false;
        }
        if self.have == 0 {
            self.sym_len = sym_len;
            self.k = k;
        } else if self.sym_len != sym_len || self.k != k {
            return false;
        }
        if self.have >= self.k {
            return true;
        }
        let (w, m) = (usize::from(idx >> 6), 1u64 << (idx & 63));
        if self.seen[w] & m != 0 {
            return false;
        }
        self.seen[w] |= m;
        let r = usize::from(self.have) * sym_len;
        self.rows[r..r + sym_len].copy_from_slice(data);
        self.xs[usize::from(self.have)] = idx;
        self.have += 1;
        self.have >= self.k
    }

    /// Decodes into `out[..len]` once complete; returns `false` if not yet decodable.
    pub fn decode(&self, out: &mut [u8]) -> bool {
        if self.k == 0 || self.have < self.k || out.len() < self.len {
            return false;
        }
        let k = usize::from(self.k);
        let s = self.sym_len;
        let xs = &self.xs[..k];
        let mut coef = [0u8; 255];
        let mut row = [0u8; MAX_SYM_LEN];
        for t in 0..k {
            let row = &mut row[..s];
            #[allow(clippy::cast_possible_truncation, reason = "t < k ≤ 254")]
            let t8 = t as u8;
            if let Some(m) = xs.iter().position(|&x| x == t8) {
                row.copy_from_slice(&self.rows[m * s..(m + 1) * s]);
            } else {
                lagrange(xs, t8, &mut coef);
                row.fill(0);
                for (m, &c) in coef[..k].iter().enumerate() {
                    for (b, o) in row.iter_mut().enumerate() {
                        *o ^= mul(c, self.rows[m * s + b]);
                    }
                }
            }
            let start = t * s;
            let end = (start + s).min(self.len);
            if start < end {
                out[start..end].copy_from_slice(&row[..end - start]);
            }
        }
        true
    }
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "test code"
)]
mod tests {
    use super::*;

    #[test]
    fn field_inverse() {
        for a in 1..=255u8 {
            assert_eq!(mul(a, inv(a)), 1);
        }
    }

    #[test]
    fn any_k_decode() {
        let blob: [u8; 1000] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let k = symbol_count(blob.len(), 128).unwrap();
        assert_eq!(k, 8);
        for start in [0u8, 3, 8, 100, 247] {
            let mut d = Decoder::new();
            d.reset(blob.len());
            let mut sym = [0u8; 128];
            for i in 0..k {
                let idx = start + i;
                encode_symbol(&blob, 128, idx, &mut sym).unwrap();
                let done = d.add(k, 128, idx, &sym);
                assert_eq!(done, i + 1 == k);
            }
            let mut out = [0u8; 1000];
            assert!(d.decode(&mut out));
            assert_eq!(out, blob);
        }
    }

    #[test]
    fn short_buffer_is_an_error() {
        let blob = [7u8; 100];
        // Too short by one byte, for a data symbol and a parity symbol.
        let mut out = [0u8; 15];
        assert_eq!(
            encode_symbol(&blob, 16, 0, &mut out),
            Err(Error::BufferTooSmall {
                needed: 16,
                got: 15
            })
        );
        assert_eq!(
            encode_symbol(&blob, 16, 200, &mut out),
            Err(Error::BufferTooSmall {
                needed: 16,
                got: 15
            })
        );
        assert_eq!(
            encode_symbol(&blob, 16, 0, &mut []),
            Err(Error::BufferTooSmall { needed: 16, got: 0 })
        );
        assert_eq!(out, [0u8; 15], "out untouched on error");
        // Other bad arguments: out-of-range symbol length, empty blob, index 255.
        let mut out = [0u8; 2048];
        assert_eq!(encode_symbol(&blob, 15, 0, &mut out), Err(Error::Malformed));
        assert_eq!(
            encode_symbol(&blob, MAX_SYM_LEN + 1, 0, &mut out),
            Err(Error::Malformed)
        );
        assert_eq!(encode_symbol(&[], 16, 0, &mut out), Err(Error::Malformed));
        assert_eq!(
            encode_symbol(&blob, 16, 255, &mut out),
            Err(Error::Malformed)
        );
        // The exact length is enough.
        assert_eq!(encode_symbol(&blob, 16, 200, &mut out[..16]), Ok(()));
    }
}
