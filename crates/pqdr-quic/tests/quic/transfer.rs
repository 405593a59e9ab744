//! A transfer with integrity; the PQ bootstrap ratchet completes on both sides.

use std::time::Instant;

use pqdr_quic::Config;

use crate::common::transfer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transfer_with_integrity_and_bootstrap_ratchet() {
    let t0 = Instant::now();
    let mut first_ratchet = None;
    let out = transfer(Config::default(), 16 << 20, None, |c, _, _| {
        if first_ratchet.is_none()
            && c.ratchet_status()
                .is_some_and(|s| s.ratchets_completed >= 1)
        {
            first_ratchet = Some(t0.elapsed());
        }
    })
    .await;
    assert!(out.ok, "integrity");
    let (c, s) = (
        out.client.ratchet_status().unwrap(),
        out.server.ratchet_status().unwrap(),
    );
    println!(
        "first ratchet at the client after {first_ratchet:?} (connect included); client {c:?}; server {s:?}"
    );
    println!(
        "client {:?}\nserver {:?}",
        out.client.stats(),
        out.server.stats()
    );
    assert!(c.ratchets_completed >= 1 && s.ratchets_completed >= 1);
    assert_eq!(c.epoch, s.epoch);
    // Every 1-RTT packet went through the ratchet.
    assert!(out.client.stats().packets_opened > (16 << 20) / 1500);
    // At most the server's 0.5-RTT packets before the client's Finished
    // (docs/protocol/quic.md §2.1).
    assert!(out.server.stats().packets_unsealable <= 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_peer_refused_unless_allowed() {
    use std::sync::Arc;
    let (stls, ctls) = crate::common::tls();
    // A plain quinn client (no PQDR-QUIC ALPN) against a PQDR-QUIC server.
    let sc = pqdr_quic::server_config(stls, Config::default()).unwrap();
    let server = quinn::Endpoint::server(sc, "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.local_addr().unwrap();
    let mut client = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    let cc = quinn::crypto::rustls::QuicClientConfig::try_from(ctls).unwrap();
    client.set_default_client_config(quinn::ClientConfig::new(Arc::new(cc)));
    tokio::spawn(async move {
        if let Some(i) = server.accept().await {
            let _ = i.await;
        }
    });
    let r = client.connect(addr, "localhost").unwrap().await;
    // No common ALPN: the TLS handshake fails (no_application_protocol).
    assert!(
        r.is_err(),
        "a plain client must not connect to a PQDR-only server"
    );
}
