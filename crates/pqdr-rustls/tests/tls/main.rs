//! The crate's tests, one test binary (one link of rustls and the groups):
//! rustls ↔ rustls in memory (`in_memory`) and live against Go's crypto/tls
//! (`go_interop`); `common` holds the configurations, certificates and the
//! tampering group wrapper both use.
#![allow(
    unreachable_pub,
    missing_docs,
    clippy::panic_in_result_fn,
    reason = "test code"
)]

mod common;
mod go_interop;
mod in_memory;
