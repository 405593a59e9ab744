//! The R/q and R/3 products of p <= 1024 by a 2048-point transform, AVX2
//! (NTRU Prime spec §2.3; no set takes it: all run on `three.rs`' parts,
//! which use its tables and block steps). Twin: `mult::mul_full`.
//!
//! q is not NTT-friendly, so the integer product `c = a b` (degree
//! <= 2p - 2 < 2048, `|c_k| <= p (q - 1) / 2 < 2^22`) is computed modulo
//! the primes 12289 and 18433 (the two primes below 2^15 with a 2048-th
//! root of unity ψ) and recombined by the Chinese remainder theorem
//! (Garner), then taken mod q. R/3 products (`|c_k| <= p`) need 12289 only.
//!
//! Modulo `x^2048 - 1`, the factors have no coefficient at or above 1024,
//! so the first layer of a 2048-point transform splits it into two
//! independent 1024-point cyclic products: `U = c mod (x^1024 - 1)` of `a`
//! and `b`, and `V = c mod (x^1024 + 1)` of `a_j ψ^j` and `b_j ψ^j`
//! (ψ^1024 = -1), untwisted by ψ^-j; then `c_j = (U_j + V_j) / 2` and
//! `c_(j+1024) = (U_j - V_j) / 2`. Each 1024-point transform is the
//! four-step decomposition 1024 = 64 x 16 on 64 registers of 16 lanes:
//! a 64-point decimation-in-frequency transform across registers (every
//! lane at once, broadcast twiddles), the twist by ω^(n2 k1), a 16 x 16
//! transpose of each block of 16 registers, and a 16-point transform
//! across the registers of each block. The transform-domain order is never
//! undone: the inverse runs the same steps backwards (decimation-in-time
//! butterflies with inverse roots, transpose, untwist, which also carries
//! 1/1024 and the Montgomery factor of the pointwise product). Only the
//! first two of the six layers across registers (distances 32, 16) pass over
//! the whole polynomial; the other four stay inside each block of 16
//! registers (a 16-point transform with root η), so they run with the
//! per-block steps (twist, transpose and 16-point transform, and back) on
//! one block held in registers (`regs.rs`).
//!
//! Arithmetic: signed 16-bit Montgomery products (R = 2^16) by constants
//! stored with their `w p^-1 mod 2^16` companion (|result| < 3p/4 for any
//! i16 input), and inside the transforms a two-multiply reduction
//! ([`squeeze`], |result| <= 9560 for 12289, 12290 for 18433, any i16
//! input; Bernstein's `squeeze` of the AVX2 NTRU Prime NTT): in the forward
//! transform after every sum (every value entering a butterfly is below
//! max(3p/4, 9560), so sums stay below 2 * 13825 < 2^15), in the inverse on
//! each butterfly's first input (outputs below 9560 + 9217 for 12289,
//! 12290 + 13825 for 18433, < 2^15). The exact rounding Barrett step
//! ([`barrett`], |result| <= p/2 + p/2^9) stays where centred values are
//! needed (after the inverse, before Garner's CRT). Every loop bound,
//! index and table position depends on p only: no secret-dependent branch
//! or address (checked by tests/ct_valgrind.rs through the operations).

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi16, _mm256_cvtepi8_epi16, _mm256_mulhrs_epi16,
    _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_srai_epi16, _mm256_sub_epi16,
};

use super::{load, mulhi, store};

mod hat;
mod regs;
pub(super) mod three;
use crate::arch::{Hat, Side};
use crate::wipe::Wipe;
pub(crate) use hat::{ntt_prepare_a, ntt_prepare_b};
use pqdr_common::simd::Avx2;
pub(crate) use three::{
    ntt3_512, ntt3_fits, ntt3_mul, ntt3_mul_sides, ntt3_parts, ntt3_prepare, ntt3_scratch,
};

/// Registers of one 1024-point transform, and its coefficients.
const REGS: usize = 64;
const N: usize = REGS * 16;
/// One polynomial of the transform: 64 registers of 16 lanes.
type Poly = Hat;

/// A constant multiplier in Montgomery form: `w = c 2^16 mod p` (centred)
/// and `w p^-1 mod 2^16`.
type Mul = [i16; 2];

