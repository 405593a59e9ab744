//! A server sends N bytes to a client over loopback QUIC (quinn 0.11): with
//! PQDR-QUIC (every 1-RTT packet under its own ratchet key, ML-KEM-768
//! ratchets during the transfer) or, with `--baseline`, plain quinn with the
//! same rustls configuration (ChaCha20-Poly1305 preferred for 1-RTT; `--aes`
//! keeps rustls' order, AES-128-GCM first). BLAKE3 of the received bytes
//! must match (`integrity: ok`).
//!
//! ```text
//! cargo run --release -p pqdr-quic --example quic_transfer -- [--bytes N] [--rekey-secs S]
//!     [--baseline] [--aes] [--compare ROUNDS]
//! ```
//!
//! `--compare R` runs R alternating rounds of baseline then PQDR in one
//! process and prints the median throughput ratio (docs/protocol/quic.md §6).
#![allow(
    clippy::std_instead_of_core,
    clippy::integer_division_remainder_used,
    clippy::cast_precision_loss,
    reason = "demo and benchmark code on public values"
)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

type Res<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

const CHUNK: usize = 64 * 1024;
const BASE_LEN: usize = 1 << 20;

struct Args {
    bytes: u64,
    rekey_secs: u64,
    baseline: bool,
    aes: bool,
    compare: Option<usize>,
}

fn args() -> Args {
    let mut a = Args {
        bytes: 1 << 30,
        rekey_secs: 10,
        baseline: false,
        aes: false,
        compare: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut num = |what: &str| -> u64 {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match arg.as_str() {
            "--bytes" => a.bytes = num("--bytes"),
            "--rekey-secs" => a.rekey_secs = num("--rekey-secs").max(1),
            "--compare" => a.compare = Some(usize::try_from(num("--compare")).unwrap_or(3).max(1)),
            "--baseline" => a.baseline = true,
            "--aes" => a.aes = true,
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

/// The payload: 64 KiB chunks of a fixed pseudo-random MiB, each stamped with its index.
fn chunk(base: &[u8], i: u64, out: &mut [u8]) {
    let off = usize::try_from(i).unwrap_or(0).wrapping_mul(CHUNK) % BASE_LEN;
    let n = out.len();
    out.copy_from_slice(&base[off..off + n]);
    let stamp = i.to_le_bytes();
    let m = n.min(8);
    out[..m].copy_from_slice(&stamp[..m]);
}

fn expected_hash(base: &[u8], bytes: u64) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    let mut buf = vec![0u8; CHUNK];
    let (mut i, mut left) = (0u64, bytes);
    while left > 0 {
        let n = usize::try_from(left.min(CHUNK as u64)).unwrap_or(CHUNK);
        chunk(base, i, &mut buf[..n]);
        h.update(&buf[..n]);
        left -= n as u64;
        i += 1;
    }
    h.finalize()
}

/// CPU seconds used by this process so far (user + system, /proc/self/stat).
fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of proc(5) (utime, stime) are 12 and 13 after the name; 100 ticks/s.
    (ticks(11) + ticks(12)) / 100.0
}

fn tls(aes: bool) -> Res<(rustls::ServerConfig, rustls::ClientConfig)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut provider = pqdr_rustls::provider();
    if !aes {
        // ChaCha20-Poly1305 first for 1-RTT; AES-128-GCM stays for the Initial packets.
        provider
            .cipher_suites
            .sort_by_key(|s| s.suite() != rustls::CipherSuite::TLS13_CHACHA20_POLY1305_SHA256);
    }
    let provider = Arc::new(provider);
    let chain = CertificateDer::pem_file_iter(format!("{dir}/server.pem"))?
        .collect::<Result<Vec<_>, _>>()?;
    let key = PrivateKeyDer::from_pem_file(format!("{dir}/server.key"))?;
    let mut server = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    server.ignore_client_order = true;
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from_pem_file(format!("{dir}/ca.pem"))?)?;
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok((server, client))
}

fn transport() -> Arc<quinn::TransportConfig> {
    let mut t = quinn::TransportConfig::default();
    t.stream_receive_window(quinn::VarInt::from_u32(16 << 20));
    t.receive_window(quinn::VarInt::from_u32(32 << 20));
    t.send_window(32 << 20);
    Arc::new(t)
}

struct Outcome {
    secs: f64,
    cpu: f64,
    ok: bool,
    ratchets: u64,
    epoch: u64,
    flips: u64,
    suite: String,
}

