//! NIST-format KATs for ML-KEM-512/768/1024: 100 records generated from the
//! standard `.req` seeds, compared by SHA-256 with `vectors/kat-checksums.json`
//! (first record = PQClean `nistkat-sha256`, all records = liboqs `all`, whole
//! file) and byte for byte with the stored `.rsp`; the stored files are also
//! re-checked record by record (`kem_check`, which also decapsulates every `ct`).
#![cfg(all(
    feature = "ml_kem_512",
    feature = "ml_kem_768",
    feature = "ml_kem_1024"
))]

use pqdr_kat::checks::*;
use pqdr_kat::registry::{KemAlg, kem_by_name, kem_check, kem_rsp};
use pqdr_kat::rsp::kem_req;
mod kat_registry;

/// The registry entry named `name` (as `katkem` names it).
fn find_kem(name: &str) -> Option<&'static KemAlg> {
    kem_by_name(kat_registry::ALGORITHMS, name)
}

fn check(name: &str) {
    let alg = find_kem(name).expect("registered");
    let ours = kem_rsp(alg, &kem_req(100)).expect("rsp");
    let want = &checksums()[alg.header];
    let field = |v: &serde_json::Value| v.as_str().expect("field").to_string();
    assert_digests(
        alg.header,
        &ours,
        100,
        Some(&field(&want["pqclean_nistkat_sha256"])),
        Some(&field(&want["liboqs_all"])),
        Some(&field(&want["stored_file"]["file_sha256"])),
    );
    let stored = stored_rsp(&format!("PQCkemKAT_{}", alg.header));
    assert!(
        ours == stored,
        "generated .rsp differs from the stored file"
    );
    let report = kem_check(alg, &stored).expect("parse");
    assert_clean_report(alg.header, &report, 100);
}

#[test]
fn kat_ml_kem_512() {
    check("ml-kem-512");
}

#[test]
fn kat_ml_kem_768() {
    check("ml-kem-768");
}

#[test]
fn kat_ml_kem_1024() {
    check("ml-kem-1024");
}

#[test]
fn kem_check_detects_a_tampered_ciphertext() {
    let alg = find_kem("ml-kem-768").expect("registered");
    let stored = stored_rsp(&format!("PQCkemKAT_{}", alg.header));
    // Flip one hex digit inside the first record's ct.
    let pos = stored.find("ct = ").expect("ct") + 5 + 100;
    let mut bytes = stored.into_bytes();
    bytes[pos] = if bytes[pos] == b'0' { b'1' } else { b'0' };
    let tampered = String::from_utf8(bytes).expect("UTF-8");
    let report = kem_check(alg, &tampered).expect("parse");
    println!("tampered ct: {} mismatches", report.mismatches.len());
    assert!(!report.mismatches.is_empty());
}

/// LEGACY round-3 Kyber (feature `kyber-r3`): our 100 records must be the
/// round-3 submission's `.rsp` byte for byte. No copy is stored; the
/// digests in `vectors/kat-checksums.json` come from three independent
/// sources: PQClean's `nistkat-sha256` (first record), liboqs `all` (100
/// records) and the official file (bcgit/bc-test-data, whole file).
#[cfg(feature = "kyber-r3")]
mod kyber_r3 {
    use super::*;

    fn check(name: &str) {
        let alg = kem_by_name(kat_registry::KYBER_R3, name).expect("registered");
        let ours = kem_rsp(alg, &kem_req(100)).expect("rsp");
        let want = &checksums()[alg.header];
        let field = |v: &serde_json::Value| v.as_str().expect("field").to_string();
        assert_digests(
            alg.header,
            &ours,
            100,
            Some(&field(&want["pqclean_nistkat_sha256"])),
            Some(&field(&want["liboqs_all"])),
            Some(&field(&want["official_round3_rsp"]["file_sha256"])),
        );
        // Every record re-checked through decapsulation of its own `ct`.
        let report = kem_check(alg, &ours).expect("parse");
        assert_clean_report(alg.header, &report, 100);
    }

    #[test]
    fn kat_kyber512_round3() {
        check("kyber512");
    }

    #[test]
    fn kat_kyber768_round3() {
        check("kyber768");
    }

    #[test]
    fn kat_kyber1024_round3() {
        check("kyber1024");
    }

    use pqcrypto_traits::kem::{
        Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _,
    };
    use pqdr_mlkem::ParameterSet;
    use pqdr_mlkem::kyber_r3::{Ciphertext, DecapsulationKey, EncapsulationKey};

    /// Two byte strings: `(pk, sk)` or `(ct, ss)`.
    type Pair = (Vec<u8>, Vec<u8>);

    /// One PQClean round-3 Kyber set, through `pqcrypto-kyber` 0.7.9.
    struct Peer {
        keypair: fn() -> Pair,
        encapsulate: fn(&[u8]) -> Pair,
        decapsulate: fn(&[u8], &[u8]) -> Vec<u8>,
    }