/// Per-lane constant multipliers of the 64 registers: values and companions.
type LaneMuls = [[[i16; 16]; REGS]; 2];

/// The constants of one prime.
#[derive(Debug)]
pub(crate) struct Prime {
    p: i16,
    /// `p^-1 mod 2^16`.
    pinv: i16,
    /// `round(2^26 / p)` for the Barrett step.
    barrett: i16,
    /// `round(2^15 / p)` for [`squeeze`].
    sq: i16,
    /// ζ^k, ζ^-k for the 64-point transform (ζ = ω^16), k < 32.
    reg_fwd: [Mul; 32],
    reg_inv: [Mul; 32],
    /// η^k, η^-k for the 16-point transforms (η = ω^64), k < 8.
    lane_fwd: [Mul; 8],
    lane_inv: [Mul; 8],
    /// ω^(n2 k1) at register j (holding k1 = bitrev6(j)), lane n2.
    twist: LaneMuls,
    /// ω^(-n2 k1) 2^16 / 1024 (undoes the twist, the transform's scale
    /// and the Montgomery factor 2^-16 of the pointwise product).
    untwist: LaneMuls,
    /// ψ^j and ψ^-j at coefficient j = 16 register + lane.
    psi: LaneMuls,
    psi_inv: LaneMuls,
}

#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn pow_mod(b: i64, mut e: u64, m: i64) -> i64 {
    let mut r = 1;
    let mut x = b.rem_euclid(m);
    while e > 0 {
        if e & 1 == 1 {
            r = r * x % m;
        }
        x = x * x % m;
        e >>= 1;
    }
    r
}

/// `x mod m` in `-(m-1)/2..=(m-1)/2` as i16 (`m < 2^15`).
#[allow(clippy::cast_possible_truncation, reason = "|result| < m/2 < 2^15")]
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn centre(x: i64, m: i64) -> i16 {
    let r = x.rem_euclid(m);
    (if r > m / 2 { r - m } else { r }) as i16
}

/// `m^-1 mod 2^16` for odd `m` (Newton's iteration).
#[allow(clippy::cast_possible_truncation, reason = "low 16 bits")]
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
pub(crate) const fn inv16(m: i64) -> i16 {
    let m = m as u32;
    let mut x = m; // correct to 3 bits for odd m
    let mut i = 0;
    while i < 4 {
        x = x.wrapping_mul(2u32.wrapping_sub(m.wrapping_mul(x)));
        i += 1;
    }
    x as u16 as i16
}

/// The Montgomery form of the multiplier `c` modulo `m`.
#[allow(clippy::cast_possible_truncation, reason = "low 16 bits")]
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
pub(crate) const fn mont(c: i64, m: i64) -> Mul {
    let w = centre(c.rem_euclid(m) * 65536, m);
    [w, (w as i32).wrapping_mul(inv16(m) as i32) as i16]
}

const fn bitrev6(j: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 6 {
        r |= ((j >> i) & 1) << (5 - i);
        i += 1;
    }
    r
}

/// `c^k` in Montgomery form for `k < K`.
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn powers<const K: usize>(c: i64, m: i64) -> [Mul; K] {
    let mut out = [[0; 2]; K];
    let (mut x, mut k) = (1, 0);
    while k < K {
        out[k] = mont(x, m);
        x = x * c % m;
        k += 1;
    }
    out
}

impl Prime {
    /// The tables for the prime `p` (`2^11 | p - 1`, `p < 2^15`).
    const fn new(p: i16) -> Self {
        Self::build(p, false)
    }

    /// The 512-point tables (registers 0..32, `psi` unused) for `p` (`2^9 | p - 1`):
    /// they need only even powers of ω, powers of ω' = ω^2, a 512-th root.
    const fn new_512(p: i16) -> Self {
        Self::build(p, true)
    }

