//! The crate's error: why a byte string was rejected as a key, a ciphertext
//! or a key share. Decapsulation of a well-formed ciphertext never fails
//! (implicit rejection); only the TLS groups refuse an all-zero X25519 output
//! or an invalid P-256 point.

pub use pqdr_common::error::Object;

/// An input was rejected. Carries only public facts (lengths and which
/// public check failed), never secret data.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A byte slice had the wrong length for what it was parsed as.
    Length {
        /// What had the wrong length.
        what: Object,
        /// The length the type requires.
        expected: usize,
        /// The length of the slice given.
        actual: usize,
    },
    /// The ML-KEM encapsulation key inside the input (ML-KEM-768, or
    /// ML-KEM-1024 in SecP384r1MLKEM1024) failed the FIPS 203 §7.2 modulus check (a 12-bit coefficient `≥ q`). X-Wing
    /// (draft-connolly-cfrg-xwing-kem §4) and X25519MLKEM768 (the server must
    /// abort with `illegal_parameter`) both require the check.
    InvalidKey,
    /// The X25519 shared secret was all zeros: the peer sent a low-order
    /// point. TLS 1.3 requires the check and an abort (RFC 8446 §7.4.2,
    /// RFC 7748 §6.1); X25519MLKEM768 only, X-Wing does not check it.
    LowOrderPoint,
    /// A P-256 / P-384 public key in a SecP256r1MLKEM768 / SecP384r1MLKEM1024
    /// key share was not a valid
    /// uncompressed point: a tag other than `0x04`, a coordinate `≥ p`, or a
    /// point off the curve (SP 800-56A rev. 3 §5.6.2.3.4; the identity has
    /// no uncompressed encoding). TLS 1.3: abort with `illegal_parameter`.
    InvalidPoint,
}

pqdr_common::error_boilerplate! {
    Error, algorithm = "hybrid KEM",
    InvalidKey =>
        "The ML-KEM encapsulation key inside the hybrid input failed the FIPS 203 §7.2 modulus check.",
    LowOrderPoint =>
        "The X25519 shared secret is all zeros: the peer sent a low-order point.",
    InvalidPoint =>
        "The P-256 / P-384 public key is not a valid uncompressed point on the curve.",
}

/// Maps a `pqdr-mlkem` error on an encapsulation key to ours: lengths are
/// checked before, so only the §7.2 modulus check can fail there.
pub(crate) fn from_mlkem(e: pqdr_mlkem::Error) -> Error {
    match e {
        pqdr_mlkem::Error::Length {
            what,
            expected,
            actual,
        } => Error::Length {
            what,
            expected,
            actual,
        },
        _ => Error::InvalidKey,
    }
}
