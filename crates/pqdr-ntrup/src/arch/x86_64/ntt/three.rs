//! The R/q and R/3 products by transforms of 3n points, n = 1024 for
//! sntrup1277 (1024 < p <= 1536: the product `c = a b` has degree
//! `2p - 2 < 3072`) and n = 512 for sntrup653 and sntrup761 (512 < p <= 768,
//! degree < 1536), AVX2 (the products of Core `KeyGen`, `Encrypt` and
//! `Decrypt`, NTRU Prime spec §2.3). Twin: the portable Karatsuba product
//! `mult::mul_full` (same full product, compared in
//! `mult::tests::avx2_products_match_portable`).
//!
//! The transform primes have a primitive 3n-th root of unity ψ: 12289 and
//! 18433 of `ntt.rs` for n = 1024 (12289 - 1 = 3 * 2^12, 18433 - 1 = 9 *
//! 2^11), 7681 and 10753 for n = 512 (7681 - 1 = 15 * 2^9, 10753 - 1 =
//! 21 * 2^9; smaller, so the 512-point transforms reduce lazily, see
//! `parts.rs`); ω = ψ^n is a primitive
//! cube root of unity and `x^3n - 1 = (x^n - 1)(x^n - ω)(x^n - ω^2)`
//! (the radix-3 first layer). Modulo `x^n - ω^i`, `x = ψ^i y` turns the
//! product into the cyclic n-point product of the factors
//! `(v_j + ω^i v_(j+n)) ψ^(ij)` (part i), so each part runs the
//! 1024-point transforms of `ntt.rs` unchanged (n = 1024), or their first
//! 32 registers (n = 512: [`forward_512`], [`inverse_512`]), and
//! `D_i[j] = ψ^(-ij) Z_i[j] = c_j + ω^i c_(j+n) + ω^(2i) c_(j+2n)`.
//! The inverse 3-point DFT gives `c_(j+nk) = (1/3) Σ_i ω^(-ik) D_i[j]`
//! ([`combine`], with the untwist and the 1/3 in its multipliers), in
//! place where the parts' inverse transforms are in the product buffer
//! (n = 512, and sntrup1277's exact R/3 product: the full product, 3072
//! entries). sntrup1277's R/q product ([`rq`]) does so modulo 12289 and
//! folds that full product in place; modulo 18433 it applies the 1/3 to
//! each `D_i` instead (`E_i = D_i / 3`) and never stores the full product:
//! each part's `E_i` is added, times `ω^(-im)`, into the folded product
//! `F_k = c_k + c_(p+k) + c_(p+k-1)` (x^p = x + 1; `F` is linear in c, so
//! in the `E_i`) at the positions `n = j + n m` that `F` reads (one pass
//! over `F` per part, [`accumulate`]; `|F_k| <= 3 p (q - 1)/2 < 2^24`); the two `F`s
//! are recombined by Garner's CRT as in `ntt.rs`. Both `F`s and one
//! transform fit the scratch, with one local transform. Every
//! loop bound and index depends on p only.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi16, _mm256_and_si256, _mm256_cvtepi8_epi16,
    _mm256_set1_epi16, _mm256_setr_epi16, _mm256_sub_epi16,
};

use super::{
    K, Mul, P1, P7681, Poly, Prime, REGS, barrett, consts, dif_outer4, inverse, load, mont,
    montmul, mul_lanes, pointwise, pow_mod, regs, store,
};
use crate::arch::Side;
use crate::wipe::{Wipe, Wipeable};
use pqdr_common::simd::Avx2;

mod garner;
mod parts;
mod rq;
use garner::Garner;
pub(crate) use parts::ntt3_512;
use parts::{forward_512_a, forward_512_b, inverse_512};
use parts::{ntt3_mul_sides_512, ntt3_prepare_512};

/// Registers of a 512-point transform.
const HALF: usize = REGS >> 1;

/// Registers of one part's transform for degree p: 64 (n = 1024) for
/// p > 768, else 32 (n = 512).
const fn regs_of(p: usize) -> usize {
    if p > 768 { REGS } else { HALF }
}

/// Whether the 3n-point product serves degree p (n = 16 [`regs_of`]`(p)`):
/// `n < p` and `2p - 1 <= 3n`.
pub(crate) const fn ntt3_fits(p: usize) -> bool {
    let n = 16 * regs_of(p);
    p > n && 2 * p <= 3 * n
}

