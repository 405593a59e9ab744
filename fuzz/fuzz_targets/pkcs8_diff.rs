//! Differential fuzzing of the PKCS#8 / SubjectPublicKeyInfo decoders of
//! pqdr-mlkem (RFC 9935) and pqdr-mldsa (RFC 9881) against RustCrypto's
//! `ml-kem` 0.3 and `ml-dsa` 0.1 (feature `pkcs8`), on every parameter set.
//!
//! The first byte picks the set (`byte % 6`: ML-KEM-512/768/1024,
//! ML-DSA-44/65/87) and the input (`byte / 6 % 3`): 0 the rest of the input as
//! a private key, 1 as a public key, 2 a valid seed-form private key from the
//! next bytes of the input with one byte xor-ed at a fuzz position (reaching
//! the content checks more often than random DER does).
//!
//! RustCrypto decodes only the `seed` form and does not check the
//! AlgorithmIdentifier's parameters, an included `publicKey`, or (ML-KEM) the
//! public key's modulus check, all of which pqdr does (the RFCs require the
//! first two, FIPS 203 §7.2 the third). The checks allow exactly those
//! differences:
//! - both accept: the same key bytes;
//! - RustCrypto accepts, pqdr refuses: only for parameters
//!   (`Error::Algorithm`), a contradicting `publicKey`
//!   (`Error::InconsistentKey`) or an ML-KEM key failing the modulus check
//!   (`Error::InvalidKey`);
//! - pqdr accepts a `seed`-form private key (CHOICE tag 0x80) or a public
//!   key: RustCrypto must accept it too.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// The CHOICE tag of a PKCS#8 input's privateKey contents, if it parses.
fn choice_tag(der: &[u8]) -> Option<u8> {
    let info = pqdr_mlkem::pkcs8::PrivateKeyInfoRef::try_from(der).ok()?;
    info.private_key.as_bytes().first().copied()
}

macro_rules! kem_set {
    ($m:ident, $ours:ident, $rc:ident) => {
        mod $m {
            use ml_kem::pkcs8::{DecodePrivateKey as _, DecodePublicKey as _};
            use ml_kem::{ExpandedKeyEncoding as _, KeyExport as _};
            use pqdr_mlkem::{DecapsulationKey, EncapsulationKey, Error, PrivateKeyForm};
            type P = pqdr_mlkem::$ours;
            type Rc = ml_kem::$rc;

            pub fn private(der: &[u8]) {
                let ours = DecapsulationKey::<P>::from_private_key_der(der);
                let theirs = ml_kem::DecapsulationKey::<Rc>::from_pkcs8_der(der);
                match (&ours, &theirs) {
                    (Ok(o), Ok(t)) => {
                        #[allow(deprecated, reason = "the expanded form is what we compare")]
                        let t = t.to_expanded_bytes();
                        assert_eq!(o.as_bytes().as_slice(), t.as_slice());
                    }
                    (Err(e), Ok(_)) => assert!(
                        matches!(e, Error::Algorithm | Error::InconsistentKey),
                        "ml-kem accepts, pqdr refuses with {e:?}"
                    ),
                    (Ok(_), Err(e)) => assert!(
                        super::choice_tag(der) != Some(0x80),
                        "pqdr accepts a seed-form key ml-kem refuses: {e:?}"
                    ),
                    (Err(_), Err(_)) => {}
                }
            }

            pub fn public(der: &[u8]) {
                let ours = EncapsulationKey::<P>::from_spki_der(der);
                let theirs = ml_kem::EncapsulationKey::<Rc>::from_public_key_der(der);
                match (&ours, &theirs) {
                    (Ok(o), Ok(t)) => {
                        assert_eq!(o.as_bytes().as_slice(), t.to_bytes().as_slice())
                    }
                    (Err(e), Ok(_)) => assert!(
                        matches!(e, Error::Algorithm | Error::InvalidKey),
                        "ml-kem accepts, pqdr refuses with {e:?}"
                    ),
                    (Ok(_), Err(e)) => panic!("pqdr accepts a public key ml-kem refuses: {e:?}"),
                    (Err(_), Err(_)) => {}
                }
            }

            pub fn mutated(data: &[u8]) {
                let mut seed = [0u8; 64];
                let n = data.len().min(64);
                seed[..n].copy_from_slice(&data[..n]);
                let dk = DecapsulationKey::<P>::from_seed(&seed);
                let mut buf = [0u8; 8192];
                let mut der = dk
                    .to_private_key_der(PrivateKeyForm::Seed, &mut buf)
                    .expect("fits")
                    .to_vec();
                private(&der);
                if let (Some(&pos), Some(&x)) = (data.get(64), data.get(65)) {
                    let i = usize::from(pos) % der.len();
                    der[i] ^= x;
                    private(&der);
                }
            }
        }
    };
}

