//! The 1536-point products of sntrup653 and sntrup761 (512 < p <= 768; the
//! parent module's radix-3 layer with n = 512), AVX2 (the products of Core
//! `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime spec §2.3): the 512-point
//! transform on 32 registers ([`forward_512`], its first layer in the pass
//! that loads a part, and [`inverse_512`]; in a part's product
//! ([`part_512`]) one factor's block steps, the pointwise product and the
//! inverse block steps run in one pass per block, `regs::block_product`), the three
//! parts' inverse 3-point DFT into the full product ([`combine`]), and a
//! factor's kept parts (a prepared decapsulation key's f, 1/g and h,
//! [`ntt3_prepare`](super::ntt3_prepare), [`ntt3_mul_sides`](super::ntt3_mul_sides)). Twin: the portable Karatsuba
//! product `mult::mul_full` (compared in
//! `mult::tests::avx2_products_match_portable`); the kept parts against the
//! coefficients in `kept_parts_products_match` below. Every loop bound and
//! index depends on p only.
//!
//! The parts are computed modulo 7681 and 10753 (not `ntt.rs`' 12289 and
//! 18433): both are 1 mod 1536 (7680 = 5 * 1536, 10752 = 7 * 1536), so
//! they have the 512-th roots of the transform and the cube root of the
//! radix-3 layer. They suffice: the R/q product's coefficients are below
//! p (q - 1) / 2 <= 768 * 4620 / 2 = 1,774,080 in magnitude, far inside
//! Garner's range 7681 * 10753 / 2 = 41,296,896 (and |u| < 2^24 / 7681 + 1
//! < 10753 / 2, `Garner::apply`); the R/3 product's (|a|, |b| <= 1) below
//! p <= 768 < 7681 / 2, so 7681 alone gives them exactly. Being smaller
//! (7681 < 2^13, 10753 < 2^14: Montgomery products below 3p/4 = 5761 /
//! 8065, `squeeze` results below 5629 / 5800), they leave room in the
//! 16-bit lanes for sums of up to four reduced values, so the transforms
//! run lazily (`regs::block_forward::<true>`, `block_inverse::<true>`):
//! the first layer's sums ([`outer_512`]) and the second layer of each
//! radix-4 pass are left unreduced (bounds at each step in `regs.rs`,
//! tested at the bounds in `regs::tests`).

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_setr_epi16, _mm256_sub_epi16,
};

use super::super::{K, P7681, P10753, Prime, barrett, consts, load, montmul, regs, store};
use super::{
    Garner, H1, H2, HALF, MAX_PARTS, Part, Src, bc, combine_in_place, fold_twist, interpolate,
    ntt3_fits, ntt3_scratch, parts, three_of, widen16,
};
use crate::arch::{Hat, Side};
use crate::wipe::Wipe;
use crate::wipe::Wipeable;
use pqdr_common::simd::Avx2;

/// The 512-point transform on 32 registers (primes 7681, 10753: the tables
/// of `Prime::new_512`): the four-step decomposition 512 = 32 x 16 of
/// `ntt.rs` with ω' = ω^2. Its 32-point transform across
/// registers is the first layer (distance 16, roots ζ'^i = ζ^(2i)) followed
/// by the same per-block layers as the 64-point one (root ζ'^2 = ζ^4 = η),
/// register j then holds k1 = bitrev5(j), and ω'^(n2 bitrev5(j)) =
/// ω^(n2 bitrev6(j)) is the 1024-point twist of register j < 32; the
/// 16-point transform across lanes has root ω'^32 = η as before. So the
/// 1024-point tables' first 32 registers serve (in powers of ω' only). The first layer runs in the pass that
/// loads part i of the factor `v` (p = P, 512 < P <= 768: registers
/// r and r + 16 of the part are [`fold_twist`]ed from `v` and go straight
/// into the butterfly; `v`'s upper half, below 256 coefficients, meets
/// registers r < 16 only), so `x` is written once before the per-block
/// steps: [`outer_512`] writes `x`, this runs the block steps on it.
#[target_feature(enable = "avx2")]
#[inline]
fn forward_512(x: &mut Part<HALF>, t: &Prime, k: K) {
    let (blocks, _) = x.as_chunks_mut::<16>();
    for (j, block) in blocks.iter_mut().enumerate() {
        regs::block_forward::<true>(block, j, &t.twist, &t.lane_fwd, k);
    }
}

