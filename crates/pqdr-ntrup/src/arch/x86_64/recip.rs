//! The division-step reciprocal in R/q with AVX2 (Core `KeyGen`'s
//! `1/(3f)`, NTRU Prime spec §2.3): twin of `recip::rq_recip3`, the same
//! `divsteps!` schedule with 16-lane i16 blocks instead of 8. Every
//! coefficient goes through the same operations as in the portable code,
//! so the results are bit-identical. The swap decision stays a mask
//! broadcast into every lane; nothing branches on it. The block passes
//! (`rows_fg`, `rows_vr`) differ from the portable ones in where they
//! store: each new g register one position down and each new v register
//! one position up, which is the step's division of g by x (and
//! multiplication of v by x) without the portable code's `memcpy`; and
//! (`overlap: true`) the last partial block runs as the register that ends
//! at the end of the coefficients that matter, overlapping the block below
//! (loaded before the blocks, stored after them), where the portable code
//! runs lanes. The R/3 reciprocal's AVX2 twin is bitsliced (`recip3.rs`);
//! [`r3_recip`] here is its entry point.

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_loadu_si256, _mm256_mulhi_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_xor_si256,
};

use crate::arith::Fq;
use crate::ct;
use crate::divsteps::{State, divsteps};
use pqdr_common::simd::Avx2;

/// 16-bit lanes per AVX2 register (R/q blocks).
const LQ: usize = 16;

/// Twin of `recip::block` on 16 lanes, on registers: conditionally swap
/// `(f, g)`, then `f0 g - g0 f` (constants `c = [f0, f0', g0, g0']`
/// broadcast). Returns `(f, g)`.
#[target_feature(enable = "avx2")]
#[inline]
fn step_q<const Q: i16>(
    fv: __m256i,
    gv: __m256i,
    sm: __m256i,
    c: &[__m256i; 4],
) -> (__m256i, __m256i) {
    let t = _mm256_and_si256(sm, _mm256_xor_si256(fv, gv));
    let (a, b) = (_mm256_xor_si256(fv, t), _mm256_xor_si256(gv, t));
    // f0 g - g0 f as the two Shoup products with one multiply by q:
    // (f0 g - q t1) - (g0 f - q t2) = f0 g - g0 f - q (t1 - t2), the same
    // 16-bit value (wrapping arithmetic).
    let t = _mm256_sub_epi16(_mm256_mulhi_epi16(c[1], b), _mm256_mulhi_epi16(c[3], a));
    let d = _mm256_sub_epi16(_mm256_mullo_epi16(c[0], b), _mm256_mullo_epi16(c[2], a));
    (
        a,
        _mm256_sub_epi16(d, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q))),
    )
}

/// The AVX2 `rows_fg` of `divsteps!` (contract there, with `overlap`), for
/// lanes of type `T` (`W` = 32 / size of `T` per register): register `j` of
/// f and g at position `i = 1 + j W` goes through `step`, f is stored back
/// at `i`, the new g at `i - 1` (g divided by x without a memory move;
/// ascending, so each g register is loaded before the store below it
/// reaches it). Lanes from `1 + nb W` to the end `m` (fewer than W) run as
/// the register at `m - W`, loaded before the blocks and stored after them:
/// the lanes it shares with the last block get the same values twice.
#[target_feature(enable = "avx2")]
#[inline]
fn rows_fg<T, const W: usize>(
    f: &mut [T],
    g: &mut [T],
    nb: usize,
    m: usize,
    mut step: impl FnMut(__m256i, __m256i) -> (__m256i, __m256i),
) {
    let end = 1 + nb * W;
    assert!(end <= m && m <= f.len() && m <= g.len());
    let (fp, gp) = (f.as_mut_ptr(), g.as_mut_ptr());
    let top = m > end && m > W;
    let it = m.saturating_sub(W);
    let mut last = None;
    if top {
        // SAFETY: `1 <= it` and `it + W = m <= len` of both slices.
        unsafe {
            let fv = _mm256_loadu_si256(fp.add(it).cast());
            let gv = _mm256_loadu_si256(gp.add(it).cast());
            last = Some(step(fv, gv));
        }
    }
    for j in 0..nb {
        let i = 1 + j * W;
        // SAFETY: `i + W <= end <= len` of both slices (asserted above) and
        // `i >= 1`, so the 32-byte windows at `f + i`, `g + i` and `g + i - 1`
        // are in bounds; `loadu`/`storeu` have no alignment requirement; `T`
        // is a plain integer (i8 or i16) with W T = 32 bytes.
        unsafe {
            let fv = _mm256_loadu_si256(fp.add(i).cast());
            let gv = _mm256_loadu_si256(gp.add(i).cast());
            let (a, o) = step(fv, gv);
            _mm256_storeu_si256(fp.add(i).cast(), a);
            _mm256_storeu_si256(gp.add(i - 1).cast(), o);
        }
    }
    if let Some((a, o)) = last {
        // SAFETY: as for the load above (`it >= 1`, `it + W <= len`).
        unsafe {
            _mm256_storeu_si256(fp.add(it).cast(), a);
            _mm256_storeu_si256(gp.add(it - 1).cast(), o);
        }
    }
}

