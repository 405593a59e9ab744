//! Streaming: μ = H(tr‖M′, 64) is a SHAKE256 absorb, so a message of any size
//! can be signed or verified chunk by chunk without buffering it
//! (FIPS 204 Algorithm 7 step 6 and Algorithm 8 step 7).

use core::fmt;

use crate::xof::Shake256;
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::Error;
use crate::key::{Signature, SigningKey, VerifyingKey, ctx_len};
use crate::params::ParameterSet;
use crate::prehash::PreHash;

/// A SHAKE256 state that has absorbed tr‖0‖|ctx|‖ctx (pure ML-DSA, FIPS 204
/// Algorithms 2 and 3: M′ = 0‖|ctx|‖ctx‖M).
#[inline]
pub(crate) fn pure_prefix(tr: &[u8; 64], ctx: &[u8]) -> Result<Shake256, Error> {
    let n = ctx_len(ctx)?;
    let mut x = Shake256::default();
    x.update(tr);
    x.update(&[0, n]);
    x.update(ctx);
    Ok(x)
}

/// μ for HashML-DSA (FIPS 204 Algorithms 4 and 5):
/// M′ = 1‖|ctx|‖ctx‖OID‖PH(M).
pub(crate) fn prehash_mu(
    tr: &[u8; 64],
    ph: PreHash,
    digest: &[u8],
    ctx: &[u8],
) -> Result<[u8; 64], Error> {
    let n = ctx_len(ctx)?;
    if digest.len() != ph.digest_size() {
        return Err(Error);
    }
    let mut x = Shake256::default();
    x.update(tr);
    x.update(&[1, n]);
    x.update(ctx);
    x.update(&ph.oid());
    x.update(digest);
    Ok(finish_mu(x))
}

/// μ = H(tr‖M′, 64) for the internal interface (M′ given).
pub(crate) fn internal_mu(tr: &[u8; 64], m_prime: &[u8]) -> [u8; 64] {
    let mut x = Shake256::default();
    x.update(tr);
    x.update(m_prime);
    finish_mu(x)
}

/// Squeezes the 64 bytes of μ.
#[inline]
pub(crate) fn finish_mu(x: Shake256) -> [u8; 64] {
    let mut mu = [0u8; 64];
    x.finalize_xof().read(&mut mu);
    mu
}

/// Signs a message fed in pieces ([`SigningKey::signer`]).
pub struct MessageSigner<'a, P: ParameterSet> {
    key: &'a SigningKey<P>,
    mu: Shake256,
}

impl<'a, P: ParameterSet> MessageSigner<'a, P> {
    #[inline]
    pub(crate) fn new(key: &'a SigningKey<P>, mu: Shake256) -> Self {
        Self { key, mu }
    }

    /// Absorbs the next piece of the message.
    #[inline]
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.update(chunk);
        self
    }

    /// Signs with explicit randomness `rnd` (all zero = deterministic).
    #[inline]
    pub fn finalize_with_rnd(self, rnd: &[u8; 32]) -> Signature<P> {
        let mu = finish_mu(self.mu);
        self.key.sign_mu(&mu, rnd)
    }

    /// Signs deterministically (rnd = 0^32).
    #[inline]
    pub fn finalize_deterministic(self) -> Signature<P> {
        self.finalize_with_rnd(&[0; 32])
    }

    /// Signs hedged, with rnd drawn from `rng`.
    pub fn finalize<R: CryptoRng + ?Sized>(self, rng: &mut R) -> Signature<P> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut rnd[..]);
        self.finalize_with_rnd(&rnd)
    }
}

/// Verifies a message fed in pieces ([`VerifyingKey::verifier`]).
pub struct MessageVerifier<'a, P: ParameterSet> {
    key: &'a VerifyingKey<P>,
    mu: Shake256,
}

impl<'a, P: ParameterSet> MessageVerifier<'a, P> {
    #[inline]
    pub(crate) fn new(key: &'a VerifyingKey<P>, mu: Shake256) -> Self {
        Self { key, mu }
    }

    /// Absorbs the next piece of the message.
    #[inline]
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.update(chunk);
        self
    }

    /// Checks the signature over everything absorbed.
    ///
    /// # Errors
    /// The signature is invalid.
    pub fn verify(self, sig: &Signature<P>) -> Result<(), Error> {
        let mu = finish_mu(self.mu);
        self.key.verify_mu(&mu, sig)
    }
}

impl<P: ParameterSet> fmt::Debug for MessageSigner<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MessageSigner")
            .field("key", self.key)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> fmt::Debug for MessageVerifier<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MessageVerifier")
            .field("key", self.key)
            .finish_non_exhaustive()
    }
}
