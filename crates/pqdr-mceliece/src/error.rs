//! The crate's error: why untrusted bytes were rejected (Classic McEliece
//! spec §3, data formats). Decapsulation itself never fails (implicit
//! rejection, Classic McEliece spec §8.3).

use core::fmt;

/// Why an input was rejected. Carries lengths and the kind of check only,
/// never secret data.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A slice had the wrong length (for streamed public keys: more or fewer
    /// bytes than a public key has).
    Length {
        /// The length the set requires.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// A key of the right length failed the spec's format check: a public key
    /// with nonzero padding bits at the end of a row of T (Classic McEliece
    /// spec §3.1; only the 6960119 sets have padding), or a secret key whose
    /// pivot word c is not 2^32 - 1 (systematic sets) or of weight 32 (`f`
    /// sets), or whose Goppa coefficients do not fit in m bits (Classic
    /// McEliece spec §3.3).
    InvalidKey,
    /// A ciphertext of the right length has nonzero padding bits at the end
    /// of C0 (Classic McEliece spec §3.2; only the 6960119 sets have padding).
    InvalidCiphertext,
    /// A PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the
    /// BouncyCastle structure (feature `pkcs8`): truncated, trailing data, a
    /// wrong tag, a non-minimal length, a BIT STRING with unused bits.
    Der,
    /// The AlgorithmIdentifier of a PKCS#8 or SubjectPublicKeyInfo input is
    /// not this parameter set's OID or carries parameters, or the set has
    /// no OID (the `mceliece348864*` sets; feature `pkcs8`).
    Algorithm,
    /// A PKCS#8 private key does not regenerate from its delta, or its
    /// OneAsymmetricKey `publicKey` is not the key's own (feature `pkcs8`).
    InconsistentKey,
    /// A PKCS#8 private key carries a `publicKey` that this build cannot
    /// check (no `alloc` for the regenerated public key): use
    /// `DecapsulationKey::from_private_key_der_into` (feature `pkcs8`).
    Unverifiable,
    /// The pair-wise consistency test after key generation failed: the new
    /// key pair did not decapsulate its own encapsulation to the same shared
    /// secret (feature `self-test`, FIPS 140-3 IG 10.3.A). No input can cause
    /// it, only a fault in the hardware or memory (or a bug); discard the keys.
    PairwiseConsistency,
    /// A known-answer self-test gave a wrong answer (feature `self-test`,
    /// `self_test()`): the implementation or the hardware is faulty and must
    /// not be used.
    SelfTest,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length { expected, actual } => write!(
                f,
                "wrong Classic McEliece input length: expected {expected} bytes, got {actual}"
            ),
            Self::InvalidKey => f.write_str("malformed Classic McEliece key"),
            Self::InvalidCiphertext => f.write_str("malformed Classic McEliece ciphertext"),
            Self::Der => f.write_str(
                "Classic McEliece PKCS#8/SPKI input is not valid DER of the BouncyCastle structure",
            ),
            Self::Algorithm => f.write_str(
                "Classic McEliece PKCS#8/SPKI algorithm identifier is not this set's (or it has none)",
            ),
            Self::InconsistentKey => f.write_str(
                "Classic McEliece PKCS#8 key does not regenerate from its delta or public key",
            ),
            Self::Unverifiable => f.write_str(
                "Classic McEliece PKCS#8 public key cannot be checked without alloc",
            ),
            Self::PairwiseConsistency => f.write_str(
                "Classic McEliece key pair failed its pair-wise consistency test (fault)",
            ),
            Self::SelfTest => f.write_str("Classic McEliece known-answer self-test failed (fault)"),
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
