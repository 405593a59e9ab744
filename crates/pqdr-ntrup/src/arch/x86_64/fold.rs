//! The last step of the R/q and R/3 products (the products of Core
//! `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime spec §2.3): the full product
//! `c` (degree <= 2p - 2, `c[2p - 1] = 0`) folded with x^p = x + 1,
//! `a_k = c_k + c_(p+k) + c_(p+k-1)` (the last term from k = 1 on), each
//! coefficient frozen to its centred representative. Twins: the portable
//! loops of `mult::rq_mult_small_on` (`folded` and `Fq::freeze`) and
//! `mult::r3_mult_on` (`folded` and `f3_freeze`), compared in
//! `mult::tests::avx2_products_match_portable`.
//!
//! 16 coefficients per register; the last block starts at p - 16 and
//! overlaps the one before (it writes the same values again). R/q: each
//! term is brought into `|x| <= q/2 + q/2^9` by a rounding Barrett step (any
//! i16 input), the sum (below 1.5 q + 3 q/2^9 < 2^15) once more, then one
//! conditional subtraction and addition of q give the exact centred value.
//! R/3: the terms are exact integers (`|c_k| <= p`), their sum `|s| <= 3p`,
//! and `s - 3 round(s / 3)` with `round(s / 3)` as `mulhrs(s, 10923)` (off by
//! at most `|s| / 98304 < 1/6` from `s / 3`, never across a rounding
//! boundary) is exact. Every index depends on p only.
//!
//! Also coefficient-wise on centred values (`|x| <= (q - 1)/2`), 16 per
//! register: `Round` (Core `Encrypt`) and `R3_fromRq(Rq_mult3(c))` (Core
//! `Decrypt`, NTRU Prime spec §2.3.4), twins of `mult::round` and
//! `mult::r3_from_3rq`, compared over every centred value in
//! `mult::tests::avx2_coefficient_maps_match_portable`.

use core::arch::x86_64::{
    __m256i, _mm_storeu_si128, _mm256_add_epi16, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_castsi256_si128, _mm256_cmpgt_epi16, _mm256_mulhrs_epi16, _mm256_mullo_epi16,
    _mm256_or_si256, _mm256_packs_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi16,
    _mm256_setr_epi16, _mm256_sub_epi16,
};

use super::{load, mulhi, store};
use pqdr_common::simd::Avx2;

/// `x - q round(x / q)` with `|result| <= q/2 + q/2^9` for any i16 `x`
/// (`v = round(2^26 / q)`).
#[target_feature(enable = "avx2")]
#[inline]
fn barrett(x: __m256i, q: __m256i, v: __m256i) -> __m256i {
    let t = mulhi(x, v);
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 5));
    _mm256_sub_epi16(x, _mm256_mullo_epi16(t, q))
}

/// The three terms of output block `k` (`k + 16 <= p`): `c[k..]`,
/// `c[p + k..]`, `c[p + k - 1..]` (its lane 0 zero for k = 0).
#[target_feature(enable = "avx2")]
#[inline]
fn terms<const P: usize>(full: &[i16], k: usize) -> [__m256i; 3] {
    let at = |i: usize| -> &[i16; 16] {
        let w: &[i16; 16] = full[i..i + 16].try_into().unwrap_or(&[0; 16]);
        w
    };
    let x2 = if k == 0 {
        // c[p - 1] is not a term of a_0.
        let keep = _mm256_setr_epi16(
            0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        );
        _mm256_and_si256(load(at(P - 1)), keep)
    } else {
        load(at(P + k - 1))
    };
    [load(at(k)), load(at(P + k)), x2]
}

/// The block starts 0, 16, ... and p - 16 (p >= 16).
fn starts<const P: usize>() -> impl Iterator<Item = usize> {
    (0..P - 16).step_by(16).chain(core::iter::once(P - 16))
}

