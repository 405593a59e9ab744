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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abrupt_close_then_new_connection() {
    let (stls, ctls) = crate::common::tls();
    let cfg = Config::default();
    let sc = pqdr_quic::server_config(stls, cfg).unwrap();
    let server = pqdr_quic::Endpoint::server(sc, "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.quinn().local_addr().unwrap();
    let cc = pqdr_quic::client_config(ctls, cfg).unwrap();
    let srv = server.clone();
    let serve = tokio::spawn(async move {
        let mut conns = Vec::new();
        for _ in 0..2 {
            let conn = srv.accept().await.unwrap().unwrap();
            conns.push(conn.clone_handle());
            tokio::spawn(async move {
                if let Ok(mut s) = conn.open_uni().await {
                    let _ = s.write_all(&[7u8; 1 << 20]).await;
                    let _ = s.finish();
                    conn.closed().await;
                }
            });
        }
        conns
    });
    // First client: reads a little, then its endpoint vanishes without a CLOSE.
    {
        let client =
            pqdr_quic::Endpoint::client(cc.clone(), "127.0.0.1:0".parse().unwrap()).unwrap();
        let conn = client.connect(addr, "localhost").await.unwrap();
        let mut s = conn.accept_uni().await.unwrap();
        let mut buf = [0u8; 4096];
        s.read_exact(&mut buf).await.unwrap();
        drop(s);
        drop(conn);
        drop(client);
    }
    // A new connection from a new socket: a fresh handshake and ratchet.
    let client = pqdr_quic::Endpoint::client(cc, "127.0.0.1:0".parse().unwrap()).unwrap();
    let conn = client.connect(addr, "localhost").await.unwrap();
    let mut s = conn.accept_uni().await.unwrap();
    let got = s.read_to_end(2 << 20).await.unwrap();
    assert_eq!(got, vec![7u8; 1 << 20]);
    let conns = serve.await.unwrap();
    // The second connection has its own ratchet (a state shared across
    // connections could not open the second one's packets).
    let st = conn.ratchet_status().unwrap();
    assert!(st.ratchets_completed >= 1 || st.ratchet_in_flight);
    assert_eq!(conns.len(), 2);
    assert!(conns[1].ratchet_status().is_some());
    conn.close(0u32.into(), b"done");
}
