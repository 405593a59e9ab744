//! The sponge construction (FIPS 202 §4) over Keccak-f\[1600\], with the
//! SHA-3 and SHAKE domain separation and padding (FIPS 202 §6.1, §6.2, B.2).
//!
//! The state's lanes are filled and read in place: bytes `8i..8i+8` of a
//! block are lane `i`, little-endian. A block is permuted only when the next
//! one is needed, so a sponge squeezed in whole blocks never permutes once
//! more than it outputs.
//!
//! The public methods are forced inline on hosted targets (about 1 % fewer
//! instructions for ML-KEM) and left to the compiler on bare metal
//! (`target_os = "none"`), where forcing them costs 22 KB of Cortex-M code.

#![allow(
    clippy::cast_possible_truncation,
    reason = "squeezing reads the state lanes byte by byte"
)]

use crate::scalar::f1600_with;
use pqdr_common::simd::Bmi1Bmi2;
use zeroize::Zeroize;

/// Domain-separation and first padding bits of SHA3-* (`01`, then pad10*1;
/// FIPS 202 §6.1 and Table 6 of B.2).
pub const PAD_SHA3: u8 = 0x06;
/// Domain-separation and first padding bits of SHAKE* (`1111`, then pad10*1;
/// FIPS 202 §6.2 and Table 6 of B.2).
pub const PAD_SHAKE: u8 = 0x1f;

/// SHAKE128 rate in bytes (`r = 1600 − 2·128` bits).
pub const RATE_SHAKE128: usize = 168;
/// SHAKE256 and SHA3-256 rate in bytes (`r = 1600 − 2·256` bits).
pub const RATE_SHAKE256: usize = 136;
/// SHA3-512 rate in bytes (`r = 1600 − 2·512` bits).
pub const RATE_SHA3_512: usize = 72;

/// A Keccak\[c\] sponge with `RATE` bytes of rate and the domain/padding byte
/// `PAD` ([`PAD_SHA3`] or [`PAD_SHAKE`]): absorb any number of times, then
/// squeeze any number of times. The state is zeroized on drop.
///
/// [`new`](Self::new) runs the portable permutation;
/// [`with_bmi`](Self::with_bmi) takes the caller's [`Bmi1Bmi2`] token (or
/// `None`) and runs the BMI1/BMI2 one when it holds one. Same output.
///
/// The first [`squeeze`](Self::squeeze) (or an explicit
/// [`finalize`](Self::finalize)) pads and switches to squeezing; absorbing
/// after that is a logic error (checked with `debug_assert!`).
#[derive(Clone)]
pub struct Sponge<const RATE: usize, const PAD: u8> {
    state: [u64; 25],
    /// Absorbing: bytes already absorbed into the current block.
    /// Squeezing: bytes already read from the current block.
    pos: usize,
    squeezing: bool,
    /// The BMI1/BMI2 token, or `None` for the portable permutation.
    bmi: Option<Bmi1Bmi2>,
}

/// SHAKE128 (FIPS 202 §6.2).
pub type Shake128 = Sponge<RATE_SHAKE128, PAD_SHAKE>;
/// SHAKE256 (FIPS 202 §6.2).
pub type Shake256 = Sponge<RATE_SHAKE256, PAD_SHAKE>;
/// SHA3-256 (FIPS 202 §6.1): squeeze 32 bytes.
pub type Sha3_256 = Sponge<RATE_SHAKE256, PAD_SHA3>;
/// SHA3-512 (FIPS 202 §6.1): squeeze 64 bytes.
pub type Sha3_512 = Sponge<RATE_SHA3_512, PAD_SHA3>;

impl<const RATE: usize, const PAD: u8> Drop for Sponge<RATE, PAD> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

impl<const RATE: usize, const PAD: u8> zeroize::ZeroizeOnDrop for Sponge<RATE, PAD> {}

/// Wipes the state and starts over: an empty sponge, ready to absorb.
impl<const RATE: usize, const PAD: u8> Zeroize for Sponge<RATE, PAD> {
    fn zeroize(&mut self) {
        self.state.zeroize();
        self.pos = 0;
        self.squeezing = false;
    }
}