/// One part's polynomial: R registers of 16 lanes.
type Part<const R: usize> = [[i16; 16]; R];

/// The radix-3 constants of one prime for parts of R registers.
struct Three<const R: usize> {
    /// ψ^(ij) and ψ^(-ij) (index i - 1, i = 1, 2) at coefficient
    /// j = 16 register + lane: values and companions.
    psi: [[Part<R>; 2]; 2],
    psi_inv: [[Part<R>; 2]; 2],
    /// ω and ω^2.
    omega: [Mul; 2],
    /// 1/3, times 2 for n = 512 (the inverse transform's untwist carries
    /// 1/1024, its first 32 registers' inverse scales by 512).
    third: Mul,
    /// `third ψ^(-ij) / 2` (i = 1, 2), the untwist of [`combine`]: values
    /// and companions.
    untw: [[Part<R>; 2]; 2],
    /// The inverse 3-point DFT's multipliers ([`combine`]): `third` and
    /// `ω^-1 - ω^-2`.
    comb: [Mul; 2],
}

#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn three<const R: usize>(p: i16) -> Three<R> {
    let m = p as i64;
    let n = 16 * R as u64;
    // ψ: a primitive 3n-th root of unity (ψ^(3n/2) != 1, ψ^n != 1).
    let mut g = 2;
    let psi = loop {
        let psi = pow_mod(g, (m as u64 - 1) / (3 * n), m);
        if pow_mod(psi, 3 * n / 2, m) != 1 && pow_mod(psi, n, m) != 1 {
            break psi;
        }
        g += 1;
    };
    let psi_i = pow_mod(psi, m as u64 - 2, m);
    let w = pow_mod(psi, n, m);
    let w2 = w * w % m;
    let th = pow_mod(3, m as u64 - 2, m) * (REGS / R) as i64 % m;
    let half = (m + 1) / 2;
    let mut tab = [[[[0; 16]; R]; 2]; 2];
    let mut tab_i = [[[[0; 16]; R]; 2]; 2];
    let mut tab_u = [[[[0; 16]; R]; 2]; 2];
    let mut i = 0;
    while i < 2 {
        let mut j = 0;
        while j < R {
            let mut n2 = 0;
            while n2 < 16 {
                let e = (i as u64 + 1) * (16 * j + n2) as u64;
                let v = [mont(pow_mod(psi, e, m), m), mont(pow_mod(psi_i, e, m), m)];
                tab[i][0][j][n2] = v[0][0];
                tab[i][1][j][n2] = v[0][1];
                tab_i[i][0][j][n2] = v[1][0];
                tab_i[i][1][j][n2] = v[1][1];
                let u = mont(pow_mod(psi_i, e, m) * (th * half % m) % m, m);
                tab_u[i][0][j][n2] = u[0];
                tab_u[i][1][j][n2] = u[1];
                n2 += 1;
            }
            j += 1;
        }
        i += 1;
    }
    Three {
        psi: tab,
        psi_inv: tab_i,
        omega: [mont(w, m), mont(w2, m)],
        third: mont(th, m),
        untw: tab_u,
        comb: [mont(th, m), mont((w2 - w + m) % m, m)],
    }
}

static T1: Three<REGS> = three(12289);
static T2: Three<REGS> = three(18433);
static H1: Three<HALF> = three(7681);
static H2: Three<HALF> = three(10753);

/// The transforms of one part's size: the 1024-point ones of `ntt.rs`
/// (64 registers) or their first 32 registers (512 points).
trait Size<const R: usize> {
    /// The radix-3 constants of prime `t` (12289 or 18433 for n = 1024,
    /// 7681 or 10753 for n = 512).
    fn three(t: &Prime) -> &'static Three<R>;
    /// Part i of `a` (p = P), forward-transformed, into `x`.
    fn forward_a<const P: usize>(x: &mut Part<R>, a: &[i16], i: usize, t: &Prime, k: K);
    /// Part i of the small `b`, forward-transformed, into `y`.
    fn forward_b<const P: usize>(y: &mut Part<R>, b: &[i8], i: usize, t: &Prime, k: K);
    /// The inverse transform, times 2^16 / 1024.
    fn inverse(x: &mut Part<R>, t: &Prime, k: K);
}