/// The first layer of the 512-point transform in the pass that loads part
/// i of `v` into `x` (`ld` loads 16 coefficients as one register; `v`'s
/// upper half, below 512 coefficients, folds into registers r and r + 16).
/// Lazy: the first layer's sums unreduced, below 4 (2^12 - 1) = 16,380
/// (part 0: `|v| < 2^12`, two folds `v + h`) or 2 * 8065 (the other parts,
/// Montgomery products), so below 2^14: the lazy block steps' input bound.
#[target_feature(enable = "avx2")]
#[inline]
fn outer_512<const P: usize, T: Copy + Default>(
    x: &mut Part<HALF>,
    v: &[T],
    ld: impl Fn(&[T; 16]) -> __m256i,
    (i, t): (usize, &Prime),
    k: K,
) where
    [T; 16]: Wipeable,
{
    const N: usize = 16 * HALF;
    assert!(P > N && 2 * P <= 5 * N, "outer_512: p outside 513..=1280");
    let t3 = three_of(t);
    let (lo, _) = v[..N].as_chunks::<16>();
    let (hi, rest) = v[N..P].as_chunks::<16>();
    // The last, partial register of v, zero-padded (wiped).
    let mut tail = [T::default(); 16];
    let mut tail = Wipe::new(&mut tail);
    tail[..rest.len()].copy_from_slice(rest);
    // Register r of v's upper part (coefficients 512 + 16 r ..), if any.
    let h = |r: usize| {
        if r < hi.len() {
            Some(ld(&hi[r]))
        } else if r == hi.len() && !rest.is_empty() {
            Some(ld(&tail))
        } else {
            None
        }
    };
    // The third block (coefficients 1024 ..): p > 1024 only.
    let h2 = |r: usize| if P > 2 * N { h(r) } else { None };
    for r in 0..16 {
        let u = fold_twist(ld(&lo[r]), [h(r), h2(r + 32)], (r, i), t3, k);
        let w = fold_twist(ld(&lo[r + 16]), [h(r + 16), h2(r + 48)], (r + 16, i), t3, k);
        let (wr, wq) = bc(t.reg_fwd[2 * r]);
        store(&mut x[r], _mm256_add_epi16(u, w));
        store(&mut x[r + 16], montmul(_mm256_sub_epi16(u, w), wr, wq, k.p));
    }
}

/// [`forward_512`] of part i of `a` (`|a| < 2^12`).
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(super) fn forward_512_a<const P: usize>(
    x: &mut Part<HALF>,
    a: &[i16],
    i: usize,
    t: &Prime,
    k: K,
) {
    outer_512::<P, i16>(x, a, |c| load(c), (i, t), k);
    forward_512(x, t, k);
}

/// [`forward_512`] of part i of the small `b`.
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(super) fn forward_512_b<const P: usize>(
    y: &mut Part<HALF>,
    b: &[i8],
    i: usize,
    t: &Prime,
    k: K,
) {
    outer_512::<P, i8>(y, b, |c| widen16(c), (i, t), k);
    forward_512(y, t, k);
}

/// The last layer of the inverse of [`forward_512`] (after the per-block
/// steps, `regs::block_inverse` or `regs::block_product`): the
/// decimation-in-time butterflies at distance 16 as in `ntt.rs`'s
/// `dit_outer`; the whole inverse is times 2^16 / 1024 (the untwist's
/// scale): 512 c 2^16 / 1024. Lazy (7681, 10753): the first inputs
/// unreduced (the lazy block steps' outputs, below 23200), so every output
/// is below 23200 + 8065 < 2^15 (any i16 is what [`combine`](super::combine) takes).
#[target_feature(enable = "avx2")]
#[inline]
fn dit_last_512(x: &mut Part<HALF>, t: &Prime, k: K) {
    for i in 0..16 {
        let (w, wq) = bc(t.reg_inv[2 * i]);
        let a = load(&x[i]);
        let b = montmul(load(&x[i + 16]), w, wq, k.p);
        store(&mut x[i], _mm256_add_epi16(a, b));
        store(&mut x[i + 16], _mm256_sub_epi16(a, b));
    }
}
/// [`ntt3_mul`] for [`ntt3_512`]`(P)` with either factor (or both) given as
/// its kept transforms ([`ntt3_prepare`](super::ntt3_prepare): both primes for `REDUCE`, else
/// 7681's): the same full product in `full[..512 k]` (k = [`parts`]`(P)`).
pub(super) fn ntt3_mul_sides_512<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: Side<'_, i16>,
    b: Side<'_, i8>,
) {
    assert!(ntt3_512(P), "ntt3_mul_sides: p outside 513..=1024");
    const { assert!(Q < 1 << 13, "ntt3_mul: q >= 2^13") };
    // k parts of 32 registers a prime: k Hats for two primes, ⌈k/2⌉ for one.
    let need = if REDUCE {
        parts(P)
    } else {
        parts(P).div_ceil(2)
    };
    assert!(
        a.covers(need) && b.covers(need),
        "ntt3_mul_sides: too few transforms"
    );
    let _ = token;
    let full = &mut full[..ntt3_scratch(P)];
    match const { parts(P) } {
        // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
        3 => unsafe { ntt3_512_avx2::<P, Q, REDUCE, 3>(full, (a, b)) },
        // SAFETY: as above.
        4 => unsafe { ntt3_512_avx2::<P, Q, REDUCE, 4>(full, (a, b)) },
        // SAFETY: as above.
        _ => unsafe { ntt3_512_avx2::<P, Q, REDUCE, 5>(full, (a, b)) },
    }
}

