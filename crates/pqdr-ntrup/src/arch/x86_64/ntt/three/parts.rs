//! The products on k = 3, 4 or 5 parts of 512 points (the parent module:
//! sntrup653/761 k = 3, sntrup857/953/1013 k = 4, sntrup1277 k = 5), AVX2
//! (the products of Core `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime
//! spec §2.3): the 512-point transform on 32 registers ([`forward_512`],
//! its first layer in the pass that loads a part, and the inverse's last
//! layer, `regs::dit_last_pair`; in a part's product ([`part_512`]) one
//! factor's block steps, the pointwise product and the inverse block steps
//! run in one pass per block, `regs::block_product`, the second block's
//! with that last layer), the parts' interpolation into the full product
//! ([`interpolate`]), and a factor's kept parts (a prepared decapsulation
//! key's f, 1/g and h, [`ntt3_prepare`](super::ntt3_prepare),
//! [`ntt3_mul_sides`](super::ntt3_mul_sides)). Twin: the portable Karatsuba
//! product `mult::mul_full` (compared in
//! `mult::tests::avx2_products_match_portable`); the kept parts against the
//! coefficients in `kept_parts_products_match` below. Every loop bound and
//! index depends on p only.
//!
//! The parts are computed modulo 7681 and 10753: both have the 512-th
//! roots of the transform and the other
//! points' twists (7680 = 15 * 512, 10752 = 21 * 512). They suffice: the
//! R/q product's coefficients are below p (q - 1) / 2 <= 1277 * 7878 / 2 =
//! 5,030,103 in magnitude (sntrup1277's folded product, [`five_rq`], three
//! times that, below 2^24), inside Garner's range 7681 * 10753 / 2 =
//! 41,296,896 (and |u| < 2^24 / 7681 + 1 < 10753 / 2, `Garner::apply`);
//! the R/3 product's (|a|, |b| <= 1) below p <= 1277 < 7681 / 2, so 7681
//! alone gives them exactly. Being smaller
//! (7681 < 2^13, 10753 < 2^14: Montgomery products below 3p/4 = 5761 /
//! 8065, `squeeze` results below 5629 / 5800), they leave room in the
//! 16-bit lanes for sums of up to four reduced values, so the transforms
//! run lazily (`regs::block_forward`, `block_product`):
//! the first layer's sums ([`outer_512`]) and the second layer of each
//! radix-4 pass are left unreduced (bounds at each step in `regs.rs`,
//! tested at the bounds in `regs::tests`).

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_setr_epi16, _mm256_sub_epi16,
};

use super::super::{K, P7681, P10753, Prime, consts, load, montmul, regs, store};
use super::{
    Garner, H1, H2, HALF, MAX_PARTS, Part, Src, bc, combine_in_place, fold_twist, interpolate,
    ntt3_fits, ntt3_scratch, parts, small_omegas, three_of, widen16,
};
use crate::arch::{Hat, Side};
use crate::wipe::Wipe;
use crate::wipe::Wipeable;
use pqdr_common::simd::Avx2;

/// The 512-point transform on 32 registers (primes 7681, 10753: the tables
/// of `Prime::new`): the four-step decomposition 1024 = 64 x 16 of
/// `ntt.rs` restricted to 512 = 32 x 16 with ω' = ω^2. Its 32-point transform across
/// registers is the first layer (distance 16, roots ζ'^i = ζ^(2i)) followed
/// by the same per-block layers as the 64-point one (root ζ'^2 = ζ^4 = η),
/// register j then holds k1 = bitrev5(j), and ω'^(n2 bitrev5(j)) =
/// ω^(n2 bitrev6(j)) is the 1024-point twist of register j < 32; the
/// 16-point transform across lanes has root ω'^32 = η as before. So the
/// tables are the 1024-point ones' first 32 registers (in powers of ω'
/// only). The first layer runs in the pass that
/// loads part i of the factor `v` (p = P, 512 < P <= 1280: registers
/// r and r + 16 of the part are [`fold_twist`]ed from `v`'s blocks of 512
/// and go straight into the butterfly), so `x` is written once before the per-block
/// steps: [`outer_512`] writes `x`, this runs the block steps on it.
#[target_feature(enable = "avx2")]
#[inline]
fn forward_512(x: &mut Part<HALF>, t: &Prime, k: K) {
    let (blocks, _) = x.as_chunks_mut::<16>();
    for (j, block) in blocks.iter_mut().enumerate() {
        regs::block_forward(block, j, &t.twist, &t.lane_fwd, &k);
    }
}

