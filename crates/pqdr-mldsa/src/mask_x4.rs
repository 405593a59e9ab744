//! `ExpandMask` (FIPS 204 Algorithm 34) on the 4-way sponge: four mask
//! polynomials per Keccak-f\[1600\]×4 call, each lane the polynomial of the
//! one-at-a-time `sample::expand_mask_poly` (same byte stream); when ℓ is
//! not a multiple of 4 (ML-DSA-65, -87) the idle lanes of an attempt's last
//! call sample the next attempt's first polynomials ([`MaskCarry`]).
//! ρ'' is secret: every count, offset and branch depends only on γ1, ℓ and
//! the attempt counter κ.
#![allow(
    clippy::cast_possible_truncation,
    reason = "polynomial indices below 8 fit a u16"
)]

use pqdr_common::simd::Avx2;
use pqdr_keccak::Shake256x4;
use zeroize::Zeroize;

use crate::params::MAX_Z_POLY_SIZE;
use crate::poly::{N, Poly};
use crate::sample::{SHAKE256_RATE, expand_mask_poly};
use crate::sample_x4::simd_backend;

/// Room before each lane's block in [`expand_mask_poly_x4`] for the bytes
/// of a group of eight fields cut by the previous block (< 20).
const MASK_CARRY: usize = 20;
/// A lane of [`expand_mask_poly_x4`]: the carried bytes, one SHAKE256 block,
/// and the 16 bytes `mask_unpack` may read past the last group.
const MASK_LANE: usize = MASK_CARRY + SHAKE256_RATE + 16;

/// The block of a lane buffer.
#[inline(always)]
fn mask_block(b: &mut [u8; MASK_LANE]) -> &mut [u8; SHAKE256_RATE] {
    let (blocks, _) = b[MASK_CARRY..].as_chunks_mut::<SHAKE256_RATE>();
    &mut blocks[0]
}

/// The packed bytes of one mask polynomial (32·(log2 γ1 + 1) ≤ 640) and
/// the 16 bytes `encode::mask_unpack` may read past its last group.
const PACKED: usize = MAX_Z_POLY_SIZE + 16;

