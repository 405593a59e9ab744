//! `ExpandMask` (FIPS 204 Algorithm 34) on the 4-way sponge: four mask
//! polynomials per Keccak-f\[1600\]×4 call, each lane the polynomial of the
//! one-at-a-time `sample::expand_mask_poly` (same byte stream), and for ℓ = 5
//! (ML-DSA-65) the lone fifth polynomial of two signing attempts sampled in
//! one call, the second one carried to the next attempt ([`MaskCarry`]).
//! ρ'' is secret: every count, offset and branch depends only on γ1, ℓ and
//! the attempt counter κ.
#![allow(
    clippy::cast_possible_truncation,
    reason = "polynomial indices below 8 fit a u16"
)]

use pqdr_common::simd::Avx2;
use pqdr_keccak::Shake256x4;
use zeroize::Zeroize;

use crate::poly::{N, Poly};
use crate::sample::{SHAKE256_RATE, expand_mask_poly};
use crate::sample_x4::{lanes, simd_backend};

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

/// Four polynomials of `ExpandMask(ρ'', κ)` (FIPS 204 Algorithm 34): lane k
/// is y = BitUnpack(H(ρ''‖IntegerToBytes(κ_k, 2)), γ1 − 1, γ1) (Algorithm
/// 19), unpacked block by block, eight fields at a time (`encode::mask_unpack`,
/// AVX2 when available): the bytes of a group cut by a block boundary are
/// moved in front of the next block, so only one block per lane is held.
/// ρ'' is secret: the counts and offsets depend only on γ1. A `None` lane
/// is squeezed along but not unpacked.
pub(crate) fn expand_mask_poly_x4(
    backend: Option<Avx2>,
    out: [Option<&mut Poly>; 4],
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
            let Some(o) = o else { continue };
            let src = &b[MASK_CARRY - carry..];
            crate::encode::mask_unpack(&mut o.0[done - 8 * groups..done], src, bits);
            // The cut group's bytes go in front of the next block.
            b.copy_within(
                MASK_CARRY + SHAKE256_RATE - left..MASK_CARRY + SHAKE256_RATE,
                MASK_CARRY - left,
            );
        }
        carry = left;
    }
    buf.zeroize();
}

/// The fifth mask polynomial of the next signing attempt (ℓ = 5), sampled
/// in the same 4-way call as this attempt's fifth (FIPS 204 Algorithm 34 with
/// counter κ + 4 + ℓ): the call has idle lanes anyway, so the next attempt
/// needs one 4-way call instead of a 4-way and a scalar sponge. Secret (it is
/// part of y): zeroized when used, by [`MaskCarry::clear`] when signing ends,
/// and on drop.
pub(crate) struct MaskCarry {
    y: Poly,
    /// The ExpandMask counter of `y`, if it holds one.
    kappa: Option<u16>,
}

impl MaskCarry {
    /// An empty carry.
    pub(crate) const fn new() -> Self {
        Self {
            y: Poly::ZERO,
            kappa: None,
        }
    }

    /// Forgets and zeroizes the carried polynomial.
    pub(crate) fn clear(&mut self) {
        self.y.zeroize();
        self.kappa = None;
    }
}

impl Drop for MaskCarry {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `ExpandMask(ρ'', κ)` (FIPS 204 Algorithm 34) into `y` (y_r with counter
/// κ + r), four polynomials per 4-way call (the last one with idle lanes if
/// ℓ is not a multiple of 4). A lone last polynomial (ℓ = 5) comes from
/// `carry` if it holds counter κ + 4; otherwise it is sampled together with
/// the next attempt's (κ + 4 + ℓ), which `carry` then keeps. The attempt
/// counter only is branched on.
pub(crate) fn expand_mask(
    y: &mut [Poly],
    rho_pp: &[u8; 64],
    kappa: u16,
    gamma1_bits: u32,
    carry: &mut MaskCarry,
) {
    let l = y.len();
    if let Some(token) = simd_backend() {
        for (b, batch) in y.chunks_mut(4).enumerate() {
            let n = batch.len();
            let k0 = kappa.wrapping_add(4 * b as u16);
            if let [one] = batch {
                if carry.kappa == Some(k0) {
                    *one = carry.y;
                    carry.clear();
                } else {
                    let next = k0.wrapping_add(l as u16);
                    let k = [k0, next, next, next];
                    let out = [Some(one), Some(&mut carry.y), None, None];
                    expand_mask_poly_x4(Some(token), out, rho_pp, k, gamma1_bits);
                    carry.kappa = Some(next);
                }
                continue;
            }
            let k = core::array::from_fn(|i| k0.wrapping_add(i.min(n - 1) as u16));
            expand_mask_poly_x4(Some(token), lanes(batch), rho_pp, k, gamma1_bits);
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

    fn seed(t: u32) -> [u8; 64] {
        let mut s = t.wrapping_mul(2_654_435_761).wrapping_add(1);
        core::array::from_fn(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s as u8
        })
    }

    #[test]
    fn expand_mask_x4_matches_scalar() {
        for t in 0..300 {
            let rho_pp = seed(t);
            let bits = if t & 1 == 0 { 17 } else { 19 };
            let kappa: [u16; 4] =
                core::array::from_fn(|k| (t as u16).wrapping_mul(7).wrapping_add(k as u16));
            for backend in [None, Avx2::detect()] {
                let mut got = [Poly::ZERO; 4];
                let [g0, g1, g2, g3] = &mut got;
                expand_mask_poly_x4(
                    backend,
                    [Some(g0), Some(g1), Some(g2), Some(g3)],
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
    /// 5, 7; a carry for another counter (a new signature, or attempts not in
    /// sequence) is not used; `clear` empties it.
    #[test]
    fn expand_mask_carry_matches_scalar() {
        for t in 0..40u32 {
            let rho_pp = seed(1000 + t);
            let bits = if t & 1 == 0 { 17 } else { 19 };
            for l in [4usize, 5, 7] {
                let mut carry = MaskCarry::new();
                let mut want = None;
                let start = if t % 4 == 3 { 65_530u16 } else { 0 };
                // Attempts 0, 1, 2, then a jump (stale carry), then 0 again.
                let skip = [0u16, 1, 2, 5, 0].map(|a| start.wrapping_add(a * l as u16));
                for (a, kappa) in skip.into_iter().enumerate() {
                    let mut y = [Poly::ZERO; 7];
                    expand_mask(&mut y[..l], &rho_pp, kappa, bits, &mut carry);
                    for (i, p) in y[..l].iter().enumerate() {
                        let mut want = Poly::ZERO;
                        expand_mask_poly(&mut want, &rho_pp, kappa.wrapping_add(i as u16), bits);
                        assert_eq!(p.0, want.0, "l {l}, attempt {a}, poly {i}");
                    }
                    // A carry is used by the next attempt in sequence (then
                    // empty), else made for it.
                    if l == 5 && simd_backend().is_some() {
                        want = if want == Some(kappa.wrapping_add(4)) {
                            None
                        } else {
                            Some(kappa.wrapping_add(4 + l as u16))
                        };
                    }
                    assert_eq!(carry.kappa, want, "l {l}, attempt {a}");
                }
                carry.clear();
                assert_eq!((carry.kappa, carry.y.0), (None, [0; N]));
            }
        }
    }
}
