//! sntrup1277's products (p = 1277) on 2560 = 1024 + 1024 + 512 points,
//! AVX2 (the products of Core `KeyGen`, `Encrypt` and `Decrypt`, NTRU
//! Prime spec §2.3). The full product `c = a b` has degree `2p - 2 = 2552`,
//! below the degree 2560 of `M = (x^2048 - 1)(x^512 - γ)` for any γ with
//! `γ^4 != 1` (then the two factors are coprime: a common root z would have
//! `z^2048 = 1 = γ^4`), so `c` is given by its residues modulo `x^1024 - 1`
//! (part A), `x^1024 + 1` (part B) and `x^512 - γ` (part C), each a cyclic
//! product after a twist (the CRT of polynomials; 2560 points instead of the
//! 3 x 1024 of the radix-3 layer of the parent module):
//! * A: `x^1024 - 1`, the factors folded `v_j + v_(j+1024)`;
//! * B: `x = ζ y` with ζ a primitive 2048-th root (ζ^1024 = -1), factors
//!   `(v_j - v_(j+1024)) ζ^j`;
//! * C: `x = β y` with β of order 1536, γ = β^512 a primitive cube root of
//!   unity (γ^4 = γ != 1), factors `(v_j + γ v_(j+512) + γ^2 v_(j+1024)) β^j`
//!   on the 512-point transform (the 1024-point tables' first 32 registers,
//!   as `parts.rs`, reduced as the 1024-point one: [`forward_cut`]).
//!
//! Recombination ([`residues`]): `r = c mod (x^2048 - 1)` is
//! `r_j = (D_A[j] + D_B[j]) / 2`, `r_(j+1024) = (D_A[j] - D_B[j]) / 2`
//! (`D_B[j] = ζ^(-j) Z_B[j]`). Writing `c = u + x^2048 v` (deg u < 2048,
//! deg v <= 504 < 512): `r = u + v`, and modulo `x^512 - γ` (x^2048 = γ^4 =
//! γ, x^512 = γ) `D_C = Σ_m γ^m u_(512m + j) + γ v_j = Σ_m γ^m r_(512m+j) -
//! v_j + γ v_j`, so `v_j = (D_C[j] - Σ_(m<4) γ^m r_(512m+j)) / (γ - 1)`
//! (γ^3 = 1: the sum is `r_j + r_(j+1536) + γ r_(j+512) + γ^2 r_(j+1024)`),
//! `c_n = r_n - v_n` (n < 512), `r_n` (n < 2048), `v_(n-2048)` (n < 2560).
//!
//! The exact R/3 product ([`ntt3_exact_avx2`], 12289 only: |c| <= p) is
//! that c. The R/q product ([`ntt3_rq_avx2`]) folds each prime's c in place
//! by x^p = x + 1 into `F_k = c_k + c_(p+k) + c_(p+k-1)` ([`fold_in_place`];
//! 12289's F in the scratch's first `f_len(p)` entries, then 18433's c
//! above it) and recombines the two by Garner's CRT (`|F_k| <= 3 p (q -
//! 1)/2 < 2^24`). The small factor may come as its kept part transforms
//! (a prepared decapsulation key's f and 1/g, [`prepare_1024`]: parts A and
//! B in `Hat`s 3 pi and 3 pi + 1, part C in the first 32 registers of `Hat`
//! 3 pi + 2; 6 and 3 [`Hat`]s). Twin: the portable Karatsuba product
//! `mult::mul_full` (compared in `mult::tests::avx2_products_match_portable`);
//! kept parts against coefficients in `kept_1024_products_match` below.
//! Every loop bound and index depends on p only.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_setr_epi16, _mm256_setzero_si256,
    _mm256_sub_epi16,
};

