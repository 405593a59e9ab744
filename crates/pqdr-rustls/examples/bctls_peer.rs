//! Live TLS 1.3 on loopback between pqdr-rustls and BouncyCastle's JSSE
//! provider (BCJSSE, bctls 1.84; `interop/bctls`), run by
//! `scripts/bctls-interop.sh`: ML-DSA-44/65/87 certificates (RFC 9881 keys,
//! `tests/tls/certs.rs`; draft-ietf-tls-mldsa schemes 0x0904–0x0906) with
//! **mutual authentication**, over every post-quantum group both sides have
//! (X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024 of
//! draft-ietf-tls-ecdhe-mlkem; MLKEM512/768/1024 of draft-ietf-tls-mlkem),
//! in both directions (rustls client → BCJSSE server, BCJSSE client →
//! rustls server). Each side reports the group it negotiated, the scheme of
//! the CertificateVerify it sent (rustls also the one it verified) and the
//! application data it received, and every value is checked; a certificate
//! from another CA is refused, by either side, in either role.
//!
//! ```text
//! bctls_peer [--plant wrong-ca|wrong-scheme] -- java -cp CLASSPATH pqdr.interop.bctls.Peer
//! ```
//!
//! Prints `ok|FAIL <set> <group> <direction> <what>` lines and
//! `bctls-interop: N passed, M failed`; exits non-zero if M > 0. `--plant`
//! shows the checks can fail: `wrong-ca` gives the BCJSSE server a
//! certificate from another CA in the cases that expect success,
//! `wrong-scheme` expects another level's scheme.

#![allow(
    missing_docs,
    unreachable_pub,
    clippy::print_stdout,
    reason = "an interop program: its output is the report"
)]

#[path = "../tests/tls/certs.rs"]
mod certs;
#[path = "../tests/tls/recorded.rs"]
mod recorded;

use core::time::Duration;
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::Instant;

use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{CryptoProvider, SupportedKxGroup};
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::server::WebPkiClientVerifier;
use rustls::sign::{CertifiedKey, Signer, SigningKey, SingleCertAndKey};
use rustls::{
    ClientConfig, ClientConnection, HandshakeKind, ServerConfig, ServerConnection,
    SignatureAlgorithm, SignatureScheme,
};

use certs::{Alg, Pki};
use recorded::{Log, Seen, read_line, take};

const TIMEOUT: Duration = Duration::from_secs(20);

/// The groups both sides have: pqdr's, with BCJSSE's names.
const GROUPS: [(&str, u16); 6] = [
    ("X25519MLKEM768", 0x11EC),
    ("SecP256r1MLKEM768", 0x11EB),
    ("SecP384r1MLKEM1024", 0x11ED),
    ("MLKEM512", 0x0200),
    ("MLKEM768", 0x0201),
    ("MLKEM1024", 0x0202),
];

/// Both sides with their default groups: BCJSSE's list (x25519, x448, the
/// NIST curves, ffdhe2048–4096, then X25519MLKEM768) and
/// [`pqdr_rustls::provider()`]'s (X25519MLKEM768 first). A rustls client
/// gets X25519MLKEM768 from a BCJSSE server; a BCJSSE client gets
/// **x25519** (0x001D) from a rustls server, which follows the client's
/// order (rustls 0.23 `choose_suite_and_kx_group`).
const DEFAULTS: &str = "default";

/// The HelloRetryRequest path: the client's first key share is for a group
/// the server does not have. rustls client ([`pqdr_rustls::provider()`],
/// share X25519MLKEM768) → BCJSSE server with MLKEM768 only; BCJSSE client
/// (defaults, share x25519) → rustls server with X25519MLKEM768 only.
const HRR: &str = "hrr";

/// How a case is set up and what it must negotiate.
struct Plan {
    /// BCJSSE's group list: one group's name, or `default`.
    bc_group: &'static str,
    /// rustls' one group, or `None` for [`pqdr_rustls::provider()`]'s.
    rustls_group: Option<u16>,
    /// The group both must report.
    expected: u16,
    /// Whether the server sent a HelloRetryRequest.
    hrr: bool,
}

fn plan(gname: &'static str, code: u16, direction: Direction) -> Plan {
    let to_bc = direction == Direction::ToBcServer;
    let (bc_group, rustls_group, expected, hrr) = match gname {
        DEFAULTS => (DEFAULTS, None, if to_bc { 0x11EC } else { 0x001D }, false),
        HRR if to_bc => ("MLKEM768", None, 0x0201, true),
        HRR => (DEFAULTS, Some(0x11EC), 0x11EC, true),
        _ => (gname, Some(code), code, false),
    };
    Plan {
        bc_group,
        rustls_group,
        expected,
        hrr,
    }
}

