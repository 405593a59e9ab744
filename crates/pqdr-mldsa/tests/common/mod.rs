//! Scaffolding shared by the integration tests (`mod common;`): the
//! deterministic test RNG, the key fixtures, byte arrays filled from
//! arbitrary input, and [`for_each_set!`], which runs a generic test function
//! for every parameter set.
#![allow(
    dead_code,
    unused_imports,
    unused_macros,
    reason = "each test file uses a part"
)]

use core::convert::Infallible;

use pqdr_mldsa::{ByteArray, ParameterSet, SigningKey, VerifyingKey};

/// A small deterministic RNG (xorshift64*) for tests only.
pub(crate) struct TestRng(pub(crate) u64);

impl rand_core::TryRng for TestRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.try_next_u64()? >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        Ok(self.0.wrapping_mul(0x2545_f491_4f6c_dd1d))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for TestRng {}

/// The key fixture: `ML-DSA.KeyGen_internal(ξ)` with ξ = 32 bytes `seed`.
pub(crate) fn keys<P: ParameterSet>(seed: u8) -> (SigningKey<P>, VerifyingKey<P>) {
    pqdr_mldsa::generate_deterministic::<P>(&[seed; 32])
}

/// An encoded key or signature filled with `bytes` repeated (`bytes` not empty).
pub(crate) fn cycled<B: ByteArray>(bytes: &[u8]) -> B {
    let mut out = B::zeroed();
    for (d, s) in out.as_mut().iter_mut().zip(bytes.iter().cycle()) {
        *d = *s;
    }
    out
}

/// `for_each_set!(f(args))` calls `f::<P>(args)` for `P` = `MlDsa44`,
/// `MlDsa65`, `MlDsa87`, in that order (the arguments are evaluated once per
/// call).
macro_rules! for_each_set {
    ($f:ident($($arg:expr),* $(,)?)) => {{
        $f::<pqdr_mldsa::MlDsa44>($($arg),*);
        $f::<pqdr_mldsa::MlDsa65>($($arg),*);
        $f::<pqdr_mldsa::MlDsa87>($($arg),*);
    }};
}
pub(crate) use for_each_set;
