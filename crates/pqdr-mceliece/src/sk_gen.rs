//! Irreducible-polynomial generation (Classic McEliece spec §2.4.1 / §8.1
//! step "Goppa polynomial": g = minimal polynomial of a random element of
//! GF(2^mt)).
// ref: sk_gen.c (`genpoly_gen`)

use crate::gf;
use crate::params::{MAX_M, MAX_T, ParameterSet};
use zeroize::Zeroize;

/// Columns per row of the linear system (t + 1 <= 129, padded to 144: the
/// row operations run on whole 16-element vectors).
const COLS: usize = (MAX_T + 1).next_multiple_of(16);

/// Irreducible-polynomial generation (Classic McEliece spec §2.4.1), the
/// portable path: [`minimal_poly`] (its own frame, kept out of the caller's).
#[inline(never)]
pub(crate) fn genpoly_gen<P: ParameterSet>(g: &mut [u16], f: &[u16]) -> bool {
    minimal_poly::<P>(g, f)
}

/// Irreducible-polynomial generation (Classic McEliece spec §2.4.1): computes
/// the minimal polynomial g (monic, t low coefficients) of the element
/// f of GF(2^m)\[y\]/F(y). Returns `false` if its degree is below t (1, f, ...,
/// f^(t-1) linearly dependent): the caller then draws a new seed.
///
/// The system sum_{c<t} g_c f^c = f^t is solved by Gauss–Jordan elimination
/// on its rows (coefficient index r; column c = power c, column t the right
/// side), so every step is a scaled addition of contiguous rows.
///
/// Always inlined: the AVX2 path (`arch::genpoly_gen`) compiles this same
/// code with AVX2 enabled (16 lanes per scaled row addition).
#[inline(always)]
pub(crate) fn minimal_poly<P: ParameterSet>(g: &mut [u16], f: &[u16]) -> bool {
    let t = P::T;
    let mut mat = [[0u16; COLS]; MAX_T];
    // The multiples of f by z^k (every product by f), then of each pivot row.
    let mut planes = [[0u16; COLS]; MAX_M];
    gf::multiples::<P, COLS>(&mut planes, f);
    let mut pow = [0u16; MAX_T];
    let mut next = [0u16; MAX_T];
    pow[0] = 1;
    for c in 0..=t {
        for (row, &x) in mat.iter_mut().zip(pow.iter()).take(t) {
            row[c] = x;
        }
        if c < t {
            gf::poly_mul::<P, COLS>(&mut next, &pow, &planes);
            pow = next;
        }
    }
    pow.zeroize();
    next.zeroize();
    let mut ok = true;
    // Row operations on columns j0 .. w, whole vectors of 16 (no remainder
    // loops): at step j, columns below j are zero in every row from j on
    // (Gauss–Jordan) and columns above t are zero in every row, so the
    // extra columns add zeros.
    let w = (t + 1).next_multiple_of(16);
    for j in 0..t {
        let j0 = j & !15;
        // Make entry (j, j) nonzero by adding the later rows while it is zero.
        for k in j + 1..t {
            let (lo, hi) = mat.split_at_mut(k);
            let mask = crate::ct::opaque(gf::is_zero_mask(lo[j][j]));
            let (rj, rk) = (&mut lo[j][j0..w], &hi[0][j0..w]);
            for (a, &b) in rj.iter_mut().zip(rk) {
                *a ^= b & mask;
            }
        }
        let mut singular = gf::is_zero_mask(mat[j][j]);
        // Public by design (ref sk_gen.c, libmceliece `sk_gen` declassification):
        // only whether this candidate f is rejected leaks; it is then discarded.
        pqdr_ctgrind::hook::declassify(&mut singular);
        if singular != 0 {
            ok = false;
            break;
        }
        let inv = gf::inv::<P>(mat[j][j]);
        gf::scale::<P>(&mut mat[j][j0..w], inv);
        gf::multiples::<P, COLS>(&mut planes, &mat[j][j0..w]);
        for (k, row) in mat.iter_mut().enumerate().take(t) {
            if k != j {
                let s = row[j];
                gf::mul_add_multiples::<P, COLS>(&mut row[j0..w], &planes, s);
            }
        }
    }
    if ok {
        for (gi, row) in g.iter_mut().zip(mat.iter()).take(t) {
            *gi = row[t];
        }
    }
    mat.zeroize();
    planes.zeroize();
    ok
}
