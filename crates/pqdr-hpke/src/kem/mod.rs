//! The KEMs: serialized keys, `DeriveKeyPair`, `Encap` and `Decap` of
//! DHKEM(X25519, HKDF-SHA256) (RFC 9180 §4.1, §7.1), ML-KEM-768/1024
//! (draft-ietf-hpke-pq §3) and the hybrids MLKEM768-X25519 (X-Wing),
//! MLKEM768-P256 and MLKEM1024-P384 (draft-ietf-hpke-pq §4).

mod dhkem;
mod hybrid;

use core::fmt;

use pqdr_hybrid::{ecdh, xwing};
use pqdr_mlkem::{ml_kem_768, ml_kem_1024};
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::error::{Error, Object, check_length};
use crate::kdf;
use crate::suite::{Kdf, Kem, MAX_ENC_SIZE, MAX_PRIVATE_KEY_SIZE, MAX_PUBLIC_KEY_SIZE};

/// `Nsecret` of every supported KEM.
pub(crate) const SECRET_SIZE: usize = 32;
/// A KEM shared secret; wiped on drop.
pub(crate) type SharedSecret = Zeroizing<[u8; SECRET_SIZE]>;

/// The KEM's own `suite_id = "KEM" ‖ I2OSP(kem_id, 2)` (RFC 9180 §4.1).
fn kem_suite_id(kem: Kem) -> [u8; 5] {
    let id = kem.id().to_be_bytes();
    [b'K', b'E', b'M', id[0], id[1]]
}

/// The parsed form of a public key.
#[derive(Clone)]
#[allow(clippy::large_enum_variant, reason = "stack-only by design: no heap")]
enum Pk {
    X25519([u8; 32]),
    MlKem768(ml_kem_768::EncapsulationKey),
    MlKem1024(ml_kem_1024::EncapsulationKey),
    XWing(xwing::EncapsulationKey),
    P256(ml_kem_768::EncapsulationKey, ecdh::p256::PublicPoint),
    P384(ml_kem_1024::EncapsulationKey, ecdh::p384::PublicPoint),
}

/// A recipient's public key (`pkR`), validated when parsed.
#[derive(Clone)]
pub struct PublicKey {
    kem: Kem,
    bytes: [u8; MAX_PUBLIC_KEY_SIZE],
    inner: Pk,
}

