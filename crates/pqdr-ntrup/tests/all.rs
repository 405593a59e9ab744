//! The crate's integration tests in one binary (`--test all`): every
//! test binary compiled and optimised the crate's generic code again for
//! each parameter set it used and was linked on its own, which made the
//! per-file binaries most of CI's test build time.
//!
//! Each `tests/<name>.rs` stays where it is and is a module here (through
//! `#[path]`, so that its own `mod common;` still finds `tests/common/`):
//! `cargo test --release -p pqdr-ntrup --test all <name>::` runs one file's
//! tests.
//! Apart: `tests/stack.rs` (peak stack, one process per measurement) and
//! `tests/ct_valgrind.rs` (built and run under valgrind by
//! `scripts/ct-check.sh`).
//! `tests/pkcs8.rs` is also the target `pkcs8` (`test = false`), built
//! alone by CI without `alloc` (`scripts/ci-extra.sh`).
//!
//! The package sets `autotests = false`: a new `tests/<name>.rs` is added
//! below (or as a `[[test]]` of its own); `scripts/structure.py --check`
//! fails on a test file that no test target compiles.
#![allow(
    clippy::duplicate_mod,
    reason = "each file keeps its own `mod common;` (a copy per module), so that it still builds alone"
)]

#[path = "errors.rs"]
mod errors;
#[path = "implicit_rejection.rs"]
mod implicit_rejection;
#[path = "kat.rs"]
mod kat;
#[path = "pkcs8.rs"]
mod pkcs8;
#[path = "proptest.rs"]
mod proptest;
#[path = "roundtrip.rs"]
mod roundtrip;
#[path = "self_test.rs"]
mod self_test;
