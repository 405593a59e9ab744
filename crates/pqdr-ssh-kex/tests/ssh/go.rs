//! Live against Go's `golang.org/x/crypto/ssh` (`interop/go/ssh`, built
//! once per run): Go server ← our client and Go client → our server, for
//! `mlkem768x25519-sha256` (x/crypto/ssh has no sntrup761; OpenSSH covers
//! that method in `openssh.rs`). Go prints its exchange hash H (its
//! session ID), which must equal ours: an independent known answer for the
//! exchange hash and so for every input of the key derivation; the
//! encrypted SERVICE_REQUEST / ACCEPT and USERAUTH messages each side
//! decrypts prove the derived keys.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use pqdr_ssh_kex::hostkey::HostKey;
use pqdr_ssh_kex::{Category, Error, Kex};

use crate::conn::{Conn, ConnError, hex, rng};
use crate::openssh::{base64, unbase64};

/// `go build` of `interop/go/ssh`, once per test process; `None` (reason
/// printed) without Go.
fn go_binary() -> Option<&'static Path> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| {
        let Some(go) = ["go", "/usr/local/go/bin/go"]
            .into_iter()
            .find(|go| Command::new(go).arg("version").output().is_ok())
        else {
            println!("SKIP: Go (`go` on PATH or /usr/local/go/bin/go) not found");
            return None;
        };
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pqdr-go-ssh");
        let mut build = Command::new(go);
        build
            .args(["build", "-o"])
            .arg(&out)
            .arg(".")
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../interop/go/ssh"))
            .env("GOTOOLCHAIN", "local");
        if std::env::var_os("GOCACHE").is_none() && std::env::var_os("HOME").is_none() {
            build.env(
                "GOCACHE",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-cache"),
            );
            build.env(
                "GOPATH",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-path"),
            );
        }
        let status = build.status().expect("go build");
        assert!(status.success(), "go build interop/go/ssh failed");
        Some(out)
    })
    .as_deref()
}

/// A Go process and its stdout lines; killed on drop.
struct Go {
    child: Child,
    out: BufReader<ChildStdout>,
}

impl Go {
    fn start(bin: &Path, args: &[&str]) -> Self {
        let mut child = Command::new(bin)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the Go program");
        let out = BufReader::new(child.stdout.take().unwrap());
        Self { child, out }
    }

    /// The next line's value after `key ` (panics on anything else).
    fn expect(&mut self, key: &str) -> String {
        let mut line = String::new();
        self.out.read_line(&mut line).unwrap();
        let value = line
            .trim_end()
            .strip_prefix(key)
            .unwrap_or_else(|| panic!("Go said {line:?}, expected {key:?}"));
        value.strip_prefix(' ').unwrap_or(value).to_owned()
    }
}

impl Drop for Go {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const GO_KEXES: [Kex; 1] = [Kex::MlKem768X25519Sha256];

#[test]
fn both_directions() {
    let Some(bin) = go_binary() else { return };
    let mut passed = 0;
    for kex in GO_KEXES {
        // Our client → Go server.
        let mut go = Go::start(bin, &["server", "-kex", kex.name()]);
        let addr = go.expect("listening");
        let blob = unbase64(&go.expect("hostkey"));
        let done = Conn::client(TcpStream::connect(&addr).unwrap(), &[kex], true).unwrap();
        let session = go.expect("session");
        assert_eq!(go.expect("done"), "");
        assert_eq!(done.kex, kex);
        assert!(done.strict, "x/crypto/ssh offers strict kex");
        assert!(done.peer_version.starts_with(b"SSH-2.0-Go"));
        assert_eq!(
            session,
            hex(done.outcome.exchange_hash.as_bytes()),
            "Go's H = ours"
        );
        assert_eq!(done.outcome.host_key[..], blob[blob.len() - 32..]);
        assert_eq!(
            done.service, b"ssh-userauth",
            "Go's SERVICE_ACCEPT, decrypted"
        );
        assert!(done.auth_success, "Go's USERAUTH_SUCCESS, decrypted");
        passed += 1;

        // Go client → our server.
        let host = HostKey::generate(&mut rng());
        let blob = base64(&host.public_blob(), true);
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let server = std::thread::spawn(move || {
            let (s, _) = listener.accept().unwrap();
            Conn::server(s, &[kex], &host)
        });
        let mut go = Go::start(
            bin,
            &[
                "client",
                "-kex",
                kex.name(),
                "-addr",
                &addr,
                "-hostkey",
                &blob,
            ],
        );
        assert_eq!(
            go.expect("hostkey verified"),
            "",
            "Go verified our signature over H"
        );
        let session = go.expect("session");
        assert_eq!(go.expect("done"), "");
        let done = server.join().unwrap().unwrap();
        assert_eq!(done.kex, kex);
        assert!(done.strict, "x/crypto/ssh offers strict kex");
        assert!(done.peer_version.starts_with(b"SSH-2.0-Go"));
        assert_eq!(
            session,
            hex(done.outcome.exchange_hash.as_bytes()),
            "Go's H = ours"
        );
        assert_eq!(
            done.service, b"ssh-userauth",
            "Go's SERVICE_REQUEST, decrypted"
        );
        let (user, method) = done.userauth.unwrap();
        assert_eq!((&user[..], &method[..]), (&b"pqdr"[..], &b"none"[..]));
        passed += 1;
    }
    println!(
        "interop Go x/crypto/ssh: {passed} exchanges passed (2 directions x {} algorithm: \
         mlkem768x25519-sha256; x/crypto/ssh has no sntrup761)",
        GO_KEXES.len()
    );
}

/// A Go server with only mlkem768x25519-sha256 and our client offering only
/// sntrup761: the typed error, from a real peer's KEXINIT.
#[test]
fn no_common_method_with_go() {
    let Some(bin) = go_binary() else { return };
    let mut go = Go::start(bin, &["server", "-kex", Kex::MlKem768X25519Sha256.name()]);
    let addr = go.expect("listening");
    let _ = go.expect("hostkey");
    match Conn::client(
        TcpStream::connect(&addr).unwrap(),
        &[
            Kex::Sntrup761X25519Sha512,
            Kex::Sntrup761X25519Sha512OpenSsh,
        ],
        false,
    ) {
        Err(ConnError::Ssh(Error::NoCommonAlgorithm(Category::Kex))) => {}
        other => panic!("expected no common method, got {other:?}"),
    }
}

/// Our server with one bit of its signature over H flipped: Go refuses it
/// before its host key callback.
#[test]
fn go_client_refuses_a_bad_signature() {
    let Some(bin) = go_binary() else { return };
    let host = HostKey::generate(&mut rng());
    let blob = base64(&host.public_blob(), true);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let server = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        Conn::server_with(s, &[Kex::MlKem768X25519Sha256], &host, true)
    });
    let kex = Kex::MlKem768X25519Sha256.name();
    let mut go = Go::start(
        bin,
        &["client", "-kex", kex, "-addr", &addr, "-hostkey", &blob],
    );
    let said = go.expect("error");
    assert!(said.contains("signature"), "Go said {said:?}");
    assert!(server.join().unwrap().is_err(), "Go must hang up");
}
