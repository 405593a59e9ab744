//! AVX2 arithmetic in R_q (FIPS 204 §7.5): `NTT`, `NTT^−1` (Algorithms 41
//! and 42) and the pointwise Montgomery products, on eight `i32`
//! coefficients per 256-bit register.
//!
//! Every function computes exactly what its portable twin in `poly.rs`
//! computes, coefficient by coefficient (same butterflies in the same order,
//! the same Montgomery reduction on the exact 64-bit products from
//! `vpmuldq`), so the outputs are bit-identical; the tests below compare
//! them on random inputs.
//!
//! The only `unsafe`: calling the `#[target_feature(enable = "avx2")]`
//! functions behind an [`Avx2`] token (proof of detection), and
//! the unaligned loads and stores of coefficients. No table lookup on
//! secrets, no data-dependent branch or address, no division.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "constant tables of public indices"
)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_blend_epi32, _mm256_loadu_si256,
    _mm256_mul_epi32, _mm256_permute2x128_si256, _mm256_set1_epi32, _mm256_setzero_si256,
    _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_sub_epi64,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use pqdr_common::simd::Avx2;

use crate::field::{Q, QINV};
use crate::zetas::{INV_NTT_F, INV_NTT_F_ZETA1, N, ZETAS};

// Every safe function below takes the `Avx2` token: the SAFETY of its
// `unsafe` call is that the token proves AVX2 was detected (only
// `pqdr_common::simd::Avx2::detect` makes one).

/// `NTT` in place (FIPS 204 Algorithm 41), as `Poly::ntt`.
#[inline]
pub(crate) fn ntt(token: Avx2, a: &mut [i32; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { ntt_avx2(a) }
}

/// `NTT^−1` times R in place (FIPS 204 Algorithm 42), as `Poly::invntt_tomont`.
#[inline]
pub(crate) fn invntt_tomont(token: Avx2, a: &mut [i32; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { invntt_tomont_avx2(a) }
}

/// acc += a ∘ b in i64, as `poly::mul_acc`, in the AVX2 layout of the
/// accumulator (see [`mul_acc_avx2`]; only [`reduce_acc`] reads it).
#[inline]
pub(crate) fn mul_acc(token: Avx2, acc: &mut [i64; N], a: &[i32; N], b: &[i32; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { mul_acc_avx2(acc, a, b) }
}

/// out = mont(acc + a ∘ out) (the last product of a sum, its second factor
/// read from `out` and added in the reduction; none if `a` is `None`), acc
/// in the layout of [`mul_acc`], as `poly::reduce_acc` /
/// `poly::mul_acc_reduce_in_place`.
#[inline]
pub(crate) fn reduce_acc(token: Avx2, out: &mut [i32; N], acc: &[i64; N], a: Option<&[i32; N]>) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { reduce_acc_avx2(out, acc, a) }
}

/// out = mont(Σ_{j < n} a_j ∘ b_j) with (a_j, b_j) = `pair(j)`, the sum
/// exact in i64 and kept in registers, as `poly::mul_acc` over j into a
/// zeroed accumulator followed by `poly::reduce_acc`.
#[inline]
pub(crate) fn dot_mont<'a>(
    token: Avx2,
    out: &mut [i32; N],
    n: usize,
    pair: impl Fn(usize) -> (&'a [i32; N], &'a [i32; N]),
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { dot_mont_avx2(out, n, pair) }
}

/// out = mont(out ∘ b + extra) (extra = 0 if `None`), as
/// `poly::mul_mont_in_place` / `poly::mul_add_mont_in_place`.
#[inline]
pub(crate) fn mul_mont_in_place(
    token: Avx2,
    out: &mut [i32; N],
    b: &[i32; N],
    extra: Option<&[i32; N]>,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { mul_mont_avx2(out, None, b, extra) }
}

/// out = mont(a ∘ b + extra) (extra = 0 if `None`), as `poly::mul_mont` /
/// `poly::mul_add_mont`: [`mul_mont_in_place`] reading a instead of out (no
/// copy of a into out first).
#[inline]
pub(crate) fn mul_mont_from(
    token: Avx2,
    out: &mut [i32; N],
    a: &[i32; N],
    b: &[i32; N],
    extra: Option<&[i32; N]>,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { mul_mont_avx2(out, Some(a), b, extra) }
}

/// Eight registers of eight coefficients from a polynomial: chunks
/// `first`, `first + step`, ..., `first + 7·step` (32 chunks of 8).
#[target_feature(enable = "avx2")]
#[inline]
fn load8(a: &[i32; N], first: usize, step: usize) -> [__m256i; 8] {
    let (chunks, _) = a.as_chunks::<8>();
    let mut v = [_mm256_setzero_si256(); 8];
    for (k, x) in v.iter_mut().enumerate() {
        // SAFETY: `chunks[first + k·step]` (< 32, bounds-checked) is 8 `i32`
        // = 32 readable bytes; unaligned load.
        *x = unsafe { _mm256_loadu_si256(chunks[first + k * step].as_ptr().cast()) };
    }
    v
}

/// Stores eight registers back where [`load8`] read them.
#[target_feature(enable = "avx2")]
#[inline]
fn store8(a: &mut [i32; N], first: usize, step: usize, v: &[__m256i; 8]) {
    let (chunks, _) = a.as_chunks_mut::<8>();
    for (k, x) in v.iter().enumerate() {
        // SAFETY: `chunks[first + k·step]` (< 32, bounds-checked) is 8 `i32`
        // = 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(chunks[first + k * step].as_mut_ptr().cast(), *x) }
    }
}

/// Montgomery reduction of the 64-bit values `pe` (even lanes) and `po`
/// (odd lanes): lane i gets (p − (p·q^−1 mod 2^32)·q)/2^32, as `field::mont`.
#[target_feature(enable = "avx2")]
#[inline]
fn mont_reduce(pe: __m256i, po: __m256i) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let qinv = _mm256_set1_epi32(QINV);
    // `vpmuldq` reads the low 32 bits of each 64-bit lane as signed: t = (p mod 2^32)·q^−1, then t·q.
    let te = _mm256_mul_epi32(_mm256_mul_epi32(pe, qinv), q);
    let to = _mm256_mul_epi32(_mm256_mul_epi32(po, qinv), q);
    let re = _mm256_sub_epi64(pe, te);
    let ro = _mm256_sub_epi64(po, to);
    // The high halves: even lanes shifted down, odd lanes already in place.
    _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(re), ro)
}

