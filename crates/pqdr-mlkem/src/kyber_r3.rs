//! **Legacy:** round-3 CRYSTALS-Kyber (specification v3.02, 2021-08-04;
//! feature `kyber-r3`), for reading and migrating keys and ciphertexts of
//! systems deployed before FIPS 203 (e.g. the `X25519Kyber768Draft00` TLS
//! group). New systems use ML-KEM ([`crate::ml_kem_768`] and its siblings).
//!
//! Kyber512/768/1024 have the parameters of ML-KEM-512/768/1024 (v3.02
//! Table 1 = FIPS 203 Table 2) and the same IND-CPA scheme (v3.02
//! Algorithms 4–6 = FIPS 203 Algorithms 13–15, this crate's K-PKE), except
//! that key generation hashes `G(d)` without the `k` byte. The key, ciphertext
//! and secret-key layouts are identical. What differs is the Fujisaki–Okamoto
//! transform around K-PKE (v3.02 Algorithms 8 and 9):
//!
//! * encapsulation hashes the random coins first, `m ← H(m)`;
//! * `(K̄, r) ← G(m ‖ H(pk))`, and the shared key is
//!   `K ← KDF(K̄ ‖ H(c))` with `KDF` = SHAKE-256, 32 bytes;
//! * decapsulation of a ciphertext that does not re-encrypt to itself gives
//!   `KDF(z ‖ H(c))` (ML-KEM: `J(z ‖ c)`).
//!
//! Keys are parsed with the same checks as ML-KEM keys (length, the FIPS 203
//! §7.2 modulus check, the §7.3 hash check): round 3 did not require them,
//! but every key its key generation makes passes them.
//!
//! ```
//! use pqdr_mlkem::kyber_r3::{DecapsulationKey, Kyber768};
//!
//! // In real use `kyber_r3::generate(&mut rng)` and `ek.encapsulate(&mut rng)`.
//! let dk = DecapsulationKey::<Kyber768>::generate_deterministic(&[1; 32], &[2; 32]);
//! let (ct, ss) = dk.encapsulation_key().encapsulate_deterministic(&[3; 32]);
//! assert_eq!(dk.decapsulate(&ct), ss);
//! ```

use core::fmt;

use rand_core::{CryptoRng, TryCryptoRng};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, Object, check_key};
use crate::hash::{g, h};
use crate::kem::{dk_check, dk_parts, ek_modulus_check, keygen_variant};
use crate::kpke::{self, Write};
use crate::params::{ByteArray, ParameterSet};
use pqdr_common::ct::{Compare, bytes_eq, select};
use pqdr_keccak::Shake256;

pub use crate::{Ciphertext, SHARED_SECRET_SIZE, SharedSecret};

/// Kyber512 (v3.02 Table 1: `k = 2`, `η₁ = 3`, `η₂ = 2`, `d_u = 10`, `d_v = 4`):
/// the parameters of [`crate::MlKem512`], whose marker type it is.
pub type Kyber512 = crate::MlKem512;
/// Kyber768 (v3.02 Table 1: `k = 3`, `η₁ = η₂ = 2`, `d_u = 10`, `d_v = 4`).
pub type Kyber768 = crate::MlKem768;
/// Kyber1024 (v3.02 Table 1: `k = 4`, `η₁ = η₂ = 2`, `d_u = 11`, `d_v = 5`).
pub type Kyber1024 = crate::MlKem1024;

/// `KDF(a ‖ b)` = SHAKE-256 with 32 bytes of output (v3.02 §1.4, "Symmetric
/// primitives").
fn kdf(a: &[u8; 32], b: &[u8; 32], out: &mut [u8; 32]) {
    let mut s = Shake256::with_bmi(crate::arch::keccak_bmi());
    s.absorb(a);
    s.absorb(b);
    s.squeeze(out);
}

/// `Kyber.CCAKEM.Enc(pk)` (v3.02 Algorithm 8) with the 32 random bytes `coins`
/// (line 1): `m ← H(coins)`, `(K̄, r) ← G(m ‖ H(pk))`, `c ← CPAPKE.Enc(pk, m, r)`,
/// `K ← KDF(K̄ ‖ H(c))`.
fn encaps<P: ParameterSet>(
    ek: &[u8],
    h_ek: &[u8; 32],
    coins: &[u8; 32],
    ct: &mut [u8],
    k: &mut [u8; 32],
) {
    let mut m = Zeroizing::new([0u8; 32]);
    h(coins, &mut m);
    let mut k_bar = Zeroizing::new([0u8; 32]);
    let mut r = Zeroizing::new([0u8; 32]);
    g(&[&m[..], h_ek], &mut k_bar, &mut r);
    kpke::encrypt::<P>(ek, &m, &r, &mut Write(ct));
    let mut h_c = [0u8; 32];
    h(ct, &mut h_c);
    kdf(&k_bar, &h_c, k);
}

