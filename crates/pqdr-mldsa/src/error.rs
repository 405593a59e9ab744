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
    /// A PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the
    /// RFC 9881 structure (feature `pkcs8`): truncated, trailing data, a wrong
    /// tag or CHOICE alternative, a non-minimal length, or a public key
    /// BIT STRING with unused bits.
    Der,
    /// The AlgorithmIdentifier of a PKCS#8 or SubjectPublicKeyInfo input is
    /// not this parameter set's OID, or carries parameters (RFC 9881 §2: they
    /// MUST be absent). Feature `pkcs8`.
    Algorithm,
    /// A PKCS#8 private key contradicts itself (feature `pkcs8`): the `both`
    /// form's expanded key is not the one its seed generates, or the
    /// OneAsymmetricKey `publicKey` is not the private key's (RFC 9881 §6, §9).
    InconsistentKey,
    /// The seed (or `both`) form was asked of a key loaded from the expanded
    /// form, which does not contain the seed (feature `pkcs8`).
    NoSeed,
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
            Self::Der => {
                f.write_str("ML-DSA PKCS#8/SPKI input is not valid DER of the RFC 9881 structure")
            }
            Self::Algorithm => {
                f.write_str("ML-DSA PKCS#8/SPKI algorithm identifier is not this parameter set's")
            }
            Self::InconsistentKey => f.write_str(
                "ML-DSA PKCS#8 private key is inconsistent (seed, expanded or public key)",
            ),
            Self::NoSeed => f.write_str("ML-DSA key has no seed (loaded from the expanded form)"),
            Self::PairwiseConsistency => {
                f.write_str("ML-DSA key pair failed its pair-wise consistency test (fault)")
            }
            Self::SelfTest => f.write_str("ML-DSA known-answer self-test failed (fault)"),
        }
    }
}

impl core::error::Error for Error {}

#[cfg(feature = "pkcs8")]
impl From<pqdr_common::asn1::Error> for Error {
    fn from(e: pqdr_common::asn1::Error) -> Self {
        use pqdr_common::asn1::Error as E;
        match e {
            E::Algorithm => Self::Algorithm,
            E::Length { expected, actual } => Self::Length { expected, actual },
            E::InconsistentKey => Self::InconsistentKey,
            _ => Self::Der,
        }
    }
}

/// `Ok(())` if `actual == expected`, else [`Error::Length`].
pub(crate) fn check_length(expected: usize, actual: usize) -> Result<(), Error> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::Length { expected, actual })
    }
}
