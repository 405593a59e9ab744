//! Public key, secret key and ciphertext types, generic over the parameter set:
//! the `PublicKeys`, `SecretKeys` and `Ciphertexts` of the KEM (NTRU Prime spec
//! §2.3.5) with key generation (§2.3), `Encap` (§2.3.7) and `Decap` (§2.3.8).

use crate::ct::{Choice, ConstantTimeEq};
use crate::error::{Error, Object, check_length};
use crate::params::{ByteArray, ParameterSet};
use core::fmt;
use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The 32-byte shared secret, one type for the pqdr KEM crates.
pub use pqdr_common::{SHARED_SECRET_SIZE, SharedSecret};

#[cfg(feature = "self-test")]
pub(crate) mod pct;

/// Copies `bytes` into an array of the right length.
///
/// # Errors
/// [`Error::Length`] about `what` if `bytes.len()` is not the array's length.
fn array_from_slice<A: ByteArray>(what: Object, bytes: &[u8]) -> Result<A, Error> {
    A::from_slice(bytes).ok_or(Error::Length {
        what,
        expected: A::LEN,
        actual: bytes.len(),
    })
}

/// A public byte string of one parameter set (an encapsulation key or a
/// ciphertext): the struct, `Clone`, byte-wise `PartialEq` / `Eq` (the bytes
/// are public), `from_slice`, `from_array` and `as_bytes`. Every byte string of the right
/// length is a value: the decoders reduce, as in the reference and the
/// spec's `Decode` (NTRU Prime spec §3.1).
macro_rules! public_bytes_type {
    ($(#[$doc:meta])* $name:ident, $bytes:ident, $object:ident, $what:literal) => {
        $(#[$doc])*
        pub struct $name<S: ParameterSet> {
            bytes: S::$bytes,
        }

        impl<S: ParameterSet> Clone for $name<S> {
            fn clone(&self) -> Self {
                Self { bytes: self.bytes }
            }
        }

        impl<S: ParameterSet> PartialEq for $name<S> {
            fn eq(&self, other: &Self) -> bool {
                self.bytes.as_ref() == other.bytes.as_ref()
            }
        }

        impl<S: ParameterSet> Eq for $name<S> {}

        impl<S: ParameterSet> $name<S> {
            #[doc = concat!("Parses ", $what, ". Every byte string of the right length is ",
                            $what, " (the decoder reduces each coefficient, as in the reference).")]
            ///
            /// # Errors
            /// [`Error::Length`] for a wrong length.
            pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
                Ok(Self {
                    bytes: array_from_slice(Object::$object, bytes)?,
                })
            }

            #[doc = concat!("Wraps ", $what, " array (infallible).")]
            pub fn from_array(bytes: &S::$bytes) -> Self {
                Self { bytes: *bytes }
            }

            /// Renamed `from_slice`.
            ///
            /// # Errors
            /// As `from_slice`.
            #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                Self::from_slice(bytes)
            }

            /// The encoding.
            pub fn as_bytes(&self) -> &S::$bytes {
                &self.bytes
            }
        }
    };
}

/// An encapsulation (public) key: `Rq_encode(h)`. It also keeps
/// `Hash4(pk)` (the `cache` of the secret key format, NTRU Prime spec
/// §2.3.5 `HashConfirm`) and, for sntrup653/761/857, h itself
/// (`Rq_decode(pk)`, §3.1: 2p bytes), both computed once when the key is
/// made or parsed, so that encapsulation neither hashes nor decodes the key
/// again.
pub struct EncapsulationKey<S: ParameterSet> {
    bytes: S::EncapsulationKeyBytes,
    /// `Hash4(bytes)`.
    cache: [u8; crate::kem::HASH_BYTES],
    /// `Rq_decode(bytes)`, or nothing (`ParameterSet::DecodedKey`). Public.
    h: S::DecodedKey,
}

impl<S: ParameterSet> Clone for EncapsulationKey<S> {
    fn clone(&self) -> Self {
        Self {
            bytes: self.bytes,
            cache: self.cache,
            h: self.h,
        }
    }
}