/// Where a lane of [`expand_mask_poly_x4`] goes: unpacked into a
/// polynomial, or kept as its packed bytes (unpacked when used).
pub(crate) enum MaskLane<'a> {
    Poly(&'a mut Poly),
    Packed(&'a mut [u8; PACKED]),
}

/// Four polynomials of `ExpandMask(ρ'', κ)` (FIPS 204 Algorithm 34): lane k
/// is y = BitUnpack(H(ρ''‖IntegerToBytes(κ_k, 2)), γ1 − 1, γ1) (Algorithm
/// 19), unpacked block by block, eight fields at a time (`encode::mask_unpack`,
/// AVX2 when available): the bytes of a group cut by a block boundary are
/// moved in front of the next block, so only one block per lane is held.
/// A `Packed` lane gets the bytes themselves. ρ'' is secret: the counts and
/// offsets depend only on γ1. A `None` lane is squeezed along but not used.
pub(crate) fn expand_mask_poly_x4(
    backend: Option<Avx2>,
    out: [Option<MaskLane<'_>>; 4],
    rho_pp: &[u8; 64],
    kappa: [u16; 4],
    gamma1_bits: u32,
) {
    let mut x = Shake256x4::with_avx2(backend);
    x.absorb([rho_pp; 4]);
    let idx = kappa.map(u16::to_le_bytes);
    x.absorb([&idx[0], &idx[1], &idx[2], &idx[3]]);
    let bits = gamma1_bits + 1;
    // Eight fields of `bits` bits are `bits` bytes.
    let gbytes = bits as usize;
    let mut buf = [[0u8; MASK_LANE]; 4];
    let mut carry = 0usize;
    let mut done = 0usize;
    // Bytes squeezed per lane before this block.
    let mut pos = 0usize;
    let packed_len = 32 * gbytes;
    let mut out = out;
    while done < N {
        let [b0, b1, b2, b3] = &mut buf;
        x.squeeze_blocks([
            mask_block(b0),
            mask_block(b1),
            mask_block(b2),
            mask_block(b3),
        ]);
        // Whole groups in carry + block, at most the rest of the polynomial.
        let avail = carry + SHAKE256_RATE;
        let mut groups = 0;
        while (groups + 1) * gbytes <= avail && done + 8 * groups < N {
            groups += 1;
        }
        done += 8 * groups;
        // The bytes of a cut group (fewer than `gbytes`), unless finished.
        let left = if done < N { avail - groups * gbytes } else { 0 };
        for (o, b) in out.iter_mut().zip(buf.iter_mut()) {
            match o {
                None => {}
                Some(MaskLane::Poly(o)) => {
                    let src = &b[MASK_CARRY - carry..];
                    crate::encode::mask_unpack(&mut o.0[done - 8 * groups..done], src, bits);
                    // The cut group's bytes go in front of the next block.
                    b.copy_within(
                        MASK_CARRY + SHAKE256_RATE - left..MASK_CARRY + SHAKE256_RATE,
                        MASK_CARRY - left,
                    );
                }
                Some(MaskLane::Packed(p)) => {
                    let n = SHAKE256_RATE.min(packed_len.saturating_sub(pos));
                    p[pos..pos + n].copy_from_slice(&b[MASK_CARRY..MASK_CARRY + n]);
                }
            }
        }
        carry = left;
        pos += SHAKE256_RATE;
    }
    buf.zeroize();
}

/// The first mask polynomials of the next signing attempt, sampled in the
/// idle lanes of this attempt's last 4-way call: the counters run on from
/// attempt to attempt (κ + ℓ is the next attempt's first, FIPS 204
/// Algorithm 7 line 11 and Algorithm 34), so ExpandMask is one stream of
/// polynomials sampled four at a time, ⌈ℓ/4⌉ calls per attempt become ℓ/4
/// on average (ML-DSA-65: 1.25 instead of 1.5 or 2, ML-DSA-87: 1.75 instead
/// of 2). Secret (part of y): zeroized when used, by [`MaskCarry::clear`]
/// when signing ends, and on drop.
/// Lanes [`MaskCarry`] can hold: 3 (an attempt's last 4-way call has at
/// least one lane of its own), none where no 4-way call runs on AVX2 (e.g.
/// firmware) and in the `small-stack` / `smallest-stack` plans (stack first).
const CARRY_LANES: usize =
    if crate::arch::AVX2_BUILT && !cfg!(any(feature = "small-stack", feature = "smallest-stack")) {
        3
    } else {
        0
    };

pub(crate) struct MaskCarry {
    /// Packed (the bytes of Algorithm 34's H), a third of the stack of
    /// unpacked polynomials.
    y: [[u8; PACKED]; CARRY_LANES],
    /// The counter of `y[0]`; `y[..n]` hold counters kappa, kappa + 1, ….
    kappa: u16,
    n: usize,
}

impl MaskCarry {
    /// An empty carry.
    pub(crate) const fn new() -> Self {
        Self {
            y: [[0; PACKED]; CARRY_LANES],
            kappa: 0,
            n: 0,
        }
    }

    /// Forgets and zeroizes the carried polynomials.
    pub(crate) fn clear(&mut self) {
        // Only y[..n] can hold secrets: used lanes are zeroized when used.
        for p in &mut self.y[..self.n] {
            p.zeroize();
        }
        self.n = 0;
    }
}

impl Drop for MaskCarry {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `ExpandMask(ρ'', κ)` (FIPS 204 Algorithm 34) into `y` (y_r with counter
/// κ + r). With the 4-way sponge: the polynomials `carry` holds for κ, κ +
/// 1, … first, then the rest four per call, the last call's idle lanes
/// sampling counters κ + ℓ, … for the next attempt into `carry`. A carry for
/// other counters (another signature) is dropped. Only the public counters
/// are branched on.
pub(crate) fn expand_mask(
    y: &mut [Poly],
    rho_pp: &[u8; 64],
    kappa: u16,
    gamma1_bits: u32,
    carry: &mut MaskCarry,
) {
    if let Some(token) = simd_backend() {
        let mut i = 0;
        if carry.kappa == kappa {
            for (dst, src) in y.iter_mut().zip(&mut carry.y[..carry.n]) {
                crate::encode::mask_unpack(&mut dst.0, &src[..], gamma1_bits + 1);
                src.zeroize();
                i += 1;
            }
            carry.n = 0;
        }
        // A carry for other counters is dropped.
        carry.clear();
        while i < y.len() {
            let n = (y.len() - i).min(4);
            let k0 = kappa.wrapping_add(i as u16);
            let k = core::array::from_fn(|j| k0.wrapping_add(j as u16));
            let mut it = (y[i..i + n].iter_mut().map(MaskLane::Poly))
                .chain(carry.y.iter_mut().map(MaskLane::Packed));
            let out = core::array::from_fn(|_| it.next());
            expand_mask_poly_x4(Some(token), out, rho_pp, k, gamma1_bits);
            i += n;
            if n < 4 {
                carry.kappa = k0.wrapping_add(n as u16);
                carry.n = carry.y.len().min(4 - n);
            }
        }
        return;
    }
    for (i, p) in y.iter_mut().enumerate() {
        expand_mask_poly(p, rho_pp, kappa.wrapping_add(i as u16), gamma1_bits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample_x4::tests::seed;

    #[test]
    fn expand_mask_x4_matches_scalar() {
        for t in 0..300 {
            let rho_pp = seed::<64>(t);
            let bits = if t & 1 == 0 { 17 } else { 19 };
            let kappa: [u16; 4] =
                core::array::from_fn(|k| (t as u16).wrapping_mul(7).wrapping_add(k as u16));
            for backend in [None, Avx2::detect()] {
                let mut got = [Poly::ZERO; 4];
                let [g0, g1, g2, g3] = &mut got;
                expand_mask_poly_x4(
                    backend,
                    [g0, g1, g2, g3].map(|g| Some(MaskLane::Poly(g))),
                    &rho_pp,
                    kappa,
                    bits,
                );
                for (g, k) in got.iter().zip(kappa) {
                    let mut want = Poly::ZERO;
                    expand_mask_poly(&mut want, &rho_pp, k, bits);
                    assert_eq!(g.0, want.0);
                }
            }
            // ℓ = 4, 5, 7 (idle lanes in the last call).
            for l in [4, 5, 7] {
                let mut y = [Poly::ZERO; 7];
                expand_mask(&mut y[..l], &rho_pp, kappa[0], bits, &mut MaskCarry::new());
                for (i, p) in y.iter().enumerate() {
                    let mut want = Poly::ZERO;
                    if i < l {
                        expand_mask_poly(&mut want, &rho_pp, kappa[0].wrapping_add(i as u16), bits);
                    }
                    assert_eq!(p.0, want.0, "l {l}, poly {i}");
                }
            }
        }
    }

    /// Consecutive signing attempts through one carry (counters κ, κ + ℓ,
    /// …, wrapping at 2^16) give the scalar sampler's polynomials for ℓ = 4,
    /// 5, 7 (every carry size 0..=3 occurs); a carry for other counters (a
    /// new signature, or attempts not in sequence) is not used; `clear`
    /// empties it.
    #[test]
    fn expand_mask_carry_matches_scalar() {
        for t in 0..40u32 {
            let rho_pp = seed::<64>(1000 + t);
            let bits = if t & 1 == 0 { 17 } else { 19 };
            for l in [4usize, 5, 7] {
                let mut carry = MaskCarry::new();
                let start = if t % 4 == 3 { 65_530u16 } else { 0 };
                // Attempts 0..5 in sequence, a jump (stale carry), 0 again.
                let seq = [0u16, 1, 2, 3, 4, 5, 9, 0].map(|a| start.wrapping_add(a * l as u16));
                for (a, kappa) in seq.into_iter().enumerate() {
                    let mut y = [Poly::ZERO; 7];
                    expand_mask(&mut y[..l], &rho_pp, kappa, bits, &mut carry);
                    for (i, p) in y[..l].iter().enumerate() {
                        let mut want = Poly::ZERO;
                        expand_mask_poly(&mut want, &rho_pp, kappa.wrapping_add(i as u16), bits);
                        assert_eq!(p.0, want.0, "l {l}, attempt {a}, poly {i}");
                    }
                    // The carry holds the next counters' polynomials.
                    for (i, c) in carry.y[..carry.n].iter().enumerate() {
                        assert_eq!(carry.kappa, kappa.wrapping_add(l as u16));
                        let mut want = Poly::ZERO;
                        expand_mask_poly(
                            &mut want,
                            &rho_pp,
                            carry.kappa.wrapping_add(i as u16),
                            bits,
                        );
                        let mut got = Poly::ZERO;
                        crate::encode::mask_unpack_portable(&mut got.0, c, bits + 1);
                        assert_eq!(got.0, want.0, "l {l}, attempt {a}, carried {i}");
                    }
                    if simd_backend().is_none() || l == 4 {
                        assert_eq!(carry.n, 0);
                    }
                }
                carry.clear();
                assert_eq!(carry.n, 0);
                assert!(carry.y.iter().all(|p| p.iter().all(|&b| b == 0)));
            }
        }
    }
}
