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

#[cfg(not(feature = "small-stack"))]
use zeroize::Zeroize;
use zeroize::Zeroizing;

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
    hash::{HState, JRider, LaneRider, PrfRider, g, prf_batches, prf_x4_encrypt_k2},
    ntt::{Accumulator, MulCache, Multiplicand, inv_ntt_mont, ntt},
    params::{MAX_D, MAX_K, ParameterSet, PolyVec},
    sample::{sample_ntt_row, sample_ntt_row_x4},
};
use pqdr_common::ct::Compare;
#[cfg(not(feature = "small-stack"))]
use pqdr_common::simd::Avx2;
#[cfg(not(feature = "small-stack"))]
use pqdr_keccak::RATE_SHAKE256;

#[cfg(not(feature = "small-stack"))]
mod groups;
#[cfg(feature = "small-stack")]
mod small;
#[cfg(not(feature = "small-stack"))]
use groups::{encrypt_u_pair, encrypt_u_ride4, keygen_row_pair, keygen_rows_ride4};
#[cfg(feature = "small-stack")]
pub(crate) use small::{decrypt, encrypt, encrypt_with_j, keygen};

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

/// `SamplePolyCBD_η` (Algorithm 8) of noise polynomial `idx` into `f`: from
/// its `64η` bytes at `bytes[64η · idx..]` when the 4-way PRF produced them
/// (`x4`), else from a scalar `PRF_η(seed, nonce)`.
#[cfg(not(feature = "small-stack"))]
#[inline(always)]
fn noise_at(
    x4: bool,
    eta: usize,
    seed: &[u8; 32],
    nonce: usize,
    bytes: &[u8],
    idx: usize,
    f: &mut Poly,
) {
    if x4 {
        let len = 64 * eta;
        sample_cbd(eta, &bytes[idx * len..(idx + 1) * len], f);
    } else {
        sample_noise(eta, seed, nonce as u8, f);
    }
}

/// Whether this build has the 4-way path (`arch::avx2` can return a
/// token): without it the noise-byte buffers below are empty, so the
/// portable builds (microcontrollers) carry no unused buffer.
#[cfg(not(feature = "small-stack"))]
const X4_BUILD: bool = crate::arch::SIMD_BUILD;

/// The Keccak path of `K-PKE`: the AVX2 token ([`crate::arch::avx2`]: this
/// crate's `simd` feature and the CPU) in builds with the 4-way path, else
/// `None` (portable), whatever other crates enable in pqdr-keccak.
#[cfg(not(feature = "small-stack"))]
#[inline(always)]
fn keccak_backend() -> Option<Avx2> {
    if X4_BUILD {
        crate::arch::keccak_avx2()
    } else {
        None
    }
}

/// Bytes of `PRF_η1` output kept for `ê` by the 4-way `K-PKE.KeyGen`:
/// `64 η₁ k` is at most 512 for every parameter set.
#[cfg(not(feature = "small-stack"))]
const KEYGEN_NOISE_X4: usize = 512;
#[cfg(not(feature = "small-stack"))]
const KEYGEN_NOISE: usize = if X4_BUILD { KEYGEN_NOISE_X4 } else { 0 };

/// Bytes of `PRF_η2` output kept for `e₁` and `e₂` by the 4-way
/// `K-PKE.Encrypt`: `64 η₂ (k + 1)` with `η₂ = 2`.
#[cfg(not(feature = "small-stack"))]
const ENCRYPT_NOISE_X4: usize = 128 * (MAX_K + 1);
#[cfg(not(feature = "small-stack"))]
const ENCRYPT_NOISE: usize = if X4_BUILD { ENCRYPT_NOISE_X4 } else { 0 };