/// The signature schemes the BCJSSE side enables (off by default in
/// bctls 1.84; `BCSSLParameters.setSignatureSchemes`).
const BC_SCHEMES: &str = "mldsa44,mldsa65,mldsa87";

fn group(code: u16) -> &'static dyn SupportedKxGroup {
    *pqdr_rustls::ALL_KX_GROUPS
        .iter()
        .find(|g| u16::from(g.name()) == code)
        .expect("a pqdr group")
}

/// BCJSSE's name of an ML-DSA level's scheme, and the file prefix.
fn level(alg: Alg) -> &'static str {
    match alg {
        Alg::MlDsa44 => "mldsa44",
        Alg::MlDsa65 => "mldsa65",
        Alg::MlDsa87 => "mldsa87",
        Alg::EcdsaP256 => unreachable!("ML-DSA only"),
    }
}

/// Another ML-DSA level: its PKI is "another CA" (same CA name, other key).
fn other(alg: Alg) -> Alg {
    match alg {
        Alg::MlDsa44 => Alg::MlDsa65,
        Alg::MlDsa65 => Alg::MlDsa87,
        _ => Alg::MlDsa44,
    }
}

/// A signing key recording the scheme of each signer it hands out.
#[derive(Debug)]
struct SignedWith {
    inner: Arc<dyn SigningKey>,
    log: Log,
}

impl SigningKey for SignedWith {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let signer = self.inner.choose_scheme(offered)?;
        self.log.lock().expect("lock").push(signer.scheme());
        Some(signer)
    }
    fn algorithm(&self) -> SignatureAlgorithm {
        self.inner.algorithm()
    }
}

/// The rustls side of one case: TLS 1.3 with one pqdr group, presenting
/// `own`'s leaf (server or client) and trusting `trust`'s CA only, with
/// recorded signing and verification.
struct RustlsSide {
    provider: Arc<CryptoProvider>,
    signed: Log,
    verified: Log,
}

impl RustlsSide {
    /// One group, or [`pqdr_rustls::provider()`] unchanged for `None`.
    fn new(code: Option<u16>) -> Self {
        let mut p = pqdr_rustls::provider();
        if let Some(code) = code {
            p.kx_groups = vec![group(code)];
        }
        Self {
            provider: Arc::new(p),
            signed: Log::default(),
            verified: Log::default(),
        }
    }

    fn key(&self, cert: &CertificateDer<'static>, key: &certs::Key) -> Arc<SingleCertAndKey> {
        let inner = pqdr_rustls::any_mldsa_key(&key.private_key()).expect("ML-DSA key");
        let key = Arc::new(SignedWith {
            inner,
            log: self.signed.clone(),
        });
        Arc::new(SingleCertAndKey::from(CertifiedKey::new(
            vec![cert.clone()],
            key,
        )))
    }

    fn client(&self, own: &Pki, trust: &Pki) -> Arc<ClientConfig> {
        let verifier = Seen::new(
            WebPkiServerVerifier::builder_with_provider(
                Arc::new(trust.roots()),
                self.provider.clone(),
            )
            .build()
            .expect("verifier"),
            &self.verified,
        );
        let c = ClientConfig::builder_with_provider(self.provider.clone())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("TLS 1.3")
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_client_cert_resolver(self.key(&own.client, &own.client_key));
        Arc::new(c)
    }

    fn server(&self, own: &Pki, trust: &Pki) -> Arc<ServerConfig> {
        let verifier = Seen::new(
            WebPkiClientVerifier::builder_with_provider(
                Arc::new(trust.roots()),
                self.provider.clone(),
            )
            .build()
            .expect("verifier"),
            &self.verified,
        );
        let s = ServerConfig::builder_with_provider(self.provider.clone())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("TLS 1.3")
            .with_client_cert_verifier(verifier)
            .with_cert_resolver(self.key(&own.server, &own.server_key));
        Arc::new(s)
    }
}

/// The BCJSSE peer (`interop/bctls`), one JVM for the whole run.
struct Bc {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Bc {
    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").expect("command to BCJSSE");
        self.stdin.flush().expect("flush");
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("BCJSSE output");
        line.trim_end().to_owned()
    }

    /// The answer to a `server`/`client` command: `report …` or an error.
    fn report(&mut self) -> Outcome {
        let line = self.line();
        match line.strip_prefix("report ") {
            Some(report) => Ok(report.to_owned()),
            None => Err(line),
        }
    }
}