#[target_feature(enable = "avx2")]
fn fold_q_avx2<const P: usize, const Q: i16>(a: &mut [i16; P], full: &[i16]) {
    #[allow(
        clippy::integer_division_remainder_used,
        clippy::cast_possible_truncation,
        reason = "compile-time constants of the public q"
    )]
    let (q, v) = (
        _mm256_set1_epi16(Q),
        _mm256_set1_epi16(const { (((1i32 << 26) + Q as i32 / 2) / Q as i32) as i16 }),
    );
    for k in starts::<P>() {
        let [x0, x1, x2] = terms::<P>(full, k);
        let s = _mm256_add_epi16(
            _mm256_add_epi16(barrett(x0, q, v), barrett(x1, q, v)),
            barrett(x2, q, v),
        );
        if let Ok(o) = <&mut [i16; 16]>::try_from(&mut a[k..k + 16]) {
            store(o, freeze_q::<Q>(s));
        }
    }
}

#[target_feature(enable = "avx2")]
fn fold_3_avx2<const P: usize>(h: &mut [i8; P], full: &[i16]) {
    let (three, third) = (_mm256_set1_epi16(3), _mm256_set1_epi16(10923));
    for k in starts::<P>() {
        let [x0, x1, x2] = terms::<P>(full, k);
        let s = _mm256_add_epi16(_mm256_add_epi16(x0, x1), x2);
        let r = _mm256_sub_epi16(s, _mm256_mullo_epi16(_mm256_mulhrs_epi16(s, third), three));
        // 16 bytes: pack (per 128-bit half), then the two low quadwords together.
        let b = _mm256_permute4x64_epi64::<0b1000>(_mm256_packs_epi16(r, r));
        let o = &mut h[k..k + 16];
        // SAFETY: `o` is 16 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), _mm256_castsi256_si128(b)) }
    }
}

/// `x - 3 round(x / 3)` (`F3_freeze`, exact for `|x| < 16384`).
#[target_feature(enable = "avx2")]
#[inline]
fn f3(x: __m256i) -> __m256i {
    let t = _mm256_mulhrs_epi16(x, _mm256_set1_epi16(10923));
    _mm256_sub_epi16(x, _mm256_mullo_epi16(t, _mm256_set1_epi16(3)))
}

/// The exact centred representative of `x mod q` for `|x| < 2^15`: a
/// rounding Barrett step, then one conditional subtraction and addition.
#[target_feature(enable = "avx2")]
#[inline]
fn freeze_q<const Q: i16>(x: __m256i) -> __m256i {
    #[allow(
        clippy::integer_division_remainder_used,
        clippy::cast_possible_truncation,
        reason = "compile-time constants of the public q"
    )]
    let (q, v, q12) = (
        _mm256_set1_epi16(Q),
        _mm256_set1_epi16(const { (((1i32 << 26) + Q as i32 / 2) / Q as i32) as i16 }),
        _mm256_set1_epi16((Q - 1) >> 1),
    );
    let r = barrett(x, q, v);
    let r = _mm256_sub_epi16(r, _mm256_and_si256(_mm256_cmpgt_epi16(r, q12), q));
    let neg_q12 = _mm256_sub_epi16(_mm256_set1_epi16(0), q12);
    _mm256_add_epi16(r, _mm256_and_si256(_mm256_cmpgt_epi16(neg_q12, r), q))
}

/// Applies the coefficient-wise map `f` to every coefficient of `c`, 16 at
/// a time; the last `p mod 16` through the block at p - 16, whose other
/// lanes (mapped already) are kept by a blend.
#[target_feature(enable = "avx2")]
#[inline]
fn map_blocks<const P: usize>(c: &mut [i16; P], f: impl Fn(__m256i) -> __m256i) {
    let (blocks, _) = c.as_chunks_mut::<16>();
    for b in blocks.iter_mut() {
        store(b, f(load(b)));
    }
    let tail = P & 15;
    if tail > 0 {
        // The last 16 coefficients, of which the first 16 - tail are mapped
        // already: map only the tail lanes (blend by a lane mask).
        if let Ok(b) = <&mut [i16; 16]>::try_from(&mut c[P - 16..]) {
            let x = load(b);
            let lane: [i16; 16] = core::array::from_fn(|i| if i >= 16 - tail { -1 } else { 0 });
            let m = load(&lane);
            let y = f(x);
            store(
                b,
                _mm256_or_si256(_mm256_and_si256(m, y), _mm256_andnot_si256(m, x)),
            );
        }
    }
}

