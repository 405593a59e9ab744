//! The per-block steps of the transforms (the parent module's four-step
//! decomposition 1024 = 64 x 16, whose first 32 registers are the 512-point
//! parts' transform) on one block of 16 registers held in registers:
//! forward, the last four layers of the 64-point transform across
//! registers (the 16-point transform with root η = ζ^4 on the block's
//! registers), the twist by ω^(n2 k1), the 16 x 16 transpose and the
//! 16-point decimation-in-frequency transform across lanes, in one pass
//! over the block; inverse, the same steps backwards. The butterflies are
//! radix-4 decimation-in-frequency / decimation-in-time ones, the trip
//! counts fixed at 16 so that every index is a constant, and without
//! memory round trips between the steps. Lazy: the primes 7681 and 10753
//! are small enough that the second layer of each radix-4 pass runs
//! without reductions (the bounds at each macro, tested at the bounds in
//! `tests.rs`).
//!
//! Every index depends on the block position only: no secret-dependent
//! branch or address.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_mullo_epi16, _mm256_permute2x128_si256, _mm256_set1_epi16,
    _mm256_sub_epi16, _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi16, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

use super::{K, LaneMuls, Mul, Prime, load, montmul, squeeze, store};

/// One block: 16 registers of 16 lanes.
pub(super) type Regs = [__m256i; 16];

/// A broadcast multiplier and its companion.
#[target_feature(enable = "avx2")]
#[inline]
fn bc([w, wq]: Mul) -> (__m256i, __m256i) {
    (_mm256_set1_epi16(w), _mm256_set1_epi16(wq))
}

/// Transposes the 16 x 16 matrix of i16 held in 16 registers.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn transpose(x: &mut Regs) {
    // Per 128-bit half, an 8 x 8 transpose of rows 0..8 and of rows 8..16.
    let mut v = [[x[0]; 8]; 2];
    for (h, vh) in v.iter_mut().enumerate() {
        let r: [__m256i; 8] = core::array::from_fn(|i| x[8 * h + i]);
        let s: [__m256i; 8] = core::array::from_fn(|i| {
            if i & 1 == 0 {
                _mm256_unpacklo_epi16(r[i], r[i + 1])
            } else {
                _mm256_unpackhi_epi16(r[i - 1], r[i])
            }
        });
        // u[0..4]: rows 0-3 columns (0,1), (2,3), (4,5), (6,7); u[4..8] rows 4-7.
        let u = [
            _mm256_unpacklo_epi32(s[0], s[2]),
            _mm256_unpackhi_epi32(s[0], s[2]),
            _mm256_unpacklo_epi32(s[1], s[3]),
            _mm256_unpackhi_epi32(s[1], s[3]),
            _mm256_unpacklo_epi32(s[4], s[6]),
            _mm256_unpackhi_epi32(s[4], s[6]),
            _mm256_unpacklo_epi32(s[5], s[7]),
            _mm256_unpackhi_epi32(s[5], s[7]),
        ];
        for c in 0..4 {
            vh[2 * c] = _mm256_unpacklo_epi64(u[c], u[c + 4]);
            vh[2 * c + 1] = _mm256_unpackhi_epi64(u[c], u[c + 4]);
        }
    }
    // v[0][c]: column c of rows 0..8 (low half), column c + 8 (high half).
    for c in 0..8 {
        x[c] = _mm256_permute2x128_si256::<0x20>(v[0][c], v[1][c]);
        x[c + 8] = _mm256_permute2x128_si256::<0x31>(v[0][c], v[1][c]);
    }
}

