//! Endpoints, a transfer with BLAKE3 integrity, and a UDP shim that drops,
//! reorders, captures and injects datagrams between client and server.

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pqdr_quic::{Config, Connection};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

pub fn tls() -> (rustls::ServerConfig, rustls::ClientConfig) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut provider = pqdr_rustls::provider();
    provider
        .cipher_suites
        .sort_by_key(|s| s.suite() != rustls::CipherSuite::TLS13_CHACHA20_POLY1305_SHA256);
    let provider = Arc::new(provider);
    let chain = CertificateDer::pem_file_iter(format!("{dir}/server.pem"))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(format!("{dir}/server.key")).unwrap();
    let server = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_file(format!("{dir}/ca.pem")).unwrap())
        .unwrap();
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    (server, client)
}

/// The payload byte at offset `i` (cheap, position-dependent).
pub fn byte_at(i: u64) -> u8 {
    (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8 ^ (i >> 16) as u8
}

pub fn payload_hash(bytes: u64) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    let mut buf = vec![0u8; 65536];
    let mut off = 0u64;
    while off < bytes {
        let n = (bytes - off).min(65536) as usize;
        for (j, b) in buf[..n].iter_mut().enumerate() {
            *b = byte_at(off + j as u64);
        }
        h.update(&buf[..n]);
        off += n as u64;
    }
    h.finalize()
}

pub struct Outcome {
    pub ok: bool,
    pub client: Connection,
    pub server: Connection,
}

/// Server sends `bytes` on a unidirectional stream; `during(client, server,
/// received)` is called after every read of the client. The connections are
/// returned open.
pub async fn transfer(
    cfg: Config,
    bytes: u64,
    via: Option<&Shim>,
    mut during: impl FnMut(&Connection, &Connection, u64),
) -> Outcome {
    let (stls, ctls) = tls();
    let sc = pqdr_quic::server_config(stls, cfg).unwrap();
    let cc = pqdr_quic::client_config(ctls, cfg).unwrap();
    let any: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let server = pqdr_quic::Endpoint::server(sc, any).unwrap();
    let server_addr = server.quinn().local_addr().unwrap();
    let client = pqdr_quic::Endpoint::client(cc, any).unwrap();
    let target = match via {
        Some(shim) => {
            shim.set_server(server_addr);
            shim.addr
        }
        None => server_addr,
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let conn = server.accept().await.unwrap().unwrap();
        let _ = tx.send(conn);
    });
    let conn = client.connect(target, "localhost").await.unwrap();
    let sconn = rx.await.unwrap();
    let q = sconn.quinn().clone();
    let writer = tokio::spawn(async move {
        let mut s = q.open_uni().await.unwrap();
        let mut buf = vec![0u8; 65536];
        let mut off = 0u64;
        while off < bytes {
            let n = (bytes - off).min(65536) as usize;
            for (j, b) in buf[..n].iter_mut().enumerate() {
                *b = byte_at(off + j as u64);
            }
            s.write_all(&buf[..n]).await.unwrap();
            off += n as u64;
        }
        s.finish().unwrap();
        let _ = s.stopped().await;
    });
    let mut s = conn.accept_uni().await.unwrap();
    let mut h = blake3::Hasher::new();
    let mut got = 0u64;
    let mut buf = vec![0u8; 65536];
    while let Some(n) = s.read(&mut buf).await.unwrap() {
        h.update(&buf[..n]);
        got += n as u64;
        during(&conn, &sconn, got);
    }
    writer.await.unwrap();
    let ok = got == bytes && h.finalize() == payload_hash(bytes);
    assert!(
        conn.close_reason().is_none(),
        "client closed: {:?}",
        conn.close_reason()
    );
    assert!(
        sconn.close_reason().is_none(),
        "server closed: {:?}",
        sconn.close_reason()
    );
    Outcome {
        ok,
        client: conn,
        server: sconn,
    }
}

/// What the shim does to the server → client direction (and loss and
/// reordering both ways).
#[derive(Clone, Copy, Default)]
pub struct Impair {
    /// Drop probability.
    pub loss: f64,
    /// Probability that a datagram is held back and released after up to `reorder` later ones.
    pub hold: f64,
    pub reorder: u64,
    /// Server → client: also send a replay of an earlier 1-RTT datagram every this many.
    pub replay_every: u64,
    /// Server → client: also send a forged copy (one bit flipped) every this many.
    pub forge_every: u64,
    /// Keep every server → client datagram.
    pub capture: bool,
}