/// Selects [`Size`] by the register count.
struct Regs;

impl Size<REGS> for Regs {
    fn three(t: &Prime) -> &'static Three<REGS> {
        if t.p == P1.p { &T1 } else { &T2 }
    }
    #[inline(always)]
    fn forward_a<const P: usize>(x: &mut Poly, a: &[i16], i: usize, t: &Prime, k: K) {
        // SAFETY: reached only from `ntt3_avx2`, behind the `Avx2` token.
        unsafe { forward_1024::<P, i16>(x, a, |c| load(c), (i, t), k) }
    }
    #[inline(always)]
    fn forward_b<const P: usize>(y: &mut Poly, b: &[i8], i: usize, t: &Prime, k: K) {
        // SAFETY: as above.
        unsafe { forward_1024::<P, i8>(y, b, |c| widen16(c), (i, t), k) }
    }
    #[inline(always)]
    fn inverse(x: &mut Poly, t: &Prime, k: K) {
        // SAFETY: as above.
        unsafe { inverse(x, t, k) }
    }
}

impl Size<HALF> for Regs {
    fn three(t: &Prime) -> &'static Three<HALF> {
        if t.p == P7681.p { &H1 } else { &H2 }
    }
    #[inline(always)]
    fn forward_a<const P: usize>(x: &mut Part<HALF>, a: &[i16], i: usize, t: &Prime, k: K) {
        // SAFETY: as above.
        unsafe { forward_512_a::<P>(x, a, i, t, k) }
    }
    #[inline(always)]
    fn forward_b<const P: usize>(y: &mut Part<HALF>, b: &[i8], i: usize, t: &Prime, k: K) {
        // SAFETY: as above.
        unsafe { forward_512_b::<P>(y, b, i, t, k) }
    }
    #[inline(always)]
    fn inverse(x: &mut Part<HALF>, t: &Prime, k: K) {
        // SAFETY: as above.
        unsafe { inverse_512(x, t, k) }
    }
}

/// A constant multiplier broadcast.
#[target_feature(enable = "avx2")]
#[inline]
fn bc([w, wq]: Mul) -> (__m256i, __m256i) {
    (_mm256_set1_epi16(w), _mm256_set1_epi16(wq))
}

/// `x c` for the constant `c` (|result| < 3p/4).
#[target_feature(enable = "avx2")]
#[inline]
fn mulc(x: __m256i, c: Mul, k: K) -> __m256i {
    let (w, wq) = bc(c);
    montmul(x, w, wq, k.p)
}

/// Register r of part i of a factor v: `ψ^(ij) (v_j + ω^i v_(j+n))`
/// from `v` (register r of v) and `h` (register r + n/16, `None` past the
/// end). `|v|, |h| < 2^12`; outputs below 3p/4 (i > 0) or 2^13 (i = 0).
#[target_feature(enable = "avx2")]
#[inline]
fn fold_twist<const R: usize>(
    mut v: __m256i,
    h: Option<__m256i>,
    (r, i): (usize, usize),
    t3: &Three<R>,
    k: K,
) -> __m256i {
    if let Some(h) = h {
        let h = if i == 0 {
            h
        } else {
            mulc(h, t3.omega[i - 1], k)
        };
        v = _mm256_add_epi16(v, h);
    }
    if i > 0 {
        let m = &t3.psi[i - 1];
        v = montmul(v, load(&m[0][r]), load(&m[1][r]), k.p);
    }
    v
}

