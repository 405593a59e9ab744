//! Scaffolding shared by the integration tests (`mod common;`): the
//! deterministic test RNG and buffer fixtures.
#![allow(dead_code, reason = "each test file uses a part of it")]

use pqdr_mceliece::{Buf, ParameterSet};

/// Deterministic test RNG (xorshift64*); not for real use.
pub(crate) struct TestRng(pub(crate) u64);

impl TestRng {
    /// The next 64-bit output.
    pub(crate) fn next_word(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.next_word() >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.next_word())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = (self.next_word() >> 56) as u8;
        }
        Ok(())
    }
}
impl rand_core::TryCryptoRng for TestRng {}

/// A zeroed `[u8; N]` allocated directly on the heap (a public key can be
/// larger than a test thread's stack).
pub(crate) fn boxed_array<const N: usize>() -> Box<[u8; N]> {
    vec![0u8; N]
        .into_boxed_slice()
        .try_into()
        .expect("length N")
}

/// Random secret-key bytes in the systematic sets' format (pivot word c =
/// 2^32 - 1; delta, g, the control bits and s arbitrary, so g may have
/// coefficients of more than m bits) and a random ciphertext: decapsulation
/// runs the same instructions for any such key.
pub(crate) fn random_key_and_ciphertext<P: ParameterSet>(seed: u64) -> (P::SkBytes, P::CtBytes) {
    let mut rng = TestRng(seed);
    let mut sk = P::SkBytes::zeroed();
    let mut ct = P::CtBytes::zeroed();
    rand_core::Rng::fill_bytes(&mut rng, sk.as_mut());
    rand_core::Rng::fill_bytes(&mut rng, ct.as_mut());
    sk.as_mut()[32..40].copy_from_slice(&0xFFFF_FFFFu64.to_le_bytes());
    (sk, ct)
}