impl PublicKey {
    /// `DeserializePublicKey` (RFC 9180 §7.1.1; draft-ietf-hpke-pq §3, §4):
    /// the key of `kem` encoded as `bytes`.
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` is not `Npk` long;
    /// [`Error::InvalidPublicKey`] if an ML-KEM part fails the FIPS 203 §7.2
    /// modulus check or a P-256 / P-384 part is not an uncompressed point on
    /// the curve.
    pub fn from_bytes(kem: Kem, bytes: &[u8]) -> Result<Self, Error> {
        check_length(Object::PublicKey, kem.public_key_size(), bytes.len())?;
        let bad = |_: pqdr_mlkem::Error| Error::InvalidPublicKey;
        let inner = match kem {
            Kem::DhKemX25519 => {
                let mut k = [0u8; 32];
                k.copy_from_slice(bytes);
                Pk::X25519(k)
            }
            Kem::MlKem768 => {
                Pk::MlKem768(ml_kem_768::EncapsulationKey::from_slice(bytes).map_err(bad)?)
            }
            Kem::MlKem1024 => {
                Pk::MlKem1024(ml_kem_1024::EncapsulationKey::from_slice(bytes).map_err(bad)?)
            }
            Kem::XWing => Pk::XWing(
                xwing::EncapsulationKey::from_slice(bytes).map_err(|_| Error::InvalidPublicKey)?,
            ),
            Kem::MlKem768P256 => {
                let (pq, t) = bytes.split_at(ml_kem_768::ENCAPSULATION_KEY_SIZE);
                let pq = ml_kem_768::EncapsulationKey::from_slice(pq).map_err(bad)?;
                Pk::P256(pq, hybrid::parse_p256(t)?)
            }
            Kem::MlKem1024P384 => {
                let (pq, t) = bytes.split_at(ml_kem_1024::ENCAPSULATION_KEY_SIZE);
                let pq = ml_kem_1024::EncapsulationKey::from_slice(pq).map_err(bad)?;
                Pk::P384(pq, hybrid::parse_p384(t)?)
            }
        };
        let mut b = [0u8; MAX_PUBLIC_KEY_SIZE];
        b[..bytes.len()].copy_from_slice(bytes);
        Ok(Self {
            kem,
            bytes: b,
            inner,
        })
    }

    /// `SerializePublicKey`: the `Npk` bytes of the key.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.kem.public_key_size()]
    }

    /// The key's KEM.
    #[must_use]
    pub const fn kem(&self) -> Kem {
        self.kem
    }
}

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.kem == other.kem && self.as_bytes() == other.as_bytes()
    }
}

impl Eq for PublicKey {}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicKey")
            .field("kem", &self.kem)
            .field("len", &self.as_bytes().len())
            .finish_non_exhaustive()
    }
}

/// The parsed form of a private key.
#[allow(clippy::large_enum_variant, reason = "stack-only by design: no heap")]
enum Sk {
    X25519(Zeroizing<[u8; 32]>),
    MlKem768(ml_kem_768::DecapsulationKey),
    MlKem1024(ml_kem_1024::DecapsulationKey),
    XWing(xwing::DecapsulationKey),
    P256(ml_kem_768::DecapsulationKey, ecdh::p256::SecretScalar),
    P384(ml_kem_1024::DecapsulationKey, ecdh::p384::SecretScalar),
}

/// A recipient's private key (`skR`) with its public key. The secret parts
/// are wiped on drop; `Debug` shows only the KEM.
pub struct PrivateKey {
    kem: Kem,
    bytes: Zeroizing<[u8; MAX_PRIVATE_KEY_SIZE]>,
    inner: Sk,
    public: PublicKey,
}

impl PrivateKey {
    /// `DeserializePrivateKey`: the key of `kem` encoded as `bytes` — the
    /// X25519 scalar for DHKEM (RFC 9180 §7.1.2), the 64-byte seed `d ‖ z`
    /// for ML-KEM (draft-ietf-hpke-pq §3), the 32-byte seed for the hybrids
    /// (draft-ietf-hpke-pq §4, expanded with SHAKE256).
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` is not `Nsk` long;
    /// [`Error::InvalidPrivateKey`] if a hybrid seed expands to no valid
    /// curve scalar within 256 candidates (probability below 2⁻⁸⁰⁰⁰).
    pub fn from_bytes(kem: Kem, bytes: &[u8]) -> Result<Self, Error> {
        check_length(Object::PrivateKey, kem.private_key_size(), bytes.len())?;
        let mut stored = Zeroizing::new([0u8; MAX_PRIVATE_KEY_SIZE]);
        stored[..bytes.len()].copy_from_slice(bytes);
        let mut pk = Zeroizing::new([0u8; MAX_PUBLIC_KEY_SIZE]);
        let (inner, pk_len) = match kem {
            Kem::DhKemX25519 => {
                let mut k = Zeroizing::new([0u8; 32]);
                k.copy_from_slice(bytes);
                pk[..32].copy_from_slice(&dhkem::public(&k));
                (Sk::X25519(k), 32)
            }
            Kem::MlKem768 | Kem::MlKem1024 => {
                let mut seed = Zeroizing::new([0u8; 64]);
                seed.copy_from_slice(bytes);
                if kem == Kem::MlKem768 {
                    let dk = ml_kem_768::DecapsulationKey::from_seed(&seed);
                    let ek = dk.encapsulation_key().as_bytes();
                    pk[..ek.len()].copy_from_slice(ek);
                    let n = ek.len();
                    (Sk::MlKem768(dk), n)
                } else {
                    let dk = ml_kem_1024::DecapsulationKey::from_seed(&seed);
                    let ek = dk.encapsulation_key().as_bytes();
                    pk[..ek.len()].copy_from_slice(ek);
                    let n = ek.len();
                    (Sk::MlKem1024(dk), n)
                }
            }
            Kem::XWing => {
                let mut seed = Zeroizing::new([0u8; 32]);
                seed.copy_from_slice(bytes);
                let dk = xwing::DecapsulationKey::from_seed(&seed);
                let ek = dk.encapsulation_key().as_bytes();
                pk[..ek.len()].copy_from_slice(ek);
                let n = ek.len();
                (Sk::XWing(dk), n)
            }
            Kem::MlKem768P256 | Kem::MlKem1024P384 => hybrid::expand(kem, bytes, &mut pk[..])?,
        };
        // Public by design: the public key is published.
        pqdr_ctgrind::hook::declassify(&mut pk[..pk_len]);
        let public = PublicKey::from_bytes(kem, &pk[..pk_len])?;
        Ok(Self {
            kem,
            bytes: stored,
            inner,
            public,
        })
    }

