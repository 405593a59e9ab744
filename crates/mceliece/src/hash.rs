//! SHAKE256 (FIPS 202), the hash H of the specification (§2.5.1 / §8.1: all
//! seeds and session keys are SHAKE256 outputs), over the `keccak` permutation.

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

    pub(crate) fn absorb(&mut self, data: &[u8]) {
        debug_assert!(!self.squeezing);
        for &b in data {
            if self.pos == RATE {
                permute(&mut self.state);
                self.pos = 0;
            }
            self.state[self.pos >> 3] ^= u64::from(b) << ((self.pos & 7) << 3);
            self.pos += 1;
        }
    }

    pub(crate) fn squeeze(&mut self, out: &mut [u8]) {
        if !self.squeezing {
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

/// H(prefix || parts...) with a 32-byte output.
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
    #[test]
    fn shake256_empty() {
        // FIPS 202 example: SHAKE256("") starts 46 b9 dd 2b 0b a8 8d 13.
        let mut s = super::Shake256::new();
        let mut out = [0u8; 8];
        s.squeeze(&mut out);
        assert_eq!(out, [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13]);
    }
}