use super::super::{
    K, Mul, P1, P2, Prime, REGS, barrett, consts, dif_outer4, inverse, load, mont, montmul,
    pointwise, pow_mod, regs, squeeze, store,
};
use super::{Garner, HALF, Part, Src, bc, f_len, inverse_512, mulc, ntt3_scratch, root, widen16};
use crate::arch::{Hat, Side};
use crate::wipe::{Wipe, Wipeable};
use pqdr_common::simd::Avx2;

/// Coefficients of `c mod (x^2048 - 1)`, the residue of parts A and B.
const CYC: usize = 2 * 16 * REGS;

/// The constants of one prime for the three parts, values and companions
/// (Montgomery form).
struct Split {
    /// Part B's twist ζ^j and untwist `ζ^(-j) / 2` (the 1/2 of `r`).
    twist_b: [Part<REGS>; 2],
    untw_b: [Part<REGS>; 2],
    /// Part C's twist β^j and untwist `2 β^(-j) / (γ - 1)` (the 2 undoes the
    /// 512-point inverse's scale 1/2, see `inverse_512`).
    twist_c: [Part<HALF>; 2],
    untw_c: [Part<HALF>; 2],
    /// -1 (part B's upper block), γ and γ^2 (part C's blocks 1 and 2).
    up: [Mul; 3],
    /// 1/2 (part A's share of `r`).
    half: Mul,
    /// `1/(γ - 1)`, `γ/(γ - 1)`, `γ^2/(γ - 1)`: the sum of `v_j`.
    lift: [Mul; 3],
}

#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn split(p: i16) -> Split {
    let m = p as i64;
    // ζ: order 2048 (ζ^1024 != 1); β: order 1536 (β^768, β^512 != 1).
    let zeta = root(m, 2048, [1024, 1024]);
    let beta = root(m, 1536, [768, 512]);
    let gamma = pow_mod(beta, 512, m);
    let g1 = pow_mod(gamma - 1, m as u64 - 2, m);
    let half = (m + 1) / 2;
    let mut s = Split {
        twist_b: [[[0; 16]; REGS]; 2],
        untw_b: [[[0; 16]; REGS]; 2],
        twist_c: [[[0; 16]; HALF]; 2],
        untw_c: [[[0; 16]; HALF]; 2],
        up: [mont(m - 1, m), mont(gamma, m), mont(gamma * gamma % m, m)],
        half: mont(half, m),
        lift: [
            mont(g1, m),
            mont(gamma * g1 % m, m),
            mont(gamma * gamma % m * g1 % m, m),
        ],
    };
    let (zi, bi) = (
        pow_mod(zeta, m as u64 - 2, m),
        pow_mod(beta, m as u64 - 2, m),
    );
    let mut j = 0;
    while j < 16 * REGS {
        let (r, l) = (j / 16, j % 16);
        let e = j as u64;
        let v = [
            mont(pow_mod(zeta, e, m), m),
            mont(pow_mod(zi, e, m) * half % m, m),
            mont(pow_mod(beta, e, m), m),
            mont(pow_mod(bi, e, m) * 2 % m * g1 % m, m),
        ];
        let mut h = 0;
        while h < 2 {
            s.twist_b[h][r][l] = v[0][h];
            s.untw_b[h][r][l] = v[1][h];
            if r < HALF {
                s.twist_c[h][r][l] = v[2][h];
                s.untw_c[h][r][l] = v[3][h];
            }
            h += 1;
        }
        j += 1;
    }
    s
}

static S1: Split = split(12289);
static S2: Split = split(18433);

/// How one part folds a factor: the multipliers of its blocks 1 and 2 (of
/// 16 R coefficients; `None` for 1) and the twist (`None` for 1).
#[derive(Clone, Copy)]
struct Cut<'a, const R: usize> {
    up: [Option<Mul>; 2],
    twist: Option<&'a [Part<R>; 2]>,
}

