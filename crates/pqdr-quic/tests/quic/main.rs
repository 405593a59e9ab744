//! PQDR-QUIC over real quinn 0.11 endpoints on 127.0.0.1 (one test binary,
//! docs/protocol/quic.md §5).

#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::cast_possible_truncation,
    missing_docs,
    unreachable_pub,
    reason = "test code"
)]

mod common;
mod forgery;
mod key_phase;
mod leak;
mod lossy;
mod transfer;
