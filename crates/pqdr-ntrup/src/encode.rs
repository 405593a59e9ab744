//! Encodings (NTRU Prime spec §3.1: the general-purpose `Encode` / `Decode`,
//! the encodings of field elements and public keys, of rounded elements and
//! ciphertexts, of small elements and secret keys); reference `Encode`,
//! `Decode`, `Small_encode`, `Small_decode`, `Rq_encode`, `Rq_decode`,
//! `Rounded_encode`, `Rounded_decode`.
//!
//! `Encode` is the spec's recursive mixed-radix encoding; here it runs level by
//! level without recursion. At every level all moduli are equal except possibly
//! the last one, so a level is described by `(len, m, m_last)`; the byte
//! layout therefore depends only on the public parameters. `Decode` divides by
//! public moduli with [`Divisor`] (multiply and shift), so decoding a secret
//! ciphertext is constant time.

use crate::arch::{self, Avx2};
use crate::arith::{Divisor, Fq};

/// Bytes emitted when a pair with modulus product `m` is merged, and the new modulus.
const fn merge(m0: u32, m1: u32) -> (usize, u32) {
    let mut m = m0 * m1;
    let mut bytes = 0;
    while m >= 16384 {
        bytes += 1;
        m = (m + 255) >> 8;
    }
    (bytes, m)
}

/// One level of the encoding tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Level {
    len: usize,
    m: u32,
    m_last: u32,
    /// Division by `m` and by `m_last`, precomputed.
    div: Divisor,
    div_last: Divisor,
    /// Offset of this level's bytes in the encoding.
    offset: usize,
    /// Bytes per merged pair of moduli `(m, m)`.
    bytes_mm: usize,
}

/// Entries of a [`Levels`] table: the merge levels of `Encode` for up to
/// [`MAX_LEN`] values, plus the top level.
const MAX_LEVELS: usize = 12;

/// The most values one [`Levels`] table encodes, `2^(MAX_LEVELS - 1)` (every
/// set's p fits: `MAX_P <= MAX_LEN` is checked in `params.rs`).
pub(crate) const MAX_LEN: usize = 1 << (MAX_LEVELS - 1);

/// The levels of an encoding, the index of the top level, and the total length.
pub(crate) type Levels = ([Level; MAX_LEVELS], usize, usize);

/// The levels of `Encode` for `len` values modulo `m`, and the total length
/// (evaluated at compile time for the parameter sets, see [`Codec`]).
pub(crate) const fn levels(len: usize, m: u32) -> Levels {
    let mut out = [Level {
        len: 0,
        m: 1,
        m_last: 1,
        div: Divisor::new(1),
        div_last: Divisor::new(1),
        offset: 0,
        bytes_mm: 0,
    }; MAX_LEVELS];
    let (mut len, mut m, mut m_last) = (len, m, m);
    let mut offset = 0;
    let mut n = 0;
    while len > 1 {
        let (bytes_mm, m_mm) = merge(m, m);
        out[n] = Level {
            len,
            m,
            m_last,
            div: Divisor::new(m),
            div_last: Divisor::new(m_last),
            offset,
            bytes_mm,
        };
        let pairs = len >> 1;
        let new_last = if len & 1 == 0 {
            let (bytes_ml, m_ml) = merge(m, m_last);
            offset += (pairs - 1) * bytes_mm + bytes_ml;
            m_ml
        } else {
            offset += pairs * bytes_mm;
            m_last
        };
        len = (len + 1) >> 1;
        m = m_mm;
        m_last = new_last;
        n += 1;
    }
    // The last value: bytes while m > 1.
    out[n] = Level {
        len: 1,
        m: m_last,
        m_last,
        div: Divisor::new(m_last),
        div_last: Divisor::new(m_last),
        offset,
        bytes_mm: 0,
    };
    let mut top = m_last;
    while top > 1 {
        offset += 1;
        top = (top + 255) >> 8;
    }
    (out, n, offset)
}

/// Length of `Encode` of `len` values modulo `m`.
pub(crate) const fn encoded_len(len: usize, m: u32) -> usize {
    levels(len, m).2
}

/// `Rq_bytes`: length of `Rq_encode` (p values modulo q).
#[allow(clippy::cast_sign_loss, reason = "q > 0")]
pub(crate) const fn rq_bytes(p: usize, q: i16) -> usize {
    encoded_len(p, q as u32)
}