/// The Cooley–Tukey butterfly of Algorithm 41 with per-lane twiddles `t`
/// (see [`LaneTw`]): u = ζ·y, (x, y) ← (x + u, x − u).
#[target_feature(enable = "avx2")]
#[inline]
fn fwd(x: &mut __m256i, y: &mut __m256i, t: &LaneTw) {
    let u = montmul_lanes(*y, t);
    *y = _mm256_sub_epi32(*x, u);
    *x = _mm256_add_epi32(*x, u);
}

/// The Gentleman–Sande butterfly of Algorithm 42 with per-lane twiddles `t`:
/// (x, y) ← (x + y, ζ·(x − y)).
#[target_feature(enable = "avx2")]
#[inline]
fn inv(x: &mut __m256i, y: &mut __m256i, t: &LaneTw) {
    let u = *x;
    *x = _mm256_add_epi32(u, *y);
    *y = montmul_lanes(_mm256_sub_epi32(u, *y), t);
}

/// Twiddles of the layers whose butterflies stay inside 8 coefficients
/// (len = 2^log_len ∈ {4, 2, 1}), for the pair of registers (2v, 2v + 1):
/// lane p pairs coefficient 16v + `pos[p]` with its partner len further on.
/// Forward: ζ_(128/len + block); inverse: −ζ_(256/len − 1 − block).
const fn lane_zetas(log_len: u32, pos: [usize; 8], inverse: bool) -> [[i32; 8]; 16] {
    let mut t = [[0i32; 8]; 16];
    let mut v = 0;
    while v < 16 {
        let mut p = 0;
        while p < 8 {
            let block = (16 * v + pos[p]) >> (log_len + 1);
            t[v][p] = if inverse {
                -ZETAS[(256 >> log_len) - 1 - block]
            } else {
                ZETAS[(128 >> log_len) + block]
            };
            p += 1;
        }
        v += 1;
    }
    t
}

