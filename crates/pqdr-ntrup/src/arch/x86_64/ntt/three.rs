//! The R/q and R/3 products by transforms of 3n points, n = 512, for
//! sntrup653 and sntrup761 (512 < p <= 768: the product `c = a b` has
//! degree `2p - 2 < 1536`), and sntrup1277's on 2560 = 1024 + 1024 + 512
//! points ([`rq`]: 1024 < p <= 1280, degree < 2560), AVX2 (the products of
//! Core `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime spec §2.3). Twin: the
//! portable Karatsuba product `mult::mul_full` (same full product,
//! compared in `mult::tests::avx2_products_match_portable`).
//!
//! For n = 512 the transform primes 7681 and 10753 (7681 - 1 = 15 * 2^9,
//! 10753 - 1 = 21 * 2^9; small, so the 512-point transforms reduce lazily,
//! see `parts.rs`) have a primitive 3n-th root of unity ψ; ω = ψ^n is a
//! primitive cube root of unity and `x^3n - 1 = (x^n - 1)(x^n - ω)(x^n -
//! ω^2)` (the radix-3 first layer). Modulo `x^n - ω^i`, `x = ψ^i y` turns
//! the product into the cyclic n-point product of the factors `(v_j + ω^i
//! v_(j+n)) ψ^(ij)` (part i), run on the first 32 registers of the
//! 1024-point transforms of `ntt.rs` ([`forward_512`], [`inverse_512`]), and
//! `D_i[j] = ψ^(-ij) Z_i[j] = c_j + ω^i c_(j+n) + ω^(2i) c_(j+2n)`. The
//! inverse 3-point DFT gives `c_(j+nk) = (1/3) Σ_i ω^(-ik) D_i[j]`
//! ([`combine`], with the untwist and the 1/3 in its multipliers), in place
//! where the parts' inverse transforms are in the product buffer. sntrup1277
//! ([`rq`]) splits `(x^2048 - 1)(x^512 - γ)` instead, on the primes 12289
//! and 18433 of `ntt.rs`. Every loop bound and index depends on p only.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi16, _mm256_cvtepi8_epi16, _mm256_set1_epi16,
    _mm256_sub_epi16,
};

use super::{K, Mul, P7681, Prime, REGS, barrett, load, mont, montmul, pow_mod, store};
use crate::arch::Side;
use pqdr_common::simd::Avx2;

mod garner;
mod parts;
mod rq;
use garner::Garner;
use parts::inverse_512;
pub(crate) use parts::ntt3_512;
use parts::{ntt3_mul_sides_512, ntt3_prepare_512};

/// Registers of a 512-point transform.
const HALF: usize = REGS >> 1;

/// Registers of one part's transform for degree p: 64 (n = 1024) for
/// p > 768, else 32 (n = 512).
const fn regs_of(p: usize) -> usize {
    if p > 768 { REGS } else { HALF }
}

/// Whether the product serves degree p: n = 512, the 3n points, `n < p`
/// and `2p - 1 <= 3n`; n = 1024 (`rq.rs`), 2560 points: `n < p` and
/// `2p - 1 <= 2560` (p <= 1280).
pub(crate) const fn ntt3_fits(p: usize) -> bool {
    let n = 16 * regs_of(p);
    let points = if n == 16 * REGS {
        2 * n + (n >> 1)
    } else {
        3 * n
    };
    p > n && 2 * p - 1 <= points
}

/// One part's polynomial: R registers of 16 lanes.
type Part<const R: usize> = [[i16; 16]; R];

/// The radix-3 constants of one prime for parts of R registers.
struct Three<const R: usize> {
    /// ψ^(ij) (index i - 1, i = 1, 2) at coefficient j = 16 register +
    /// lane: values and companions.
    psi: [[Part<R>; 2]; 2],
    /// ω and ω^2.
    omega: [Mul; 2],
    /// `third ψ^(-ij) / 2` (i = 1, 2; `third` = 1/3, times 2 for n = 512:
    /// the inverse transform's untwist carries 1/1024, its first 32
    /// registers' inverse scales by 512), the untwist of [`combine`]: values
    /// and companions.
    untw: [[Part<R>; 2]; 2],
    /// The inverse 3-point DFT's multipliers ([`combine`]): `third` and
    /// `ω^-1 - ω^-2`.
    comb: [Mul; 2],
}

