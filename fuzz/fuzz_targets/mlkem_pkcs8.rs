//! ML-KEM PKCS#8 / SubjectPublicKeyInfo decoders (pqdr-mlkem feature `pkcs8`,
//! RFC 9935) on fuzzer input, every parameter set, through the shared
//! harness of `pkcs8_common.rs` (its operations 0 to 3). The first byte picks
//! the set (`byte % 3`: 512, 768, 1024) and the operation (`byte / 3 % 4`).
//! Private-key forms: seed, expandedKey, both (a key loaded from the expanded
//! form has only that one); keys of operations 2 and 3 come from a fuzz seed.
#![no_main]

mod pkcs8_common;

use libfuzzer_sys::fuzz_target;
use pkcs8_common::{Codec, run};
use pqdr_mlkem::pkcs8::DecodePrivateKey;
use pqdr_mlkem::spki::DecodePublicKey;
use pqdr_mlkem::{
    DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024, ParameterSet,
    PrivateKeyForm,
};

const FORMS: [PrivateKeyForm; 3] = [
    PrivateKeyForm::Seed,
    PrivateKeyForm::ExpandedKey,
    PrivateKeyForm::Both,
];

struct MlKem<P>(P);

impl<P: ParameterSet> Codec for MlKem<P> {
    type Sk = DecapsulationKey<P>;
    type Pk = EncapsulationKey<P>;
    type Err = Error;
    const FORMS: usize = 3;

    fn decode_sk(der: &[u8]) -> Result<Self::Sk, Error> {
        DecapsulationKey::from_private_key_der(der)
    }
    fn decode_sk_trait(der: &[u8]) -> bool {
        <DecapsulationKey<P> as DecodePrivateKey>::from_pkcs8_der(der).is_ok()
    }
    fn encode_sk(sk: &Self::Sk, form: usize) -> Option<Vec<u8>> {
        let mut buf = vec![0u8; 8192];
        match sk.to_private_key_der(FORMS[form], &mut buf) {
            Ok(enc) => Some(enc.to_vec()),
            Err(Error::NoSeed) => {
                assert!(sk.to_seed().is_none() && FORMS[form] != PrivateKeyForm::ExpandedKey);
                None
            }
            Err(e) => panic!("encoding failed: {e:?}"),
        }
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
        let mut buf = vec![0u8; 4096];
        pk.to_spki_der(&mut buf).unwrap().to_vec()
    }
    fn encode_pk_of(sk: &Self::Sk) -> Vec<u8> {
        Self::encode_pk(sk.encapsulation_key())
    }
    fn decoding_error(e: &Error, private: bool) -> bool {
        match e {
            Error::Der | Error::Algorithm | Error::Length { .. } | Error::InvalidKey => true,
            Error::InconsistentKey => private,
            _ => false,
        }
    }
    fn key(data: &[u8]) -> (Self::Sk, &[u8]) {
        let mut seed = [0u8; 64];
        let n = data.len().min(64);
        seed[..n].copy_from_slice(&data[..n]);
        (DecapsulationKey::from_seed(&seed), &data[n..])
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 3;
    match sel % 3 {
        0 => run::<MlKem<MlKem512>>(op, rest),
        1 => run::<MlKem<MlKem768>>(op, rest),
        _ => run::<MlKem<MlKem1024>>(op, rest),
    }
});
