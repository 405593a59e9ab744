//! NIST-format KATs for ML-DSA-44/65/87: 100 records generated from the
//! standard `.req` seeds, compared by SHA-256 with `vectors/kat-checksums.json`
//! (first record = PQClean `nistkat-sha256`, all records = liboqs `all`, whole
//! file) and byte for byte with the stored `.rsp`; the stored files are also
//! re-checked record by record (`sign_check`, which opens every `sm`).
#![cfg(all(feature = "ml_dsa_44", feature = "ml_dsa_65", feature = "ml_dsa_87"))]

use pqdr_kat::checks::*;
use pqdr_kat::registry::{SignAlg, sign_by_name, sign_check, sign_rsp};
use pqdr_kat::rsp::sign_req;
mod kat_registry;

/// The registry entry named `name` (as `katsign` names it).
fn find_sign(name: &str) -> Option<&'static SignAlg> {
    sign_by_name(kat_registry::ALGORITHMS, name)
}

fn check(name: &str) {
    let alg = find_sign(name).expect("registered");
    let ours = sign_rsp(alg, &sign_req(100)).expect("rsp");
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
    let stored = stored_rsp(&format!("PQCsignKAT_{}", alg.header));
    assert!(
        ours == stored,
        "generated .rsp differs from the stored file"
    );
    let report = sign_check(alg, &stored).expect("parse");
    assert_clean_report(alg.header, &report, 100);
}

#[test]
fn kat_ml_dsa_44() {
    check("ml-dsa-44");
}

#[test]
fn kat_ml_dsa_65() {
    check("ml-dsa-65");
}

#[test]
fn kat_ml_dsa_87() {
    check("ml-dsa-87");
}

#[test]
fn sign_check_detects_a_tampered_signature() {
    let alg = find_sign("ml-dsa-44").expect("registered");
    let stored = stored_rsp(&format!("PQCsignKAT_{}", alg.header));
    // Flip one hex digit inside the first record's sm (past the signature's c̃).
    let pos = stored.find("sm = ").expect("sm") + 5 + 200;
    let mut bytes = stored.into_bytes();
    bytes[pos] = if bytes[pos] == b'0' { b'1' } else { b'0' };
    let tampered = String::from_utf8(bytes).expect("UTF-8");
    let report = sign_check(alg, &tampered).expect("parse");
    assert!(!report.mismatches.is_empty());
}

