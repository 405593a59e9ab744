//! RustCrypto `kem` 0.3 traits (feature `kem`): every marker type
//! ([`Mceliece348864`](crate::Mceliece348864), …) implements [`kem::Kem`], so
//! generic code can take `K: kem::Kem`.
//!
//! The trait family wants the decapsulation key to hand out its encapsulation
//! key ([`Decapsulator::encapsulation_key`]), but a Classic McEliece secret
//! key does not contain its public key (255 KB to 1.3 MB, Classic McEliece
//! spec §3.1; only a full key generation from delta re-derives it). So the
//! traits' decapsulation key is [`Keypair`]: the secret key together with
//! the boxed public key.
//! [`TryKeyInit`] on it re-derives the public key from the seed delta stored
//! in the secret key.

use crate::kem as core_kem;
use crate::params::{Derived, ParameterSet};
use crate::types::{DecapsulationKey, EncapsulationKey, generate_deterministic};
use core::fmt;
use hybrid_array::{Array, ArraySize, sizes};
use kem::{
    Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Key, KeyExport, KeySizeUser,
    TryKeyInit,
};
use rand_core::{CryptoRng, TryCryptoRng};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// Sizes of a parameter set as `hybrid-array` types.
pub trait KemSizes: ParameterSet {
    /// Public-key size.
    type EncapsulationKeySize: ArraySize;
    /// Secret-key size.
    type DecapsulationKeySize: ArraySize;
    /// Ciphertext size.
    type CiphertextSize: ArraySize;
}

fn to_array<U: ArraySize>(bytes: &[u8]) -> Array<u8, U> {
    Array::from_fn(|i| bytes[i])
}

/// A secret key together with its public key: the decapsulation key of the
/// `kem` traits (`<Mceliece348864 as kem::Kem>::DecapsulationKey`), which
/// must hand out its encapsulation key, while a Classic McEliece
/// [`DecapsulationKey`] does not contain the 255 KB to 1.3 MB public key.
pub struct Keypair<P: ParameterSet> {
    dk: DecapsulationKey<P>,
    ek: EncapsulationKey<P>,
}

impl<P: ParameterSet> fmt::Debug for Keypair<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keypair")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> Keypair<P> {
    /// The secret key.
    pub fn decapsulation_key(&self) -> &DecapsulationKey<P> {
        &self.dk
    }
    /// The public key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }
    /// The secret key and the public key.
    pub fn into_parts(self) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
        (self.dk, self.ek)
    }
}

impl<P: KemSizes> KeySizeUser for EncapsulationKey<P> {
    type KeySize = P::EncapsulationKeySize;
}

impl<P: KemSizes> TryKeyInit for EncapsulationKey<P> {
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        Self::from_slice(key.as_slice()).map_err(|_| InvalidKey)
    }
}

impl<P: KemSizes> KeyExport for EncapsulationKey<P> {
    fn to_bytes(&self) -> Key<Self> {
        to_array(self.as_bytes().as_ref())
    }
}

impl<P> Encapsulate for EncapsulationKey<P>
where
    P: KemSizes + kem::Kem,
{
    type Kem = P;

    fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (kem::Ciphertext<P>, kem::SharedKey<P>)
    where
        R: CryptoRng + ?Sized,
    {
        let (ct, ss) = self.encapsulate(rng);
        (to_array(ct.as_bytes().as_ref()), to_array(ss.as_bytes()))
    }
}

impl<P> Decapsulator for Keypair<P>
where
    P: KemSizes + kem::Kem<EncapsulationKey = EncapsulationKey<P>>,
{
    type Kem = P;

    fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }
}

impl<P> Decapsulate for Keypair<P>
where
    P: KemSizes + kem::Kem<EncapsulationKey = EncapsulationKey<P>>,
{
    /// Implicit rejection; the padding bits of C0 (6960119) are ignored here.
    fn decapsulate(&self, ct: &kem::Ciphertext<P>) -> kem::SharedKey<P> {
        let k = core_kem::decapsulate::<P>(self.dk.as_bytes().as_ref(), ct.as_slice());
        to_array(&k)
    }
}

