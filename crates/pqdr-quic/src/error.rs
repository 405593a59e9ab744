//! `Error`: everything that can go wrong when setting up or driving a PQDR-QUIC connection.

use core::fmt;

/// Errors of `pqdr-quic`. Each `Display` is a lower-case sentence naming what was wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The rustls configuration cannot run QUIC (no TLS 1.3, or no
    /// TLS_AES_128_GCM_SHA256 for the Initial packets, RFC 9001 §5.2).
    TlsConfig(String),
    /// The ratchet refused to start or to go on (its error is kept).
    Ratchet(pqdr_ratchet::Error),
    /// The connection was not made through `pqdr-quic`'s configuration, or the
    /// peer negotiated plain QUIC while `Config::allow_plain` is false.
    NotPqdr,
    /// The QUIC connection failed.
    #[cfg(feature = "quinn")]
    Connection(quinn::ConnectionError),
    /// Connecting failed before the handshake started.
    #[cfg(feature = "quinn")]
    Connect(quinn::ConnectError),
    /// A socket error.
    Io(std::io::Error),
    /// A decrypted 1-RTT payload whose frames could not be walked (the
    /// frame at `offset` is truncated or of a type the walk does not know).
    MalformedPayload {
        /// Offset of the frame that could not be read.
        offset: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TlsConfig(why) => write!(f, "the rustls configuration cannot run QUIC: {why}"),
            Error::Ratchet(e) => write!(f, "the ratchet failed: {e}"),
            Error::NotPqdr => f.write_str(
                "the connection is not protected by the pqdr ratchet (plain QUIC negotiated or a foreign configuration)",
            ),
            #[cfg(feature = "quinn")]
            Error::Connection(e) => write!(f, "the QUIC connection failed: {e}"),
            #[cfg(feature = "quinn")]
            Error::Connect(e) => write!(f, "the QUIC connection could not start: {e}"),
            Error::Io(e) => write!(f, "a socket operation failed: {e}"),
            Error::MalformedPayload { offset } => {
                write!(f, "the 1-RTT payload has an unreadable frame at offset {offset}")
            }
        }
    }
}

impl core::error::Error for Error {}

impl From<pqdr_ratchet::Error> for Error {
    fn from(e: pqdr_ratchet::Error) -> Self {
        Error::Ratchet(e)
    }
}

#[cfg(feature = "quinn")]
impl From<quinn::ConnectionError> for Error {
    fn from(e: quinn::ConnectionError) -> Self {
        Error::Connection(e)
    }
}

#[cfg(feature = "quinn")]
impl From<quinn::ConnectError> for Error {
    fn from(e: quinn::ConnectError) -> Self {
        Error::Connect(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}
