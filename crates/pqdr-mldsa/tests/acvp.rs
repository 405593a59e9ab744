//! NIST ACVP vectors for ML-DSA (FIPS 204): keyGen, sigGen (plus the `-tr1`
//! revision with seed-format keys) and sigVer, every group. Prints the number
//! of cases per group; a group with zero cases, or any mismatch, fails.
#![cfg(all(feature = "ml_dsa_44", feature = "ml_dsa_65", feature = "ml_dsa_87"))]

use pqdr_kat::acvp::{self, Value, groups, hex_field, str_field, tests};
use pqdr_mldsa::{
    MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, Signature, SigningKey, VerifyingKey,
};

fn prehash(name: &str) -> PreHash {
    match name {
        "SHA2-224" => PreHash::Sha2_224,
        "SHA2-256" => PreHash::Sha2_256,
        "SHA2-384" => PreHash::Sha2_384,
        "SHA2-512" => PreHash::Sha2_512,
        "SHA2-512/224" => PreHash::Sha2_512_224,
        "SHA2-512/256" => PreHash::Sha2_512_256,
        "SHA3-224" => PreHash::Sha3_224,
        "SHA3-256" => PreHash::Sha3_256,
        "SHA3-384" => PreHash::Sha3_384,
        "SHA3-512" => PreHash::Sha3_512,
        "SHAKE-128" => PreHash::Shake128,
        "SHAKE-256" => PreHash::Shake256,
        other => panic!("unknown hashAlg {other}"),
    }
}

fn arr<const N: usize>(v: &[u8]) -> [u8; N] {
    v.try_into().expect("field length")
}

fn keygen_case<P: ParameterSet>(t: &Value) -> Result<(), String> {
    let seed: [u8; 32] = acvp::hex_array(t, "seed");
    let (sk, vk) = pqdr_mldsa::generate_deterministic::<P>(&seed);
    if vk.as_bytes().as_ref() != hex_field(t, "pk").as_slice() {
        return Err("pk differs".into());
    }
    if sk.as_bytes().as_ref() != hex_field(t, "sk").as_slice() {
        return Err("sk differs".into());
    }
    // The expanded key decodes, passes the consistency checks, and gives the same pk.
    let sk2 = SigningKey::<P>::from_slice(&hex_field(t, "sk")).map_err(|_| "sk rejected")?;
    if sk2.verifying_key() != &vk {
        return Err("pk from expanded sk differs".into());
    }
    Ok(())
}

/// The signing key of a sigGen case: `sk` (expanded) or `seed` (tr1 seed format).
fn signing_key<P: ParameterSet>(t: &Value) -> SigningKey<P> {
    if t.get("seed").is_some() {
        SigningKey::from_seed(&acvp::hex_array(t, "seed"))
    } else {
        SigningKey::from_slice(&hex_field(t, "sk")).expect("ACVP sk is valid")
    }
}

