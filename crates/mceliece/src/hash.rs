//! SHAKE256 (FIPS 202), the hash H of the specification (Classic McEliece
//! spec §2.5.1 and §8.1: all seeds and session keys are SHAKE256 outputs),
//! over the `keccak` permutation.

use zeroize::Zeroize;

const RATE: usize = 136;

/// An incremental SHAKE256: absorb, then squeeze any number of bytes.
pub(crate) struct Shake256 {
    state: [u64; 25],
    pos: usize,
    squeezing: bool,
}

impl Drop for Shake256 {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

fn permute(state: &mut [u64; 25]) {
    keccak::Keccak::new().with_f1600(|f| f(state));
}

impl Shake256 {
    pub(crate) const fn new() -> Self {
        Self {
            state: [0; 25],
            pos: 0,
            squeezing: false,
        }
    }

    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        debug_assert!(!self.squeezing);
        // The branches depend on lengths and positions only (public).
        while let Some((&b, rest)) = data.split_first() {
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
            if self.pos & 7 == 0 && data.len() >= 8 {
                // Whole lanes: up to the end of the rate or of the input.
                let take = (RATE - self.pos).min(data.len()) & !7;
                let (words, _) = data[..take].as_chunks::<8>();
                for (lane, w) in self.state[self.pos >> 3..].iter_mut().zip(words) {
                    *lane ^= u64::from_le_bytes(*w);
                }
                self.pos += take;
                data = &data[take..];
                continue;
            }
            self.state[self.pos >> 3] ^= u64::from(b) << ((self.pos & 7) << 3);
            self.pos += 1;
            data = rest;
        }
    }

    pub(crate) fn squeeze(&mut self, out: &mut [u8]) {
        if !self.squeezing {
            // A full last block (the input length a nonzero multiple of the
            // rate) is permuted before the padding goes into a fresh block.
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
            self.state[self.pos >> 3] ^= 0x1F << ((self.pos & 7) << 3);
            self.state[(RATE - 1) >> 3] ^= 0x80 << (((RATE - 1) & 7) << 3);
            permute(&mut self.state);
            self.pos = 0;
            self.squeezing = true;
        }
        for o in out.iter_mut() {
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
            *o = (self.state[self.pos >> 3] >> ((self.pos & 7) << 3)) as u8;
            self.pos += 1;
        }
    }
}

/// H(prefix || parts...) with a 32-byte output (Classic McEliece spec §2.5.1).
pub(crate) fn h32(prefix: u8, parts: &[&[u8]]) -> [u8; 32] {
    let mut s = Shake256::new();
    s.absorb(&[prefix]);
    for p in parts {
        s.absorb(p);
    }
    let mut out = [0u8; 32];
    s.squeeze(&mut out);
    out
}

#[cfg(test)]
mod tests {
    /// Absorbing in pieces of every alignment equals the byte-at-a-time
    /// sponge of FIPS 202 §4 (written out here), across several rate blocks.
    #[test]
    fn absorb_matches_bytewise_sponge() {
        let data: [u8; 700] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        for split in [0usize, 1, 5, 8, 13, 135, 136, 137, 300, 699] {
            for len in [0usize, 1, 7, 8, 136, 272, 300, 700] {
                let d = &data[..len];
                let cut = split.min(len);
                let mut s = super::Shake256::new();
                s.absorb(&d[..cut]);
                s.absorb(&d[cut..]);
                let mut got = [0u8; 200];
                s.squeeze(&mut got);
                // Reference: XOR byte by byte into the state, permute per block.
                let mut st = [0u64; 25];
                let mut pos = 0;
                for &b in d {
                    if pos == super::RATE {
                        super::permute(&mut st);
                        pos = 0;
                    }
                    st[pos >> 3] ^= u64::from(b) << ((pos & 7) << 3);
                    pos += 1;
                }
                // pad10*1 starts a new block after a full one (FIPS 202 §5.1).
                if pos == super::RATE {
                    super::permute(&mut st);
                    pos = 0;
                }
                st[pos >> 3] ^= 0x1F << ((pos & 7) << 3);
                st[(super::RATE - 1) >> 3] ^= 0x80 << (((super::RATE - 1) & 7) << 3);
                super::permute(&mut st);
                let mut want = [0u8; 200];
                let mut off = 0;
                for w in &mut want {
                    if off == super::RATE {
                        super::permute(&mut st);
                        off = 0;
                    }
                    *w = (st[off >> 3] >> ((off & 7) << 3)) as u8;
                    off += 1;
                }
                assert_eq!(got, want, "split {split}, len {len}");
            }
        }
    }

    /// Against the `shake` crate for every length up to five blocks, split in
    /// two absorbs: catches a wrong pad placement at the block boundaries
    /// (lengths 136, 272, … once padded into the capacity, a bug the
    /// reference above shared).
    #[test]
    fn matches_shake_crate() {
        use shake::{ExtendableOutput, Update, XofReader};
        let data: [u8; 5 * super::RATE + 1] = core::array::from_fn(|i| (i * 13 + 1) as u8);
        for len in 0..=data.len() {
            let d = &data[..len];
            let mut s = super::Shake256::new();
            s.absorb(&d[..len / 3]);
            s.absorb(&d[len / 3..]);
            let mut got = [0u8; 300];
            s.squeeze(&mut got[..1]);
            s.squeeze(&mut got[1..]);
            let mut h = shake::Shake256::default();
            h.update(d);
            let mut want = [0u8; 300];
            h.finalize_xof().read(&mut want);
            assert_eq!(got, want, "len {len}");
        }
    }

    #[test]
    fn shake256_empty() {
        // FIPS 202 example: SHAKE256("") starts 46 b9 dd 2b 0b a8 8d 13.
        let mut s = super::Shake256::new();
        let mut out = [0u8; 8];
        s.squeeze(&mut out);
        assert_eq!(out, [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13]);
    }
}
