//! The number-theoretic transform (FIPS 203 §4.3): `NTT` (Algorithm 9),
//! `NTT⁻¹` (Algorithm 10) and multiplication in `T_q` (Algorithms 11, 12).
//!
//! The twiddle factors `ζ^BitRev₇(i)` (with `ζ = 17`) are stored in
//! Montgomery form, so a Montgomery product with them is an ordinary product
//! mod `q`. Products of two variable polynomials are accumulated in `i32` and
//! reduced once; the `2^{-16}` that reduction leaves is folded into the
//! scaling of `NTT⁻¹` (or removed with [`Poly::scale_mont`]).

use crate::field::{barrett_reduce, fqmul, montgomery_reduce};
use crate::poly::{N, Poly};
use crate::zeta::{GAMMAS, INV_NTT_SCALE, ZETAS};

/// `n / 2`: the number of degree-1 factors `X^2 - γ_i` of `X^256 + 1`.
const HALF_N: usize = 128;

/// `acc += f̂ ×_T ĝ` with a 16-bit accumulator (`MultiplyNTTs` /
/// `BaseCaseMultiply`, FIPS 203 Algorithms 11, 12), for the `small-stack`
/// `K-PKE`: each product is Montgomery-reduced (`·2^{-16}`) before it is
/// added, so every call adds less than `q` in absolute value per coefficient.
/// `g(i)` returns the pair `(ĝ[2i], ĝ[2i+1])` (from a polynomial or straight
/// from 12-bit encoded bytes).
#[cfg(feature = "small-stack")]
#[inline(always)]
pub(crate) fn basemul_acc(acc: &mut Poly, f: &Poly, g: impl Fn(usize) -> (i16, i16)) {
    for (i, a) in f.c.chunks_exact(2).enumerate() {
        basemul_acc_pair(acc, i, (a[0], a[1]), g(i));
    }
}

/// One pair of [`basemul_acc`]: `(acc[2i], acc[2i+1]) += BaseCaseMultiply(a, b, γ_i)·2^{-16}`,
/// with `γ_i` multiplying `b₁` on the fly.
///
/// Bounds: `|a_j| < q`, and `0 ≤ b_j < 2^12` or `|b_j| < q`, so each sum of
/// two products stays below `2^25 < q·2^15` (the input bound of
/// [`montgomery_reduce`]).
#[cfg(feature = "small-stack")]
#[inline(always)]
pub(crate) fn basemul_acc_pair(acc: &mut Poly, i: usize, a: (i16, i16), b: (i16, i16)) {
    let b1g = i32::from(fqmul(b.1, GAMMAS[i]));
    let (a0, a1) = (i32::from(a.0), i32::from(a.1));
    let (b0, b1) = (i32::from(b.0), i32::from(b.1));
    let o = &mut acc.c[2 * i..2 * i + 2];
    o[0] = o[0].wrapping_add(montgomery_reduce(a0 * b0 + a1 * b1g));
    o[1] = o[1].wrapping_add(montgomery_reduce(a0 * b1 + a1 * b0));
}

/// One layer of Algorithm 9 with block half-length `LEN`; `k` is the index of
/// the first twiddle factor of the layer.
#[inline(always)]
fn ntt_layer<const LEN: usize>(f: &mut [i16; N], k: usize) {
    for (blk, zeta) in f.chunks_exact_mut(2 * LEN).zip(&ZETAS[k..]) {
        let (lo, hi) = blk.split_at_mut(LEN);
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = fqmul(*zeta, *b);
            *b = a.wrapping_sub(t);
            *a = a.wrapping_add(t);
        }
    }
}

/// The twiddle factor of each of the 128 butterflies of the layer with
/// block half-length `len` (a power of two ≤ 4), whose first block uses
/// `ZETAS[k]`; blocks count up (`NTT`) or down (`NTT⁻¹`) from `k`.
const fn butterfly_zetas(len: usize, k: usize, up: bool) -> [i16; HALF_N] {
    let shift = len.trailing_zeros();
    let mut t = [0i16; HALF_N];
    let mut i = 0;
    while i < HALF_N {
        let block = i >> shift;
        t[i] = ZETAS[if up { k + block } else { k - block }];
        i += 1;
    }
    t
}

