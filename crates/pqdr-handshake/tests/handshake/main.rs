//! The integration tests of pqdr-handshake: round trips, vectors, tampering, replay, DoS accounting, timers, fragmentation and error messages.
//!
//! One test binary for the crate's integration tests (issue #37 item 7: one
//! link and one compilation of the shared helpers instead of one per file).
//! Each module is a former `tests/<name>.rs`; run one with
//! `cargo test --release -p pqdr-handshake --test handshake <name>::`.

mod adv;
mod bucket_collision;
mod common;
mod dos;
mod error_messages;
mod frag;
mod peer_rate;
mod ratchet_kem;
mod replay;
mod replay_persist;
mod replay_steps;
mod roundtrip;
mod simultaneous;
mod tamper;
mod tamper_ctx;
mod timers;
mod vectors;