/// What one side reported: its group, the scheme it signed with and what it
/// verified or saw of the peer, and the application data received; or its
/// error.
type Outcome = Result<String, String>;

/// rustls' report: `group=0x.... hs=full|hrr signed=0x.... verified=0x....
/// data=...`.
fn rustls_report(
    side: &RustlsSide,
    group: Option<&'static dyn SupportedKxGroup>,
    kind: Option<HandshakeKind>,
    data: &str,
) -> String {
    let schemes = |log: &Log| {
        take(log)
            .iter()
            .map(|s| format!("0x{:04x}", u16::from(*s)))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "group=0x{:04x} hs={} signed={} verified={} data={data}",
        group.map_or(0, |g| u16::from(g.name())),
        match kind {
            Some(HandshakeKind::Full) => "full",
            Some(HandshakeKind::FullWithHelloRetryRequest) => "hrr",
            _ => "other",
        },
        schemes(&side.signed),
        schemes(&side.verified)
    )
}

/// rustls client → BCJSSE server (`server …` command): both sides' outcomes.
fn to_bc_server(
    bc: &mut Bc,
    side: &RustlsSide,
    config: Arc<ClientConfig>,
    cmd: &str,
    msg: &str,
) -> (Outcome, Outcome) {
    bc.send(cmd);
    let first = bc.line();
    let Some(port) = first.strip_prefix("listening ") else {
        return (Err("not run".into()), Err(first));
    };
    let ours = (|| -> Outcome {
        let mut sock =
            TcpStream::connect(format!("127.0.0.1:{port}")).map_err(|e| e.to_string())?;
        sock.set_read_timeout(Some(TIMEOUT))
            .map_err(|e| e.to_string())?;
        let name = ServerName::try_from("localhost").expect("name");
        let mut conn = ClientConnection::new(config, name).map_err(|e| format!("{e:?}"))?;
        while conn.is_handshaking() {
            conn.complete_io(&mut sock).map_err(|e| e.to_string())?;
        }
        let (group, kind) = (conn.negotiated_key_exchange_group(), conn.handshake_kind());
        let mut tls = rustls::Stream::new(&mut conn, &mut sock);
        tls.write_all(format!("{msg}\n").as_bytes())
            .map_err(|e| e.to_string())?;
        let reply = read_line(&mut tls).map_err(|e| e.to_string())?;
        Ok(rustls_report(side, group, kind, &reply))
    })();
    (ours, bc.report())
}

/// The BCJSSE client's connection, or an error after [`TIMEOUT`] (when
/// the peer failed before connecting, it answers `error …` instead).
fn accept(listener: &TcpListener) -> std::io::Result<TcpStream> {
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + TIMEOUT;
    loop {
        match listener.accept() {
            Ok((sock, _)) => {
                sock.set_nonblocking(false)?;
                return Ok(sock);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(e) => return Err(e),
        }
    }
}

/// BCJSSE client (`client … PORT MSG` command) → rustls server: both
/// sides' outcomes.
fn from_bc_client(
    bc: &mut Bc,
    side: &RustlsSide,
    config: Arc<ServerConfig>,
    cmd: &str,
    msg: &str,
) -> (Outcome, Outcome) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    bc.send(&format!("{cmd} {port} {msg}"));
    let ours = (|| -> Outcome {
        let mut sock = accept(&listener).map_err(|e| e.to_string())?;
        sock.set_read_timeout(Some(TIMEOUT))
            .map_err(|e| e.to_string())?;
        let mut conn = ServerConnection::new(config).map_err(|e| format!("{e:?}"))?;
        while conn.is_handshaking() {
            conn.complete_io(&mut sock).map_err(|e| e.to_string())?;
        }
        let (group, kind) = (conn.negotiated_key_exchange_group(), conn.handshake_kind());
        let mut tls = rustls::Stream::new(&mut conn, &mut sock);
        let line = read_line(&mut tls).map_err(|e| e.to_string())?;
        tls.write_all(format!("rustls:{line}\n").as_bytes())
            .map_err(|e| e.to_string())?;
        tls.flush().map_err(|e| e.to_string())?;
        Ok(rustls_report(side, group, kind, &line))
    })();
    (ours, bc.report())
}

/// Which side is the server.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// rustls client → BCJSSE server.
    ToBcServer,
    /// BCJSSE client → rustls server.
    FromBcClient,
}

