//! AVX2 `Compress_d` / `ByteEncode_d` and `ByteDecode_d` / `Decompress_d`
//! (FIPS 203 §4.2.1, Algorithms 5 and 6) for `d ∈ {4, 10}` (`d_v`, `d_u` of
//! ML-KEM-512 and -768), `d ∈ {5, 11}` (ML-KEM-1024), `d = 1` (the
//! message: Algorithm 14 line 20, Algorithm 15 line 7), and
//! `ByteEncode_12` / `ByteDecode_12` (Algorithms 5, 6 with `d = 12`).
//!
//! Each kernel computes exactly what its portable twin in `crate::encode`
//! computes: `Compress_d` with the same multiply-and-shift division by `q`
//! (`⌊n·⌈2^34/q⌉ / 2^34⌋`, 64-bit products from `vpmuludq`), `Decompress_d`
//! as `⌊(y·q + 2^{d−1}) / 2^d⌋` from one rounding multiply (`vpmulhrsw`),
//! and the bit packing with shuffles, shifts and multiply-adds. No table
//! lookups on data, no data-dependent branches or addresses (the inputs are
//! secret in `K-PKE.Decrypt` and in the re-encryption of decapsulation).

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadl_epi64, _mm_loadu_si128, _mm_storeu_si128, _mm_unpacklo_epi8,
    _mm256_add_epi16, _mm256_add_epi32, _mm256_and_si256, _mm256_blend_epi16, _mm256_blend_epi32,
    _mm256_castsi256_si128, _mm256_cmpeq_epi16, _mm256_cmpgt_epi16, _mm256_cvtepi16_epi32,
    _mm256_cvtepu8_epi16, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_movemask_epi8, _mm256_mul_epu32, _mm256_mulhrs_epi16, _mm256_mullo_epi16,
    _mm256_or_si256, _mm256_packs_epi16, _mm256_packus_epi16, _mm256_packus_epi32,
    _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set_m128i, _mm256_set1_epi16,
    _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setr_epi16, _mm256_setr_epi32,
    _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_slli_epi32, _mm256_slli_epi64,
    _mm256_sllv_epi64, _mm256_srai_epi16, _mm256_srli_epi16, _mm256_srli_epi64, _mm256_srlv_epi32,
    _mm256_storeu_si256, _mm256_sub_epi16,
};

use pqdr_common::simd::Avx2;

use crate::field::N;
use crate::field::Q;

/// `⌈2^34 / q⌉`, as in `encode::compress`.
const COMPRESS_M: i64 = 5_160_670;

/// `ByteEncode_10(Compress_10(f))` for `f` in `[0, q)` into 320 bytes.
#[inline]
pub(crate) fn compress_encode_10(token: Avx2, f: &[i16; N], out: &mut [u8]) {
    let _ = token;
    let mut buf = [0u8; 320 + 16];
    // SAFETY: the token proves AVX2 was detected.
    unsafe { compress_encode_10_avx2(f, &mut buf) };
    out.copy_from_slice(&buf[..320]);
}

/// `ByteEncode_4(Compress_4(f))` for `f` in `[0, q)` into 128 bytes.
#[inline]
pub(crate) fn compress_encode_4(token: Avx2, f: &[i16; N], out: &mut [u8]) {
    let _ = token;
    let mut buf = [0u8; 128];
    // SAFETY: the token proves AVX2 was detected.
    unsafe { compress_encode_4_avx2(f, &mut buf) };
    out.copy_from_slice(&buf);
}

/// `Decompress_10(ByteDecode_10(b))` of 320 bytes.
#[inline]
pub(crate) fn decode_decompress_10(token: Avx2, bytes: &[u8], f: &mut [i16; N]) {
    let _ = token;
    let mut buf = [0u8; 320 + 16];
    buf[..320].copy_from_slice(bytes);
    // SAFETY: the token proves AVX2 was detected.
    unsafe { decode_decompress_10_avx2(&buf, f) }
}

