//! The one error type (docs/protocol/handshake.md §8): flat, no secret detail.

use core::fmt;

/// Why a handshake operation failed. A failed `handle_*` call leaves the
/// state bit-identical (only rate-limit buckets may move), except
/// [`Error::RotationOverdue`], which comes with the wipe of the keys.
///
/// Every message (`Display`) is a sentence naming what was wrong, with the
/// sizes for [`Error::Length`]. `#[non_exhaustive]`: match with a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The output buffer is too small for the message.
    BufferTooSmall,
    /// A message or field has the wrong length for its type and suite:
    /// `actual` bytes where `expected` are needed. A check against a bound
    /// names the bound: the minimum for a message that is too short, the
    /// maximum for one that is too long.
    Length {
        /// The length the message type and suite need (or the bound missed).
        expected: usize,
        /// The length received.
        actual: usize,
    },
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

impl Error {
    /// [`Error::Length`] for `actual` bytes where `expected` are needed.
    pub(crate) const fn length(expected: usize, actual: usize) -> Self {
        Self::Length { expected, actual }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match *self {
            Self::BufferTooSmall => {
                "the output buffer is too small for the message (see the suite's message sizes)"
            }
            Self::Length { expected, actual } => {
                return write!(
                    f,
                    "the message has the wrong length for its type and suite: \
                     {actual} bytes, expected {expected}"
                );
            }
            Self::MessageType => "the message's type byte is not the one expected here",
            Self::Version => "the message's version byte is not 0x01",
            Self::UnknownSuite => "the message's suite id is not one this build knows",
            Self::SuiteNotAccepted => {
                "the message's suite does not fit our key or the peer's accepted suites"
            }
            Self::NonZeroPadding => "the SIG-mode msg1 padding is not all zeros",
            Self::Mac1 => "the message's mac1 (or the cookie reply's tag) does not verify",
            Self::RateLimited => "the source's token bucket is empty (the responder is under load)",
            Self::UnknownIndex => "the message's receiver index names none of our attempts",
            Self::UnknownPeer => "the initiator's static key is not in the peer store",
            Self::Decrypt => {
                "an encrypted field of the message does not open (wrong keys or tampered)"
            }
            Self::InvalidEncapsulationKey => {
                "the ephemeral ML-KEM encapsulation key fails the FIPS 203 §7.2 check"
            }
            Self::LowOrderPoint => {
                "an X25519 exchange gave the all-zero output (a low-order point)"
            }
            Self::Signature => "the peer's ML-DSA signature does not verify",
            Self::StaleTimestamp => {
                "the msg1 timestamp is not newer than the last one committed for this peer (a replay)"
            }
            Self::Flood => "the peer exceeded its authenticated msg1 rate (50 per second)",
            Self::BiscuitInvalid => {
                "the msg3 biscuit does not open under the current or the previous biscuit key"
            }
            Self::BiscuitReplay => {
                "the msg3 biscuit is older than the last one accepted for this peer (a replay)"
            }
            Self::Duplicate => {
                "the same msg3 arrived again: the session already exists (send a keepalive)"
            }
            Self::WrongState => {
                "the call does not fit the handshake's state (e.g. msg2 after completion)"
            }
            Self::Timeout => "the handshake attempt ran out of time (90 s)",
            Self::RotationOverdue => {
                "the responder's biscuit keys and cookie secrets were not rotated for 240 s and \
                 are wiped: call Responder::handle_timeout from a timer, at poll_timeout"
            }
            Self::Config => {
                "the configuration is invalid (hybrid on one side only, an ephemeral the suite \
                 does not allow, or an app label over 64 bytes)"
            }
            Self::FragmentHeader => {
                "the fragment is truncated or oversized, or has a bad index, count or payload length"
            }
            Self::FragmentMac => "the fragment's MAC does not verify (nothing was stored)",
            Self::FragmentMismatch => {
                "the fragment disagrees with the fragments stored for its message (count, suite) \
                 or with the message header it carries"
            }
            Self::FragmentDuplicate => "this fragment of the message is already stored",
        };
        f.write_str(s)
    }
}

impl core::error::Error for Error {}
