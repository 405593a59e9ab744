//! The NIST PQC known-answer DRBG: SP 800-90A CTR_DRBG with AES-256, no
//! derivation function, no personalization string, no reseeding, exactly as the
//! reference `rng.c` implements it (including its update after every call).

use aes::Aes256;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use core::convert::Infallible;

/// The AES-256-CTR DRBG of NIST's `rng.c`.
///
/// Every call of [`Drbg::fill`] corresponds to one `randombytes()` call of the
/// reference code; the output depends on how bytes are split into calls, so a
/// KAT generator must draw with the same lengths as the C code that made the
/// file. The `rand_core` impl maps `fill_bytes(dst)` to one call of
/// `dst.len()` bytes.
#[derive(Clone)]
pub struct Drbg {
    key: [u8; 32],
    v: [u8; 16],
}

impl core::fmt::Debug for Drbg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Drbg").finish_non_exhaustive()
    }
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
    /// `randombytes_init(entropy_input, NULL, 256)`.
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

    // AES256_CTR_DRBG_Update(provided_data, Key, V)
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

    /// One `randombytes(out, out.len())` call.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            increment(&mut self.v);
            let b = self.block();
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
        self.update(None);
    }

    /// Convenience: one call of `N` bytes.
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

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::hex;

    // The master DRBG against the `seed = ` lines of a reference KAT file is
    // in `rsp`'s tests (it reads the file; here it would make drbg and rsp
    // name each other).

    /// Known value: first 48 bytes from the master DRBG (record 0 of every file).
    #[test]
    fn first_seed_known_value() {
        let entropy: [u8; 48] = core::array::from_fn(|i| u8::try_from(i).unwrap_or(0));
        let mut drbg = Drbg::new(&entropy);
        let seed: [u8; 48] = drbg.bytes();
        assert_eq!(
            hex::encode(&seed),
            "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1"
        );
    }

    /// Split calls give different output (the update runs after every call).
    #[test]
    fn call_split_matters() {
        let entropy = [7u8; 48];
        let mut a = Drbg::new(&entropy);
        let mut b = Drbg::new(&entropy);
        let one: [u8; 64] = a.bytes();
        let mut two = [0u8; 64];
        b.fill(&mut two[..32]);
        b.fill(&mut two[32..]);
        assert_eq!(one[..32], two[..32]);
        assert_ne!(one[32..], two[32..]);
    }
}
