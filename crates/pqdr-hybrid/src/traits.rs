//! RustCrypto `kem` 0.3 trait impls (feature `kem`) on the marker type
//! [`XWing`].
//!
//! - `EncapsulationKey`: `Encapsulate`, `TryKeyInit` (with the FIPS 203
//!   §7.2 check of `pk_M`) and `KeyExport`.
//! - `DecapsulationKey`: `Decapsulate`, `Decapsulator`, `Generate`, and
//!   `KeyInit` on the 32-byte seed (so `kem::FromSeed` works).

use hybrid_array::Array;
use hybrid_array::sizes::{U32, U1120, U1216};
use kem::{
    Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem, Key, KeyExport, KeyInit,
    KeySizeUser, TryKeyInit,
};
use rand_core::{CryptoRng, TryCryptoRng};

use crate::xwing::{Ciphertext, DecapsulationKey, EncapsulationKey, XWing, try_generate};

impl Kem for XWing {
    type DecapsulationKey = DecapsulationKey;
    type EncapsulationKey = EncapsulationKey;
    type SharedKeySize = U32;
    type CiphertextSize = U1120;
}

impl KeySizeUser for EncapsulationKey {
    type KeySize = U1216;
}

impl TryKeyInit for EncapsulationKey {
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        Self::from_slice(key.as_slice()).map_err(|_| InvalidKey)
    }
}

impl KeyExport for EncapsulationKey {
    fn to_bytes(&self) -> Key<Self> {
        Array(*self.as_bytes())
    }
}

impl Encapsulate for EncapsulationKey {
    type Kem = XWing;

    fn encapsulate_with_rng<R>(
        &self,
        rng: &mut R,
    ) -> (kem::Ciphertext<XWing>, kem::SharedKey<XWing>)
    where
        R: CryptoRng + ?Sized,
    {
        let (ct, ss) = self.encapsulate(rng);
        (Array(*ct.as_bytes()), Array(*ss.as_bytes()))
    }
}

impl Decapsulator for DecapsulationKey {
    type Kem = XWing;

    fn encapsulation_key(&self) -> &EncapsulationKey {
        DecapsulationKey::encapsulation_key(self)
    }
}

impl Decapsulate for DecapsulationKey {
    fn decapsulate(&self, ct: &kem::Ciphertext<XWing>) -> kem::SharedKey<XWing> {
        let ct = Ciphertext::from_array(&ct.0);
        Array(*DecapsulationKey::decapsulate(self, &ct).as_bytes())
    }
}

impl KeySizeUser for DecapsulationKey {
    type KeySize = U32;
}

impl KeyInit for DecapsulationKey {
    fn new(seed: &Key<Self>) -> Self {
        Self::from_seed(&seed.0)
    }
}

impl Generate for DecapsulationKey {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        Ok(try_generate(rng)?.0)
    }
}
