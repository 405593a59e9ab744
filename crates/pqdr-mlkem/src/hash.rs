//! The hash functions of FIPS 203 §4.1 on the `pqdr-keccak` sponges (FIPS
//! 202): `G` = SHA3-512, `H` = SHA3-256, `J` = SHAKE256 with 32-byte output,
//! `PRF_η` = SHAKE256 with `64η`-byte output, and `XOF` = SHAKE128 (squeezed
//! a few blocks at a time by the matrix sampler). Every sponge state is
//! zeroized on drop (most absorb secrets).

use pqdr_keccak::{PAD_SHA3, RATE_SHAKE256, Sha3_256, Sha3_512, Shake256};
use zeroize::Zeroize;

mod lanes;
#[cfg(not(feature = "small-stack"))]
pub(crate) use lanes::{PrfRider, prf_batches, prf_x4_encrypt_k2};

/// SHAKE128 rate in bytes (the block the matrix sampler squeezes).
pub(crate) const RATE_128: usize = pqdr_keccak::RATE_SHAKE128;

/// The `XOF` of §4.1 (SHAKE128).
pub(crate) type Shake128 = pqdr_keccak::Shake128;

/// `XOF.Init(); XOF.Absorb(ρ ‖ j ‖ i)` (FIPS 203 §4.1, the input of Algorithm 7), ready to squeeze.
#[inline(always)]
pub(crate) fn xof(rho: &[u8; 32], j: u8, i: u8) -> Shake128 {
    let mut s = Shake128::with_bmi(crate::arch::keccak_bmi());
    s.absorb(rho);
    s.absorb(&[j, i]);
    s.finalize();
    s
}

/// `G(c) = SHA3-512(c)` (FIPS 203 §4.1) over the concatenation of `parts`, split in two 32-byte halves.
#[inline(always)]
pub(crate) fn g(parts: &[&[u8]], a: &mut [u8; 32], b: &mut [u8; 32]) {
    let mut s = Sha3_512::with_bmi(crate::arch::keccak_bmi());
    for p in parts {
        s.absorb(p);
    }
    s.squeeze(a);
    s.squeeze(b);
}

/// `H(s) = SHA3-256(s)` (FIPS 203 §4.1).
#[inline(always)]
pub(crate) fn h(data: &[u8], out: &mut [u8; 32]) {
    let mut s = Sha3_256::with_bmi(crate::arch::keccak_bmi());
    s.absorb(data);
    s.squeeze(out);
}

/// SHA3-256 over the concatenation of `parts`: the digest the known-answer
/// self-tests compare outputs through (feature `self-test`).
#[cfg(feature = "self-test")]
pub(crate) fn sha3_256(parts: &[&[u8]], out: &mut [u8; 32]) {
    let mut s = Sha3_256::with_bmi(crate::arch::keccak_bmi());
    for p in parts {
        s.absorb(p);
    }
    s.squeeze(out);
}

/// `J(s) = SHAKE256(s, 8·32)` (FIPS 203 §4.1) over the concatenation of
/// `parts`, in one go: the reference the block-by-block [`JRider`] (what
/// decapsulation runs) is tested against.
#[cfg(test)]
pub(crate) fn j(parts: &[&[u8]], out: &mut [u8; 32]) {
    let mut s = Shake256::with_bmi(crate::arch::keccak_bmi());
    for p in parts {
        s.absorb(p);
    }
    s.squeeze(out);
}

/// `J(z ‖ c) = SHAKE256(z ‖ c, 8·32)` (FIPS 203 §4.1; FIPS 202 §4, §6.2)
/// computed one block per permutation, so that its permutations can ride in
/// the spare lane of the 4-way Keccak-f\[1600\] while `K-PKE.Encrypt`
/// samples a column of `Â` (`ML-KEM.Decaps`, Algorithm 18 line 8, needs
/// `J` only at the end). [`Self::finish`] runs whatever permutations are
/// left on the scalar Keccak-f\[1600\]; the output is that of `J` either
/// way (tested against a one-go SHAKE256). The state and each block are zeroized (`z` is secret).
pub(crate) struct JRider<'a> {
    /// The SHAKE256 state, lane `A[x, y]` at `x + 5y`.
    state: [u64; 25],
    z: &'a [u8],
    c: &'a [u8],
    /// Message bytes XORed into the state so far.
    off: usize,
    /// The last (padded) block is in the state.
    padded: bool,
    /// ... and has been permuted: the output can be read.
    finished: bool,
}