static NTT_ZETAS_4: [i16; HALF_N] = butterfly_zetas(4, 32, true);
static NTT_ZETAS_2: [i16; HALF_N] = butterfly_zetas(2, 64, true);
static INV_NTT_ZETAS_2: [i16; HALF_N] = butterfly_zetas(2, 127, false);
static INV_NTT_ZETAS_4: [i16; HALF_N] = butterfly_zetas(4, 63, false);

/// Position of butterfly `i` (of 8) of a 16-coefficient chunk in a layer
/// with block half-length `LEN`: `(lower index, upper index)`.
#[inline(always)]
const fn pair<const LEN: usize>(i: usize) -> (usize, usize) {
    let block = i >> LEN.trailing_zeros();
    let j = i & (LEN - 1);
    (2 * LEN * block + j, 2 * LEN * block + LEN + j)
}

/// A layer of Algorithm 9 with a short block (`LEN` ∈ {2, 4}), eight
/// butterflies at a time: the operands are gathered into 8-lane arrays so
/// that the arithmetic runs in SIMD registers (the plain loop would be
/// scalar, its inner runs being only 2 or 4 long).
#[inline(always)]
fn ntt_layer_short<const LEN: usize>(f: &mut [i16; N], zetas: &[i16; HALF_N]) {
    for (chunk, z) in f.chunks_exact_mut(16).zip(zetas.chunks_exact(8)) {
        let lo: [i16; 8] = core::array::from_fn(|i| chunk[pair::<LEN>(i).0]);
        let hi: [i16; 8] = core::array::from_fn(|i| chunk[pair::<LEN>(i).1]);
        let t: [i16; 8] = core::array::from_fn(|i| fqmul(z[i], hi[i]));
        for i in 0..8 {
            let (a, b) = pair::<LEN>(i);
            chunk[a] = lo[i].wrapping_add(t[i]);
            chunk[b] = lo[i].wrapping_sub(t[i]);
        }
    }
}

/// A layer of Algorithm 10 with a short block (`LEN` ∈ {2, 4}), eight
/// butterflies at a time (see [`ntt_layer_short`]).
#[inline(always)]
fn inv_ntt_layer_short<const LEN: usize, const REDUCE: bool>(
    f: &mut [i16; N],
    zetas: &[i16; HALF_N],
) {
    for (chunk, z) in f.chunks_exact_mut(16).zip(zetas.chunks_exact(8)) {
        let lo: [i16; 8] = core::array::from_fn(|i| chunk[pair::<LEN>(i).0]);
        let hi: [i16; 8] = core::array::from_fn(|i| chunk[pair::<LEN>(i).1]);
        for i in 0..8 {
            let (a, b) = pair::<LEN>(i);
            let s = lo[i].wrapping_add(hi[i]);
            chunk[a] = if REDUCE { barrett_reduce(s) } else { s };
            chunk[b] = fqmul(z[i], hi[i].wrapping_sub(lo[i]));
        }
    }
}

/// `NTT(f)` (FIPS 203 Algorithm 9).
///
/// Forward NTT in place. Input `|f_i| ≤ q`; output `|f̂_i| < 8q` (each of the
/// seven layers adds less than `q`); callers reduce afterwards.
pub(crate) fn ntt(f: &mut Poly) {
    if let Some(token) = crate::arch::avx2() {
        crate::arch::ntt_layers(token, &mut f.c);
        return;
    }
    ntt_portable(f);
}

/// [`ntt`] without SIMD: the reference twin of the AVX2 path.
pub(crate) fn ntt_portable(f: &mut Poly) {
    ntt_layer::<128>(&mut f.c, 1);
    ntt_layer::<64>(&mut f.c, 2);
    ntt_layer::<32>(&mut f.c, 4);
    ntt_layer::<16>(&mut f.c, 8);
    ntt_layer::<8>(&mut f.c, 16);
    ntt_layer_short::<4>(&mut f.c, &NTT_ZETAS_4);
    ntt_layer_short::<2>(&mut f.c, &NTT_ZETAS_2);
}

