//! AVX2 arithmetic on 16 × `i16` lanes (FIPS 203 §4.3): all seven layers of
//! `NTT` (Algorithm 9) and `NTT⁻¹` (Algorithm 10), the accumulated base-case
//! products (`MultiplyNTTs` / `BaseCaseMultiply`, Algorithms 11, 12) and
//! the Montgomery reduction of the sums, the Barrett reduction and
//! canonicalisation of a polynomial (twins `Poly::reduce_portable`,
//! `Poly::canonicalize_portable`); in submodules, the rejection step
//! of `SampleNTT` (`rej`), `SamplePolyCBD_2` (`cbd`) and Compress / Encode /
//! Decode (`encode`).
//!
//! Every function computes exactly what its portable twin in `crate::ntt`
//! computes, lane by lane and in the same order of operations (16-bit
//! wrapping sums, the same Montgomery and Barrett formulas), so outputs are
//! bit-identical; the unit tests below compare them on random inputs.
//! No table lookups on data, no data-dependent branches or addresses.
//!
//! `unsafe` here is only: calling the `#[target_feature(enable = "avx2")]`
//! functions behind an [`Avx2`] token (proof of detection), and unaligned loads and stores. The
//! intrinsics in between are safe inside `target_feature` functions.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_set1_epi16, _mm256_add_epi16, _mm256_add_epi32,
    _mm256_and_si256, _mm256_blend_epi16, _mm256_cvtepi16_epi32, _mm256_loadu_si256,
    _mm256_madd_epi16, _mm256_mulhi_epi16, _mm256_mullo_epi16, _mm256_or_si256, _mm256_packs_epi32,
    _mm256_packus_epi32, _mm256_permute2x128_si256, _mm256_permute4x64_epi64, _mm256_set_m128i,
    _mm256_set1_epi16, _mm256_set1_epi32, _mm256_shuffle_epi32, _mm256_slli_epi32,
    _mm256_srai_epi16, _mm256_srai_epi32, _mm256_srli_epi32, _mm256_storeu_si256, _mm256_sub_epi16,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

use pqdr_common::simd::Avx2;

pub(crate) mod cbd;
pub(crate) mod encode;
pub(crate) mod rej;

use crate::field::N;
use crate::field::{Q, QINV};
use crate::zeta::{INV_NTT_SCALE, ZETAS};

// Every safe function below takes the `Avx2` token: the
// SAFETY of its `unsafe` call is that the token proves AVX2 was detected
// (only `pqdr_common::simd::Avx2::detect` makes one).

/// `NTT` (Algorithm 9) in place: all seven layers, `len` = 128 … 2.
#[inline]
pub(crate) fn ntt_layers(token: Avx2, f: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { ntt_layers_avx2(f) }
}

/// `NTT⁻¹` (Algorithm 10) in place: all seven layers, `len` = 2 … 128, and
/// the final scaling.
#[inline]
pub(crate) fn inv_ntt_layers(token: Avx2, f: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { inv_ntt_layers_avx2(f) }
}

/// `acc += f̂ ×_T ĝ` (Algorithms 11, 12), `g_cache[i] = ĝ[2i+1]·γ_i`.
#[inline]
pub(crate) fn add_product(
    token: Avx2,
    acc: &mut [i32; N],
    f: &[i16; N],
    g: &[i16; N],
    g_cache: &[i16; N >> 1],
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { add_product_avx2(acc, f, g, g_cache) }
}

/// [`add_product`] on 16 coefficients (eight pairs): `a`, `b` and `c` are
/// those coefficients of `f̂`, `ĝ` and the matching `g_cache` entries; for
/// the streamed 4-way `SampleNTT`, whose `f̂` arrives 16 coefficients at a
/// time.
#[inline]
pub(crate) fn add_product_16(
    token: Avx2,
    acc: &mut [[i32; 8]; 2],
    a: &[i16; 16],
    b: &[i16; 16],
    c: &[i16; 8],
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { add_product_16_avx2(acc, a, b, c) }
}

