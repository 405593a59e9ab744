//! Bitsliced GF(2^m) arithmetic: 64 field elements in m words, word b holding
//! bit b of every element (the "vec" representation of the submission's
//! 64-bit implementation, written here from the field definition, Classic McEliece spec §7).
//!
//! A [`Bitsliced`] carries `L` such words per bit (L batches of 64 elements side by
//! side), so the compiler can run L = 2 batches in one SSE2 register.
//!
//! The unrolled products of the two fields are generated code, in `mul.rs`
//! (`scripts/gen_mceliece_vec.py`).
// ref: vec/vec.c

mod mul;

// The AVX2 kernels' differential tests (here, not in `arch`: see the file).
#[cfg(all(
    test,
    feature = "simd",
    target_arch = "x86_64",
    feature = "mceliece348864",
    feature = "mceliece460896"
))]
mod avx2_tests;

use crate::arch;
use crate::params::{FIELD_POLY_M12, FIELD_POLY_M13, MAX_M, ParameterSet};
pub(crate) use mul::{mul12, mul13};

/// L bitsliced batches of 64 elements: `v[b][l]` holds bit b of batch l.
pub(crate) type Bitsliced<const L: usize = 1> = [[u64; L]; MAX_M];

/// The all-zero vector.
pub(crate) const fn zero<const L: usize>() -> Bitsliced<L> {
    [[0; L]; MAX_M]
}

/// out = a b for 64 L element pairs at once: the unrolled kernel of the
/// field size (m = 12 or 13; the spec's two fields), else the generic loop.
#[inline]
pub(crate) fn mul<P: ParameterSet, const L: usize>(
    out: &mut Bitsliced<L>,
    a: &Bitsliced<L>,
    b: &Bitsliced<L>,
) {
    if L == 4 && spec_field::<P>()
        && let Some(token) = arch::avx2()
        // One 256-bit product per plane (the same network as below).
        && let (Ok(o4), Ok(a4), Ok(b4)) = (
            out.as_flattened_mut().as_chunks_mut::<4>().0.try_into(),
            a.as_flattened().as_chunks::<4>().0.try_into(),
            b.as_flattened().as_chunks::<4>().0.try_into(),
        )
    {
        arch::mul_x4(token, P::M, o4, a4, b4);
        return;
    }
    if L > 2 && L & 1 == 0 {
        // Wider than one SSE2 register per bit: independent 2-batch
        // products, a fraction of the live data each (the wide kernel
        // spills most of its operands).
        for j in 0..L >> 1 {
            let a2: Bitsliced<2> = core::array::from_fn(|k| [a[k][2 * j], a[k][2 * j + 1]]);
            let b2: Bitsliced<2> = core::array::from_fn(|k| [b[k][2 * j], b[k][2 * j + 1]]);
            let mut o2 = zero::<2>();
            mul::<P, 2>(&mut o2, &a2, &b2);
            for (o, w) in out.iter_mut().zip(o2) {
                o[2 * j] = w[0];
                o[2 * j + 1] = w[1];
            }
        }
        return;
    }
    if P::M == 12 && P::FIELD_POLY == FIELD_POLY_M12 {
        mul12::<L>(out, a, b);
    } else if P::M == 13 && P::FIELD_POLY == FIELD_POLY_M13 {
        mul13::<L>(out, a, b);
    } else {
        mul_generic::<P, L>(out, a, b);
    }
}

/// Whether P's field is one of the spec's two (m = 12 or 13 with the
/// spec's f(z)), which have unrolled (and AVX2) kernels.
#[inline(always)]
const fn spec_field<P: ParameterSet>() -> bool {
    (P::M == 12 && P::FIELD_POLY == FIELD_POLY_M12)
        || (P::M == 13 && P::FIELD_POLY == FIELD_POLY_M13)
}

/// Two independent products of 128 element pairs, `o[0] = a[0] b[0]` and
/// `o[1] = a[1] b[1]`: with AVX2 one 256-bit product per plane, else two
/// [`mul()`] calls. Loops with independent products pair them through this.
#[inline]
pub(crate) fn mul_pair<P: ParameterSet>(
    o: [&mut Bitsliced<2>; 2],
    a: [&Bitsliced<2>; 2],
    b: [&Bitsliced<2>; 2],
) {
    if spec_field::<P>()
        && let Some(token) = arch::avx2()
    {
        arch::mul_pair(token, P::M, o, a, b);
        return;
    }
    let [o0, o1] = o;
    mul::<P, 2>(o0, a[0], b[0]);
    mul::<P, 2>(o1, a[1], b[1]);
}

/// Generic product (schoolbook, then reduction by
/// f(z)). The loops have constant bounds (MAX_M) so they unroll completely;
/// the `i < m` tests fold away for each parameter set.
#[inline]
fn mul_generic<P: ParameterSet, const L: usize>(
    out: &mut Bitsliced<L>,
    a: &Bitsliced<L>,
    b: &Bitsliced<L>,
) {
    let m = P::M;
    let mut buf = [[0u64; L]; 2 * MAX_M - 1];
    for i in 0..MAX_M {
        if i < m {
            for j in 0..MAX_M {
                if j < m {
                    for l in 0..L {
                        buf[i + j][l] ^= a[i][l] & b[j][l];
                    }
                }
            }
        }
    }
    reduce::<P, L>(out, &mut buf);
}