/// `Kyber.CCAKEM.Dec(c, sk)` (v3.02 Algorithm 9): `m' ← CPAPKE.Dec(s, c)`,
/// `(K̄', r') ← G(m' ‖ h)`, `c' ← CPAPKE.Enc(pk, m', r')`; `K = KDF(K̄' ‖ H(c))`
/// if `c = c'`, else `KDF(z ‖ H(c))`. The comparison and the choice of the
/// KDF's first input are constant time.
fn decaps<P: ParameterSet>(dk: &[u8], c: &[u8], k: &mut [u8; 32]) {
    let parts = dk_parts::<P>(dk);
    let mut m = Zeroizing::new([0u8; 32]);
    kpke::decrypt::<P>(parts.dk_pke, c, &mut m);
    let mut k_bar = Zeroizing::new([0u8; 32]);
    let mut r = Zeroizing::new([0u8; 32]);
    g(&[&m[..], parts.h], &mut k_bar, &mut r);
    let mut cmp = Compare::new(c);
    kpke::encrypt::<P>(parts.ek, &m, &r, &mut cmp);
    let same = cmp.finish();
    let mut z = Zeroizing::new([0u8; 32]);
    z.copy_from_slice(parts.z);
    let mut first = Zeroizing::new([0u8; 32]);
    select(&mut first, &k_bar, &z, same);
    let mut h_c = [0u8; 32];
    h(c, &mut h_c);
    kdf(&first, &h_c, k);
}

/// A round-3 Kyber public key `pk` (`384k + 32` bytes; legacy, see the
/// [module](self) documentation). Caches `H(pk)`.
#[derive(Clone)]
pub struct EncapsulationKey<P: ParameterSet> {
    bytes: P::EncapsulationKeyBytes,
    h: [u8; 32],
}

impl<P: ParameterSet> EncapsulationKey<P> {
    /// Parses a public key: the length and the FIPS 203 §7.2 modulus check.
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length, [`Error::InvalidKey`] if a
    /// 12-bit coefficient is not below `q`.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_key(
            Object::EncapsulationKey,
            P::EncapsulationKeyBytes::LEN,
            bytes,
            ek_modulus_check::<P>,
        )?;
        let mut key = Self {
            bytes: P::EncapsulationKeyBytes::zeroed(),
            h: [0; 32],
        };
        key.bytes.as_mut().copy_from_slice(bytes);
        h(bytes, &mut key.h);
        Ok(key)
    }

    /// The encoded key (`384k + 32` bytes).
    pub fn as_bytes(&self) -> &P::EncapsulationKeyBytes {
        &self.bytes
    }

    /// `Kyber.CCAKEM.Enc` (v3.02 Algorithm 8): draws 32 bytes from `rng`
    /// (one call) and encapsulates.
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
        let mut coins = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(coins.as_mut())?;
        Ok(self.encapsulate_deterministic(&coins))
    }

    /// `Kyber.CCAKEM.Enc` with the 32 random bytes of its line 1 given
    /// (hashed to `m` inside, as the reference code hashes its
    /// `randombytes` output). For known-answer tests; fresh randomness
    /// otherwise.
    pub fn encapsulate_deterministic(&self, coins: &[u8; 32]) -> (Ciphertext<P>, SharedSecret) {
        let mut ct = Ciphertext::<P> {
            bytes: P::CiphertextBytes::zeroed(),
        };
        let ss = SharedSecret::new_with(|ss| {
            encaps::<P>(self.bytes.as_ref(), &self.h, coins, ct.bytes.as_mut(), ss);
        });
        (ct, ss)
    }
}

impl<P: ParameterSet> PartialEq for EncapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        bytes_eq(self.bytes.as_ref(), other.bytes.as_ref()).into()
    }
}

impl<P: ParameterSet> Eq for EncapsulationKey<P> {}

impl<P: ParameterSet> fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("kyber_r3::EncapsulationKey")
            .field("parameter_set", &P::NAME)
            .finish_non_exhaustive()
    }
}

