//! X25519MLKEM768 against Go 1.26's standard library (crypto/mlkem,
//! crypto/ecdh): `vectors/hybrid/x25519mlkem768-go.json`, written by
//! `interop/go/x25519mlkem768` (see `vectors/hybrid/README.md` to regenerate).
//!
//! - 4 valid exchanges: client seed → client share; (client share, server
//!   seed) → server share and the 64-byte secret; (client, server share) →
//!   the same secret;
//! - 1 modified ML-KEM ciphertext: the client's implicit-rejection secret;
//! - 3 client shares the server must refuse (two low-order X25519 keys, one
//!   ML-KEM `ek` failing the FIPS 203 §7.2 check) and 1 server share the
//!   client must refuse (low-order X25519 key).

mod common;

use common::{hex, hex_array};
use pqdr_hybrid::Error;
use pqdr_hybrid::x25519_mlkem768::{
    self as tls, ClientSecret, ClientShare, ServerShare, server_respond_deterministic,
};

const GO: &str = include_str!("../../../vectors/hybrid/x25519mlkem768-go.json");

struct Vector {
    comment: String,
    client_seed: [u8; tls::CLIENT_SEED_SIZE],
    server_seed: [u8; tls::SERVER_SEED_SIZE],
    client_share: Vec<u8>,
    server_share: Option<Vec<u8>>,
    shared_secret: Option<Vec<u8>>,
    server_error: Option<Error>,
    client_error: Option<Error>,
}

fn error(name: &str) -> Error {
    match name {
        "low-order" => Error::LowOrderPoint,
        "invalid-ek" => Error::InvalidKey,
        other => panic!("unknown error {other}"),
    }
}

fn vectors() -> Vec<Vector> {
    let v: serde_json::Value = serde_json::from_str(GO).expect("json");
    v["vectors"]
        .as_array()
        .expect("array")
        .iter()
        .map(|e| {
            let opt = |k: &str| e.get(k).and_then(|x| x.as_str());
            Vector {
                comment: opt("comment").expect("comment").to_owned(),
                client_seed: hex_array(opt("client_seed").expect("client_seed")),
                server_seed: hex_array(opt("server_seed").expect("server_seed")),
                client_share: hex(opt("client_share").expect("client_share")),
                server_share: opt("server_share").map(hex),
                shared_secret: opt("shared_secret").map(hex),
                server_error: opt("server_error").map(error),
                client_error: opt("client_error").map(error),
            }
        })
        .collect()
}

/// Runs every check of one vector; `Err` names the first mismatch.
fn check(v: &Vector) -> Result<(), String> {
    let client = ClientSecret::from_seed(&v.client_seed);
    let share = ClientShare::from_slice(&v.client_share).map_err(|e| format!("share: {e}"))?;

    // The server's side on the client share as received.
    let served = server_respond_deterministic(&share, &v.server_seed);
    if let Some(expected) = v.server_error {
        return match served {
            Err(e) if e == expected => Ok(()),
            Err(e) => Err(format!("server error {e:?}, expected {expected:?}")),
            Ok(_) => Err("server accepted a share it must refuse".into()),
        };
    }
    if client.share().as_bytes()[..] != v.client_share[..] {
        return Err("client share".into());
    }
    let (server_share, server_secret) = served.map_err(|e| format!("server: {e}"))?;
    let want_share = v.server_share.as_ref().ok_or("no server_share")?;

    // The client's side on the server share of the vector (which may have
    // been modified after the server made it).
    let received = ServerShare::from_slice(want_share).map_err(|e| format!("server share: {e}"))?;
    let finished = client.finish(&received);
    if let Some(expected) = v.client_error {
        return match finished {
            Err(e) if e == expected => Ok(()),
            Err(e) => Err(format!("client error {e:?}, expected {expected:?}")),
            Ok(_) => Err("client accepted a share it must refuse".into()),
        };
    }
    let want_secret = v.shared_secret.as_ref().ok_or("no shared_secret")?;
    let client_secret = finished.map_err(|e| format!("client: {e}"))?;
    if client_secret.as_bytes()[..] != want_secret[..] {
        return Err("client shared secret".into());
    }
    let tampered = v.comment.starts_with("modified");
    if tampered {
        // Implicit rejection: a different ML-KEM half, the same X25519 half.
        if server_secret.as_bytes()[..32] == want_secret[..32]
            || server_secret.as_bytes()[32..] != want_secret[32..]
        {
            return Err("implicit rejection".into());
        }
    } else {
        if server_share.as_bytes()[..] != want_share[..] {
            return Err("server share".into());
        }
        if server_secret.as_bytes()[..] != want_secret[..] {
            return Err("server shared secret".into());
        }
    }
    Ok(())
}

