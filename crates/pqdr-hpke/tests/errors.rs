//! Every malformed input is a typed error: keys, `enc`, ciphertexts,
//! buffers, export lengths, psk inputs, identifiers, and the sequence-number
//! limit (RFC 9180 §5.2 `MessageLimitReachedError`).

use pqdr_hpke::{
    Aead, Error, Kdf, Kem, Object, PrivateKey, Psk, PublicKey, Recipient, Sender, Suite,
};

fn rng() -> rand_core::UnwrapErr<getrandom::SysRng> {
    rand_core::UnwrapErr(getrandom::SysRng)
}

fn key(kem: Kem) -> PrivateKey {
    PrivateKey::derive(kem, b"pqdr-hpke error tests").expect("derive")
}

fn pair(suite: &Suite) -> (PrivateKey, Sender, Recipient) {
    let sk = key(suite.kem);
    let (enc, s) = Sender::new(suite, sk.public_key(), b"info", None, &mut rng()).expect("encap");
    let r = Recipient::new(suite, &sk, enc.as_bytes(), b"info", None).expect("decap");
    (sk, s, r)
}

const SUITE: Suite = Suite {
    kem: Kem::DhKemX25519,
    kdf: Kdf::HkdfSha256,
    aead: Aead::Aes128Gcm,
};

#[test]
fn key_and_enc_lengths() {
    for kem in Kem::ALL {
        let sk = key(kem);
        let pk = sk.public_key().as_bytes();
        let n = pk.len();
        assert_eq!(
            PublicKey::from_bytes(kem, &pk[..n - 1]).err(),
            Some(Error::Length {
                what: Object::PublicKey,
                expected: n,
                actual: n - 1
            })
        );
        let m = kem.private_key_size();
        assert_eq!(
            PrivateKey::from_bytes(kem, &[0u8; 65][..m + 1]).err(),
            Some(Error::Length {
                what: Object::PrivateKey,
                expected: m,
                actual: m + 1
            })
        );
        let suite = Suite {
            kem,
            kdf: Kdf::HkdfSha256,
            aead: Aead::ChaCha20Poly1305,
        };
        let e = kem.enc_size();
        assert_eq!(
            Recipient::new(&suite, &sk, &vec![0u8; e + 1], b"", None).err(),
            Some(Error::Length {
                what: Object::Enc,
                expected: e,
                actual: e + 1
            })
        );
        assert_eq!(
            Recipient::new(&suite, &sk, &[], b"", None).err(),
            Some(Error::Length {
                what: Object::Enc,
                expected: e,
                actual: 0
            })
        );
        assert_eq!(
            Sender::new_deterministic(&suite, sk.public_key(), b"", None, &[0u8; 3]).err(),
            Some(Error::Length {
                what: Object::Ikm,
                expected: kem.encap_randomness_size(),
                actual: 3
            })
        );
    }
}

#[test]
fn invalid_public_keys() {
    for kem in [
        Kem::MlKem768,
        Kem::MlKem1024,
        Kem::XWing,
        Kem::MlKem768P256,
        Kem::MlKem1024P384,
    ] {
        let mut pk = key(kem).public_key().as_bytes().to_vec();
        // FIPS 203 §7.2: the first 12-bit coefficient set to 4095 ≥ q.
        pk[0] = 0xFF;
        pk[1] |= 0x0F;
        assert_eq!(
            PublicKey::from_bytes(kem, &pk).err(),
            Some(Error::InvalidPublicKey),
            "{kem:?}"
        );
    }
    for (kem, pq) in [(Kem::MlKem768P256, 1184), (Kem::MlKem1024P384, 1568)] {
        let good = key(kem).public_key().as_bytes().to_vec();
        let mut compressed = good.clone();
        compressed[pq] = 0x02;
        let mut off_curve = good.clone();
        *off_curve.last_mut().expect("y") ^= 1;
        let mut infinity = good.clone();
        infinity[pq + 1..].fill(0);
        for bad in [compressed, off_curve, infinity] {
            assert_eq!(
                PublicKey::from_bytes(kem, &bad).err(),
                Some(Error::InvalidPublicKey),
                "{kem:?}"
            );
        }
    }
}