/// One layer of Algorithm 10 with block half-length `LEN`. Twiddles are used
/// in decreasing order starting at `k`; with `REDUCE` the sums are
/// Barrett-reduced.
#[inline(always)]
fn inv_ntt_layer<const LEN: usize, const REDUCE: bool>(f: &mut [i16; N], k: usize) {
    for (i, blk) in f.chunks_exact_mut(2 * LEN).enumerate() {
        let zeta = ZETAS[k - i];
        let (lo, hi) = blk.split_at_mut(LEN);
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = *a;
            let s = t.wrapping_add(*b);
            *a = if REDUCE { barrett_reduce(s) } else { s };
            *b = fqmul(zeta, b.wrapping_sub(t));
        }
    }
}

/// `NTT⁻¹(f̂)` (FIPS 203 Algorithm 10).
///
/// Inverse NTT in place, times `2^16` (see [`INV_NTT_SCALE`]).
/// Input `|f̂_i| < q`; output `|f_i| < q`.
pub(crate) fn inv_ntt_mont(f: &mut Poly) {
    if let Some(token) = crate::arch::avx2() {
        crate::arch::inv_ntt_layers(token, &mut f.c);
        return;
    }
    inv_ntt_mont_portable(f);
}

/// [`inv_ntt_mont`] without SIMD: the reference twin of the AVX2 path.
#[inline(always)]
pub(crate) fn inv_ntt_mont_portable(f: &mut Poly) {
    // Sums at most double per layer; reducing every second layer keeps every
    // value below 4q.
    inv_ntt_layer_short::<2, false>(&mut f.c, &INV_NTT_ZETAS_2);
    inv_ntt_layer_short::<4, true>(&mut f.c, &INV_NTT_ZETAS_4);
    inv_ntt_long_layers_portable(f);
}

/// The layers len = 8 … 128 of Algorithm 10 and the final scaling.
#[inline(always)]
fn inv_ntt_long_layers_portable(f: &mut Poly) {
    inv_ntt_layer::<8, false>(&mut f.c, 31);
    inv_ntt_layer::<16, true>(&mut f.c, 15);
    inv_ntt_layer::<32, false>(&mut f.c, 7);
    inv_ntt_layer::<64, true>(&mut f.c, 3);
    inv_ntt_layer::<128, false>(&mut f.c, 1);
    for a in &mut f.c {
        *a = fqmul(*a, INV_NTT_SCALE);
    }
}

/// The odd coefficients of `ĝ` times `γ_i` (Algorithm 12's `b₁·γ`), computed
/// once per polynomial that is multiplied by several others.
#[derive(Clone, Copy)]
pub(crate) struct MulCache {
    pub(crate) c: [i16; HALF_N],
}

impl zeroize::Zeroize for MulCache {
    fn zeroize(&mut self) {
        self.c.zeroize();
    }
}

#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
impl MulCache {
    /// Precomputes `ĝ[2i+1]·γ_i` for `|ĝ_j| < 2^15`; the entries are in `(-q, q)`.
    pub(crate) fn new(g: &Poly) -> Self {
        let mut c = [0i16; HALF_N];
        for ((o, pair), gamma) in c.iter_mut().zip(g.c.chunks_exact(2)).zip(&GAMMAS) {
            *o = fqmul(pair[1], *gamma);
        }
        Self { c }
    }
}

/// A polynomial in NTT form together with its [`MulCache`]: an element of
/// the vectors (`ŝ`, `ŷ`) that are multiplied by every row of `Â`.
#[derive(Clone, Copy)]
#[doc(hidden)]
pub struct Multiplicand {
    pub(crate) f: Poly,
    pub(crate) cache: MulCache,
}

impl core::fmt::Debug for Multiplicand {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Multiplicand(...)")
    }
}