/// Parts A, B and C of prime `pi`.
fn cuts(pi: usize) -> (&'static Split, [Cut<'static, REGS>; 2], Cut<'static, HALF>) {
    let s = if pi == 0 { &S1 } else { &S2 };
    let a = Cut {
        up: [None, None],
        twist: None,
    };
    let b = Cut {
        up: [Some(s.up[0]), None],
        twist: Some(&s.twist_b),
    };
    let c = Cut {
        up: [Some(s.up[1]), Some(s.up[2])],
        twist: Some(&s.twist_c),
    };
    (s, [a, b], c)
}

/// Register j of the factor `v` (`lo` its full registers), zero-padded
/// past p (a copy only for the last, partial register: j and p are
/// public); `None` past p.
#[target_feature(enable = "avx2")]
#[inline]
fn reg_of<const P: usize, T: Copy + Default>(
    (lo, v): (&[[T; 16]], &[T]),
    ld: &impl Fn(&[T; 16]) -> __m256i,
    j: usize,
) -> Option<__m256i>
where
    [T; 16]: Wipeable,
{
    match lo.get(j) {
        Some(c) => Some(ld(c)),
        None if 16 * j < P => Some(partial(&v[16 * j..P], ld)),
        None => None,
    }
}

/// The last, partial register `v` (below 16 coefficients), zero-padded
/// through a copy (wiped).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn partial<T: Copy + Default>(v: &[T], ld: &impl Fn(&[T; 16]) -> __m256i) -> __m256i
where
    [T; 16]: Wipeable,
{
    let mut h = [T::default(); 16];
    h[..v.len()].copy_from_slice(v);
    ld(&Wipe::new(&mut h))
}

/// Register r of the part `cut` of the factor `v`: blocks 0, 1, 2
/// (registers r, r + R, r + 2R of v) times 1 and `cut.up`, summed, times
/// the twist (bounds at [`forward_cut`]).
#[target_feature(enable = "avx2")]
#[inline]
fn fold_reg<const P: usize, const R: usize, T: Copy + Default>(
    v: (&[[T; 16]], &[T]),
    ld: &impl Fn(&[T; 16]) -> __m256i,
    r: usize,
    cut: Cut<'_, R>,
    k: K,
) -> __m256i
where
    [T; 16]: Wipeable,
{
    let mut s = reg_of::<P, T>(v, ld, r).expect("p > 1024");
    for (m, up) in cut.up.iter().enumerate() {
        if let Some(h) = reg_of::<P, T>(v, ld, r + (m + 1) * R) {
            let h = match up {
                Some(c) => mulc(h, *c, k),
                None => h,
            };
            s = _mm256_add_epi16(s, h);
        }
    }
    match cut.twist {
        Some(w) => montmul(s, load(&w[0][r]), load(&w[1][r]), k.p),
        None => s,
    }
}