/// XORs a SHAKE256 block into the first 17 lanes (little-endian).
#[inline(always)]
fn xor_block(state: &mut [u64; 25], block: &[u8; RATE_SHAKE256]) {
    for (lane, w) in state.iter_mut().zip(block.as_chunks::<8>().0) {
        *lane ^= u64::from_le_bytes(*w);
    }
}

/// A sponge whose permutations can ride in the spare lane of the 4-way
/// Keccak-f\[1600\] while `K-PKE` samples a row or column of `Â`
/// (`sample::sample_ntt_row_x4`): [`JRider`] (`J(z ‖ c)` in decapsulation)
/// and [`HRider`] (`H(ek)` in key generation).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) trait LaneRider {
    /// Whether a block is ready to be loaded and permuted now.
    fn pending(&self) -> bool;
    /// XORs the next block into the state; the caller permutes the state
    /// next and then calls [`LaneRider::permuted`].
    fn load_next(&mut self);
    /// The state, to be permuted (after [`LaneRider::load_next`]).
    fn state_mut(&mut self) -> &mut [u64; 25];
    /// Records that the state was permuted after the last `load_next`.
    fn permuted(&mut self);
}

impl LaneRider for JRider<'_> {
    #[inline(always)]
    fn pending(&self) -> bool {
        JRider::pending(self)
    }
    #[inline(always)]
    fn load_next(&mut self) {
        JRider::load_next(self);
    }
    #[inline(always)]
    fn state_mut(&mut self) -> &mut [u64; 25] {
        JRider::state_mut(self)
    }
    #[inline(always)]
    fn permuted(&mut self) {
        JRider::permuted(self);
    }
}

/// The SHA3-256 sponge of `H(ek)` (FIPS 203 §4.1; FIPS 202 §4, §6.1) while
/// `K-PKE.KeyGen` is still writing `ek`: the state and the count of bytes
/// absorbed live in the caller's frame ([`HState`]); each row's sampling
/// gets an [`HRider`] over the prefix of `ek` written so far and absorbs
/// its whole 136-byte blocks, one per permutation, in the spare lane;
/// [`HState::finish`] absorbs the rest of the complete `ek` on the scalar
/// permutation, pads and squeezes. `ek` is public: nothing to zeroize.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) struct HState {
    state: [u64; 25],
    off: usize,
}

#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
impl HState {
    /// Nothing absorbed yet.
    pub(crate) const fn new() -> Self {
        Self {
            state: [0; 25],
            off: 0,
        }
    }

    /// A rider over `prefix`, the part of `ek` written so far.
    pub(crate) fn rider<'a>(&'a mut self, prefix: &'a [u8]) -> HRider<'a> {
        HRider { h: self, prefix }
    }

    /// `H(ek)`: absorbs `ek[off..]` (the whole key now), pads (SHA3's
    /// domain bits `01` and pad10*1) and squeezes 32 bytes.
    pub(crate) fn finish(mut self, ek: &[u8], out: &mut [u8; 32]) {
        while let Some(b) = ek[self.off..].first_chunk::<RATE_SHAKE256>() {
            xor_block(&mut self.state, b);
            pqdr_keccak::f1600_with(crate::arch::keccak_bmi(), &mut self.state);
            self.off += RATE_SHAKE256;
        }
        let rest = &ek[self.off..];
        let mut block = [0u8; RATE_SHAKE256];
        block[..rest.len()].copy_from_slice(rest);
        block[rest.len()] ^= PAD_SHA3;
        block[RATE_SHAKE256 - 1] ^= 0x80;
        xor_block(&mut self.state, &block);
        pqdr_keccak::f1600_with(crate::arch::keccak_bmi(), &mut self.state);
        for (o, lane) in out.as_chunks_mut::<8>().0.iter_mut().zip(&self.state) {
            *o = lane.to_le_bytes();
        }
    }
}

/// [`HState`] riding over the prefix of `ek` written so far: a block is
/// pending while a whole unabsorbed block of the prefix is left.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) struct HRider<'a> {
    h: &'a mut HState,
    prefix: &'a [u8],
}

