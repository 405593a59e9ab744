//! ML-DSA PKCS#8 / SubjectPublicKeyInfo decoders (pqdr-mldsa feature `pkcs8`,
//! RFC 9881) on fuzzer input, every parameter set, through the shared
//! harness of `pkcs8_common.rs` (its operations 0 to 3). The first byte picks
//! the set (`byte % 3`: 44, 65, 87) and the operation (`byte / 3 % 4`).
//! Private-key forms: seed, expandedKey, both (a key loaded from the expanded
//! form has only that one); keys of operations 2 and 3 come from a fuzz seed.
#![no_main]

mod pkcs8_common;

use libfuzzer_sys::fuzz_target;
use pkcs8_common::{Codec, run};
use pqdr_mldsa::pkcs8::DecodePrivateKey;
use pqdr_mldsa::spki::DecodePublicKey;
use pqdr_mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, PrivateKeyForm, SigningKey, VerifyingKey,
};

const FORMS: [PrivateKeyForm; 3] = [
    PrivateKeyForm::Seed,
    PrivateKeyForm::ExpandedKey,
    PrivateKeyForm::Both,
];

struct MlDsa<P>(P);

impl<P: ParameterSet> Codec for MlDsa<P> {
    type Sk = SigningKey<P>;
    type Pk = VerifyingKey<P>;
    type Err = Error;
    const FORMS: usize = 3;

    fn decode_sk(der: &[u8]) -> Result<Self::Sk, Error> {
        SigningKey::from_private_key_der(der)
    }
    fn decode_sk_trait(der: &[u8]) -> bool {
        <SigningKey<P> as DecodePrivateKey>::from_pkcs8_der(der).is_ok()
    }
    fn encode_sk(sk: &Self::Sk, form: usize) -> Option<Vec<u8>> {
        let mut buf = vec![0u8; 16384];
        match sk.to_private_key_der(FORMS[form], &mut buf) {
            Ok(enc) => Some(enc.to_vec()),
            Err(Error::NoSeed) => {
                assert!(sk.seed().is_none() && FORMS[form] != PrivateKeyForm::ExpandedKey);
                None
            }
            Err(e) => panic!("encoding failed: {e:?}"),
        }
    }
    fn same_sk(a: &Self::Sk, b: &Self::Sk) -> bool {
        a == b
    }
    fn decode_pk(der: &[u8]) -> Result<Self::Pk, Error> {
        VerifyingKey::from_spki_der(der)
    }
    fn decode_pk_trait(der: &[u8]) -> bool {
        <VerifyingKey<P> as DecodePublicKey>::from_public_key_der(der).is_ok()
    }
    fn encode_pk(pk: &Self::Pk) -> Vec<u8> {
        let mut buf = vec![0u8; 4096];
        pk.to_spki_der(&mut buf).unwrap().to_vec()
    }
    fn encode_pk_of(sk: &Self::Sk) -> Vec<u8> {
        Self::encode_pk(sk.verifying_key())
    }
    fn decoding_error(e: &Error, private: bool) -> bool {
        match e {
            Error::Der | Error::Algorithm | Error::Length { .. } | Error::InvalidKey => true,
            Error::InconsistentKey => private,
            _ => false,
        }
    }
    fn key(data: &[u8]) -> (Self::Sk, &[u8]) {
        let mut seed = [0u8; 32];
        let n = data.len().min(32);
        seed[..n].copy_from_slice(&data[..n]);
        (SigningKey::from_seed(&seed), &data[n..])
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 3;
    match sel % 3 {
        0 => run::<MlDsa<MlDsa44>>(op, rest),
        1 => run::<MlDsa<MlDsa65>>(op, rest),
        _ => run::<MlDsa<MlDsa87>>(op, rest),
    }
});
