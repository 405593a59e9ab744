#![no_std]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

#[cfg(any(feature = "alloc", feature = "test-support"))]
extern crate alloc;

#[cfg(feature = "pkcs8")]
pub mod asn1;
pub mod error;
pub mod simd;
#[cfg(feature = "test-support")]
pub mod test_support;

use core::fmt;
use core::hash::Hash;

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Size of a shared secret in bytes (32 for every KEM of the family).
pub const SHARED_SECRET_SIZE: usize = 32;

/// A 32-byte shared secret. Zeroized on drop, compared in constant time,
/// never printed.
#[derive(Clone)]
pub struct SharedSecret([u8; SHARED_SECRET_SIZE]);

impl SharedSecret {
    /// Builds a secret in place: `fill` writes the bytes into the secret's own
    /// storage, so the KEM crates need no second stack copy to wipe.
    pub fn new_with(fill: impl FnOnce(&mut [u8; SHARED_SECRET_SIZE])) -> Self {
        let mut secret = Self([0; SHARED_SECRET_SIZE]);
        fill(&mut secret.0);
        secret
    }

    /// [`Self::new_with`] for a fill that can fail; nothing of a failed fill
    /// survives (the partial secret is zeroized on drop).
    ///
    /// # Errors
    /// The error of `fill`.
    pub fn try_new_with<E>(
        fill: impl FnOnce(&mut [u8; SHARED_SECRET_SIZE]) -> Result<(), E>,
    ) -> Result<Self, E> {
        let mut secret = Self([0; SHARED_SECRET_SIZE]);
        fill(&mut secret.0)?;
        Ok(secret)
    }

    /// The secret bytes.
    pub const fn as_bytes(&self) -> &[u8; SHARED_SECRET_SIZE] {
        &self.0
    }
}

impl From<[u8; SHARED_SECRET_SIZE]> for SharedSecret {
    fn from(bytes: [u8; SHARED_SECRET_SIZE]) -> Self {
        Self(bytes)
    }
}

impl ConstantTimeEq for SharedSecret {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.ct_eq(&other.0)
    }
}

impl PartialEq for SharedSecret {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for SharedSecret {}

impl fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedSecret(…)")
    }
}

impl Zeroize for SharedSecret {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl ZeroizeOnDrop for SharedSecret {}

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
    }

    #[test]
    fn from_slice_checks_the_length() {
        assert_eq!(<[u8; 3]>::from_slice(&[1, 2, 3]), Some([1, 2, 3]));
        assert_eq!(<[u8; 3]>::from_slice(&[1, 2]), None);
        assert_eq!(<[u8; 3]>::from_slice(&[1, 2, 3, 4]), None);
    }
}
