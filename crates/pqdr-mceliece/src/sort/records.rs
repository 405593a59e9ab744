//! Sorting records of 16-bit fields by key in the strided layout (the
//! control-bit computation of Classic McEliece spec §2.4.2 / §3.3 composes
//! its permutations with these sorts).

use super::{Group, GroupPath, Portable, group_step, group_step2};

/// Sorts records by key. A record group is `[u16; W]`: lanes 0..8 are the
/// keys of eight records, lanes 8 l + j (l >= 1) their l-th values. Keys
/// are distinct and below 2^15 (the control-bit computation sorts
/// permutations of 0..n, n <= 2^13); the values ride along with them, no
/// packing, so a sort can carry any number of 16-bit fields.
///
/// The network is the bitonic sorter of [`sort_u64`](super::sort_u64) over n = 8 groups.len()
/// records (n a power of two, at least 8), in the strided layout of
/// [`sort_u32`](super::sort_u32): record index i lives in lane i div (n/8) of group
/// i mod (n/8), so a step on index bit b < w - 3 pairs whole groups, two
/// steps per pass, and a step on one of the three top bits pairs the lanes
/// of each group with a fixed lane permutation of itself. The record of
/// rank i ends in group and lane [`rank_pos`]`(n, i)`.
///
/// [`sort_records_with`] on the portable path; the control bits' caller
/// picks the AVX2 twin where there is one.
pub(crate) fn sort_records<const W: usize>(r: &mut [[u16; W]]) {
    sort_records_with(Portable, r);
}

/// The steps of [`sort_records`]' network that a path does its own way,
/// besides [`GroupPath`]'s compare-exchange of two groups.
pub(crate) trait RecordPath<const W: usize>: GroupPath<[u16; W]> {
    /// One ascending half-cleaner step inside a group: lane l against
    /// lane l ^ D (D = 1, 2 or 4), values following their keys.
    fn lane_step<const D: usize>(self, v: &mut Self::Reg);
    /// Complements the keys in the lanes set in `pat` (0x7FFF there, 0
    /// elsewhere): x -> 2^15 - 1 - x, order-reversing.
    fn flip_keys(self, v: &mut Self::Reg, pat: [u16; 8]);
}

/// [`sort_records`] on the path `path` (the portable one: [`Portable`]).
#[inline(always)]
pub(crate) fn sort_records_with<const W: usize, P: RecordPath<W>>(path: P, r: &mut [[u16; W]]) {
    let n = 8 * r.len();
    debug_assert!(n.is_power_of_two() && n >= 8);
    let w = n.trailing_zeros();
    let lane_bit0 = w - 3; // index bits lane_bit0 .. lane_bit0 + 2 are the lane bits
    for lk in 1..=w {
        // Direction of merge stage lk: bit lk of the index, a group bit
        // below lane_bit0, a lane bit from lane_bit0 to w - 1, and zero for
        // lk = w. Lanes that run descending run ascending on complemented
        // keys instead.
        let flip = lk >= lane_bit0 && lk < w;
        let pat: [u16; 8] = core::array::from_fn(|l| {
            let bit = if flip { (l >> (lk - lane_bit0)) & 1 } else { 0 };
            (bit as u16).wrapping_neg() & 0x7FFF
        });
        if flip {
            each_group(path, r, |v| path.flip_keys(v, pat));
        }
        let dir_bit = if lk < lane_bit0 { lk } else { usize::BITS - 1 };
        let mut b = lk;
        while b > lane_bit0 {
            b -= 1;
            match b - lane_bit0 {
                0 => each_group(path, r, |v| path.lane_step::<1>(v)),
                1 => each_group(path, r, |v| path.lane_step::<2>(v)),
                _ => each_group(path, r, |v| path.lane_step::<4>(v)),
            }
        }
        // Group steps on bits b - 1 down to 0, two at a time.
        while b >= 2 {
            group_step2(path, r, 1 << (b - 2), dir_bit);
            b -= 2;
        }
        if b == 1 {
            group_step(path, r, dir_bit);
        }
        if flip {
            each_group(path, r, |v| path.flip_keys(v, pat));
        }
    }
}

