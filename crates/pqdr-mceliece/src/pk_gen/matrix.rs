//! The columns of the parity-check matrix H (Classic McEliece spec §2.4.3,
//! MatGen: column j is (1, alpha_j, ..., alpha_j^(t-1))^T / g(alpha_j), each
//! entry m bits tall), generated 64 columns at a time in bitsliced form:
//! H_left for the elimination here, H_right again for each pass of the T
//! stage.

use crate::arch;
use crate::params::ParameterSet;
use crate::vec;
use zeroize::Zeroize;

/// Chunks of 64 columns handled together by one bitsliced operation.
pub(super) const LANES: usize = 8;

/// out = a b on 8 chunks of 64 element pairs: with AVX2 as two 4-chunk
/// products (`vec::mul::<P, 4>`, one 256-bit register per plane), else the
/// portable 8-chunk product (four 2-chunk ones).
#[inline(always)]
pub(super) fn mul8<P: ParameterSet>(
    out: &mut vec::Bitsliced<LANES>,
    a: &vec::Bitsliced<LANES>,
    b: &vec::Bitsliced<LANES>,
) {
    if arch::avx2().is_none() {
        vec::mul::<P, LANES>(out, a, b);
        return;
    }
    for h in 0..2 {
        let a4: vec::Bitsliced<4> = core::array::from_fn(|k| {
            let w = &a[k][4 * h..4 * h + 4];
            [w[0], w[1], w[2], w[3]]
        });
        let b4: vec::Bitsliced<4> = core::array::from_fn(|k| {
            let w = &b[k][4 * h..4 * h + 4];
            [w[0], w[1], w[2], w[3]]
        });
        let mut o4 = vec::zero::<4>();
        vec::mul::<P, 4>(&mut o4, &a4, &b4);
        for (o, w) in out.iter_mut().zip(o4) {
            o[4 * h..4 * h + 4].copy_from_slice(&w);
        }
    }
}

/// Bitsliced evaluation of 8 chunks of 64 columns from column `start`
/// (chunk l = columns start + 64 l ..): `alpha` gets the support elements
/// alpha_j and `v` gets 1/g(alpha_j) (Classic McEliece spec §2.4.3: column j of H is
/// (1, alpha_j, ..., alpha_j^(t-1))^T / g(alpha_j)); columns at or past n
/// are zero in `v`.
pub(super) fn eval_group<P: ParameterSet>(
    alpha: &mut vec::Bitsliced<LANES>,
    v: &mut vec::Bitsliced<LANES>,
    g: &[u16],
    support: &[u16],
    start: usize,
) {
    let (m, t, n) = (P::M, P::T, P::N);
    let mut valid = [0u64; LANES];
    for (lane, vl) in valid.iter_mut().enumerate() {
        let mut el = [0u16; 64];
        for (i, e) in el.iter_mut().enumerate() {
            let j = start + 64 * lane + i;
            if j < n {
                *e = support[j];
                *vl |= 1 << i;
            }
        }
        vec::from_elements::<P, LANES>(alpha, lane, &el);
    }
    // g(alpha) by Horner, g monic.
    let mut acc = vec::zero::<LANES>();
    acc[0] = [!0; LANES];
    let mut tmp = vec::zero::<LANES>();
    let mut gc = vec::zero::<LANES>();
    for &gi in g[..t].iter().rev() {
        mul8::<P>(&mut tmp, &acc, alpha);
        vec::splat::<P, LANES>(&mut gc, gi);
        for b in 0..m {
            for l in 0..LANES {
                acc[b][l] = tmp[b][l] ^ gc[b][l];
            }
        }
    }
    vec::inv::<P, LANES>(v, &acc);
    for w in v.iter_mut().take(m) {
        for (x, &vl) in w.iter_mut().zip(&valid) {
            *x &= vl;
        }
    }
    acc.zeroize();
    tmp.zeroize();
}

/// Writes the first `left_words` words of every row of H (the columns of
/// H_left, plus the window for the `f` sets) into `mat`, rows `stride` bytes
/// apart.
pub(super) fn write_h_left<P: ParameterSet>(
    mat: &mut [u8],
    stride: usize,
    left_words: usize,
    g: &[u16],
    support: &[u16],
) {
    let (m, t) = (P::M, P::T);
    let mut alpha = vec::zero::<LANES>();
    let mut v = vec::zero::<LANES>();
    let mut tmp = vec::zero::<LANES>();
    for grp in 0..left_words.div_ceil(LANES) {
        eval_group::<P>(&mut alpha, &mut v, g, support, 64 * LANES * grp);
        let lanes = (left_words - LANES * grp).min(LANES);
        for r in 0..t {
            for b in 0..m {
                let row = &mut mat[(r * m + b) * stride + 64 * grp..];
                for (dst, w) in row.chunks_exact_mut(8).zip(&v[b][..lanes]) {
                    dst.copy_from_slice(&w.to_le_bytes());
                }
            }
            if r + 1 < t {
                mul8::<P>(&mut tmp, &v, &alpha);
                v = tmp;
            }
        }
    }
    v.zeroize();
    tmp.zeroize();
}
