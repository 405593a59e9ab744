//! Constant-time sorting (bitonic network; the memory access pattern depends
//! only on the length), used for the random permutation (Classic McEliece spec §2.4.2 / ref
//! `uint64_sort`) and for the control-bit computation (ref `int32_sort`).
//!
//! Batcher's bitonic sorter in its classic form: merge stages of block size
//! k = 2, 4, ..., n, each a sequence of half-cleaners at distance
//! j = k/2, ..., 1 where the pair (i, i + j) is put in ascending order if
//! bit k of i is 0 and in descending order otherwise. The work is done in
//! groups of eight elements with lane-wise masks (no branch, no index that
//! depends on the data), a shape the compiler turns into SIMD code; the
//! distances 1, 2 and 4 are handled inside one group.
//!
//! Here: the plain sorts and the strided `u32` sort; `records.rs` sorts
//! records of 16-bit fields, `columns.rs` many independent columns at once
//! (both for the control bits, Classic McEliece spec §2.4.2 / §3.3).

// Crate-visible for the AVX2 twins (`arch/x86_64/sort.rs`): the networks'
// drivers and path traits.
pub(crate) mod columns;
pub(crate) mod records;

pub(crate) use columns::sort_cols;
pub(crate) use records::{rank_pos, sort_records};

macro_rules! bitonic {
    ($name:ident, $t:ty) => {
        /// Sorts `x` ascending; `x.len()` is a power of two (at least 8, or
        /// handled by the small path) and every value is below 2^(bits - 1).
        #[inline(always)]
        pub(crate) fn $name(x: &mut [$t]) {
            const TOP: u32 = <$t>::BITS - 1;
            /// All-ones if `b < a` (values below 2^TOP), xor the direction.
            #[inline(always)]
            fn cx(a: &mut $t, b: &mut $t, dir: $t) {
                let m = (b.wrapping_sub(*a) >> TOP).wrapping_neg() ^ dir;
                let d = (*a ^ *b) & m;
                *a ^= d;
                *b ^= d;
            }
            /// Direction mask of element index `i` in merge stage `lk` = log2 k.
            #[inline(always)]
            fn dir(i: usize, lk: u32) -> $t {
                (((i >> lk) & 1) as $t).wrapping_neg()
            }
            /// Half-cleaners at distances 4, 2 and 1 of one group of eight
            /// (elements x0..x7 as two rows a = x0..x3, b = x4..x7), with the
            /// direction mask of each pair's lower element in `d4`, `d2`, `d1`.
            #[inline(always)]
            fn small(g: &mut [$t; 8], d4: [$t; 4], d2: [$t; 4], d1: [$t; 4], top: usize) {
                let mut a = [g[0], g[1], g[2], g[3]];
                let mut b = [g[4], g[5], g[6], g[7]];
                if top > 4 {
                    for l in 0..4 {
                        cx(&mut a[l], &mut b[l], d4[l]);
                    }
                }
                if top > 2 {
                    // pairs (0,2) (1,3) (4,6) (5,7)
                    let mut lo = [a[0], a[1], b[0], b[1]];
                    let mut hi = [a[2], a[3], b[2], b[3]];
                    for l in 0..4 {
                        cx(&mut lo[l], &mut hi[l], d2[l]);
                    }
                    a = [lo[0], lo[1], hi[0], hi[1]];
                    b = [lo[2], lo[3], hi[2], hi[3]];
                }
                // pairs (0,1) (2,3) (4,5) (6,7)
                let mut lo = [a[0], a[2], b[0], b[2]];
                let mut hi = [a[1], a[3], b[1], b[3]];
                for l in 0..4 {
                    cx(&mut lo[l], &mut hi[l], d1[l]);
                }
                *g = [lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], lo[3], hi[3]];
            }
            /// Direction masks of lanes `base + off + step l`, l = 0..4.
            #[inline(always)]
            fn dirs(base: usize, off: usize, step: usize, lk: u32) -> [$t; 4] {
                core::array::from_fn(|l| dir(base + off + step * l, lk))
            }

            let n = x.len();
            debug_assert!(n.is_power_of_two());
            if n < 8 {
                // Tiny inputs: the plain network.
                let mut k = 2;
                let mut lk = 1;
                while k <= n {
                    let mut j = k >> 1;
                    while j > 0 {
                        for i in 0..n {
                            if i & j == 0 {
                                let (lo, hi) = x.split_at_mut(i + j);
                                cx(&mut lo[i], &mut hi[0], dir(i, lk));
                            }
                        }
                        j >>= 1;
                    }
                    k <<= 1;
                    lk += 1;
                }
                return;
            }
            let (groups, _) = x.as_chunks_mut::<8>();
            // Merge stages of block size 2, 4 and 8 in each group.
            for (gi, g) in groups.iter_mut().enumerate() {
                let b = 8 * gi;
                for (lk, top) in [(1, 2), (2, 4), (3, 8)] {
                    let (d4, d2, d1) = (dirs(b, 0, 1, lk), dirs(b, 0, 1, lk), dirs(b, 0, 2, lk));
                    // d2 lanes: x0, x1, x4, x5; d1 lanes: x0, x2, x4, x6.
                    let d2 = [d2[0], d2[1], dir(b + 4, lk), dir(b + 5, lk)];
                    small(g, d4, d2, d1, top);
                }
            }
            let mut lk = 4u32;
            while (1usize << lk) <= n {
                // Distances k/2 down to 8, group against group.
                let mut jg = 1usize << (lk - 4); // distance in groups
                while jg > 0 {
                    for (bi, blk) in groups.chunks_exact_mut(2 * jg).enumerate() {
                        let d = dir(bi * 16 * jg, lk);
                        let (lo, hi) = blk.split_at_mut(jg);
                        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                            for l in 0..8 {
                                cx(&mut a[l], &mut b[l], d);
                            }
                        }
                    }
                    jg >>= 1;
                }
                for (gi, g) in groups.iter_mut().enumerate() {
                    // The direction is the same for the whole group here.
                    let d = [dir(8 * gi, lk); 4];
                    small(g, d, d, d, 8);
                }
                lk += 1;
            }
        }
    };
}

