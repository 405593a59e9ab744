//! Keys with their FIPS 204 expansions cached: [`ExpandedVerifyingKey`] keeps
//! Â = `ExpandA(ρ)` (Algorithm 32) and NTT(t1·2^d) of `ML-DSA.Verify_internal`
//! (Algorithm 8); [`ExpandedSigningKey`] keeps Â, NTT(s1), NTT(s2) and NTT(t0)
//! (Algorithm 7, lines 1–5). They sign and verify with the same methods as
//! the compact keys (`signing_methods!` / `verifying_methods!` in `types.rs`).

use core::fmt;

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::error::Error;
use crate::params::{ByteArray, ParameterSet, PolyArray};
use crate::types::{
    Signature, SigningKey, VerifyingKey, signing_methods, valid, verifying_methods,
};

impl<P: ParameterSet> VerifyingKey<P> {
    /// Precomputes Â = ExpandA(ρ) and NTT(t1·2^d) for faster repeated
    /// verification (about 30 KiB more for ML-DSA-65: keep it in a `static`
    /// or a `Box` on small targets).
    pub fn expand(&self) -> ExpandedVerifyingKey<P> {
        let mut e = ExpandedVerifyingKey {
            vk: self.clone(),
            a_hat: P::Matrix::zeroed(),
            t1_hat: P::VecK::zeroed(),
        };
        crate::verify::expand_public::<P>(&self.bytes, &mut e.a_hat, &mut e.t1_hat);
        e
    }
}

/// A public key with Â and NTT(t1·2^d) precomputed ([`VerifyingKey::expand`]):
/// verification skips sampling Â (the larger part of its cost).
pub struct ExpandedVerifyingKey<P: ParameterSet> {
    vk: VerifyingKey<P>,
    a_hat: P::Matrix,
    t1_hat: P::VecK,
}

impl<P: ParameterSet> ExpandedVerifyingKey<P> {
    /// The compact public key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// `ML-DSA.Verify_internal` (FIPS 204 Algorithm 8) from line 7 on, with
    /// an externally computed μ = H(tr‖M′, 64).
    ///
    /// # Errors
    /// The signature is invalid.
    pub fn verify_mu(&self, mu: &[u8; 64], sig: &Signature<P>) -> Result<(), Error> {
        let pre = Some((&self.a_hat, &self.t1_hat));
        valid(crate::verify::verify_mu::<P>(
            &self.vk.bytes,
            pre,
            mu,
            &sig.bytes,
        ))
    }
}

verifying_methods!(ExpandedVerifyingKey, tr = vk.tr);

impl<P: ParameterSet> fmt::Debug for ExpandedVerifyingKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExpandedVerifyingKey")
            .field("vk", &self.vk)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// Precomputes Â, NTT(s1), NTT(s2) and NTT(t0) for faster repeated
    /// signing; signing with the result needs about 19 KiB of stack
    /// (ML-DSA-65), the key itself is about 47 KiB (keep it in a `static` or
    /// a `Box` on small targets).
    pub fn expand(&self) -> ExpandedSigningKey<P> {
        let mut e = ExpandedSigningKey {
            sk: self.clone(),
            a_hat: P::Matrix::zeroed(),
            s1_hat: P::VecL::zeroed(),
            s2_hat: P::VecK::zeroed(),
            t0_hat: P::VecK::zeroed(),
        };
        crate::sign::expand_secret::<P>(
            &self.bytes,
            &mut e.a_hat,
            &mut e.s1_hat,
            &mut e.s2_hat,
            &mut e.t0_hat,
        );
        e
    }
}

/// A signing key with Â, NTT(s1), NTT(s2) and NTT(t0) precomputed
/// ([`SigningKey::expand`]): signing skips ExpandA and the key transforms.
/// The precomputed vectors are zeroized on drop.
pub struct ExpandedSigningKey<P: ParameterSet> {
    sk: SigningKey<P>,
    a_hat: P::Matrix,
    s1_hat: P::VecL,
    s2_hat: P::VecK,
    t0_hat: P::VecK,
}

impl<P: ParameterSet> ExpandedSigningKey<P> {
    /// The compact signing key.
    pub fn signing_key(&self) -> &SigningKey<P> {
        &self.sk
    }

    /// The matching public key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.sk.vk
    }

    /// `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7) from line 7 on, with an
    /// externally computed μ = H(tr‖M′, 64).
    pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Signature<P> {
        let mut sig = Signature {
            bytes: P::SigBytes::zeroed(),
        };
        self.sign_mu_into(mu, rnd, &mut sig);
        sig
    }

    /// [`sign_mu`](Self::sign_mu) into `sig`.
    pub(crate) fn sign_mu_into(&self, mu: &[u8; 64], rnd: &[u8; 32], sig: &mut Signature<P>) {
        let pre = crate::sign::Precomputed::<P> {
            a_hat: Some(&self.a_hat),
            s1_hat: Some(&self.s1_hat),
            s2_hat: Some(&self.s2_hat),
            t0_hat: Some(&self.t0_hat),
        };
        crate::sign::sign_precomputed::<P>(&self.sk.bytes, &pre, mu, rnd, &mut sig.bytes);
    }
}

signing_methods!(ExpandedSigningKey, tr = sk.vk.tr);

impl<P: ParameterSet> Zeroize for ExpandedSigningKey<P> {
    fn zeroize(&mut self) {
        self.sk.zeroize();
        self.s1_hat.zeroize();
        self.s2_hat.zeroize();
        self.t0_hat.zeroize();
    }
}
impl<P: ParameterSet> Drop for ExpandedSigningKey<P> {
    fn drop(&mut self) {
        self.s1_hat.zeroize();
        self.s2_hat.zeroize();
        self.t0_hat.zeroize();
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for ExpandedSigningKey<P> {}

impl<P: ParameterSet> fmt::Debug for ExpandedSigningKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExpandedSigningKey")
            .field("vk", &self.sk.vk)
            .finish_non_exhaustive()
    }
}