/// The part `cut` of the factor `v` (p = P, `|v| < 2^12`),
/// forward-transformed into `x` (R = 64: 1024 points, R = 32: 512): each
/// register folded from v's blocks (at most three, zero past p) and
/// twisted, then the first layers across the registers in the same pass
/// ([`dif_outer4`] for 1024 points, the butterfly at distance 16 with ζ'^r
/// for 512), then the per-block steps (`regs::block_forward`, reduced).
/// Bounds: the fold is below `2^12 + 2^12` (A), `2^12 + 3p/4` (B) or
/// `2^12 + 2 (3p/4) <= 31,743 < 2^15` (C, 18433), the twist's Montgomery
/// product below 3p/4; so [`dif_outer4`]'s inputs stay below 3p/4 or 2^13
/// (its sums below 2^15), and the 512-point layer's sum below 3p/2 < 2^15
/// before its [`squeeze`] (then as in `dif_outer4`: below 12290 or 3p/4).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn forward_cut<const P: usize, const R: usize, T: Copy + Default>(
    x: &mut Part<R>,
    v: &[T],
    ld: impl Fn(&[T; 16]) -> __m256i,
    cut: Cut<'_, R>,
    t: &Prime,
) where
    [T; 16]: Wipeable,
{
    assert!(
        P > 16 * REGS && P <= 16 * REGS + 256,
        "forward_cut: p outside 1025..=1280"
    );
    let k = consts(t);
    let (lo, _) = v[..P].as_chunks::<16>();
    for r in 0..16 {
        if R == REGS {
            let mut a = [_mm256_setzero_si256(); 4];
            for (q, aq) in a.iter_mut().enumerate() {
                *aq = fold_reg::<P, R, T>((lo, v), &ld, r + 16 * q, cut, k);
            }
            for (q, b) in dif_outer4(a, r, &t.reg_fwd, k).into_iter().enumerate() {
                store(&mut x[r + 16 * q], b);
            }
        } else {
            let u = fold_reg::<P, R, T>((lo, v), &ld, r, cut, k);
            let w = fold_reg::<P, R, T>((lo, v), &ld, r + 16, cut, k);
            let (wr, wq) = bc(t.reg_fwd[2 * r]);
            store(&mut x[r], squeeze(_mm256_add_epi16(u, w), k));
            store(&mut x[r + 16], montmul(_mm256_sub_epi16(u, w), wr, wq, k.p));
        }
    }
    let (blocks, _) = x.as_chunks_mut::<16>();
    for (j, block) in blocks.iter_mut().enumerate() {
        regs::block_forward::<false>(block, j, &t.twist, &t.lane_fwd, k);
    }
}

/// `Z = a b` modulo the part's polynomial, twisted (`cut`) into `x`, any
/// i16 (the inverse transform's outputs): both factors' [`forward_cut`]
/// (`y` holds b's), the pointwise product, the inverse (times 1/2 for 512
/// points, see `inverse_512`).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn part<const P: usize, const R: usize>(
    x: &mut Part<R>,
    y: &mut Part<R>,
    (a, b): (&[i16], Src<'_, i8, R>),
    cut: Cut<'_, R>,
    t: &Prime,
) {
    let k = consts(t);
    forward_cut::<P, R, i16>(x, a, |c| load(c), cut, t);
    let y: &Part<R> = match b {
        Src::Coeffs(b) => {
            forward_cut::<P, R, i8>(y, b, |c| widen16(c), cut, t);
            y
        }
        Src::Kept(h) => h,
    };
    pointwise(x, y, k);
    let x: &mut [[i16; 16]] = x;
    if let Ok(x) = <&mut Part<REGS>>::try_from(&mut *x) {
        inverse(x, t, k);
    } else if let Ok(x) = <&mut Part<HALF>>::try_from(x) {
        inverse_512::<false>(x, t, k);
    }
}

/// Part i (A, B) of prime `pi` of the small factor: its coefficients, or its
/// kept transform (`Hat` 3 pi + i).
fn src_b<'a>(b: Side<'a, i8>, pi: usize, i: usize) -> Src<'a, i8, REGS> {
    match b {
        Side::Coeffs(c) => Src::Coeffs(c),
        Side::Hat(h) => Src::Kept(&h[3 * pi + i]),
    }
}

/// Part C of prime `pi` of the small factor (the first 32 registers of
/// `Hat` 3 pi + 2 when kept).
fn src_c<'a>(b: Side<'a, i8>, pi: usize) -> Src<'a, i8, HALF> {
    match b {
        Side::Coeffs(c) => Src::Coeffs(c),
        Side::Hat(h) => Src::Kept(h[3 * pi + 2][..HALF].try_into().expect("32 registers")),
    }
}

