//! PQDR-QUIC over real quinn 0.11 endpoints on 127.0.0.1 (one test binary,
//! docs/protocol/quic.md §5).

#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::std_instead_of_core,
    clippy::integer_division_remainder_used,
    clippy::cast_precision_loss,
    missing_docs,
    unreachable_pub,
    reason = "test code"
)]

mod clock;
mod common;
mod forgery;
mod key_phase;
mod leak;
mod lossy;
mod transfer;