    /// `DeriveKeyPair(ikm)`: DHKEM's HKDF derivation (RFC 9180 §7.1.3), or
    /// `LabeledDerive` with SHAKE256 for the ML-KEM and hybrid KEMs
    /// (draft-ietf-hpke-pq §3, §4).
    ///
    /// # Errors
    /// As [`Self::from_bytes`] (never for a well-formed derivation in practice).
    pub fn derive(kem: Kem, ikm: &[u8]) -> Result<Self, Error> {
        let sid = kem_suite_id(kem);
        let mut sk = Zeroizing::new([0u8; MAX_PRIVATE_KEY_SIZE]);
        let nsk = kem.private_key_size();
        if kem == Kem::DhKemX25519 {
            let prk = kdf::labeled_extract(Kdf::HkdfSha256, &sid, b"", b"dkp_prk", ikm);
            kdf::labeled_expand(Kdf::HkdfSha256, &sid, &prk[..], b"sk", b"", &mut sk[..nsk])?;
        } else {
            kdf::labeled_derive(
                Kdf::Shake256,
                &sid,
                &[ikm],
                b"DeriveKeyPair",
                &[],
                &mut sk[..nsk],
            )?;
        }
        Self::from_bytes(kem, &sk[..nsk])
    }

    /// `GenerateKeyPair()`: [`Self::from_bytes`] of `Nsk` bytes from `rng`
    /// (for DHKEM: `DeriveKeyPair` of them, RFC 9180 §7.1.3).
    ///
    /// # Errors
    /// As [`Self::from_bytes`] (never in practice).
    pub fn generate<R: CryptoRng + ?Sized>(kem: Kem, rng: &mut R) -> Result<Self, Error> {
        let mut seed = Zeroizing::new([0u8; MAX_PRIVATE_KEY_SIZE]);
        let nsk = kem.private_key_size();
        rng.fill_bytes(&mut seed[..nsk]);
        if kem == Kem::DhKemX25519 {
            Self::derive(kem, &seed[..nsk])
        } else {
            Self::from_bytes(kem, &seed[..nsk])
        }
    }

    /// `SerializePrivateKey`: the `Nsk` bytes the key was made from.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.kem.private_key_size()]
    }

    /// The matching public key.
    #[must_use]
    pub const fn public_key(&self) -> &PublicKey {
        &self.public
    }

    /// The key's KEM.
    #[must_use]
    pub const fn kem(&self) -> Kem {
        self.kem
    }
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("kem", &self.kem)
            .finish_non_exhaustive()
    }
}

/// An encapsulated key `enc`, as sent to the recipient.
#[derive(Clone)]
pub struct Enc {
    bytes: [u8; MAX_ENC_SIZE],
    len: usize,
}

impl Enc {
    fn new() -> Self {
        Self {
            bytes: [0; MAX_ENC_SIZE],
            len: 0,
        }
    }

    fn set(&mut self, b: &[u8]) {
        self.bytes[..b.len()].copy_from_slice(b);
        self.len = b.len();
    }

    /// The `Nenc` bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl fmt::Debug for Enc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Enc").field("len", &self.len).finish()
    }
}