/// The full product modulo prime `pi`: `c_0 .. c_2047` into `w` (128
/// registers) and `v = c_2048 .. c_2559` into `y`'s first 32 registers (`y`
/// also serves the transforms of b), each centred, |.| <= p/2 + p/2^9.
/// Bounds: the parts' `Z` any i16 (each enters a Montgomery product first,
/// < 3p/4), `r`'s sums below 3p/2, `v`'s partial sums below 3p/2 (the first
/// `r_j + r_(j+1536)` below p + p/2^8), each [`barrett`]-reduced, and
/// `r_n - v_n` below p + p/2^8: all inside i16.
#[target_feature(enable = "avx2")]
fn residues<const P: usize>(
    w: &mut [[i16; 16]],
    y: &mut Part<REGS>,
    (a, b): (&[i16], Side<'_, i8>),
    pi: usize,
) {
    let t = if pi == 0 { &P1 } else { &P2 };
    let (s, [ca, cb], cc) = cuts(pi);
    let (wa, wb) = w[..2 * REGS].split_at_mut(REGS);
    let wa: &mut Part<REGS> = wa.try_into().expect("64 registers");
    let wb: &mut Part<REGS> = wb.try_into().expect("64 registers");
    part::<P, REGS>(wa, y, (a, src_b(b, pi, 0)), ca, t);
    part::<P, REGS>(wb, y, (a, src_b(b, pi, 1)), cb, t);
    halves(wa, wb, s, t);
    let (yc, yb) = y.split_at_mut(HALF);
    let yc: &mut Part<HALF> = yc.try_into().expect("32 registers");
    let yb: &mut Part<HALF> = yb.try_into().expect("32 registers");
    part::<P, HALF>(yc, yb, (a, src_c(b, pi)), cc, t);
    lift(w, yc, s, t);
}

/// `r = c mod (x^2048 - 1)` in place from the residues modulo x^1024 - 1
/// (`wa`: `Z_A`) and x^1024 + 1 (`wb`: `Z_B`, untwisted here):
/// `r_j = (D_A + D_B) / 2`, `r_(j+1024) = (D_A - D_B) / 2` (bounds at
/// [`residues`]). Out of line: [`residues`]' frame stays small (the stack
/// budget).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn halves(wa: &mut Part<REGS>, wb: &mut Part<REGS>, s: &Split, t: &Prime) {
    let k = consts(t);
    for (j, (l, h)) in wa.iter_mut().zip(wb.iter_mut()).enumerate() {
        let u = mulc(load(l), s.half, k);
        let d = montmul(load(h), load(&s.untw_b[0][j]), load(&s.untw_b[1][j]), k.p);
        store(l, barrett(_mm256_add_epi16(u, d), k));
        store(h, barrett(_mm256_sub_epi16(u, d), k));
    }
}

/// `v_j = (D_C[j] - Σ_m γ^m r_(512m+j)) / (γ - 1)` into `yc` (from part C's
/// `Z_C`, untwisted here) and `c_j = r_j - v_j` into `w` (j < 512; bounds
/// at [`residues`]; out of line as [`halves`]).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn lift(w: &mut [[i16; 16]], yc: &mut Part<HALF>, s: &Split, t: &Prime) {
    let k = consts(t);
    for (j, vr) in yc.iter_mut().enumerate() {
        let d = montmul(load(vr), load(&s.untw_c[0][j]), load(&s.untw_c[1][j]), k.p);
        let r0 = load(&w[j]);
        let m0 = mulc(_mm256_add_epi16(r0, load(&w[j + 3 * HALF])), s.lift[0], k);
        let m1 = mulc(load(&w[j + HALF]), s.lift[1], k);
        let m2 = mulc(load(&w[j + 2 * HALF]), s.lift[2], k);
        let d = barrett(_mm256_sub_epi16(d, m0), k);
        let v = barrett(_mm256_sub_epi16(d, barrett(_mm256_add_epi16(m1, m2), k)), k);
        store(vr, v);
        store(&mut w[j], barrett(_mm256_sub_epi16(r0, v), k));
    }
}

