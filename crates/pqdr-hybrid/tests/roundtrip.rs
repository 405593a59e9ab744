//! Round trips, implicit rejection, typed errors on wrong lengths and
//! invalid keys, zeroization and `Debug` of the hybrids (SecP256r1MLKEM768
//! with the feature `p256`, SecP384r1MLKEM1024 with `p384`).

mod common;

use common::TestRng;
use pqdr_hybrid::Error;
use pqdr_hybrid::x25519_mlkem768::{self as tls, ClientSecret, ClientShare, ServerShare};
use pqdr_hybrid::xwing::{self, Ciphertext, DecapsulationKey, EncapsulationKey};
use zeroize::Zeroize;

#[test]
fn xwing_round_trips() {
    let mut rng = TestRng(0x5eed);
    for _ in 0..8 {
        let (dk, ek) = xwing::generate(&mut rng);
        let (ct, ss) = ek.encapsulate(&mut rng);
        assert_eq!(dk.decapsulate(&ct), ss);
        // Through bytes, as between two implementations.
        let ek2 = EncapsulationKey::from_slice(ek.as_bytes()).expect("valid");
        assert_eq!(ek2, ek);
        let dk2 = DecapsulationKey::from_slice(dk.as_bytes()).expect("32 bytes");
        assert_eq!(dk2, dk);
        let ct2 = Ciphertext::from_slice(ct.as_bytes()).expect("1120 bytes");
        assert_eq!(dk2.decapsulate(&ct2), ss);
        let (ct3, ss3) = ek2.encapsulate(&mut rng);
        assert_ne!(ct3, ct, "fresh randomness per encapsulation");
        assert_eq!(dk.decapsulate(&ct3), ss3);
    }
}

#[test]
fn xwing_generate_draws_the_seed_in_one_call() {
    let mut rng = TestRng(99);
    let (dk, _) = xwing::generate(&mut rng);
    let mut rng = TestRng(99);
    let mut seed = [0u8; 32];
    rand_core::Rng::fill_bytes(&mut rng, &mut seed);
    assert_eq!(dk.as_bytes(), &seed);
    let (dk2, ek2) = xwing::generate_from_seed(&seed);
    assert_eq!(dk2, dk);
    assert_eq!(&ek2, dk.encapsulation_key());
}

#[test]
fn xwing_implicit_rejection() {
    let (dk, ek) = xwing::generate_from_seed(&[3; 32]);
    let (ct, ss) = ek.encapsulate_deterministic(&[4; 64]);
    let mut seen = vec![*ss.as_bytes()];
    // A flipped bit in ct_M (ML-KEM rejects implicitly) or in ct_X (the
    // combiner hashes ct_X and the changed X25519 output): a different secret,
    // the same one each time, and a different one per position.
    for (byte, bit) in [(0, 0), (500, 3), (1087, 7), (1088, 0), (1119, 6)] {
        let mut bytes = *ct.as_bytes();
        bytes[byte] ^= 1 << bit;
        let bad = Ciphertext::from_array(&bytes);
        let k1 = dk.decapsulate(&bad);
        let k2 = dk.decapsulate(&bad);
        assert_eq!(k1, k2, "deterministic");
        assert!(!seen.contains(k1.as_bytes()), "byte {byte} bit {bit}");
        seen.push(*k1.as_bytes());
    }
    // Another key decapsulates to something unrelated as well.
    let (other, _) = xwing::generate_from_seed(&[5; 32]);
    assert_ne!(other.decapsulate(&ct), ss);
}

#[test]
fn xwing_low_order_ct_x_is_not_an_error() {
    // X-Wing does not check the X25519 output (draft §5.5); the secret is
    // still bound to the ML-KEM part.
    let (dk, ek) = xwing::generate_from_seed(&[6; 32]);
    let (ct, ss) = ek.encapsulate_deterministic(&[7; 64]);
    let mut bytes = *ct.as_bytes();
    bytes[1088..].fill(0);
    let k = dk.decapsulate(&Ciphertext::from_array(&bytes));
    assert_ne!(k, ss);
}

