//! NIST-format KATs for the ten round-4 Classic McEliece sets and the ten
//! ISO plaintext-confirmation (`pc`, `pcf`) sets.
//!
//! The 100-record `.rsp` files are 54–275 MB, so none is stored: the records
//! are generated from the standard `.req` seeds and hashed as the upstream
//! checksums in `vectors/kat-checksums.json` are (KAT-CHECKSUMS.md):
//! * first record, SHA-256 = PQClean `nistkat-sha256` = liboqs `single`;
//! * first 10 records, SHA-256 = liboqs `all` (liboqs stops at 10 for McEliece).
//!
//! Every record is also decapsulated back (`kem_check` on our own output).
//!
//! Every set runs its first 10 records by default (about 1.5 minutes in
//! release on two loaded cores for all ten sets). No round-4 checksum of the
//! full 100-record files is published (liboqs stops at 10 for McEliece), so
//! nothing longer can be checked against an upstream value.
//!
//! The `pc`/`pcf` sets are the round-3 submission's KEM (mceliece-20201010:
//! every set carried C1). They are checked against the whole-file MD5 of the
//! round-3 100-record `.rsp` (classic-mceliece-rust <= 2.0.2, header
//! `# kem/mceliece348864` etc., written by the `…-round3` registry entries),
//! and every record's `ct` is decapsulated back with its `sk`. The first-record
//! column "Round 3 (SUPERCOP-20191221)" of KAT-CHECKSUMS.md is not used: it is
//! the round-2 code (6452-byte secret key for 348864, AES-256-CTR seed
//! expansion), see the note in `vectors/KAT-CHECKSUMS.md`.
//! All ten run by default (about 80 s of CPU in release for the ten
//! 100-record files).
#![cfg(all(
    feature = "mceliece348864",
    feature = "mceliece348864f",
    feature = "mceliece460896",
    feature = "mceliece460896f",
    feature = "mceliece6688128",
    feature = "mceliece6688128f",
    feature = "mceliece6960119",
    feature = "mceliece6960119f",
    feature = "mceliece8192128",
    feature = "mceliece8192128f",
    feature = "mceliece348864pc",
    feature = "mceliece348864pcf",
    feature = "mceliece460896pc",
    feature = "mceliece460896pcf",
    feature = "mceliece6688128pc",
    feature = "mceliece6688128pcf",
    feature = "mceliece6960119pc",
    feature = "mceliece6960119pcf",
    feature = "mceliece8192128pc",
    feature = "mceliece8192128pcf",
))]

use md5::Md5;
use pqdr_kat::checks::*;
use pqdr_kat::registry::{KemAlg, kem_by_name, kem_check, kem_rsp};
use pqdr_kat::rsp::{self, digest_input, kem_req};
use sha2::Digest;
mod kat_registry;

/// The registry entry named `name` (as `katkem` names it).
fn find_kem(name: &str) -> Option<&'static KemAlg> {
    kem_by_name(kat_registry::ALGORITHMS, name)
}

fn check(name: &str, records: usize) {
    let alg = find_kem(name).expect("registered");
    let ours = kem_rsp(alg, &kem_req(records)).expect("rsp");
    let sums = checksums();
    let want = &sums[name];
    let first = sha256_hex(&digest_input::first_record(&ours));
    println!("{name}: first record {first}");
    assert_eq!(
        first,
        want["round4_pqclean_nistkat_sha256"]
            .as_str()
            .expect("field")
    );
    if records >= 10 {
        let ten = sha256_hex(&digest_input::records(&ours, 10));
        println!("{name}: 10 records   {ten}");
        assert_eq!(
            ten,
            want["round4_liboqs_all_first10"].as_str().expect("field")
        );
    }
    let report = kem_check(alg, &ours).expect("parse");
    assert_eq!(report.checked, records);
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
}

macro_rules! kat_tests {
    ($($test:ident, $name:literal;)*) => {$(
        #[test]
        fn $test() {
            check($name, 10);
        }
    )*};
}

