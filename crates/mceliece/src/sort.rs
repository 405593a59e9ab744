//! Constant-time sorting (bitonic network; the memory access pattern depends
//! only on the length), used for the random permutation (spec §2.4.2 / ref
//! `uint64_sort`) and for the control-bit computation (ref `int32_sort`).
//!
//! Batcher's bitonic sorter in its classic form: merge stages of block size
//! k = 2, 4, ..., n, each a sequence of half-cleaners at distance
//! j = k/2, ..., 1 where the pair (i, i + j) is put in ascending order if
//! bit k of i is 0 and in descending order otherwise. The work is done in
//! groups of eight elements with lane-wise masks (no branch, no index that
//! depends on the data), a shape the compiler turns into SIMD code; the
//! distances 1, 2 and 4 are handled inside one group.

macro_rules! bitonic {
    ($name:ident, $t:ty) => {
        /// Sorts `x` ascending; `x.len()` is a power of two (at least 8, or
        /// handled by the small path) and every value is below 2^(bits - 1).
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
bitonic!(sort_u32, u32);

#[cfg(test)]
mod tests {
    #[test]
    fn sorts() {
        let mut s = 12345u64;
        for n in [1usize, 2, 4, 8, 16, 64, 1024, 4096] {
            let mut v: [u64; 4096] = core::array::from_fn(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s >> 2
            });
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
            super::sort_u32(x);
            w[..n].sort_unstable();
            assert_eq!(x, &w[..n]);
        }
    }
}