/// `Rounded_bytes`: length of `Rounded_encode` (p values modulo (q + 2) / 3).
#[allow(clippy::cast_sign_loss, reason = "q > 0")]
pub(crate) const fn rounded_bytes(p: usize, q: i16) -> usize {
    encoded_len(p, rounded_modulus(q as u32))
}

/// `Encode(R, M)` (NTRU Prime spec §3.1) with every `M[i] = m` (values `0 <= r[i] < m <= 16384`, held
/// in i16); `r` is overwritten. `out.len()` must be [`encoded_len`]`(r.len(), m)`.
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "values are in 0..16384"
)]
fn encode(out: &mut [u8], r: &mut [i16], levels: &Levels) {
    encode_on(out, r, levels, arch::avx2());
}

/// [`encode`] on the given backend: with the AVX2 token each level's pairs
/// of moduli `(m, m)`, if there are at least eight, go eight at a time
/// through `arch::encode_pairs` (the same bytes and values as the loop
/// below, which does the rest).
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "values are in 0..16384"
)]
fn encode_on(out: &mut [u8], r: &mut [i16], levels: &Levels, be: Option<Avx2>) {
    let (lv, n, total) = (&levels.0, levels.1, levels.2);
    debug_assert_eq!(out.len(), total);
    let mut pos = 0;
    for level in &lv[..n] {
        let len = level.len;
        let mut start = 0;
        if let Some(token) = be {
            // Pairs whose second modulus is m (the last one of an even level may not be).
            let uniform = (len >> 1) - usize::from(len & 1 == 0);
            start = arch::encode_pairs(token, &mut out[pos..], r, uniform, level.m, level.bytes_mm);
            pos += start * level.bytes_mm;
        }
        for k in start..len >> 1 {
            let m1 = if 2 * k + 2 == len {
                level.m_last
            } else {
                level.m
            };
            let x = u32::from(r[2 * k] as u16) + u32::from(r[2 * k + 1] as u16) * level.m;
            let x = emit_bytes(out, &mut pos, x, level.m * m1, 16384);
            #[allow(clippy::cast_possible_truncation, reason = "x < mm < 16384")]
            let x16 = x as i16;
            r[k] = x16;
        }
        if len & 1 == 1 {
            r[len >> 1] = r[len - 1];
        }
    }
    emit_bytes(out, &mut pos, u32::from(r[0] as u16), lv[n].m, 2);
}

/// The byte output of one `Encode` step: while the modulus `mm` of `x` is
/// at least `limit`, emit the low byte of `x` and divide both by 256 (the
/// modulus rounding up). Returns what is left of `x`.
#[inline(always)]
fn emit_bytes(out: &mut [u8], pos: &mut usize, mut x: u32, mut mm: u32, limit: u32) -> u32 {
    while mm >= limit {
        #[allow(clippy::cast_possible_truncation, reason = "low byte")]
        let byte = x as u8;
        out[*pos] = byte;
        *pos += 1;
        x >>= 8;
        mm = (mm + 255) >> 8;
    }
    x
}

/// `Decode(S, M)` (NTRU Prime spec §3.1) with every `M[i] = m`: `out[i]` in `0..m` for any input bytes.
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "values are in 0..16384"
)]
fn decode(out: &mut [i16], s: &[u8], levels: &Levels) {
    decode_on(out, s, levels, arch::avx2());
}

