//! NIST ACVP vectors for ML-KEM (FIPS 203): every group of
//! `ML-KEM-keyGen-FIPS203`, `ML-KEM-encapDecap-FIPS203` and the `-tr1`
//! revision (decapsulation keys given as a seed or in expanded form).
//!
//! Every test prints how many cases each group ran and fails if a group (or
//! a whole file) ran none.
#![cfg(all(
    feature = "ml_kem_512",
    feature = "ml_kem_768",
    feature = "ml_kem_1024"
))]

use pqdr_kat::acvp::{self, Value};
use pqdr_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet,
};

/// Calls `$f::<P>(args)` with `P` the parameter set named by `$name`.
macro_rules! dispatch {
    ($name:expr, $f:ident($($arg:expr),*)) => {
        match $name {
            "ML-KEM-512" => $f::<MlKem512>($($arg),*),
            "ML-KEM-768" => $f::<MlKem768>($($arg),*),
            "ML-KEM-1024" => $f::<MlKem1024>($($arg),*),
            other => panic!("unknown parameter set {other}"),
        }
    };
}

fn seed(t: &Value) -> [u8; 64] {
    let mut s = [0u8; 64];
    s[..32].copy_from_slice(&acvp::hex_field(t, "d"));
    s[32..].copy_from_slice(&acvp::hex_field(t, "z"));
    s
}

/// KeyGen_internal(d, z) → (ek, dk); also via `from_seed` and the seed export.
fn keygen_case<P: ParameterSet>(t: &Value) {
    let d: [u8; 32] = acvp::hex_array(t, "d");
    let z: [u8; 32] = acvp::hex_array(t, "z");
    let (dk, ek) = pqdr_mlkem::generate_deterministic::<P>(&d, &z);
    let id = &t["tcId"];
    assert_eq!(
        ek.as_bytes().as_ref(),
        acvp::hex_field(t, "ek"),
        "tcId {id}: ek"
    );
    assert_eq!(
        dk.as_bytes().as_ref(),
        acvp::hex_field(t, "dk"),
        "tcId {id}: dk"
    );
    assert_eq!(dk.encapsulation_key(), &ek);
    let s = seed(t);
    let dk2 = DecapsulationKey::<P>::from_seed(&s);
    assert_eq!(
        dk2.as_bytes().as_ref(),
        dk.as_bytes().as_ref(),
        "tcId {id}: from_seed"
    );
    assert_eq!(dk2.to_seed().as_deref(), Some(&s));
}

/// Encaps_internal(ek, m) → (c, k); the expanded dk decapsulates c to k.
fn encapsulation_case<P: ParameterSet>(t: &Value) {
    let id = &t["tcId"];
    let ek = EncapsulationKey::<P>::from_slice(&acvp::hex_field(t, "ek"))
        .unwrap_or_else(|_| panic!("tcId {id}: ek rejected"));
    let m: [u8; 32] = acvp::hex_array(t, "m");
    let (c, k) = ek.encapsulate_deterministic(&m);
    assert_eq!(
        c.as_bytes().as_ref(),
        acvp::hex_field(t, "c"),
        "tcId {id}: c"
    );
    assert_eq!(
        k.as_bytes().as_ref(),
        acvp::hex_field(t, "k"),
        "tcId {id}: k"
    );
    let dk = DecapsulationKey::<P>::from_slice(&acvp::hex_field(t, "dk"))
        .unwrap_or_else(|_| panic!("tcId {id}: dk rejected"));
    assert_eq!(dk.decapsulate(&c), k, "tcId {id}: decapsulation");
}

/// Decaps_internal(dk, c) → k (valid and modified ciphertexts); the key comes
/// from `dk` (expanded, "none") or from `d ‖ z` ("seed"). Returns whether the
/// case was a modified ciphertext.
fn decapsulation_case<P: ParameterSet>(t: &Value, key_format: &str) -> bool {
    let id = &t["tcId"];
    let dk_bytes = acvp::hex_field(t, "dk");
    let dk = if key_format == "seed" {
        let dk = DecapsulationKey::<P>::from_seed(&seed(t));
        assert_eq!(dk.as_bytes().as_ref(), dk_bytes, "tcId {id}: dk from seed");
        dk
    } else {
        DecapsulationKey::<P>::from_slice(&dk_bytes)
            .unwrap_or_else(|_| panic!("tcId {id}: dk rejected"))
    };
    let c = Ciphertext::<P>::from_slice(&acvp::hex_field(t, "c"))
        .unwrap_or_else(|_| panic!("tcId {id}: ciphertext length"));
    let k = dk.decapsulate(&c);
    assert_eq!(
        k.as_bytes().as_ref(),
        acvp::hex_field(t, "k"),
        "tcId {id}: k"
    );
    let reason = acvp::str_field(t, "reason");
    assert!(
        reason == "valid decapsulation" || reason == "modified ciphertext",
        "tcId {id}: unknown reason {reason:?}"
    );
    reason == "modified ciphertext"
}

