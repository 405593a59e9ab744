//! The crate's integration tests in one binary (`--test all`): every
//! test binary compiled and optimised the crate's generic code again for
//! each parameter set it used and was linked on its own, which made the
//! per-file binaries most of CI's test build time.
//!
//! Each `tests/<name>.rs` stays where it is and is a module here (through
//! `#[path]`, so that its own `mod common;` still finds `tests/common/`):
//! `cargo test --release -p pqdr-hybrid --test all <name>::` runs one file's
//! tests.
//! Apart: `tests/ct_valgrind.rs` (built and run under valgrind by
//! `scripts/ct-check.sh`).
//!
//! The package sets `autotests = false`: a new `tests/<name>.rs` is added
//! below (or as a `[[test]]` of its own); `scripts/structure.py --check`
//! fails on a test file that no test target compiles.
#![allow(
    clippy::duplicate_mod,
    reason = "each file keeps its own `mod common;` (a copy per module), so that it still builds alone"
)]

// The ECDH API exists with the NIST curves (features `p256`, `p384`, on by default).
#[cfg(all(feature = "p256", feature = "p384"))]
#[path = "ecdh_api.rs"]
mod ecdh_api;
#[path = "errors.rs"]
mod errors;
#[path = "kem_traits.rs"]
mod kem_traits;
#[path = "roundtrip.rs"]
mod roundtrip;
#[path = "secp256r1_mlkem768_vectors.rs"]
mod secp256r1_mlkem768_vectors;
#[path = "secp384r1_mlkem1024_vectors.rs"]
mod secp384r1_mlkem1024_vectors;
#[path = "x25519_mlkem768_vectors.rs"]
mod x25519_mlkem768_vectors;
#[path = "xwing_vectors.rs"]
mod xwing_vectors;
