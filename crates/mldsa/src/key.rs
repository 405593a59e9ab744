//! The public key, signing key and signature types and the external
//! functions of FIPS 204 §5: ML-DSA.KeyGen / Sign / Verify (Algorithms 1–3)
//! and HashML-DSA.Sign / Verify (Algorithms 4–5).

use core::fmt;

use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Error;
use crate::keygen::{SkLayout, check_s_range, derive_t, keygen_internal};
use crate::mu::{internal_mu, prehash_mu, pure_mu};
use crate::params::{ByteArray, ParameterSet, PolyArray};
use crate::prehash::PreHash;
use crate::sample::h;

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

/// `Ok` for a valid signature.
fn valid(ok: bool) -> Result<(), Error> {
    if ok { Ok(()) } else { Err(Error) }
}

/// ML-DSA.KeyGen (FIPS 204 Algorithm 1): draws ξ (32 bytes) from `rng`.
pub fn generate<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
) -> (SigningKey<P>, VerifyingKey<P>) {
    let mut xi = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(&mut xi[..]);
    generate_deterministic(&xi)
}

/// ML-DSA.KeyGen_internal(ξ) (FIPS 204 Algorithm 6).
pub fn generate_deterministic<P: ParameterSet>(xi: &[u8; 32]) -> (SigningKey<P>, VerifyingKey<P>) {
    let sk = SigningKey::<P>::from_seed(xi);
    let vk = sk.vk.clone();
    (sk, vk)
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// Decodes a public key (pkDecode, FIPS 204 Algorithm 23). Every byte
    /// string of the right length is a valid encoding.
    ///
    /// # Errors
    /// None at present; the `Result` leaves room for future checks.
    pub fn from_bytes(bytes: &P::VkBytes) -> Result<Self, Error> {
        let mut tr = [0u8; 64];
        h(&[bytes.as_ref()], &mut tr);
        Ok(Self { bytes: *bytes, tr })
    }

    /// Decodes a public key from a slice.
    ///
    /// # Errors
    /// The slice does not have the public key's length.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let mut b = P::VkBytes::zeroed();
        if bytes.len() != b.as_ref().len() {
            return Err(Error);
        }
        b.as_mut().copy_from_slice(bytes);
        Self::from_bytes(&b)
    }

    /// The encoded public key.
    pub fn as_bytes(&self) -> &P::VkBytes {
        &self.bytes
    }

    /// tr = H(pk, 64), the public-key hash bound into μ.
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }

    /// ML-DSA.Verify (FIPS 204 Algorithm 3) of `msg` under context `ctx`.
    ///
    /// # Errors
    /// The signature is invalid, or `ctx` is longer than 255 bytes.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&pure_mu(&self.tr, msg, ctx)?, sig)
    }

    /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) on the formatted message M′.
    ///
    /// # Errors
    /// The signature is invalid.
    pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&internal_mu(&self.tr, m_prime), sig)
    }

    /// Verify_internal with an externally computed μ = H(tr‖M′, 64).
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

    /// HashML-DSA.Verify (FIPS 204 Algorithm 5) of a pre-computed digest PH(M).
    ///
    /// # Errors
    /// The signature is invalid, `ctx` is longer than 255 bytes, or `digest`
    /// does not have `ph`'s output length.
    pub fn verify_prehash(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        let mu = prehash_mu(&self.tr, ph, digest, ctx)?;
        self.verify_mu(&mu, sig)
    }

    /// μ = H(tr‖M′, 64) for pure ML-DSA (M′ = 0‖|ctx|‖ctx‖msg), for signing
    /// with an external μ.
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        pure_mu(&self.tr, msg, ctx)
    }
}

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

    /// ML-DSA.Verify (FIPS 204 Algorithm 3), as [`VerifyingKey::verify`].
    ///
    /// # Errors
    /// The signature is invalid, or `ctx` is longer than 255 bytes.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        let mu = self.vk.compute_mu(msg, ctx)?;
        self.verify_mu(&mu, sig)
    }

    /// Verify_internal (FIPS 204 Algorithm 8) on M′.
    ///
    /// # Errors
    /// The signature is invalid.
    pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&internal_mu(&self.vk.tr, m_prime), sig)
    }

    /// Verify_internal with an external μ.
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

    /// HashML-DSA.Verify (FIPS 204 Algorithm 5).
    ///
    /// # Errors
    /// As [`VerifyingKey::verify_prehash`].
    pub fn verify_prehash(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        let mu = prehash_mu(&self.vk.tr, ph, digest, ctx)?;
        self.verify_mu(&mu, sig)
    }
}

