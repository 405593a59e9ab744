//! The division-step reciprocal in R/q with AVX2 (Core `KeyGen`'s
//! `1/(3f)`, NTRU Prime spec §2.3; reference `Rq_recip3`), by Bernstein–Yang
//! "safegcd" division steps **with jumps** (Bernstein–Yang §5–§7): twin of
//! `recip::rq_recip3`, the same `2p - 1` steps with the same swap decisions,
//! so the same reciprocal (the differential test compares the frozen outputs).
//!
//! Jumps: the `2p - 1` steps run in batches of [`N`] (the last one shorter).
//! A batch first runs its steps on the low N coefficients of f and g only
//! (they decide the batch: Bernstein–Yang §7), on registers, while building
//! the batch's 2 × 2 transition matrix `M` of polynomials of degree <= N
//! (its columns updated like the reference's v and r, from the identity):
//! `x^N (f', g') = M (f, g)` and `(v', r') = M (v, r)`. `M` is then applied
//! once to the whole vectors: f and g (and v and r) are stored as
//! interleaved 16-bit pairs, `M`'s rows as broadcast pairs, so one
//! `vpmaddwd` gives `M00 f + M01 g` on 8 coefficients for one degree of `M`
//! (32-bit sums of 2 (N + 1) products), then one Montgomery reduction per
//! pair of outputs and a freeze. Every coefficient gets the same factor
//! `2^-16` per batch, which the final division by f(0) removes. A shorter
//! last batch of `r` steps is applied as `x^(N - r) M`: its f is then right
//! (`f' = [M (f, g)]` from degree r) and v comes out times `x^(N - r)`,
//! read with that offset.
//!
//! Inner steps: every per-step scalar lives in a broadcast register:
//! `delta`, the swap mask (`delta > 0` and `g(0) != 0 mod q`), the
//! constant terms (frozen by a rounding multiply and one correction each
//! way, [`freeze`]) and their Shoup companions ([`shoup`]); no scalar freeze,
//! no `Choice` barrier. The elimination `f0 g - g0 f` is two Shoup products
//! sharing one multiply by q.
//!
//! Bounds: with `|c' - c 2^16 / q| < 0.6` and `|x| < 2^15`, a Shoup product
//! `c x - q floor(c' x / 2^16)` lies in `(-0.3 q, 1.3 q)`, so a new
//! coefficient (a difference of two) lies in `(-1.6 q, 1.6 q)`; every batch
//! starts from frozen coefficients. Hence `g(0) = 0 mod q` exactly when
//! `g(0)` is 0, q or -q: three lane compares. The matrix entries and the
//! vectors are frozen (`|x| <= (q - 1) / 2`) before the products, so a sum
//! of `2 (N + 1) = 66` products is below `16.5 (q - 1)^2 < 2^31` (q <=
//! 7879), and its Montgomery reduction below `2^15`, which [`freeze`] takes.
//!
//! Layout (16-bit pairs, in the caller's [`RecipState`]: its 4p
//! coefficients and tail): f and g interleaved from pair 0 (f(p) included),
//! then 32 zero pairs, then v and r interleaved from pair `p + 40`. The
//! f/g outputs of a batch are the first `min(2p - k, p + 1)` (k steps done;
//! only those still matter, public bounds), computed ascending in place
//! (output i reads pairs `i..=i + N`); above p the coefficients are zero and
//! stay zero, and the 32 zero pairs are never written, so they are also
//! v's and r's coefficients `-32..0`. The v/r outputs are the first
//! `min(k + 1, p)` (degree <= k; above p they never reach the result),
//! descending in place (output i reads `i - N..=i`).
//! The R/3 reciprocal's AVX2 twin is bitsliced (`recip3.rs`); [`r3_recip`]
//! here is its entry point.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_blend_epi16, _mm256_blendv_epi8, _mm256_cmpeq_epi16, _mm256_cmpgt_epi16,
    _mm256_extract_epi16, _mm256_load_si256, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_mulhrs_epi16, _mm256_mullo_epi16, _mm256_or_si256, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srai_epi32, _mm256_storeu_si256,
    _mm256_sub_epi16, _mm256_xor_si256,
};

use super::mulhi;
use crate::arch::{RECIP_TAIL, RecipState};
use crate::arith::{Fq, MAX_P};
use crate::ct;
use pqdr_common::simd::Avx2;
use zeroize::Zeroize;

/// 16-bit lanes per AVX2 register.
const W: usize = 16;

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

/// Division steps per jump (module doc).
const N: usize = 32;

