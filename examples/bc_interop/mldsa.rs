//! The ML-DSA exchange (FIPS 204), the same steps as the Java side's `MlDsa`:
//! keys from the 32-byte seed ξ (Algorithm 6 `ML-DSA.KeyGen_internal`); pure
//! ML-DSA (Algorithms 2 and 3) and HashML-DSA with SHA-512 (Algorithms 4 and
//! 5), both with a non-empty context, hedged (verified by the other side) and
//! deterministic (`rnd` = 0^32, compared byte for byte); the RFC 9881 key
//! files in the three private-key forms.

use std::path::Path;

use pqdr_suite::mldsa::{Error, PreHash, PrivateKeyForm};
use rand_core::UnwrapErr;
use sha2::{Digest, Sha512};

use crate::Exchange;
use crate::files::{self, Report, Result};

const FORMS: [(&str, PrivateKeyForm); 3] = [
    ("seed", PrivateKeyForm::Seed),
    ("expanded", PrivateKeyForm::ExpandedKey),
    ("both", PrivateKeyForm::Both),
];

macro_rules! ml_dsa {
    ($name:literal, $s:ident, $ty:ident) => {
        /// One ML-DSA parameter set.
        #[derive(Debug)]
        struct $ty;

        impl $ty {
            /// A signature of `msg` (pure, or HashML-DSA-SHA512 of it) with
            /// context `ctx`: hedged, or deterministic if `hedged` is false.
            fn sign(sk: &[u8], msg: &[u8], ctx: &[u8], prehash: bool, hedged: bool) -> Result<Vec<u8>> {
                use pqdr_suite::mldsa::$s as s;
                let sk = s::SigningKey::from_array(sk.try_into()?)?;
                let mut rng = UnwrapErr(getrandom::SysRng);
                let digest = Sha512::digest(msg);
                let sig = match (prehash, hedged) {
                    (false, true) => sk.sign(msg, ctx, &mut rng)?,
                    (false, false) => sk.sign_deterministic(msg, ctx)?,
                    (true, true) => sk.sign_prehash(PreHash::Sha2_512, &digest, ctx, &mut rng)?,
                    (true, false) => sk.sign_prehash_deterministic(PreHash::Sha2_512, &digest, ctx)?,
                };
                Ok(sig.as_bytes().to_vec())
            }

            fn verify(pk: &[u8], msg: &[u8], ctx: &[u8], prehash: bool, sig: &[u8]) -> Result<bool> {
                use pqdr_suite::mldsa::$s as s;
                let vk = s::VerifyingKey::from_array(pk.try_into()?);
                let sig = s::Signature::from_array(sig.try_into()?);
                Ok(if prehash {
                    vk.verify_prehash(PreHash::Sha2_512, &Sha512::digest(msg), ctx, &sig).is_ok()
                } else {
                    vk.verify(msg, ctx, &sig).is_ok()
                })
            }
        }

        impl Exchange for $ty {
            fn name(&self) -> &'static str {
                $name
            }

            fn write(&self, dir: &Path) -> Result<()> {
                use pqdr_suite::mldsa::$s as s;
                let xi: [u8; 32] = files::random();
                let (sk, vk) = s::generate_deterministic(&xi);
                let msg: [u8; 100] = files::random();
                let ctx: [u8; 17] = files::random();
                files::write(dir, "xi", &xi)?;
                files::write(dir, "pk", vk.as_bytes())?;
                files::write(dir, "sk", sk.as_bytes())?;
                files::write(dir, "msg", &msg)?;
                files::write(dir, "ctx", &ctx)?;
                for (kind, prehash) in [("pure", false), ("hash", true)] {
                    let hedged = Self::sign(sk.as_bytes(), &msg, &ctx, prehash, true)?;
                    files::write(dir, &format!("sig.{kind}"), &hedged)?;
                    let det = Self::sign(sk.as_bytes(), &msg, &ctx, prehash, false)?;
                    files::write(dir, &format!("sig.{kind}.det"), &det)?;
                }
                let mut out = vec![0u8; 8192];
                files::write(dir, "pk.spki.der", vk.to_spki_der(&mut out)?)?;
                for (form, f) in FORMS {
                    files::write(dir, &format!("sk.{form}.p8.der"), sk.to_private_key_der(f, &mut out)?)?;
                }
                Ok(())
            }

            fn check(&self, dir: &Path, r: &mut Report) {
                use pqdr_suite::mldsa::$s as s;
                let name = $name;
                let read = |f: &str| files::read(dir, f);
                r.check(name, "keygen from the same seed xi: equal pk and sk", || {
                    let (sk, vk) = s::generate_deterministic(&files::read_array(dir, "xi")?);
                    Ok(vk.as_bytes()[..] == read("pk")?[..] && sk.as_bytes()[..] == read("sk")?[..])
                });
                for (kind, file, prehash) in [("ML-DSA", "sig.pure", false), ("HashML-DSA-SHA512", "sig.hash", true)] {
                    r.check(name, &format!("{kind} hedged signature (with context) verifies"), || {
                        Self::verify(&read("pk")?, &read("msg")?, &read("ctx")?, prehash, &read(file)?)
                    });
                    r.check(name, &format!("{kind} signature of a modified message rejected"), || {
                        let msg = files::flip(&read("msg")?, 0);
                        Ok(!Self::verify(&read("pk")?, &msg, &read("ctx")?, prehash, &read(file)?)?)
                    });
                    r.check(name, &format!("{kind} signature under another context rejected"), || {
                        let ctx = files::flip(&read("ctx")?, 0);
                        Ok(!Self::verify(&read("pk")?, &read("msg")?, &ctx, prehash, &read(file)?)?)
                    });
                    r.check(name, &format!("{kind} deterministic signature: equal bytes"), || {
                        let sig = Self::sign(&read("sk")?, &read("msg")?, &read("ctx")?, prehash, false)?;
                        Ok(sig == read(&format!("{file}.det"))?)
                    });
                }
                r.check(name, "SPKI file decodes to their public key", || {
                    let vk = s::VerifyingKey::from_spki_der(&read("pk.spki.der")?)?;
                    Ok(vk.as_bytes()[..] == read("pk")?[..])
                });
                // BouncyCastle writes HashML-DSA keys under id-hash-ml-dsa-*-with-sha512;
                // RFC 9881 defines only the pure OIDs for keys (the key is the same).
                r.check(name, "HashML-DSA key files (id-hash-ml-dsa OID, not in RFC 9881) refused: Error::Algorithm", || {
                    let vk = s::VerifyingKey::from_spki_der(&read("pk.hash512.spki.der")?);
                    let sk = s::SigningKey::from_private_key_der(&read("sk.hash512.p8.der")?);
                    Ok(matches!(vk, Err(Error::Algorithm)) && matches!(sk, Err(Error::Algorithm)))
                });
                for (form, _) in FORMS {
                    r.check(name, &format!("PKCS#8 file ({form} form) decodes to their private key"), || {
                        let sk = s::SigningKey::from_private_key_der(&read(&format!("sk.{form}.p8.der"))?)?;
                        Ok(sk.as_bytes()[..] == read("sk")?[..])
                    });
                }
            }
        }
    };
}

ml_dsa!("ml-dsa-44", ml_dsa_44, MlDsa44);
ml_dsa!("ml-dsa-65", ml_dsa_65, MlDsa65);
ml_dsa!("ml-dsa-87", ml_dsa_87, MlDsa87);

pub(crate) fn all() -> Vec<Box<dyn Exchange>> {
    vec![Box::new(MlDsa44), Box::new(MlDsa65), Box::new(MlDsa87)]
}
