//! The one error type (docs/protocol/handshake.md §8): flat, no secret detail.

use core::fmt;

/// Why a handshake operation failed. A failed `handle_*` call leaves the
/// state bit-identical (only rate-limit buckets may move), except
/// [`Error::RotationOverdue`], which comes with the wipe of the keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The output buffer is too small for the message.
    BufferTooSmall,
    /// The message has the wrong length for its type and suite.
    Length,
    /// The type byte is not the one expected here.
    MessageType,
    /// The version byte is not 0x01.
    Version,
    /// The suite id is not one this build knows.
    UnknownSuite,
    /// The suite does not fit our key, or the peer's accepted set.
    SuiteNotAccepted,
    /// SIG-mode msg1 padding is not all zeros.
    NonZeroPadding,
    /// mac1 (or the cookie reply's tag) does not verify.
    Mac1,
    /// The source's token bucket is empty (under load).
    RateLimited,
    /// The receiver index does not name our attempt.
    UnknownIndex,
    /// No such peer in the peer store.
    UnknownPeer,
    /// An AEAD-sealed field does not open.
    Decrypt,
    /// The ephemeral encapsulation key fails FIPS 203 §7.2.
    InvalidEncapsulationKey,
    /// An X25519 exchange gave the all-zero output (non-contributory point).
    LowOrderPoint,
    /// A signature does not verify.
    Signature,
    /// The timestamp is not newer than the last committed one.
    StaleTimestamp,
    /// The peer exceeded its authenticated msg1 rate (50/s).
    Flood,
    /// The biscuit does not open under the current or previous key.
    BiscuitInvalid,
    /// The biscuit is older than the last one accepted for this peer.
    BiscuitReplay,
    /// The same msg3 again (the session already exists: send a keepalive).
    Duplicate,
    /// The call does not fit the state (e.g. msg2 after completion).
    WrongState,
    /// The attempt ran out of time (90 s).
    Timeout,
    /// The responder's biscuit keys and cookie secrets were not rotated for
    /// 240 s (2 × `ROTATE_MS`) and are wiped: call `Responder::handle_timeout`
    /// (from a timer, at `poll_timeout`).
    RotationOverdue,
    /// A configuration error: hybrid on one side only, an ephemeral the suite
    /// does not allow, an app label over 64 bytes.
    Config,
    /// A fragment is truncated, oversized, or has a bad index, count or
    /// payload length (docs/protocol/fragmentation.md §3).
    FragmentHeader,
    /// A fragment's MAC does not verify: nothing was stored.
    FragmentMac,
    /// A fragment disagrees with the fragments stored for its message (count,
    /// suite) or with the message header it carries.
    FragmentMismatch,
    /// This fragment of the message is already stored.
    FragmentDuplicate,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl core::error::Error for Error {}
