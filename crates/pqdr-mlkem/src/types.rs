//! The public key, ciphertext and shared-secret types, generic over the
//! parameter set, and the randomized entry points `ML-KEM.KeyGen`
//! (Algorithm 19) and `ML-KEM.Encaps` (Algorithm 20).

use core::fmt;

use rand_core::{CryptoRng, TryCryptoRng};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, Object, check_key, check_length};
use crate::kem;
use crate::params::{ByteArray, ParameterSet};
use pqdr_common::ct::bytes_eq;

/// The 32-byte shared secret (FIPS 203: `K`), shared by the pqdr KEM crates.
pub use pqdr_common::{SHARED_SECRET_SIZE, SharedSecret};

#[cfg(feature = "self-test")]
pub(crate) mod pct;

/// Size of a decapsulation-key seed `d ‖ z` in bytes.
pub const SEED_SIZE: usize = 64;

/// Prints the first bytes of a public value in hex.
struct HexPrefix<'a>(&'a [u8]);

impl fmt::Debug for HexPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0.iter().take(8) {
            write!(f, "{b:02x}")?;
        }
        if self.0.len() > 8 {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// An ML-KEM encapsulation (public) key `ek`, `384k + 32` bytes, checked on
/// parsing (FIPS 203 §7.2). Caches `H(ek)`.
#[derive(Clone)]
pub struct EncapsulationKey<P: ParameterSet> {
    bytes: P::EncapsulationKeyBytes,
    h: [u8; 32],
}

impl<P: ParameterSet> EncapsulationKey<P> {
    /// Parses an encapsulation key and runs the checks of FIPS 203 §7.2:
    /// the length, and the modulus check (every 12-bit coefficient is
    /// below `q`).
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` has the wrong length, [`Error::InvalidKey`]
    /// if it fails the modulus check.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_key(
            Object::EncapsulationKey,
            P::EncapsulationKeyBytes::LEN,
            bytes,
            kem::ek_modulus_check::<P>,
        )?;
        let mut key = Self {
            bytes: P::EncapsulationKeyBytes::zeroed(),
            h: [0; 32],
        };
        key.bytes.as_mut().copy_from_slice(bytes);
        crate::hash::h(bytes, &mut key.h);
        Ok(key)
    }

    /// [`Self::from_slice`] of an array: the length is right by type, the
    /// FIPS 203 §7.2 modulus check still runs.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] if `bytes` fails the modulus check.
    pub fn from_array(bytes: &P::EncapsulationKeyBytes) -> Result<Self, Error> {
        Self::from_slice(bytes.as_ref())
    }

    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// The encoded key (`384k + 32` bytes).
    pub fn as_bytes(&self) -> &P::EncapsulationKeyBytes {
        &self.bytes
    }

    /// `H(ek)`, the SHA3-256 hash of the encoded key.
    pub fn hash(&self) -> &[u8; 32] {
        &self.h
    }

    /// `ML-KEM.Encaps` (FIPS 203 Algorithm 20): draws the 32-byte `m` from
    /// `rng` (one call) and encapsulates.
    pub fn encapsulate<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Ciphertext<P>, SharedSecret) {
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
    ) -> Result<(Ciphertext<P>, SharedSecret), R::Error> {
        let mut m = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(m.as_mut())?;
        Ok(self.encapsulate_deterministic(&m))
    }

    /// `ML-KEM.Encaps_internal(ek, m)` (FIPS 203 Algorithm 17): deterministic
    /// encapsulation with the given 32 random bytes `m`. For known-answer
    /// tests; `m` must be fresh randomness otherwise.
    pub fn encapsulate_deterministic(&self, m: &[u8; 32]) -> (Ciphertext<P>, SharedSecret) {
        let mut ct = Ciphertext::<P> {
            bytes: P::CiphertextBytes::zeroed(),
        };
        let ss = SharedSecret::new_with(|ss| {
            kem::encaps_internal::<P>(self.bytes.as_ref(), &self.h, m, ct.bytes.as_mut(), ss);
        });
        (ct, ss)
    }
}

/// `ConstantTimeEq` on the encoded key bytes, and `PartialEq` / `Eq` through it.
macro_rules! ct_eq_on_bytes {
    ($key:ident) => {
        impl<P: ParameterSet> ConstantTimeEq for $key<P> {
            fn ct_eq(&self, other: &Self) -> Choice {
                bytes_eq(self.bytes.as_ref(), other.bytes.as_ref())
            }
        }

        impl<P: ParameterSet> PartialEq for $key<P> {
            fn eq(&self, other: &Self) -> bool {
                self.ct_eq(other).into()
            }
        }

        impl<P: ParameterSet> Eq for $key<P> {}
    };
}

ct_eq_on_bytes!(EncapsulationKey);

impl<P: ParameterSet> core::hash::Hash for EncapsulationKey<P> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl<P: ParameterSet> fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncapsulationKey")
            .field("parameter_set", &P::NAME)
            .field("h", &HexPrefix(&self.h))
            .finish_non_exhaustive()
    }
}

/// An ML-KEM decapsulation (private) key: the expanded form
/// `dk_PKE ‖ ek ‖ H(ek) ‖ z` (`768k + 96` bytes), plus the seed `d ‖ z` when
/// the key was generated here or loaded from a seed.
///
/// Zeroized on drop; no `Debug` output of secret parts; constant-time equality.
#[derive(Clone)]
pub struct DecapsulationKey<P: ParameterSet> {
    bytes: P::DecapsulationKeyBytes,
    ek: EncapsulationKey<P>,
    seed: Option<[u8; SEED_SIZE]>,
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// An all-zero key, filled in place (by [`Self::fill_from_d_z`] or
    /// [`Self::from_slice`]) so that the large byte arrays are written
    /// straight into the caller's return slot.
    fn empty() -> Self {
        Self {
            bytes: P::DecapsulationKeyBytes::zeroed(),
            ek: EncapsulationKey {
                bytes: P::EncapsulationKeyBytes::zeroed(),
                h: [0; 32],
            },
            seed: None,
        }
    }

    /// `ML-KEM.KeyGen_internal(d, z)` (FIPS 203 Algorithm 16) into `self`.
    /// Not inlined: its temporaries get their own frame, which is gone
    /// before the caller copies anything out of the key.
    #[inline(never)]
    fn fill_from_d_z(&mut self, d: &[u8], z: &[u8]) {
        let seed = self.seed.insert([0u8; SEED_SIZE]);
        seed[..32].copy_from_slice(d);
        seed[32..].copy_from_slice(z);
        kem::keygen_internal::<P>(d, z, self.bytes.as_mut());
        self.copy_ek_out();
    }

    /// Fills `self.ek` from the `ek ‖ H(ek)` part of the expanded key.
    fn copy_ek_out(&mut self) {
        let parts = kem::dk_parts::<P>(self.bytes.as_ref());
        self.ek.bytes.as_mut().copy_from_slice(parts.ek);
        self.ek.h.copy_from_slice(parts.h);
    }

    /// The key generated from the 64-byte seed `d ‖ z` (FIPS 203 Algorithm 16
    /// with `d = seed[0..32]`, `z = seed[32..64]`).
    ///
    /// # Panics
    /// With the feature `self-test`, if the new key fails its pair-wise
    /// consistency test (`self_test::pairwise_consistency`). That
    /// can only be a hardware or memory fault, never an input.
    pub fn from_seed(seed: &[u8; SEED_SIZE]) -> Self {
        let (d, z) = seed.split_at(32);
        let mut dk = Self::empty();
        dk.fill_from_d_z(d, z);
        #[cfg(feature = "self-test")]
        pct::assert_pairwise_consistent(&dk, &dk.ek);
        dk
    }

    /// Replaces this key, in place, with the key generated from the 64-byte
    /// seed `d ‖ z` (the same key as [`Self::from_seed`]).
    ///
    /// For small stacks: [`Self::from_seed`] returns the key by value, and
    /// the compiler builds it in a temporary (3.7 KB for ML-KEM-768) before
    /// moving it out; here the key's own storage (e.g. a `static`) is filled
    /// directly, as pqm4's `crypto_kem_keypair` fills the caller's buffers.
    ///
    /// # Panics
    /// With the feature `self-test`, if the new key fails its pair-wise
    /// consistency test (a hardware or memory fault, never an input).
    pub fn fill_from_seed(&mut self, seed: &[u8; SEED_SIZE]) {
        let (d, z) = seed.split_at(32);
        self.fill_from_d_z(d, z);
        #[cfg(feature = "self-test")]
        pct::assert_pairwise_consistent(self, &self.ek);
    }

    /// Parses an expanded decapsulation key (`768k + 96` bytes) and runs the
    /// checks of FIPS 203 §7.3: the length, and the hash check (the stored
    /// `H(ek)` matches the embedded `ek`). The embedded `ek` must also pass
    /// the §7.2 modulus check. The seed is not recoverable from this form.
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` has the wrong length, [`Error::InvalidKey`]
    /// if it fails the hash check or the embedded `ek` the modulus check.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_key(
            Object::DecapsulationKey,
            P::DecapsulationKeyBytes::LEN,
            bytes,
            kem::dk_check::<P>,
        )?;
        let mut dk = Self::empty();
        dk.bytes.as_mut().copy_from_slice(bytes);
        dk.copy_ek_out();
        Ok(dk)
    }

    /// [`Self::from_slice`] of an array: the length is right by type, the
    /// FIPS 203 §7.3 hash check and §7.2 modulus check still run.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] if `bytes` fails either check.
    pub fn from_array(bytes: &P::DecapsulationKeyBytes) -> Result<Self, Error> {
        Self::from_slice(bytes.as_ref())
    }

    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// The expanded key `dk_PKE ‖ ek ‖ H(ek) ‖ z` (`768k + 96` bytes).
    pub fn as_bytes(&self) -> &P::DecapsulationKeyBytes {
        &self.bytes
    }

    /// The seed `d ‖ z`, if this key was generated or loaded from one
    /// (`None` after [`Self::from_slice`]). The copy is [`Zeroizing`]: it is
    /// wiped when the caller drops it.
    pub fn to_seed(&self) -> Option<Zeroizing<[u8; SEED_SIZE]>> {
        self.seed.as_ref().map(|s| Zeroizing::new(*s))
    }

    /// The matching encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }

    /// `ML-KEM.Decaps` (FIPS 203 Algorithm 21, which runs Algorithm 18):
    /// never fails. A ciphertext that was not produced for this key gives
    /// a pseudorandom "implicit rejection" key `J(z ‖ c)`.
    pub fn decapsulate(&self, ct: &Ciphertext<P>) -> SharedSecret {
        SharedSecret::new_with(|ss| {
            kem::decaps_internal::<P>(self.bytes.as_ref(), ct.bytes.as_ref(), ss);
        })
    }
}