/// [`decode`] on the given backend: with the AVX2 token each level's pairs
/// of moduli `(m, m)`, if there are at least eight, go eight at a time
/// through `arch::decode_pairs` (the same values as `split_pairs`, which
/// does the levels with fewer).
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "values are in 0..16384"
)]
fn decode_on(out: &mut [i16], s: &[u8], levels: &Levels, be: Option<Avx2>) {
    let (lv, n, total) = (&levels.0, levels.1, levels.2);
    debug_assert_eq!(s.len(), total);
    let top = &lv[n];
    let t = match top.m {
        1 => 0,
        2..=256 => top.div.divmod(u32::from(s[top.offset])).1,
        _ => {
            let x = u32::from(s[top.offset]) + (u32::from(s[top.offset + 1]) << 8);
            top.div.divmod(x).1
        }
    };
    #[allow(clippy::cast_possible_truncation, reason = "t < m <= 16384")]
    let t16 = t as i16;
    out[0] = t16;
    for level in lv[..n].iter().rev() {
        let len = level.len;
        if len & 1 == 1 {
            out[len - 1] = out[len >> 1];
        }
        let pairs = len >> 1;
        // When len is even the last pair's second modulus is m_last; that
        // pair comes first (the pairs run from the top down, since pair k
        // reads out[k] and writes out[2k] and out[2k + 1]).
        let mut uniform = pairs;
        if len & 1 == 0 {
            uniform -= 1;
            let (bytes, _) = merge(level.m, level.m_last);
            let at = level.offset + uniform * level.bytes_mm;
            split_pair(out, uniform, bytes_at(s, at, bytes), level, &level.div_last);
        }
        // The other pairs all take `bytes_mm` bytes: one loop per byte count.
        let s = &s[level.offset..level.offset + uniform * level.bytes_mm];
        if let Some(token) = be {
            uniform = arch::decode_pairs(token, out, s, uniform, level.bytes_mm, level.div.parts());
        }
        let s = &s[..uniform * level.bytes_mm];
        match level.bytes_mm {
            0 => split_pairs::<0>(out, s, uniform, level),
            1 => split_pairs::<1>(out, s, uniform, level),
            _ => split_pairs::<2>(out, s, uniform, level),
        }
    }
}

/// The bytes a pair merged at `at` emitted, as `(bottom, 256^bytes)`.
#[inline(always)]
fn bytes_at(s: &[u8], at: usize, bytes: usize) -> (u32, u32) {
    match bytes {
        0 => (0, 1),
        1 => (u32::from(s[at]), 256),
        _ => (u32::from(s[at]) + (u32::from(s[at + 1]) << 8), 65536),
    }
}

/// One `Decode` step of pair `k`: `x = bottom + scale * out[k]` split into
/// `out[2k] = x mod m` and `out[2k + 1] = (x div m) mod m1` (the second
/// reduction only matters for invalid encodings).
#[allow(clippy::cast_sign_loss, reason = "values are in 0..16384")]
#[inline(always)]
fn split_pair(
    out: &mut [i16],
    k: usize,
    (bottom, scale): (u32, u32),
    level: &Level,
    div1: &Divisor,
) {
    let x = bottom + scale * u32::from(out[k] as u16);
    let (x1, x0) = level.div.divmod(x);
    let (_, x1) = div1.divmod(x1);
    #[allow(clippy::cast_possible_truncation, reason = "both < 16384")]
    {
        out[2 * k] = x0 as i16;
        out[2 * k + 1] = x1 as i16;
    }
}

/// Pairs `pairs - 1` down to 0 of one level, each with `BYTES` bytes of
/// `s` (this level's bytes) and both moduli `m`.
#[inline(always)]
fn split_pairs<const BYTES: usize>(out: &mut [i16], s: &[u8], pairs: usize, level: &Level) {
    debug_assert_eq!(s.len(), pairs * BYTES);
    for k in (0..pairs).rev() {
        split_pair(out, k, bytes_at(s, k * BYTES, BYTES), level, &level.div);
    }
}

/// The encoding trees of one parameter set, computed at compile time (so
/// decoding performs no division at all, not even by public moduli).
#[derive(Debug)]
pub(crate) struct Codec<const P: usize, const Q: i16>;

impl<const P: usize, const Q: i16> Codec<P, Q> {
    /// `Rq_encode` / `Rq_decode`: p values modulo q.
    #[allow(clippy::cast_sign_loss, reason = "q > 0")]
    const RQ: Levels = levels(P, Q as u32);
    /// `Rounded_encode` / `Rounded_decode`: p values modulo (q + 2) / 3.
    #[allow(clippy::cast_sign_loss, reason = "q > 0")]
    const ROUNDED: Levels = levels(P, rounded_modulus(Q as u32));
}

/// Length of `Small_encode` output: `ceil(p / 4)`.
pub(crate) const fn small_bytes(p: usize) -> usize {
    p.div_ceil(4)
}

