//! `K-PKE` for small stacks (feature `small-stack`): FIPS 203 Algorithms
//! 13, 14 and 15 streamed so that no vector of polynomials is ever held.
//!
//! - `K-PKE.KeyGen`: each `ŝ[j]` is encoded (`ByteEncode₁₂`) into `dk_PKE`
//!   as soon as it is computed; row `i` of `t̂ = Â∘ŝ + ê` is summed into one
//!   accumulator that starts at `ê[i]`; `Â[i][j]` is never stored: each
//!   pair of its coefficients is multiplied in as soon as it is sampled, with
//!   the matching pair of `ŝ[j]` read back from `dk_PKE`.
//! - `K-PKE.Encrypt`: `ŷ[j]` is regenerated (`NTT(CBD(PRF(r, j)))`) for every
//!   product instead of being kept; `Â` is consumed pair by pair as it is
//!   sampled; `t̂[j]` is read from `ek` on the fly;
//!   each `u[i]` and `v` is compressed and handed out 32 coefficients at a time.
//! - `K-PKE.Decrypt`: one `u'[i]` at a time, `ŝ[i]` read from `dk_PKE`.
//!
//! Products are accumulated in 16 bits ([`basemul_acc`]), so the working
//! set is two polynomials of 512 bytes. The results are the same
//! polynomials modulo `q` as the default path, and every output is brought
//! to `[0, q)` before encoding, so all outputs are byte-identical.

#![allow(
    clippy::cast_possible_truncation,
    reason = "indices below k ≤ MAX_K and counters up to 2k are stored in a byte"
)]

use zeroize::Zeroizing;

use super::{CiphertextSink, POLY12, sample_noise};
use crate::encode::{
    compress_encode_coeffs_d, decode_decompress_d, decode_message, encode_message, encode12,
    pair12, poly_bytes,
};
use crate::field::fqmul;
use crate::hash::g;
use crate::ntt::{basemul_acc, basemul_acc_pair, inv_ntt_mont, ntt};
use crate::params::{MAX_D, ParameterSet};
use crate::poly::Poly;
use crate::sample::sample_ntt_pairs;

/// Coefficients compressed and handed to the sink at a time.
const CHUNK: usize = 32;

/// `NTT(SamplePolyCBD_η(PRF_η(seed, n)))`, reduced (coefficients in `[-q/2, q/2]`).
#[inline(never)]
fn noise_ntt(eta: usize, seed: &[u8; 32], n: u8, f: &mut Poly) {
    sample_noise(eta, seed, n, f);
    ntt(f);
    f.reduce();
}

/// `ByteEncode_d(Compress_d(f))` of `f` (coefficients in `[0, q)`), handed
/// to `out` at `offset` in pieces of [`CHUNK`] coefficients.
#[inline(never)]
fn put_compressed(d: u32, f: &Poly, offset: usize, out: &mut impl CiphertextSink) {
    let mut buf = Zeroizing::new([0u8; (CHUNK * MAX_D as usize) >> 3]);
    let n = (CHUNK * d as usize) >> 3;
    for (k, c) in f.c.chunks_exact(CHUNK).enumerate() {
        compress_encode_coeffs_d(d, c, &mut buf[..n]);
        out.put(offset + k * n, &buf[..n]);
    }
}

/// `K-PKE.KeyGen(d)` (FIPS 203 Algorithm 13), streamed.
///
/// Writes `ek_PKE` (`384k + 32` bytes), `dk_PKE` (`384k` bytes) and `H(ek_PKE)`.
#[inline(never)]
pub(crate) fn keygen<P: ParameterSet, const ROUND3: bool>(
    d: &[u8],
    ek: &mut [u8],
    dk_pke: &mut [u8],
    h_ek: &mut [u8; 32],
) {
    let mut rho = [0u8; 32];
    let mut sigma = Zeroizing::new([0u8; 32]);
    // Line 1: (ρ, σ) ← G(d ‖ k); round-3 Kyber (`ROUND3`, v3.02 Algorithm 4
    // line 2) hashes d alone.
    if ROUND3 {
        g(&[d], &mut rho, &mut sigma);
    } else {
        g(&[d, &[P::K as u8]], &mut rho, &mut sigma);
    }
    // ρ is published as the last 32 bytes of ek.
    pqdr_ctgrind::hook::declassify(&mut rho);

    // Lines 9–20 for ŝ: ŝ[j] = NTT(SamplePolyCBD(PRF(σ, j))), encoded at once.
    let mut acc = Zeroizing::new(Poly::ZERO);
    for (j, out) in dk_pke.chunks_exact_mut(POLY12).take(P::K).enumerate() {
        noise_ntt(P::ETA1, &sigma, j as u8, &mut acc);
        acc.canonicalize();
        encode12(&acc, out);
    }

    // t̂[i] = ê[i] + Σ_j Â[i][j] ∘ ŝ[j], with Â[i][j] = SampleNTT(ρ ‖ j ‖ i).
    // At opt-level z, chunks_exact divides the public length of ek:
    // ct: public division
    for (i, out) in ek.chunks_exact_mut(POLY12).take(P::K).enumerate() {
        noise_ntt(P::ETA1, &sigma, (P::K + i) as u8, &mut acc);
        // ê[i]·2^-16 (|·| < q): the products below carry the same factor,
        // which scale_mont removes.
        for x in &mut acc.c {
            *x = fqmul(*x, 1);
        }
        for (j, s) in dk_pke.chunks_exact(POLY12).enumerate() {
            sample_ntt_pairs(&rho, j as u8, i as u8, |p, a0, a1| {
                basemul_acc_pair(&mut acc, p, (a0, a1), pair12(s, p));
            });
        }
        acc.scale_mont();
        acc.canonicalize();
        encode12(&acc, out);
    }
    ek[POLY12 * P::K..].copy_from_slice(&rho);
    crate::hash::h(ek, h_ek);
}

