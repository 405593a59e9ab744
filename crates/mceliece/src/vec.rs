//! Bitsliced GF(2^m) arithmetic: 64 field elements in m words, word b holding
//! bit b of every element (the "vec" representation of the submission's
//! 64-bit implementation, written here from the field definition, spec §7).
//!
//! A [`Vec`] carries `L` such words per bit (L batches of 64 elements side by
//! side), so the compiler can run L = 2 batches in one SSE2 register.
// ref: vec/vec.c

use crate::params::ParameterSet;

/// Most bits per element (m = 13).
pub(crate) const MAX_M: usize = 13;

/// L bitsliced batches of 64 elements: `v[b][l]` holds bit b of batch l.
pub(crate) type Vec<const L: usize = 1> = [[u64; L]; MAX_M];

/// The all-zero vector.
pub(crate) const fn zero<const L: usize>() -> Vec<L> {
    [[0; L]; MAX_M]
}

/// out = a b for 64 L element pairs at once: the unrolled kernel of the
/// field size (m = 12 or 13; the spec's two fields), else the generic loop.
#[inline]
pub(crate) fn mul<P: ParameterSet, const L: usize>(out: &mut Vec<L>, a: &Vec<L>, b: &Vec<L>) {
    if L > 2 && L & 1 == 0 {
        // Wider than one SSE2 register per bit: independent 2-batch
        // products, a fraction of the live data each (the wide kernel
        // spills most of its operands).
        for j in 0..L >> 1 {
            let a2: Vec<2> = core::array::from_fn(|k| [a[k][2 * j], a[k][2 * j + 1]]);
            let b2: Vec<2> = core::array::from_fn(|k| [b[k][2 * j], b[k][2 * j + 1]]);
            let mut o2 = zero::<2>();
            mul::<P, 2>(&mut o2, &a2, &b2);
            for (o, w) in out.iter_mut().zip(o2) {
                o[2 * j] = w[0];
                o[2 * j + 1] = w[1];
            }
        }
        return;
    }
    if P::M == 12 && P::FIELD_POLY == 0b1001 {
        mul12::<L>(out, a, b);
    } else if P::M == 13 && P::FIELD_POLY == 0b1_1011 {
        mul13::<L>(out, a, b);
    } else {
        mul_generic::<P, L>(out, a, b);
    }
}

#[inline(always)]
fn and<const L: usize>(x: [u64; L], y: [u64; L]) -> [u64; L] {
    core::array::from_fn(|l| x[l] & y[l])
}

#[inline(always)]
fn xor<const L: usize>(x: [u64; L], y: [u64; L]) -> [u64; L] {
    core::array::from_fn(|l| x[l] ^ y[l])
}

