//! pqdr-hpke on fuzzer input: decoding of public keys, private keys, `enc`
//! and ciphertexts for every KEM. The first byte picks the operation
//! (`byte % 4`), the second the KEM (`byte % 6`, `Kem::ALL`); reads past the
//! end give zeros. Checks (never a panic):
//!
//! 0. `PublicKey::from_bytes`: a wrong length is `Error::Length { what:
//!    PublicKey, .. }`; at the exact length `Ok` (re-encoding to the input)
//!    or `InvalidPublicKey`, exactly when pqdr-mlkem refuses the ML-KEM part
//!    (FIPS 203 §7.2) or the RustCrypto SEC 1 parser refuses the P-256 /
//!    P-384 part (or its tag is not `0x04`).
//! 1. `PrivateKey::from_bytes`: `Ok` iff the length is `Nsk`; the key
//!    re-serializes to the input and its public key parses back to itself.
//! 2. `Recipient::new` on a fuzz `enc` under a fixed key: `Length` iff the
//!    length is wrong; `Decap` only for DHKEM and the P-256 / P-384 hybrids;
//!    the same exported secret twice.
//! 3. `Recipient::open` of a fuzz ciphertext, or of an honest one with a
//!    fuzz xor patch: the honest one opens to its plaintext, any other is
//!    `Open` (or `Length` if shorter than a tag), and a failure leaves the
//!    sequence number alone.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_hpke::{Aead, Error, Kdf, Kem, Object, PrivateKey, PublicKey, Recipient, Sender, Suite};

fn kem_of(b: u8) -> Kem {
    Kem::ALL[usize::from(b) % Kem::ALL.len()]
}

fn suite(kem: Kem) -> Suite {
    Suite { kem, kdf: Kdf::HkdfSha256, aead: Aead::ChaCha20Poly1305 }
}

fn fixed_key(kem: Kem) -> PrivateKey {
    PrivateKey::derive(kem, b"pqdr-hpke fuzz recipient").expect("derive")
}

fn public_key(kem: Kem, bytes: &[u8]) {
    let ours = PublicKey::from_bytes(kem, bytes);
    let n = kem.public_key_size();
    if bytes.len() != n {
        assert_eq!(ours.err(), Some(Error::Length { what: Object::PublicKey, expected: n, actual: bytes.len() }));
        return;
    }
    let (pq_len, curve) = match kem {
        Kem::DhKemX25519 => (0, 0),
        Kem::MlKem768 => (1184, 0),
        Kem::MlKem1024 => (1568, 0),
        Kem::XWing => (1184, 0),
        Kem::MlKem768P256 => (1184, 256),
        _ => (1568, 384),
    };
    let pq_ok = match pq_len {
        0 => true,
        1184 => pqdr_mlkem::ml_kem_768::EncapsulationKey::from_slice(&bytes[..1184]).is_ok(),
        _ => pqdr_mlkem::ml_kem_1024::EncapsulationKey::from_slice(&bytes[..1568]).is_ok(),
    };
    let t = &bytes[pq_len..];
    let curve_ok = match curve {
        256 => t[0] == 4 && p256::PublicKey::from_sec1_bytes(t).is_ok(),
        384 => t[0] == 4 && p384::PublicKey::from_sec1_bytes(t).is_ok(),
        _ => true,
    };
    match ours {
        Ok(pk) => {
            assert!(pq_ok && curve_ok, "accepted an invalid key");
            assert_eq!(pk.as_bytes(), bytes);
        }
        Err(e) => {
            assert!(!(pq_ok && curve_ok), "refused a valid key");
            assert_eq!(e, Error::InvalidPublicKey);
        }
    }
}

fn private_key(kem: Kem, bytes: &[u8]) {
    match PrivateKey::from_bytes(kem, bytes) {
        Ok(sk) => {
            assert_eq!(bytes.len(), kem.private_key_size());
            assert_eq!(sk.as_bytes(), bytes);
            let pk = PublicKey::from_bytes(kem, sk.public_key().as_bytes()).expect("own public key");
            assert_eq!(&pk, sk.public_key());
        }
        Err(e) => {
            let n = kem.private_key_size();
            assert_eq!(e, Error::Length { what: Object::PrivateKey, expected: n, actual: bytes.len() });
        }
    }
}

fn decap(kem: Kem, enc: &[u8]) {
    let sk = fixed_key(kem);
    let s = suite(kem);
    let a = Recipient::new(&s, &sk, enc, b"info", None);
    let b = Recipient::new(&s, &sk, enc, b"info", None);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            let (mut x, mut y) = ([0u8; 32], [0u8; 32]);
            a.export(b"", &mut x).expect("export");
            b.export(b"", &mut y).expect("export");
            assert_eq!(x, y);
            assert_eq!(enc.len(), kem.enc_size());
        }
        (Err(e), Err(f)) => {
            assert_eq!(e, f);
            match e {
                Error::Length { what: Object::Enc, expected, actual } => {
                    assert_eq!((expected, actual), (kem.enc_size(), enc.len()));
                    assert_ne!(enc.len(), kem.enc_size());
                }
                Error::Decap => assert!(matches!(kem, Kem::DhKemX25519 | Kem::MlKem768P256 | Kem::MlKem1024P384)),
                other => panic!("unexpected {other:?}"),
            }
        }
        _ => panic!("different verdicts on the same enc"),
    }
}

fn open(kem: Kem, mode: u8, data: &[u8]) {
    let sk = fixed_key(kem);
    let s = suite(kem);
    let (enc, mut sender) = Sender::new_deterministic(&s, sk.public_key(), b"info", None, &vec![7u8; kem.encap_randomness_size()]).expect("encap");
    let mut r = Recipient::new(&s, &sk, enc.as_bytes(), b"info", None).expect("decap");
    let honest = sender.seal_to_vec(b"aad", b"fuzz plaintext").expect("seal");
    let (ct, is_honest) = if mode.is_multiple_of(2) {
        let mut ct = honest.clone();
        for (c, p) in ct.iter_mut().zip(data) {
            *c ^= p;
        }
        let same = ct == honest;
        (ct, same)
    } else {
        (data.to_vec(), data == honest.as_slice())
    };
    match r.open_to_vec(b"aad", &ct) {
        Ok(pt) => {
            assert!(is_honest, "a forged ciphertext opened");
            assert_eq!(pt, b"fuzz plaintext");
            assert_eq!(r.sequence_number(), 1);
        }
        Err(e) => {
            assert!(!is_honest);
            assert_eq!(r.sequence_number(), 0);
            if ct.len() < 16 {
                assert_eq!(e, Error::Length { what: Object::Ciphertext, expected: 16, actual: ct.len() });
            } else {
                assert_eq!(e, Error::Open);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let (op, kem, rest) = match data {
        [op, kem, rest @ ..] => (*op, kem_of(*kem), rest),
        _ => return,
    };
    match op % 4 {
        0 => public_key(kem, rest),
        1 => private_key(kem, rest),
        2 => decap(kem, rest),
        _ => open(kem, op / 4, rest),
    }
});
