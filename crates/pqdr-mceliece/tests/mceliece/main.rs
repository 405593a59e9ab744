//! The crate's integration tests in one binary (issue #37 item 7: every test
//! binary instantiates the generic code of all twenty parameter sets again,
//! which made these seven files, as seven binaries, most of the crate's test
//! build time). The known-answer files (`tests/kat.rs`, also run on the
//! portable path by CI), the stack budgets (`tests/stack.rs`, one process per
//! measurement) and the valgrind check (`tests/ct_valgrind.rs`) stay apart.
//!
//! `cargo test --release -p pqdr-mceliece --test mceliece roundtrip::` runs
//! one module.

#[path = "../common/mod.rs"]
mod common;

mod errors;
mod generated;
mod implicit_rejection;
mod kem_traits;
mod pkcs8;
mod roundtrip;
mod self_test;