/// SHAKE128 / SHAKE256 as a [`pqdr_common::xof::Xof`] stream, so
/// `pqdr_common::xof::XofRng<Shake256>` is a deterministic RNG (FIPS 202
/// §6.2: the output of an XOF may be read in pieces of any length).
impl<const RATE: usize> pqdr_common::xof::Xof for Sponge<RATE, PAD_SHAKE> {
    #[inline]
    fn squeeze(&mut self, out: &mut [u8]) {
        Self::squeeze(self, out);
    }
}

impl<const RATE: usize, const PAD: u8> Default for Sponge<RATE, PAD> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize, const PAD: u8> core::fmt::Debug for Sponge<RATE, PAD> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sponge")
            .field("rate", &RATE)
            .finish_non_exhaustive()
    }
}

impl<const RATE: usize, const PAD: u8> Sponge<RATE, PAD> {
    /// The rate in bytes (the block size of absorbing and squeezing).
    pub const RATE: usize = RATE;

    /// An empty sponge (all-zero state), ready to absorb, on the portable
    /// permutation.
    #[inline(always)]
    pub const fn new() -> Self {
        Self::with_bmi(None)
    }

    /// An empty sponge whose permutations run with ANDN and RORX if `bmi`
    /// holds a token (see [`crate::f1600_with`]), else on the portable code.
    /// A crate passes `Bmi1Bmi2::detect_if(cfg!(feature = "simd"))`.
    ///
    /// ```
    /// use pqdr_keccak::{Bmi1Bmi2, Shake256};
    /// let mut a = Shake256::with_bmi(Bmi1Bmi2::detect());
    /// let mut b = Shake256::new();
    /// a.absorb(b"abc");
    /// b.absorb(b"abc");
    /// let (mut x, mut y) = ([0u8; 300], [0u8; 300]);
    /// a.squeeze(&mut x);
    /// b.squeeze(&mut y);
    /// assert_eq!(x, y);
    /// ```
    #[inline(always)]
    pub const fn with_bmi(bmi: Option<Bmi1Bmi2>) -> Self {
        const { assert!(RATE > 0 && RATE < 200 && RATE & 7 == 0) };
        Self {
            state: [0; 25],
            pos: 0,
            squeezing: false,
            bmi,
        }
    }

    /// A sponge at a block boundary, ready to absorb, whose state is
    /// `state` (the whole blocks absorbed so far, permuted): how a
    /// [`LaneSponge`](crate::LaneSponge) finishes on the scalar permutation.
    #[inline(always)]
    pub(crate) const fn from_state(state: [u64; 25], bmi: Option<Bmi1Bmi2>) -> Self {
        Self {
            state,
            pos: 0,
            squeezing: false,
            bmi,
        }
    }

    /// The token this sponge permutes with (`None`: portable).
    #[inline]
    #[must_use]
    pub const fn bmi(&self) -> Option<Bmi1Bmi2> {
        self.bmi
    }

    /// Keccak-f\[1600\] on the state, with the sponge's permutation.
    #[inline(always)]
    fn permute(&mut self) {
        f1600_with(self.bmi, &mut self.state);
    }

