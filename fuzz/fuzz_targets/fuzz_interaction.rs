//! The input drives a schedule of sends, deliveries, drops, duplications,
//! tamperings and timeouts between two sessions; invariants: nothing forged or
//! duplicated is delivered, no (epoch, direction, counter) is sealed twice.
#![no_main]

mod common;

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use pqdr_ratchet::{Config, Instant, Role};

fuzz_target!(|data: &[u8]| {
    let cfg = Config {
        rekey_after_ms: 50,
        min_ratchet_interval_ms: 10,
        ..Config::default()
    };
    let mut r = common::rng();
    let mut p = [
        common::S::new(&cfg, Role::Initiator, common::init(), Instant(0), &mut r).unwrap(),
        common::S::new(&cfg, Role::Responder, common::init(), Instant(0), &mut r).unwrap(),
    ];
    let mut queue: [Vec<Vec<u8>>; 2] = [Vec::new(), Vec::new()];
    let mut sealed: HashSet<(usize, u64, u32)> = HashSet::new();
    let mut delivered: HashSet<(usize, u64)> = HashSet::new();
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let mut now = 0u64;
    let mut next_id = 0u64;
    for &op in data.iter().take(400) {
        let side = usize::from(op & 1);
        match op >> 1 {
            0..=39 => {
                next_id += 1;
                let msg = next_id.to_be_bytes();
                if let Ok(n) = p[side].seal(Instant(now), b"", &msg, &mut pkt, &mut r) {
                    let e = p[side].status(Instant(now)).epoch;
                    let c = u32::from_be_bytes([pkt[2], pkt[3], pkt[4], pkt[5]]);
                    assert!(sealed.insert((side, e, c)), "nonce reuse");
                    queue[side].push(pkt[..n].to_vec());
                }
            }
            40..=49 => {
                while let Some(n) = p[side].poll_transmit(Instant(now), b"", &mut pkt, &mut r) {
                    let e = p[side].status(Instant(now)).epoch;
                    let c = u32::from_be_bytes([pkt[2], pkt[3], pkt[4], pkt[5]]);
                    assert!(sealed.insert((side, e, c)), "nonce reuse");
                    queue[side].push(pkt[..n].to_vec());
                }
            }
            50..=99 => {
                // Deliver (from the back: reordering), maybe keep a duplicate.
                if let Some(q) = queue[side].pop() {
                    if op & 0x80 != 0 {
                        queue[side].insert(0, q.clone());
                    }
                    if let Ok(o) = p[1 - side].open(Instant(now), b"", &q, &mut out, &mut r) {
                        if o.len == 8 {
                            let id = u64::from_be_bytes(out[..8].try_into().unwrap());
                            assert!(id <= next_id, "forged payload");
                            assert!(delivered.insert((side, id)), "duplicate delivery");
                        }
                    }
                }
            }
            100..=109 => {
                queue[side].pop();
            }
            110..=119 => {
                if let Some(q) = queue[side].last_mut() {
                    let i = usize::from(op) % q.len();
                    q[i] ^= 0x10;
                }
            }
            _ => {
                now += u64::from(op & 0x3f);
                p[side].handle_timeout(Instant(now), &mut r);
            }
        }
    }
});
