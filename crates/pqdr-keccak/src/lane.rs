//! A sponge (FIPS 202 §4) whose permutations can ride in lane 3 of the
//! 4-way Keccak-f\[1600\] ([`SpongeX4::squeeze_blocks_riding`]) while a
//! message is still being written: ML-DSA's `tr = H(pk)` (FIPS 204
//! Algorithm 6, line 10) absorbs the rows of t1 as key generation writes
//! them, instead of running ~15 scalar permutations at the end.
//!
//! [`SpongeX4::squeeze_blocks_riding`]: crate::SpongeX4::squeeze_blocks_riding

use crate::sponge::{PAD_SHAKE, RATE_SHAKE256, Sponge};
use pqdr_common::simd::Bmi1Bmi2;
use zeroize::Zeroize;

/// A Keccak\[c\] sponge (rate `RATE` bytes, domain/padding byte `PAD`)
/// absorbing a message `m` whose prefix grows: each ride absorbs the next
/// whole `RATE`-byte block of the prefix it is shown (the caller passes
/// longer and longer prefixes of the same `m`), and
/// [`finish`](Self::finish) absorbs the rest of the whole `m`, pads and
/// squeezes on the scalar permutation. The output is that of [`Sponge`]
/// fed `m`. Branches depend only on lengths. The state is zeroized on drop.
///
/// ```
/// use pqdr_keccak::{Avx2, Shake128x4, Shake256Lane};
/// let m = [7u8; 500];
/// let mut h = Shake256Lane::new();
/// // Three SHAKE128 streams in lanes 0..2; H's first two blocks ride in lane 3.
/// let mut x4 = Shake128x4::with_avx2(Avx2::detect());
/// x4.absorb([&[1u8; 34]; 4]);
/// let mut out = [[0u8; 2 * Shake128x4::RATE]; 3];
/// let [a, b, c] = &mut out;
/// x4.squeeze_blocks_riding([a, b, c], &mut h, &m[..300]);
/// assert_eq!(h.absorbed(), 272);
/// let mut got = [0u8; 64];
/// h.finish(None, &m, &mut got);
/// let mut want = [0u8; 64];
/// pqdr_keccak::shake256(&[&m], &mut want);
/// assert_eq!(got, want);
/// ```
#[derive(Clone)]
pub struct LaneSponge<const RATE: usize, const PAD: u8> {
    state: [u64; 25],
    /// Bytes of the message absorbed (whole blocks, each permuted).
    off: usize,
}

/// SHAKE256 (FIPS 202 §6.2) as a [`LaneSponge`].
pub type Shake256Lane = LaneSponge<RATE_SHAKE256, PAD_SHAKE>;

impl<const RATE: usize, const PAD: u8> Drop for LaneSponge<RATE, PAD> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

impl<const RATE: usize, const PAD: u8> zeroize::ZeroizeOnDrop for LaneSponge<RATE, PAD> {}

impl<const RATE: usize, const PAD: u8> Default for LaneSponge<RATE, PAD> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize, const PAD: u8> core::fmt::Debug for LaneSponge<RATE, PAD> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LaneSponge")
            .field("rate", &RATE)
            .field("absorbed", &self.off)
            .finish_non_exhaustive()
    }
}

impl<const RATE: usize, const PAD: u8> LaneSponge<RATE, PAD> {
    /// Nothing absorbed yet.
    #[inline]
    pub const fn new() -> Self {
        const { assert!(RATE > 0 && RATE < 200 && RATE & 7 == 0) };
        Self {
            state: [0; 25],
            off: 0,
        }
    }

    /// Bytes of the message absorbed so far (a multiple of `RATE`).
    #[inline]
    pub const fn absorbed(&self) -> usize {
        self.off
    }

    /// Whether `prefix` holds at least `blocks` whole blocks not yet absorbed.
    #[inline]
    pub const fn pending(&self, prefix: &[u8], blocks: usize) -> bool {
        prefix.len() >= self.off + blocks * RATE
    }

    /// XORs the next whole block of `prefix` into the state if there is one
    /// and returns the state, which the caller permutes next (the block
    /// then counts as absorbed); `None` if no whole block is pending.
    #[inline(always)]
    pub(crate) fn board(&mut self, prefix: &[u8]) -> Option<&mut [u64; 25]> {
        let block = prefix.get(self.off..)?.first_chunk::<RATE>()?;
        for (lane, w) in self.state.iter_mut().zip(block.as_chunks::<8>().0) {
            *lane ^= u64::from_le_bytes(*w);
        }
        self.off += RATE;
        Some(&mut self.state)
    }

    /// Absorbs `m[absorbed()..]` (`m` the whole message, of which every
    /// prefix shown to a ride was a prefix), pads, and squeezes `out` on the
    /// scalar permutation (BMI1/BMI2 if `bmi` holds a token). The sponge is
    /// then empty again.
    pub fn finish(&mut self, bmi: Option<Bmi1Bmi2>, m: &[u8], out: &mut [u8]) {
        debug_assert!(m.len() >= self.off);
        let mut s = Sponge::<RATE, PAD>::from_state(self.state, bmi);
        s.absorb(&m[self.off..]);
        s.squeeze(out);
        self.state.zeroize();
        self.off = 0;
    }
}