pub struct Shim {
    pub addr: SocketAddr,
    server: Arc<Mutex<Option<SocketAddr>>>,
    stop: Arc<AtomicBool>,
    pub injected: Arc<AtomicU64>,
    /// Server → client short-header datagrams forwarded as they came (not injected).
    pub originals: Arc<AtomicU64>,
    pub captured: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl Drop for Shim {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() as f64) < p * (1u64 << 53) as f64
    }
}

impl Shim {
    pub fn start(imp: Impair, seed: u64) -> Shim {
        let front = UdpSocket::bind("127.0.0.1:0").unwrap();
        let back = UdpSocket::bind("127.0.0.1:0").unwrap();
        front
            .set_read_timeout(Some(Duration::from_millis(2)))
            .unwrap();
        back.set_read_timeout(Some(Duration::from_millis(2)))
            .unwrap();
        let shim = Shim {
            addr: front.local_addr().unwrap(),
            server: Arc::new(Mutex::new(None)),
            stop: Arc::new(AtomicBool::new(false)),
            injected: Arc::new(AtomicU64::new(0)),
            originals: Arc::new(AtomicU64::new(0)),
            captured: Arc::new(Mutex::new(Vec::new())),
        };
        let client: Arc<Mutex<Option<SocketAddr>>> = Arc::new(Mutex::new(None));
        for dir in 0..2u64 {
            let (rx, tx) = if dir == 0 {
                (front.try_clone().unwrap(), back.try_clone().unwrap())
            } else {
                (back.try_clone().unwrap(), front.try_clone().unwrap())
            };
            let (server, client, stop) = (shim.server.clone(), client.clone(), shim.stop.clone());
            let (injected, captured) = (shim.injected.clone(), shim.captured.clone());
            let originals = shim.originals.clone();
            std::thread::spawn(move || {
                let mut rng = Lcg(seed ^ ((dir + 1) * 0x1234_5678));
                let mut held: Vec<(u64, Vec<u8>)> = Vec::new();
                let mut seq = 0u64;
                let mut recent: Vec<Vec<u8>> = Vec::new();
                let mut buf = vec![0u8; 65536];
                while !stop.load(Ordering::Relaxed) {
                    let dest = if dir == 0 {
                        *server.lock().unwrap()
                    } else {
                        *client.lock().unwrap()
                    };
                    let got = rx.recv_from(&mut buf);
                    let send = |p: &[u8]| {
                        if let Some(d) = dest {
                            let _ = tx.send_to(p, d);
                        }
                    };
                    let Ok((n, from)) = got else {
                        for (_, p) in held.drain(..) {
                            send(&p);
                        }
                        continue;
                    };
                    if dir == 0 {
                        *client.lock().unwrap() = Some(from);
                    }
                    let Some(dest) = dest.or(if dir == 0 {
                        *server.lock().unwrap()
                    } else {
                        None
                    }) else {
                        continue;
                    };
                    let send = |p: &[u8]| {
                        let _ = tx.send_to(p, dest);
                    };
                    let pkt = buf[..n].to_vec();
                    seq += 1;
                    let short = pkt[0] & 0x80 == 0;
                    if dir == 1 {
                        if imp.capture {
                            captured.lock().unwrap().push(pkt.clone());
                        }
                        if short && imp.forge_every > 0 && seq.is_multiple_of(imp.forge_every) {
                            let mut f = pkt.clone();
                            let i = f.len() - 1 - (seq as usize % 16);
                            f[i] ^= 0x01;
                            send(&f);
                            injected.fetch_add(1, Ordering::Relaxed);
                        }
                        if short
                            && imp.replay_every > 0
                            && seq.is_multiple_of(imp.replay_every)
                            && let Some(old) = recent.first()
                        {
                            send(old);
                            injected.fetch_add(1, Ordering::Relaxed);
                        }
                        if short && recent.len() < 64 {
                            recent.push(pkt.clone());
                        }
                    }
                    if rng.chance(imp.loss) {
                        // dropped
                    } else if dir == 1 && short {
                        originals.fetch_add(1, Ordering::Relaxed);
                        if imp.reorder > 1 && rng.chance(imp.hold) {
                            held.push((seq + 1 + rng.next() % (imp.reorder - 1), pkt));
                        } else {
                            send(&pkt);
                        }
                    } else if imp.reorder > 1 && rng.chance(imp.hold) {
                        held.push((seq + 1 + rng.next() % (imp.reorder - 1), pkt));
                    } else {
                        send(&pkt);
                    }
                    let mut i = 0;
                    while i < held.len() {
                        if held[i].0 <= seq {
                            let (_, p) = held.swap_remove(i);
                            send(&p);
                        } else {
                            i += 1;
                        }
                    }
                }
            });
        }
        shim
    }

    pub fn set_server(&self, addr: SocketAddr) {
        *self.server.lock().unwrap() = Some(addr);
    }
}
