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
pub(crate) fn group(bits: u32) -> (usize, usize) {
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

/// Packs 8 values of [0, 2^23) (coefficients of w in [0, q)) into 23 bytes,
/// little-endian: the smallest-stack signer keeps w this way between its phases.
#[cfg_attr(
    not(feature = "smallest-stack"),
    allow(dead_code, reason = "used by the smallest-stack signer")
)]
#[inline(always)]
pub(crate) fn pack23(out: &mut [u8], v: &[i32; 8]) {
    let mut acc = 0u64;
    let mut nbits = 0u32;
    let mut k = 0;
    for &c in v {
        acc |= u64::from(c.cast_unsigned() & 0x7f_ffff) << nbits;
        nbits += 23;
        while nbits >= 8 {
            out[k] = acc as u8;
            acc >>= 8;
            nbits -= 8;
            k += 1;
        }
    }
}

/// Inverse of [`pack23`]: 8 values of [0, 2^23) from 23 bytes.
#[cfg_attr(
    not(feature = "smallest-stack"),
    allow(dead_code, reason = "used by the smallest-stack signer")
)]
#[inline(always)]
pub(crate) fn unpack23(bytes: &[u8], v: &mut [i32; 8]) {
    let mut acc = 0u64;
    let mut nbits = 0u32;
    let mut k = 0;
    for c in v.iter_mut() {
        while nbits < 23 {
            acc |= u64::from(bytes[k]) << nbits;
            nbits += 8;
            k += 1;
        }
        *c = (acc & 0x7f_ffff) as i32;
        acc >>= 23;
        nbits -= 23;
    }
}

/// `HintBitPack` (FIPS 204 Algorithm 20) for one row `i` given as 256 bits
/// (bit n of `h[n / 32]`), called with public (already released) hints.
/// Returns the new running index.
#[cfg_attr(
    not(feature = "smallest-stack"),
    allow(dead_code, reason = "used by the smallest-stack signer")
)]
pub(crate) fn hint_pack_bits(
    out: &mut [u8],
    omega: usize,
    i: usize,
    h: &[u32; 8],
    mut index: usize,
) -> usize {
    for (w, &word) in h.iter().enumerate() {
        for b in 0..32 {
            if (word >> b) & 1 != 0 && index < omega {
                out[index] = ((w << 5) | b) as u8;
                index += 1;
            }
        }
    }
    out[omega + i] = index as u8;
    index
}

/// `HintBitPack` (FIPS 204 Algorithm 20) for one row `i` (hint bits 0/1 in `h`), called
/// with public (already released) hints. Returns the new running index.
/// The AVX2 kernel (`arch::hint_pack_row`) when available, else
/// [`hint_pack_row_portable`].
#[inline]
pub(crate) fn hint_pack_row(
    out: &mut [u8],
    omega: usize,
    i: usize,
    h: &Poly,
    index: usize,
) -> usize {
    match crate::arch::avx2() {
        Some(token) => crate::arch::hint_pack_row(token, out, omega, i, &h.0, index),
        None => hint_pack_row_portable(out, omega, i, h, index),
    }
}