/// `Decompress_4(ByteDecode_4(b))` of 128 bytes.
#[inline]
pub(crate) fn decode_decompress_4(token: Avx2, bytes: &[u8], f: &mut [i16; N]) {
    let _ = token;
    let mut buf = [0u8; 128];
    buf.copy_from_slice(bytes);
    // SAFETY: the token proves AVX2 was detected.
    unsafe { decode_decompress_4_avx2(&buf, f) }
}

/// `ByteDecode_12(b)` of 384 bytes, reduced to `[0, q)` (`encode::decode12`).
#[inline]
pub(crate) fn decode12(token: Avx2, bytes: &[u8], f: &mut [i16; N]) {
    let _ = token;
    let mut buf = [0u8; 384 + 8];
    buf[..384].copy_from_slice(bytes);
    // SAFETY: the token proves AVX2 was detected.
    unsafe { decode12_avx2(&buf, f) }
}

/// `ByteEncode_12(f)` for `f` in `[0, q)` (any 12-bit values) into 384 bytes.
#[inline]
pub(crate) fn encode12(token: Avx2, f: &[i16; N], out: &mut [u8]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { encode12_avx2(f, out) }
}

/// `ByteEncode_d(Compress_d(f))` for `d ∈ {5, 11}` (`D`) and `f` in `[0, q)`
/// into `32·D` bytes (`out.len()`).
#[inline]
pub(crate) fn compress_encode_odd<const D: usize>(token: Avx2, f: &[i16; N], out: &mut [u8]) {
    const { assert!(D == 5 || D == 11) };
    let _ = token;
    let mut buf = [0u8; 32 * 11 + 16];
    // SAFETY: the token proves AVX2 was detected.
    unsafe { compress_encode_odd_avx2::<D>(f, &mut buf) };
    out.copy_from_slice(&buf[..32 * D]);
}

/// `Decompress_d(ByteDecode_d(b))` for `d ∈ {5, 11}` (`D`) of `32·D` bytes.
#[inline]
pub(crate) fn decode_decompress_odd<const D: usize>(token: Avx2, bytes: &[u8], f: &mut [i16; N]) {
    const { assert!(D == 5 || D == 11) };
    let _ = token;
    let mut buf = [0u8; 32 * 11 + 16];
    buf[..32 * D].copy_from_slice(bytes);
    // SAFETY: the token proves AVX2 was detected.
    unsafe { decode_decompress_odd_avx2::<D>(&buf, f) }
}

/// `ByteEncode_1(Compress_1(f))` for `f` in `[0, q)` (FIPS 203 Algorithm
/// 15, line 7: the message bits), twin of `encode::compress_encode::<1>`.
#[inline]
pub(crate) fn compress_encode_1(token: Avx2, f: &[i16; N], out: &mut [u8; 32]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { compress_encode_1_avx2(f, out) }
}

/// `Decompress_1(ByteDecode_1(m))` (FIPS 203 Algorithm 14, line 20), twin
/// of `encode::decode_message_portable`.
#[inline]
pub(crate) fn decode_decompress_1(token: Avx2, m: &[u8; 32], f: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { decode_decompress_1_avx2(m, f) }
}

/// Loads 16 coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn load(c: &[i16; 16]) -> __m256i {
    // SAFETY: `c` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast::<__m256i>()) }
}

/// Stores 16 coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn store(c: &mut [i16; 16], v: __m256i) {
    // SAFETY: `c` is 32 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast::<__m256i>(), v) }
}

/// Loads 32 bytes.
#[target_feature(enable = "avx2")]
#[inline]
fn load_bytes(b: &[u8; 32]) -> __m256i {
    // SAFETY: `b` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(b.as_ptr().cast::<__m256i>()) }
}

