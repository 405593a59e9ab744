#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod aead;
mod chain;
pub mod codec;
mod config;
mod control;
mod epoch;
mod kdf;
pub mod kem;
mod keys;
mod near;
mod persist;
mod receive;
mod schedule;
mod session;
mod state;
#[cfg(feature = "test-utils")]
pub mod testing;
mod window;
pub mod wire;

pub use config::{
    AbortReason, Config, Event, HandshakeOutput, HardStop, InitialSecret, Instant, Mode, Role,
    SeedToken, Status,
};
pub use kdf::Direction;
#[cfg(feature = "sntrup761")]
pub use kem::Sntrup761;
#[cfg(feature = "xwing")]
pub use kem::XWing;
pub use kem::{KemError, RatchetKem};
#[cfg(feature = "mlkem")]
pub use kem::{MlKem512, MlKem768, MlKem1024};

/// A session with the default KEM, ML-KEM-768.
#[cfg(feature = "mlkem")]
pub type DefaultSession = Session<MlKem768>;
pub use control::{Authentic, SymbolOut};
pub use keys::{PacketKey, SendKey};
pub use schedule::{AEAD_ID, KeySchedule};
pub use session::{MAX_AAD_LEN, Opened, Session, stream_record_len};
pub use state::{MIN_STORAGE_KEY_LEN, SESSION_ID_LEN, STATE_FORMAT_VERSION, max_state_len};

/// Re-exported so applications (and the examples) use the same AEAD and hash.
pub use blake3;
pub use chacha20poly1305;

/// Every error of the crate. Treat every `open` error as "drop silently".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The output buffer is too small.
    BufferTooSmall,
    /// Bad lengths, version, flags, frames or parameters.
    Malformed,
    /// `Session::from_handshake`: the handshake asks for another ratchet
    /// KEM (a `-X` handshake starts an X-Wing session).
    KemMismatch,
    /// The AEAD tag did not verify.
    Unauthentic,
    /// The record was already received.
    Replay,
    /// Below the replay window, or its key was evicted.
    TooOld,
    /// Too far ahead of the highest received counter (or derivation budget spent).
    TooFarAhead,
    /// The epoch byte names no live receive epoch.
    UnknownEpoch,
    /// The epoch is older than `reject_after_ms` (hard stop).
    RekeyOverdue,
    /// The epoch's counter space is used up.
    EpochExhausted,
    /// The send reservation of the last export is used up: export again.
    ReservationExhausted,
    /// The session was restored by `import_state` and no export has been
    /// confirmed since: export, persist the blob and its generation, call
    /// `confirm_persisted`, then `seal` (docs/protocol/ratchet.md §1.11 rule 1).
    ExportRequired,
    /// `confirm_persisted` was given a generation other than that of the
    /// latest export (an older one, one never made, or none since import).
    UnknownGeneration,
    /// `export_state` with a `reserve` at or above the configuration's
    /// `max_jump`: the peer could not follow a sender restored from the blob.
    ReserveTooLarge,
    /// `import_state` was given a blob of another session (its session id is
    /// not the one the caller expects for that slot).
    WrongSession,
    /// The state blob's generation is older than the caller's last-seen
    /// generation (a rollback).
    StaleGeneration,
    /// Unknown state format version.
    StateVersion,
    /// The state blob is corrupt, tampered with, sealed under another key or
    /// made under another configuration.
    StateCorrupt,
    /// The session is closed.
    Closed,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self, f)
    }
}

impl core::error::Error for Error {}
