//! X-Wing: the hybrid KEM of ML-KEM-768 and X25519 with a SHA3-256
//! combiner, draft-connolly-cfrg-xwing-kem-10 §5 (the same construction as
//! `MLKEM768-X25519` of draft-irtf-cfrg-concrete-hybrid-kems, which keeps
//! its label; HPKE KEM id `0x647A`).
//!
//! Sizes (§5.1): decapsulation key 32 bytes (a seed), encapsulation key
//! 1216 bytes (`pk_M ‖ pk_X`), ciphertext 1120 bytes (`ct_M ‖ ct_X`),
//! shared secret 32 bytes. The decapsulation key is expanded once, when it
//! is loaded, and kept expanded (§5.5.1); only the seed is ever exported.

use core::fmt;

use pqdr_mlkem::ml_kem_768 as mlkem;
use rand_core::{CryptoRng, TryCryptoRng};
use sha3::{Digest, Sha3_256};
use shake::{ExtendableOutput, Shake256, Update, XofReader};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, Object, check_length, from_mlkem};
use crate::x25519::{self, X25519_SIZE};

pub use pqdr_common::{SHARED_SECRET_SIZE, SharedSecret};

/// Size of the decapsulation key, a 32-byte seed (§5.1, §5.2).
pub const SEED_SIZE: usize = 32;
/// Size of the decapsulation key in bytes: the seed (§5.1).
pub const DECAPSULATION_KEY_SIZE: usize = SEED_SIZE;
/// Size of the encapsulation key `pk_M ‖ pk_X` in bytes (§5.1).
pub const ENCAPSULATION_KEY_SIZE: usize = EK_M + X25519_SIZE;
/// Size of the ciphertext `ct_M ‖ ct_X` in bytes (§5.1).
pub const CIPHERTEXT_SIZE: usize = CT_M + X25519_SIZE;
/// Size of the randomness `eseed = m ‖ ek_X` of one encapsulation (§5.4.1).
pub const ENCAPSULATION_SEED_SIZE: usize = 64;
/// The HPKE KEM identifier (§7; draft-ietf-hpke-pq: `MLKEM768-X25519`).
pub const HPKE_KEM_ID: u16 = 0x647A;
/// `XWingLabel`, the six ASCII bytes `\./` `/^\` (hex `5c2e2f2f5e5c`), hashed
/// last by the combiner (§5.3).
pub const LABEL: [u8; 6] = *b"\\.//^\\";

/// ML-KEM-768 encapsulation key size (`pk_M`).
const EK_M: usize = mlkem::ENCAPSULATION_KEY_SIZE;
/// ML-KEM-768 ciphertext size (`ct_M`).
const CT_M: usize = mlkem::CIPHERTEXT_SIZE;

const _: () = assert!(ENCAPSULATION_KEY_SIZE == 1216 && CIPHERTEXT_SIZE == 1120);

/// The X-Wing marker type (the RustCrypto `kem::Kem` impl with the feature `kem`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct XWing;

/// Prints the first bytes of a public value in hex.
struct HexPrefix<'a>(&'a [u8]);

impl fmt::Debug for HexPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0.iter().take(8) {
            write!(f, "{b:02x}")?;
        }
        f.write_str("…")
    }
}

/// An X-Wing encapsulation (public) key `pk = pk_M ‖ pk_X`, 1216 bytes. The
/// ML-KEM part passed the FIPS 203 §7.2 check when it was parsed.
#[derive(Clone)]
pub struct EncapsulationKey {
    pk_m: mlkem::EncapsulationKey,
    bytes: [u8; ENCAPSULATION_KEY_SIZE],
}