#[cfg(not(feature = "small-stack"))]
/// `K-PKE.KeyGen(d)` (FIPS 203 Algorithm 13).
///
/// Writes `ek_PKE` (`384k + 32` bytes), `dk_PKE` (`384k` bytes) and
/// `H(ek_PKE)` (FIPS 203 Algorithm 16, line 3's `H(ek)`): on the 4-way path
/// its permutations ride in the spare lane while the rows of `Â` are sampled
/// (`k = 4`: while entries 0–2 of each row are), over the rows of `ek`
/// already written.
///
/// Stack: only `ŝ`, the accumulator and (4-way path) the PRF bytes of `ê`
/// live in this frame while a row of `Â` is sampled; the noise sampling and
/// each row's start and end run in their own frames, which are gone by then.
#[inline(never)]
pub(crate) fn keygen<P: ParameterSet, const ROUND3: bool>(
    d: &[u8],
    ek: &mut [u8],
    dk_pke: &mut [u8],
    h_ek: &mut [u8; 32],
) {
    const { assert!(64 * P::ETA1 * P::K <= KEYGEN_NOISE_X4) };
    let mut rho = [0u8; 32];
    let mut sigma = Zeroizing::new([0u8; 32]);
    // Line 1: (ρ, σ) ← G(d ‖ k); round-3 Kyber (`ROUND3`, v3.02 Algorithm 4
    // line 2) hashes d alone.
    if ROUND3 {
        g(&[d], &mut rho, &mut sigma);
    } else {
        g(&[d, &[P::K as u8]], &mut rho, &mut sigma);
    }
    // ρ is published as the last 32 bytes of ek, so sampling Â from it is
    // public computation (its rejection loop may branch on the XOF output).
    pqdr_ctgrind::hook::declassify(&mut rho);

    // One CPU detection per operation: with AVX2, the PRF and SampleNTT
    // calls run four at a time on the 4-way Keccak; otherwise one at a time
    // on the scalar permutation. Both give the same bytes.
    let backend = keccak_backend();
    let x4 = backend.is_some();

    let mut s_hat = Zeroizing::new(P::PolyVec::zeroed());
    // Zeroized below when used (the scalar path leaves it untouched).
    let mut e_bytes = [0u8; KEYGEN_NOISE];
    let mut acc = Zeroizing::new(Accumulator::ZERO);
    // k = 3: ê[0] rides in the spare lane of ŝ's PRF batch, ê[1], ê[2] in
    // that of row 0 (H has nothing to absorb yet): one 4-way batch fewer.
    let ride_e = P::K == 3 && x4 && P::ETA1 == 2;
    if ride_e {
        let len = 64 * P::ETA1;
        let mut e0 = PrfRider::new(&sigma, P::K as u8, 1, len, &mut e_bytes);
        keygen_noise::<P>(backend, &sigma, s_hat.as_mut(), None, Some(&mut e0));
        e0.finish();
        keygen_row_start::<P>(x4, &sigma, 0, &e_bytes, &mut acc);
        let rest = e_bytes.get_mut(len..).unwrap_or_default();
        let mut e12 = PrfRider::new(&sigma, P::K as u8 + 1, P::K as u8 - 1, len, rest);
        sample_row(
            backend,
            &rho,
            0,
            false,
            s_hat.as_ref(),
            &mut acc,
            Some(&mut e12),
        );
        e12.finish();
        keygen_row_end(&acc, &mut ek[..POLY12]);
    } else {
        keygen_noise::<P>(backend, &sigma, s_hat.as_mut(), Some(&mut e_bytes), None);
    }
    let mut h = HState::new();
    if P::K == 2 && x4 {
        // k = 2: both rows in one 4-way run (no spare lane for H).
        keygen_row_pair::<P>(
            backend,
            &rho,
            &sigma,
            s_hat.as_ref(),
            &e_bytes,
            &mut acc,
            ek,
        );
    }
    if P::K == 4 && x4 {
        // k = 4: entry 3 of every row first, then entries 0–2 of each row
        // with H(ek) in the spare lane.
        keygen_rows_ride4::<P>(
            backend,
            &rho,
            &sigma,
            s_hat.as_ref(),
            &e_bytes,
            &mut acc,
            ek,
            &mut h,
        );
    }
    for i in usize::from(ride_e)..P::K {
        if (P::K == 2 || P::K == 4) && x4 {
            break;
        }
        // t̂[i] = ê[i] + Σ_j Â[i][j] ∘ ŝ[j], with ê[i] = NTT(CBD(PRF(σ, k + i)))
        // and Â[i][j] = SampleNTT(ρ ‖ j ‖ i). The sum starts at ê[i], so no
        // separate polynomial holds it: reduce_into (×2^-16) and scale_mont
        // (×2^16) leave it unscaled.
        keygen_row_start::<P>(x4, &sigma, i, &e_bytes, &mut acc);
        let (written, rest) = ek.split_at_mut(POLY12 * i);
        // H(ek) absorbs the rows t̂[0..i] in the spare lane (4-way path, k < 4).
        let mut rider = h.rider(written);
        sample_row(
            backend,
            &rho,
            i as u8,
            false,
            s_hat.as_ref(),
            &mut acc,
            Some(&mut rider),
        );
        keygen_row_end(&acc, &mut rest[..POLY12]);
    }
    if x4 {
        e_bytes.zeroize();
    }
    ek[POLY12 * P::K..].copy_from_slice(&rho);
    h.finish(ek, h_ek);

    for (s, out) in s_hat
        .as_mut()
        .iter_mut()
        .zip(dk_pke.chunks_exact_mut(POLY12))
    {
        s.f.canonicalize();
        encode12(&s.f, out);
    }
}