#[test]
fn go_vectors() {
    let vectors = vectors();
    assert_eq!(vectors.len(), 9);
    let errors = vectors
        .iter()
        .filter(|v| v.server_error.is_some() || v.client_error.is_some())
        .count();
    assert_eq!(errors, 4);
    for v in &vectors {
        assert_eq!(check(v), Ok(()), "{}", v.comment);
    }
}

/// The checks can fail: one flipped byte of the data, or a wrong expected
/// error, is detected.
#[test]
fn flipped_vector_byte_is_detected() {
    let mut v = vectors().remove(0);
    v.shared_secret.as_mut().expect("ss")[63] ^= 1; // the X25519 half
    assert_eq!(check(&v), Err("client shared secret".into()));

    let mut v = vectors().remove(1);
    v.client_seed[70] ^= 1; // the client's X25519 scalar
    assert_eq!(check(&v), Err("client share".into()));

    let mut v = vectors().remove(2);
    v.server_seed[0] ^= 1; // m
    assert_eq!(check(&v), Err("server share".into()));

    let mut v = vectors().remove(3);
    v.shared_secret.as_mut().expect("ss")[0] ^= 1; // the ML-KEM half comes first
    assert_eq!(check(&v), Err("client shared secret".into()));

    let mut v = vectors().remove(7);
    v.server_error = Some(Error::LowOrderPoint); // it is the ek check that fails
    assert!(check(&v).is_err());
}

/// LEGACY X25519Kyber768Draft00 (TLS 0x6399, feature
/// `x25519-kyber768-draft00`) against Cloudflare's CIRCL v1.6.5:
/// `vectors/hybrid/x25519kyber768draft00-circl.json`, written by
/// `interop/go-circl/x25519kyber768draft00` (round-3 Kyber768 and X25519 of
/// CIRCL for the parts, its `hybrid.Kyber768X25519` scheme checking the
/// layout and every secret). 3 valid exchanges and 1 modified Kyber
/// ciphertext (the client's implicit-rejection secret).
#[cfg(feature = "x25519-kyber768-draft00")]
mod x25519_kyber768_draft00 {
    use super::common::{hex, hex_array};
    use pqdr_hybrid::Error;
    use pqdr_hybrid::x25519_kyber768_draft00::{
        self as xk, ClientSecret, ClientShare, ServerShare, server_respond_deterministic,
    };

    const CIRCL: &str = include_str!("../../../vectors/hybrid/x25519kyber768draft00-circl.json");

    #[test]
    fn circl_vectors() {
        let v: serde_json::Value = serde_json::from_str(CIRCL).expect("json");
        let mut n = 0;
        for e in v["vectors"].as_array().expect("array") {
            let s = |k: &str| e[k].as_str().expect(k);
            let client = ClientSecret::from_seed(&hex_array(s("client_seed")));
            assert_eq!(client.share().as_bytes()[..], hex(s("client_share"))[..]);
            let share = ClientShare::from_slice(&hex(s("client_share"))).expect("length");
            let (server, ss) =
                server_respond_deterministic(&share, &hex_array(s("server_seed"))).expect("valid");
            let want_server = hex(s("server_share"));
            let want_ss = hex(s("shared_secret"));
            if s("comment") == "valid exchange" {
                assert_eq!(server.as_bytes()[..], want_server[..]);
                assert_eq!(ss.as_bytes()[..], want_ss[..]);
            }
            let got = client
                .finish(&ServerShare::from_slice(&want_server).expect("length"))
                .expect("not low order");
            assert_eq!(got.as_bytes()[..], want_ss[..], "{}", s("comment"));
            n += 1;
        }
        assert_eq!(n, 4);
    }

    #[test]
    fn refusals_are_typed_errors() {
        let client = ClientSecret::from_seed(&[9; xk::CLIENT_SEED_SIZE]);
        assert!(matches!(
            ClientShare::from_slice(&[0; 1215]),
            Err(Error::Length {
                expected: 1216,
                actual: 1215,
                ..
            })
        ));
        // A low-order X25519 point (u = 0) from either side.
        let mut bad = *client.share().as_bytes();
        bad[..32].fill(0);
        assert_eq!(
            server_respond_deterministic(&ClientShare::from_array(&bad), &[1; 64]).err(),
            Some(Error::LowOrderPoint)
        );
        let (server, _) = server_respond_deterministic(client.share(), &[1; 64]).expect("valid");
        let mut bad = *server.as_bytes();
        bad[..32].fill(0);
        assert_eq!(
            client.finish(&ServerShare::from_array(&bad)).err(),
            Some(Error::LowOrderPoint)
        );
        // A Kyber coefficient ≥ q.
        let mut bad = *client.share().as_bytes();
        bad[32..34].fill(0xff);
        assert_eq!(
            server_respond_deterministic(&ClientShare::from_array(&bad), &[1; 64]).err(),
            Some(Error::InvalidKey)
        );
    }
}
