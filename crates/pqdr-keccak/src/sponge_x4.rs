//! Four sponges in lockstep (FIPS 202 §4) on Keccak-f\[1600\]×4: four inputs
//! of the same length absorbed together, then squeezed block by block. What
//! the samplers of ML-KEM (SampleNTT, PRF for CBD) and ML-DSA (ExpandA,
//! ExpandMask) need: four independent XOF streams per permutation call.

use crate::lane::LaneSponge;
use crate::sponge::{PAD_SHAKE, RATE_SHAKE128, RATE_SHAKE256};
use crate::x4::{StateX4, f1600_x4_public};
use pqdr_common::simd::{Avx2, Avx512Vl};
use zeroize::Zeroize;

/// Four Keccak\[c\] sponges with `RATE` bytes of rate and the domain/padding
/// byte `PAD`, run in lockstep by one 4-way permutation (AVX2 or portable, fixed at
/// construction). Instance `k` gives the same
/// bytes as a [`Sponge`](crate::Sponge) fed the `k`-th inputs. The state is
/// zeroized on drop.
///
/// ```
/// use pqdr_keccak::{Shake128, Shake128x4};
///
/// let seeds: [[u8; 34]; 4] = core::array::from_fn(|k| [k as u8; 34]);
/// let mut x4 = Shake128x4::new();
/// x4.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
/// let mut out = [[0u8; 2 * Shake128x4::RATE]; 4];
/// let [o0, o1, o2, o3] = &mut out;
/// x4.squeeze_blocks([o0, o1, o2, o3]);
///
/// let mut one = Shake128::new();
/// one.absorb(&seeds[3]);
/// let mut want = [0u8; 2 * Shake128::RATE];
/// one.squeeze(&mut want);
/// assert_eq!(out[3], want);
/// ```
#[derive(Clone)]
pub struct SpongeX4<const RATE: usize, const PAD: u8> {
    state: StateX4,
    /// The AVX2 token, or `None` for the portable permutation.
    avx2: Option<Avx2>,
    /// The AVX-512F/VL token: set only by [`Self::with_public_input`].
    avx512: Option<Avx512Vl>,
    /// Absorbing: bytes absorbed into the current block; squeezing: `0`
    /// right after padding, `RATE` once a block has been read.
    pos: usize,
    squeezing: bool,
}

/// Four SHAKE128 instances (FIPS 202 §6.2).
pub type Shake128x4 = SpongeX4<RATE_SHAKE128, PAD_SHAKE>;
/// Four SHAKE256 instances (FIPS 202 §6.2).
pub type Shake256x4 = SpongeX4<RATE_SHAKE256, PAD_SHAKE>;

impl<const RATE: usize, const PAD: u8> Drop for SpongeX4<RATE, PAD> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

impl<const RATE: usize, const PAD: u8> zeroize::ZeroizeOnDrop for SpongeX4<RATE, PAD> {}

impl<const RATE: usize, const PAD: u8> Default for SpongeX4<RATE, PAD> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize, const PAD: u8> core::fmt::Debug for SpongeX4<RATE, PAD> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SpongeX4")
            .field("rate", &RATE)
            .field("avx2", &self.avx2.is_some())
            .field("avx512", &self.avx512.is_some())
            .finish_non_exhaustive()
    }
}

impl<const RATE: usize, const PAD: u8> SpongeX4<RATE, PAD> {
    /// The rate in bytes (the block size of each instance).
    pub const RATE: usize = RATE;

    /// Four empty sponges on AVX2 if this crate's feature `simd` is on and
    /// the CPU has it, else on the portable permutation. Crates that choose
    /// their own path use [`Self::with_avx2`].
    #[inline]
    pub fn new() -> Self {
        Self::with_avx2(Avx2::detect_if(cfg!(feature = "simd")))
    }

    /// Four empty sponges on the AVX2 permutation if `avx2` holds a token,
    /// else on the portable one (`None` forces it).
    #[inline]
    pub const fn with_avx2(avx2: Option<Avx2>) -> Self {
        const { assert!(RATE > 0 && RATE < 200 && RATE & 7 == 0) };
        Self::with_public_input(avx2, None)
    }

