//! The Streamlined NTRU Prime Core on polynomials (spec §3.3; reference
//! `KeyGen`, `Encrypt`, `Decrypt`).

use crate::ct::{self, ConditionallySelectable, ConstantTimeEq};
use crate::mult::{r3_from_3rq, r3_mult, round, rq_mult_small};
use crate::recip::rq_recip3;

/// The second half of `KeyGen`: `h = g / (3 f)` in R/q, given `f` (short) and `g`
/// (already known to be invertible in R/3). Uses `finv` and `buf` as scratch.
pub(crate) fn public_key<const P: usize, const Q: i16>(
    h: &mut [i16; P],
    f: &[i8; P],
    g: &[i8; P],
    finv: &mut [i16; P],
    buf: &mut [[i16; P]; 7],
    acc: &mut [[i16; P]; 2],
) {
    // Rq_recip3 always succeeds here: f is nonzero mod q and x^p - x - 1 is
    // irreducible mod q (spec §3.1), so the result flag carries no information.
    let _ = rq_recip3::<P, Q>(finv, f, buf);
    rq_mult_small::<P, Q>(h, finv, g, acc);
}

/// `Encrypt`: `c = Round(h r)`.
pub(crate) fn encrypt<const P: usize, const Q: i16>(
    c: &mut [i16; P],
    r: &[i8; P],
    h: &[i16; P],
    acc: &mut [[i16; P]; 2],
) {
    rq_mult_small::<P, Q>(c, h, r, acc);
    round(c);
}

/// `Decrypt`: `r = (3 f c) * v` in R/3 if it has weight w, else the fixed
/// weight-w vector `(1, …, 1, 0, …, 0)`; decided without a branch.
#[allow(clippy::too_many_arguments, reason = "scratch buffers are passed in")]
pub(crate) fn decrypt<const P: usize, const Q: i16, const W: usize>(
    r: &mut [i8; P],
    c: &[i16; P],
    f: &[i8; P],
    v: &[i8; P],
    cf: &mut [i16; P],
    e: &mut [i8; P],
    acc: &mut [[i16; P]; 2],
    tmp: &mut [i16; P],
) {
    rq_mult_small::<P, Q>(cf, c, f, acc);
    r3_from_3rq::<P, Q>(e, cf);
    r3_mult(r, e, v, acc, tmp);
    let weight = r.iter().fold(0u32, |w, &x| {
        #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
        let bit = (x & 1) as u32;
        w.wrapping_add(bit)
    });
    #[allow(clippy::cast_possible_truncation, reason = "W < 2^32")]
    let ok = weight.ct_eq(&(W as u32));
    for (i, x) in r.iter_mut().enumerate() {
        let fallback = i8::from(i < W);
        *x = i8::conditional_select(&fallback, x, ok);
    }
}

/// Weight check for an externally supplied short polynomial (public use only:
/// validating caller input to the deterministic entry points).
pub(crate) fn is_short<const P: usize, const W: usize>(r: &[i8; P]) -> ct::Choice {
    let weight = r
        .iter()
        .fold(0u32, |w, &x| w.wrapping_add(u32::from(x != 0)));
    #[allow(clippy::cast_possible_truncation, reason = "W < 2^32")]
    weight.ct_eq(&(W as u32))
}
