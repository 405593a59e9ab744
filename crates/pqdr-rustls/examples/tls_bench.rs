//! The TLS 1.3 handshake benchmark of issue #36: mutual authentication,
//! full handshakes in memory, both sides in this process, every
//! {ECDSA-P256, ML-DSA-44, -65, -87} × {X25519, MLKEM512, MLKEM768,
//! MLKEM1024, X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024} with
//! pqdr's groups and signatures, and rustls' aws-lc-rs groups (and ML-DSA)
//! in the same run. Cases alternate in batches, round after round; each
//! round's time per handshake is divided by the same round's X25519 +
//! ECDSA-P256 time, and the table gives the median over rounds of both.
//!
//! ```sh
//! cargo run --release -p pqdr-rustls --features aws-lc --example tls_bench [-- ROUNDS BATCH]
//! ```
//!
//! Every case runs on the same base provider, rustls' aws-lc-rs one (AEAD,
//! HKDF, X25519, ECDSA P-256 signing and verification), so a row differs
//! from the baseline only in its key-exchange group and, for ML-DSA rows,
//! in the certificates' and CertificateVerify's signature scheme. Session
//! resumption is off (no tickets): every handshake is a full one, checked.

#![allow(
    missing_docs,
    unreachable_pub,
    clippy::print_stdout,
    reason = "a benchmark program"
)]

#[path = "../tests/tls/certs.rs"]
mod certs;

use std::sync::Arc;
use std::time::Instant;

use rustls::client::Resumption;
use rustls::crypto::aws_lc_rs as awslc;
use rustls::crypto::{CryptoProvider, KeyProvider, SupportedKxGroup, WebPkiSupportedAlgorithms};
use rustls::pki_types::{PrivateKeyDer, ServerName};
use rustls::sign::SigningKey;
use rustls::{ClientConfig, ClientConnection, HandshakeKind, ServerConfig, ServerConnection};

use certs::{Alg, Pki};

/// aws-lc-rs' key provider for every key but ML-DSA, which pqdr loads.
#[derive(Debug)]
struct PqdrMlDsaKeys;

impl KeyProvider for PqdrMlDsaKeys {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, rustls::Error> {
        pqdr_rustls::any_mldsa_key(&key_der).or_else(|_| awslc::sign::any_supported_type(&key_der))
    }
}

/// aws-lc-rs' verification algorithms for ECDSA P-256, pqdr's for ML-DSA.
static PQDR_MLDSA_VERIFY: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        webpki::aws_lc_rs::ECDSA_P256_SHA256,
        pqdr_rustls::ML_DSA_44,
        pqdr_rustls::ML_DSA_65,
        pqdr_rustls::ML_DSA_87,
    ],
    mapping: &[
        (
            rustls::SignatureScheme::ECDSA_NISTP256_SHA256,
            &[webpki::aws_lc_rs::ECDSA_P256_SHA256],
        ),
        (
            rustls::SignatureScheme::ML_DSA_44,
            &[pqdr_rustls::ML_DSA_44],
        ),
        (
            rustls::SignatureScheme::ML_DSA_65,
            &[pqdr_rustls::ML_DSA_65],
        ),
        (
            rustls::SignatureScheme::ML_DSA_87,
            &[pqdr_rustls::ML_DSA_87],
        ),
    ],
};

/// Whose ML-DSA a case uses (ECDSA is always aws-lc-rs').
#[derive(Clone, Copy, PartialEq)]
enum Signer {
    Pqdr,
    AwsLc,
}

/// The aws-lc-rs provider with one group; ML-DSA from pqdr or aws-lc-rs.
fn provider(group: &'static dyn SupportedKxGroup, signer: Signer) -> Arc<CryptoProvider> {
    let mut p = awslc::default_provider();
    p.kx_groups = vec![group];
    if signer == Signer::Pqdr {
        p.signature_verification_algorithms = PQDR_MLDSA_VERIFY;
        p.key_provider = &PqdrMlDsaKeys;
    }
    Arc::new(p)
}

struct Case {
    alg: Alg,
    signer: Signer,
    group: &'static dyn SupportedKxGroup,
    group_name: &'static str,
    client: Arc<ClientConfig>,
    server: Arc<ServerConfig>,
    server_cert: usize,
    client_cert: usize,
    /// Bytes of one handshake: client to server, server to client.
    bytes: (usize, usize),
    /// Per round: seconds per handshake.
    times: Vec<f64>,
}