/// One radix-4 decimation-in-frequency butterfly on registers `i0..i3` of
/// `x` (distances d and d/2), roots `w0`, `w1`, `v` (a macro, so that every
/// register index is a constant where it is used), lazy: the second
/// layer's sums unreduced. Inputs below 2^14, outputs below 2 max(S, 3p/4)
/// (S the [`squeeze`] bound, 5629 / 5800): 11522 / 16130 < 2^14 (the first
/// layer's sums are below 2^15, the second's of two squeezed values or two
/// Montgomery products). `sq1`: whether the first layer's sums are
/// squeezed; unsqueezed (on Montgomery products below M, the twist's: 5761
/// / 8065, see [`Inputs`]) they are below 2M, the second layer's sum of
/// them (below 4M = 23044 / 32260 < 2^15) is squeezed (to S) and the sum of
/// the two products is not (below 2M = 11522 / 16130 < 2^14): the same
/// output bound, one squeeze instead of two.
macro_rules! dif4 {
    ($x:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal], [$w0:expr, $w1:expr, $v:expr], $k:ident, $sq1:expr) => {{
        let (w0, w1, v) = (bc($w0), bc($w1), bc($v));
        let (a0, a1, a2, a3) = ($x[$i0], $x[$i1], $x[$i2], $x[$i3]);
        let sq1 = |v: __m256i| if $sq1 { squeeze(v, $k) } else { v };
        let b0 = sq1(_mm256_add_epi16(a0, a2));
        let b2 = montmul(_mm256_sub_epi16(a0, a2), w0.0, w0.1, $k.p);
        let b1 = sq1(_mm256_add_epi16(a1, a3));
        let b3 = montmul(_mm256_sub_epi16(a1, a3), w1.0, w1.1, $k.p);
        let s01 = _mm256_add_epi16(b0, b1);
        $x[$i0] = if $sq1 { s01 } else { squeeze(s01, $k) };
        $x[$i1] = montmul(_mm256_sub_epi16(b0, b1), v.0, v.1, $k.p);
        $x[$i2] = _mm256_add_epi16(b2, b3);
        $x[$i3] = montmul(_mm256_sub_epi16(b2, b3), v.0, v.1, $k.p);
    }};
}

/// [`dif4`] with the roots `w0 = v = 1` (η^0): the three products by 1 are
/// left out, the first layer's differences reduced by [`squeeze`] instead;
/// the second layer's sums and differences unreduced (`b0`, `b1`, `b2` are
/// squeezed, <= S, and `b3` a Montgomery product, < 3p/4, so every output
/// is below 2 max(S, 3p/4): 11522 for 7681, 16130 for 10753). Inputs below
/// 2^14.
macro_rules! dif4_unit {
    ($x:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal], $w1:expr, $k:ident) => {{
        let w1 = bc($w1);
        let (a0, a1, a2, a3) = ($x[$i0], $x[$i1], $x[$i2], $x[$i3]);
        let b0 = squeeze(_mm256_add_epi16(a0, a2), $k);
        let b2 = squeeze(_mm256_sub_epi16(a0, a2), $k);
        let b1 = squeeze(_mm256_add_epi16(a1, a3), $k);
        let b3 = montmul(_mm256_sub_epi16(a1, a3), w1.0, w1.1, $k.p);
        $x[$i0] = _mm256_add_epi16(b0, b1);
        $x[$i1] = _mm256_sub_epi16(b0, b1);
        $x[$i2] = _mm256_add_epi16(b2, b3);
        $x[$i3] = _mm256_sub_epi16(b2, b3);
    }};
}

/// [`dit4`] with the roots `v = w0 = 1`: `one01` / `one23` are the first
/// layer's two-point butterflies by 1 on registers (i0, i1) / (i2, i3) (both
/// inputs squeezed, no product; or unreduced, `dit16_inv`'s [`Inputs`]);
/// `bf2` / `one2` the second layer's.
macro_rules! dit4_unit {
    ($x:ident, $one01:ident, $one23:ident, $bf2:ident, $one2:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal], $w1:expr) => {{
        let w1 = bc($w1);
        let (b0, b1) = $one01($x[$i0], $x[$i1]);
        let (b2, b3) = $one23($x[$i2], $x[$i3]);
        let (c0, c2) = $one2(b0, b2);
        let (c1, c3) = $bf2(b1, b3, w1);
        ($x[$i0], $x[$i1], $x[$i2], $x[$i3]) = (c0, c1, c2, c3);
    }};
}