/// Byte-wise (the bytes are public; the cache follows from them).
impl<S: ParameterSet> PartialEq for EncapsulationKey<S> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes.as_ref() == other.bytes.as_ref()
    }
}

impl<S: ParameterSet> Eq for EncapsulationKey<S> {}

impl<S: ParameterSet> EncapsulationKey<S> {
    /// The key with these bytes, its `Hash4` and its decoding.
    fn with_bytes(bytes: S::EncapsulationKeyBytes) -> Self {
        let mut ek = Self {
            bytes,
            cache: crate::kem::hash_cache(bytes.as_ref()),
            h: <S::DecodedKey as crate::params::sealed::Decoded>::ZERO,
        };
        S::decode_key(&ek.bytes, &mut ek.h);
        ek
    }

    /// Parses an encapsulation key. Every byte string of the right length is
    /// an encapsulation key (the decoder reduces each coefficient, as in the reference).
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self::with_bytes(array_from_slice(
            Object::EncapsulationKey,
            bytes,
        )?))
    }

    /// Wraps an encapsulation key array (infallible).
    pub fn from_array(bytes: &S::EncapsulationKeyBytes) -> Self {
        Self::with_bytes(*bytes)
    }

    /// Renamed `from_slice`.
    ///
    /// # Errors
    /// As `from_slice`.
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }

    /// The encoding.
    pub fn as_bytes(&self) -> &S::EncapsulationKeyBytes {
        &self.bytes
    }
}

public_bytes_type!(
    /// A ciphertext: `Rounded_encode(c) ‖ HashConfirm(r, pk)`.
    Ciphertext, CiphertextBytes, Ciphertext, "a ciphertext"
);

impl<S: ParameterSet> fmt::Debug for EncapsulationKey<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.bytes.as_ref();
        write!(f, "EncapsulationKey<{}>(", S::NAME)?;
        for x in &b[..8] {
            write!(f, "{x:02x}")?;
        }
        write!(f, "…)")
    }
}

impl<S: ParameterSet> EncapsulationKey<S> {
    /// A fresh ciphertext and the shared secret `fill` writes into the
    /// secret's own storage.
    fn encapsulate_with<E>(
        &self,
        fill: impl FnOnce(
            crate::params::EncapKey<'_, S>,
            &mut S::CiphertextBytes,
            &mut [u8; SHARED_SECRET_SIZE],
        ) -> Result<(), E>,
    ) -> Result<(Ciphertext<S>, SharedSecret), E> {
        let mut out = (
            Ciphertext {
                bytes: S::CiphertextBytes::zeroed(),
            },
            SharedSecret::from([0; SHARED_SECRET_SIZE]),
        );
        let pk = (&self.bytes, &self.h, &self.cache);
        out.1 = SharedSecret::try_new_with(|ss| fill(pk, &mut out.0.bytes, ss))?;
        Ok(out)
    }

