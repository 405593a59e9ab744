//! ML-DSA authentication in TLS 1.3 (draft-ietf-tls-mldsa): the signature
//! schemes `mldsa44` (`0x0904`), `mldsa65` (`0x0905`) and `mldsa87`
//! (`0x0906`) as rustls signing keys, webpki verification algorithms for
//! certificates carrying RFC 9881 keys, and a key provider that loads
//! RFC 9881 PKCS#8 keys.
//!
//! The draft's rules, as applied here:
//! - pure ML-DSA (FIPS 204 Algorithms 2 and 3), not HashML-DSA, with the
//!   empty context string (draft-ietf-tls-mldsa §2);
//! - the message signed is what TLS gives the signer: in a CertificateVerify
//!   the RFC 8446 §4.4.3 content (64 spaces, the context string, 0x00, the
//!   transcript hash), built by rustls; in a certificate the DER
//!   TBSCertificate (RFC 9881 §3);
//! - the certificate's key and signature AlgorithmIdentifiers are the RFC 9881
//!   §2 OIDs with absent parameters (rustls' `pki_types::alg_id::ML_DSA_*`);
//! - TLS 1.3 only: there is no TLS 1.2 signature algorithm for ML-DSA, so
//!   [`SigningKey::algorithm`] gives none (`Unknown(0)`) and no TLS 1.2
//!   cipher suite can select these keys.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use pqdr_mldsa::{
    ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, VerifyingKey,
};
use rustls::crypto::{KeyProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{
    AlgorithmIdentifier, InvalidSignature, PrivateKeyDer, SignatureVerificationAlgorithm,
    SubjectPublicKeyInfoDer, alg_id,
};
use rustls::sign::{Signer, SigningKey};
use rustls::{Error, SignatureAlgorithm, SignatureScheme};
use webpki::ring as ring_algs;

/// One ML-DSA parameter set in TLS: its `SignatureScheme` and its RFC 9881
/// AlgorithmIdentifier (the same for the key and the signature); its name
/// is `ParameterSet::NAME`.
trait Level:
    ParameterSet<Matrix: Send + Sync, VecL: Send + Sync, VecK: Send + Sync> + Send + Sync + 'static
{
    const SCHEME: SignatureScheme;
    const ALG_ID: AlgorithmIdentifier;
}

impl Level for MlDsa44 {
    const SCHEME: SignatureScheme = SignatureScheme::ML_DSA_44;
    const ALG_ID: AlgorithmIdentifier = alg_id::ML_DSA_44;
}

impl Level for MlDsa65 {
    const SCHEME: SignatureScheme = SignatureScheme::ML_DSA_65;
    const ALG_ID: AlgorithmIdentifier = alg_id::ML_DSA_65;
}

impl Level for MlDsa87 {
    const SCHEME: SignatureScheme = SignatureScheme::ML_DSA_87;
    const ALG_ID: AlgorithmIdentifier = alg_id::ML_DSA_87;
}

/// An ML-DSA private key as a rustls [`SigningKey`]: one scheme, the
/// key's own. The key is kept expanded (`pqdr_mldsa::ExpandedSigningKey`:
/// Â, NTT(s1), NTT(s2), NTT(t0) computed once, FIPS 204 Algorithm 7 lines
/// 1–5), since a TLS key signs every handshake; it wipes itself on drop.
struct MlDsaKey<P: Level> {
    key: Arc<ExpandedSigningKey<P>>,
    /// The key's SubjectPublicKeyInfo (RFC 9881 §4), for rustls' check that
    /// the certificate holds this key.
    spki: Vec<u8>,
}

impl<P: Level> MlDsaKey<P> {
    /// The key from an RFC 9881 PKCS#8 encoding (any of its three private
    /// key forms), or `None` when the OID is another parameter set's or the
    /// input is not DER.
    fn from_pkcs8(der: &[u8]) -> Result<Option<Self>, Error> {
        let key = match pqdr_mldsa::SigningKey::<P>::from_private_key_der(der) {
            Ok(key) => key,
            // Another algorithm's key, or not DER at all: not ours to judge.
            Err(pqdr_mldsa::Error::Algorithm | pqdr_mldsa::Error::Der) => return Ok(None),
            Err(e) => {
                return Err(Error::General(alloc::format!(
                    "the {} private key is not a valid RFC 9881 PKCS#8 key: {e}",
                    P::NAME
                )));
            }
        };
        // The SPKI is the OID and the key: 22 bytes of DER around pk.
        let mut out = alloc::vec![0u8; P::VK_SIZE + 32];
        let spki = key
            .verifying_key()
            .to_spki_der(&mut out)
            .map_err(|e| Error::General(alloc::format!("{e}")))?
            .to_vec();
        Ok(Some(Self {
            key: Arc::new(key.expand()),
            spki,
        }))
    }
}

impl<P: Level> SigningKey for MlDsaKey<P> {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered.contains(&P::SCHEME).then(|| {
            Box::new(MlDsaSigner {
                key: self.key.clone(),
            }) as Box<dyn Signer>
        })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(SubjectPublicKeyInfoDer::from(&self.spki[..]))
    }

    /// No TLS 1.2 `SignatureAlgorithm` exists for ML-DSA (TLS 1.3 only).
    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::Unknown(0)
    }
}