/// An element of order exactly `order` (`order | m - 1`), tested by the
/// given proper divisors of `order`.
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn root(m: i64, order: u64, not: [u64; 2]) -> i64 {
    let mut g = 2;
    loop {
        let r = pow_mod(g, (m as u64 - 1) / order, m);
        if pow_mod(r, not[0], m) != 1 && pow_mod(r, not[1], m) != 1 {
            return r;
        }
        g += 1;
    }
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
    let psi = root(m, 3 * n, [3 * n / 2, n]);
    let psi_i = pow_mod(psi, m as u64 - 2, m);
    let w = pow_mod(psi, n, m);
    let w2 = w * w % m;
    let th = pow_mod(3, m as u64 - 2, m) * (REGS / R) as i64 % m;
    let half = (m + 1) / 2;
    let mut tab = [[[[0; 16]; R]; 2]; 2];
    let mut tab_u = [[[[0; 16]; R]; 2]; 2];
    let mut i = 0;
    while i < 2 {
        let mut j = 0;
        while j < R {
            let mut n2 = 0;
            while n2 < 16 {
                let e = (i as u64 + 1) * (16 * j + n2) as u64;
                let v = mont(pow_mod(psi, e, m), m);
                tab[i][0][j][n2] = v[0];
                tab[i][1][j][n2] = v[1];
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
        omega: [mont(w, m), mont(w2, m)],
        untw: tab_u,
        comb: [mont(th, m), mont((w2 - w + m) % m, m)],
    }
}

static H1: Three<HALF> = three(7681);
static H2: Three<HALF> = three(10753);

/// The radix-3 constants of the 512-point parts' prime `t` (7681 or
/// 10753; sntrup1277's parts are in `rq.rs`).
fn three_of(t: &Prime) -> &'static Three<HALF> {
    if t.p == P7681.p { &H1 } else { &H2 }
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

/// 16 small coefficients sign-extended to one register.
#[target_feature(enable = "avx2")]
#[inline]
fn widen16(c: &[i8; 16]) -> __m256i {
    // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement.
    let v = unsafe { _mm_loadu_si128(c.as_ptr().cast()) };
    _mm256_cvtepi8_epi16(v)
}

/// A factor of one part: its coefficients, or the part's kept transform.
#[derive(Clone, Copy)]
enum Src<'a, T, const R: usize> {
    Coeffs(&'a [T]),
    Kept(&'a Part<R>),
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
/// serves, 7681 and 10753 (21,528; sntrup1277's parts in `rq.rs` have no
/// radix-3 layer). `REDUCED`: each output [`barrett`]-reduced,
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

/// Entries of one folded product in the scratch (p rounded up to registers).
const fn f_len(p: usize) -> usize {
    p.next_multiple_of(16)
}

/// The product `a b` into the product's scratch `full` (at least
/// [`ntt3_scratch`]`(p)` entries): with `REDUCE` for [`ntt3_folds`]`(P)`
/// folded by x^p = x + 1 into `full[..p]` (what follows is not the upper
/// half of a full product: the caller freezes `full[..p]` alone), else
/// the full product in `full[..2p]` (for the shared fold). With
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
        "ntt3_mul: p outside 513..=768 and 1025..=1280"
    );
    const { assert!(Q < 1 << 13, "ntt3_mul: q >= 2^13") };
    let _ = token;
    let full = &mut full[..ntt3_scratch(P)];
    if const { regs_of(P) == REGS && REDUCE } {
        // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
        unsafe { rq::ntt3_rq_avx2::<P, Q>(full, a, Side::Coeffs(b)) };
    } else if const { regs_of(P) == REGS } {
        // SAFETY: as above.
        unsafe { rq::ntt3_exact_avx2::<P>(full, a, Side::Coeffs(b)) };
    } else {
        ntt3_mul_sides_512::<P, Q, REDUCE>(token, full, Side::Coeffs(a), Side::Coeffs(b));
    }
}

/// Whether [`ntt3_mul`] and [`ntt3_mul_sides`] with `REDUCE` leave the
/// product folded in `full[..p]` (sntrup1277's 2560 points, `rq.rs`),
/// not as a full product to fold.
pub(crate) const fn ntt3_folds(p: usize) -> bool {
    ntt3_fits(p) && regs_of(p) == REGS
}

/// Scratch entries of [`ntt3_mul`]: n = 1024, one folded product and the
/// full product modulo x^2048 - 1 (`rq.rs`; the exact product's 2560
/// entries fit); n = 512, the full product (1536 entries).
pub(crate) const fn ntt3_scratch(p: usize) -> usize {
    if regs_of(p) == REGS {
        f_len(p) + 32 * REGS
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

/// The factors of round `round` of the kept-transform product tests
/// (`parts.rs`, `rq/tests.rs`): a in R/q and a small b, extreme for rounds
/// 0 .. 2 (all (q - 1)/2 with all 1; all -(q - 1)/2 with -1 but a last 1;
/// alternating ±(q - 1)/2 with all 1), random from `s` after.
#[cfg(test)]
fn test_factors<const P: usize, const Q: i16>(round: usize, s: &mut u64) -> ([i16; P], [i8; P]) {
    use crate::test_util::lcg;
    let h = (Q - 1) / 2;
    let a: [i16; P] = core::array::from_fn(|i| match round {
        0 => h,
        1 => -h,
        2 => [h, -h][i & 1],
        _ => (lcg(s) % (Q as u32)) as i16 - h,
    });
    let b: [i8; P] = core::array::from_fn(|i| match round {
        0 | 2 => 1,
        1 => [-1, 1][usize::from(i == P - 1)],
        _ => (lcg(s) % 3) as i8 - 1,
    });
    (a, b)
}