    #[allow(
        clippy::integer_division_remainder_used,
        clippy::cast_sign_loss,
        reason = "compile-time tables of the public primes"
    )]
    const fn build(p: i16, half: bool) -> Self {
        let m = p as i64;
        // ψ: 2048-th root, ψ^1024 = -1, or (512 points) ω' = ω^2: 512-th root, ω'^256 = -1.
        let order: u64 = if half { 512 } else { 2048 };
        let mut g = 2;
        let psi = loop {
            let psi = pow_mod(g, (m as u64 - 1) / order, m);
            if pow_mod(psi, order / 2, m) == m - 1 {
                break psi;
            }
            g += 1;
        };
        let psi_i = pow_mod(psi, m as u64 - 2, m);
        let to_omega2 = if half { 1 } else { 4 };
        let (omega2, omega2_i) = (pow_mod(psi, to_omega2, m), pow_mod(psi_i, to_omega2, m));
        let (omega, omega_i) = (psi * psi % m, psi_i * psi_i % m);
        let (zeta, zeta_i) = (pow_mod(omega2, 8, m), pow_mod(omega2_i, 8, m));
        let (eta, eta_i) = (pow_mod(omega2, 32, m), pow_mod(omega2_i, 32, m));
        // 2^16 / 1024 = 64.
        let scale = 64 % m;
        let mut twist = [[[0; 16]; REGS]; 2];
        let mut untwist = [[[0; 16]; REGS]; 2];
        let mut psis = [[[0; 16]; REGS]; 2];
        let mut psis_i = [[[0; 16]; REGS]; 2];
        let regs = if half { REGS / 2 } else { REGS };
        let mut j = 0;
        while j < regs {
            let k1 = bitrev6(j) as u64;
            // ω^k1 (k1 even for j < 32: ω'^(k1 / 2)).
            let (step, step_i) = if half {
                (pow_mod(omega2, k1 / 2, m), pow_mod(omega2_i, k1 / 2, m))
            } else {
                (pow_mod(omega, k1, m), pow_mod(omega_i, k1, m))
            };
            let (mut t, mut u) = (1, scale);
            let mut n2 = 0;
            while n2 < 16 {
                let e = (16 * j + n2) as u64;
                let v = [
                    mont(t, m),
                    mont(u, m),
                    mont(pow_mod(psi, e, m), m),
                    mont(pow_mod(psi_i, e, m), m),
                ];
                twist[0][j][n2] = v[0][0];
                twist[1][j][n2] = v[0][1];
                untwist[0][j][n2] = v[1][0];
                untwist[1][j][n2] = v[1][1];
                psis[0][j][n2] = v[2][0];
                psis[1][j][n2] = v[2][1];
                psis_i[0][j][n2] = v[3][0];
                psis_i[1][j][n2] = v[3][1];
                t = t * step % m;
                u = u * step_i % m;
                n2 += 1;
            }
            j += 1;
        }
        Prime {
            p,
            pinv: inv16(m),
            #[allow(clippy::cast_possible_truncation, reason = "2^26 / p < 2^15")]
            barrett: (((1i64 << 26) + m / 2) / m) as i16,
            #[allow(clippy::cast_possible_truncation, reason = "2^15 / p < 2^15")]
            sq: (((1i64 << 15) + m / 2) / m) as i16,
            reg_fwd: powers(zeta, m),
            reg_inv: powers(zeta_i, m),
            lane_fwd: powers(eta, m),
            lane_inv: powers(eta_i, m),
            twist,
            untwist,
            psi: psis,
            psi_inv: psis_i,
        }
    }
}

/// The first prime, 12289 = 3 * 2^12 + 1.
pub(crate) static P1: Prime = Prime::new(12289);
/// The second prime, 18433 = 9 * 2^11 + 1.
pub(crate) static P2: Prime = Prime::new(18433);
/// The primes of the 512-point parts (`three/parts.rs`): 7681 = 15 * 2^9 + 1,
pub(crate) static P7681: Prime = Prime::new_512(7681);
/// and 10753 = 21 * 2^9 + 1.
pub(crate) static P10753: Prime = Prime::new_512(10753);

/// The constants of one prime: p broadcast, the others as scalars
/// (broadcast where used: a `K` of one register keeps the transforms'
/// frames small, sntrup1277's stack budget).
#[derive(Clone, Copy)]
struct K {
    p: __m256i,
    pinv: i16,
    barrett: i16,
    sq: i16,
}

#[target_feature(enable = "avx2")]
#[inline]
fn consts(t: &Prime) -> K {
    K {
        // Opaque: with the prime a known constant, LLVM lowers `mulhi(x, p)`
        // to 32-bit multiplies (sign extensions, `vpmulld`, shifts, packs:
        // 8 instructions instead of one `vpmulhw`).
        p: core::hint::black_box(_mm256_set1_epi16(t.p)),
        pinv: t.pinv,
        barrett: t.barrett,
        sq: t.sq,
    }
}