    /// Four empty sponges **for public inputs only** (every byte absorbed,
    /// in every instance, public; the rider of
    /// [`squeeze_blocks_riding`](Self::squeeze_blocks_riding) too): on the
    /// AVX-512F/VL permutation if `avx512` holds a token, else as
    /// [`Self::with_avx2`]. Valgrind cannot execute AVX-512, so the
    /// constant-time check cannot cover that code: secret inputs go through
    /// [`Self::with_avx2`] (docs/constant-time.md §8). For ML-DSA's
    /// `ExpandA` (from the public ρ) and `tr = H(pk)`.
    ///
    /// ```
    /// use pqdr_common::simd::{Avx2, Avx512Vl};
    /// use pqdr_keccak::Shake128x4;
    /// let rho = [7u8; 32];
    /// let mut out = [[[0u8; Shake128x4::RATE]; 4]; 2];
    /// for (x4, o) in [
    ///     Shake128x4::with_public_input(Avx2::detect(), Avx512Vl::detect()),
    ///     Shake128x4::with_avx2(None),
    /// ]
    /// .iter_mut()
    /// .zip(out.iter_mut())
    /// {
    ///     x4.absorb([&rho; 4]);
    ///     let [a, b, c, d] = o;
    ///     x4.squeeze_blocks([a, b, c, d]);
    /// }
    /// assert_eq!(out[0], out[1]);
    /// ```
    #[inline]
    pub const fn with_public_input(avx2: Option<Avx2>, avx512: Option<Avx512Vl>) -> Self {
        const { assert!(RATE > 0 && RATE < 200 && RATE & 7 == 0) };
        Self {
            state: [[0; 4]; 25],
            avx2,
            avx512,
            pos: 0,
            squeezing: false,
        }
    }

    /// The AVX2 token these sponges run on (`None`: portable).
    #[inline]
    pub const fn avx2(&self) -> Option<Avx2> {
        self.avx2
    }

    /// The AVX-512 token, if these sponges were made for public inputs on a
    /// CPU with AVX-512F/VL ([`Self::with_public_input`]).
    #[inline]
    pub const fn avx512(&self) -> Option<Avx512Vl> {
        self.avx512
    }

    /// One 4-way permutation: AVX-512 only if [`Self::with_public_input`]
    /// gave a token.
    #[inline(always)]
    fn permute(&mut self) {
        f1600_x4_public(self.avx512, self.avx2, &mut self.state);
    }

    /// XORs byte `b` of instance `k` at byte offset `i` of the block.
    #[inline(always)]
    fn xor_byte(&mut self, i: usize, k: usize, b: u8) {
        self.state[i >> 3][k] ^= u64::from(b) << ((i & 7) << 3);
    }

    /// Absorbs one input per instance, all of length `N` (any number of
    /// calls). Branches depend only on lengths and positions.
    #[inline]
    pub fn absorb<const N: usize>(&mut self, inputs: [&[u8; N]; 4]) {
        debug_assert!(!self.squeezing, "absorb after squeezing started");
        let mut off = 0;
        while off < N {
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
            if self.pos & 7 == 0 && N - off >= 8 {
                // Whole lanes, up to the end of the block or of the inputs.
                let lanes = ((RATE - self.pos) >> 3).min((N - off) >> 3);
                for (k, input) in inputs.iter().enumerate() {
                    let (words, _) = input[off..off + (lanes << 3)].as_chunks::<8>();
                    for (lane, w) in self.state[self.pos >> 3..].iter_mut().zip(words) {
                        lane[k] ^= u64::from_le_bytes(*w);
                    }
                }
                self.pos += lanes << 3;
                off += lanes << 3;
            } else {
                for (k, input) in inputs.iter().enumerate() {
                    self.xor_byte(self.pos, k, input[off]);
                }
                self.pos += 1;
                off += 1;
            }
        }
    }

