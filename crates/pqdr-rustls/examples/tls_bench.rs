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
//! # the same over loopback TCP (a connection, the handshake and one
//! # application-data round trip per handshake):
//! cargo run --release -p pqdr-rustls --features aws-lc --example tls_bench -- tcp [ROUNDS BATCH]
//! # the key exchange alone (client start, server start-and-complete, client
//! # complete), pqdr's groups against aws-lc-rs's, alternating batches:
//! cargo run --release -p pqdr-rustls --features aws-lc --example tls_bench -- kx [ROUNDS BATCH]
//! # instructions of N handshakes of case CASE (0-based, in table order):
//! valgrind --tool=callgrind --toggle-collect='*count_loop*' target/release/examples/tls_bench count CASE N
//! ```
//!
//! The main table's cases run on one base provider, rustls' aws-lc-rs one
//! (AEAD, HKDF, X25519, ECDSA P-256 signing and verification), so a row
//! differs from the baseline only in its key-exchange group and, for ML-DSA
//! rows, in the certificates' and CertificateVerify's signature scheme
//! (pqdr's, or aws-lc-rs' own in the rows saying so). A second table runs a
//! few cases on `pqdr_rustls::provider()` (ring base) against ring's X25519
//! with ECDSA-P256. Session resumption is off (no tickets): every handshake is
//! a full one, checked. Certificates: a CA (the trust anchor, not sent) and
//! one leaf per side, all of the row's signature algorithm.

#![allow(
    missing_docs,
    unreachable_pub,
    clippy::print_stdout,
    reason = "a benchmark program"
)]

#[path = "../tests/tls/certs.rs"]
mod certs;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
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

/// A case's providers: the aws-lc-rs base with ML-DSA from pqdr
/// (`AwsLcPqdr`) or from aws-lc-rs (`AwsLc`), or `pqdr_rustls::provider()`
/// (`Ring`: ring's AEAD, HKDF, X25519 and ECDSA, pqdr's groups and ML-DSA).
#[derive(Clone, Copy, PartialEq)]
enum Base {
    AwsLcPqdr,
    AwsLc,
    Ring,
}

/// The base provider with one group.
fn provider(group: &'static dyn SupportedKxGroup, base: Base) -> Arc<CryptoProvider> {
    let mut p = match base {
        Base::Ring => pqdr_rustls::provider(),
        Base::AwsLcPqdr => CryptoProvider {
            signature_verification_algorithms: PQDR_MLDSA_VERIFY,
            key_provider: &PqdrMlDsaKeys,
            ..awslc::default_provider()
        },
        Base::AwsLc => awslc::default_provider(),
    };
    p.kx_groups = vec![group];
    Arc::new(p)
}

struct Case {
    /// The table it belongs to (0: aws-lc-rs base, 1: ring base) and the
    /// index of its baseline (X25519 + ECDSA-P256 on the same base).
    table: usize,
    baseline: usize,
    signature: String,
    group: String,
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

/// The loopback TCP mode's server: one thread that, for each configuration
/// it is sent, accepts one connection, completes the handshake, answers the
/// client's 4-byte message and reports the handshake's success.
struct TcpLink {
    addr: core::net::SocketAddr,
    to_server: Option<Sender<Arc<ServerConfig>>>,
    done: Receiver<bool>,
    server: Option<JoinHandle<()>>,
}

impl TcpLink {
    fn new() -> TcpLink {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("addr");
        let (to_server, configs) = channel::<Arc<ServerConfig>>();
        let (report, done) = channel();
        let server = std::thread::spawn(move || {
            for config in configs {
                let (sock, _) = listener.accept().expect("accept");
                sock.set_nodelay(true).expect("nodelay");
                let conn = ServerConnection::new(config).expect("server");
                let mut tls = rustls::StreamOwned::new(conn, sock);
                let mut ping = [0u8; 4];
                let ok = tls.read_exact(&mut ping).is_ok()
                    && &ping == b"ping"
                    && tls.conn.peer_certificates().is_some()
                    && tls.write_all(b"pong").is_ok()
                    && tls.flush().is_ok();
                report.send(ok).expect("report");
            }
        });
        TcpLink {
            addr,
            to_server: Some(to_server),
            done,
            server: Some(server),
        }
    }