macro_rules! dsa_set {
    ($m:ident, $ours:ident, $rc:ident) => {
        mod $m {
            use ml_dsa::pkcs8::{DecodePrivateKey as _, DecodePublicKey as _};
            use pqdr_mldsa::{Error, PrivateKeyForm, SigningKey, VerifyingKey};
            type P = pqdr_mldsa::$ours;
            type Rc = ml_dsa::$rc;

            pub fn private(der: &[u8]) {
                let ours = SigningKey::<P>::from_private_key_der(der);
                let theirs = ml_dsa::SigningKey::<Rc>::from_pkcs8_der(der);
                match (&ours, &theirs) {
                    (Ok(o), Ok(t)) => {
                        assert_eq!(o.seed().map(|s| &s[..]), Some(&t.to_seed()[..]));
                        let vk = t.expanded_key().verifying_key().encode();
                        assert_eq!(o.verifying_key().as_bytes().as_slice(), vk.as_slice());
                    }
                    (Err(e), Ok(_)) => assert!(
                        matches!(e, Error::Algorithm | Error::InconsistentKey),
                        "ml-dsa accepts, pqdr refuses with {e:?}"
                    ),
                    (Ok(_), Err(e)) => assert!(
                        super::choice_tag(der) != Some(0x80),
                        "pqdr accepts a seed-form key ml-dsa refuses: {e:?}"
                    ),
                    (Err(_), Err(_)) => {}
                }
            }

            pub fn public(der: &[u8]) {
                let ours = VerifyingKey::<P>::from_spki_der(der);
                let theirs = ml_dsa::VerifyingKey::<Rc>::from_public_key_der(der);
                match (&ours, &theirs) {
                    (Ok(o), Ok(t)) => {
                        assert_eq!(o.as_bytes().as_slice(), t.encode().as_slice())
                    }
                    (Err(e), Ok(_)) => assert!(
                        matches!(e, Error::Algorithm),
                        "ml-dsa accepts, pqdr refuses with {e:?}"
                    ),
                    (Ok(_), Err(e)) => panic!("pqdr accepts a public key ml-dsa refuses: {e:?}"),
                    (Err(_), Err(_)) => {}
                }
            }

            pub fn mutated(data: &[u8]) {
                let mut xi = [0u8; 32];
                let n = data.len().min(32);
                xi[..n].copy_from_slice(&data[..n]);
                let sk = SigningKey::<P>::from_seed(&xi);
                let mut buf = [0u8; 8192];
                let mut der = sk
                    .to_private_key_der(PrivateKeyForm::Seed, &mut buf)
                    .expect("fits")
                    .to_vec();
                private(&der);
                if let (Some(&pos), Some(&x)) = (data.get(32), data.get(33)) {
                    let i = usize::from(pos) % der.len();
                    der[i] ^= x;
                    private(&der);
                }
            }
        }
    };
}

kem_set!(k512, MlKem512, MlKem512);
kem_set!(k768, MlKem768, MlKem768);
kem_set!(k1024, MlKem1024, MlKem1024);
dsa_set!(d44, MlDsa44, MlDsa44);
dsa_set!(d65, MlDsa65, MlDsa65);
dsa_set!(d87, MlDsa87, MlDsa87);

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 6 % 3;
    macro_rules! run {
        ($m:ident) => {
            match op {
                0 => $m::private(rest),
                1 => $m::public(rest),
                _ => $m::mutated(rest),
            }
        };
    }
    match sel % 6 {
        0 => run!(k512),
        1 => run!(k768),
        2 => run!(k1024),
        3 => run!(d44),
        4 => run!(d65),
        _ => run!(d87),
    }
});
