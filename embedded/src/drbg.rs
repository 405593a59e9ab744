//! The NIST PQC AES-256-CTR DRBG (`rng.c` of the KAT generators), ported from
//! crates/kat/src/drbg.rs (no prediction resistance, no personalisation).
use aes::Aes256;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use core::convert::Infallible;

pub struct Drbg {
    key: [u8; 32],
    v: [u8; 16],
}

fn increment(v: &mut [u8; 16]) {
    for b in v.iter_mut().rev() {
        *b = b.wrapping_add(1);
        if *b != 0 {
            break;
        }
    }
}

impl Drbg {
    /// `randombytes_init(entropy, NULL, 256)`.
    pub fn new(entropy: &[u8; 48]) -> Self {
        let mut d = Drbg {
            key: [0; 32],
            v: [0; 16],
        };
        d.update(Some(entropy));
        d
    }

    fn block(&self) -> [u8; 16] {
        let cipher = Aes256::new(&Array::from(self.key));
        let mut b = Array::from(self.v);
        cipher.encrypt_block(&mut b);
        b.into()
    }

    /// `AES256_CTR_DRBG_Update`.
    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let mut temp = [0u8; 48];
        for chunk in temp.chunks_exact_mut(16) {
            increment(&mut self.v);
            chunk.copy_from_slice(&self.block());
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
    }

    /// `randombytes(out, out.len())`: one call, one update.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            increment(&mut self.v);
            let b = self.block();
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
        self.update(None);
    }

    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        self.fill(&mut out);
        out
    }
}

impl rand_core::TryRng for Drbg {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(u32::from_le_bytes(self.bytes()))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from_le_bytes(self.bytes()))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.fill(dst);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Drbg {}