impl<P: ParameterSet> fmt::Debug for ExpandedVerifyingKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExpandedVerifyingKey")
            .field("vk", &self.vk)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// KeyGen_internal(ξ) (FIPS 204 Algorithm 6); the key remembers ξ.
    pub fn from_seed(xi: &[u8; 32]) -> Self {
        let mut bytes = P::SkBytes::zeroed();
        let mut pk = P::VkBytes::zeroed();
        keygen_internal::<P>(xi, &mut pk, &mut bytes);
        let mut tr = [0u8; 64];
        tr.copy_from_slice(&bytes.as_ref()[SkLayout::TR..SkLayout::TR + 64]);
        Self {
            bytes,
            seed: Some(*xi),
            vk: VerifyingKey { bytes: pk, tr },
        }
    }

    /// Decodes an expanded signing key (skDecode, FIPS 204 Algorithm 25) and
    /// validates it: every s1/s2 coefficient must be in [−η, η], and t0 and tr
    /// must be the ones ρ, s1, s2 imply (this recomputes the public key).
    ///
    /// # Errors
    /// The key is malformed or inconsistent.
    pub fn from_bytes(bytes: &P::SkBytes) -> Result<Self, Error> {
        let mut sk = *bytes;
        let mut pk = P::VkBytes::zeroed();
        let mut bad = check_s_range::<P>(&sk);
        bad |= derive_t::<P>(&mut sk, &mut pk, false);
        // Whether a key is well formed is public (it is rejected or not).
        pqdr_ct::hook::declassify(&mut bad);
        if bad != 0 {
            sk.zeroize();
            return Err(Error);
        }
        let tr = {
            let mut t = [0u8; 64];
            t.copy_from_slice(&sk.as_ref()[SkLayout::TR..SkLayout::TR + 64]);
            pqdr_ct::hook::declassify(&mut t);
            t
        };
        Ok(Self {
            bytes: sk,
            seed: None,
            vk: VerifyingKey { bytes: pk, tr },
        })
    }

    /// Decodes an expanded signing key from a slice.
    ///
    /// # Errors
    /// Wrong length, or as [`from_bytes`](Self::from_bytes).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let mut b = Zeroizing::new(P::SkBytes::zeroed());
        if bytes.len() != b.as_ref().len() {
            return Err(Error);
        }
        b.as_mut().copy_from_slice(bytes);
        Self::from_bytes(&b)
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

    /// ML-DSA.Sign (FIPS 204 Algorithm 2), hedged: rnd is drawn from `rng`.
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    #[inline]
    pub fn sign<R: CryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut rnd[..]);
        self.sign_with_rnd(msg, ctx, &rnd)
    }

    /// ML-DSA.Sign, deterministic variant (rnd = 0^32).
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    #[inline]
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rnd(msg, ctx, &[0; 32])
    }

    /// ML-DSA.Sign with explicit randomness `rnd`.
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    #[inline]
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        Ok(self.sign_mu(&pure_mu(&self.vk.tr, msg, ctx)?, rnd))
    }

    /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) on the formatted message M′.
    #[inline]
    pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Signature<P> {
        self.sign_mu(&internal_mu(&self.vk.tr, m_prime), rnd)
    }

    /// Sign_internal with an externally computed μ = H(tr‖M′, 64).
    #[inline]
    pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Signature<P> {
        let mut sig = Signature {
            bytes: P::SigBytes::zeroed(),
        };
        crate::sign::sign_mu::<P>(&self.bytes, mu, rnd, &mut sig.bytes);
        sig
    }

    /// HashML-DSA.Sign (FIPS 204 Algorithm 4), hedged, of a digest PH(M).
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes or `digest` has the wrong length for `ph`.
    pub fn sign_prehash<R: CryptoRng + ?Sized>(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut rnd[..]);
        self.sign_prehash_with_rnd(ph, digest, ctx, &rnd)
    }

    /// HashML-DSA.Sign, deterministic variant (rnd = 0^32).
    ///
    /// # Errors
    /// As [`sign_prehash`](Self::sign_prehash).
    pub fn sign_prehash_deterministic(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        self.sign_prehash_with_rnd(ph, digest, ctx, &[0; 32])
    }

    /// HashML-DSA.Sign with explicit randomness `rnd`.
    ///
    /// # Errors
    /// As [`sign_prehash`](Self::sign_prehash).
    pub fn sign_prehash_with_rnd(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mu = prehash_mu(&self.vk.tr, ph, digest, ctx)?;
        Ok(self.sign_mu(&mu, rnd))
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// Precomputes Â, NTT(s1), NTT(s2) and NTT(t0) for faster repeated
    /// signing; signing with the result needs about 23 KiB of stack
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

    /// Sign_internal with an external μ, as [`SigningKey::sign_mu`].
    pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Signature<P> {
        let pre = crate::sign::Precomputed::<P> {
            a_hat: Some(&self.a_hat),
            s1_hat: &self.s1_hat,
            s2_hat: &self.s2_hat,
            t0_hat: Some(&self.t0_hat),
        };
        let mut sig = Signature {
            bytes: P::SigBytes::zeroed(),
        };
        crate::sign::sign_precomputed::<P>(&self.sk.bytes, &pre, mu, rnd, &mut sig.bytes);
        sig
    }

    /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) on M′.
    pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Signature<P> {
        self.sign_mu(&internal_mu(&self.sk.vk.tr, m_prime), rnd)
    }

    /// ML-DSA.Sign (FIPS 204 Algorithm 2) with explicit randomness `rnd`.
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mu = self.sk.vk.compute_mu(msg, ctx)?;
        Ok(self.sign_mu(&mu, rnd))
    }

    /// ML-DSA.Sign, deterministic variant (rnd = 0^32).
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rnd(msg, ctx, &[0; 32])
    }

    /// ML-DSA.Sign, hedged: rnd is drawn from `rng`.
    ///
    /// # Errors
    /// `ctx` is longer than 255 bytes.
    pub fn sign<R: CryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut rnd[..]);
        self.sign_with_rnd(msg, ctx, &rnd)
    }

    /// HashML-DSA.Sign (FIPS 204 Algorithm 4) with explicit randomness `rnd`.
    ///
    /// # Errors
    /// As [`SigningKey::sign_prehash`].
    pub fn sign_prehash_with_rnd(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mu = prehash_mu(&self.sk.vk.tr, ph, digest, ctx)?;
        Ok(self.sign_mu(&mu, rnd))
    }
}

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

impl<P: ParameterSet> Signature<P> {
    /// Wraps encoded signature bytes (no check: decoding happens in verification).
    pub fn from_bytes(bytes: &P::SigBytes) -> Self {
        Self { bytes: *bytes }
    }

    /// Wraps a slice of the signature's length.
    ///
    /// # Errors
    /// Wrong length.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let mut b = P::SigBytes::zeroed();
        if bytes.len() != b.as_ref().len() {
            return Err(Error);
        }
        b.as_mut().copy_from_slice(bytes);
        Ok(Self { bytes: b })
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
        write!(f, "VerifyingKey<{}>(", P::NAME)?;
        for b in &self.bytes.as_ref()[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("…)")
    }
}
impl<P: ParameterSet> fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature<{}>(", P::NAME)?;
        for b in &self.bytes.as_ref()[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("…)")
    }
}