/// One radix-4 decimation-in-time butterfly on
/// registers `i0..i3` of `x` (distances d and 2d), roots `v`, `w0`, `w1`;
/// `bf` is the two-point butterfly, `bf2` (default `bf`) the second layer's.
macro_rules! dit4 {
    ($x:ident, $bf:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal], [$v:expr, $w0:expr, $w1:expr]) => {
        dit4!($x, $bf, $bf, [$i0, $i1, $i2, $i3], [$v, $w0, $w1])
    };
    ($x:ident, $bf:ident, $bf2:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal], [$v:expr, $w0:expr, $w1:expr]) => {{
        let (v, w0, w1) = (bc($v), bc($w0), bc($w1));
        let (b0, b1) = $bf($x[$i0], $x[$i1], v);
        let (b2, b3) = $bf($x[$i2], $x[$i3], v);
        let (c0, c2) = $bf2(b0, b2, w0);
        let (c1, c3) = $bf2(b1, b3, w1);
        ($x[$i0], $x[$i1], $x[$i2], $x[$i3]) = (c0, c1, c2, c3);
    }};
}

/// Runs `$step!([i0, i1, i2, i3])` on each group of 4 consecutive registers
/// (`i0 = 0, 4, 8, 12`): the radix-4 passes at distances (2, 1) / (1, 2)
/// and the steps fused with them, one group at a time (shorter live ranges
/// than pass after pass: fewer spills of the block's 16 registers).
macro_rules! each_group {
    ($step:ident) => {
        $step!([0, 1, 2, 3]);
        $step!([4, 5, 6, 7]);
        $step!([8, 9, 10, 11]);
        $step!([12, 13, 14, 15]);
    };
}

/// The 16-point decimation-in-frequency transform across 16 registers
/// (`t[k]` = η^k, k < 8), its first pass: the radix-4 pass at distances
/// (8, 4), roots `t[i]`, `t[i + 4]`, `t[2 i]` for registers `i, i + 4, i +
/// 8, i + 12`; the callers run the pass at (2, 1), [`dif16_last`], on each
/// group of 4 registers ([`each_group`]). The products by `t[0]` = 1 left
/// out ([`dif4_unit`]), lazy (inputs below 2^14, every output below 11522 /
/// 16130, see [`dif4`]). `mont` (the transform across the lanes, on the
/// twist's Montgomery products): the [`dif4`]s with one squeeze (`sq1 =
/// false`), the same output bounds. A macro, so that it is inlined where it
/// runs twice (as a function LLVM kept it a call, the block passed through
/// memory).
macro_rules! dif16_first {
    ($x:ident, $t:expr, $k:ident, $mont:expr) => {{
        let (x, t, k): (&mut Regs, &[Mul; 8], K) = (&mut $x, $t, $k);
        let sq1 = !$mont;
        dif4_unit!(x, [0, 4, 8, 12], t[4], k);
        dif4!(x, [1, 5, 9, 13], [t[1], t[5], t[2]], k, sq1);
        dif4!(x, [2, 6, 10, 14], [t[2], t[6], t[4]], k, sq1);
        dif4!(x, [3, 7, 11, 15], [t[3], t[7], t[6]], k, sq1);
    }};
}

/// The second pass of the 16-point transform ([`dif16_first`]) on one group
/// of 4 registers: roots `t[0]`, `t[4]`, `t[0]`, outputs unreduced (below
/// 2^15, for a Montgomery or pointwise product only).
macro_rules! dif16_last {
    ($x:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal], $t:expr, $k:ident) => {
        dif4_unit!($x, [$i0, $i1, $i2, $i3], $t[4], $k)
    };
}

/// The two-point butterflies of the inverse passes (`dit16_inv`), as
/// `(bf, one, bf2, one2)`: `bf` `(s, t) -> (s + t w, s - t w)` with `s`
/// squeezed, `one` the butterfly by 1 with both inputs squeezed; `bf2`,
/// `one2` the second layer's, lazy: without the squeezes.
macro_rules! inv_butterflies {
    ($k:ident) => {{
        let k: K = $k;
        let bf = move |x: __m256i, y: __m256i, (w, wq): (__m256i, __m256i)| {
            let a = squeeze(x, k);
            let t = montmul(y, w, wq, k.p);
            (_mm256_add_epi16(a, t), _mm256_sub_epi16(a, t))
        };
        let one = move |x: __m256i, y: __m256i| {
            let (a, t) = (squeeze(x, k), squeeze(y, k));
            (_mm256_add_epi16(a, t), _mm256_sub_epi16(a, t))
        };
        let bf2 = move |a: __m256i, y: __m256i, (w, wq): (__m256i, __m256i)| {
            let t = montmul(y, w, wq, k.p);
            (_mm256_add_epi16(a, t), _mm256_sub_epi16(a, t))
        };
        let one2 = move |a: __m256i, t: __m256i| (_mm256_add_epi16(a, t), _mm256_sub_epi16(a, t));
        (bf, one, bf2, one2)
    }};
}