/// Part i of prime `pi` of a factor: its coefficients, or from its kept
/// transforms (registers `32 (k pi + i) ..` of the flattened [`Hat`]s, k =
/// [`parts`]`(P)`).
fn src<'a, const P: usize, T>(side: Side<'a, T>, pi: usize, i: usize) -> Src<'a, T, HALF> {
    match side {
        Side::Coeffs(c) => Src::Coeffs(c),
        Side::Hat(h) => {
            let start = HALF * (parts(P) * pi + i);
            let regs = &h.as_flattened()[start..start + HALF];
            Src::Kept(regs.try_into().expect("32 registers"))
        }
    }
}

/// The parts' `Z_i` of prime `pi` (`t`) into the buffers `es` (part i
/// into the i-th), `y` the second factor's transforms.
#[target_feature(enable = "avx2")]
#[inline]
fn parts_512<'e, const P: usize>(
    es: impl IntoIterator<Item = &'e mut Part<HALF>>,
    y: &mut Part<HALF>,
    (a, b): Sides<'_>,
    (pi, t): (usize, &Prime),
) {
    for (i, x) in es.into_iter().enumerate() {
        let ab = (src::<P, _>(a, pi, i), src::<P, _>(b, pi, i));
        part_512::<P>(x, y, ab, i, t);
    }
}

/// `Z_i` of prime `t` into `x` (as the parent's `part` without `finish`:
/// any i16, for [`combine`]), `y` for b's transforms. A factor given as
/// coefficients (a, or b when a is kept) takes only the first layer here
/// ([`outer_512`]); its block steps run with the pointwise product and the
/// inverse block steps in one pass per block (`regs::block_product`), the
/// other factor transformed whole ([`forward_512`]) or kept.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn part_512<const P: usize>(
    x: &mut Part<HALF>,
    y: &mut Part<HALF>,
    (a, b): (Src<'_, i16, HALF>, Src<'_, i8, HALF>),
    i: usize,
    t: &Prime,
) {
    let k = consts(t);
    let (y, fwd): (&Part<HALF>, bool) = match (a, b) {
        (Src::Coeffs(a), b) => {
            let y = match b {
                Src::Coeffs(b) => {
                    forward_512_b::<P>(y, b, i, t, k);
                    y
                }
                Src::Kept(h) => h,
            };
            outer_512::<P, i16>(x, a, |c| load(c), (i, t), k);
            (y, true)
        }
        (Src::Kept(h), Src::Coeffs(b)) => {
            outer_512::<P, i8>(x, b, |c| widen16(c), (i, t), k);
            (h, true)
        }
        (Src::Kept(ha), Src::Kept(hb)) => {
            x.copy_from_slice(ha);
            (hb, false)
        }
    };
    let (xs, _) = x.as_chunks_mut::<16>();
    let (ys, _) = y.as_chunks::<16>();
    for (j, (xb, yb)) in xs.iter_mut().zip(ys).enumerate() {
        if fwd {
            regs::block_product::<true>(xb, yb, j, t, k);
        } else {
            regs::block_product::<false>(xb, yb, j, t, k);
        }
    }
    dit_last_512(x, t, k);
}

/// The two factors of a product.
type Sides<'a> = (Side<'a, i16>, Side<'a, i8>);

/// Whether the AVX2 product of p takes the 512-point parts (p <= 1024), and
/// so its kept transforms ([`ntt3_prepare`](super::ntt3_prepare), [`ntt3_mul_sides`](super::ntt3_mul_sides)) too.
pub(crate) const fn ntt3_512(p: usize) -> bool {
    ntt3_fits(p)
}

/// A factor's kept transforms for [`ntt3_mul_sides`](super::ntt3_mul_sides) (`a`, or the small
/// `b` when `a` is `None`): prime i's k = [`parts`]`(P)` parts,
/// forward-transformed, into registers `32 k i ..` of the flattened `out`
/// (one prime, 7681, for k/2 [`Hat`]s, both for k). Requires
/// [`ntt3_512`]`(P)`.
pub(super) fn ntt3_prepare_512<const P: usize>(
    token: Avx2,
    out: &mut [Hat],
    a: Option<&[i16; P]>,
    b: &[i8; P],
) {
    assert!(ntt3_512(P), "ntt3_prepare: p outside 513..=1024");
    let _ = token;
    // k/2 Hats hold one prime's parts, k both.
    let kept = HALF * parts(P);
    let primes = if out.len() >= parts(P) { 2 } else { 1 };
    let regs = &mut out.as_flattened_mut()[..kept * primes];
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { prepare_avx2::<P>(regs, a, b) }
}