impl EncapsulationKey {
    /// Parses `pk_M ‖ pk_X`. Runs the ML-KEM encapsulation-key check of
    /// FIPS 203 §7.2, which X-Wing's `ML-KEM-768.Encaps` must perform (§4);
    /// any 32 bytes are an X25519 public key (RFC 7748 §5).
    ///
    /// # Errors
    /// [`Error::Length`] unless `bytes` has 1216 bytes; [`Error::InvalidKey`]
    /// if `pk_M` fails the modulus check.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_length(
            Object::EncapsulationKey,
            ENCAPSULATION_KEY_SIZE,
            bytes.len(),
        )?;
        let (pk_m, _) = bytes.split_at(EK_M);
        let pk_m = mlkem::EncapsulationKey::from_slice(pk_m).map_err(from_mlkem)?;
        let mut key = Self {
            pk_m,
            bytes: [0; ENCAPSULATION_KEY_SIZE],
        };
        key.bytes.copy_from_slice(bytes);
        Ok(key)
    }

    /// [`Self::from_slice`] of an array (the §7.2 check still runs).
    ///
    /// # Errors
    /// [`Error::InvalidKey`] if `pk_M` fails the modulus check.
    pub fn from_array(bytes: &[u8; ENCAPSULATION_KEY_SIZE]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// The encoded key `pk_M ‖ pk_X` (1216 bytes).
    pub fn as_bytes(&self) -> &[u8; ENCAPSULATION_KEY_SIZE] {
        &self.bytes
    }

    /// The X25519 part `pk_X` (the last 32 bytes).
    fn pk_x(&self) -> [u8; X25519_SIZE] {
        let mut pk_x = [0u8; X25519_SIZE];
        pk_x.copy_from_slice(&self.bytes[EK_M..]);
        pk_x
    }

    /// `Encapsulate(pk)` (§5.4): draws `eseed` (64 bytes, one call) from
    /// `rng` and runs [`Self::encapsulate_deterministic`].
    pub fn encapsulate<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Ciphertext, SharedSecret) {
        let Ok(out) = self.try_encapsulate(rng);
        out
    }

    /// [`Self::encapsulate`] with a fallible RNG.
    ///
    /// # Errors
    /// The RNG's error, if it fails.
    pub fn try_encapsulate<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Ciphertext, SharedSecret), R::Error> {
        let mut eseed = Zeroizing::new([0u8; ENCAPSULATION_SEED_SIZE]);
        rng.try_fill_bytes(eseed.as_mut())?;
        Ok(self.encapsulate_deterministic(&eseed))
    }

    /// `EncapsulateDerand(pk, eseed)` (§5.4.1): `m = eseed[0..32]` drives
    /// `ML-KEM-768.Encaps_internal`, `ek_X = eseed[32..64]` is the ephemeral
    /// X25519 scalar. For known-answer tests; `eseed` must be fresh
    /// randomness otherwise.
    pub fn encapsulate_deterministic(
        &self,
        eseed: &[u8; ENCAPSULATION_SEED_SIZE],
    ) -> (Ciphertext, SharedSecret) {
        let mut m = Zeroizing::new([0u8; 32]);
        let mut ek_x = Zeroizing::new([0u8; X25519_SIZE]);
        m.copy_from_slice(&eseed[..32]);
        ek_x.copy_from_slice(&eseed[32..]);

        let pk_x = self.pk_x();
        // ct_X = X25519(ek_X, X25519_BASE), ss_X = X25519(ek_X, pk_X).
        let ct_x = x25519::public(&ek_x);
        let ss_x = x25519::dh(&ek_x, &pk_x);
        let (ct_m, ss_m) = self.pk_m.encapsulate_deterministic(&m);

        let mut ct = Ciphertext([0; CIPHERTEXT_SIZE]);
        ct.0[..CT_M].copy_from_slice(ct_m.as_bytes());
        ct.0[CT_M..].copy_from_slice(&ct_x);
        (ct, combiner(&ss_m, &ss_x, &ct_x, &pk_x))
    }
}

impl ConstantTimeEq for EncapsulationKey {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.bytes.ct_eq(&other.bytes)
    }
}

impl PartialEq for EncapsulationKey {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for EncapsulationKey {}

impl core::hash::Hash for EncapsulationKey {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl fmt::Debug for EncapsulationKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("xwing::EncapsulationKey")
            .field("pk_X", &HexPrefix(&self.bytes[EK_M..]))
            .finish_non_exhaustive()
    }
}

