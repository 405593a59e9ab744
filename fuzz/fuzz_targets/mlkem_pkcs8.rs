//! ML-KEM PKCS#8 / SubjectPublicKeyInfo decoders (pqdr-mlkem feature `pkcs8`,
//! RFC 9935) on fuzzer input, every parameter set. The first byte picks the
//! set (`byte % 3`: 512, 768, 1024) and the operation (`byte / 3 % 4`).
//! Checks:
//!
//! 0. `DecapsulationKey::from_private_key_der` on arbitrary bytes: no panic,
//!    only the typed decoding errors (never `NoSeed`, `PairwiseConsistency`,
//!    `SelfTest`), the same verdict as the `pkcs8::DecodePrivateKey` trait; an
//!    accepted key re-encodes in every form it has (the seed forms need the
//!    seed) to DER that decodes to the same key, and when the input is a
//!    version-1 OneAsymmetricKey without attributes (its `der` re-encoding is
//!    itself) one of the three encodings is the input, byte for byte.
//! 1. `EncapsulationKey::from_spki_der` on arbitrary bytes: no panic, the same
//!    verdict as `spki::DecodePublicKey`, an accepted key re-encodes to the
//!    input.
//! 2. A key from a fuzz seed, encoded in a fuzz-chosen form, then truncated,
//!    extended by a byte, or with a byte xor-ed at a fuzz position: a
//!    truncated or extended encoding is rejected; any accepted one passes the
//!    checks of 0. The untouched encoding decodes to the key.
//! 3. The same on the key's SubjectPublicKeyInfo, with the checks of 1.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_mlkem::pkcs8::der::Encode as _;
use pqdr_mlkem::pkcs8::{DecodePrivateKey, PrivateKeyInfoRef};
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

/// The errors a decoder may return for a bad input.
fn decoding_error(e: Error) -> bool {
    matches!(
        e,
        Error::Der
            | Error::Algorithm
            | Error::Length { .. }
            | Error::InvalidKey
            | Error::InconsistentKey
    )
}

/// Whether `der` is a OneAsymmetricKey v1 whose `der` re-encoding is itself
/// (no attributes, no public key, no extensions).
fn plain_v1(der: &[u8]) -> bool {
    let Ok(info) = PrivateKeyInfoRef::try_from(der) else {
        return false;
    };
    let mut buf = vec![0u8; der.len() + 16];
    info.public_key.is_none()
        && info
            .encode_to_slice(&mut buf)
            .is_ok_and(|enc| enc == der)
}

fn check_private<P: ParameterSet>(der: &[u8]) {
    let ours = DecapsulationKey::<P>::from_private_key_der(der);
    let theirs = <DecapsulationKey<P> as DecodePrivateKey>::from_pkcs8_der(der);
    assert_eq!(ours.is_ok(), theirs.is_ok());
    let dk = match ours {
        Ok(dk) => dk,
        Err(e) => {
            assert!(decoding_error(e), "{e:?}");
            return;
        }
    };
    let mut buf = vec![0u8; 8192];
    let mut found = false;
    for form in FORMS {
        match dk.to_private_key_der(form, &mut buf) {
            Ok(enc) => {
                found |= enc == der;
                let back = DecapsulationKey::<P>::from_private_key_der(enc).unwrap();
                assert!(back == dk);
            }
            Err(Error::NoSeed) => {
                assert!(dk.to_seed().is_none() && form != PrivateKeyForm::ExpandedKey);
            }
            Err(e) => panic!("encoding failed: {e:?}"),
        }
    }
    if plain_v1(der) {
        assert!(found, "an accepted plain v1 key is one of the three encodings");
    }
}

fn check_public<P: ParameterSet>(der: &[u8]) {
    let ours = EncapsulationKey::<P>::from_spki_der(der);
    let theirs = <EncapsulationKey<P> as DecodePublicKey>::from_public_key_der(der);
    assert_eq!(ours.is_ok(), theirs.is_ok());
    match ours {
        Ok(ek) => {
            let mut buf = vec![0u8; 4096];
            assert_eq!(ek.to_spki_der(&mut buf).unwrap(), der);
        }
        Err(e) => assert!(decoding_error(e) && e != Error::InconsistentKey, "{e:?}"),
    }
}

/// Truncates, extends or patches `der` as `how`, `at` and `x` say; returns
/// whether the result must be rejected (a changed length).
fn mutate(der: &mut Vec<u8>, how: u8, at: u16, x: u8) -> bool {
    let at = usize::from(at) % der.len();
    match how % 3 {
        0 => {
            der.truncate(at);
            true
        }
        1 => {
            der.push(x);
            true
        }
        _ => {
            der[at] ^= x.max(1);
            false
        }
    }
}

fn run<P: ParameterSet>(op: u8, data: &[u8]) {
    match op % 4 {
        0 => check_private::<P>(data),
        1 => check_public::<P>(data),
        _ => {
            let mut seed = [0u8; 64];
            let n = data.len().min(64);
            seed[..n].copy_from_slice(&data[..n]);
            let rest = &data[n..];
            let get = |i: usize| rest.get(i).copied().unwrap_or(0);
            let dk = DecapsulationKey::<P>::from_seed(&seed);
            let mut buf = vec![0u8; 8192];
            let mut der = if op % 4 == 2 {
                let form = FORMS[usize::from(get(0)) % 3];
                let enc = dk.to_private_key_der(form, &mut buf).unwrap().to_vec();
                assert!(DecapsulationKey::<P>::from_private_key_der(&enc).unwrap() == dk);
                enc
            } else {
                dk.encapsulation_key().to_spki_der(&mut buf).unwrap().to_vec()
            };
            let at = u16::from_le_bytes([get(2), get(3)]);
            let rejected = mutate(&mut der, get(1), at, get(4));
            if op % 4 == 2 {
                if rejected {
                    assert!(DecapsulationKey::<P>::from_private_key_der(&der).is_err());
                }
                check_private::<P>(&der);
            } else {
                if rejected {
                    assert!(EncapsulationKey::<P>::from_spki_der(&der).is_err());
                }
                check_public::<P>(&der);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 3;
    match sel % 3 {
        0 => run::<MlKem512>(op, rest),
        1 => run::<MlKem768>(op, rest),
        _ => run::<MlKem1024>(op, rest),
    }
});
