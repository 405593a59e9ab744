//! Verification (FIPS 204 §6.3): `ML-DSA.Verify_internal` (Algorithm 8) from μ on. All inputs are
//! public; Â is sampled one entry at a time (each entry is used once), so
//! verification needs no stored matrix.

use pqdr_keccak::Shake256;

use crate::encode::{hint_unpack, pack, unpack};
use crate::field::exceeds;
use crate::keygen::t1_range;
use crate::params::{
    D, MAX_C_TILDE_SIZE, MAX_W1_POLY_SIZE, ParameterSet, PolyArray, T1_BITS, T1_POLY_SIZE,
};
use crate::poly::{N, Poly, mul_acc, mul_acc_reduce_in_place, reduce_acc};
use crate::rounding::use_hint;
use crate::sample::sample_in_ball;
use crate::sample_x4::{MatrixRows, expand_a};

/// `ML-DSA.Verify_internal` (FIPS 204 Algorithm 8) given μ = H(tr‖M′, 64):
/// true if σ is a valid signature.
/// Malformed signatures (bad hint encoding, ‖z‖∞ too large) are `false`.
/// With `pre` = (Â, NTT(t1·2^d)) from an expanded key, nothing is sampled
/// or transformed for the key.
pub(crate) fn verify_mu<P: ParameterSet>(
    pk: &P::VkBytes,
    pre: Option<(&P::Matrix, &P::VecK)>,
    mu: &[u8; 64],
    sig: &P::SigBytes,
) -> bool {
    match P::GAMMA2 {
        95_232 => verify_mu_g::<P, 95_232>(pk, pre, mu, sig),
        _ => verify_mu_g::<P, 261_888>(pk, pre, mu, sig),
    }
}

/// Â = `ExpandA(ρ)` and NTT(t1·2^d) of a public key (FIPS 204 Algorithm 8),
/// for [`verify_mu`] with a cached key.
pub(crate) fn expand_public<P: ParameterSet>(
    pk: &P::VkBytes,
    a_hat: &mut P::Matrix,
    t1_hat: &mut P::VecK,
) {
    let rho: &[u8; 32] = pk.as_ref()[..32].try_into().unwrap_or(&[0; 32]);
    expand_a(rho, a_hat.as_mut(), P::L);
    for (i, t) in t1_hat.as_mut().iter_mut().enumerate() {
        unpack_t1_shifted(t, pk.as_ref(), i);
        t.ntt();
    }
}

/// t1_i·2^d from `pkDecode` (FIPS 204 Algorithms 23 and 18, `SimpleBitUnpack`
/// of 10 bits; Algorithm 8, line 9): the AVX2 kernel
/// (`arch::t1_unpack_shift`) when available, else the portable twin.
#[inline]
fn unpack_t1_shifted(t: &mut Poly, pk: &[u8], i: usize) {
    let Some(bytes) = pk
        .get(t1_range(i))
        .and_then(|b| b.first_chunk::<T1_POLY_SIZE>())
    else {
        debug_assert!(false, "t1 row out of range");
        return;
    };
    match crate::arch::avx2() {
        Some(token) => crate::arch::t1_unpack_shift(token, &mut t.0, bytes),
        None => unpack_t1_shifted_portable(t, bytes),
    }
}

// The stub of `arch::t1_unpack_shift` spells the size out.
const _: () = assert!(T1_POLY_SIZE == 320);

/// The portable twin of `arch::t1_unpack_shift`.
#[inline(always)]
fn unpack_t1_shifted_portable(t: &mut Poly, bytes: &[u8; T1_POLY_SIZE]) {
    unpack(t, bytes, T1_BITS, |v| v << D);
}

/// The z part of `sigDecode` (FIPS 204 Algorithm 27): z_j = BitUnpack(·,
/// γ1 − 1, γ1) (Algorithm 19) of the signature after c̃ (`rest`: z then the
/// hint bytes), with ExpandMask's AVX2 kernel (`arch::mask_unpack`, which
/// reads up to 16 bytes past z_j: the ω + k ≥ 84 hint bytes provide them
/// after the last one). True if ‖z‖∞ < γ1 − β (Algorithm 8, line 13).
fn decode_z<P: ParameterSet>(rest: &[u8], z: &mut [Poly]) -> bool {
    let mut too_big = 0;
    for (j, z) in z.iter_mut().enumerate() {
        let bytes = &rest[j * P::Z_POLY_SIZE..];
        match crate::arch::avx2() {
            Some(token) => crate::arch::mask_unpack(token, &mut z.0, bytes, P::Z_BITS),
            // The generic BitUnpack with the width known at compile time
            // (`encode::mask_unpack_portable` takes it at run time).
            None => unpack(z, &bytes[..P::Z_POLY_SIZE], P::Z_BITS, |v| {
                P::GAMMA1.wrapping_sub(v)
            }),
        }
        for &c in &z.0 {
            too_big |= exceeds(c, P::GAMMA1 - P::BETA);
        }
    }
    too_big >= 0
}