/// `Small_encode` (NTRU Prime spec §3.1, encoding of small elements): four
/// coefficients (+1, in 0..=2) per byte, little end first. Eight coefficients
/// (two bytes) at a time in a 64-bit word: `((c & 3) + 1) & 3` is `c + 1` for
/// c in {-1, 0, 1} byte by byte without carries, and the four 2-bit values of
/// each 32-bit half are gathered by shifts (no multiply); the last `p mod 8`
/// coefficients one by one.
pub(crate) fn small_encode<const P: usize>(s: &mut [u8], f: &[i8; P]) {
    small_encode_on(s, f, arch::avx2());
}

/// [`small_encode`] on the given backend: with the AVX2 token the first
/// `32 (p / 32)` coefficients through `arch::small_encode` (the same bytes
/// as the loops below, which do the rest).
fn small_encode_on<const P: usize>(s: &mut [u8], f: &[i8; P], be: Option<Avx2>) {
    const LOW2: u64 = 0x0303_0303_0303_0303;
    debug_assert_eq!(s.len(), small_bytes(P));
    let whole = P >> 3;
    let done = be.map_or(0, |token| arch::small_encode(token, s, f)); // a multiple of 8
    for (out, c) in s[done >> 2..]
        .chunks_exact_mut(2)
        .zip(f[done..].chunks_exact(8))
    {
        let mut b = [0u8; 8];
        for (x, &y) in b.iter_mut().zip(c) {
            *x = y.to_le_bytes()[0];
        }
        let t = ((u64::from_le_bytes(b) & LOW2) + 0x0101_0101_0101_0101) & LOW2;
        let w = t | t >> 6 | t >> 12 | t >> 18;
        out[0] = w.to_le_bytes()[0];
        out[1] = w.to_le_bytes()[4];
    }
    for (byte, chunk) in s[2 * whole..].iter_mut().zip(f[8 * whole..].chunks(4)) {
        let mut x = 0u8;
        for (j, &c) in chunk.iter().enumerate() {
            #[allow(clippy::cast_sign_loss, reason = "c + 1 is in 0..=2")]
            let v = c.wrapping_add(1) as u8;
            x |= v << (2 * j);
        }
        *byte = x;
    }
}

/// `Small_decode` (NTRU Prime spec §3.1; the inverse of [`small_encode`] on
/// valid input). Two bytes (eight coefficients) at a time in a 64-bit word:
/// the 2-bit fields spread to one per byte by shifts, then `x − 1` per byte as
/// `(x + 0x7f) ^ 0x80` (no borrow between bytes); the same values as the
/// one-by-one loop (which decodes the rest) for every input byte.
pub(crate) fn small_decode<const P: usize>(f: &mut [i8; P], s: &[u8]) {
    small_decode_on(f, s, arch::avx2());
}

/// [`small_decode`] on the given backend: with the AVX2 token the first
/// `32 (p / 32)` coefficients through `arch::small_decode` (the same values
/// as the loops below, which do the rest).
fn small_decode_on<const P: usize>(f: &mut [i8; P], s: &[u8], be: Option<Avx2>) {
    debug_assert_eq!(s.len(), small_bytes(P));
    let whole = P >> 3;
    let done = be.map_or(0, |token| arch::small_decode(token, f, s)); // a multiple of 8
    for (c, b) in f[done..]
        .chunks_exact_mut(8)
        .zip(s[done >> 2..].chunks_exact(2))
    {
        let v = u64::from(b[0]) | u64::from(b[1]) << 32;
        let t = (v | v << 6 | v << 12 | v << 18) & 0x0303_0303_0303_0303;
        let d = (t + 0x7f7f_7f7f_7f7f_7f7f) ^ 0x8080_8080_8080_8080;
        for (x, y) in c.iter_mut().zip(d.to_le_bytes()) {
            *x = i8::from_le_bytes([y]);
        }
    }
    for (chunk, &byte) in f[8 * whole..].chunks_mut(4).zip(&s[2 * whole..]) {
        for (j, c) in chunk.iter_mut().enumerate() {
            #[allow(clippy::cast_possible_wrap, reason = "0..=3")]
            let v = ((byte >> (2 * j)) & 3) as i8;
            *c = v - 1;
        }
    }
}