fn siggen_case<P: ParameterSet>(g: &Value, t: &Value, expected: &Value) -> Result<(), String> {
    let sk = signing_key::<P>(t);
    let rnd: [u8; 32] = if g["deterministic"].as_bool() == Some(true) {
        [0; 32]
    } else {
        acvp::hex_array(t, "rnd")
    };
    let sig = if str_field(g, "signatureInterface") == "internal" {
        if g["externalMu"].as_bool() == Some(true) {
            sk.sign_mu(&arr(&hex_field(t, "mu")), &rnd)
        } else {
            sk.sign_internal(&hex_field(t, "message"), &rnd)
        }
    } else {
        let msg = hex_field(t, "message");
        let ctx = hex_field(t, "context");
        if str_field(g, "preHash") == "preHash" {
            let ph = prehash(str_field(t, "hashAlg"));
            let mut buf = [0u8; 64];
            let digest = ph.digest(&msg, &mut buf);
            if rnd == [0; 32] && g["deterministic"].as_bool() == Some(true) {
                sk.sign_prehash_deterministic(ph, digest, &ctx)
                    .map_err(|_| "sign failed")?
            } else {
                sk.sign_prehash_with_rnd(ph, digest, &ctx, &rnd)
                    .map_err(|_| "sign failed")?
            }
        } else if g["deterministic"].as_bool() == Some(true) {
            sk.sign_deterministic(&msg, &ctx)
                .map_err(|_| "sign failed")?
        } else {
            sk.sign_with_rnd(&msg, &ctx, &rnd)
                .map_err(|_| "sign failed")?
        }
    };
    if sig.as_bytes().as_ref() != hex_field(expected, "signature").as_slice() {
        return Err("signature differs".into());
    }
    // The expanded key (Â and the secret NTTs cached) gives the same signature.
    let esk = sk.expand();
    let esig = if str_field(g, "signatureInterface") == "internal" {
        if g["externalMu"].as_bool() == Some(true) {
            esk.sign_mu(&arr(&hex_field(t, "mu")), &rnd)
        } else {
            esk.sign_internal(&hex_field(t, "message"), &rnd)
        }
    } else if str_field(g, "preHash") == "preHash" {
        let ph = prehash(str_field(t, "hashAlg"));
        let mut buf = [0u8; 64];
        let digest = ph.digest(&hex_field(t, "message"), &mut buf);
        esk.sign_prehash_with_rnd(ph, digest, &hex_field(t, "context"), &rnd)
            .map_err(|_| "sign failed")?
    } else {
        esk.sign_with_rnd(&hex_field(t, "message"), &hex_field(t, "context"), &rnd)
            .map_err(|_| "sign failed")?
    };
    if esig != sig {
        return Err("expanded-key signature differs".into());
    }
    // Our own signature also verifies through the matching interface.
    let vk = sk.verifying_key();
    let ok = if str_field(g, "signatureInterface") == "internal" {
        if g["externalMu"].as_bool() == Some(true) {
            vk.verify_mu(&arr(&hex_field(t, "mu")), &sig)
        } else {
            vk.verify_internal(&hex_field(t, "message"), &sig)
        }
    } else if str_field(g, "preHash") == "preHash" {
        let ph = prehash(str_field(t, "hashAlg"));
        let mut buf = [0u8; 64];
        let digest = ph.digest(&hex_field(t, "message"), &mut buf);
        vk.verify_prehash(ph, digest, &hex_field(t, "context"), &sig)
    } else {
        vk.verify(&hex_field(t, "message"), &hex_field(t, "context"), &sig)
    };
    ok.map_err(|_| "own signature does not verify".into())
}

fn sigver_case<P: ParameterSet>(g: &Value, t: &Value) -> Result<(), String> {
    let vk = VerifyingKey::<P>::from_slice(&hex_field(t, "pk")).map_err(|_| "pk rejected")?;
    let evk = vk.expand();
    let sig =
        Signature::<P>::from_slice(&hex_field(t, "signature")).map_err(|_| "signature length")?;
    let want = t["testPassed"].as_bool().expect("testPassed");
    // Every case runs through the compact key and the expanded (Â cached) key.
    let (got, got_expanded) = if str_field(g, "signatureInterface") == "internal" {
        if g["externalMu"].as_bool() == Some(true) {
            let mu = arr(&hex_field(t, "mu"));
            (vk.verify_mu(&mu, &sig), evk.verify_mu(&mu, &sig))
        } else {
            let m = hex_field(t, "message");
            (vk.verify_internal(&m, &sig), evk.verify_internal(&m, &sig))
        }
    } else if str_field(g, "preHash") == "preHash" {
        let ph = prehash(str_field(t, "hashAlg"));
        let mut buf = [0u8; 64];
        let digest = ph.digest(&hex_field(t, "message"), &mut buf);
        let ctx = hex_field(t, "context");
        (
            vk.verify_prehash(ph, digest, &ctx, &sig),
            evk.verify_prehash(ph, digest, &ctx, &sig),
        )
    } else {
        let (m, ctx) = (hex_field(t, "message"), hex_field(t, "context"));
        (vk.verify(&m, &ctx, &sig), evk.verify(&m, &ctx, &sig))
    };
    let (got, got_expanded) = (got.is_ok(), got_expanded.is_ok());
    if got == want && got_expanded == want {
        Ok(())
    } else {
        Err(format!(
            "verify = {got}, expanded-key verify = {got_expanded}, expected {want} ({})",
            str_field(t, "reason")
        ))
    }
}