/// [`verify_mu`] for γ2 = `G2` (FIPS 204 Algorithm 8).
fn verify_mu_g<P: ParameterSet, const G2: i32>(
    pk: &P::VkBytes,
    pre: Option<(&P::Matrix, &P::VecK)>,
    mu: &[u8; 64],
    sig: &P::SigBytes,
) -> bool {
    let (c_tilde, rest) = sig.as_ref().split_at(P::C_TILDE_SIZE);
    let h_bytes = &rest[P::L * P::Z_POLY_SIZE..];
    // `sigDecode` (FIPS 204 Algorithm 27), with Algorithm 21's checks on the hint.
    let mut hints = P::VecK::zeroed();
    if hint_unpack(h_bytes, P::OMEGA, hints.as_mut()).is_none() {
        return false;
    }
    let mut z_hat = P::VecL::zeroed();
    // Line 13: ‖z‖∞ < γ1 − β (checked first; the outcome is the same).
    if !decode_z::<P>(rest, z_hat.as_mut()) {
        return false;
    }
    for z in z_hat.as_mut() {
        z.ntt();
    }
    let rho: &[u8; 32] = pk.as_ref()[..32].try_into().unwrap_or(&[0; 32]);
    let mut c_hat = Poly::ZERO;
    sample_in_ball(&mut c_hat, c_tilde, P::TAU);
    c_hat.ntt();
    for x in &mut c_hat.0 {
        *x = x.wrapping_neg();
    }
    let mut t = Poly::ZERO;
    let mut acc = [0i64; N];
    let mut w1 = [0u8; MAX_W1_POLY_SIZE];
    let mut hasher = Shake256::with_bmi(crate::arch::keccak_bmi());
    hasher.absorb(mu);
    // Only for a compact key (its 4 KiB entry buffer is not even zeroed otherwise).
    let mut rows = pre.is_none().then(|| MatrixRows::new(rho, P::K, P::L));
    for (i, hi) in hints.as_ref().iter().enumerate() {
        // w′_approx = NTT^−1(Â∘ẑ − ĉ∘NTT(t1·2^d)), row i.
        acc.fill(0);
        if let Some((a_hat, t1_hat)) = pre {
            for (a, z) in a_hat.as_ref()[i * P::L..(i + 1) * P::L]
                .iter()
                .zip(z_hat.as_ref())
            {
                mul_acc(&mut acc, a, z);
            }
            mul_acc(&mut acc, &c_hat, &t1_hat.as_ref()[i]);
            reduce_acc(&mut t, &acc);
        } else {
            if let Some(rows) = rows.as_mut() {
                rows.mul_acc_row(&mut acc, i, z_hat.as_ref());
            }
            unpack_t1_shifted(&mut t, pk.as_ref(), i);
            t.ntt();
            // −ĉ∘NTT(t1·2^d) added in the reduction.
            mul_acc_reduce_in_place(&mut t, &acc, &c_hat);
        }
        t.invntt_tomont();
        // w1′ = UseHint(h, w′_approx), hashed row by row.
        let out = &mut w1[..P::W1_POLY_SIZE];
        use_hint_pack::<G2>(&mut t, hi, out, P::W1_BITS);
        hasher.absorb(out);
    }
    let mut c_tilde2 = [0u8; MAX_C_TILDE_SIZE];
    hasher.squeeze(&mut c_tilde2[..P::C_TILDE_SIZE]);
    c_tilde2[..P::C_TILDE_SIZE] == *c_tilde
}

/// `w1Encode(UseHint(h, w mod q))` for w in (−q, q) (FIPS 204 Algorithms
/// 28, 40, 16; Algorithm 8, lines 9–10) into `out` (32·`w1_bits` bytes):
/// the AVX2 kernel (`arch::use_hint_pack`) when available, else the
/// portable twin, which uses `w` as scratch.
#[inline]
fn use_hint_pack<const G2: i32>(w: &mut Poly, h: &Poly, out: &mut [u8], w1_bits: u32) {
    match crate::arch::avx2() {
        Some(token) => crate::arch::use_hint_pack(token, &w.0, &h.0, out, G2),
        None => use_hint_pack_portable::<G2>(w, h, out, w1_bits),
    }
}