/// The p coefficients `Small_decode(s)` yields, in order, without a
/// p-coefficient buffer (for the reciprocal's initial state).
pub(crate) fn small_coeffs(s: &[u8], p: usize) -> impl Iterator<Item = i8> + '_ {
    s.iter()
        .flat_map(|&byte| {
            (0..4).map(move |j| {
                #[allow(clippy::cast_possible_wrap, reason = "0..=3")]
                let v = ((byte >> (2 * j)) & 3) as i8;
                v - 1
            })
        })
        .take(p)
}

/// `Encode` of `r` after mapping every coefficient to its digit in `0..m`
/// with `to_digit` (i16 arithmetic: eight or sixteen lanes per register
/// once vectorised); `r` is consumed.
#[inline(always)]
fn encode_digits<const P: usize>(
    s: &mut [u8],
    r: &mut [i16; P],
    levels: &Levels,
    to_digit: impl Fn(i16) -> i16,
) {
    for x in r.iter_mut() {
        *x = to_digit(*x);
    }
    encode(s, r, levels);
}

/// `Decode` into digits, then every digit mapped back to its coefficient
/// with `from_digit`.
#[inline(always)]
fn decode_digits<const P: usize>(
    r: &mut [i16; P],
    s: &[u8],
    levels: &Levels,
    from_digit: impl Fn(i16) -> i16,
) {
    decode(r, s, levels);
    for x in r.iter_mut() {
        *x = from_digit(*x);
    }
}

/// `(q - 1) / 2` as i16 (below 2^13 for every q this crate accepts).
#[allow(clippy::cast_possible_truncation, reason = "q12 < 2^13")]
const fn q12<const Q: i16>() -> i16 {
    Fq::<Q>::Q12 as i16
}

/// `Rq_encode` (NTRU Prime spec §3.1, encoding of field elements): the
/// coefficients shifted to `0..q`, mixed-radix encoded; `r` is consumed.
pub(crate) fn rq_encode<const P: usize, const Q: i16>(s: &mut [u8], r: &mut [i16; P]) {
    // |x| <= q12: x + q12 in 0..q.
    encode_digits(s, r, &Codec::<P, Q>::RQ, |x| x.wrapping_add(q12::<Q>()));
}

/// `Rq_decode` (NTRU Prime spec §3.1): any bytes of the right length decode.
pub(crate) fn rq_decode<const P: usize, const Q: i16>(r: &mut [i16; P], s: &[u8]) {
    // Digits in 0..q: x - q12 in -q12..=q12.
    decode_digits(r, s, &Codec::<P, Q>::RQ, |x| x.wrapping_sub(q12::<Q>()));
}

/// Modulus of the rounded encoding: `(q + 2) / 3`.
pub(crate) const fn rounded_modulus(q: u32) -> u32 {
    q.div_ceil(3)
}

/// `Rounded_encode` (NTRU Prime spec §3.1, encoding of rounded elements): each
/// multiple of 3 in `-q12..=q12` as `(x + q12) / 3`; `r` is consumed.
pub(crate) fn rounded_encode<const P: usize, const Q: i16>(s: &mut [u8], r: &mut [i16; P]) {
    // y = x + q12 is a multiple of 3 (q12 is) below 2^13, and y / 3 =
    // (y 10923) >> 15 (10923 = ceil(2^15 / 3): y / 3 (2^15 + 1) >> 15 for
    // y / 3 < 2^15), here as the high half of the i16 product (2y) 10923
    // (2y < 2^14): one `pmulhw` per lane.
    encode_digits(s, r, &Codec::<P, Q>::ROUNDED, |x| {
        let y2 = x.wrapping_add(q12::<Q>()).wrapping_mul(2);
        #[allow(clippy::cast_possible_truncation, reason = "below 2^13")]
        let d = ((i32::from(y2) * 10923) >> 16) as i16;
        d
    });
}

/// `Rounded_decode` (NTRU Prime spec §3.1): digit d (below (q + 2) / 3, so
/// 3d < 2^14) to `3d - q12`.
pub(crate) fn rounded_decode<const P: usize, const Q: i16>(r: &mut [i16; P], s: &[u8]) {
    decode_digits(r, s, &Codec::<P, Q>::ROUNDED, |x| {
        x.wrapping_mul(3).wrapping_sub(q12::<Q>())
    });
}

#[cfg(test)]
mod tests;
