//! 2 % loss and reordering within 64 datagrams, with KEM ratchets during the transfer.

use pqdr_quic::Config;

use crate::common::{Impair, Shim, transfer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lossy_reordering_link_with_ratchets() {
    let shim = Shim::start(
        Impair {
            loss: 0.02,
            hold: 0.05,
            reorder: 64,
            ..Impair::default()
        },
        7,
    );
    let cfg = Config::with_rekey_after_ms(200);
    let mut max_epoch = 0;
    let out = transfer(cfg, 48 << 20, Some(&shim), |c, _, _| {
        if let Some(s) = c.ratchet_status() {
            max_epoch = max_epoch.max(s.epoch);
        }
    })
    .await;
    assert!(out.ok, "integrity");
    let (c, s) = (
        out.client.ratchet_status().unwrap(),
        out.server.ratchet_status().unwrap(),
    );
    println!(
        "client {c:?}\nserver {s:?}\nclient {:?}",
        out.client.stats()
    );
    assert!(
        c.ratchets_completed >= 3,
        "ratchets during the transfer: {}",
        c.ratchets_completed
    );
    assert!(s.ratchets_completed >= 3);
}
