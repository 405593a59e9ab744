//! AVX2 per-polynomial steps of `ML-DSA.Sign_internal` (FIPS 204 Algorithm
//! 7, lines 12–28), eight coefficients per register, each the twin of a
//! function of `sign_poly.rs` (same formulas lane by lane, so the outputs
//! are bit-identical):
//! - [`z_pack`]: z → centred, ‖z‖∞ check, `BitPack(z, γ1 − 1, γ1)`
//!   (Algorithm 17);
//! - [`w1_pack`]: w → [0, q), `w1Encode(HighBits(w))` (Algorithms 28, 37, 16);
//! - [`low_bits_check`]: w − cs2 and its ‖LowBits‖∞ check (Algorithm 36);
//! - [`make_hint`]: ct0, its ‖·‖∞ check and the hint row (Algorithm 39);
//! - [`use_hint_pack`] (verification, Algorithm 8): w → [0, q),
//!   `w1Encode(UseHint(h, w))` (Algorithms 28, 40, 16);
//! - [`swap_in_ball`]: the masked update of `SampleInBall` (Algorithm 29,
//!   lines 7–8), 32 byte coefficients per register, twin of
//!   `ct::swap_in_ball_portable`.
//!
//! z, w, cs2 and ct0 are secret for a rejected attempt: only arithmetic, shifts,
//! constant shuffles and public offsets; the norm checks are OR-ed sign bits.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "shift counts and field widths below 64"
)]

use core::arch::x86_64::{
    __m256i, _mm_add_epi32, _mm_add_epi64, _mm_cvtsi32_si128, _mm_cvtsi128_si32, _mm_cvtsi128_si64,
    _mm_extract_epi64, _mm_shuffle_epi32, _mm_storeu_si128, _mm_unpacklo_epi16, _mm256_add_epi8,
    _mm256_add_epi32, _mm256_and_si256, _mm256_blend_epi32, _mm256_blendv_epi8,
    _mm256_bsrli_epi128, _mm256_castsi256_ps, _mm256_castsi256_si128, _mm256_cmpeq_epi8,
    _mm256_cmpeq_epi32, _mm256_cmpgt_epi32, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_maddubs_epi16, _mm256_movemask_ps, _mm256_mullo_epi32, _mm256_or_si256,
    _mm256_packus_epi16, _mm256_packus_epi32, _mm256_sad_epu8, _mm256_set1_epi8, _mm256_set1_epi16,
    _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setzero_si256,
    _mm256_sll_epi64, _mm256_srai_epi32, _mm256_srl_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
    _mm256_sub_epi32, _mm256_xor_si256,
};

use pqdr_common::simd::Avx2;

use crate::field::Q;
use crate::zetas::N;

/// γ2 = (q − 1)/32 (ML-DSA-65, -87); the other value is (q − 1)/88.
const GAMMA2_32: i32 = 261_888;

/// z ← γ1 − centre(z mod q) packed in `gamma1_bits + 1` bits into `out`
/// (32·(γ1 bits + 1) bytes); returns a negative value iff some |centre(z)| ≥
/// `bound`. As `sign_poly::z_pack_portable`. z in (−q, q).
#[inline]
pub(crate) fn z_pack(
    token: Avx2,
    z: &[i32; N],
    out: &mut [u8],
    gamma1_bits: u32,
    bound: i32,
) -> i32 {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { z_pack_avx2(z, out, gamma1_bits, bound) }
}

/// w ← w mod q in [0, q) (w in (−q, q)), and `w1Encode(HighBits(w))` into
/// `out` (32·bits bytes, 4 bits for γ2 = (q − 1)/32, 6 for (q − 1)/88). As
/// `sign_poly::w1_pack_portable`.
#[inline]
pub(crate) fn w1_pack(token: Avx2, w: &mut [i32; N], out: &mut [u8], gamma2: i32) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { w1_pack_avx2(w, out, gamma2) }
}

/// w ← (w − (cs2 mod q)) mod q (w in [0, q), cs2 in (−q, q)); returns a
/// negative value iff some |LowBits(w)| ≥ `bound`. As
/// `sign_poly::low_bits_check_portable`.
#[inline]
pub(crate) fn low_bits_check(
    token: Avx2,
    w: &mut [i32; N],
    cs2: &[i32; N],
    gamma2: i32,
    bound: i32,
) -> i32 {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { low_bits_check_avx2(w, cs2, gamma2, bound) }
}