/// Lane positions of the first operands after each layer's shuffle (see [`pairs`]).
const POS4: [usize; 8] = [0, 1, 2, 3, 8, 9, 10, 11];
const POS2: [usize; 8] = [0, 1, 8, 9, 4, 5, 12, 13];
const POS1: [usize; 8] = [0, 8, 2, 10, 4, 12, 6, 14];
const FWD4: [[i32; 8]; 16] = lane_zetas(2, POS4, false);
const FWD2: [[i32; 8]; 16] = lane_zetas(1, POS2, false);
const FWD1: [[i32; 8]; 16] = lane_zetas(0, POS1, false);
const INV4: [[i32; 8]; 16] = lane_zetas(2, POS4, true);
const INV2: [[i32; 8]; 16] = lane_zetas(1, POS2, true);
const INV1: [[i32; 8]; 16] = lane_zetas(0, POS1, true);

/// Per-lane twiddles of one register pair, ready for `vpmuldq` (which reads
/// the low 32 bits of each 64-bit lane): ζ of the even lanes in place, ζ of
/// the odd lanes moved down to the even slots, and both again times q^−1
/// mod 2^32 (as in [`Tw`], so the Montgomery correction does not wait for
/// a·ζ).
type LaneTw = [[i32; 8]; 4];

/// The [`LaneTw`] of each of the 16 register pairs of a `lane_zetas` table.
const fn lane_tw(t: [[i32; 8]; 16]) -> [LaneTw; 16] {
    let mut out = [[[0i32; 8]; 4]; 16];
    let mut v = 0;
    while v < 16 {
        let mut p = 0;
        while p < 8 {
            let z = t[v][p];
            // Lane p's twiddle goes to slot p (even lanes) or p − 1 (odd lanes);
            // the other slot of each 64-bit lane is never read.
            let (k, slot) = if p & 1 == 0 { (0, p) } else { (1, p - 1) };
            out[v][k][slot] = z;
            out[v][k + 2][slot] = z.wrapping_mul(QINV);
            p += 1;
        }
        v += 1;
    }
    out
}

const FWD4_TW: [LaneTw; 16] = lane_tw(FWD4);
const FWD2_TW: [LaneTw; 16] = lane_tw(FWD2);
const FWD1_TW: [LaneTw; 16] = lane_tw(FWD1);
const INV4_TW: [LaneTw; 16] = lane_tw(INV4);
const INV2_TW: [LaneTw; 16] = lane_tw(INV2);
const INV1_TW: [LaneTw; 16] = lane_tw(INV1);

/// ζ_m and ζ_m·q^−1 mod 2^32 (forward) and the same for −ζ_m (inverse), for
/// the broadcast twiddles of [`fwd8`] and [`inv8`]: two table loads instead
/// of computing them in the loops.
const fn broadcast_tw(negate: bool) -> [[i32; 2]; N] {
    let mut out = [[0i32; 2]; N];
    let mut m = 0;
    while m < N {
        let z = if negate { -ZETAS[m] } else { ZETAS[m] };
        out[m] = [z, z.wrapping_mul(QINV)];
        m += 1;
    }
    out
}

const FWD_TW: [[i32; 2]; N] = broadcast_tw(false);
const INV_TW: [[i32; 2]; N] = broadcast_tw(true);

/// Rearranges registers a, b (16 consecutive coefficients) into (x, y) with
/// every butterfly partner of layer len = 2^LOG at the same lane of x and y,
/// and back (each shuffle is its own inverse with the roles of x, y swapped).
#[target_feature(enable = "avx2")]
#[inline]
fn pairs<const LOG: u32>(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    match LOG {
        // 128-bit halves: x = (a.lo, b.lo), y = (a.hi, b.hi).
        2 => (
            _mm256_permute2x128_si256::<0x20>(a, b),
            _mm256_permute2x128_si256::<0x31>(a, b),
        ),
        // 64-bit pairs.
        1 => (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)),
        // 32-bit even/odd lanes.
        _ => (
            _mm256_blend_epi32::<0xAA>(a, _mm256_slli_epi64::<32>(b)),
            _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(a), b),
        ),
    }
}

/// Loads a register of twiddles from a table row.
#[target_feature(enable = "avx2")]
#[inline]
fn ld(z: &[i32; 8]) -> __m256i {
    // SAFETY: `z` is 8 `i32` = 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(z.as_ptr().cast()) }
}