    /// `Encap` (NTRU Prime spec §2.3.7): a fresh ciphertext and its shared
    /// secret. `Short_random(r)` draws its p 32-bit words (little endian)
    /// with **one** 4p-byte `fill_bytes` call, as PQClean, liboqs and the
    /// `sntrup` crate do.
    ///
    /// Behaviour change (issue #31): this drew each word with its own 4-byte
    /// call, as the round-3 reference code does; that is now
    /// [`Self::encapsulate_reference`]. For an RNG that yields one byte stream
    /// however it is called (ChaCha, `StdRng`, an XOF) both give the same
    /// ciphertext and secret; they differ for one that works per call, such
    /// as the NIST DRBG of the KAT files: this one reproduces PQClean's and
    /// liboqs's files (with [`DecapsulationKey::generate_pqclean`]), the
    /// reference one the official files (with [`DecapsulationKey::generate`]).
    pub fn encapsulate<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Ciphertext<S>, SharedSecret) {
        let Ok(out) = self.try_encapsulate(rng);
        out
    }

    /// [`Self::encapsulate`] with a fallible RNG (one 4p-byte draw).
    ///
    /// # Errors
    /// The RNG failed.
    pub fn try_encapsulate<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Ciphertext<S>, SharedSecret), R::Error> {
        self.encapsulate_with(|pk, ct, ss| S::encap::<R, true>(rng, pk, ct, ss))
    }

    /// [`Self::encapsulate`] with the round-3 reference code's draw pattern:
    /// each of r's p random words is its own 4-byte `fill_bytes` call
    /// (`urandom32`). With the NIST DRBG and [`DecapsulationKey::generate`]
    /// this reproduces the official KAT files (`tests/kat.rs`, `katkem`).
    /// Same distribution, same ciphertext format; slower (p RNG calls).
    pub fn encapsulate_reference<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> (Ciphertext<S>, SharedSecret) {
        let Ok(out) = self.encapsulate_with(|pk, ct, ss| S::encap::<R, false>(rng, pk, ct, ss));
        out
    }

    /// The same as [`Self::encapsulate`] (one 4p-byte draw, PQClean's and
    /// liboqs's pattern), kept under this name since `encapsulate` drew as
    /// the reference code did ([`Self::encapsulate_reference`]).
    pub fn encapsulate_pqclean<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> (Ciphertext<S>, SharedSecret) {
        self.encapsulate(rng)
    }

    /// `Encap` (NTRU Prime spec §2.3.7) for a caller-chosen input: `r_enc` is `Small_encode(r)` of a short
    /// polynomial r (weight w, coefficients in {-1, 0, 1}).
    ///
    /// # Errors
    /// [`Error::InvalidInput`] if `r_enc` is not the encoding of a weight-w polynomial.
    pub fn encapsulate_deterministic(
        &self,
        r_enc: &S::InputBytes,
    ) -> Result<(Ciphertext<S>, SharedSecret), Error> {
        self.encapsulate_with(|pk, ct, ss| {
            S::encap_deterministic(r_enc, pk, ct, ss).ok_or(Error::InvalidInput)
        })
    }
}

/// A decapsulation (secret) key: `Small_encode(f) ‖ Small_encode(1/g) ‖ pk ‖ rho ‖ Hash4(pk)`.
/// It also keeps `Hash3(rho)` (32 bytes, secret; the implicit-rejection
/// input of NTRU Prime spec §2.3.8), computed once when the key is made or
/// parsed, so that decapsulation does not hash rho again (two SHA-512
/// blocks or more).
pub struct DecapsulationKey<S: ParameterSet> {
    bytes: S::DecapsulationKeyBytes,
    ek: EncapsulationKey<S>,
    /// `Hash3(rho)` of `bytes` (`kem::hash3_rho`).
    h3_rho: [u8; crate::kem::HASH_BYTES],
}

impl<S: ParameterSet> DecapsulationKey<S> {
    /// An all-zero key, to be filled in place. The secret bytes are written
    /// only into this value, which wipes itself on drop, so an early return
    /// (an RNG error, an invalid key) leaves no unwiped copy behind. Not
    /// inlined, so that it writes straight into the caller's place for the
    /// key (inlined into `generate_with`, LLVM zeroed a temporary key there
    /// and copied it in: sntrup761 keygen 4.5 KB more peak stack).
    #[inline(never)]
    fn zeroed() -> Self {
        DecapsulationKey {
            bytes: S::DecapsulationKeyBytes::zeroed(),
            ek: EncapsulationKey {
                bytes: S::EncapsulationKeyBytes::zeroed(),
                cache: [0; crate::kem::HASH_BYTES],
                h: <S::DecodedKey as crate::params::sealed::Decoded>::ZERO,
            },
            h3_rho: [0; crate::kem::HASH_BYTES],
        }
    }

