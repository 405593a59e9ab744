//! The crate's error: why a byte string was rejected as a key or a
//! ciphertext (FIPS 203 §7.2, §7.3 input checks).

pub use pqdr_common::error::Object;

/// An input was rejected. Carries only public facts (lengths), never
/// secret data; decapsulation itself never fails (implicit rejection,
/// FIPS 203 Algorithm 18).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A byte slice had the wrong length for the key or ciphertext it was
    /// parsed as (FIPS 203 §7.2 check 1, §7.3 checks 1 and 2).
    Length {
        /// What had the wrong length: the key, ciphertext or other input,
        /// or [`Object::Output`] for a DER encoder's too-small `out` buffer
        /// (`expected` is then the encoding's size).
        what: Object,
        /// The length the type requires.
        expected: usize,
        /// The length of the slice given.
        actual: usize,
    },
    /// A key of the right length failed the FIPS 203 validity check: the
    /// §7.2 modulus check (every 12-bit coefficient of `ek` is below `q`,
    /// for an encapsulation key and for the `ek` embedded in a
    /// decapsulation key) or the §7.3 hash check (the `H(ek)` stored in a
    /// decapsulation key matches its `ek`).
    InvalidKey,
    /// A PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the
    /// RFC 9935 structure (feature `pkcs8`): truncated, trailing data, a wrong
    /// tag or CHOICE alternative, a non-minimal length, or a public key
    /// BIT STRING with unused bits.
    Der,
    /// The AlgorithmIdentifier of a PKCS#8 or SubjectPublicKeyInfo input is
    /// not this parameter set's OID, or carries parameters (RFC 9935 §3: they
    /// MUST be absent). Feature `pkcs8`.
    Algorithm,
    /// A PKCS#8 private key contradicts itself (feature `pkcs8`): the `both`
    /// form's expanded key is not the one its seed generates, or the
    /// OneAsymmetricKey `publicKey` is not the private key's (RFC 9935 §6, §8).
    InconsistentKey,
    /// The seed (or `both`) form was asked of a key loaded from the expanded
    /// form, which does not contain the seed (feature `pkcs8`).
    NoSeed,
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

pqdr_common::error_boilerplate! {
    Error, algorithm = "ML-KEM",
    [pkcs8: Der, Algorithm, InconsistentKey],
    InvalidKey =>
        "The ML-KEM key failed the FIPS 203 input check: a coefficient of the encapsulation key is not below q (§7.2), or the H(ek) stored in the decapsulation key does not match its ek (§7.3).",
    Der =>
        "The ML-KEM PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the RFC 9935 structure.",
    Algorithm =>
        "The ML-KEM PKCS#8 or SubjectPublicKeyInfo algorithm identifier is not this parameter set's OID without parameters.",
    InconsistentKey =>
        "The ML-KEM PKCS#8 private key contradicts itself: its expanded key is not the one its seed generates, or its public key is not the private key's.",
    NoSeed =>
        "The ML-KEM decapsulation key has no seed: it was loaded from the expanded form.",
    PairwiseConsistency =>
        "The new ML-KEM key pair failed its pair-wise consistency test (a hardware or memory fault); discard the keys.",
    SelfTest =>
        "The ML-KEM known-answer self-test gave a wrong answer (a faulty implementation or hardware); do not use it.",
}

/// The input checks of a key (FIPS 203 §7.2, §7.3): the length, then the
/// validity check `valid` on bytes of the right length.
pub(crate) fn check_key(
    what: Object,
    expected: usize,
    bytes: &[u8],
    valid: impl FnOnce(&[u8]) -> bool,
) -> Result<(), Error> {
    check_length(what, expected, bytes.len())?;
    if valid(bytes) {
        Ok(())
    } else {
        Err(Error::InvalidKey)
    }
}