impl LaneRider for HRider<'_> {
    #[inline(always)]
    fn pending(&self) -> bool {
        self.prefix.len() >= self.h.off + RATE_SHAKE256
    }
    #[inline(always)]
    fn load_next(&mut self) {
        if let Some(b) = self.prefix[self.h.off..].first_chunk::<RATE_SHAKE256>() {
            xor_block(&mut self.h.state, b);
            self.h.off += RATE_SHAKE256;
        }
    }
    #[inline(always)]
    fn state_mut(&mut self) -> &mut [u64; 25] {
        &mut self.h.state
    }
    #[inline(always)]
    fn permuted(&mut self) {}
}

impl Drop for JRider<'_> {
    fn drop(&mut self) {
        // Untouched (nothing absorbed) it is still all zero.
        if self.off != 0 || self.padded {
            self.state.zeroize();
        }
    }
}

impl<'a> JRider<'a> {
    /// The sponge of `J(z ‖ c)`, nothing absorbed yet.
    pub(crate) fn new(z: &'a [u8], c: &'a [u8]) -> Self {
        Self {
            state: [0; 25],
            z,
            c,
            off: 0,
            padded: false,
            finished: false,
        }
    }

    /// Whether a permutation is still due before the output can be read.
    #[inline(always)]
    pub(crate) fn pending(&self) -> bool {
        !self.finished
    }

    /// XORs the next block of `z ‖ c` into the state; the last one (fewer
    /// than 136 bytes, possibly none) gets SHAKE's domain bits `1111` and
    /// pad10*1 (FIPS 202 §5.1, §6.2). The caller permutes the state next
    /// (in a lane of the 4-way permutation or by [`pqdr_keccak::f1600`]) and
    /// then calls [`Self::permuted`]. Branches on lengths only.
    pub(crate) fn load_next(&mut self) {
        debug_assert!(!self.finished);
        let total = self.z.len() + self.c.len();
        let n = (total - self.off).min(RATE_SHAKE256);
        let from_z = self.z.get(self.off..).unwrap_or(&[]);
        let nz = from_z.len().min(n);
        let c_off = (self.off + nz).saturating_sub(self.z.len());
        self.off += n;
        if nz == 0 && n == RATE_SHAKE256 {
            // A whole block of c (public): straight into the lanes.
            if let Some(b) = self.c[c_off..].first_chunk::<RATE_SHAKE256>() {
                xor_block(&mut self.state, b);
            }
            return;
        }
        // The block is z[off..] ‖ c[..], cut at n bytes.
        let mut block = zeroize::Zeroizing::new([0u8; RATE_SHAKE256]);
        block[..nz].copy_from_slice(&from_z[..nz]);
        block[nz..n].copy_from_slice(&self.c[c_off..c_off + n - nz]);
        if n < RATE_SHAKE256 {
            block[n] ^= pqdr_keccak::PAD_SHAKE;
            block[RATE_SHAKE256 - 1] ^= 0x80;
            self.padded = true;
        }
        xor_block(&mut self.state, &block);
    }

    /// The state, to be permuted (after [`Self::load_next`]).
    #[inline(always)]
    pub(crate) fn state_mut(&mut self) -> &mut [u64; 25] {
        &mut self.state
    }

    /// Records that the state was permuted after the last [`Self::load_next`].
    #[inline(always)]
    pub(crate) fn permuted(&mut self) {
        self.finished = self.padded;
    }

    /// Runs the permutations still due on the scalar Keccak-f\[1600\] and
    /// squeezes the 32 output bytes (the first four lanes, little-endian);
    /// if none ran yet, hashes `z ‖ c` with the `Shake256` sponge instead.
    pub(crate) fn finish(mut self, out: &mut [u8; 32]) {
        if self.off == 0 {
            // Nothing rode (portable path, or k = 4): the plain sponge.
            let mut s = Shake256::with_bmi(crate::arch::keccak_bmi());
            s.absorb(self.z);
            s.absorb(self.c);
            s.squeeze(out);
            return;
        }
        while self.pending() {
            self.load_next();
            pqdr_keccak::f1600_with(crate::arch::keccak_bmi(), &mut self.state);
            self.permuted();
        }
        for (o, lane) in out.as_chunks_mut::<8>().0.iter_mut().zip(&self.state) {
            *o = lane.to_le_bytes();
        }
    }
}