impl Multiplicand {
    pub(crate) const ZERO: Self = Self {
        f: Poly::ZERO,
        cache: MulCache { c: [0; HALF_N] },
    };

    /// Transforms `self.f` with [`ntt`], reduces it, and fills the cache.
    #[inline(always)]
    #[cfg_attr(
        feature = "small-stack",
        allow(dead_code, reason = "used by the default K-PKE only")
    )]
    pub(crate) fn ntt_in_place(&mut self) {
        ntt(&mut self.f);
        self.f.reduce();
        self.cache = MulCache::new(&self.f);
    }
}

impl zeroize::Zeroize for Multiplicand {
    fn zeroize(&mut self) {
        self.f.zeroize();
        self.cache.zeroize();
    }
}

/// Accumulator of sums of products in `T_q`, one `i32` per coefficient.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) struct Accumulator {
    pub(crate) c: [i32; N],
}

impl zeroize::Zeroize for Accumulator {
    fn zeroize(&mut self) {
        self.c.zeroize();
    }
}

#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
impl Accumulator {
    pub(crate) const ZERO: Self = Self { c: [0; N] };

    /// Resets every sum to zero.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.c = [0; N];
    }

    /// Starts the sums at `f` (each coefficient as is): after the products
    /// are added, [`Self::reduce_into`] followed by `scale_mont` yields
    /// `f + Σ f̂ ×_T ĝ`. Adds at most `2^15` to the bound of the sums.
    #[inline(always)]
    pub(crate) fn set(&mut self, f: &Poly) {
        for (a, b) in self.c.iter_mut().zip(f.c.iter()) {
            *a = i32::from(*b);
        }
    }

    /// `self += f̂ ×_T ĝ` for a prepared `ĝ`.
    #[inline(always)]
    pub(crate) fn add(&mut self, f: &Poly, g: &Multiplicand) {
        self.add_product(f, &g.f, &g.cache);
    }

    /// `MultiplyNTTs` / `BaseCaseMultiply` (FIPS 203 Algorithms 11, 12), accumulated.
    ///
    /// `self += f̂ ×_T ĝ`, where `g_cache = MulCache::new(ĝ)`.
    ///
    /// For `|f̂_j| < q` and `|ĝ_j| ≤ q` each call adds less than `2q²` in
    /// absolute value per coefficient, so up to four calls stay within the
    /// input bound of [`montgomery_reduce`].
    #[inline(always)]
    pub(crate) fn add_product(&mut self, f: &Poly, g: &Poly, g_cache: &MulCache) {
        if let Some(token) = crate::arch::avx2() {
            crate::arch::add_product(token, &mut self.c, &f.c, &g.c, &g_cache.c);
            return;
        }
        self.add_product_portable(f, g, g_cache);
    }

    /// [`Self::add_product`] without SIMD: the reference twin of the AVX2 path.
    #[inline(always)]
    pub(crate) fn add_product_portable(&mut self, f: &Poly, g: &Poly, g_cache: &MulCache) {
        for (((acc, a), b), c) in self
            .c
            .chunks_exact_mut(16)
            .zip(f.c.chunks_exact(16))
            .zip(g.c.chunks_exact(16))
            .zip(g_cache.c.chunks_exact(8))
        {
            add_product_chunk(acc, a, b, c);
        }
    }

    /// [`Self::add_product`] on block `blk` only: the 16 coefficients
    /// `16·blk .. 16·blk + 16` (`blk < 16`, else a bounds-check panic on
    /// both paths), with `f` holding just those coefficients: for products
    /// whose `f̂` arrives 16 coefficients at a time (the streamed `SampleNTT`
    /// of [`crate::sample::sample_ntt_row_x4`]). A block index rather than
    /// a coefficient offset, so both paths address the same coefficients
    /// for every argument.
    #[inline(always)]
    pub(crate) fn add_chunk(&mut self, blk: usize, f: &[i16; 16], g: &Multiplicand) {
        // Block `blk` of the sums, of ĝ and (eight entries) of its cache.
        let acc = &mut self.c.as_chunks_mut::<8>().0.as_chunks_mut::<2>().0[blk];
        let b = &g.f.c.as_chunks::<16>().0[blk];
        let c = &g.cache.c.as_chunks::<8>().0[blk];
        if let Some(token) = crate::arch::avx2() {
            crate::arch::add_product_16(token, acc, f, b, c);
            return;
        }
        add_product_chunk(acc.as_flattened_mut(), f, b, c);
    }

    /// Montgomery-reduces the sums: `out = self · 2^{-16}`, `|out_j| < q`.
    #[inline(always)]
    pub(crate) fn reduce_into(&self, out: &mut Poly) {
        if let Some(token) = crate::arch::avx2() {
            crate::arch::reduce_into(token, &self.c, &mut out.c);
            return;
        }
        self.reduce_into_portable(out);
    }

    /// [`Self::reduce_into`] without SIMD: the reference twin of the AVX2 path.
    #[inline(always)]
    pub(crate) fn reduce_into_portable(&self, out: &mut Poly) {
        for (o, a) in out.c.iter_mut().zip(&self.c) {
            *o = montgomery_reduce(*a);
        }
    }
}

