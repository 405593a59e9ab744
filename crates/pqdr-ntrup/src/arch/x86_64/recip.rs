//! The division-step reciprocal in R/q with AVX2 (Core `KeyGen`'s
//! `1/(3f)`, NTRU Prime spec §2.3; reference `Rq_recip3`, Bernstein–Yang
//! "safegcd" divsteps): twin of `recip::rq_recip3`, the same `2p - 1`
//! steps with the same swap decisions, so the same reciprocal (the
//! differential test compares the frozen outputs).
//!
//! Unlike the portable code, every per-step scalar lives in a broadcast
//! register: `delta`, the swap mask (`delta > 0` and `g(0) != 0 mod q`), the
//! constant terms (frozen by a rounding multiply and one correction each
//! way, [`freeze`]) and their Shoup companions ([`shoup`]) come from two
//! broadcast loads and a few lane operations, with no scalar freeze, no
//! `Choice` barrier and no scalar lane. The elimination `f0 g - g0 f` is two
//! Shoup products sharing one multiply by q, as in the portable code; the
//! companions may differ from the portable ones by one, so intermediate
//! coefficients may differ by a multiple of q, never the frozen result.
//!
//! Bounds: with `|c' - c 2^16 / q| < 0.6` and `|x| < 2^15`, a Shoup product
//! `c x - q floor(c' x / 2^16)` lies in `(-0.3 q, 1.3 q)`, so a new
//! coefficient (a difference of two) lies in `(-1.6 q, 1.6 q)`; the start
//! (f, g in {-1, 0, 1}, `1/3` frozen) is inside too. Hence
//! `g(0) = 0 mod q` exactly when `g(0)` is 0, q or -q: three lane compares.
//!
//! State (in `buf`, flattened, and one local array): f, g, v in regions of
//! `P + 32` coefficients, r in a local array. The f/g pass runs whole
//! registers over lanes `0..n` (n the coefficients that still matter,
//! `min(2p - 1 - k, p + 1)` at step k, f(p) included): f is stored back, the
//! new g one position down (g divided by x, ascending, each register loaded
//! before the store below it reaches it); lane 0's eliminated g (zero) falls
//! into the last slot of f's region, which no lane reads. The v/r pass runs
//! whole registers over lanes `0..min(k + 1, p)`, descending: lane i takes
//! the old `v[i - 1]` (v multiplied by x) and `r[i]`, stores both at i;
//! `v[-1]` is the last slot of g's region, never written, so always 0.
//! The lanes above the ones that matter: f and g above n are zero at the
//! start and stay zero (a step combines lane i of both) until a top lane
//! reads past n, and dead lanes never flow down (new `g[i - 1]` depends on
//! lane i only, new `v[i]` on `v[i - 1]` and `r[i]`, v and r above p never
//! reach the result); no lane is ever read past the end of its region.
//! The R/3 reciprocal's AVX2 twin is bitsliced (`recip3.rs`); [`r3_recip`]
//! here is its entry point.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8,
    _mm256_cmpeq_epi16, _mm256_cmpgt_epi16, _mm256_extract_epi16, _mm256_loadu_si256,
    _mm256_mulhrs_epi16, _mm256_mullo_epi16, _mm256_or_si256, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_xor_si256,
};

use super::mulhi;
use crate::arith::{Fq, MAX_P};
use crate::ct;
use pqdr_common::simd::Avx2;
use zeroize::Zeroize;

/// 16-bit lanes per AVX2 register.
const W: usize = 16;

/// Padding of each state region past p (see the module doc).
const PAD: usize = 32;

/// The constants of [`freeze`] and [`shoup`] for q: `round(2^15 / q)`,
/// `floor(2^16 / q)` and `round(frac(2^16 / q) 2^15)`.
const fn consts(q: i16) -> [i16; 3] {
    #[allow(clippy::integer_division_remainder_used, reason = "public constant")]
    let (v, a, r) = (
        (65536 + q as i32) / (2 * q as i32),
        65536 / q as i32,
        65536 % q as i32,
    );
    #[allow(clippy::integer_division_remainder_used, reason = "public constant")]
    let phi = (r * 65536 + q as i32) / (2 * q as i32);
    assert!(phi < 32768 && a * ((q as i32 - 1) >> 1) < 32768);
    #[allow(clippy::cast_possible_truncation, reason = "asserted below 2^15")]
    [v as i16, a as i16, phi as i16]
}

