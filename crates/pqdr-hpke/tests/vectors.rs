//! Known answers: Go 1.26.8's `crypto/hpke/testdata` (`vectors/hpke/`):
//! `rfc9180-go.json` (the RFC 9180 Appendix A suites, with Go's accumulated
//! 1000-message digests) and `hpke-pq-go.json` (draft-ietf-hpke-pq vectors).
//! Every vector whose KEM, KDF and AEAD we implement is checked; the test
//! fails if fewer than the expected number ran.

use pqdr_hpke::{Aead, Kem, PrivateKey, PublicKey, Recipient, Sender, Suite};
use serde_json::Value;
use shake::{ExtendableOutput, Shake128, Update, XofReader};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn field<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or("")
}

/// Go's `drawRandomInput`: a length byte, then that many bytes.
fn draw(r: &mut impl XofReader) -> Vec<u8> {
    let mut l = [0u8; 1];
    r.read(&mut l);
    let mut b = vec![0u8; usize::from(l[0])];
    r.read(&mut b);
    b
}

/// Runs one vector; `false` if its suite is not implemented.
fn check(v: &Value) -> bool {
    let id = |k: &str| u16::try_from(v[k].as_u64().expect("id")).expect("u16");
    let Ok(suite) = Suite::from_ids(id("kem_id"), id("kdf_id"), id("aead_id")) else {
        return false;
    };
    assert_eq!(v["mode"].as_u64(), Some(0));
    let name = format!("{:?}", suite);
    let pkrm = hex(field(v, "pkRm"));
    let skrm = hex(field(v, "skRm"));
    let info = hex(field(v, "info"));
    let pk = PublicKey::from_bytes(suite.kem, &pkrm).expect("pkRm");
    assert_eq!(pk.as_bytes(), &pkrm[..], "{name}");
    let sk = PrivateKey::from_bytes(suite.kem, &skrm).expect("skRm");
    assert_eq!(sk.public_key().as_bytes(), &pkrm[..], "{name}: pk(skRm)");
    let derived = PrivateKey::derive(suite.kem, &hex(field(v, "ikmR"))).expect("derive");
    assert_eq!(derived.as_bytes(), &skrm[..], "{name}: DeriveKeyPair(ikmR)");
    assert_eq!(derived.public_key().as_bytes(), &pkrm[..], "{name}");

    let ikme = hex(field(v, "ikmE"));
    // Go's setupDerandomizedEncap: MLKEM768-P256's ikmE carries spare
    // rejection-sampling candidates after the first 64 bytes.
    let ikme = &ikme[..suite.kem.encap_randomness_size().min(ikme.len())];
    let (enc, mut sender) =
        Sender::new_deterministic(&suite, &pk, &info, None, ikme).expect("encap");
    assert_eq!(enc.as_bytes(), &hex(field(v, "enc"))[..], "{name}: enc");
    assert_eq!(enc.as_bytes().len(), suite.kem.enc_size());
    let mut recipient = Recipient::new(&suite, &sk, enc.as_bytes(), &info, None).expect("decap");

    if suite.aead == Aead::ExportOnly {
        assert!(sender.seal(b"", b"", &mut [0u8; 16]).is_err());
        assert!(recipient.open(b"", &[0u8; 16], &mut []).is_err());
    } else if let Some(acc) = v["encryptions_accumulated"].as_str() {
        let (mut source, mut sink) = (Shake128::default().finalize_xof(), Shake128::default());
        for _ in 0..1000 {
            let aad = draw(&mut source);
            let pt = draw(&mut source);
            let ct = sender.seal_to_vec(&aad, &pt).expect("seal");
            sink.update(&ct);
            assert_eq!(recipient.open_to_vec(&aad, &ct).expect("open"), pt);
        }
        let mut got = [0u8; 16];
        sink.finalize_xof().read(&mut got);
        assert_eq!(&got[..], &hex(acc)[..], "{name}: encryptions_accumulated");
    } else {
        let encs = v["encryptions"].as_array().expect("encryptions");
        assert!(!encs.is_empty());
        for e in encs {
            let (aad, pt) = (hex(field(e, "aad")), hex(field(e, "pt")));
            let ct = sender.seal_to_vec(&aad, &pt).expect("seal");
            assert_eq!(ct, hex(field(e, "ct")), "{name}: ct");
            assert_eq!(recipient.open_to_vec(&aad, &ct).expect("open"), pt);
        }
    }

    if let Some(acc) = v["exports_accumulated"].as_str() {
        let (mut source, mut sink) = (Shake128::default().finalize_xof(), Shake128::default());
        for l in 0..1000 {
            let ctx = draw(&mut source);
            let mut a = vec![0u8; l];
            let mut b = vec![0u8; l];
            sender.export(&ctx, &mut a).expect("export");
            recipient.export(&ctx, &mut b).expect("export");
            assert_eq!(a, b);
            sink.update(&a);
        }
        let mut got = [0u8; 16];
        sink.finalize_xof().read(&mut got);
        assert_eq!(&got[..], &hex(acc)[..], "{name}: exports_accumulated");
    } else {
        let exps = v["exports"].as_array().expect("exports");
        assert!(!exps.is_empty());
        for x in exps {
            let l = usize::try_from(x["L"].as_u64().expect("L")).expect("L");
            let mut a = vec![0u8; l];
            let mut b = vec![0u8; l];
            sender
                .export(&hex(field(x, "exporter_context")), &mut a)
                .expect("export");
            recipient
                .export(&hex(field(x, "exporter_context")), &mut b)
                .expect("export");
            assert_eq!(a, hex(field(x, "exported_value")), "{name}: export");
            assert_eq!(a, b);
        }
    }
    true
}