/// What bounds the inputs of an inverse 16-point transform ([`dit16_inv`]),
/// and so which of its first layer's butterflies by 1 (`one`, on registers
/// (i0, i1) and (i2, i3) of each group of 4) need their inputs squeezed.
/// The first layer's outputs only have to stay in 16 bits: the second
/// radix-4 pass squeezes each butterfly's first input (or both, by 1) and
/// takes any i16. With M the Montgomery product's bound (|mulhi(a, w)| <=
/// 2^15 (p - 1) / 2^17 plus |mulhi(lo, p)| <= p/2 + 1/2: M = 5761 for
/// 7681, 8065 for 10753) and S the [`squeeze`] bound:
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Inputs {
    /// Any i16: both butterflies by 1 squeeze their inputs (outputs below 2S).
    Any,
    /// Pointwise products `x y 2^-16` of two lazy forward transforms (7681,
    /// 10753: |x|, |y| <= 16130, so |x y 2^-16| <= 3970 + 5377 = 9347):
    /// (i0, i1) unreduced (sums below 18694), (i2, i3) squeezed (below 2S =
    /// 11600); the lazy second layer's outputs below 18694 + max(11600, M)
    /// = 30294 < 2^15.
    Pointwise,
    /// Montgomery products (the untwist's, below M): both unreduced (sums
    /// below 2M), the lazy second layer's outputs below 4M = 32260 (10753;
    /// 23044 for 7681) < 2^15.
    Montgomery,
}

/// The inverse of the 16-point transform ([`dif16_first`]) up to the factor 16 (`t` the inverse roots): the
/// radix-4 pass at distances (1, 2), roots `t[0]`, `t[0]`, `t[4]` on each
/// group of 4 registers, then the pass at (4, 8), roots `t[2 i]`, `t[i]`,
/// `t[i + 4]` for registers `i, i + 4, i + 8, i + 12`; a [`squeeze`] on
/// each first-layer butterfly's first input, and on both inputs of a
/// first-layer butterfly by `t[0]` = 1 instead of its product
/// ([`dit4_unit`]), except on the inputs that `inputs` ([`Inputs`])
/// bounds; lazy: the second layer of each radix-4 pass without squeezes
/// (any i16 inputs; outputs below max(4S, S + 2 (3p/4), 2S + 3p/4) with S
/// the [`squeeze`] bound: 22516 for 7681, 23200 for 10753, < 2^15). The
/// first pass ([`dit16_inv_first`]) and the second ([`dit16_inv_second`])
/// are macros of their own for the steps fused with them in
/// [`block_product`]. A macro, as [`dif16_first`].
#[cfg(test)]
macro_rules! dit16_inv {
    ($x:ident, $t:expr, $k:ident, $inputs:expr) => {{
        let (x, t, k): (&mut Regs, &[Mul; 8], K) = (&mut $x, $t, $k);
        let (bf, one, bf2, one2, one01, one23) = inv_first!(k, $inputs);
        macro_rules! first {
            ($i:tt) => {
                dit16_inv_first!(x, $i, t, (one01, one23, bf2, one2))
            };
        }
        each_group!(first);
        dit16_inv_second!(x, t, (bf, one, bf2, one2));
    }};
}

/// The first pass of [`dit16_inv`] on one group of 4 registers: roots
/// `t[0]`, `t[0]`, `t[4]`, the butterflies of [`inv_first`].
macro_rules! dit16_inv_first {
    ($x:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal], $t:expr, ($one01:ident, $one23:ident, $bf2:ident, $one2:ident)) => {
        dit4_unit!($x, $one01, $one23, $bf2, $one2, [$i0, $i1, $i2, $i3], $t[4])
    };
}