/// The first layer of the 512-point transform in the pass that loads part
/// i of `v` into `x` (`ld` loads 16 coefficients as one register; `v`'s
/// upper half, below 512 coefficients, folds into registers r and r + 16).
/// Lazy: the first layer's sums unreduced, below 4 (2^12 - 1) = 16,380
/// (part 0: `|v| < 2^12`, two folds `v + h`) or 2 * 8065 (the other parts,
/// Montgomery products), so below 2^14: the lazy block steps' input bound.
/// `SMALL`: `v` is the small factor (|v| <= 1), [`fold_twist`]'s exact fold.
#[target_feature(enable = "avx2")]
#[inline]
fn outer_512<const P: usize, T: Copy + Default, const SMALL: bool>(
    x: &mut Part<HALF>,
    v: &[T],
    ld: impl Fn(&[T; 16]) -> __m256i,
    (i, t): (usize, &Prime),
    k: K,
) where
    [T; 16]: Wipeable,
{
    // The part a constant in each copy: its fold and twist without branches
    // on i (the part index is public).
    match i {
        0 => outer_512_at::<P, T, SMALL, 0>(x, v, ld, t, k),
        1 => outer_512_at::<P, T, SMALL, 1>(x, v, ld, t, k),
        2 => outer_512_at::<P, T, SMALL, 2>(x, v, ld, t, k),
        3 => outer_512_at::<P, T, SMALL, 3>(x, v, ld, t, k),
        _ => outer_512_at::<P, T, SMALL, 4>(x, v, ld, t, k),
    }
}

/// [`outer_512`] of part `I`.
#[target_feature(enable = "avx2")]
#[inline]
fn outer_512_at<const P: usize, T: Copy + Default, const SMALL: bool, const I: usize>(
    x: &mut Part<HALF>,
    v: &[T],
    ld: impl Fn(&[T; 16]) -> __m256i,
    t: &Prime,
    k: K,
) where
    [T; 16]: Wipeable,
{
    let i = I;
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
    let om = small_omegas(i, t3);
    let fold = |v, h, r| fold_twist::<HALF, SMALL>(v, h, (r, i), (t3, om), k);
    for r in 0..16 {
        let u = fold(ld(&lo[r]), [h(r), h2(r + 32)], r);
        let w = fold(ld(&lo[r + 16]), [h(r + 16), h2(r + 48)], r + 16);
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
    outer_512::<P, i16, false>(x, a, |c| load(c), (i, t), k);
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
    outer_512::<P, i8, true>(y, b, |c| widen16(c), (i, t), k);
    forward_512(y, t, k);
}

/// The last layer of the inverse of [`forward_512`] (after the per-block
/// steps): the decimation-in-time butterflies at distance 16
/// (`regs::dit_last_pair`, the inverse of the first layer); the whole
/// inverse is times 2^16 / 1024 (the untwist's scale): 512 c 2^16 / 1024,
/// every output below 2^15 (any i16 is what [`combine`](super::combine)
/// takes). In the products it runs inside the second block's
/// `regs::block_product`; this pass for the tests' inverse.
#[cfg(test)]
#[target_feature(enable = "avx2")]
fn dit_last_512(x: &mut Part<HALF>, t: &Prime, k: K) {
    let (lo, hi) = x.split_at_mut(16);
    for (i, (lo, hi)) in lo.iter_mut().zip(hi).enumerate() {
        let b = load(hi);
        regs::dit_last_pair((lo, hi), b, i, t, k);
    }
}
/// [`ntt3_mul`] for [`ntt3_fits`]`(P)` with either factor (or both) given as
/// its kept transforms ([`ntt3_prepare`](super::ntt3_prepare): both primes for `REDUCE`, else
/// 7681's): the same full product in `full[..512 k]` (k = [`parts`]`(P)`).
pub(super) fn ntt3_mul_sides_512<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: Side<'_, i16>,
    b: Side<'_, i8>,
) {
    assert!(ntt3_fits(P), "ntt3_mul_sides: p outside 513..=1280");
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
/// into the i-th), `y` the second factor's transforms. `SMALL_A`: `a` is
/// small too (|a| <= 1, the R/3 product), [`part_512`].
#[target_feature(enable = "avx2")]
#[inline]
fn parts_512<'e, const P: usize, const SMALL_A: bool>(
    es: impl IntoIterator<Item = &'e mut Part<HALF>>,
    y: &mut Part<HALF>,
    (a, b): Sides<'_>,
    (pi, t): (usize, &Prime),
) {
    for (i, x) in es.into_iter().enumerate() {
        let ab = (src::<P, _>(a, pi, i), src::<P, _>(b, pi, i));
        part_512::<P, SMALL_A>(x, y, ab, i, t);
    }
}