    /// A key pair from the encodings `fill` writes. Never inlined, so that
    /// key generation's working buffers leave the stack before the pair-wise
    /// consistency test runs (BENCHMARKS.md, peak stack with `self-test`).
    #[inline(never)]
    fn generate_with<E>(
        fill: impl FnOnce(&mut S::EncapsulationKeyBytes, &mut S::DecapsulationKeyBytes) -> Result<(), E>,
    ) -> Result<(Self, EncapsulationKey<S>), E> {
        // `fill` writes into the pair itself (no separate key buffer copied in
        // afterwards). On an error, dropping the pair wipes the partly written secret key.
        let mut pair = (
            Self::zeroed(),
            EncapsulationKey {
                bytes: S::EncapsulationKeyBytes::zeroed(),
                cache: [0; crate::kem::HASH_BYTES],
                h: <S::DecodedKey as crate::params::sealed::Decoded>::ZERO,
            },
        );
        fill(&mut pair.1.bytes, &mut pair.0.bytes)?;
        // Hash4(pk) is the secret key's last field. Field by field, in place
        // (`pair.0.ek = pair.1.clone()` kept a temporary copy of the key in this frame).
        let (dk, ek) = (&mut pair.0, &mut pair.1);
        let sk = dk.bytes.as_ref();
        ek.cache
            .copy_from_slice(&sk[sk.len() - crate::kem::HASH_BYTES..]);
        dk.ek.cache = ek.cache;
        let src = AsRef::<[u8]>::as_ref(&ek.bytes);
        AsMut::<[u8]>::as_mut(&mut dk.ek.bytes).copy_from_slice(src);
        S::decode_key(&ek.bytes, &mut ek.h);
        dk.ek.h = ek.h;
        S::hash3_rho(&dk.bytes, &mut dk.h3_rho);
        Ok(pair)
    }

