//! Sampling (FIPS 203 §4.2.2): `SampleNTT` (Algorithm 7) draws an element
//! of `T_q` from the XOF, `SamplePolyCBD_η` (Algorithm 8) a small polynomial
//! from PRF output.

#![allow(
    clippy::cast_possible_truncation,
    reason = "12-bit values are extracted with masks"
)]

use pqdr_common::simd::Avx2;
use pqdr_keccak::StateX4;

use crate::arch::{REJ_BLOCK, REJ_OUT};
use crate::field::Q;
use crate::hash::{LaneRider, RATE_128};
use crate::ntt::{Accumulator, Multiplicand};
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

/// `Σ_j Â_j ∘ v[j]` added to `acc`, one `SampleNTT` (Algorithm 7) at a
/// time on the scalar Keccak: the entries and their order are those of
/// [`sample_ntt_row_x4`] (row `i` of `Â`, or column `i` with `transpose`).
/// Its own frame holds the one sampled entry.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(never)]
pub(crate) fn sample_ntt_row(
    rho: &[u8; 32],
    i: u8,
    transpose: bool,
    v: &[Multiplicand],
    acc: &mut Accumulator,
) {
    let mut a_hat = Poly::ZERO;
    for (j, g) in v.iter().enumerate() {
        let (b0, b1) = if transpose {
            (i, j as u8)
        } else {
            (j as u8, i)
        };
        sample_ntt(rho, b0, b1, &mut a_hat);
        acc.add(&a_hat, g);
    }
}

/// Coefficients of `Â` handed to the accumulator at a time by
/// [`sample_ntt_row_x4`].
const CHUNK: usize = 16;
const _: () = assert!(CHUNK == 1 << 4);

/// 64-bit lanes in the SHAKE128 rate.
const RATE_LANES: usize = 21;
const _: () = assert!(8 * RATE_LANES == RATE_128);

/// `Σ_j Â_j ∘ v[j]` added to `acc` for the `k = v.len() ≤ 4` entries of one
/// row or column of `Â` (FIPS 203 Algorithm 7, `SampleNTT`, four at a time
/// on the 4-way Keccak-f\[1600\] of `backend`, then Algorithms 11, 12):
/// entry `j` is `SampleNTT(ρ ‖ j ‖ i) = Â[i][j]` (row `i`, `K-PKE.KeyGen`)
/// or, with `transpose`, `SampleNTT(ρ ‖ i ‖ j) = Â[j][i]` (column `i`,
/// `K-PKE.Encrypt`). The sums are those of [`Accumulator::add`] on the
/// sampled entries.
///
/// Stack: no entry is stored. The four SHAKE128 states are held here
/// rather than in a `Shake128x4` (whose squeeze needs a block buffer per
/// stream): the 34-byte input and its padding fill one block, and each
/// stream's output block is read straight from the state. Accepted
/// coefficients go to the accumulator sixteen at a time; up to 15 wait in a
/// per-stream carry.
///
/// Only public data is sampled (XOF output on the public seed `ρ`): the loop
/// may branch on how many coefficients each stream has accepted.
///
/// `rider`: with fewer than four entries, lane 3 of the 4-way permutation
/// is spare; each permutation call then also permutes the next block of
/// another sponge in that lane while it has one ready: `J(z ‖ c)` (secret
/// `z`) in decapsulation, until it has absorbed everything, or `H(ek)` in
/// key generation, over the part of `ek` already written. No branch or
/// index depends on that lane, and the state is zeroized afterwards.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(never)]
pub(crate) fn sample_ntt_row_x4(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    i: u8,
    transpose: bool,
    v: &[Multiplicand],
    acc: &mut Accumulator,
    rider: Option<&mut dyn LaneRider>,
) {
    sample_ntt_rows_x4(backend, rho, i, transpose, v, 0, v.len(), &mut [acc], rider);
}