/// `Z_i` of prime `t` into `x` (as the parent's `part` without `finish`:
/// any i16, for [`combine`]), `y` for b's transforms. A factor given as
/// coefficients (a, or b when a is kept) takes only the first layer here
/// ([`outer_512`]); its block steps run with the pointwise product and the
/// inverse block steps in one pass per block (`regs::block_product`; the
/// second block's with the inverse's last layer), the other factor
/// transformed whole ([`forward_512`]) or kept. `SMALL_A`:
/// `a` is small (|a| <= 1, the R/3 product's): its fold exact, as b's
/// ([`fold_twist`]'s `SMALL`).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn part_512<const P: usize, const SMALL_A: bool>(
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
            outer_512::<P, i16, SMALL_A>(x, a, |c| load(c), (i, t), k);
            (y, true)
        }
        (Src::Kept(h), Src::Coeffs(b)) => {
            outer_512::<P, i8, true>(x, b, |c| widen16(c), (i, t), k);
            (h, true)
        }
        (Src::Kept(ha), Src::Kept(hb)) => {
            x.copy_from_slice(ha);
            (hb, false)
        }
    };
    let (xs, _) = x.as_chunks_mut::<16>();
    let (ys, _) = y.as_chunks::<16>();
    type Block = [[i16; 16]; 16];
    let product = |xb: &mut Block, yb: &Block, jl: (usize, Option<&mut Block>)| {
        if fwd {
            regs::block_product::<true>(xb, yb, jl, t, k);
        } else {
            regs::block_product::<false>(xb, yb, jl, t, k);
        }
    };
    // Block 1 with the inverse's last layer (distance 16) on its way out.
    let (x0, x1) = xs.split_at_mut(1);
    product(&mut x0[0], &ys[0], (0, None));
    product(&mut x1[0], &ys[1], (1, Some(&mut x0[0])));
}

/// The two factors of a product.
type Sides<'a> = (Side<'a, i16>, Side<'a, i8>);

