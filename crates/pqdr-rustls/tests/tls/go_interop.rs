//! Live TLS 1.3 on loopback against Go's crypto/tls (Go ≥ 1.26, standard
//! library only: `interop/go/tls`, built once per run into this test's
//! target directory): rustls client ↔ Go server and Go client ↔ rustls
//! server for each group Go has (X25519MLKEM768, SecP256r1MLKEM768,
//! SecP384r1MLKEM1024; Go 1.26 has no pure ML-KEM group), the
//! HelloRetryRequest path both ways, and tampered key shares refused both
//! ways. Each side reports the group it negotiated (Go's
//! `ConnectionState().CurveID`, rustls' `negotiated_key_exchange_group()`)
//! and the application data it received, and both are checked.
//!
//! Needs `go` on `PATH` (or at /usr/local/go/bin/go); the test fails, not
//! skips, without it.

use core::time::Duration;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, OnceLock};

use crate::common::{
    CA_PEM, CERT_PEM, GROUPS, KEY_PEM, Tampered, client_config, provider_with, refused_tamper,
    ring_x25519, server_config, server_name,
};
use crate::recorded::read_line;
use rustls::crypto::SupportedKxGroup;
use rustls::{
    AlertDescription, ClientConfig, ClientConnection, Error, HandshakeKind, PeerMisbehaved,
    ServerConfig, ServerConnection,
};

const TIMEOUT: Duration = Duration::from_secs(20);

/// The hybrid groups with Go's names.
fn go_groups() -> Vec<(&'static dyn SupportedKxGroup, u16, &'static str)> {
    GROUPS
        .iter()
        .filter_map(|&(g, code, name)| name.map(|n| (g, code, n)))
        .collect()
}

/// `go build` of `interop/go/tls`, once per test process.
fn go_binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let go = ["go", "/usr/local/go/bin/go"]
            .into_iter()
            .find(|go| Command::new(go).arg("version").output().is_ok())
            .expect("Go ≥ 1.26 (`go` on PATH or /usr/local/go/bin/go) is needed for this test");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pqdr-go-tls");
        let mut build = Command::new(go);
        build
            .args(["build", "-o"])
            .arg(&out)
            .arg("./tls")
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../interop/go"))
            // The installed Go, never a downloaded toolchain.
            .env("GOTOOLCHAIN", "local");
        if std::env::var_os("GOCACHE").is_none() && std::env::var_os("HOME").is_none() {
            // Go needs a build cache; without $HOME it has no default one.
            build.env(
                "GOCACHE",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-cache"),
            );
        }
        let status = build.status().expect("go build");
        assert!(status.success(), "go build ./tls failed");
        out
    })
}

/// A running Go server; killed on drop.
struct GoServer {
    child: Child,
    out: BufReader<ChildStdout>,
    addr: String,
}

impl GoServer {
    fn start(groups: &str) -> Self {
        let mut child = Command::new(go_binary())
            .args([
                "server", "-groups", groups, "-cert", CERT_PEM, "-key", KEY_PEM,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the Go server");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("Go server output");
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("Go server said {line:?}"))
            .to_owned();
        Self { child, out, addr }
    }

    /// The Go server's report on the last connection.
    fn report(&mut self) -> String {
        let mut line = String::new();
        self.out.read_line(&mut line).expect("Go server report");
        line.trim_end().to_owned()
    }
}

impl Drop for GoServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The rustls error inside an I/O error from `complete_io`, if any.
fn tls_error(e: &std::io::Error) -> Option<Error> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Error>())
        .cloned()
}

/// A rustls client: handshake with `addr`, send `msg`, read one line back.
/// `Err` carries rustls' error from the handshake.
fn rustls_client(
    config: Arc<ClientConfig>,
    addr: &str,
    msg: &str,
) -> Result<(ClientConnection, String), Error> {
    let mut sock = TcpStream::connect(addr).expect("connect");
    sock.set_read_timeout(Some(TIMEOUT)).expect("timeout");
    let mut conn = ClientConnection::new(config, server_name()).expect("client");
    while conn.is_handshaking() {
        if let Err(e) = conn.complete_io(&mut sock) {
            return Err(tls_error(&e).unwrap_or_else(|| panic!("I/O error {e}")));
        }
    }
    let mut tls = rustls::Stream::new(&mut conn, &mut sock);
    tls.write_all(format!("{msg}\n").as_bytes()).expect("write");
    let reply = read_line(&mut tls).expect("reply");
    Ok((conn, reply))
}

