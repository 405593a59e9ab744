//! The `self-test` feature (issue #19): `self_test()` passes for every set,
//! and its known answers are those of the official vectors in `vectors/`.
//!
//! - Record 0 of `vectors/nist-kat/PQCkemKAT_ML-KEM-*.rsp.gz` is official: the
//!   SHA-256 of its text equals PQClean's `nistkat-sha256`
//!   (`vectors/kat-checksums.json`).
//! - The self-test's inputs `d ‖ z`, `m` are that record's DRBG draws
//!   (pqdr-kat's NIST AES-256-CTR DRBG seeded with its `seed`), and `z` is
//!   also the last 32 bytes of its `sk`.
//! - The expected digests are SHA3-256 (the `sha3` crate) of its `pk ‖ sk`,
//!   `ct ‖ ss` and `ss`; the implicit-rejection digest is that of
//!   `J(z ‖ c')` (the `shake` crate) for `c'` = its `ct` with bit 0 of byte 0
//!   flipped.
//! - That `J(z ‖ c)` formula is itself checked against every ACVP
//!   "modified ciphertext" decapsulation case (`ML-KEM-encapDecap-FIPS203`
//!   and its `-tr1` revision), with `z` read from the official `dk`.
#![cfg(feature = "self-test")]

use pqdr_common::hex::encode as hex;
use pqdr_kat::acvp::{self, Value};
use pqdr_kat::{Drbg, rsp};
use pqdr_mlkem::self_test::{KnownAnswers, known_answers, pairwise_consistency};
use pqdr_mlkem::{MlKem512, MlKem768, MlKem1024, ParameterSet};
use sha2::Sha256;
use sha3::{Digest, Sha3_256};
use shake::{ExtendableOutput, Update, XofReader};

/// `J(z ‖ c) = SHAKE256(z ‖ c, 32 bytes)` (FIPS 203 §4.1).
fn j(z: &[u8], c: &[u8]) -> [u8; 32] {
    let mut h = shake::Shake256::default();
    h.update(z);
    h.update(c);
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    out
}

fn sha3(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha3_256::new();
    for p in parts {
        Digest::update(&mut h, p);
    }
    h.finalize().into()
}

#[test]
fn self_test_passes_for_every_set() {
    assert_eq!(pqdr_mlkem::ml_kem_512::self_test(), Ok(()));
    assert_eq!(pqdr_mlkem::ml_kem_768::self_test(), Ok(()));
    assert_eq!(pqdr_mlkem::ml_kem_1024::self_test(), Ok(()));
}

/// The known answers recomputed from record 0 of the stored official file.
fn from_official_record<P: ParameterSet>() -> KnownAnswers {
    let path = pqdr_kat::vectors_dir()
        .join("nist-kat")
        .join(format!("PQCkemKAT_{}.rsp", P::NAME));
    let text = String::from_utf8(pqdr_kat::read_maybe_gz(&path).expect("rsp")).expect("UTF-8");
    // The record is official: its SHA-256 is PQClean's checksum.
    let sums: Value = serde_json::from_slice(
        &std::fs::read(pqdr_kat::vectors_dir().join("kat-checksums.json")).expect("checksums"),
    )
    .expect("JSON");
    let first = rsp::digest_input::first_record(&text);
    assert_eq!(
        hex(&Sha256::digest(first.as_bytes())),
        sums[P::NAME]["pqclean_nistkat_sha256"]
            .as_str()
            .expect("checksum"),
        "{}: record 0",
        P::NAME
    );
    let rec = &rsp::parse_file(&text).expect("parse").records[0];
    assert_eq!(rec.get("count"), Some("0"));
    let seed: [u8; 48] = rec.hex_array("seed").expect("seed");
    let (pk, sk) = (rec.hex("pk").expect("pk"), rec.hex("sk").expect("sk"));
    let (ct, ss) = (rec.hex("ct").expect("ct"), rec.hex("ss").expect("ss"));

    // The generator's draws: d ‖ z for key generation, then m.
    let mut drbg = Drbg::new(&seed);
    let d_z: [u8; 64] = drbg.bytes();
    let m: [u8; 32] = drbg.bytes();
    let z = &sk[sk.len() - 32..];
    assert_eq!(z, &d_z[32..], "{}: z is the end of sk", P::NAME);

    let mut bad = ct.clone();
    bad[0] ^= 1;
    KnownAnswers {
        seed: d_z,
        m,
        key_generation: sha3(&[&pk, &sk]),
        encapsulation: sha3(&[&ct, &ss]),
        decapsulation: sha3(&[&ss]),
        implicit_rejection: sha3(&[&j(z, &bad)]),
    }
}

#[test]
fn known_answers_are_the_official_record_0() {
    fn check<P: ParameterSet>() {
        let official = from_official_record::<P>();
        assert_eq!(known_answers::<P>(), &official, "{}", P::NAME);
    }
    check::<MlKem512>();
    check::<MlKem768>();
    check::<MlKem1024>();
    // The sets have different answers (a mix-up would show).
    assert_ne!(
        known_answers::<MlKem512>().key_generation,
        known_answers::<MlKem768>().key_generation
    );
}

/// The rejection formula used above, `J(z ‖ c)` with `z` the last 32 bytes
/// of the expanded `dk`, reproduces every official ACVP "modified
/// ciphertext" decapsulation result (and no "valid decapsulation" one).
#[test]
fn rejection_formula_matches_acvp_modified_ciphertexts() {
    let mut modified = 0;
    let mut valid = 0;
    for folder in ["ML-KEM-encapDecap-FIPS203", "ML-KEM-encapDecap-FIPS203-tr1"] {
        let file = acvp::load(folder, "internalProjection.json");
        for g in acvp::groups(&file) {
            if acvp::str_field(g, "function") != "decapsulation" {
                continue;
            }
            for t in acvp::tests(g) {
                let dk = acvp::hex_field(t, "dk");
                let c = acvp::hex_field(t, "c");
                let k = acvp::hex_field(t, "k");
                let z = &dk[dk.len() - 32..];
                if t.get("z").is_some() {
                    assert_eq!(acvp::hex_field(t, "z"), z, "tcId {}", t["tcId"]);
                }
                match acvp::str_field(t, "reason") {
                    "modified ciphertext" => {
                        assert_eq!(j(z, &c)[..], k[..], "tcId {}", t["tcId"]);
                        modified += 1;
                    }
                    "valid decapsulation" => {
                        assert_ne!(j(z, &c)[..], k[..], "tcId {}", t["tcId"]);
                        valid += 1;
                    }
                    other => panic!("tcId {}: unknown reason {other:?}", t["tcId"]),
                }
            }
        }
    }
    println!("ACVP decapsulation: {modified} modified, {valid} valid ciphertexts");
    assert!(modified >= 30 && valid >= 30, "{modified} / {valid}");
}

/// Through the public API: every key generation entry point runs the
/// pair-wise consistency test, and it accepts matching keys only.
#[test]
fn pairwise_consistency_through_the_public_api() {
    use pqdr_mlkem::ml_kem_768 as k;
    let (dk_a, ek_a) = k::generate_deterministic(&[1; 32], &[2; 32]);
    let dk_b = k::DecapsulationKey::from_seed(&[3; 64]);
    assert_eq!(pairwise_consistency(&dk_a, &ek_a), Ok(()));
    assert_eq!(
        pairwise_consistency(&dk_b, dk_b.encapsulation_key()),
        Ok(())
    );
    assert_eq!(
        pairwise_consistency(&dk_b, &ek_a),
        Err(pqdr_mlkem::Error::PairwiseConsistency)
    );
}