/// `Encap(pkR)` with its randomness given: DHKEM's `ikmE` (RFC 9180 §4.1:
/// `skE = DeriveKeyPair(ikmE)`), ML-KEM's `m`, the hybrids' `m ‖`
/// ephemeral curve key. `Ok(None)`: the P-256 / P-384 scalar was out of
/// range (the caller draws again).
///
/// # Errors
/// [`Error::Length`] (`Ikm`) if `rand` is not `kem.encap_randomness_size()`
/// long; [`Error::Encap`] for a low-order X25519 recipient key.
pub(crate) fn encap_derand(
    pk: &PublicKey,
    rand: &[u8],
) -> Result<Option<(Enc, SharedSecret)>, Error> {
    check_length(Object::Ikm, pk.kem.encap_randomness_size(), rand.len())?;
    let mut enc = Enc::new();
    let mut m = Zeroizing::new([0u8; 32]);
    m.copy_from_slice(&rand[..32]);
    let ss = match &pk.inner {
        Pk::X25519(pkr) => {
            let (pke, ss) = dhkem::encap(rand, pkr)?;
            enc.set(&pke);
            ss
        }
        Pk::MlKem768(ek) => {
            let (ct, ss) = ek.encapsulate_deterministic(&m);
            enc.set(ct.as_bytes());
            Zeroizing::new(*ss.as_bytes())
        }
        Pk::MlKem1024(ek) => {
            let (ct, ss) = ek.encapsulate_deterministic(&m);
            enc.set(ct.as_bytes());
            Zeroizing::new(*ss.as_bytes())
        }
        Pk::XWing(ek) => {
            let mut eseed = Zeroizing::new([0u8; 64]);
            eseed.copy_from_slice(rand);
            let (ct, ss) = ek.encapsulate_deterministic(&eseed);
            enc.set(ct.as_bytes());
            Zeroizing::new(*ss.as_bytes())
        }
        Pk::P256(ek, t) => {
            let t_bytes = &pk.as_bytes()[ml_kem_768::ENCAPSULATION_KEY_SIZE..];
            let Some(ss) = hybrid::encap_p256(ek, t, t_bytes, &m, &rand[32..], &mut enc.bytes)?
            else {
                return Ok(None);
            };
            enc.len = pk.kem.enc_size();
            ss
        }
        Pk::P384(ek, t) => {
            let t_bytes = &pk.as_bytes()[ml_kem_1024::ENCAPSULATION_KEY_SIZE..];
            let Some(ss) = hybrid::encap_p384(ek, t, t_bytes, &m, &rand[32..], &mut enc.bytes)?
            else {
                return Ok(None);
            };
            enc.len = pk.kem.enc_size();
            ss
        }
    };
    Ok(Some((enc, ss)))
}

/// `Encap(pkR)` with fresh randomness from `rng` (a P-256 / P-384 ephemeral
/// scalar out of range is drawn again, at most 256 times).
///
/// # Errors
/// As [`encap_derand`].
pub(crate) fn encap<R: CryptoRng + ?Sized>(
    pk: &PublicKey,
    rng: &mut R,
) -> Result<(Enc, SharedSecret), Error> {
    let n = pk.kem.encap_randomness_size();
    let mut rand = Zeroizing::new([0u8; 80]);
    for _ in 0..256 {
        rng.fill_bytes(&mut rand[..n]);
        if let Some(r) = encap_derand(pk, &rand[..n])? {
            return Ok(r);
        }
    }
    Err(Error::Encap)
}

/// `Decap(enc, skR)`.
///
/// # Errors
/// [`Error::Length`] if `enc` is not `Nenc` long; [`Error::Decap`] for a
/// low-order X25519 `enc` (DHKEM) or an invalid curve point (P-256 / P-384
/// hybrids). A well-formed ML-KEM ciphertext never fails (implicit rejection).
pub(crate) fn decap(sk: &PrivateKey, enc: &[u8]) -> Result<SharedSecret, Error> {
    check_length(Object::Enc, sk.kem.enc_size(), enc.len())?;
    let bad = |_: pqdr_mlkem::Error| Error::Decap;
    Ok(match &sk.inner {
        Sk::X25519(k) => dhkem::decap(k, enc, sk.public.as_bytes())?,
        Sk::MlKem768(dk) => {
            let ct = ml_kem_768::Ciphertext::from_slice(enc).map_err(bad)?;
            Zeroizing::new(*dk.decapsulate(&ct).as_bytes())
        }
        Sk::MlKem1024(dk) => {
            let ct = ml_kem_1024::Ciphertext::from_slice(enc).map_err(bad)?;
            Zeroizing::new(*dk.decapsulate(&ct).as_bytes())
        }
        Sk::XWing(dk) => {
            let ct = xwing::Ciphertext::from_slice(enc).map_err(|_| Error::Decap)?;
            Zeroizing::new(*dk.decapsulate(&ct).as_bytes())
        }
        Sk::P256(dk, s) => {
            let t_bytes = &sk.public.as_bytes()[ml_kem_768::ENCAPSULATION_KEY_SIZE..];
            hybrid::decap_p256(dk, s, t_bytes, enc)?
        }
        Sk::P384(dk, s) => {
            let t_bytes = &sk.public.as_bytes()[ml_kem_1024::ENCAPSULATION_KEY_SIZE..];
            hybrid::decap_p384(dk, s, t_bytes, enc)?
        }
    })
}
