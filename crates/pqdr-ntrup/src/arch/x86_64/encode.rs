//! One level of `Encode` and of `Decode` (NTRU Prime spec §3.1, the
//! general-purpose encoding; reference `Encode`, `Decode`) with AVX2: eight
//! pairs per register. Twins of the pair loops of `encode::encode` (the
//! portable code's `emit_bytes` on pairs whose moduli are both `m`) and
//! `encode::decode` (`split_pairs`). Also `Small_decode` (§3.1, encoding of
//! small elements), 32 coefficients per register: twin of the word loop of
//! `encode::small_decode`.
//!
//! Pair k of a level merges `x = r[2k] + m r[2k + 1]` (`r[i] < m < 16384`,
//! so `x < 2^28`), emits the `bytes` (0, 1 or 2) low bytes of x to
//! `out[k bytes ..]`, low byte first, and keeps `x >> 8 bytes` in `r[k]`.
//! `vpmaddwd` with the word pair `(1, m)` makes the eight x of sixteen
//! coefficients; the low bytes and the new values are packed back with
//! `vpackusdw` / `vpackuswb` and one lane permute. `Decode` divides by the
//! public modulus as `arith::Divisor` does (a 64-bit product and a shift,
//! `vpmuludq` on even and odd lanes). The level's byte count and modulus
//! are public (parameters); no data-dependent branch or index.

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm_loadl_epi64, _mm_loadu_si128, _mm_storel_epi64,
    _mm_storeu_si128, _mm256_add_epi8, _mm256_add_epi32, _mm256_and_si256, _mm256_blend_epi16,
    _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_cvtepu8_epi32, _mm256_cvtepu16_epi32,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_min_epu32,
    _mm256_mul_epu32, _mm256_mullo_epi16, _mm256_or_si256, _mm256_packus_epi16,
    _mm256_packus_epi32, _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi8,
    _mm256_set1_epi16, _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_slli_epi64,
    _mm256_srl_epi64, _mm256_srli_epi32, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_sub_epi16,
    _mm256_sub_epi32, _mm256_xor_si256,
};

use pqdr_common::simd::Avx2;

/// Pairs per block (one register of sixteen coefficients).
const B: usize = 8;

/// The eight 32-bit lanes of `v` (each below 2^16) as eight u16 in the low
/// 128 bits.
#[target_feature(enable = "avx2")]
#[inline]
fn low_words(v: __m256i) -> __m256i {
    let w = _mm256_packus_epi32(v, _mm256_setzero_si256());
    _mm256_permute4x64_epi64::<0b1000>(w)
}