/// mont(a·ζ) in each lane with the per-lane twiddles `t`, as [`montmul_tw`]
/// lane by lane (the same products and reduction).
#[target_feature(enable = "avx2")]
#[inline]
fn montmul_lanes(a: __m256i, t: &LaneTw) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let ao = _mm256_srli_epi64::<32>(a);
    let pe = _mm256_mul_epi32(a, ld(&t[0]));
    let po = _mm256_mul_epi32(ao, ld(&t[1]));
    let te = _mm256_mul_epi32(_mm256_mul_epi32(a, ld(&t[2])), q);
    let to = _mm256_mul_epi32(_mm256_mul_epi32(ao, ld(&t[3])), q);
    let re = _mm256_sub_epi64(pe, te);
    let ro = _mm256_sub_epi64(po, to);
    _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(re), ro)
}

/// A twiddle ζ broadcast to every lane, with ζ·q^−1 mod 2^32: the low
/// 32 bits of a·(ζ·q^−1) equal those of (a·ζ)·q^−1, so the Montgomery
/// correction does not wait for the product a·ζ (same result as [`montmul`]).
#[derive(Clone, Copy)]
struct Tw {
    z: __m256i,
    zq: __m256i,
}

/// The [`Tw`] of ζ.
#[target_feature(enable = "avx2")]
#[inline]
fn tw(z: i32) -> Tw {
    tw_of(&[z, z.wrapping_mul(QINV)])
}

/// The [`Tw`] of a [`FWD_TW`] / [`INV_TW`] entry (ζ, ζ·q^−1).
#[target_feature(enable = "avx2")]
#[inline]
fn tw_of(e: &[i32; 2]) -> Tw {
    Tw {
        z: _mm256_set1_epi32(e[0]),
        zq: _mm256_set1_epi32(e[1]),
    }
}

/// mont(a·ζ) in each lane, as `montmul(ζ, a)` with ζ broadcast.
#[target_feature(enable = "avx2")]
#[inline]
fn montmul_tw(a: __m256i, t: Tw) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let ao = _mm256_srli_epi64::<32>(a);
    let pe = _mm256_mul_epi32(a, t.z);
    let po = _mm256_mul_epi32(ao, t.z);
    let te = _mm256_mul_epi32(_mm256_mul_epi32(a, t.zq), q);
    let to = _mm256_mul_epi32(_mm256_mul_epi32(ao, t.zq), q);
    let re = _mm256_sub_epi64(pe, te);
    let ro = _mm256_sub_epi64(po, to);
    _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(re), ro)
}

/// The butterfly of Algorithm 41 on registers x, y of `v` (see [`fwd`]).
#[target_feature(enable = "avx2")]
#[inline]
fn fwd8(v: &mut [__m256i; 8], x: usize, y: usize, m: usize) {
    let t = montmul_tw(v[y], tw_of(&FWD_TW[m]));
    v[y] = _mm256_sub_epi32(v[x], t);
    v[x] = _mm256_add_epi32(v[x], t);
}

/// The butterfly of Algorithm 42 on registers x, y of `v`, twiddle −ζ_m (see [`inv`]).
#[target_feature(enable = "avx2")]
#[inline]
fn inv8(v: &mut [__m256i; 8], x: usize, y: usize, m: usize) {
    let t = v[x];
    v[x] = _mm256_add_epi32(t, v[y]);
    v[y] = montmul_tw(_mm256_sub_epi32(t, v[y]), tw_of(&INV_TW[m]));
}

/// The last butterfly of Algorithm 42 (len = 128) on registers k, k + 4 of
/// `v`, with the scaling by f folded in: (f·(x + y), f·ζ_1·(x − y)).
#[target_feature(enable = "avx2")]
#[inline]
fn last8(v: &mut [__m256i; 8], k: usize, f: Tw, fz: Tw) {
    let t = v[k];
    v[k] = montmul_tw(_mm256_add_epi32(t, v[k + 4]), f);
    v[k + 4] = montmul_tw(_mm256_sub_epi32(t, v[k + 4]), fz);
}

/// Layers len = 4, 2, 1 of Algorithm 41 on registers 2p, 2p + 1 (pair i).
#[target_feature(enable = "avx2")]
#[inline]
fn fwd_pair(v: &mut [__m256i; 8], p: usize, i: usize) {
    let (mut x, mut y) = pairs::<2>(v[2 * p], v[2 * p + 1]);
    fwd(&mut x, &mut y, &FWD4_TW[i]);
    let (mut c, mut d) = pairs::<2>(x, y);
    (x, y) = pairs::<1>(c, d);
    fwd(&mut x, &mut y, &FWD2_TW[i]);
    (c, d) = pairs::<1>(x, y);
    (x, y) = pairs::<0>(c, d);
    fwd(&mut x, &mut y, &FWD1_TW[i]);
    (v[2 * p], v[2 * p + 1]) = pairs::<0>(x, y);
}

