//! The Streamlined NTRU Prime Core on polynomials (NTRU Prime spec §2.3:
//! Core `KeyGen`, `Encrypt`, and `Decrypt` in §2.3.4; reference `KeyGen`,
//! `Encrypt`, `Decrypt`). Each step that needs a large scratch
//! buffer is its own non-inlined function, so the buffers of consecutive
//! steps share stack space; the products of `Encrypt` and `Decrypt` take the
//! caller's [`Scratch`] instead, so that `Decap`'s three products share one
//! (zero-filled once: every product writes what it reads of it).

use crate::arch::{self, Avx2, Hat, RecipState, Side};
use crate::ct::{self, ConstantTimeEq};
use crate::encode::{small_coeffs, small_decode, small_encode};
use crate::mult::{Scratch, fold_3_on, fold_q_ntt3, r3_from_3rq, r3_mult, round, rq_mult_small};
use crate::recip::{r3_recip, rq_recip3};
use crate::wipe::Wipe;

/// `R3_recip(g)`: the `1/g` in R/3 of Core `KeyGen` (NTRU Prime spec §2.3), with its own scratch
/// buffer, written out as `Small_encode(1/g)` (its place in the secret key, §3.1), so
/// that no caller keeps the p-coefficient reciprocal. The encoding is garbage
/// when the result is not set.
#[inline(never)]
pub(crate) fn recip3<const P: usize>(ginv_enc: &mut [u8], g: &[i8; P]) -> ct::Choice {
    let mut buf = [[0i8; P]; 4];
    let mut ginv = [0i8; P];
    let mut ginv = Wipe::new(&mut ginv);
    let ok = r3_recip(&mut ginv, g, &mut Wipe::new(&mut buf));
    small_encode(ginv_enc, &ginv);
    ok
}

/// `buf[0] = buf[0] * Small_decode(b_enc)` in R/q (`Rq_mult_small`), with
/// `buf[1..]` as the product's scratch; the decoded factor lives only in this frame.
#[inline(never)]
fn mult_encoded<const P: usize, const Q: i16>(buf: &mut [[i16; P]; 4], b_enc: &[u8]) {
    let mut b = [0i8; P];
    let mut b = Wipe::new(&mut b);
    small_decode(&mut b, b_enc);
    let [a, w @ ..] = buf;
    rq_mult_small::<P, Q>(a, &mut b, w);
}

/// The second half of Core `KeyGen` (NTRU Prime spec §2.3): `h = g / (3 f)` in R/q
/// into `buf.c[0]`, given `Small_encode(f)` (f short) and `Small_encode(g)`. One
/// buffer of 4p coefficients serves as the reciprocal's state (f read from
/// its encoding straight into it), then holds `1/(3f)` and the product's scratch.
pub(crate) fn public_key<const P: usize, const Q: i16>(
    buf: &mut RecipState<P>,
    f_enc: &[u8],
    g_enc: &[u8],
) {
    // Rq_recip3 always succeeds here: f is nonzero mod q and x^p - x - 1 is
    // irreducible mod q (spec, parameter space), so the result flag carries no information.
    let _ = rq_recip3::<P, Q>(buf, small_coeffs(f_enc, P));
    mult_encoded::<P, Q>(&mut buf.c, g_enc);
}

/// Core `Encrypt` (NTRU Prime spec §2.3): `c = Round(h r)`, in place (`c` holds h on
/// entry; `r` is restored after serving as scratch), the product in `acc` (any contents).
pub(crate) fn encrypt<const P: usize, const Q: i16>(
    c: &mut [i16; P],
    r: &mut [i8; P],
    acc: &mut Scratch<P>,
) {
    rq_mult_small::<P, Q>(c, r, acc);
    round(c);
}

/// The first half of Core `Decrypt` (NTRU Prime spec §2.3.4): `e = R3_fromRq(3 f c)`,
/// in place in `c`, the product in `acc` (any contents).
pub(crate) fn decrypt_f<const P: usize, const Q: i16>(
    c: &mut [i16; P],
    f: &mut [i8; P],
    acc: &mut Scratch<P>,
) {
    rq_mult_small::<P, Q>(c, f, acc);
    r3_from_3rq::<P, Q>(c);
}

