//! Constant-time sorting (bitonic network; the memory access pattern depends
//! only on the length), used for the random permutation (spec §2.4.2 / ref
//! `uint64_sort`) and for the control-bit computation (ref `int32_sort`).

use crate::ct::{minmax_u32, minmax_u64};

macro_rules! bitonic {
    ($name:ident, $t:ty, $minmax:ident) => {
        /// Sorts `x` ascending; `x.len()` is a power of two. Bitonic merge
        /// sort in its all-ascending form: each merge starts by comparing
        /// mirrored positions of a block, then runs half-cleaners.
        pub(crate) fn $name(x: &mut [$t]) {
            let n = x.len();
            debug_assert!(n.is_power_of_two());
            let mut k = 2;
            while k <= n {
                for blk in x.chunks_exact_mut(k) {
                    let (lo, hi) = blk.split_at_mut(k >> 1);
                    for (a, b) in lo.iter_mut().zip(hi.iter_mut().rev()) {
                        $minmax(a, b);
                    }
                }
                let mut j = k >> 2;
                while j > 0 {
                    if j == 1 {
                        for p in x.chunks_exact_mut(2) {
                            let (a, b) = p.split_at_mut(1);
                            $minmax(&mut a[0], &mut b[0]);
                        }
                    } else {
                        for blk in x.chunks_exact_mut(2 * j) {
                            let (lo, hi) = blk.split_at_mut(j);
                            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                                $minmax(a, b);
                            }
                        }
                    }
                    j >>= 1;
                }
                k <<= 1;
            }
        }
    };
}

bitonic!(sort_u64, u64, minmax_u64);
bitonic!(sort_u32, u32, minmax_u32);

#[cfg(test)]
mod tests {
    #[test]
    fn sorts() {
        let mut s = 12345u64;
        for n in [2usize, 8, 64, 1024] {
            let mut v: [u64; 1024] = core::array::from_fn(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s >> 2
            });
            let x = &mut v[..n];
            let mut w = [0u64; 1024];
            w[..n].copy_from_slice(x);
            super::sort_u64(x);
            w[..n].sort_unstable();
            assert_eq!(x, &w[..n]);
        }
    }
}