    /// XORs one byte into the state at byte offset `i`.
    #[inline(always)]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i >> 3] ^= u64::from(b) << ((i & 7) << 3);
    }

    /// Absorbs `data` (any length, any number of calls). The branches depend
    /// only on lengths and positions.
    #[cfg_attr(target_os = "none", inline)]
    #[cfg_attr(not(target_os = "none"), inline(always))]
    pub fn absorb(&mut self, mut data: &[u8]) {
        debug_assert!(!self.squeezing, "absorb after squeezing started");
        while !data.is_empty() {
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
            if self.pos & 7 == 0 && data.len() >= 8 {
                // Whole lanes, up to the end of the block or of the input.
                let lanes = ((RATE - self.pos) >> 3).min(data.len() >> 3);
                let (head, rest) = data.split_at(lanes << 3);
                let (words, _) = head.as_chunks::<8>();
                for (lane, w) in self.state[self.pos >> 3..].iter_mut().zip(words) {
                    *lane ^= u64::from_le_bytes(*w);
                }
                self.pos += lanes << 3;
                data = rest;
            } else {
                self.xor_byte(self.pos, data[0]);
                self.pos += 1;
                data = &data[1..];
            }
        }
    }

    /// Pads (the domain bits `PAD`, then pad10*1, FIPS 202 §5.1) and
    /// permutes: the sponge is then squeezing. Does nothing if it already is.
    #[cfg_attr(target_os = "none", inline)]
    #[cfg_attr(not(target_os = "none"), inline(always))]
    pub fn finalize(&mut self) {
        if self.squeezing {
            return;
        }
        // A full last block is permuted before the padding starts a new one.
        if self.pos == RATE {
            self.permute();
            self.pos = 0;
        }
        self.xor_byte(self.pos, PAD);
        self.xor_byte(RATE - 1, 0x80);
        self.permute();
        self.pos = 0;
        self.squeezing = true;
    }

    /// Squeezes `out.len()` bytes (any number of calls, any lengths);
    /// finalizes first if needed.
    #[cfg_attr(target_os = "none", inline)]
    #[cfg_attr(not(target_os = "none"), inline(always))]
    pub fn squeeze(&mut self, mut out: &mut [u8]) {
        self.finalize();
        while !out.is_empty() {
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
            if self.pos & 7 == 0 && out.len() >= 8 {
                // Whole lanes, little-endian.
                let lanes = ((RATE - self.pos) >> 3).min(out.len() >> 3);
                let (head, rest) = out.split_at_mut(lanes << 3);
                let (words, _) = head.as_chunks_mut::<8>();
                for (o, lane) in words.iter_mut().zip(&self.state[self.pos >> 3..]) {
                    *o = lane.to_le_bytes();
                }
                self.pos += lanes << 3;
                out = rest;
            } else {
                out[0] = (self.state[self.pos >> 3] >> ((self.pos & 7) << 3)) as u8;
                self.pos += 1;
                out = &mut out[1..];
            }
        }
    }

    /// Squeezes whole blocks: `out.len()` should be a multiple of `RATE`
    /// (a shorter tail is left untouched). Faster than
    /// [`squeeze`](Self::squeeze) for the block-wise samplers; if the sponge
    /// is not at a block boundary, it falls back to `squeeze` (same output).
    #[cfg_attr(target_os = "none", inline)]
    #[cfg_attr(not(target_os = "none"), inline(always))]
    pub fn squeeze_blocks(&mut self, out: &mut [u8]) {
        self.finalize();
        if self.pos != 0 && self.pos != RATE {
            for block in out.chunks_exact_mut(RATE) {
                self.squeeze(block);
            }
            return;
        }
        for block in out.chunks_exact_mut(RATE) {
            if self.pos == RATE {
                self.permute();
            }
            let (words, _) = block.as_chunks_mut::<8>();
            for (o, lane) in words.iter_mut().zip(&self.state) {
                *o = lane.to_le_bytes();
            }
            self.pos = RATE;
        }
    }
}

/// SHA3-256 of the concatenation of `parts` (FIPS 202 §6.1).
///
/// ```
/// // FIPS 202 example value: SHA3-256("") = a7ffc6f8bf1ed766…
/// assert_eq!(pqdr_keccak::sha3_256(&[])[..4], [0xa7, 0xff, 0xc6, 0xf8]);
/// ```
#[cfg_attr(target_os = "none", inline)]
#[cfg_attr(not(target_os = "none"), inline(always))]
pub fn sha3_256(parts: &[&[u8]]) -> [u8; 32] {
    let mut s = Sha3_256::new();
    for p in parts {
        s.absorb(p);
    }
    let mut out = [0u8; 32];
    s.squeeze(&mut out);
    out
}

/// SHA3-512 of the concatenation of `parts` (FIPS 202 §6.1).
#[cfg_attr(target_os = "none", inline)]
#[cfg_attr(not(target_os = "none"), inline(always))]
pub fn sha3_512(parts: &[&[u8]]) -> [u8; 64] {
    let mut s = Sha3_512::new();
    for p in parts {
        s.absorb(p);
    }
    let mut out = [0u8; 64];
    s.squeeze(&mut out);
    out
}

/// SHAKE256 of the concatenation of `parts`, `out.len()` bytes (FIPS 202 §6.2).
#[cfg_attr(target_os = "none", inline)]
#[cfg_attr(not(target_os = "none"), inline(always))]
pub fn shake256(parts: &[&[u8]], out: &mut [u8]) {
    let mut s = Shake256::new();
    for p in parts {
        s.absorb(p);
    }
    s.squeeze(out);
}
