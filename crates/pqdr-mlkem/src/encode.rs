//! Encoding (FIPS 203 §4.2.1): `Compress_d` / `Decompress_d` and
//! `ByteEncode_d` / `ByteDecode_d` (Algorithms 5 and 6), fused where the
//! scheme always uses them together.
//!
//! Every function here runs in time independent of the coefficient values:
//! `Compress_d` divides by `q` with a multiply-and-shift (no `div`
//! instruction, the KyberSlash class of leak), and the bit packing is plain
//! shifts and masks.

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "bit packing: every cast keeps exactly the bits the encoding defines"
)]

use crate::field::{Q, csubq};
use crate::poly::Poly;

/// `⌈2^34 / q⌉`: with `n·M >> 34`, `⌊n / q⌋` is exact for every `n < 1.3·10^7`.
const COMPRESS_M: u64 = 5_160_670;
const COMPRESS_S: u32 = 34;

/// `Compress_d(x) = ⌈(2^d / q)·x⌋ mod 2^d` (FIPS 203 §4.2.1) for `x ∈ [0, q)`.
///
/// `⌈2^d·x / q⌋ = ⌊(2^d·x + (q-1)/2) / q⌋` because `q` is odd; the division
/// is a multiplication by `⌈2^34/q⌉` and a shift.
#[inline(always)]
pub(crate) fn compress<const D: u32>(x: i16) -> u16 {
    let n = ((x as u64) << D) + ((Q as u64 - 1) >> 1);
    (((n * COMPRESS_M) >> COMPRESS_S) as u16) & ((1 << D) - 1)
}

/// `Decompress_d(y) = ⌈(q / 2^d)·y⌋` (FIPS 203 §4.2.1) for `y < 2^d`.
#[inline(always)]
pub(crate) fn decompress<const D: u32>(y: u16) -> i16 {
    ((u32::from(y) * Q as u32 + (1 << (D - 1))) >> D) as i16
}

/// Packs 8 values of `D` bits into `D` bytes, little-endian bit order.
#[inline(always)]
fn pack8<const D: u32>(vals: [u16; 8], out: &mut [u8]) {
    let mut acc = 0u128;
    for (i, v) in vals.iter().enumerate() {
        acc |= u128::from(*v) << (D as usize * i);
    }
    out.copy_from_slice(&acc.to_le_bytes()[..D as usize]);
}

/// Unpacks 8 values of `D` bits from `D` bytes.
#[inline(always)]
fn unpack8<const D: u32>(bytes: &[u8]) -> [u16; 8] {
    let mut b = [0u8; 16];
    b[..D as usize].copy_from_slice(bytes);
    let acc = u128::from_le_bytes(b);
    core::array::from_fn(|i| ((acc >> (D as usize * i)) as u16) & ((1 << D) - 1))
}

/// `ByteEncode_d(Compress_d(f))` (FIPS 203 Algorithm 5).
///
/// Compresses `f` (coefficients in `[0, q)`) to `D` bits and encodes it into
/// `out` (`32·D` bytes).
#[inline(always)]
pub(crate) fn compress_encode<const D: u32>(f: &Poly, out: &mut [u8]) {
    compress_encode_coeffs::<D>(&f.c, out);
}

/// [`compress_encode`] of a run of coefficients (a multiple of 8) into
/// `D/8` bytes per coefficient.
#[inline(always)]
fn compress_encode_coeffs<const D: u32>(f: &[i16], out: &mut [u8]) {
    for (c, o) in f.chunks_exact(8).zip(out.chunks_exact_mut(D as usize)) {
        pack8::<D>(core::array::from_fn(|i| compress::<D>(c[i])), o);
    }
}

/// [`compress_encode_coeffs`] for `d ∈ {4, 5, 10, 11}` (the `small-stack`
/// `K-PKE.Encrypt` hands the ciphertext out 32 coefficients at a time).
#[cfg(feature = "small-stack")]
pub(crate) fn compress_encode_coeffs_d(d: u32, f: &[i16], out: &mut [u8]) {
    match d {
        4 => compress_encode_coeffs::<4>(f, out),
        5 => compress_encode_coeffs::<5>(f, out),
        10 => compress_encode_coeffs::<10>(f, out),
        _ => compress_encode_coeffs::<11>(f, out),
    }
}

