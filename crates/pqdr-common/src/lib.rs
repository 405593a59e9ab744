#![no_std]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

#[cfg(any(feature = "alloc", feature = "test-utils"))]
extern crate alloc;

#[cfg(feature = "pkcs8")]
pub mod asn1;
pub mod ct;
pub mod error;
pub mod hex;
#[cfg(feature = "self-test")]
pub mod self_test;
pub mod simd;
#[cfg(feature = "test-utils")]
pub mod test_support;
pub mod xof;

use core::fmt;
use core::hash::Hash;

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Size of a shared secret in bytes (32 for every KEM of the family).
pub const SHARED_SECRET_SIZE: usize = 32;

/// An `N`-byte shared secret (32 bytes unless said otherwise: every KEM of
/// the family; the TLS hybrid groups of `pqdr-hybrid` use
/// `SharedSecret<64>`). Zeroized on drop, compared in constant time, never
/// printed.
///
/// ```
/// use pqdr_common::SharedSecret;
///
/// let a: SharedSecret = SharedSecret::new_with(|b| b[0] = 1);
/// let b = SharedSecret::<64>::from([1; 64]);
/// assert_eq!(a.as_bytes()[..2], [1, 0]);
/// assert_eq!(b.as_bytes().len(), 64);
/// assert_eq!(format!("{b:?}"), "SharedSecret(…)");
/// ```
#[derive(Clone)]
pub struct SharedSecret<const N: usize = SHARED_SECRET_SIZE>([u8; N]);

impl<const N: usize> SharedSecret<N> {
    /// Builds a secret in place: `fill` writes the bytes into the secret's own
    /// storage, so the KEM crates need no second stack copy to wipe.
    pub fn new_with(fill: impl FnOnce(&mut [u8; N])) -> Self {
        let mut secret = Self([0; N]);
        fill(&mut secret.0);
        secret
    }

    /// [`Self::new_with`] for a fill that can fail; nothing of a failed fill
    /// survives (the partial secret is zeroized on drop).
    ///
    /// # Errors
    /// The error of `fill`.
    pub fn try_new_with<E>(fill: impl FnOnce(&mut [u8; N]) -> Result<(), E>) -> Result<Self, E> {
        let mut secret = Self([0; N]);
        fill(&mut secret.0)?;
        Ok(secret)
    }

    /// The secret bytes.
    pub const fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }
}

impl<const N: usize> From<[u8; N]> for SharedSecret<N> {
    fn from(bytes: [u8; N]) -> Self {
        Self(bytes)
    }
}

impl<const N: usize> ConstantTimeEq for SharedSecret<N> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.ct_eq(&other.0)
    }
}

impl<const N: usize> PartialEq for SharedSecret<N> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl<const N: usize> Eq for SharedSecret<N> {}

impl<const N: usize> fmt::Debug for SharedSecret<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedSecret(…)")
    }
}

impl<const N: usize> Zeroize for SharedSecret<N> {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl<const N: usize> Drop for SharedSecret<N> {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<const N: usize> ZeroizeOnDrop for SharedSecret<N> {}

/// A fixed-size byte array (`[u8; N]`): the storage of keys, ciphertexts and
/// signatures. Sealed: only `[u8; N]` implements it.
pub trait ByteArray:
    AsRef<[u8]>
    + AsMut<[u8]>
    + Clone
    + Copy
    + fmt::Debug
    + Eq
    + Hash
    + Send
    + Sync
    + Zeroize
    + 'static
    + sealed::Sealed
{
    /// The array length in bytes.
    const LEN: usize;
    /// An all-zero array.
    fn zeroed() -> Self;
    /// A copy of `bytes`, or `None` if its length is not [`Self::LEN`]
    /// (the caller turns that into its own length error).
    fn from_slice(bytes: &[u8]) -> Option<Self> {
        let mut out = Self::zeroed();
        if bytes.len() != Self::LEN {
            return None;
        }
        out.as_mut().copy_from_slice(bytes);
        Some(out)
    }
}

impl<const N: usize> sealed::Sealed for [u8; N] {}

impl<const N: usize> ByteArray for [u8; N] {
    const LEN: usize = N;
    fn zeroed() -> Self {
        [0; N]
    }
}

mod sealed {
    /// Keeps [`ByteArray`](super::ByteArray) implemented by `[u8; N]` only.
    pub trait Sealed {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroize_clears_the_bytes() {
        let mut s = SharedSecret::from([0xA5; SHARED_SECRET_SIZE]);
        s.zeroize();
        assert_eq!(s.as_bytes(), &[0; SHARED_SECRET_SIZE]);
    }

    #[test]
    fn equality_is_bytewise() {
        let a = SharedSecret::new_with(|b| b[31] = 1);
        let b = SharedSecret::from([0; SHARED_SECRET_SIZE]);
        assert_ne!(a, b);
        assert_eq!(a, a.clone());
        let c = SharedSecret::<64>::new_with(|b| b[63] = 1);
        assert_ne!(c, SharedSecret::from([0; 64]));
        assert_eq!(c, SharedSecret::from(*c.as_bytes()));
    }

    #[test]
    fn from_slice_checks_the_length() {
        assert_eq!(<[u8; 3]>::from_slice(&[1, 2, 3]), Some([1, 2, 3]));
        assert_eq!(<[u8; 3]>::from_slice(&[1, 2]), None);
        assert_eq!(<[u8; 3]>::from_slice(&[1, 2, 3, 4]), None);
    }
}