/// [`encode_pairs`] with AVX2 enabled, for pairs emitting `BYTES` bytes
/// each: the blocks of eight pairs at `8 blk` from the bottom up, then,
/// when `rem > 0` and `blocks > 0`, the block of the top eight pairs
/// `pairs - 8 .. pairs` from its inputs read before the others (its pairs
/// below `8 blocks` are merged twice, from the same inputs: the same bytes
/// and values). The caller checked `2 pairs <= r.len()` and `BYTES pairs
/// <= out.len()` (`pairs = 8 blocks + rem`), so the loads and stores need
/// no bounds checks.
#[target_feature(enable = "avx2")]
fn encode_pairs_avx2<const BYTES: usize>(
    out: &mut [u8],
    r: &mut [i16],
    blocks: usize,
    rem: usize,
    m: u32,
) {
    #[allow(clippy::cast_possible_wrap, reason = "m < 16384")]
    let mm = _mm256_set1_epi32(((m << 16) | 1) as i32);
    let byte0 = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
    let (rp, op) = (r.as_mut_ptr(), out.as_mut_ptr());
    // Both closures are given k0 = 8 blk (blk < blocks) or k0 = pairs - 8
    // (when blocks > 0): k0 + 8 <= pairs, so r[2 k0 .. 2 k0 + 16],
    // r[k0 .. k0 + 8] and out[BYTES k0 ..][.. 8 BYTES] are in bounds.
    // The sixteen inputs of pairs k0 .. k0 + 8.
    let load_pairs = |k0: usize| {
        // SAFETY: r[2 k0 .. 2 k0 + 16] is in bounds (above); unaligned load.
        unsafe { _mm256_loadu_si256(rp.add(2 * k0).cast()) }
    };
    // Pairs k0 .. k0 + 8 from their inputs `v`.
    let merge8 = |k0: usize, v: __m256i| {
        let x = _mm256_madd_epi16(v, mm);
        // SAFETY: out[BYTES k0 ..][.. 8 BYTES] (written below) is in bounds (above).
        let o = unsafe { op.add(BYTES * k0) };
        let rest = match BYTES {
            0 => x,
            1 => {
                let lo = _mm256_and_si256(x, _mm256_set1_epi32(0xff));
                let w = _mm256_packus_epi32(lo, _mm256_setzero_si256());
                let b = _mm256_packus_epi16(w, _mm256_setzero_si256());
                let b = _mm256_permutevar8x32_epi32(b, byte0);
                // SAFETY: 8 bytes at `o` (above); `storel_epi64` writes 8 bytes, unaligned.
                unsafe { _mm_storel_epi64(o.cast(), _mm256_castsi256_si128(b)) };
                _mm256_srli_epi32::<8>(x)
            }
            _ => {
                let lo = _mm256_and_si256(x, _mm256_set1_epi32(0xffff));
                let w = low_words(lo);
                // SAFETY: 16 bytes at `o` (above); `storeu_si128` has no alignment requirement.
                unsafe { _mm_storeu_si128(o.cast(), _mm256_castsi256_si128(w)) };
                _mm256_srli_epi32::<16>(x)
            }
        };
        // SAFETY: r[k0 .. k0 + 8] is in bounds (above) and below the inputs
        // not yet read (block blk + 1 reads from 16 (blk + 1) > 8 (blk + 1);
        // the top block's inputs were read first); unaligned store.
        unsafe { _mm_storeu_si128(rp.add(k0).cast(), _mm256_castsi256_si128(low_words(rest))) };
    };
    let top = (rem > 0 && blocks > 0).then(|| load_pairs(B * blocks + rem - B));
    for blk in 0..blocks {
        merge8(B * blk, load_pairs(B * blk));
    }
    if let Some(v) = top {
        merge8(B * blocks + rem - B, v);
    }
}

/// The pairs of one `Encode` level whose pairs have both moduli `m < 16384`
/// and emit `bytes <= 2` bytes each, if there are at least eight (else
/// none): bytes to `out[.. bytes pairs]`, the merged values to `r[k]`.
/// Returns the number of pairs done, `pairs` or 0 (the caller's scalar
/// loop does the rest).
#[inline]
pub(crate) fn encode_pairs(
    token: Avx2,
    out: &mut [u8],
    r: &mut [i16],
    pairs: usize,
    m: u32,
    bytes: usize,
) -> usize {
    let _ = token;
    assert!(m < 16384 && bytes <= 2 && 2 * pairs <= r.len() && bytes * pairs <= out.len());
    let (blocks, rem) = (pairs >> 3, pairs & (B - 1)); // pairs / B, pairs % B
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one); the bounds the kernel
    // needs were asserted above (8 blocks + rem = pairs).
    unsafe {
        match bytes {
            0 => encode_pairs_avx2::<0>(out, r, blocks, rem, m),
            1 => encode_pairs_avx2::<1>(out, r, blocks, rem, m),
            _ => encode_pairs_avx2::<2>(out, r, blocks, rem, m),
        }
    }
    if blocks > 0 { pairs } else { 0 }
}