bitonic!(sort_u64, u64);
bitonic!(sort_u32_grouped_inline, u32);

/// [`sort_u32_grouped_inline`], not inlined.
fn sort_u32_grouped(x: &mut [u32]) {
    sort_u32_grouped_inline(x);
}

/// Shortest length sorted in the strided layout (below it the six in-group
/// steps weigh more than the layout saves).
const STRIDED_MIN: usize = 256;

/// Sorts `x` (a power-of-two length, every value below 2^31: the
/// control-bit keys) with the bitonic network of [`sort_u32_grouped`], in a
/// strided layout: read [`ranked`] for the result in ascending order.
///
/// For n >= 256 the element of index i (in the network's numbering) is kept
/// at position 8 (i mod n/8) + i div (n/8): lane l of group g holds index
/// g + l n/8. A step on index bit b < w - 3 then pairs whole groups, lane by
/// lane (the vertical shape SIMD units do well), and only the six steps on
/// the three top bits (in the last three merge stages) pair lanes inside a
/// group. Where each rank ends up is public (it depends on n only).
pub(crate) fn sort_u32(x: &mut [u32]) {
    let n = x.len();
    debug_assert!(n.is_power_of_two());
    if n < STRIDED_MIN {
        sort_u32_grouped(x);
        return;
    }
    let w = n.trailing_zeros();
    let lane_bit0 = w - 3; // index bits lane_bit0 .. lane_bit0 + 2 are the lane bits
    let (groups, _) = x.as_chunks_mut::<8>();
    for lk in 1..=w {
        // Direction of merge stage lk: bit lk of the index, a group bit
        // below lane_bit0, a lane bit from lane_bit0 to w - 1, and zero for
        // lk = w. A stage that runs descending in some lanes runs ascending
        // on their complements instead.
        let pat: [u32; 8] = if lk >= lane_bit0 && lk < w {
            core::array::from_fn(|l| (((l >> (lk - lane_bit0)) & 1) as u32).wrapping_neg())
        } else {
            [0; 8]
        };
        if lk >= lane_bit0 && lk < w {
            flip_lanes(groups, pat);
        }
        let dir_bit = if lk < lane_bit0 { lk } else { usize::BITS - 1 };
        let mut b = lk;
        while b > lane_bit0 {
            b -= 1;
            lane_step(groups, 1 << (b - lane_bit0));
        }
        // Group steps on bits b - 1 down to 0, two at a time.
        while b >= 2 {
            group_step2(Portable, groups, 1 << (b - 2), dir_bit);
            b -= 2;
        }
        if b == 1 {
            group_step(Portable, groups, dir_bit);
        }
        if lk >= lane_bit0 && lk < w {
            flip_lanes(groups, pat);
        }
    }
}

