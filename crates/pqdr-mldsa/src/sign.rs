//! Signing (FIPS 204 §6.2): `ML-DSA.Sign_internal` (Algorithm 7) from μ on
//! (the caller computes μ = H(tr‖M′, 64), or passes an external μ).
//!
//! Three memory plans for a compact [`SigningKey`](crate::SigningKey)
//! (ML-DSA-65 numbers; README "Stack and speed"), all the same algorithm
//! with byte-identical output:
//! - *cached* (hosted targets by default): Â is kept for the whole signature
//!   (30 KiB), NTT(s1) and NTT(s2) once per signature (11 KiB), and per
//!   attempt only ŷ and w (11 KiB);
//! - *row by row* (bare-metal `target_os = "none"` by default, or the
//!   `small-stack` feature): each Â entry is sampled straight into the
//!   accumulator of its row of w in every attempt, and NTT(s1_j), NTT(s2_i)
//!   are formed from the encoded key when used, one polynomial at a time;
//! - *streaming* (`smallest-stack`): `sign_lowmem.rs`.
//!
//! y itself is never stored: z = y + cs1 is computed as NTT^−1(ĉ∘ŝ1 + ŷ) in
//! one pass. NTT(t0) is computed only for attempts that pass the first checks,
//! one row at a time. [`ExpandedSigningKey`](crate::ExpandedSigningKey) always
//! uses the cached plan with its precomputed values.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "l ≤ 7 and ω ≤ 80 fit the target types"
)]

use pqdr_ctgrind::hook;
use pqdr_keccak::Shake256;
use zeroize::{Zeroize, Zeroizing};

use crate::encode::hint_pack_row;
use crate::keygen::{SkLayout, public_rho, s1_range, s2_range, t0_range};
use crate::mask_x4::{MaskCarry, expand_mask};
use crate::params::{MAX_W1_POLY_SIZE, ParameterSet, PolyArray};
use crate::poly::{
    N, Poly, dot_mont, mul_add_mont, mul_add_mont_in_place, mul_mont, mul_mont_in_place,
};
use crate::sample::{h, sample_in_ball};
use crate::sample_x4::row_mul_acc_mont;
use crate::sign_poly::{low_bits_check, make_hint, unpack_eta, unpack_t0, w1_pack, z_pack};

/// Whether a signing attempt is rejected, from a check value that is
/// negative iff a bound is reached: the verdict alone is released (public by
/// design, FIPS 204 Algorithm 7 lines 23 and 28: a rejected candidate is
/// discarded), the values stay secret.
#[inline(always)]
fn rejected(check: i32) -> bool {
    let mut reject = check >> 31;
    hook::declassify(&mut reject);
    reject != 0
}

/// Precomputed values of a signing key: Â, ŝ1, ŝ2 and NTT(t0), each
/// optional. When absent, Â entries are sampled as needed (straight into the
/// accumulator of their row), ŝ1_j, ŝ2_i and NTT(t0_i) are formed from the
/// encoded key when used.
pub(crate) struct Precomputed<'a, P: ParameterSet> {
    pub(crate) a_hat: Option<&'a P::Matrix>,
    pub(crate) s1_hat: Option<&'a P::VecL>,
    pub(crate) s2_hat: Option<&'a P::VecK>,
    pub(crate) t0_hat: Option<&'a P::VecK>,
}

/// `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7), lines 1–5, for an expanded
/// key: ŝ1, ŝ2, NTT(t0) and Â.
pub(crate) fn expand_secret<P: ParameterSet>(
    sk: &P::SkBytes,
    a_hat: &mut P::Matrix,
    s1_hat: &mut P::VecL,
    s2_hat: &mut P::VecK,
    t0_hat: &mut P::VecK,
) {
    let skb = sk.as_ref();
    let rho = public_rho(skb);
    expand_s_hat::<P>(skb, s1_hat, s2_hat);
    for (i, t) in t0_hat.as_mut().iter_mut().enumerate() {
        unpack_t0(t, &skb[t0_range::<P>(i)]);
        t.ntt();
    }
    expand_a::<P>(&rho, a_hat);
}

