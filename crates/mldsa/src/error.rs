//! The crate's error: why an input was rejected or a signature did not
//! verify (FIPS 204 §5 context limit, §7.2 key decoding, Algorithm 8).

use core::fmt;

/// An input was rejected or a signature is invalid. Carries only public
/// facts (lengths), never secret data.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A byte slice had the wrong length for the key or signature it was
    /// parsed as, or a HashML-DSA digest did not have its pre-hash function's
    /// output length (FIPS 204 §5.4).
    Length {
        /// The length the input requires.
        expected: usize,
        /// The length of the input given.
        actual: usize,
    },
    /// A signing key of the right length failed the validity check of
    /// skDecode (FIPS 204 Algorithm 25): an s1 or s2 coefficient outside
    /// [−η, η], or t0 and tr not the ones ρ, s1 and s2 imply.
    InvalidKey,
    /// The context string is longer than 255 bytes (FIPS 204 Algorithms 2–5).
    ContextTooLong,
    /// The signature does not verify (FIPS 204 Algorithm 8), including a
    /// malformed one (hint encoding, Algorithm 21; ‖z‖∞ too large).
    InvalidSignature,
    /// The pair-wise consistency test after key generation failed: the new
    /// signing key's signature of a fixed message did not verify under the
    /// new public key (feature `self-test`, FIPS 140-3 IG 10.3.A). No input
    /// can cause it, only a fault in the hardware or memory (or a bug);
    /// discard the keys.
    PairwiseConsistency,
    /// A known-answer self-test gave a wrong answer (feature `self-test`,
    /// `self_test()`): the implementation or the hardware is faulty and must
    /// not be used.
    SelfTest,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length { expected, actual } => {
                write!(f, "ML-DSA input of {actual} bytes, expected {expected}")
            }
            Self::InvalidKey => {
                f.write_str("ML-DSA signing key failed the FIPS 204 skDecode check")
            }
            Self::ContextTooLong => f.write_str("ML-DSA context longer than 255 bytes"),
            Self::InvalidSignature => f.write_str("ML-DSA signature is invalid"),
            Self::PairwiseConsistency => {
                f.write_str("ML-DSA key pair failed its pair-wise consistency test (fault)")
            }
            Self::SelfTest => f.write_str("ML-DSA known-answer self-test failed (fault)"),
        }
    }
}

impl core::error::Error for Error {}

/// `Ok(())` if `actual == expected`, else [`Error::Length`].
pub(crate) fn check_length(expected: usize, actual: usize) -> Result<(), Error> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::Length { expected, actual })
    }
}