/// `K-PKE.KeyGen` lines 8–16: `ŝ[i] = NTT(CBD_η1(PRF(σ, i)))` and, on the
/// 4-way path, the PRF bytes of `ê[i]` (nonce `k + i`) into `e_bytes`
/// (nonces `0..2k` four at a time; without `e_bytes` only `ŝ`, with
/// `rider` in the spare lane); on the scalar path `ê` is sampled per row.
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
fn keygen_noise<P: ParameterSet>(
    backend: Option<Avx2>,
    sigma: &[u8; 32],
    s_hat: &mut [Multiplicand],
    mut e_bytes: Option<&mut [u8; KEYGEN_NOISE]>,
    rider: Option<&mut dyn LaneRider>,
) {
    if backend.is_some() {
        let len = 64 * P::ETA1;
        let count = if e_bytes.is_some() { 2 * P::K } else { P::K };
        let f = |n: usize, b: &[u8]| {
            if let Some(s) = s_hat.get_mut(n) {
                sample_cbd(P::ETA1, &b[..len], &mut s.f);
            } else if let Some(e) = e_bytes.as_deref_mut() {
                let o = (n - P::K) * len;
                e[o..o + len].copy_from_slice(&b[..len]);
            }
        };
        prf_batches(backend, sigma, 0, count, |_| P::ETA1, f, rider);
    } else {
        for (i, s) in s_hat.iter_mut().enumerate() {
            sample_noise(P::ETA1, sigma, i as u8, &mut s.f);
        }
    }
    for s in s_hat {
        s.ntt_in_place();
    }
}

/// Starts row `i` of `K-PKE.KeyGen`'s sums at `ê[i] = NTT(CBD_η1(PRF(σ, k + i)))`.
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
fn keygen_row_start<P: ParameterSet>(
    x4: bool,
    sigma: &[u8; 32],
    i: usize,
    e_bytes: &[u8; KEYGEN_NOISE],
    acc: &mut Accumulator,
) {
    let mut e = Zeroizing::new(Poly::ZERO);
    noise_at(x4, P::ETA1, sigma, P::K + i, e_bytes, i, &mut e);
    ntt(&mut e);
    acc.set(&e);
}

/// Ends row `i` of `K-PKE.KeyGen`: `t̂[i]` (public: it is published in ek)
/// from the sums, encoded into `out`.
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
fn keygen_row_end(acc: &Accumulator, out: &mut [u8]) {
    let mut t_hat = Poly::ZERO;
    acc.reduce_into(&mut t_hat);
    t_hat.scale_mont();
    t_hat.canonicalize();
    encode12(&t_hat, out);
}

/// `Σ_j Â_j ∘ v[j]` added to `acc` for one row (`K-PKE.KeyGen`) or column
/// (`transpose`, `K-PKE.Encrypt`) of `Â`: the 4-way streamed sampler
/// (`sample_ntt_row_x4`) on AVX2, else one `SampleNTT` at a time.
#[cfg(not(feature = "small-stack"))]
#[inline(always)]
fn sample_row(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    i: u8,
    transpose: bool,
    v: &[Multiplicand],
    acc: &mut Accumulator,
    rider: Option<&mut dyn LaneRider>,
) {
    if backend.is_some() {
        sample_ntt_row_x4(backend, rho, i, transpose, v, acc, rider);
    } else {
        sample_ntt_row(rho, i, transpose, v, acc);
    }
}

#[cfg(not(feature = "small-stack"))]
/// `K-PKE.Encrypt(ek_PKE, m, r)` (FIPS 203 Algorithm 14).
///
/// Encrypts `m` with randomness `r` under `ek` (already checked, §7.2) and
/// hands the `32(d_u k + d_v)` ciphertext bytes to `out`.
///
/// Stack: only `ŷ`, the accumulator and (4-way path) the PRF bytes of `e₁`,
/// `e₂` live in this frame while a column of `Â` is sampled; the noise
/// sampling, each `u[i]` and `v` are finished in their own frames.
pub(crate) fn encrypt<P: ParameterSet>(
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    out: &mut impl CiphertextSink,
) {
    encrypt_with_j::<P>(ek, m, r, out, None);
}

