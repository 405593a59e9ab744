//! The `self-test` feature (issue #19): `self_test()` passes for every set,
//! and its known answers are those of the official round-3 KAT files.
//!
//! - Record 0 of `vectors/nist-kat/sntrup*.rsp.gz` is official: the SHA-256 of
//!   its text equals `official_round3_rsp.single_sha256` of
//!   `vectors/kat-checksums.json`.
//! - The self-test's inputs are re-derived from the record's `seed` with
//!   pqdr-kat's NIST AES-256-CTR DRBG and the reference generator's sampling
//!   (`urandom32` = one 4-byte draw; `Small_random`, `Short_random` with its
//!   sort; NTRU Prime spec §2.3 key generation and §2.3.7 `Encap`), written
//!   here from the spec, and checked against the record: `Small_encode(f)`
//!   and `rho` are fields of its `sk`, `g` times the `1/g` of its `sk` is 1
//!   in R/3 (schoolbook product here), and `r` gives its confirmation hash
//!   `Hash_2(Hash_3(r) ‖ Hash_4(pk))` and session key `Hash_1(Hash_3(r) ‖ C)`.
//! - The digests are `SHA-512(x)[0..32]` (the `sha2` crate) of its
//!   `pk ‖ sk`, `ct ‖ ss` and `ss`; the implicit-rejection digest is that of
//!   `Hash_0(Hash_3(rho) ‖ C')` for `C'` = its `ct` with bit 0 of byte 0
//!   flipped, `rho` read from its `sk` (as `tests/implicit_rejection.rs`).
#![cfg(feature = "self-test")]
#![allow(
    clippy::integer_division_remainder_used,
    reason = "test code on public values"
)]

mod common;

use common::hash_prefix;
use pqdr_common::hex::encode as hex;
use pqdr_kat::{Drbg, rsp};
use pqdr_ntrup::self_test::{KnownAnswers, known_answers, pairwise_consistency};
use pqdr_ntrup::{DecapsulationKey, ParameterSet};
use sha2::{Digest, Sha256, Sha512};

fn digest(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha512::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()[..32].try_into().expect("32 bytes")
}

#[test]
fn self_test_passes_for_every_set() {
    assert_eq!(pqdr_ntrup::sntrup653::self_test(), Ok(()));
    assert_eq!(pqdr_ntrup::sntrup761::self_test(), Ok(()));
    assert_eq!(pqdr_ntrup::sntrup857::self_test(), Ok(()));
    assert_eq!(pqdr_ntrup::sntrup953::self_test(), Ok(()));
    assert_eq!(pqdr_ntrup::sntrup1013::self_test(), Ok(()));
    assert_eq!(pqdr_ntrup::sntrup1277::self_test(), Ok(()));
}

/// The reference `urandom32`: one 4-byte draw, little-endian.
fn urandom32(drbg: &mut Drbg) -> u32 {
    u32::from_le_bytes(drbg.bytes())
}

/// `Small_random`: each coefficient `((urandom32 mod 2^30)·3 >> 30) − 1`.
fn small_random(drbg: &mut Drbg, p: usize) -> Vec<i8> {
    (0..p)
        .map(|_| {
            let v = (u64::from(urandom32(drbg) & 0x3fff_ffff) * 3) >> 30;
            i8::try_from(v).expect("0..=2") - 1
        })
        .collect()
}

/// `Short_random`: w words with the low bit cleared, p − w with the low two
/// bits `01`, sorted; each coefficient is `(word mod 4) − 1`.
fn short_random(drbg: &mut Drbg, p: usize, w: usize) -> Vec<i8> {
    let mut l: Vec<u32> = (0..p)
        .map(|i| {
            let x = urandom32(drbg);
            if i < w { x & !1 } else { (x & !3) | 1 }
        })
        .collect();
    l.sort_unstable();
    l.iter()
        .map(|x| i8::try_from(x & 3).expect("0..=3") - 1)
        .collect()
}

/// `Small_encode` (NTRU Prime spec §3.1): four coefficients `c + 1` per byte.
fn small_encode(f: &[i8]) -> Vec<u8> {
    let mut out = vec![0u8; f.len().div_ceil(4)];
    for (i, &c) in f.iter().enumerate() {
        out[i / 4] |= u8::try_from(c + 1).expect("0..=2") << (2 * (i % 4));
    }
    out
}

fn small_decode(s: &[u8], p: usize) -> Vec<i8> {
    (0..p)
        .map(|i| i8::try_from((s[i / 4] >> (2 * (i % 4))) & 3).expect("0..=3") - 1)
        .collect()
}

/// `a·b` in R/3 = Z/3\[x\]/(x^p − x − 1), schoolbook, coefficients in 0..3.
fn mul_r3(a: &[i8], b: &[i8]) -> Vec<i64> {
    let p = a.len();
    let mut r = vec![0i64; 2 * p - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            r[i + j] += i64::from(x) * i64::from(y);
        }
    }
    // x^k = x^(k−p+1) + x^(k−p) for k ≥ p.
    for k in (p..2 * p - 1).rev() {
        let c = r[k];
        r[k] = 0;
        r[k - p] += c;
        r[k - p + 1] += c;
    }
    r.truncate(p);
    r.iter().map(|c| c.rem_euclid(3)).collect()
}