/// One connection: the group, the direction, and whose certificates each
/// side presents and trusts (an ML-DSA level's PKI).
struct Case<'a> {
    gname: &'static str,
    code: u16,
    direction: Direction,
    rustls_own: &'a Pki,
    rustls_trust: &'a Pki,
    bc_own: Alg,
    bc_trust: Alg,
}

impl Case<'_> {
    /// Runs the connection with `msg` as the client's data: both sides'
    /// outcomes and the data each should have received (rustls', BCJSSE's).
    fn run(&self, bc: &mut Bc, dir: &Path, msg: &str) -> (Outcome, Outcome, String, String) {
        let plan = plan(self.gname, self.code, self.direction);
        let side = RustlsSide::new(plan.rustls_group);
        let (own, ca) = (level(self.bc_own), level(self.bc_trust));
        let d = dir.display();
        let gname = plan.bc_group;
        match self.direction {
            Direction::ToBcServer => {
                let cmd = format!("server {d} {own}-server {ca}-ca {gname} {BC_SCHEMES}");
                let config = side.client(self.rustls_own, self.rustls_trust);
                let (ours, theirs) = to_bc_server(bc, &side, config, &cmd, msg);
                (ours, theirs, format!("bc:{msg}"), msg.to_owned())
            }
            Direction::FromBcClient => {
                let cmd = format!("client {d} {own}-client {ca}-ca {gname} {BC_SCHEMES}");
                let config = side.server(self.rustls_own, self.rustls_trust);
                let (ours, theirs) = from_bc_client(bc, &side, config, &cmd, msg);
                (ours, theirs, msg.to_owned(), format!("rustls:{msg}"))
            }
        }
    }
}

fn name(direction: Direction) -> &'static str {
    match direction {
        Direction::ToBcServer => "rustls-client->bc-server",
        Direction::FromBcClient => "bc-client->rustls-server",
    }
}

/// Counts and prints `ok|FAIL …` lines.
#[derive(Default)]
struct Tally {
    passed: u32,
    failed: u32,
}