#[cfg(not(feature = "small-stack"))]
/// [`encrypt`], with the permutations of `J(z ‖ c)` (`ML-KEM.Decaps`,
/// Algorithm 18 line 8) riding in the spare lane of the 4-way Keccak while
/// the columns of `Â` are sampled (on AVX2; `k = 4`: while entries 0–2 of
/// each column are, `groups::encrypt_u_ride4`); the caller finishes
/// `rider` (whatever is left runs on the scalar permutation).
pub(crate) fn encrypt_with_j<P: ParameterSet>(
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    out: &mut impl CiphertextSink,
    mut rider: Option<&mut JRider<'_>>,
) {
    const { assert!(64 * P::ETA2 * (P::K + 1) <= ENCRYPT_NOISE_X4 && P::ETA2 <= 2) };
    let (t_bytes, rho_bytes) = ek.split_at(POLY12 * P::K);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(rho_bytes);
    // ρ is part of the public encapsulation key.
    pqdr_ctgrind::hook::declassify(&mut rho);

    // One CPU detection per operation (see `keygen`).
    let backend = keccak_backend();
    let x4 = backend.is_some();

    let mut y_hat = Zeroizing::new(P::PolyVec::zeroed());
    // Zeroized below when used (the scalar path leaves it untouched).
    let mut e_bytes = [0u8; ENCRYPT_NOISE];
    let mut acc = Zeroizing::new(Accumulator::ZERO);
    // k = 3 without a rider: e₁, e₂ ride in the spare lanes of ŷ's and
    // column 0's 4-way permutations (one 4-way batch fewer).
    let ride_e = P::K == 3 && x4 && rider.is_none();
    if ride_e {
        let len2 = 64 * P::ETA2;
        let mut prf = PrfRider::new(r, P::K as u8, P::K as u8 + 1, len2, &mut e_bytes);
        encrypt_noise::<P>(backend, r, y_hat.as_mut(), None, Some(&mut prf));
        sample_row(
            backend,
            &rho,
            0,
            true,
            y_hat.as_ref(),
            &mut acc,
            Some(&mut prf),
        );
        prf.finish();
        encrypt_u::<P>(x4, &acc, r, 0, &e_bytes, out);
    } else {
        encrypt_noise::<P>(
            backend,
            r,
            y_hat.as_mut(),
            Some(&mut e_bytes),
            rider.as_deref_mut().map(|r| r as &mut dyn LaneRider),
        );
    }
    if P::K == 2 && x4 && rider.is_none() {
        // k = 2 without a rider: both columns in one 4-way run.
        encrypt_u_pair::<P>(backend, &rho, y_hat.as_ref(), &mut acc, r, &e_bytes, out);
    }
    let ride4 = P::K == 4 && x4;
    if let (Some(j), true) = (rider.as_deref_mut(), ride4) {
        // k = 4 with J: J's permutations in lane 3 of five runs.
        encrypt_u_ride4::<P>(backend, &rho, y_hat.as_ref(), &mut acc, r, &e_bytes, out, j);
    }
    for i in usize::from(ride_e)..P::K {
        if (P::K == 2 && x4 && rider.is_none()) || (ride4 && rider.is_some()) {
            break;
        }
        // u[i] = NTT⁻¹(Σ_j Â[j][i] ∘ ŷ[j]) + e₁[i], with Â[j][i] = SampleNTT(ρ ‖ i ‖ j).
        acc.clear();
        sample_row(
            backend,
            &rho,
            i as u8,
            true,
            y_hat.as_ref(),
            &mut acc,
            rider.as_deref_mut().map(|r| r as &mut dyn LaneRider),
        );
        encrypt_u::<P>(x4, &acc, r, i, &e_bytes, out);
    }
    encrypt_v::<P>(x4, t_bytes, y_hat.as_ref(), &mut acc, m, r, &e_bytes, out);
    if x4 {
        e_bytes.zeroize();
    }
}