fn run(json: &str) -> Vec<(Kem, u16, u16)> {
    let vs: Vec<Value> = serde_json::from_str(json).expect("json");
    vs.iter()
        .filter(|v| check(v))
        .map(|v| {
            let id = |k: &str| u16::try_from(v[k].as_u64().unwrap_or(0)).unwrap_or(0);
            (
                Kem::from_id(id("kem_id")).expect("kem"),
                id("kdf_id"),
                id("aead_id"),
            )
        })
        .collect()
}

#[test]
fn rfc9180_dhkem_x25519_go_vectors() {
    let ran = run(include_str!("../../../vectors/hpke/rfc9180-go.json"));
    // DHKEM(X25519) × {HKDF-SHA256, HKDF-SHA512} × 4 AEADs; P-256 / P-521 skipped.
    assert_eq!(ran.len(), 8, "{ran:?}");
    assert!(ran.iter().all(|r| r.0 == Kem::DhKemX25519));
}

#[test]
fn hpke_pq_go_vectors() {
    let ran = run(include_str!("../../../vectors/hpke/hpke-pq-go.json"));
    // ML-KEM-768, ML-KEM-1024, MLKEM768-P256 (HKDF and SHAKE128),
    // X-Wing (HKDF and SHAKE256), MLKEM1024-P384; skipped: ML-KEM-512,
    // DHKEM P-256/P-384/X448 and the TurboSHAKE KDFs.
    assert_eq!(ran.len(), 7, "{ran:?}");
    for kem in [
        Kem::MlKem768,
        Kem::MlKem1024,
        Kem::XWing,
        Kem::MlKem768P256,
        Kem::MlKem1024P384,
    ] {
        assert!(ran.iter().any(|r| r.0 == kem), "{kem:?} not covered");
    }
    assert!(ran.iter().any(|r| r.1 == 0x0010) && ran.iter().any(|r| r.1 == 0x0011));
}

/// RFC 9180 Appendix A.1.2, A.2.2, A.7.2: the psk mode of
/// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256 with AES-128-GCM,
/// ChaCha20Poly1305 and export-only (`vectors/hpke/rfc9180-psk-x25519.json`,
/// per-message ciphertexts at sequence numbers 0, 1, 2, 4, 255, 256).
#[test]
fn rfc9180_psk_mode_x25519_vectors() {
    let vs: Vec<Value> = serde_json::from_str(include_str!(
        "../../../vectors/hpke/rfc9180-psk-x25519.json"
    ))
    .expect("json");
    assert_eq!(vs.len(), 3);
    for v in &vs {
        let id = |k: &str| u16::try_from(v[k].as_u64().expect("id")).expect("u16");
        let suite = Suite::from_ids(id("kem_id"), id("kdf_id"), id("aead_id")).expect("suite");
        assert_eq!(v["mode"].as_u64(), Some(1));
        let (psk, psk_id) = (hex(field(v, "psk")), hex(field(v, "psk_id")));
        let psk = pqdr_hpke::Psk::new(&psk, &psk_id).expect("psk");
        let info = hex(field(v, "info"));
        let pk = PublicKey::from_bytes(suite.kem, &hex(field(v, "pkRm"))).expect("pkRm");
        let sk = PrivateKey::derive(suite.kem, &hex(field(v, "ikmR"))).expect("skRm");
        assert_eq!(sk.as_bytes(), &hex(field(v, "skRm"))[..]);
        let (enc, mut s) =
            Sender::new_deterministic(&suite, &pk, &info, Some(&psk), &hex(field(v, "ikmE")))
                .expect("encap");
        assert_eq!(enc.as_bytes(), &hex(field(v, "enc"))[..]);
        let mut r = Recipient::new(&suite, &sk, enc.as_bytes(), &info, Some(&psk)).expect("decap");
        // The base mode gives other secrets: the psk is really used.
        let base = Recipient::new(&suite, &sk, enc.as_bytes(), &info, None).expect("decap");
        let encs = v["encryptions"].as_array().expect("encryptions");
        assert_eq!(encs.is_empty(), suite.aead == Aead::ExportOnly);
        for e in encs {
            let seq = e["seq"].as_u64().expect("seq");
            while s.sequence_number() < seq {
                let ct = s.seal_to_vec(b"", b"").expect("seal");
                r.open_to_vec(b"", &ct).expect("open");
            }
            let (aad, pt) = (hex(field(e, "aad")), hex(field(e, "pt")));
            let ct = s.seal_to_vec(&aad, &pt).expect("seal");
            assert_eq!(ct, hex(field(e, "ct")), "{suite:?} seq {seq}");
            assert_eq!(r.open_to_vec(&aad, &ct).expect("open"), pt);
        }
        let exps = v["exports"].as_array().expect("exports");
        assert_eq!(exps.len(), 3);
        for x in exps {
            let l = usize::try_from(x["L"].as_u64().expect("L")).expect("L");
            let ctx = hex(field(x, "exporter_context"));
            let (mut a, mut b, mut c) = (vec![0u8; l], vec![0u8; l], vec![0u8; l]);
            s.export(&ctx, &mut a).expect("export");
            r.export(&ctx, &mut b).expect("export");
            base.export(&ctx, &mut c).expect("export");
            assert_eq!(a, hex(field(x, "exported_value")), "{suite:?}");
            assert_eq!(a, b);
            assert_ne!(a, c);
        }
    }
}