/// [`decode_pairs`] with AVX2 enabled, for pairs with `BYTES` bytes each:
/// the blocks of eight pairs at `rem + 8 blk` from the top down, then, when
/// `rem > 0` and `blocks > 0`, the block of pairs `0..8` from its tops read
/// before the others (its pairs `rem..8` are split twice, from the same
/// tops and bytes: the same values). The caller checked `2 pairs <=
/// out.len()` and `BYTES pairs <= s.len()` (`pairs = rem + 8 blocks`), so
/// the loads and stores need no bounds checks.
#[target_feature(enable = "avx2")]
fn decode_pairs_avx2<const BYTES: usize>(
    out: &mut [i16],
    s: &[u8],
    rem: usize,
    blocks: usize,
    div: (u32, u64, u32),
) {
    let (d, m, sh) = div;
    // m < 2^31 (checked by the caller) as a zero-extended 32-bit value: the
    // compiler then knows each 64-bit lane's high half is zero and makes
    // `_mm256_mul_epu32` one `vpmuludq` (from a u64 it emulates a 64 x 32-bit product).
    #[allow(clippy::cast_possible_truncation, reason = "m < 2^31")]
    let m32 = m as u32;
    #[allow(clippy::cast_possible_wrap, reason = "d < 16384")]
    let (dv, mv) = (
        _mm256_set1_epi32(d as i32),
        _mm256_set1_epi64x(i64::from(m32)),
    );
    #[allow(clippy::cast_possible_wrap, reason = "s < 64")]
    let shift = _mm_cvtsi32_si128(sh as i32);
    // floor(y / d) lane by lane (`Divisor::quotient`: (y m) >> s, y < 2^28).
    let quotient = |y: __m256i| {
        let ev = _mm256_srl_epi64(_mm256_mul_epu32(y, mv), shift);
        let od = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64::<32>(y), mv), shift);
        _mm256_or_si256(ev, _mm256_slli_epi64::<32>(od))
    };
    let (op, sp) = (out.as_mut_ptr(), s.as_ptr());
    // Both closures are given k0 = rem + 8 blk (blk < blocks) or k0 = 0
    // (when blocks > 0): k0 + 8 <= pairs, so out[k0 .. k0 + 8],
    // out[2 k0 .. 2 k0 + 16] and s[BYTES k0 ..][.. 8 BYTES] are in bounds.
    // The tops of pairs k0 .. k0 + 8 (eight u32 lanes).
    let load_tops = |k0: usize| {
        // SAFETY: out[k0 .. k0 + 8] is in bounds (above); unaligned load.
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(op.add(k0).cast()) })
    };
    // Pairs k0 .. k0 + 8 from their tops `t`.
    let split8 = |k0: usize, t: __m256i| {
        // SAFETY: s[BYTES k0 ..][.. 8 BYTES] (read below) is in bounds (above).
        let bs = unsafe { sp.add(BYTES * k0) };
        let x = match BYTES {
            0 => t,
            1 => {
                // SAFETY: 8 bytes at `bs` (above); `loadl_epi64` reads 8 bytes, unaligned.
                let b = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(bs.cast()) });
                _mm256_add_epi32(b, _mm256_slli_epi32::<8>(t))
            }
            _ => {
                // SAFETY: 16 bytes at `bs` (above); `loadu` has no alignment requirement.
                let b = _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(bs.cast()) });
                _mm256_add_epi32(b, _mm256_slli_epi32::<16>(t))
            }
        };
        let q = quotient(x);
        // x mod d = x - q d < d < 2^14 in the low 16 bits of each lane, from
        // 16-bit products: q < 2d < 2^15 and d are their lanes' low halves
        // (high halves 0), so `vpmullw` gives q d mod 2^16 there.
        let x0 = _mm256_sub_epi16(x, _mm256_mullo_epi16(q, dv));
        // q mod d for q < 2d (see `decode_pairs`): q - d, or q where it wraps.
        let x1 = _mm256_min_epu32(q, _mm256_sub_epi32(q, dv));
        // x0 in the low halves, x1 in the high ones.
        let both = _mm256_blend_epi16::<0b1010_1010>(x0, _mm256_slli_epi32::<16>(x1));
        // SAFETY: out[2 k0 .. 2 k0 + 16] is in bounds (above), above every
        // top not yet read (the blocks below read out[..k0], k0 <= 2 k0;
        // the low block's tops were read first); unaligned store.
        unsafe { _mm256_storeu_si256(op.add(2 * k0).cast(), both) };
    };
    let low = (rem > 0 && blocks > 0).then(|| load_tops(0));
    for blk in (0..blocks).rev() {
        let k0 = rem + B * blk;
        split8(k0, load_tops(k0));
    }
    if let Some(t) = low {
        split8(0, t);
    }
}