/// Stores 16 bytes.
#[target_feature(enable = "avx2")]
#[inline]
fn store16(b: &mut [u8; 16], v: __m128i) {
    // SAFETY: `b` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast::<__m128i>(), v) }
}

/// `⌊n / q⌋` for eight 32-bit `n < 2^25`, as `⌊n·⌈2^34/q⌉ / 2^34⌋`: the
/// even and odd elements through 64-bit products.
#[target_feature(enable = "avx2")]
#[inline]
fn div_q(n: __m256i) -> __m256i {
    let m = _mm256_set1_epi64x(COMPRESS_M);
    let even = _mm256_srli_epi64::<34>(_mm256_mul_epu32(n, m));
    let odd = _mm256_srli_epi64::<34>(_mm256_mul_epu32(_mm256_srli_epi64::<32>(n), m));
    _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd))
}

/// `Compress_D` of 16 coefficients in `[0, q)`: `⌊(2^D·x + (q−1)/2) / q⌋ mod
/// 2^D`, in coefficient order.
#[target_feature(enable = "avx2")]
#[inline]
fn compress<const D: i32>(x: __m256i) -> __m256i {
    let half = _mm256_set1_epi32(i32::from((Q - 1) >> 1));
    let lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(x));
    let hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(x));
    let lo = div_q(_mm256_add_epi32(_mm256_slli_epi32::<D>(lo), half));
    let hi = div_q(_mm256_add_epi32(_mm256_slli_epi32::<D>(hi), half));
    // packus interleaves the halves: [lo₀ hi₀ lo₁ hi₁] in 64-bit units.
    let y = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(lo, hi));
    #[allow(clippy::cast_possible_truncation, reason = "D ≤ 11")]
    let mask = _mm256_set1_epi16(((1i32 << D) - 1) as i16);
    _mm256_and_si256(y, mask)
}

#[target_feature(enable = "avx2")]
fn compress_encode_10_avx2(f: &[i16; N], out: &mut [u8; 336]) {
    // Pairs (x₀ + 2^10·x₁) in 32 bits, then pairs of those in 64 bits
    // (20 + 20 bits), then the five low bytes of each 64-bit element.
    let pair = _mm256_set1_epi32(1 | (1 << 26));
    let low32 = _mm256_set1_epi64x(0xffff_ffff);
    #[allow(clippy::cast_possible_wrap, reason = "0x80 zeroes a byte")]
    let bytes = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -128, -128, -128, -128, -128, -128, //
        0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -128, -128, -128, -128, -128, -128,
    );
    for (i, c) in f.as_chunks::<16>().0.iter().enumerate() {
        let y = compress::<10>(load(c));
        let p = _mm256_madd_epi16(y, pair);
        let q = _mm256_or_si256(
            _mm256_and_si256(p, low32),
            _mm256_srli_epi64::<12>(_mm256_and_si256(p, _mm256_slli_epi64::<32>(low32))),
        );
        let b = _mm256_shuffle_epi8(q, bytes);
        // 10 bytes per half; each store writes 6 zero bytes past them,
        // overwritten by the next store (the buffer has 16 spare bytes).
        if let Some(o) = out.get_mut(20 * i..).and_then(<[u8]>::first_chunk_mut) {
            store16(o, _mm256_castsi256_si128(b));
        }
        if let Some(o) = out.get_mut(20 * i + 10..).and_then(<[u8]>::first_chunk_mut) {
            store16(o, _mm256_extracti128_si256::<1>(b));
        }
    }
}