/// The raw 12-bit values `(f[2i], f[2i+1])` of a `ByteEncode_12` encoding
/// (FIPS 203 Algorithm 6 without the reduction mod `q`): bytes `3i..3i+3`.
#[cfg(feature = "small-stack")]
#[inline(always)]
pub(crate) fn pair12(bytes: &[u8], i: usize) -> (i16, i16) {
    let b = &bytes[3 * i..3 * i + 3];
    let (b0, b1, b2) = (i16::from(b[0]), i16::from(b[1]), i16::from(b[2]));
    (b0 | ((b1 & 0xf) << 8), (b1 >> 4) | (b2 << 4))
}

/// `Decompress_d(ByteDecode_d(b))` (FIPS 203 Algorithm 6).
///
/// Decodes `32·D` bytes and decompresses them.
#[inline(always)]
pub(crate) fn decode_decompress<const D: u32>(bytes: &[u8], f: &mut Poly) {
    for (o, b) in f.c.chunks_exact_mut(8).zip(bytes.chunks_exact(D as usize)) {
        let v = unpack8::<D>(b);
        for (x, y) in o.iter_mut().zip(v) {
            *x = decompress::<D>(y);
        }
    }
}

/// `ByteEncode_12(f)` (FIPS 203 Algorithm 5).
///
/// Encodes `f` (coefficients in `[0, q)`) into 384 bytes.
#[inline(always)]
pub(crate) fn encode12(f: &Poly, out: &mut [u8]) {
    if let Some(token) = crate::arch::avx2() {
        crate::arch::encode12(token, &f.c, out);
        return;
    }
    encode12_portable(f, out);
}

/// [`encode12`] without SIMD: the reference twin of the AVX2 path.
#[inline(always)]
pub(crate) fn encode12_portable(f: &Poly, out: &mut [u8]) {
    for (c, o) in f.c.chunks_exact(2).zip(out.chunks_exact_mut(3)) {
        let (a, b) = (c[0] as u16, c[1] as u16);
        o[0] = a as u8;
        o[1] = ((a >> 8) | (b << 4)) as u8;
        o[2] = (b >> 4) as u8;
    }
}

/// The raw 12-bit values of 384 bytes (`ByteDecode_12` before the reduction mod `q`).
#[inline(always)]
fn decode12_raw(bytes: &[u8], f: &mut Poly) {
    for (o, b) in f.c.chunks_exact_mut(2).zip(bytes.chunks_exact(3)) {
        let (b0, b1, b2) = (i16::from(b[0]), i16::from(b[1]), i16::from(b[2]));
        o[0] = b0 | ((b1 & 0x0f) << 8);
        o[1] = (b1 >> 4) | (b2 << 4);
    }
}

/// `ByteDecode_12(b)` (FIPS 203 Algorithm 6).
///
/// Decodes 384 bytes to coefficients in `[0, q)`, in constant time (the
/// input may be secret, e.g. `dk_PKE`).
#[inline(always)]
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) fn decode12(bytes: &[u8], f: &mut Poly) {
    if let Some(token) = crate::arch::avx2() {
        crate::arch::decode12(token, bytes, &mut f.c);
        return;
    }
    decode12_portable(bytes, f);
}

/// [`decode12`] without SIMD: the reference twin of the AVX2 path.
#[inline(always)]
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) fn decode12_portable(bytes: &[u8], f: &mut Poly) {
    decode12_raw(bytes, f);
    for x in &mut f.c {
        // 12-bit values are below 2q, so one conditional subtraction reduces them.
        *x = csubq(*x);
    }
}

/// The modulus check (FIPS 203 §7.2) for one polynomial: decodes 384 public
/// bytes and reports whether every 12-bit value is below `q` (that is,
/// whether `ByteEncode_12(ByteDecode_12(b)) = b`).
pub(crate) fn decode12_checked(bytes: &[u8], f: &mut Poly) -> bool {
    decode12_raw(bytes, f);
    f.c.iter().fold(true, |ok, x| ok & (*x < Q))
}

