//! The protocol version exchange (RFC 4253 §4.2): each side sends one
//! identification line `SSH-2.0-softwareversion SP comments CR LF` of at
//! most 255 bytes; a server may send other lines before it, which the
//! client skips. The line without CR LF is `V_C` / `V_S` in the exchange
//! hash.

use crate::error::Error;

/// Our identification line, CR LF included.
pub const IDENTIFICATION: &[u8] = b"SSH-2.0-pqdr_0.1\r\n";

/// The most lines a client skips before the server's identification
/// (RFC 4253 §4.2 allows "other lines of data" but sets no bound).
pub const MAX_PRELUDE_LINES: usize = 32;

/// What one received line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// The identification: the line without CR LF (`V_C` / `V_S`).
    Identification(&'a [u8]),
    /// A line before it that the client skips (RFC 4253 §4.2; a server
    /// never accepts one from the client).
    Other,
}

/// Classifies one line, ending in LF, as received.
///
/// RFC 4253 §4.2: the line ends in CR LF; the version is `2.0` (`1.99` is
/// the compatibility spelling of §5.1, also 2.0); at most 255 bytes with CR
/// LF. A bare LF ending is tolerated for the other lines only.
///
/// # Errors
/// [`Error::Version`] for an identification line that is too long, lacks
/// CR LF, holds a NUL byte or names another protocol version.
pub fn parse_line(line: &[u8]) -> Result<Line<'_>, Error> {
    if !line.starts_with(b"SSH-") {
        return if line.len() <= 1024 && line.ends_with(b"\n") {
            Ok(Line::Other)
        } else {
            Err(Error::Version)
        };
    }
    let body = line
        .strip_suffix(b"\r\n")
        .filter(|_| line.len() <= 255)
        .ok_or(Error::Version)?;
    let ok_version = body.starts_with(b"SSH-2.0-") || body.starts_with(b"SSH-1.99-");
    if !ok_version || body.iter().any(|&b| b == 0 || b == b'\r' || b == b'\n') {
        return Err(Error::Version);
    }
    Ok(Line::Identification(body))
}