/// Layers len = 1, 2, 4 of Algorithm 42 on registers 2p, 2p + 1 (pair i).
#[target_feature(enable = "avx2")]
#[inline]
fn inv_pair(v: &mut [__m256i; 8], p: usize, i: usize) {
    let (mut x, mut y) = pairs::<0>(v[2 * p], v[2 * p + 1]);
    inv(&mut x, &mut y, &INV1_TW[i]);
    let (mut c, mut d) = pairs::<0>(x, y);
    (x, y) = pairs::<1>(c, d);
    inv(&mut x, &mut y, &INV2_TW[i]);
    (c, d) = pairs::<1>(x, y);
    (x, y) = pairs::<2>(c, d);
    inv(&mut x, &mut y, &INV4_TW[i]);
    (v[2 * p], v[2 * p + 1]) = pairs::<2>(x, y);
}

/// `NTT` (FIPS 204 Algorithm 41), the layers of `Poly::ntt` in two passes
/// over eight registers each (two loads and stores per coefficient):
/// len = 128, 64, 32 on the registers i, i + 4, ..., i + 28 (i < 4), then
/// len = 16, 8, 4, 2, 1 on the registers 8g, ..., 8g + 7 (g < 4). Every
/// butterfly computes what it computes in `Poly::ntt_portable`.
#[target_feature(enable = "avx2")]
fn ntt_avx2(a: &mut [i32; N]) {
    for i in 0..4 {
        let mut v = load8(a, i, 4);
        // Register k holds coefficients 32k + 8i + (0..8).
        fwd8(&mut v, 0, 4, 1);
        fwd8(&mut v, 1, 5, 1);
        fwd8(&mut v, 2, 6, 1);
        fwd8(&mut v, 3, 7, 1);
        fwd8(&mut v, 0, 2, 2);
        fwd8(&mut v, 1, 3, 2);
        fwd8(&mut v, 4, 6, 3);
        fwd8(&mut v, 5, 7, 3);
        fwd8(&mut v, 0, 1, 4);
        fwd8(&mut v, 2, 3, 5);
        fwd8(&mut v, 4, 5, 6);
        fwd8(&mut v, 6, 7, 7);
        store8(a, i, 4, &v);
    }
    for g in 0..4 {
        let mut v = load8(a, 8 * g, 1);
        // len = 16, 8: ζ indices 8 + 2g + (0, 1), 16 + 4g + (0 .. 4).
        let (m16, m8) = (8 + 2 * g, 16 + 4 * g);
        fwd8(&mut v, 0, 2, m16);
        fwd8(&mut v, 1, 3, m16);
        fwd8(&mut v, 4, 6, m16 + 1);
        fwd8(&mut v, 5, 7, m16 + 1);
        fwd8(&mut v, 0, 1, m8);
        fwd8(&mut v, 2, 3, m8 + 1);
        fwd8(&mut v, 4, 5, m8 + 2);
        fwd8(&mut v, 6, 7, m8 + 3);
        // len = 4, 2, 1 inside each pair of registers (written out, so that
        // the eight registers stay in registers).
        fwd_pair(&mut v, 0, 4 * g);
        fwd_pair(&mut v, 1, 4 * g + 1);
        fwd_pair(&mut v, 2, 4 * g + 2);
        fwd_pair(&mut v, 3, 4 * g + 3);
        store8(a, 8 * g, 1, &v);
    }
}