/// The second half of Core `Decrypt` (NTRU Prime spec §2.3.4): `r = e * v` in R/3 if it has
/// weight w, else the fixed weight-w vector `(1, …, 1, 0, …, 0)`; decided without a branch.
/// `r` holds v on entry; `e` (from [`decrypt_f`]) is consumed; the product in `acc` (any contents).
pub(crate) fn decrypt_v<const P: usize, const W: usize>(
    r: &mut [i8; P],
    e: &mut [i16; P],
    acc: &mut Scratch<P>,
) {
    r3_mult(e, r, acc);
    weight_w::<P, W>(r);
}

/// The transforms a prepared decapsulation key keeps (`PreparedDecapsulationKey`,
/// AVX2 products, [`keeps`]): f (both primes), v = 1/g (7681 only: the R/3
/// product is exact below it) and h (both primes), from the [`hat_at`]
/// positions on; [`hats_len`] of them (the storage of
/// `ParameterSet::PreparedHats`).
pub(crate) type Hats = [Hat];

/// Whether a prepared key of p keeps transforms (with AVX2): every set.
pub(crate) const fn keeps(p: usize) -> bool {
    arch::ntt3_fits(p)
}

/// Where f, v and h start in [`Hats`]: the k = `arch::ntt3_parts(p)`
/// 512-point parts of each prime (`arch::ntt3_prepare`: 32 k registers a
/// prime, k, ⌈k/2⌉ and k [`Hat`]s; for odd k v's last `Hat` is half used).
const fn hat_at(p: usize) -> [usize; 3] {
    let k = arch::ntt3_parts(p);
    [0, k, k + k.div_ceil(2)]
}

/// How many [`Hat`]s a prepared key of p keeps: 2k + ⌈k/2⌉ ([`hat_at`]; 8
/// for k = 3, sntrup653/761; 10 for k = 4, sntrup857/953/1013; 13 for
/// k = 5, sntrup1277), none without the AVX2 path (k = 0).
pub(crate) const fn hats_len(p: usize) -> usize {
    hat_at(p)[2] + arch::ntt3_parts(p)
}

/// Fills `hats` from f, v = 1/g and h (see [`Hats`]).
pub(crate) fn prepare<const P: usize>(
    token: Avx2,
    hats: &mut Hats,
    f: &[i8; P],
    v: &[i8; P],
    h: &[i16; P],
) {
    let [_, at_v, at_h] = const { hat_at(P) };
    let (hf, rest) = hats[..const { hats_len(P) }].split_at_mut(at_v);
    let (hv, hh) = rest.split_at_mut(at_h - at_v);
    arch::ntt3_prepare(token, hf, None, f);
    arch::ntt3_prepare(token, hv, None, v);
    arch::ntt3_prepare(token, hh, Some(h), v);
}

/// f's, v's and h's transforms in `hats` (from the [`hat_at`] positions;
/// one length check).
fn kept<const P: usize>(hats: &Hats) -> [&Hats; 3] {
    let [_, at_v, at_h] = const { hat_at(P) };
    let (hf, rest) = hats[..const { hats_len(P) }].split_at(at_v);
    let (hv, hh) = rest.split_at(at_h - at_v);
    [hf, hv, hh]
}

/// [`decrypt_f`] with f's transforms (from `hat_at(P)[0]`): the same `e`.
pub(crate) fn decrypt_f_hat<const P: usize, const Q: i16>(
    token: Avx2,
    c: &mut [i16; P],
    hats: &Hats,
    acc: &mut Scratch<P>,
) {
    let full = acc.as_flattened_mut();
    let [hf, _, _] = kept::<P>(hats);
    arch::ntt3_mul_sides::<P, Q, true>(token, full, Side::Coeffs(c), Side::Hat(hf));
    fold_q_ntt3::<P, Q>(token, c, full);
    r3_from_3rq::<P, Q>(c);
}

/// [`decrypt_v`] with v's transforms (from `hat_at(P)[1]`): the same `r`.
pub(crate) fn decrypt_v_hat<const P: usize, const W: usize>(
    token: Avx2,
    r: &mut [i8; P],
    e: &[i16; P],
    hats: &Hats,
    acc: &mut Scratch<P>,
) {
    let full = acc.as_flattened_mut();
    let [_, hv, _] = kept::<P>(hats);
    arch::ntt3_mul_sides::<P, 3, false>(token, full, Side::Coeffs(e), Side::Hat(hv));
    fold_3_on::<P>(r, &full[..2 * P], Some(token));
    weight_w::<P, W>(r);
}

