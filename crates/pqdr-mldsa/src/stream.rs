//! Streaming: μ = H(tr‖M′, 64) is a SHAKE256 absorb, so a message of any size
//! can be signed or verified chunk by chunk without buffering it
//! (FIPS 204 Algorithm 7, line 6 and Algorithm 8, line 7).

use core::fmt;

use pqdr_keccak::Shake256;
use rand_core::CryptoRng;

use crate::error::Error;
use crate::mu::{finish_mu, pure_prefix};
use crate::params::ParameterSet;
use crate::types::{Signature, SigningKey, VerifyingKey, random_32};

impl<P: ParameterSet> SigningKey<P> {
    /// Starts a streaming signature of a message under context `ctx`.
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    #[inline]
    pub fn signer(&self, ctx: &[u8]) -> Result<MessageSigner<'_, P>, Error> {
        crate::mu::not_round3::<P>();
        Ok(MessageSigner {
            key: self,
            mu: pure_prefix(&self.verifying_key().tr, ctx)?,
        })
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// Starts a streaming verification of a message under context `ctx`
    /// (the message is absorbed into μ chunk by chunk, never buffered).
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    pub fn verifier(&self, ctx: &[u8]) -> Result<MessageVerifier<'_, P>, Error> {
        crate::mu::not_round3::<P>();
        Ok(MessageVerifier {
            key: self,
            mu: pure_prefix(&self.tr, ctx)?,
        })
    }
}

/// Signs a message fed in pieces ([`SigningKey::signer`]).
pub struct MessageSigner<'a, P: ParameterSet> {
    key: &'a SigningKey<P>,
    mu: Shake256,
}

impl<P: ParameterSet> MessageSigner<'_, P> {
    /// Absorbs the next piece of the message.
    #[inline]
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.absorb(chunk);
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
        self.finalize_with_rnd(&random_32(rng))
    }
}

/// Verifies a message fed in pieces ([`VerifyingKey::verifier`]).
pub struct MessageVerifier<'a, P: ParameterSet> {
    key: &'a VerifyingKey<P>,
    mu: Shake256,
}

impl<P: ParameterSet> MessageVerifier<'_, P> {
    /// Absorbs the next piece of the message.
    #[inline]
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.absorb(chunk);
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
