//! The crate's error: why untrusted bytes were rejected (Classic McEliece
//! spec §3, data formats). Decapsulation itself never fails (implicit
//! rejection, Classic McEliece spec §8.3).

pub use pqdr_common::error::Object;

/// Why an input was rejected. Carries lengths and the kind of check only,
/// never secret data.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A slice had the wrong length (for streamed public keys: more or fewer
    /// bytes than a public key has).
    Length {
        /// What had the wrong length: the key, ciphertext or other input,
        /// or [`Object::Output`] for a DER encoder's too-small `out` buffer
        /// (`expected` is then the encoding's size).
        what: Object,
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

pqdr_common::error_boilerplate! {
    Error, algorithm = "Classic McEliece",
    [pkcs8: Der, Algorithm, InconsistentKey],
    InvalidKey =>
        "The Classic McEliece key failed the format check: nonzero padding bits in a public key, or a secret key with a wrong pivot word or Goppa coefficients wider than m bits.",
    InvalidCiphertext =>
        "The Classic McEliece ciphertext has nonzero padding bits at the end of C0.",
    Der =>
        "The Classic McEliece PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the BouncyCastle structure.",
    Algorithm =>
        "The Classic McEliece PKCS#8 or SubjectPublicKeyInfo algorithm identifier is not this parameter set's OID without parameters, or the set has no OID.",
    InconsistentKey =>
        "The Classic McEliece PKCS#8 private key does not regenerate from its delta, or its public key is not the key's own.",
    Unverifiable =>
        "The Classic McEliece PKCS#8 public key cannot be checked without alloc; use DecapsulationKey::from_private_key_der_into.",
    PairwiseConsistency =>
        "The new Classic McEliece key pair failed its pair-wise consistency test (a hardware or memory fault); discard the keys.",
    SelfTest =>
        "The Classic McEliece known-answer self-test gave a wrong answer (a faulty implementation or hardware); do not use it.",
}
