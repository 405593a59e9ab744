//! Wiping large scratch buffers in place. `Zeroizing::new(value)` moves its
//! argument, and at opt-level `s` the compiler keeps the moved-from
//! temporary as a second copy in the same frame (twice the stack for the
//! reciprocal's scratch on a Cortex-M4); [`Wipe`] borrows the buffer instead,
//! so it exists once, and still wipes it on every exit path.
//!
//! With AVX2, the integer buffers (the products' i16 scratch and
//! transforms, the i8 polynomials, byte strings, `Short_random`'s u32 list)
//! are wiped by 32-byte stores (`arch::wipe`), not by `zeroize`'s volatile
//! writes of one entry each; without it by `zeroize`.

use crate::arch;
use core::ops::{Deref, DerefMut};
use zeroize::Zeroize;

/// A buffer [`Wipe`] can guard.
pub(crate) trait Wipeable {
    /// Sets every entry to zero, in a way the compiler keeps.
    fn wipe(&mut self);
}

/// `x ← 0`: AVX2 stores when available, else `zeroize`.
#[inline(always)]
fn wipe_plain<T: arch::Plain>(x: &mut [T])
where
    [T]: Zeroize,
{
    match arch::avx2() {
        Some(token) => arch::wipe(token, x),
        None => x.zeroize(),
    }
}

impl<T: arch::Plain, const N: usize> Wipeable for [T; N]
where
    [T]: Zeroize,
{
    #[inline(always)]
    fn wipe(&mut self) {
        wipe_plain(self);
    }
}

impl<T: arch::Plain, const N: usize, const K: usize> Wipeable for [[T; N]; K]
where
    [T]: Zeroize,
{
    #[inline(always)]
    fn wipe(&mut self) {
        wipe_plain(self.as_flattened_mut());
    }
}

/// Transforms in parts (the 512-point products' `[Part; k]`).
impl<const N: usize, const K: usize, const M: usize> Wipeable for [[[i16; N]; K]; M] {
    #[inline(always)]
    fn wipe(&mut self) {
        wipe_plain(self.as_flattened_mut().as_flattened_mut());
    }
}

impl<const P: usize> Wipeable for arch::RecipState<P> {
    #[inline(always)]
    fn wipe(&mut self) {
        wipe_plain(self.c.as_flattened_mut());
        wipe_plain(&mut self.tail);
    }
}

impl<const P: usize> Wipeable for arch::ListScratch<P> {
    #[inline(always)]
    fn wipe(&mut self) {
        wipe_plain(self.s.as_flattened_mut());
    }
}

/// Wipes the borrowed value when dropped.
pub(crate) struct Wipe<'a, T: Wipeable>(&'a mut T);

impl<'a, T: Wipeable> Wipe<'a, T> {
    /// Guards `value` (a local declared just before).
    #[inline(always)]
    pub(crate) fn new(value: &'a mut T) -> Self {
        Wipe(value)
    }
}

impl<T: Wipeable> Deref for Wipe<'_, T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        self.0
    }
}

impl<T: Wipeable> DerefMut for Wipe<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        self.0
    }
}

impl<T: Wipeable> Drop for Wipe<'_, T> {
    #[inline(always)]
    fn drop(&mut self) {
        self.0.wipe();
    }
}
