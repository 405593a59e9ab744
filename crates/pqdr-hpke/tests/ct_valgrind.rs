//! Constant-time check under valgrind memcheck (see docs/constant-time.md).
//!
//! The secret inputs are marked undefined with `pqdr_ctgrind::classify`: the
//! recipient's private key bytes (key expansion: SHAKE256 / ML-KEM key
//! generation / the X25519, P-256 and P-384 base multiplications and the
//! hybrids' scalar range test), and for the ML-KEM based KEMs also `enc`
//! (ML-KEM implicit rejection compares the re-encryption with it). Then
//! `SetupBaseR` / `SetupPSKR` decapsulate (valid and modified `enc`), run the
//! key schedule (HKDF or SHAKE) and export; the sender's ephemeral randomness
//! is classified for `SetupBaseS`. Memcheck reports any branch or memory
//! index that depends on them. The crates declassify only what the
//! specifications make public: public keys, `enc`'s curve points, and the
//! verdicts of the all-zero X25519 check and of the hybrids' scalar range
//! test. Outputs are declassified before they are compared.
//!
//! Not covered: the AEAD tag check (`Open`), whose verdict RustCrypto's
//! `aes-gcm` / `chacha20poly1305` branch on after a constant-time compare.
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1 --expensive-definedness-checks=yes --track-origins=yes" \
//! RUSTFLAGS="--cfg pqct_valgrind" cargo test --release -p pqdr-hpke --test ct_valgrind
//! ```
//! Natively (no valgrind) the client requests are no-ops and the tests simply pass.

use pqdr_ctgrind::{classify, declassify};
use pqdr_hpke::{Aead, Kdf, Kem, PrivateKey, Psk, Recipient, Sender, Suite};

/// Decapsulates (a modified `enc` if `tamper`) with a classified key and
/// exports; compares with the unclassified run.
fn decap(kem: Kem, kdf: Kdf, tamper: bool) {
    let suite = Suite {
        kem,
        kdf,
        aead: Aead::Aes128Gcm,
    };
    let psk = Psk::new(&[9u8; 32], b"id").expect("psk");
    let sk_ref = PrivateKey::derive(kem, b"ct_valgrind recipient").expect("derive");
    let rand = vec![0x5Au8; kem.encap_randomness_size()];
    let (enc, _) =
        Sender::new_deterministic(&suite, sk_ref.public_key(), b"info", Some(&psk), &rand)
            .expect("encap");
    let mut enc = enc.as_bytes().to_vec();
    if tamper {
        enc[7] ^= 0x20;
    }
    let expected = Recipient::new(&suite, &sk_ref, &enc, b"info", Some(&psk)).map(|r| {
        let mut e = [0u8; 32];
        r.export(b"ctx", &mut e).expect("export");
        e
    });

    let mut sk_bytes = sk_ref.as_bytes().to_vec();
    classify(&mut sk_bytes[..]);
    let sk = PrivateKey::from_bytes(kem, &sk_bytes).expect("private key");
    if matches!(kem, Kem::MlKem768 | Kem::MlKem1024 | Kem::XWing) {
        classify(&mut enc[..]);
    }
    let got = Recipient::new(&suite, &sk, &enc, b"info", Some(&psk)).map(|r| {
        let mut e = [0u8; 32];
        r.export(b"ctx", &mut e).expect("export");
        declassify(&mut e);
        e
    });
    assert_eq!(got, expected, "{kem:?}");
}

#[test]
fn decap_every_kem_is_constant_time() {
    for kem in Kem::ALL {
        decap(kem, Kdf::HkdfSha256, false);
    }
}

#[test]
fn decap_modified_enc_is_constant_time() {
    for kem in Kem::ALL {
        decap(kem, Kdf::HkdfSha384, true);
    }
}

#[test]
fn one_stage_schedule_is_constant_time() {
    decap(Kem::XWing, Kdf::Shake256, false);
    decap(Kem::MlKem768P256, Kdf::Shake128, false);
}

#[test]
fn encap_is_constant_time() {
    for kem in Kem::ALL {
        let suite = Suite {
            kem,
            kdf: Kdf::HkdfSha512,
            aead: Aead::ChaCha20Poly1305,
        };
        let sk = PrivateKey::derive(kem, b"ct_valgrind recipient").expect("derive");
        let rand_ref = vec![0x33u8; kem.encap_randomness_size()];
        let (enc_ref, s_ref) =
            Sender::new_deterministic(&suite, sk.public_key(), b"i", None, &rand_ref)
                .expect("encap");
        let mut e_ref = [0u8; 32];
        s_ref.export(b"x", &mut e_ref).expect("export");
        let mut rand = rand_ref.clone();
        classify(&mut rand[..]);
        let (enc, s) =
            Sender::new_deterministic(&suite, sk.public_key(), b"i", None, &rand).expect("encap");
        let mut e = [0u8; 32];
        s.export(b"x", &mut e).expect("export");
        let mut enc = enc.as_bytes().to_vec();
        declassify(&mut enc[..]);
        declassify(&mut e);
        assert_eq!(enc, enc_ref.as_bytes(), "{kem:?}");
        assert_eq!(e, e_ref);
    }
}