/// The base-case products of 16 coefficients (eight pairs, Algorithm 12),
/// added to `acc`: `b` and `c` are the matching coefficients of `ĝ` and their
/// [`MulCache`] entries.
#[inline(always)]
fn add_product_chunk(acc: &mut [i32], a: &[i16], b: &[i16], c: &[i16]) {
    for (((acc, a), b), c) in acc
        .chunks_exact_mut(8)
        .zip(a.chunks_exact(8))
        .zip(b.chunks_exact(8))
        .zip(c.chunks_exact(4))
    {
        // For each pair: c₀ = a₀b₀ + a₁(b₁γ) and c₁ = a₀b₁ + a₁b₀, i.e. two
        // pairwise multiply-adds of (a₀, a₁) with (b₀, b₁γ) and (b₁, b₀).
        let bg: [i16; 8] = core::array::from_fn(|i| if i & 1 == 0 { b[i] } else { c[i >> 1] });
        let bs: [i16; 8] = core::array::from_fn(|i| b[i ^ 1]);
        for k in (0..8).step_by(2) {
            let (a0, a1) = (i32::from(a[k]), i32::from(a[k + 1]));
            // Each i16 × i16 product fits an i32; their sum wraps exactly as
            // `vpmaddwd` does (only (−2^15)² + (−2^15)² = 2^31 overflows).
            let p0 = (a0 * i32::from(bg[k])).wrapping_add(a1 * i32::from(bg[k + 1]));
            let p1 = (a0 * i32::from(bs[k])).wrapping_add(a1 * i32::from(bs[k + 1]));
            acc[k] = acc[k].wrapping_add(p0);
            acc[k + 1] = acc[k + 1].wrapping_add(p1);
        }
    }
}

/// The Montgomery form of 1, for tests of the tables.
#[cfg(test)]
const ONE_MONT: i16 = crate::field::MONT;