#[target_feature(enable = "avx2")]
fn round_avx2<const P: usize>(c: &mut [i16; P]) {
    map_blocks(c, |x| _mm256_sub_epi16(x, f3(x)));
}

#[target_feature(enable = "avx2")]
fn r3_from_3rq_avx2<const P: usize, const Q: i16>(c: &mut [i16; P]) {
    map_blocks(c, |x| {
        let three_x = _mm256_add_epi16(_mm256_add_epi16(x, x), x);
        f3(freeze_q::<Q>(three_x))
    });
}

/// `Round` on centred coefficients (`|c_k| <= (q - 1)/2`): each to the
/// nearest multiple of 3. Twin of `mult::round`.
pub(crate) fn round<const P: usize>(token: Avx2, c: &mut [i16; P]) {
    let _ = token;
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { round_avx2::<P>(c) }
}

/// `R3_fromRq(Rq_mult3(c))` on centred coefficients: `F3_freeze(freeze_q(3 c_k))`.
/// Twin of `mult::r3_from_3rq`.
pub(crate) fn r3_from_3rq<const P: usize, const Q: i16>(token: Avx2, c: &mut [i16; P]) {
    let _ = token;
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { r3_from_3rq_avx2::<P, Q>(c) }
}

/// `a_k = freeze(c_k + c_(p+k) + c_(p+k-1))` mod q from the full product
/// `full[..2p]` (any i16 values, `full[2p - 1] = 0`). Twin of the fold loop of `mult::rq_mult_small_on`.
pub(crate) fn fold_q<const P: usize, const Q: i16>(token: Avx2, a: &mut [i16; P], full: &[i16]) {
    let _ = token;
    assert!(full.len() >= 2 * P && P >= 16, "fold_q: short product");
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { fold_q_avx2::<P, Q>(a, full) }
}

#[target_feature(enable = "avx2")]
fn freeze_folded_avx2<const P: usize, const Q: i16>(a: &mut [i16; P], folded: &[i16]) {
    let folded = &folded[..P];
    let (blocks, _) = a.as_chunks_mut::<16>();
    for (o, x) in blocks.iter_mut().zip(folded.as_chunks::<16>().0) {
        store(o, freeze_q::<Q>(load(x)));
    }
    // The last p mod 16 through the block ending at p (its other lanes
    // written again with the same values).
    if P & 15 != 0
        && let (Ok(o), Ok(x)) = (
            <&mut [i16; 16]>::try_from(&mut a[P - 16..]),
            <&[i16; 16]>::try_from(&folded[P - 16..]),
        )
    {
        store(o, freeze_q::<Q>(load(x)));
    }
}

/// `a_k = freeze(f_k)` mod q for a product already folded into
/// `folded[..p]` (any i16 values; `ntt3_folds`): [`fold_q`] without the
/// fold, the same as [`fold_q`] on `folded[..p]` followed by p zeros. Twin:
/// `Fq::freeze` on each entry.
pub(crate) fn freeze_folded<const P: usize, const Q: i16>(
    token: Avx2,
    a: &mut [i16; P],
    folded: &[i16],
) {
    let _ = token;
    assert!(folded.len() >= P && P >= 16, "freeze_folded: short product");
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { freeze_folded_avx2::<P, Q>(a, folded) }
}

/// `h_k = F3_freeze(c_k + c_(p+k) + c_(p+k-1))` from the exact integer
/// product `full[..2p]` (`|c_k| <= p`). Twin of the fold loop of `mult::r3_mult_on`.
pub(crate) fn fold_3<const P: usize>(token: Avx2, h: &mut [i8; P], full: &[i16]) {
    let _ = token;
    assert!(full.len() >= 2 * P && P >= 16, "fold_3: short product");
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { fold_3_avx2::<P>(h, full) }
}