/// Product for m = 12, fully unrolled: each column of the schoolbook
/// product is summed once, then folded by f(z) (generated code).
#[inline(always)]
fn mul12<const L: usize>(out: &mut Vec<L>, a: &Vec<L>, b: &Vec<L>) {
    let mut c = [[0u64; L]; 23];
    let t = and(a[0], b[0]);
    c[0] = t;
    let mut t = and(a[0], b[1]);
    t = xor(t, and(a[1], b[0]));
    c[1] = t;
    let mut t = and(a[0], b[2]);
    t = xor(t, and(a[1], b[1]));
    t = xor(t, and(a[2], b[0]));
    c[2] = t;
    let mut t = and(a[0], b[3]);
    t = xor(t, and(a[1], b[2]));
    t = xor(t, and(a[2], b[1]));
    t = xor(t, and(a[3], b[0]));
    c[3] = t;
    let mut t = and(a[0], b[4]);
    t = xor(t, and(a[1], b[3]));
    t = xor(t, and(a[2], b[2]));
    t = xor(t, and(a[3], b[1]));
    t = xor(t, and(a[4], b[0]));
    c[4] = t;
    let mut t = and(a[0], b[5]);
    t = xor(t, and(a[1], b[4]));
    t = xor(t, and(a[2], b[3]));
    t = xor(t, and(a[3], b[2]));
    t = xor(t, and(a[4], b[1]));
    t = xor(t, and(a[5], b[0]));
    c[5] = t;
    let mut t = and(a[0], b[6]);
    t = xor(t, and(a[1], b[5]));
    t = xor(t, and(a[2], b[4]));
    t = xor(t, and(a[3], b[3]));
    t = xor(t, and(a[4], b[2]));
    t = xor(t, and(a[5], b[1]));
    t = xor(t, and(a[6], b[0]));
    c[6] = t;
    let mut t = and(a[0], b[7]);
    t = xor(t, and(a[1], b[6]));
    t = xor(t, and(a[2], b[5]));
    t = xor(t, and(a[3], b[4]));
    t = xor(t, and(a[4], b[3]));
    t = xor(t, and(a[5], b[2]));
    t = xor(t, and(a[6], b[1]));
    t = xor(t, and(a[7], b[0]));
    c[7] = t;
    let mut t = and(a[0], b[8]);
    t = xor(t, and(a[1], b[7]));
    t = xor(t, and(a[2], b[6]));
    t = xor(t, and(a[3], b[5]));
    t = xor(t, and(a[4], b[4]));
    t = xor(t, and(a[5], b[3]));
    t = xor(t, and(a[6], b[2]));
    t = xor(t, and(a[7], b[1]));
    t = xor(t, and(a[8], b[0]));
    c[8] = t;
    let mut t = and(a[0], b[9]);
    t = xor(t, and(a[1], b[8]));
    t = xor(t, and(a[2], b[7]));
    t = xor(t, and(a[3], b[6]));
    t = xor(t, and(a[4], b[5]));
    t = xor(t, and(a[5], b[4]));
    t = xor(t, and(a[6], b[3]));
    t = xor(t, and(a[7], b[2]));
    t = xor(t, and(a[8], b[1]));
    t = xor(t, and(a[9], b[0]));
    c[9] = t;
    let mut t = and(a[0], b[10]);
    t = xor(t, and(a[1], b[9]));
    t = xor(t, and(a[2], b[8]));
    t = xor(t, and(a[3], b[7]));
    t = xor(t, and(a[4], b[6]));
    t = xor(t, and(a[5], b[5]));
    t = xor(t, and(a[6], b[4]));
    t = xor(t, and(a[7], b[3]));
    t = xor(t, and(a[8], b[2]));
    t = xor(t, and(a[9], b[1]));
    t = xor(t, and(a[10], b[0]));
    c[10] = t;
    let mut t = and(a[0], b[11]);
    t = xor(t, and(a[1], b[10]));
    t = xor(t, and(a[2], b[9]));
    t = xor(t, and(a[3], b[8]));
    t = xor(t, and(a[4], b[7]));
    t = xor(t, and(a[5], b[6]));
    t = xor(t, and(a[6], b[5]));
    t = xor(t, and(a[7], b[4]));
    t = xor(t, and(a[8], b[3]));
    t = xor(t, and(a[9], b[2]));
    t = xor(t, and(a[10], b[1]));
    t = xor(t, and(a[11], b[0]));
    c[11] = t;
    let mut t = and(a[1], b[11]);
    t = xor(t, and(a[2], b[10]));
    t = xor(t, and(a[3], b[9]));
    t = xor(t, and(a[4], b[8]));
    t = xor(t, and(a[5], b[7]));
    t = xor(t, and(a[6], b[6]));
    t = xor(t, and(a[7], b[5]));
    t = xor(t, and(a[8], b[4]));
    t = xor(t, and(a[9], b[3]));
    t = xor(t, and(a[10], b[2]));
    t = xor(t, and(a[11], b[1]));
    c[12] = t;
    let mut t = and(a[2], b[11]);
    t = xor(t, and(a[3], b[10]));
    t = xor(t, and(a[4], b[9]));
    t = xor(t, and(a[5], b[8]));
    t = xor(t, and(a[6], b[7]));
    t = xor(t, and(a[7], b[6]));
    t = xor(t, and(a[8], b[5]));
    t = xor(t, and(a[9], b[4]));
    t = xor(t, and(a[10], b[3]));
    t = xor(t, and(a[11], b[2]));
    c[13] = t;
    let mut t = and(a[3], b[11]);
    t = xor(t, and(a[4], b[10]));
    t = xor(t, and(a[5], b[9]));
    t = xor(t, and(a[6], b[8]));
    t = xor(t, and(a[7], b[7]));
    t = xor(t, and(a[8], b[6]));
    t = xor(t, and(a[9], b[5]));
    t = xor(t, and(a[10], b[4]));
    t = xor(t, and(a[11], b[3]));
    c[14] = t;
    let mut t = and(a[4], b[11]);
    t = xor(t, and(a[5], b[10]));
    t = xor(t, and(a[6], b[9]));
    t = xor(t, and(a[7], b[8]));
    t = xor(t, and(a[8], b[7]));
    t = xor(t, and(a[9], b[6]));
    t = xor(t, and(a[10], b[5]));
    t = xor(t, and(a[11], b[4]));
    c[15] = t;
    let mut t = and(a[5], b[11]);
    t = xor(t, and(a[6], b[10]));
    t = xor(t, and(a[7], b[9]));
    t = xor(t, and(a[8], b[8]));
    t = xor(t, and(a[9], b[7]));
    t = xor(t, and(a[10], b[6]));
    t = xor(t, and(a[11], b[5]));
    c[16] = t;
    let mut t = and(a[6], b[11]);
    t = xor(t, and(a[7], b[10]));
    t = xor(t, and(a[8], b[9]));
    t = xor(t, and(a[9], b[8]));
    t = xor(t, and(a[10], b[7]));
    t = xor(t, and(a[11], b[6]));
    c[17] = t;
    let mut t = and(a[7], b[11]);
    t = xor(t, and(a[8], b[10]));
    t = xor(t, and(a[9], b[9]));
    t = xor(t, and(a[10], b[8]));
    t = xor(t, and(a[11], b[7]));
    c[18] = t;
    let mut t = and(a[8], b[11]);
    t = xor(t, and(a[9], b[10]));
    t = xor(t, and(a[10], b[9]));
    t = xor(t, and(a[11], b[8]));
    c[19] = t;
    let mut t = and(a[9], b[11]);
    t = xor(t, and(a[10], b[10]));
    t = xor(t, and(a[11], b[9]));
    c[20] = t;
    let mut t = and(a[10], b[11]);
    t = xor(t, and(a[11], b[10]));
    c[21] = t;
    let t = and(a[11], b[11]);
    c[22] = t;
    c[10] = xor(c[10], c[22]);
    c[13] = xor(c[13], c[22]);
    c[9] = xor(c[9], c[21]);
    c[12] = xor(c[12], c[21]);
    c[8] = xor(c[8], c[20]);
    c[11] = xor(c[11], c[20]);
    c[7] = xor(c[7], c[19]);
    c[10] = xor(c[10], c[19]);
    c[6] = xor(c[6], c[18]);
    c[9] = xor(c[9], c[18]);
    c[5] = xor(c[5], c[17]);
    c[8] = xor(c[8], c[17]);
    c[4] = xor(c[4], c[16]);
    c[7] = xor(c[7], c[16]);
    c[3] = xor(c[3], c[15]);
    c[6] = xor(c[6], c[15]);
    c[2] = xor(c[2], c[14]);
    c[5] = xor(c[5], c[14]);
    c[1] = xor(c[1], c[13]);
    c[4] = xor(c[4], c[13]);
    c[0] = xor(c[0], c[12]);
    c[3] = xor(c[3], c[12]);
    out[..12].copy_from_slice(&c[..12]);
}

