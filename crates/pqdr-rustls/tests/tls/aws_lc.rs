//! pqdr against an implementation nobody here wrote, in memory: rustls'
//! aws-lc-rs provider (AWS-LC's ML-DSA and ML-KEM). Feature `aws-lc`.
//!
//! ML-DSA: pqdr signs (certificates and CertificateVerify) and AWS-LC
//! verifies, and AWS-LC signs with the same RFC 9881 PKCS#8 keys and pqdr
//! verifies, server and client side, every level — so the TLS rules
//! (pure ML-DSA, empty context, the RFC 8446 §4.4.3 content, RFC 9881
//! encodings) are checked against a second reading of them, not only
//! pqdr against itself. Groups: every group both have, each side pqdr
//! once.

use std::sync::Arc;

use rustls::HandshakeKind;
use rustls::crypto::aws_lc_rs as awslc;
use rustls::crypto::{CryptoProvider, SupportedKxGroup};

use crate::certs::{Alg, Pki, client, server};
use crate::common::handshake;

fn awslc_with(group: &'static dyn SupportedKxGroup) -> Arc<CryptoProvider> {
    let mut p = awslc::default_provider();
    p.kx_groups = vec![group];
    Arc::new(p)
}

fn pqdr_with(group: &'static dyn SupportedKxGroup) -> Arc<CryptoProvider> {
    let mut p = pqdr_rustls::provider();
    p.kx_groups = vec![group];
    Arc::new(p)
}

/// Mutual authentication between a server on `s` and a client on `c`,
/// both with `pki`'s certificates and keys (each side's key loaded by its
/// own provider).
fn mutual(pki: &Pki, c: Arc<CryptoProvider>, s: Arc<CryptoProvider>) {
    let server = server(
        s,
        vec![pki.server.clone()],
        pki.server_key.private_key(),
        Some(pki.roots()),
    )
    .expect("server config");
    let client = client(
        c,
        pki.roots(),
        Some((vec![pki.client.clone()], pki.client_key.private_key())),
    )
    .expect("client config");
    let (c, s) = handshake(client, server).unwrap_or_else(|e| panic!("{:?}: {e:?}", pki.alg));
    assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
    assert_eq!(s.peer_certificates(), Some(&[pki.client.clone()][..]));
}

/// pqdr client (signing with pqdr, verifying the server with pqdr) ↔
/// AWS-LC server (signing and verifying with AWS-LC), and the reverse,
/// for ML-DSA-44, -65 and -87; certificates signed by pqdr.
#[test]
fn mldsa_interoperates_with_aws_lc() {
    for alg in Alg::ML_DSA {
        let pki = Pki::new(alg);
        let g = awslc::kx_group::X25519;
        mutual(&pki, pqdr_with(g), awslc_with(g));
        mutual(&pki, awslc_with(g), pqdr_with(g));
    }
}

/// AWS-LC's ML-KEM groups against pqdr's, both directions, with the
/// ECDSA PKI.
#[test]
fn groups_interoperate_with_aws_lc() {
    let pki = Pki::new(Alg::EcdsaP256);
    let pairs: [(&'static dyn SupportedKxGroup, &'static dyn SupportedKxGroup); 4] = [
        (pqdr_rustls::X25519MLKEM768, awslc::kx_group::X25519MLKEM768),
        (
            pqdr_rustls::SECP256R1MLKEM768,
            awslc::kx_group::SECP256R1MLKEM768,
        ),
        (pqdr_rustls::MLKEM768, awslc::kx_group::MLKEM768),
        (pqdr_rustls::MLKEM1024, awslc::kx_group::MLKEM1024),
    ];
    for (ours, theirs) in pairs {
        assert_eq!(ours.name(), theirs.name());
        mutual(&pki, pqdr_with(ours), awslc_with(theirs));
        mutual(&pki, awslc_with(theirs), pqdr_with(ours));
    }
}