/// Part i of the factor `v` (p = P; `|v| < 2^12`), forward-transformed,
/// into `x` (n = 1024): each register [`fold_twist`]ed from `v` (`v`'s
/// upper part, at most 256 coefficients, meets registers r < 16 only) and
/// sent through the first radix-4 pass of the transform ([`dif_outer4`]:
/// registers r, r + 16, r + 32, r + 48 together) before `x` is written;
/// then the per-block steps of [`forward`]. `ld` loads 16 coefficients as
/// one register.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn forward_1024<const P: usize, T: Copy + Default>(
    x: &mut Part<REGS>,
    v: &[T],
    ld: impl Fn(&[T; 16]) -> __m256i,
    (i, t): (usize, &Prime),
    k: K,
) where
    [T; 16]: Wipeable,
{
    const N: usize = 16 * REGS;
    assert!(P > N && P - N <= 256, "forward_1024: p outside 1025..=1280");
    let hi_regs = (P - N).div_ceil(16);
    let t3 = <Regs as Size<REGS>>::three(t);
    let (lo, _) = v.as_chunks::<16>();
    for r in 0..16 {
        let h = (r < hi_regs).then(|| match upper(v, REGS + r) {
            Ok(c) => ld(c),
            Err(mut h) => ld(&Wipe::new(&mut h)),
        });
        let mut a = [fold_twist(ld(&lo[r]), h, (r, i), t3, k); 4];
        for (q, aq) in a.iter_mut().enumerate().skip(1) {
            let j = r + 16 * q;
            *aq = fold_twist(ld(&lo[j]), None, (j, i), t3, k);
        }
        let b = dif_outer4(a, r, &t.reg_fwd, k);
        for (q, v) in b.into_iter().enumerate() {
            store(&mut x[r + 16 * q], v);
        }
    }
    let (blocks, _) = x.as_chunks_mut::<16>();
    for (j, block) in blocks.iter_mut().enumerate() {
        regs::block_forward::<false>(block, j, &t.twist, &t.lane_fwd, k);
    }
}

/// 16 small coefficients sign-extended to one register.
#[target_feature(enable = "avx2")]
#[inline]
fn widen16(c: &[i8; 16]) -> __m256i {
    // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement.
    let v = unsafe { _mm_loadu_si128(c.as_ptr().cast()) };
    _mm256_cvtepi8_epi16(v)
}

/// Coefficients `16 r .. 16 r + 16` of `v`, zero-padded (a copy only for
/// the last, partial register: r and the length are public).
fn upper<T: Copy + Default>(v: &[T], r: usize) -> Result<&[T; 16], [T; 16]> {
    let s = v.get(16 * r..).unwrap_or(&[]);
    match s.first_chunk::<16>() {
        Some(c) => Ok(c),
        None => {
            let mut t = [T::default(); 16];
            t[..s.len()].copy_from_slice(s);
            Err(t)
        }
    }
}

/// A factor of one part: its coefficients, or the part's kept transform.
#[derive(Clone, Copy)]
enum Src<'a, T, const R: usize> {
    Coeffs(&'a [T]),
    Kept(&'a Part<R>),
}

/// `E_i = D_i / 3` of prime `t` into `x` (|.| < 3p/4): part i of both
/// factors, forward transforms (`y` holds b's), pointwise product,
/// inverse, `ψ^(-ij) / 3`; without `finish`, `Z_i` as the inverse leaves it
/// (any i16, below 2^15; [`combine`] untwists).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn part<const P: usize, const R: usize>(
    x: &mut Part<R>,
    y: &mut Part<R>,
    (a, b): (Src<'_, i16, R>, Src<'_, i8, R>),
    (i, finish): (usize, bool),
    t: &Prime,
) where
    Regs: Size<R>,
{
    let k = consts(t);
    let t3 = <Regs as Size<R>>::three(t);
    match a {
        Src::Coeffs(a) => <Regs as Size<R>>::forward_a::<P>(x, a, i, t, k),
        Src::Kept(h) => x.copy_from_slice(h),
    }
    let y: &Part<R> = match b {
        Src::Coeffs(b) => {
            <Regs as Size<R>>::forward_b::<P>(y, b, i, t, k);
            y
        }
        Src::Kept(h) => h,
    };
    pointwise(x, y, k);
    <Regs as Size<R>>::inverse(x, t, k);
    if finish {
        if i > 0 {
            mul_lanes(x, &t3.psi_inv[i - 1], k);
        }
        for r in x.iter_mut() {
            let v = mulc(load(r), t3.third, k);
            store(r, v);
        }
    }
}