    /// `KEM_KeyGen` (NTRU Prime spec §2.3, key generation) with randomness in the reference order: p
    /// 4-byte draws for `Small_random(g)` (again while g is not invertible in
    /// R/3), p 4-byte draws for `Short_random(f)`, one `Small_bytes` draw for rho.
    ///
    /// # Panics
    /// With the feature `self-test`, if the new pair fails its pair-wise
    /// consistency test (`self_test::pairwise_consistency`): only a hardware
    /// or memory fault can cause that, never an input.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self, EncapsulationKey<S>) {
        let Ok(out) = Self::try_generate(rng);
        out
    }

    /// [`Self::generate`] with a fallible RNG.
    ///
    /// # Errors
    /// The RNG failed.
    ///
    /// # Panics
    /// With the feature `self-test`, if the new pair fails its pair-wise
    /// consistency test: the error type is the RNG's, so this fault
    /// (hardware or memory, never an input) panics as in [`Self::generate`].
    pub fn try_generate<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
    ) -> Result<(Self, EncapsulationKey<S>), R::Error> {
        let pair = Self::generate_with(|pk, sk| S::keypair::<R, false>(rng, pk, sk))?;
        #[cfg(feature = "self-test")]
        pct::assert_pairwise_consistent(&pair.0, &pair.1);
        Ok(pair)
    }

    /// [`Self::generate`] drawing each polynomial's p random words with **one**
    /// 4p-byte `fill_bytes` call, as PQClean and liboqs do (so a NIST DRBG
    /// reproduces their KAT files instead of the official ones).
    ///
    /// # Panics
    /// With the feature `self-test`, as [`Self::generate`].
    pub fn generate_pqclean<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self, EncapsulationKey<S>) {
        let Ok(pair) = Self::generate_with(|pk, sk| S::keypair::<R, true>(rng, pk, sk));
        #[cfg(feature = "self-test")]
        pct::assert_pairwise_consistent(&pair.0, &pair.1);
        pair
    }

    /// `KEM_KeyGen` (NTRU Prime spec §2.3, key generation) from explicit inputs: `f_enc = Small_encode(f)` for a short
    /// f, `g_enc = Small_encode(g)` for a g invertible in R/3, and `rho`.
    ///
    /// # Errors
    /// [`Error::InvalidInput`] if `f_enc` or `g_enc` is not a valid small
    /// encoding, f does not have weight w, or g is not invertible in R/3.
    /// With the feature `self-test`, [`Error::PairwiseConsistency`] if the
    /// new pair fails its pair-wise consistency test (a hardware or memory
    /// fault, never an input).
    pub fn generate_deterministic(
        f_enc: &S::InputBytes,
        g_enc: &S::InputBytes,
        rho: &S::InputBytes,
    ) -> Result<(Self, EncapsulationKey<S>), Error> {
        let pair = Self::generate_deterministic_unchecked(f_enc, g_enc, rho)?;
        #[cfg(feature = "self-test")]
        pct::pairwise_consistency(&pair.0, &pair.1)?;
        Ok(pair)
    }

    /// [`Self::generate_deterministic`] without the pair-wise consistency test.
    pub(crate) fn generate_deterministic_unchecked(
        f_enc: &S::InputBytes,
        g_enc: &S::InputBytes,
        rho: &S::InputBytes,
    ) -> Result<(Self, EncapsulationKey<S>), Error> {
        Self::generate_with(|pk, sk| {
            S::keypair_deterministic(f_enc, g_enc, rho, pk, sk).ok_or(Error::InvalidInput)
        })
    }

    /// Parses a secret key.
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length; [`Error::InvalidKey`] for an
    /// invalid `Small_encode` string for f or 1/g, or a `Hash4(pk)` field
    /// that does not match the embedded public key.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_length(
            Object::DecapsulationKey,
            <S::DecapsulationKeyBytes as ByteArray>::LEN,
            bytes.len(),
        )?;
        // The copy lives only inside `dk`: the early returns below drop (wipe) it.
        let mut dk = Self::zeroed();
        dk.bytes.as_mut().copy_from_slice(bytes);
        if !S::sk_valid(&dk.bytes) {
            return Err(Error::InvalidKey);
        }
        let pk_at = 2 * S::P.div_ceil(4);
        let pk_len = size_of::<S::EncapsulationKeyBytes>();
        let sk = dk.bytes.as_ref();
        // sk_valid checked that the secret key's cache is Hash4(pk).
        let mut cache = [0; crate::kem::HASH_BYTES];
        cache.copy_from_slice(&sk[sk.len() - crate::kem::HASH_BYTES..]);
        dk.ek.bytes = array_from_slice(Object::EncapsulationKey, &sk[pk_at..pk_at + pk_len])?;
        dk.ek.cache = cache;
        S::decode_key(&dk.ek.bytes, &mut dk.ek.h);
        S::hash3_rho(&dk.bytes, &mut dk.h3_rho);
        Ok(dk)
    }

    /// [`Self::from_slice`] of an array: the length is right by type, the
    /// key-decoding checks still run.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] as [`Self::from_slice`].
    pub fn from_array(bytes: &S::DecapsulationKeyBytes) -> Result<Self, Error> {
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

    /// The encoding (the reference `sk` format).
    pub fn as_bytes(&self) -> &S::DecapsulationKeyBytes {
        &self.bytes
    }

    /// The matching encapsulation key (stored inside the secret key).
    pub fn encapsulation_key(&self) -> &EncapsulationKey<S> {
        &self.ek
    }

    /// `Decap` (NTRU Prime spec §2.3.8). Never fails: a ciphertext that does not re-encrypt
    /// to itself yields the implicit-rejection key `Hash0(Hash3(rho) ‖ ct)`.
    pub fn decapsulate(&self, ct: &Ciphertext<S>) -> SharedSecret {
        SharedSecret::new_with(|ss| {
            S::decap(&ct.bytes, &self.bytes, (&self.ek.h, &self.h3_rho), ss)
        })
    }

    /// A copy of this key with the transforms of f, 1/g and h computed once
    /// and kept, for faster decapsulation (opt-in; see
    /// [`PreparedDecapsulationKey`]: 16–26 KB larger, by set).
    pub fn prepare(&self) -> PreparedDecapsulationKey<S> {
        let mut prepared = PreparedDecapsulationKey {
            key: self.clone(),
            hats: <S::PreparedHats as crate::params::sealed::Prepared>::ZERO,
            ready: false,
        };
        prepared.ready = S::prepare(&self.bytes, &mut prepared.hats);
        prepared
    }
}