/// The values of `x` after [`sort_u32`], in ascending order.
pub(crate) fn ranked(x: &[u32]) -> impl Iterator<Item = u32> + '_ {
    let n = x.len();
    let (group_mask, lane_bit0) = if n < STRIDED_MIN {
        (usize::MAX, usize::BITS) // natural order
    } else {
        ((n >> 3) - 1, n.trailing_zeros() - 3)
    };
    (0..n).map(move |i| {
        if n < STRIDED_MIN {
            x[i]
        } else {
            x[((i & group_mask) << 3) | (i >> lane_bit0)]
        }
    })
}

/// Compare-exchange of two groups, lane by lane, descending where `gd` is
/// all-ones.
#[inline(always)]
fn cx_groups(av: &mut [u32; 8], bv: &mut [u32; 8], gd: u32) {
    let t: [u32; 8] = core::array::from_fn(|l| {
        let lt = u32::from(bv[l].cast_signed() < av[l].cast_signed()).wrapping_neg();
        (av[l] ^ bv[l]) & (lt ^ gd)
    });
    *av = core::array::from_fn(|l| av[l] ^ t[l]);
    *bv = core::array::from_fn(|l| bv[l] ^ t[l]);
}

/// A group of lanes that the strided sorts ([`sort_u32`], [`sort_records`])
/// compare-exchange with another group, lane by lane.
pub(super) trait Group: Copy {
    /// Puts each lane pair of `a` and `b` in ascending order (descending if
    /// `desc` is 1).
    fn cx(a: &mut Self, b: &mut Self, desc: usize);
}

impl Group for [u32; 8] {
    #[inline(always)]
    fn cx(a: &mut Self, b: &mut Self, desc: usize) {
        cx_groups(a, b, (desc as u32).wrapping_neg());
    }
}

/// How one path (portable, or an `arch` kernel) holds a group of type `G`
/// in registers and compare-exchanges two of them, lane by lane.
pub(crate) trait GroupPath<G>: Copy {
    /// A group in registers.
    type Reg: Copy;
    /// Reads a group into registers.
    fn load(self, g: &G) -> Self::Reg;
    /// Writes a group back.
    fn store(self, g: &mut G, v: Self::Reg);
    /// Puts each lane pair of `a` and `b` in ascending order (descending if
    /// `desc` is 1).
    fn cx(self, a: &mut Self::Reg, b: &mut Self::Reg, desc: usize);
}

/// The portable path: a group is its own register form ([`Group::cx`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl<G: Group> GroupPath<G> for Portable {
    type Reg = G;
    #[inline(always)]
    fn load(self, g: &G) -> G {
        *g
    }
    #[inline(always)]
    fn store(self, g: &mut G, v: G) {
        *g = v;
    }
    #[inline(always)]
    fn cx(self, a: &mut G, b: &mut G, desc: usize) {
        G::cx(a, b, desc);
    }
}

/// One half-cleaner step at group distance 1: group 2i against group
/// 2i + 1, descending where bit `dir_bit` of the group index is set.
#[inline(always)]
fn group_step<G, P: GroupPath<G>>(path: P, groups: &mut [G], dir_bit: u32) {
    let (pairs, _) = groups.as_chunks_mut::<2>();
    for (i, [a, b]) in pairs.iter_mut().enumerate() {
        let (mut x, mut y) = (path.load(a), path.load(b));
        path.cx(&mut x, &mut y, ((2 * i) >> dir_bit) & 1);
        path.store(a, x);
        path.store(b, y);
    }
}