/// `ByteEncode_1(Compress_1(w))` (FIPS 203 Algorithm 15): the message bits of `w` (coefficients in `[0, q)`).
#[inline(always)]
pub(crate) fn encode_message(w: &Poly, m: &mut [u8; 32]) {
    if let Some(token) = crate::arch::avx2() {
        crate::arch::compress_encode_1(token, &w.c, m);
        return;
    }
    compress_encode::<1>(w, m);
}

/// `Decompress_1(ByteDecode_1(m))` (FIPS 203 Algorithm 14): coefficient `i` is `⌈q/2⌋` if bit `i` of
/// `m` is set, else 0, computed with a multiplication (no select on the bit).
#[inline(always)]
pub(crate) fn decode_message(m: &[u8; 32], f: &mut Poly) {
    if let Some(token) = crate::arch::avx2() {
        crate::arch::decode_decompress_1(token, m, &mut f.c);
        return;
    }
    decode_message_portable(m, f);
}

/// [`decode_message`] without SIMD: the reference twin of the AVX2 path.
#[inline(always)]
pub(crate) fn decode_message_portable(m: &[u8; 32], f: &mut Poly) {
    for (o, byte) in f.c.chunks_exact_mut(8).zip(m) {
        for (j, x) in o.iter_mut().enumerate() {
            let bit = i16::from((byte >> j) & 1);
            *x = bit.wrapping_mul((Q + 1) >> 1);
        }
    }
}

/// [`compress_encode`] for a bit width known only as a (constant) value:
/// `d ∈ {4, 5, 10, 11}`, the `d_u`/`d_v` of Table 2.
#[inline(always)]
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) fn compress_encode_d(d: u32, f: &Poly, out: &mut [u8]) {
    if let Some(token) = crate::arch::avx2() {
        match d {
            4 => return crate::arch::compress_encode_4(token, &f.c, out),
            5 => return crate::arch::compress_encode_odd::<5>(token, &f.c, out),
            10 => return crate::arch::compress_encode_10(token, &f.c, out),
            11 => return crate::arch::compress_encode_odd::<11>(token, &f.c, out),
            _ => {}
        }
    }
    match d {
        4 => compress_encode::<4>(f, out),
        5 => compress_encode::<5>(f, out),
        10 => compress_encode::<10>(f, out),
        _ => compress_encode::<11>(f, out),
    }
}

/// [`decode_decompress`] for `d ∈ {4, 5, 10, 11}`.
#[inline(always)]
pub(crate) fn decode_decompress_d(d: u32, bytes: &[u8], f: &mut Poly) {
    if let Some(token) = crate::arch::avx2() {
        match d {
            4 => return crate::arch::decode_decompress_4(token, bytes, &mut f.c),
            5 => return crate::arch::decode_decompress_odd::<5>(token, bytes, &mut f.c),
            10 => return crate::arch::decode_decompress_10(token, bytes, &mut f.c),
            11 => return crate::arch::decode_decompress_odd::<11>(token, bytes, &mut f.c),
            _ => {}
        }
    }
    match d {
        4 => decode_decompress::<4>(bytes, f),
        5 => decode_decompress::<5>(bytes, f),
        10 => decode_decompress::<10>(bytes, f),
        _ => decode_decompress::<11>(bytes, f),
    }
}