kat_tests! {
    kat_mceliece348864, "mceliece348864";
    kat_mceliece348864f, "mceliece348864f";
    kat_mceliece460896, "mceliece460896";
    kat_mceliece460896f, "mceliece460896f";
    kat_mceliece6688128, "mceliece6688128";
    kat_mceliece6688128f, "mceliece6688128f";
    kat_mceliece6960119, "mceliece6960119";
    kat_mceliece6960119f, "mceliece6960119f";
    kat_mceliece8192128, "mceliece8192128";
    kat_mceliece8192128f, "mceliece8192128f";
}

/// Writes the round-3 `.rsp` of the `pc`/`pcf` set `pc_name` (100 records,
/// round-3 header) into an MD5, record by record, decapsulating every `ct`
/// with its `sk`; compares the MD5 with the round-3 value of the base set.
fn check_round3(pc_name: &str, base: &str) {
    let pc = find_kem(pc_name).expect("registered");
    let alg = find_kem(&format!("{base}-round3")).expect("registered");
    assert_eq!(alg.header, format!("kem/{base}"));
    let req = rsp::parse_file(&kem_req(100)).expect("req");
    let mut md5 = Md5::new();
    md5.update(rsp::header(alg.header).as_bytes());
    for (i, rec) in req.records.iter().enumerate() {
        let seed: [u8; 48] = rec.hex_array("seed").expect("seed");
        let o = (alg.record)(&seed);
        let text = rsp::kem_record(i, &seed, &o.pk, &o.sk, &o.ct, &o.ss);
        if i == 0 {
            // The `pc` entry is the same KEM under its ISO name.
            assert_eq!((pc.record)(&seed), o, "{pc_name}: record 0");
            let first = sha256_hex(&text[..text.len() - 1]);
            println!("{pc_name}: first record {first}");
        }
        md5.update(text.as_bytes());
        let ss = (pc.decapsulate)(&o.sk, &o.ct).expect("sizes");
        assert_eq!(ss, o.ss, "{pc_name}: decapsulation of record {i}");
        let mut bad = o.ct.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1; // a wrong C1 is rejected (implicitly)
        let k = (pc.decapsulate)(&o.sk, &bad).expect("sizes");
        assert_ne!(k, o.ss, "{pc_name}: record {i} with a corrupted C1");
    }
    let got: String = md5.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("{pc_name}: MD5 of the 100-record round-3 file {got}");
    let sums = checksums();
    let want = sums[base]["round3_full_rsp_md5_classic_mceliece_rust_v2"]
        .as_str()
        .expect("field");
    assert_eq!(got, want, "{pc_name}: round-3 MD5");
}

macro_rules! round3_tests {
    ($($(#[$attr:meta])* $test:ident, $name:literal, $base:literal;)*) => {$(
        #[test]
        $(#[$attr])*
        fn $test() {
            check_round3($name, $base);
        }
    )*};
}

round3_tests! {
    kat_round3_mceliece348864pc, "mceliece348864pc", "mceliece348864";
    kat_round3_mceliece348864pcf, "mceliece348864pcf", "mceliece348864f";
    kat_round3_mceliece460896pc, "mceliece460896pc", "mceliece460896";
    kat_round3_mceliece460896pcf, "mceliece460896pcf", "mceliece460896f";
    kat_round3_mceliece6688128pc, "mceliece6688128pc", "mceliece6688128";
    kat_round3_mceliece6688128pcf, "mceliece6688128pcf", "mceliece6688128f";
    kat_round3_mceliece6960119pc, "mceliece6960119pc", "mceliece6960119";
    kat_round3_mceliece6960119pcf, "mceliece6960119pcf", "mceliece6960119f";
    kat_round3_mceliece8192128pc, "mceliece8192128pc", "mceliece8192128";
    kat_round3_mceliece8192128pcf, "mceliece8192128pcf", "mceliece8192128f";
}