/// Signing (FIPS 204 Algorithm 7, lines 25–28) for one row: ct0 ←
/// centre(ct0 mod q) (ct0 in (−q, q)), w ← [HighBits(w + ct0) ≠
/// HighBits(w)] as 0/1 (MakeHint, Algorithm 39; w in [0, q)). Returns (the
/// number of hints, a value negative iff ‖ct0‖∞ ≥ γ2). As
/// `sign_poly::make_hint_portable`.
#[inline]
pub(crate) fn make_hint(token: Avx2, w: &mut [i32; N], ct0: &[i32; N], gamma2: i32) -> (i32, i32) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { make_hint_avx2(w, ct0, gamma2) }
}

/// Verification (FIPS 204 Algorithm 8, lines 9–10): `w1Encode(UseHint(h,
/// w mod q))` (Algorithms 28, 40, 16) for w in (−q, q) into `out` (32·bits
/// bytes), h of 0/1 values. As
/// `verify::use_hint_pack_portable`. Public data.
#[inline]
pub(crate) fn use_hint_pack(token: Avx2, w: &[i32; N], h: &[i32; N], out: &mut [u8], gamma2: i32) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { use_hint_pack_avx2(w, h, out, gamma2) }
}

/// Eight coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn load8(a: &[i32; 8]) -> __m256i {
    // SAFETY: `a` is 8 `i32` = 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

/// Stores eight coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn store8(a: &mut [i32; 8], v: __m256i) {
    // SAFETY: `a` is 8 `i32` = 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
}

/// a mod q in [0, q) for a in (−q, q) (`field::freeze`).
#[target_feature(enable = "avx2")]
#[inline]
fn freeze(a: __m256i) -> __m256i {
    _mm256_add_epi32(
        a,
        _mm256_and_si256(_mm256_srai_epi32::<31>(a), _mm256_set1_epi32(Q)),
    )
}

/// The centred representative of a in [0, q) (`field::center`).
#[target_feature(enable = "avx2")]
#[inline]
fn center(a: __m256i) -> __m256i {
    let d = _mm256_sub_epi32(_mm256_set1_epi32((Q - 1) >> 1), a);
    _mm256_sub_epi32(
        a,
        _mm256_and_si256(_mm256_srai_epi32::<31>(d), _mm256_set1_epi32(Q)),
    )
}

/// Negative lanes exactly where |a| ≥ bound (`field::exceeds`).
#[target_feature(enable = "avx2")]
#[inline]
fn exceeds(a: __m256i, bound: i32) -> __m256i {
    let b1 = _mm256_set1_epi32(bound - 1);
    _mm256_or_si256(_mm256_sub_epi32(b1, a), _mm256_add_epi32(a, b1))
}

/// Negative iff a lane of `acc` is negative: the eight sign bits, negated.
#[target_feature(enable = "avx2")]
#[inline]
fn any_negative(acc: __m256i) -> i32 {
    _mm256_movemask_ps(_mm256_castsi256_ps(acc)).wrapping_neg()
}

/// (HighBits, LowBits) of r in [0, q) (`rounding::decompose`, FIPS 204
/// Algorithm 36): ⌈r/128⌉ times a fixed-point reciprocal of 2γ2/128.
#[target_feature(enable = "avx2")]
#[inline]
fn decompose(r: __m256i, gamma2: i32) -> (__m256i, __m256i) {
    let r1 = high_bits(r, gamma2);
    let r0 = _mm256_sub_epi32(r, _mm256_mullo_epi32(r1, _mm256_set1_epi32(2 * gamma2)));
    // The q − 1 corner: r0 > (q − 1)/2 becomes r0 − q.
    (r1, center(r0))
}

/// HighBits of r in [0, q) (`rounding::high_bits`, FIPS 204 Algorithm 37),
/// the r1 of [`decompose`].
#[target_feature(enable = "avx2")]
#[inline]
fn high_bits(r: __m256i, gamma2: i32) -> __m256i {
    let a = _mm256_srai_epi32::<7>(_mm256_add_epi32(r, _mm256_set1_epi32(127)));
    if gamma2 == GAMMA2_32 {
        let t = _mm256_add_epi32(
            _mm256_mullo_epi32(a, _mm256_set1_epi32(1025)),
            _mm256_set1_epi32(1 << 21),
        );
        _mm256_and_si256(_mm256_srai_epi32::<22>(t), _mm256_set1_epi32(15))
    } else {
        let t = _mm256_add_epi32(
            _mm256_mullo_epi32(a, _mm256_set1_epi32(11275)),
            _mm256_set1_epi32(1 << 23),
        );
        let t = _mm256_srai_epi32::<24>(t);
        let c = _mm256_srai_epi32::<16>(_mm256_mullo_epi32(t, _mm256_set1_epi32(1490)));
        _mm256_sub_epi32(t, _mm256_mullo_epi32(c, _mm256_set1_epi32(44)))
    }
}

