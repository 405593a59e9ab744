//! Bit packing (FIPS 204 §7.1–7.2): `SimpleBitPack` / `BitPack` and their
//! inverses (Algorithms 16–19), and the hint packing of signatures
//! (Algorithms 20–21).
//!
//! Packing is arithmetic only (no branch on coefficient values), so the same
//! functions serve secret data (s1, s2, t0, z) and public data (t1, w1).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "values are masked to the field width before each cast"
)]

use crate::poly::Poly;

/// Coefficients per group and bytes per group for `bits`-bit fields: a group
/// of 8 (odd widths) or 4 (even widths) fields fills whole bytes, at most 13
/// of them, so one group fits a `u128`.
#[inline(always)]
fn group(bits: u32) -> (usize, usize) {
    let g = if bits & 1 == 1 { 8 } else { 4 };
    (g, (g * bits as usize) >> 3)
}

/// `SimpleBitPack` / `BitPack` (FIPS 204 Algorithms 16, 17): packs `f(a_i)`
/// (each in [0, 2^bits)) for i = 0..256 little-endian into `out` (32·bits bytes).
#[inline(always)]
pub(crate) fn pack(out: &mut [u8], p: &Poly, bits: u32, f: impl Fn(i32) -> i32) {
    debug_assert_eq!(out.len(), 32 * bits as usize);
    let mask = (1u128 << bits) - 1;
    let (g, gbytes) = group(bits);
    for (chunk, coeffs) in out.chunks_exact_mut(gbytes).zip(p.0.chunks_exact(g)) {
        let mut v = 0u128;
        for (k, &c) in coeffs.iter().enumerate() {
            v |= (f(c) as u128 & mask) << (k as u32 * bits);
        }
        for (k, b) in chunk.iter_mut().enumerate() {
            *b = (v >> (8 * k)) as u8;
        }
    }
}

/// `SimpleBitUnpack` / `BitUnpack` (FIPS 204 Algorithms 18, 19): unpacks 256
/// fields of `bits` bits and maps each through `f`.
#[inline(always)]
pub(crate) fn unpack(p: &mut Poly, bytes: &[u8], bits: u32, f: impl Fn(i32) -> i32) {
    debug_assert_eq!(bytes.len(), 32 * bits as usize);
    let mask = (1u128 << bits) - 1;
    let (g, gbytes) = group(bits);
    for (chunk, coeffs) in bytes.chunks_exact(gbytes).zip(p.0.chunks_exact_mut(g)) {
        let mut v = 0u128;
        for (k, &b) in chunk.iter().enumerate() {
            v |= u128::from(b) << (8 * k);
        }
        for c in coeffs.iter_mut() {
            *c = f((v & mask) as i32);
            v >>= bits;
        }
    }
}

/// `HintBitPack` (FIPS 204 Algorithm 20) for one row `i` (hint bits 0/1 in `h`), called
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

/// `HintBitUnpack` (FIPS 204 Algorithm 21): fills `h` (k polynomials of 0/1) or returns
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
