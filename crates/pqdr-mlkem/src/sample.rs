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
    sample_ntt_rows_x4(backend, rho, i, transpose, v, &mut [acc], rider);
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
    sample_ntt_rows_x4(backend, rho, i, transpose, v, &mut [acc0, acc1], None);
}

/// The sampler of [`sample_ntt_row_x4`] and [`sample_ntt_row_pair_x4`]:
/// `accs.len()` consecutive rows (or columns) `i, i + 1, …`, `accs[r]`
/// receiving row `i + r`, lane `l = r·k + j` sampling entry `j` of row
/// `i + r` (`accs.len() · k ≤ 4`).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(always)]
fn sample_ntt_rows_x4<const R: usize>(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    i: u8,
    transpose: bool,
    v: &[Multiplicand],
    accs: &mut [&mut Accumulator; R],
    rider: Option<&mut dyn LaneRider>,
) {
    let lanes = accs.len() * v.len();
    debug_assert!(lanes <= 4);
    // Lane l samples entry j of row r, l = r·k + j (built by counting: no
    // division).
    let mut map = [(0usize, 0u8); 4];
    let mut l = 0;
    for r in 0..accs.len() {
        for j in 0..v.len() {
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
mod tests {
    use super::*;
    extern crate std;

    /// The block of 112 candidates `d` (each < 2^12) as `ByteEncode_12` bytes.
    fn block_of(d: &[i16; 112]) -> [u8; REJ_BLOCK] {
        let mut b = [0u8; REJ_BLOCK];
        for (o, p) in b
            .as_chunks_mut::<3>()
            .0
            .iter_mut()
            .zip(d.as_chunks::<2>().0)
        {
            let (x, y) = (p[0] as u16, p[1] as u16);
            *o = [x as u8, ((x >> 8) | (y << 4)) as u8, (y >> 4) as u8];
        }
        b
    }

    /// The AVX2 rejection step (when detected) against its portable twin:
    /// random blocks, and blocks of edge candidates (q − 1, q, 0, 4095, all
    /// accepted, none accepted, alternating), for every carried count
    /// 0..=15 (with distinct carried values, which must be kept).
    #[test]
    fn rej_uniform_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            std::eprintln!("no AVX2 on this CPU: differential test skipped");
            return;
        };
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut blocks = std::vec::Vec::new();
        for v in [
            [0i16; 2],
            [4095; 2],
            [3328; 2],
            [3329; 2],
            [3328, 3329],
            [3329, 3328],
            [0, 4095],
        ] {
            blocks.push(block_of(&core::array::from_fn(|i| v[i & 1])));
        }
        for _ in 0..2000 {
            let mut b = [0u8; REJ_BLOCK];
            for x in &mut b[..RATE_128] {
                *x = next() as u8;
            }
            blocks.push(b);
            // Candidates near q.
            blocks.push(block_of(&core::array::from_fn(|_| {
                3320 + (next() % 16) as i16
            })));
        }
        for (k, b) in blocks.iter().enumerate() {
            for n0 in 0..=15 {
                let mut got = [-1i16; REJ_OUT];
                let mut want = [-1i16; REJ_OUT];
                for j in 0..n0 {
                    got[j] = 5000 + j as i16;
                    want[j] = 5000 + j as i16;
                }
                let n = crate::arch::rej_uniform(token, b, &mut got, n0);
                let m = rej_uniform_portable(b, &mut want, n0);
                assert_eq!(n, m, "block {k}, carried {n0}");
                assert_eq!(got[..n], want[..m], "block {k}, carried {n0}");
            }
        }
    }

    /// The AVX2 `SamplePolyCBD_2` (when detected) against its portable twin
    /// on random bytes and on all-zero, all-one and alternating bytes.
    #[test]
    fn cbd2_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut seed = 0x0f1e_2d3c_4b5a_6978u64;
        for iter in 0..2000 {
            let b: [u8; 128] = core::array::from_fn(|i| match iter {
                0 => 0,
                1 => 0xff,
                2 => 0x0f,
                3 => 0xf0,
                4 => [0x03, 0x0c, 0x30, 0xc0][i & 3],
                _ => {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                }
            });
            let (mut got, mut want) = (Poly::ZERO, Poly::ZERO);
            crate::arch::cbd2(token, &b, &mut got.c);
            sample_cbd_portable(2, &b, &mut want);
            assert_eq!(got.c, want.c, "iteration {iter}");
        }
    }

    #[test]
    fn cbd3_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut seed = 0x1f2e_3d4c_5b6a_7988u64;
        for iter in 0..2000 {
            let b: [u8; 192] = core::array::from_fn(|i| match iter {
                0 => 0,
                1 => 0xff,
                2 => [0x07, 0x00, 0x00][i % 3],
                3 => [0x38, 0x00, 0x00][i % 3],
                4 => [0x00, 0x00, 0xfc][i % 3],
                5 => [0xc0, 0x01, 0x00][i % 3],
                _ => {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                }
            });
            let (mut got, mut want) = (Poly::ZERO, Poly::ZERO);
            crate::arch::cbd3(token, &b, &mut got.c);
            sample_cbd_portable(3, &b, &mut want);
            assert_eq!(got.c, want.c, "iteration {iter}");
        }
    }

    /// The 4-way sampler of two rows (or columns) at once against
    /// `SampleNTT` one entry at a time, on both Keccak backends, k = 1, 2,
    /// 500 random seeds each; the accumulators start non-zero.
    #[test]
    fn row_pair_x4_matches_sample_ntt() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut v = [Multiplicand::ZERO; 2];
        let mut start = Poly::ZERO;
        for iter in 0..500 {
            let rho: [u8; 32] = core::array::from_fn(|_| next() as u8);
            for m in &mut v {
                for c in &mut m.f.c {
                    *c = (next() % 3329) as i16 - 1664;
                }
                m.cache = crate::ntt::MulCache::new(&m.f);
            }
            for c in &mut start.c {
                *c = (next() % 3329) as i16 - 1664;
            }
            let k = 1 + iter % 2;
            let i = (next() % 3) as u8;
            for transpose in [false, true] {
                let (mut want0, mut want1) = (Accumulator::ZERO, Accumulator::ZERO);
                want0.set(&start);
                sample_ntt_row(&rho, i, transpose, &v[..k], &mut want0);
                sample_ntt_row(&rho, i + 1, transpose, &v[..k], &mut want1);
                for backend in [crate::arch::keccak_avx2(), None] {
                    let (mut got0, mut got1) = (Accumulator::ZERO, Accumulator::ZERO);
                    got0.set(&start);
                    sample_ntt_row_pair_x4(
                        backend,
                        &rho,
                        i,
                        transpose,
                        &v[..k],
                        &mut got0,
                        &mut got1,
                    );
                    assert_eq!(got0.c, want0.c, "iteration {iter}, k {k}, {backend:?}");
                    assert_eq!(got1.c, want1.c, "iteration {iter}, k {k}, {backend:?}");
                }
            }
        }
    }

    /// The streamed 4-way row sampler against `SampleNTT` one entry at a
    /// time followed by `Accumulator::add`, on both Keccak backends, for
    /// k = 1..=4, rows and columns, 1,000 random seeds each (some streams
    /// need a fourth block: about 1 % of entries), with a `J` sponge riding
    /// in the spare lane against `hash::j`.
    #[test]
    fn row_x4_matches_sample_ntt() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut v = [Multiplicand::ZERO; 4];
        for iter in 0..1000 {
            let rho: [u8; 32] = core::array::from_fn(|_| next() as u8);
            for m in &mut v {
                for c in &mut m.f.c {
                    *c = (next() % 3329) as i16 - 1664;
                }
                m.cache = crate::ntt::MulCache::new(&m.f);
            }
            let k = 1 + iter % 4;
            let i = (next() % 4) as u8;
            for transpose in [false, true] {
                let mut want = Accumulator::ZERO;
                sample_ntt_row(&rho, i, transpose, &v[..k], &mut want);
                for backend in [crate::arch::keccak_avx2(), None] {
                    let mut got = Accumulator::ZERO;
                    // A `J(z ‖ c)` sponge rides along (k < 4) for a
                    // message of 0..=1,120 bytes (up to 9 blocks: more
                    // than a row's permutations, so `finish` has work).
                    let msg: [u8; 1120] = core::array::from_fn(|_| next() as u8);
                    let len = (iter * 37) % 1121;
                    let (z, c) = msg[..len].split_at(((iter % 3) * 16).min(len));
                    let (mut rode, mut want_hash) = ([0u8; 32], [0u8; 32]);
                    if iter % 2 == 0 {
                        let mut rider = crate::hash::JRider::new(z, c);
                        sample_ntt_row_x4(
                            backend,
                            &rho,
                            i,
                            transpose,
                            &v[..k],
                            &mut got,
                            Some(&mut rider),
                        );
                        rider.finish(&mut rode);
                        crate::hash::j(&[z, c], &mut want_hash);
                    } else {
                        // An `H` sponge over the prefix msg[..len] of a
                        // longer message (key generation's `ek`), finished
                        // over all of it.
                        let mut h = crate::hash::HState::new();
                        let mut rider = h.rider(&msg[..len]);
                        sample_ntt_row_x4(
                            backend,
                            &rho,
                            i,
                            transpose,
                            &v[..k],
                            &mut got,
                            Some(&mut rider),
                        );
                        h.finish(&msg, &mut rode);
                        crate::hash::h(&msg, &mut want_hash);
                    }
                    assert_eq!(got.c, want.c, "iteration {iter}, k {k}, {backend:?}");
                    assert_eq!(rode, want_hash, "iteration {iter}, k {k}, {backend:?}");
                }
            }
        }
    }
}
