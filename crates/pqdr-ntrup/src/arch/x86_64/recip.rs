//! The division-step reciprocals with AVX2 (Core `KeyGen`'s `1/g` in R/3
//! and `1/(3f)` in R/q, NTRU Prime spec §2.3): twins of `recip::r3_recip`
//! and `recip::rq_recip3`, the same `divsteps!` schedule with 32-lane
//! (R/3, i8) and 16-lane (R/q, i16) blocks instead of 16 and 8. Every
//! coefficient goes through the same operations as in the portable code,
//! so the results are bit-identical. The swap decision stays a mask
//! broadcast into every lane; nothing branches on it.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_mulhi_epi16, _mm256_mullo_epi16, _mm256_set1_epi8, _mm256_set1_epi16,
    _mm256_storeu_si256, _mm256_sub_epi8, _mm256_sub_epi16, _mm256_xor_si256,
};

use super::{load, store};
use crate::arith::Fq;
use crate::ct;
use crate::divsteps::{State, divsteps, r3_lane, r3_sign_masks};
use pqdr_common::simd::Avx2;

/// 8-bit lanes per AVX2 register (R/3 blocks).
const L3: usize = 32;
/// 16-bit lanes per AVX2 register (R/q blocks).
const LQ: usize = 16;

/// The 32 lanes of `x` as one register.
#[target_feature(enable = "avx2")]
#[inline]
fn load8(x: &[i8; L3]) -> __m256i {
    // SAFETY: `x` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
}

/// Stores the 32 lanes of `v` into `x`.
#[target_feature(enable = "avx2")]
#[inline]
fn store8(x: &mut [i8; L3], v: __m256i) {
    // SAFETY: `x` is 32 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
}

/// Twin of `recip::block3` on 32 lanes: conditionally swap `(f, g)` (mask
/// `sm`), then return `g + sign f` frozen into -1..=1 (`sign` as the masks
/// `nz`, `neg`: `(f & nz) ^ neg - neg`).
#[target_feature(enable = "avx2")]
#[inline]
fn block3(f: &mut [i8; L3], g: &[i8; L3], sm: __m256i, nz: __m256i, neg: __m256i) -> [i8; L3] {
    let (fv, gv) = (load8(f), load8(g));
    let t = _mm256_and_si256(sm, _mm256_xor_si256(fv, gv));
    let (a, b) = (_mm256_xor_si256(fv, t), _mm256_xor_si256(gv, t));
    store8(f, a);
    let x = _mm256_add_epi8(
        b,
        _mm256_sub_epi8(_mm256_xor_si256(_mm256_and_si256(a, nz), neg), neg),
    );
    // f3_freeze_small: x - 3 [x > 1] + 3 [x < -1].
    let three = _mm256_set1_epi8(3);
    let hi = _mm256_and_si256(_mm256_cmpgt_epi8(x, _mm256_set1_epi8(1)), three);
    let lo = _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(-1), x), three);
    let mut o = [0i8; L3];
    store8(&mut o, _mm256_add_epi8(_mm256_sub_epi8(x, hi), lo));
    o
}

/// `Fq::mul_shoup` on 16 lanes: `c g - q ((c' g) >> 16)`.
#[target_feature(enable = "avx2")]
#[inline]
fn mul_shoup<const Q: i16>(g: __m256i, c: __m256i, cs: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(cs, g);
    _mm256_sub_epi16(
        _mm256_mullo_epi16(c, g),
        _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)),
    )
}

/// Twin of `recip::block` on 16 lanes: conditionally swap `(f, g)`, then
/// return `f0 g - g0 f` (constants `c = [f0, f0', g0, g0']` broadcast).
#[target_feature(enable = "avx2")]
#[inline]
fn block<const Q: i16>(
    f: &mut [i16; LQ],
    g: &[i16; LQ],
    sm: __m256i,
    c: &[__m256i; 4],
) -> [i16; LQ] {
    let (fv, gv) = (load(f), load(g));
    let t = _mm256_and_si256(sm, _mm256_xor_si256(fv, gv));
    let (a, b) = (_mm256_xor_si256(fv, t), _mm256_xor_si256(gv, t));
    store(f, a);
    let mut o = [0i16; LQ];
    store(
        &mut o,
        _mm256_sub_epi16(mul_shoup::<Q>(b, c[0], c[1]), mul_shoup::<Q>(a, c[2], c[3])),
    );
    o
}