/// `x mod q` in `-Q12..=Q12` for `|x| < 2q`: `t = round(x round(2^15 / q)
/// / 2^15)` is `round(x / q)` within 1 (its error is below 0.2 for every
/// set's q), so `x - t q` is within 1.5 q and one step each way ends it
/// in range.
#[target_feature(enable = "avx2")]
#[inline]
fn freeze<const Q: i16>(x: __m256i) -> __m256i {
    let [v, _, _] = const { consts(Q) };
    let (q, h) = (_mm256_set1_epi16(Q), _mm256_set1_epi16((Q - 1) >> 1));
    let t = _mm256_mulhrs_epi16(x, _mm256_set1_epi16(v));
    let y = _mm256_sub_epi16(x, _mm256_mullo_epi16(t, q));
    let y = _mm256_sub_epi16(y, _mm256_and_si256(_mm256_cmpgt_epi16(y, h), q));
    let nh = _mm256_sub_epi16(_mm256_setzero_si256(), h);
    _mm256_add_epi16(y, _mm256_and_si256(_mm256_cmpgt_epi16(nh, y), q))
}

/// Shoup's companion of `c` (`|c| <= Q12`): `c floor(2^16 / q) +
/// round(c frac(2^16 / q))`, within 0.6 of `c 2^16 / q` and below 2^15.
#[target_feature(enable = "avx2")]
#[inline]
fn shoup<const Q: i16>(c: __m256i) -> __m256i {
    let [_, a, phi] = const { consts(Q) };
    _mm256_add_epi16(
        _mm256_mullo_epi16(c, _mm256_set1_epi16(a)),
        _mm256_mulhrs_epi16(c, _mm256_set1_epi16(phi)),
    )
}

/// One register of a division step: `(a, b)` = `(f, g)` swapped under `sm`,
/// returns `(a, f0 b - g0 a mod q)` as two Shoup products sharing one
/// multiply by q: `(f0 b - q t1) - (g0 a - q t2) = f0 b - g0 a - q (t1 -
/// t2)`, the same 16-bit value (`c = [f0, f0', g0, g0', q]`, the frozen
/// constant terms after the swap and their companions).
#[target_feature(enable = "avx2")]
#[inline]
fn step(f: __m256i, g: __m256i, sm: __m256i, c: &[__m256i; 5]) -> (__m256i, __m256i) {
    let a = _mm256_blendv_epi8(f, g, sm);
    let b = _mm256_blendv_epi8(g, f, sm);
    let t = _mm256_sub_epi16(mulhi(c[1], b), mulhi(c[3], a));
    let d = _mm256_sub_epi16(_mm256_mullo_epi16(c[0], b), _mm256_mullo_epi16(c[2], a));
    (a, _mm256_sub_epi16(d, _mm256_mullo_epi16(t, c[4])))
}