/// `PRF_η(s, b) = SHAKE256(s ‖ b, 8·64η)` (FIPS 203 §4.1); `out.len()` is `64η`.
#[inline(always)]
pub(crate) fn prf(s: &[u8; 32], b: u8, out: &mut [u8]) {
    let mut sp = Shake256::with_bmi(crate::arch::keccak_bmi());
    sp.absorb(s);
    sp.absorb(&[b]);
    sp.squeeze(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::MAX_ETA;
    use sha3::Digest;
    use shake::{ExtendableOutput, Update, XofReader};

    fn input(len: usize) -> [u8; 400] {
        core::array::from_fn(|i| (i * 7 + len) as u8)
    }

    /// Every function against the `sha3` crate, for lengths around the rate
    /// boundaries and unaligned splits.
    #[test]
    fn matches_sha3_crate() {
        for len in 0..400 {
            let data = &input(len)[..len];
            let split = len / 3;

            let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
            g(&[&data[..split], &data[split..]], &mut a, &mut b);
            let want = sha3::Sha3_512::digest(data);
            assert_eq!(a[..], want[..32]);
            assert_eq!(b[..], want[32..]);

            let mut out = [0u8; 32];
            h(data, &mut out);
            assert_eq!(out[..], sha3::Sha3_256::digest(data)[..]);

            let mut shake = shake::Shake256::default();
            shake.update(data);
            let mut want = [0u8; 200];
            shake.finalize_xof().read(&mut want);
            j(&[&data[..split], &data[split..]], &mut out);
            assert_eq!(out[..], want[..32]);
            // J by the rider: untouched (the plain sponge), and block by
            // block after one permutation done by hand.
            let mut rode = [0u8; 32];
            JRider::new(&data[..split], &data[split..]).finish(&mut rode);
            assert_eq!(rode[..], want[..32]);
            let mut rider = JRider::new(&data[..split], &data[split..]);
            rider.load_next();
            pqdr_keccak::f1600(rider.state_mut());
            rider.permuted();
            rider.finish(&mut rode);
            assert_eq!(rode[..], want[..32]);
            if len >= 32 {
                let s: [u8; 32] = data[..32].try_into().unwrap_or([0; 32]);
                let mut shake = shake::Shake256::default();
                shake.update(&s);
                shake.update(&[len as u8]);
                let mut want = [0u8; 64 * MAX_ETA];
                shake.finalize_xof().read(&mut want);
                let mut got = [0u8; 64 * MAX_ETA];
                prf(&s, len as u8, &mut got);
                assert_eq!(got, want);
            }
        }
    }

    /// K-PKE's 4-way Keccak path follows this crate's own feature `simd`
    /// (and the CPU), not pqdr-keccak's, which another crate may turn on.
    #[test]
    fn keccak_path_follows_this_crates_simd_feature() {
        let want = cfg!(feature = "simd") && pqdr_common::simd::Avx2::detect().is_some();
        assert_eq!(crate::arch::keccak_avx2().is_some(), want);
    }

    /// `H` by [`HState`]: any number of whole blocks absorbed by riders
    /// (permuted by hand here) over growing prefixes, the rest by `finish`,
    /// against the `sha3` crate.
    #[test]
    fn h_rider_matches_sha3() {
        let data: [u8; 1600] = core::array::from_fn(|i| (i * 13 + 5) as u8);
        for len in [0, 1, 135, 136, 137, 271, 272, 273, 800, 1184, 1568] {
            let want = sha3::Sha3_256::digest(&data[..len]);
            for cut in [0, 100, 136, 384, 768, 1152, 1600] {
                let mut hs = HState::new();
                for prefix in [cut / 2, cut.min(len)] {
                    let mut r = hs.rider(&data[..prefix.min(len)]);
                    while r.pending() {
                        r.load_next();
                        pqdr_keccak::f1600(r.state_mut());
                        r.permuted();
                    }
                }
                let mut got = [0u8; 32];
                hs.finish(&data[..len], &mut got);
                assert_eq!(got[..], want[..], "len {len} cut {cut}");
            }
        }
    }

    #[test]
    fn xof_matches_shake128() {
        let rho: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut x = xof(&rho, 2, 1);
        let mut got = [0u8; 5 * RATE_128];
        x.squeeze_blocks(&mut got[..3 * RATE_128]);
        x.squeeze_blocks(&mut got[3 * RATE_128..]);
        let mut shake = shake::Shake128::default();
        shake.update(&rho);
        shake.update(&[2, 1]);
        let mut want = [0u8; 5 * RATE_128];
        shake.finalize_xof().read(&mut want);
        assert_eq!(got, want);
    }
}
