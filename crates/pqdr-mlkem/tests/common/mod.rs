//! Scaffolding shared by the integration tests: the deterministic test RNG,
//! the 64-byte seed `d ‖ z` built from and split into its halves, and
//! [`for_each_set!`], which runs a generic test function for every
//! parameter set.
#![allow(dead_code, reason = "each test file uses part of the scaffolding")]

/// A deterministic test RNG (xorshift64); not for real use.
pub(crate) struct TestRng(pub(crate) u64);

impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let [a, b, c, d, ..] = self.try_next_u64()?.to_le_bytes();
        Ok(u32::from_le_bytes([a, b, c, d]))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = self.try_next_u64()?.to_le_bytes()[0];
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for TestRng {}

/// The decapsulation-key seed `d ‖ z`.
pub(crate) fn seed(d: &[u8; 32], z: &[u8; 32]) -> [u8; 64] {
    let mut s = [0u8; 64];
    s[..32].copy_from_slice(d);
    s[32..].copy_from_slice(z);
    s
}

/// `(d, z)` from the seed `d ‖ z`.
pub(crate) fn split_seed(seed: &[u8; 64]) -> ([u8; 32], [u8; 32]) {
    let mut d = [0u8; 32];
    let mut z = [0u8; 32];
    d.copy_from_slice(&seed[..32]);
    z.copy_from_slice(&seed[32..]);
    (d, z)
}

/// `for_each_set!(f(args))` calls `f::<P>(args)` for `P` = `MlKem512`,
/// `MlKem768`, `MlKem1024`, in that order (the arguments are evaluated once
/// per call).
macro_rules! for_each_set {
    ($f:ident($($arg:expr),* $(,)?)) => {{
        $f::<pqdr_mlkem::MlKem512>($($arg),*);
        $f::<pqdr_mlkem::MlKem768>($($arg),*);
        $f::<pqdr_mlkem::MlKem1024>($($arg),*);
    }};
}
pub(crate) use for_each_set;
