//! The public key, signing key and signature types and the external
//! functions of FIPS 204 §5: `ML-DSA.KeyGen` / `Sign` / `Verify`
//! (Algorithms 1–3) and `HashML-DSA.Sign` / `Verify` (Algorithms 4–5).

use core::fmt;

use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, Object, check_length};
use crate::keygen::{SkLayout, check_s_range, derive_t, keygen_internal};
use crate::mu::pure_mu;
use crate::params::{ByteArray, ParameterSet};
use crate::sample::h;

#[cfg(feature = "self-test")]
pub(crate) mod pct;

/// Bytes of the key-generation seed ξ (FIPS 204 Algorithm 1, line 1).
pub const SEED_SIZE: usize = 32;

/// An ML-DSA public key (pkEncode form, FIPS 204 Algorithm 22) with its
/// hash tr = H(pk, 64) cached for verification.
#[derive(Clone)]
pub struct VerifyingKey<P: ParameterSet> {
    pub(crate) bytes: P::VkBytes,
    pub(crate) tr: [u8; 64],
}

/// An ML-DSA signing key: the expanded skEncode form (FIPS 204 Algorithm 24),
/// the 32-byte seed ξ when the key was made from one, and the public key.
#[derive(Clone)]
pub struct SigningKey<P: ParameterSet> {
    pub(crate) bytes: P::SkBytes,
    pub(crate) seed: Option<[u8; 32]>,
    pub(crate) vk: VerifyingKey<P>,
}

/// An encoded ML-DSA signature (sigEncode, FIPS 204 Algorithm 26). Any bytes
/// of the right length are accepted; malformed content fails verification.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Signature<P: ParameterSet> {
    pub(crate) bytes: P::SigBytes,
}

/// The 64-byte H(pk, 64) a [`VerifyingKey`] caches: the key's tr field
/// (FIPS 204), or, for round-3.1 Dilithium whose tr field has only 32 bytes
/// (`P::ROUND3`), hashed anew (its first 32 bytes are that field).
fn vk_tr<P: ParameterSet>(sk: &[u8], pk: &P::VkBytes) -> [u8; 64] {
    let mut tr = [0u8; 64];
    if P::ROUND3 {
        h(&[pk.as_ref()], &mut tr);
    } else {
        tr.copy_from_slice(&sk[SkLayout::TR..SkLayout::TR + 64]);
    }
    tr
}

/// `Ok` for a valid signature.
pub(crate) fn valid(ok: bool) -> Result<(), Error> {
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

/// `ML-DSA.KeyGen` (FIPS 204 Algorithm 1): draws ξ (32 bytes) from `rng`.
///
/// # Panics
/// With the feature `self-test`, if the new pair fails its pair-wise
/// consistency test (`self_test::pairwise_consistency`): only a hardware or
/// memory fault can cause that, never an input.
pub fn generate<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
) -> (SigningKey<P>, VerifyingKey<P>) {
    generate_deterministic(&random_32(rng))
}

