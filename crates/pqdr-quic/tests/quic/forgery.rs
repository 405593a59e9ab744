//! Forged and replayed 1-RTT packets are refused and the connection lives on.

use std::sync::atomic::Ordering;

use pqdr_quic::Config;

use crate::common::{Impair, Shim, transfer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_and_replayed_packets_rejected_connection_survives() {
    let shim = Shim::start(
        Impair {
            replay_every: 7,
            forge_every: 5,
            ..Impair::default()
        },
        11,
    );
    let out = transfer(
        Config::with_rekey_after_ms(500),
        16 << 20,
        Some(&shim),
        |_, _, _| {},
    )
    .await;
    assert!(out.ok, "integrity");
    let injected = shim.injected.load(Ordering::Relaxed);
    let st = out.client.stats();
    println!("injected {injected}, client {st:?}");
    let originals = shim.originals.load(Ordering::Relaxed);
    assert!(injected > 1000);
    // No injected packet opened: at most the genuine ones did.
    assert!(
        st.packets_opened <= originals,
        "opened {} > {originals} genuine",
        st.packets_opened
    );
    // The injected datagrams that reached the packet key were refused (some
    // are dropped before it: a forged header that names no connection, or
    // the socket buffer overflowing under the burst).
    assert!(
        st.packets_refused * 4 >= injected,
        "refused {} of {injected}",
        st.packets_refused
    );
    assert!(out.client.ratchet_status().unwrap().ratchets_completed >= 1);
}