#[target_feature(enable = "avx2")]
fn compress_encode_4_avx2(f: &[i16; N], out: &mut [u8; 128]) {
    // (x₀ + 16·x₁) per 32-bit element, packed down to bytes.
    let pair = _mm256_set1_epi32(1 | (16 << 16));
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (o, c) in out
        .as_chunks_mut::<32>()
        .0
        .iter_mut()
        .zip(f.as_chunks::<64>().0)
    {
        let v = c.as_chunks::<16>().0;
        let m: [__m256i; 4] =
            core::array::from_fn(|j| _mm256_madd_epi16(compress::<4>(load(&v[j])), pair));
        // packus_epi32 then packus_epi16: 4-byte units (8 coefficients)
        // in the order [m₀ m₁ m₂ m₃] of the low halves, then the high ones.
        let b = _mm256_packus_epi16(
            _mm256_packus_epi32(m[0], m[1]),
            _mm256_packus_epi32(m[2], m[3]),
        );
        let b = _mm256_permutevar8x32_epi32(b, order);
        // SAFETY: `o` is 32 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast::<__m256i>(), b) };
    }
}

#[target_feature(enable = "avx2")]
fn decode_decompress_10_avx2(bytes: &[u8; 336], f: &mut [i16; N]) {
    // Coefficient j of 8 starts at bit 10j: byte ⌊10j/8⌋, bit s = 10j mod 8;
    // the high half starts 10 bytes in (2 bytes into its 8-byte-offset load).
    #[allow(clippy::cast_possible_wrap, reason = "byte indices < 16")]
    let spread = _mm256_setr_epi8(
        0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, //
        2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11,
    );
    // 2^(6 − s): the field to bits 6..16.
    let align = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1);
    let q = _mm256_set1_epi16(Q);
    for (i, o) in f.as_chunks_mut::<16>().0.iter_mut().enumerate() {
        let Some(b) = bytes.get(20 * i..).and_then(<[u8]>::first_chunk) else {
            continue;
        };
        let v = _mm256_permute4x64_epi64::<0b10_01_01_00>(load_bytes(b));
        let v = _mm256_mullo_epi16(_mm256_shuffle_epi8(v, spread), align);
        // y·2^5 (bits 6..16 down to 5..15), then ⌊(32·y·q + 2^14) / 2^15⌋.
        let y32 = _mm256_and_si256(_mm256_srli_epi16::<1>(v), _mm256_set1_epi16(0x7fe0));
        store(o, _mm256_mulhrs_epi16(y32, q));
    }
}

#[target_feature(enable = "avx2")]
fn decode_decompress_4_avx2(bytes: &[u8; 128], f: &mut [i16; N]) {
    let q = _mm256_set1_epi16(Q);
    let nibble = _mm256_set1_epi16(15);
    for (o, b) in f
        .as_chunks_mut::<16>()
        .0
        .iter_mut()
        .zip(bytes.as_chunks::<8>().0)
    {
        // SAFETY: `b` is 8 readable bytes; `loadl` reads exactly 8.
        let x = unsafe { _mm_loadl_epi64(b.as_ptr().cast::<__m128i>()) };
        // Each byte twice: the low nibble in even lanes, the high one in odd.
        let v = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(x, x));
        let y = _mm256_blend_epi16::<0b1010_1010>(
            _mm256_and_si256(v, nibble),
            _mm256_srli_epi16::<4>(v),
        );
        // ⌊(2^11·y·q + 2^14) / 2^15⌋ = ⌊(y·q + 8) / 16⌋.
        store(o, _mm256_mulhrs_epi16(_mm256_slli_epi16::<11>(y), q));
    }
}

#[target_feature(enable = "avx2")]
fn decode12_avx2(bytes: &[u8; 392], f: &mut [i16; N]) {
    // Lane j of each half takes bytes 3⌊j/2⌋ + (j & 1) and the next one;
    // the high half's 12 bytes start 4 bytes into its load.
    #[allow(clippy::cast_possible_wrap, reason = "byte indices < 16")]
    let spread = _mm256_setr_epi8(
        0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, //
        4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15,
    );
    let mask12 = _mm256_set1_epi16(0x0fff);
    let q = _mm256_set1_epi16(Q);
    for (i, o) in f.as_chunks_mut::<16>().0.iter_mut().enumerate() {
        let Some(b) = bytes.get(24 * i..).and_then(<[u8]>::first_chunk) else {
            continue;
        };
        let v = _mm256_permute4x64_epi64::<0b10_01_01_00>(load_bytes(b));
        let v = _mm256_shuffle_epi8(v, spread);
        let x = _mm256_blend_epi16::<0b1010_1010>(
            _mm256_and_si256(v, mask12),
            _mm256_srli_epi16::<4>(v),
        );
        // field::csubq: x − q, plus q back where that is negative.
        let r = _mm256_sub_epi16(x, q);
        store(
            o,
            _mm256_add_epi16(r, _mm256_and_si256(_mm256_srai_epi16::<15>(r), q)),
        );
    }
}

