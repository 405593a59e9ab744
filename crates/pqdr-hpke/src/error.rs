//! The crate's error: which input was refused and why. Every variant carries
//! only public facts (lengths, identifiers), never secret bytes.

use core::fmt;

/// What an [`Error::Length`] is about.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Object {
    /// A serialized public key (`pkR`).
    PublicKey,
    /// A serialized private key (`skR`).
    PrivateKey,
    /// The encapsulated key `enc`.
    Enc,
    /// An AEAD ciphertext (shorter than its tag).
    Ciphertext,
    /// The input keying material of `DeriveKeyPair` or of a derandomized encapsulation.
    Ikm,
    /// A caller's output buffer.
    Output,
    /// An exporter output length `L`.
    ExportLength,
    /// An input of a one-stage (SHAKE) key schedule longer than 65535 bytes.
    KeyScheduleInput,
}

impl Object {
    const fn name(self) -> &'static str {
        match self {
            Self::PublicKey => "public key",
            Self::PrivateKey => "private key",
            Self::Enc => "encapsulated key",
            Self::Ciphertext => "ciphertext",
            Self::Ikm => "input keying material",
            Self::Output => "output buffer",
            Self::ExportLength => "exporter length",
            Self::KeyScheduleInput => "key schedule input",
        }
    }
}

/// An HPKE operation was refused.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A byte string had a length the suite does not allow.
    Length {
        /// What had the wrong length.
        what: Object,
        /// The length required (for [`Object::ExportLength`] and
        /// [`Object::KeyScheduleInput`]: the maximum; for [`Object::Ciphertext`]
        /// and [`Object::Output`]: the minimum).
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// A public key (or the public part of `enc`) is not a valid key of its
    /// KEM: an ML-KEM key failing the FIPS 203 §7.2 modulus check, a P-256 /
    /// P-384 point that is not an uncompressed point on the curve.
    InvalidPublicKey,
    /// A private key is not valid for its KEM (a P-256 / P-384 scalar that
    /// is zero or not below the group order).
    InvalidPrivateKey,
    /// The encapsulated key `enc` is malformed: an invalid curve point, or an
    /// X25519 key of low order (all-zero Diffie-Hellman output, RFC 9180 §7.1.4).
    Decap,
    /// Encapsulation failed: the recipient's X25519 key is of low order
    /// (all-zero Diffie-Hellman output, RFC 9180 §7.1.4), or a P-256 / P-384
    /// ephemeral scalar was out of range (a derandomized encapsulation's
    /// given randomness; with an RNG, 256 rejections in a row, never in practice).
    Encap,
    /// The AEAD tag did not verify (wrong key, `aad`, sequence number or a
    /// modified ciphertext), RFC 9180 §5.2 `OpenError`.
    Open,
    /// The context's sequence number is exhausted (RFC 9180 §5.2
    /// `MessageLimitReachedError`): no further message can be sealed or opened.
    MessageLimit,
    /// `Seal` / `Open` on an export-only context (AEAD `0xFFFF`, RFC 9180 §5.3).
    ExportOnly,
    /// A pre-shared key or its identifier is empty (RFC 9180 §5.1.1
    /// `VerifyPSKInputs`: both must be non-empty in the psk mode).
    InvalidPsk,
    /// The key's KEM is not the suite's KEM.
    KemMismatch {
        /// The suite's KEM identifier.
        suite: u16,
        /// The key's KEM identifier.
        key: u16,
    },
    /// An algorithm identifier this crate does not implement.
    Unsupported {
        /// The registry the identifier was looked up in ("KEM", "KDF", "AEAD").
        registry: &'static str,
        /// The identifier.
        id: u16,
    },
}

impl fmt::Display for Error {
    /// One full sentence per error, naming the object and, for lengths, both
    /// sizes (the convention of every pqdr crate's `Error`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Length {
                what: what @ (Object::Ciphertext | Object::Output),
                expected,
                actual,
            } => write!(
                f,
                "The HPKE {} of {actual} bytes is too short: at least {expected} bytes are needed.",
                what.name()
            ),
            Self::Length {
                what: what @ (Object::ExportLength | Object::KeyScheduleInput),
                expected,
                actual,
            } => write!(
                f,
                "The HPKE {} of {actual} bytes is too long: at most {expected} bytes are allowed.",
                what.name()
            ),
            Self::Length {
                what,
                expected,
                actual,
            } => write!(
                f,
                "An HPKE {} for this suite must be {expected} bytes, but {actual} bytes were given.",
                what.name()
            ),
            Self::InvalidPublicKey => {
                f.write_str("The HPKE public key is not a valid key of its KEM.")
            }
            Self::InvalidPrivateKey => {
                f.write_str("The HPKE private key is not a valid key of its KEM.")
            }
            Self::Decap => f.write_str(
                "The HPKE encapsulated key is malformed (an invalid point) or of low order.",
            ),
            Self::Encap => f.write_str(
                "HPKE encapsulation failed: the recipient's key is of low order or the ephemeral scalar is out of range.",
            ),
            Self::Open => f.write_str("The HPKE ciphertext did not authenticate."),
            Self::MessageLimit => {
                f.write_str("The HPKE context's sequence number is exhausted; no further message can be sealed or opened.")
            }
            Self::ExportOnly => {
                f.write_str("The HPKE context is export-only: it cannot seal or open.")
            }
            Self::InvalidPsk => {
                f.write_str("The HPKE pre-shared key or its identifier is empty; the psk mode needs both.")
            }
            Self::KemMismatch { suite, key } => write!(
                f,
                "The HPKE key is for KEM 0x{key:04x}, but the suite's KEM is 0x{suite:04x}."
            ),
            Self::Unsupported { registry, id } => {
                write!(f, "The HPKE {registry} identifier 0x{id:04x} is not supported.")
            }
        }
    }
}

impl core::error::Error for Error {}

/// `Ok(())` if `actual == expected`, else the length error about `what`.
pub(crate) fn check_length(what: Object, expected: usize, actual: usize) -> Result<(), Error> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::Length {
            what,
            expected,
            actual,
        })
    }
}