/// `K-PKE.Encrypt` lines 9–17: `ŷ[i] = NTT(CBD_η1(PRF(r, i)))` and, on the
/// 4-way path, the PRF bytes of `e₁[i]` (nonce `k + i`) and `e₂` (nonce
/// `2k`) into `e_bytes` (nonces `0..=2k` four at a time, for `k = 2` in
/// two permutations by [`prf_x4_encrypt_k2`]); on the scalar path `e₁`,
/// `e₂` are sampled where they are added. `rider` (`J` in decapsulation)
/// rides in a spare lane of the last 4-way permutation.
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
fn encrypt_noise<P: ParameterSet>(
    backend: Option<Avx2>,
    r: &[u8; 32],
    y_hat: &mut [Multiplicand],
    e_bytes: Option<&mut [u8; ENCRYPT_NOISE]>,
    rider: Option<&mut dyn LaneRider>,
) {
    let len2 = 64 * P::ETA2;
    // Without `e_bytes`, only ŷ (a `PrfRider` produces e₁, e₂).
    let count = if e_bytes.is_some() {
        2 * P::K + 1
    } else {
        P::K
    };
    let mut e_bytes = e_bytes;
    if let (Some(e_bytes), true) = (
        e_bytes.as_deref_mut(),
        backend.is_some() && P::K == 2 && P::ETA1 == 3 && P::ETA2 == 2,
    ) {
        let mut yb = Zeroizing::new([[0u8; 2 * RATE_SHAKE256]; 2]);
        let mut eb = Zeroizing::new([[0u8; RATE_SHAKE256]; 3]);
        prf_x4_encrypt_k2(backend, r, &mut yb, &mut eb, rider);
        for (y, b) in y_hat.iter_mut().zip(yb.iter()) {
            sample_cbd(P::ETA1, &b[..64 * P::ETA1], &mut y.f);
        }
        for (o, b) in e_bytes.chunks_exact_mut(len2).zip(eb.iter()) {
            o.copy_from_slice(&b[..len2]);
        }
    } else if backend.is_some() {
        let eta = |n| if n < P::K { P::ETA1 } else { P::ETA2 };
        let f = |n: usize, b: &[u8]| {
            if let Some(y) = y_hat.get_mut(n) {
                sample_cbd(P::ETA1, &b[..64 * P::ETA1], &mut y.f);
            } else if let Some(e) = e_bytes.as_deref_mut() {
                let o = (n - P::K) * len2;
                e[o..o + len2].copy_from_slice(&b[..len2]);
            }
        };
        prf_batches(backend, r, 0, count, eta, f, rider);
    } else {
        for (i, y) in y_hat.iter_mut().enumerate() {
            sample_noise(P::ETA1, r, i as u8, &mut y.f);
        }
    }
    for y in y_hat {
        y.ntt_in_place();
    }
}

/// `u[i] = NTT⁻¹(sums) + e₁[i]` compressed and encoded into its place in
/// the ciphertext (Algorithm 14, lines 19, 22).
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
fn encrypt_u<P: ParameterSet>(
    x4: bool,
    acc: &Accumulator,
    r: &[u8; 32],
    i: usize,
    e_bytes: &[u8; ENCRYPT_NOISE],
    out: &mut impl CiphertextSink,
) {
    let du_bytes = poly_bytes(P::DU);
    let mut u = Zeroizing::new(Poly::ZERO);
    let mut e = Zeroizing::new(Poly::ZERO);
    acc.reduce_into(&mut u);
    inv_ntt_mont(&mut u);
    noise_at(x4, P::ETA2, r, P::K + i, e_bytes, i, &mut e);
    u.add_assign(&e);
    u.canonicalize();
    let mut enc = Zeroizing::new([0u8; poly_bytes(MAX_D)]);
    compress_encode_d(P::DU, &u, &mut enc[..du_bytes]);
    out.put(i * du_bytes, &enc[..du_bytes]);
}

/// `v = NTT⁻¹(t̂ᵀ ∘ ŷ) + e₂ + Decompress_1(m)` compressed and encoded into
/// the end of the ciphertext (Algorithm 14, lines 20–23).
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the state of Algorithm 14 at line 20"
)]
fn encrypt_v<P: ParameterSet>(
    x4: bool,
    t_bytes: &[u8],
    y_hat: &[Multiplicand],
    acc: &mut Accumulator,
    m: &[u8; 32],
    r: &[u8; 32],
    e_bytes: &[u8; ENCRYPT_NOISE],
    out: &mut impl CiphertextSink,
) {
    let mut a = Zeroizing::new(Poly::ZERO);
    acc.clear();
    for (t, y) in t_bytes.chunks_exact(POLY12).zip(y_hat) {
        decode12(t, &mut a);
        acc.add(&a, y);
    }
    let mut v = Zeroizing::new(Poly::ZERO);
    acc.reduce_into(&mut v);
    inv_ntt_mont(&mut v);
    noise_at(x4, P::ETA2, r, 2 * P::K, e_bytes, P::K, &mut a);
    v.add_assign(&a);
    decode_message(m, &mut a);
    v.add_assign(&a);
    v.canonicalize();
    let du_bytes = poly_bytes(P::DU);
    let dv_bytes = poly_bytes(P::DV);
    let mut enc = Zeroizing::new([0u8; poly_bytes(MAX_D)]);
    compress_encode_d(P::DV, &v, &mut enc[..dv_bytes]);
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