ct_eq_on_bytes!(DecapsulationKey);

impl<P: ParameterSet> fmt::Debug for DecapsulationKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecapsulationKey")
            .field("ek", &self.ek)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> Zeroize for DecapsulationKey<P> {
    fn zeroize(&mut self) {
        self.bytes.zeroize();
        self.seed.zeroize();
    }
}

impl<P: ParameterSet> Drop for DecapsulationKey<P> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<P: ParameterSet> ZeroizeOnDrop for DecapsulationKey<P> {}

/// An ML-KEM ciphertext, `32(d_u k + d_v)` bytes. Any byte string of the
/// right length is a valid ciphertext (FIPS 203 §7.3 check 1 is the length).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Ciphertext<P: ParameterSet> {
    pub(crate) bytes: P::CiphertextBytes,
}

impl<P: ParameterSet> Ciphertext<P> {
    /// Wraps ciphertext bytes.
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` does not have the ciphertext length.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_length(Object::Ciphertext, P::CiphertextBytes::LEN, bytes.len())?;
        let mut ct = Self {
            bytes: P::CiphertextBytes::zeroed(),
        };
        ct.bytes.as_mut().copy_from_slice(bytes);
        Ok(ct)
    }

    /// Wraps a ciphertext array (infallible).
    pub fn from_array(bytes: &P::CiphertextBytes) -> Self {
        Self { bytes: *bytes }
    }

    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// The ciphertext bytes.
    pub fn as_bytes(&self) -> &P::CiphertextBytes {
        &self.bytes
    }
}

impl<P: ParameterSet> fmt::Debug for Ciphertext<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ciphertext")
            .field("parameter_set", &P::NAME)
            .field("bytes", &HexPrefix(self.bytes.as_ref()))
            .finish()
    }
}

/// `ML-KEM.KeyGen` (FIPS 203 Algorithm 19): draws `d ‖ z` from `rng` in one
/// 64-byte call (`d` first) and generates a key pair.
///
/// # Panics
/// With the feature `self-test`, if the new pair fails its pair-wise
/// consistency test (`self_test::pairwise_consistency`): only a
/// hardware or memory fault can cause that, never an input.
pub fn generate<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    let Ok(out) = try_generate(rng);
    out
}

/// [`generate`] with a fallible RNG.
///
/// # Errors
/// The RNG's error, if it fails.
///
/// # Panics
/// With the feature `self-test`, if the new pair fails its pair-wise
/// consistency test: the error type is the RNG's, so this fault (hardware
/// or memory, never an input) panics as in [`generate`].
pub fn try_generate<P: ParameterSet, R: TryCryptoRng + ?Sized>(
    rng: &mut R,
) -> Result<(DecapsulationKey<P>, EncapsulationKey<P>), R::Error> {
    let mut seed = Zeroizing::new([0u8; SEED_SIZE]);
    rng.try_fill_bytes(seed.as_mut())?;
    let (d, z) = seed.split_at(32);
    Ok(key_pair(d, z))
}

/// Key generation from `d` and `z`, then (feature `self-test`) the
/// pair-wise consistency test, which panics on a fault.
fn key_pair<P: ParameterSet>(d: &[u8], z: &[u8]) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    key_pair_in_place::<P, true>(d, z)
}

/// Key generation from `d` and `z`, built in place: both keys start zeroed
/// in the returned value and are filled there, so no full-size temporary
/// key is copied into the result. No pair-wise consistency test (the
/// known-answer self-test's key generation).
#[cfg(feature = "self-test")]
pub(crate) fn key_pair_unchecked<P: ParameterSet>(
    d: &[u8],
    z: &[u8],
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    key_pair_in_place::<P, false>(d, z)
}

/// The pair is built in the returned value; filling it and (with `CHECK`
/// and the feature `self-test`) the pair-wise consistency test happen by
/// reference in [`fill_pair`]'s own frame. Testing a local pair and then
/// moving it out cost a second copy of both keys (ML-KEM-768 key generation
/// with `self-test`: 19.9 KB of stack instead of 10 KB).
fn key_pair_in_place<P: ParameterSet, const CHECK: bool>(
    d: &[u8],
    z: &[u8],
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    let mut pair = (
        DecapsulationKey::<P>::empty(),
        EncapsulationKey::<P> {
            bytes: P::EncapsulationKeyBytes::zeroed(),
            h: [0; 32],
        },
    );
    fill_pair::<P, CHECK>(&mut pair, d, z);
    pair
}

/// Fills a zeroed pair from `d` and `z` and, with `CHECK` and the feature
/// `self-test`, runs the pair-wise consistency test on it.
#[inline(never)]
fn fill_pair<P: ParameterSet, const CHECK: bool>(
    pair: &mut (DecapsulationKey<P>, EncapsulationKey<P>),
    d: &[u8],
    z: &[u8],
) {
    pair.0.fill_from_d_z(d, z);
    pair.1
        .bytes
        .as_mut()
        .copy_from_slice(pair.0.ek.bytes.as_ref());
    pair.1.h = pair.0.ek.h;
    #[cfg(feature = "self-test")]
    if CHECK {
        pct::assert_pairwise_consistent(&pair.0, &pair.1);
    }
}

/// `ML-KEM.KeyGen_internal(d, z)` (FIPS 203 Algorithm 16): deterministic key
/// generation from the two 32-byte seeds.
///
/// # Panics
/// With the feature `self-test`, if the new pair fails its pair-wise
/// consistency test: only a hardware or memory fault can cause that.
pub fn generate_deterministic<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    key_pair(d, z)
}
