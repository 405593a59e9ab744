//! FIPS 204 §7.1–7.2: bit packing of polynomials (Algorithms 16–19) and the
//! hint packing of signatures (Algorithms 20–21).
//!
//! Packing is arithmetic only (no branch on coefficient values), so the same
//! functions serve secret data (s1, s2, t0, z) and public data (t1, w1).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "values are masked to the field width before each cast"
)]

use crate::poly::Poly;

/// Packs `f(a_i)` (each in [0, 2^bits)) for i = 0..256 little-endian into
/// `out` (32·bits bytes): SimpleBitPack / BitPack (Algorithms 16, 17).
#[inline(always)]
pub(crate) fn pack(out: &mut [u8], p: &Poly, bits: u32, f: impl Fn(i32) -> i32) {
    debug_assert_eq!(out.len(), 32 * bits as usize);
    let mask = (1u64 << bits) - 1;
    let mut acc = 0u64;
    let mut n = 0u32;
    let mut pos = 0;
    for &c in &p.0 {
        acc |= (f(c) as u64 & mask) << n;
        n += bits;
        while n >= 8 {
            out[pos] = acc as u8;
            pos += 1;
            acc >>= 8;
            n -= 8;
        }
    }
}

/// Unpacks 256 fields of `bits` bits and maps each through `f`:
/// SimpleBitUnpack / BitUnpack (Algorithms 18, 19).
#[inline(always)]
pub(crate) fn unpack(p: &mut Poly, bytes: &[u8], bits: u32, f: impl Fn(i32) -> i32) {
    debug_assert_eq!(bytes.len(), 32 * bits as usize);
    let mask = (1u64 << bits) - 1;
    let mut acc = 0u64;
    let mut n = 0u32;
    let mut it = bytes.iter();
    for c in &mut p.0 {
        while n < bits {
            acc |= u64::from(*it.next().unwrap_or(&0)) << n;
            n += 8;
        }
        *c = f((acc & mask) as i32);
        acc >>= bits;
        n -= bits;
    }
}

/// Algorithm 20, HintBitPack for one row `i` (hint bits 0/1 in `h`), called
/// with public (already released) hints. Returns the new running index.
pub(crate) fn hint_pack_row(
    out: &mut [u8],
    omega: usize,
    i: usize,
    h: &Poly,
    mut index: usize,
) -> usize {
    for (j, &b) in h.0.iter().enumerate() {
        if b != 0 && index < omega {
            out[index] = j as u8;
            index += 1;
        }
    }
    out[omega + i] = index as u8;
    index
}

/// Algorithm 21, HintBitUnpack: fills `h` (k polynomials of 0/1) or returns
/// `None` for a malformed encoding (indices out of order, counts decreasing or
/// above ω, non-zero padding). Public data; never panics.
pub(crate) fn hint_unpack(y: &[u8], omega: usize, h: &mut [Poly]) -> Option<()> {
    let k = h.len();
    if y.len() != omega + k {
        return None;
    }
    let mut index = 0usize;
    for (i, hi) in h.iter_mut().enumerate() {
        *hi = Poly::ZERO;
        let end = usize::from(y[omega + i]);
        if end < index || end > omega {
            return None;
        }
        let first = index;
        while index < end {
            if index > first && y[index - 1] >= y[index] {
                return None;
            }
            hi.0[usize::from(y[index])] = 1;
            index += 1;
        }
    }
    if y[index..omega].iter().any(|&b| b != 0) {
        return None;
    }
    Some(())
}