async fn run(a: &Args, pqdr: bool, base: Arc<Vec<u8>>, want: blake3::Hash) -> Res<Outcome> {
    let (server_tls, client_tls) = tls(a.aes)?;
    let cfg = pqdr_quic::Config::with_rekey_after_ms(a.rekey_secs * 1000);
    let (mut sc, mut cc) = if pqdr {
        (
            pqdr_quic::server_config(server_tls, cfg)?,
            pqdr_quic::client_config(client_tls, cfg)?,
        )
    } else {
        (
            quinn::ServerConfig::with_crypto(Arc::new(QuicServerConfig::try_from(server_tls)?)),
            quinn::ClientConfig::new(Arc::new(QuicClientConfig::try_from(client_tls)?)),
        )
    };
    sc.transport_config(transport());
    cc.transport_config(transport());
    let any: SocketAddr = "127.0.0.1:0".parse()?;
    let server = quinn::Endpoint::server(sc, any)?;
    let addr = server.local_addr()?;
    let mut client = quinn::Endpoint::client(any)?;
    client.set_default_client_config(cc);

    let bytes = a.bytes;
    let sender = tokio::spawn(async move {
        let conn = server.accept().await.ok_or("no connection")?.await?;
        // Starts the ratchet's control driver (PQDR only).
        let _pq = if pqdr {
            Some(pqdr_quic::Connection::new(conn.clone())?)
        } else {
            None
        };
        let mut s = conn.open_uni().await?;
        let mut buf = vec![0u8; CHUNK];
        let (mut i, mut left) = (0u64, bytes);
        while left > 0 {
            let n = usize::try_from(left.min(CHUNK as u64)).unwrap_or(CHUNK);
            chunk(&base, i, &mut buf[..n]);
            s.write_all(&buf[..n]).await?;
            left -= n as u64;
            i += 1;
        }
        s.finish()?;
        conn.closed().await;
        Res::Ok(())
    });

    let conn = client.connect(addr, "localhost")?.await?;
    let pq = if pqdr {
        Some(pqdr_quic::Connection::new(conn.clone())?)
    } else {
        None
    };
    if std::env::var_os("PQDR_QUIC_DEBUG").is_some()
        && let Some(c) = &pq
    {
        {
            let (c, q) = (c.clone_handle(), conn.clone());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    eprintln!(
                        "client {:?} {:?} {:?}",
                        c.stats(),
                        c.ratchet_status(),
                        q.stats().path
                    );
                }
            });
        }
    }
    let cpu0 = cpu_secs();
    let t0 = Instant::now();
    let mut s = conn.accept_uni().await?;
    let mut h = blake3::Hasher::new();
    let mut got = 0u64;
    let mut buf = vec![0u8; CHUNK];
    while let Some(n) = s.read(&mut buf).await? {
        h.update(&buf[..n]);
        got += n as u64;
    }
    let secs = t0.elapsed().as_secs_f64();
    let cpu = cpu_secs() - cpu0;
    let (ratchets, epoch, flips) = pq.as_ref().map_or((0, 0, 0), |c| {
        let st = c.ratchet_status();
        (
            st.map_or(0, |s| s.ratchets_completed),
            st.map_or(0, |s| s.epoch),
            c.stats().key_phase_flips_seen,
        )
    });
    conn.close(0u32.into(), b"done");
    sender.await??;
    client.wait_idle().await;
    Ok(Outcome {
        secs,
        cpu,
        ok: got == bytes && h.finalize() == want,
        ratchets,
        epoch,
        flips,
        suite: if a.aes {
            "default (AES-128-GCM first)".into()
        } else {
            "ChaCha20-Poly1305 first".into()
        },
    })
}

fn report(name: &str, a: &Args, o: &Outcome) -> f64 {
    let mbps = a.bytes as f64 / o.secs / 1e6;
    println!(
        "{name}: {} bytes in {:.2} s = {mbps:.1} MB/s, CPU {:.2} s = {:.2} ns/byte (both endpoints), suite {}",
        a.bytes,
        o.secs,
        o.cpu,
        o.cpu * 1e9 / a.bytes as f64,
        o.suite
    );
    if name == "pqdr" {
        println!(
            "  ratchets completed: {}, epoch {}, key phase flips seen by the client: {}",
            o.ratchets, o.epoch, o.flips
        );
    }
    println!("  integrity: {}", if o.ok { "ok" } else { "MISMATCH" });
    mbps
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Res<()> {
    let a = args();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut base = vec![0u8; BASE_LEN];
    blake3::Hasher::new_derive_key("pqdr-quic example payload")
        .finalize_xof()
        .fill(&mut base);
    let base = Arc::new(base);
    let want = expected_hash(&base, a.bytes);
    let mut all_ok = true;
    rt.block_on(async {
        match a.compare {
            None => {
                let o = run(&a, !a.baseline, base.clone(), want).await?;
                report(if a.baseline { "baseline" } else { "pqdr" }, &a, &o);
                all_ok &= o.ok;
            }
            Some(rounds) => {
                let mut ratios = Vec::new();
                let mut cpu_ratios = Vec::new();
                for r in 0..rounds {
                    println!("round {}", r + 1);
                    let b = run(&a, false, base.clone(), want).await?;
                    let bm = report("baseline", &a, &b);
                    let p = run(&a, true, base.clone(), want).await?;
                    let pm = report("pqdr", &a, &p);
                    all_ok &= b.ok && p.ok;
                    ratios.push(pm / bm);
                    cpu_ratios.push(p.cpu / b.cpu);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                let list = |v: &[f64]| {
                    v.iter()
                        .map(|r| format!("{r:.3}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                println!(
                    "throughput ratio pqdr / baseline (median of {rounds}): {:.3} (rounds: {})",
                    median(&mut ratios.clone()),
                    list(&ratios)
                );
                println!(
                    "CPU per byte ratio pqdr / baseline (median of {rounds}): {:.3} (rounds: {})",
                    median(&mut cpu_ratios.clone()),
                    list(&cpu_ratios)
                );
            }
        }
        Res::Ok(())
    })?;
    if !all_ok {
        return Err("integrity check failed".into());
    }
    Ok(())
}