#[test]
fn xwing_wrong_lengths_are_typed_errors() {
    let (dk, ek) = xwing::generate_from_seed(&[8; 32]);
    let ek_bytes = ek.as_bytes().to_vec();
    for len in [0, 1184, 1215, 1217] {
        let mut v = ek_bytes.clone();
        v.resize(len, 0);
        assert_eq!(
            EncapsulationKey::from_slice(&v),
            Err(Error::Length {
                what: pqdr_hybrid::Object::EncapsulationKey,
                expected: 1216,
                actual: len
            })
        );
    }
    for len in [0, 31, 33, 64] {
        assert_eq!(
            DecapsulationKey::from_slice(&vec![1; len]).map(|_| ()),
            Err(Error::Length {
                what: pqdr_hybrid::Object::DecapsulationKey,
                expected: 32,
                actual: len
            })
        );
    }
    for len in [0, 1088, 1119, 1121] {
        assert_eq!(
            Ciphertext::from_slice(&vec![0; len]),
            Err(Error::Length {
                what: pqdr_hybrid::Object::Ciphertext,
                expected: 1120,
                actual: len
            })
        );
    }
    // pk_M fails the FIPS 203 §7.2 modulus check: first coefficient 4095.
    let mut bad = ek_bytes.clone();
    bad[0] = 0xff;
    bad[1] |= 0x0f;
    assert_eq!(EncapsulationKey::from_slice(&bad), Err(Error::InvalidKey));
    // pk_X may be any 32 bytes.
    let mut odd = ek_bytes;
    odd[1184..].fill(0xff);
    assert!(EncapsulationKey::from_slice(&odd).is_ok());
    drop(dk);
}

#[test]
fn xwing_secrets_zeroize_and_do_not_print() {
    let seed = [0xA7; 32];
    let (mut dk, _) = xwing::generate_from_seed(&seed);
    let shown = format!("{dk:?}");
    assert!(!shown.contains("a7a7"), "{shown}");
    let (ct, ss) = dk.encapsulation_key().encapsulate_deterministic(&[1; 64]);
    assert_eq!(format!("{ss:?}"), "SharedSecret(…)");
    dk.zeroize();
    assert_eq!(dk.as_bytes(), &[0; 32]);
    assert_ne!(dk.decapsulate(&ct), ss, "the expanded key is wiped too");
}

#[test]
fn tls_round_trips() {
    let mut rng = TestRng(0x7115);
    for _ in 0..4 {
        let client = ClientSecret::generate(&mut rng);
        let share = ClientShare::from_slice(client.share().as_bytes()).expect("1216 bytes");
        let (reply, ss_server) = tls::server_respond(&share, &mut rng).expect("valid share");
        let reply = ServerShare::from_slice(reply.as_bytes()).expect("1120 bytes");
        let ss_client = client.finish(&reply).expect("valid share");
        assert_eq!(ss_client, ss_server);
        assert_eq!(ss_client.as_bytes().len(), tls::SHARED_SECRET_SIZE);
    }
}

#[test]
fn tls_errors_are_typed() {
    for len in [0, 1184, 1215, 1217] {
        assert_eq!(
            ClientShare::from_slice(&vec![0; len]),
            Err(Error::Length {
                what: pqdr_hybrid::Object::ClientShare,
                expected: 1216,
                actual: len
            })
        );
    }
    for len in [0, 1088, 1119, 1121] {
        assert_eq!(
            ServerShare::from_slice(&vec![0; len]),
            Err(Error::Length {
                what: pqdr_hybrid::Object::ServerShare,
                expected: 1120,
                actual: len
            })
        );
    }
    let client = ClientSecret::from_seed(&[1; 96]);
    let seed = [2; 64];
    // Low-order client point (u = 0): the server refuses.
    let mut share = *client.share().as_bytes();
    share[1184..].fill(0);
    assert_eq!(
        tls::server_respond_deterministic(&ClientShare::from_array(&share), &seed),
        Err(Error::LowOrderPoint)
    );
    // ek fails the modulus check: the server refuses.
    let mut share = *client.share().as_bytes();
    share[0] = 0xff;
    share[1] |= 0x0f;
    assert_eq!(
        tls::server_respond_deterministic(&ClientShare::from_array(&share), &seed),
        Err(Error::InvalidKey)
    );
    // Low-order server point (u = 1): the client refuses.
    let (reply, _) = tls::server_respond_deterministic(client.share(), &seed).expect("valid");
    let mut reply = *reply.as_bytes();
    reply[1088..].fill(0);
    reply[1088] = 1;
    assert_eq!(
        client.finish(&ServerShare::from_array(&reply)),
        Err(Error::LowOrderPoint)
    );
}

#[test]
fn error_display_names_the_check() {
    let e = Error::Length {
        what: pqdr_hybrid::Object::DecapsulationKey,
        expected: 32,
        actual: 3,
    };
    assert_eq!(
        e.to_string(),
        "A hybrid KEM decapsulation key must be 32 bytes, but 3 bytes were given."
    );
    assert!(Error::LowOrderPoint.to_string().contains("all zeros"));
    assert!(Error::InvalidKey.to_string().contains("§7.2"));
}

