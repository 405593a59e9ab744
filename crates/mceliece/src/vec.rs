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
/// The loops have constant bounds (MAX_M) so they unroll completely; the
/// `i < m` tests fold away for each parameter set.
#[inline]
pub(crate) fn mul<P: Params>(out: &mut Vec, a: &Vec, b: &Vec) {
    let m = P::M;
    let mut buf = [0u64; 2 * MAX_M - 1];
    for i in 0..MAX_M {
        if i < m {
            let ai = a[i];
            for j in 0..MAX_M {
                if j < m {
                    buf[i + j] ^= ai & b[j];
                }
            }
        }
    }
    reduce::<P>(out, &mut buf);
}

/// Folds the 2m - 1 product words back below degree m (f(z) low terms).
#[inline(always)]
fn reduce<P: Params>(out: &mut Vec, buf: &mut [u64; 2 * MAX_M - 1]) {
    let m = P::M;
    for i in (0..2 * MAX_M - 1).rev() {
        if i >= m && i < 2 * m - 1 {
            let hi = buf[i];
            for e in 0..MAX_M {
                if e < m && (P::FIELD_POLY >> e) & 1 == 1 {
                    buf[i - m + e] ^= hi;
                }
            }
        }
    }
    out[..m].copy_from_slice(&buf[..m]);
}

/// out = a^2 (squaring is linear: no cross terms).
#[inline]
pub(crate) fn sq<P: Params>(out: &mut Vec, a: &Vec) {
    let m = P::M;
    let mut buf = [0u64; 2 * MAX_M - 1];
    for i in 0..m {
        buf[2 * i] = a[i];
    }
    reduce::<P>(out, &mut buf);
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

#[cfg(all(test, feature = "mceliece348864"))]
mod tests {
    use super::*;
    use crate::params::Mceliece348864 as P;

    #[test]
    fn matches_scalar() {
        let mut a = [0u16; 64];
        let mut b = [0u16; 64];
        for i in 0..64 {
            a[i] = (i as u16).wrapping_mul(1237) & 0xFFF;
            b[i] = (i as u16).wrapping_mul(3301).wrapping_add(7) & 0xFFF;
        }
        let (mut va, mut vb, mut vc) = ([0; MAX_M], [0; MAX_M], [0; MAX_M]);
        from_elements::<P>(&mut va, &a);
        from_elements::<P>(&mut vb, &b);
        mul::<P>(&mut vc, &va, &vb);
        for l in 0..64 {
            let mut x = 0u16;
            for (bit, w) in vc.iter().enumerate().take(12) {
                x |= (((w >> l) & 1) as u16) << bit;
            }
            assert_eq!(x, crate::gf::mul::<P>(a[l], b[l]));
        }
    }
}