#[target_feature(enable = "avx2")]
fn r3_recip_avx2<const P: usize>(
    out: &mut [i8; P],
    input: &[i8; P],
    buf: &mut [[i8; P]; 4],
) -> ct::Choice {
    let (f, v, delta) = divsteps!(
        P, L3, State::init::<P>(buf.as_flattened_mut(), input.iter().copied(), 1),
        terms: |f0: i8, g0: i8| (f0, g0),
        per_step(f0, g0, swap) {
            let sm = ct::mask_i8(swap);
            let (nz, neg) = r3_sign_masks(f0, g0);
            let (smv, nzv, negv) = (_mm256_set1_epi8(sm), _mm256_set1_epi8(nz), _mm256_set1_epi8(neg));
            let swp = |a: i8, b: i8| ct::cswap_i8(a, b, sm);
            let lane = |f: &mut i8, g: i8| r3_lane(f, g, sm, nz, neg);
            let blk = |f: &mut [i8; L3], g: &[i8; L3]| block3(f, g, smv, nzv, negv);
        }
        swap: swp, lane: lane, block: blk, barrier: false,
    );
    let sign = f[0];
    for (i, o) in out.iter_mut().enumerate() {
        *o = sign.wrapping_mul(v[P - 1 - i]);
    }
    !ct::nonzero_i32(delta)
}

#[target_feature(enable = "avx2")]
fn rq_recip3_avx2<const P: usize, const Q: i16>(
    buf: &mut [[i16; P]; 4],
    input: impl IntoIterator<Item = i8>,
) -> ct::Choice {
    let freeze = |x: i16| Fq::<Q>::freeze(i32::from(x));
    let (f, v, delta) = divsteps!(
        P, LQ, State::init::<P>(buf.as_flattened_mut(), input, Fq::<Q>::recip(3)),
        terms: |f0: i16, g0: i16| (freeze(f0), freeze(g0)),
        per_step(f0, g0, swap) {
            let sm = ct::mask_i16(swap);
            let (f0, g0) = ct::cswap_i16(f0, g0, sm);
            let (f0s, g0s) = (Fq::<Q>::shoup(f0), Fq::<Q>::shoup(g0));
            let c = [
                _mm256_set1_epi16(f0),
                _mm256_set1_epi16(f0s),
                _mm256_set1_epi16(g0),
                _mm256_set1_epi16(g0s),
            ];
            let smv = _mm256_set1_epi16(sm);
            let swp = |a: i16, b: i16| ct::cswap_i16(a, b, sm);
            let lane = |f: &mut i16, g: i16| -> i16 {
                let (a, b) = ct::cswap_i16(*f, g, sm);
                *f = a;
                Fq::<Q>::mul_shoup(b, f0, f0s).wrapping_sub(Fq::<Q>::mul_shoup(a, g0, g0s))
            };
            let blk = |f: &mut [i16; LQ], g: &[i16; LQ]| block::<Q>(f, g, smv, &c);
        }
        swap: swp, lane: lane, block: blk, barrier: false,
    );
    let scale = Fq::<Q>::recip(freeze(f[0]));
    for (i, o) in f.iter_mut().enumerate() {
        *o = Fq::<Q>::freeze(i32::from(scale) * i32::from(v[P - 1 - i]));
    }
    !ct::nonzero_i32(delta)
}

/// `R3_recip` with AVX2 (twin of `recip::r3_recip`, same contract), behind
/// the [`Avx2`] token.
#[inline]
pub(crate) fn r3_recip<const P: usize>(
    token: Avx2,
    out: &mut [i8; P],
    input: &[i8; P],
    buf: &mut [[i8; P]; 4],
) -> ct::Choice {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { r3_recip_avx2(out, input, buf) }
}

/// `Rq_recip3` with AVX2 (twin of `recip::rq_recip3`, same contract), behind
/// the [`Avx2`] token.
#[inline]
pub(crate) fn rq_recip3<const P: usize, const Q: i16>(
    token: Avx2,
    buf: &mut [[i16; P]; 4],
    input: impl IntoIterator<Item = i8>,
) -> ct::Choice {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { rq_recip3_avx2::<P, Q>(buf, input) }
}