/// Writes the low 12 bytes of `v` to `out[at..at + 12]`: a 16-byte store
/// where 16 bytes fit (the 4 extra are overwritten by the next call), else
/// through a copy; nothing outside `out`.
#[target_feature(enable = "avx2")]
#[inline]
fn put12(out: &mut [u8], at: usize, v: __m128i) {
    if let Some(o) = out.get_mut(at..).and_then(<[u8]>::first_chunk_mut) {
        store16(o, v);
    } else if let Some(o) = out.get_mut(at..).and_then(<[u8]>::first_chunk_mut::<12>) {
        let mut t = [0u8; 16];
        store16(&mut t, v);
        o.copy_from_slice(&t[..12]);
    }
}

#[target_feature(enable = "avx2")]
fn encode12_avx2(f: &[i16; N], out: &mut [u8]) {
    // (x₀ + 2^12·x₁) per 32-bit element, then its three low bytes.
    let pair = _mm256_set1_epi32(1 | (1 << 28));
    #[allow(clippy::cast_possible_wrap, reason = "0x80 zeroes a byte")]
    let bytes = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128, //
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128,
    );
    for (i, c) in f.as_chunks::<16>().0.iter().enumerate() {
        let b = _mm256_shuffle_epi8(_mm256_madd_epi16(load(c), pair), bytes);
        // 12 bytes per half; each store writes 4 zero bytes past them,
        // overwritten by the next store (the last one goes through a copy).
        put12(out, 24 * i, _mm256_castsi256_si128(b));
        put12(out, 24 * i + 12, _mm256_extracti128_si256::<1>(b));
    }
}

/// The byte shuffles of [`compress_encode_odd_avx2`] for `D`: per 128-bit
/// half, the 64-bit element 0 holds coefficients 0..4 (4D bits from bit 0)
/// and element 1 coefficients 4..8 shifted up by 4 bits; the half's `D`
/// output bytes are bytes `0..=h` of element 0 (`h = (D − 1) / 2`, the last
/// one holding 4 bits) ORed with bytes `8..` of element 1 from position `h`.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "byte indices < 16"
)]
const fn odd_shuffles(d: usize) -> ([i8; 32], [i8; 32]) {
    let h = (d - 1) >> 1;
    let (mut a, mut b) = ([-128i8; 32], [-128i8; 32]);
    let mut k = 0;
    while k < 16 {
        if k <= h {
            a[k] = k as i8;
            a[k + 16] = k as i8;
        }
        if k >= h && k < d {
            b[k] = (8 + k - h) as i8;
            b[k + 16] = (8 + k - h) as i8;
        }
        k += 1;
    }
    (a, b)
}

/// Loads a 32-byte shuffle control.
#[target_feature(enable = "avx2")]
#[inline]
fn load_ctrl(c: &[i8; 32]) -> __m256i {
    // SAFETY: `c` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast::<__m256i>()) }
}