/// An X-Wing decapsulation (private) key: the 32-byte seed `sk`, kept with
/// its expansion `(sk_M, sk_X, pk_M, pk_X)` (§5.2 `expandDecapsulationKey`,
/// cached as §5.5.1 allows). Only the seed is exported ([`Self::as_bytes`]);
/// the expanded form never leaves the type (§5.5.1: it must not be
/// transmitted).
///
/// Zeroized on drop; `Debug` shows only the public key; constant-time equality.
#[derive(Clone)]
pub struct DecapsulationKey {
    seed: [u8; SEED_SIZE],
    sk_m: mlkem::DecapsulationKey,
    sk_x: [u8; X25519_SIZE],
    ek: EncapsulationKey,
}

impl DecapsulationKey {
    /// `expandDecapsulationKey(sk)` (§5.2): `SHAKE256(sk, 96·8)` gives
    /// `d ‖ z` (64 bytes) for `ML-KEM-768.KeyGen_internal(d, z)`, then
    /// `sk_X` (32 bytes); `pk_X = X25519(sk_X, X25519_BASE)`.
    ///
    /// # Panics
    /// With `pqdr-mlkem`'s feature `self-test`, if the ML-KEM key fails its
    /// pair-wise consistency test (a hardware or memory fault, never an input).
    pub fn from_seed(seed: &[u8; SEED_SIZE]) -> Self {
        let mut xof = Shake256::default();
        xof.update(seed);
        let mut reader = xof.finalize_xof();
        let mut d_z = Zeroizing::new([0u8; 64]);
        let mut sk_x = Zeroizing::new([0u8; X25519_SIZE]);
        reader.read(d_z.as_mut());
        reader.read(sk_x.as_mut());

        let sk_m = mlkem::DecapsulationKey::from_seed(&d_z);
        let pk_x = x25519::public(&sk_x);
        let mut ek = EncapsulationKey {
            pk_m: sk_m.encapsulation_key().clone(),
            bytes: [0; ENCAPSULATION_KEY_SIZE],
        };
        ek.bytes[..EK_M].copy_from_slice(sk_m.encapsulation_key().as_bytes());
        ek.bytes[EK_M..].copy_from_slice(&pk_x);
        Self {
            seed: *seed,
            sk_m,
            sk_x: *sk_x,
            ek,
        }
    }

    /// [`Self::from_seed`] on a byte slice (the HPKE `DeserializePrivateKey`,
    /// §5.6, is the identity on the 32-byte seed).
    ///
    /// # Errors
    /// [`Error::Length`] unless `bytes` has 32 bytes.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_length(Object::DecapsulationKey, SEED_SIZE, bytes.len())?;
        let mut seed = Zeroizing::new([0u8; SEED_SIZE]);
        seed.copy_from_slice(bytes);
        Ok(Self::from_seed(&seed))
    }

    /// [`Self::from_seed`] under the name every key type has.
    pub fn from_array(seed: &[u8; SEED_SIZE]) -> Self {
        Self::from_seed(seed)
    }

    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// The decapsulation key as sent between implementations: the 32-byte seed.
    pub fn as_bytes(&self) -> &[u8; SEED_SIZE] {
        &self.seed
    }

    /// The matching encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey {
        &self.ek
    }

    /// `Decapsulate(ct, sk)` (§5.5): never fails. A ciphertext that was not
    /// made for this key gives an unrelated, deterministic secret (ML-KEM's
    /// implicit rejection, FIPS 203 Algorithm 18, under the combiner).
    /// An all-zero `ss_X` is not checked (X-Wing does not require it).
    pub fn decapsulate(&self, ct: &Ciphertext) -> SharedSecret {
        let mut ct_m = [0u8; CT_M];
        let mut ct_x = [0u8; X25519_SIZE];
        ct_m.copy_from_slice(&ct.0[..CT_M]);
        ct_x.copy_from_slice(&ct.0[CT_M..]);
        let ss_m = self.sk_m.decapsulate(&mlkem::Ciphertext::from_array(&ct_m));
        let ss_x = x25519::dh(&self.sk_x, &ct_x);
        combiner(&ss_m, &ss_x, &ct_x, &self.ek.pk_x())
    }
}

