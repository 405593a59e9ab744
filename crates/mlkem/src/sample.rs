//! Sampling (FIPS 203 §4.2.2): `SampleNTT` (Algorithm 7) draws an element
//! of `T_q` from the XOF, `SamplePolyCBD_η` (Algorithm 8) a small polynomial
//! from PRF output.

#![allow(
    clippy::cast_possible_truncation,
    reason = "12-bit values are extracted with masks"
)]

use crate::field::Q;
use crate::hash::RATE_128;
use crate::poly::{N, Poly};

/// XOF blocks squeezed up front: 3 blocks = 336 candidates, enough for the
/// 256 coefficients in the vast majority of cases (acceptance rate q/4096).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
const FIRST_BLOCKS: usize = 3;

/// Appends the candidates of `buf` that are below `q` to `out[n..]`, in
/// Algorithm 7's order (each 3 bytes give two 12-bit values, little-endian);
/// returns the new count (at most 256). `buf.len()` is a multiple of 6.
///
/// Only public data passes through here (XOF output on the public seed ρ).
/// The main loop still avoids data-dependent branches (they would mispredict
/// about one time in five): it always stores and advances the index by the
/// comparison result; a rejected value is overwritten by the next store.
#[inline(always)]
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
fn rej_uniform(out: &mut [i16; N], mut n: usize, buf: &[u8]) -> usize {
    let mut chunks = buf.chunks_exact(6);
    // Four candidates per 6 bytes; with n ≤ 252 all four stores are in bounds.
    while n <= N - 4 {
        let Some(c) = chunks.next() else {
            return n;
        };
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], 0, 0]);
        for k in 0..4 {
            let d = ((w >> (12 * k)) & 0xfff) as i16;
            out[n] = d;
            n += usize::from(d < Q);
        }
    }
    // The last few coefficients, one candidate at a time.
    for c in chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], 0, 0]);
        for k in 0..4 {
            let d = ((w >> (12 * k)) & 0xfff) as i16;
            if d < Q && n < N {
                out[n] = d;
                n += 1;
            }
        }
        if n == N {
            break;
        }
    }
    n
}

/// `SampleNTT(ρ ‖ j ‖ i)` (FIPS 203 Algorithm 7).
///
/// Samples `Â[i][j]` (coefficients in `[0, q)`) from SHAKE128(ρ ‖ j ‖ i).
/// `ρ` must already be public (declassified).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) fn sample_ntt(rho: &[u8; 32], j: u8, i: u8, out: &mut Poly) {
    let mut xof = crate::hash::xof(rho, j, i);
    let mut buf = [0u8; FIRST_BLOCKS * RATE_128];
    xof.squeeze_blocks(&mut buf);
    let mut n = rej_uniform(&mut out.c, 0, &buf);
    while n < N {
        let block = &mut buf[..RATE_128];
        xof.squeeze_blocks(block);
        n = rej_uniform(&mut out.c, n, block);
    }
}

/// `SampleNTT(ρ ‖ j ‖ i)` (FIPS 203 Algorithm 7) handed out pair by pair,
/// for the `small-stack` `K-PKE`: `f(p, a₀, a₁)` receives coefficients `2p`
/// and `2p + 1` of `Â[i][j]` (in `[0, q)`) as soon as both are accepted, so
/// the polynomial is never stored. One XOF block is buffered at a time.
///
/// Only public data passes through here (XOF output on the public seed ρ):
/// the acceptance test may branch.
#[cfg(feature = "small-stack")]
#[inline(always)]
pub(crate) fn sample_ntt_pairs(rho: &[u8; 32], j: u8, i: u8, mut f: impl FnMut(usize, i16, i16)) {
    let mut xof = crate::hash::xof(rho, j, i);
    let mut buf = [0u8; RATE_128];
    let mut n = 0;
    let mut even = 0;
    while n < N {
        xof.squeeze_blocks(&mut buf);
        for c in buf.chunks_exact(3) {
            let d1 = i16::from(c[0]) | (i16::from(c[1] & 0xf) << 8);
            let d2 = (i16::from(c[1]) >> 4) | (i16::from(c[2]) << 4);
            for d in [d1, d2] {
                if d < Q && n < N {
                    if n & 1 == 0 {
                        even = d;
                    } else {
                        f(n >> 1, even, d);
                    }
                    n += 1;
                }
            }
        }
    }
}

/// `SamplePolyCBD_η(B)` (FIPS 203 Algorithm 8), `η ∈ {2, 3}`.
///
/// Samples a polynomial with coefficients in `[-η, η]` from `64η` bytes.
#[inline(always)]
pub(crate) fn sample_cbd(eta: usize, b: &[u8], f: &mut Poly) {
    if eta == 2 {
        // Each 32-bit word gives 8 coefficients; the masked sums add the bit
        // pairs (x, y) of Algorithm 8 in parallel.
        for (o, w) in f.c.chunks_exact_mut(8).zip(b.chunks_exact(4)) {
            let t = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let d = (t & 0x5555_5555) + ((t >> 1) & 0x5555_5555);
            for (j, x) in o.iter_mut().enumerate() {
                let a = ((d >> (4 * j)) & 3) as i16;
                let c = ((d >> (4 * j + 2)) & 3) as i16;
                *x = a - c;
            }
        }
    } else {
        // η = 3: each 24-bit group gives 4 coefficients.
        for (o, w) in f.c.chunks_exact_mut(4).zip(b.chunks_exact(3)) {
            let t = u32::from_le_bytes([w[0], w[1], w[2], 0]);
            let d = (t & 0x0024_9249) + ((t >> 1) & 0x0024_9249) + ((t >> 2) & 0x0024_9249);
            for (j, x) in o.iter_mut().enumerate() {
                let a = ((d >> (6 * j)) & 7) as i16;
                let c = ((d >> (6 * j + 3)) & 7) as i16;
                *x = a - c;
            }
        }
    }
}