/// §7.2 modulus check: `from_bytes(ek)` succeeds iff `testPassed`.
fn ek_check_case<P: ParameterSet>(t: &Value) -> bool {
    let expected = t["testPassed"].as_bool().expect("testPassed");
    let got = EncapsulationKey::<P>::from_slice(&acvp::hex_field(t, "ek")).is_ok();
    assert_eq!(
        got,
        expected,
        "tcId {}: {}",
        t["tcId"],
        acvp::str_field(t, "reason")
    );
    expected
}

/// §7.3 hash check: `DecapsulationKey::from_slice(dk)` succeeds iff `testPassed`.
fn dk_check_case<P: ParameterSet>(t: &Value) -> bool {
    let expected = t["testPassed"].as_bool().expect("testPassed");
    let got = DecapsulationKey::<P>::from_slice(&acvp::hex_field(t, "dk")).is_ok();
    assert_eq!(
        got,
        expected,
        "tcId {}: {}",
        t["tcId"],
        acvp::str_field(t, "reason")
    );
    expected
}

#[test]
fn acvp_keygen() {
    let v = acvp::load("ML-KEM-keyGen-FIPS203", "internalProjection.json");
    let mut total = 0;
    for g in acvp::groups(&v) {
        let set = acvp::str_field(g, "parameterSet");
        let tests = acvp::tests(g);
        for t in tests {
            dispatch!(set, keygen_case(t));
        }
        println!(
            "keyGen {set} (tgId {}): {} cases passed",
            g["tgId"],
            tests.len()
        );
        assert!(!tests.is_empty(), "empty group");
        total += tests.len();
    }
    println!("keyGen total: {total}");
    assert_eq!(total, 75);
}

/// Runs every group of an encapDecap file; returns cases per function.
fn encap_decap_file(folder: &str) -> [usize; 4] {
    let v = acvp::load(folder, "internalProjection.json");
    // encapsulation, decapsulation, encapsulationKeyCheck, decapsulationKeyCheck
    let mut counts = [0usize; 4];
    for g in acvp::groups(&v) {
        let set = acvp::str_field(g, "parameterSet");
        let function = acvp::str_field(g, "function");
        let key_format = acvp::str_field(g, "keyFormat");
        let tests = acvp::tests(g);
        let (mut positive, mut negative) = (0, 0);
        for t in tests {
            let ok = match function {
                "encapsulation" => {
                    dispatch!(set, encapsulation_case(t));
                    true
                }
                "decapsulation" => !dispatch!(set, decapsulation_case(t, key_format)),
                "encapsulationKeyCheck" => dispatch!(set, ek_check_case(t)),
                "decapsulationKeyCheck" => dispatch!(set, dk_check_case(t)),
                other => panic!("unknown function {other}"),
            };
            if ok {
                positive += 1;
            } else {
                negative += 1;
            }
        }
        let slot = match function {
            "encapsulation" => 0,
            "decapsulation" => 1,
            "encapsulationKeyCheck" => 2,
            _ => 3,
        };
        counts[slot] += tests.len();
        println!(
            "{folder} tgId {} {function} {set} keyFormat={key_format:?}: {} cases passed \
             ({positive} valid / {negative} invalid or modified)",
            g["tgId"],
            tests.len()
        );
        assert!(!tests.is_empty(), "empty group");
        if function != "encapsulation" {
            assert!(
                positive > 0 && negative > 0,
                "group lacks positive or negative cases"
            );
        }
    }
    println!(
        "{folder}: encapsulation {}, decapsulation {}, encapsulationKeyCheck {}, decapsulationKeyCheck {}",
        counts[0], counts[1], counts[2], counts[3]
    );
    counts
}

#[test]
fn acvp_encap_decap() {
    let counts = encap_decap_file("ML-KEM-encapDecap-FIPS203");
    assert_eq!(counts, [75, 30, 30, 30]);
}

#[test]
fn acvp_encap_decap_tr1_seed_and_expanded_keys() {
    let counts = encap_decap_file("ML-KEM-encapDecap-FIPS203-tr1");
    assert_eq!(counts, [75, 60, 30, 30]);
}