/// `ML-DSA.KeyGen_internal(ξ)` (FIPS 204 Algorithm 6).
///
/// # Panics
/// With the feature `self-test`, if the new pair fails its pair-wise
/// consistency test: only a hardware or memory fault can cause that.
pub fn generate_deterministic<P: ParameterSet>(xi: &[u8; 32]) -> (SigningKey<P>, VerifyingKey<P>) {
    let sk = SigningKey::<P>::from_seed_unchecked(xi);
    let vk = sk.vk.clone();
    #[cfg(feature = "self-test")]
    pct::assert_pairwise_consistent(&sk, &vk);
    (sk, vk)
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// `pkDecode` (FIPS 204 Algorithm 23): decodes a public key. Every byte
    /// string of the right length is a valid encoding (infallible).
    pub fn from_array(bytes: &P::VkBytes) -> Self {
        let mut tr = [0u8; 64];
        h(&[bytes.as_ref()], &mut tr);
        Self { bytes: *bytes, tr }
    }

    /// Decodes a public key from a slice ([`Self::from_array`]).
    ///
    /// # Errors
    /// [`Error::Length`] if the slice does not have the public key's length.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let mut b = P::VkBytes::zeroed();
        copy_exact(Object::VerifyingKey, &mut b, bytes)?;
        Ok(Self::from_array(&b))
    }

    /// Renamed [`Self::from_array`] (which cannot fail).
    ///
    /// # Errors
    /// None.
    #[deprecated(since = "0.1.0", note = "renamed `from_array` (infallible)")]
    pub fn from_bytes(bytes: &P::VkBytes) -> Result<Self, Error> {
        Ok(Self::from_array(bytes))
    }

    /// The encoded public key.
    pub fn as_bytes(&self) -> &P::VkBytes {
        &self.bytes
    }

    /// tr = H(pk, 64), the public-key hash bound into μ.
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }

    /// `ML-DSA.Verify_internal` (FIPS 204 Algorithm 8) from line 7 on, with
    /// an externally computed μ = H(tr‖M′, 64).
    ///
    /// # Errors
    /// The signature is invalid.
    pub fn verify_mu(&self, mu: &[u8; 64], sig: &Signature<P>) -> Result<(), Error> {
        valid(crate::verify::verify_mu::<P>(
            &self.bytes,
            None,
            mu,
            &sig.bytes,
        ))
    }

    /// μ = H(tr‖M′, 64) for pure ML-DSA (M′ = 0‖|ctx|‖ctx‖msg), for signing
    /// with an external μ.
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        crate::mu::not_round3::<P>();
        pure_mu(&self.tr, msg, ctx)
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// `ML-DSA.KeyGen_internal(ξ)` (FIPS 204 Algorithm 6); the key remembers ξ.
    ///
    /// # Panics
    /// With the feature `self-test`, if the new key fails its pair-wise
    /// consistency test (`self_test::pairwise_consistency`): only a hardware
    /// or memory fault can cause that, never an input.
    pub fn from_seed(xi: &[u8; 32]) -> Self {
        let sk = Self::from_seed_unchecked(xi);
        #[cfg(feature = "self-test")]
        pct::assert_pairwise_consistent(&sk, &sk.vk);
        sk
    }

    /// [`Self::from_seed`] without the pair-wise consistency test.
    pub(crate) fn from_seed_unchecked(xi: &[u8; 32]) -> Self {
        let mut bytes = P::SkBytes::zeroed();
        let mut pk = P::VkBytes::zeroed();
        keygen_internal::<P>(xi, &mut pk, &mut bytes);
        let tr = vk_tr::<P>(bytes.as_ref(), &pk);
        Self {
            bytes,
            seed: Some(*xi),
            vk: VerifyingKey { bytes: pk, tr },
        }
    }

    /// `skDecode` (FIPS 204 Algorithm 25): decodes an expanded signing key and
    /// validates it: every s1/s2 coefficient must be in [−η, η], and t0 and tr
    /// must be the ones ρ, s1, s2 imply (this recomputes the public key).
    ///
    /// # Errors
    /// [`Error::InvalidKey`]: the key is malformed or inconsistent.
    pub fn from_array(bytes: &P::SkBytes) -> Result<Self, Error> {
        let mut sk = *bytes;
        let mut pk = P::VkBytes::zeroed();
        let mut bad = check_s_range::<P>(&sk);
        bad |= derive_t::<P>(&mut sk, &mut pk, false);
        // Whether a key is well formed is public (it is rejected or not).
        pqdr_ctgrind::hook::declassify(&mut bad);
        if bad != 0 {
            sk.zeroize();
            return Err(Error::InvalidKey);
        }
        let mut tr = vk_tr::<P>(sk.as_ref(), &pk);
        pqdr_ctgrind::hook::declassify(&mut tr);
        Ok(Self {
            bytes: sk,
            seed: None,
            vk: VerifyingKey { bytes: pk, tr },
        })
    }

    /// Decodes an expanded signing key from a slice ([`Self::from_array`]).
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length, or as [`Self::from_array`].
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let mut b = Zeroizing::new(P::SkBytes::zeroed());
        copy_exact(Object::SigningKey, &mut *b, bytes)?;
        Self::from_array(&b)
    }

    /// Renamed [`Self::from_array`].
    ///
    /// # Errors
    /// As [`Self::from_array`].
    #[deprecated(since = "0.1.0", note = "renamed `from_array`")]
    pub fn from_bytes(bytes: &P::SkBytes) -> Result<Self, Error> {
        Self::from_array(bytes)
    }

    /// The expanded encoding (skEncode).
    pub fn as_bytes(&self) -> &P::SkBytes {
        &self.bytes
    }

    /// The 32-byte seed ξ, if the key was generated from one.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_ref()
    }

    /// The matching public key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7) from line 7 on, with an
    /// externally computed μ = H(tr‖M′, 64).
    #[inline]
    pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Signature<P> {
        let mut sig = Signature {
            bytes: P::SigBytes::zeroed(),
        };
        self.sign_mu_into(mu, rnd, &mut sig);
        sig
    }

    /// [`sign_mu`](Self::sign_mu) into `sig` (no copy of the signature).
    #[inline]
    pub(crate) fn sign_mu_into(&self, mu: &[u8; 64], rnd: &[u8; 32], sig: &mut Signature<P>) {
        crate::sign::sign_mu::<P>(&self.bytes, mu, rnd, &mut sig.bytes);
    }
}