    /// Pads every instance (domain bits `PAD`, then pad10*1, FIPS 202 §5.1)
    /// and permutes; does nothing if already squeezing.
    #[inline]
    pub fn finalize(&mut self) {
        self.finalize_riding::<RATE_SHAKE256, PAD_SHAKE>(&mut None);
    }

    /// [`finalize`](Self::finalize), the padding permutation with `rider`.
    #[inline(always)]
    fn finalize_riding<const R: usize, const P: u8>(
        &mut self,
        rider: &mut Option<(&mut LaneSponge<R, P>, &[u8])>,
    ) {
        if self.squeezing {
            return;
        }
        if self.pos == RATE {
            self.permute();
            self.pos = 0;
        }
        for k in 0..4 {
            self.xor_byte(self.pos, k, PAD);
            self.xor_byte(RATE - 1, k, 0x80);
        }
        self.permute_riding(rider);
        self.pos = 0;
        self.squeezing = true;
    }

    /// Squeezes `N / RATE` whole blocks into each of the four outputs
    /// (`N` a multiple of `RATE`, checked at compile time); finalizes first
    /// if needed. Successive calls continue the four streams.
    #[inline]
    pub fn squeeze_blocks<const N: usize>(&mut self, out: [&mut [u8; N]; 4]) {
        self.squeeze_blocks_with::<N, 4, RATE_SHAKE256, PAD_SHAKE>(out, None);
    }

    /// [`squeeze_blocks`](Self::squeeze_blocks) for instances 0..2 only,
    /// lending lane 3 to `rider`: each 4-way permutation run here (the
    /// padding one included) also permutes `rider`'s next whole block of
    /// `prefix` in lane 3 while `prefix` has one (see [`LaneSponge`]).
    /// Instance 3's own stream is given up from the first call on (its
    /// lane holds the rider's states; the caller must not read it again).
    /// Branches depend only on lengths.
    #[inline]
    pub fn squeeze_blocks_riding<const N: usize, const R: usize, const P: u8>(
        &mut self,
        out: [&mut [u8; N]; 3],
        rider: &mut LaneSponge<R, P>,
        prefix: &[u8],
    ) {
        self.squeeze_blocks_with(out, Some((rider, prefix)));
    }

    /// One 4-way permutation; if `rider` has a whole block of its prefix
    /// pending, its state rides in lane 3 and is taken back afterwards.
    #[inline(always)]
    fn permute_riding<const R: usize, const P: u8>(
        &mut self,
        rider: &mut Option<(&mut LaneSponge<R, P>, &[u8])>,
    ) {
        let Some(st) = rider.as_mut().and_then(|(r, prefix)| r.board(prefix)) else {
            self.permute();
            return;
        };
        for (lane, w) in self.state.iter_mut().zip(st.iter()) {
            lane[3] = *w;
        }
        self.permute();
        for (w, lane) in st.iter_mut().zip(self.state.iter()) {
            *w = lane[3];
        }
    }

    /// The squeeze of the first `K` instances (3 or 4), with an optional
    /// rider in lane 3 (only when `K = 3`).
    #[inline(always)]
    fn squeeze_blocks_with<const N: usize, const K: usize, const R: usize, const P: u8>(
        &mut self,
        mut out: [&mut [u8; N]; K],
        mut rider: Option<(&mut LaneSponge<R, P>, &[u8])>,
    ) {
        const { assert!(N.is_multiple_of(RATE)) };
        debug_assert!(rider.is_none() || K < 4);
        self.finalize_riding(&mut rider);
        let mut off = 0;
        while off < N {
            if self.pos == RATE {
                self.permute_riding(&mut rider);
            }
            for (k, o) in out.iter_mut().enumerate() {
                let (words, _) = o[off..off + RATE].as_chunks_mut::<8>();
                for (w, lane) in words.iter_mut().zip(self.state.iter()) {
                    *w = lane[k].to_le_bytes();
                }
            }
            off += RATE;
            self.pos = RATE;
        }
    }
}