#[test]
fn invalid_enc() {
    // DHKEM(X25519): low-order points (u = 0, u = 1) give an all-zero DH
    // output, refused by RFC 9180 §7.1.4 — as `enc` and as `pkR`.
    let sk = key(Kem::DhKemX25519);
    for u in [[0u8; 32], {
        let mut one = [0u8; 32];
        one[0] = 1;
        one
    }] {
        assert_eq!(
            Recipient::new(&SUITE, &sk, &u, b"", None).err(),
            Some(Error::Decap)
        );
        let pk = PublicKey::from_bytes(Kem::DhKemX25519, &u).expect("any 32 bytes parse");
        assert_eq!(
            Sender::new(&SUITE, &pk, b"", None, &mut rng()).err(),
            Some(Error::Encap)
        );
    }
    // Hybrids: the curve part of `enc` must be a valid uncompressed point.
    for (kem, ct) in [(Kem::MlKem768P256, 1088), (Kem::MlKem1024P384, 1568)] {
        let suite = Suite {
            kem,
            kdf: Kdf::HkdfSha256,
            aead: Aead::Aes256Gcm,
        };
        let sk = key(kem);
        let (enc, _) = Sender::new(&suite, sk.public_key(), b"", None, &mut rng()).expect("encap");
        let mut bad = enc.as_bytes().to_vec();
        *bad.last_mut().expect("y") ^= 1;
        assert_eq!(
            Recipient::new(&suite, &sk, &bad, b"", None).err(),
            Some(Error::Decap)
        );
        bad = enc.as_bytes().to_vec();
        bad[ct] = 0x03;
        assert_eq!(
            Recipient::new(&suite, &sk, &bad, b"", None).err(),
            Some(Error::Decap)
        );
    }
    // ML-KEM: a modified ciphertext is not an error (implicit rejection) but
    // gives another context, so the message does not open.
    let suite = Suite {
        kem: Kem::MlKem768,
        kdf: Kdf::HkdfSha256,
        aead: Aead::Aes128Gcm,
    };
    let sk = key(Kem::MlKem768);
    let (enc, mut s) = Sender::new(&suite, sk.public_key(), b"", None, &mut rng()).expect("encap");
    let ct = s.seal_to_vec(b"", b"m").expect("seal");
    let mut bad = enc.as_bytes().to_vec();
    bad[5] ^= 1;
    let mut r = Recipient::new(&suite, &sk, &bad, b"", None).expect("implicit rejection");
    assert_eq!(r.open_to_vec(b"", &ct), Err(Error::Open));
}

#[test]
fn kem_mismatch_and_ids() {
    let sk = key(Kem::MlKem768);
    let suite = Suite {
        kem: Kem::MlKem1024,
        ..SUITE
    };
    assert_eq!(
        Sender::new(&suite, sk.public_key(), b"", None, &mut rng()).err(),
        Some(Error::KemMismatch {
            suite: 0x0042,
            key: 0x0041
        })
    );
    assert_eq!(
        Recipient::new(&suite, &sk, &[0u8; 1568], b"", None).err(),
        Some(Error::KemMismatch {
            suite: 0x0042,
            key: 0x0041
        })
    );
    assert_eq!(
        Suite::from_ids(0x0040, 1, 1),
        Err(Error::Unsupported {
            registry: "KEM",
            id: 0x0040
        })
    );
    assert_eq!(
        Suite::from_ids(0x0020, 0x0012, 1),
        Err(Error::Unsupported {
            registry: "KDF",
            id: 0x0012
        })
    );
    assert_eq!(
        Suite::from_ids(0x0020, 1, 4),
        Err(Error::Unsupported {
            registry: "AEAD",
            id: 4
        })
    );
    for kem in Kem::ALL {
        assert_eq!(Kem::from_id(kem.id()), Ok(kem));
    }
    assert_eq!(Psk::new(b"", b"id").err(), Some(Error::InvalidPsk));
    assert_eq!(Psk::new(b"k", b"").err(), Some(Error::InvalidPsk));
}