/// Folds the 2m - 1 product words back below degree m (f(z) low terms).
#[inline(always)]
fn reduce<P: ParameterSet, const L: usize>(
    out: &mut Bitsliced<L>,
    buf: &mut [[u64; L]; 2 * MAX_M - 1],
) {
    let m = P::M;
    for i in (0..2 * MAX_M - 1).rev() {
        if i >= m && i < 2 * m - 1 {
            let hi = buf[i];
            for e in 0..MAX_M {
                if e < m && (P::FIELD_POLY >> e) & 1 == 1 {
                    for l in 0..L {
                        buf[i - m + e][l] ^= hi[l];
                    }
                }
            }
        }
    }
    out[..m].copy_from_slice(&buf[..m]);
}

/// out = a^2 (squaring is linear: no cross terms).
#[inline]
pub(crate) fn sq<P: ParameterSet, const L: usize>(out: &mut Bitsliced<L>, a: &Bitsliced<L>) {
    let m = P::M;
    let mut buf = [[0u64; L]; 2 * MAX_M - 1];
    for i in 0..m {
        buf[2 * i] = a[i];
    }
    reduce::<P, L>(out, &mut buf);
}

/// out = 1/a (0 for a = 0), lane by lane: a^(2^m - 2). With AVX2 and a
/// spec field (§7), two words per plane: the AVX2 kernel
/// (`crate::arch::inv_x2`, an Itoh–Tsujii chain), else [`inv_portable`].
pub(crate) fn inv<P: ParameterSet, const L: usize>(out: &mut Bitsliced<L>, a: &Bitsliced<L>) {
    if L == 2
        && spec_field::<P>()
        && let Some(token) = arch::avx2()
        && let (Ok(o2), Ok(a2)) = (
            out.as_flattened_mut().as_chunks_mut::<2>().0.try_into(),
            a.as_flattened().as_chunks::<2>().0.try_into(),
        )
    {
        arch::inv_x2(token, P::M, o2, a2);
        return;
    }
    inv_portable::<P, L>(out, a);
}

/// [`inv`] on the portable path (the twin of the AVX2 kernel): the chain
/// x_(k+1) = x_k^2 a of a^(2^k - 1), then one squaring.
pub(crate) fn inv_portable<P: ParameterSet, const L: usize>(
    out: &mut Bitsliced<L>,
    a: &Bitsliced<L>,
) {
    let mut x = *a;
    let mut t = zero::<L>();
    for _ in 1..P::M - 1 {
        sq::<P, L>(&mut t, &x);
        mul::<P, L>(&mut x, &t, a);
    }
    sq::<P, L>(out, &x);
}

/// The broadcast of one field element to every lane.
#[inline(always)]
pub(crate) fn splat<P: ParameterSet, const L: usize>(out: &mut Bitsliced<L>, c: u16) {
    for (b, o) in out.iter_mut().enumerate().take(P::M) {
        *o = [u64::from((c >> b) & 1).wrapping_neg(); L];
    }
}

/// Bitslices 64 elements into batch `lane` (`v[i]` into bit i).
pub(crate) fn from_elements<P: ParameterSet, const L: usize>(
    out: &mut Bitsliced<L>,
    lane: usize,
    v: &[u16; 64],
) {
    for (b, o) in out.iter_mut().enumerate().take(P::M) {
        let mut w = 0u64;
        for (i, &x) in v.iter().enumerate() {
            w |= u64::from((x >> b) & 1) << i;
        }
        o[lane] = w;
    }
}

#[cfg(all(test, feature = "mceliece348864", feature = "mceliece460896"))]
mod tests {
    use super::*;

    fn check<P: ParameterSet>() {
        let mask = (1u16 << P::M) - 1;
        let mut a = [0u16; 64];
        let mut b = [0u16; 64];
        for i in 0..64 {
            a[i] = (i as u16).wrapping_mul(1237).wrapping_add(5) & mask;
            b[i] = (i as u16).wrapping_mul(3301).wrapping_add(7) & mask;
        }
        a[1] = mask;
        b[1] = mask;
        let (mut va, mut vb, mut vc) = (zero::<2>(), zero::<2>(), zero::<2>());
        from_elements::<P, 2>(&mut va, 1, &a);
        from_elements::<P, 2>(&mut vb, 1, &b);
        mul::<P, 2>(&mut vc, &va, &vb);
        for l in 0..64 {
            let mut x = 0u16;
            for (bit, w) in vc.iter().enumerate().take(P::M) {
                x |= (((w[1] >> l) & 1) as u16) << bit;
            }
            assert_eq!(x, crate::gf::mul::<P>(a[l], b[l]));
        }
    }

    fn check8<P: ParameterSet>() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = || crate::test_util::xorshift(&mut s);
        let mut a = zero::<8>();
        let mut b = zero::<8>();
        for k in 0..P::M {
            for l in 0..8 {
                a[k][l] = rnd();
                b[k][l] = rnd();
            }
        }
        // The split 8-batch product against 2-batch products and the
        // generic loop.
        let (mut x, mut y) = (zero::<8>(), zero::<8>());
        mul::<P, 8>(&mut x, &a, &b);
        for j in 0..4 {
            let a2: Bitsliced<2> = core::array::from_fn(|k| [a[k][2 * j], a[k][2 * j + 1]]);
            let b2: Bitsliced<2> = core::array::from_fn(|k| [b[k][2 * j], b[k][2 * j + 1]]);
            let mut o2 = zero::<2>();
            mul_generic::<P, 2>(&mut o2, &a2, &b2);
            for (o, w) in y.iter_mut().zip(o2) {
                o[2 * j] = w[0];
                o[2 * j + 1] = w[1];
            }
        }
        assert_eq!(x, y);
    }

    #[test]
    fn split_mul_matches_generic() {
        check8::<crate::params::Mceliece348864>();
        check8::<crate::params::Mceliece460896>();
    }

    #[test]
    fn matches_scalar() {
        check::<crate::params::Mceliece348864>();
        check::<crate::params::Mceliece460896>();
    }
}