/// [`inv_butterflies`] and the first layer's butterflies by 1 on registers
/// (i0, i1) and (i2, i3) of each group for inputs bounded by `inputs`
/// ([`Inputs`]): `(bf, one, bf2, one2, one01, one23)`.
macro_rules! inv_first {
    ($k:ident, $inputs:expr) => {{
        let (bf, one, bf2, one2) = inv_butterflies!($k);
        let inputs: Inputs = $inputs;
        let first = move |a: __m256i, b: __m256i, reduce: bool| {
            if reduce {
                one(a, b)
            } else {
                (_mm256_add_epi16(a, b), _mm256_sub_epi16(a, b))
            }
        };
        let one01 = move |a, b| first(a, b, inputs == Inputs::Any);
        let one23 = move |a, b| first(a, b, inputs != Inputs::Montgomery);
        (bf, one, bf2, one2, one01, one23)
    }};
}

/// The second radix-4 pass of [`dit16_inv`] (distances 4, 8) on `x` (`&mut
/// Regs`). With `then`, `then!(x, [i0, i1, i2, i3])` runs after each
/// butterfly on its 4 finished registers ([`block_product`]'s stores: each
/// output leaves the registers as soon as it is final, instead of all 16
/// live, and spilled, until a store loop after the pass).
macro_rules! dit16_inv_second {
    ($x:expr, $t:ident, $bfs:tt) => {{
        macro_rules! keep {
            ($r:ident, $g:tt) => {};
        }
        dit16_inv_second!($x, $t, $bfs, keep)
    }};
    ($x:expr, $t:ident, ($bf:ident, $one:ident, $bf2:ident, $one2:ident), $then:ident) => {{
        let (x, t): (&mut Regs, &[Mul; 8]) = ($x, $t);
        let (bf, one, bf2, one2) = ($bf, $one, $bf2, $one2);
        dit4_unit!(x, one, one, bf2, one2, [0, 4, 8, 12], t[4]);
        $then!(x, [0, 4, 8, 12]);
        dit4!(x, bf, bf2, [1, 5, 9, 13], [t[2], t[1], t[5]]);
        $then!(x, [1, 5, 9, 13]);
        dit4!(x, bf, bf2, [2, 6, 10, 14], [t[4], t[2], t[6]]);
        $then!(x, [2, 6, 10, 14]);
        dit4!(x, bf, bf2, [3, 7, 11, 15], [t[6], t[3], t[7]]);
        $then!(x, [3, 7, 11, 15]);
    }};
}

/// `t`, through an opaque pointer: for a transform's second use of the roots
/// in a block, so that they are broadcast again where they are used (LLVM
/// cannot reuse the first use's loads) instead of kept since, spilled among
/// the block's 16 registers (a store and reloads per root and companion).
#[inline]
fn again(t: &[Mul; 8]) -> &[Mul; 8] {
    core::hint::black_box(t)
}

/// The multipliers of block `j` (registers `16 j ..`): values and companions.
fn block_muls(m: &LaneMuls, j: usize) -> (&[[i16; 16]; 16], &[[i16; 16]; 16]) {
    let r = 16 * j..16 * j + 16;
    (
        m[0][r.clone()].try_into().expect("16 registers"),
        m[1][r].try_into().expect("16 registers"),
    )
}

/// The first forward steps of block `j` on the registers `x`: the 16-point
/// transform across them and the twist by `m`, its second pass and the
/// twist one group of 4 registers at a time (lazy, as [`dif16_first`]).
/// The transpose and the 16-point transform across the lanes follow. A
/// macro, as [`dif16_first`].
macro_rules! rows_twist {
    ($x:ident, $j:expr, ($m:expr, $tw:expr), $k:ident) => {{
        // The block's multipliers as fixed-size arrays: one bounds check, and
        // the loop is unrolled (with per-register checks LLVM kept it a loop).
        let (w, wq) = block_muls($m, $j);
        dif16_first!($x, $tw, $k, false);
        let (x, t, k): (&mut Regs, &[Mul; 8], K) = (&mut $x, $tw, $k);
        macro_rules! last_twist {
            ([$i0:literal, $i1:literal, $i2:literal, $i3:literal]) => {{
                dif16_last!(x, [$i0, $i1, $i2, $i3], t, k);
                for i in [$i0, $i1, $i2, $i3] {
                    x[i] = montmul(x[i], load(&w[i]), load(&wq[i]), k.p);
                }
            }};
        }
        each_group!(last_twist);
    }};
}