    macro_rules! peer {
        ($m:ident) => {
            Peer {
                keypair: || {
                    let (pk, sk) = pqcrypto_kyber::$m::keypair();
                    (pk.as_bytes().to_vec(), sk.as_bytes().to_vec())
                },
                encapsulate: |pk| {
                    let pk = pqcrypto_kyber::$m::PublicKey::from_bytes(pk).expect("pk");
                    let (ss, ct) = pqcrypto_kyber::$m::encapsulate(&pk);
                    (ct.as_bytes().to_vec(), ss.as_bytes().to_vec())
                },
                decapsulate: |sk, ct| {
                    let sk = pqcrypto_kyber::$m::SecretKey::from_bytes(sk).expect("sk");
                    let ct = pqcrypto_kyber::$m::Ciphertext::from_bytes(ct).expect("ct");
                    pqcrypto_kyber::$m::decapsulate(&ct, &sk)
                        .as_bytes()
                        .to_vec()
                },
            }
        };
    }

    /// Both directions against PQClean, 16 key pairs each way: our
    /// decapsulation of their ciphertexts under their keys, their
    /// decapsulation of ours under our keys, and the implicit-rejection
    /// key `KDF(z ‖ H(c))` of a modified ciphertext on both sides.
    fn differential<P: ParameterSet>(peer: &Peer) {
        let mut drbg = pqdr_kat::Drbg::new(&[u8::try_from(P::K).expect("k"); 48]);
        for _ in 0..16 {
            // Their key pair and ciphertext, our decapsulation.
            let (pk, sk) = (peer.keypair)();
            let (ct, ss) = (peer.encapsulate)(&pk);
            let dk = DecapsulationKey::<P>::from_slice(&sk).expect("their sk parses");
            assert_eq!(dk.encapsulation_key().as_bytes().as_ref(), &pk[..]);
            let c = Ciphertext::<P>::from_slice(&ct).expect("ct");
            assert_eq!(
                dk.decapsulate(&c).as_bytes()[..],
                ss[..],
                "{}: their ct",
                P::NAME
            );
            let mut bad = ct.clone();
            bad[7] ^= 0x20;
            let c = Ciphertext::<P>::from_slice(&bad).expect("ct");
            assert_eq!(
                dk.decapsulate(&c).as_bytes()[..],
                (peer.decapsulate)(&sk, &bad)[..],
                "{}: implicit rejection",
                P::NAME
            );

            // Our key pair and ciphertext, their decapsulation; their
            // ciphertext to our public key.
            let dk = DecapsulationKey::<P>::generate_deterministic(
                &drbg.bytes::<32>(),
                &drbg.bytes::<32>(),
            );
            let ek = EncapsulationKey::<P>::from_slice(dk.encapsulation_key().as_bytes().as_ref())
                .expect("pk");
            let (ct, ss) = ek.encapsulate_deterministic(&drbg.bytes::<32>());
            let sk = dk.as_bytes().as_ref();
            assert_eq!(
                (peer.decapsulate)(sk, ct.as_bytes().as_ref())[..],
                ss.as_bytes()[..]
            );
            let (ct, ss) = (peer.encapsulate)(ek.as_bytes().as_ref());
            let c = Ciphertext::<P>::from_slice(&ct).expect("ct");
            assert_eq!(dk.decapsulate(&c).as_bytes()[..], ss[..]);
            let mut bad = ct;
            bad[0] ^= 1;
            let c = Ciphertext::<P>::from_slice(&bad).expect("ct");
            assert_eq!(
                dk.decapsulate(&c).as_bytes()[..],
                (peer.decapsulate)(sk, &bad)[..]
            );
        }
    }

    #[test]
    fn kyber512_matches_pqclean_round3() {
        differential::<pqdr_mlkem::kyber_r3::Kyber512>(&peer!(kyber512));
    }

    #[test]
    fn kyber768_matches_pqclean_round3() {
        differential::<pqdr_mlkem::kyber_r3::Kyber768>(&peer!(kyber768));
    }

    #[test]
    fn kyber1024_matches_pqclean_round3() {
        differential::<pqdr_mlkem::kyber_r3::Kyber1024>(&peer!(kyber1024));
    }

    /// Wrong lengths and an out-of-range coefficient are typed errors.
    #[test]
    fn kyber_r3_rejects_malformed_keys() {
        use pqdr_mlkem::Error;
        use pqdr_mlkem::kyber_r3::Kyber768;
        assert!(matches!(
            EncapsulationKey::<Kyber768>::from_slice(&[0; 1183]),
            Err(Error::Length {
                expected: 1184,
                actual: 1183,
                ..
            })
        ));
        assert_eq!(
            EncapsulationKey::<Kyber768>::from_slice(&[0xff; 1184]),
            Err(Error::InvalidKey)
        );
        let dk = DecapsulationKey::<Kyber768>::generate_deterministic(&[1; 32], &[2; 32]);
        let mut sk = dk.as_bytes().as_ref().to_vec();
        sk[2340] ^= 1; // inside the stored H(pk) (bytes 2336..2368)
        assert!(matches!(
            DecapsulationKey::<Kyber768>::from_slice(&sk),
            Err(Error::InvalidKey)
        ));
        assert!(Ciphertext::<Kyber768>::from_slice(&[0; 1087]).is_err());
    }
}
