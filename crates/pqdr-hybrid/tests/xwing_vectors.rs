//! X-Wing against known answers from two independent sources (never our own
//! output):
//!
//! - the three vectors of draft-connolly-cfrg-xwing-kem-10 Appendix C
//!   (`vectors/hybrid/xwing-draft-connolly-10.txt`): seed → pk, (pk, eseed) →
//!   (ct, ss), (sk, ct) → ss;
//! - the two X-Wing (`kem_id` 0x647A) entries of Go 1.26's
//!   `crypto/hpke/testdata/hpke-pq.json` (`vectors/hybrid/hpke-pq-xwing.json`):
//!   ikmR → skRm (HPKE `DeriveKeyPair`, SHAKE256 `LabeledDerive`), skRm →
//!   pkRm, (pkRm, ikmE) → (enc, shared_secret), (skRm, enc) → shared_secret.
//!
//! Each check compares every byte, so one wrong byte in our output (or in
//! the data, see `flipped_vector_byte_is_detected`) fails the test.

mod common;

use common::{hex, hex_array, parse_draft_vectors};
use pqdr_hybrid::xwing::{self, Ciphertext, DecapsulationKey, EncapsulationKey};
use shake::{ExtendableOutput, Shake256, Update, XofReader};

const DRAFT: &str = include_str!("../../../vectors/hybrid/xwing-draft-connolly-10.txt");
const GO_HPKE: &str = include_str!("../../../vectors/hybrid/hpke-pq-xwing.json");

/// One (seed, eseed) → (pk, ct, ss) known answer.
struct Vector {
    seed: [u8; 32],
    pk: Vec<u8>,
    eseed: [u8; 64],
    ct: Vec<u8>,
    ss: [u8; 32],
}

fn draft_vectors() -> Vec<Vector> {
    parse_draft_vectors(DRAFT)
        .iter()
        .map(|r| {
            assert_eq!(r["seed"], r["sk"], "the draft's sk is the seed");
            Vector {
                seed: hex_array(&r["seed"]),
                pk: hex(&r["pk"]),
                eseed: hex_array(&r["eseed"]),
                ct: hex(&r["ct"]),
                ss: hex_array(&r["ss"]),
            }
        })
        .collect()
}

/// HPKE `LabeledDerive` with SHAKE256 (draft-ietf-hpke-pq, as Go's
/// `crypto/hpke` implements it): `SHAKE256(ikm ‖ "HPKE-v1" ‖ suite_id ‖
/// I2OSP(len(label), 2) ‖ label ‖ I2OSP(L, 2) ‖ context, L)`.
fn labeled_derive(suite_id: &[u8], ikm: &[u8], label: &[u8], context: &[u8], out: &mut [u8]) {
    let mut h = Shake256::default();
    h.update(ikm);
    h.update(b"HPKE-v1");
    h.update(suite_id);
    h.update(
        &u16::try_from(label.len())
            .expect("short label")
            .to_be_bytes(),
    );
    h.update(label);
    h.update(
        &u16::try_from(out.len())
            .expect("short output")
            .to_be_bytes(),
    );
    h.update(context);
    h.finalize_xof().read(out);
}

fn go_vectors() -> Vec<Vector> {
    let v: serde_json::Value = serde_json::from_str(GO_HPKE).expect("json");
    v.as_array()
        .expect("array")
        .iter()
        .map(|e| {
            let field = |k: &str| e[k].as_str().expect(k).to_owned();
            assert_eq!(e["kem_id"], 0x647A);
            // suite_id of the KEM = "KEM" ‖ I2OSP(kem_id, 2) (RFC 9180 §4.1).
            let mut suite = b"KEM".to_vec();
            suite.extend_from_slice(&xwing::HPKE_KEM_ID.to_be_bytes());
            let mut sk = [0u8; 32];
            labeled_derive(&suite, &hex(&field("ikmR")), b"DeriveKeyPair", b"", &mut sk);
            assert_eq!(
                sk.to_vec(),
                hex(&field("skRm")),
                "DeriveKeyPair(ikmR) = skRm"
            );
            Vector {
                seed: hex_array(&field("skRm")),
                pk: hex(&field("pkRm")),
                eseed: hex_array(&field("ikmE")),
                ct: hex(&field("enc")),
                ss: hex_array(&field("shared_secret")),
            }
        })
        .collect()
}

/// Runs every check of one vector; `Err` names the first mismatch.
fn check(v: &Vector) -> Result<(), &'static str> {
    let (dk, ek) = xwing::generate_from_seed(&v.seed);
    if ek.as_bytes()[..] != v.pk[..] {
        return Err("pk");
    }
    if dk.as_bytes() != &v.seed {
        return Err("sk");
    }
    let ek = EncapsulationKey::from_slice(&v.pk).map_err(|_| "pk parse")?;
    let (ct, ss) = ek.encapsulate_deterministic(&v.eseed);
    if ct.as_bytes()[..] != v.ct[..] {
        return Err("ct");
    }
    if ss.as_bytes() != &v.ss {
        return Err("ss (encapsulate)");
    }
    let dk = DecapsulationKey::from_slice(&v.seed).map_err(|_| "sk parse")?;
    let ct = Ciphertext::from_slice(&v.ct).map_err(|_| "ct parse")?;
    if dk.decapsulate(&ct).as_bytes() != &v.ss {
        return Err("ss (decapsulate)");
    }
    Ok(())
}

#[test]
fn draft_appendix_c_vectors() {
    let vectors = draft_vectors();
    assert_eq!(vectors.len(), 3);
    for (i, v) in vectors.iter().enumerate() {
        assert_eq!(check(v), Ok(()), "draft vector {i}");
    }
}

#[test]
fn go_hpke_pq_vectors() {
    let vectors = go_vectors();
    assert_eq!(vectors.len(), 2);
    for (i, v) in vectors.iter().enumerate() {
        assert_eq!(check(v), Ok(()), "Go hpke-pq vector {i}");
    }
}

/// The checks can fail: one flipped byte in any known answer is detected.
#[test]
fn flipped_vector_byte_is_detected() {
    let mut v = draft_vectors().remove(0);
    v.pk[1000] ^= 0x01;
    assert_eq!(check(&v), Err("pk"));

    let mut v = draft_vectors().remove(1);
    v.ct[1100] ^= 0x80; // in ct_X
    assert_eq!(check(&v), Err("ct"));

    let mut v = go_vectors().remove(0);
    v.ss[0] ^= 0x01;
    assert_eq!(check(&v), Err("ss (encapsulate)"));

    let mut v = go_vectors().remove(1);
    v.eseed[40] ^= 0x01; // the X25519 half of eseed
    assert_eq!(check(&v), Err("ct"));
}
