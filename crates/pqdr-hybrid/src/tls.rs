//! What the TLS 1.3 hybrid groups of draft-ietf-tls-ecdhe-mlkem share: the
//! 64-byte shared secret and the key-share byte types. Each group module
//! re-exports [`SharedSecret`] and defines its shares with [`key_share!`].

/// The 64-byte shared secret of a TLS hybrid group: its two 32-byte secrets
/// in the order the group fixes (`ss_ML-KEM ‖ ss_X25519` for X25519MLKEM768,
/// `ss_ECDH ‖ ss_ML-KEM` for SecP256r1MLKEM768; SecP384r1MLKEM1024 has its
/// own 80-byte secret), the `(EC)DHE` input of the
/// TLS 1.3 key schedule. The family's [`pqdr_common::SharedSecret`] at 64
/// bytes: zeroized on drop, compared in constant time, never printed.
pub type SharedSecret = pqdr_common::SharedSecret<64>;

/// `first ‖ second`, written in place.
pub(crate) fn concat(first: &[u8; 32], second: &[u8; 32]) -> SharedSecret {
    SharedSecret::new_with(|ss| {
        ss[..32].copy_from_slice(first);
        ss[32..].copy_from_slice(second);
    })
}

/// Defines a public key-share type of a group: a fixed-size byte array with
/// `as_bytes`, `from_slice` (length-checked) and `from_array`. The group
/// module adds the accessor of its own parts.
macro_rules! key_share {
    ($group:literal, $(#[$doc:meta])* $name:ident, $size:ident) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub struct $name([u8; $size]);

        impl $name {
            /// Wraps the `key_exchange` bytes received from the peer. Only
            /// the length is checked here; the parts are validated when they
            /// are used (the FIPS 203 §7.2 check of a client's ML-KEM key in
            /// `server_respond`, the peer's point in `finish`).
            ///
            /// # Errors
            /// [`Error::Length`] if `bytes` has the wrong length.
            pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
                $crate::error::check_length($crate::Object::$name, $size, bytes.len())?;
                let mut share = Self([0; $size]);
                share.0.copy_from_slice(bytes);
                Ok(share)
            }

            /// Renamed `from_slice`.
            ///
            /// # Errors
            /// As `from_slice`.
            #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                Self::from_slice(bytes)
            }

            /// Wraps a `key_exchange` array (infallible).
            pub fn from_array(bytes: &[u8; $size]) -> Self {
                Self(*bytes)
            }

            /// The `key_exchange` bytes.
            pub fn as_bytes(&self) -> &[u8; $size] {
                &self.0
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!($group, "::", stringify!($name), "({} bytes)"), $size)
            }
        }
    };
}
pub(crate) use key_share;
