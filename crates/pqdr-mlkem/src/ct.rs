//! Constant-time comparison and selection, the only place with secret-dependent
//! choices. Everything goes through `subtle` (`ConstantTimeEq`,
//! `ConditionallySelectable`), whose `Choice` passes through an optimization
//! barrier, so LLVM cannot turn the select into a branch.

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

/// Accumulates the difference between bytes produced piece by piece and an
/// expected byte string, without looking at the accumulated value until
/// [`Compare::finish`].
pub(crate) struct Compare<'a> {
    expected: &'a [u8],
    diff: u8,
}

impl<'a> Compare<'a> {
    pub(crate) fn new(expected: &'a [u8]) -> Self {
        Self { expected, diff: 0 }
    }

    /// ORs the bitwise difference of `bytes` and `expected[offset..]` into the accumulator.
    #[inline(always)]
    pub(crate) fn update(&mut self, offset: usize, bytes: &[u8]) {
        let expected = &self.expected[offset..offset + bytes.len()];
        // A branch-free fold (no early exit); the total is only inspected
        // through `ct_eq` below.
        self.diff |= bytes
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    }

    /// `Choice(1)` iff every byte matched.
    pub(crate) fn finish(self) -> Choice {
        self.diff.ct_eq(&0)
    }
}

/// `out = if choice { a } else { b }`, byte by byte through `subtle`.
#[inline(always)]
pub(crate) fn select(out: &mut [u8; 32], a: &[u8; 32], b: &[u8; 32], choice: Choice) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = u8::conditional_select(y, x, choice);
    }
}

/// Constant-time equality of two byte strings of equal, public length.
#[inline(always)]
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> Choice {
    if a.len() != b.len() {
        return Choice::from(0);
    }
    let mut c = Compare::new(b);
    c.update(0, a);
    c.finish()
}