/// `out = montgomery_reduce(acc)` coefficient-wise.
#[inline]
pub(crate) fn reduce_into(token: Avx2, acc: &[i32; N], out: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { reduce_into_avx2(acc, out) }
}

/// `field::barrett_reduce` coefficient-wise (`Poly::reduce`).
#[inline]
pub(crate) fn poly_reduce(token: Avx2, f: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { poly_reduce_avx2::<false>(f) }
}

/// `field::to_canonical` coefficient-wise (`Poly::canonicalize`).
#[inline]
pub(crate) fn poly_canonicalize(token: Avx2, f: &mut [i16; N]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { poly_reduce_avx2::<true>(f) }
}

/// Barrett reduction of every coefficient; with `CANONICAL`, `q` added
/// to the negative results (`r + ((r >> 15) & q)`, no branch).
#[target_feature(enable = "avx2")]
fn poly_reduce_avx2<const CANONICAL: bool>(f: &mut [i16; N]) {
    let q = _mm256_set1_epi16(Q);
    for c in f.as_chunks_mut::<16>().0 {
        let r = barrett(load(c));
        let r = if CANONICAL {
            _mm256_add_epi16(r, _mm256_and_si256(_mm256_srai_epi16::<15>(r), q))
        } else {
            r
        };
        store(c, r);
    }
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

/// Loads 8 sums.
#[target_feature(enable = "avx2")]
#[inline]
fn load32(c: &[i32; 8]) -> __m256i {
    // SAFETY: `c` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast::<__m256i>()) }
}

/// Stores 8 sums.
#[target_feature(enable = "avx2")]
#[inline]
fn store32(c: &mut [i32; 8], v: __m256i) {
    // SAFETY: `c` is 32 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast::<__m256i>(), v) }
}

/// `field::fqmul` in each lane: `a·b·2^{-16} mod q` from the low and high
/// halves of the 16-bit products.
#[target_feature(enable = "avx2")]
#[inline]
fn fqmul(a: __m256i, b: __m256i) -> __m256i {
    let lo = _mm256_mullo_epi16(a, b);
    let hi = _mm256_mulhi_epi16(a, b);
    let t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));
    let tq = _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q));
    _mm256_sub_epi16(hi, tq)
}

/// `field::barrett_reduce` in each lane: `t = ⌊(20159·a + 2^25) / 2^26⌋`
/// computed as `⌊(⌊20159·a / 2^16⌋ + 2^9) / 2^10⌋` (the same integer), then
/// `a − t·q`.
#[target_feature(enable = "avx2")]
#[inline]
fn barrett(a: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(20159));
    let t = _mm256_srai_epi16::<10>(_mm256_add_epi16(t, _mm256_set1_epi16(1 << 9)));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// Two twiddle factors, one per 128-bit half.
#[target_feature(enable = "avx2")]
#[inline]
fn zeta_pair(lo: i16, hi: i16) -> __m256i {
    _mm256_set_m128i(_mm_set1_epi16(hi), _mm_set1_epi16(lo))
}

/// A forward layer with `LEN ≥ 16` (Algorithm 9 lines 4–10): block `b`
/// uses `ZETAS[k + b]`; `t = ζ·f[j + len]`, `f[j + len] = f[j] − t`,
/// `f[j] = f[j] + t`.
#[target_feature(enable = "avx2")]
#[inline]
fn ntt_layer<const LEN: usize>(f: &mut [[i16; 16]], k: usize) {
    let vecs = LEN >> 4;
    for (blk, (zeta, zeta_q)) in f
        .chunks_exact_mut(2 * vecs)
        .zip(ZETAS[k..].iter().zip(&ZETAS_QINV[k..]))
    {
        let (z, zq) = (_mm256_set1_epi16(*zeta), _mm256_set1_epi16(*zeta_q));
        let (lo, hi) = blk.split_at_mut(vecs);
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = fqmul_pre(load(b), z, zq);
            let x = load(a);
            store(b, _mm256_sub_epi16(x, t));
            store(a, _mm256_add_epi16(x, t));
        }
    }
}