#[target_feature(enable = "avx2")]
fn prepare_avx2<const P: usize>(regs: &mut [[i16; 16]], a: Option<&[i16; P]>, b: &[i8; P]) {
    for (pi, xs) in regs.chunks_exact_mut(HALF * parts(P)).enumerate() {
        let (xs, _) = xs.as_chunks_mut::<HALF>();
        for (i, x) in xs.iter_mut().enumerate() {
            let t = if pi == 0 { &P7681 } else { &P10753 };
            let k = consts(t);
            match a {
                Some(a) => forward_512_a::<P>(x, a, i, t, k),
                None => forward_512_b::<P>(x, b, i, t, k),
            }
        }
    }
}

/// [`ntt3_mul`] for n = 512 (p <= 1024) on PARTS = [`parts`]`(P)` parts: the
/// full product `c` (degree `2p - 2 < 512 PARTS`) into `full[..512 PARTS]`,
/// register `j + 32 m` holding `c_(j + 512 m)`, from the interpolation
/// ([`interpolate`]) of the parts modulo 7681, and for `REDUCE` modulo
/// 10753 and Garner's CRT, mod q (|.| < 2^14); else exact. The parts in a
/// local (wiped).
#[target_feature(enable = "avx2")]
fn ntt3_512_avx2<const P: usize, const Q: i16, const REDUCE: bool, const PARTS: usize>(
    full: &mut [i16],
    ab: Sides<'_>,
) {
    const R: usize = HALF;
    let mut y0: Part<R> = [[0; 16]; R];
    let mut y = Wipe::new(&mut y0);
    let (out, _) = full.as_chunks_mut::<16>();
    let out = &mut out[..PARTS * R];
    // 7681: the parts straight into the product buffer, combined in place.
    parts_512::<P>(out.as_chunks_mut::<R>().0, &mut y, ab, (0, &P7681));
    combine_in_place::<R, PARTS>(out, &H1, consts(&P7681));
    if REDUCE && PARTS == MAX_PARTS {
        five_rq::<P, Q>(full, &mut y, ab);
    } else if REDUCE {
        let mut e0: [Part<R>; PARTS] = [[[0; 16]; R]; PARTS];
        let mut e = Wipe::new(&mut e0);
        parts_512::<P>(&mut e[..], &mut y, ab, (1, &P10753));
        let e = e.as_flattened_mut();
        let (g, k2) = (Garner::of::<Q, 7681, 10753>(&P10753), consts(&P10753));
        for j in 0..R {
            let z = core::array::from_fn(|i| load(&e[j + R * i]));
            let c = interpolate::<R, PARTS, false>(z, j, &H2, k2);
            for (m, v) in c.into_iter().enumerate() {
                let o = &mut out[j + m * R];
                let w = g.apply(load(o), v);
                store(o, w);
            }
        }
    }
}

/// Coefficients of the five-part product's blocks 0..=3 (the seam of
/// [`five_rq`]'s 10753 product).
const SEAM: usize = 4 * 16 * HALF;

/// The R/q product of five parts (sntrup1277; after [`ntt3_512_avx2`]'s
/// 7681 parts, interpolated in place into `full[..2560]`): both primes'
/// 2560 coefficients and a local of five parts would not fit the stack
/// budget, so each prime's product is folded by x^p = x + 1 first (`F_k =
/// c_k + c_(p+k) + c_(p+k-1)`, k < p, as `mult::rq_mult_small`'s fold;
/// [`fold_at`]): 7681's in place into `full[..f]` (f = p rounded up to
/// registers), 10753's parts 0..=3 into `full[f..f + 2048]` and part 4 into
/// a local, interpolated in place (reduced), folded on the way into
/// Garner's CRT with 7681's F, into `full[..f]`; `full[p..2p]` is then
/// zeroed (the "full product" of the shared fold: `full[..p]` folded).
/// Bounds: every c reduced (|.| <= p/2 + p/2^9), so F below 3p/2 + 3p/2^9
/// before its [`barrett`] (reduced, as Garner takes it), and the integer
/// `|F_k| <= 3 p (q - 1)/2 < 2^24` (p = 1277, q = 7879: 15,090,309), the
/// range of [`Garner::apply`].
#[target_feature(enable = "avx2")]
#[inline(never)]
fn five_rq<const P: usize, const Q: i16>(full: &mut [i16], y: &mut Part<HALF>, ab: Sides<'_>) {
    let f = P.next_multiple_of(16);
    let k1 = consts(&P7681);
    for n in (0..f).step_by(16) {
        let v = fold_at::<P>(n, |m| load(full[m..].first_chunk().expect("inside c")), k1);
        store(full[n..].first_chunk_mut().expect("inside F"), v);
    }
    let (blocks, _) = full[f..f + SEAM].as_chunks_mut::<16>();
    let mut l0: Part<HALF> = [[0; 16]; HALF];
    let mut l = Wipe::new(&mut l0);
    let (bs, _) = blocks.as_chunks_mut::<HALF>();
    parts_512::<P>(bs.iter_mut().chain([&mut *l]), y, ab, (1, &P10753));
    five_finish::<P, Q>(full, &mut l);
    full[P..2 * P].fill(0);
}