/// Two consecutive half-cleaner steps, at group distances 2d and d, on four
/// groups at a time held in registers (one load and one store per group
/// for both steps); directions as in [`group_step`].
#[inline(always)]
fn group_step2<G, P: GroupPath<G>>(path: P, groups: &mut [G], d: usize, dir_bit: u32) {
    let mut s = 0;
    while s < groups.len() {
        let (lo, hi) = groups[s..s + 4 * d].split_at_mut(2 * d);
        let (g0, g1) = lo.split_at_mut(d);
        let (g2, g3) = hi.split_at_mut(d);
        let it = g0
            .iter_mut()
            .zip(g1.iter_mut())
            .zip(g2.iter_mut().zip(g3.iter_mut()));
        for (i, ((p0, p1), (p2, p3))) in it.enumerate() {
            let desc = ((s + i) >> dir_bit) & 1;
            let (mut x0, mut x1) = (path.load(p0), path.load(p1));
            let (mut x2, mut x3) = (path.load(p2), path.load(p3));
            path.cx(&mut x0, &mut x2, desc);
            path.cx(&mut x1, &mut x3, desc);
            path.cx(&mut x0, &mut x1, desc);
            path.cx(&mut x2, &mut x3, desc);
            path.store(p0, x0);
            path.store(p1, x1);
            path.store(p2, x2);
            path.store(p3, x3);
        }
        s += 4 * d;
    }
}

/// Complements (x -> 2^31 - 1 - x, order-reversing) the lanes set in `pat`.
#[inline(always)]
fn flip_lanes(groups: &mut [[u32; 8]], pat: [u32; 8]) {
    for g in groups.iter_mut() {
        for l in 0..8 {
            g[l] ^= pat[l] & 0x7FFF_FFFF;
        }
    }
}

/// One ascending half-cleaner step inside every group: lane l against lane
/// l + d for every l with bit d clear.
#[inline(always)]
fn lane_step(groups: &mut [[u32; 8]], d: usize) {
    for g in groups.iter_mut() {
        for l in 0..8 {
            // Public: the pairing depends on the lane index only.
            if l & d == 0 {
                let (a, b) = (g[l], g[l + d]);
                let lt = u32::from(b.cast_signed() < a.cast_signed()).wrapping_neg();
                let t = (a ^ b) & lt;
                g[l] = a ^ t;
                g[l + d] = b ^ t;
            }
        }
    }
}

/// Shuffles `perm` (Fisher–Yates driven by the xorshift64 state `s`): the
/// random permutations of the tests of the sorts and of the control bits.
#[cfg(test)]
pub(crate) fn test_shuffle(perm: &mut [u16], s: &mut u64) {
    for i in (1..perm.len()).rev() {
        let j = ((crate::test_util::xorshift(s) >> 11) % (i as u64 + 1)) as usize;
        perm.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sorts() {
        let mut s = 12345u64;
        for n in [1usize, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096] {
            let mut v: [u64; 4096] =
                core::array::from_fn(|_| crate::test_util::xorshift(&mut s) >> 2);
            let x = &mut v[..n];
            let mut w = [0u64; 4096];
            w[..n].copy_from_slice(x);
            super::sort_u64(x);
            w[..n].sort_unstable();
            assert_eq!(x, &w[..n]);

            let mut v32: [u32; 4096] = core::array::from_fn(|i| (v[i] >> 33) as u32);
            // Small value range too, so ties occur.
            if n == 4096 {
                for e in v32.iter_mut() {
                    *e &= 0xFF;
                }
            }
            let x = &mut v32[..n];
            let mut w = [0u32; 4096];
            w[..n].copy_from_slice(x);
            let mut y = [0u32; 4096];
            y[..n].copy_from_slice(x);
            super::sort_u32(x);
            super::sort_u32_grouped(&mut y[..n]);
            w[..n].sort_unstable();
            assert!(super::ranked(x).eq(w[..n].iter().copied()), "n = {n}");
            assert_eq!(&y[..n], &w[..n]);
        }
    }
}