/// A Go client against a rustls server with `config`: the server's result
/// (its connection and the line it received, or its handshake error) and
/// the Go client's report line.
fn go_client_to_rustls(
    config: Arc<ServerConfig>,
    go_groups: &str,
    msg: &str,
) -> (Result<(ServerConnection, String), Error>, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr").to_string();
    let child = Command::new(go_binary())
        .args([
            "client", "-addr", &addr, "-groups", go_groups, "-ca", CA_PEM, "-msg", msg,
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the Go client");
    let (mut sock, _) = listener.accept().expect("accept");
    sock.set_read_timeout(Some(TIMEOUT)).expect("timeout");
    let mut conn = ServerConnection::new(config).expect("server");
    let mut result = Ok(());
    while conn.is_handshaking() {
        if let Err(e) = conn.complete_io(&mut sock) {
            result = Err(tls_error(&e).unwrap_or_else(|| panic!("I/O error {e}")));
            break;
        }
    }
    let served = result.map(|()| {
        let code = conn
            .negotiated_key_exchange_group()
            .map_or(0, |g| u16::from(g.name()));
        let mut tls = rustls::Stream::new(&mut conn, &mut sock);
        let line = read_line(&mut tls).expect("line from the Go client");
        tls.write_all(format!("rustls:0x{code:04x}:{line}\n").as_bytes())
            .expect("reply");
        tls.flush().expect("flush");
        (line, code)
    });
    let output = child.wait_with_output().expect("Go client");
    let report = String::from_utf8_lossy(&output.stdout)
        .trim_end()
        .to_owned();
    (served.map(|(line, _)| (conn, line)), report)
}

fn code_of(conn_group: Option<&'static dyn SupportedKxGroup>) -> Option<u16> {
    conn_group.map(|g| u16::from(g.name()))
}

#[test]
fn rustls_client_to_go_server_every_group() {
    let mut go = GoServer::start("X25519MLKEM768,SecP256r1MLKEM768,SecP384r1MLKEM1024");
    for (group, code, name) in go_groups() {
        let msg = format!("rustls client offers {name}");
        let (conn, reply) = rustls_client(client_config(provider_with(&[group])), &go.addr, &msg)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(code_of(conn.negotiated_key_exchange_group()), Some(code));
        assert_eq!(conn.handshake_kind(), Some(HandshakeKind::Full));
        assert_eq!(reply, format!("go:0x{code:04x}:{msg}"));
        assert_eq!(
            go.report(),
            format!("server-ok group=0x{code:04x} msg={msg}")
        );
    }
    // The crate's provider: X25519MLKEM768, the first group.
    let (conn, reply) = rustls_client(
        client_config(pqdr_rustls::provider().into()),
        &go.addr,
        "provider",
    )
    .expect("handshake");
    assert_eq!(code_of(conn.negotiated_key_exchange_group()), Some(0x11EC));
    assert_eq!(reply, "go:0x11ec:provider");
    assert_eq!(go.report(), "server-ok group=0x11ec msg=provider");
}

#[test]
fn go_client_to_rustls_server_every_group() {
    let config = server_config(pqdr_rustls::provider().into());
    for (_, code, name) in go_groups() {
        let msg = format!("Go client offers {name}");
        let (served, report) = go_client_to_rustls(config.clone(), name, &msg);
        let (conn, line) = served.unwrap_or_else(|e| panic!("{name}: {e:?} / Go: {report}"));
        assert_eq!(code_of(conn.negotiated_key_exchange_group()), Some(code));
        assert_eq!(conn.handshake_kind(), Some(HandshakeKind::Full));
        assert_eq!(line, msg);
        assert_eq!(
            report,
            format!("client-ok group=0x{code:04x} reply=rustls:0x{code:04x}:{msg}")
        );
    }
}

/// The rustls client's only key share is X25519 (listed first); a Go
/// server that accepts one hybrid only answers with a HelloRetryRequest.
#[test]
fn hello_retry_request_rustls_client_to_go_server() {
    for (group, code, name) in go_groups() {
        let mut go = GoServer::start(name);
        let config = client_config(provider_with(&[ring_x25519(), group]));
        let (conn, reply) = rustls_client(config, &go.addr, "after HRR")
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(
            conn.handshake_kind(),
            Some(HandshakeKind::FullWithHelloRetryRequest),
            "{name}"
        );
        assert_eq!(code_of(conn.negotiated_key_exchange_group()), Some(code));
        assert_eq!(reply, format!("go:0x{code:04x}:after HRR"));
        assert_eq!(
            go.report(),
            format!("server-ok group=0x{code:04x} msg=after HRR")
        );
    }
}

/// Go's client always sends its first group's share (X25519MLKEM768, with
/// an X25519 share beside it); a rustls server that accepts only one of the
/// P-256 / P-384 hybrids answers with a HelloRetryRequest.
#[test]
fn hello_retry_request_go_client_to_rustls_server() {
    for (group, code, name) in go_groups().into_iter().skip(1) {
        let config = server_config(provider_with(&[group]));
        let offered = format!("X25519MLKEM768,X25519,{name}");
        let (served, report) = go_client_to_rustls(config, &offered, "after HRR");
        let (conn, line) = served.unwrap_or_else(|e| panic!("{name}: {e:?} / Go: {report}"));
        assert_eq!(
            conn.handshake_kind(),
            Some(HandshakeKind::FullWithHelloRetryRequest),
            "{name}"
        );
        assert_eq!(code_of(conn.negotiated_key_exchange_group()), Some(code));
        assert_eq!(line, "after HRR");
        assert_eq!(
            report,
            format!("client-ok group=0x{code:04x} reply=rustls:0x{code:04x}:after HRR")
        );
    }
}

/// A rustls client sends an invalid share (an invalid classical part):
/// Go refuses it with `illegal_parameter`, which rustls reports as a typed
/// error; nothing panics and the Go server goes on serving.
#[test]
fn tampered_client_share_is_refused_by_go() {
    let mut go = GoServer::start("X25519MLKEM768,SecP256r1MLKEM768,SecP384r1MLKEM1024");
    for (group, code, name) in go_groups() {
        let bad = Tampered::new(group, refused_tamper(code, true));
        let r = rustls_client(client_config(provider_with(&[bad])), &go.addr, "tampered");
        assert_eq!(
            r.err(),
            Some(Error::AlertReceived(AlertDescription::IllegalParameter)),
            "{name}"
        );
        let report = go.report();
        assert!(report.starts_with("server-error: "), "{name}: {report}");
    }
    // Still serving: a valid exchange after the refused ones.
    let (_, reply) = rustls_client(
        client_config(pqdr_rustls::provider().into()),
        &go.addr,
        "valid",
    )
    .expect("handshake");
    assert_eq!(reply, "go:0x11ec:valid");
}

/// A rustls server sends an invalid share: the Go client refuses it and
/// alerts; the rustls server reports the alert as a typed error.
#[test]
fn tampered_server_share_is_refused_by_go() {
    for (group, code, name) in go_groups() {
        let bad = Tampered::new(group, refused_tamper(code, false));
        let (served, report) =
            go_client_to_rustls(server_config(provider_with(&[bad])), name, "tampered");
        assert_eq!(
            served.err(),
            Some(Error::AlertReceived(AlertDescription::IllegalParameter)),
            "{name}: Go said {report}"
        );
        assert!(report.starts_with("client-error: "), "{name}: {report}");
    }
}

/// The reverse of the two tests above for the refusing side: a share Go
/// could never send (its classical part replaced in flight by a proxy) is
/// refused by the rustls server with `PeerMisbehaved::InvalidKeyShare`.
#[test]
fn tampered_go_client_share_is_refused_by_rustls() {
    for (_, code, name) in go_groups() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let proxy = TcpListener::bind("127.0.0.1:0").expect("bind proxy");
        let server_addr = listener.local_addr().expect("addr");
        let proxy_addr = proxy.local_addr().expect("addr").to_string();
        let tamper = refused_tamper(code, true);
        let relay = std::thread::spawn(move || {
            let (mut from_go, _) = proxy.accept().expect("accept");
            from_go.set_read_timeout(Some(TIMEOUT)).expect("timeout");
            let mut to_server = TcpStream::connect(server_addr).expect("connect");
            let mut hello = read_record(&mut from_go);
            assert!(
                tamper_key_share(&mut hello, code, tamper),
                "no {code:#06x} share"
            );
            to_server.write_all(&hello).expect("forward");
            // Relay the rest both ways until either side closes.
            let mut back = to_server.try_clone().expect("clone");
            let mut go_back = from_go.try_clone().expect("clone");
            let up = std::thread::spawn(move || std::io::copy(&mut back, &mut go_back));
            let _ = std::io::copy(&mut from_go, &mut to_server);
            let _ = to_server.shutdown(std::net::Shutdown::Both);
            let _ = up.join();
        });
        let child = Command::new(go_binary())
            .args([
                "client",
                "-addr",
                &proxy_addr,
                "-groups",
                name,
                "-ca",
                CA_PEM,
            ])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the Go client");
        let (mut sock, _) = listener.accept().expect("accept");
        sock.set_read_timeout(Some(TIMEOUT)).expect("timeout");
        let mut conn =
            ServerConnection::new(server_config(pqdr_rustls::provider().into())).expect("server");
        let mut err = None;
        while conn.is_handshaking() {
            if let Err(e) = conn.complete_io(&mut sock) {
                err = tls_error(&e);
                break;
            }
        }
        drop(sock);
        assert_eq!(
            err,
            Some(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)),
            "{name}"
        );
        let output = child.wait_with_output().expect("Go client");
        let report = String::from_utf8_lossy(&output.stdout);
        assert!(report.starts_with("client-error: "), "{name}: {report}");
        relay.join().expect("relay");
    }
}