/// `ZETAS[i]·q⁻¹ mod 2^16`: the low half of the Montgomery product with a
/// twiddle factor, precomputed (see [`fqmul_pre`]).
static ZETAS_QINV: [i16; 128] = {
    let mut t = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = ZETAS[i].wrapping_mul(QINV);
        i += 1;
    }
    t
};

/// `field::fqmul(ζ, b)` in each lane with `zq = ζ·q⁻¹ mod 2^16` given:
/// `t = b·zq mod 2^16` is the `t` of [`fqmul`] (`(b·ζ mod 2^16)·q⁻¹ mod
/// 2^16`), so the result is the same, for one multiplication less.
#[target_feature(enable = "avx2")]
#[inline]
fn fqmul_pre(b: __m256i, z: __m256i, zq: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(b, z);
    let t = _mm256_mullo_epi16(b, zq);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q)))
}

/// Coefficient held by lane `t` (0..16) of the lower operand vector of the
/// short layers, for the vector pair `p` (coefficients `32p .. 32p + 32`,
/// vectors `A` = `2p`, `B` = `2p + 1`), in 128-bit half `h = t / 8`:
/// with `LEN = 4` the layout `[A₀…A₃, B₀…B₃]` of half `h` (the upper
/// operand, four coefficients further, is `[A₄…A₇, B₄…B₇]`); with `LEN = 2`
/// the layout `[A₀A₁, B₀B₁, A₄A₅, B₄B₅]` (upper: two further). `Aⱼ` is
/// coefficient `32p + 8h + j`, `Bⱼ` the one 16 further.
const fn short_lane(len: usize, p: usize, t: usize) -> usize {
    let (h, u) = (t >> 3, t & 7);
    if len == 4 {
        32 * p + 16 * (u >> 2) + 8 * h + (u & 3)
    } else {
        let e = u >> 1;
        32 * p + 16 * (e & 1) + 8 * h + 4 * (e >> 1) + (u & 1)
    }
}

/// Per vector pair and lane of the short-layer layout (see [`short_lane`])
/// the twiddle factor of its butterfly in the layer with block half-length
/// `len` ∈ {2, 4}, whose first block uses `ZETAS[k]`; blocks count up
/// (`NTT`) or down (`NTT⁻¹`); with `qinv`, times `q⁻¹ mod 2^16`.
const fn short_zetas(len: usize, k: usize, up: bool, qinv: bool) -> [[i16; 16]; 8] {
    let mut t = [[0i16; 16]; 8];
    let mut p = 0;
    while p < 8 {
        let mut l = 0;
        while l < 16 {
            let block = short_lane(len, p, l) >> (len.trailing_zeros() + 1);
            let z = ZETAS[if up { k + block } else { k - block }];
            t[p][l] = if qinv { z.wrapping_mul(QINV) } else { z };
            l += 1;
        }
        p += 1;
    }
    t
}

static NTT4_Z: [[i16; 16]; 8] = short_zetas(4, 32, true, false);
static NTT4_ZQ: [[i16; 16]; 8] = short_zetas(4, 32, true, true);
static NTT2_Z: [[i16; 16]; 8] = short_zetas(2, 64, true, false);
static NTT2_ZQ: [[i16; 16]; 8] = short_zetas(2, 64, true, true);
static INV2_Z: [[i16; 16]; 8] = short_zetas(2, 127, false, false);
static INV2_ZQ: [[i16; 16]; 8] = short_zetas(2, 127, false, true);
static INV4_Z: [[i16; 16]; 8] = short_zetas(4, 63, false, false);
static INV4_ZQ: [[i16; 16]; 8] = short_zetas(4, 63, false, true);

/// `[A, B]` (layout `[Aⱼ]`, `[Bⱼ]`) to the lower and upper operands of the
/// `len = 4` layer: `[A₀…A₃, B₀…B₃]`, `[A₄…A₇, B₄…B₇]` per half.
#[target_feature(enable = "avx2")]
#[inline]
fn to_len4(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
}