fn describe(g: &Value) -> String {
    let mut d = format!("tg {:>2} {}", g["tgId"], str_field(g, "parameterSet"));
    for key in ["keyFormat", "signatureInterface", "preHash"] {
        let v = str_field(g, key);
        if !v.is_empty() && v != "none" {
            d.push(' ');
            d.push_str(v);
        }
    }
    if let Some(m) = g["externalMu"].as_bool() {
        d.push_str(if m { " externalMu" } else { "" });
    }
    if let Some(det) = g["deterministic"].as_bool() {
        d.push_str(if det { " deterministic" } else { " hedged" });
    }
    d
}

/// Runs `case` on every test of every group; prints per-group counts.
fn run(name: &str, doc: &Value, mut case: impl FnMut(&str, &Value, &Value) -> Result<(), String>) {
    let mut failures = Vec::new();
    let mut total = 0;
    for g in groups(doc) {
        let set = str_field(g, "parameterSet").to_string();
        let mut n = 0;
        for t in tests(g) {
            n += 1;
            if let Err(e) = case(&set, g, t) {
                failures.push(format!("{name} {} tcId {}: {e}", describe(g), t["tcId"]));
            }
        }
        println!("{name}: {}: {n} cases", describe(g));
        assert!(n > 0, "{name}: {} ran no case", describe(g));
        total += n;
    }
    println!("{name}: {total} cases in total, {} failed", failures.len());
    assert!(total > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

macro_rules! by_set {
    ($set:expr, $f:ident ( $($arg:expr),* )) => {
        match $set {
            "ML-DSA-44" => $f::<MlDsa44>($($arg),*),
            "ML-DSA-65" => $f::<MlDsa65>($($arg),*),
            "ML-DSA-87" => $f::<MlDsa87>($($arg),*),
            other => panic!("unknown parameter set {other}"),
        }
    };
}

#[test]
fn acvp_keygen() {
    let doc = acvp::load("ML-DSA-keyGen-FIPS204", "internalProjection.json");
    run("keyGen", &doc, |set, _, t| by_set!(set, keygen_case(t)));
}

fn siggen(folder: &str) {
    let prompt = acvp::load(folder, "prompt.json");
    let expected = acvp::load(folder, "expectedResults.json");
    let results = acvp::results_by_tcid(&expected);
    run(folder, &prompt, |set, g, t| {
        let id = t["tcId"].as_u64().expect("tcId");
        let e = results.get(&id).ok_or("no expected result")?;
        by_set!(set, siggen_case(g, t, e))
    });
}

#[test]
fn acvp_siggen() {
    siggen("ML-DSA-sigGen-FIPS204");
}

#[test]
fn acvp_siggen_tr1_seed_and_expanded_keys() {
    siggen("ML-DSA-sigGen-FIPS204-tr1");
}

#[test]
fn acvp_sigver() {
    let doc = acvp::load("ML-DSA-sigVer-FIPS204", "internalProjection.json");
    let mut invalid = 0;
    run("sigVer", &doc, |set, g, t| {
        if t["testPassed"].as_bool() == Some(false) {
            invalid += 1;
        }
        by_set!(set, sigver_case(g, t))
    });
    println!("sigVer: {invalid} invalid-signature cases rejected");
    assert!(invalid > 0);
}
