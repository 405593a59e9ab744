//! The crate's error: why a byte string was rejected as a key or a
//! ciphertext, or why an explicit input of a deterministic entry point was
//! rejected.

pub use pqdr_common::error::Object;

/// An input was rejected. Carries only public facts (lengths), never secret
/// data; decapsulation itself never fails (implicit rejection, NTRU Prime
/// spec §2.3.8 `Decap`).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A byte slice had the wrong length for the key or ciphertext it was
    /// parsed as.
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
    /// A decapsulation key of the right length failed key decoding: `f` or
    /// `1/g` is not a valid `Small_encode` string (the form the secret-key
    /// encoding of NTRU Prime spec §3.1 produces), or the stored `Hash4(pk)`
    /// does not match the embedded public key. (Every byte string of the
    /// right length is an encapsulation key: `Rq_decode` reduces.)
    InvalidKey,
    /// An explicit input of a deterministic entry point is not valid:
    /// `r_enc` or `f_enc` is not `Small_encode` of a weight-w polynomial
    /// (`Short`), or `g_enc` is not a valid `Small_encode` string of a `g`
    /// invertible in R/3 (NTRU Prime spec §2.3, Core `KeyGen`).
    InvalidInput,
    /// A PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the
    /// BouncyCastle structure (feature `pkcs8`): truncated, trailing data, a
    /// wrong tag, a non-minimal length, a BIT STRING with unused bits, or a
    /// private-key SEQUENCE without exactly five OCTET STRINGs.
    Der,
    /// The AlgorithmIdentifier of a PKCS#8 or SubjectPublicKeyInfo input is
    /// not this parameter set's OID, or carries parameters (feature `pkcs8`).
    Algorithm,
    /// A PKCS#8 OneAsymmetricKey `publicKey` is not the private key's own
    /// (feature `pkcs8`).
    InconsistentKey,
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
    Error, algorithm = "NTRU Prime",
    [pkcs8: Der, Algorithm, InconsistentKey],
    InvalidKey =>
        "The NTRU Prime decapsulation key failed key decoding: f or 1/g is not a valid Small_encode string, or the stored Hash4(pk) does not match its public key.",
    InvalidInput =>
        "The NTRU Prime deterministic input is invalid: r or f is not the encoding of a weight-w polynomial, or g is not invertible in R/3.",
    Der =>
        "The NTRU Prime PKCS#8 or SubjectPublicKeyInfo input is not valid DER of the BouncyCastle structure.",
    Algorithm =>
        "The NTRU Prime PKCS#8 or SubjectPublicKeyInfo algorithm identifier is not this parameter set's OID without parameters.",
    InconsistentKey =>
        "The NTRU Prime PKCS#8 public key is not the private key's own.",
    PairwiseConsistency =>
        "The new NTRU Prime key pair failed its pair-wise consistency test (a hardware or memory fault); discard the keys.",
    SelfTest =>
        "The NTRU Prime known-answer self-test gave a wrong answer (a faulty implementation or hardware); do not use it.",
}