    /// One full handshake over a new loopback connection, with a 4-byte
    /// message each way after it (the first application data).
    fn handshake(&self, client: &Arc<ClientConfig>, server: &Arc<ServerConfig>) {
        let to_server = self.to_server.as_ref().expect("server running");
        to_server.send(server.clone()).expect("to server");
        let sock = TcpStream::connect(self.addr).expect("connect");
        sock.set_nodelay(true).expect("nodelay");
        let name = ServerName::try_from("localhost").expect("name");
        let conn = ClientConnection::new(client.clone(), name).expect("client");
        let mut tls = rustls::StreamOwned::new(conn, sock);
        tls.write_all(b"ping").expect("write");
        let mut pong = [0u8; 4];
        tls.read_exact(&mut pong).expect("read");
        assert_eq!(&pong, b"pong");
        assert_eq!(tls.conn.handshake_kind(), Some(HandshakeKind::Full));
        assert!(
            self.done.recv().expect("server report"),
            "server side failed"
        );
    }
}

impl Drop for TcpLink {
    fn drop(&mut self) {
        drop(self.to_server.take());
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() >> 1]
}

fn main() {
    // `ROUNDS BATCH`, or `count CASE N`: N handshakes of case CASE (its
    // index in the table order, both tables), no timing, for callgrind.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: usize| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("ROUNDS BATCH | count CASE N"))
    };
    let count = args.first().is_some_and(|a| a == "count");
    if args.first().is_some_and(|a| a == "kx") {
        kx_race(num(1, 101), num(2, 16));
        return;
    }
    let tcp = args.first().is_some_and(|a| a == "tcp");
    let (rounds, batch) = if count {
        (0, 0)
    } else if tcp {
        (num(1, 30), num(2, 8))
    } else {
        (num(0, 30), num(1, 8))
    };