/// The signing functions of FIPS 204 §5 on top of a key type's `sign_mu`,
/// written once for `SigningKey` and `ExpandedSigningKey`; `tr` names the
/// field path of the key's tr = H(pk, 64).
macro_rules! signing_methods {
    ($key:ident, tr = $($tr:ident).+) => {
        impl<P: $crate::params::ParameterSet> $key<P> {
            /// `ML-DSA.Sign` (FIPS 204 Algorithm 2), hedged: rnd is drawn from `rng`.
            ///
            /// This inherent method shadows `signature::Signer::sign`: with
            /// the trait in scope, call it as `Signer::sign(&sk, msg)`.
            ///
            /// # Errors
            /// `ctx` is longer than 255 bytes.
            #[inline]
            pub fn sign<R: $crate::rand_core::CryptoRng + ?Sized>(
                &self,
                msg: &[u8],
                ctx: &[u8],
                rng: &mut R,
            ) -> Result<$crate::types::Signature<P>, $crate::error::Error> {
                self.sign_with_rnd(msg, ctx, &$crate::types::random_32(rng))
            }

            /// `ML-DSA.Sign`, deterministic variant (rnd = 0^32).
            ///
            /// # Errors
            /// `ctx` is longer than 255 bytes.
            #[inline]
            pub fn sign_deterministic(
                &self,
                msg: &[u8],
                ctx: &[u8],
            ) -> Result<$crate::types::Signature<P>, $crate::error::Error> {
                self.sign_with_rnd(msg, ctx, &[0; 32])
            }

            /// `ML-DSA.Sign` (FIPS 204 Algorithm 2) with explicit randomness `rnd`.
            ///
            /// # Errors
            /// `ctx` is longer than 255 bytes.
            #[inline]
            pub fn sign_with_rnd(
                &self,
                msg: &[u8],
                ctx: &[u8],
                rnd: &[u8; 32],
            ) -> Result<$crate::types::Signature<P>, $crate::error::Error> {
                $crate::mu::not_round3::<P>();
                Ok(self.sign_mu(&$crate::mu::pure_mu(&self.$($tr).+, msg, ctx)?, rnd))
            }

            /// [`sign_with_rnd`](Self::sign_with_rnd) into the caller's `sig`
            /// (overwritten), for small stacks: a signature returned by value
            /// is built in this function's frame and then copied out, which
            /// at opt-level `s` on a Cortex-M4 costs its size (3.3 KB for
            /// ML-DSA-65) of extra stack. `Signature::from_array` of zero
            /// bytes gives a buffer to start from.
            ///
            /// # Errors
            /// `ctx` is longer than 255 bytes (`sig` is then left unchanged).
            pub fn sign_with_rnd_into(
                &self,
                msg: &[u8],
                ctx: &[u8],
                rnd: &[u8; 32],
                sig: &mut $crate::types::Signature<P>,
            ) -> Result<(), $crate::error::Error> {
                $crate::mu::not_round3::<P>();
                let mu = $crate::mu::pure_mu(&self.$($tr).+, msg, ctx)?;
                self.sign_mu_into(&mu, rnd, sig);
                Ok(())
            }

            /// `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7) on the formatted message M′.
            #[inline]
            pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> $crate::types::Signature<P> {
                self.sign_mu(&$crate::mu::internal_mu(&self.$($tr).+, m_prime), rnd)
            }

            /// `HashML-DSA.Sign` (FIPS 204 Algorithm 4), hedged, of a digest PH(M).
            ///
            /// # Errors
            /// `ctx` is longer than 255 bytes or `digest` has the wrong length for `ph`.
            pub fn sign_prehash<R: $crate::rand_core::CryptoRng + ?Sized>(
                &self,
                ph: $crate::prehash::PreHash,
                digest: &[u8],
                ctx: &[u8],
                rng: &mut R,
            ) -> Result<$crate::types::Signature<P>, $crate::error::Error> {
                self.sign_prehash_with_rnd(ph, digest, ctx, &$crate::types::random_32(rng))
            }

            /// `HashML-DSA.Sign`, deterministic variant (rnd = 0^32).
            ///
            /// # Errors
            /// As [`sign_prehash`](Self::sign_prehash).
            pub fn sign_prehash_deterministic(
                &self,
                ph: $crate::prehash::PreHash,
                digest: &[u8],
                ctx: &[u8],
            ) -> Result<$crate::types::Signature<P>, $crate::error::Error> {
                self.sign_prehash_with_rnd(ph, digest, ctx, &[0; 32])
            }

            /// `HashML-DSA.Sign` (FIPS 204 Algorithm 4) with explicit randomness `rnd`.
            ///
            /// # Errors
            /// As [`sign_prehash`](Self::sign_prehash).
            pub fn sign_prehash_with_rnd(
                &self,
                ph: $crate::prehash::PreHash,
                digest: &[u8],
                ctx: &[u8],
                rnd: &[u8; 32],
            ) -> Result<$crate::types::Signature<P>, $crate::error::Error> {
                $crate::mu::not_round3::<P>();
                Ok(self.sign_mu(&$crate::mu::prehash_mu(&self.$($tr).+, ph, digest, ctx)?, rnd))
            }
        }
    };
}
pub(crate) use signing_methods;

