//! Scaffolding shared by the integration tests: the deterministic test RNG
//! (optionally marking its output secret for the valgrind check), the
//! spec's `Hash_b`, the `Small_encode` of a fixed short polynomial, and
//! [`for_each_set!`], which runs a generic test function for every
//! parameter set.
#![allow(
    dead_code,
    unused_imports,
    unused_macros,
    reason = "each test file uses part of the scaffolding"
)]

use pqdr_ntrup::{ByteArray, ParameterSet};
use sha2::{Digest, Sha512};

/// A deterministic test RNG (xorshift64, one output byte per step); not for
/// real use. [`TestRng::secret`] marks every byte it returns as secret
/// (`pqdr_ctgrind::classify`), so under valgrind every value derived from the
/// randomness is tracked.
pub(crate) struct TestRng {
    state: u64,
    secret: bool,
}

impl TestRng {
    /// A generator whose output is public.
    pub(crate) fn new(seed: u64) -> Self {
        Self {
            state: seed | 1,
            secret: false,
        }
    }

    /// A generator whose every output byte is classified as secret.
    pub(crate) fn secret(seed: u64) -> Self {
        Self {
            state: seed | 1,
            secret: true,
        }
    }
}

impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst.iter_mut() {
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            *b = self.state.to_le_bytes()[0];
        }
        if self.secret {
            pqdr_ctgrind::classify(dst);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for TestRng {}

/// `Hash_b(parts…)`: the first 32 bytes of SHA-512(b ‖ parts…), an
/// independent copy of the KEM's hash.
pub(crate) fn hash_prefix(b: u8, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha512::new();
    h.update([b]);
    for p in parts {
        h.update(p);
    }
    let mut out = [0u8; 32];
    out.copy_from_slice(&h.finalize()[..32]);
    out
}

/// `Small_bytes`: length of a `Small_encode`d polynomial, `ceil(p / 4)`.
pub(crate) fn small_bytes<S: ParameterSet>() -> usize {
    S::P.div_ceil(4)
}

/// `Small_encode` of the short polynomial `(1, …, 1, 0, …, 0)` with w ones
/// (fields `0b10` for +1, `0b01` for 0).
pub(crate) fn short_input<S: ParameterSet>() -> S::InputBytes {
    let mut enc = S::InputBytes::zeroed();
    for i in 0..S::P {
        let v: u8 = if i < S::W { 2 } else { 1 };
        enc.as_mut()[i >> 2] |= v << (2 * (i & 3));
    }
    enc
}

/// `for_each_set!(f(args))` calls `f::<S>(args)` for every parameter set,
/// `Sntrup653` … `Sntrup1277`, in that order (the arguments are evaluated
/// once per call).
macro_rules! for_each_set {
    ($f:ident($($arg:expr),* $(,)?)) => {{
        $f::<pqdr_ntrup::Sntrup653>($($arg),*);
        $f::<pqdr_ntrup::Sntrup761>($($arg),*);
        $f::<pqdr_ntrup::Sntrup857>($($arg),*);
        $f::<pqdr_ntrup::Sntrup953>($($arg),*);
        $f::<pqdr_ntrup::Sntrup1013>($($arg),*);
        $f::<pqdr_ntrup::Sntrup1277>($($arg),*);
    }};
}
pub(crate) use for_each_set;