/// The inverse of [`to_len4`]: back to `[A, B]`.
#[target_feature(enable = "avx2")]
#[inline]
fn from_len4(lo: __m256i, hi: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi))
}

/// `len = 4` operands to `len = 2` operands: `[A₀A₁, B₀B₁, A₄A₅, B₄B₅]`
/// and `[A₂A₃, B₂B₃, A₆A₇, B₆B₇]` per half (32-bit units).
#[target_feature(enable = "avx2")]
#[inline]
fn len4_to_len2(lo: __m256i, hi: __m256i) -> (__m256i, __m256i) {
    // [A01 A23 B01 B23] → [A01 B01 A23 B23], likewise for the upper operand.
    let lo = _mm256_shuffle_epi32::<0b11_01_10_00>(lo);
    let hi = _mm256_shuffle_epi32::<0b11_01_10_00>(hi);
    (_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi))
}

/// `len = 2` operands to `len = 4` operands (the inverse of [`len4_to_len2`]).
#[target_feature(enable = "avx2")]
#[inline]
fn len2_to_len4(lo: __m256i, hi: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi32(lo, hi), _mm256_unpackhi_epi32(lo, hi))
}

/// The forward layers with `len` = 8, 4, 2 (Algorithm 9) on one pair of
/// vectors `p` (coefficients `32p .. 32p + 32`), kept in registers: for
/// `len = 8` each vector is a block, regrouped into lower and upper halves;
/// `len = 4` and `2` regroup 64- and 32-bit units (see [`short_lane`]).
#[target_feature(enable = "avx2")]
#[inline]
fn ntt_short_pair(pair: &mut [[i16; 16]; 2], p: usize) {
    let [a, b] = pair;
    let (va, vb) = (load(a), load(b));
    // len = 8: blocks 2p, 2p + 1 use ZETAS[16 + 2p], ZETAS[17 + 2p].
    let lo = _mm256_permute2x128_si256::<0x20>(va, vb);
    let hi = _mm256_permute2x128_si256::<0x31>(va, vb);
    let z = zeta_pair(ZETAS[16 + 2 * p], ZETAS[17 + 2 * p]);
    let zq = zeta_pair(ZETAS_QINV[16 + 2 * p], ZETAS_QINV[17 + 2 * p]);
    let t = fqmul_pre(hi, z, zq);
    let (lo, hi) = (_mm256_add_epi16(lo, t), _mm256_sub_epi16(lo, t));
    let va = _mm256_permute2x128_si256::<0x20>(lo, hi);
    let vb = _mm256_permute2x128_si256::<0x31>(lo, hi);
    // len = 4.
    let (lo, hi) = to_len4(va, vb);
    let t = fqmul_pre(hi, load(&NTT4_Z[p]), load(&NTT4_ZQ[p]));
    let (lo, hi) = (_mm256_add_epi16(lo, t), _mm256_sub_epi16(lo, t));
    // len = 2.
    let (lo, hi) = len4_to_len2(lo, hi);
    let t = fqmul_pre(hi, load(&NTT2_Z[p]), load(&NTT2_ZQ[p]));
    let (lo, hi) = (_mm256_add_epi16(lo, t), _mm256_sub_epi16(lo, t));
    let (lo, hi) = len2_to_len4(lo, hi);
    let (va, vb) = from_len4(lo, hi);
    store(a, va);
    store(b, vb);
}