#[cfg(all(test, feature = "simd", target_arch = "x86_64"))]
mod avx2_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Q32;
    use crate::zeta::{bitrev7, pow17};

    fn modq(x: i64) -> i64 {
        x.rem_euclid(i64::from(Q32))
    }

    /// Schoolbook product in `Z_q[X]/(X^256+1)`.
    fn schoolbook(a: &[i64; N], b: &[i64; N]) -> [i64; N] {
        let mut r = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = a[i] * b[j];
                if i + j < N {
                    r[i + j] += p;
                } else {
                    r[i + j - N] -= p;
                }
            }
        }
        r.map(modq)
    }

    fn poly_from(v: &[i64; N]) -> Poly {
        let mut p = Poly::ZERO;
        for (o, x) in p.c.iter_mut().zip(v) {
            *o = i16::try_from(*x).unwrap_or(0);
        }
        p
    }

    #[test]
    fn tables() {
        assert_eq!(pow17(128), i64::from(Q32) - 1); // ζ is a primitive 256th root of unity
        assert_eq!(modq(i64::from(ZETAS[0])), i64::from(ONE_MONT));
        assert_eq!(bitrev7(1), 64);
        assert_eq!(i64::from(INV_NTT_SCALE), modq((1i64 << 32) * 3303));
    }

    #[test]
    fn product_matches_schoolbook() {
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            i64::try_from(seed % 3329).unwrap_or(0)
        };
        for _ in 0..4 {
            let a: [i64; N] = core::array::from_fn(|_| next());
            let b: [i64; N] = core::array::from_fn(|_| next() - 1664);
            let mut fa = poly_from(&a);
            let mut fb = poly_from(&b);
            ntt(&mut fa);
            ntt(&mut fb);
            fa.reduce();
            fb.reduce();
            let mut acc = Accumulator::ZERO;
            acc.add_product(&fa, &fb, &MulCache::new(&fb));
            let mut c = Poly::ZERO;
            acc.reduce_into(&mut c);
            inv_ntt_mont(&mut c);
            let want = schoolbook(&a, &b);
            for (x, w) in c.c.iter().zip(&want) {
                assert!(i32::from(*x).abs() < Q32);
                assert_eq!(modq(i64::from(*x)), *w);
            }
        }
    }

    #[test]
    fn ntt_then_inverse_is_identity_up_to_mont() {
        let a: [i64; N] = core::array::from_fn(|i| i64::try_from(i * 13 % 3329).unwrap_or(0));
        let mut f = poly_from(&a);
        ntt(&mut f);
        f.reduce();
        inv_ntt_mont(&mut f);
        for (x, w) in f.c.iter().zip(&a) {
            // inv_ntt_mont multiplies by 2^16 on top of the inverse.
            assert_eq!(modq(i64::from(*x)), modq(*w * 65536));
        }
    }

    /// `add_chunk` block by block (AVX2 when detected, else portable) equals
    /// the whole portable product on any `i16` input: block `blk` addresses
    /// coefficients `16·blk..16·blk + 16` on both paths, and the one pair sum
    /// that overflows an `i32`, (−2^15)·(−2^15) + (−2^15)·(−2^15), wraps on
    /// both as `vpmaddwd` does (iteration 0).
    #[test]
    fn add_chunk_matches_portable() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as i16
        };
        for iter in 0..200 {
            let mut f = Poly::ZERO;
            let mut m = Multiplicand {
                f: Poly::ZERO,
                cache: MulCache { c: [0; HALF_N] },
            };
            if iter == 0 {
                f.c = [i16::MIN; N];
                m.f.c = [i16::MIN; N];
                m.cache.c = [i16::MIN; HALF_N];
            } else {
                f.c = core::array::from_fn(|_| next());
                m.f.c = core::array::from_fn(|_| next());
                m.cache.c = core::array::from_fn(|_| next());
            }
            let mut by_chunk = Accumulator::ZERO;
            for (blk, chunk) in f.c.as_chunks::<16>().0.iter().enumerate() {
                by_chunk.add_chunk(blk, chunk, &m);
            }
            let mut whole = Accumulator::ZERO;
            whole.add_product_portable(&f, &m.f, &m.cache);
            assert_eq!(by_chunk.c, whole.c, "iteration {iter}");
        }
    }

    /// The dispatching `ntt` / `inv_ntt_mont` (AVX2 when detected) equal
    /// their portable twins on any `i16` input (both wrap identically).
    #[test]
    fn dispatch_matches_portable_twins() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for iter in 0..200 {
            let mut a = Poly::ZERO;
            a.c = core::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as i16
            });
            let (mut x, mut y) = (a, a);
            ntt(&mut x);
            ntt_portable(&mut y);
            assert_eq!(x.c, y.c, "ntt, iteration {iter}");
            let (mut x, mut y) = (a, a);
            inv_ntt_mont(&mut x);
            inv_ntt_mont_portable(&mut y);
            assert_eq!(x.c, y.c, "inv_ntt_mont, iteration {iter}");
        }
    }
}
