//! The integration tests of pqdr-ratchet: sessions, state export and import, forgery, the network simulator, FS/PCS leak table, vectors, KEM adapters and error messages.
//!
//! One test binary for the crate's integration tests (issue #37 item 7: one
//! link and one compilation of the shared helpers instead of one per file).
//! `tests/forgery_flood.rs` stays a binary of its own: it reads the
//! process-wide step counter `testing::kdf_steps`, which the other modules'
//! tests would move while it measures.
//! Each module is a former `tests/<name>.rs`; run one with
//! `cargo test --release -p pqdr-ratchet --test ratchet <name>::`.

mod common;
mod dead_attempts;
mod error_messages;
mod forgery;
mod fs_pcs;
mod fs_pcs_model;
mod kem_adapters;
mod l1_packet_numbers;
mod netsim;
mod netsim_model;
mod persist_crash;
mod proptest;
mod request_pending;
mod session;
mod state;
mod vectors;
