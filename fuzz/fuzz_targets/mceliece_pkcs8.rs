//! Classic McEliece PKCS#8 / SubjectPublicKeyInfo decoders (pqdr-mceliece
//! feature `pkcs8`, BouncyCastle 1.87's encodings) on fuzzer input, for
//! `mceliece460896` and `mceliece460896f`, through the shared harness of
//! `pkcs8_common.rs` (its operations 0 to 3). The first byte picks the set
//! (`byte % 2`) and the operation (`byte / 2 % 4`). One private-key form;
//! operations 2 and 3 mutate BouncyCastle's key files from
//! `vectors/pkcs8/bouncycastle/` (a key generation per input would be too slow).
#![no_main]

mod pkcs8_common;

use libfuzzer_sys::fuzz_target;
use pkcs8_common::{Codec, run};
use pqdr_mceliece::pkcs8::DecodePrivateKey;
use pqdr_mceliece::spki::DecodePublicKey;
use pqdr_mceliece::{
    DecapsulationKey, EncapsulationKey, Error, Mceliece460896, Mceliece460896f, ParameterSet,
};

/// A set with BouncyCastle's key files.
trait Files: ParameterSet {
    const PRIV: &'static [u8];
    const PUB: &'static [u8];
}

impl Files for Mceliece460896 {
    const PRIV: &'static [u8] =
        include_bytes!("../../vectors/pkcs8/bouncycastle/mceliece460896.priv.der");
    const PUB: &'static [u8] =
        include_bytes!("../../vectors/pkcs8/bouncycastle/mceliece460896.pub.der");
}

impl Files for Mceliece460896f {
    const PRIV: &'static [u8] =
        include_bytes!("../../vectors/pkcs8/bouncycastle/mceliece460896f.priv.der");
    const PUB: &'static [u8] =
        include_bytes!("../../vectors/pkcs8/bouncycastle/mceliece460896f.pub.der");
}

struct Mceliece<P>(P);

impl<P: Files> Codec for Mceliece<P> {
    type Sk = DecapsulationKey<P>;
    type Pk = EncapsulationKey<P>;
    type Err = Error;
    const FORMS: usize = 1;

    fn decode_sk(der: &[u8]) -> Result<Self::Sk, Error> {
        DecapsulationKey::from_private_key_der(der)
    }
    fn decode_sk_trait(der: &[u8]) -> bool {
        <DecapsulationKey<P> as DecodePrivateKey>::from_pkcs8_der(der).is_ok()
    }
    fn encode_sk(sk: &Self::Sk, _form: usize) -> Option<Vec<u8>> {
        let mut buf = vec![0u8; 16384];
        Some(sk.to_private_key_der(&mut buf).unwrap().to_vec())
    }
    fn same_sk(a: &Self::Sk, b: &Self::Sk) -> bool {
        a == b
    }
    fn decode_pk(der: &[u8]) -> Result<Self::Pk, Error> {
        EncapsulationKey::from_spki_der(der)
    }
    fn decode_pk_trait(der: &[u8]) -> bool {
        <EncapsulationKey<P> as DecodePublicKey>::from_public_key_der(der).is_ok()
    }
    fn encode_pk(pk: &Self::Pk) -> Vec<u8> {
        let mut buf = vec![0u8; P::PUB.len() + 64];
        pk.to_spki_der(&mut buf).unwrap().to_vec()
    }
    fn encode_pk_of(_sk: &Self::Sk) -> Vec<u8> {
        P::PUB.to_vec()
    }
    fn decoding_error(e: &Error, private: bool) -> bool {
        match e {
            Error::Der | Error::Algorithm | Error::Length { .. } | Error::InvalidKey => true,
            Error::InconsistentKey => private,
            _ => false,
        }
    }
    fn key(data: &[u8]) -> (Self::Sk, &[u8]) {
        (
            DecapsulationKey::from_private_key_der(P::PRIV).unwrap(),
            data,
        )
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 2;
    match sel % 2 {
        0 => run::<Mceliece<Mceliece460896>>(op, rest),
        _ => run::<Mceliece<Mceliece460896f>>(op, rest),
    }
});