/// [`sample_ntt_row_x4`] for rows (or columns) `i` and `i + 1` at once,
/// `acc0` receiving row `i` and `acc1` row `i + 1`: with `k = 2` the four
/// entries fill the four lanes, so every 4-way permutation call serves
/// four entries of `Â`. No rider (no spare lane).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(never)]
pub(crate) fn sample_ntt_row_pair_x4(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    i: u8,
    transpose: bool,
    v: &[Multiplicand],
    acc0: &mut Accumulator,
    acc1: &mut Accumulator,
) {
    debug_assert!(v.len() <= 2);
    sample_ntt_rows_x4(
        backend,
        rho,
        i,
        transpose,
        v,
        0,
        v.len(),
        &mut [acc0, acc1],
        None,
    );
}

/// [`sample_ntt_row_x4`] for entries `j0..j0 + nj` only (`Σ_{j0 ≤ j <
/// j0 + nj} Â_j ∘ v[j]`) of the `R` rows (or columns) `i..i + R`, `accs[r]`
/// receiving row `i + r` (`R · nj ≤ 4`; `rider` in lane 3 when fewer than
/// four lanes are used). For `k = 4` in decapsulation: entries 0–2 of each
/// column with `J(z ‖ c)` in the spare lane, then entry 3 of the four
/// columns in one run.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the sampler's arguments plus the entry range"
)]
pub(crate) fn sample_ntt_rows_part_x4<const R: usize>(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    i: u8,
    transpose: bool,
    v: &[Multiplicand],
    j0: usize,
    nj: usize,
    accs: &mut [&mut Accumulator; R],
    rider: Option<&mut dyn LaneRider>,
) {
    sample_ntt_rows_x4(backend, rho, i, transpose, v, j0, nj, accs, rider);
}

/// The sampler of [`sample_ntt_row_x4`], [`sample_ntt_row_pair_x4`] and
/// [`sample_ntt_rows_part_x4`]: `accs.len()` consecutive rows (or columns)
/// `i, i + 1, …`, `accs[r]` receiving row `i + r`, lane `l = r·nj + (j −
/// j0)` sampling entry `j ∈ j0..j0 + nj` of row `i + r`
/// (`accs.len() · nj ≤ 4`).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(always)]
#[allow(
    clippy::too_many_arguments,
    reason = "the rows, the entry range, the rider"
)]
fn sample_ntt_rows_x4<const R: usize>(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    i: u8,
    transpose: bool,
    v: &[Multiplicand],
    j0: usize,
    nj: usize,
    accs: &mut [&mut Accumulator; R],
    rider: Option<&mut dyn LaneRider>,
) {
    let lanes = accs.len() * nj;
    debug_assert!(lanes <= 4 && j0 + nj <= v.len());
    // Lane l samples entry j of row r, l = r·nj + (j − j0) (built by
    // counting: no division).
    let mut map = [(0usize, 0u8); 4];
    let mut l = 0;
    for r in 0..accs.len() {
        for j in j0..j0 + nj {
            if let Some(m) = map.get_mut(l) {
                *m = (r, j as u8);
            }
            l += 1;
        }
    }
    let mut rider = if lanes < 4 { rider } else { None };
    let rode = rider.is_some();
    // SHAKE128(ρ ‖ b₀ ‖ b₁) absorbed (FIPS 202 §4, §6.2): ρ in lanes 0–3,
    // b₀, b₁ and the SHAKE domain/padding byte 0x1F in lane 4, the final
    // padding bit in the last byte of the rate. Lanes beyond the entries
    // absorb entry 0's input; their output is unused.
    let mut state: StateX4 = [[0; 4]; 25];
    for (lane, w) in state.iter_mut().zip(rho.as_chunks::<8>().0) {
        *lane = [u64::from_le_bytes(*w); 4];
    }
    for (&(r, j), w) in map.iter().zip(state[4].iter_mut()) {
        let row = i + r as u8;
        let (b0, b1) = if transpose { (row, j) } else { (j, row) };
        *w = u64::from(b0) | (u64::from(b1) << 8) | (0x1f << 16);
    }
    state[RATE_LANES - 1] = [0x80 << 56; 4];

    // Accepted coefficients not yet multiplied in (fewer than 16 per stream).
    let mut carry = [[0i16; CHUNK]; 4];
    let mut carried = [0usize; 4];
    // Coefficients of each entry already multiplied in (N: finished or unused).
    let mut done: [usize; 4] = core::array::from_fn(|l| if l < lanes { 0 } else { N });
    let mut block = [0u8; REJ_BLOCK];
    let mut buf = [0i16; REJ_OUT];
    let simd = crate::arch::avx2();
    while done.iter().any(|&d| d < N) {
        let riding = match rider.as_deref_mut() {
            Some(r) if r.pending() => {
                r.load_next();
                for (lane, w) in state.iter_mut().zip(r.state_mut().iter()) {
                    lane[3] = *w;
                }
                true
            }
            _ => false,
        };
        pqdr_keccak::f1600_x4(backend, &mut state);
        if let Some(r) = rider.as_deref_mut().filter(|_| riding) {
            for (w, lane) in r.state_mut().iter_mut().zip(state.iter()) {
                *w = lane[3];
            }
            r.permuted();
        }
        for (l, &(r, j)) in map.iter().enumerate().take(lanes) {
            if done[l] == N {
                continue;
            }
            let (Some(acc), Some(g)) = (accs.get_mut(r), v.get(usize::from(j))) else {
                continue;
            };
            for (b, lane) in block
                .as_chunks_mut::<8>()
                .0
                .iter_mut()
                .zip(&state[..RATE_LANES])
            {
                *b = lane[l].to_le_bytes();
            }
            // Algorithm 7 on this block: the carried coefficients, then the
            // accepted candidates, in order.
            let n0 = carried[l];
            buf[..n0].copy_from_slice(&carry[l][..n0]);
            let n = match simd {
                Some(token) => crate::arch::rej_uniform(token, &block, &mut buf, n0),
                None => rej_uniform_portable(&block, &mut buf, n0),
            };
            let mut start = 0;
            while n - start >= CHUNK && done[l] < N {
                if let Some(chunk) = buf[start..].first_chunk::<CHUNK>() {
                    // Block `done / 16` (`done` counts whole chunks).
                    acc.add_chunk(done[l] >> 4, chunk, g);
                }
                done[l] += CHUNK;
                start += CHUNK;
            }
            let rest = if done[l] < N { n - start } else { 0 };
            carry[l][..rest].copy_from_slice(&buf[start..start + rest]);
            carried[l] = rest;
        }
    }
    if rode {
        // Lane 3 held the secret `J` state.
        zeroize::Zeroize::zeroize(&mut state);
    }
}

