//! Sampling (FIPS 203 §4.2.2): `SampleNTT` (Algorithm 7) draws an element
//! of `T_q` from the XOF, `SamplePolyCBD_η` (Algorithm 8) a small polynomial
//! from PRF output.

use crate::field::Q;
use crate::hash::{RATE_128, Shake128};
use crate::poly::{N, Poly};

/// XOF blocks squeezed up front: 3 blocks = 336 candidates, enough for the
/// 256 coefficients in the vast majority of cases (acceptance rate q/4096).
const FIRST_BLOCKS: usize = 3;

/// Appends the candidates of `buf` (3 bytes → two 12-bit values, in
/// Algorithm 7's order) that are below `q` to `out[n..]`; returns the new
/// count (at most 256).
///
/// Only public data passes through here (XOF output on the public seed ρ).
/// The main path still avoids data-dependent branches (they would mispredict
/// about one time in five): it always stores and advances the index by the
/// comparison result; a rejected value is overwritten by the next store.
#[inline(always)]
fn rej_uniform(out: &mut [i16; N], mut n: usize, buf: &[u8]) -> usize {
    for c in buf.chunks_exact(3) {
        if n == N {
            break;
        }
        let d1 = i16::from(c[0]) | ((i16::from(c[1]) & 0x0f) << 8);
        let d2 = (i16::from(c[1]) >> 4) | (i16::from(c[2]) << 4);
        if n + 2 <= N {
            // Both stores are in bounds: the second index is at most 255.
            out[n] = d1;
            n += usize::from(d1 < Q);
            out[n] = d2;
            n += usize::from(d2 < Q);
        } else {
            // One coefficient left.
            if d1 < Q {
                out[n] = d1;
                n += 1;
            } else if d2 < Q {
                out[n] = d2;
                n += 1;
            }
        }
    }
    n
}

// Algorithm 7 (FIPS 203): SampleNTT(ρ ‖ j ‖ i).
/// Samples `Â[i][j]` (coefficients in `[0, q)`) from SHAKE128(ρ ‖ j ‖ i).
/// `ρ` must already be public (declassified).
pub(crate) fn sample_ntt(rho: &[u8; 32], j: u8, i: u8, out: &mut Poly) {
    let mut xof = Shake128::xof(rho, j, i);
    let mut buf = [0u8; FIRST_BLOCKS * RATE_128];
    xof.squeeze_blocks(&mut buf);
    let mut n = rej_uniform(&mut out.c, 0, &buf);
    while n < N {
        let block = &mut buf[..RATE_128];
        xof.squeeze_blocks(block);
        n = rej_uniform(&mut out.c, n, block);
    }
}

// Algorithm 8 (FIPS 203): SamplePolyCBD_η(B), η ∈ {2, 3}.
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