impl ConstantTimeEq for DecapsulationKey {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.seed.ct_eq(&other.seed)
    }
}

impl PartialEq for DecapsulationKey {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for DecapsulationKey {}

impl fmt::Debug for DecapsulationKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("xwing::DecapsulationKey")
            .field("ek", &self.ek)
            .finish_non_exhaustive()
    }
}

impl Zeroize for DecapsulationKey {
    fn zeroize(&mut self) {
        self.seed.zeroize();
        self.sk_x.zeroize();
        self.sk_m.zeroize();
    }
}

impl Drop for DecapsulationKey {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for DecapsulationKey {}

/// An X-Wing ciphertext `ct_M ‖ ct_X`, 1120 bytes. Any 1120 bytes are a
/// valid ciphertext.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Ciphertext([u8; CIPHERTEXT_SIZE]);

impl Ciphertext {
    /// Wraps ciphertext bytes.
    ///
    /// # Errors
    /// [`Error::Length`] unless `bytes` has 1120 bytes.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_length(Object::Ciphertext, CIPHERTEXT_SIZE, bytes.len())?;
        let mut ct = Self([0; CIPHERTEXT_SIZE]);
        ct.0.copy_from_slice(bytes);
        Ok(ct)
    }

    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// Wraps a ciphertext array (infallible).
    pub fn from_array(bytes: &[u8; CIPHERTEXT_SIZE]) -> Self {
        Self(*bytes)
    }

    /// The ciphertext bytes.
    pub fn as_bytes(&self) -> &[u8; CIPHERTEXT_SIZE] {
        &self.0
    }
}

impl fmt::Debug for Ciphertext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("xwing::Ciphertext")
            .field(&HexPrefix(&self.0))
            .finish()
    }
}

/// `Combiner(ss_M, ss_X, ct_X, pk_X)` (§5.3):
/// `SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ XWingLabel)`, the label last
/// (drafts up to -04 hashed it first, and so do BouncyCastle releases before 1.81).
fn combiner(
    ss_m: &SharedSecret,
    ss_x: &[u8; X25519_SIZE],
    ct_x: &[u8; X25519_SIZE],
    pk_x: &[u8; X25519_SIZE],
) -> SharedSecret {
    SharedSecret::new_with(|out| {
        let mut h = Sha3_256::new();
        Digest::update(&mut h, ss_m.as_bytes());
        Digest::update(&mut h, ss_x);
        Digest::update(&mut h, ct_x);
        Digest::update(&mut h, pk_x);
        Digest::update(&mut h, LABEL);
        h.finalize_into(out.into());
    })
}

/// `GenerateKeyPair()` (§5.2): draws the 32-byte seed from `rng` (one call).
///
/// # Panics
/// With `pqdr-mlkem`'s feature `self-test`, on a failed pair-wise
/// consistency test (a hardware or memory fault, never an input).
pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> (DecapsulationKey, EncapsulationKey) {
    let Ok(out) = try_generate(rng);
    out
}

/// [`generate`] with a fallible RNG.
///
/// # Errors
/// The RNG's error, if it fails.
///
/// # Panics
/// As [`generate`].
pub fn try_generate<R: TryCryptoRng + ?Sized>(
    rng: &mut R,
) -> Result<(DecapsulationKey, EncapsulationKey), R::Error> {
    let mut seed = Zeroizing::new([0u8; SEED_SIZE]);
    rng.try_fill_bytes(seed.as_mut())?;
    Ok(generate_from_seed(&seed))
}

/// `GenerateKeyPairDerand(sk)` (§5.2.1): the key pair of the 32-byte seed.
///
/// # Panics
/// As [`generate`].
pub fn generate_from_seed(seed: &[u8; SEED_SIZE]) -> (DecapsulationKey, EncapsulationKey) {
    let dk = DecapsulationKey::from_seed(seed);
    let ek = dk.encapsulation_key().clone();
    (dk, ek)
}
