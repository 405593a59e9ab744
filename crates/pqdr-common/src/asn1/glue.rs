//! [`key_asn1_glue!`](crate::key_asn1_glue): the per-key-type methods and
//! trait impls of the primitive crates' `asn1` modules, written once.

/// Generates, for one public-key type and one private-key type of a
/// primitive crate, the inherent `from_spki_der` / `to_spki_der` /
/// `from_private_key_der` / `to_private_key_der` (and, under the caller's
/// feature `pem`, `from_spki_pem` / `to_spki_pem` / `from_private_key_pem`
/// / `to_private_key_pem`), `TryFrom<SubjectPublicKeyInfoRef>`,
/// `TryFrom<PrivateKeyInfoRef>`, and (caller's feature `alloc`)
/// `spki::EncodePublicKey` / `pkcs8::EncodePrivateKey`, in the caller's
/// crate. The caller passes each method's rustdoc and its key-format
/// specifics; the generated bodies only chain them with this module's
/// helpers:
///
/// - `oid`: the set's OID (an expression in the generic parameter).
/// - `error`: the crate's error type (`From<asn1::Error>`, `fn output`).
/// - `spki_bits: f, [u8; N]`: `f(&key, &mut [u8; N]) -> Result<&[u8], E>`,
///   the BIT STRING contents of a public key (`N` may be 0).
/// - `from_spki_bits: f`: `f(&[u8]) -> Result<PublicKey, E>`, the inverse.
/// - `private_bits: f, N`: `f(&key, [form,] &mut [u8; N]) -> Result<&[u8],
///   E>`, the `privateKey` OCTET STRING contents, written into a zeroizing
///   buffer.
/// - `from_parts: f`: `f(PrivateKeyParts) -> Result<PrivateKey, E>`.
/// - `form: name: Type = default_fn`: optional; an extra argument of the
///   two private-key encoders (the RFC 9935 / RFC 9881 CHOICE form), and
///   `default_fn(&key)` the one `EncodePrivateKey` uses.
///
/// The caller's crate must have the `der`, `spki`, `pkcs8` and `zeroize`
/// dependencies, features `alloc` and `pem` (the generated `#[cfg]`s are
/// evaluated there), and `extern crate alloc` under `pem` in the invoking
/// module. Classic McEliece does not use it: its OID is fallible (sets
/// without one) and its owned public key exists only with `alloc`.
#[doc(hidden)]
#[macro_export]
macro_rules! key_asn1_glue {
    (
        impl<$p:ident: $bound:path>;
        oid: $oid:expr;
        error: $err:ident;
        public $pk:ident {
            spki_bits: $bits:path, [u8; $bits_len:expr];
            from_spki_bits: $from_bits:path;
            $(#[$from_spki_der:meta])* from_spki_der;
            $(#[$to_spki_der:meta])* to_spki_der;
            $(#[$from_spki_pem:meta])* from_spki_pem;
            $(#[$to_spki_pem:meta])* to_spki_pem;
        }
        private $sk:ident {
            private_bits: $private:path, $private_len:expr;
            from_parts: $from_parts:path;
            $(form: $form:ident: $form_ty:ty = $default_form:path;)?
            $(#[$from_private_key_der:meta])* from_private_key_der;
            $(#[$to_private_key_der:meta])* to_private_key_der;
            $(#[$from_private_key_pem:meta])* from_private_key_pem;
            $(#[$to_private_key_pem:meta])* to_private_key_pem;
            $(#[$to_pkcs8_der:meta])* to_pkcs8_der;
        }
    ) => {
        impl<$p: $bound> $pk<$p> {
            $(#[$from_spki_der])*
            pub fn from_spki_der(der: &[u8]) -> Result<Self, $err> {
                $from_bits($crate::asn1::decode_spki(der, $oid)?)
            }

            $(#[$to_spki_der])*
            pub fn to_spki_der<'o>(&self, out: &'o mut [u8]) -> Result<&'o [u8], $err> {
                let mut buf = [0u8; $bits_len];
                let bits = $bits(self, &mut buf)?;
                $crate::asn1::spki_into($oid, bits, out).map_err($err::output)
            }
        }

        impl<$p: $bound> $sk<$p> {
            $(#[$from_private_key_der])*
            pub fn from_private_key_der(der: &[u8]) -> Result<Self, $err> {
                $from_parts($crate::asn1::decode_private_key(der, $oid)?)
            }

            $(#[$to_private_key_der])*
            pub fn to_private_key_der<'o>(
                &self,
                $($form: $form_ty,)?
                out: &'o mut [u8],
            ) -> Result<&'o [u8], $err> {
                let mut buf = ::zeroize::Zeroizing::new([0u8; $private_len]);
                let private = $private(self, $($form,)? &mut *buf)?;
                $crate::asn1::private_key_into($oid, private, out).map_err($err::output)
            }
        }

        #[cfg(feature = "pem")]
        impl<$p: $bound> $pk<$p> {
            $(#[$from_spki_pem])*
            pub fn from_spki_pem(pem: &str) -> Result<Self, $err> {
                let der = $crate::asn1::pem_to_der(pem, $crate::asn1::PUBLIC_KEY_LABEL)?;
                Self::from_spki_der(der.as_bytes())
            }

            $(#[$to_spki_pem])*
            pub fn to_spki_pem(
                &self,
                line_ending: ::pkcs8::LineEnding,
            ) -> Result<alloc::string::String, $err> {
                let mut buf = [0u8; $bits_len];
                let bits = $bits(self, &mut buf)?;
                Ok($crate::asn1::spki_pem($oid, bits, line_ending)?)
            }
        }

        #[cfg(feature = "pem")]
        impl<$p: $bound> $sk<$p> {
            $(#[$from_private_key_pem])*
            pub fn from_private_key_pem(pem: &str) -> Result<Self, $err> {
                let der = $crate::asn1::pem_to_der(pem, $crate::asn1::PRIVATE_KEY_LABEL)?;
                Self::from_private_key_der(der.as_bytes())
            }

            $(#[$to_private_key_pem])*
            pub fn to_private_key_pem(
                &self,
                $($form: $form_ty,)?
                line_ending: ::pkcs8::LineEnding,
            ) -> Result<::zeroize::Zeroizing<alloc::string::String>, $err> {
                let mut buf = ::zeroize::Zeroizing::new([0u8; $private_len]);
                let private = $private(self, $($form,)? &mut *buf)?;
                Ok($crate::asn1::private_key_pem($oid, private, line_ending)?)
            }
        }

        impl<$p: $bound> TryFrom<::spki::SubjectPublicKeyInfoRef<'_>> for $pk<$p> {
            type Error = ::spki::Error;

            fn try_from(spki: ::spki::SubjectPublicKeyInfoRef<'_>) -> Result<Self, ::spki::Error> {
                $crate::asn1::spki_key(&spki, $oid)
                    .map_err($err::from)
                    .and_then($from_bits)
                    .map_err(|e| $crate::asn1::spki_error(e == $err::Algorithm, spki.algorithm.oid))
            }
        }

        impl<$p: $bound> TryFrom<::pkcs8::PrivateKeyInfoRef<'_>> for $sk<$p> {
            type Error = ::pkcs8::Error;

            fn try_from(info: ::pkcs8::PrivateKeyInfoRef<'_>) -> Result<Self, ::pkcs8::Error> {
                $crate::asn1::private_key_parts(&info, $oid)
                    .map_err($err::from)
                    .and_then($from_parts)
                    .map_err(|e| $crate::asn1::pkcs8_error(e == $err::Algorithm, info.algorithm.oid))
            }
        }

        #[cfg(feature = "alloc")]
        impl<$p: $bound> ::spki::EncodePublicKey for $pk<$p> {
            fn to_public_key_der(&self) -> ::spki::Result<::der::Document> {
                let mut buf = [0u8; $bits_len];
                let bits = $bits(self, &mut buf).map_err(|_| ::spki::Error::KeyMalformed)?;
                $crate::asn1::spki_document($oid, bits)
            }
        }

        #[cfg(feature = "alloc")]
        impl<$p: $bound> ::pkcs8::EncodePrivateKey for $sk<$p> {
            $(#[$to_pkcs8_der])*
            fn to_pkcs8_der(&self) -> ::pkcs8::Result<::der::SecretDocument> {
                let mut buf = ::zeroize::Zeroizing::new([0u8; $private_len]);
                let private = $private(self, $($default_form(self),)? &mut *buf)
                    .map_err(|_| ::pkcs8::Error::KeyMalformed(::pkcs8::KeyError::Invalid))?;
                $crate::asn1::private_key_document($oid, private)
            }
        }
    };
}