/// Lanes of the inner f and g regions: N, then a register of padding (the
/// f/g pass stores the new g one lane down; lane 0's lands in f's last slot).
const RL: usize = N + W;

/// Lanes of an inner matrix column's v and r parts: degree <= N, so N + 1
/// lanes, in whole registers.
const CL: usize = CL_REGS * W;

/// Registers of [`CL`] lanes.
const CL_REGS: usize = (N + 1).div_ceil(W);

/// Pairs of zeros between the f/g and the v/r pairs (v's coefficients
/// `-N..0`; f/g reads end there).
const GAP: usize = N;

/// `q^-1 mod 2^16` (Montgomery reduction).
const fn qinv(q: i16) -> i16 {
    let q = q.cast_unsigned();
    let mut x = q; // correct to 3 bits for odd q
    let mut i = 0;
    while i < 4 {
        x = x.wrapping_mul(2u16.wrapping_sub(q.wrapping_mul(x)));
        i += 1;
    }
    assert!(q.wrapping_mul(x) == 1);
    #[allow(clippy::cast_possible_wrap, reason = "the 16-bit pattern")]
    let r = x as i16;
    r
}

/// Two 8-lane sums of products (`a` for the first, `b` for the second
/// coefficient of each output pair, each below 2^31 in size) to 8 frozen
/// interleaved pairs: the low and high halves regrouped by blends, one
/// signed Montgomery reduction `(x - q (x q^-1 mod 2^16)) / 2^16` (below
/// 2^15 in size, module doc), then [`freeze`].
#[target_feature(enable = "avx2")]
#[inline]
fn reduce<const Q: i16>(a: __m256i, b: __m256i) -> __m256i {
    let lo = _mm256_blend_epi16::<0xAA>(a, _mm256_slli_epi32::<16>(b));
    let hi = _mm256_blend_epi16::<0xAA>(_mm256_srai_epi32::<16>(a), b);
    let t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(const { qinv(Q) }));
    freeze::<Q>(_mm256_sub_epi16(hi, mulhi(t, _mm256_set1_epi16(Q))))
}

/// The 8-lane sums `sum_j M0j . x[-j]` and `sum_j M1j . x[-j]` over j in
/// `0..=N`, `x[-j]` the 8 pairs at `x - 2 j` (`vpmaddwd`: each lane
/// `a.lo b.lo + a.hi b.hi`), the loop fully unrolled.
///
/// # Safety
/// AVX2; the 8 pairs at `x - 2 j` are readable for every j in `0..=N`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn dot(x: *const i16, mat: &Matrix) -> (__m256i, __m256i) {
    const { assert!(N == 32) };
    let (mut a0, mut a1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    // One term per j, written out (a loop was not unrolled: 3 more
    // instructions per term).
    macro_rules! terms {
        ($($j:literal)*) => {$(
            // SAFETY: the caller's contract; the matrix rows are 32-byte aligned
            // arrays of 8 lanes.
            unsafe {
                let v = _mm256_loadu_si256(x.sub(2 * $j).cast());
                let u = _mm256_load_si256(mat.0[0][$j].as_ptr().cast());
                let w = _mm256_load_si256(mat.0[1][$j].as_ptr().cast());
                a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(v, u));
                a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(v, w));
            }
        )*};
    }
    terms!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
    (a0, a1)
}

