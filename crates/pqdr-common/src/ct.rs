//! Constant-time helpers shared by the primitive crates: the only masks,
//! selects and comparisons on secret data outside each crate's spec-specific
//! arithmetic (docs/constant-time.md).
//!
//! One style throughout:
//! - a decision is a [`Choice`] (from `subtle`, whose byte passes an
//!   optimisation barrier) or an all-zero / all-one mask word derived from
//!   one ([`mask_i8`] …), never a `bool`;
//! - value tests give masks with wrapping arithmetic ([`nonzero_mask_u64`],
//!   [`eq_mask_u8`], [`lt_mask_u16`]) or a [`Choice`] ([`nonzero_i32`]);
//! - [`opaque`] (`core::hint::black_box`) hides a value the optimiser could
//!   otherwise prove to be 0 or all-ones and turn back into a branch;
//! - byte strings are compared and selected without early exit
//!   ([`Compare`], [`bytes_eq`], [`select`], [`cmov_bytes`]).
//!
//! Every function is `#[inline(always)]`: they are parts of the callers'
//! loops, and the constant-time checks (`scripts/ct-check.sh`) run on the
//! callers' tests.
//!
//! ```
//! use pqdr_common::ct;
//!
//! assert_eq!(ct::mask_i16(ct::choice_from_bit(1)), -1);
//! assert_eq!(ct::eq_mask_u8(7, 7), 0xff);
//! assert_eq!(ct::cswap_i8(1, 2, ct::mask_i8(ct::nonzero_i32(5))), (2, 1));
//! assert!(bool::from(ct::bytes_eq(b"abc", b"abc")));
//! let mut out = [0u8; 3];
//! ct::select(&mut out, b"abc", b"xyz", ct::Choice::from(0));
//! assert_eq!(&out, b"xyz");
//! ```

pub use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

/// Hides `x` from the optimiser (`core::hint::black_box`), so a mask stays a
/// mask: without it LLVM may prove that a value is 0 or all-ones and turn
/// `x ^= y & mask` back into a branch.
#[inline(always)]
pub fn opaque<T>(x: T) -> T {
    core::hint::black_box(x)
}

/// The [`Choice`] of a value known to be 0 or 1 (only bit 0 is used).
#[inline(always)]
pub fn choice_from_bit(bit: u8) -> Choice {
    Choice::from(bit & 1)
}

macro_rules! mask_from_choice {
    ($($name:ident: $t:ty),*) => {$(
        #[doc = concat!("All-ones `", stringify!($t), "` if `c` is set, else 0.")]
        #[inline(always)]
        pub fn $name(c: Choice) -> $t {
            <$t>::from(c.unwrap_u8()).wrapping_neg()
        }
    )*};
}
mask_from_choice!(mask_i16: i16, mask_i32: i32, mask_u8: u8, mask_u16: u16, mask_u32: u32, mask_u64: u64);

/// All-ones `i8` if `c` is set, else 0.
#[inline(always)]
pub fn mask_i8(c: Choice) -> i8 {
    #[allow(clippy::cast_possible_wrap, reason = "0 or 1")]
    let b = c.unwrap_u8() as i8;
    b.wrapping_neg()
}

/// `u64::MAX` if `x != 0`, else 0.
#[inline(always)]
pub fn nonzero_mask_u64(x: u64) -> u64 {
    // (x | -x) has its top bit set exactly when x != 0.
    ((x | x.wrapping_neg()) >> 63).wrapping_neg()
}

/// 0xff if `a == b`, else 0.
#[inline(always)]
pub fn eq_mask_u8(a: u8, b: u8) -> u8 {
    // (a ^ b) - 1 borrows into the high byte exactly when a ^ b == 0.
    #[allow(clippy::cast_possible_truncation, reason = "the borrow byte")]
    let m = (u16::from(a ^ b).wrapping_sub(1) >> 8) as u8;
    m
}