/// The exact product (R/3, `|a|, |b| <= 1`): the full product `c` (degree
/// `2p - 2 < 2560`, `|c_k| <= p`, so exact modulo 12289: centred residues
/// below p/2 + p/2^9 are c itself) into `full[..2560]` (`c_k = 0` for
/// `k >= 2p - 1`).
#[target_feature(enable = "avx2")]
pub(super) fn ntt3_exact_avx2<const P: usize>(full: &mut [i16], a: &[i16], b: Side<'_, i8>) {
    let mut y0: Part<REGS> = [[0; 16]; REGS];
    let mut y = Wipe::new(&mut y0);
    let (regs, _) = full.as_chunks_mut::<16>();
    let (w, high) = regs.split_at_mut(2 * REGS);
    residues::<P>(w, &mut y, (a, b), 0);
    high[..HALF].copy_from_slice(&y[..HALF]);
}

/// `ntt3_mul_sides` for sntrup1277: `a` as coefficients, `b` as its
/// coefficients or its kept parts (6 `Hat`s for `REDUCE`, else 3).
pub(super) fn ntt3_mul_sides_1024<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: Side<'_, i16>,
    b: Side<'_, i8>,
) {
    let Side::Coeffs(a) = a else {
        panic!("ntt3_mul_sides: a kept for p > 1024")
    };
    let need = if REDUCE { 6 } else { 3 };
    assert!(b.covers(need), "ntt3_mul_sides: too few transforms");
    let _ = token;
    let full = &mut full[..ntt3_scratch(P)];
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe {
        if REDUCE {
            ntt3_rq_avx2::<P, Q>(full, a, b);
        } else {
            ntt3_exact_avx2::<P>(full, a, b);
        }
    }
}

/// `ntt3_prepare` for sntrup1277: the small factor's kept part transforms
/// (`a` must be `None`; both primes for 6 `Hat`s, else 12289's).
pub(super) fn ntt3_prepare_1024<const P: usize>(
    token: Avx2,
    out: &mut [Hat],
    a: Option<&[i16; P]>,
    b: &[i8; P],
) {
    assert!(a.is_none(), "ntt3_prepare: a kept for p > 1024");
    let _ = token;
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { prepare_1024::<P>(out, b) };
}

/// The small factor's kept part transforms (both primes for 6 `Hat`s, else
/// 12289's): `Hat` 3 pi + i holds part i (A, B) of prime pi,
/// forward-transformed, and the first 32 registers of `Hat` 3 pi + 2 its
/// part C (the other 32 left as they are).
#[target_feature(enable = "avx2")]
fn prepare_1024<const P: usize>(out: &mut [Hat], b: &[i8; P]) {
    let primes = if out.len() >= 6 { 2 } else { 1 };
    for (pi, xs) in out[..3 * primes].chunks_exact_mut(3).enumerate() {
        let t = if pi == 0 { &P1 } else { &P2 };
        let (_, ab, c) = cuts(pi);
        for (x, cut) in xs.iter_mut().zip(ab) {
            forward_cut::<P, REGS, i8>(x, b, |c| widen16(c), cut, t);
        }
        let x: &mut Part<HALF> = (&mut xs[2][..HALF]).try_into().expect("32 registers");
        forward_cut::<P, HALF, i8>(x, b, |c| widen16(c), c, t);
    }
}

/// The folded product modulo q (|.| < 2^14) into `full[..p]` (entries
/// `p..f_len(p)` left arbitrary), from `a` (|a| < 2^12) and the small `b`;
/// `full` holds at least `f_len(p) + 2048` entries: 12289's c in
/// `full[..2048]` (and `y`), folded in place, then 18433's in
/// `full[f_len(p)..]`, folded in place, then Garner's CRT.
#[target_feature(enable = "avx2")]
pub(super) fn ntt3_rq_avx2<const P: usize, const Q: i16>(
    full: &mut [i16],
    a: &[i16],
    b: Side<'_, i8>,
) {
    let mut y0: Part<REGS> = [[0; 16]; REGS];
    let mut y = Wipe::new(&mut y0);
    for pi in 0..2 {
        folded::<P>(&mut full[pi * f_len(P)..][..CYC], &mut y, (a, b), pi);
    }
    let (f1, f2) = full.split_at_mut(f_len(P));
    let g = Garner::new::<Q>();
    let (c1s, _) = f1.as_chunks_mut::<16>();
    let (c2s, _) = f2[..f_len(P)].as_chunks::<16>();
    for (o, c2) in c1s.iter_mut().zip(c2s) {
        let v = g.apply(load(o), load(c2));
        store(o, v);
    }
    // y and the second c (secret) are wiped by the guard and the caller's scratch guard.
}

