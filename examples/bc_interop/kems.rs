//! The KEM exchange (ML-KEM, X-Wing, sntrup, Classic McEliece): the same
//! steps as the Java side's `Kem`. `gen` writes the key-generation seed, the
//! key pair it gives, an encapsulation seed with the ciphertext and secret it
//! gives, and a ciphertext with one bit flipped with the secret our
//! decapsulation returns for it (implicit rejection); `check` redoes each step
//! from BouncyCastle's files.
//!
//! Seeds: ML-KEM `d ‖ z` (64 bytes, FIPS 203 Algorithm 16) and `m` (32 bytes,
//! Algorithm 17); X-Wing its 32-byte private key and 64-byte `eseed`;
//! sntrup and McEliece, which take a random source, the SHAKE256 stream of a
//! 32-byte seed ([`StreamRng`]).

use std::path::Path;

use crate::Exchange;
use crate::files::{self, Report, Result, StreamRng};

type Keys = (Vec<u8>, Vec<u8>);

/// One KEM parameter set: its operations on byte strings.
struct Kem {
    name: &'static str,
    seed_size: usize,
    eseed_size: usize,
    /// `(pk, sk)` from a key-generation seed.
    keygen: fn(&[u8]) -> Result<Keys>,
    /// `(ct, ss)` for `pk` from an encapsulation seed.
    encaps: fn(&[u8], &[u8]) -> Result<Keys>,
    decaps: fn(&[u8], &[u8]) -> Result<Vec<u8>>,
    /// Key files: written from the seed, checked against `(pk, sk)`.
    files: Option<(KeyFileWriter, KeyFileChecker)>,
}

type KeyFileWriter = fn(&Path, &[u8]) -> Result<()>;
type KeyFileChecker = fn(&str, &Path, &Keys, &mut Report);

fn random_vec(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    getrandom::fill(&mut v).expect("the OS random source works");
    v
}

impl Exchange for Kem {
    fn name(&self) -> &'static str {
        self.name
    }

    fn write(&self, dir: &Path) -> Result<()> {
        let seed = random_vec(self.seed_size);
        let (pk, sk) = (self.keygen)(&seed)?;
        let eseed = random_vec(self.eseed_size);
        let (ct, ss) = (self.encaps)(&pk, &eseed)?;
        let bad = files::flip(&ct, ct.len() - 1);
        files::write(dir, "seed", &seed)?;
        files::write(dir, "pk", &pk)?;
        files::write(dir, "sk", &sk)?;
        files::write(dir, "eseed", &eseed)?;
        files::write(dir, "ct", &ct)?;
        files::write(dir, "ss", &ss)?;
        files::write(dir, "ss.bad", &(self.decaps)(&sk, &bad)?)?;
        files::write(dir, "ct.bad", &bad)?;
        if let Some((write, _)) = self.files {
            write(dir, &seed)?;
        }
        Ok(())
    }

    fn check(&self, dir: &Path, r: &mut Report) {
        let name = self.name;
        let theirs = || -> Result<Keys> { Ok((files::read(dir, "pk")?, files::read(dir, "sk")?)) };
        r.check(name, "keygen from the same seed: equal pk and sk", || {
            Ok((self.keygen)(&files::read(dir, "seed")?)? == theirs()?)
        });
        r.check(
            name,
            "decaps of their ciphertext: equal shared secret",
            || {
                let ct = files::read(dir, "ct")?;
                Ok((self.decaps)(&theirs()?.1, &ct)? == files::read(dir, "ss")?)
            },
        );
        r.check(
            name,
            "encaps from the same randomness: equal ciphertext and secret",
            || {
                let (ct, ss) = (self.encaps)(&theirs()?.0, &files::read(dir, "eseed")?)?;
                Ok(ct == files::read(dir, "ct")? && ss == files::read(dir, "ss")?)
            },
        );
        r.check(
            name,
            "decaps of a modified ciphertext: equal implicit-rejection secret",
            || {
                let ct = files::read(dir, "ct.bad")?;
                Ok((self.decaps)(&theirs()?.1, &ct)? == files::read(dir, "ss.bad")?)
            },
        );
        if let Some((_, check)) = self.files {
            match theirs() {
                Ok(keys) => check(name, dir, &keys, r),
                Err(e) => r.check(name, "key files", || Err(e)),
            }
        }
    }
}

/// A slice as an `N`-byte array reference.
fn array<const N: usize>(b: &[u8]) -> Result<&[u8; N]> {
    b.try_into()
        .map_err(|_| format!("{} bytes, expected {N}", b.len()).into())
}

