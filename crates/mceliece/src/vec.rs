//! Bitsliced GF(2^m) arithmetic: 64 field elements in m words, word b holding
//! bit b of every element (the "vec" representation of the submission's
//! 64-bit implementation, written here from the field definition, spec §7).
// ref: vec/vec.c

use crate::params::Params;

/// Most bits per element (m = 13).
pub(crate) const MAX_M: usize = 13;

/// One bitsliced batch of 64 elements.
pub(crate) type Vec = [u64; MAX_M];

/// out = a b for 64 element pairs at once (schoolbook, then reduction by f(z)).
#[inline]
pub(crate) fn mul<P: Params>(out: &mut Vec, a: &Vec, b: &Vec) {
    let m = P::M;
    let mut buf = [0u64; 2 * MAX_M - 1];
    for i in 0..m {
        for j in 0..m {
            buf[i + j] ^= a[i] & b[j];
        }
    }
    for i in (m..2 * m - 1).rev() {
        let hi = buf[i];
        for e in 0..m {
            if (P::FIELD_POLY >> e) & 1 == 1 {
                buf[i - m + e] ^= hi;
            }
        }
    }
    out[..m].copy_from_slice(&buf[..m]);
}

/// out = a^2.
#[inline]
pub(crate) fn sq<P: Params>(out: &mut Vec, a: &Vec) {
    let m = P::M;
    let mut buf = [0u64; 2 * MAX_M - 1];
    for i in 0..m {
        buf[2 * i] = a[i];
    }
    for i in (m..2 * m - 1).rev() {
        let hi = buf[i];
        for e in 0..m {
            if (P::FIELD_POLY >> e) & 1 == 1 {
                buf[i - m + e] ^= hi;
            }
        }
    }
    out[..m].copy_from_slice(&buf[..m]);
}

/// out = 1/a (0 for a = 0), lane by lane: a^(2^m - 2).
pub(crate) fn inv<P: Params>(out: &mut Vec, a: &Vec) {
    let mut x = *a;
    let mut t = [0u64; MAX_M];
    for _ in 1..P::M - 1 {
        sq::<P>(&mut t, &x);
        mul::<P>(&mut x, &t, a);
    }
    sq::<P>(out, &x);
}

/// The broadcast of one field element to all 64 lanes.
#[inline(always)]
pub(crate) fn splat<P: Params>(out: &mut Vec, c: u16) {
    for (b, o) in out.iter_mut().enumerate().take(P::M) {
        *o = u64::from((c >> b) & 1).wrapping_neg();
    }
}

/// Bitslices 64 elements (`v[l]` into lane l).
pub(crate) fn from_elements<P: Params>(out: &mut Vec, v: &[u16; 64]) {
    *out = [0; MAX_M];
    for (l, &x) in v.iter().enumerate() {
        for (b, o) in out.iter_mut().enumerate().take(P::M) {
            *o |= u64::from((x >> b) & 1) << l;
        }
    }
}