#[test]
fn ciphertexts_and_buffers() {
    let (_, mut s, mut r) = pair(&SUITE);
    let ct = s.seal_to_vec(b"aad", b"hello").expect("seal");
    assert_eq!(
        s.seal(b"", b"hello", &mut [0u8; 20]),
        Err(Error::Length {
            what: Object::Output,
            expected: 21,
            actual: 20
        })
    );
    assert_eq!(
        r.open(b"aad", &ct[..15], &mut [0u8; 64]),
        Err(Error::Length {
            what: Object::Ciphertext,
            expected: 16,
            actual: 15
        })
    );
    assert_eq!(
        r.open(b"aad", &ct, &mut [0u8; 4]),
        Err(Error::Length {
            what: Object::Output,
            expected: 5,
            actual: 4
        })
    );
    let mut bad = ct.clone();
    bad[0] ^= 1;
    let mut out = [0x55u8; 5];
    assert_eq!(r.open(b"aad", &bad, &mut out), Err(Error::Open));
    assert_eq!(out, [0; 5], "a refused plaintext is wiped");
    assert_eq!(r.open_to_vec(b"other aad", &ct), Err(Error::Open));
    // Failures do not advance the sequence number.
    assert_eq!(r.sequence_number(), 0);
    assert_eq!(r.open_to_vec(b"aad", &ct).expect("open"), b"hello");
    assert_eq!(r.sequence_number(), 1);
    // Replaying the first message under the second nonce fails.
    assert_eq!(r.open_to_vec(b"aad", &ct), Err(Error::Open));
}

#[test]
fn export_only_and_export_lengths() {
    let suite = Suite {
        aead: Aead::ExportOnly,
        ..SUITE
    };
    let (_, mut s, mut r) = pair(&suite);
    assert_eq!(s.seal_to_vec(b"", b"x"), Err(Error::ExportOnly));
    assert_eq!(r.open_to_vec(b"", &[0u8; 17]), Err(Error::ExportOnly));
    let mut big = vec![0u8; 255 * 32 + 1];
    assert_eq!(
        s.export(b"", &mut big),
        Err(Error::Length {
            what: Object::ExportLength,
            expected: 255 * 32,
            actual: 255 * 32 + 1
        })
    );
    s.export(b"", &mut big[..255 * 32])
        .expect("the largest HKDF-SHA256 export");
    let suite = Suite {
        kdf: Kdf::Shake256,
        ..suite
    };
    let (_, s, _) = pair(&suite);
    let mut big = vec![0u8; 0x10000];
    assert_eq!(
        s.export(b"", &mut big),
        Err(Error::Length {
            what: Object::ExportLength,
            expected: 0xFFFF,
            actual: 0x10000
        })
    );
    s.export(b"", &mut big[..0xFFFF])
        .expect("the largest one-stage export");
    // One-stage schedule inputs carry two-byte lengths.
    let sk = key(Kem::DhKemX25519);
    assert_eq!(
        Sender::new(
            &suite,
            sk.public_key(),
            &vec![0u8; 0x10000],
            None,
            &mut rng()
        )
        .err(),
        Some(Error::Length {
            what: Object::KeyScheduleInput,
            expected: 0xFFFF,
            actual: 0x10000
        })
    );
}

#[test]
fn sequence_number_limit() {
    let (_, mut s, mut r) = pair(&SUITE);
    s.set_sequence_number(u64::MAX - 1);
    r.set_sequence_number(u64::MAX - 1);
    let ct = s.seal_to_vec(b"", b"last").expect("the last message");
    assert_eq!(r.open_to_vec(b"", &ct).expect("open the last"), b"last");
    assert_eq!(s.sequence_number(), u64::MAX);
    assert_eq!(s.seal_to_vec(b"", b"one more"), Err(Error::MessageLimit));
    assert_eq!(r.open_to_vec(b"", &ct), Err(Error::MessageLimit));
    assert_eq!(s.sequence_number(), u64::MAX, "no wrap-around");
    // Exporting still works after the limit.
    let (mut a, mut b) = ([0u8; 16], [0u8; 16]);
    s.export(b"x", &mut a).expect("export");
    r.export(b"x", &mut b).expect("export");
    assert_eq!(a, b);
}