/// Signed Montgomery product `a w 2^-16 mod p` (|result| < 3p/4 for any
/// i16 `a` and centred `w`), `wq = w p^-1 mod 2^16`.
#[target_feature(enable = "avx2")]
#[inline]
fn montmul(a: __m256i, w: __m256i, wq: __m256i, p: __m256i) -> __m256i {
    let lo = _mm256_mullo_epi16(a, wq);
    let hi = mulhi(a, w);
    _mm256_sub_epi16(hi, mulhi(lo, p))
}

/// `x - p round(x / p)`: `|result| <= p/2 + p/2^9` for any i16 `x`.
#[target_feature(enable = "avx2")]
#[inline]
fn barrett(x: __m256i, k: K) -> __m256i {
    let t = mulhi(x, _mm256_set1_epi16(k.barrett));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 5));
    _mm256_sub_epi16(x, _mm256_mullo_epi16(t, k.p))
}

/// `x - p round(c x / 2^15)`, c = `round(2^15 / p)` (3 for 12289, 2 for
/// 18433): a reduction by two multiplies (`vpmulhrsw`, `vpmullw`), the
/// quotient estimate coarser than [`barrett`]'s, so `|result| <= 9560`
/// (12289) and `<= 12290` (18433) for any i16 `x` (`regs::tests::squeeze_bounds`
/// checks every i16). The transforms' butterflies need no more: their
/// sums of two such values (or of two Montgomery products, < 3p/4) stay
/// below 2^15.
#[target_feature(enable = "avx2")]
#[inline]
fn squeeze(x: __m256i, k: K) -> __m256i {
    let t = _mm256_mulhrs_epi16(x, _mm256_set1_epi16(k.sq));
    _mm256_sub_epi16(x, _mm256_mullo_epi16(t, k.p))
}

/// The first two layers of the 64-point decimation-in-frequency transform
/// across the registers of `x` (`tw[k]` = ζ^k): butterflies
/// `(x, y) -> (x + y, (x - y) ζ^(32 i / d))` at distances d = 32 and 16, as
/// one radix-4 pass over registers i, i + 16, i + 32, i + 48 (i < 16). The
/// other four layers (d = 8, 4, 2, 1) stay inside each block of 16
/// registers: they are the 16-point transform with root ζ^4 = η, run per
/// block in registers (`regs::block_forward`).
#[target_feature(enable = "avx2")]
#[inline]
fn dif_outer(x: &mut Poly, tw: &[Mul; 32], k: K) {
    for i in 0..16 {
        let mut a = [load(&x[i]); 4];
        for (q, aq) in a.iter_mut().enumerate().skip(1) {
            *aq = load(&x[i + 16 * q]);
        }
        for (q, b) in dif_outer4(a, i, tw, k).into_iter().enumerate() {
            store(&mut x[i + 16 * q], b);
        }
    }
}

/// The radix-4 step of [`dif_outer`] on registers i, i + 16, i + 32,
/// i + 48 (i < 16), in values.
#[target_feature(enable = "avx2")]
#[inline]
fn dif_outer4([a0, a1, a2, a3]: [__m256i; 4], i: usize, tw: &[Mul; 32], k: K) -> [__m256i; 4] {
    let bc = |[w, wq]: Mul| (_mm256_set1_epi16(w), _mm256_set1_epi16(wq));
    let (w0, w1, v) = (bc(tw[i]), bc(tw[i + 16]), bc(tw[2 * i]));
    let b0 = squeeze(_mm256_add_epi16(a0, a2), k);
    let b2 = montmul(_mm256_sub_epi16(a0, a2), w0.0, w0.1, k.p);
    let b1 = squeeze(_mm256_add_epi16(a1, a3), k);
    let b3 = montmul(_mm256_sub_epi16(a1, a3), w1.0, w1.1, k.p);
    [
        squeeze(_mm256_add_epi16(b0, b1), k),
        montmul(_mm256_sub_epi16(b0, b1), v.0, v.1, k.p),
        squeeze(_mm256_add_epi16(b2, b3), k),
        montmul(_mm256_sub_epi16(b2, b3), v.0, v.1, k.p),
    ]
}