/// The pairs of one `Decode` level (NTRU Prime spec
/// §3.1, reference `Decode`) whose pairs have both moduli `d` and
/// `bytes <= 2` bytes each in `s` (this level's bytes): pair k splits
/// `x = bottom + 256^bytes out[k]` into `out[2k] = x mod d` and
/// `out[2k + 1] = (x div d) mod d`, eight pairs at a time from the top
/// down (twin of `encode::split_pairs`). `div` is the divisor's `(d, m, s)`
/// (`arith::Divisor`); with fewer than 8 pairs none. Returns the number of
/// low pairs left to the caller: 0, or `pairs` when `pairs < 8`.
///
/// Each `out[k]` must be below the modulus the pairs merge into,
/// `M = ceil(d^2 / 256^bytes)` (as the level above leaves it: reduced mod
/// M). Then `x < 256^bytes M <= d^2 + 256^bytes`, and `256^bytes < d^2 / 63`
/// (a pair emits a byte only while its modulus is at least 16384, so before
/// the last one `d^2 / 256^(bytes - 1) > 16383`; with no byte, `x < d^2`), so
/// `q = x div d < d + d / 63 + 1 < 2d`: `q mod d` is one conditional
/// subtraction (checked below for the given `d` and `bytes`; tested at the
/// bound by `encode::tests::decode_pairs_at_the_bound`).
#[inline]
pub(crate) fn decode_pairs(
    token: Avx2,
    out: &mut [i16],
    s: &[u8],
    pairs: usize,
    bytes: usize,
    div: (u32, u64, u32),
) -> usize {
    let _ = token;
    assert!(div.0 < 16384 && div.1 < 1 << 31 && div.2 < 64);
    assert!(bytes <= 2 && 2 * pairs <= out.len() && bytes * pairs <= s.len());
    let (d, scale) = (u64::from(div.0), 1u64 << (8 * bytes));
    // x < scale M <= d^2 + scale - 1, so q < 2d (public parameters).
    assert!(d * d + scale - 1 < 2 * d * d);
    let (blocks, rem) = (pairs >> 3, pairs & (B - 1)); // pairs / B, pairs % B
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one); the bounds the kernel
    // needs were asserted above (rem + 8 blocks = pairs).
    unsafe {
        match bytes {
            0 => decode_pairs_avx2::<0>(out, s, rem, blocks, div),
            1 => decode_pairs_avx2::<1>(out, s, rem, blocks, div),
            _ => decode_pairs_avx2::<2>(out, s, rem, blocks, div),
        }
    }
    if blocks > 0 { 0 } else { rem }
}