/// The product modulo prime `pi` ([`residues`]: c in `w` and `y`), folded
/// in place into `w[..f_len(p)]` ([`fold_in_place`]).
#[target_feature(enable = "avx2")]
#[inline]
fn folded<const P: usize>(
    w: &mut [i16],
    y: &mut Part<REGS>,
    ab: (&[i16], Side<'_, i8>),
    pi: usize,
) {
    let (regs, _) = w.as_chunks_mut::<16>();
    residues::<P>(regs, y, ab, pi);
    let t = if pi == 0 { &P1 } else { &P2 };
    fold_in_place::<P>(w, y[..HALF].as_flattened(), consts(t));
}

/// 16 entries of the full product from `c_n`: `c` holds `c_0 .. c_2047`,
/// `v` `c_2048 .. c_2559` (n is public).
#[target_feature(enable = "avx2")]
#[inline]
fn at(c: &[i16], v: &[i16], n: usize) -> __m256i {
    if n + 16 <= CYC {
        load(c[n..].first_chunk::<16>().expect("inside c"))
    } else if n >= CYC {
        load(v[n - CYC..].first_chunk::<16>().expect("inside v"))
    } else {
        seam(c, v, n)
    }
}

/// [`at`] for the register across the seam `n < 2048 < n + 16`, through a
/// copy (wiped).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn seam(c: &[i16], v: &[i16], n: usize) -> __m256i {
    let mut s = [0i16; 16];
    let mut s = Wipe::new(&mut s);
    let (lo, hi) = s.split_at_mut(CYC - n);
    lo.copy_from_slice(&c[n..CYC]);
    hi.copy_from_slice(&v[..16 - (CYC - n)]);
    load(&s)
}

/// `F_k = c_k + c_(p+k) + c_(p+k-1)` (the last for k >= 1) of the full
/// product (`c_0 .. c_2047` in `c`, the rest in `v`, [`at`]; each |.| <=
/// p/2 + p/2^9, so the sum of three, below 3p/2 + 3p/2^9 < 2^15, stays in
/// i16) into `c[..p]`, reduced (|.| <= p/2 + p/2^9), register by register
/// upwards: register r writes entries below `16 r + 16` and reads
/// `c_(p+k-1)` at `p + 16 r - 1` and above, which no earlier register
/// wrote (entries `p..f_len(p)` of the last register are written after
/// register 0, their only reader). Reads of v stay below `p + f_len(p) - 2048
/// <= 512`.
#[target_feature(enable = "avx2")]
#[inline]
fn fold_in_place<const P: usize>(c: &mut [i16], v: &[i16], k: K) {
    assert!(
        P > 16 && P + f_len(P) <= CYC + 16 * HALF,
        "fold_in_place: p outside 1025..=1280"
    );
    // Register 0 without c_(p-1) in lane 0.
    let not0 = _mm256_setr_epi16(
        0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    for n in (0..f_len(P)).step_by(16) {
        let mut low = at(c, v, P + n - 1);
        if n == 0 {
            low = _mm256_and_si256(low, not0);
        }
        let s = _mm256_add_epi16(_mm256_add_epi16(at(c, v, n), at(c, v, P + n)), low);
        let o = c[n..].first_chunk_mut::<16>().expect("inside c");
        store(o, barrett(s, k));
    }
}

#[cfg(test)]
mod tests;
