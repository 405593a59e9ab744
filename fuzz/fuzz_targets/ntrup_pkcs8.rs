//! sntrup PKCS#8 / SubjectPublicKeyInfo decoders (pqdr-ntrup feature
//! `pkcs8`, BouncyCastle 1.87's encodings) on fuzzer input, every parameter
//! set, through the shared harness of `pkcs8_common.rs` (its operations 0 to
//! 3). The first byte picks the set (`byte % 6`: 653, 761, 857, 953, 1013,
//! 1277) and the operation (`byte / 6 % 4`). One private-key form; keys of
//! operations 2 and 3 come from a NIST DRBG seeded with the fuzz data.
#![no_main]

mod pkcs8_common;

use libfuzzer_sys::fuzz_target;
use pkcs8_common::{Codec, run};
use pqdr_ntrup::pkcs8::DecodePrivateKey;
use pqdr_ntrup::spki::DecodePublicKey;
use pqdr_ntrup::{
    DecapsulationKey, EncapsulationKey, Error, ParameterSet, Sntrup653, Sntrup761, Sntrup857,
    Sntrup953, Sntrup1013, Sntrup1277,
};

struct Ntrup<S>(S);

impl<S: ParameterSet> Codec for Ntrup<S> {
    type Sk = DecapsulationKey<S>;
    type Pk = EncapsulationKey<S>;
    type Err = Error;
    const FORMS: usize = 1;

    fn decode_sk(der: &[u8]) -> Result<Self::Sk, Error> {
        DecapsulationKey::from_private_key_der(der)
    }
    fn decode_sk_trait(der: &[u8]) -> bool {
        <DecapsulationKey<S> as DecodePrivateKey>::from_pkcs8_der(der).is_ok()
    }
    fn encode_sk(sk: &Self::Sk, _form: usize) -> Option<Vec<u8>> {
        let mut buf = vec![0u8; 8192];
        Some(sk.to_private_key_der(&mut buf).unwrap().to_vec())
    }
    fn same_sk(a: &Self::Sk, b: &Self::Sk) -> bool {
        a.as_bytes() == b.as_bytes()
    }
    fn decode_pk(der: &[u8]) -> Result<Self::Pk, Error> {
        EncapsulationKey::from_spki_der(der)
    }
    fn decode_pk_trait(der: &[u8]) -> bool {
        <EncapsulationKey<S> as DecodePublicKey>::from_public_key_der(der).is_ok()
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
            Error::Der | Error::Algorithm | Error::Length { .. } => true,
            Error::InvalidKey | Error::InconsistentKey => private,
            _ => false,
        }
    }
    fn key(data: &[u8]) -> (Self::Sk, &[u8]) {
        let mut seed = [0u8; 48];
        let n = data.len().min(48);
        seed[..n].copy_from_slice(&data[..n]);
        let (dk, _) = DecapsulationKey::<S>::generate(&mut pqdr_kat::Drbg::new(&seed));
        (dk, &data[n..])
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 6;
    match sel % 6 {
        0 => run::<Ntrup<Sntrup653>>(op, rest),
        1 => run::<Ntrup<Sntrup761>>(op, rest),
        2 => run::<Ntrup<Sntrup857>>(op, rest),
        3 => run::<Ntrup<Sntrup953>>(op, rest),
        4 => run::<Ntrup<Sntrup1013>>(op, rest),
        _ => run::<Ntrup<Sntrup1277>>(op, rest),
    }
});