macro_rules! ml_kem {
    ($name:literal, $k:ident) => {{
        use pqdr_suite::mlkem::$k as k;
        Kem {
            name: $name,
            seed_size: 64,
            eseed_size: 32,
            keygen: |seed| {
                let dk = k::DecapsulationKey::from_seed(array(seed)?);
                Ok((
                    dk.encapsulation_key().as_bytes().to_vec(),
                    dk.as_bytes().to_vec(),
                ))
            },
            encaps: |pk, m| {
                let (ct, ss) =
                    k::EncapsulationKey::from_slice(pk)?.encapsulate_deterministic(array(m)?);
                Ok((ct.as_bytes().to_vec(), ss.as_bytes().to_vec()))
            },
            decaps: |sk, ct| {
                let dk = k::DecapsulationKey::from_slice(sk)?;
                Ok(dk
                    .decapsulate(&k::Ciphertext::from_slice(ct)?)
                    .as_bytes()
                    .to_vec())
            },
            files: Some((
                |dir, seed| {
                    use pqdr_suite::mlkem::PrivateKeyForm;
                    let dk = k::DecapsulationKey::from_seed(array(seed)?);
                    let mut out = vec![0u8; 8192];
                    files::write(
                        dir,
                        "pk.spki.der",
                        dk.encapsulation_key().to_spki_der(&mut out)?,
                    )?;
                    for (form, f) in [
                        ("seed", PrivateKeyForm::Seed),
                        ("expanded", PrivateKeyForm::ExpandedKey),
                        ("both", PrivateKeyForm::Both),
                    ] {
                        files::write(
                            dir,
                            &format!("sk.{form}.p8.der"),
                            dk.to_private_key_der(f, &mut out)?,
                        )?;
                    }
                    Ok(())
                },
                |name, dir, (pk, sk), r| {
                    r.check(
                        name,
                        "their pk with a coefficient set to 4095 (>= q) rejected (FIPS 203 §7.2)",
                        || {
                            let mut bad = pk.clone();
                            bad[0] = 0xff;
                            bad[1] |= 0x0f;
                            Ok(k::EncapsulationKey::from_slice(&bad).is_err())
                        },
                    );
                    r.check(
                        name,
                        "their expanded sk with a modified H(ek) rejected (FIPS 203 §7.3)",
                        || {
                            Ok(
                                k::DecapsulationKey::from_slice(&files::flip(sk, sk.len() - 40))
                                    .is_err(),
                            )
                        },
                    );
                    r.check(name, "SPKI file decodes to their public key", || {
                        let ek =
                            k::EncapsulationKey::from_spki_der(&files::read(dir, "pk.spki.der")?)?;
                        Ok(ek.as_bytes()[..] == pk[..])
                    });
                    for form in ["seed", "expanded", "both"] {
                        let what =
                            format!("PKCS#8 file ({form} form) decodes to their private key");
                        r.check(name, &what, || {
                            let der = files::read(dir, &format!("sk.{form}.p8.der"))?;
                            Ok(
                                k::DecapsulationKey::from_private_key_der(&der)?.as_bytes()[..]
                                    == sk[..],
                            )
                        });
                    }
                },
            )),
        }
    }};
}

/// BouncyCastle's key files for a set of `$k` (sntrup, Classic McEliece):
/// SubjectPublicKeyInfo and PKCS#8 with its OIDs, one private-key form.
macro_rules! bc_key_files {
    ($k:ident) => {
        Some((
            |dir, seed| {
                let (dk, ek) = $k::generate(&mut StreamRng::new(seed));
                let mut out =
                    vec![0u8; $k::ENCAPSULATION_KEY_SIZE + $k::DECAPSULATION_KEY_SIZE + 256];
                files::write(dir, "pk.spki.der", ek.to_spki_der(&mut out)?)?;
                files::write(dir, "sk.p8.der", dk.to_private_key_der(&mut out)?)?;
                Ok(())
            },
            |name, dir, (pk, sk), r| {
                r.check(name, "SPKI file decodes to their public key", || {
                    let ek =
                        $k::EncapsulationKey::from_spki_der(&files::read(dir, "pk.spki.der")?)?;
                    Ok(ek.as_bytes()[..] == pk[..])
                });
                r.check(name, "PKCS#8 file decodes to their private key", || {
                    let dk = $k::DecapsulationKey::from_private_key_der(&files::read(
                        dir,
                        "sk.p8.der",
                    )?)?;
                    Ok(dk.as_bytes()[..] == sk[..])
                });
            },
        ))
    };
}