/// One TLS record (RFC 8446 §5.1: 5-byte header, then its length).
fn read_record(sock: &mut TcpStream) -> Vec<u8> {
    let mut record = vec![0u8; 5];
    sock.read_exact(&mut record).expect("record header");
    let len = usize::from(u16::from_be_bytes([record[3], record[4]]));
    record.resize(5 + len, 0);
    sock.read_exact(&mut record[5..]).expect("record body");
    record
}

/// Applies `tamper` to the `key_exchange` of group `code` in a ClientHello
/// record (RFC 8446 §4.1.2, §4.2.8), in place; `false` if there is none.
fn tamper_key_share(record: &mut [u8], code: u16, tamper: fn(&mut Vec<u8>)) -> bool {
    let u16_at = |b: &[u8], i: usize| usize::from(u16::from_be_bytes([b[i], b[i + 1]]));
    // record header (5), handshake header (4), version (2), random (32).
    let mut i = 5 + 4 + 2 + 32;
    i += 1 + usize::from(record[i]); // legacy_session_id
    i += 2 + u16_at(record, i); // cipher_suites
    i += 1 + usize::from(record[i]); // legacy_compression_methods
    let end = i + 2 + u16_at(record, i);
    i += 2;
    while i + 4 <= end {
        let (ext, len) = (u16_at(record, i), u16_at(record, i + 2));
        if ext == 0x0033 {
            // KeyShareClientHello: client_shares<0..2^16-1> of (group, key_exchange).
            let mut j = i + 6;
            while j + 4 <= i + 4 + len {
                let (group, klen) = (u16_at(record, j), u16_at(record, j + 2));
                if group == usize::from(code) {
                    let share = &mut record[j + 4..j + 4 + klen];
                    let mut v = share.to_vec();
                    tamper(&mut v);
                    assert_eq!(v.len(), klen, "a same-length modification");
                    share.copy_from_slice(&v);
                    return true;
                }
                j += 4 + klen;
            }
        }
        i += 4 + len;
    }
    false
}