/// Product for m = 13, fully unrolled: each column of the schoolbook
/// product is summed once, then folded by f(z) (generated code).
#[inline(always)]
fn mul13<const L: usize>(out: &mut Vec<L>, a: &Vec<L>, b: &Vec<L>) {
    let mut c = [[0u64; L]; 25];
    let t = and(a[0], b[0]);
    c[0] = t;
    let mut t = and(a[0], b[1]);
    t = xor(t, and(a[1], b[0]));
    c[1] = t;
    let mut t = and(a[0], b[2]);
    t = xor(t, and(a[1], b[1]));
    t = xor(t, and(a[2], b[0]));
    c[2] = t;
    let mut t = and(a[0], b[3]);
    t = xor(t, and(a[1], b[2]));
    t = xor(t, and(a[2], b[1]));
    t = xor(t, and(a[3], b[0]));
    c[3] = t;
    let mut t = and(a[0], b[4]);
    t = xor(t, and(a[1], b[3]));
    t = xor(t, and(a[2], b[2]));
    t = xor(t, and(a[3], b[1]));
    t = xor(t, and(a[4], b[0]));
    c[4] = t;
    let mut t = and(a[0], b[5]);
    t = xor(t, and(a[1], b[4]));
    t = xor(t, and(a[2], b[3]));
    t = xor(t, and(a[3], b[2]));
    t = xor(t, and(a[4], b[1]));
    t = xor(t, and(a[5], b[0]));
    c[5] = t;
    let mut t = and(a[0], b[6]);
    t = xor(t, and(a[1], b[5]));
    t = xor(t, and(a[2], b[4]));
    t = xor(t, and(a[3], b[3]));
    t = xor(t, and(a[4], b[2]));
    t = xor(t, and(a[5], b[1]));
    t = xor(t, and(a[6], b[0]));
    c[6] = t;
    let mut t = and(a[0], b[7]);
    t = xor(t, and(a[1], b[6]));
    t = xor(t, and(a[2], b[5]));
    t = xor(t, and(a[3], b[4]));
    t = xor(t, and(a[4], b[3]));
    t = xor(t, and(a[5], b[2]));
    t = xor(t, and(a[6], b[1]));
    t = xor(t, and(a[7], b[0]));
    c[7] = t;
    let mut t = and(a[0], b[8]);
    t = xor(t, and(a[1], b[7]));
    t = xor(t, and(a[2], b[6]));
    t = xor(t, and(a[3], b[5]));
    t = xor(t, and(a[4], b[4]));
    t = xor(t, and(a[5], b[3]));
    t = xor(t, and(a[6], b[2]));
    t = xor(t, and(a[7], b[1]));
    t = xor(t, and(a[8], b[0]));
    c[8] = t;
    let mut t = and(a[0], b[9]);
    t = xor(t, and(a[1], b[8]));
    t = xor(t, and(a[2], b[7]));
    t = xor(t, and(a[3], b[6]));
    t = xor(t, and(a[4], b[5]));
    t = xor(t, and(a[5], b[4]));
    t = xor(t, and(a[6], b[3]));
    t = xor(t, and(a[7], b[2]));
    t = xor(t, and(a[8], b[1]));
    t = xor(t, and(a[9], b[0]));
    c[9] = t;
    let mut t = and(a[0], b[10]);
    t = xor(t, and(a[1], b[9]));
    t = xor(t, and(a[2], b[8]));
    t = xor(t, and(a[3], b[7]));
    t = xor(t, and(a[4], b[6]));
    t = xor(t, and(a[5], b[5]));
    t = xor(t, and(a[6], b[4]));
    t = xor(t, and(a[7], b[3]));
    t = xor(t, and(a[8], b[2]));
    t = xor(t, and(a[9], b[1]));
    t = xor(t, and(a[10], b[0]));
    c[10] = t;
    let mut t = and(a[0], b[11]);
    t = xor(t, and(a[1], b[10]));
    t = xor(t, and(a[2], b[9]));
    t = xor(t, and(a[3], b[8]));
    t = xor(t, and(a[4], b[7]));
    t = xor(t, and(a[5], b[6]));
    t = xor(t, and(a[6], b[5]));
    t = xor(t, and(a[7], b[4]));
    t = xor(t, and(a[8], b[3]));
    t = xor(t, and(a[9], b[2]));
    t = xor(t, and(a[10], b[1]));
    t = xor(t, and(a[11], b[0]));
    c[11] = t;
    let mut t = and(a[0], b[12]);
    t = xor(t, and(a[1], b[11]));
    t = xor(t, and(a[2], b[10]));
    t = xor(t, and(a[3], b[9]));
    t = xor(t, and(a[4], b[8]));
    t = xor(t, and(a[5], b[7]));
    t = xor(t, and(a[6], b[6]));
    t = xor(t, and(a[7], b[5]));
    t = xor(t, and(a[8], b[4]));
    t = xor(t, and(a[9], b[3]));
    t = xor(t, and(a[10], b[2]));
    t = xor(t, and(a[11], b[1]));
    t = xor(t, and(a[12], b[0]));
    c[12] = t;
    let mut t = and(a[1], b[12]);
    t = xor(t, and(a[2], b[11]));
    t = xor(t, and(a[3], b[10]));
    t = xor(t, and(a[4], b[9]));
    t = xor(t, and(a[5], b[8]));
    t = xor(t, and(a[6], b[7]));
    t = xor(t, and(a[7], b[6]));
    t = xor(t, and(a[8], b[5]));
    t = xor(t, and(a[9], b[4]));
    t = xor(t, and(a[10], b[3]));
    t = xor(t, and(a[11], b[2]));
    t = xor(t, and(a[12], b[1]));
    c[13] = t;
    let mut t = and(a[2], b[12]);
    t = xor(t, and(a[3], b[11]));
    t = xor(t, and(a[4], b[10]));
    t = xor(t, and(a[5], b[9]));
    t = xor(t, and(a[6], b[8]));
    t = xor(t, and(a[7], b[7]));
    t = xor(t, and(a[8], b[6]));
    t = xor(t, and(a[9], b[5]));
    t = xor(t, and(a[10], b[4]));
    t = xor(t, and(a[11], b[3]));
    t = xor(t, and(a[12], b[2]));
    c[14] = t;
    let mut t = and(a[3], b[12]);
    t = xor(t, and(a[4], b[11]));
    t = xor(t, and(a[5], b[10]));
    t = xor(t, and(a[6], b[9]));
    t = xor(t, and(a[7], b[8]));
    t = xor(t, and(a[8], b[7]));
    t = xor(t, and(a[9], b[6]));
    t = xor(t, and(a[10], b[5]));
    t = xor(t, and(a[11], b[4]));
    t = xor(t, and(a[12], b[3]));
    c[15] = t;
    let mut t = and(a[4], b[12]);
    t = xor(t, and(a[5], b[11]));
    t = xor(t, and(a[6], b[10]));
    t = xor(t, and(a[7], b[9]));
    t = xor(t, and(a[8], b[8]));
    t = xor(t, and(a[9], b[7]));
    t = xor(t, and(a[10], b[6]));
    t = xor(t, and(a[11], b[5]));
    t = xor(t, and(a[12], b[4]));
    c[16] = t;
    let mut t = and(a[5], b[12]);
    t = xor(t, and(a[6], b[11]));
    t = xor(t, and(a[7], b[10]));
    t = xor(t, and(a[8], b[9]));
    t = xor(t, and(a[9], b[8]));
    t = xor(t, and(a[10], b[7]));
    t = xor(t, and(a[11], b[6]));
    t = xor(t, and(a[12], b[5]));
    c[17] = t;
    let mut t = and(a[6], b[12]);
    t = xor(t, and(a[7], b[11]));
    t = xor(t, and(a[8], b[10]));
    t = xor(t, and(a[9], b[9]));
    t = xor(t, and(a[10], b[8]));
    t = xor(t, and(a[11], b[7]));
    t = xor(t, and(a[12], b[6]));
    c[18] = t;
    let mut t = and(a[7], b[12]);
    t = xor(t, and(a[8], b[11]));
    t = xor(t, and(a[9], b[10]));
    t = xor(t, and(a[10], b[9]));
    t = xor(t, and(a[11], b[8]));
    t = xor(t, and(a[12], b[7]));
    c[19] = t;
    let mut t = and(a[8], b[12]);
    t = xor(t, and(a[9], b[11]));
    t = xor(t, and(a[10], b[10]));
    t = xor(t, and(a[11], b[9]));
    t = xor(t, and(a[12], b[8]));
    c[20] = t;
    let mut t = and(a[9], b[12]);
    t = xor(t, and(a[10], b[11]));
    t = xor(t, and(a[11], b[10]));
    t = xor(t, and(a[12], b[9]));
    c[21] = t;
    let mut t = and(a[10], b[12]);
    t = xor(t, and(a[11], b[11]));
    t = xor(t, and(a[12], b[10]));
    c[22] = t;
    let mut t = and(a[11], b[12]);
    t = xor(t, and(a[12], b[11]));
    c[23] = t;
    let t = and(a[12], b[12]);
    c[24] = t;
    c[11] = xor(c[11], c[24]);
    c[12] = xor(c[12], c[24]);
    c[14] = xor(c[14], c[24]);
    c[15] = xor(c[15], c[24]);
    c[10] = xor(c[10], c[23]);
    c[11] = xor(c[11], c[23]);
    c[13] = xor(c[13], c[23]);
    c[14] = xor(c[14], c[23]);
    c[9] = xor(c[9], c[22]);
    c[10] = xor(c[10], c[22]);
    c[12] = xor(c[12], c[22]);
    c[13] = xor(c[13], c[22]);
    c[8] = xor(c[8], c[21]);
    c[9] = xor(c[9], c[21]);
    c[11] = xor(c[11], c[21]);
    c[12] = xor(c[12], c[21]);
    c[7] = xor(c[7], c[20]);
    c[8] = xor(c[8], c[20]);
    c[10] = xor(c[10], c[20]);
    c[11] = xor(c[11], c[20]);
    c[6] = xor(c[6], c[19]);
    c[7] = xor(c[7], c[19]);
    c[9] = xor(c[9], c[19]);
    c[10] = xor(c[10], c[19]);
    c[5] = xor(c[5], c[18]);
    c[6] = xor(c[6], c[18]);
    c[8] = xor(c[8], c[18]);
    c[9] = xor(c[9], c[18]);
    c[4] = xor(c[4], c[17]);
    c[5] = xor(c[5], c[17]);
    c[7] = xor(c[7], c[17]);
    c[8] = xor(c[8], c[17]);
    c[3] = xor(c[3], c[16]);
    c[4] = xor(c[4], c[16]);
    c[6] = xor(c[6], c[16]);
    c[7] = xor(c[7], c[16]);
    c[2] = xor(c[2], c[15]);
    c[3] = xor(c[3], c[15]);
    c[5] = xor(c[5], c[15]);
    c[6] = xor(c[6], c[15]);
    c[1] = xor(c[1], c[14]);
    c[2] = xor(c[2], c[14]);
    c[4] = xor(c[4], c[14]);
    c[5] = xor(c[5], c[14]);
    c[0] = xor(c[0], c[13]);
    c[1] = xor(c[1], c[13]);
    c[3] = xor(c[3], c[13]);
    c[4] = xor(c[4], c[13]);
    out[..13].copy_from_slice(&c[..13]);
}