/// The inverse of [`dif_outer`] (`tw` the inverse roots): butterflies
/// `(s, t) -> (s + t root^-e, s - t root^-e)` at distances 16 and 32, the
/// last two layers of the inverse 64-point transform (the first four run
/// per block, `regs::block_inverse`). Any i16 inputs; every output below
/// 9560 + 9217 (12289) or 12290 + 13825 (18433) in magnitude ([`squeeze`]
/// reduces each butterfly's first input only, |t| < 3p/4).
#[target_feature(enable = "avx2")]
#[inline]
fn dit_outer(x: &mut Poly, tw: &[Mul; 32], k: K) {
    let bf = |x: __m256i, y: __m256i, (w, wq): (__m256i, __m256i)| {
        let a = squeeze(x, k);
        let t = montmul(y, w, wq, k.p);
        (_mm256_add_epi16(a, t), _mm256_sub_epi16(a, t))
    };
    let bc = |[w, wq]: Mul| (_mm256_set1_epi16(w), _mm256_set1_epi16(wq));
    for i in 0..16 {
        let (v, w0, w1) = (bc(tw[2 * i]), bc(tw[i]), bc(tw[i + 16]));
        let (b0, b1) = bf(load(&x[i]), load(&x[i + 16]), v);
        let (b2, b3) = bf(load(&x[i + 32]), load(&x[i + 48]), v);
        let (c0, c2) = bf(b0, b2, w0);
        let (c1, c3) = bf(b1, b3, w1);
        store(&mut x[i], c0);
        store(&mut x[i + 16], c1);
        store(&mut x[i + 32], c2);
        store(&mut x[i + 48], c3);
    }
}

/// Multiplies register j, lane l of `x` by the multiplier `m[.][j][l]`.
#[target_feature(enable = "avx2")]
#[inline]
fn mul_lanes<const R: usize>(x: &mut [[i16; 16]; R], m: &[[[i16; 16]; R]; 2], k: K) {
    for (j, r) in x.iter_mut().enumerate() {
        store(r, montmul(load(r), load(&m[0][j]), load(&m[1][j]), k.p));
    }
}

/// The forward transform of one 1024-coefficient polynomial, in place.
#[target_feature(enable = "avx2")]
#[inline]
fn forward(x: &mut Poly, t: &Prime, k: K) {
    dif_outer(x, &t.reg_fwd, k);
    let (blocks, _) = x.as_chunks_mut::<16>();
    for (j, block) in blocks.iter_mut().enumerate() {
        regs::block_forward::<false>(block, j, &t.twist, &t.lane_fwd, k);
    }
}

/// The inverse of [`forward`] (with the untwist's scale 2^16 / 1024).
#[target_feature(enable = "avx2")]
#[inline]
fn inverse(x: &mut Poly, t: &Prime, k: K) {
    let (blocks, _) = x.as_chunks_mut::<16>();
    for (j, block) in blocks.iter_mut().enumerate() {
        regs::block_inverse::<false>(block, j, &t.untwist, &t.lane_inv, k);
    }
    dit_outer(x, &t.reg_inv, k);
}

/// `x = a` (zero-padded); the ψ twist when `twisted`.
#[target_feature(enable = "avx2")]
#[inline]
fn load_a(x: &mut Poly, a: &[i16], twisted: bool, t: &Prime, k: K) {
    let flat = x.as_flattened_mut();
    flat[..a.len()].copy_from_slice(a);
    flat[a.len()..].fill(0);
    if twisted {
        mul_lanes(x, &t.psi, k);
    }
}

/// `x = b` sign-extended (zero-padded); the ψ twist when `twisted`.
#[target_feature(enable = "avx2")]
#[inline]
fn load_b(x: &mut Poly, b: &[i8], twisted: bool, t: &Prime, k: K) {
    let (chunks, rest) = b.as_chunks::<16>();
    for (r, c) in x.iter_mut().zip(chunks) {
        // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement.
        let v = unsafe { _mm_loadu_si128(c.as_ptr().cast()) };
        store(r, _mm256_cvtepi8_epi16(v));
    }
    let flat = x.as_flattened_mut();
    let start = chunks.len() * 16;
    for (d, &s) in flat[start..].iter_mut().zip(rest) {
        *d = i16::from(s);
    }
    flat[start + rest.len()..].fill(0);
    if twisted {
        mul_lanes(x, &t.psi, k);
    }
}