/// Number of bytes of one encoded polynomial with `D` bits per coefficient.
pub(crate) const fn poly_bytes(d: u32) -> usize {
    32 * d as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact_compress(x: u32, d: u32) -> u32 {
        // round(2^d x / q) mod 2^d, computed with real division (tests only).
        (((x << d) * 2 + 3329) / (2 * 3329)) & ((1 << d) - 1)
    }

    #[test]
    fn compress_is_exact_for_all_inputs() {
        for x in 0..Q {
            let xu = x as u32;
            assert_eq!(u32::from(compress::<1>(x)), exact_compress(xu, 1));
            assert_eq!(u32::from(compress::<4>(x)), exact_compress(xu, 4));
            assert_eq!(u32::from(compress::<5>(x)), exact_compress(xu, 5));
            assert_eq!(u32::from(compress::<10>(x)), exact_compress(xu, 10));
            assert_eq!(u32::from(compress::<11>(x)), exact_compress(xu, 11));
        }
    }

    #[test]
    fn decompress_is_exact() {
        for d in [1u32, 4, 5, 10, 11] {
            for y in 0..(1u32 << d) {
                let want = (y * 3329 * 2 + (1 << d)) / (1 << (d + 1));
                let got = match d {
                    1 => decompress::<1>(y as u16),
                    4 => decompress::<4>(y as u16),
                    5 => decompress::<5>(y as u16),
                    10 => decompress::<10>(y as u16),
                    _ => decompress::<11>(y as u16),
                };
                assert_eq!(got as u32, want, "d={d} y={y}");
            }
        }
    }

    /// The AVX2 kernels (when detected) against their portable twins:
    /// `Compress_d`/`ByteEncode_d` (d = 4, 10) on every input in `[0, q)`
    /// (in every position, rotated through the polynomial), and
    /// `ByteDecode_d`/`Decompress_d`, `ByteDecode_12` and `ByteEncode_12` on random bytes and
    /// on all-zero / all-one bytes (12-bit values up to 4095, reduced).
    #[test]
    fn message_avx2_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        // Compress_1: every x in [0, q) at every position (x + i mod q at
        // position i covers each position with each value over the loop).
        for x in 0..Q {
            let mut f = Poly::ZERO;
            for (i, c) in f.c.iter_mut().enumerate() {
                *c = ((x as usize + i) % Q as usize) as i16;
            }
            let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
            crate::arch::compress_encode_1(token, &f.c, &mut a);
            compress_encode::<1>(&f, &mut b);
            assert_eq!(a, b, "compress 1, x {x}");
        }
        // Decompress_1: every byte value at every position, all-0, all-1.
        for v in 0..=255u8 {
            for rot in [0usize, 1, 7, 13] {
                let m: [u8; 32] = core::array::from_fn(|i| v.wrapping_add((i * rot) as u8));
                let (mut a, mut b) = (Poly::ZERO, Poly::ZERO);
                crate::arch::decode_decompress_1(token, &m, &mut a.c);
                decode_message_portable(&m, &mut b);
                assert_eq!(a.c, b.c, "decompress 1, byte {v}, rot {rot}");
            }
        }
    }

    #[test]
    fn avx2_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut seed = 0x0123_4567_89ab_cdefu64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for start in (0..Q as usize).step_by(37) {
            let mut f = Poly::ZERO;
            for (i, x) in f.c.iter_mut().enumerate() {
                *x = ((start + 13 * i) % Q as usize) as i16;
            }
            f.c[0] = Q - 1;
            f.c[255] = 0;
            let (mut a, mut b) = ([0u8; 320], [0u8; 320]);
            crate::arch::compress_encode_10(token, &f.c, &mut a);
            compress_encode::<10>(&f, &mut b);
            assert_eq!(a, b, "compress 10, start {start}");
            let (mut a, mut b) = ([0u8; 128], [0u8; 128]);
            crate::arch::compress_encode_4(token, &f.c, &mut a);
            compress_encode::<4>(&f, &mut b);
            assert_eq!(a, b, "compress 4, start {start}");
            let (mut a, mut b) = ([0u8; 352], [0u8; 352]);
            crate::arch::compress_encode_odd::<11>(token, &f.c, &mut a);
            compress_encode::<11>(&f, &mut b);
            assert_eq!(a, b, "compress 11, start {start}");
            let (mut a, mut b) = ([0u8; 160], [0u8; 160]);
            crate::arch::compress_encode_odd::<5>(token, &f.c, &mut a);
            compress_encode::<5>(&f, &mut b);
            assert_eq!(a, b, "compress 5, start {start}");
        }
        // Every x in [0, q) at every position modulo 16.
        for x in 0..Q {
            let f = Poly { c: [x; 256] };
            let (mut a, mut b) = ([0u8; 320], [0u8; 320]);
            crate::arch::compress_encode_10(token, &f.c, &mut a);
            compress_encode::<10>(&f, &mut b);
            assert_eq!(a, b, "compress 10, x {x}");
            let (mut a, mut b) = ([0u8; 128], [0u8; 128]);
            crate::arch::compress_encode_4(token, &f.c, &mut a);
            compress_encode::<4>(&f, &mut b);
            assert_eq!(a, b, "compress 4, x {x}");
            let (mut a, mut b) = ([0u8; 352], [0u8; 352]);
            crate::arch::compress_encode_odd::<11>(token, &f.c, &mut a);
            compress_encode::<11>(&f, &mut b);
            assert_eq!(a, b, "compress 11, x {x}");
            let (mut a, mut b) = ([0u8; 160], [0u8; 160]);
            crate::arch::compress_encode_odd::<5>(token, &f.c, &mut a);
            compress_encode::<5>(&f, &mut b);
            assert_eq!(a, b, "compress 5, x {x}");
        }
        for iter in 0..500 {
            let mut bytes = [0u8; 384];
            let fill = match iter {
                0 => Some(0),
                1 => Some(0xff),
                _ => None,
            };
            for x in &mut bytes {
                *x = fill.unwrap_or_else(|| next() as u8);
            }
            let (mut a, mut b) = (Poly::ZERO, Poly::ZERO);
            crate::arch::decode_decompress_10(token, &bytes[..320], &mut a.c);
            decode_decompress::<10>(&bytes[..320], &mut b);
            assert_eq!(a.c, b.c, "decompress 10, iteration {iter}");
            crate::arch::decode_decompress_4(token, &bytes[..128], &mut a.c);
            decode_decompress::<4>(&bytes[..128], &mut b);
            assert_eq!(a.c, b.c, "decompress 4, iteration {iter}");
            crate::arch::decode_decompress_odd::<11>(token, &bytes[..352], &mut a.c);
            decode_decompress::<11>(&bytes[..352], &mut b);
            assert_eq!(a.c, b.c, "decompress 11, iteration {iter}");
            crate::arch::decode_decompress_odd::<5>(token, &bytes[..160], &mut a.c);
            decode_decompress::<5>(&bytes[..160], &mut b);
            assert_eq!(a.c, b.c, "decompress 5, iteration {iter}");
            crate::arch::decode12(token, &bytes, &mut a.c);
            decode12_portable(&bytes, &mut b);
            assert_eq!(a.c, b.c, "decode12, iteration {iter}");
            // ByteEncode_12 of the decoded values (every 12-bit value
            // below q, at every position over the iterations).
            let (mut x, mut y) = ([0u8; 384], [0u8; 384]);
            crate::arch::encode12(token, &b.c, &mut x);
            encode12_portable(&b, &mut y);
            assert_eq!(x, y, "encode12, iteration {iter}");
        }
    }

    #[test]
    fn encode_decode_roundtrip() {
        let mut f = Poly::ZERO;
        for (i, x) in f.c.iter_mut().enumerate() {
            *x = ((i * 1237) % 3329) as i16;
        }
        let mut b = [0u8; 384];
        encode12(&f, &mut b);
        let mut g = Poly::ZERO;
        assert!(decode12_checked(&b, &mut g));
        assert_eq!(f.c, g.c);
        let mut b10 = [0u8; 320];
        compress_encode::<10>(&f, &mut b10);
        decode_decompress::<10>(&b10, &mut g);
        for (x, y) in f.c.iter().zip(&g.c) {
            let d = (i32::from(*x) - i32::from(*y)).rem_euclid(3329);
            assert!(d.min(3329 - d) <= 2, "{x} {y}");
        }
        b[0] = 0xff;
        b[1] |= 0x0f;
        assert!(!decode12_checked(&b, &mut g));
    }
}
