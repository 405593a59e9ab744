//! The crate's integration tests in one binary (`--test all`): every
//! test binary compiled and optimised the crate's generic code again for
//! each parameter set it used and was linked on its own, which made the
//! per-file binaries most of CI's test build time.
//!
//! Each `tests/<name>.rs` stays where it is and is a module here (through
//! `#[path]`, so that its own `mod common;` still finds `tests/common/`):
//! `cargo test --release -p pqdr-keccak --test all <name>::` runs one file's
//! tests.
//! Apart: `tests/ct_valgrind.rs` (built and run under valgrind by
//! `scripts/ct-check.sh`).
//!
//! The package sets `autotests = false`: a new `tests/<name>.rs` is added
//! below (or as a `[[test]]` of its own); `scripts/structure.py --check`
//! fails on a test file that no test target compiles.

#[path = "avx512.rs"]
mod avx512;
#[path = "bmi.rs"]
mod bmi;
#[path = "sha3.rs"]
mod sha3;
#[path = "x4.rs"]
mod x4;