/// The known answers recomputed from record 0 of the stored official file.
fn from_official_record<S: ParameterSet>() -> KnownAnswers<'static> {
    let (p, w) = (S::P, S::W);
    let path = pqdr_kat::vectors_dir()
        .join("nist-kat")
        .join(format!("{}.rsp", S::NAME));
    let text = String::from_utf8(pqdr_kat::read_maybe_gz(&path).expect("rsp")).expect("UTF-8");
    // The record is official: its SHA-256 is the round-3 checksum.
    let sums: serde_json::Value = serde_json::from_slice(
        &std::fs::read(pqdr_kat::vectors_dir().join("kat-checksums.json")).expect("checksums"),
    )
    .expect("JSON");
    let first = rsp::digest_input::first_record(&text);
    assert_eq!(
        hex(&Sha256::digest(first.as_bytes())),
        sums[S::NAME]["official_round3_rsp"]["single_sha256"]
            .as_str()
            .expect("checksum"),
        "{}: record 0",
        S::NAME
    );
    let rec = &rsp::parse_file(&text).expect("parse").records[0];
    assert_eq!(rec.get("count"), Some("0"));
    let seed: [u8; 48] = rec.hex_array("seed").expect("seed");
    let (pk, sk) = (rec.hex("pk").expect("pk"), rec.hex("sk").expect("sk"));
    let (ct, ss) = (rec.hex("ct").expect("ct"), rec.hex("ss").expect("ss"));

    // sk = Small_encode(f) ‖ Small_encode(1/g) ‖ pk ‖ rho ‖ Hash_4(pk).
    let b = p.div_ceil(4);
    assert_eq!(sk.len(), 3 * b + pk.len() + 32, "{}", S::NAME);
    let (f_sk, ginv_sk) = (&sk[..b], &sk[b..2 * b]);
    let rho_sk = &sk[2 * b + pk.len()..3 * b + pk.len()];
    assert_eq!(&sk[2 * b..2 * b + pk.len()], &pk[..]);
    assert_eq!(&sk[3 * b + pk.len()..], hash_prefix(4, &[&pk]));

    // The generator's draws: g (again while not invertible in R/3), f, rho, then r.
    let mut drbg = Drbg::new(&seed);
    let ginv = small_decode(ginv_sk, p);
    let mut one = vec![0i64; p];
    one[0] = 1;
    let mut g = small_random(&mut drbg, p);
    let mut attempts = 1;
    while mul_r3(&g, &ginv) != one {
        assert!(attempts < 10, "{}: no g matches 1/g", S::NAME);
        g = small_random(&mut drbg, p);
        attempts += 1;
    }
    let f = small_encode(&short_random(&mut drbg, p, w));
    let mut rho = vec![0u8; b];
    drbg.fill(&mut rho);
    let r = small_encode(&short_random(&mut drbg, p, w));
    assert_eq!(f, f_sk, "{}: f", S::NAME);
    assert_eq!(rho, rho_sk, "{}: rho", S::NAME);
    let cache = hash_prefix(4, &[&pk]);
    let h3r = hash_prefix(3, &[&r]);
    assert_eq!(
        &ct[ct.len() - 32..],
        hash_prefix(2, &[&h3r, &cache]),
        "{}: confirmation",
        S::NAME
    );
    assert_eq!(ss, hash_prefix(1, &[&h3r, &ct]), "{}: session key", S::NAME);

    let mut bad = ct.clone();
    bad[0] ^= 1;
    let rejection = hash_prefix(0, &[&hash_prefix(3, &[&rho]), &bad]);
    KnownAnswers {
        f: f.leak(),
        g: small_encode(&g).leak(),
        rho: rho.leak(),
        r: r.leak(),
        key_generation: digest(&[&pk, &sk]),
        encapsulation: digest(&[&ct, &ss]),
        decapsulation: digest(&[&ss]),
        implicit_rejection: digest(&[&rejection]),
    }
}

#[test]
fn known_answers_are_the_official_record_0() {
    fn check<S: ParameterSet>() {
        let official = from_official_record::<S>();
        assert_eq!(known_answers::<S>(), &official, "{}", S::NAME);
    }
    check::<pqdr_ntrup::Sntrup653>();
    check::<pqdr_ntrup::Sntrup761>();
    check::<pqdr_ntrup::Sntrup857>();
    check::<pqdr_ntrup::Sntrup953>();
    check::<pqdr_ntrup::Sntrup1013>();
    check::<pqdr_ntrup::Sntrup1277>();
}

/// Through the public API: the key generation entry points run the
/// pair-wise consistency test, and it accepts matching keys only.
#[test]
fn pairwise_consistency_through_the_public_api() {
    use pqdr_ntrup::Sntrup761 as S;
    let mut rng = common::TestRng::new(7);
    let (dk_a, ek_a) = DecapsulationKey::<S>::generate(&mut rng);
    let (dk_b, ek_b) = DecapsulationKey::<S>::try_generate(&mut rng).expect("infallible");
    let kat = known_answers::<S>();
    let input = |b: &[u8]| <[u8; 191]>::try_from(b).expect("length");
    let (dk_c, ek_c) = pqdr_ntrup::sntrup761::generate_deterministic(
        &input(kat.f),
        &input(kat.g),
        &input(kat.rho),
    )
    .expect("valid");
    for (dk, ek) in [(&dk_a, &ek_a), (&dk_b, &ek_b), (&dk_c, &ek_c)] {
        assert_eq!(pairwise_consistency(dk, ek), Ok(()));
    }
    assert_eq!(
        pairwise_consistency(&dk_a, &ek_b),
        Err(pqdr_ntrup::Error::PairwiseConsistency)
    );
    assert_eq!(
        pairwise_consistency(&dk_c, &ek_a),
        Err(pqdr_ntrup::Error::PairwiseConsistency)
    );
}