/// Four output blocks at once (pairs `x .. x + 32` as in [`dot`], block b
/// at `x + 8 b` pairs): each term's matrix pair is loaded once for the four
/// blocks, so a term costs 1.5 loads per block instead of 3 (the loads, not
/// the arithmetic, bound [`dot`]'s speed). One `asm!` block per term:
/// written with intrinsics, LLVM merged the loads that coincide between
/// blocks (block b's term j + 8 is block b + 1's term j) and spilled them.
///
/// # Safety
/// AVX2; the 8 pairs at `x + 2 (8 b - j)` are readable for every b in
/// `0..4` and j in `0..=N`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn dot4(x: *const i16, mat: &Matrix) -> [__m256i; 8] {
    const { assert!(N == 32) };
    let z = _mm256_setzero_si256();
    let (mut a0, mut a1, mut a2, mut a3) = (z, z, z, z);
    let (mut a4, mut a5, mut a6, mut a7) = (z, z, z, z);
    let m = mat.0.as_ptr().cast::<u8>();
    macro_rules! terms {
        ($($j:literal)*) => {$(
            // SAFETY: the caller's contract (the pairs read) and the aligned
            // matrix rows (`j` and `N + 1 + j` registers into `mat`); only
            // registers are written; AVX2 is enabled for this function.
            unsafe {
                core::arch::asm!(
                    "vmovdqa {u}, ymmword ptr [{m} + {mu}]",
                    "vmovdqa {w}, ymmword ptr [{m} + {mw}]",
                    "vmovdqu {v}, ymmword ptr [{x} + {o0}]",
                    "vpmaddwd {t}, {v}, {u}",
                    "vpaddd {a0}, {a0}, {t}",
                    "vpmaddwd {v}, {v}, {w}",
                    "vpaddd {a1}, {a1}, {v}",
                    "vmovdqu {v}, ymmword ptr [{x} + {o1}]",
                    "vpmaddwd {t}, {v}, {u}",
                    "vpaddd {a2}, {a2}, {t}",
                    "vpmaddwd {v}, {v}, {w}",
                    "vpaddd {a3}, {a3}, {v}",
                    "vmovdqu {v}, ymmword ptr [{x} + {o2}]",
                    "vpmaddwd {t}, {v}, {u}",
                    "vpaddd {a4}, {a4}, {t}",
                    "vpmaddwd {v}, {v}, {w}",
                    "vpaddd {a5}, {a5}, {v}",
                    "vmovdqu {v}, ymmword ptr [{x} + {o3}]",
                    "vpmaddwd {t}, {v}, {u}",
                    "vpaddd {a6}, {a6}, {t}",
                    "vpmaddwd {v}, {v}, {w}",
                    "vpaddd {a7}, {a7}, {v}",
                    m = in(reg) m,
                    x = in(reg) x,
                    mu = const 32 * $j,
                    mw = const 32 * (N + 1 + $j),
                    o0 = const -4 * $j,
                    o1 = const 32 - 4 * $j,
                    o2 = const 64 - 4 * $j,
                    o3 = const 96 - 4 * $j,
                    u = out(ymm_reg) _,
                    w = out(ymm_reg) _,
                    v = out(ymm_reg) _,
                    t = out(ymm_reg) _,
                    a0 = inout(ymm_reg) a0,
                    a1 = inout(ymm_reg) a1,
                    a2 = inout(ymm_reg) a2,
                    a3 = inout(ymm_reg) a3,
                    a4 = inout(ymm_reg) a4,
                    a5 = inout(ymm_reg) a5,
                    a6 = inout(ymm_reg) a6,
                    a7 = inout(ymm_reg) a7,
                    options(pure, readonly, nostack, preserves_flags),
                );
            }
        )*};
    }
    terms!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
    [a0, a1, a2, a3, a4, a5, a6, a7]
}

/// A jump's matrix as broadcast entry pairs: row f `(M00, M01)` and row g
/// `(M10, M11)` by degree, each in the 8 lanes of one register, aligned (an
/// unaligned array split half of its loads across cache lines).
#[repr(C, align(32))]
struct Matrix([[[i32; 8]; N + 1]; 2]);

/// A matrix entry pair `(a, b)` as one 32-bit lane pattern (a low).
#[inline(always)]
fn pair(a: i16, b: i16) -> i32 {
    #[allow(clippy::cast_sign_loss, reason = "the 16-bit patterns")]
    let (a, b) = (u32::from(a as u16), u32::from(b as u16));
    #[allow(clippy::cast_possible_wrap, reason = "the 32-bit pattern")]
    let r = (a | (b << 16)) as i32;
    r
}

/// The state [`RecipState`] gives the reciprocal: 4p coefficients and a tail.
pub(crate) const TAIL_NEEDED: usize = 2 * (GAP + N + 15);

