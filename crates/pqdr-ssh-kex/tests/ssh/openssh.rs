//! Live against OpenSSH 9.2 (Debian's `openssh-server` / `openssh-client`):
//! our client → `sshd` started here (fresh host key, `KexAlgorithms
//! sntrup761x25519-sha512@openssh.com`), and the real `ssh -vv` client →
//! our server. OpenSSH 9.2 has no `mlkem768x25519-sha256` (9.9 added it):
//! that method is checked against Go (`go.rs`).

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pqdr_ssh_kex::hostkey::HostKey;
use pqdr_ssh_kex::{Category, Error, Kex};
use sha2::{Digest, Sha256};

use crate::conn::{Conn, ConnError, rng};

const SSHD: &str = "/usr/sbin/sshd";

/// `None` (with the reason printed) if OpenSSH is not installed.
fn have(program: &str) -> bool {
    let ok = Command::new(program)
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !ok {
        println!("SKIP: {program} not found (apt-get install openssh-server openssh-client)");
    }
    ok
}

pub fn base64(data: &[u8], pad: bool) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        if pad {
            for _ in chunk.len()..3 {
                out.push('=');
            }
        }
    }
    out
}

pub fn unbase64(s: &str) -> Vec<u8> {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let (mut acc, mut bits, mut out) = (0u32, 0, Vec::new());
    for c in s.bytes().filter(|&c| c != b'=') {
        let v = A.iter().position(|&a| a == c).expect("base64") as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A running `sshd -D -e`; killed on drop.
struct Sshd {
    child: Child,
    port: u16,
    /// The host key blob from `host_ed25519.pub`.
    host_blob: Vec<u8>,
}

impl Sshd {
    fn start(kex: &str) -> Self {
        let dir = temp_dir("sshd");
        let key = dir.join("host_ed25519");
        let st = Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-f"])
            .arg(&key)
            .status()
            .expect("ssh-keygen");
        assert!(st.success(), "ssh-keygen failed");
        let public = std::fs::read_to_string(dir.join("host_ed25519.pub")).unwrap();
        let host_blob = unbase64(public.split_whitespace().nth(1).unwrap());
        // sshd's privilege separation directory (Debian: /run/sshd).
        std::fs::create_dir_all("/run/sshd").unwrap();
        let port = free_port();
        let config = dir.join("sshd_config");
        std::fs::write(
            &config,
            format!(
                "ListenAddress 127.0.0.1\nPort {port}\nHostKey {}\nKexAlgorithms {kex}\n\
                 Ciphers chacha20-poly1305@openssh.com\nHostKeyAlgorithms ssh-ed25519\n\
                 PidFile none\nUsePAM no\nStrictModes no\nLogLevel DEBUG1\n",
                key.display()
            ),
        )
        .unwrap();
        let child = Command::new(SSHD)
            .args(["-D", "-e", "-f"])
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("sshd.log")).unwrap())
            .spawn()
            .expect("start sshd");
        let deadline = Instant::now() + Duration::from_secs(15);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "sshd did not start; see {}",
                dir.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self {
            child,
            port,
            host_blob,
        }
    }

    fn connect(&self) -> TcpStream {
        TcpStream::connect(("127.0.0.1", self.port)).unwrap()
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Our client → sshd, for each name sshd 9.2 gives the method; plus the
/// RFC 9941 name alone, which sshd 9.2 does not know: a typed error.
#[test]
fn our_client_to_sshd() {
    if !have(SSHD) {
        return;
    }
    let sshd = Sshd::start("sntrup761x25519-sha512@openssh.com");
    let mut passed = 0;
    // Both names offered, the RFC name first: the negotiation must pick
    // the one sshd has.
    for offer in [
        &[Kex::Sntrup761X25519Sha512OpenSsh][..],
        &[
            Kex::Sntrup761X25519Sha512,
            Kex::Sntrup761X25519Sha512OpenSsh,
        ][..],
    ] {
        let done = Conn::client(sshd.connect(), offer, false).unwrap();
        assert!(
            done.peer_version.starts_with(b"SSH-2.0-OpenSSH_9"),
            "{:?}",
            done.peer_version
        );
        assert_eq!(done.kex, Kex::Sntrup761X25519Sha512OpenSsh);
        assert!(done.strict, "sshd 9.2 (Debian) offers strict kex");
        assert_eq!(
            done.service, b"ssh-userauth",
            "sshd's SERVICE_ACCEPT, decrypted"
        );
        assert_eq!(
            done.outcome.host_key[..],
            sshd.host_blob[sshd.host_blob.len() - 32..],
            "the verified host key is the one sshd was started with"
        );
        passed += 1;
    }
    match Conn::client(sshd.connect(), &[Kex::Sntrup761X25519Sha512], false) {
        Err(ConnError::Ssh(Error::NoCommonAlgorithm(Category::Kex))) => {}
        other => panic!("expected no common method, got {other:?}"),
    }
    match Conn::client(sshd.connect(), &[Kex::MlKem768X25519Sha256], false) {
        Err(ConnError::Ssh(Error::NoCommonAlgorithm(Category::Kex))) => {}
        other => panic!("expected no common method, got {other:?}"),
    }
    println!(
        "interop OpenSSH sshd 9.2: our client -> sshd, sntrup761x25519-sha512@openssh.com: \
         {passed} exchanges passed (1 direction x 1 algorithm); 2 refusals typed"
    );
}

/// `ssh -vv … 127.0.0.1 true` against our server on `port`: its log.
fn run_ssh(port: u16) -> String {
    let out = Command::new("ssh")
        .args([
            "-vv",
            "-F",
            "/dev/null",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "KexAlgorithms=sntrup761x25519-sha512@openssh.com",
            "-o",
            "Ciphers=chacha20-poly1305@openssh.com",
            "-o",
            "HostKeyAlgorithms=ssh-ed25519",
            "-o",
            "ConnectTimeout=20",
            "-p",
            &port.to_string(),
            "-l",
            "pqdr",
            "127.0.0.1",
            "true",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("run ssh");
    let log = String::from_utf8_lossy(&out.stderr);
    log.into_owned()
}

/// `ssh -vv` → our server: the log shows the host key (our fingerprint),
/// both NEWKEYS and the accepted service; our server decrypted its
/// SERVICE_REQUEST and USERAUTH_REQUEST.
#[test]
fn ssh_client_to_our_server() {
    if !have("ssh") {
        return;
    }
    let mut rng = rng();
    let host = HostKey::generate(&mut rng);
    let blob = host.public_blob();
    let fingerprint = format!("SHA256:{}", base64(&Sha256::digest(blob), false));
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        Conn::server(
            stream,
            &[
                Kex::Sntrup761X25519Sha512OpenSsh,
                Kex::Sntrup761X25519Sha512,
            ],
            &host,
        )
    });
    let log = run_ssh(port);
    let done = server
        .join()
        .unwrap()
        .unwrap_or_else(|e| panic!("our server: {e:?}\n{log}"));
    // OpenSSH 9.2 logs no line of its own for a good signature: kexgen.c
    // (input_kex_gen_reply) verifies the signature over H and only then
    // derives the keys and sends NEWKEYS, so "SSH2_MSG_NEWKEYS sent" is
    // logged only after the signature verified (the test below shows the
    // line missing when it does not).
    for line in [
        "kex: algorithm: sntrup761x25519-sha512@openssh.com",
        &format!("Server host key: ssh-ed25519 {fingerprint}"),
        "SSH2_MSG_NEWKEYS sent",
        "SSH2_MSG_NEWKEYS received",
        "SSH2_MSG_SERVICE_ACCEPT received",
    ] {
        assert!(log.contains(line), "ssh -vv did not log {line:?}:\n{log}");
    }
    assert_eq!(done.kex, Kex::Sntrup761X25519Sha512OpenSsh);
    assert!(done.strict, "ssh 9.2 (Debian) offers strict kex");
    assert!(done.peer_version.starts_with(b"SSH-2.0-OpenSSH_9"));
    assert_eq!(
        done.service, b"ssh-userauth",
        "ssh's SERVICE_REQUEST, decrypted"
    );
    let (user, method) = done.userauth.unwrap();
    assert_eq!((&user[..], &method[..]), (&b"pqdr"[..], &b"none"[..]));
    println!(
        "interop OpenSSH ssh 9.2: ssh -> our server, sntrup761x25519-sha512@openssh.com: \
         1 exchange passed (1 direction x 1 algorithm)"
    );
}

/// Our server with one bit of its signature over H flipped: `ssh` refuses
/// it ("incorrect signature") and never sends NEWKEYS.
#[test]
fn ssh_client_refuses_a_bad_signature() {
    if !have("ssh") {
        return;
    }
    let host = HostKey::generate(&mut rng());
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        Conn::server_with(stream, &[Kex::Sntrup761X25519Sha512OpenSsh], &host, true)
    });
    let log = run_ssh(port);
    assert!(server.join().unwrap().is_err(), "ssh must hang up");
    assert!(log.contains("incorrect signature"), "{log}");
    assert!(!log.contains("SSH2_MSG_NEWKEYS sent"), "{log}");
}