/// The inverse layers with `len` = 2, 4 (Barrett-reduced sums), 8
/// (Algorithm 10) on one pair of vectors, in registers (layouts as in
/// [`ntt_short_pair`]).
#[target_feature(enable = "avx2")]
#[inline]
fn inv_ntt_short_pair(pair: &mut [[i16; 16]; 2], p: usize) {
    let [a, b] = pair;
    let (va, vb) = (load(a), load(b));
    // len = 2: [A01 A23 A45 A67], [B…] → [A01 B01 A23 B23], [A45 B45 A67 B67]
    // → the len = 2 operands.
    let x = _mm256_unpacklo_epi32(va, vb);
    let y = _mm256_unpackhi_epi32(va, vb);
    let (lo, hi) = (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y));
    let s = _mm256_add_epi16(lo, hi);
    let d = fqmul_pre(
        _mm256_sub_epi16(hi, lo),
        load(&INV2_Z[p]),
        load(&INV2_ZQ[p]),
    );
    // len = 4, sums reduced.
    let (lo, hi) = len2_to_len4(s, d);
    let s = barrett(_mm256_add_epi16(lo, hi));
    let d = fqmul_pre(
        _mm256_sub_epi16(hi, lo),
        load(&INV4_Z[p]),
        load(&INV4_ZQ[p]),
    );
    let (va, vb) = from_len4(s, d);
    // len = 8: blocks 2p, 2p + 1 use ZETAS[31 − 2p], ZETAS[30 − 2p].
    let lo = _mm256_permute2x128_si256::<0x20>(va, vb);
    let hi = _mm256_permute2x128_si256::<0x31>(va, vb);
    let z = zeta_pair(ZETAS[31 - 2 * p], ZETAS[30 - 2 * p]);
    let zq = zeta_pair(ZETAS_QINV[31 - 2 * p], ZETAS_QINV[30 - 2 * p]);
    let s = _mm256_add_epi16(lo, hi);
    let d = fqmul_pre(_mm256_sub_epi16(hi, lo), z, zq);
    store(a, _mm256_permute2x128_si256::<0x20>(s, d));
    store(b, _mm256_permute2x128_si256::<0x31>(s, d));
}
/// An inverse layer with `LEN ≥ 16` (Algorithm 10 lines 4–10): block `b`
/// uses `ZETAS[k − b]`; `f[j] = f[j] + f[j + len]` (Barrett-reduced with
/// `REDUCE`), `f[j + len] = ζ·(f[j + len] − f[j])`.
#[target_feature(enable = "avx2")]
#[inline]
fn inv_ntt_layer<const LEN: usize, const REDUCE: bool>(f: &mut [[i16; 16]], k: usize) {
    let vecs = LEN >> 4;
    for (i, blk) in f.chunks_exact_mut(2 * vecs).enumerate() {
        let z = _mm256_set1_epi16(ZETAS[k - i]);
        let zq = _mm256_set1_epi16(ZETAS_QINV[k - i]);
        let (lo, hi) = blk.split_at_mut(vecs);
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let (x, y) = (load(a), load(b));
            let s = _mm256_add_epi16(x, y);
            store(a, if REDUCE { barrett(s) } else { s });
            store(b, fqmul_pre(_mm256_sub_epi16(y, x), z, zq));
        }
    }
}

/// The polynomial as 16 vectors of 16 coefficients.
fn as_vectors(f: &mut [i16; N]) -> &mut [[i16; 16]] {
    f.as_chunks_mut::<16>().0
}

#[target_feature(enable = "avx2")]
fn ntt_layers_avx2(f: &mut [i16; N]) {
    let v = as_vectors(f);
    ntt_layer::<128>(v, 1);
    ntt_layer::<64>(v, 2);
    ntt_layer::<32>(v, 4);
    ntt_layer::<16>(v, 8);
    for (p, pair) in v.as_chunks_mut::<2>().0.iter_mut().enumerate() {
        ntt_short_pair(pair, p);
    }
}

