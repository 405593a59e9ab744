//! RustCrypto `signature` 3.x traits (feature `signature`). The plain traits
//! sign pure ML-DSA with an empty context: `Signer` deterministically,
//! `RandomizedSigner` hedged.

use signature::rand_core::TryCryptoRng;
use zeroize::Zeroizing;

use crate::expanded::ExpandedVerifyingKey;
use crate::params::ParameterSet;
use crate::types::{Signature, SigningKey, VerifyingKey};

impl<P: ParameterSet> signature::Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        self.sign_deterministic(msg, &[])
            .map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::MultipartSigner<Signature<P>> for SigningKey<P> {
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature<P>, signature::Error> {
        let mut s = self.signer(&[]).map_err(|_| signature::Error::new())?;
        for part in msg {
            s.update(part);
        }
        Ok(s.finalize_deterministic())
    }
}

fn draw<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Zeroizing<[u8; 32]>, signature::Error> {
    let mut rnd = Zeroizing::new([0u8; 32]);
    rng.try_fill_bytes(&mut rnd[..])
        .map_err(|_| signature::Error::new())?;
    Ok(rnd)
}

impl<P: ParameterSet> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        let rnd = draw(rng)?;
        self.sign_with_rnd(msg, &[], &rnd)
            .map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::RandomizedMultipartSigner<Signature<P>> for SigningKey<P> {
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> Result<Signature<P>, signature::Error> {
        let rnd = draw(rng)?;
        let mut s = self.signer(&[]).map_err(|_| signature::Error::new())?;
        for part in msg {
            s.update(part);
        }
        Ok(s.finalize_with_rnd(&rnd))
    }
}

impl<P: ParameterSet> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        VerifyingKey::verify(self, msg, &[], sig).map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::MultipartVerifier<Signature<P>> for VerifyingKey<P> {
    fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature<P>) -> Result<(), signature::Error> {
        let mut v = self.verifier(&[]).map_err(|_| signature::Error::new())?;
        for part in msg {
            v.update(part);
        }
        v.verify(sig).map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::Verifier<Signature<P>> for ExpandedVerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        ExpandedVerifyingKey::verify(self, msg, &[], sig).map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::Keypair for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
    fn verifying_key(&self) -> VerifyingKey<P> {
        self.vk.clone()
    }
}

/// `SignatureEncoding` needs `Signature<P>: Into<[u8; SIG_SIZE]>`, which only a
/// concrete set can state, so it is implemented per set.
macro_rules! signature_encoding {
    ($($feature:literal => $set:ident),*) => {$(
        #[cfg(feature = $feature)]
        impl signature::SignatureEncoding for Signature<crate::$set> {
            type Repr = [u8; <crate::$set as ParameterSet>::SIG_SIZE];
        }
    )*};
}

signature_encoding!("ml_dsa_44" => MlDsa44, "ml_dsa_65" => MlDsa65, "ml_dsa_87" => MlDsa87);