/// Packs eight fields of `bits` (even, ≤ 20) bits per register of `v`
/// (each value masked to its low `bits` bits, as `encode::pack` does),
/// little-endian, into `out` (`bits` bytes per register; `BitPack`, FIPS 204
/// Algorithms 16, 17).
#[target_feature(enable = "avx2")]
fn pack_regs(out: &mut [u8], v: &[__m256i; 32], bits: u32) {
    let half = (bits >> 1) as usize;
    let low32 = _mm256_set1_epi64x(0xffff_ffff);
    let s1 = _mm_cvtsi32_si128(bits as i32);
    let s2 = _mm_cvtsi32_si128(2 * bits as i32);
    let s3 = _mm_cvtsi32_si128(64 - 2 * bits as i32);
    let len = out.len();
    let mut tail = [0u8; 32];
    let field = _mm256_set1_epi32((1 << bits) - 1);
    for (g, &x) in v.iter().enumerate() {
        let x = _mm256_and_si256(x, field);
        // Pairs: each 64-bit lane = a | b << bits (2·bits ≤ 40 bits).
        let p = _mm256_or_si256(
            _mm256_and_si256(x, low32),
            _mm256_sll_epi64(_mm256_srli_epi64::<32>(x), s1),
        );
        // Quads: each 128-bit lane = p0 | p1 << 2·bits (4·bits bits, bits/2 bytes).
        let lo = _mm256_or_si256(p, _mm256_bsrli_epi128::<8>(_mm256_sll_epi64(p, s2)));
        let q = _mm256_blend_epi32::<0b1100_1100>(lo, _mm256_srl_epi64(p, s3));
        let (a, b) = (_mm256_castsi256_si128(q), _mm256_extracti128_si256::<1>(q));
        let off = g * bits as usize;
        // Each 16-byte store writes past its bits/2 bytes; the next one (or
        // the next group) overwrites them. Near the end, through `tail`.
        if off + half + 16 <= len {
            // SAFETY: out[off..off + 16] and out[off + half..off + half + 16]
            // are in bounds (checked above); unaligned stores, in order.
            unsafe {
                _mm_storeu_si128(out[off..].as_mut_ptr().cast(), a);
                _mm_storeu_si128(out[off + half..].as_mut_ptr().cast(), b);
            }
        } else {
            // SAFETY: `tail` is 32 writable bytes, half + 16 ≤ 26; unaligned stores.
            unsafe {
                _mm_storeu_si128(tail.as_mut_ptr().cast(), a);
                _mm_storeu_si128(tail[half..].as_mut_ptr().cast(), b);
            }
            if let Some(o) = out.get_mut(off..off + bits as usize) {
                o.copy_from_slice(&tail[..bits as usize]);
            }
        }
    }
}

/// [`pack_regs`] for `bits` = 4 (w1Encode for γ2 = (q − 1)/32, Algorithms
/// 28, 16), lanes in [0, 16): four registers (32 coefficients) to 16 bytes
/// by saturating packs (the values fit), nibble pairs joined by one
/// multiply-add, and the two 128-bit halves interleaved in 16-bit units.
#[target_feature(enable = "avx2")]
fn pack4(out: &mut [u8], v: &[__m256i; 32]) {
    // Byte 2i + 16·byte 2i + 1 into 16-bit lane i.
    let nib = _mm256_set1_epi16(0x1001);
    let (v4, _) = v.as_chunks::<4>();
    let (o16, _) = out.as_chunks_mut::<16>();
    for (o, r) in o16.iter_mut().zip(v4) {
        // Per 128-bit lane: coefficients 0–3 (low lane) or 4–7 (high lane)
        // of each of the four registers, one per byte.
        let b = _mm256_packus_epi16(
            _mm256_packus_epi32(r[0], r[1]),
            _mm256_packus_epi32(r[2], r[3]),
        );
        // Two coefficients a byte, then bytes again (low half of each lane).
        let p = _mm256_maddubs_epi16(b, nib);
        let p = _mm256_packus_epi16(p, p);
        // Low lane: 2 bytes (coefficients 0–3) per register; high lane: 4–7.
        let x = _mm_unpacklo_epi16(_mm256_castsi256_si128(p), _mm256_extracti128_si256::<1>(p));
        // SAFETY: `o` is 16 writable bytes; unaligned store.
        unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), x) }
    }
}