/// A factor's kept transforms for [`ntt3_mul_sides`](super::ntt3_mul_sides) (`a`, or the small
/// `b` when `a` is `None`): prime i's k = [`parts`]`(P)` parts,
/// forward-transformed, into registers `32 k i ..` of the flattened `out`
/// (one prime, 7681, for k/2 [`Hat`]s, both for k). Requires
/// [`ntt3_fits`]`(P)`.
pub(super) fn ntt3_prepare_512<const P: usize>(
    token: Avx2,
    out: &mut [Hat],
    a: Option<&[i16; P]>,
    b: &[i8; P],
) {
    assert!(ntt3_fits(P), "ntt3_prepare: p outside 513..=1280");
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
    let parts = out.as_chunks_mut::<R>().0;
    if REDUCE {
        parts_512::<P, false>(parts, &mut y, ab, (0, &P7681));
    } else {
        parts_512::<P, true>(parts, &mut y, ab, (0, &P7681));
    }
    combine_in_place::<R, PARTS>(out, &H1, consts(&P7681));
    if REDUCE && PARTS == MAX_PARTS {
        five_rq::<P, Q>(full, &mut y, ab);
    } else if REDUCE {
        let mut e0: [Part<R>; PARTS] = [[[0; 16]; R]; PARTS];
        let mut e = Wipe::new(&mut e0);
        parts_512::<P, false>(&mut e[..], &mut y, ab, (1, &P10753));
        let e = e.as_flattened_mut();
        let (g, k2) = (Garner::of::<Q, 7681, 10753>(&P10753), consts(&P10753));
        for j in 0..R {
            let z = core::array::from_fn(|i| load(&e[j + R * i]));
            let c = interpolate!(z, j, &H2, k2, PARTS, false);
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
/// Garner's CRT with 7681's F, into `full[..f]` (the caller freezes
/// `full[..p]` alone: [`super::ntt3_folds`]).
/// Bounds: every c reduced (|.| <= p/2 + p/2^9), so F below 3p/2 + 3p/2^9,
/// both primes' left unreduced: 7681's below 3 * 3855 = 11,565 and
/// 10753's below 3 * 5397 = 16,191, inside the 11,565 and 21,527 that
/// [`Garner::apply`] takes for `c1` and `c2` (`garner_at_the_bounds` tests
/// those wider bounds); the integer `|F_k| <= 3 p (q - 1)/2 < 2^24` (p =
/// 1277, q = 7879: 15,090,309), the range of [`Garner::apply`]. The output
/// below 11,565 + 3q/4 < 2^15, as `freeze_folded` takes (any i16).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn five_rq<const P: usize, const Q: i16>(full: &mut [i16], y: &mut Part<HALF>, ab: Sides<'_>) {
    let f = P.next_multiple_of(16);
    // The product's 2f coefficients, a known length (the loads below f + p <= 2f):
    // no bounds checks left in the loop.
    let c = &mut full[..2 * f];
    for r in 0..f >> 4 {
        let ld = |m: usize| load(c[m..m + 16].try_into().expect("inside c"));
        let v = fold_at::<P>(16 * r, (ld, ld));
        store(
            (&mut c[16 * r..16 * r + 16]).try_into().expect("inside F"),
            v,
        );
    }
    let (blocks, _) = full[f..f + SEAM].as_chunks_mut::<16>();
    let mut l0: Part<HALF> = [[0; 16]; HALF];
    let mut l = Wipe::new(&mut l0);
    let (bs, _) = blocks.as_chunks_mut::<HALF>();
    parts_512::<P, false>(bs.iter_mut().chain([&mut *l]), y, ab, (1, &P10753));
    five_finish::<P, Q>(full, &mut l);
}

/// The end of [`five_rq`] (its own frame: the part products above run
/// without these registers' spills): 10753's parts interpolated in place,
/// folded (no reduction: [`five_rq`]'s bounds) and recombined with 7681's
/// F into `full[..f]`.
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
        let c = interpolate!(z, j, &H2, k2, MAX_PARTS, true);
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
    let below = |n: usize| load(c[n..].first_chunk::<16>().expect("inside c"));
    let above = |n: usize| load(v[n - SEAM..].first_chunk::<16>().expect("inside v"));
    let at = |n: usize| {
        if n + 16 <= SEAM {
            below(n)
        } else if n >= SEAM {
            above(n)
        } else {
            seam(c, v, n)
        }
    };
    let g = Garner::of::<Q, 7681, 10753>(&P10753);
    let (out, _) = out.as_chunks_mut::<16>();
    // F's registers k = 16 r (all below the seam) whose wrapped registers
    // (coefficients p + k - 1 ..= p + k + 15) lie below the seam, across it
    // (one or two, through `at`), above it: public ranges, so each loop's
    // loads without branches.
    let (r1, r2) = ((SEAM - P) >> 4, (SEAM + 1 - P).div_ceil(16));
    let fold = |o: &mut [i16; 16], w| store(o, g.apply(load(o), w));
    let mut out = out.iter_mut().enumerate();
    for (r, o) in out.by_ref().take(r1) {
        fold(o, fold_at::<P>(16 * r, (below, below)));
    }
    for (r, o) in out.by_ref().take(r2 - r1) {
        fold(o, fold_at::<P>(16 * r, (below, at)));
    }
    for (r, o) in out {
        fold(o, fold_at::<P>(16 * r, (below, above)));
    }
}

/// `F_k = c_k + c_(p+k) + c_(p+k-1)` for the register at k (`c(m)` loads
/// the register at coefficient m, `wrapped(m)` those at p + k and p + k - 1;
/// reduced c in, the sum unreduced out: below 3 (p/2 + p/2^9) < 2^15).
#[target_feature(enable = "avx2")]
#[inline]
fn fold_at<const P: usize>(
    k: usize,
    (c, wrapped): (impl Fn(usize) -> __m256i, impl Fn(usize) -> __m256i),
) -> __m256i {
    let s = _mm256_add_epi16(c(k), wrapped(P + k));
    // x^(p+k) = x^(k+1) + x^k: c_(p-1) is no wrapped coefficient of F_0
    // (lane 0 of the register at 0; k is public).
    let w = wrapped(P + k - 1);
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
    _mm256_add_epi16(s, w)
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
mod tests;