#[target_feature(enable = "avx2")]
fn compress_encode_odd_avx2<const D: usize>(f: &[i16; N], out: &mut [u8; 32 * 11 + 16]) {
    // Pairs (x₀ + 2^D·x₁) in 32 bits (2D bits), then pairs of those in 64
    // bits (4D bits), then element 1 of each half up by 4 bits (4D ≡ 4 mod
    // 8) and the two elements' bytes merged: D bytes per half.
    #[allow(clippy::cast_possible_truncation, reason = "D ≤ 11")]
    let pair = _mm256_set1_epi32(1 | (1 << (16 + D as i32)));
    let low32 = _mm256_set1_epi64x(0xffff_ffff);
    let up4 = _mm256_setr_epi32(0, 0, 4, 0, 0, 0, 4, 0);
    let (sa, sb) = const { odd_shuffles(D) };
    let (sa, sb) = (load_ctrl(&sa), load_ctrl(&sb));
    for (i, c) in f.as_chunks::<16>().0.iter().enumerate() {
        let y = if D == 5 {
            compress::<5>(load(c))
        } else {
            compress::<11>(load(c))
        };
        let p = _mm256_madd_epi16(y, pair);
        let hi = _mm256_and_si256(p, _mm256_slli_epi64::<32>(low32));
        // (p₁ << 32) >> (32 − 2D) = p₁ << 2D.
        let hi = if D == 5 {
            _mm256_srli_epi64::<22>(hi)
        } else {
            _mm256_srli_epi64::<10>(hi)
        };
        let w = _mm256_sllv_epi64(_mm256_or_si256(_mm256_and_si256(p, low32), hi), up4);
        let b = _mm256_or_si256(_mm256_shuffle_epi8(w, sa), _mm256_shuffle_epi8(w, sb));
        // D bytes per half; each store writes zero bytes past them,
        // overwritten by the next store (the buffer has 16 spare bytes).
        if let Some(o) = out.get_mut(2 * D * i..).and_then(<[u8]>::first_chunk_mut) {
            store16(o, _mm256_castsi256_si128(b));
        }
        if let Some(o) = out
            .get_mut(2 * D * i + D..)
            .and_then(<[u8]>::first_chunk_mut)
        {
            store16(o, _mm256_extracti128_si256::<1>(b));
        }
    }
}

/// The byte shuffle and bit shifts of [`decode_decompress_odd_avx2`] for
/// `D`: 32-bit lane `j` (coefficient `j` of 8, `D` bytes loaded into both
/// halves) takes bytes `⌊Dj/8⌋ .. + 4` and shifts right by `Dj mod 8`.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "byte indices < 16, shifts < 8"
)]
const fn odd_spread(d: usize) -> ([i8; 32], [i32; 8]) {
    let (mut spread, mut shift) = ([0i8; 32], [0i32; 8]);
    let mut j = 0;
    while j < 8 {
        let (byte, bit) = ((d * j) >> 3, (d * j) & 7);
        let mut t = 0;
        while t < 4 {
            spread[4 * j + t] = (byte + t) as i8;
            t += 1;
        }
        shift[j] = bit as i32;
        j += 1;
    }
    (spread, shift)
}

#[target_feature(enable = "avx2")]
fn decode_decompress_odd_avx2<const D: usize>(bytes: &[u8; 32 * 11 + 16], f: &mut [i16; N]) {
    let (spread, shift) = const { odd_spread(D) };
    let spread = load_ctrl(&spread);
    // SAFETY: `shift` is 32 readable bytes; `loadu` has no alignment requirement.
    let shift = unsafe { _mm256_loadu_si256(shift.as_ptr().cast::<__m256i>()) };
    #[allow(clippy::cast_possible_truncation, reason = "D ≤ 11")]
    let mask = _mm256_set1_epi32((1 << D as i32) - 1);
    let q = _mm256_set1_epi16(Q);
    for (i, o) in f.as_chunks_mut::<16>().0.iter_mut().enumerate() {
        let a = eight(bytes, 2 * D * i, spread, shift, mask);
        let b = eight(bytes, 2 * D * i + D, spread, shift, mask);
        // packus interleaves the halves: [a₀ b₀ a₁ b₁] in 64-bit units.
        let y = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b));
        // ⌊(2^(15−D)·y·q + 2^14) / 2^15⌋ = ⌊(y·q + 2^(D−1)) / 2^D⌋.
        let y = if D == 5 {
            _mm256_slli_epi16::<10>(y)
        } else {
            _mm256_slli_epi16::<4>(y)
        };
        store(o, _mm256_mulhrs_epi16(y, q));
    }
}

