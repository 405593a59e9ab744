//! Irreducible-polynomial generation (spec §2.4.1 / §8.1 step "Goppa polynomial":
//! g = minimal polynomial of a random element of GF(2^mt)).
// ref: sk_gen.c (`genpoly_gen`)

use crate::gf;
use crate::params::Params;

/// Computes the minimal polynomial g (monic, t low coefficients) of the element
/// f of GF(2^m)[y]/F(y). Returns `false` if its degree is below t (1, f, ...,
/// f^(t-1) linearly dependent): the caller then draws a new seed.
pub(crate) fn genpoly_gen<P: Params>(g: &mut [u16], f: &[u16]) -> bool {
    let t = P::T;
    // mat[c] = f^c (c = 0..=t), each t coefficients; columns of the system
    // sum_{c<t} g_c f^c = f^t.
    let mut mat = [[0u16; 128]; 129];
    mat[0][0] = 1;
    mat[1][..t].copy_from_slice(&f[..t]);
    for c in 2..=t {
        let (lo, hi) = mat.split_at_mut(c);
        gf::poly_mul::<P>(&mut hi[0], &lo[c - 1], f);
    }
    // Gauss-Jordan on the rows (coefficient index r), column j = power j.
    for j in 0..t {
        for k in j + 1..t {
            let mask = gf::is_zero_mask(mat[j][j]);
            for col in mat.iter_mut().take(t + 1).skip(j) {
                col[j] ^= col[k] & mask;
            }
        }
        let mut singular = gf::is_zero_mask(mat[j][j]);
        // Public by design (ref sk_gen.c, libmceliece `sk_gen` declassification):
        // only whether this candidate f is rejected leaks; it is then discarded.
        pqdr_ct::hook::declassify(&mut singular);
        if singular != 0 {
            return false;
        }
        let inv = gf::inv::<P>(mat[j][j]);
        for col in mat.iter_mut().take(t + 1).skip(j) {
            col[j] = gf::mul::<P>(col[j], inv);
        }
        for k in 0..t {
            if k != j {
                let s = mat[j][k];
                for col in mat.iter_mut().take(t + 1).skip(j) {
                    col[k] ^= gf::mul::<P>(col[j], s);
                }
            }
        }
    }
    g[..t].copy_from_slice(&mat[t][..t]);
    true
}
