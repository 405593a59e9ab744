//! Beneš network (spec §2.4.2 / §3.3 "field ordering" encoded as control bits).
//!
//! The network for 2^w positions has 2w - 1 layers of 2^(w-1) conditional
//! swaps: layers with stride 2^0, 2^1, ..., 2^(w-1), then 2^(w-2), ..., 2^0.
//! Within a layer the swaps are numbered in order of their lower position.
//! Control bit k of the byte string is bit k mod 8 of byte k / 8.
// ref: controlbits.c (`layer`), benes.c

use crate::ct::cswap_u16;

/// One layer: conditionally swaps p[i] and p[i + 2^s] for each pair.
fn layer(p: &mut [u16], cb: &[u8], s: usize, first_bit: usize) {
    let stride = 1 << s;
    let mut index = first_bit;
    for blk in p.chunks_exact_mut(2 * stride) {
        let (lo, hi) = blk.split_at_mut(stride);
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let bit = u16::from((cb[index >> 3] >> (index & 7)) & 1);
            cswap_u16(a, b, bit);
            index += 1;
        }
    }
}

/// Applies the whole network to `p` (length 2^w): afterwards `p[i]` holds the
/// old `p[pi(i)]`, where pi is the permutation the control bits encode.
pub(crate) fn apply(p: &mut [u16], cb: &[u8], w: usize) {
    let step = p.len() >> 1; // bits per layer
    let mut off = 0;
    for s in 0..w {
        layer(p, cb, s, off);
        off += step;
    }
    for s in (0..w - 1).rev() {
        layer(p, cb, s, off);
        off += step;
    }
}