/// `Rq_recip3` (contract of `recip::rq_recip3`), on registers.
#[target_feature(enable = "avx2")]
fn rq_recip3_avx2<const P: usize, const Q: i16>(
    buf: &mut [[i16; P]; 4],
    input: impl IntoIterator<Item = i8>,
) -> ct::Choice {
    const { assert!(P >= 128 && P <= MAX_P) };
    let rl = P + PAD;
    const { assert!(3 * (P + PAD) <= 4 * P) };
    let flat = buf.as_flattened_mut();
    flat.fill(0);
    let mut rbuf = [0i16; MAX_P + PAD];
    // The reference's start: f = x^p - x - 1 reversed, g = input reversed,
    // r = 1/3, v = 0, delta = 1. Regions: f at 0, g at rl, v at 2 rl.
    flat[0] = 1;
    flat[P - 1] = -1;
    flat[P] = -1;
    for (gi, x) in flat[rl..rl + P].iter_mut().rev().zip(input) {
        *gi = i16::from(x);
    }
    rbuf[0] = Fq::<Q>::recip(3);
    // Every pointer from the one base of `flat` (and of `rbuf`).
    let fp = flat.as_mut_ptr();
    let (gp, vp) = (fp.wrapping_add(rl), fp.wrapping_add(2 * rl));
    let rp = rbuf.as_mut_ptr();
    let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi16(1));
    let (qv, nqv) = (_mm256_set1_epi16(Q), _mm256_set1_epi16(-Q));
    let mut delta = one;
    for k in 0..2 * P - 1 {
        // Lanes that matter (public: from k only).
        let n = (2 * P - 1 - k).min(P + 1);
        let mv = (k + 1).min(P);
        let (nf, nv) = (n.div_ceil(W), mv.div_ceil(W));
        // SAFETY: index 0 of the f and g regions of `flat`.
        let (f0, g0) = unsafe { (_mm256_set1_epi16(*fp), _mm256_set1_epi16(*gp)) };
        // g0 = 0 mod q iff g0 is 0, q or -q (|g0| < 2q, module doc).
        let z = _mm256_or_si256(
            _mm256_cmpeq_epi16(g0, zero),
            _mm256_or_si256(_mm256_cmpeq_epi16(g0, qv), _mm256_cmpeq_epi16(g0, nqv)),
        );
        // swap = delta > 0 && g0 != 0; delta = (swap ? -delta : delta) + 1.
        let sm = _mm256_andnot_si256(z, _mm256_cmpgt_epi16(delta, zero));
        delta = _mm256_add_epi16(_mm256_sub_epi16(_mm256_xor_si256(delta, sm), sm), one);
        let f0s = freeze::<Q>(_mm256_blendv_epi8(f0, g0, sm));
        let g0s = freeze::<Q>(_mm256_blendv_epi8(g0, f0, sm));
        let c = [f0s, shoup::<Q>(f0s), g0s, shoup::<Q>(g0s), qv];
        for j in 0..nf {
            let i = j * W;
            // SAFETY: `i + W <= nf W <= n + 15 <= P + 16 < rl`, so the
            // windows at `f + i` and `g + i` are inside their regions of
            // `flat` (`3 rl <= 4 P`, asserted); the store at `g + i - 1` is
            // at `f + rl - 1` when i = 0, inside `flat`; `loadu`/`storeu`
            // have no alignment requirement.
            unsafe {
                let (a, b) = step(
                    _mm256_loadu_si256(fp.add(i).cast()),
                    _mm256_loadu_si256(gp.add(i).cast()),
                    sm,
                    &c,
                );
                _mm256_storeu_si256(fp.add(i).cast(), a);
                _mm256_storeu_si256(gp.wrapping_sub(1).add(i).cast(), b);
            }
        }
        for j in (0..nv).rev() {
            let i = j * W;
            // SAFETY: `i + W <= nv W <= P + 15 < rl`, so the windows at
            // `v + i` (in `flat`) and `r + i` (in `rbuf`, `MAX_P + PAD >=
            // rl` entries) are in bounds; the load at `v + i - 1` is at
            // `g + rl - 1` when i = 0, inside `flat`.
            unsafe {
                let (a, b) = step(
                    _mm256_loadu_si256(vp.wrapping_sub(1).add(i).cast()),
                    _mm256_loadu_si256(rp.add(i).cast()),
                    sm,
                    &c,
                );
                _mm256_storeu_si256(vp.add(i).cast(), a);
                _mm256_storeu_si256(rp.add(i).cast(), b);
            }
        }
    }
    // out = v(reversed) / f0 in -Q12..=Q12, into f's place (v is at 2 rl > P).
    let scale = Fq::<Q>::recip(Fq::<Q>::freeze(i32::from(flat[0])));
    for i in 0..P {
        let x = Fq::<Q>::freeze(i32::from(flat[2 * rl + P - 1 - i]));
        flat[i] = Fq::<Q>::freeze(i32::from(scale) * i32::from(x));
    }
    flat[P..].fill(0);
    rbuf.zeroize();
    #[allow(clippy::cast_possible_truncation, reason = "a 16-bit lane")]
    let d = _mm256_extract_epi16::<0>(delta) as i16;
    !ct::nonzero_i32(i32::from(d))
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