/// The inverse 3-point DFT of register j (the radix-3 layer's last step):
/// `c_(j + n k) = (1/3) Σ_i ω^(-ik) D_i[j]` (times 2 for n = 512, see
/// `third`) for k = 0, 1, 2, with the untwist `D_i = ψ^(-ij) Z_i` folded
/// in: from the inverse transforms' `Z_i` (any i16: each enters a Montgomery product first),
/// `A = third Z_0`, `x_i = third ψ^(-ij) Z_i / 2` (the `untw` tables),
/// `S = x_1 + x_2`, `T = (ω^-1 - ω^-2)(x_1 - x_2)` (ω^-1 + ω^-2 = -1):
/// `c_j = A + 2S`, `c_(j+n) = A - S + T`, `c_(j+2n) = A - S - T`.
/// Bounds (|A|, |x_i|, |T| < 3p/4): S is [`barrett`]-reduced (|S| <=
/// p/2 + p/2^9), nothing else before the outputs: `|A + 2S| < 7p/4 +
/// p/2^8` and `|A - S ± T| < 2p + p/2^9`, below 2^15 for the primes it
/// serves, 7681, 10753 and 12289 (24,602; not 18433, whose parts
/// `rq.rs` never combines). `REDUCED`: each output [`barrett`]-reduced,
/// centred, |.| <= p/2 + p/2^9; else as they are (for Garner's `c2`)
/// (`combine_at_the_bounds` below).
#[target_feature(enable = "avx2")]
#[inline]
fn combine<const R: usize, const REDUCED: bool>(
    z: [__m256i; 3],
    j: usize,
    t3: &Three<R>,
    k: K,
) -> [__m256i; 3] {
    let u = &t3.untw;
    let a = mulc(z[0], t3.comb[0], k);
    let x1 = montmul(z[1], load(&u[0][0][j]), load(&u[0][1][j]), k.p);
    let x2 = montmul(z[2], load(&u[1][0][j]), load(&u[1][1][j]), k.p);
    let s = barrett(_mm256_add_epi16(x1, x2), k);
    let t = mulc(_mm256_sub_epi16(x1, x2), t3.comb[1], k);
    let m = _mm256_sub_epi16(a, s);
    let c = [
        _mm256_add_epi16(_mm256_add_epi16(a, s), s),
        _mm256_add_epi16(m, t),
        _mm256_sub_epi16(m, t),
    ];
    if REDUCED { c.map(|v| barrett(v, k)) } else { c }
}

/// [`combine`] in place: registers `j`, `j + R`, `j + 2R` of `c` hold the
/// three parts' `Z_i` before and the product's `c_(j + 16 R k)` after.
#[target_feature(enable = "avx2")]
#[inline]
fn combine_in_place<const R: usize>(c: &mut [[i16; 16]], t3: &Three<R>, k: K) {
    let (lo, rest) = c.split_at_mut(R);
    let (mid, hi) = rest.split_at_mut(R);
    for (j, ((l, m), h)) in lo.iter_mut().zip(mid.iter_mut()).zip(hi).enumerate() {
        let v = combine::<R, true>([load(l), load(m), load(h)], j, t3, k);
        store(l, v[0]);
        store(m, v[1]);
        store(h, v[2]);
    }
}

/// `x` times the broadcast constant `c` (`None` for 1), or for `None` and
/// `reduce` [`barrett`]-reduced: |result| < 3p/4 for any i16 `x`, or `x`.
#[target_feature(enable = "avx2")]
#[inline]
fn times(x: __m256i, c: Option<(__m256i, __m256i)>, reduce: bool, k: K) -> __m256i {
    match c {
        Some((w, wq)) => montmul(x, w, wq, k.p),
        None if reduce => barrett(x, k),
        None => x,
    }
}

/// `x` times `lo` in lanes below `cut`, `hi` from lane `cut` on (`cut <= 16`;
/// |result| < 3p/4).
#[target_feature(enable = "avx2")]
#[inline]
fn times_split(x: __m256i, (lo, hi): (Mul, Mul), cut: usize, k: K) -> __m256i {
    let (w, wq) = (
        core::array::from_fn(|l| if l < cut { lo[0] } else { hi[0] }),
        core::array::from_fn(|l| if l < cut { lo[1] } else { hi[1] }),
    );
    montmul(x, load(&w), load(&wq), k.p)
}

/// 16 entries of `e` from `j`.
#[target_feature(enable = "avx2")]
#[inline]
fn at(e: &[i16], j: usize) -> __m256i {
    load(e[j..].first_chunk::<16>().expect("inside E"))
}