/// 0xffff if `a == b`, else 0.
#[inline(always)]
pub fn eq_mask_u16(a: u16, b: u16) -> u16 {
    #[allow(clippy::cast_possible_truncation, reason = "0 or all ones")]
    let m = !(nonzero_mask_u64(u64::from(a ^ b)) as u16);
    m
}

/// 0xffff if `a < b`, else 0.
#[inline(always)]
pub fn lt_mask_u16(a: u16, b: u16) -> u16 {
    // The 32-bit difference borrows into bit 31 exactly when a < b.
    let d = u32::from(a).wrapping_sub(u32::from(b));
    #[allow(clippy::cast_possible_truncation, reason = "0 or 1")]
    let m = ((d >> 31) as u16).wrapping_neg();
    m
}

/// `min(a, b)` without a branch.
#[inline(always)]
pub fn min_u16(a: u16, b: u16) -> u16 {
    a ^ ((a ^ b) & lt_mask_u16(b, a))
}

/// Set if `x != 0` (for `|x| < 2^31`).
#[inline(always)]
pub fn nonzero_i32(x: i32) -> Choice {
    #[allow(
        clippy::cast_sign_loss,
        clippy::cast_possible_truncation,
        reason = "bit extraction"
    )]
    let bit = ((x | x.wrapping_neg()) as u32 >> 31) as u8;
    choice_from_bit(bit)
}

/// Set if `x > 0` (for `|x| < 2^31`).
#[inline(always)]
pub fn positive_i32(x: i32) -> Choice {
    #[allow(
        clippy::cast_sign_loss,
        clippy::cast_possible_truncation,
        reason = "bit extraction"
    )]
    let bit = (x.wrapping_neg() as u32 >> 31) as u8;
    choice_from_bit(bit)
}

macro_rules! cswap {
    ($($name:ident: $t:ty),*) => {$(
        #[doc = concat!("`(b, a)` if `mask` is all ones, `(a, b)` if it is 0 (a mask from `mask_",
                        stringify!($t), "`).")]
        #[inline(always)]
        pub fn $name(a: $t, b: $t, mask: $t) -> ($t, $t) {
            let t = mask & (a ^ b);
            (a ^ t, b ^ t)
        }
    )*};
}
cswap!(cswap_i8: i8, cswap_i16: i16, cswap_u16: u16);

/// Accumulates the difference between bytes produced piece by piece and an
/// expected byte string, without looking at the accumulated value until
/// [`Compare::finish`].
pub struct Compare<'a> {
    expected: &'a [u8],
    diff: u8,
}

impl core::fmt::Debug for Compare<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Compare(…)")
    }
}

impl<'a> Compare<'a> {
    /// A comparison against `expected` (its length is public).
    #[inline(always)]
    pub fn new(expected: &'a [u8]) -> Self {
        Self { expected, diff: 0 }
    }

    /// ORs the bitwise difference of `bytes` and `expected[offset..]` into
    /// the accumulator.
    ///
    /// # Panics
    /// If `offset + bytes.len()` exceeds the expected string (public lengths:
    /// a caller's bug).
    #[inline(always)]
    pub fn update(&mut self, offset: usize, bytes: &[u8]) {
        let expected = &self.expected[offset..offset + bytes.len()];
        // A branch-free fold (no early exit); the total is only inspected
        // through `ct_eq` in `finish`.
        self.diff |= bytes
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    }

    /// Set iff every byte matched.
    #[inline(always)]
    pub fn finish(self) -> Choice {
        self.diff.ct_eq(&0)
    }
}

/// Equality of two byte strings of public lengths (not equal if the lengths
/// differ).
#[inline(always)]
pub fn bytes_eq(a: &[u8], b: &[u8]) -> Choice {
    if a.len() != b.len() {
        return Choice::from(0);
    }
    let mut c = Compare::new(b);
    c.update(0, a);
    c.finish()
}

/// `out = if choice { a } else { b }`, byte by byte through `subtle`.
#[inline(always)]
pub fn select<const N: usize>(out: &mut [u8; N], a: &[u8; N], b: &[u8; N], choice: Choice) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = u8::conditional_select(y, x, choice);
    }
}