#[target_feature(enable = "avx2")]
fn z_pack_avx2(z: &[i32; N], out: &mut [u8], gamma1_bits: u32, bound: i32) -> i32 {
    let gamma1 = _mm256_set1_epi32(1 << gamma1_bits);
    let mut bad = _mm256_setzero_si256();
    let mut v = [_mm256_setzero_si256(); 32];
    let (z8, _) = z.as_chunks::<8>();
    for (x, c) in v.iter_mut().zip(z8) {
        let c = center(freeze(load8(c)));
        bad = _mm256_or_si256(bad, exceeds(c, bound));
        *x = _mm256_sub_epi32(gamma1, c);
    }
    pack_regs(out, &v, gamma1_bits + 1);
    any_negative(bad)
}

#[target_feature(enable = "avx2")]
fn w1_pack_avx2(w: &mut [i32; N], out: &mut [u8], gamma2: i32) {
    let mut v = [_mm256_setzero_si256(); 32];
    let (w8, _) = w.as_chunks_mut::<8>();
    for (x, c) in v.iter_mut().zip(w8) {
        let f = freeze(load8(c));
        store8(c, f);
        *x = decompose(f, gamma2).0;
    }
    if gamma2 == GAMMA2_32 {
        pack4(out, &v);
    } else {
        pack_regs(out, &v, 6);
    }
}

#[target_feature(enable = "avx2")]
fn low_bits_check_avx2(w: &mut [i32; N], cs2: &[i32; N], gamma2: i32, bound: i32) -> i32 {
    let q = _mm256_set1_epi32(Q);
    let mut bad = _mm256_setzero_si256();
    let (w8, _) = w.as_chunks_mut::<8>();
    let (c8, _) = cs2.as_chunks::<8>();
    for (x, c) in w8.iter_mut().zip(c8) {
        // (−q, 2q) → [0, q): `field::reduce_wide`.
        let d = _mm256_sub_epi32(load8(x), freeze(load8(c)));
        let r = freeze(_mm256_sub_epi32(freeze(d), q));
        store8(x, r);
        bad = _mm256_or_si256(bad, exceeds(decompose(r, gamma2).1, bound));
    }
    any_negative(bad)
}

#[target_feature(enable = "avx2")]
fn make_hint_avx2(w: &mut [i32; N], ct0: &[i32; N], gamma2: i32) -> (i32, i32) {
    let q = _mm256_set1_epi32(Q);
    let zero = _mm256_setzero_si256();
    let mut bad = zero;
    // Per lane: minus the number of hints (compare masks are −1).
    let mut count = zero;
    let (w8, _) = w.as_chunks_mut::<8>();
    let (c8, _) = ct0.as_chunks::<8>();
    for (x, c) in w8.iter_mut().zip(c8) {
        let c = center(freeze(load8(c)));
        bad = _mm256_or_si256(bad, exceeds(c, gamma2));
        let r = load8(x);
        // w + ct0 in (−q, 2q) → [0, q): `field::reduce_wide`.
        let s = freeze(_mm256_sub_epi32(freeze(_mm256_add_epi32(r, c)), q));
        let same = _mm256_cmpeq_epi32(high_bits(s, gamma2), high_bits(r, gamma2));
        // Hint = 1 where the high bits differ: 1 + (0 or −1).
        store8(x, _mm256_add_epi32(_mm256_set1_epi32(1), same));
        count = _mm256_sub_epi32(count, _mm256_xor_si256(same, _mm256_set1_epi32(-1)));
    }
    // Horizontal sum of the eight counts (each ≤ 32).
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(count),
        _mm256_extracti128_si256::<1>(count),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    (_mm_cvtsi128_si32(s), any_negative(bad))
}

#[target_feature(enable = "avx2")]
fn use_hint_pack_avx2(w: &[i32; N], h: &[i32; N], out: &mut [u8], gamma2: i32) {
    let zero = _mm256_setzero_si256();
    let two = _mm256_set1_epi32(2);
    let one = _mm256_set1_epi32(1);
    let mut v = [_mm256_setzero_si256(); 32];
    let (w8, _) = w.as_chunks::<8>();
    let (h8, _) = h.as_chunks::<8>();
    for ((x, c), hc) in v.iter_mut().zip(w8).zip(h8) {
        let f = freeze(load8(c));
        let (r1, r0) = decompose(f, gamma2);
        // Algorithm 40: with a hint, r1 + 1 if r0 > 0, else r1 − 1 (mod m).
        let step = _mm256_sub_epi32(_mm256_and_si256(_mm256_cmpgt_epi32(r0, zero), two), one);
        let hint = _mm256_sub_epi32(zero, load8(hc));
        let r = _mm256_add_epi32(r1, _mm256_and_si256(step, hint));
        *x = if gamma2 == GAMMA2_32 {
            // m = 16.
            _mm256_and_si256(r, _mm256_set1_epi32(15))
        } else {
            // m = 44: −1 → 43, 44 → 0.
            let m = _mm256_set1_epi32(44);
            let r = _mm256_add_epi32(r, _mm256_and_si256(_mm256_srai_epi32::<31>(r), m));
            _mm256_sub_epi32(
                r,
                _mm256_and_si256(_mm256_cmpgt_epi32(r, _mm256_set1_epi32(43)), m),
            )
        };
    }
    if gamma2 == GAMMA2_32 {
        pack4(out, &v);
    } else {
        pack_regs(out, &v, 6);
    }
}

