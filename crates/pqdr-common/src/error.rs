//! The error boilerplate of the primitive crates, written once: what a
//! length error is about ([`Object`]), its sentence ([`write_length`]), and
//! [`error_boilerplate!`](crate::error_boilerplate), which gives a crate's
//! `Error` its `Display` (one full sentence per variant), its
//! `core::error::Error` impl, the `From<asn1::Error>` of the `pkcs8`
//! feature, and the crate-private `check_length`. Each crate's `error.rs`
//! keeps only its variants and their sentences.

use core::fmt;

/// What a length check was about; named in the error message. Public facts
/// only (never secret data).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Object {
    /// A KEM encapsulation (public) key.
    EncapsulationKey,
    /// A KEM decapsulation (secret) key.
    DecapsulationKey,
    /// A KEM ciphertext.
    Ciphertext,
    /// A signature verifying (public) key.
    VerifyingKey,
    /// A signing (secret) key.
    SigningKey,
    /// A signature.
    Signature,
    /// A key-generation seed.
    Seed,
    /// A pre-hashed message digest (HashML-DSA).
    Digest,
    /// A TLS hybrid client key share.
    ClientShare,
    /// A TLS hybrid server key share.
    ServerShare,
    /// A field inside a PKCS#8 / SubjectPublicKeyInfo encoding.
    DerField,
    /// A caller's output buffer (too small for what is written into it).
    Output,
}

impl Object {
    /// The object's name in an error sentence ("encapsulation key", ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::EncapsulationKey => "encapsulation key",
            Self::DecapsulationKey => "decapsulation key",
            Self::Ciphertext => "ciphertext",
            Self::VerifyingKey => "verifying key",
            Self::SigningKey => "signing key",
            Self::Signature => "signature",
            Self::Seed => "seed",
            Self::Digest => "pre-hash digest",
            Self::ClientShare => "client key share",
            Self::ServerShare => "server key share",
            Self::DerField => "PKCS#8/SPKI key field",
            Self::Output => "output buffer",
        }
    }
}

impl fmt::Display for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Writes the sentence of a length error of `algorithm` about `what`:
/// "An ML-KEM ciphertext must be 1088 bytes, but 1087 bytes were given." or,
/// for [`Object::Output`], "The output buffer of 10 bytes is too small for
/// the ML-KEM encoding of 1206 bytes."
///
/// # Errors
/// Those of the formatter.
pub fn write_length(
    f: &mut fmt::Formatter<'_>,
    algorithm: &str,
    what: Object,
    expected: usize,
    actual: usize,
) -> fmt::Result {
    if what == Object::Output {
        write!(
            f,
            "The output buffer of {actual} bytes is too small for the {algorithm} \
             encoding of {expected} bytes."
        )
    } else {
        // "An ML-KEM", "A Classic McEliece", "An X-Wing" ... by the first letter.
        let article = match algorithm.as_bytes().first() {
            Some(b'A' | b'E' | b'I' | b'M' | b'N' | b'O' | b'S' | b'X') => "An",
            _ => "A",
        };
        write!(
            f,
            "{article} {algorithm} {what} must be {expected} bytes, \
             but {actual} bytes were given."
        )
    }
}

/// The error boilerplate of a primitive crate, for an `Error` enum whose
/// variants are `Length { what: Object, expected: usize, actual: usize }`
/// and unit variants:
///
/// - `Display`: the [`write_length`] sentence for `Length`, the given
///   sentence for every other variant;
/// - `core::error::Error`;
/// - with `[pkcs8: Der, Algorithm, InconsistentKey],`: `From<pqdr_common::asn1::Error>` under the
///   calling crate's feature `pkcs8` (a DER field length becomes
///   `Length { what: Object::DerField, .. }`; the three other variants map
///   to the crate's variants of the same name, which must exist), and a
///   crate-private `Error::output` for the encoders' `map_err`, which turns
///   a length error into one about [`Object::Output`];
/// - a crate-private `check_length(what, expected, actual)`.
///
/// ```
/// # mod demo {
/// use pqdr_common::error::Object;
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// pub enum Error {
///     Length { what: Object, expected: usize, actual: usize },
///     InvalidKey,
/// }
/// pqdr_common::error_boilerplate! {
///     Error, algorithm = "Demo-KEM",
///     InvalidKey => "The Demo-KEM key failed its validity check.",
/// }
/// # pub fn run() {
/// let e = check_length(Object::Ciphertext, 4, 3).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "A Demo-KEM ciphertext must be 4 bytes, but 3 bytes were given."
/// );
/// # }
/// # }
/// # demo::run();
/// ```
#[macro_export]
macro_rules! error_boilerplate {
    (
        $error:ident, algorithm = $alg:literal,
        $( [pkcs8: $($asn1:ident),* $(,)?], )?
        $( $variant:ident => $msg:literal ),* $(,)?
    ) => {
        impl ::core::fmt::Display for $error {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match *self {
                    Self::Length { what, expected, actual } => {
                        $crate::error::write_length(f, $alg, what, expected, actual)
                    }
                    $( Self::$variant => f.write_str($msg), )*
                }
            }
        }

        impl ::core::error::Error for $error {}

        $(
            #[cfg(feature = "pkcs8")]
            impl ::core::convert::From<$crate::asn1::Error> for $error {
                fn from(e: $crate::asn1::Error) -> Self {
                    match e {
                        $( $crate::asn1::Error::$asn1 => Self::$asn1, )*
                        $crate::asn1::Error::Length { expected, actual } => Self::Length {
                            what: $crate::error::Object::DerField,
                            expected,
                            actual,
                        },
                        _ => Self::Der,
                    }
                }
            }

            #[cfg(feature = "pkcs8")]
            impl $error {
                /// The error of writing an encoding into the caller's `out`: a
                /// length error there is about the output buffer.
                #[allow(dead_code, reason = "not every crate writes DER")]
                pub(crate) fn output(e: $crate::asn1::Error) -> Self {
                    match e {
                        $crate::asn1::Error::Length { expected, actual } => Self::Length {
                            what: $crate::error::Object::Output,
                            expected,
                            actual,
                        },
                        other => other.into(),
                    }
                }
            }
        )?

        /// `Ok(())` if `actual == expected`, else the length error about `what`.
        #[allow(dead_code, reason = "not every crate checks lengths this way")]
        pub(crate) fn check_length(
            what: $crate::error::Object,
            expected: usize,
            actual: usize,
        ) -> ::core::result::Result<(), $error> {
            if actual == expected {
                Ok(())
            } else {
                Err($error::Length { what, expected, actual })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;

    struct Shown(&'static str, Object, usize, usize);

    impl fmt::Display for Shown {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_length(f, self.0, self.1, self.2, self.3)
        }
    }

    #[test]
    fn length_sentences_name_the_object_and_both_sizes() {
        assert_eq!(
            Shown("ML-KEM", Object::Ciphertext, 1088, 1087).to_string(),
            "An ML-KEM ciphertext must be 1088 bytes, but 1087 bytes were given."
        );
        assert_eq!(
            Shown("Classic McEliece", Object::EncapsulationKey, 3, 4).to_string(),
            "A Classic McEliece encapsulation key must be 3 bytes, but 4 bytes were given."
        );
        assert_eq!(
            Shown("ML-DSA", Object::Output, 1206, 10).to_string(),
            "The output buffer of 10 bytes is too small for the ML-DSA encoding of 1206 bytes."
        );
    }
}