/// `NTT^−1` times R (FIPS 204 Algorithm 42), the layers of
/// `Poly::invntt_tomont` in two passes (the reverse of [`ntt_avx2`]'s):
/// len = 1, 2, 4, 8, 16, 32 on the registers 8g, ..., 8g + 7, then len = 64
/// and 128 (with the scaling) on the registers i, i + 4, ..., i + 28.
#[target_feature(enable = "avx2")]
fn invntt_tomont_avx2(a: &mut [i32; N]) {
    for g in 0..4 {
        let mut v = load8(a, 8 * g, 1);
        inv_pair(&mut v, 0, 4 * g);
        inv_pair(&mut v, 1, 4 * g + 1);
        inv_pair(&mut v, 2, 4 * g + 2);
        inv_pair(&mut v, 3, 4 * g + 3);
        // len = 8, 16, 32: ζ indices 31 − b, 15 − b, 7 − b for block b.
        let (m8, m16, m32) = (31 - 4 * g, 15 - 2 * g, 7 - g);
        inv8(&mut v, 0, 1, m8);
        inv8(&mut v, 2, 3, m8 - 1);
        inv8(&mut v, 4, 5, m8 - 2);
        inv8(&mut v, 6, 7, m8 - 3);
        inv8(&mut v, 0, 2, m16);
        inv8(&mut v, 1, 3, m16);
        inv8(&mut v, 4, 6, m16 - 1);
        inv8(&mut v, 5, 7, m16 - 1);
        inv8(&mut v, 0, 4, m32);
        inv8(&mut v, 1, 5, m32);
        inv8(&mut v, 2, 6, m32);
        inv8(&mut v, 3, 7, m32);
        store8(a, 8 * g, 1, &v);
    }
    let f = tw(INV_NTT_F);
    let fz = tw(INV_NTT_F_ZETA1);
    for i in 0..4 {
        let mut v = load8(a, i, 4);
        // len = 64: ζ indices 3, 2.
        inv8(&mut v, 0, 2, 3);
        inv8(&mut v, 1, 3, 3);
        inv8(&mut v, 4, 6, 2);
        inv8(&mut v, 5, 7, 2);
        // Last layer (len = 128, ζ index 1) with the scaling by f folded in.
        last8(&mut v, 0, f, fz);
        last8(&mut v, 1, f, fz);
        last8(&mut v, 2, f, fz);
        last8(&mut v, 3, f, fz);
        store8(a, i, 4, &v);
    }
}

/// The exact i64 products of the even lanes and of the odd lanes of two
/// registers of eight coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn mul_even_odd(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_mul_epi32(x, y),
        _mm256_mul_epi32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y)),
    )
}

/// acc += a ∘ b, exact i64 products. Layout: `acc[8g..8g + 4]` sums the even
/// coefficients of 8g .. 8g + 7, `acc[8g + 4..8g + 8]` the odd ones (no
/// widening loads; the portable layout is coefficient order, zero is zero).
#[target_feature(enable = "avx2")]
fn mul_acc_avx2(acc: &mut [i64; N], a: &[i32; N], b: &[i32; N]) {
    let (acc8, _) = acc.as_chunks_mut::<8>();
    let (a8, _) = a.as_chunks::<8>();
    let (b8, _) = b.as_chunks::<8>();
    for ((c, x), y) in acc8.iter_mut().zip(a8).zip(b8) {
        // SAFETY: `x`, `y` are 8 `i32` = 32 readable bytes, `c` is 8 `i64` =
        // 64 readable and writable bytes (two registers); unaligned loads and stores.
        unsafe {
            let (pe, po) = mul_even_odd(
                _mm256_loadu_si256(x.as_ptr().cast()),
                _mm256_loadu_si256(y.as_ptr().cast()),
            );
            let (ce, co) = c.split_at_mut(4);
            let se = _mm256_add_epi64(_mm256_loadu_si256(ce.as_ptr().cast()), pe);
            let so = _mm256_add_epi64(_mm256_loadu_si256(co.as_ptr().cast()), po);
            _mm256_storeu_si256(ce.as_mut_ptr().cast(), se);
            _mm256_storeu_si256(co.as_mut_ptr().cast(), so);
        }
    }
}

/// out = mont(acc + a ∘ out), acc in the layout of [`mul_acc_avx2`].
#[target_feature(enable = "avx2")]
fn reduce_acc_avx2(out: &mut [i32; N], acc: &[i64; N], a: Option<&[i32; N]>) {
    let (o8, _) = out.as_chunks_mut::<8>();
    let (acc8, _) = acc.as_chunks::<8>();
    for (g, (o, c)) in o8.iter_mut().zip(acc8).enumerate() {
        // SAFETY: `c` is 8 `i64` = 64 readable bytes (two registers); unaligned loads.
        let (mut se, mut so) = unsafe {
            (
                _mm256_loadu_si256(c.as_ptr().cast()),
                _mm256_loadu_si256(c[4..].as_ptr().cast()),
            )
        };
        if let Some(a) = a {
            let a8 = &a.as_chunks::<8>().0[g];
            // SAFETY: `a8` (g < 32) and `o` are 8 `i32` = 32 readable bytes;
            // unaligned loads (o is read before it is written below).
            let (pe, po) = unsafe {
                mul_even_odd(
                    _mm256_loadu_si256(a8.as_ptr().cast()),
                    _mm256_loadu_si256(o.as_ptr().cast()),
                )
            };
            se = _mm256_add_epi64(se, pe);
            so = _mm256_add_epi64(so, po);
        }
        // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), mont_reduce(se, so)) }
    }
}

