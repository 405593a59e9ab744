//! rustls ↔ rustls in memory, pqdr's groups on both sides: every group
//! negotiates and carries application data, the HelloRetryRequest path
//! (the client's first share is classical X25519, the server insists on a
//! pqdr group), and tampered key shares refused with rustls' typed error.

use crate::common::{
    GROUPS, Side, Tampered, client_config, handshake, provider_with, refused_tamper, ring_x25519,
    server_config,
};
use rustls::{Error, HandshakeKind, PeerMisbehaved};

/// A modification of a key share.
type Tamper = fn(&mut Vec<u8>);

#[test]
fn every_group_negotiates_and_carries_data() {
    for (group, code, _) in GROUPS {
        let (c, s) = handshake(
            client_config(provider_with(&[group])),
            server_config(provider_with(&[group])),
        )
        .unwrap_or_else(|e| panic!("{group:?}: {e:?}"));
        for negotiated in [
            c.negotiated_key_exchange_group(),
            s.negotiated_key_exchange_group(),
        ] {
            assert_eq!(negotiated.map(|g| u16::from(g.name())), Some(code));
        }
        assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
    }
}

/// `pqdr_rustls::provider()` on both sides picks X25519MLKEM768, the first
/// group, in one round trip.
#[test]
fn provider_prefers_x25519mlkem768() {
    let (c, _) = handshake(
        client_config(pqdr_rustls::provider().into()),
        server_config(pqdr_rustls::provider().into()),
    )
    .expect("handshake");
    let group = c.negotiated_key_exchange_group().expect("group");
    assert_eq!(u16::from(group.name()), 0x11EC);
    assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
}

/// The client lists X25519 first (so its only key share is X25519) and the
/// pqdr group second; a server with the pqdr group alone answers with a
/// HelloRetryRequest, and the second ClientHello's pqdr share completes.
#[test]
fn hello_retry_request_to_each_group() {
    for (group, code, _) in GROUPS {
        let (c, s) = handshake(
            client_config(provider_with(&[ring_x25519(), group])),
            server_config(provider_with(&[group])),
        )
        .unwrap_or_else(|e| panic!("{group:?}: {e:?}"));
        assert_eq!(
            c.handshake_kind(),
            Some(HandshakeKind::FullWithHelloRetryRequest)
        );
        assert_eq!(
            s.handshake_kind(),
            Some(HandshakeKind::FullWithHelloRetryRequest)
        );
        let negotiated = c.negotiated_key_exchange_group().expect("group");
        assert_eq!(u16::from(negotiated.name()), code);
    }
}

/// A client share with an invalid part is refused by the server with
/// `PeerMisbehaved::InvalidKeyShare` (no panic), and a server share with one
/// by the client; so is a share one byte short or long, either way.
#[test]
fn tampered_shares_are_refused_with_a_typed_error() {
    let invalid = Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare);
    for (group, code, _) in GROUPS {
        let cases: [(Tamper, Tamper); 3] = [
            (refused_tamper(code, true), refused_tamper(code, false)),
            (|s| s.truncate(s.len() - 1), |s| s.truncate(s.len() - 1)),
            (|s| s.push(0), |s| s.push(0)),
        ];
        for (client_tamper, server_tamper) in cases {
            let bad_client = Tampered::new(group, client_tamper);
            let r = handshake(
                client_config(provider_with(&[bad_client])),
                server_config(provider_with(&[group])),
            );
            assert_eq!(r.err(), Some((Side::Server, invalid.clone())), "{group:?}");

            let bad_server = Tampered::new(group, server_tamper);
            let r = handshake(
                client_config(provider_with(&[group])),
                server_config(provider_with(&[bad_server])),
            );
            assert_eq!(r.err(), Some((Side::Client, invalid.clone())), "{group:?}");
        }
    }
}

/// A modified ML-KEM ciphertext is not refused (implicit rejection, FIPS
/// 203 §6.3): the client derives a different secret and the handshake
/// fails on the server's Finished, not with a panic.
#[test]
fn modified_ciphertext_fails_the_handshake() {
    for (group, _, _) in GROUPS {
        let bad_server = Tampered::new(group, |s| s[150] ^= 1);
        let r = handshake(
            client_config(provider_with(&[group])),
            server_config(provider_with(&[bad_server])),
        );
        let (side, e) = r.expect_err("must fail");
        assert_eq!(side, Side::Client, "{group:?}");
        assert!(
            matches!(e, Error::DecryptError | Error::PeerMisbehaved(_)),
            "{group:?}: {e:?}"
        );
    }
}

/// The groups are TLS 1.3 only.
#[test]
fn groups_are_tls13_only() {
    for (group, code, _) in GROUPS {
        assert!(group.usable_for_version(rustls::ProtocolVersion::TLSv1_3));
        assert!(!group.usable_for_version(rustls::ProtocolVersion::TLSv1_2));
        assert_eq!(u16::from(group.name()), code);
    }
}
