//! The crate's error: why bytes from the peer (or a caller's buffer) were
//! refused. Every variant carries public facts only (lengths, message
//! numbers, which field), never key material.

use core::fmt;

/// A field of an SSH message, named in [`Error::Field`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// A `uint32` (RFC 4251 §5).
    Uint32,
    /// A `byte` or `boolean` (RFC 4251 §5).
    Byte,
    /// A `string`'s length prefix or contents (RFC 4251 §5).
    String,
    /// A `name-list` that is not printable US-ASCII without empty names (RFC 4251 §5).
    NameList,
    /// The 16-byte KEXINIT cookie (RFC 4253 §7.1).
    Cookie,
    /// The client's KEX init value `C_INIT` (client public keys).
    ClientInit,
    /// The server's KEX reply value `S_REPLY` (ciphertext and server public key).
    ServerReply,
    /// The server's host key blob `K_S` (RFC 8709 §4).
    HostKey,
    /// The host key signature blob (RFC 8709 §6).
    Signature,
    /// Bytes left over after the last field of a message.
    Trailing,
}

impl Field {
    const fn name(self) -> &'static str {
        match self {
            Self::Uint32 => "uint32",
            Self::Byte => "byte",
            Self::String => "string",
            Self::NameList => "name-list",
            Self::Cookie => "KEXINIT cookie",
            Self::ClientInit => "client KEX init value",
            Self::ServerReply => "server KEX reply value",
            Self::HostKey => "ssh-ed25519 host key blob",
            Self::Signature => "ssh-ed25519 signature blob",
            Self::Trailing => "message end",
        }
    }
}

/// Which algorithm category had no name in common (RFC 4253 §7.1).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// `kex_algorithms`.
    Kex,
    /// `server_host_key_algorithms`.
    HostKey,
    /// `encryption_algorithms` (either direction).
    Cipher,
    /// `compression_algorithms` (either direction).
    Compression,
}

impl Category {
    const fn name(self) -> &'static str {
        match self {
            Self::Kex => "key exchange",
            Self::HostKey => "host key",
            Self::Cipher => "encryption",
            Self::Compression => "compression",
        }
    }
}

/// Bytes were refused. Only public facts, never secret data.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A message ended inside a field, or a field was malformed.
    Field {
        /// The field.
        field: Field,
        /// The offset in the message payload where it starts.
        offset: usize,
    },
    /// A KEX value had the wrong length for the negotiated method.
    Length {
        /// What had the wrong length.
        field: Field,
        /// The length the method requires.
        expected: usize,
        /// The length received.
        actual: usize,
    },
    /// The identification line was not `SSH-2.0-…` of at most 255 bytes
    /// ending in CR LF (RFC 4253 §4.2), or too many lines came before it.
    Version,
    /// A binary packet's `packet_length` / `padding_length` broke RFC 4253
    /// §6: at most 35000 bytes, padding 4–255 bytes, the total a multiple of
    /// the block size.
    PacketLength {
        /// The `packet_length` field received.
        packet_length: u32,
    },
    /// The packet's Poly1305 tag did not verify (wrong key, tampered or
    /// reordered packet).
    Mac,
    /// A caller's output buffer was too small.
    BufferTooSmall {
        /// The bytes needed.
        needed: usize,
        /// The bytes available.
        got: usize,
    },
    /// The KEXINIT lists had no algorithm in common in a category (RFC 4253 §7.1).
    NoCommonAlgorithm(Category),
    /// A different message came than the protocol state expects.
    UnexpectedMessage {
        /// The message number expected.
        expected: u8,
        /// The message number received.
        actual: u8,
    },
    /// The host key is not `ssh-ed25519` or its 32 bytes are not a valid
    /// Ed25519 point.
    HostKeyType,
    /// The host key signature over the exchange hash did not verify.
    BadSignature,
    /// The peer's X25519 value gave the all-zero shared secret (a
    /// low-order point, RFC 7748 §6.1).
    LowOrderPoint,
    /// The client's ML-KEM-768 encapsulation key failed the FIPS 203 §7.2
    /// modulus check.
    InvalidKey,
    /// The peer sent SSH_MSG_DISCONNECT (RFC 4253 §11.1) with this reason code.
    Disconnected {
        /// The reason code.
        reason: u32,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Field { field, offset } => write!(
                f,
                "The SSH message is malformed: its {} at offset {offset} is truncated or invalid.",
                field.name()
            ),
            Self::Length {
                field,
                expected,
                actual,
            } => write!(
                f,
                "An SSH {} must be {expected} bytes, but {actual} bytes were given.",
                field.name()
            ),
            Self::Version => f.write_str(
                "The SSH identification line is not an `SSH-2.0-` line of at most 255 bytes \
                 ending in CR LF.",
            ),
            Self::PacketLength { packet_length } => write!(
                f,
                "The SSH packet length {packet_length} is out of range or its padding is invalid."
            ),
            Self::Mac => f.write_str("The SSH packet's authentication tag did not verify."),
            Self::BufferTooSmall { needed, got } => write!(
                f,
                "The output buffer of {got} bytes is too small for the {needed} bytes to write."
            ),
            Self::NoCommonAlgorithm(c) => write!(
                f,
                "The client's and the server's KEXINIT have no {} algorithm in common.",
                c.name()
            ),
            Self::UnexpectedMessage { expected, actual } => write!(
                f,
                "SSH message {actual} arrived where message {expected} was expected."
            ),
            Self::HostKeyType => {
                f.write_str("The server host key is not a valid ssh-ed25519 public key.")
            }
            Self::BadSignature => f.write_str(
                "The server's ssh-ed25519 signature over the exchange hash did not verify.",
            ),
            Self::LowOrderPoint => f.write_str(
                "The X25519 shared secret is all zeros: the peer sent a low-order point.",
            ),
            Self::InvalidKey => f.write_str(
                "The client's ML-KEM-768 encapsulation key failed the FIPS 203 §7.2 modulus check.",
            ),
            Self::Disconnected { reason } => {
                write!(f, "The peer disconnected with reason code {reason}.")
            }
        }
    }
}

impl core::error::Error for Error {}
