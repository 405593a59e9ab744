//! The hash functions of FIPS 203 §4.1 on Keccak-f\[1600\] (FIPS 202):
//! `G` = SHA3-512, `H` = SHA3-256, `J` = SHAKE256 with 32-byte output,
//! `PRF_η` = SHAKE256 with `64η`-byte output, and `XOF` = SHAKE128 (squeezed
//! a few blocks at a time by the matrix sampler).
//!
//! The sponge is written directly over the permutation ([`crate::keccak`]): the
//! inputs here are short and fixed-shape, so the state's lanes are filled and
//! read in place. Every sponge state is zeroized on drop (most absorb secrets).

#![allow(
    clippy::cast_possible_truncation,
    reason = "squeezing reads the state lanes byte by byte"
)]

use zeroize::Zeroize;

/// SHA3-512 rate in bytes.
const RATE_512: usize = 72;
/// SHA3-256 / SHAKE256 rate in bytes.
const RATE_256: usize = 136;
/// SHAKE128 rate in bytes.
pub(crate) const RATE_128: usize = 168;

/// Domain-separation and first padding bits of SHA3-* (`01` then pad10*1).
const PAD_SHA3: u8 = 0x06;
/// Domain-separation and first padding bits of SHAKE* (`1111` then pad10*1).
const PAD_SHAKE: u8 = 0x1f;

/// A Keccak-f\[1600\] sponge with `RATE` bytes of rate.
pub(crate) struct Sponge<const RATE: usize> {
    state: [u64; 25],
    /// Absorb: bytes already absorbed into the current block.
    /// Squeeze: bytes already read from the current block.
    pos: usize,
}

impl<const RATE: usize> Drop for Sponge<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

#[inline(always)]
fn permute(state: &mut [u64; 25]) {
    crate::keccak::f1600(state);
}

impl<const RATE: usize> Sponge<RATE> {
    #[inline(always)]
    pub(crate) const fn new() -> Self {
        Self {
            state: [0; 25],
            pos: 0,
        }
    }

    /// XORs one byte into the state at byte offset `i` (little-endian lanes).
    #[inline(always)]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i >> 3] ^= u64::from(b) << ((i & 7) << 3);
    }

    /// Absorbs `data` (any length, any number of calls).
    #[inline(always)]
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        // Whole 8-byte lanes while aligned, then single bytes.
        while !data.is_empty() {
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
            if self.pos & 7 == 0 && data.len() >= 8 {
                let lanes = ((RATE - self.pos) >> 3).min(data.len() >> 3);
                let (head, rest) = data.split_at(lanes * 8);
                for (j, w) in head.chunks_exact(8).enumerate() {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(w);
                    self.state[(self.pos >> 3) + j] ^= u64::from_le_bytes(b);
                }
                self.pos += lanes * 8;
                data = rest;
            } else {
                self.xor_byte(self.pos, data[0]);
                self.pos += 1;
                data = &data[1..];
            }
        }
    }

    /// Pads with the domain byte `pad`, permutes, and switches to squeezing.
    #[inline(always)]
    fn finish(&mut self, pad: u8) {
        if self.pos == RATE {
            permute(&mut self.state);
            self.pos = 0;
        }
        self.xor_byte(self.pos, pad);
        self.xor_byte(RATE - 1, 0x80);
        permute(&mut self.state);
        self.pos = 0;
    }

    /// Squeezes `out.len()` bytes (any number of calls).
    #[inline(always)]
    pub(crate) fn squeeze(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
            if self.pos & 7 == 0 && out.len() >= 8 {
                // Whole lanes, little-endian.
                let lanes = ((RATE - self.pos) >> 3).min(out.len() >> 3);
                let (head, rest) = out.split_at_mut(lanes * 8);
                for (o, lane) in head.chunks_exact_mut(8).zip(&self.state[self.pos >> 3..]) {
                    o.copy_from_slice(&lane.to_le_bytes());
                }
                self.pos += lanes * 8;
                out = rest;
            } else {
                out[0] = (self.state[self.pos >> 3] >> ((self.pos & 7) << 3)) as u8;
                self.pos += 1;
                out = &mut out[1..];
            }
        }
    }

    /// Squeezes whole blocks: `out.len()` must be a multiple of `RATE`, and
    /// the sponge must be at a block boundary (right after padding, or after
    /// a previous whole-block squeeze).
    #[inline(always)]
    pub(crate) fn squeeze_blocks(&mut self, out: &mut [u8]) {
        debug_assert!(self.pos == 0 || self.pos == RATE);
        for block in out.chunks_exact_mut(RATE) {
            if self.pos == RATE {
                permute(&mut self.state);
            }
            for (o, lane) in block.chunks_exact_mut(8).zip(&self.state) {
                o.copy_from_slice(&lane.to_le_bytes());
            }
            self.pos = RATE;
        }
    }
}