impl Tally {
    fn record(&mut self, result: Result<String, String>, what: String) {
        match result {
            Ok(detail) => {
                self.passed += 1;
                println!("ok {what}: {detail}");
            }
            Err(detail) => {
                self.failed += 1;
                println!("FAIL {what}: {detail}");
            }
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args
        .iter()
        .position(|a| a == "--")
        .expect("usage: bctls_peer [--plant wrong-ca|wrong-scheme] -- JAVA COMMAND…");
    let plant = match &args[..split] {
        [] => None,
        [flag, what] if flag == "--plant" && (what == "wrong-ca" || what == "wrong-scheme") => {
            Some(what.as_str())
        }
        other => panic!("unknown arguments {other:?}"),
    };
    let java = &args[split + 1..];
    let mut child = Command::new(&java[0])
        .args(&java[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the BCJSSE peer");
    let mut bc = Bc {
        stdin: child.stdin.take().expect("stdin"),
        stdout: BufReader::new(child.stdout.take().expect("stdout")),
    };
    let ready = bc.line();
    println!(
        "versions: {}; rustls 0.23 with pqdr_rustls::provider()",
        ready.trim_start_matches("ready ")
    );

    let dir = std::env::temp_dir().join(format!("pqdr-bctls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let pkis: Vec<Pki> = Alg::ML_DSA.into_iter().map(Pki::new).collect();
    for pki in &pkis {
        write_pki(&dir, pki);
    }
    let pki = |alg: Alg| pkis.iter().find(|p| p.alg == alg).expect("PKI");

    let mut tally = Tally::default();
    for alg in Alg::ML_DSA {
        let lvl = level(alg);
        // What both sides must report for this level (draft-ietf-tls-mldsa
        // §2: the scheme is the certificate key's level).
        let expected = if plant == Some("wrong-scheme") {
            other(alg)
        } else {
            alg
        };
        let scheme = u16::from(expected.scheme());
        let want_rustls = format!(" signed=0x{scheme:04x} verified=0x{scheme:04x} ");
        // BCJSSE names a scheme `mldsa65(0x905)`.
        let want_bc = format!(
            " signed={lvl}(0x{scheme:x}) peer_key={name} peer_sig={name} ",
            lvl = level(expected),
            name = expected.name()
        );
        for (gname, code) in GROUPS.into_iter().chain([(DEFAULTS, 0), (HRR, 0)]) {
            for direction in [Direction::ToBcServer, Direction::FromBcClient] {
                let planted = plant == Some("wrong-ca") && direction == Direction::ToBcServer;
                let case = Case {
                    gname,
                    code,
                    direction,
                    rustls_own: pki(alg),
                    rustls_trust: pki(alg),
                    bc_own: if planted { other(alg) } else { alg },
                    bc_trust: alg,
                };
                let msg = format!("hello-{lvl}-{gname}-{}", name(direction));
                let (ours, theirs, data_ours, data_theirs) = case.run(&mut bc, &dir, &msg);
                let plan = plan(gname, code, direction);
                let want_group = format!("group=0x{:04x} ", plan.expected);
                // A HelloRetryRequest only where the case sets one up.
                let want_hs = if plan.hrr { " hs=hrr " } else { " hs=full " };
                let result = match (ours, theirs) {
                    (Ok(ours), Ok(theirs)) => {
                        let summary = format!("rustls [{ours}] BCJSSE [{theirs}]");
                        let good = ours.starts_with(&want_group)
                            && ours.contains(want_hs)
                            && ours.contains(&want_rustls)
                            && ours.ends_with(&format!(" data={data_ours}"))
                            && theirs.starts_with("protocol=TLSv1.3 ")
                            && theirs.contains(&format!(" {want_group}"))
                            && theirs.contains(&want_bc)
                            && theirs.ends_with(&format!(" data={data_theirs}"));
                        if good {
                            Ok(summary)
                        } else {
                            Err(format!("unexpected report: {summary}"))
                        }
                    }
                    (ours, theirs) => Err(format!("rustls [{ours:?}] BCJSSE [{theirs:?}]")),
                };
                let what = format!("{} {gname} {} mutual", alg.name(), name(direction));
                tally.record(result, what);
            }
        }

        // A certificate from another CA (another level's CA: same name,
        // other key) is refused by the side that checks it, in each role.
        let (gname, code) = GROUPS[0];
        let refusals = [
            (
                Direction::ToBcServer,
                true,
                "rustls client refuses BCJSSE server's certificate",
            ),
            (
                Direction::ToBcServer,
                false,
                "BCJSSE server refuses rustls client's certificate",
            ),
            (
                Direction::FromBcClient,
                true,
                "rustls server refuses BCJSSE client's certificate",
            ),
            (
                Direction::FromBcClient,
                false,
                "BCJSSE client refuses rustls server's certificate",
            ),
        ];
        for (direction, bc_presents_other, what) in refusals {
            let case = Case {
                gname,
                code,
                direction,
                rustls_own: pki(if bc_presents_other { alg } else { other(alg) }),
                rustls_trust: pki(alg),
                bc_own: if bc_presents_other { other(alg) } else { alg },
                bc_trust: alg,
            };
            let (ours, theirs, _, _) = case.run(&mut bc, &dir, "must-not-arrive");
            // The refusing side names a certificate problem; the other side
            // sees the handshake fail.
            let result = match (&ours, &theirs) {
                (Err(o), Err(t)) if bc_presents_other && o.contains("invalid peer certificate") => {
                    Ok(format!("rustls [{o}] BCJSSE [{t}]"))
                }
                (Err(o), Err(t))
                    if !bc_presents_other && t.to_lowercase().contains("certificate") =>
                {
                    Ok(format!("rustls [{o}] BCJSSE [{t}]"))
                }
                _ => Err(format!(
                    "not refused as expected: rustls [{ours:?}] BCJSSE [{theirs:?}]"
                )),
            };
            tally.record(
                result,
                format!(
                    "{} {gname} {} another CA: {what}",
                    alg.name(),
                    name(direction)
                ),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    bc.send("quit");
    let _ = child.wait();
    println!(
        "bctls-interop: {} passed, {} failed",
        tally.passed, tally.failed
    );
    if tally.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Writes a level's CA and leaves (DER) and the leaves' keys (PKCS#8, RFC
/// 9881 seed form) as `<level>-ca.der`, `<level>-server.der|key`,
/// `<level>-client.der|key`.
fn write_pki(dir: &Path, pki: &Pki) {
    let lvl = level(pki.alg);
    let w = |name: String, bytes: &[u8]| {
        std::fs::write(dir.join(name), bytes).expect("write a PKI file");
    };
    w(format!("{lvl}-ca.der"), &pki.ca);
    w(format!("{lvl}-server.der"), &pki.server);
    w(format!("{lvl}-server.key"), &pki.server_key.pkcs8);
    w(format!("{lvl}-client.der"), &pki.client);
    w(format!("{lvl}-client.key"), &pki.client_key.pkcs8);
}