/// out = mont(Σ_j a_j ∘ b_j), 32 coefficients (four registers) at a time:
/// for each block, the i64 sums of the even and odd lanes stay in eight
/// registers over j and are reduced once (one look-up of each pair per
/// block of four registers).
#[target_feature(enable = "avx2")]
fn dot_mont_avx2<'a>(
    out: &mut [i32; N],
    n: usize,
    pair: impl Fn(usize) -> (&'a [i32; N], &'a [i32; N]),
) {
    let (o8, _) = out.as_chunks_mut::<8>();
    for (blk, o4) in o8.chunks_exact_mut(4).enumerate() {
        let mut se = [_mm256_setzero_si256(); 4];
        let mut so = [_mm256_setzero_si256(); 4];
        for j in 0..n {
            let (a, b) = pair(j);
            let (a8, _) = a.as_chunks::<8>();
            let (b8, _) = b.as_chunks::<8>();
            let (a4, b4) = (&a8[4 * blk..4 * blk + 4], &b8[4 * blk..4 * blk + 4]);
            for k in 0..4 {
                // SAFETY: `a4[k]` and `b4[k]` (k < 4) are 8 `i32` = 32 readable bytes each; unaligned loads.
                let (x, y) = unsafe {
                    (
                        _mm256_loadu_si256(a4[k].as_ptr().cast()),
                        _mm256_loadu_si256(b4[k].as_ptr().cast()),
                    )
                };
                se[k] = _mm256_add_epi64(se[k], _mm256_mul_epi32(x, y));
                so[k] = _mm256_add_epi64(
                    so[k],
                    _mm256_mul_epi32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y)),
                );
            }
        }
        for (k, o) in o4.iter_mut().enumerate() {
            // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
            unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), mont_reduce(se[k], so[k])) }
        }
    }
}

/// out = mont(a ∘ b + extra) with a = `src`, or out itself if `None`,
/// eight coefficients at a time (no copies: the smallest-stack signer's
/// stack budget).
#[target_feature(enable = "avx2")]
fn mul_mont_avx2(
    out: &mut [i32; N],
    src: Option<&[i32; N]>,
    b: &[i32; N],
    extra: Option<&[i32; N]>,
) {
    let one = _mm256_set1_epi32(1);
    let (o8, _) = out.as_chunks_mut::<8>();
    let (b8, _) = b.as_chunks::<8>();
    for (i, (o, y)) in o8.iter_mut().zip(b8).enumerate() {
        let x = match src {
            // SAFETY: `a[8i..8i + 8]` (i < 32) is 8 `i32` = 32 readable bytes; unaligned load.
            Some(a) => unsafe { _mm256_loadu_si256(a.as_chunks::<8>().0[i].as_ptr().cast()) },
            // SAFETY: `o` is 8 `i32` = 32 readable bytes; unaligned load.
            None => unsafe { _mm256_loadu_si256(o.as_ptr().cast()) },
        };
        // SAFETY: `y` is 8 `i32` = 32 readable bytes; unaligned load.
        let y = unsafe { _mm256_loadu_si256(y.as_ptr().cast()) };
        let mut pe = _mm256_mul_epi32(x, y);
        let mut po = _mm256_mul_epi32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y));
        if let Some((e, _)) = extra.map(|e| e.as_chunks::<8>()) {
            // SAFETY: `e[i]` (i < 32) is 8 `i32` = 32 readable bytes; unaligned load.
            let e = unsafe { _mm256_loadu_si256(e[i].as_ptr().cast()) };
            // Sign-extend the extra term to 64 bits (×1 with `vpmuldq`) and add.
            pe = _mm256_add_epi64(pe, _mm256_mul_epi32(e, one));
            po = _mm256_add_epi64(po, _mm256_mul_epi32(_mm256_srli_epi64::<32>(e), one));
        }
        // SAFETY: `o` is 8 `i32` = 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), mont_reduce(pe, po)) }
    }
}