/// `F += L_i(E_i)` (`F = L_i(E_i)` for `first`): the fold of part i's share
/// of c, `c_n = ω^(-im) E_i[j]` for `n = j + N m < 2p` (N = 16 R), at the
/// positions `F_k` reads, in one pass over F's registers: `c_k` (E at k
/// mod N, m = k / N; registers do not cross N), `c_(p+k)` and `c_(p+k-1)`
/// (k >= 1; E at `(p + k) mod N` and one below, m = 1 below `cut = 2N - p`,
/// resp. `cut + 1`, else 2: the register holding `cut` reads both sides
/// of the wrap, through `wrap`, with per-lane multipliers). Bounds:
/// `|F| <= p/2 + p/2^9` before and after (each sum [`barrett`]-reduced),
/// `|E| < 3p/4`; `F + c_k` is below `p/2 + p/2^9 + 3p/4 < 2^15`; the pair
/// `c_(p+k) + c_(p+k-1)`, below `3p/2 < 2^15` (27,650 for 18433), leaves
/// its Montgomery product (< 3p/4) or [`barrett`]; so the last sum stays
/// below `3p/4 + 3p/4 < 2^15` (`first`: `c_k` alone before it) or
/// `p/2 + p/2^9 + 3p/4` (`rq::tests::accumulate_at_the_bounds`). Entries
/// `p..f_len(p)` of F hold bounded junk.
#[target_feature(enable = "avx2")]
#[inline]
fn accumulate<const P: usize, const R: usize>(
    f: &mut [i16],
    e: &Part<R>,
    (i, first): (usize, bool),
    t3: &Three<R>,
    k: K,
) {
    debug_assert!(P > 16 * R && 2 * P <= 3 * 16 * R);
    #[allow(non_snake_case, reason = "the transform size of the module text")]
    let N = 16 * R;
    let (s, cut) = (P - N, 2 * N - P);
    let (er, e) = (e, e.as_flattened());
    // ω^(-im) for m = 0, 1, 2 (1 as `None`): the exponent -im mod 3.
    const EXP: [[usize; 3]; 3] = [[0, 0, 0], [0, 2, 1], [0, 1, 2]];
    let w = |m: usize| match EXP[i][m] {
        0 => None,
        x => Some(t3.omega[x - 1]),
    };
    let (w1, w2) = (w(1).map(|c| bc(c)), w(2).map(|c| bc(c)));
    let (fs, _) = f[..f_len(P)].as_chunks_mut::<16>();
    let rc = cut >> 4;
    // F_k from c_k and the pair's product (< 3p/4).
    let step = |fr: &mut [i16; 16], ck: __m256i, pair: __m256i| {
        let sum = if first {
            ck
        } else {
            barrett(_mm256_add_epi16(load(fr), ck), k)
        };
        store(fr, barrett(_mm256_add_epi16(sum, pair), k));
    };
    // The pair (b, c) of one side of the cut, weight wm.
    let pair = |b: __m256i, c: __m256i, wm| times(_mm256_add_epi16(b, c), wm, true, k);
    let (below, rest) = fs.split_at_mut(rc);
    let (low, high) = rest.split_at_mut(R - rc);
    // Below the cut: the pair at k + s and one below, m = 1 (register 0
    // without c_(p-1) in lane 0).
    for (r, fr) in below.iter_mut().enumerate() {
        let mut c = at(e, 16 * r + s - 1);
        if r == 0 {
            let not0 = _mm256_setr_epi16(
                0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
            );
            c = _mm256_and_si256(c, not0);
        }
        step(fr, load(&er[r]), pair(at(e, 16 * r + s), c, w1));
    }
    // Above the cut: the pair at k + s - N and one below, m = 2; c_k with
    // m = 0 below N, then m = 1.
    for (r, fr) in (rc + 1..).zip(&mut low[1..]) {
        let j = 16 * r + s - N;
        step(fr, load(&er[r]), pair(at(e, j), at(e, j - 1), w2));
    }
    for (r, fr) in (R..).zip(high.iter_mut()) {
        let j = 16 * r + s - N;
        let ck = times(load(&er[r - R]), w1, false, k);
        step(fr, ck, pair(at(e, j), at(e, j - 1), w2));
    }
    // The register holding the cut (below N): E circularly, 16 entries
    // either side of the wrap.
    let mut wrap = [0i16; 32];
    let mut wrap = Wipe::new(&mut wrap);
    wrap[..16].copy_from_slice(&e[N - 16..]);
    wrap[16..].copy_from_slice(&e[..16]);
    let (k0, fr) = (16 * rc, &mut low[0]);
    let (b, c) = (
        at(&wrap[..], k0 + s + 16 - N),
        at(&wrap[..], k0 + s + 15 - N),
    );
    let sum = match (w(1), w(2)) {
        (Some(m1), Some(m2)) => _mm256_add_epi16(
            times_split(b, (m1, m2), cut - k0, k),
            times_split(c, (m1, m2), cut + 1 - k0, k),
        ),
        _ => _mm256_add_epi16(b, c),
    };
    step(fr, load(&er[rc]), barrett(sum, k));
}