/// ŝ1 = NTT(s1), ŝ2 = NTT(s2) from the encoded key (FIPS 204 Algorithm 7, lines 2–3).
fn expand_s_hat<P: ParameterSet>(skb: &[u8], s1_hat: &mut P::VecL, s2_hat: &mut P::VecK) {
    for (j, s) in s1_hat.as_mut().iter_mut().enumerate() {
        unpack_eta::<P>(s, &skb[s1_range::<P>(j)]);
        s.ntt();
    }
    for (i, s) in s2_hat.as_mut().iter_mut().enumerate() {
        unpack_eta::<P>(s, &skb[s2_range::<P>(i)]);
        s.ntt();
    }
}

/// `ExpandA(ρ)` (FIPS 204 Algorithm 32), public.
#[inline(never)]
fn expand_a<P: ParameterSet>(rho: &[u8; 32], a_hat: &mut P::Matrix) {
    crate::sample_x4::expand_a(rho, a_hat.as_mut(), P::L);
}

/// `ML-DSA.Sign_internal(sk, M′, rnd)` (FIPS 204 Algorithm 7) from line 7 on,
/// given μ, for an encoded key, with the memory plan of the build (module doc).
pub(crate) fn sign_mu<P: ParameterSet>(
    sk: &P::SkBytes,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut P::SigBytes,
) {
    #[cfg(feature = "smallest-stack")]
    crate::sign_lowmem::sign_mu::<P>(sk, mu, rnd, sig);
    #[cfg(all(
        not(feature = "smallest-stack"),
        any(target_os = "none", feature = "small-stack")
    ))]
    sign_row_by_row::<P>(sk, mu, rnd, sig);
    #[cfg(not(any(
        feature = "smallest-stack",
        target_os = "none",
        feature = "small-stack"
    )))]
    sign_cached::<P>(sk, mu, rnd, sig);
}

/// The cached plan: ŝ1, ŝ2 and Â computed once per signature.
#[cfg(not(any(
    feature = "smallest-stack",
    target_os = "none",
    feature = "small-stack"
)))]
fn sign_cached<P: ParameterSet>(
    sk: &P::SkBytes,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut P::SigBytes,
) {
    let skb = sk.as_ref();
    // Large buffers are plain locals (zeroized explicitly at the end) so that
    // no wrapper forces a copy of them onto the stack.
    let mut s1_hat = P::VecL::zeroed();
    let mut s2_hat = P::VecK::zeroed();
    expand_s_hat::<P>(skb, &mut s1_hat, &mut s2_hat);
    let mut a_hat = P::Matrix::zeroed();
    expand_a::<P>(&public_rho(skb), &mut a_hat);
    let pre = Precomputed::<P> {
        a_hat: Some(&a_hat),
        s1_hat: Some(&s1_hat),
        s2_hat: Some(&s2_hat),
        t0_hat: None,
    };
    sign_precomputed::<P>(sk, &pre, mu, rnd, sig);
    s1_hat.zeroize();
    s2_hat.zeroize();
}

/// The row-by-row plan: nothing precomputed.
#[cfg(all(
    not(feature = "smallest-stack"),
    any(target_os = "none", feature = "small-stack")
))]
fn sign_row_by_row<P: ParameterSet>(
    sk: &P::SkBytes,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut P::SigBytes,
) {
    let pre = Precomputed::<P> {
        a_hat: None,
        s1_hat: None,
        s2_hat: None,
        t0_hat: None,
    };
    match P::GAMMA2 {
        95_232 => sign_core::<P, 95_232>(sk, &pre, None, mu, rnd, sig),
        _ => sign_core::<P, 261_888>(sk, &pre, None, mu, rnd, sig),
    }
}