/// `Rq_recip3` (contract of `recip::rq_recip3`) by jumps (module doc).
#[target_feature(enable = "avx2")]
fn rq_recip3_avx2<const P: usize, const Q: i16>(
    st: &mut RecipState<P>,
    input: impl IntoIterator<Item = i8>,
) -> ct::Choice {
    const { assert!(P >= 128 && P <= MAX_P && RECIP_TAIL >= TAIL_NEEDED) };
    // Pair index of v(0): after f and g (p + 1 pairs, written up to
    // `ceil8(p + 2) <= p + 9`) and the GAP zero pairs.
    let vb = P + 9 + GAP;
    st.c.as_flattened_mut().fill(0);
    st.tail.fill(0);
    {
        // The reference's start: f = x^p - x - 1 reversed, g = input
        // reversed (pair i = (f(i), g(i - 1)): f(i) at 2 i, g(i) at 2 i + 3),
        // r = 1/3, v = 0, delta = 1.
        let flat = st.c.as_flattened_mut();
        flat[0] = 1;
        flat[2 * (P - 1)] = -1;
        flat[2 * P] = -1;
        for (i, x) in (0..P).rev().zip(input) {
            flat[2 * i + 3] = i16::from(x);
        }
        flat[2 * vb + 1] = Fq::<Q>::recip(3);
    }
    // Every access from here on through this pointer to the whole state
    // (`RecipState` is `repr(C)`: the 4p coefficients, then the tail).
    let bp: *mut i16 = core::ptr::from_mut(st).cast();
    // Inner state: f and g's low lanes, the matrix columns (zero lane, v, r).
    let mut lo = [0i16; 2 * RL];
    let mut cm = [[0i16; W + 2 * CL]; 2];
    let mut mat = Matrix([[[0i32; 8]; N + 1]; 2]);
    let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi16(1));
    let (qv, nqv) = (_mm256_set1_epi16(Q), _mm256_set1_epi16(-Q));
    let mut delta = one;
    let total = 2 * P - 1;
    let mut k = 0;
    let mut shift = 0;
    // v, r blocks of the last jump still to compute (descending from here),
    // with `mat`: they run between the next jump's inner steps, whose
    // latency-bound chain then overlaps their products (the inner steps
    // touch neither `mat` nor the state; the matrix of the next jump is
    // written only after the last of them).
    let mut vr_b: usize = 0;
    // One pending unit: the top single blocks first, then groups of four.
    // v, r outputs descending, output i from pairs i - N..=i.
    // SAFETY (both arms): pairs `m - j .. + 8` for j in 0..=N, from `vb - N`
    // (the zero pairs) to below `vb + ceil8(p + N) <= 2 p + TAIL_NEEDED / 2`.
    // Blocks read pairs at or below their own top, written after they were
    // read (a group: after all four).
    macro_rules! vr_unit {
        () => {
            if vr_b & 3 != 0 {
                vr_b -= 1;
                let m = vb + 8 * vr_b;
                // SAFETY: as above (one block).
                let (a0, a1) = unsafe { dot(bp.add(2 * m), &mat) };
                // SAFETY: as above (its own pairs, read before).
                unsafe { _mm256_storeu_si256(bp.add(2 * m).cast(), reduce::<Q>(a0, a1)) };
            } else {
                vr_b -= 4;
                let m = vb + 8 * vr_b;
                // SAFETY: as above (four blocks).
                let a = unsafe { dot4(bp.add(2 * m), &mat) };
                for (i, a) in a.chunks_exact(2).enumerate() {
                    // SAFETY: as above (the group's pairs, read before).
                    unsafe {
                        _mm256_storeu_si256(bp.add(2 * (m + 8 * i)).cast(), reduce::<Q>(a[0], a[1]))
                    };
                }
            }
        };
    }
    while k < total {
        let r = (total - k).min(N);
        shift = N - r;
        for i in 0..N {
            // SAFETY: pairs 0..=N < p + 1 of the f/g pairs, inside the state.
            unsafe {
                lo[i] = *bp.add(2 * i);
                lo[RL + i] = *bp.add(2 * i + 3);
            }
        }
        for c in &mut cm {
            c.fill(0);
        }
        cm[0][W] = 1;
        cm[1][W + CL] = 1;
        let lp = lo.as_mut_ptr();
        for t in 0..r {
            // Lanes that matter (public: from t only): f/g N - t, v/r t + 2.
            let nfg = (N - t).div_ceil(W);
            let nvr = (t + 2).div_ceil(W).min(CL_REGS);
            let (f0, g0) = (_mm256_set1_epi16(lo[0]), _mm256_set1_epi16(lo[RL]));
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
            for j in 0..nfg {
                let i = j * W;
                // SAFETY: `i + W <= N < RL`: the windows at `lo + i` and
                // `lo + RL + i` are inside `lo`; the store at `lo + RL + i -
                // 1` is at `lo + RL - 1` when i = 0 (f's last lane, never
                // read); unaligned loads and stores.
                unsafe {
                    let (a, b) = step(
                        _mm256_loadu_si256(lp.add(i).cast()),
                        _mm256_loadu_si256(lp.add(RL + i).cast()),
                        sm,
                        &c,
                    );
                    _mm256_storeu_si256(lp.add(i).cast(), a);
                    _mm256_storeu_si256(lp.add(RL + i - 1).cast(), b);
                }
            }
            for col in &mut cm {
                let cp = col.as_mut_ptr();
                for j in (0..nvr).rev() {
                    let i = W + j * W;
                    // SAFETY: `i + W <= W + CL`: v's window at `i`, its
                    // shifted load at `i - 1 >= W - 1` (the zero lanes, never
                    // written) and r's at `i + CL` are inside the column.
                    unsafe {
                        let (a, b) = step(
                            _mm256_loadu_si256(cp.add(i - 1).cast()),
                            _mm256_loadu_si256(cp.add(i + CL).cast()),
                            sm,
                            &c,
                        );
                        _mm256_storeu_si256(cp.add(i).cast(), a);
                        _mm256_storeu_si256(cp.add(i + CL).cast(), b);
                    }
                }
            }
            if vr_b > 0 {
                vr_unit!();
            }
        }
        while vr_b > 0 {
            vr_unit!();
        }
        // The matrix, frozen, as broadcast pairs: row f (M00, M01) = the
        // columns' v parts, row g (M10, M11) = their r parts; times x^shift.
        for col in &mut cm {
            let cp = col.as_mut_ptr();
            for j in 0..2 * CL_REGS {
                // SAFETY: lanes `W + j W .. W + (j + 1) W <= W + 2 CL`.
                unsafe {
                    let x = _mm256_loadu_si256(cp.add(W + j * W).cast());
                    _mm256_storeu_si256(cp.add(W + j * W).cast(), freeze::<Q>(x));
                }
            }
        }
        for j in 0..=N {
            let (a, b) = match j.checked_sub(shift) {
                Some(d) => (
                    pair(cm[0][W + d], cm[1][W + d]),
                    pair(cm[0][W + CL + d], cm[1][W + CL + d]),
                ),
                None => (0, 0),
            };
            mat.0[0][j] = [a; 8];
            mat.0[1][j] = [b; 8];
        }
        k += r;
        // f, g: outputs ascending, output pair i (f'(i), g'(i - 1)) from
        // pairs i..=i + N; g(n - 1) is in pair n.
        let nf = ((2 * P - k).min(P + 1) + 1).div_ceil(8);
        // SAFETY (all three loops): blocks below `nf`, so pairs `m + N - j
        // .. + 8` for j in 0..=N, with `m + 8 <= ceil8(p + 2) <= p + 9`: below
        // pair `p + 9 + N = vb`, in the state. Blocks read pairs at or above
        // their own, written after they were read (a group: after all four).
        let mut b = 0;
        while b + 4 <= nf {
            let m = 8 * b;
            // SAFETY: as above (four blocks).
            let a = unsafe { dot4(bp.add(2 * (m + N)), &mat) };
            for (i, a) in a.chunks_exact(2).enumerate() {
                // SAFETY: as above (the group's pairs, read before).
                unsafe {
                    _mm256_storeu_si256(bp.add(2 * (m + 8 * i)).cast(), reduce::<Q>(a[0], a[1]))
                };
            }
            b += 4;
        }
        while b < nf {
            let m = 8 * b;
            // SAFETY: as above (one block).
            let (a0, a1) = unsafe { dot(bp.add(2 * (m + N)), &mat) };
            // SAFETY: as above (its own pairs, read before).
            unsafe { _mm256_storeu_si256(bp.add(2 * m).cast(), reduce::<Q>(a0, a1)) };
            b += 1;
        }
        // v, r: all blocks of the outputs that matter, pending.
        let nv = if k == total {
            P + shift
        } else {
            (k + 1).min(P)
        };
        vr_b = nv.div_ceil(8);
    }
    while vr_b > 0 {
        vr_unit!();
    }
    // out = v(reversed, offset by the last batch's shift) / f0 in -Q12..=Q12,
    // into coefficients 0..p (below the v pairs at 2 vb > p).
    // SAFETY: f(0) at 0; v(i) at `2 (vb + i)`, i < p + shift, written above.
    let scale = Fq::<Q>::recip(Fq::<Q>::freeze(i32::from(unsafe { *bp })));
    for i in 0..P {
        // SAFETY: as above; the write at i < p is below every v pair.
        unsafe {
            let x = Fq::<Q>::freeze(i32::from(*bp.add(2 * (vb + P - 1 - i + shift))));
            *bp.add(i) = Fq::<Q>::freeze(i32::from(scale) * i32::from(x));
        }
    }
    st.c.as_flattened_mut()[P..].fill(0);
    st.tail.fill(0);
    lo.zeroize();
    cm.as_flattened_mut().zeroize();
    mat.0.as_flattened_mut().as_flattened_mut().zeroize();
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
    buf: &mut RecipState<P>,
    input: impl IntoIterator<Item = i8>,
) -> ct::Choice {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { rq_recip3_avx2::<P, Q>(buf, input) }
}
