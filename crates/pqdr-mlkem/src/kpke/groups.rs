//! The rows (or columns) of `Â` grouped into 4-way runs for `k = 2` and
//! `k = 4` (FIPS 203 Algorithms 13, 14): `k = 2` samples both rows' four
//! entries in one run; `k = 4` samples entries 0–2 of each row with a
//! sponge (`H(ek)` in key generation, `J(z ‖ c)` in decapsulation) riding
//! in the spare lane, and entry 3 of the four rows in one run.

use zeroize::Zeroizing;

use super::{
    CiphertextSink, ENCRYPT_NOISE, KEYGEN_NOISE, POLY12, encrypt_u, keygen_row_end,
    keygen_row_start,
};
use crate::{
    hash::{HState, LaneRider},
    ntt::{Accumulator, Multiplicand},
    params::ParameterSet,
    sample::{sample_ntt_row_pair_x4, sample_ntt_rows_part_x4},
};
use pqdr_common::simd::Avx2;

/// Rows 0 and 1 of `K-PKE.KeyGen` for `k = 2` (Algorithm 13, lines 18–20):
/// the four entries of `Â` in one 4-way run ([`sample_ntt_row_pair_x4`]),
/// row 0 in `acc`, row 1 in a second accumulator in this frame; `t̂[0]`,
/// `t̂[1]` encoded into `ek`.
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
pub(super) fn keygen_row_pair<P: ParameterSet>(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    sigma: &[u8; 32],
    s_hat: &[Multiplicand],
    e_bytes: &[u8; KEYGEN_NOISE],
    acc: &mut Accumulator,
    ek: &mut [u8],
) {
    let mut acc1 = Zeroizing::new(Accumulator::ZERO);
    keygen_row_start::<P>(true, sigma, 0, e_bytes, acc);
    keygen_row_start::<P>(true, sigma, 1, e_bytes, &mut acc1);
    sample_ntt_row_pair_x4(backend, rho, 0, false, s_hat, acc, &mut acc1);
    let (t0, t1) = ek.split_at_mut(POLY12);
    keygen_row_end(acc, t0);
    keygen_row_end(&acc1, &mut t1[..POLY12]);
}

/// Rows 0–3 of `K-PKE.KeyGen` for `k = 4` (Algorithm 13, lines 18–20) with
/// the permutations of `H(ek)` (Algorithm 16, line 3) riding in lane 3:
/// entry 3 of all four rows in one 4-way run, then entries 0–2 of each row
/// in one run with `H` absorbing the rows of `ek` already written in the
/// spare lane (8 of its 12 permutations; [`sample_ntt_rows_part_x4`]); rows
/// 1–3 accumulate in this frame (3 KiB).
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the state of Algorithm 13 at line 18 plus H's sponge"
)]
pub(super) fn keygen_rows_ride4<P: ParameterSet>(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    sigma: &[u8; 32],
    s_hat: &[Multiplicand],
    e_bytes: &[u8; KEYGEN_NOISE],
    acc: &mut Accumulator,
    ek: &mut [u8],
    h: &mut HState,
) {
    let mut more = Zeroizing::new([Accumulator::ZERO; 3]);
    let [a1, a2, a3] = &mut *more;
    let mut accs = [acc, a1, a2, a3];
    for (i, a) in accs.iter_mut().enumerate() {
        keygen_row_start::<P>(true, sigma, i, e_bytes, a);
    }
    sample_ntt_rows_part_x4(backend, rho, 0, false, s_hat, 3, 1, &mut accs, None);
    for (i, a) in accs.iter_mut().enumerate() {
        let (written, rest) = ek.split_at_mut(POLY12 * i);
        let mut rider = h.rider(written);
        let one: &mut [&mut Accumulator; 1] = &mut [&mut **a];
        sample_ntt_rows_part_x4(
            backend,
            rho,
            i as u8,
            false,
            s_hat,
            0,
            3,
            one,
            Some(&mut rider),
        );
        keygen_row_end(a, &mut rest[..POLY12]);
    }
}

/// `u[0]` and `u[1]` of `K-PKE.Encrypt` for `k = 2` (Algorithm 14, lines
/// 19, 22): the four entries of `Â` in one 4-way run
/// ([`sample_ntt_row_pair_x4`]), column 0 into `acc`, column 1 into a second
/// accumulator in this frame.
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
pub(super) fn encrypt_u_pair<P: ParameterSet>(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    y_hat: &[Multiplicand],
    acc: &mut Accumulator,
    r: &[u8; 32],
    e_bytes: &[u8; ENCRYPT_NOISE],
    out: &mut impl CiphertextSink,
) {
    let mut acc1 = Zeroizing::new(Accumulator::ZERO);
    acc.clear();
    sample_ntt_row_pair_x4(backend, rho, 0, true, y_hat, acc, &mut acc1);
    encrypt_u::<P>(true, acc, r, 0, e_bytes, out);
    encrypt_u::<P>(true, &acc1, r, 1, e_bytes, out);
}

/// `u[0..4]` of `K-PKE.Encrypt` for `k = 4` in decapsulation (Algorithm
/// 14, lines 19, 22) with the permutations of `J(z ‖ c)` (Algorithm 18,
/// line 8) riding in lane 3: entries 0–2 of each column in one 4-way run
/// with `J` in the spare lane, then entry 3 of all four columns in one run
/// ([`sample_ntt_rows_part_x4`]). Five runs (about 15.4 4-way permutations)
/// instead of four runs plus `J`'s twelve scalar permutations; columns
/// 1–3 accumulate in this frame (3 KiB).
#[cfg(not(feature = "small-stack"))]
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the state of Algorithm 14 at line 19 plus the rider"
)]
pub(super) fn encrypt_u_ride4<P: ParameterSet>(
    backend: Option<Avx2>,
    rho: &[u8; 32],
    y_hat: &[Multiplicand],
    acc: &mut Accumulator,
    r: &[u8; 32],
    e_bytes: &[u8; ENCRYPT_NOISE],
    out: &mut impl CiphertextSink,
    rider: &mut dyn LaneRider,
) {
    let mut more = Zeroizing::new([Accumulator::ZERO; 3]);
    let [a1, a2, a3] = &mut *more;
    acc.clear();
    let mut accs = [acc, a1, a2, a3];
    for (i, a) in accs.iter_mut().enumerate() {
        let one: &mut [&mut Accumulator; 1] = &mut [&mut **a];
        sample_ntt_rows_part_x4(
            backend,
            rho,
            i as u8,
            true,
            y_hat,
            0,
            3,
            one,
            Some(&mut *rider),
        );
    }
    sample_ntt_rows_part_x4(backend, rho, 0, true, y_hat, 3, 1, &mut accs, None);
    for (i, a) in accs.iter().enumerate() {
        encrypt_u::<P>(true, a, r, i, e_bytes, out);
    }
}
