#![no_std]
#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "simd"), forbid(unsafe_code))]
#![cfg_attr(feature = "simd", deny(unsafe_code))]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        reason = "tests"
    )
)]

mod arch;
#[cfg(any(feature = "p256", feature = "p384"))]
pub mod ecdh;
mod error;
mod modinv62;
#[cfg(any(feature = "p256", feature = "p384"))]
#[macro_use]
mod nist_ecdh;
#[cfg(any(feature = "p256", feature = "p384"))]
mod nist_curve;
#[cfg(any(feature = "p256", feature = "p384"))]
mod nist_field;
#[cfg(feature = "p256")]
mod nistp256;
#[cfg(feature = "p384")]
mod nistp384;
#[cfg(feature = "p256")]
mod p256_ecdh;
#[cfg(feature = "p384")]
mod p384_ecdh;
#[cfg(feature = "p256")]
pub mod secp256r1_mlkem768;
#[cfg(feature = "p384")]
pub mod secp384r1_mlkem1024;
mod tls;
#[cfg(feature = "kem")]
mod traits;
mod x25519;
#[cfg(feature = "x25519-kyber768-draft00")]
pub mod x25519_kyber768_draft00;
pub mod x25519_mlkem768;
pub mod xwing;

pub use error::{Error, Object};
pub use xwing::XWing;
