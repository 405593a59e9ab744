//! The R/q and R/3 products of every set (512 < p <= 1280) on k = 3, 4 or
//! 5 parts of n = 512 points ([`parts`]: the product `c = a b` has degree
//! `2p - 2 < 512 k`), AVX2 (the products of Core `KeyGen`, `Encrypt` and
//! `Decrypt`, NTRU Prime spec §2.3). Twin: the portable Karatsuba product
//! `mult::mul_full` (same full product, compared in
//! `mult::tests::avx2_products_match_portable`).
//!
//! For n = 512 the transform primes 7681 and 10753 (7681 - 1 = 15 * 2^9,
//! 10753 - 1 = 21 * 2^9; small, so the 512-point transforms reduce lazily,
//! see `parts.rs`) split `x^n - ζ_i` completely for every ζ_i in the group
//! μ_d of n-th powers (d = 15, 21: ζ_i = σ_i^n, σ_i of order n ord(ζ_i)
//! divides p - 1). For k distinct ζ_0 .. ζ_(k-1) in μ_d, `M = Π_i (x^n -
//! ζ_i)` has degree nk and `c` (degree below nk) is its residue modulo M.
//! Write `c(x) = Σ_(j<n) x^j C_j(x^n)` with `deg C_j < k`. Modulo `x^n -
//! ζ_i`, `x = σ_i y` turns the product into the cyclic n-point product of
//! the factors `σ_i^j (v_j + ζ_i v_(j+n) + ζ_i^2 v_(j+2n))` (part i,
//! [`fold_twist`]), run on the first 32 registers of the 1024-point
//! transforms of `ntt.rs`, and its untwist `D_i[j] = σ_i^(-j) Z_i[j]` is
//! `C_j(ζ_i)`: the `C_j` follow by interpolation at the k points (the
//! inverse k x k Vandermonde matrix). The points: ζ_i = ω^i (i < 3, ω a
//! primitive cube root of unity, σ_i = ψ^i with ψ of order 3n: the radix-3
//! layer `x^3n - 1 = Π_i (x^n - ω^i)`), then ζ and ζ^2 for ζ of order 5
//! (7681) or 7 (10753) (ζ^3 != 1, so all five differ). Interpolation runs
//! as the inverse 3-point DFT on parts 0..=2 ([`combine`]: `C_j mod (y^3 -
//! 1)`, with the untwist and the 1/3 in its multipliers) and, for k > 3, a
//! Newton step on the extra points ([`newton`]: `C_j = E + (y^3 - 1)(c_3 +
//! c_4 y)`), all constants made at compile time ([`three`]); in place where
//! the parts' inverse transforms are in the product buffer. Every loop
//! bound and index depends on p only.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi16, _mm256_cvtepi8_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_sub_epi16,
};

use super::{
    HALF, K, Mul, P7681, Prime, REGS, barrett, centre, load, mont, montmul, pow_mod, squeeze, store,
};
use crate::arch::Side;
use pqdr_common::simd::Avx2;

mod garner;
mod parts;
use garner::Garner;
use ntt3_parts as parts;
use parts::{ntt3_mul_sides_512, ntt3_prepare_512};

/// Whether the product serves degree p: n = 512, `n < p` and `2p - 1 <=
/// 5n` (p <= 1280; [`parts`]).
pub(crate) const fn ntt3_fits(p: usize) -> bool {
    let n = 16 * HALF;
    p > n && 2 * p - 1 <= MAX_PARTS * n
}

/// The most 512-point parts of a product (p <= 1280).
const MAX_PARTS: usize = 5;

/// The 512-point parts of degree p's product (n = 512): k = ⌈(2p - 1) /
/// 512⌉, the fewest whose 512 k points hold the product's 2p - 1
/// coefficients (3 for sntrup653/761, 4 for sntrup857/953/1013, 5 for
/// sntrup1277).
pub(crate) const fn ntt3_parts(p: usize) -> usize {
    (2 * p - 1).div_ceil(16 * HALF)
}

/// One part's polynomial: R registers of 16 lanes.
type Part<const R: usize> = [[i16; 16]; R];