    use pqdr_rustls as pq;
    let x25519 = awslc::kx_group::X25519;
    let pqdr_groups: [(&'static dyn SupportedKxGroup, &str); 7] = [
        (x25519, "X25519 (aws-lc-rs)"),
        (pq::MLKEM512, "MLKEM512 (pqdr)"),
        (pq::MLKEM768, "MLKEM768 (pqdr)"),
        (pq::MLKEM1024, "MLKEM1024 (pqdr)"),
        (pq::X25519MLKEM768, "X25519MLKEM768 (pqdr)"),
        (pq::SECP256R1MLKEM768, "SecP256r1MLKEM768 (pqdr)"),
        (pq::SECP384R1MLKEM1024, "SecP384r1MLKEM1024 (pqdr)"),
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
    let ring_x25519 = rustls::crypto::ring::kx_group::X25519;
    // `pqdr_rustls::provider()` as a user gets it (ring base).
    let ring_cases: [(Alg, &'static dyn SupportedKxGroup, &str); 6] = [
        (Alg::EcdsaP256, ring_x25519, "X25519 (ring)"),
        (Alg::EcdsaP256, pq::X25519MLKEM768, "X25519MLKEM768 (pqdr)"),
        (Alg::EcdsaP256, pq::MLKEM768, "MLKEM768 (pqdr)"),
        (Alg::MlDsa65, pq::MLKEM768, "MLKEM768 (pqdr)"),
        (Alg::MlDsa65, pq::X25519MLKEM768, "X25519MLKEM768 (pqdr)"),
        (Alg::MlDsa87, pq::MLKEM1024, "MLKEM1024 (pqdr)"),
    ];

    let pkis = Alg::ALL.map(Pki::new);
    let pki = |alg: Alg| &pkis[Alg::ALL.iter().position(|a| *a == alg).expect("alg")];
    let mut cases = Vec::new();
    let mut add = |table, baseline, alg: Alg, base, group, group_name: &str| {
        let pki = pki(alg);
        let (client, server) = pki.mutual(provider(group, base));
        let (client, server) = (no_resumption(client), no_tickets(server));
        let bytes = handshake(&client, &server);
        let signature = match (alg, base) {
            (Alg::EcdsaP256, Base::Ring) => "ECDSA-P256 (ring)".to_string(),
            (Alg::EcdsaP256, _) => "ECDSA-P256 (aws-lc-rs)".to_string(),
            (alg, Base::AwsLc) => format!("{} (aws-lc-rs)", alg.name()),
            (alg, _) => format!("{} (pqdr)", alg.name()),
        };
        cases.push(Case {
            table,
            baseline,
            signature,
            group: group_name.to_string(),
            client,
            server,
            server_cert: pki.server.len(),
            client_cert: pki.client.len(),
            bytes,
            times: Vec::new(),
        });
    };
    for alg in Alg::ALL {
        for (group, name) in pqdr_groups.iter().chain(&awslc_groups) {
            add(0, 0, alg, Base::AwsLcPqdr, *group, name);
        }
        if alg != Alg::EcdsaP256 {
            // aws-lc-rs' own ML-DSA (signing and verification), X25519.
            add(0, 0, alg, Base::AwsLc, x25519, "X25519 (aws-lc-rs)");
        }
    }
    let ring_baseline = 4 * 11 + 3;
    for (alg, group, name) in ring_cases {
        add(1, ring_baseline, alg, Base::Ring, group, name);
    }
    assert_eq!(cases[ring_baseline].group, "X25519 (ring)");
    if count {
        let (i, n) = (num(1, 0), num(2, 10));
        let case = &cases[i];
        count_loop(case, n);
        println!(
            "case {i}: {} | {}: {n} handshakes",
            case.signature, case.group
        );
        return;
    }

    let link = tcp.then(TcpLink::new);
    let start = Instant::now();
    for _ in 0..rounds {
        for case in &mut cases {
            let t = Instant::now();
            for _ in 0..batch {
                match &link {
                    Some(link) => link.handshake(&case.client, &case.server),
                    None => {
                        handshake(&case.client, &case.server);
                    }
                }
            }
            case.times.push(t.elapsed().as_secs_f64() / batch as f64);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    drop(link);

    let how = if tcp {
        "over loopback TCP (a new connection, the handshake and a 4-byte message each way per \
         handshake; server on a second thread)"
    } else {
        "in memory"
    };
    println!(
        "rustls 0.23 mutual TLS 1.3, full handshakes {how}; {rounds} rounds x {batch} \
         handshakes per case, {} cases alternating; {elapsed:.0} s",
        cases.len()
    );
    let times: Vec<Vec<f64>> = cases.iter().map(|c| c.times.clone()).collect();
    for (table, title) in [
        (0, "aws-lc-rs base (AEAD, HKDF, ECDSA: aws-lc-rs)"),
        (
            1,
            "pqdr_rustls::provider() (AEAD, HKDF, X25519, ECDSA: ring)",
        ),
    ] {
        println!();
        println!("{title}");
        println!();
        println!(
            "| Signature | Group | µs / handshake (median) | ratio to X25519 + ECDSA-P256 (median of per-round ratios) | server / client cert (B) | handshake bytes c→s / s→c |"
        );
        println!("|---|---|---:|---:|---:|---:|");
        for case in cases.iter_mut().filter(|c| c.table == table) {
            let base = &times[case.baseline];
            let mut ratios: Vec<f64> = case.times.iter().zip(base).map(|(t, b)| t / b).collect();
            println!(
                "| {} | {} | {:.0} | {:.2} | {} / {} | {} / {} |",
                case.signature,
                case.group,
                median(&mut case.times) * 1e6,
                median(&mut ratios),
                case.server_cert,
                case.client_cert,
                case.bytes.0,
                case.bytes.1,
            );
        }
    }
}

/// `n` handshakes of `case`: the function callgrind counts
/// (`--toggle-collect='*count_loop*'`), so the set-up is left out.
#[inline(never)]
fn count_loop(case: &Case, n: usize) {
    for _ in 0..n {
        handshake(&case.client, &case.server);
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

/// One key exchange as a TLS handshake runs it: the client's share, the
/// server's encapsulation (or share and ECDH), the client's completion.
/// Returns the client's secret after checking it equals the server's.
fn kx_once(client_group: &dyn SupportedKxGroup, server_group: &dyn SupportedKxGroup) -> usize {
    let client = client_group.start().expect("client share");
    let server = server_group
        .start_and_complete(client.pub_key())
        .expect("server share");
    let secret = client.complete(&server.pub_key).expect("client secret");
    assert_eq!(
        secret.secret_bytes(),
        server.secret.secret_bytes(),
        "both sides derive one secret"
    );
    secret.secret_bytes().len()
}

/// `kx ROUNDS BATCH`: each group pair's exchanges in alternating batches
/// (pqdr's, then aws-lc-rs's, the order swapped every round), the median
/// of per-round ratios aws-lc-rs time / pqdr time (above 1: pqdr faster).
/// Before timing, each pair runs across implementations both ways (pqdr
/// client with an aws-lc-rs server and back), which must agree.
fn kx_race(rounds: usize, batch: usize) {
    use pqdr_rustls as pq;
    type G = &'static dyn SupportedKxGroup;
    let pairs: [(&str, G, G); 4] = [
        ("MLKEM768", pq::MLKEM768, awslc::kx_group::MLKEM768),
        ("MLKEM1024", pq::MLKEM1024, awslc::kx_group::MLKEM1024),
        (
            "X25519MLKEM768",
            pq::X25519MLKEM768,
            awslc::kx_group::X25519MLKEM768,
        ),
        (
            "SecP256r1MLKEM768",
            pq::SECP256R1MLKEM768,
            awslc::kx_group::SECP256R1MLKEM768,
        ),
    ];
    for (name, ours, theirs) in pairs {
        assert_eq!(ours.name(), theirs.name(), "{name}: one code point");
        assert!(kx_once(ours, theirs) > 0 && kx_once(theirs, ours) > 0);
    }
    println!(
        "key exchange alone (client start + server start_and_complete + client complete, secrets \
         compared), {rounds} rounds x {batch} exchanges, alternating\n"
    );
    println!(
        "| group | pqdr µs (median) | aws-lc-rs µs (median) | aws-lc-rs / pqdr (median of per-round ratios, IQR) |"
    );
    println!("|---|---:|---:|---:|");
    for (name, ours, theirs) in pairs {
        let mut t = [Vec::new(), Vec::new()];
        let mut ratios = Vec::new();
        for r in 0..rounds {
            let mut round = [0.0f64; 2];
            for k in 0..2 {
                let which = k ^ (r & 1);
                let g = [ours, theirs][which];
                let start = Instant::now();
                for _ in 0..batch {
                    core::hint::black_box(kx_once(g, g));
                }
                round[which] = start.elapsed().as_secs_f64() * 1e6 / batch as f64;
            }
            t[0].push(round[0]);
            t[1].push(round[1]);
            ratios.push(round[1] / round[0]);
        }
        let mut sorted = ratios.clone();
        sorted.sort_by(f64::total_cmp);
        let (q1, q3) = (sorted[sorted.len() >> 2], sorted[(3 * sorted.len()) >> 2]);
        println!(
            "| {name} | {:.1} | {:.1} | {:.2} ({q1:.2}–{q3:.2}) |",
            median(&mut t[0]),
            median(&mut t[1]),
            median(&mut ratios)
        );
    }
}