/// The portable twin of [`use_hint_pack`].
#[inline(always)]
fn use_hint_pack_portable<const G2: i32>(w: &mut Poly, h: &Poly, out: &mut [u8], w1_bits: u32) {
    w.freeze();
    for (x, &hint) in w.0.iter_mut().zip(h.0.iter()) {
        *x = use_hint::<G2>(hint != 0, *x);
    }
    pack(out, w, w1_bits, |c| c);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Q;

    /// z decoding keeps the range check of line 13 at its exact bounds:
    /// ±(γ1 − β − 1) pass, ±(γ1 − β) and the extremes γ1, −γ1 + 1 fail, in
    /// each z_j (the last one read next to the hint bytes), every set's γ1.
    #[test]
    fn decode_z_checks_the_norm_bound() {
        fn check<P: ParameterSet>() {
            let lim = P::GAMMA1 - P::BETA;
            let mut sig = [0u8; 4627];
            for j in 0..P::L {
                for (v, ok) in [
                    (lim - 1, true),
                    (-(lim - 1), true),
                    (0, true),
                    (lim, false),
                    (-lim, false),
                    (P::GAMMA1, false),
                    (-P::GAMMA1 + 1, false),
                ] {
                    let rest = &mut sig[..P::L * P::Z_POLY_SIZE + P::OMEGA + P::K];
                    rest.fill(0);
                    // Every coefficient 0 (field γ1), coefficient 7 + 9j = v.
                    let mut z = Poly::ZERO;
                    z.0[7 + 9 * j] = v;
                    let g1 = P::GAMMA1;
                    for i in 0..P::L {
                        let out = &mut rest[i * P::Z_POLY_SIZE..(i + 1) * P::Z_POLY_SIZE];
                        let p = if i == j { z } else { Poly::ZERO };
                        pack(out, &p, P::Z_BITS, |c| g1 - c);
                    }
                    let mut got = [Poly::ZERO; 7];
                    assert_eq!(decode_z::<P>(rest, &mut got[..P::L]), ok, "j {j}, v {v}");
                    assert_eq!(got[j].0, z.0);
                }
            }
        }
        check::<crate::MlDsa44>();
        check::<crate::MlDsa65>();
        check::<crate::MlDsa87>();
    }

    /// The AVX2 t1 kernel against its portable twin: random bytes, all-0 and
    /// all-1 bytes (fields 0 and 2^10 − 1), and one bit set at a time (every
    /// field boundary, including the last groups read from the padded copy).
    #[test]
    fn t1_unpack_shift_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for t in 0..(200 + 8 * T1_POLY_SIZE) {
            let mut src = [0u8; T1_POLY_SIZE];
            for (k, b) in src.iter_mut().enumerate() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *b = match t {
                    0 => 0,
                    1 => 0xff,
                    2..200 => s as u8,
                    _ => u8::from(k == (t - 200) / 8) << ((t - 200) % 8),
                };
            }
            let (mut a, mut b) = (Poly::ZERO, Poly::ZERO);
            crate::arch::t1_unpack_shift(token, &mut a.0, &src);
            unpack_t1_shifted_portable(&mut b, &src);
            assert_eq!(a.0, b.0, "t {t}");
        }
    }

    /// The AVX2 kernel against its portable twin, both γ2: random w in
    /// (−q, q) and random hints, and the edges of Decompose and UseHint
    /// (w at 0, q − 1, ±1, the multiples of 2γ2 and their neighbours,
    /// every one with and without a hint: r1 = 0 − 1 and m − 1 + 1 wrap).
    #[test]
    fn use_hint_pack_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        fn check<const G2: i32>(token: crate::arch::Avx2, w: &Poly, h: &Poly, t: usize) {
            let bits = if G2 == 261_888 { 4 } else { 6 };
            let mut b = *w;
            let (mut oa, mut ob) = ([0u8; 192], [0u8; 192]);
            crate::arch::use_hint_pack(token, &w.0, &h.0, &mut oa[..32 * bits], G2);
            use_hint_pack_portable::<G2>(&mut b, h, &mut ob[..32 * bits], bits as u32);
            assert_eq!(oa, ob, "w1, gamma2 {G2}, t {t}");
        }
        let mut s = 0x1234_5678_9abc_def1u64;
        for t in 0..400usize {
            let mut w = Poly::ZERO;
            let mut h = Poly::ZERO;
            for (i, (x, y)) in w.0.iter_mut().zip(h.0.iter_mut()).enumerate() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let g2 = if t & 1 == 0 { 261_888 } else { 95_232 };
                let k = (s >> 32) as i32 & 63;
                *x = match t % 3 {
                    0 => (s % (2 * Q as u64 - 1)) as i32 - (Q - 1),
                    1 => [
                        0,
                        Q - 1,
                        1,
                        -1,
                        -(Q - 1),
                        2 * g2 * k,
                        2 * g2 * k + 1,
                        2 * g2 * k - 1,
                    ][i & 7]
                        .clamp(-(Q - 1), Q - 1),
                    _ => (g2 * (k + 1)).min(Q - 1) - (i as i32 & 1),
                };
                *y = i32::from((s >> 8) & 1 == 1 || t % 3 == 1 && i & 8 == 0);
            }
            if t & 1 == 0 {
                check::<261_888>(token, &w, &h, t);
            } else {
                check::<95_232>(token, &w, &h, t);
            }
        }
    }
}
