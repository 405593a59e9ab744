//! Known-answer-test tooling for the pqdr crates (not published).
//!
//! - [`Drbg`]: the NIST PQC AES-256-CTR DRBG of the reference `rng.c`
//!   (`randombytes_init` / `randombytes`), as a `rand_core` 0.10 `CryptoRng`.
//! - [`rsp`]: the `.req` / `.rsp` formats printed by `PQCgenKAT_kem.c` and
//!   `PQCgenKAT_sign.c`.
//! - [`acvp`]: loading the NIST ACVP JSON vectors (plain or gzip-compressed).
//! - [`hex`]: uppercase hex encoding and decoding.
//! - [`checks`]: the SHA-256 comparisons with `vectors/kat-checksums.json`
//!   and the stored `.rsp` files the crates' `tests/kat.rs` share.
//! - [`registry`]: `.req` to `.rsp` and the record-by-record re-check, for
//!   any parameter set described by a [`registry::KemAlg`] or
//!   [`registry::SignAlg`] entry.
//!
//! Test tooling that handles only public data. Everything but [`Drbg`] needs
//! the default `std` feature; without it the crate is `#![no_std]`, so that
//! the Cortex-M firmware test (`embedded/`) draws its KAT randomness from this
//! same DRBG.
#![cfg_attr(not(feature = "std"), no_std)]
#![allow(clippy::std_instead_of_core)]

mod drbg;

#[cfg(feature = "std")]
pub mod acvp;
#[cfg(feature = "std")]
pub mod checks;
#[cfg(feature = "std")]
pub mod hex;
#[cfg(feature = "std")]
pub mod registry;
#[cfg(feature = "std")]
pub mod rsp;

pub use drbg::Drbg;

/// Path of the workspace's `vectors/` data folder (resolved at compile time).
#[cfg(feature = "std")]
pub fn vectors_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

/// Reads `path`, or `path.gz` decompressed when only that exists.
///
/// # Errors
/// Any I/O or decompression error.
#[cfg(feature = "std")]
pub fn read_maybe_gz(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    if path.exists() {
        return std::fs::read(path);
    }
    let mut gz = path.as_os_str().to_owned();
    gz.push(".gz");
    let file = std::fs::File::open(std::path::Path::new(&gz))?;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(file).read_to_end(&mut out)?;
    Ok(out)
}