/// A round-3 Kyber secret key `sk = s ‖ pk ‖ H(pk) ‖ z` (`768k + 96`
/// bytes, the layout of an expanded ML-KEM decapsulation key; legacy, see
/// the [module](self) documentation). Zeroized on drop.
#[derive(Clone)]
pub struct DecapsulationKey<P: ParameterSet> {
    bytes: P::DecapsulationKeyBytes,
    ek: EncapsulationKey<P>,
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// `Kyber.CCAKEM.KeyGen` (v3.02 Algorithm 7) from its two 32-byte random
    /// inputs: `d` (Algorithm 4 line 1, `(ρ, σ) ← G(d)`) and `z` (Algorithm 7
    /// line 1). The reference code draws `d`, then `z`, in two calls.
    pub fn generate_deterministic(d: &[u8; 32], z: &[u8; 32]) -> Self {
        let mut dk = Self::empty();
        keygen_variant::<P, true>(d, z, dk.bytes.as_mut());
        dk.copy_ek_out();
        dk
    }

    /// Fills `self.ek` from the `pk ‖ H(pk)` part of the secret key.
    fn copy_ek_out(&mut self) {
        let parts = dk_parts::<P>(self.bytes.as_ref());
        self.ek.bytes.as_mut().copy_from_slice(parts.ek);
        self.ek.h.copy_from_slice(parts.h);
    }

    /// Parses a secret key: the length, the stored `H(pk)` against the
    /// embedded `pk`, and the modulus check of that `pk`.
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length, [`Error::InvalidKey`] if a
    /// check fails.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_key(
            Object::DecapsulationKey,
            P::DecapsulationKeyBytes::LEN,
            bytes,
            dk_check::<P>,
        )?;
        let mut dk = Self::empty();
        dk.bytes.as_mut().copy_from_slice(bytes);
        dk.copy_ek_out();
        Ok(dk)
    }

    /// An all-zero key, filled in place by the callers.
    fn empty() -> Self {
        Self {
            bytes: P::DecapsulationKeyBytes::zeroed(),
            ek: EncapsulationKey {
                bytes: P::EncapsulationKeyBytes::zeroed(),
                h: [0; 32],
            },
        }
    }

    /// The encoded secret key (`768k + 96` bytes).
    pub fn as_bytes(&self) -> &P::DecapsulationKeyBytes {
        &self.bytes
    }

    /// The matching public key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }

    /// `Kyber.CCAKEM.Dec` (v3.02 Algorithm 9): never fails; a ciphertext not
    /// made for this key gives the pseudorandom `KDF(z ‖ H(c))`.
    pub fn decapsulate(&self, ct: &Ciphertext<P>) -> SharedSecret {
        SharedSecret::new_with(|ss| decaps::<P>(self.bytes.as_ref(), ct.bytes.as_ref(), ss))
    }
}

impl<P: ParameterSet> ConstantTimeEq for DecapsulationKey<P> {
    fn ct_eq(&self, other: &Self) -> Choice {
        bytes_eq(self.bytes.as_ref(), other.bytes.as_ref())
    }
}

impl<P: ParameterSet> fmt::Debug for DecapsulationKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("kyber_r3::DecapsulationKey")
            .field("ek", &self.ek)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> Zeroize for DecapsulationKey<P> {
    fn zeroize(&mut self) {
        self.bytes.zeroize();
    }
}

impl<P: ParameterSet> Drop for DecapsulationKey<P> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<P: ParameterSet> ZeroizeOnDrop for DecapsulationKey<P> {}

/// `Kyber.CCAKEM.KeyGen` (v3.02 Algorithm 7): draws `d`, then `z` (two
/// 32-byte calls, as the reference code does) and generates a key pair.
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
pub fn try_generate<P: ParameterSet, R: TryCryptoRng + ?Sized>(
    rng: &mut R,
) -> Result<(DecapsulationKey<P>, EncapsulationKey<P>), R::Error> {
    let mut d = Zeroizing::new([0u8; 32]);
    let mut z = Zeroizing::new([0u8; 32]);
    rng.try_fill_bytes(d.as_mut())?;
    rng.try_fill_bytes(z.as_mut())?;
    let dk = DecapsulationKey::<P>::generate_deterministic(&d, &z);
    let ek = dk.ek.clone();
    Ok((dk, ek))
}
