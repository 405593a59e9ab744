//! RustCrypto `kem` 0.3 traits on the marker types (feature `kem`): glue over
//! [`crate::types`], no spec step of its own.

use crate::params::ByteArray;
use crate::{Ciphertext, DecapsulationKey, EncapsulationKey, ParameterSet};
use hybrid_array::typenum::Unsigned;
use hybrid_array::{Array, ArraySize};
use kem::{
    Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, KeyExport, KeySizeUser,
    TryKeyInit,
};
use rand_core::{CryptoRng, TryCryptoRng};

/// Sizes of one parameter set as `hybrid-array` lengths.
pub trait KemSizes: ParameterSet {
    /// Encapsulation-key length.
    type EncapsulationKeySize: ArraySize;
    /// Ciphertext length.
    type CiphertextSize: ArraySize;
}

fn to_array<U: ArraySize>(bytes: &[u8]) -> Array<u8, U> {
    let mut out = Array::<u8, U>::default();
    out.as_mut_slice().copy_from_slice(bytes);
    out
}

impl<S: KemSizes> KeySizeUser for EncapsulationKey<S> {
    type KeySize = S::EncapsulationKeySize;
}

impl<S: KemSizes> TryKeyInit for EncapsulationKey<S> {
    fn new(key: &Array<u8, S::EncapsulationKeySize>) -> Result<Self, InvalidKey> {
        EncapsulationKey::from_slice(key.as_slice()).map_err(|_| InvalidKey)
    }
}

impl<S: KemSizes> KeyExport for EncapsulationKey<S> {
    fn to_bytes(&self) -> Array<u8, S::EncapsulationKeySize> {
        to_array(self.as_bytes().as_ref())
    }
}

impl<S: KemSizes + kem::Kem<CiphertextSize = <S as KemSizes>::CiphertextSize>> Encapsulate
    for EncapsulationKey<S>
{
    type Kem = S;

    fn encapsulate_with_rng<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> (kem::Ciphertext<S>, kem::SharedKey<S>) {
        let (ct, ss) = self.encapsulate(rng);
        (to_array(ct.as_bytes().as_ref()), to_array(ss.as_bytes()))
    }
}

impl<S: KemSizes + kem::Kem<EncapsulationKey = EncapsulationKey<S>>> Decapsulator
    for DecapsulationKey<S>
{
    type Kem = S;

    fn encapsulation_key(&self) -> &EncapsulationKey<S> {
        DecapsulationKey::encapsulation_key(self)
    }
}

impl<S> Decapsulate for DecapsulationKey<S>
where
    S: KemSizes
        + kem::Kem<
            EncapsulationKey = EncapsulationKey<S>,
            CiphertextSize = <S as KemSizes>::CiphertextSize,
        >,
{
    fn decapsulate(&self, ct: &kem::Ciphertext<S>) -> kem::SharedKey<S> {
        let mut bytes = S::CiphertextBytes::zeroed();
        bytes.as_mut().copy_from_slice(ct.as_slice());
        let ss = DecapsulationKey::decapsulate(self, &Ciphertext::from_array(&bytes));
        to_array(ss.as_bytes())
    }
}

impl<S: ParameterSet> Generate for DecapsulationKey<S> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        Ok(Self::try_generate(rng)?.0)
    }
}

macro_rules! kem_impl {
    ($feature:literal, $marker:ident, $ek:ident, $ct:ident) => {
        #[cfg(feature = $feature)]
        impl KemSizes for crate::$marker {
            type EncapsulationKeySize = hybrid_array::sizes::$ek;
            type CiphertextSize = hybrid_array::sizes::$ct;
        }

        // The typenum sizes equal the byte-array sizes (so the copies above never panic).
        #[cfg(feature = $feature)]
        const _: () = assert!(
            <hybrid_array::sizes::$ek as Unsigned>::USIZE
                == size_of::<<crate::$marker as ParameterSet>::EncapsulationKeyBytes>()
                && <hybrid_array::sizes::$ct as Unsigned>::USIZE
                    == size_of::<<crate::$marker as ParameterSet>::CiphertextBytes>()
        );

        #[cfg(feature = $feature)]
        impl kem::Kem for crate::$marker {
            type DecapsulationKey = DecapsulationKey<crate::$marker>;
            type EncapsulationKey = EncapsulationKey<crate::$marker>;
            type SharedKeySize = hybrid_array::sizes::U32;
            type CiphertextSize = hybrid_array::sizes::$ct;
        }
    };
}

kem_impl!("sntrup653", Sntrup653, U994, U897);
kem_impl!("sntrup761", Sntrup761, U1158, U1039);
kem_impl!("sntrup857", Sntrup857, U1322, U1184);
kem_impl!("sntrup953", Sntrup953, U1505, U1349);
kem_impl!("sntrup1013", Sntrup1013, U1623, U1455);
kem_impl!("sntrup1277", Sntrup1277, U2067, U1847);
