//! Arbitrary records against sessions in every ratchet state: no panic, and
//! in datagram mode any error leaves the state bit-identical (in stream mode
//! an error closes the session by design). The receiver is either a `fork`
//! of the live fixture (every state, including a KEM exchange in flight, with
//! `fork`'s wide limits) or the fixture restored from its sealed export (the
//! default configuration's `max_jump` and pre-auth budget).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use pqdr_ratchet::Instant;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let fx = common::fixtures();
    let f = &fx[usize::from(data[0]) % fx.len()];
    let forked = data[1] & 2 == 0;
    let mut s = if forked {
        f.receiver.fork()
    } else {
        f.restored(Instant(5))
    };
    // Either raw bytes or the valid record with the input XORed in.
    let mut pkt: Vec<u8> = if data[1] & 1 == 0 {
        data[2..].to_vec()
    } else {
        let mut p = f.record.clone();
        for (i, b) in data[2..].iter().enumerate() {
            if let Some(x) = p.get_mut(i) {
                *x ^= b;
            }
        }
        p
    };
    if forked && f.mode == pqdr_ratchet::Mode::Datagram && pkt.len() >= 6 {
        // A fork accepts jumps up to 2^30 with no budget (seconds of
        // derivation per input): keep its counters below 2^20. The restored
        // receivers take any counter under the default limits.
        pkt[2] = 0;
        pkt[3] &= 0x0f;
    }
    let mut before = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
    let mut after = before.clone();
    let n0 = s.snapshot(Instant(5), &mut before).unwrap();
    let mut out = vec![0u8; 70_000];
    let mut r = common::rng();
    if s.open(Instant(5), b"", &pkt, &mut out, &mut r).is_err()
        && f.mode == pqdr_ratchet::Mode::Datagram
    {
        let n1 = s.snapshot(Instant(5), &mut after).unwrap();
        assert_eq!(
            before[..n0],
            after[..n1],
            "state changed on error ({})",
            f.name
        );
    }
});