macro_rules! sntrup {
    ($k:ident) => {{
        use pqdr_suite::ntrup::$k as k;
        Kem {
            name: stringify!($k),
            seed_size: 32,
            eseed_size: 32,
            keygen: |seed| {
                let (dk, ek) = k::generate(&mut StreamRng::new(seed));
                Ok((ek.as_bytes().to_vec(), dk.as_bytes().to_vec()))
            },
            encaps: |pk, eseed| {
                let ek = k::EncapsulationKey::from_slice(pk)?;
                let (ct, ss) = ek.encapsulate(&mut StreamRng::new(eseed));
                Ok((ct.as_bytes().to_vec(), ss.as_bytes().to_vec()))
            },
            decaps: |sk, ct| {
                let dk = k::DecapsulationKey::from_slice(sk)?;
                Ok(dk
                    .decapsulate(&k::Ciphertext::from_slice(ct)?)
                    .as_bytes()
                    .to_vec())
            },
            files: bc_key_files!(k),
        }
    }};
}

macro_rules! mceliece {
    ($k:ident) => {{
        use pqdr_suite::mceliece::$k as k;
        Kem {
            name: stringify!($k),
            seed_size: 32,
            eseed_size: 32,
            keygen: |seed| {
                let (dk, ek) = k::generate(&mut StreamRng::new(seed));
                Ok((ek.as_bytes().to_vec(), dk.as_bytes().to_vec()))
            },
            encaps: |pk, eseed| {
                let ek = k::EncapsulationKey::from_slice(pk)?;
                let (ct, ss) = ek.encapsulate(&mut StreamRng::new(eseed));
                Ok((ct.as_bytes().to_vec(), ss.as_bytes().to_vec()))
            },
            decaps: |sk, ct| {
                let dk = k::DecapsulationKey::from_slice(sk)?;
                Ok(dk
                    .decapsulate(&k::Ciphertext::from_slice(ct)?)
                    .as_bytes()
                    .to_vec())
            },
            files: bc_key_files!(k),
        }
    }};
}

fn x_wing() -> Kem {
    use pqdr_suite::hybrid::xwing;
    Kem {
        name: "x-wing",
        seed_size: xwing::SEED_SIZE,
        eseed_size: xwing::ENCAPSULATION_SEED_SIZE,
        keygen: |seed| {
            let (dk, ek) = xwing::generate_from_seed(array(seed)?);
            Ok((ek.as_bytes().to_vec(), dk.as_bytes().to_vec()))
        },
        encaps: |pk, eseed| {
            let ek = xwing::EncapsulationKey::from_slice(pk)?;
            let (ct, ss) = ek.encapsulate_deterministic(array(eseed)?);
            Ok((ct.as_bytes().to_vec(), ss.as_bytes().to_vec()))
        },
        decaps: |sk, ct| {
            let dk = xwing::DecapsulationKey::from_slice(sk)?;
            Ok(dk
                .decapsulate(&xwing::Ciphertext::from_slice(ct)?)
                .as_bytes()
                .to_vec())
        },
        files: None,
    }
}

/// Every KEM set both sides implement. BouncyCastle 1.87 has no
/// `mceliece348864*` sets, so they are not exchanged.
pub(crate) fn all() -> Vec<Box<dyn Exchange>> {
    vec![
        Box::new(ml_kem!("ml-kem-512", ml_kem_512)),
        Box::new(ml_kem!("ml-kem-768", ml_kem_768)),
        Box::new(ml_kem!("ml-kem-1024", ml_kem_1024)),
        Box::new(x_wing()),
        Box::new(sntrup!(sntrup653)),
        Box::new(sntrup!(sntrup761)),
        Box::new(sntrup!(sntrup857)),
        Box::new(sntrup!(sntrup953)),
        Box::new(sntrup!(sntrup1013)),
        Box::new(sntrup!(sntrup1277)),
        Box::new(mceliece!(mceliece460896)),
        Box::new(mceliece!(mceliece460896f)),
        Box::new(mceliece!(mceliece460896pc)),
        Box::new(mceliece!(mceliece460896pcf)),
        Box::new(mceliece!(mceliece6688128)),
        Box::new(mceliece!(mceliece6688128f)),
        Box::new(mceliece!(mceliece6688128pc)),
        Box::new(mceliece!(mceliece6688128pcf)),
        Box::new(mceliece!(mceliece6960119)),
        Box::new(mceliece!(mceliece6960119f)),
        Box::new(mceliece!(mceliece6960119pc)),
        Box::new(mceliece!(mceliece6960119pcf)),
        Box::new(mceliece!(mceliece8192128)),
        Box::new(mceliece!(mceliece8192128f)),
        Box::new(mceliece!(mceliece8192128pc)),
        Box::new(mceliece!(mceliece8192128pcf)),
    ]
}
