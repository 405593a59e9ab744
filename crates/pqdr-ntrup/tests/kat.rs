//! Official NTRU Prime round-3 KATs for the six sntrup sets: 100 records
//! generated from the standard `.req` seeds with the NIST DRBG, compared byte
//! for byte with the stored official `.rsp` files and by SHA-256 with
//! `vectors/nist-kat/SHA256SUMS` and `vectors/kat-checksums.json` (first record, all
//! records, whole file). Interoperability: every official `ct` decapsulates
//! under its official `sk` to its `ss` (`kem_check`), and a ciphertext we
//! encapsulate to each official `pk` decapsulates under the official `sk`.
#![cfg(all(
    feature = "sntrup653",
    feature = "sntrup761",
    feature = "sntrup857",
    feature = "sntrup953",
    feature = "sntrup1013",
    feature = "sntrup1277"
))]

use pqdr_kat::checks::*;
use pqdr_kat::registry::{KemAlg, kem_by_name, kem_check, kem_rsp};
use pqdr_kat::rsp::{self, digest_input, kem_req};
use pqdr_ntrup::{Ciphertext, DecapsulationKey, EncapsulationKey, ParameterSet};
mod kat_registry;

/// The registry entry named `name` (as `katkem` names it).
fn find_kem(name: &str) -> Option<&'static KemAlg> {
    kem_by_name(kat_registry::ALGORITHMS, name)
}

fn sha256sums_entry(name: &str) -> String {
    let path = pqdr_kat::vectors_dir().join("nist-kat").join("SHA256SUMS");
    let text = std::fs::read_to_string(path).expect("SHA256SUMS");
    let file = format!("{name}.rsp");
    text.lines()
        .find_map(|l| {
            let (hash, f) = l.split_once("  ")?;
            (f == file).then(|| hash.to_string())
        })
        .expect("listed in SHA256SUMS")
}

/// Encapsulates to each official pk (with a DRBG of our own) and decapsulates
/// with the official sk: both sides must agree; a prepared official sk gives
/// each official ct's official ss.
fn encapsulate_to_official_keys<S: ParameterSet>(stored: &str) -> usize {
    let file = rsp::parse_file(stored).expect("parse");
    let mut rng = pqdr_kat::Drbg::new(&[7u8; 48]);
    let mut n = 0;
    for rec in &file.records {
        let ek = EncapsulationKey::<S>::from_slice(&rec.hex("pk").expect("pk")).expect("pk length");
        let dk = DecapsulationKey::<S>::from_slice(&rec.hex("sk").expect("sk"))
            .expect("official sk is valid");
        assert_eq!(dk.encapsulation_key(), &ek);
        let (ct, ss) = ek.encapsulate(&mut rng);
        let ct = Ciphertext::<S>::from_slice(ct.as_bytes().as_ref()).expect("length");
        assert_eq!(dk.decapsulate(&ct).as_bytes(), ss.as_bytes());
        // The prepared key (kept transforms and Hash3(rho)) on the official
        // ct and ss, and on the official ct with one bit flipped (implicit
        // rejection: the same key as the plain official sk gives).
        let pdk = dk.prepare();
        let off_ct = Ciphertext::<S>::from_slice(&rec.hex("ct").expect("ct")).expect("ct length");
        let off_ss = rec.hex("ss").expect("ss");
        assert_eq!(&pdk.decapsulate(&off_ct).as_bytes()[..], &off_ss[..]);
        let mut bad = *off_ct.as_bytes();
        bad.as_mut()[0] ^= 1;
        let bad = Ciphertext::<S>::from_array(&bad);
        assert_eq!(pdk.decapsulate(&bad), dk.decapsulate(&bad));
        assert_ne!(&pdk.decapsulate(&bad).as_bytes()[..], &off_ss[..]);
        n += 1;
    }
    n
}

fn check<S: ParameterSet>() {
    let name = S::NAME;
    let alg = find_kem(name).expect("registered");
    let start = std::time::Instant::now();
    let ours = kem_rsp(alg, &kem_req(100)).expect("rsp");
    println!("{name}: 100 records generated in {:?}", start.elapsed());
    let stored = stored_rsp(name);
    if ours != stored {
        let diff = ours.lines().zip(stored.lines()).position(|(a, b)| a != b);
        panic!(
            "{name}: generated .rsp differs from the official file (first differing line: {diff:?})"
        );
    }
    let want = &checksums()[name]["official_round3_rsp"];
    let field = |v: &serde_json::Value| v.as_str().expect("field").to_string();
    assert_digests(
        name,
        &ours,
        100,
        Some(&field(&want["single_sha256"])),
        Some(&field(&want["all_sha256"])),
        Some(&field(&want["file_sha256"])),
    );
    assert_eq!(sha256_hex(&ours), sha256sums_entry(name));

    let report = kem_check(alg, &stored).expect("parse");
    assert_clean_report(name, &report, 100);
    let n = encapsulate_to_official_keys::<S>(&stored);
    println!("{name}: encapsulated to {n} official keys, all decapsulate");
    assert_eq!(n, 100);
}