impl<P: Level> fmt::Debug for MlDsaKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pqdr_rustls::MlDsaKey({})", P::NAME)
    }
}

/// One signature with an [`MlDsaKey`].
struct MlDsaSigner<P: Level> {
    key: Arc<ExpandedSigningKey<P>>,
}

impl<P: Level> Signer for MlDsaSigner<P> {
    /// `ML-DSA.Sign` (FIPS 204 Algorithm 2), hedged: `rnd` is 32 fresh bytes
    /// from the operating system; the context is empty
    /// (draft-ietf-tls-mldsa §2).
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let rnd = crate::kem::random::<32>()?;
        let sig = self
            .key
            .sign_with_rnd(message, &[], &rnd)
            .map_err(|e| Error::General(alloc::format!("{e}")))?;
        Ok(sig.as_bytes().as_ref().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        P::SCHEME
    }
}

impl<P: Level> fmt::Debug for MlDsaSigner<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pqdr_rustls::MlDsaSigner({})", P::NAME)
    }
}

/// An RFC 9881 PKCS#8 private key (seed, expanded or both forms) of any of
/// the three ML-DSA parameter sets as a rustls [`SigningKey`] for its
/// signature scheme (`0x0904`–`0x0906`).
///
/// # Errors
/// `Error::General` naming the problem: not a PKCS#8 key with an ML-DSA
/// OID, or a key pqdr-mldsa refuses (malformed DER, wrong length, a `both`
/// key whose halves disagree, RFC 9881 §9).
///
/// ```
/// use rustls::SignatureScheme;
/// use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
///
/// let (sk, _) = pqdr_mldsa::ml_dsa_65::generate_deterministic(&[7; 32]);
/// let mut buf = [0u8; 64];
/// let der = sk.to_private_key_der(pqdr_mldsa::PrivateKeyForm::Seed, &mut buf)?;
/// let key = pqdr_rustls::any_mldsa_key(&PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(der)))?;
/// let signer = key.choose_scheme(&[SignatureScheme::ML_DSA_65]).expect("offered");
/// assert_eq!(signer.sign(b"transcript")?.len(), 3309);
/// assert!(key.choose_scheme(&[SignatureScheme::ML_DSA_44]).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn any_mldsa_key(der: &PrivateKeyDer<'_>) -> Result<Arc<dyn SigningKey>, Error> {
    load(der)?.ok_or_else(|| {
        Error::General(
            "the key is not a well-formed PKCS#8 ML-DSA-44, -65 or -87 key (RFC 9881 §2, §6)"
                .into(),
        )
    })
}

/// The ML-DSA key in `der`, `None` when `der` is not an ML-DSA key (not
/// PKCS#8, or another algorithm's OID), an error when it has an ML-DSA OID
/// and pqdr-mldsa refuses it.
fn load(der: &PrivateKeyDer<'_>) -> Result<Option<Arc<dyn SigningKey>>, Error> {
    let PrivateKeyDer::Pkcs8(pkcs8) = der else {
        return Ok(None);
    };
    let der = pkcs8.secret_pkcs8_der();
    if let Some(k) = MlDsaKey::<MlDsa44>::from_pkcs8(der)? {
        return Ok(Some(Arc::new(k)));
    }
    if let Some(k) = MlDsaKey::<MlDsa65>::from_pkcs8(der)? {
        return Ok(Some(Arc::new(k)));
    }
    if let Some(k) = MlDsaKey::<MlDsa87>::from_pkcs8(der)? {
        return Ok(Some(Arc::new(k)));
    }
    Ok(None)
}

/// webpki's [`SignatureVerificationAlgorithm`] for one parameter set:
/// `ML-DSA.Verify` (FIPS 204 Algorithm 3) with the empty context.
struct Verify<P>(PhantomData<fn() -> P>);