/// [`small_decode`] with AVX2 enabled.
#[target_feature(enable = "avx2")]
fn small_decode_avx2(f: &mut [i8], s: &[u8], blocks: usize) {
    // Output byte 4k + j (k < 8, j < 4) takes input byte k; within each
    // 128-bit lane (all 8 input bytes in both of its halves) lane 0 makes
    // coefficients 0..16 from bytes 0..4, lane 1 16..32 from bytes 4..8.
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7,
        7, 7,
    );
    // Bit 0 and bit 1 of field j (bits 2j and 2j + 1) in byte 4k + j.
    let lo = _mm256_set1_epi32(0x4010_0401);
    #[allow(clippy::cast_possible_wrap, reason = "bit pattern")]
    let hi = _mm256_set1_epi32(0x8020_0802_u32 as i32);
    for (out, b) in f.chunks_exact_mut(32).zip(s.chunks_exact(8)).take(blocks) {
        let mut w = [0u8; 8];
        w.copy_from_slice(b);
        let v = _mm256_shuffle_epi8(_mm256_set1_epi64x(i64::from_le_bytes(w)), spread);
        // 0 or -1 per bit; t = -(field) in -3..=0; the coefficient is
        // field - 1 = !t (two's complement: !t = -t - 1).
        let b0 = _mm256_cmpeq_epi8(_mm256_and_si256(v, lo), lo);
        let b1 = _mm256_cmpeq_epi8(_mm256_and_si256(v, hi), hi);
        let t = _mm256_add_epi8(b0, _mm256_add_epi8(b1, b1));
        let c = _mm256_xor_si256(t, _mm256_set1_epi8(-1));
        // SAFETY: `out` is 32 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), c) };
    }
}

/// `Small_decode` (NTRU Prime spec §3.1) of the first `32 (f.len() / 32)`
/// coefficients: coefficient `4k + j` is bits `2j, 2j + 1` of `s[k]`,
/// minus 1 (a field of 3 gives 2, as the portable code does). Returns the
/// number of coefficients done (a multiple of 32; the caller does the
/// rest). Bit tests and byte arithmetic only: constant time (f is secret).
#[inline]
pub(crate) fn small_decode(token: Avx2, f: &mut [i8], s: &[u8]) -> usize {
    let _ = token;
    let blocks = f.len() >> 5; // f.len() / 32
    assert!(8 * blocks <= s.len());
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { small_decode_avx2(f, s, blocks) };
    32 * blocks
}

/// [`small_encode`] with AVX2 enabled.
#[target_feature(enable = "avx2")]
fn small_encode_avx2(s: &mut [u8], f: &[i8], blocks: usize) {
    // Byte pairs (1, 4) then word pairs (1, 16): the 32-bit lane k of a
    // register holds v0 + 4 v1 + 16 v2 + 64 v3 (< 256) of coefficients
    // 4k .. 4k + 4 (v = c + 1 in 0..=2); its low byte is output byte k.
    let by4 = _mm256_set1_epi16(0x0401);
    let by16 = _mm256_set1_epi32(0x0010_0001);
    // The low byte of each 32-bit lane to the lane's first 4 bytes.
    let gather = _mm256_setr_epi8(
        0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let join = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
    for (out, c) in s.chunks_exact_mut(8).zip(f.chunks_exact(32)).take(blocks) {
        // SAFETY: `c` is 32 readable bytes; `loadu` has no alignment requirement.
        let v = unsafe { _mm256_loadu_si256(c.as_ptr().cast()) };
        let v = _mm256_add_epi8(v, _mm256_set1_epi8(1));
        let w = _mm256_madd_epi16(_mm256_maddubs_epi16(v, by4), by16);
        let b = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(w, gather), join);
        // SAFETY: `out` is 8 writable bytes; `storel_epi64` writes 8 bytes, unaligned.
        unsafe { _mm_storel_epi64(out.as_mut_ptr().cast(), _mm256_castsi256_si128(b)) };
    }
}

/// `Small_encode` (NTRU Prime spec §3.1) of the first `32 (f.len() / 32)`
/// coefficients, each in {-1, 0, 1}: byte k is `sum (c[4k + j] + 1) 4^j`.
/// Returns the number of coefficients done (a multiple of 32; the caller
/// does the rest). Byte arithmetic and fixed shuffles only: constant time
/// (f is secret). Twin: the word loop of `encode::small_encode`.
#[inline]
pub(crate) fn small_encode(token: Avx2, s: &mut [u8], f: &[i8]) -> usize {
    let _ = token;
    let blocks = f.len() >> 5; // f.len() / 32
    assert!(8 * blocks <= s.len());
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { small_encode_avx2(s, f, blocks) };
    32 * blocks
}