/// Pointwise `x = x y 2^-16` (any i16 inputs: |result| <= 2^14 + p/2).
#[target_feature(enable = "avx2")]
#[inline]
fn pointwise<const R: usize>(x: &mut [[i16; 16]; R], y: &[[i16; 16]; R], k: K) {
    for (r, s) in x.iter_mut().zip(y) {
        let (a, b) = (load(r), load(s));
        let lo = _mm256_mullo_epi16(_mm256_mullo_epi16(a, b), _mm256_set1_epi16(k.pinv));
        let hi = mulhi(a, b);
        store(r, _mm256_sub_epi16(hi, mulhi(lo, k.p)));
    }
}

/// Half `s` of the product modulo prime `i` (`t`): `U` (s = 0) or `V` (s = 1)
/// into `x`, every value reduced by [`barrett`] (centred, |.| <= p/2 + p/2^9).
/// A factor given as transforms skips its load and forward transform.
#[target_feature(enable = "avx2")]
fn half(x: &mut Poly, y: &mut Poly, (a, b): Sides<'_>, (i, s): (usize, usize), t: &Prime) {
    let k = consts(t);
    match a {
        Side::Coeffs(a) => {
            load_a(x, a, s == 1, t, k);
            forward(x, t, k);
        }
        Side::Hat(h) => *x = h[2 * i + s],
    }
    let y: &Poly = match b {
        Side::Coeffs(b) => {
            load_b(y, b, s == 1, t, k);
            forward(y, t, k);
            y
        }
        Side::Hat(h) => &h[2 * i + s],
    };
    pointwise(x, y, k);
    inverse(x, t, k);
    // V: the untwist by ψ^-j in the same pass.
    let m = &t.psi_inv;
    for (j, r) in x.iter_mut().enumerate() {
        let mut v = load(r);
        if s == 1 {
            v = montmul(v, load(&m[0][j]), load(&m[1][j]), k.p);
        }
        store(r, barrett(v, k));
    }
}

/// Whether the transform product serves degree p: `2p - 1 <= 2048`.
pub(crate) const fn ntt_fits(p: usize) -> bool {
    2 * p - 1 <= 2 * N
}

/// The full product `a b` into `full[..2p]` (`full[2p - 1]` is 0 modulo q;
/// `full` is the product's scratch, at least `max(2p, 1024)` entries): with
/// `REDUCE` congruent to the product modulo q with `|full[k]| < 3q`, else
/// the exact integer product (`|a|, |b| <= 1`). `|a| <= (q - 1) / 2`, `b`
/// small. Requires [`ntt_fits`]`(P)`.
pub(crate) fn ntt_mul<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: &[i16; P],
    b: &[i8; P],
) {
    ntt_mul_sides::<P, Q, REDUCE>(token, full, Side::Coeffs(a), Side::Coeffs(b));
}

/// [`ntt_mul`] with either factor (or both) given as its transforms
/// (`hat::ntt_prepare_a` / `ntt_prepare_b` of the same P; for `REDUCE`
/// both primes, 4 [`Hat`]s, else 12289 only, 2): the same output.
pub(crate) fn ntt_mul_sides<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: Side<'_, i16>,
    b: Side<'_, i8>,
) {
    assert!(ntt_fits(P), "ntt_mul: p > 1024");
    let need = if REDUCE { 4 } else { 2 };
    assert!(
        a.covers(need) && b.covers(need),
        "ntt_mul: too few transforms"
    );
    let _ = token;
    if full.len() >= 2 * N {
        let (lo, hi) = full[..2 * N].split_at_mut(N);
        // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
        unsafe { ntt_mul_avx2::<Q, REDUCE>(lo, hi, (a, b)) }
    } else {
        // SAFETY: as above.
        unsafe { ntt_mul_short_avx2::<Q, REDUCE>(&mut full[..2 * P], (a, b)) }
    }
}

/// The two factors of a product.
type Sides<'a> = (Side<'a, i16>, Side<'a, i8>);