/// The transpose and the 16-point transform across the lanes of the
/// registers `x` into `block` (lazy, as [`dif16_first`]), its second
/// pass and the stores one group at a time.
macro_rules! lanes_store {
    ($x:ident, $block:ident, $tw:ident, $k:ident) => {{
        transpose(&mut $x);
        dif16_first!($x, $tw, $k, true);
        macro_rules! last_store {
            ([$i0:literal, $i1:literal, $i2:literal, $i3:literal]) => {{
                dif16_last!($x, [$i0, $i1, $i2, $i3], $tw, $k);
                for i in [$i0, $i1, $i2, $i3] {
                    store(&mut $block[i], $x[i]);
                }
            }};
        }
        each_group!(last_store);
    }};
}

/// Forward steps of block `j` (registers `16 j .. 16 j + 16` of the
/// polynomial, `block`): the 16-point transform across the registers
/// (layers d = 8 .. 1 of the 64-point one), twist by `m`, transpose,
/// 16-point transform across the lanes, in one pass over the block in
/// registers (one load and one store per register). Lazy (7681 / 10753:
/// inputs below 2^14): the first radix-4 pass of each 16-point transform
/// unreduced in its second layer ([`dif16_first`]; outputs below 2^15, for
/// the pointwise product). `k` by reference: taken by value, it was
/// copied (64 bytes) before each call in some builds.
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(super) fn block_forward(
    block: &mut [[i16; 16]; 16],
    j: usize,
    m: &LaneMuls,
    tw: &[Mul; 8],
    k: &K,
) {
    let k = *k;
    let mut x: Regs = core::array::from_fn(|i| load(&block[i]));
    rows_twist!(x, j, (m, tw), k);
    let tw = again(tw);
    lanes_store!(x, block, tw, k);
}

/// Inverse steps of block `j` on their own (the products run them inside
/// [`block_product`]; the tests' inverse of [`block_forward`]): 16-point
/// inverse transform across the lanes, transpose, untwist by `m`, 16-point
/// inverse transform across the registers (layers d = 1 .. 8 of the inverse
/// 64-point one), lazy: the second layer of each radix-4 pass unreduced
/// (`dit16_inv`; any i16 inputs, outputs below 23200).
#[cfg(test)]
#[target_feature(enable = "avx2")]
pub(super) fn block_inverse(
    block: &mut [[i16; 16]; 16],
    j: usize,
    m: &LaneMuls,
    tw: &[Mul; 8],
    k: K,
) {
    let mut x: Regs = core::array::from_fn(|i| load(&block[i]));
    dit16_inv!(x, tw, k, Inputs::Any);
    transpose(&mut x);
    let (w, wq) = block_muls(m, j);
    for (i, r) in x.iter_mut().enumerate() {
        *r = montmul(*r, load(&w[i]), load(&wq[i]), k.p);
    }
    dit16_inv!(x, tw, k, Inputs::Montgomery);
    for (i, r) in block.iter_mut().enumerate() {
        store(r, x[i]);
    }
}

