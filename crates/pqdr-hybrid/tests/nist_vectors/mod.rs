//! The Go-vector test of the NIST-curve TLS hybrid groups, written once:
//! `secp256r1_mlkem768_vectors.rs` and `secp384r1_mlkem1024_vectors.rs`
//! invoke `nist_group_vectors!` with their module and Go's vector file. The
//! sizes come from the module's constants (the ECDH half of the secret
//! first, the 32-byte ML-KEM half last).

/// The vector checks of one group: `$module` names the `pqdr_hybrid`
/// module, `$go` is the JSON written by its `interop/go` program.
macro_rules! nist_group_vectors {
    ($module:ident, $go:expr $(,)?) => {
        use common::{hex, hex_array};
        use pqdr_hybrid::Error;
        use pqdr_hybrid::$module::{
            self as tls, ClientSecret, ClientShare, ServerShare, server_respond_deterministic,
        };

        const GO: &str = $go;
        /// The ECDH half of the shared secret comes first, the 32-byte ML-KEM half last.
        const ECDH_SECRET: usize = tls::SHARED_SECRET_SIZE - 32;

        #[derive(Clone, Copy, Debug, PartialEq)]
        enum Refusal {
            Point,
            Key,
            Length,
        }

        struct Vector {
            comment: String,
            client_seed: [u8; tls::CLIENT_SEED_SIZE],
            server_seed: [u8; tls::SERVER_SEED_SIZE],
            client_share: Vec<u8>,
            server_share: Option<Vec<u8>>,
            shared_secret: Option<Vec<u8>>,
            server_error: Option<Refusal>,
            client_error: Option<Refusal>,
        }

        fn refusal(name: &str) -> Refusal {
            match name {
                "invalid-point" => Refusal::Point,
                "invalid-ek" => Refusal::Key,
                "length" => Refusal::Length,
                other => panic!("unknown error {other}"),
            }
        }

        fn kind(e: Error) -> Option<Refusal> {
            match e {
                Error::InvalidPoint => Some(Refusal::Point),
                Error::InvalidKey => Some(Refusal::Key),
                Error::Length { .. } => Some(Refusal::Length),
                _ => None,
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
                        server_error: opt("server_error").map(refusal),
                        client_error: opt("client_error").map(refusal),
                    }
                })
                .collect()
        }

        /// `Ok` if `r` failed with the refusal `want`.
        fn refused<T>(r: Result<T, Error>, want: Refusal, side: &str) -> Result<(), String> {
            match r {
                Err(e) if kind(e) == Some(want) => Ok(()),
                Err(e) => Err(format!("{side} error {e:?}, expected {want:?}")),
                Ok(_) => Err(format!("{side} accepted a share it must refuse")),
            }
        }

        /// Runs every check of one vector; `Err` names the first mismatch.
        fn check(v: &Vector) -> Result<(), String> {
            let client = ClientSecret::from_seed(&v.client_seed);

            // The server's side on the client share as received.
            let served = ClientShare::from_slice(&v.client_share)
                .and_then(|share| server_respond_deterministic(&share, &v.server_seed));
            if let Some(want) = v.server_error {
                return refused(served, want, "server");
            }
            if client.share().as_bytes()[..] != v.client_share[..] {
                return Err("client share".into());
            }
            let (server_share, server_secret) = served.map_err(|e| format!("server: {e}"))?;
            let want_share = v.server_share.as_ref().ok_or("no server_share")?;

            // The client's side on the server share of the vector (which may have
            // been modified after the server made it).
            let finished =
                ServerShare::from_slice(want_share).and_then(|received| client.finish(&received));
            if let Some(want) = v.client_error {
                return refused(finished, want, "client");
            }
            let want_secret = v.shared_secret.as_ref().ok_or("no shared_secret")?;
            let client_secret = finished.map_err(|e| format!("client: {e}"))?;
            if client_secret.as_bytes()[..] != want_secret[..] {
                return Err("client shared secret".into());
            }
            if v.comment.starts_with("modified") {
                // Implicit rejection: the same ECDH half, a different ML-KEM half.
                if server_secret.as_bytes()[..ECDH_SECRET] != want_secret[..ECDH_SECRET]
                    || server_secret.as_bytes()[ECDH_SECRET..] == want_secret[ECDH_SECRET..]
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
            assert_eq!(vectors.len(), 17);
            let refusals = |f: fn(&Vector) -> Option<Refusal>, r| {
                vectors.iter().filter(|v| f(v) == Some(r)).count()
            };
            assert_eq!(refusals(|v| v.server_error, Refusal::Point), 5);
            assert_eq!(refusals(|v| v.server_error, Refusal::Key), 1);
            assert_eq!(refusals(|v| v.server_error, Refusal::Length), 2);
            assert_eq!(refusals(|v| v.client_error, Refusal::Point), 1);
            assert_eq!(refusals(|v| v.client_error, Refusal::Length), 1);
            for v in &vectors {
                assert_eq!(check(v), Ok(()), "{}", v.comment);
            }
        }

        /// The checks can fail: one flipped byte of the data, or a wrong expected
        /// error, is detected.
        #[test]
        fn flipped_vector_byte_is_detected() {
            let mut v = vectors().remove(0);
            v.shared_secret.as_mut().expect("ss")[0] ^= 1; // the ECDH half comes first
            assert_eq!(check(&v), Err("client shared secret".into()));

            let mut v = vectors().remove(1);
            v.shared_secret.as_mut().expect("ss")[tls::SHARED_SECRET_SIZE - 1] ^= 1; // the ML-KEM half
            assert_eq!(check(&v), Err("client shared secret".into()));

            let mut v = vectors().remove(2);
            v.client_seed[tls::CLIENT_SEED_SIZE - 1] ^= 1; // the client's ECDH c
            assert_eq!(check(&v), Err("client share".into()));

            let mut v = vectors().remove(3);
            v.server_seed[tls::SERVER_SEED_SIZE - 1] ^= 1; // the server's ECDH c
            assert_eq!(check(&v), Err("server share".into()));

            let mut v = vectors().remove(4);
            v.server_seed[0] ^= 1; // m
            assert_eq!(check(&v), Err("server share".into()));

            let mut v = vectors().remove(12);
            v.server_error = Some(Refusal::Point); // it is the ek check that fails
            assert!(check(&v).is_err());

            let mut v = vectors().remove(7);
            v.server_error = None; // an invalid point must not be accepted
            assert!(check(&v).is_err());
        }

        /// No panic and a typed error on any point bytes: every tag byte, and
        /// random-looking coordinates, in both directions.
        #[test]
        fn arbitrary_point_bytes_are_refused_or_accepted_cleanly() {
            let v = vectors().remove(0);
            let client = ClientSecret::from_seed(&v.client_seed);
            let mut share = v.client_share.clone();
            let mut reply = v.server_share.clone().expect("server share");
            for tag in 0..=255u8 {
                share[0] = tag;
                reply[0] = tag;
                let s = server_respond_deterministic(
                    &ClientShare::from_slice(&share).expect("len"),
                    &v.server_seed,
                );
                let c = client.finish(&ServerShare::from_slice(&reply).expect("len"));
                if tag == 4 {
                    assert!(s.is_ok() && c.is_ok());
                } else {
                    assert_eq!(s.err(), Some(Error::InvalidPoint));
                    assert_eq!(c.err(), Some(Error::InvalidPoint));
                }
            }
            share[0] = 4;
            for i in 0..2 * ECDH_SECRET {
                share[1 + i] ^= 0x5a;
                let s = server_respond_deterministic(
                    &ClientShare::from_slice(&share).expect("len"),
                    &v.server_seed,
                );
                assert_eq!(
                    s.err(),
                    Some(Error::InvalidPoint),
                    "modified coordinate byte {i}"
                );
            }
        }
    };
}
