//! Shared by the tests: rustls configurations with chosen groups, the test
//! certificates, an in-memory handshake, and a group wrapper that tampers
//! with the key share it sends.

use std::io::{Read, Write};
use std::sync::Arc;

use rustls::crypto::{
    ActiveKeyExchange, CompletedKeyExchange, CryptoProvider, SharedSecret, SupportedKxGroup,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, Error, NamedGroup, ProtocolVersion, RootCertStore,
    ServerConfig, ServerConnection,
};

pub const CA_PEM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ca.pem");
pub const CERT_PEM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/server.pem");
pub const KEY_PEM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/server.key");

/// The six groups of the crate with their code points and Go's name (for
/// the three Go has).
pub const GROUPS: [(&dyn SupportedKxGroup, u16, Option<&str>); 6] = [
    (pqdr_rustls::X25519MLKEM768, 0x11EC, Some("X25519MLKEM768")),
    (
        pqdr_rustls::SECP256R1MLKEM768,
        0x11EB,
        Some("SecP256r1MLKEM768"),
    ),
    (
        pqdr_rustls::SECP384R1MLKEM1024,
        0x11ED,
        Some("SecP384r1MLKEM1024"),
    ),
    (pqdr_rustls::MLKEM512, 0x0200, None),
    (pqdr_rustls::MLKEM768, 0x0201, None),
    (pqdr_rustls::MLKEM1024, 0x0202, None),
];

/// rustls' ring provider with exactly `groups`.
pub fn provider_with(groups: &[&'static dyn SupportedKxGroup]) -> Arc<CryptoProvider> {
    let mut p = rustls::crypto::ring::default_provider();
    p.kx_groups = groups.to_vec();
    Arc::new(p)
}

pub fn server_config(provider: Arc<CryptoProvider>) -> Arc<ServerConfig> {
    let certs = CertificateDer::pem_file_iter(CERT_PEM)
        .expect("cert file")
        .collect::<Result<Vec<_>, _>>()
        .expect("cert");
    let key = PrivateKeyDer::from_pem_file(KEY_PEM).expect("key");
    let config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("certificate");
    Arc::new(config)
}

pub fn client_config(provider: Arc<CryptoProvider>) -> Arc<ClientConfig> {
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(CA_PEM).expect("ca file") {
        roots.add(cert.expect("ca")).expect("ca");
    }
    let config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("TLS 1.3")
        .with_root_certificates(roots)
        .with_no_client_auth();
    Arc::new(config)
}

pub fn server_name() -> ServerName<'static> {
    ServerName::try_from("localhost").expect("name")
}

/// Which side of an in-memory handshake failed.
#[derive(Debug, PartialEq)]
pub enum Side {
    Client,
    Server,
}

/// A whole handshake in memory, then one message each way, checked.
/// `Err` names the side whose `process_new_packets` failed first.
pub fn handshake(
    client: Arc<ClientConfig>,
    server: Arc<ServerConfig>,
) -> Result<(ClientConnection, ServerConnection), (Side, Error)> {
    let mut c = ClientConnection::new(client, server_name()).expect("client");
    let mut s = ServerConnection::new(server).expect("server");
    for _ in 0..20 {
        let mut to_server = Vec::new();
        while c.wants_write() {
            c.write_tls(&mut to_server).expect("write_tls");
        }
        let mut rd = &to_server[..];
        while !rd.is_empty() {
            s.read_tls(&mut rd).expect("read_tls");
        }
        s.process_new_packets().map_err(|e| (Side::Server, e))?;
        let mut to_client = Vec::new();
        while s.wants_write() {
            s.write_tls(&mut to_client).expect("write_tls");
        }
        let mut rd = &to_client[..];
        while !rd.is_empty() {
            c.read_tls(&mut rd).expect("read_tls");
        }
        c.process_new_packets().map_err(|e| (Side::Client, e))?;
        if !c.is_handshaking() && !s.is_handshaking() && !c.wants_write() && !s.wants_write() {
            exchange_data(&mut c, &mut s);
            return Ok((c, s));
        }
    }
    panic!("handshake did not finish");
}