impl<P: ParameterSet> Generate for Keypair<P> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut seed = [0u8; 32];
        rng.try_fill_bytes(&mut seed)?;
        let (dk, ek) = generate_deterministic::<P>(&seed);
        seed.zeroize();
        Ok(Self { dk, ek })
    }
}

impl<P: KemSizes> KeySizeUser for Keypair<P> {
    type KeySize = P::DecapsulationKeySize;
}

impl<P: KemSizes> TryKeyInit for Keypair<P> {
    /// Parses the secret key and re-derives its public key from delta (a full
    /// key generation); fails unless that reproduces the same secret key.
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        let given = DecapsulationKey::<P>::from_slice(key.as_slice()).map_err(|_| InvalidKey)?;
        let mut delta = [0u8; 32];
        delta.copy_from_slice(&key.as_slice()[..32]);
        let (dk, ek) = generate_deterministic::<P>(&delta);
        delta.zeroize();
        if !bool::from(dk.as_bytes().as_ref().ct_eq(given.as_bytes().as_ref())) {
            return Err(InvalidKey);
        }
        Ok(Self { dk, ek })
    }
}

impl<P: KemSizes> KeyExport for Keypair<P> {
    fn to_bytes(&self) -> Key<Self> {
        to_array(self.dk.as_bytes().as_ref())
    }
}

macro_rules! kem_sets {
    ($($feat:literal, $ty:ident, $ek:ident, $dk:ident, $ct:ident;)*) => {$(
        #[cfg(feature = $feat)]
        impl KemSizes for crate::$ty {
            type EncapsulationKeySize = sizes::$ek;
            type DecapsulationKeySize = sizes::$dk;
            type CiphertextSize = sizes::$ct;
        }
        #[cfg(feature = $feat)]
        impl kem::Kem for crate::$ty {
            type DecapsulationKey = Keypair<Self>;
            type EncapsulationKey = EncapsulationKey<Self>;
            type SharedKeySize = sizes::U32;
            type CiphertextSize = sizes::$ct;
        }
        #[cfg(feature = $feat)]
        const _: () = {
            assert!(
                <crate::$ty as Derived>::PK_BYTES
                    == <sizes::$ek as hybrid_array::typenum::Unsigned>::USIZE
            );
            assert!(
                <crate::$ty as Derived>::SK_BYTES
                    == <sizes::$dk as hybrid_array::typenum::Unsigned>::USIZE
            );
            assert!(
                <crate::$ty as Derived>::CT_BYTES
                    == <sizes::$ct as hybrid_array::typenum::Unsigned>::USIZE
            );
        };
    )*};
}

kem_sets! {
    "mceliece348864", Mceliece348864, U261120, U6492, U96;
    "mceliece348864f", Mceliece348864f, U261120, U6492, U96;
    "mceliece460896", Mceliece460896, U524160, U13608, U156;
    "mceliece460896f", Mceliece460896f, U524160, U13608, U156;
    "mceliece6688128", Mceliece6688128, U1044992, U13932, U208;
    "mceliece6688128f", Mceliece6688128f, U1044992, U13932, U208;
    "mceliece6960119", Mceliece6960119, U1047319, U13948, U194;
    "mceliece6960119f", Mceliece6960119f, U1047319, U13948, U194;
    "mceliece8192128", Mceliece8192128, U1357824, U14120, U208;
    "mceliece8192128f", Mceliece8192128f, U1357824, U14120, U208;
    "mceliece348864pc", Mceliece348864pc, U261120, U6492, U128;
    "mceliece348864pcf", Mceliece348864pcf, U261120, U6492, U128;
    "mceliece460896pc", Mceliece460896pc, U524160, U13608, U188;
    "mceliece460896pcf", Mceliece460896pcf, U524160, U13608, U188;
    "mceliece6688128pc", Mceliece6688128pc, U1044992, U13932, U240;
    "mceliece6688128pcf", Mceliece6688128pcf, U1044992, U13932, U240;
    "mceliece6960119pc", Mceliece6960119pc, U1047319, U13948, U226;
    "mceliece6960119pcf", Mceliece6960119pcf, U1047319, U13948, U226;
    "mceliece8192128pc", Mceliece8192128pc, U1357824, U14120, U240;
    "mceliece8192128pcf", Mceliece8192128pcf, U1357824, U14120, U240;
}