/// The AVX2 `rows_vr` of `divsteps!` (contract there, with `overlap`):
/// register `j` of the old v at `i - 1` and of r at `i = 1 + j W` go
/// through `step`; r is stored back at `i`, v at `i` (v multiplied by x
/// without a memory move; descending, so each v register is loaded before
/// the store above it reaches it). Lanes from `1 + nb W` to the end `mv`
/// run as the register at `mv - W`, as in `rows_fg`.
#[target_feature(enable = "avx2")]
#[inline]
fn rows_vr<T, const W: usize>(
    v: &mut [T],
    r: &mut [T],
    nb: usize,
    mv: usize,
    mut step: impl FnMut(__m256i, __m256i) -> (__m256i, __m256i),
) {
    let end = 1 + nb * W;
    assert!(end <= mv && mv <= v.len() && mv <= r.len());
    let (vp, rp) = (v.as_mut_ptr(), r.as_mut_ptr());
    let top = mv > end && mv > W;
    let it = mv.saturating_sub(W);
    let mut last = None;
    if top {
        // SAFETY: `1 <= it` and `it + W = mv <= len` of both slices.
        unsafe {
            let vv = _mm256_loadu_si256(vp.add(it - 1).cast());
            let rv = _mm256_loadu_si256(rp.add(it).cast());
            last = Some(step(vv, rv));
        }
    }
    for j in (0..nb).rev() {
        let i = 1 + j * W;
        // SAFETY: as in `rows_fg`: `i + W <= end <= len`, `i >= 1`.
        unsafe {
            let vv = _mm256_loadu_si256(vp.add(i - 1).cast());
            let rv = _mm256_loadu_si256(rp.add(i).cast());
            let (a, o) = step(vv, rv);
            _mm256_storeu_si256(rp.add(i).cast(), o);
            _mm256_storeu_si256(vp.add(i).cast(), a);
        }
    }
    if let Some((a, o)) = last {
        // SAFETY: as for the load above.
        unsafe {
            _mm256_storeu_si256(rp.add(it).cast(), o);
            _mm256_storeu_si256(vp.add(it).cast(), a);
        }
    }
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
            let st = |f, g| step_q::<Q>(f, g, smv, &c);
            let rfg = |f: &mut [i16], g: &mut [i16], nb, m| rows_fg::<i16, LQ>(f, g, nb, m, st);
            let rvr = |v: &mut [i16], r: &mut [i16], nb, m| rows_vr::<i16, LQ>(v, r, nb, m, st);
        }
        swap: swp, lane: lane, rows_fg: rfg, rows_vr: rvr, overlap: true,
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
    // The bitsliced kernel keeps its state in registers; `buf` (the
    // portable code's scratch) is not used.
    let _ = buf;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { super::recip3::r3_recip_bitsliced(out, input) }
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