#[cfg(feature = "p256")]
mod secp256r1 {
    use super::common::TestRng;
    use pqdr_hybrid::Error;
    use pqdr_hybrid::secp256r1_mlkem768::{self as tls, ClientSecret, ClientShare, ServerShare};
    use zeroize::Zeroize;

    #[test]
    fn p256_round_trips() {
        let mut rng = TestRng(0x256);
        for _ in 0..4 {
            let client = ClientSecret::generate(&mut rng);
            assert_eq!(
                client.share().as_bytes()[0],
                0x04,
                "uncompressed point first"
            );
            let share = ClientShare::from_slice(client.share().as_bytes()).expect("1249 bytes");
            let (reply, ss_server) = tls::server_respond(&share, &mut rng).expect("valid share");
            assert_eq!(reply.as_bytes()[0], 0x04);
            let reply = ServerShare::from_slice(reply.as_bytes()).expect("1153 bytes");
            let ss_client = client.finish(&reply).expect("valid share");
            assert_eq!(ss_client, ss_server);
            assert_eq!(ss_client.as_bytes().len(), tls::SHARED_SECRET_SIZE);
        }
    }

    /// A changed ML-KEM ciphertext changes only the ML-KEM half (the second
    /// 32 bytes), the same way each time; a changed ECDH point is refused or
    /// changes the ECDH half.
    #[test]
    fn p256_implicit_rejection_changes_the_mlkem_half() {
        let client = ClientSecret::from_seed(&[3; tls::CLIENT_SEED_SIZE]);
        let (reply, ss) =
            tls::server_respond_deterministic(client.share(), &[4; tls::SERVER_SEED_SIZE])
                .expect("valid");
        for pos in [65, 500, 1152] {
            let mut bytes = *reply.as_bytes();
            bytes[pos] ^= 0x01;
            let got = client
                .finish(&ServerShare::from_array(&bytes))
                .expect("valid point");
            assert_eq!(got.as_bytes()[..32], ss.as_bytes()[..32]);
            assert_ne!(got.as_bytes()[32..], ss.as_bytes()[32..]);
            assert_eq!(client.finish(&ServerShare::from_array(&bytes)), Ok(got));
        }
    }

    #[test]
    fn p256_errors_are_typed() {
        for len in [0, 65, 1184, 1248, 1250] {
            assert_eq!(
                ClientShare::from_slice(&vec![4; len]),
                Err(Error::Length {
                    what: pqdr_hybrid::Object::ClientShare,
                    expected: 1249,
                    actual: len
                })
            );
        }
        for len in [0, 1088, 1152, 1154] {
            assert_eq!(
                ServerShare::from_slice(&vec![4; len]),
                Err(Error::Length {
                    what: pqdr_hybrid::Object::ServerShare,
                    expected: 1153,
                    actual: len
                })
            );
        }
        let client = ClientSecret::from_seed(&[1; tls::CLIENT_SEED_SIZE]);
        let seed = [2; tls::SERVER_SEED_SIZE];
        // A valid point with an ek failing the modulus check: InvalidKey.
        let mut share = *client.share().as_bytes();
        share[65] = 0xff;
        share[66] |= 0x0f;
        assert_eq!(
            tls::server_respond_deterministic(&ClientShare::from_array(&share), &seed),
            Err(Error::InvalidKey)
        );
        // An invalid point and an invalid ek: the point is checked first.
        share[1] ^= 1;
        assert_eq!(
            tls::server_respond_deterministic(&ClientShare::from_array(&share), &seed),
            Err(Error::InvalidPoint)
        );
    }

    #[test]
    fn p256_secrets_zeroize_and_do_not_print() {
        let mut client = ClientSecret::from_seed(&[0xA7; tls::CLIENT_SEED_SIZE]);
        let (reply, ss) =
            tls::server_respond_deterministic(client.share(), &[5; tls::SERVER_SEED_SIZE])
                .expect("valid");
        let shown = format!("{client:?} {ss:?}");
        assert!(!shown.contains("a7") && !shown.contains("167"), "{shown}");
        assert_eq!(format!("{ss:?}"), "SharedSecret(…)");
        client.zeroize();
        // The scalar is now 0, so d·Q is the point at infinity: the check
        // that a validated point can never reach refuses it.
        assert_eq!(client.finish(&reply), Err(Error::InvalidPoint));
        assert!(Error::InvalidPoint.to_string().contains("P-256"));
    }
}