/// A decapsulation key with the transforms of its polynomials kept
/// ([`DecapsulationKey::prepare`]): with AVX2, each decapsulation skips the
/// forward transforms of f, 1/g and h and the `Decode` of the public key
/// (about −16 % instructions for sntrup761, −19 % for sntrup1277,
/// BENCHMARKS.md). The price is size: the 512-point parts of f and h (two
/// primes) and 1/g (one), in blocks of 1024 i16 values (2,048 bytes): 8
/// blocks (16,384 bytes) beside the key for sntrup653/761, 10 (20,480) for
/// sntrup857/953/1013, 13 (26,624) for sntrup1277, so the type is opt-in
/// and the default key stays small. Without AVX2 it saves nothing (built
/// without the feature `simd` it holds no blocks). The shared secret is
/// always the same as the plain key's. The transforms are secret (they
/// determine f and 1/g): they are wiped on drop and never printed.
pub struct PreparedDecapsulationKey<S: ParameterSet> {
    key: DecapsulationKey<S>,
    hats: S::PreparedHats,
    ready: bool,
}

impl<S: ParameterSet> PreparedDecapsulationKey<S> {
    /// `Decap` (NTRU Prime spec §2.3.8) with the kept transforms; the same
    /// result as [`DecapsulationKey::decapsulate`].
    pub fn decapsulate(&self, ct: &Ciphertext<S>) -> SharedSecret {
        let hats = self.ready.then_some(&self.hats);
        SharedSecret::new_with(|ss| {
            S::decap_prepared(&ct.bytes, &self.key.bytes, hats, &self.key.h3_rho, ss)
        })
    }

    /// The decapsulation key this was prepared from.
    pub fn key(&self) -> &DecapsulationKey<S> {
        &self.key
    }
}

impl<S: ParameterSet> fmt::Debug for PreparedDecapsulationKey<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PreparedDecapsulationKey")
            .field("ek", &self.key.ek)
            .finish_non_exhaustive()
    }
}

impl<S: ParameterSet> Drop for PreparedDecapsulationKey<S> {
    fn drop(&mut self) {
        self.hats
            .as_mut()
            .as_flattened_mut()
            .as_flattened_mut()
            .zeroize();
    }
}

impl<S: ParameterSet> ZeroizeOnDrop for PreparedDecapsulationKey<S> {}

impl<S: ParameterSet> Clone for DecapsulationKey<S> {
    fn clone(&self) -> Self {
        DecapsulationKey {
            bytes: self.bytes,
            ek: self.ek.clone(),
            h3_rho: self.h3_rho,
        }
    }
}

impl<S: ParameterSet> fmt::Debug for DecapsulationKey<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecapsulationKey")
            .field("ek", &self.ek)
            .finish_non_exhaustive()
    }
}

impl<S: ParameterSet> ConstantTimeEq for DecapsulationKey<S> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.bytes.as_ref().ct_eq(other.bytes.as_ref())
    }
}

impl<S: ParameterSet> PartialEq for DecapsulationKey<S> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl<S: ParameterSet> Eq for DecapsulationKey<S> {}

impl<S: ParameterSet> Zeroize for DecapsulationKey<S> {
    fn zeroize(&mut self) {
        self.bytes.zeroize();
        self.h3_rho.zeroize();
    }
}

impl<S: ParameterSet> Drop for DecapsulationKey<S> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<S: ParameterSet> ZeroizeOnDrop for DecapsulationKey<S> {}

impl<S: ParameterSet> Ciphertext<S> {
    /// Renamed `from_array` (which takes the array by reference).
    #[deprecated(since = "0.1.0", note = "use `from_array(&bytes)`")]
    pub fn new(bytes: S::CiphertextBytes) -> Self {
        Self::from_array(&bytes)
    }
}

impl<S: ParameterSet> fmt::Debug for Ciphertext<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Ciphertext<{}>({} bytes)",
            S::NAME,
            self.bytes.as_ref().len()
        )
    }
}