/// One message from the client to the server and one back, checked.
fn exchange_data(c: &mut ClientConnection, s: &mut ServerConnection) {
    c.writer()
        .write_all(b"ping from rustls client")
        .expect("write");
    let mut buf = Vec::new();
    while c.wants_write() {
        c.write_tls(&mut buf).expect("write_tls");
    }
    s.read_tls(&mut &buf[..]).expect("read_tls");
    s.process_new_packets().expect("server records");
    let mut got = [0u8; 23];
    s.reader().read_exact(&mut got).expect("server read");
    assert_eq!(&got, b"ping from rustls client");

    s.writer()
        .write_all(b"pong from rustls server")
        .expect("write");
    let mut buf = Vec::new();
    while s.wants_write() {
        s.write_tls(&mut buf).expect("write_tls");
    }
    c.read_tls(&mut &buf[..]).expect("read_tls");
    c.process_new_packets().expect("client records");
    let mut got = [0u8; 23];
    c.reader().read_exact(&mut got).expect("client read");
    assert_eq!(&got, b"pong from rustls server");
}

/// A group that sends a modified key share: `tamper` is applied to the
/// client's share (`start`) or the server's (`start_and_complete`); the
/// secret is the real group's.
#[derive(Debug)]
pub struct Tampered {
    pub inner: &'static dyn SupportedKxGroup,
    pub tamper: fn(&mut Vec<u8>),
}

impl Tampered {
    pub fn new(inner: &'static dyn SupportedKxGroup, tamper: fn(&mut Vec<u8>)) -> &'static Self {
        Box::leak(Box::new(Self { inner, tamper }))
    }
}

struct TamperedActive {
    inner: Box<dyn ActiveKeyExchange>,
    share: Vec<u8>,
}

impl ActiveKeyExchange for TamperedActive {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        self.inner.complete(peer_pub_key)
    }
    fn pub_key(&self) -> &[u8] {
        &self.share
    }
    fn group(&self) -> NamedGroup {
        self.inner.group()
    }
}

impl SupportedKxGroup for Tampered {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let inner = self.inner.start()?;
        let mut share = inner.pub_key().to_vec();
        (self.tamper)(&mut share);
        Ok(Box::new(TamperedActive { inner, share }))
    }
    fn start_and_complete(&self, peer_pub_key: &[u8]) -> Result<CompletedKeyExchange, Error> {
        let mut done = self.inner.start_and_complete(peer_pub_key)?;
        (self.tamper)(&mut done.pub_key);
        Ok(done)
    }
    fn name(&self) -> NamedGroup {
        self.inner.name()
    }
    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        self.inner.usable_for_version(version)
    }
}

/// A modification of `group`'s share that its peer must refuse: for the
/// hybrids an invalid classical key (X25519: the all-zero, low-order u = 0;
/// P-256 / P-384: the last byte of y flipped, off the curve); for pure
/// ML-KEM on the client's side an `ek` whose first coefficient is 4095
/// (FIPS 203 §7.2), on the server's a ciphertext one byte short.
pub fn refused_tamper(code: u16, client_side: bool) -> fn(&mut Vec<u8>) {
    match (code, client_side) {
        (0x11EC, _) => |s| {
            let n = s.len();
            s[n - 32..].fill(0);
        },
        (0x11EB, _) => |s| s[64] ^= 1,
        (0x11ED, _) => |s| s[96] ^= 1,
        (_, true) => |s| {
            s[0] = 0xff;
            s[1] |= 0x0f;
        },
        (_, false) => |s| {
            s.pop();
        },
    }
}

/// rustls' classical X25519 (ring).
pub fn ring_x25519() -> &'static dyn SupportedKxGroup {
    rustls::crypto::ring::kx_group::X25519
}