/// The end of [`five_rq`] (its own frame: the part products above run
/// without these registers' spills): 10753's parts interpolated in place,
/// folded and recombined with 7681's F into `full[..f]`.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn five_finish<const P: usize, const Q: i16>(full: &mut [i16], l: &mut Part<HALF>) {
    const R: usize = HALF;
    let f = P.next_multiple_of(16);
    let k2 = consts(&P10753);
    let (out, rest) = full.split_at_mut(f);
    let (blocks, _) = rest[..SEAM].as_chunks_mut::<16>();
    for j in 0..R {
        let z = core::array::from_fn(|i| load(if i < 4 { &blocks[j + R * i] } else { &l[j] }));
        let c = interpolate::<R, MAX_PARTS, true>(z, j, &H2, k2);
        for (i, v) in c.into_iter().enumerate() {
            store(
                if i < 4 {
                    &mut blocks[j + R * i]
                } else {
                    &mut l[j]
                },
                v,
            );
        }
    }
    let (c, v) = (blocks.as_flattened(), l.as_flattened());
    // The register at coefficient n: in `c` (blocks 0..=3) below the seam,
    // in `v` (block 4) above, through a copy across it.
    let at = |n: usize| {
        if n + 16 <= SEAM {
            load(c[n..].first_chunk::<16>().expect("inside c"))
        } else if n >= SEAM {
            load(v[n - SEAM..].first_chunk::<16>().expect("inside v"))
        } else {
            seam(c, v, n)
        }
    };
    let g = Garner::of::<Q, 7681, 10753>(&P10753);
    for (r, o) in out.as_chunks_mut::<16>().0.iter_mut().enumerate() {
        let w = fold_at::<P>(16 * r, at, k2);
        store(o, g.apply(load(o), w));
    }
}

/// `F_k = c_k + c_(p+k) + c_(p+k-1)` for the register at k (`c(m)` loads
/// the register at coefficient m; reduced c in, [`barrett`]-reduced out).
#[target_feature(enable = "avx2")]
#[inline]
fn fold_at<const P: usize>(k: usize, c: impl Fn(usize) -> __m256i, kp: K) -> __m256i {
    let s = _mm256_add_epi16(c(k), c(P + k));
    // x^(p+k) = x^(k+1) + x^k: c_(p-1) is no wrapped coefficient of F_0
    // (lane 0 of the register at 0; k is public).
    let w = c(P + k - 1);
    let w = if k == 0 {
        _mm256_and_si256(
            w,
            _mm256_setr_epi16(
                0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
            ),
        )
    } else {
        w
    };
    barrett(_mm256_add_epi16(s, w), kp)
}

/// The register at coefficient n across [`five_finish`]'s seam `n < 2048 < n + 16`, through a
/// copy (wiped).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn seam(c: &[i16], v: &[i16], n: usize) -> __m256i {
    let mut s = [0i16; 16];
    let mut s = Wipe::new(&mut s);
    let (lo, hi) = s.split_at_mut(SEAM - n);
    lo.copy_from_slice(&c[n..SEAM]);
    hi.copy_from_slice(&v[..16 - (SEAM - n)]);
    load(&s)
}

#[cfg(test)]
mod tests {
    use super::super::super::regs::tests::at_bound;
    use super::super::{combine, newton, ntt3_mul, ntt3_mul_sides, ntt3_prepare};
    use super::*;
    use crate::test_util::lcg;
    use std::prelude::rust_2024::*;
    use std::vec;