impl<P: Level> SignatureVerificationAlgorithm for Verify<P> {
    /// `public_key` is the SubjectPublicKeyInfo's BIT STRING (RFC 9881 §4:
    /// pkEncode, FIPS 204 Algorithm 22); a key or signature of the wrong
    /// length is an invalid signature, as is one that does not verify.
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let vk = VerifyingKey::<P>::from_slice(public_key).map_err(|_| InvalidSignature)?;
        let sig = Signature::<P>::from_slice(signature).map_err(|_| InvalidSignature)?;
        vk.verify(message, &[], &sig).map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        P::ALG_ID
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        P::ALG_ID
    }
}

impl<P: Level> fmt::Debug for Verify<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pqdr_rustls::{}", P::NAME)
    }
}

/// ML-DSA-44 verification (RFC 9881 `id-ml-dsa-44`, TLS `mldsa44`, `0x0904`).
pub static ML_DSA_44: &dyn SignatureVerificationAlgorithm = &Verify::<MlDsa44>(PhantomData);
/// ML-DSA-65 verification (RFC 9881 `id-ml-dsa-65`, TLS `mldsa65`, `0x0905`).
pub static ML_DSA_65: &dyn SignatureVerificationAlgorithm = &Verify::<MlDsa65>(PhantomData);
/// ML-DSA-87 verification (RFC 9881 `id-ml-dsa-87`, TLS `mldsa87`, `0x0906`).
pub static ML_DSA_87: &dyn SignatureVerificationAlgorithm = &Verify::<MlDsa87>(PhantomData);

/// The `ring` provider's verification algorithms (the same list as
/// `rustls::crypto::ring`'s) and the three ML-DSA ones: for certificate
/// chains (`all`) and for CertificateVerify (`mapping`, each ML-DSA scheme
/// to its own algorithm only). [`provider`](crate::provider) uses it.
pub static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        ring_algs::ECDSA_P256_SHA256,
        ring_algs::ECDSA_P256_SHA384,
        ring_algs::ECDSA_P384_SHA256,
        ring_algs::ECDSA_P384_SHA384,
        ring_algs::ED25519,
        ring_algs::RSA_PSS_2048_8192_SHA256_LEGACY_KEY,
        ring_algs::RSA_PSS_2048_8192_SHA384_LEGACY_KEY,
        ring_algs::RSA_PSS_2048_8192_SHA512_LEGACY_KEY,
        ring_algs::RSA_PKCS1_2048_8192_SHA256,
        ring_algs::RSA_PKCS1_2048_8192_SHA384,
        ring_algs::RSA_PKCS1_2048_8192_SHA512,
        ring_algs::RSA_PKCS1_2048_8192_SHA256_ABSENT_PARAMS,
        ring_algs::RSA_PKCS1_2048_8192_SHA384_ABSENT_PARAMS,
        ring_algs::RSA_PKCS1_2048_8192_SHA512_ABSENT_PARAMS,
        ML_DSA_44,
        ML_DSA_65,
        ML_DSA_87,
    ],
    mapping: &[
        (
            SignatureScheme::ECDSA_NISTP384_SHA384,
            &[ring_algs::ECDSA_P384_SHA384, ring_algs::ECDSA_P256_SHA384],
        ),
        (
            SignatureScheme::ECDSA_NISTP256_SHA256,
            &[ring_algs::ECDSA_P256_SHA256, ring_algs::ECDSA_P384_SHA256],
        ),
        (SignatureScheme::ED25519, &[ring_algs::ED25519]),
        (
            SignatureScheme::RSA_PSS_SHA512,
            &[ring_algs::RSA_PSS_2048_8192_SHA512_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PSS_SHA384,
            &[ring_algs::RSA_PSS_2048_8192_SHA384_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PSS_SHA256,
            &[ring_algs::RSA_PSS_2048_8192_SHA256_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA512,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA512],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA384,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA384],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA256,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA256],
        ),
        (SignatureScheme::ML_DSA_44, &[ML_DSA_44]),
        (SignatureScheme::ML_DSA_65, &[ML_DSA_65]),
        (SignatureScheme::ML_DSA_87, &[ML_DSA_87]),
    ],
};

/// Loads ML-DSA keys ([`any_mldsa_key`]) and every other key with `ring`'s
/// key provider.
#[derive(Debug)]
struct Keys;

impl KeyProvider for Keys {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, Error> {
        match load(&key_der)? {
            Some(key) => Ok(key),
            None => rustls::crypto::ring::default_provider()
                .key_provider
                .load_private_key(key_der),
        }
    }
}

/// The key provider of [`provider`](crate::provider): RFC 9881 ML-DSA
/// PKCS#8 keys through [`any_mldsa_key`], every other key type through
/// `ring`'s provider (ECDSA, Ed25519, RSA).
pub static KEY_PROVIDER: &dyn KeyProvider = &Keys;
