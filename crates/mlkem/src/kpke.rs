//! K-PKE, the CPA-secure encryption scheme inside ML-KEM (FIPS 203 §5):
//! `K-PKE.KeyGen` (Algorithm 13), `K-PKE.Encrypt` (Algorithm 14) and
//! `K-PKE.Decrypt` (Algorithm 15).
//!
//! Memory: the matrix `Â` is never stored. Each entry is sampled right before
//! it is multiplied into the running sum of one output row, and each output
//! polynomial is encoded into the output bytes as soon as it is complete, so
//! only one vector of `k` polynomials (`ŝ` or `ŷ`) is held at a time.

#![allow(
    clippy::cast_possible_truncation,
    reason = "indices below k ≤ MAX_K and counters up to 2k are stored in a byte"
)]

use zeroize::Zeroizing;

use crate::ct::Compare;
use crate::encode::poly_bytes;
use crate::hash::prf;
use crate::params::MAX_ETA;
use crate::poly::Poly;
use crate::sample::sample_cbd;
#[cfg(not(feature = "small-stack"))]
use crate::{
    encode::{
        compress_encode_d, decode_decompress_d, decode_message, decode12, encode_message, encode12,
    },
    hash::g,
    ntt::{Accumulator, MulCache, inv_ntt_mont, ntt},
    params::{MAX_D, ParameterSet, PolyVec},
    sample::sample_ntt,
};

#[cfg(feature = "small-stack")]
mod small;
#[cfg(feature = "small-stack")]
pub(crate) use small::{decrypt, encrypt, keygen};

/// Bytes of one polynomial encoded with 12 bits per coefficient.
const POLY12: usize = poly_bytes(12);

/// Where `K-PKE.Encrypt` delivers the ciphertext, piece by piece.
pub(crate) trait CiphertextSink {
    /// `bytes` belong at `c[offset..offset + bytes.len()]`.
    fn put(&mut self, offset: usize, bytes: &[u8]);
}

/// Writes the ciphertext into a buffer.
pub(crate) struct Write<'a>(pub(crate) &'a mut [u8]);

impl CiphertextSink for Write<'_> {
    #[inline(always)]
    fn put(&mut self, offset: usize, bytes: &[u8]) {
        self.0[offset..offset + bytes.len()].copy_from_slice(bytes);
    }
}

impl CiphertextSink for Compare<'_> {
    #[inline(always)]
    fn put(&mut self, offset: usize, bytes: &[u8]) {
        self.update(offset, bytes);
    }
}

/// `SamplePolyCBD_η(PRF_η(seed, n))` (FIPS 203 Algorithm 8 on the §4.1 `PRF_η`) into `f`.
#[inline(always)]
fn sample_noise(eta: usize, seed: &[u8; 32], n: u8, f: &mut Poly) {
    let mut buf = Zeroizing::new([0u8; 64 * MAX_ETA]);
    let b = &mut buf[..64 * eta];
    prf(seed, n, b);
    sample_cbd(eta, b, f);
}

#[cfg(not(feature = "small-stack"))]
/// `K-PKE.KeyGen(d)` (FIPS 203 Algorithm 13).
///
/// Writes `ek_PKE` (`384k + 32` bytes) and `dk_PKE` (`384k` bytes).
#[inline(never)]
pub(crate) fn keygen<P: ParameterSet>(d: &[u8], ek: &mut [u8], dk_pke: &mut [u8]) {
    let mut rho = [0u8; 32];
    let mut sigma = Zeroizing::new([0u8; 32]);
    g(&[d, &[P::K as u8]], &mut rho, &mut sigma);
    // ρ is published as the last 32 bytes of ek, so sampling Â from it is
    // public computation (its rejection loop may branch on the XOF output).
    pqdr_ct::hook::declassify(&mut rho);

    let mut s_hat = Zeroizing::new(P::PolyVec::zeroed());
    for (i, s) in s_hat.as_mut().iter_mut().enumerate() {
        sample_noise(P::ETA1, &sigma, i as u8, &mut s.f);
        s.ntt_in_place();
    }

    // `a_hat` holds ê[i], then Â[i][j] while the row is summed, then t̂[i]
    // (which is published in ek) for its encoding.
    let mut a_hat = Zeroizing::new(Poly::ZERO);
    let mut acc = Zeroizing::new(Accumulator::ZERO);
    // At opt-level z, chunks_exact divides the public length of ek:
    // ct: public division
    for (i, out) in ek.chunks_exact_mut(POLY12).take(P::K).enumerate() {
        // t̂[i] = ê[i] + Σ_j Â[i][j] ∘ ŝ[j], with ê[i] = NTT(CBD(PRF(σ, k + i)))
        // and Â[i][j] = SampleNTT(ρ ‖ j ‖ i). The sum starts at ê[i], so no
        // separate polynomial holds it: reduce_into (×2^-16) and scale_mont
        // (×2^16) leave it unscaled.
        sample_noise(P::ETA1, &sigma, (P::K + i) as u8, &mut a_hat);
        ntt(&mut a_hat);
        acc.set(&a_hat);
        for (j, s) in s_hat.as_ref().iter().enumerate() {
            sample_ntt(&rho, j as u8, i as u8, &mut a_hat);
            acc.add(&a_hat, s);
        }
        let t_hat = &mut *a_hat;
        acc.reduce_into(t_hat);
        t_hat.scale_mont();
        t_hat.canonicalize();
        encode12(t_hat, out);
    }
    ek[POLY12 * P::K..].copy_from_slice(&rho);

    for (s, out) in s_hat
        .as_mut()
        .iter_mut()
        .zip(dk_pke.chunks_exact_mut(POLY12))
    {
        s.f.canonicalize();
        encode12(&s.f, out);
    }
}

