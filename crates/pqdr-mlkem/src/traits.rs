//! RustCrypto `kem` 0.3 trait impls (feature `kem`) on the marker types
//! [`MlKem512`], [`MlKem768`] and [`MlKem1024`].
//!
//! - `EncapsulationKey<P>`: `Encapsulate`, `TryKeyInit` (with the FIPS 203
//!   §7.2 check) and `KeyExport` on the encoded key.
//! - `DecapsulationKey<P>`: `Decapsulate`, `Decapsulator`, `Generate`, and
//!   `KeyInit` on the 64-byte seed `d ‖ z` (so `kem::FromSeed` works). The
//!   seed is the canonical private-key form; read it back with
//!   [`DecapsulationKey::to_seed`] (a `Zeroizing` copy, wiped on drop).

use hybrid_array::Array;
use hybrid_array::sizes::{U32, U64, U768, U800, U1088, U1184, U1568};
use kem::{
    Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem, Key, KeyExport, KeyInit,
    KeySizeUser, TryKeyInit,
};
use rand_core::{CryptoRng, TryCryptoRng};

use crate::params::{MlKem512, MlKem768, MlKem1024, ParameterSet};
use crate::types::{Ciphertext, DecapsulationKey, EncapsulationKey};

macro_rules! kem_impls {
    ($set:ident, ek = $ek:ty, ct = $ct:ty) => {
        impl Kem for $set {
            type DecapsulationKey = DecapsulationKey<$set>;
            type EncapsulationKey = EncapsulationKey<$set>;
            type SharedKeySize = U32;
            type CiphertextSize = $ct;
        }

        impl KeySizeUser for EncapsulationKey<$set> {
            type KeySize = $ek;
        }

        impl TryKeyInit for EncapsulationKey<$set> {
            fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
                Self::from_slice(key.as_slice()).map_err(|_| InvalidKey)
            }
        }

        impl KeyExport for EncapsulationKey<$set> {
            fn to_bytes(&self) -> Key<Self> {
                Array(*self.as_bytes())
            }
        }

        impl Encapsulate for EncapsulationKey<$set> {
            type Kem = $set;

            fn encapsulate_with_rng<R>(
                &self,
                rng: &mut R,
            ) -> (kem::Ciphertext<$set>, kem::SharedKey<$set>)
            where
                R: CryptoRng + ?Sized,
            {
                let (ct, ss) = self.encapsulate(rng);
                (Array(*ct.as_bytes()), Array(*ss.as_bytes()))
            }
        }

        impl Decapsulator for DecapsulationKey<$set> {
            type Kem = $set;

            fn encapsulation_key(&self) -> &EncapsulationKey<$set> {
                DecapsulationKey::encapsulation_key(self)
            }
        }

        impl Decapsulate for DecapsulationKey<$set> {
            fn decapsulate(&self, ct: &kem::Ciphertext<$set>) -> kem::SharedKey<$set> {
                let ct = Ciphertext::<$set>::from_array(&ct.0);
                Array(*DecapsulationKey::decapsulate(self, &ct).as_bytes())
            }
        }

        impl KeySizeUser for DecapsulationKey<$set> {
            type KeySize = U64;
        }

        impl KeyInit for DecapsulationKey<$set> {
            fn new(seed: &Key<Self>) -> Self {
                Self::from_seed(&seed.0)
            }
        }

        impl Generate for DecapsulationKey<$set> {
            fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(
                rng: &mut R,
            ) -> Result<Self, R::Error> {
                Ok(crate::types::try_generate::<$set, R>(rng)?.0)
            }
        }
    };
}

kem_impls!(MlKem512, ek = U800, ct = U768);
kem_impls!(MlKem768, ek = U1184, ct = U1088);
kem_impls!(MlKem1024, ek = U1568, ct = U1568);

// The typenum sizes above must agree with the parameter sets.
const _: () = {
    use crate::params::ByteArray;
    use hybrid_array::typenum::Unsigned;
    macro_rules! check {
        ($set:ident, $ek:ty, $ct:ty) => {
            assert!(<$set as ParameterSet>::EncapsulationKeyBytes::LEN == <$ek>::USIZE);
            assert!(<$set as ParameterSet>::CiphertextBytes::LEN == <$ct>::USIZE);
        };
    }
    check!(MlKem512, U800, U768);
    check!(MlKem768, U1184, U1088);
    check!(MlKem1024, U1568, U1568);
};