#[test]
fn roundtrip_every_suite_both_modes() {
    let psk = Psk::new(&[7u8; 32], b"pqdr psk id").expect("psk");
    for kem in Kem::ALL {
        let sk = PrivateKey::generate(kem, &mut rng()).expect("generate");
        let again = PrivateKey::from_bytes(kem, sk.as_bytes()).expect("reserialize");
        assert_eq!(again.public_key(), sk.public_key());
        for kdf in Kdf::ALL {
            for aead in Aead::ALL {
                let suite = Suite { kem, kdf, aead };
                for mode in [None, Some(&psk)] {
                    let (enc, mut s) =
                        Sender::new(&suite, sk.public_key(), b"info", mode, &mut rng())
                            .expect("encap");
                    let mut r =
                        Recipient::new(&suite, &sk, enc.as_bytes(), b"info", mode).expect("decap");
                    let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
                    s.export(b"ctx", &mut a).expect("export");
                    r.export(b"ctx", &mut b).expect("export");
                    assert_eq!(a, b, "{suite:?}");
                    if aead != Aead::ExportOnly {
                        let ct = s.seal_to_vec(b"aad", b"plaintext").expect("seal");
                        assert_eq!(r.open_to_vec(b"aad", &ct).expect("open"), b"plaintext");
                    }
                    // The other mode or other info gives another context.
                    let other = if mode.is_some() { None } else { Some(&psk) };
                    let r2 =
                        Recipient::new(&suite, &sk, enc.as_bytes(), b"info", other).expect("decap");
                    r2.export(b"ctx", &mut b).expect("export");
                    assert_ne!(a, b);
                    let r3 =
                        Recipient::new(&suite, &sk, enc.as_bytes(), b"inf0", mode).expect("decap");
                    r3.export(b"ctx", &mut b).expect("export");
                    assert_ne!(a, b);
                }
            }
        }
    }
}

/// Every error's message is one full sentence that names the object and,
/// for lengths, both sizes (the convention of every pqdr crate).
#[test]
fn messages_are_sentences_with_sizes() {
    let cases = [
        (
            Error::Length {
                what: Object::Enc,
                expected: 1120,
                actual: 7,
            },
            &["encapsulated key", "1120", "7"][..],
        ),
        (
            Error::Length {
                what: Object::Ciphertext,
                expected: 16,
                actual: 3,
            },
            &["ciphertext", "16", "3", "at least"][..],
        ),
        (
            Error::Length {
                what: Object::Output,
                expected: 48,
                actual: 40,
            },
            &["output buffer", "48", "40", "at least"][..],
        ),
        (
            Error::Length {
                what: Object::ExportLength,
                expected: 8160,
                actual: 9000,
            },
            &["exporter length", "8160", "9000", "at most"][..],
        ),
        (
            Error::KemMismatch {
                suite: 0x41,
                key: 0x20,
            },
            &["0x0020", "0x0041"][..],
        ),
        (
            Error::Unsupported {
                registry: "KDF",
                id: 7,
            },
            &["KDF", "0x0007"][..],
        ),
        (Error::InvalidPublicKey, &["public key"][..]),
        (Error::InvalidPrivateKey, &["private key"][..]),
        (Error::Decap, &["encapsulated key"][..]),
        (Error::Encap, &["encapsulation"][..]),
        (Error::Open, &["ciphertext"][..]),
        (Error::MessageLimit, &["sequence number"][..]),
        (Error::ExportOnly, &["export-only"][..]),
        (Error::InvalidPsk, &["pre-shared key"][..]),
    ];
    for (e, words) in cases {
        let m = e.to_string();
        assert!(m.starts_with(|c: char| c.is_ascii_uppercase()), "{m:?}");
        assert!(m.ends_with('.'), "{m:?}");
        for w in words {
            assert!(m.contains(w), "{m:?} lacks {w:?}");
        }
    }
}
