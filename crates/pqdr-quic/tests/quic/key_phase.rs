//! quinn's own key updates (RFC 9001 §6) racing KEM ratchets.

use pqdr_quic::Config;

use crate::common::transfer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_phase_flip_racing_a_ratchet() {
    let mut cfg = Config::with_rekey_after_ms(100);
    cfg.ratchet.min_ratchet_interval_ms = 100;
    let mut last = 0u64;
    let out = transfer(cfg, 32 << 20, None, |c, s, got| {
        // Every 256 KiB: quinn flips its key phase on both sides and each side
        // asks for a KEM ratchet, so flips and epoch switches interleave.
        if got >> 18 != last {
            last = got >> 18;
            c.force_key_update();
            s.force_key_update();
            c.request_ratchet();
            s.request_ratchet();
        }
    })
    .await;
    assert!(out.ok, "integrity");
    let (c, s) = (
        out.client.ratchet_status().unwrap(),
        out.server.ratchet_status().unwrap(),
    );
    let st = out.client.stats();
    println!("client {c:?}\nclient {st:?}");
    assert!(
        c.ratchets_completed >= 3,
        "ratchets: {}",
        c.ratchets_completed
    );
    assert!(c.epoch.abs_diff(s.epoch) <= 1);
    // The key phase on the wire follows the epochs.
    assert!(st.key_phase_flips_seen >= 3);
}