#[target_feature(enable = "avx2")]
fn inv_ntt_layers_avx2(f: &mut [i16; N]) {
    let v = as_vectors(f);
    for (p, pair) in v.as_chunks_mut::<2>().0.iter_mut().enumerate() {
        inv_ntt_short_pair(pair, p);
    }
    inv_ntt_layer::<16, true>(v, 15);
    inv_ntt_layer::<32, false>(v, 7);
    inv_ntt_layer::<64, true>(v, 3);
    inv_ntt_layer::<128, false>(v, 1);
    let scale = _mm256_set1_epi16(INV_NTT_SCALE);
    for c in v.iter_mut() {
        store(c, fqmul(load(c), scale));
    }
}
/// Per 16 coefficients (eight pairs): `c₀ = a₀b₀ + a₁(b₁γ)` and
/// `c₁ = a₀b₁ + a₁b₀` as two `vpmaddwd` of `(a₀, a₁)` with `(b₀, b₁γ)` and
/// `(b₁, b₀)`, interleaved back into coefficient order and added.
#[target_feature(enable = "avx2")]
fn add_product_avx2(acc: &mut [i32; N], f: &[i16; N], g: &[i16; N], g_cache: &[i16; N >> 1]) {
    let (acc, _) = acc.as_chunks_mut::<8>();
    let (f, _) = f.as_chunks::<16>();
    let (g, _) = g.as_chunks::<16>();
    let (c, _) = g_cache.as_chunks::<8>();
    for (((acc, a), b), c) in acc.as_chunks_mut::<2>().0.iter_mut().zip(f).zip(g).zip(c) {
        add_product_16_avx2(acc, a, b, c);
    }
}

/// One block of [`add_product_avx2`]: 16 coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn add_product_16_avx2(acc: &mut [[i32; 8]; 2], a: &[i16; 16], b: &[i16; 16], c: &[i16; 8]) {
    let (a, b) = (load(a), load(b));
    // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement.
    let c = unsafe { _mm_loadu_si128(c.as_ptr().cast::<__m128i>()) };
    // b₁γ into the odd lanes, next to b₀.
    let c_odd = _mm256_slli_epi32::<16>(_mm256_cvtepi16_epi32(c));
    let bg = _mm256_blend_epi16::<0b1010_1010>(b, c_odd);
    let bs = _mm256_or_si256(_mm256_slli_epi32::<16>(b), _mm256_srli_epi32::<16>(b));
    let c0 = _mm256_madd_epi16(a, bg);
    let c1 = _mm256_madd_epi16(a, bs);
    // Pairs 0,1 | 4,5 and 2,3 | 6,7, as (c₀, c₁) sums.
    let lo = _mm256_unpacklo_epi32(c0, c1);
    let hi = _mm256_unpackhi_epi32(c0, c1);
    let [x, y] = acc;
    store32(
        x,
        _mm256_add_epi32(load32(x), _mm256_permute2x128_si256::<0x20>(lo, hi)),
    );
    store32(
        y,
        _mm256_add_epi32(load32(y), _mm256_permute2x128_si256::<0x31>(lo, hi)),
    );
}

/// `field::montgomery_reduce` on 16 sums at a time, in 16-bit arithmetic:
/// the low and high halves of each sum are split into two vectors (exact
/// packs), then `t = lo·q⁻¹ mod 2^16` and `hi − ⌊t·q / 2^16⌋`.
#[target_feature(enable = "avx2")]
fn reduce_into_avx2(acc: &[i32; N], out: &mut [i16; N]) {
    let (acc, _) = acc.as_chunks::<8>();
    let (out, _) = out.as_chunks_mut::<16>();
    let mask = _mm256_set1_epi32(0xffff);
    for (o, pair) in out.iter_mut().zip(acc.as_chunks::<2>().0) {
        let [x, y] = pair;
        let (x, y) = (load32(x), load32(y));
        // packs/packus interleave the 128-bit halves: [x₀ y₀ x₁ y₁] in
        // 64-bit units, put back in order by the final permute.
        let lo = _mm256_packus_epi32(_mm256_and_si256(x, mask), _mm256_and_si256(y, mask));
        let hi = _mm256_packs_epi32(_mm256_srai_epi32::<16>(x), _mm256_srai_epi32::<16>(y));
        let t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));
        let tq = _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q));
        store(
            o,
            _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_sub_epi16(hi, tq)),
        );
    }
}