/// `dst = src` when `c` is set, byte by byte (never a branch or `memcpy`),
/// over the shorter length.
#[inline(always)]
pub fn cmov_bytes(dst: &mut [u8], src: &[u8], c: Choice) {
    for (d, s) in dst.iter_mut().zip(src) {
        d.conditional_assign(s, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_their_definitions() {
        for x in [0u64, 1, 2, 1 << 63, u64::MAX] {
            assert_eq!(nonzero_mask_u64(x), if x != 0 { u64::MAX } else { 0 });
        }
        for a in 0..=255u8 {
            for b in [0u8, 1, a, 254, 255] {
                assert_eq!(eq_mask_u8(a, b), if a == b { 0xff } else { 0 });
            }
        }
        for (a, b) in [
            (0u16, 0u16),
            (0, 1),
            (1, 0),
            (4095, 4096),
            (u16::MAX, 0),
            (7, 7),
        ] {
            assert_eq!(eq_mask_u16(a, b), if a == b { 0xffff } else { 0 });
            assert_eq!(lt_mask_u16(a, b), if a < b { 0xffff } else { 0 });
            assert_eq!(min_u16(a, b), a.min(b));
            let m = eq_mask_u16(a, a);
            assert_eq!(cswap_u16(a, b, m), (b, a));
            assert_eq!(cswap_u16(a, b, 0), (a, b));
        }
        for x in [-(1 << 30), -5, -1, 0, 1, 5, 1 << 30] {
            assert_eq!(bool::from(nonzero_i32(x)), x != 0, "{x}");
            assert_eq!(bool::from(positive_i32(x)), x > 0, "{x}");
        }
        for bit in [0u8, 1, 2, 3] {
            let set = bit & 1 == 1;
            let c = choice_from_bit(bit);
            assert_eq!(mask_i8(c), if set { -1 } else { 0 });
            assert_eq!(mask_i16(c), if set { -1 } else { 0 });
            assert_eq!(mask_i32(c), if set { -1 } else { 0 });
            assert_eq!(mask_u8(c), if set { u8::MAX } else { 0 });
            assert_eq!(mask_u16(c), if set { u16::MAX } else { 0 });
            assert_eq!(mask_u32(c), if set { u32::MAX } else { 0 });
            assert_eq!(mask_u64(c), if set { u64::MAX } else { 0 });
            assert_eq!(
                cswap_i8(-3, 4, mask_i8(c)),
                if set { (4, -3) } else { (-3, 4) }
            );
            assert_eq!(
                cswap_i16(-3, 4, mask_i16(c)),
                if set { (4, -3) } else { (-3, 4) }
            );
        }
        assert_eq!(opaque(5u32), 5);
    }

    #[test]
    fn byte_strings() {
        assert!(bool::from(bytes_eq(b"", b"")));
        assert!(bool::from(bytes_eq(b"abcd", b"abcd")));
        assert!(!bool::from(bytes_eq(b"abcd", b"abce")));
        assert!(!bool::from(bytes_eq(b"abcd", b"abc")));
        let mut c = Compare::new(b"hello world");
        c.update(0, b"hello");
        c.update(5, b" world");
        assert!(bool::from(c.finish()));
        let mut c = Compare::new(b"hello world");
        c.update(0, b"hello");
        c.update(6, b"w0rld");
        assert!(!bool::from(c.finish()));

        let mut out = [0u8; 4];
        select(&mut out, b"aaaa", b"bbbb", Choice::from(1));
        assert_eq!(&out, b"aaaa");
        select(&mut out, b"aaaa", b"bbbb", Choice::from(0));
        assert_eq!(&out, b"bbbb");
        cmov_bytes(&mut out, b"cccc", Choice::from(0));
        assert_eq!(&out, b"bbbb");
        cmov_bytes(&mut out, b"cccc", Choice::from(1));
        assert_eq!(&out, b"cccc");
    }
}
