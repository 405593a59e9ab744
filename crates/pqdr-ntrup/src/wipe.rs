//! Wiping large scratch buffers in place. `Zeroizing::new(value)` moves its
//! argument, and at opt-level `s` the compiler keeps the moved-from
//! temporary as a second copy in the same frame (twice the stack for the
//! reciprocal's scratch on a Cortex-M4); [`Wipe`] borrows the buffer instead,
//! so it exists once, and still wipes it on every exit path.

use core::ops::{Deref, DerefMut};
use zeroize::Zeroize;

/// Zeroizes the borrowed value when dropped.
pub(crate) struct Wipe<'a, T: Zeroize>(&'a mut T);

impl<'a, T: Zeroize> Wipe<'a, T> {
    /// Guards `value` (a local declared just before).
    #[inline(always)]
    pub(crate) fn new(value: &'a mut T) -> Self {
        Wipe(value)
    }
}

impl<T: Zeroize> Deref for Wipe<'_, T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        self.0
    }
}

impl<T: Zeroize> DerefMut for Wipe<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        self.0
    }
}

impl<T: Zeroize> Drop for Wipe<'_, T> {
    #[inline(always)]
    fn drop(&mut self) {
        self.0.zeroize();
    }
}
