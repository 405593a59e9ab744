//! SHAKE128 / SHAKE256 (FIPS 202) as the XOFs G and H of FIPS 204 §3.7: a
//! plain sponge over the RustCrypto `keccak` crate's Keccak-f[1600].
//!
//! Kept in-crate (instead of the `shake` crate's streaming API) so squeezing
//! reads whole blocks straight out of the state, and the state is wiped on
//! drop. The tests compare it with the `shake` crate.

use zeroize::Zeroize;

/// Keccak-f[1600] from the `keccak` crate.
#[inline(always)]
fn permute(state: &mut [u64; 25]) {
    keccak::Keccak::new().with_f1600(|f| f(state));
}

/// A Keccak sponge with `RATE` bytes of rate and the SHAKE padding (0x1F).
#[derive(Clone)]
pub(crate) struct Shake<const RATE: usize> {
    state: [u64; 25],
    pos: usize,
}

/// SHAKE128 (rate 168 bytes).
pub(crate) type Shake128 = Shake<168>;
/// SHAKE256 (rate 136 bytes).
pub(crate) type Shake256 = Shake<136>;

impl<const RATE: usize> Default for Shake<RATE> {
    fn default() -> Self {
        Self {
            state: [0; 25],
            pos: 0,
        }
    }
}

impl<const RATE: usize> Shake<RATE> {
    #[inline(always)]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i >> 3] ^= u64::from(b) << ((i & 7) << 3);
    }

    #[inline(always)]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "extracts one byte of a lane"
    )]
    fn get_byte(&self, i: usize) -> u8 {
        (self.state[i >> 3] >> ((i & 7) << 3)) as u8
    }

    /// Absorbs more input.
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            if self.pos & 7 == 0 && data.len() >= 8 {
                // Whole lanes.
                let lanes = ((RATE - self.pos) >> 3).min(data.len() >> 3);
                let first = self.pos >> 3;
                for (k, w) in data[..lanes * 8].chunks_exact(8).enumerate() {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(w);
                    self.state[first + k] ^= u64::from_le_bytes(b);
                }
                self.pos += lanes * 8;
                data = &data[lanes * 8..];
            } else {
                self.xor_byte(self.pos, data[0]);
                self.pos += 1;
                data = &data[1..];
            }
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
        }
    }

    /// Pads and switches to squeezing.
    pub(crate) fn finalize_xof(mut self) -> Self {
        self.xor_byte(self.pos, 0x1f);
        self.xor_byte(RATE - 1, 0x80);
        permute(&mut self.state);
        self.pos = 0;
        self
    }

    /// Squeezes `out.len()` bytes (after [`finalize_xof`](Self::finalize_xof)).
    pub(crate) fn read(&mut self, out: &mut [u8]) {
        for o in out.iter_mut() {
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
            *o = self.get_byte(self.pos);
            self.pos += 1;
        }
    }

    /// Squeezes whole blocks into `out` (length a multiple of `RATE`, and the
    /// reader at a block boundary). Permutes only when the next block is needed.
    pub(crate) fn read_blocks(&mut self, out: &mut [u8]) {
        debug_assert!(self.pos == 0 || self.pos == RATE);
        for block in out.chunks_exact_mut(RATE) {
            if self.pos == RATE {
                permute(&mut self.state);
            }
            for (dst, lane) in block.chunks_exact_mut(8).zip(self.state.iter()) {
                dst.copy_from_slice(&lane.to_le_bytes());
            }
            self.pos = RATE;
        }
    }
}

impl<const RATE: usize> Drop for Shake<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shake::{ExtendableOutput, Update, XofReader};

    fn check<const RATE: usize, R: Default + Update + ExtendableOutput>(len: usize, split: usize) {
        let mut all = [0u8; 1000];
        for (i, m) in all.iter_mut().enumerate() {
            *m = (i * 31 + 7) as u8;
        }
        let msg = &all[..len];
        let mut ours = Shake::<RATE>::default();
        ours.update(&msg[..split.min(len)]);
        ours.update(&msg[split.min(len)..]);
        let mut ours = ours.finalize_xof();
        let mut a_buf = [0u8; 3 * 168 + 17];
        let a = &mut a_buf[..3 * RATE + 17];
        ours.read_blocks(&mut a[..2 * RATE]);
        ours.read(&mut a[2 * RATE..]);
        let a = &a[..];
        let mut theirs = R::default();
        theirs.update(msg);
        let mut b_buf = [0u8; 3 * 168 + 17];
        let b = &mut b_buf[..a.len()];
        theirs.finalize_xof().read(b);
        assert_eq!(a, &b[..], "rate {RATE}, len {len}, split {split}");
    }

    #[test]
    fn matches_the_shake_crate() {
        for len in [0, 1, 7, 8, 9, 135, 136, 137, 167, 168, 169, 300, 1000] {
            for split in [0, 1, 5, 8, 100] {
                check::<168, shake::Shake128>(len, split);
                check::<136, shake::Shake256>(len, split);
            }
        }
    }
}
