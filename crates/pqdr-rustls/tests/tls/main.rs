//! The crate's tests, one test binary (one link of rustls and the groups):
//! rustls ↔ rustls in memory (`in_memory`, and `mldsa` for ML-DSA
//! authentication) and live against Go's crypto/tls (`go_interop`);
//! `common` holds the configurations, the PEM test certificates and the
//! tampering group wrapper, `certs` builds the X.509 test PKIs (ECDSA and
//! ML-DSA) with x509-cert, `recorded` the verifier that records the
//! CertificateVerify schemes (the last two shared with the examples).
#![allow(
    unreachable_pub,
    missing_docs,
    clippy::panic_in_result_fn,
    reason = "test code"
)]

#[cfg(feature = "aws-lc")]
mod aws_lc;
mod certs;
mod common;
mod go_interop;
mod in_memory;
mod mldsa;
mod recorded;