#[cfg(feature = "p384")]
mod secp384r1 {
    use super::common::TestRng;
    use pqdr_hybrid::Error;
    use pqdr_hybrid::secp384r1_mlkem1024::{self as tls, ClientSecret, ClientShare, ServerShare};
    use zeroize::Zeroize;

    #[test]
    fn p384_round_trips() {
        let mut rng = TestRng(0x384);
        for _ in 0..4 {
            let client = ClientSecret::generate(&mut rng);
            assert_eq!(
                client.share().as_bytes()[0],
                0x04,
                "uncompressed point first"
            );
            let share = ClientShare::from_slice(client.share().as_bytes()).expect("1665 bytes");
            let (reply, ss_server) = tls::server_respond(&share, &mut rng).expect("valid share");
            assert_eq!(reply.as_bytes()[0], 0x04);
            let reply = ServerShare::from_slice(reply.as_bytes()).expect("1665 bytes");
            let ss_client = client.finish(&reply).expect("valid share");
            assert_eq!(ss_client, ss_server);
            assert_eq!(ss_client.as_bytes().len(), tls::SHARED_SECRET_SIZE);
        }
    }

    /// A changed ML-KEM ciphertext changes only the ML-KEM half (the last
    /// 32 bytes), the same way each time; a changed ECDH point is refused or
    /// changes the ECDH half.
    #[test]
    fn p384_implicit_rejection_changes_the_mlkem_half() {
        let client = ClientSecret::from_seed(&[3; tls::CLIENT_SEED_SIZE]);
        let (reply, ss) =
            tls::server_respond_deterministic(client.share(), &[4; tls::SERVER_SEED_SIZE])
                .expect("valid");
        for pos in [97, 500, 1664] {
            let mut bytes = *reply.as_bytes();
            bytes[pos] ^= 0x01;
            let got = client
                .finish(&ServerShare::from_array(&bytes))
                .expect("valid point");
            assert_eq!(got.as_bytes()[..48], ss.as_bytes()[..48]);
            assert_ne!(got.as_bytes()[48..], ss.as_bytes()[48..]);
            assert_eq!(client.finish(&ServerShare::from_array(&bytes)), Ok(got));
        }
    }

    #[test]
    fn p384_errors_are_typed() {
        for len in [0, 97, 1568, 1664, 1666] {
            assert_eq!(
                ClientShare::from_slice(&vec![4; len]),
                Err(Error::Length {
                    what: pqdr_hybrid::Object::ClientShare,
                    expected: 1665,
                    actual: len
                })
            );
        }
        for len in [0, 1568, 1664, 1666] {
            assert_eq!(
                ServerShare::from_slice(&vec![4; len]),
                Err(Error::Length {
                    what: pqdr_hybrid::Object::ServerShare,
                    expected: 1665,
                    actual: len
                })
            );
        }
        let client = ClientSecret::from_seed(&[1; tls::CLIENT_SEED_SIZE]);
        let seed = [2; tls::SERVER_SEED_SIZE];
        // A valid point with an ek failing the modulus check: InvalidKey.
        let mut share = *client.share().as_bytes();
        share[97] = 0xff;
        share[98] |= 0x0f;
        assert_eq!(
            tls::server_respond_deterministic(&ClientShare::from_array(&share), &seed),
            Err(Error::InvalidKey)
        );
        // An invalid point and an invalid ek: the point is checked first.
        share[1] ^= 1;
        assert_eq!(
            tls::server_respond_deterministic(&ClientShare::from_array(&share), &seed),
            Err(Error::InvalidPoint)
        );
    }

    #[test]
    fn p384_secrets_zeroize_and_do_not_print() {
        let mut client = ClientSecret::from_seed(&[0xA7; tls::CLIENT_SEED_SIZE]);
        let (reply, ss) =
            tls::server_respond_deterministic(client.share(), &[5; tls::SERVER_SEED_SIZE])
                .expect("valid");
        let shown = format!("{client:?} {ss:?}");
        assert!(!shown.contains("a7") && !shown.contains("167"), "{shown}");
        assert_eq!(format!("{ss:?}"), "SharedSecret(…)");
        client.zeroize();
        // The scalar is now 0, so d·Q is the point at infinity: the check
        // that a validated point can never reach refuses it.
        assert_eq!(client.finish(&reply), Err(Error::InvalidPoint));
        assert!(Error::InvalidPoint.to_string().contains("P-384"));
    }
}