/// One full handshake in memory; the bytes each way.
fn handshake(client: &Arc<ClientConfig>, server: &Arc<ServerConfig>) -> (usize, usize) {
    let name = ServerName::try_from("localhost").expect("name");
    let mut c = ClientConnection::new(client.clone(), name).expect("client");
    let mut s = ServerConnection::new(server.clone()).expect("server");
    let (mut up, mut down) = (0, 0);
    let mut buf = Vec::with_capacity(32 * 1024);
    while c.is_handshaking() || s.is_handshaking() || c.wants_write() || s.wants_write() {
        buf.clear();
        while c.wants_write() {
            c.write_tls(&mut buf).expect("write");
        }
        up += buf.len();
        let mut rd = &buf[..];
        while !rd.is_empty() {
            s.read_tls(&mut rd).expect("read");
        }
        s.process_new_packets().expect("server");
        buf.clear();
        while s.wants_write() {
            s.write_tls(&mut buf).expect("write");
        }
        down += buf.len();
        let mut rd = &buf[..];
        while !rd.is_empty() {
            c.read_tls(&mut rd).expect("read");
        }
        c.process_new_packets().expect("client");
    }
    assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
    assert!(s.peer_certificates().is_some(), "mutual authentication");
    (up, down)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() >> 1]
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("ROUNDS BATCH"))
        .collect();
    let rounds = args.first().copied().unwrap_or(30);
    let batch = args.get(1).copied().unwrap_or(8);

    let pqdr_groups: [(&'static dyn SupportedKxGroup, &str); 7] = [
        (awslc::kx_group::X25519, "X25519"),
        (pqdr_rustls::MLKEM512, "MLKEM512"),
        (pqdr_rustls::MLKEM768, "MLKEM768"),
        (pqdr_rustls::MLKEM1024, "MLKEM1024"),
        (pqdr_rustls::X25519MLKEM768, "X25519MLKEM768"),
        (pqdr_rustls::SECP256R1MLKEM768, "SecP256r1MLKEM768"),
        (pqdr_rustls::SECP384R1MLKEM1024, "SecP384r1MLKEM1024"),
    ];
    let awslc_groups: [(&'static dyn SupportedKxGroup, &str); 4] = [
        (awslc::kx_group::MLKEM768, "MLKEM768 (aws-lc-rs)"),
        (awslc::kx_group::MLKEM1024, "MLKEM1024 (aws-lc-rs)"),
        (
            awslc::kx_group::X25519MLKEM768,
            "X25519MLKEM768 (aws-lc-rs)",
        ),
        (
            awslc::kx_group::SECP256R1MLKEM768,
            "SecP256r1MLKEM768 (aws-lc-rs)",
        ),
    ];

    let mut cases = Vec::new();
    for alg in Alg::ALL {
        let pki = Pki::new(alg);
        let mut add = |group, group_name, signer| {
            let (client, server) = pki.mutual(provider(group, signer));
            let (client, server) = (no_resumption(client), no_tickets(server));
            let bytes = handshake(&client, &server);
            cases.push(Case {
                alg,
                signer,
                group,
                group_name,
                client,
                server,
                server_cert: pki.server.len(),
                client_cert: pki.client.len(),
                bytes,
                times: Vec::new(),
            });
        };
        for (group, name) in pqdr_groups.iter().chain(&awslc_groups) {
            add(*group, *name, Signer::Pqdr);
        }
        if alg != Alg::EcdsaP256 {
            // aws-lc-rs' own ML-DSA (signing and verification), X25519.
            add(awslc::kx_group::X25519, "X25519", Signer::AwsLc);
        }
    }

    let start = Instant::now();
    for _ in 0..rounds {
        for case in &mut cases {
            let t = Instant::now();
            for _ in 0..batch {
                handshake(&case.client, &case.server);
            }
            case.times.push(t.elapsed().as_secs_f64() / batch as f64);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();

    let base = cases[0].times.clone();
    println!(
        "rustls 0.23 mutual TLS 1.3, full handshakes in memory; {rounds} rounds x {batch} \
         handshakes per case, {} cases alternating; {elapsed:.0} s",
        cases.len()
    );
    println!();
    println!(
        "| Signature | Group | µs / handshake (median) | ratio to X25519 + ECDSA-P256 (median of per-round ratios) | server / client cert (B) | handshake bytes c→s / s→c |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for case in &mut cases {
        let mut ratios: Vec<f64> = case.times.iter().zip(&base).map(|(t, b)| t / b).collect();
        let sig = match (case.alg, case.signer) {
            (Alg::EcdsaP256, _) => "ECDSA-P256 (aws-lc-rs)".to_string(),
            (alg, Signer::Pqdr) => format!("{} (pqdr)", alg.name()),
            (alg, Signer::AwsLc) => format!("{} (aws-lc-rs)", alg.name()),
        };
        let group = if case.group.name() == awslc::kx_group::X25519.name() {
            "X25519 (aws-lc-rs)".to_string()
        } else if case.group_name.contains("aws-lc-rs") {
            case.group_name.to_string()
        } else {
            format!("{} (pqdr)", case.group_name)
        };
        println!(
            "| {sig} | {group} | {:.0} | {:.2} | {} / {} | {} / {} |",
            median(&mut case.times) * 1e6,
            median(&mut ratios),
            case.server_cert,
            case.client_cert,
            case.bytes.0,
            case.bytes.1,
        );
    }
}

/// A client that never resumes (every handshake full).
fn no_resumption(config: Arc<ClientConfig>) -> Arc<ClientConfig> {
    let mut c = (*config).clone();
    c.resumption = Resumption::disabled();
    Arc::new(c)
}

/// A server that sends no session tickets.
fn no_tickets(config: Arc<ServerConfig>) -> Arc<ServerConfig> {
    let mut s = (*config).clone();
    s.send_tls13_tickets = 0;
    s.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
    Arc::new(s)
}