/// [`encrypt`]; `J`'s sponge is left to the caller's `finish` (no 4-way
/// Keccak here).
pub(crate) fn encrypt_with_j<P: ParameterSet>(
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    out: &mut impl CiphertextSink,
    _rider: Option<&mut crate::hash::JRider<'_>>,
) {
    encrypt::<P>(ek, m, r, out);
}

/// `K-PKE.Encrypt(ek_PKE, m, r)` (FIPS 203 Algorithm 14), streamed.
///
/// Encrypts `m` with randomness `r` under `ek` (already checked, §7.2) and
/// hands the `32(d_u k + d_v)` ciphertext bytes to `out`.
pub(crate) fn encrypt<P: ParameterSet>(
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    out: &mut impl CiphertextSink,
) {
    let (t_bytes, rho_bytes) = ek.split_at(POLY12 * P::K);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(rho_bytes);
    // ρ is part of the public encapsulation key.
    pqdr_ctgrind::hook::declassify(&mut rho);

    let du_bytes = poly_bytes(P::DU);
    let mut y_hat = Zeroizing::new(Poly::ZERO);
    let mut acc = Zeroizing::new(Poly::ZERO);
    for i in 0..P::K {
        // u[i] = NTT⁻¹(Σ_j Â[j][i] ∘ ŷ[j]) + e₁[i], with Â[j][i] = SampleNTT(ρ ‖ i ‖ j)
        // and ŷ[j] = NTT(SamplePolyCBD(PRF(r, j))) regenerated for each product.
        acc.c = [0; 256];
        for j in 0..P::K {
            noise_ntt(P::ETA1, r, j as u8, &mut y_hat);
            let y = &y_hat.c;
            sample_ntt_pairs(&rho, i as u8, j as u8, |p, a0, a1| {
                basemul_acc_pair(&mut acc, p, (a0, a1), (y[2 * p], y[2 * p + 1]));
            });
        }
        acc.reduce();
        inv_ntt_mont(&mut acc);
        sample_noise(P::ETA2, r, (P::K + i) as u8, &mut y_hat);
        acc.add_assign(&y_hat);
        acc.canonicalize();
        put_compressed(P::DU, &acc, i * du_bytes, out);
    }

    // v = NTT⁻¹(t̂ᵀ ∘ ŷ) + e₂ + Decompress_1(m), t̂[j] read from ek.
    acc.c = [0; 256];
    for (j, t) in t_bytes.chunks_exact(POLY12).enumerate() {
        noise_ntt(P::ETA1, r, j as u8, &mut y_hat);
        basemul_acc(&mut acc, &y_hat, |p| pair12(t, p));
    }
    acc.reduce();
    inv_ntt_mont(&mut acc);
    sample_noise(P::ETA2, r, (2 * P::K) as u8, &mut y_hat);
    acc.add_assign(&y_hat);
    decode_message(m, &mut y_hat);
    acc.add_assign(&y_hat);
    acc.canonicalize();
    put_compressed(P::DV, &acc, P::K * du_bytes, out);
}

/// `K-PKE.Decrypt(dk_PKE, c)` (FIPS 203 Algorithm 15), one `u'[i]` at a time.
///
/// Decrypts `c` with `dk_PKE` into `m`.
pub(crate) fn decrypt<P: ParameterSet>(dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]) {
    let du_bytes = poly_bytes(P::DU);
    let (c1, c2) = c.split_at(du_bytes * P::K);

    // w = v' - NTT⁻¹(ŝᵀ ∘ NTT(u')), ŝ[i] read from dk_PKE.
    let mut acc = Zeroizing::new(Poly::ZERO);
    let mut u = Zeroizing::new(Poly::ZERO);
    for (ci, si) in c1.chunks_exact(du_bytes).zip(dk_pke.chunks_exact(POLY12)) {
        decode_decompress_d(P::DU, ci, &mut u);
        ntt(&mut u);
        u.reduce();
        basemul_acc(&mut acc, &u, |p| pair12(si, p));
    }
    acc.reduce();
    inv_ntt_mont(&mut acc);
    let v = &mut u;
    decode_decompress_d(P::DV, c2, v);
    acc.sub_from(v);
    acc.canonicalize();
    encode_message(&acc, m);
}