/// Eight `D`-bit fields from `bytes[at..at + D]` to eight 32-bit lanes
/// (`spread`, `shift`, `mask` from [`decode_decompress_odd_avx2`]).
#[target_feature(enable = "avx2")]
#[inline]
fn eight(bytes: &[u8], at: usize, spread: __m256i, shift: __m256i, mask: __m256i) -> __m256i {
    let Some(b) = bytes.get(at..).and_then(<[u8]>::first_chunk::<16>) else {
        return _mm256_set1_epi32(0);
    };
    // SAFETY: `b` is 16 readable bytes; `loadu` has no alignment requirement.
    let x = unsafe { _mm_loadu_si128(b.as_ptr().cast::<__m128i>()) };
    let v = _mm256_shuffle_epi8(_mm256_set_m128i(x, x), spread);
    _mm256_and_si256(_mm256_srlv_epi32(v, shift), mask)
}

/// `Compress_1(x) = ⌊(2x + (q−1)/2) / q⌋ mod 2` is 1 exactly for
/// `833 ≤ x ≤ 2496` (`x` in `[0, q)`): two compares, the masks packed to
/// bytes and their sign bits gathered, 32 coefficients per `vpmovmskb`.
#[target_feature(enable = "avx2")]
fn compress_encode_1_avx2(f: &[i16; N], out: &mut [u8; 32]) {
    let lo = _mm256_set1_epi16(832);
    let hi = _mm256_set1_epi16(2497);
    let bit = |x: __m256i| _mm256_and_si256(_mm256_cmpgt_epi16(x, lo), _mm256_cmpgt_epi16(hi, x));
    for (o, c) in out
        .as_chunks_mut::<4>()
        .0
        .iter_mut()
        .zip(f.as_chunks::<32>().0)
    {
        let (a, b) = c.split_at(16);
        let (Some(a), Some(b)) = (a.first_chunk::<16>(), b.first_chunk::<16>()) else {
            continue;
        };
        // packs interleaves the halves: [a₀ b₀ a₁ b₁] in 64-bit units.
        let m = _mm256_packs_epi16(bit(load(a)), bit(load(b)));
        let m = _mm256_permute4x64_epi64::<0b11_01_10_00>(m);
        #[allow(clippy::cast_sign_loss, reason = "the 32 mask bits")]
        let bits = _mm256_movemask_epi8(m) as u32;
        *o = bits.to_le_bytes();
    }
}

/// Coefficient `i` of each 16 is `⌈q/2⌋ = 1665` if bit `i` of the two
/// message bytes is set, else 0: the 16 bits broadcast, one bit per lane
/// tested by mask and compare (no select or index on the secret bits).
#[target_feature(enable = "avx2")]
fn decode_decompress_1_avx2(m: &[u8; 32], f: &mut [i16; N]) {
    #[allow(clippy::cast_possible_wrap, reason = "bit 15 is i16::MIN")]
    let sel = _mm256_setr_epi16(
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        512,
        1024,
        2048,
        4096,
        8192,
        16384,
        0x8000_u16 as i16,
    );
    let half = _mm256_set1_epi16((Q + 1) >> 1);
    for (o, b) in f
        .as_chunks_mut::<16>()
        .0
        .iter_mut()
        .zip(m.as_chunks::<2>().0)
    {
        let v = _mm256_and_si256(_mm256_set1_epi16(i16::from_le_bytes(*b)), sel);
        store(o, _mm256_and_si256(_mm256_cmpeq_epi16(v, sel), half));
    }
}
