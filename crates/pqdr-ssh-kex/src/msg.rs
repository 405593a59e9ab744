//! Message numbers (RFC 4250 §4.1.2, RFC 4253 §12, RFC 5656 §7.1, RFC 8308
//! §2.3) and the small transport messages around the key exchange:
//! SERVICE_REQUEST / SERVICE_ACCEPT (RFC 4253 §10) and DISCONNECT (§11.1).

use crate::error::Error;
use crate::wire::{Reader, Sink};

/// SSH_MSG_DISCONNECT.
pub const DISCONNECT: u8 = 1;
/// SSH_MSG_IGNORE.
pub const IGNORE: u8 = 2;
/// SSH_MSG_UNIMPLEMENTED.
pub const UNIMPLEMENTED: u8 = 3;
/// SSH_MSG_DEBUG.
pub const DEBUG: u8 = 4;
/// SSH_MSG_SERVICE_REQUEST.
pub const SERVICE_REQUEST: u8 = 5;
/// SSH_MSG_SERVICE_ACCEPT.
pub const SERVICE_ACCEPT: u8 = 6;
/// SSH_MSG_EXT_INFO (RFC 8308).
pub const EXT_INFO: u8 = 7;
/// SSH_MSG_KEXINIT.
pub const KEXINIT: u8 = 20;
/// SSH_MSG_NEWKEYS.
pub const NEWKEYS: u8 = 21;
/// SSH_MSG_KEX_ECDH_INIT (RFC 5656 §7.1), the number the hybrid methods
/// reuse for their `C_INIT` message (RFC 9941 and draft-ietf-sshm-mlkem-hybrid-kex-09, whose messages carry C_INIT / S_REPLY as `string`s in the ECDH message slots).
pub const KEX_ECDH_INIT: u8 = 30;
/// SSH_MSG_KEX_ECDH_REPLY (RFC 5656 §7.1), reused for `S_REPLY`.
pub const KEX_ECDH_REPLY: u8 = 31;
/// SSH_MSG_USERAUTH_REQUEST (RFC 4252 §5).
pub const USERAUTH_REQUEST: u8 = 50;
/// SSH_MSG_USERAUTH_FAILURE (RFC 4252 §5.1).
pub const USERAUTH_FAILURE: u8 = 51;
/// SSH_MSG_USERAUTH_SUCCESS (RFC 4252 §5.1).
pub const USERAUTH_SUCCESS: u8 = 52;

/// Whether a message may arrive at any time and is skipped (RFC 4253
/// §11.2–11.3: IGNORE, DEBUG; UNIMPLEMENTED is also only informational).
#[must_use]
pub const fn is_skippable(number: u8) -> bool {
    matches!(number, IGNORE | DEBUG | UNIMPLEMENTED)
}

/// Writes SSH_MSG_SERVICE_REQUEST or SSH_MSG_SERVICE_ACCEPT (`number`)
/// naming `service` (e.g. `ssh-userauth`).
///
/// # Errors
/// [`Error::BufferTooSmall`] from the sink.
pub fn write_service<S: Sink + ?Sized>(
    sink: &mut S,
    number: u8,
    service: &[u8],
) -> Result<(), Error> {
    sink.put_byte(number)?;
    sink.put_string(service)
}

/// Parses SSH_MSG_SERVICE_REQUEST / SERVICE_ACCEPT (`number`): the service name.
///
/// # Errors
/// [`Error::Disconnected`] for a DISCONNECT, [`Error::UnexpectedMessage`]
/// for another message, [`Error::Field`] for a malformed one.
pub fn parse_service(payload: &[u8], number: u8) -> Result<&[u8], Error> {
    let mut r = expect(payload, number)?;
    let name = r.string()?;
    r.finish()?;
    Ok(name)
}

/// A reader past the message number, after checking it is `number`; a
/// DISCONNECT becomes [`Error::Disconnected`].
///
/// # Errors
/// As above; [`Error::Field`] for an empty payload.
pub fn expect(payload: &[u8], number: u8) -> Result<Reader<'_>, Error> {
    let mut r = Reader::new(payload);
    let actual = r.byte()?;
    if actual == DISCONNECT && number != DISCONNECT {
        let reason = r.uint32().unwrap_or(0);
        return Err(Error::Disconnected { reason });
    }
    if actual != number {
        return Err(Error::UnexpectedMessage {
            expected: number,
            actual,
        });
    }
    Ok(r)
}