    /// Products from kept 512-point parts (either factor, both; R/q and
    /// R/3) equal the products from the coefficients (`ntt3_mul`, itself
    /// compared with the portable product in `mult::tests`), on random and
    /// extreme factors (all ±(q - 1)/2, alternating, all ±1).
    fn check<const P: usize, const Q: i16>(token: Avx2, seed: u64) {
        let mut s = seed;
        for round in 0..40 {
            let (a, b) = super::super::test_factors::<P, Q>(round, &mut s);
            let e: [i16; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i16 - 1);
            let k = parts(P);
            let (mut ha, mut hb) = (vec![[[0i16; 16]; 64]; k], vec![[[0i16; 16]; 64]; k]);
            ntt3_prepare(token, &mut ha, Some(&a), &b);
            ntt3_prepare(token, &mut hb, None, &b);
            let mut want = vec![0i16; 3 * P];
            ntt3_mul::<P, Q, true>(token, &mut want, &a, &b);
            for (sa, sb) in [
                (Side::Hat(&ha[..]), Side::Coeffs(&b[..])),
                (Side::Coeffs(&a[..]), Side::Hat(&hb[..])),
                (Side::Hat(&ha[..]), Side::Hat(&hb[..])),
            ] {
                let mut got = vec![0i16; 3 * P];
                ntt3_mul_sides::<P, Q, true>(token, &mut got, sa, sb);
                assert_eq!(got[..2 * P], want[..2 * P], "p = {P}, round {round}");
            }
            // R/3: 7681 only (k/2 Hats of b).
            let mut hb3 = vec![[[0i16; 16]; 64]; k.div_ceil(2)];
            ntt3_prepare(token, &mut hb3, None, &b);
            let mut want = vec![0i16; 3 * P];
            ntt3_mul::<P, 3, false>(token, &mut want, &e, &b);
            let mut got = vec![0i16; 3 * P];
            ntt3_mul_sides::<P, 3, false>(token, &mut got, Side::Coeffs(&e[..]), Side::Hat(&hb3));
            assert_eq!(got[..2 * P], want[..2 * P], "R/3, p = {P}, round {round}");
        }
    }

    /// The inverse (lazy block steps, [`dit_last_512`]) of `forward_512(v)`
    /// = 2^15 times part i of `v`,
    /// `ψ^(ij) (v_j + ω^i v_(j+512))` (part 3: `σ^j (v_j + ζ v_(j+512))`),
    /// mod p, for both primes and every part, with `v` (p = 768 and 1024:
    /// an upper half of 256 and 512) at the loaders' bound ±(2^12 - 1),
    /// fixed and random signs: the lazy first layer, block steps and last
    /// layer on their largest inputs (a lane that leaves its 16 bits breaks
    /// the congruence).
    #[test]
    fn lazy_512_roundtrip_at_the_bounds() {
        let Some(_token) = crate::arch::avx2() else {
            return;
        };
        roundtrip_check::<768>();
        roundtrip_check::<1024>();
        roundtrip_check::<1280>();
    }

    fn roundtrip_check<const P: usize>() {
        let mut s = 5u64;
        for t in [&P7681, &P10753] {
            let (p, t3) = (i64::from(t.p), three_of(t));
            let r16 = super::super::super::pow_mod(65536, t.p as u64 - 2, p);
            let c = |w: i16| i64::from(w) * r16 % p;
            for round in 0..16 {
                let v: [i16; P] =
                    core::array::from_fn(|j| at_bound(&mut s, round, (j, 0, 512), 4095));
                for i in 0..parts(P) {
                    let mut x = [[0i16; 16]; HALF];
                    // SAFETY: the token shows the CPU has AVX2.
                    unsafe { roundtrip_512_avx2::<P>(&mut x, &v, (i, t)) };
                    for (j, &got) in x.as_flattened().iter().enumerate() {
                        let (om, ps) = match i {
                            0 => ([1, 1], 1),
                            _ => (
                                t3.omega[i - 1].map(|w| c(w[0])),
                                c(t3.psi[i - 1][0][j / 16][j % 16]),
                            ),
                        };
                        let hi = |d: usize| v.get(j + 512 * d).map_or(0, |&h| i64::from(h));
                        let want = (i64::from(v[j]) + om[0] * hi(1) + om[1] * hi(2)) % p * ps;
                        let d = (i64::from(got) - 32768 * want).rem_euclid(p);
                        assert_eq!(d, 0, "p = {p}, round {round}, part {i}");
                    }
                }
            }
        }
    }

    #[target_feature(enable = "avx2")]
    fn roundtrip_512_avx2<const P: usize>(x: &mut Part<HALF>, v: &[i16], (i, t): (usize, &Prime)) {
        let k = consts(t);
        forward_512_a::<P>(x, v, i, t, k);
        let (blocks, _) = x.as_chunks_mut::<16>();
        for (j, block) in blocks.iter_mut().enumerate() {
            regs::block_inverse::<true>(block, j, &t.untwist, &t.lane_inv, k);
        }
        dit_last_512(x, t, k);
    }

