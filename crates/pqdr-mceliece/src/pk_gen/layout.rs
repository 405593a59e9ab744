//! The buffer-layout planner of key generation (MatGen, Classic McEliece
//! Classic McEliece spec §2.4.3): where H_left, then A = H_left^-1, and the elimination's
//! record live inside the caller's public-key buffer, computed at compile
//! time per set and checked to fit.

use super::MAX_MT;
use super::eliminate::record_bytes_of;
use super::rows::PIVOT_ROW_BYTES;

/// 64-bit words of an H_left row: the first mt columns of H, plus the 32
/// window columns of the semi-systematic form for the `f` sets (`semi`).
pub(super) const fn left_words(mt: usize, semi: bool) -> usize {
    (mt + if semi { 32 } else { 0 }).div_ceil(64)
}

/// Where key generation keeps its work in the public-key buffer: H_left (or
/// A after it) at the end, the elimination's record just before.
pub(super) struct Layout {
    /// Rows of H_left and of A (mt).
    mt: usize,
    /// 64-bit words of H_left's columns in a row ([`left_words`]).
    pub(super) left_words: usize,
    /// Bytes per row of H_left as stored (a multiple of 16).
    pub(super) left_stride: usize,
    /// Bytes per row of A as stored (a multiple of 16).
    pub(super) a_stride: usize,
    /// Bytes at the end of pk for H_left, then A.
    pub(super) tail: usize,
    /// Bytes of the record.
    pub(super) record: usize,
}

impl Layout {
    /// The work layout of the set with mt rows (`semi`: an `f` set).
    pub(super) const fn of(mt: usize, semi: bool) -> Self {
        let left_words = left_words(mt, semi);
        let left_stride = (8 * left_words).next_multiple_of(16);
        let a_stride = (8 * mt.div_ceil(64)).next_multiple_of(16);
        Layout {
            mt,
            left_words,
            left_stride,
            a_stride,
            tail: mt
                * if left_stride > a_stride {
                    left_stride
                } else {
                    a_stride
                },
            record: record_bytes_of(mt, semi),
        }
    }

    /// Whether it fits a public-key buffer of `pk_bytes`, the pivot-row
    /// buffers and the row buffers sized by [`MAX_MT`].
    pub(super) const fn fits(&self, pk_bytes: usize) -> bool {
        self.tail + self.record <= pk_bytes
            && self.left_stride <= PIVOT_ROW_BYTES
            && self.a_stride <= PIVOT_ROW_BYTES
            && self.mt <= MAX_MT
    }
}