#[cfg(not(feature = "small-stack"))]
/// `K-PKE.Encrypt(ek_PKE, m, r)` (FIPS 203 Algorithm 14).
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
    pqdr_ct::hook::declassify(&mut rho);

    let mut y_hat = Zeroizing::new(P::PolyVec::zeroed());
    for (i, y) in y_hat.as_mut().iter_mut().enumerate() {
        sample_noise(P::ETA1, r, i as u8, &mut y.f);
        y.ntt_in_place();
    }

    let du_bytes = poly_bytes(P::DU);
    let mut a_hat = Poly::ZERO;
    let mut acc = Zeroizing::new(Accumulator::ZERO);
    let mut u = Zeroizing::new(Poly::ZERO);
    let mut e = Zeroizing::new(Poly::ZERO);
    let mut enc = Zeroizing::new([0u8; poly_bytes(MAX_D)]);
    for i in 0..P::K {
        // u[i] = NTT⁻¹(Σ_j Â[j][i] ∘ ŷ[j]) + e₁[i], with Â[j][i] = SampleNTT(ρ ‖ i ‖ j).
        acc.clear();
        for (j, y) in y_hat.as_ref().iter().enumerate() {
            sample_ntt(&rho, i as u8, j as u8, &mut a_hat);
            acc.add(&a_hat, y);
        }
        acc.reduce_into(&mut u);
        inv_ntt_mont(&mut u);
        sample_noise(P::ETA2, r, (P::K + i) as u8, &mut e);
        u.add_assign(&e);
        u.canonicalize();
        compress_encode_d(P::DU, &u, &mut enc[..du_bytes]);
        out.put(i * du_bytes, &enc[..du_bytes]);
    }

    // v = NTT⁻¹(t̂ᵀ ∘ ŷ) + e₂ + Decompress_1(m).
    acc.clear();
    for (t, y) in t_bytes.chunks_exact(POLY12).zip(y_hat.as_ref()) {
        decode12(t, &mut a_hat);
        acc.add(&a_hat, y);
    }
    let v = &mut u;
    acc.reduce_into(v);
    inv_ntt_mont(v);
    sample_noise(P::ETA2, r, (2 * P::K) as u8, &mut e);
    v.add_assign(&e);
    decode_message(m, &mut e);
    v.add_assign(&e);
    v.canonicalize();
    let dv_bytes = poly_bytes(P::DV);
    compress_encode_d(P::DV, v, &mut enc[..dv_bytes]);
    out.put(P::K * du_bytes, &enc[..dv_bytes]);
}

#[cfg(not(feature = "small-stack"))]
/// `K-PKE.Decrypt(dk_PKE, c)` (FIPS 203 Algorithm 15).
///
/// Decrypts `c` with `dk_PKE` into `m`.
pub(crate) fn decrypt<P: ParameterSet>(dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]) {
    let du_bytes = poly_bytes(P::DU);
    let (c1, c2) = c.split_at(du_bytes * P::K);

    // w = v' - NTT⁻¹(ŝᵀ ∘ NTT(u')), one u'[i] at a time.
    let mut acc = Zeroizing::new(Accumulator::ZERO);
    let mut u = Zeroizing::new(Poly::ZERO);
    let mut s = Zeroizing::new(Poly::ZERO);
    for (ci, si) in c1.chunks_exact(du_bytes).zip(dk_pke.chunks_exact(POLY12)) {
        decode_decompress_d(P::DU, ci, &mut u);
        ntt(&mut u);
        u.reduce();
        decode12(si, &mut s);
        let cache = Zeroizing::new(MulCache::new(&u));
        acc.add_product(&s, &u, &cache);
    }
    let w = &mut s;
    acc.reduce_into(w);
    inv_ntt_mont(w);
    let v = &mut u;
    decode_decompress_d(P::DV, c2, v);
    w.sub_from(v);
    w.canonicalize();
    encode_message(w, m);
}