/// Block `j` of a part's product for the lazy 512-point transforms (7681,
/// 10753) in one pass, without stores and loads between the steps: with
/// `FWD` the forward steps of [`block_forward`] on `block` (inputs below
/// 2^14, outputs below 2^15), else `block` holds its transform; the
/// pointwise product `x y 2^-16` by `y` (block j of the other factor's
/// transform: a Montgomery product by `y` and its companion `y p^-1`); the
/// inverse steps of [`block_inverse`] (outputs below 23200), in registers
/// until the block's one store. `y` (and `block`
/// without `FWD`) must be outputs of the lazy forward steps (|.| <= 16130,
/// [`dif4_unit`]): the pointwise products, below 9347, go into the inverse
/// 16-point transform with [`Inputs::Pointwise`]. With `low` (block 0 of
/// the part, this the second block): each output register i goes through
/// [`dit_last_pair`] with register i of `low` on its way out (the 512-point
/// inverse's last layer without a pass of its own: no reload of this
/// block).
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(super) fn block_product<const FWD: bool>(
    block: &mut [[i16; 16]; 16],
    y: &[[i16; 16]; 16],
    (j, low): (usize, Option<&mut [[i16; 16]; 16]>),
    t: &Prime,
    k: K,
) {
    let mut x: Regs = core::array::from_fn(|i| load(&block[i]));
    let (mut tf, ti) = (&t.lane_fwd, &t.lane_inv);
    if FWD {
        rows_twist!(x, j, (&t.twist, tf), k);
        transpose(&mut x);
        tf = again(tf);
        dif16_first!(x, tf, k, true);
    }
    // Per group of 4 registers: the forward's last pass, the pointwise
    // product and the inverse's first pass across the lanes.
    let pinv = _mm256_set1_epi16(k.pinv);
    let (bf, one, bf2, one2, one01, one23) = inv_first!(k, Inputs::Pointwise);
    macro_rules! last_pointwise_first {
        ([$i0:literal, $i1:literal, $i2:literal, $i3:literal]) => {{
            if FWD {
                dif16_last!(x, [$i0, $i1, $i2, $i3], tf, k);
            }
            for i in [$i0, $i1, $i2, $i3] {
                let y = load(&y[i]);
                x[i] = montmul(x[i], y, _mm256_mullo_epi16(y, pinv), k.p);
            }
            dit16_inv_first!(x, [$i0, $i1, $i2, $i3], ti, (one01, one23, bf2, one2));
        }};
    }
    each_group!(last_pointwise_first);
    dit16_inv_second!(&mut x, ti, (bf, one, bf2, one2));
    transpose(&mut x);
    // Per group: the untwist and the inverse's first pass across the registers.
    let (w, wq) = block_muls(&t.untwist, j);
    let (_, _, _, _, one01, one23) = inv_first!(k, Inputs::Montgomery);
    let ti = again(ti);
    macro_rules! untwist_first {
        ([$i0:literal, $i1:literal, $i2:literal, $i3:literal]) => {{
            for i in [$i0, $i1, $i2, $i3] {
                x[i] = montmul(x[i], load(&w[i]), load(&wq[i]), k.p);
            }
            dit16_inv_first!(x, [$i0, $i1, $i2, $i3], ti, (one01, one23, bf2, one2));
        }};
    }
    each_group!(untwist_first);
    macro_rules! store_group {
        ($r:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal]) => {
            for i in [$i0, $i1, $i2, $i3] {
                store(&mut block[i], $r[i]);
            }
        };
    }
    // One branch (the block's position), then each path without one a register.
    match low {
        Some(lo) => {
            macro_rules! last_group {
                ($r:ident, [$i0:literal, $i1:literal, $i2:literal, $i3:literal]) => {
                    for i in [$i0, $i1, $i2, $i3] {
                        dit_last_pair((&mut lo[i], &mut block[i]), $r[i], i, t, k);
                    }
                };
            }
            dit16_inv_second!(&mut x, ti, (bf, one, bf2, one2), last_group);
        }
        None => dit16_inv_second!(&mut x, ti, (bf, one, bf2, one2), store_group),
    }
}

/// One butterfly of the last layer of the 512-point inverse (the
/// decimation-in-time layer at distance 16, the inverse of the forward's
/// first layer, root `reg_inv[2 i]`): `lo` (register i) and `hi` (register
/// i + 16, whose value is `b`) become `lo + w b`, `lo - w b`. Lazy (7681,
/// 10753): the inputs the lazy block steps' outputs (below 23200), the
/// outputs below 23200 + 8065 < 2^15.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn dit_last_pair(
    (lo, hi): (&mut [i16; 16], &mut [i16; 16]),
    b: __m256i,
    i: usize,
    t: &Prime,
    k: K,
) {
    let (w, wq) = bc(t.reg_inv[2 * i]);
    let a = load(lo);
    let b = montmul(b, w, wq, k.p);
    store(lo, _mm256_add_epi16(a, b));
    store(hi, _mm256_sub_epi16(a, b));
}

#[cfg(test)]
pub(super) mod tests;
