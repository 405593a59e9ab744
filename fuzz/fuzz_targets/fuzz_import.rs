//! State import on arbitrary bytes (plain and sealed): no panic; a valid
//! export mutated by the input either imports or is refused.
#![no_main]

mod common;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqdr_ratchet::{Config, Instant};

fn exported() -> &'static (Vec<u8>, Vec<u8>) {
    static E: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    E.get_or_init(|| {
        let fx = common::fixtures();
        let mut s = fx[2].receiver.fork();
        let mut a = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
        let n = s.export_state(100, Instant(9), &mut a).unwrap();
        a.truncate(n);
        let mut b = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
        let n = s
            .export_state_sealed(100, b"k", Instant(9), &mut b)
            .unwrap();
        b.truncate(n);
        (a, b)
    })
}

fuzz_target!(|data: &[u8]| {
    let cfg = Config::default();
    let _ = common::S::import_state(&cfg, data, 0, Instant(1));
    let mut scratch = vec![0u8; data.len()];
    let _ = common::S::import_state_sealed(&cfg, data, b"k", 0, Instant(1), &mut scratch);
    let (plain, _) = exported();
    let mut m = plain.clone();
    for (i, b) in data.iter().enumerate() {
        if let Some(x) = m.get_mut(i.wrapping_mul(7) % plain.len()) {
            *x ^= b;
        }
    }
    if let Ok(mut s) = common::S::import_state(&cfg, &m, 0, Instant(1)) {
        // An accepted state must be usable without panicking.
        let mut r = common::rng();
        let mut pkt = [0u8; 1500];
        let _ = s.seal(Instant(2), b"", b"x", &mut pkt, &mut r);
        let _ = s.poll_transmit(Instant(3), b"", &mut pkt, &mut r);
        s.handle_timeout(Instant(100_000), &mut r);
    }
});