/// [`ntt_mul_avx2`] for a scratch shorter than 2048 entries (p = 653):
/// the top half on the stack, its first `2p - 1024` entries copied out.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn ntt_mul_short_avx2<const Q: i16, const REDUCE: bool>(full: &mut [i16], ab: Sides<'_>) {
    let mut z0 = [0i16; N];
    let mut zg = Wipe::new(&mut z0);
    let (lo, hi) = full.split_at_mut(N);
    ntt_mul_avx2::<Q, REDUCE>(lo, &mut zg[..], ab);
    hi.copy_from_slice(&zg[..hi.len()]);
}

/// The product: `lo = c[..1024]`, `hi = c[1024..2048]` (1024 entries each).
#[target_feature(enable = "avx2")]
fn ntt_mul_avx2<const Q: i16, const REDUCE: bool>(lo: &mut [i16], hi: &mut [i16], ab: Sides<'_>) {
    let mut y0: Poly = [[0; 16]; REGS];
    let mut yg = Wipe::new(&mut y0);
    let y: &mut Poly = &mut yg;
    // The halves go straight into `lo` and `hi` (12289's; 18433's through
    // the local `x`, only for `REDUCE`).
    let (lo_r, _) = lo.as_chunks_mut::<16>();
    let (hi_r, _) = hi.as_chunks_mut::<16>();
    let lo_p: &mut Poly = lo_r.try_into().expect("64 registers");
    let hi_p: &mut Poly = hi_r.try_into().expect("64 registers");
    if REDUCE {
        let k2 = consts(&P2);
        // Garner: u = (c2 - c1) p1^-1 mod p2 (exact: |u| < 600), then
        // (c1 + p1 u) / 2 mod q as c1 (1/2) + u (p1 / 2), both mod q.
        let pinv_p1 = {
            let [w, wq] = const { mont(pow_mod(12289, 18433 - 2, 18433), 18433) };
            (_mm256_set1_epi16(w), _mm256_set1_epi16(wq))
        };
        // Opaque, as the primes in `consts`.
        let kq = core::hint::black_box(_mm256_set1_epi16(Q));
        // 1/2 and 12289/2 mod q (q odd).
        let m1 = const { mont((Q as i64 + 1) >> 1, Q as i64) };
        let m2 = const { mont(12289 * ((Q as i64 + 1) >> 1), Q as i64) };
        let m1 = (_mm256_set1_epi16(m1[0]), _mm256_set1_epi16(m1[1]));
        let m2 = (_mm256_set1_epi16(m2[0]), _mm256_set1_epi16(m2[1]));
        let mut x0: Poly = [[0; 16]; REGS];
        let mut xg = Wipe::new(&mut x0);
        let x: &mut Poly = &mut xg;
        for s in 0..2 {
            let out: &mut Poly = if s == 0 { &mut *lo_p } else { &mut *hi_p };
            half(out, y, ab, (0, s), &P1);
            half(x, y, ab, (1, s), &P2);
            for (o, r) in out.iter_mut().zip(x.iter()) {
                let c1 = load(o);
                let d = _mm256_sub_epi16(load(r), c1);
                let u = barrett(montmul(d, pinv_p1.0, pinv_p1.1, k2.p), k2);
                let lo = montmul(c1, m1.0, m1.1, kq);
                let hi = montmul(u, m2.0, m2.1, kq);
                store(o, _mm256_add_epi16(lo, hi));
            }
        }
    } else {
        half(lo_p, y, ab, (0, 0), &P1);
        half(hi_p, y, ab, (0, 1), &P1);
    }
    // c_j = (U_j + V_j) / 2, c_(j+1024) = (U_j - V_j) / 2 (the halves are
    // already in the mod-q values; exact shifts for the integer product).
    let (lo, _) = lo.as_chunks_mut::<16>();
    let (hi, _) = hi.as_chunks_mut::<16>();
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        let (u, v) = (load(l), load(h));
        let (s, d) = (_mm256_add_epi16(u, v), _mm256_sub_epi16(u, v));
        if REDUCE {
            store(l, s);
            store(h, d);
        } else {
            store(l, _mm256_srai_epi16::<1>(s));
            store(h, _mm256_srai_epi16::<1>(d));
        }
    }
}