/// The constants of one prime for the 512-point parts of R registers:
/// parts 0, 1, 2 modulo `x^n - ω^i` (the radix-3 layer) and the extra
/// parts 3 and 4 modulo `x^n - ζ` and `x^n - ζ^2`, ζ of order 5 (7681) or
/// 7 (10753), `x = σ y` and `x = σ^2 y` with σ of order `n ord(ζ)`, σ^n =
/// ζ (parts 1..=4 twisted: index i - 1).
struct Three<const R: usize> {
    /// ψ^(ij) (i = 1, 2), σ^j and σ^(2j) (i = 3, 4) at coefficient j = 16
    /// register + lane: values and companions.
    psi: [[Part<R>; 2]; MAX_PARTS - 1],
    /// `ζ_i` and `ζ_i^2` (ω, ω^2, ζ, ζ^2): the fold `v_j + ζ_i v_(j+n) +
    /// ζ_i^2 v_(j+2n)` of part i.
    omega: [[Mul; 2]; MAX_PARTS - 1],
    /// `ζ_i` and `ζ_i^2` as centred integers (|.| < p/2): the small
    /// factor's exact fold ([`fold_twist`]).
    omega_int: [[i16; 2]; MAX_PARTS - 1],
    /// `third ψ^(-ij) / 2` (i = 1, 2; `third` = 1/3, times 2 for n = 512:
    /// the inverse transform's untwist carries 1/1024, its first 32
    /// registers' inverse scales by 512), the untwist of [`combine`]: values
    /// and companions.
    untw: [[Part<R>; 2]; 2],
    /// The inverse 3-point DFT's multipliers ([`combine`]): `third` and
    /// `ω^-1 - ω^-2`.
    comb: [Mul; 2],
    /// The extra parts' untwists `2 κ_x σ_x^(-j)` (κ_x = 1/(ζ_x^3 - 1), ζ_x
    /// = ζ, ζ^2; the 2 as in `untw`), [`newton`]: part 3's (four parts), then
    /// parts 3 and 4 times λ = 1/(ζ - ζ^2) (five parts).
    untw_x: [[Part<R>; 2]; 3],
    /// κ_x, κ_x ζ_x, κ_x ζ_x^2 ([`newton`]), as `untw_x`: part 3's, then
    /// parts 3 and 4 times λ.
    kappa: [[Mul; 3]; 3],
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

/// `x^-1 mod m` (m prime).
#[allow(
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn inv_mod(x: i64, m: i64) -> i64 {
    pow_mod(x, m as u64 - 2, m)
}

/// The odd prime order of part 3's ζ: 5 (7680 = 3 * 5 * 2^9) or 7 (10752
/// = 3 * 7 * 2^9), the factor of `m - 1` besides 3 and the powers of 2.
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn zeta_order(m: i64) -> u64 {
    let o = (m as u64 - 1) / 3;
    o >> o.trailing_zeros()
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
    // σ: of order n o (o = 5 or 7, prime: σ^(n o / 2) != 1, σ^n != 1).
    let o = zeta_order(m);
    let sigma = root(m, n * o, [n * o / 2, n]);
    // The parts' twists: ψ, ψ^2, σ, σ^2; ζ_i = their n-th powers.
    let sigma2 = sigma * sigma % m;
    let twists = [psi, psi * psi % m, sigma, sigma2];
    let w = pow_mod(psi, n, m);
    let w2 = w * w % m;
    let zeta = pow_mod(sigma, n, m);
    let th = inv_mod(3, m) * (REGS / R) as i64 % m;
    let half = (m + 1) / 2;
    let mut tab = [[[[0; 16]; R]; 2]; MAX_PARTS - 1];
    let mut tab_u = [[[[0; 16]; R]; 2]; 2];
    let mut tab_x = [[[[0; 16]; R]; 2]; 3];
    let mut omega = [[[0; 2]; 2]; MAX_PARTS - 1];
    let mut omega_int = [[0; 2]; MAX_PARTS - 1];
    let mut kappa = [[[0; 2]; 3]; 3];
    let lambda = inv_mod((zeta - zeta * zeta % m + m) % m, m);
    let mut i = 0;
    while i < MAX_PARTS - 1 {
        let z = pow_mod(twists[i], n, m);
        omega[i] = [mont(z, m), mont(z * z % m, m)];
        omega_int[i] = [centre(z, m), centre(z * z, m)];
        // Parts 1, 2: the untwist of `combine`; 3, 4: 2 κ σ_x^(-j).
        let (scale, x) = if i < 2 {
            (th * half % m, 0)
        } else {
            let ka = inv_mod((pow_mod(z, 3, m) - 1 + m) % m, m);
            let mut x = 0;
            while x < 3 {
                let ka = if x == 0 { ka } else { ka * lambda % m };
                if x == 0 && i == 2 || x == i - 1 {
                    kappa[x] = [
                        mont(ka, m),
                        mont(ka * z % m, m),
                        mont(ka * z % m * z % m, m),
                    ];
                }
                x += 1;
            }
            (2 * ka % m, i - 2)
        };
        let back = inv_mod(twists[i], m);
        let mut j = 0;
        while j < R {
            let mut n2 = 0;
            while n2 < 16 {
                let e = (16 * j + n2) as u64;
                let v = mont(pow_mod(twists[i], e, m), m);
                tab[i][0][j][n2] = v[0];
                tab[i][1][j][n2] = v[1];
                let u = pow_mod(back, e, m) * scale % m;
                if i < 2 {
                    let u = mont(u, m);
                    tab_u[i][0][j][n2] = u[0];
                    tab_u[i][1][j][n2] = u[1];
                } else {
                    // Part 3 unscaled (four parts), parts 3, 4 times λ.
                    if x == 0 {
                        let u = mont(u, m);
                        tab_x[0][0][j][n2] = u[0];
                        tab_x[0][1][j][n2] = u[1];
                    }
                    let u = mont(u * lambda % m, m);
                    tab_x[1 + x][0][j][n2] = u[0];
                    tab_x[1 + x][1][j][n2] = u[1];
                }
                n2 += 1;
            }
            j += 1;
        }
        i += 1;
    }
    Three {
        psi: tab,
        omega,
        omega_int,
        untw: tab_u,
        comb: [mont(th, m), mont((w2 - w + m) % m, m)],
        untw_x: tab_x,
        kappa,
    }
}

static H1: Three<HALF> = three(7681);
static H2: Three<HALF> = three(10753);

/// The parts' constants of the prime `t` (7681 or 10753).
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

/// Register r of part i of a factor v: `σ_i^j (v_j + ζ_i v_(j+n) + ζ_i^2
/// v_(j+2n))` (σ_i = ψ^i for i < 3) from `v` (register r of v) and `h`
/// (registers r + n/16 and r + 2n/16, `None` past the end). `|v|, |h| <
/// 2^12`; outputs below 3p/4 (i > 0), 2^13 (i = 0, one `h`) or, i = 0 with
/// both `h` (their sum below 3 * 2^12), [`squeeze`]d: 5629 (7681) / 5800
/// (10753). `SMALL` (the small factor, |v|, |h| <= 1): the fold exact in
/// 16 bits, without reductions: `|v + h_1 + h_2| <= 3` (i = 0) and, by the
/// centred integers ζ_i, ζ_i^2 (`omega_int`, below p/2), `|v + ζ_i h_1 +
/// ζ_i^2 h_2| <= 1 + 2 (p - 1)/2 = p < 2^14` into the twist's Montgomery
/// product (any i16), so the same output bounds (parts 1, 2 with both `h`:
/// one product, below). `om`: [`small_omegas`].
#[target_feature(enable = "avx2")]
#[inline]
fn fold_twist<const R: usize, const SMALL: bool>(
    mut v: __m256i,
    h: [Option<__m256i>; 2],
    (r, i): (usize, usize),
    (t3, om): (&Three<R>, [__m256i; 2]),
    k: K,
) -> __m256i {
    let [h1, h2] = h;
    match (h1, h2) {
        // Parts 1, 2 (ζ_i = ω^i, a primitive cube root of unity: ζ_i^2 =
        // -1 - ζ_i): `(v - h_2) + ζ_i (h_1 - h_2)`, one product instead of
        // two; `|v - h_2|, |h_1 - h_2| < 2^13` (small: <= 2, the sum <= 2 +
        // 2 (p - 1)/2 = p + 1 < 2^14).
        (Some(h1), Some(h2)) if i == 1 || i == 2 => {
            let d = _mm256_sub_epi16(h1, h2);
            let d = if SMALL {
                _mm256_mullo_epi16(d, om[0])
            } else {
                mulc(d, t3.omega[i - 1][0], k)
            };
            v = _mm256_add_epi16(_mm256_sub_epi16(v, h2), d);
        }
        _ => {
            if let Some(h) = h1 {
                let h = if i == 0 {
                    h
                } else if SMALL {
                    _mm256_mullo_epi16(h, om[0])
                } else {
                    mulc(h, t3.omega[i - 1][0], k)
                };
                v = _mm256_add_epi16(v, h);
            }
            if let Some(h) = h2 {
                v = if i > 0 && SMALL {
                    _mm256_add_epi16(v, _mm256_mullo_epi16(h, om[1]))
                } else if i > 0 {
                    _mm256_add_epi16(v, mulc(h, t3.omega[i - 1][1], k))
                } else if SMALL {
                    _mm256_add_epi16(v, h)
                } else {
                    squeeze(_mm256_add_epi16(v, h), k)
                };
            }
        }
    }
    if i > 0 {
        let m = &t3.psi[i - 1];
        v = montmul(v, load(&m[0][r]), load(&m[1][r]), k.p);
    }
    v
}

/// [`fold_twist`]'s multipliers ζ_i, ζ_i^2 of part i > 0 for the small
/// factor, broadcast: the centred integers (`omega_int`); zero for part 0
/// (unused).
#[target_feature(enable = "avx2")]
#[inline]
fn small_omegas<const R: usize>(i: usize, t3: &Three<R>) -> [__m256i; 2] {
    core::array::from_fn(|d| _mm256_set1_epi16(i.checked_sub(1).map_or(0, |x| t3.omega_int[x][d])))
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
/// serves, 7681 and 10753 (21,528). Output m [`barrett`]-reduced (centred,
/// |.| <= p/2 + p/2^9) where `reduce[m]`, else as it is (for Garner's `c2`,
/// and [`newton`]'s `e_0`, `e_1`, which it reduces itself)
/// (`combine_at_the_bounds` below). `reduce` is a constant at every call.
#[target_feature(enable = "avx2")]
#[inline]
fn combine<const R: usize>(
    z: [__m256i; 3],
    j: usize,
    t3: &Three<R>,
    k: K,
    reduce: [bool; 3],
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
    core::array::from_fn(|m| if reduce[m] { barrett(c[m], k) } else { c[m] })
}

/// The extra points (k = 4 or 5 parts: `C_j` of degree k - 1 < 5,
/// coefficients `c_(j + n m)`, m < k), in place on `c`, which holds
/// [`combine`]'s inverse 3-point DFT of parts 0..=2, `e = C_j mod (y^3 -
/// 1)` (`e_0 = c_0 + c_3`, `e_1 = c_1 + c_4`, `e_2 = c_2`), and `z` the
/// extra parts' `Z_3`, `Z_4`. As `C_j = E + (y^3 - 1)(c_3 + c_4 y)`, part x
/// (ζ_x = ζ, ζ^2; ζ_x^3 != 1: ζ has order 5 or 7) gives `g_x = κ_x (D_x -
/// E(ζ_x)) = c_3 + c_4 ζ_x` (κ_x = 1/(ζ_x^3 - 1), `D_x = 2 σ_x^(-j) Z_x`
/// as `untw`: the untwist and κ_x in `untw_x`; `E(ζ_x) = e_0 + ζ_x e_1 +
/// ζ_x^2 e_2`); k = 4: `c_3 = g_3`; k = 5: `c_4 = λ (g_3 - g_4)`, λ =
/// 1/(ζ - ζ^2), and `c_3 = g_3 - ζ c_4` (the inverse Vandermonde matrix of
/// (ζ, ζ^2) on the `g_x`), computed from `a = λ g_3`, `b = λ g_4` (λ in
/// the tables): `c_4 = a - b` and, as 1/λ - ζ = -ζ^2, `c_3 = ζ b - ζ^2 a`
/// (two independent products, no chain through `c_4`); then `c_0 = e_0 -
/// c_3`, `c_1 = e_1 - c_4`: the inverse k x k Vandermonde matrix of (1, ω,
/// ω^2, ζ, ζ^2) applied as the 3 x 3 one (the DFT) and Newton steps.
/// Bounds: `z` and `e` any i16 (each enters a Montgomery product first,
/// below 3p/4), so each `g_3`, `a`, `b`, a sum of four products, is below
/// 3p (32,259 for 10753) and [`barrett`]-reduced (|.| <= p/2 + p/2^9);
/// `c_4 = a - b` below p + p/2^8, `c_3` below 3p/2 before its
/// [`barrett`]; `e_0`, `e_1` from `combine` are below 2p + p/2^9
/// unreduced, so `e_0 - c_3` below 5p/2 + p/2^8 and `e_1 - c_4` below
/// 3p + 3p/2^9 < 2^15 (32,322 for 10753); every output [`barrett`]-reduced
/// (`newton_at_the_bounds` in `parts.rs`).
/// As a macro (`newton!(c, z, j, t3, k, PARTS)`, `c` a mutable array
/// variable): a function with several callers LLVM kept out of line (see
/// [`interpolate`]); `newton_of` runs it in the tests.
macro_rules! newton {
    ($c:ident, $z:expr, $j:expr, $t3:expr, $k:expr, $parts:expr) => {{
        use core::arch::x86_64::{__m256i, _mm256_add_epi16, _mm256_sub_epi16};
        use $crate::arch::x86_64::ntt::three::mulc;
        use $crate::arch::x86_64::ntt::{barrett, load, montmul};
        let (z, j, t3, k): (&[__m256i; $parts], usize, _, _) = ($z, $j, $t3, $k);
        // Index 3 (PARTS > 3 here; `min` keeps the generic code in bounds).
        let i3 = 3.min($parts - 1);
        let g = |x: usize, c: &[__m256i; $parts]| {
            let (u, ka) = (&t3.untw_x[x], &t3.kappa[x]);
            // Tables 1, 2 (five parts): parts 3, 4.
            let d = montmul(z[i3 + x.max(1) - 1], load(&u[0][j]), load(&u[1][j]), k.p);
            let s = _mm256_add_epi16(mulc(c[0], ka[0], k), mulc(c[1], ka[1], k));
            let s = _mm256_add_epi16(s, mulc(c[2], ka[2], k));
            barrett(_mm256_sub_epi16(d, s), k)
        };
        if $parts == 4 {
            $c[i3] = g(0, &$c);
        } else {
            let (a, b) = (g(1, &$c), g(2, &$c));
            let c4 = _mm256_sub_epi16(a, b);
            let [zeta, zeta2] = t3.omega[2];
            let c3 = _mm256_sub_epi16(mulc(b, zeta, k), mulc(a, zeta2, k));
            $c[1] = barrett(_mm256_sub_epi16($c[1], c4), k);
            $c[i3] = barrett(c3, k);
            $c[$parts - 1] = barrett(c4, k);
        }
        $c[0] = barrett(_mm256_sub_epi16($c[0], $c[i3]), k);
    }};
}
use newton;

/// [`newton!`] as a function, for `newton_at_the_bounds`.
#[cfg(test)]
#[target_feature(enable = "avx2")]
fn newton_of<const R: usize, const PARTS: usize>(
    c: &mut [__m256i; PARTS],
    z: &[__m256i; PARTS],
    j: usize,
    t3: &Three<R>,
    k: K,
) {
    let mut v = *c;
    newton!(v, z, j, t3, k, PARTS);
    *c = v;
}

/// The interpolation of register j from the PARTS = 3, 4 or 5 parts'
/// `Z_i`: `c_(j + n m)` for m < PARTS ([`combine`], and [`newton`] for the
/// extra parts). `REDUCED`: every output reduced (|.| <= p/2 + p/2^9); else
/// only those [`newton`] reduces (more parts: all but c_2, and c_1 for
/// four). [`combine`] reduces only what [`newton`] does not: its `e_0`
/// (and `e_1` for five parts) enter `newton`'s reduced differences as they
/// are. A macro (`interpolate!(z, j, t3, k, PARTS, REDUCED)`, an
/// expression): as a function LLVM kept it a call for five parts, each row
/// then through the stack and a call that the next row's chain could not
/// overlap.
macro_rules! interpolate {
    ($z:expr, $j:expr, $t3:expr, $k:expr, $parts:expr, $reduced:expr) => {{
        const {
            assert!(
                $parts >= 3 && $parts <= $crate::arch::x86_64::ntt::three::MAX_PARTS,
                "3 to 5 parts"
            )
        };
        let z: [core::arch::x86_64::__m256i; $parts] = $z;
        let reduce = [$parts == 3, $parts < 5, true].map(|m| m && $reduced);
        let e = $crate::arch::x86_64::ntt::three::combine([z[0], z[1], z[2]], $j, $t3, $k, reduce);
        let mut c = [e[0]; $parts];
        c[..3].copy_from_slice(&e);
        if $parts > 3 {
            $crate::arch::x86_64::ntt::three::newton!(c, &z, $j, $t3, $k, $parts);
        }
        c
    }};
}
use interpolate;

/// [`interpolate`] in place: registers `j + R i` of `c` (i < PARTS) hold the
/// parts' `Z_i` before and the product's `c_(j + 16 R i)` after, reduced.
#[target_feature(enable = "avx2")]
#[inline]
fn combine_in_place<const R: usize, const PARTS: usize>(c: &mut [[i16; 16]], t3: &Three<R>, k: K) {
    for j in 0..R {
        let z = core::array::from_fn(|i| load(&c[j + R * i]));
        let v = interpolate!(z, j, t3, k, PARTS, true);
        for (i, v) in v.into_iter().enumerate() {
            store(&mut c[j + R * i], v);
        }
    }
}

/// The product `a b` into the product's scratch `full` (at least
/// [`ntt3_scratch`]`(p)` entries): with `REDUCE` for [`ntt3_folds`]`(P)`
/// (five parts) folded by x^p = x + 1 into `full[..p]` (what follows is not
/// the upper half of a full product: the caller freezes `full[..p]`
/// alone), else the full product (degree `2p - 2`) in `full[..2p]`
/// (`full[2p - 1] = 0`). With `REDUCE` congruent to the product modulo q
/// with `|full[k]| < 2^14` (folded: `< 2^15`, `five_rq`), else exact (`|a|, |b| <= 1`, `|full[k]| <= p`).
/// `|a| <= (q - 1) / 2 < 2^12`, `b` small. Requires [`ntt3_fits`]`(P)`.
pub(crate) fn ntt3_mul<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: &[i16; P],
    b: &[i8; P],
) {
    assert!(ntt3_fits(P), "ntt3_mul: p outside 513..=1280");
    const { assert!(Q < 1 << 13, "ntt3_mul: q >= 2^13") };
    let _ = token;
    ntt3_mul_sides_512::<P, Q, REDUCE>(token, full, Side::Coeffs(a), Side::Coeffs(b));
}

/// Whether [`ntt3_mul`] and [`ntt3_mul_sides`] with `REDUCE` leave the
/// product folded in `full[..p]` (five parts, sntrup1277: `parts.rs`'
/// `five_rq`), not as a full product to fold.
pub(crate) const fn ntt3_folds(p: usize) -> bool {
    ntt3_fits(p) && ntt3_parts(p) == 5
}

/// Scratch entries of [`ntt3_mul`]: the full product modulo the parts'
/// modulus (512 [`parts`]`(p)` entries); for the R/q product of five parts
/// (`parts.rs`' `five_rq`) the folded product (p rounded up to registers)
/// and four parts of the second prime, if more.
pub(crate) const fn ntt3_scratch(p: usize) -> usize {
    let n = parts(p) * 16 * HALF;
    let five = p.next_multiple_of(16) + 4 * 16 * HALF;
    if parts(p) == MAX_PARTS && five > n {
        five
    } else {
        n
    }
}

/// [`ntt3_mul`] with either factor (or both) given as its kept transforms
/// ([`ntt3_prepare`], `parts.rs`): the same output.
pub(crate) fn ntt3_mul_sides<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: Side<'_, i16>,
    b: Side<'_, i8>,
) {
    ntt3_mul_sides_512::<P, Q, REDUCE>(token, full, a, b);
}

/// A factor's kept transforms for [`ntt3_mul_sides`] (`a`, or the small
/// `b` when `a` is `None`): see `parts.rs` (k/2 [`Hat`](crate::arch::Hat)s
/// a prime, k = [`parts`]`(P)`).
pub(crate) fn ntt3_prepare<const P: usize>(
    token: Avx2,
    out: &mut [crate::arch::Hat],
    a: Option<&[i16; P]>,
    b: &[i8; P],
) {
    ntt3_prepare_512::<P>(token, out, a, b);
}

/// The factors of round `round` of the kept-transform product tests
/// (`parts.rs`): a in R/q and a small b, extreme for rounds
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
