//! An extendable-output function (XOF) as a random number generator: the
//! deterministic RNGs of the family (the ratchet's seeded KEM coins, the
//! mceliece pair-wise consistency test, benches) draw from an XOF stream
//! through [`XofRng`] instead of each writing the `rand_core` plumbing.
//!
//! [`Xof`] is implemented by `pqdr_keccak`'s SHAKE sponges and, with the
//! feature `blake3`, by `blake3::OutputReader`.

use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};
use zeroize::Zeroize;

/// A stream of output bytes: each call continues where the last one ended.
pub trait Xof {
    /// Fills `out` with the next `out.len()` bytes of the stream.
    fn squeeze(&mut self, out: &mut [u8]);
}

/// The RNG whose output is the XOF stream `X`, in order: `fill_bytes`
/// returns the next bytes, `next_u32` / `next_u64` the next 4 / 8 bytes read
/// little-endian. Infallible; a cryptographic RNG exactly when the stream
/// is unpredictable (a secret seed). The stream state is wiped on drop.
///
/// ```
/// use pqdr_common::xof::{Xof, XofRng};
/// use rand_core::Rng;
///
/// /// A toy stream 0, 1, 2, … (not a real XOF).
/// #[derive(Default)]
/// struct Counter(u8);
/// impl zeroize::Zeroize for Counter {
///     fn zeroize(&mut self) {
///         self.0 = 0;
///     }
/// }
/// impl Xof for Counter {
///     fn squeeze(&mut self, out: &mut [u8]) {
///         for b in out {
///             *b = self.0;
///             self.0 = self.0.wrapping_add(1);
///         }
///     }
/// }
///
/// let mut rng = XofRng::new(Counter::default());
/// assert_eq!(rng.next_u32(), 0x0302_0100);
/// let mut buf = [0u8; 2];
/// rng.fill_bytes(&mut buf);
/// assert_eq!(buf, [4, 5]);
/// ```
pub struct XofRng<X: Xof + Zeroize>(X);

impl<X: Xof + Zeroize> XofRng<X> {
    /// The RNG drawing from `xof`.
    pub const fn new(xof: X) -> Self {
        Self(xof)
    }
}

impl<X: Xof + Zeroize> core::fmt::Debug for XofRng<X> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("XofRng(..)")
    }
}

impl<X: Xof + Zeroize> Drop for XofRng<X> {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<X: Xof + Zeroize> TryRng for XofRng<X> {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.0.squeeze(&mut b);
        Ok(u32::from_le_bytes(b))
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.0.squeeze(&mut b);
        Ok(u64::from_le_bytes(b))
    }

    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.squeeze(dst);
        Ok(())
    }
}

impl<X: Xof + Zeroize> TryCryptoRng for XofRng<X> {}

#[cfg(feature = "blake3")]
impl Xof for blake3::OutputReader {
    #[inline]
    fn squeeze(&mut self, out: &mut [u8]) {
        self.fill(out);
    }
}

#[cfg(test)]
mod tests {
    use core::cell::Cell;

    use super::*;
    use rand_core::Rng;

    /// The stream 0, 1, 2, …; counts its wipes in `wipes`.
    struct Counter<'a> {
        next: u8,
        wipes: &'a Cell<u32>,
    }

    impl Xof for Counter<'_> {
        fn squeeze(&mut self, out: &mut [u8]) {
            for b in out {
                *b = self.next;
                self.next = self.next.wrapping_add(1);
            }
        }
    }

    impl Zeroize for Counter<'_> {
        fn zeroize(&mut self) {
            self.next = 0;
            self.wipes.set(self.wipes.get() + 1);
        }
    }

    #[test]
    fn draws_follow_the_stream_in_order() {
        let wipes = Cell::new(0);
        let mut rng = XofRng::new(Counter {
            next: 0,
            wipes: &wipes,
        });
        assert_eq!(rng.next_u32(), u32::from_le_bytes([0, 1, 2, 3]));
        assert_eq!(
            rng.next_u64(),
            u64::from_le_bytes([4, 5, 6, 7, 8, 9, 10, 11])
        );
        let mut buf = [0u8; 3];
        rng.fill_bytes(&mut buf);
        assert_eq!(buf, [12, 13, 14]);
        assert_eq!(wipes.get(), 0);
        drop(rng);
        assert_eq!(wipes.get(), 1, "the stream is wiped on drop");
    }
}