/// `SampleNTT`'s candidate loop (FIPS 203 Algorithm 7, lines 5–15) on one
/// SHAKE128 block (`block[..168]`): two 12-bit candidates per 3 bytes,
/// appended to `out[n..]` if below `q`; returns the new count (stops when
/// `out` is full). The portable twin of the AVX2 `arch::rej_uniform`.
/// Branches on the candidates: only public data (XOF output on `ρ`) is sampled.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) fn rej_uniform_portable(
    block: &[u8; REJ_BLOCK],
    out: &mut [i16; REJ_OUT],
    mut n: usize,
) -> usize {
    for c in block[..RATE_128].as_chunks::<3>().0 {
        let d1 = i16::from(c[0]) | (i16::from(c[1] & 0xf) << 8);
        let d2 = (i16::from(c[1]) >> 4) | (i16::from(c[2]) << 4);
        for d in [d1, d2] {
            if d < Q {
                match out.get_mut(n) {
                    Some(o) => *o = d,
                    None => return n,
                }
                n += 1;
            }
        }
    }
    n
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
    if let Some(token) = crate::arch::avx2() {
        if eta == 2
            && let Some(b) = b.first_chunk::<128>()
        {
            crate::arch::cbd2(token, b, &mut f.c);
            return;
        }
        if eta == 3
            && let Some(b) = b.first_chunk::<192>()
        {
            crate::arch::cbd3(token, b, &mut f.c);
            return;
        }
    }
    sample_cbd_portable(eta, b, f);
}

/// [`sample_cbd`] without SIMD: the reference twin of the AVX2 path.
#[inline(always)]
pub(crate) fn sample_cbd_portable(eta: usize, b: &[u8], f: &mut Poly) {
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

#[cfg(all(test, not(feature = "small-stack")))]
mod tests;