/// The verification functions of FIPS 204 §5 on top of a key type's
/// `verify_mu`, written once for `VerifyingKey` and `ExpandedVerifyingKey`.
macro_rules! verifying_methods {
    ($key:ident, tr = $($tr:ident).+) => {
        impl<P: $crate::params::ParameterSet> $key<P> {
            /// `ML-DSA.Verify` (FIPS 204 Algorithm 3) of `msg` under context `ctx`.
            ///
            /// This inherent method shadows `signature::Verifier::verify`: with
            /// the trait in scope, call it as `Verifier::verify(&vk, msg, &sig)`.
            ///
            /// # Errors
            /// The signature is invalid, or `ctx` is longer than 255 bytes.
            pub fn verify(
                &self,
                msg: &[u8],
                ctx: &[u8],
                sig: &$crate::types::Signature<P>,
            ) -> Result<(), $crate::error::Error> {
                $crate::mu::not_round3::<P>();
                self.verify_mu(&$crate::mu::pure_mu(&self.$($tr).+, msg, ctx)?, sig)
            }

            /// `ML-DSA.Verify_internal` (FIPS 204 Algorithm 8) on the formatted message M′.
            ///
            /// # Errors
            /// The signature is invalid.
            pub fn verify_internal(
                &self,
                m_prime: &[u8],
                sig: &$crate::types::Signature<P>,
            ) -> Result<(), $crate::error::Error> {
                self.verify_mu(&$crate::mu::internal_mu(&self.$($tr).+, m_prime), sig)
            }

            /// `HashML-DSA.Verify` (FIPS 204 Algorithm 5) of a pre-computed digest PH(M).
            ///
            /// # Errors
            /// The signature is invalid, `ctx` is longer than 255 bytes, or
            /// `digest` does not have `ph`'s output length.
            pub fn verify_prehash(
                &self,
                ph: $crate::prehash::PreHash,
                digest: &[u8],
                ctx: &[u8],
                sig: &$crate::types::Signature<P>,
            ) -> Result<(), $crate::error::Error> {
                $crate::mu::not_round3::<P>();
                self.verify_mu(&$crate::mu::prehash_mu(&self.$($tr).+, ph, digest, ctx)?, sig)
            }
        }
    };
}
pub(crate) use verifying_methods;

