//! The `self-test` feature (issue #19): `self_test()` passes for every set,
//! and its known answers are those of the official vectors in `vectors/`.
//!
//! - Record 0 of `vectors/nist-kat/PQCsignKAT_ML-DSA-*.rsp.gz` is official: the
//!   SHA-256 of its text equals PQClean's `nistkat-sha256`
//!   (`vectors/kat-checksums.json`). The self-test's ξ and `rnd` are that
//!   record's two DRBG draws (pqdr-kat's NIST AES-256-CTR DRBG seeded with
//!   its `seed`), its message is the record's `msg`, and the digests are
//!   SHA3-256 (the `sha3` crate) of its `pk ‖ sk` and of the signature part
//!   of its `sm`.
//! - The deterministic case is the named ACVP `ML-DSA-sigGen-FIPS204-tr1`
//!   test: seed key format, deterministic, internal interface; ξ′, `M′` and
//!   the digest of the expected signature come from `prompt.json` and
//!   `expectedResults.json`.
#![cfg(feature = "self-test")]

use pqdr_common::hex::encode as hex;
use pqdr_kat::acvp::{self, Value};
use pqdr_kat::{Drbg, rsp};
use pqdr_mldsa::self_test::{KnownAnswers, known_answers, pairwise_consistency};
use pqdr_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use sha2::Sha256;
use sha3::{Digest, Sha3_256};

fn sha3(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha3_256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

#[test]
fn self_test_passes_for_every_set() {
    assert_eq!(pqdr_mldsa::ml_dsa_44::self_test(), Ok(()));
    assert_eq!(pqdr_mldsa::ml_dsa_65::self_test(), Ok(()));
    assert_eq!(pqdr_mldsa::ml_dsa_87::self_test(), Ok(()));
}

/// The known answers recomputed from the stored official vectors; `tc_id`
/// names the ACVP deterministic-signing test.
fn from_official_vectors<P: ParameterSet>(tc_id: u64) -> KnownAnswers {
    let path = pqdr_kat::vectors_dir()
        .join("nist-kat")
        .join(format!("PQCsignKAT_{}.rsp", P::NAME));
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
    let message: [u8; 33] = rec.hex_array("msg").expect("msg");
    let (pk, sk) = (rec.hex("pk").expect("pk"), rec.hex("sk").expect("sk"));
    let sm = rec.hex("sm").expect("sm");
    assert_eq!(&sm[P::SIG_SIZE..], &message, "{}: sm = σ ‖ msg", P::NAME);
    let sig = &sm[..P::SIG_SIZE];

    // The generator's draws: ξ for key generation, then rnd for signing.
    let mut drbg = Drbg::new(&seed);
    let xi: [u8; 32] = drbg.bytes();
    let rnd: [u8; 32] = drbg.bytes();

    // The ACVP deterministic Sign_internal case.
    let prompt = acvp::load("ML-DSA-sigGen-FIPS204-tr1", "prompt.json");
    let expected = acvp::load("ML-DSA-sigGen-FIPS204-tr1", "expectedResults.json");
    let results = acvp::results_by_tcid(&expected);
    let (group, case) = acvp::groups(&prompt)
        .iter()
        .find_map(|g| {
            acvp::tests(g)
                .iter()
                .find(|t| t["tcId"].as_u64() == Some(tc_id))
                .map(|t| (g, t))
        })
        .expect("tcId");
    assert_eq!(acvp::str_field(group, "parameterSet"), P::NAME);
    assert_eq!(acvp::str_field(group, "keyFormat"), "seed");
    assert_eq!(acvp::str_field(group, "signatureInterface"), "internal");
    assert_eq!(group["deterministic"].as_bool(), Some(true));
    assert_eq!(group["externalMu"].as_bool(), Some(false));
    let det_sig = acvp::hex_field(results[&tc_id], "signature");
    assert_eq!(det_sig.len(), P::SIG_SIZE);

    KnownAnswers {
        xi,
        message,
        rnd,
        key_generation: sha3(&[&pk, &sk]),
        signature: sha3(&[sig]),
        deterministic_xi: acvp::hex_array(case, "seed"),
        deterministic_message: acvp::hex_array(case, "message"),
        deterministic_signature: sha3(&[&det_sig]),
    }
}

#[test]
fn known_answers_are_the_official_vectors() {
    fn check<P: ParameterSet>(tc_id: u64) {
        let official = from_official_vectors::<P>(tc_id);
        assert_eq!(known_answers::<P>(), &official, "{}", P::NAME);
    }
    check::<MlDsa44>(196);
    check::<MlDsa65>(258);
    check::<MlDsa87>(326);
    // The sets have different answers (a mix-up would show).
    assert_ne!(
        known_answers::<MlDsa44>().key_generation,
        known_answers::<MlDsa65>().key_generation
    );
}

/// Through the public API: the key generation entry points run the
/// pair-wise consistency test, and it accepts matching keys only.
#[test]
fn pairwise_consistency_through_the_public_api() {
    use pqdr_mldsa::ml_dsa_65 as s;
    let (sk_a, vk_a) = s::generate_deterministic(&[1; 32]);
    let sk_b = s::SigningKey::from_seed(&[3; 32]);
    assert_eq!(pairwise_consistency(&sk_a, &vk_a), Ok(()));
    assert_eq!(pairwise_consistency(&sk_b, sk_b.verifying_key()), Ok(()));
    assert_eq!(
        pairwise_consistency(&sk_b, &vk_a),
        Err(pqdr_mldsa::Error::PairwiseConsistency)
    );
}