/// LEGACY round-3.1 Dilithium (feature `dilithium-r3`): our 100 records must
/// be the round-3 submission's `.rsp` byte for byte. No copy is stored; the
/// digests in `vectors/kat-checksums.json` come from PQClean's
/// `nistkat-sha256` (first record) and the official files
/// (bcgit/bc-test-data: 100 records and whole file).
#[cfg(feature = "dilithium-r3")]
mod dilithium_r3 {
    use super::*;
    use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};
    use pqdr_mldsa::dilithium_r3::{self, Round3Set, Signature, SigningKey, VerifyingKey};

    fn check(name: &str) {
        let alg = sign_by_name(kat_registry::DILITHIUM_R3, name).expect("registered");
        let ours = sign_rsp(alg, &sign_req(100)).expect("rsp");
        let want = &checksums()[alg.header];
        let field = |v: &serde_json::Value| v.as_str().expect("field").to_string();
        assert_digests(
            alg.header,
            &ours,
            100,
            Some(&field(&want["pqclean_nistkat_sha256"])),
            Some(&field(&want["official_round3_rsp"]["all_sha256"])),
            Some(&field(&want["official_round3_rsp"]["file_sha256"])),
        );
        let report = sign_check(alg, &ours).expect("parse");
        assert_clean_report(alg.header, &report, 100);
    }

    #[test]
    fn kat_dilithium2_round3() {
        check("dilithium2");
    }

    #[test]
    fn kat_dilithium3_round3() {
        check("dilithium3");
    }

    #[test]
    fn kat_dilithium5_round3() {
        check("dilithium5");
    }

    /// One PQClean round-3.1 Dilithium set, through `pqcrypto-dilithium` 0.4.6.
    struct Peer {
        keypair: fn() -> (Vec<u8>, Vec<u8>),
        sign: fn(&[u8], &[u8]) -> Vec<u8>,
        verify: fn(&[u8], &[u8], &[u8]) -> bool,
    }

    macro_rules! peer {
        ($m:ident) => {
            Peer {
                keypair: || {
                    let (pk, sk) = pqcrypto_dilithium::$m::keypair();
                    (pk.as_bytes().to_vec(), sk.as_bytes().to_vec())
                },
                sign: |sk, msg| {
                    let sk = pqcrypto_dilithium::$m::SecretKey::from_bytes(sk).expect("sk");
                    pqcrypto_dilithium::$m::detached_sign(msg, &sk)
                        .as_bytes()
                        .to_vec()
                },
                verify: |pk, msg, sig| {
                    let pk = pqcrypto_dilithium::$m::PublicKey::from_bytes(pk).expect("pk");
                    let sig =
                        pqcrypto_dilithium::$m::DetachedSignature::from_bytes(sig).expect("sig");
                    pqcrypto_dilithium::$m::verify_detached_signature(&sig, msg, &pk).is_ok()
                },
            }
        };
    }

    /// Both directions against PQClean, 8 key pairs each way: we verify
    /// their signatures and reject them for another message; their secret
    /// keys parse here and sign the same bytes (both sides are
    /// deterministic); they verify ours.
    fn differential<P: Round3Set>(peer: &Peer) {
        for i in 0..8u8 {
            let msg = [i; 77];
            let (pk, sk) = (peer.keypair)();
            let sig = (peer.sign)(&sk, &msg);
            let vk = VerifyingKey::<P>::from_slice(&pk).expect("pk");
            let s = Signature::<P>::from_slice(&sig).expect("sig length");
            assert!(dilithium_r3::verify(&vk, &msg, &s).is_ok(), "{}", P::NAME);
            assert!(dilithium_r3::verify(&vk, &msg[1..], &s).is_err());
            let ours = SigningKey::<P>::from_slice(&sk).expect("their sk parses");
            assert_eq!(ours.verifying_key().as_bytes().as_ref(), &pk[..]);
            assert_eq!(
                dilithium_r3::sign(&ours, &msg).as_bytes().as_ref(),
                &sig[..]
            );

            let (sk, vk) = dilithium_r3::generate_deterministic::<P>(&[i ^ 0x5a; 32]);
            let sig = dilithium_r3::sign(&sk, &msg);
            let pk = vk.as_bytes().as_ref();
            assert!((peer.verify)(pk, &msg, sig.as_bytes().as_ref()));
            assert!(!(peer.verify)(pk, &msg[1..], sig.as_bytes().as_ref()));
            assert_eq!(
                (peer.sign)(sk.as_bytes().as_ref(), &msg),
                sig.as_bytes().as_ref()
            );
        }
    }

    #[test]
    fn dilithium2_matches_pqclean_round3() {
        differential::<dilithium_r3::Dilithium2>(&peer!(dilithium2));
    }

    #[test]
    fn dilithium3_matches_pqclean_round3() {
        differential::<dilithium_r3::Dilithium3>(&peer!(dilithium3));
    }

    #[test]
    fn dilithium5_matches_pqclean_round3() {
        differential::<dilithium_r3::Dilithium5>(&peer!(dilithium5));
    }

    /// Malformed inputs are typed errors; a signature with a bad hint
    /// encoding (an index repeated) or a flipped c̃ bit does not verify.
    #[test]
    fn dilithium_r3_rejects_malformed_input() {
        use dilithium_r3::Dilithium3;
        use pqdr_mldsa::Error;
        assert!(matches!(
            VerifyingKey::<Dilithium3>::from_slice(&[0; 1951]),
            Err(Error::Length {
                expected: 1952,
                actual: 1951,
                ..
            })
        ));
        assert!(matches!(
            Signature::<Dilithium3>::from_slice(&[0; 3309]),
            Err(Error::Length { expected: 3293, .. })
        ));
        let (sk, vk) = dilithium_r3::generate_deterministic::<Dilithium3>(&[3; 32]);
        let mut bad_sk = sk.as_bytes().as_ref().to_vec();
        bad_sk[70] ^= 1; // inside tr (bytes 64..96)
        assert_eq!(
            SigningKey::<Dilithium3>::from_slice(&bad_sk).err(),
            Some(Error::InvalidKey)
        );
        let sig = dilithium_r3::sign(&sk, b"m");
        let mut b = sig.as_bytes().as_ref().to_vec();
        b[0] ^= 1;
        let s = Signature::<Dilithium3>::from_slice(&b).expect("length");
        assert_eq!(
            dilithium_r3::verify(&vk, b"m", &s),
            Err(Error::InvalidSignature)
        );
        // The hint's last k bytes are the row ends; a row end below the
        // previous one is a malformed hint.
        let mut b = sig.as_bytes().as_ref().to_vec();
        let n = b.len();
        b[n - 6] = 55;
        let s = Signature::<Dilithium3>::from_slice(&b).expect("length");
        assert_eq!(
            dilithium_r3::verify(&vk, b"m", &s),
            Err(Error::InvalidSignature)
        );
    }
}