/// Entries of one folded product in the scratch (p rounded up to registers).
const fn f_len(p: usize) -> usize {
    p.next_multiple_of(16)
}

/// The product `a b` folded by x^p = x + 1, as a "full product" for the
/// shared fold: `full[..p]` the folded product, `full[p..2p]` zero (`full`
/// is the product's scratch, at least [`ntt3_scratch`]`(p)` entries). With
/// `REDUCE` congruent to the product modulo q with `|full[k]| < 2^14`, else
/// exact (`|a|, |b| <= 1`, `|full[k]| <= 3p`). `|a| <= (q - 1) / 2 < 2^12`,
/// `b` small. Requires [`ntt3_fits`]`(P)`.
pub(crate) fn ntt3_mul<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: &[i16; P],
    b: &[i8; P],
) {
    assert!(
        ntt3_fits(P),
        "ntt3_mul: p outside 513..=768 and 1025..=1536"
    );
    const { assert!(Q < 1 << 13, "ntt3_mul: q >= 2^13") };
    let _ = token;
    let full = &mut full[..ntt3_scratch(P)];
    if const { regs_of(P) == REGS && REDUCE } {
        // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
        unsafe { rq::ntt3_rq_avx2::<P, Q>(full, a, Side::Coeffs(b)) };
        full[P..2 * P].fill(0);
    } else if const { regs_of(P) == REGS } {
        // SAFETY: as above.
        unsafe { rq::ntt3_exact_avx2::<P>(full, a, Side::Coeffs(b)) };
    } else {
        ntt3_mul_sides_512::<P, Q, REDUCE>(token, full, Side::Coeffs(a), Side::Coeffs(b));
    }
}

/// Scratch entries of [`ntt3_mul`]: n = 1024, two folded products and one
/// transform, or the full product (3072 entries, exact products); n = 512,
/// the full product (1536 entries).
pub(crate) const fn ntt3_scratch(p: usize) -> usize {
    if regs_of(p) == REGS {
        let f = 2 * f_len(p) + 16 * REGS;
        if f > 48 * REGS { f } else { 48 * REGS }
    } else {
        3 * 16 * HALF
    }
}

/// [`ntt3_mul`] with either factor given as its kept transforms
/// ([`ntt3_prepare`]): for [`ntt3_512`]`(P)` either or both (`parts.rs`),
/// for sntrup1277 the small factor only (`rq.rs`); the same output.
pub(crate) fn ntt3_mul_sides<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: Side<'_, i16>,
    b: Side<'_, i8>,
) {
    if const { regs_of(P) == REGS } {
        rq::ntt3_mul_sides_1024::<P, Q, REDUCE>(token, full, a, b);
    } else {
        ntt3_mul_sides_512::<P, Q, REDUCE>(token, full, a, b);
    }
}

/// A factor's kept transforms for [`ntt3_mul_sides`] (`a`, or the small
/// `b` when `a` is `None`): for [`ntt3_512`]`(P)` see `parts.rs` (1.5
/// [`Hat`](crate::arch::Hat)s a prime); for sntrup1277 `b` only, 3
/// [`Hat`](crate::arch::Hat)s a prime (`rq.rs`).
pub(crate) fn ntt3_prepare<const P: usize>(
    token: Avx2,
    out: &mut [crate::arch::Hat],
    a: Option<&[i16; P]>,
    b: &[i8; P],
) {
    if const { regs_of(P) == REGS } {
        rq::ntt3_prepare_1024::<P>(token, out, a, b);
    } else {
        ntt3_prepare_512::<P>(token, out, a, b);
    }
}
