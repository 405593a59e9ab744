//! The transform arithmetic under the 512-point parts of every set's R/q
//! and R/3 product (`three.rs`, `three/parts.rs`; NTRU Prime spec §2.3),
//! AVX2: the primes' tables ([`Prime`]), the Montgomery product, the
//! reductions and the per-block steps (`regs.rs`).
//!
//! The block steps are written in the frame of a 1024-point transform:
//! the four-step decomposition 1024 = 64 x 16 on 64 registers of 16
//! lanes, a 64-point decimation-in-frequency transform across registers
//! (every lane at once, broadcast twiddles), the twist by ω^(n2 k1) (k1 =
//! bitrev6(j) at register j), a 16 x 16 transpose of each block of 16
//! registers, and a 16-point transform across the registers of each
//! block; the inverse runs the same steps backwards (decimation-in-time
//! butterflies with inverse roots, transpose, untwist, which also carries
//! 1/1024 and the Montgomery factor of the pointwise product). The first
//! two of the six layers across registers (distances 32, 16) pass over the
//! whole polynomial; the other four stay inside each block of 16 registers
//! (a 16-point transform with root η), with the per-block steps. The
//! 512-point transform of the parts is the first 32 registers of it with
//! ω' = ω^2 (`three/parts.rs`): the tables below hold those 32 registers.
//!
//! Arithmetic: signed 16-bit Montgomery products (R = 2^16) by constants
//! stored with their `w p^-1 mod 2^16` companion (|result| < 3p/4 for any
//! i16 input), inside the transforms the two-multiply reduction
//! ([`squeeze`], |result| <= 5629 for 7681, 5800 for 10753, any i16 input;
//! Bernstein's `squeeze` of the AVX2 NTRU Prime NTT) where the lazy
//! transforms' bounds need one (`regs.rs`), and the exact rounding Barrett
//! step ([`barrett`], |result| <= p/2 + p/2^9) where centred values are
//! needed (before Garner's CRT). Every loop bound, index and table
//! position depends on p only: no secret-dependent branch or address
//! (checked by tests/ct_valgrind.rs through the operations).

use core::arch::x86_64::{
    __m256i, _mm256_mulhrs_epi16, _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_sub_epi16,
};

use super::{load, mulhi, store};

mod regs;
pub(super) mod three;
pub(crate) use three::{
    ntt3_fits, ntt3_mul, ntt3_mul_sides, ntt3_parts, ntt3_prepare, ntt3_scratch,
};

/// Registers of one 1024-point transform (the frame of the block steps),
const REGS: usize = 64;
/// and of a 512-point transform: its first half.
const HALF: usize = REGS >> 1;

/// A constant multiplier in Montgomery form: `w = c 2^16 mod p` (centred)
/// and `w p^-1 mod 2^16`.
type Mul = [i16; 2];

/// Per-lane constant multipliers of the 512-point transform's 32 registers:
/// values and companions.
type LaneMuls = [[[i16; 16]; HALF]; 2];

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
    /// The 512-point tables (registers 0..32) for `p` (`2^9 | p - 1`, `p <
    /// 2^15`): they need only even powers of ω, powers of ω' = ω^2, a
    /// 512-th root.
    #[allow(
        clippy::integer_division_remainder_used,
        clippy::cast_sign_loss,
        reason = "compile-time tables of the public primes"
    )]
    const fn new(p: i16) -> Self {
        let m = p as i64;
        // ω': a 512-th root, ω'^256 = -1.
        let mut g = 2;
        let omega2 = loop {
            let w = pow_mod(g, (m as u64 - 1) / 512, m);
            if pow_mod(w, 256, m) == m - 1 {
                break w;
            }
            g += 1;
        };
        let omega2_i = pow_mod(omega2, m as u64 - 2, m);
        let (zeta, zeta_i) = (pow_mod(omega2, 8, m), pow_mod(omega2_i, 8, m));
        let (eta, eta_i) = (pow_mod(omega2, 32, m), pow_mod(omega2_i, 32, m));
        // 2^16 / 1024 = 64.
        let scale = 64 % m;
        let mut twist = [[[0; 16]; HALF]; 2];
        let mut untwist = [[[0; 16]; HALF]; 2];
        let mut j = 0;
        while j < HALF {
            // ω^k1 = ω'^(k1 / 2) (k1 = bitrev6(j) even for j < 32).
            let k1 = bitrev6(j) as u64;
            let (step, step_i) = (pow_mod(omega2, k1 / 2, m), pow_mod(omega2_i, k1 / 2, m));
            let (mut t, mut u) = (1, scale);
            let mut n2 = 0;
            while n2 < 16 {
                let v = [mont(t, m), mont(u, m)];
                twist[0][j][n2] = v[0][0];
                twist[1][j][n2] = v[0][1];
                untwist[0][j][n2] = v[1][0];
                untwist[1][j][n2] = v[1][1];
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
        }
    }
}

/// The primes of the 512-point parts (`three/parts.rs`): 7681 = 15 * 2^9 + 1,
pub(crate) static P7681: Prime = Prime::new(7681);
/// and 10753 = 21 * 2^9 + 1.
pub(crate) static P10753: Prime = Prime::new(10753);

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

/// `x - p round(c x / 2^15)`, c = `round(2^15 / p)` (4 for 7681, 3 for
/// 10753): a reduction by two multiplies (`vpmulhrsw`, `vpmullw`), the
/// quotient estimate coarser than [`barrett`]'s, so `|result| <= 5629`
/// (7681) and `<= 5800` (10753) for any i16 `x` (`regs::tests::squeeze_bounds`
/// checks every i16). The lazy transforms' bounds (`regs.rs`) rest on it.
#[target_feature(enable = "avx2")]
#[inline]
fn squeeze(x: __m256i, k: K) -> __m256i {
    let t = _mm256_mulhrs_epi16(x, _mm256_set1_epi16(k.sq));
    _mm256_sub_epi16(x, _mm256_mullo_epi16(t, k.p))
}