verifying_methods!(VerifyingKey, tr = tr);
signing_methods!(SigningKey, tr = vk.tr);

/// 32 bytes drawn from `rng`: ξ (FIPS 204 Algorithm 1, line 1) or the
/// hedged rnd (Algorithm 2, line 5).
#[inline]
pub(crate) fn random_32<R: CryptoRng + ?Sized>(rng: &mut R) -> Zeroizing<[u8; 32]> {
    let mut out = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(&mut out[..]);
    out
}

/// Copies `bytes` into `out`, which must have exactly its length (else a
/// length error about `what`).
fn copy_exact<B: ByteArray>(what: Object, out: &mut B, bytes: &[u8]) -> Result<(), Error> {
    check_length(what, B::LEN, bytes.len())?;
    out.as_mut().copy_from_slice(bytes);
    Ok(())
}

/// `Name<ML-DSA-xx>(first 8 bytes in hex…)`, the `Debug` form of public bytes.
fn debug_prefix<P: ParameterSet>(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    bytes: &[u8],
) -> fmt::Result {
    write!(f, "{name}<{}>(", P::NAME)?;
    for b in &bytes[..8] {
        write!(f, "{b:02x}")?;
    }
    f.write_str("…)")
}

impl<P: ParameterSet> Signature<P> {
    /// Wraps encoded signature bytes (no check: decoding happens in verification).
    pub fn from_array(bytes: &P::SigBytes) -> Self {
        Self { bytes: *bytes }
    }

    /// Wraps a slice of the signature's length.
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let mut b = P::SigBytes::zeroed();
        copy_exact(Object::Signature, &mut b, bytes)?;
        Ok(Self { bytes: b })
    }

    /// Renamed [`Self::from_array`].
    #[deprecated(since = "0.1.0", note = "renamed `from_array`")]
    pub fn from_bytes(bytes: &P::SigBytes) -> Self {
        Self::from_array(bytes)
    }

    /// The encoded signature.
    pub fn as_bytes(&self) -> &P::SigBytes {
        &self.bytes
    }
}

impl<P: ParameterSet> AsRef<[u8]> for Signature<P> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for VerifyingKey<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for SigningKey<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
}

impl<P: ParameterSet> PartialEq for VerifyingKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes.as_ref() == other.bytes.as_ref()
    }
}
impl<P: ParameterSet> Eq for VerifyingKey<P> {}

impl<P: ParameterSet> ConstantTimeEq for SigningKey<P> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.bytes.as_ref().ct_eq(other.bytes.as_ref())
    }
}
impl<P: ParameterSet> PartialEq for SigningKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<P: ParameterSet> Eq for SigningKey<P> {}

impl<P: ParameterSet> Zeroize for SigningKey<P> {
    fn zeroize(&mut self) {
        self.bytes.zeroize();
        self.seed.zeroize();
    }
}
impl<P: ParameterSet> Drop for SigningKey<P> {
    fn drop(&mut self) {
        self.zeroize();
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for SigningKey<P> {}

impl<P: ParameterSet> fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("vk", &self.vk)
            .finish_non_exhaustive()
    }
}
impl<P: ParameterSet> fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_prefix::<P>(f, "VerifyingKey", self.bytes.as_ref())
    }
}
impl<P: ParameterSet> fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_prefix::<P>(f, "Signature", self.bytes.as_ref())
    }
}
