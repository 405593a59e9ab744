//! Verification (FIPS 204 §6.3): `ML-DSA.Verify_internal` (Algorithm 8) from μ on. All inputs are
//! public; Â is sampled one entry at a time (each entry is used once), so
//! verification needs no stored matrix.

use pqdr_keccak::Shake256;

use crate::encode::{hint_unpack, pack, unpack};
use crate::field::exceeds;
use crate::keygen::{t1_range, unpack_t1};
use crate::params::{D, MAX_C_TILDE_SIZE, MAX_W1_POLY_SIZE, ParameterSet, PolyArray};
use crate::poly::{N, Poly, mul_acc, reduce_acc};
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
        unpack_t1(t, &pk.as_ref()[t1_range(i)]);
        for x in &mut t.0 {
            *x <<= D;
        }
        t.ntt();
    }
}

/// [`verify_mu`] for γ2 = `G2` (FIPS 204 Algorithm 8).
fn verify_mu_g<P: ParameterSet, const G2: i32>(
    pk: &P::VkBytes,
    pre: Option<(&P::Matrix, &P::VecK)>,
    mu: &[u8; 64],
    sig: &P::SigBytes,
) -> bool {
    let (c_tilde, rest) = sig.as_ref().split_at(P::C_TILDE_SIZE);
    let (z_bytes, h_bytes) = rest.split_at(P::L * P::Z_POLY_SIZE);
    // `sigDecode` (FIPS 204 Algorithm 27), with Algorithm 21's checks on the hint.
    let mut hints = P::VecK::zeroed();
    if hint_unpack(h_bytes, P::OMEGA, hints.as_mut()).is_none() {
        return false;
    }
    let gamma1 = P::GAMMA1;
    let mut z_hat = P::VecL::zeroed();
    let mut too_big = 0;
    for (z, bytes) in z_hat
        .as_mut()
        .iter_mut()
        .zip(z_bytes.chunks_exact(P::Z_POLY_SIZE))
    {
        unpack(z, bytes, P::Z_BITS, |v| gamma1.wrapping_sub(v));
        for &c in &z.0 {
            too_big |= exceeds(c, gamma1 - P::BETA);
        }
        z.ntt();
    }
    // Line 13: ‖z‖∞ < γ1 − β (checked first; the outcome is the same).
    if too_big < 0 {
        return false;
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
    let mut hasher = Shake256::default();
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
        } else {
            if let Some(rows) = rows.as_mut() {
                rows.mul_acc_row(&mut acc, i, z_hat.as_ref());
            }
            unpack_t1(&mut t, &pk.as_ref()[t1_range(i)]);
            for x in &mut t.0 {
                *x <<= D;
            }
            t.ntt();
            mul_acc(&mut acc, &c_hat, &t);
        }
        reduce_acc(&mut t, &acc);
        t.invntt_tomont();
        t.freeze();
        // w1′ = UseHint(h, w′_approx), hashed row by row.
        for (x, &hint) in t.0.iter_mut().zip(hi.0.iter()) {
            *x = use_hint::<G2>(hint != 0, *x);
        }
        let out = &mut w1[..P::W1_POLY_SIZE];
        pack(out, &t, P::W1_BITS, |c| c);
        hasher.absorb(out);
    }
    let mut c_tilde2 = [0u8; MAX_C_TILDE_SIZE];
    hasher.squeeze(&mut c_tilde2[..P::C_TILDE_SIZE]);
    c_tilde2[..P::C_TILDE_SIZE] == *c_tilde
}