    /// [`combine`] (reduced outputs and, for Garner's `c2`, unreduced) on
    /// inverse-transform outputs at the i16 extremes (±32767, every sign
    /// pattern, random values), for every register of the 512-point parts
    /// (7681, 10753), against the exact sums
    /// and products mod p; reduced outputs within p/2 + p/2^9. A sum that
    /// leaves its 16 bits breaks the congruence.
    #[test]
    fn combine_at_the_bounds() {
        let Some(_token) = crate::arch::avx2() else {
            return;
        };
        // SAFETY: the token shows the CPU has AVX2.
        unsafe {
            combine_check_avx2::<HALF>(&P7681, &H1);
            combine_check_avx2::<HALF>(&P10753, &H2);
        }
    }

    #[target_feature(enable = "avx2")]
    fn combine_check_avx2<const R: usize>(t: &Prime, t3: &super::super::Three<R>) {
        let (k, p) = (consts(t), i64::from(t.p));
        let r16 = super::super::super::pow_mod(65536, t.p as u64 - 2, p);
        let c = |w: i16| i64::from(w) * r16 % p;
        let mut s = 9u64;
        for round in 0..40 {
            for j in 0..R {
                let z: [[i16; 16]; 3] = core::array::from_fn(|i| {
                    core::array::from_fn(|l| at_bound(&mut s, round, (i, l, 1), 32767))
                });
                let zr = z.map(|r| load(&r));
                let got = [
                    combine::<R, true>(zr, j, t3, k),
                    combine::<R, false>(zr, j, t3, k),
                ];
                for l in 0..16 {
                    let zl = z.map(|r| i64::from(r[l]));
                    let u = &t3.untw;
                    let a = zl[0] * c(t3.comb[0][0]);
                    let x1 = zl[1] * c(u[0][0][j][l]);
                    let x2 = zl[2] * c(u[1][0][j][l]);
                    let tt = (x1 - x2) % p * c(t3.comb[1][0]);
                    let want = [a + 2 * (x1 + x2), a - x1 - x2 + tt, a - x1 - x2 - tt];
                    for (reduced, g) in got.iter().enumerate() {
                        let mut out = [[0i16; 16]; 3];
                        for (o, v) in out.iter_mut().zip(g) {
                            store(o, *v);
                        }
                        for (o, w) in out.iter().zip(want) {
                            let v = i64::from(o[l]);
                            assert_eq!((v - w).rem_euclid(p), 0, "p = {p}, round {round}");
                            if reduced == 0 {
                                assert!(v.abs() <= p / 2 + p / 512, "p = {p}: {v}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// [`newton`] (the extra parts' interpolation, four and five parts)
    /// at its input bounds: `Z_3`, `Z_4`, `e_2` at the i16 extremes
    /// (±32767, every sign pattern, random), `e_0`, `e_1` up to
    /// [`combine`]'s unreduced bound 2p + p/2^9, for every register (7681,
    /// 10753), against the exact sums and products mod p; the outputs but
    /// `c_2` (and for four parts `c_1`: passed through) within p/2 + p/2^9. A sum that leaves its 16
    /// bits breaks the congruence.
    #[test]
    fn newton_at_the_bounds() {
        let Some(_token) = crate::arch::avx2() else {
            return;
        };
        // SAFETY: the token shows the CPU has AVX2.
        unsafe {
            newton_check_avx2::<4>(&P7681, &H1);
            newton_check_avx2::<4>(&P10753, &H2);
            newton_check_avx2::<5>(&P7681, &H1);
            newton_check_avx2::<5>(&P10753, &H2);
        }
    }

    #[target_feature(enable = "avx2")]
    fn newton_check_avx2<const PARTS: usize>(t: &Prime, t3: &super::super::Three<HALF>) {
        let (k, p) = (consts(t), i64::from(t.p));
        let r16 = super::super::super::pow_mod(65536, t.p as u64 - 2, p);
        let c = |w: i16| i64::from(w) * r16 % p;
        let e_bound = (2 * p + p / 512) as i16;
        let mut s = 17u64;
        for round in 0..40 {
            for j in 0..HALF {
                let v: [[i16; 16]; PARTS] = core::array::from_fn(|i| {
                    let b = if i < 2 { e_bound } else { 32767 };
                    core::array::from_fn(|l| at_bound(&mut s, round, (i, l, 1), b))
                });
                let z = v.map(|r| load(&r));
                let mut got = z;
                newton::<HALF, PARTS>(&mut got, &z, j, t3, k);
                let mut out = [[0i16; 16]; PARTS];
                for (o, g) in out.iter_mut().zip(got) {
                    store(o, g);
                }
                for l in 0..16 {
                    let x = v.map(|r| i64::from(r[l]));
                    let g = |i: usize| {
                        let ka = t3.kappa[i].map(|m| c(m[0]));
                        x[3 + i] * c(t3.untw_x[i][0][j][l])
                            - (x[0] * ka[0] + x[1] * ka[1] + x[2] * ka[2]) % p
                    };
                    let (c3, c4) = if PARTS == 4 {
                        (g(0), 0)
                    } else {
                        let c4 = (g(0) - g(1)) % p * c(t3.lambda[0]) % p;
                        (g(0) - c(t3.omega[2][0][0]) * c4, c4)
                    };
                    let want = [x[0] - c3, x[1] - c4, x[2], c3, c4];
                    for (m, (o, w)) in out.iter().zip(want).enumerate() {
                        let o = i64::from(o[l]);
                        assert_eq!((o - w).rem_euclid(p), 0, "p = {p}, round {round}, c_{m}");
                        // c_2 (and for four parts c_1) passed through.
                        if m != 2 && (m, PARTS) != (1, 4) {
                            assert!(o.abs() <= p / 2 + p / 512, "p = {p}: {o}");
                        }
                    }
                }
            }
        }
    }

    /// Garner's step at its bounds, without a reduction of `u`: `c` up to
    /// the R/q products' bounds p (q - 1) / 2 (p = 768: the 512-point
    /// parts, 7681 and 10753) and 3 p (q - 1) / 2 (the folded product of
    /// sntrup1277, 12289 and 18433) and random; `c1` mod p1 within
    /// p1/2 + p1/2^9 (Barrett's bound), `c2` too or, for 10753, any representative
    /// up to [`combine`]'s unreduced bound 2 * 10753 + 21: the output is
    /// `c` mod q, below 2^14. An inexact `u` breaks the congruence.
    #[test]
    fn garner_at_the_bounds() {
        let Some(_token) = crate::arch::avx2() else {
            return;
        };
        // SAFETY: the token shows the CPU has AVX2.
        unsafe {
            garner_check_avx2::<4621, 7681, 10753>(Garner::of::<4621, 7681, 10753>(&P10753), 768);
            garner_check_avx2::<4591, 7681, 10753>(Garner::of::<4591, 7681, 10753>(&P10753), 768);
            garner_check_avx2::<7177, 7681, 10753>(Garner::of::<7177, 7681, 10753>(&P10753), 1013);
            garner_check_avx2::<7879, 7681, 10753>(Garner::of::<7879, 7681, 10753>(&P10753), 1277);
        }
    }

    #[target_feature(enable = "avx2")]
    fn garner_check_avx2<const Q: i16, const A: i64, const B: i64>(g: Garner, p: i64) {
        let centre = |x: i64, m: i64| {
            let r = x.rem_euclid(m);
            if r > m / 2 { r - m } else { r }
        };
        // Representatives of c mod m: centred or, near ±m/2, the other one
        // within Barrett's bound m/2 + m/2^9; `wide`, any up to 2m + m/2^9.
        let rep = |c: i64, m: i64, shift: i64, wide: bool| {
            let r = centre(c, m);
            let r = if wide {
                let r = r + shift * m;
                if r.abs() > 2 * m + m / 512 {
                    r - r.signum() * m
                } else {
                    r
                }
            } else if shift != 0 && r.abs() >= m / 2 - m / 512 {
                r - r.signum() * m
            } else {
                r
            };
            r as i16
        };
        let big = p * (i64::from(Q) - 1) / 2;
        let mut s = 13u64;
        for round in 0..64 {
            let cs: [i64; 16] = core::array::from_fn(|l| match (round, l) {
                (0, _) => big,
                (1, _) => -big,
                (2, _) => [big, -big][l & 1],
                _ => i64::from(lcg(&mut s)) % (2 * big + 1) - big,
            });
            for shift in -2i64..=2 {
                let c1 = cs.map(|c| rep(c, A, shift, false));
                let c2 = cs.map(|c| rep(c, B, shift, B == 10753));
                let mut out = [0i16; 16];
                store(&mut out, g.apply(load(&c1), load(&c2)));
                for (o, c) in out.iter().zip(cs) {
                    let o = i64::from(*o);
                    assert_eq!((o - c).rem_euclid(i64::from(Q)), 0, "q = {Q}, c = {c}");
                    assert!(o.abs() < 1 << 14, "q = {Q}, c = {c}: {o}");
                }
            }
        }
    }

    #[test]
    fn kept_parts_products_match() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        check::<653, 4621>(token, 1);
        check::<761, 4591>(token, 2);
        check::<857, 5167>(token, 3);
        check::<953, 6343>(token, 4);
        check::<1013, 7177>(token, 5);
        check::<1277, 7879>(token, 6);
    }
}