/// A SHAKE128 instance in its squeezing phase (the `XOF` of §4.1).
pub(crate) type Shake128 = Sponge<RATE_128>;

impl Shake128 {
    /// `XOF.Init(); XOF.Absorb(ρ ‖ j ‖ i)` (FIPS 203 §4.1, the input of Algorithm 7), ready to squeeze.
    #[inline(always)]
    pub(crate) fn xof(rho: &[u8; 32], j: u8, i: u8) -> Self {
        let mut s = Self::new();
        s.absorb(rho);
        s.absorb(&[j, i]);
        s.finish(PAD_SHAKE);
        s
    }
}

/// `G(c) = SHA3-512(c)` (FIPS 203 §4.1) over the concatenation of `parts`, split in two 32-byte halves.
#[inline(always)]
pub(crate) fn g(parts: &[&[u8]], a: &mut [u8; 32], b: &mut [u8; 32]) {
    let mut s = Sponge::<RATE_512>::new();
    for p in parts {
        s.absorb(p);
    }
    s.finish(PAD_SHA3);
    s.squeeze(a);
    s.squeeze(b);
}

/// `H(s) = SHA3-256(s)` (FIPS 203 §4.1).
#[inline(always)]
pub(crate) fn h(data: &[u8], out: &mut [u8; 32]) {
    let mut s = Sponge::<RATE_256>::new();
    s.absorb(data);
    s.finish(PAD_SHA3);
    s.squeeze(out);
}

/// SHA3-256 over the concatenation of `parts`: the digest the known-answer
/// self-tests compare outputs through (feature `self-test`).
#[cfg(feature = "self-test")]
pub(crate) fn sha3_256(parts: &[&[u8]], out: &mut [u8; 32]) {
    let mut s = Sponge::<RATE_256>::new();
    for p in parts {
        s.absorb(p);
    }
    s.finish(PAD_SHA3);
    s.squeeze(out);
}

/// `J(s) = SHAKE256(s, 8·32)` (FIPS 203 §4.1) over the concatenation of `parts`.
#[inline(always)]
pub(crate) fn j(parts: &[&[u8]], out: &mut [u8; 32]) {
    let mut s = Sponge::<RATE_256>::new();
    for p in parts {
        s.absorb(p);
    }
    s.finish(PAD_SHAKE);
    s.squeeze(out);
}

/// `PRF_η(s, b) = SHAKE256(s ‖ b, 8·64η)` (FIPS 203 §4.1); `out.len()` is `64η`.
#[inline(always)]
pub(crate) fn prf(s: &[u8; 32], b: u8, out: &mut [u8]) {
    let mut sp = Sponge::<RATE_256>::new();
    sp.absorb(s);
    sp.absorb(&[b]);
    sp.finish(PAD_SHAKE);
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

    #[test]
    fn xof_matches_shake128() {
        let rho: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut x = Shake128::xof(&rho, 2, 1);
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