/// [`encrypt`] with h's transforms (from `hat_at(P)[2]`): `c = Round(h r)`.
pub(crate) fn encrypt_hat<const P: usize, const Q: i16>(
    token: Avx2,
    c: &mut [i16; P],
    r: &[i8; P],
    hats: &Hats,
    acc: &mut Scratch<P>,
) {
    let full = acc.as_flattened_mut();
    let [_, _, hh] = kept::<P>(hats);
    arch::ntt3_mul_sides::<P, Q, true>(token, full, Side::Hat(hh), Side::Coeffs(r));
    fold_q_ntt3::<P, Q>(token, c, full);
    round(c);
}

/// `r` if it has weight w, else `(1, …, 1, 0, …, 0)`, without a branch
/// (NTRU Prime spec §2.3.4, Core `Decrypt`): the weight counted in u16
/// (p < 2^16, 16-bit lanes once vectorised), then one mask `keep` of the
/// result: `r[i] & keep`, plus `1 & !keep` for i < w (no index compare).
fn weight_w<const P: usize, const W: usize>(r: &mut [i8; P]) {
    const { assert!(P < 1 << 16 && W <= P) };
    let weight = r.iter().fold(0u16, |w, &x| {
        w.wrapping_add(u16::from(x.to_le_bytes()[0] & 1))
    });
    #[allow(clippy::cast_possible_truncation, reason = "W <= P < 2^16")]
    let keep = ct::mask_i8(weight.ct_eq(&(W as u16)));
    let (head, tail) = r.split_at_mut(W);
    for x in head {
        *x = (*x & keep) | (1 & !keep);
    }
    for x in tail {
        *x &= keep;
    }
}