/// `SampleInBall` (FIPS 204 Algorithm 29), lines 7–8: c_i ← c_j, c_j ←
/// `sign` for a secret j ≤ i, as `ct::swap_in_ball_portable` when c_i = 0
/// (always so in Algorithm 29: positions from i on are untouched before
/// step i). One pass: every byte is read and written under an equality mask
/// (c_j's old value collected, `sign` blended in), 32 positions per
/// register; then c_i |= old c_j (for j = i the old value is 0 and c_i is
/// `sign` already).
#[inline]
pub(crate) fn swap_in_ball(token: Avx2, c: &mut [u8; N], i: usize, j: u8, sign: u8) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { swap_in_ball_avx2(c, i, j, sign) }
}

#[target_feature(enable = "avx2")]
fn swap_in_ball_avx2(c: &mut [u8; N], i: usize, j: u8, sign: u8) {
    let jv = _mm256_set1_epi8(j as i8);
    let sv = _mm256_set1_epi8(sign as i8);
    let step = _mm256_set1_epi8(32);
    let mut idx = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    // Old c_j: the OR of every byte under its mask (one byte at most survives).
    let mut acc = _mm256_setzero_si256();
    let (chunks, _) = c.as_chunks_mut::<32>();
    for ch in chunks {
        // SAFETY: `ch` is 32 readable and writable bytes; unaligned load and store.
        unsafe {
            let v = _mm256_loadu_si256(ch.as_ptr().cast());
            let m = _mm256_cmpeq_epi8(idx, jv);
            acc = _mm256_or_si256(acc, _mm256_and_si256(v, m));
            _mm256_storeu_si256(ch.as_mut_ptr().cast(), _mm256_blendv_epi8(v, sv, m));
        }
        idx = _mm256_add_epi8(idx, step);
    }
    // The sums of absolute differences from 0 of each 8 bytes: the surviving
    // byte's value in one of the four 64-bit lanes, 0 in the others.
    let s = _mm256_sad_epu8(acc, _mm256_setzero_si256());
    let s = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
    let cj = _mm_cvtsi128_si64(s).wrapping_add(_mm_extract_epi64::<1>(s));
    // Position i is public; the low byte of the sum is the surviving byte.
    c[i] |= cj.to_le_bytes()[0];
}

/// `HintBitPack` (FIPS 204 Algorithm 20) for row `i` of the hint (0/1
/// values in `h`): the positions of its ones (while fewer than `omega` are
/// written) from `out[index]` on, then the running count at `out[omega +
/// i]`; returns it. As `encode::hint_pack_row_portable`. Public data (the
/// hint of an accepted signature): eight positions per `vmovmskps`, then a
/// loop over the set bits.
#[inline]
pub(crate) fn hint_pack_row(
    token: Avx2,
    out: &mut [u8],
    omega: usize,
    i: usize,
    h: &[i32; N],
    index: usize,
) -> usize {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { hint_pack_row_avx2(out, omega, i, h, index) }
}

#[target_feature(enable = "avx2")]
fn hint_pack_row_avx2(
    out: &mut [u8],
    omega: usize,
    i: usize,
    h: &[i32; N],
    mut index: usize,
) -> usize {
    let zero = _mm256_setzero_si256();
    let (h8, _) = h.as_chunks::<8>();
    for (g, c) in h8.iter().enumerate() {
        // Bit p set where coefficient 8g + p is non-zero.
        let zeros = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(load8(c), zero)));
        let mut m = !zeros & 0xff;
        while m != 0 && index < omega {
            out[index] = (8 * g + m.trailing_zeros() as usize) as u8;
            index += 1;
            m &= m - 1;
        }
    }
    out[omega + i] = index as u8;
    index
}
