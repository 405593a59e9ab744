//! The crate's one error type. Every `open` error means "drop the record
//! silently" (docs/protocol/ratchet.md §1.8); the messages name what was
//! wrong without any secret detail.

use core::fmt;

/// Every error of the crate. Treat every `open` error as "drop silently".
///
/// `#[non_exhaustive]`: match with a `_` arm; new variants are not breaking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An output buffer is too small: `needed` bytes are required, the
    /// buffer has `got`. For `export_state`, `needed` is the bound
    /// [`max_state_len`](crate::max_state_len) of the session's window and
    /// stored-key sizes.
    BufferTooSmall {
        /// Bytes the call needs.
        needed: usize,
        /// Bytes the caller's buffer has.
        got: usize,
    },
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

impl Error {
    /// [`Error::BufferTooSmall`] for a buffer of `got` bytes where `needed`
    /// are required.
    pub(crate) const fn short(needed: usize, got: usize) -> Self {
        Self::BufferTooSmall { needed, got }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::BufferTooSmall { needed, got } => write!(
                f,
                "the output buffer is too small: {needed} bytes are needed, it has {got}"
            ),
            Self::Malformed => f.write_str(
                "the record, frame, state blob or argument is malformed \
                 (a bad length, version, flag byte, frame or parameter)",
            ),
            Self::KemMismatch => f.write_str(
                "the handshake asks for another ratchet KEM than the session's \
                 (a -X handshake starts an X-Wing session)",
            ),
            Self::Unauthentic => f.write_str("the record's AEAD tag does not verify"),
            Self::Replay => f.write_str("the record was already received (a replay)"),
            Self::TooOld => f.write_str(
                "the record's counter is below the replay window or its key was evicted",
            ),
            Self::TooFarAhead => f.write_str(
                "the record's counter is too far ahead of the highest one received \
                 (max_jump), or the pre-authentication derivation budget is spent",
            ),
            Self::UnknownEpoch => {
                f.write_str("the record's epoch byte names no live receive epoch")
            }
            Self::RekeyOverdue => f.write_str(
                "the epoch is older than reject_after_ms (hard stop): a ratchet or a \
                 new handshake is overdue",
            ),
            Self::EpochExhausted => f.write_str("the epoch's counter space is used up"),
            Self::ReservationExhausted => f.write_str(
                "the send reservation of the last confirmed export is used up: \
                 export, persist and confirm again",
            ),
            Self::ExportRequired => f.write_str(
                "the restored session may not send before an export of its own is \
                 confirmed: export, persist, confirm_persisted, then seal",
            ),
            Self::UnknownGeneration => {
                f.write_str("the generation given to confirm_persisted is not the latest export's")
            }
            Self::ReserveTooLarge => f.write_str(
                "the export's reserve is at or above the configuration's max_jump \
                 (the peer could not follow a restored sender)",
            ),
            Self::WrongSession => {
                f.write_str("the state blob belongs to another session (session id mismatch)")
            }
            Self::StaleGeneration => f.write_str(
                "the state blob's generation is older than the last persisted one (a rollback)",
            ),
            Self::StateVersion => f.write_str("the state blob has an unknown format version"),
            Self::StateCorrupt => f.write_str(
                "the state blob is corrupt, tampered with, sealed under another key or \
                 made under another configuration",
            ),
            Self::Closed => f.write_str(
                "the session is closed (after a stream-mode failure), or cannot serve \
                 this exporter request",
            ),
        }
    }
}

impl core::error::Error for Error {}

/// The encapsulation key was rejected (FIPS 203 §7.2 modulus check or similar).
///
/// A unit struct that [`RatchetKem`](crate::RatchetKem) implementations
/// construct, so it is not `#[non_exhaustive]`; the session turns it into a
/// ratchet abort (`AbortReason`), never into an [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KemError;

impl fmt::Display for KemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the ratchet KEM rejected the encapsulation key")
    }
}

impl core::error::Error for KemError {}