/// Generic product (schoolbook, then reduction by
/// f(z)). The loops have constant bounds (MAX_M) so they unroll completely;
/// the `i < m` tests fold away for each parameter set.
#[inline]
fn mul_generic<P: ParameterSet, const L: usize>(out: &mut Vec<L>, a: &Vec<L>, b: &Vec<L>) {
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
fn reduce<P: ParameterSet, const L: usize>(out: &mut Vec<L>, buf: &mut [[u64; L]; 2 * MAX_M - 1]) {
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
pub(crate) fn sq<P: ParameterSet, const L: usize>(out: &mut Vec<L>, a: &Vec<L>) {
    let m = P::M;
    let mut buf = [[0u64; L]; 2 * MAX_M - 1];
    for i in 0..m {
        buf[2 * i] = a[i];
    }
    reduce::<P, L>(out, &mut buf);
}

/// out = 1/a (0 for a = 0), lane by lane: a^(2^m - 2).
pub(crate) fn inv<P: ParameterSet, const L: usize>(out: &mut Vec<L>, a: &Vec<L>) {
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
pub(crate) fn splat<P: ParameterSet, const L: usize>(out: &mut Vec<L>, c: u16) {
    for (b, o) in out.iter_mut().enumerate().take(P::M) {
        *o = [u64::from((c >> b) & 1).wrapping_neg(); L];
    }
}

/// Bitslices 64 elements into batch `lane` (`v[i]` into bit i).
pub(crate) fn from_elements<P: ParameterSet, const L: usize>(
    out: &mut Vec<L>,
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
        let mut rnd = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
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
            let a2: Vec<2> = core::array::from_fn(|k| [a[k][2 * j], a[k][2 * j + 1]]);
            let b2: Vec<2> = core::array::from_fn(|k| [b[k][2 * j], b[k][2 * j + 1]]);
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
