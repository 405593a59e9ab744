//! The pqdr post-quantum crate family in one place: re-exports of the
//! primitive crates (each behind a feature), plus the workspace's examples,
//! benchmarks and known-answer tooling.
//!
//! [`nist_rsp`] holds the registry of every algorithm the `katkem` and
//! `katsign` examples know: how each one draws its randomness from the NIST
//! DRBG, in the reference implementation's order, to reproduce and check the
//! official `.rsp` files. (The vector data is in `vectors/`, the DRBG and the
//! `.rsp` parser in the `pqdr-kat` crate: CONTRIBUTING.md, "Names".)

#[cfg(feature = "handshake")]
pub use pqdr_handshake as handshake;
#[cfg(feature = "hybrid")]
pub use pqdr_hybrid as hybrid;
#[cfg(feature = "mceliece")]
pub use pqdr_mceliece as mceliece;
#[cfg(feature = "mldsa")]
pub use pqdr_mldsa as mldsa;
#[cfg(feature = "mlkem")]
pub use pqdr_mlkem as mlkem;
#[cfg(feature = "ntrup")]
pub use pqdr_ntrup as ntrup;
#[cfg(feature = "ratchet")]
pub use pqdr_ratchet as ratchet;

pub mod nist_rsp;

// The README's Rust examples compile and run as doctests (`cargo test --doc`).
#[cfg(all(doctest, feature = "mlkem", feature = "handshake"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