/// Applies `f` to every group of `r` in registers.
#[inline(always)]
fn each_group<const W: usize, P: RecordPath<W>>(
    path: P,
    r: &mut [[u16; W]],
    mut f: impl FnMut(&mut P::Reg),
) {
    for g in r.iter_mut() {
        let mut v = path.load(g);
        f(&mut v);
        path.store(g, v);
    }
}

/// Group and lane where [`sort_records`] leaves the record of rank `i` of
/// `n` (n >= 8, a power of two).
#[inline(always)]
pub(crate) fn rank_pos(n: usize, i: usize) -> (usize, usize) {
    (i & ((n >> 3) - 1), i >> (n.trailing_zeros() - 3))
}

/// Compare-exchange of two record groups, lane by lane: `a` gets the
/// smaller key (the larger where `d` is all-ones), values follow their keys.
#[inline(always)]
fn cx_rec<const W: usize>(a: &mut [u16; W], b: &mut [u16; W], d: u16) {
    let (av, bv) = (*a, *b);
    let m: [u16; 8] = core::array::from_fn(|l| {
        u16::from(bv[l].cast_signed() < av[l].cast_signed()).wrapping_neg() ^ d
    });
    let t: [u16; W] = core::array::from_fn(|l| (av[l] ^ bv[l]) & m[l & 7]);
    *a = core::array::from_fn(|l| av[l] ^ t[l]);
    *b = core::array::from_fn(|l| bv[l] ^ t[l]);
}

impl<const W: usize> Group for [u16; W] {
    #[inline(always)]
    fn cx(a: &mut Self, b: &mut Self, desc: usize) {
        cx_rec(a, b, (desc as u16).wrapping_neg());
    }
}

impl<const W: usize> RecordPath<W> for Portable {
    /// Each lane compares itself with its partner (a fixed lane
    /// permutation); the upper lane of a pair takes the opposite decision
    /// (keys are distinct, so the two decisions agree).
    #[inline(always)]
    fn lane_step<const D: usize>(self, g: &mut [u16; W]) {
        let up: [u16; 8] = core::array::from_fn(|l| (((l & D) != 0) as u16).wrapping_neg());
        let v = *g;
        let p: [u16; W] = core::array::from_fn(|l| v[l ^ D]);
        let m: [u16; 8] = core::array::from_fn(|l| {
            u16::from(p[l].cast_signed() < v[l].cast_signed()).wrapping_neg() ^ up[l]
        });
        *g = core::array::from_fn(|l| v[l] ^ ((v[l] ^ p[l]) & m[l & 7]));
    }
    #[inline(always)]
    fn flip_keys(self, g: &mut [u16; W], pat: [u16; 8]) {
        for l in 0..8 {
            g[l] ^= pat[l];
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn records() {
        let mut s = 777u64;
        for w in 3..=12 {
            let n = 1usize << w;
            // A random permutation as keys, two values per record.
            let mut key: [u16; 4096] = core::array::from_fn(|i| i as u16);
            crate::sort::test_shuffle(&mut key[..n], &mut s);
            let mut r = [[0u16; 24]; 512];
            for (x, &kx) in key.iter().enumerate().take(n) {
                let (g, l) = (x >> 3, x & 7);
                r[g][l] = kx;
                r[g][8 + l] = kx ^ 0x1555;
                r[g][16 + l] = x as u16;
            }
            super::sort_records(&mut r[..n >> 3]);
            for i in 0..n {
                let (g, l) = super::rank_pos(n, i);
                assert_eq!(r[g][l] as usize, i, "w = {w}");
                assert_eq!(r[g][8 + l], (i as u16) ^ 0x1555, "w = {w}");
                assert_eq!(key[r[g][16 + l] as usize] as usize, i, "w = {w}");
            }
        }
    }
}