/// `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7) from line 7 on, given μ and
/// the precomputed key values.
pub(crate) fn sign_precomputed<P: ParameterSet>(
    sk: &P::SkBytes,
    pre: &Precomputed<'_, P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut P::SigBytes,
) {
    // Â∘ŷ row accumulator (products in i64, one reduction per row).
    let mut acc = [0i64; N];
    match P::GAMMA2 {
        95_232 => sign_core::<P, 95_232>(sk, pre, Some(&mut acc), mu, rnd, sig),
        _ => sign_core::<P, 261_888>(sk, pre, Some(&mut acc), mu, rnd, sig),
    }
    acc.zeroize();
}

/// [`sign_precomputed`] for γ2 = `G2` (FIPS 204 Algorithm 7, from line 7 on).
/// With Â in `pre`, w = Â∘ŷ is summed in the i64 accumulator `acc`; without,
/// each Â entry is sampled straight into its row of w (no `acc` needed).
fn sign_core<P: ParameterSet, const G2: i32>(
    sk: &P::SkBytes,
    pre: &Precomputed<'_, P>,
    mut acc: Option<&mut [i64; N]>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut P::SigBytes,
) {
    debug_assert_eq!(P::GAMMA2, G2);
    let skb = sk.as_ref();
    let rho = public_rho(skb);
    // Line 7: ρ'' ← H(K‖rnd‖μ, 64).
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    if P::ROUND3 {
        // Round-3.1 Dilithium, deterministic (v3.1 Fig. 4, line 12): ρ' ← H(K‖μ).
        h(
            &[&skb[SkLayout::KEY..SkLayout::KEY + 32], mu],
            &mut rho_pp[..],
        );
    } else {
        h(
            &[&skb[SkLayout::KEY..SkLayout::KEY + 32], rnd, mu],
            &mut rho_pp[..],
        );
    }

    let mut y_hat = P::VecL::zeroed();
    let mut w = P::VecK::zeroed();
    let mut tmp = Poly::ZERO;
    let mut c_hat = Poly::ZERO;
    let mut w1_bytes = Zeroizing::new([0u8; MAX_W1_POLY_SIZE]);
    let (c_tilde, rest) = sig.as_mut().split_at_mut(P::C_TILDE_SIZE);
    let (z_bytes, h_bytes) = rest.split_at_mut(P::L * P::Z_POLY_SIZE);
    let gamma1 = P::GAMMA1;
    let mut kappa: u16 = 0;
    // ℓ = 5, 7: the next attempt's first mask polynomials, from this one's idle lanes.
    let mut carry = MaskCarry::new();
    'attempt: loop {
        // Line 11: y ← ExpandMask(ρ'', κ); keep only ŷ = NTT(y).
        expand_mask(y_hat.as_mut(), &rho_pp, kappa, P::GAMMA1_BITS, &mut carry);
        for y in y_hat.as_mut() {
            y.ntt();
        }
        kappa = kappa.wrapping_add(P::L as u16);
        // Lines 12–15: w ← NTT^−1(Â∘ŷ), w1 ← HighBits(w), c̃ ← H(μ‖w1Encode(w1)).
        let mut hasher = Shake256::with_bmi(crate::arch::keccak_bmi());
        hasher.absorb(mu);
        for (i, wi) in w.as_mut().iter_mut().enumerate() {
            match (pre.a_hat, acc.as_deref_mut()) {
                (Some(a_hat), Some(acc)) => {
                    let row = &a_hat.as_ref()[i * P::L..(i + 1) * P::L];
                    dot_mont(wi, row, y_hat.as_ref(), acc);
                }
                _ => {
                    // Σ_j mont(Â_ij ∘ ŷ_j), |·| < 7q, reduced to (−q, q).
                    *wi = Poly::ZERO;
                    row_mul_acc_mont(wi, &rho, i, y_hat.as_ref());
                    wi.reduce();
                }
            }
            wi.invntt_tomont();
            let w1 = &mut w1_bytes[..P::W1_POLY_SIZE];
            w1_pack::<G2>(wi, w1, P::W1_BITS);
            hasher.absorb(w1);
        }
        hasher.squeeze(c_tilde);
        // Lines 16–17: c ← SampleInBall(c̃), ĉ ← NTT(c).
        sample_in_ball(&mut c_hat, c_tilde, P::TAU);
        c_hat.ntt();
        // Lines 18–23: r0 = LowBits(w − cs2), z = y + cs1 = NTT^−1(ĉ∘ŝ1 + ŷ),
        // reject if ‖r0‖∞ ≥ γ2 − β or ‖z‖∞ ≥ γ1 − β. The r0
        // check (the likelier rejection) comes first, and a rejection is
        // released as soon as a polynomial fails its check: as in the
        // reference Dilithium (which checks z first, one polynomial at a
        // time), which polynomial failed leaks, nothing about the values; the
        // candidate is discarded (FIPS 204 Algorithm 7, line 23).
        for (i, wi) in w.as_mut().iter_mut().enumerate() {
            if let Some(s2_hat) = pre.s2_hat {
                mul_mont(&mut tmp, &c_hat, &s2_hat.as_ref()[i]);
            } else {
                unpack_eta::<P>(&mut tmp, &skb[s2_range::<P>(i)]);
                tmp.ntt();
                mul_mont_in_place(&mut tmp, &c_hat);
            }
            tmp.invntt_tomont();
            // w − cs2 in [0, q), kept for the hint.
            if rejected(low_bits_check::<G2>(wi, &tmp, G2 - P::BETA)) {
                continue 'attempt;
            }
        }
        for (j, y) in y_hat.as_ref().iter().enumerate() {
            if let Some(s1_hat) = pre.s1_hat {
                mul_add_mont(&mut tmp, &c_hat, &s1_hat.as_ref()[j], y);
            } else {
                unpack_eta::<P>(&mut tmp, &skb[s1_range::<P>(j)]);
                tmp.ntt();
                mul_add_mont_in_place(&mut tmp, &c_hat, y);
            }
            tmp.invntt_tomont();
            let out = &mut z_bytes[j * P::Z_POLY_SIZE..(j + 1) * P::Z_POLY_SIZE];
            if rejected(z_pack(&mut tmp, out, P::GAMMA1_BITS, gamma1 - P::BETA)) {
                continue 'attempt;
            }
        }
        // Lines 25–28: ct0, h ← MakeHint(−ct0, w − cs2 + ct0) (Algorithm 39:
        // HighBits(w − cs2 + ct0) ≠ HighBits(w − cs2)), reject if ‖ct0‖∞ ≥ γ2
        // or more than ω hints (one verdict for the whole stage: ct0 rarely
        // fails, and the hint count is only known at the end).
        let (mut count, mut bad) = (0i32, 0i32);
        for (i, wi) in w.as_mut().iter_mut().enumerate() {
            if let Some(t0_hat) = pre.t0_hat {
                mul_mont(&mut tmp, &c_hat, &t0_hat.as_ref()[i]);
            } else {
                unpack_t0(&mut tmp, &skb[t0_range::<P>(i)]);
                tmp.ntt();
                mul_mont_in_place(&mut tmp, &c_hat);
            }
            tmp.invntt_tomont();
            let (hints, row_bad) = make_hint::<G2>(wi, &tmp);
            count = count.wrapping_add(hints);
            bad |= row_bad;
        }
        if rejected(bad | (P::OMEGA as i32).wrapping_sub(count)) {
            continue;
        }
        // Accepted: h is part of the signature, which is public from here on.
        for wi in w.as_mut() {
            hook::declassify(&mut wi.0);
        }
        // Algorithm 26, sigEncode: c̃ and z are already in place; pack h.
        h_bytes.fill(0);
        let mut index = 0;
        for (i, wi) in w.as_ref().iter().enumerate() {
            index = hint_pack_row(h_bytes, P::OMEGA, i, wi, index);
        }
        break;
    }
    carry.clear();
    tmp.zeroize();
    c_hat.zeroize();
    y_hat.zeroize();
    w.zeroize();
    // The signature is the public output.
    hook::declassify(sig.as_mut());
}
