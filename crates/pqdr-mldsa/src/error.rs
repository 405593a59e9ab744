//! The crate's error: why an input was rejected or a signature did not
//! verify (FIPS 204 §5 context limit, §7.2 key decoding, Algorithm 8).

pub use pqdr_common::error::Object;

/// An input was rejected or a signature is invalid. Carries only public
/// facts (lengths), never secret data.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A byte slice had the wrong length for the key or signature it was
    /// parsed as, or a HashML-DSA digest did not have its pre-hash function's
    /// output length (FIPS 204 §5.4).
    Length {
        /// What had the wrong length: the key, ciphertext or other input,
        /// or [`Object::Output`] for a DER encoder's too-small `out` buffer
        /// (`expected` is then the encoding's size).
        what: Object,
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

pqdr_common::error_boilerplate! {
    Error, algorithm = "ML-DSA",
    [pkcs8: Der, Algorithm, InconsistentKey],
    InvalidKey =>
        "The ML-DSA signing key failed the FIPS 204 skDecode check: an s1 or s2 coefficient is outside [-eta, eta], or t0 and tr are not the ones rho, s1 and s2 imply.",
    ContextTooLong =>
        "The ML-DSA context string is longer than 255 bytes (FIPS 204 Algorithms 2-5).",
    InvalidSignature =>
        "The ML-DSA signature does not verify (FIPS 204 Algorithm 8).",
    Der =>
        "The ML-DSA PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the RFC 9881 structure.",
    Algorithm =>
        "The ML-DSA PKCS#8 or SubjectPublicKeyInfo algorithm identifier is not this parameter set's OID without parameters.",
    InconsistentKey =>
        "The ML-DSA PKCS#8 private key contradicts itself: its expanded key is not the one its seed generates, or its public key is not the private key's.",
    NoSeed =>
        "The ML-DSA signing key has no seed: it was loaded from the expanded form.",
    PairwiseConsistency =>
        "The new ML-DSA key pair failed its pair-wise consistency test (a hardware or memory fault); discard the keys.",
    SelfTest =>
        "The ML-DSA known-answer self-test gave a wrong answer (a faulty implementation or hardware); do not use it.",
}