/// The portable twin of `arch::hint_pack_row` ([`hint_pack_row`]).
pub(crate) fn hint_pack_row_portable(
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

/// `BitUnpack(·, γ1 − 1, γ1)` (FIPS 204 Algorithm 19) of ExpandMask
/// (Algorithm 34) for `out.len()` (a multiple of 8) fields of `bits` ∈
/// {18, 20} bits: `out[i]` = γ1 − field i, γ1 = 2^(bits − 1). `src` must
/// hold `bits/2 + 16` bytes from the start of the last group of eight
/// fields (the AVX2 kernel's loads read past the group). Secret data,
/// no branch on it.
#[inline]
pub(crate) fn mask_unpack(out: &mut [i32], src: &[u8], bits: u32) {
    match crate::arch::avx2() {
        Some(token) => crate::arch::mask_unpack(token, out, src, bits),
        None => mask_unpack_portable(out, src, bits),
    }
}

/// The portable twin of `arch::mask_unpack`: [`mask_unpack`] one group of
/// eight fields (`bits` bytes) at a time.
pub(crate) fn mask_unpack_portable(out: &mut [i32], src: &[u8], bits: u32) {
    let gbytes = bits as usize;
    let mask = (1u128 << bits) - 1;
    let gamma1 = 1i32 << (bits - 1);
    for (g, o) in out.chunks_exact_mut(8).enumerate() {
        let Some(chunk) = src.get(g * gbytes..(g + 1) * gbytes) else {
            break;
        };
        // Four fields (bits/2 ≤ 10 bytes) per u128.
        for (half, o4) in chunk.chunks_exact(gbytes >> 1).zip(o.chunks_exact_mut(4)) {
            let mut v = 0u128;
            for (k, &b) in half.iter().enumerate() {
                v |= u128::from(b) << (8 * k);
            }
            for c in o4 {
                *c = gamma1.wrapping_sub((v & mask) as i32);
                v >>= bits;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX2 kernel against its portable twin and against `unpack`
    /// (the BitUnpack of every other caller), on random bytes and on all-0 /
    /// all-1 bytes (fields 0 and 2^bits − 1: y = γ1 and y = −γ1 + 1).
    #[test]
    fn mask_unpack_matches_portable() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for t in 0..200 {
            for bits in [18u32, 20] {
                let mut src = [0u8; 32 * 20 + 16];
                for b in &mut src {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    *b = match t {
                        0 => 0,
                        1 => 0xff,
                        _ => s as u8,
                    };
                }
                let len = 32 * bits as usize;
                let mut want = Poly::ZERO;
                let gamma1 = 1i32 << (bits - 1);
                unpack(&mut want, &src[..len], bits, |v| gamma1.wrapping_sub(v));
                let mut portable = [0i32; 256];
                mask_unpack_portable(&mut portable, &src[..len], bits);
                assert_eq!(portable, want.0);
                if let Some(token) = crate::arch::avx2() {
                    let mut got = [0i32; 256];
                    crate::arch::mask_unpack(token, &mut got, &src[..len + 16], bits);
                    assert_eq!(got, want.0, "bits {bits}, t {t}");
                    // A run starting mid-stream, as ExpandMask calls it per block.
                    let mut part = [0i32; 48];
                    crate::arch::mask_unpack(token, &mut part, &src[3 * gbytes(bits)..], bits);
                    assert_eq!(part, want.0[24..72]);
                }
            }
        }
    }

    fn gbytes(bits: u32) -> usize {
        bits as usize
    }

    #[test]
    fn pack23_round_trips_and_is_little_endian() {
        let v = [0, 1, 0x7f_ffff, 8_380_416, 0x40_0000, 12345, 0x55_5555, 7];
        let mut bytes = [0u8; 23];
        pack23(&mut bytes, &v);
        let mut back = [0i32; 8];
        unpack23(&bytes, &mut back);
        assert_eq!(back, v);
        // Bit 23 of the stream is bit 0 of the second value.
        let mut one = [0i32; 8];
        one[1] = 1;
        pack23(&mut bytes, &one);
        assert_eq!(bytes[2], 0x80);
        assert!(bytes.iter().enumerate().all(|(k, &b)| k == 2 || b == 0));
    }

    /// The AVX2 `HintBitPack` row against its portable twin: hint rows of
    /// every density (none, a few, more than ω, all 256), ones at 0, 7, 8
    /// and 255, every ω of the sets and small ones, running indices from 0
    /// to ω.
    #[test]
    fn hint_pack_row_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut s = 0x0123_4567_89ab_cdefu64;
        for t in 0..600usize {
            let mut h = Poly::ZERO;
            let density = [0u64, 1, 4, 16, 64, 256][t % 6];
            for (n, x) in h.0.iter_mut().enumerate() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *x = i32::from(s % 256 < density || (t % 7 == 0 && [0, 7, 8, 255].contains(&n)));
            }
            let omega = [80usize, 55, 75, 3, 1, 0][(t / 6) % 6];
            let index = (t / 36) % (omega + 1);
            let (mut a, mut b) = ([0u8; 88], [0u8; 88]);
            let ia = crate::arch::hint_pack_row(token, &mut a[..omega + 8], omega, 5, &h.0, index);
            let ib = hint_pack_row_portable(&mut b[..omega + 8], omega, 5, &h, index);
            assert_eq!((ia, a), (ib, b), "t {t}");
        }
    }

    #[test]
    fn hint_pack_bits_matches_hint_pack_row() {
        let mut h = Poly::ZERO;
        let mut bits = [0u32; 8];
        for n in [0usize, 5, 31, 32, 100, 255] {
            h.0[n] = 1;
            bits[n >> 5] |= 1 << (n & 31);
        }
        for omega in [3usize, 80] {
            let (mut a, mut b) = ([0u8; 84], [0u8; 84]);
            let ia = hint_pack_row(&mut a[..omega + 4], omega, 2, &h, 1);
            let ib = hint_pack_bits(&mut b[..omega + 4], omega, 2, &bits, 1);
            assert_eq!((ia, a), (ib, b));
        }
    }
}