#[test]
fn kat_sntrup653() {
    check::<pqdr_ntrup::Sntrup653>();
}

#[test]
fn kat_sntrup761() {
    check::<pqdr_ntrup::Sntrup761>();
}

#[test]
fn kat_sntrup857() {
    check::<pqdr_ntrup::Sntrup857>();
}

#[test]
fn kat_sntrup953() {
    check::<pqdr_ntrup::Sntrup953>();
}

#[test]
fn kat_sntrup1013() {
    check::<pqdr_ntrup::Sntrup1013>();
}

#[test]
fn kat_sntrup1277() {
    check::<pqdr_ntrup::Sntrup1277>();
}

/// The PQClean/liboqs draw pattern (`generate_pqclean` / `encapsulate_pqclean`)
/// reproduces PQClean's `nistkat-sha256` (first record) for every set.
fn pqclean_first_record<S: ParameterSet>() {
    let req = rsp::parse_file(&kem_req(1)).expect("req");
    let seed: [u8; 48] = req.records[0].hex_array("seed").expect("seed");
    let mut rng = pqdr_kat::Drbg::new(&seed);
    let (dk, ek) = DecapsulationKey::<S>::generate_pqclean(&mut rng);
    let (ct, ss) = ek.encapsulate_pqclean(&mut rng);
    let text = rsp::header("ignored")
        + &rsp::kem_record(
            0,
            &seed,
            ek.as_bytes().as_ref(),
            dk.as_bytes().as_ref(),
            ct.as_bytes().as_ref(),
            ss.as_bytes(),
        );
    let got = sha256_hex(&digest_input::first_record(&text));
    let want = checksums()[S::NAME]["pqclean_nistkat_sha256_pqclean_rng"]
        .as_str()
        .expect("field")
        .to_string();
    println!("{}: PQClean-pattern first record {got}", S::NAME);
    assert_eq!(got, want, "{}", S::NAME);
    assert_eq!(dk.decapsulate(&ct), ss);
}

/// liboqs's `all` checksum for sntrup761 (100 records, PQClean draw pattern).
#[test]
fn pqclean_pattern_matches_liboqs_all_sntrup761() {
    type S = pqdr_ntrup::Sntrup761;
    let req = rsp::parse_file(&kem_req(100)).expect("req");
    let mut text = rsp::header("ignored");
    for (count, rec) in req.records.iter().enumerate() {
        let seed: [u8; 48] = rec.hex_array("seed").expect("seed");
        let mut rng = pqdr_kat::Drbg::new(&seed);
        let (dk, ek) = DecapsulationKey::<S>::generate_pqclean(&mut rng);
        let (ct, ss) = ek.encapsulate_pqclean(&mut rng);
        text += &rsp::kem_record(
            count,
            &seed,
            ek.as_bytes().as_ref(),
            dk.as_bytes().as_ref(),
            ct.as_bytes().as_ref(),
            ss.as_bytes(),
        );
    }
    let got = sha256_hex(&digest_input::records(&text, 100));
    println!("sntrup761: PQClean-pattern 100 records {got}");
    assert_eq!(
        got,
        checksums()["sntrup761"]["liboqs_all"]
            .as_str()
            .expect("field")
    );
}

#[test]
fn pqclean_pattern_matches_pqclean_nistkat() {
    pqclean_first_record::<pqdr_ntrup::Sntrup653>();
    pqclean_first_record::<pqdr_ntrup::Sntrup761>();
    pqclean_first_record::<pqdr_ntrup::Sntrup857>();
    pqclean_first_record::<pqdr_ntrup::Sntrup953>();
    pqclean_first_record::<pqdr_ntrup::Sntrup1013>();
    pqclean_first_record::<pqdr_ntrup::Sntrup1277>();
}

#[test]
fn kem_check_detects_a_tampered_ciphertext() {
    let alg = find_kem("sntrup761").expect("registered");
    let stored = stored_rsp("sntrup761");
    let pos = stored.find("ct = ").expect("ct") + 5 + 100;
    let mut bytes = stored.into_bytes();
    bytes[pos] = if bytes[pos] == b'0' { b'1' } else { b'0' };
    let tampered = String::from_utf8(bytes).expect("UTF-8");
    let report = kem_check(alg, &tampered).expect("parse");
    assert!(!report.mismatches.is_empty());
}