/// Membership in `Short` (weight w; NTRU Prime spec §2.3) for an externally supplied polynomial (public use only:
/// validating caller input to the deterministic entry points).
pub(crate) fn is_short<const P: usize, const W: usize>(r: &[i8; P]) -> ct::Choice {
    let weight = r
        .iter()
        .fold(0u32, |w, &x| w.wrapping_add(u32::from(x != 0)));
    #[allow(clippy::cast_possible_truncation, reason = "W < 2^32")]
    weight.ct_eq(&(W as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mult::fold_q_on;
    use crate::test_util::lcg;
    use std::prelude::rust_2024::*;

    /// The products from a prepared key's transforms, in a scratch of any
    /// contents (`Decap` shares one across its products), equal the
    /// products from the coefficients in a zeroed scratch: f (`decrypt_f`),
    /// v = 1/g (the R/3 product of `decrypt_v`, before its weight check) and
    /// h (`encrypt`), on random factors for one (p, q); and
    /// [`freeze_differential`].
    fn check<const P: usize, const Q: i16>(token: Avx2, seed: u64) {
        freeze_differential::<P, Q>(token, seed + 30);
        let mut s = seed;
        let h = (Q - 1) / 2;
        let mut dirty = || {
            let mut acc = Box::new([[0i16; P]; 3]);
            for x in acc.as_flattened_mut() {
                *x = lcg(&mut s) as i16;
            }
            acc
        };
        let (mut acc0, mut acc1, mut acc2) = (dirty(), dirty(), dirty());
        for _ in 0..4 {
            let mut rq =
                || -> [i16; P] { core::array::from_fn(|_| (lcg(&mut s) % (Q as u32)) as i16 - h) };
            let (c, hh) = (rq(), rq());
            let mut small = || -> [i8; P] { core::array::from_fn(|_| (lcg(&mut s) % 3) as i8 - 1) };
            let (mut f, v, mut r) = (small(), small(), small());
            let e: [i16; P] = core::array::from_fn(|_| (lcg(&mut s) % 3) as i16 - 1);
            let mut hats = vec![[[0; 16]; 64]; hats_len(P)];
            let hats = &mut hats[..];
            prepare::<P>(token, hats, &f, &v, &hh);
            let mut zero = Box::new([[0i16; P]; 3]);

            let (mut want, mut got) = (c, c);
            decrypt_f::<P, Q>(&mut want, &mut f, &mut zero);
            decrypt_f_hat::<P, Q>(token, &mut got, hats, &mut acc0);
            assert_eq!(got, want, "f, p = {P}");

            let (mut want, mut got) = (v, [0i8; P]);
            *zero = [[0; P]; 3];
            r3_mult(&mut e.clone(), &mut want, &mut zero);
            let [_, hv, _] = kept::<P>(hats);
            let full = acc1.as_flattened_mut();
            arch::ntt3_mul_sides::<P, 3, false>(token, full, Side::Coeffs(&e), Side::Hat(hv));
            fold_3_on::<P>(&mut got, &full[..2 * P], Some(token));
            assert_eq!(got, want, "v, p = {P}");

            let (mut want, mut got) = (hh, hh);
            *zero = [[0; P]; 3];
            encrypt::<P, Q>(&mut want, &mut r, &mut zero);
            encrypt_hat::<P, Q>(token, &mut got, &r, hats, &mut acc2);
            assert_eq!(got, want, "h, p = {P}");
        }
    }

    /// `arch::freeze_folded` (the end of the R/q products that
    /// `arch::ntt3_folds`, in `rq_mult_small_on` and [`crate::mult::fold_q_ntt3`]) on
    /// `full[..p]`, whatever `full[p..]` holds, against the portable fold of
    /// `full[..p]` followed by p zeros: every i16 value in every lane
    /// position (windows of p consecutive values from -32768 on); and
    /// [`crate::mult::fold_q_ntt3`] takes it exactly for sntrup1277 (elsewhere it folds
    /// the junk in).
    fn freeze_differential<const P: usize, const Q: i16>(token: Avx2, seed: u64) {
        let mut s = seed;
        let (mut full, mut zero_top) = (vec![0i16; 2 * P], vec![0i16; 2 * P]);
        let mut x0 = -32768i32;
        while x0 <= 32767 {
            for k in 0..P {
                full[k] = (x0 + k as i32).min(32767) as i16;
                full[P + k] = lcg(&mut s) as i16 | 1;
            }
            zero_top[..P].copy_from_slice(&full[..P]);
            let mut out = [[0i16; P]; 3];
            fold_q_on::<P, Q>(&mut out[0], &zero_top, None);
            arch::freeze_folded::<P, Q>(token, &mut out[1], &full);
            assert_eq!(out[1], out[0], "p = {P}, from {x0}");
            fold_q_ntt3::<P, Q>(token, &mut out[2], &full);
            assert_eq!(
                out[2] == out[0],
                P == 1277,
                "fold_q_ntt3, p = {P}, from {x0}"
            );
            x0 += P as i32 - 7;
        }
    }

    #[test]
    fn kept_products_any_scratch() {
        let Some(token) = arch::avx2() else {
            return;
        };
        check::<653, 4621>(token, 1);
        check::<761, 4591>(token, 2);
        check::<857, 5167>(token, 3);
        check::<953, 6343>(token, 4);
        check::<1013, 7177>(token, 5);
        check::<1277, 7879>(token, 6);
    }

    /// [`weight_w`] against its definition (`r` kept when its weight is w,
    /// else `(1, …, 1, 0, …, 0)`), on vectors of weight w − 1, w and w + 1
    /// (random positions and signs, and the first positions all −1) and the
    /// edges all 0 and all 1.
    fn weight_w_cases<const P: usize, const W: usize>(s: &mut u64) {
        let fallback: [i8; P] = core::array::from_fn(|i| i8::from(i < W));
        for weight in [W - 1, W, W + 1] {
            for kind in 0..4 {
                let mut r = [0i8; P];
                let mut placed = 0;
                while placed < weight {
                    let i = if kind == 0 {
                        placed
                    } else {
                        lcg(s) as usize % P
                    };
                    if r[i] == 0 {
                        r[i] = if kind == 0 || lcg(s) & 1 == 0 { -1 } else { 1 };
                        placed += 1;
                    }
                }
                let mut got = r;
                weight_w::<P, W>(&mut got);
                let want = if weight == W { r } else { fallback };
                assert_eq!(got, want, "p = {P}, weight {weight}, kind {kind}");
            }
        }
        for x in [0i8, 1] {
            let mut got = [x; P];
            weight_w::<P, W>(&mut got);
            assert_eq!(got, fallback, "p = {P}, all {x}");
        }
    }

    #[test]
    fn weight_w_matches_definition() {
        let mut s = 11u64;
        weight_w_cases::<653, 288>(&mut s);
        weight_w_cases::<761, 286>(&mut s);
        weight_w_cases::<857, 322>(&mut s);
        weight_w_cases::<953, 396>(&mut s);
        weight_w_cases::<1013, 448>(&mut s);
        weight_w_cases::<1277, 492>(&mut s);
    }
}
