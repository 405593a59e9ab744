//! Signing in a few KiB of stack (the `smallest-stack` feature):
//! `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7) from line 7 on, computed one
//! polynomial at a time, in the spirit of the compact Cortex-M Dilithium
//! implementations. Same algorithm, same output as `sign.rs`.
//!
//! Per attempt (κ = the attempt's first ExpandMask index):
//! 1. [`commit`], lines 11–15: for each row i, w_i = NTT^−1(Σ_j Â_ij∘ŷ_j),
//!    with Â_ij sampled straight into the accumulator (never stored) and
//!    ŷ_j = NTT(ExpandMask(ρ'', κ + j)) regenerated for every use;
//!    w1Encode(HighBits(w_i)) goes into c̃ = H(μ‖w1Encode(w1)) at once and
//!    w_i is kept packed at 23 bits per coefficient (736 B per row): the
//!    first rows in the signature's z field, unused until z is written, the
//!    others (at most [`SPILL_ROWS`]) on the stack.
//! 2. [`respond`], lines 16–28: ĉ = NTT(SampleInBall(c̃)); for each row,
//!    r_i = w_i − cs2_i (LowBits check, written back packed), then ct0_i (norm
//!    check) and the hint bits [HighBits(r_i + ct0_i) ≠ HighBits(r_i)]
//!    (Algorithm 39), kept as 256 bits per row; then, with the w rows no longer
//!    needed, z_j = y_j + NTT^−1(ĉ∘NTT(s1_j)) for each j, y_j streamed again
//!    from ExpandMask, checked and packed straight into the signature.
//!
//! One decision per attempt (every check of lines 23 and 28 together) is
//! released; the hints only for the accepted attempt, as the signature.
//! Phases 1 and 2 are separate frames, so the peak is the larger of them plus
//! the w rows on the stack and the hint bits.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "l ≤ 7, ω ≤ 80 and hint bits fit the target types"
)]

use pqdr_ctgrind::hook;
use zeroize::{Zeroize, Zeroizing};

use crate::encode::{hint_pack_bits, pack, pack23, unpack23};
use crate::field::{center, exceeds, freeze, reduce_wide};
use crate::keygen::{SkLayout, public_rho, s1_range, s2_range, t0_range, unpack_eta, unpack_t0};
use crate::params::{MAX_W1_POLY_SIZE, ParameterSet};
use crate::poly::{N, Poly, mul_mont_in_place};
use crate::rounding::{decompose, high_bits};
use crate::sample::{expand_mask_add, h, rej_ntt_mul_acc, sample_in_ball};
use pqdr_keccak::Shake256;

/// Bytes of one row of w packed at 23 bits per coefficient (w ∈ [0, q), q < 2^23).
const W_ROW: usize = 32 * 23;
/// Rows of w kept on the stack: those that do not fit the signature's z
/// field (1, 2 and 2 rows for ML-DSA-44, -65 and -87).
const SPILL_ROWS: usize = 2;
/// The largest k (ML-DSA-87).
const MAX_K: usize = 8;
/// Hint bits of one row: bit n of word n/32.
type HintRow = [u32; N >> 5];

/// Rows of packed w that fit a z field of `z_len` bytes.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time division of public sizes"
)]
const fn rows_in_z(z_len: usize) -> usize {
    z_len / W_ROW
}

/// Where row i of the packed w lives: the z field, then the stack.
struct WRows<'a> {
    z: &'a mut [u8],
    spill: &'a mut [u8; SPILL_ROWS * W_ROW],
    in_z: usize,
}

impl WRows<'_> {
    fn row(&mut self, i: usize) -> &mut [u8] {
        if i < self.in_z {
            &mut self.z[i * W_ROW..(i + 1) * W_ROW]
        } else {
            let k = i - self.in_z;
            &mut self.spill[k * W_ROW..(k + 1) * W_ROW]
        }
    }
}

/// `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7) from line 7 on, given μ,
/// with the streaming memory plan (module doc).
pub(crate) fn sign_mu<P: ParameterSet>(
    sk: &P::SkBytes,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut P::SigBytes,
) {
    match P::GAMMA2 {
        95_232 => sign_streaming::<P, 95_232>(sk, mu, rnd, sig),
        _ => sign_streaming::<P, 261_888>(sk, mu, rnd, sig),
    }
}

/// [`sign_mu`] for γ2 = `G2`.
fn sign_streaming<P: ParameterSet, const G2: i32>(
    sk: &P::SkBytes,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut P::SigBytes,
) {
    debug_assert_eq!(P::GAMMA2, G2);
    let in_z = const { rows_in_z(P::L * P::Z_POLY_SIZE) };
    const {
        assert!(P::K <= MAX_K && P::K <= rows_in_z(P::L * P::Z_POLY_SIZE) + SPILL_ROWS);
    };
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
    let mut spill = [0u8; SPILL_ROWS * W_ROW];
    let mut hints = [[0u32; N >> 5]; MAX_K];
    let (c_tilde, rest) = sig.as_mut().split_at_mut(P::C_TILDE_SIZE);
    let (z_bytes, h_bytes) = rest.split_at_mut(P::L * P::Z_POLY_SIZE);
    let mut kappa: u16 = 0;
    loop {
        let mut w = WRows {
            z: &mut *z_bytes,
            spill: &mut spill,
            in_z,
        };
        commit::<P, G2>(&rho, &rho_pp, kappa, mu, c_tilde, &mut w);
        let bad = respond::<P, G2>(skb, &rho_pp, kappa, c_tilde, &mut w, &mut hints);
        kappa = kappa.wrapping_add(P::L as u16);
        // Public by design: only whether this attempt is rejected leaks; the
        // rejected candidate is discarded (FIPS 204 Algorithm 7, lines 23, 28).
        let mut reject = bad >> 31;
        hook::declassify(&mut reject);
        if reject != 0 {
            continue;
        }
        // Accepted: h is part of the signature, which is public from here on.
        // Algorithm 26, sigEncode: c̃ and z are already in place; pack h.
        hook::declassify(&mut hints);
        h_bytes.fill(0);
        let mut index = 0;
        for (i, row) in hints[..P::K].iter().enumerate() {
            index = hint_pack_bits(h_bytes, P::OMEGA, i, row, index);
        }
        break;
    }
    spill.zeroize();
    hints.zeroize();
    // The signature is the public output.
    hook::declassify(sig.as_mut());
}

/// Lines 11–15 of Algorithm 7: w = NTT^−1(Â∘NTT(y)) row by row into `w`
/// (packed), c̃ = H(μ‖w1Encode(HighBits(w))) into `c_tilde`.
#[inline(never)]
fn commit<P: ParameterSet, const G2: i32>(
    rho: &[u8; 32],
    rho_pp: &[u8; 64],
    kappa: u16,
    mu: &[u8; 64],
    c_tilde: &mut [u8],
    w: &mut WRows<'_>,
) {
    let mut hasher = Shake256::with_bmi(crate::arch::keccak_bmi());
    hasher.absorb(mu);
    let mut wi = Poly::ZERO;
    let mut y = Poly::ZERO;
    let mut w1 = [0u8; MAX_W1_POLY_SIZE];
    let mut group = [0i32; 8];
    for i in 0..P::K {
        // w_i = Σ_j mont(Â_ij ∘ ŷ_j), |·| < 7q, reduced to (−q, q).
        wi = Poly::ZERO;
        for j in 0..P::L {
            // Line 11: y_j ← ExpandMask(ρ'', κ)_j, ŷ_j = NTT(y_j).
            y = Poly::ZERO;
            expand_mask_add(&mut y, rho_pp, kappa.wrapping_add(j as u16), P::GAMMA1_BITS);
            y.ntt();
            // Line 12: Â_ij from ExpandA (Algorithm 32), one coefficient at a time.
            rej_ntt_mul_acc(&mut wi, rho, j, i, &y);
        }
        wi.reduce();
        wi.invntt_tomont();
        wi.freeze();
        // Lines 13 and 15: w1 = HighBits(w_i) into the hash of c̃.
        let w1 = &mut w1[..P::W1_POLY_SIZE];
        pack(w1, &wi, P::W1_BITS, high_bits::<G2>);
        hasher.absorb(w1);
        for (chunk, c) in w.row(i).chunks_exact_mut(23).zip(wi.0.chunks_exact(8)) {
            group.copy_from_slice(c);
            pack23(chunk, &group);
        }
    }
    hasher.squeeze(c_tilde);
    wi.zeroize();
    y.zeroize();
    w1.zeroize();
    group.zeroize();
}

/// Lines 16–28 of Algorithm 7 for the c̃ in place: the hint bits into
/// `hints`, z into the signature (over the w rows); returns a value that is
/// negative exactly when the attempt is rejected.
#[inline(never)]
fn respond<P: ParameterSet, const G2: i32>(
    skb: &[u8],
    rho_pp: &[u8; 64],
    kappa: u16,
    c_tilde: &[u8],
    w: &mut WRows<'_>,
    hints: &mut [HintRow; MAX_K],
) -> i32 {
    // Lines 16–17: c ← SampleInBall(c̃), ĉ ← NTT(c).
    let mut c_hat = Poly::ZERO;
    sample_in_ball(&mut c_hat, c_tilde, P::TAU);
    c_hat.ntt();
    let mut tmp = Poly::ZERO;
    let mut group = [0i32; 8];
    let mut bad = 0i32;
    let mut count = 0i32;
    for (i, hint_row) in hints[..P::K].iter_mut().enumerate() {
        // Lines 19–20: r_i = w_i − cs2_i (in [0, q)), reject if
        // ‖LowBits(r_i)‖∞ ≥ γ2 − β; r_i replaces w_i.
        unpack_eta::<P>(&mut tmp, &skb[s2_range::<P>(i)]);
        tmp.ntt();
        mul_mont_in_place(&mut tmp, &c_hat);
        tmp.invntt_tomont();
        let row = w.row(i);
        for (chunk, cs2) in row.chunks_exact_mut(23).zip(tmp.0.chunks_exact(8)) {
            unpack23(chunk, &mut group);
            for (x, cs2) in group.iter_mut().zip(cs2) {
                *x = reduce_wide(x.wrapping_sub(freeze(*cs2)));
                bad |= exceeds(decompose::<G2>(*x).1, G2 - P::BETA);
            }
            pack23(chunk, &group);
        }
        // Lines 25–28: ct0_i, reject if ‖ct0‖∞ ≥ γ2; h ← MakeHint(−ct0, r + ct0)
        // (Algorithm 39: HighBits(r + ct0) ≠ HighBits(r)).
        unpack_t0(&mut tmp, &skb[t0_range::<P>(i)]);
        tmp.ntt();
        mul_mont_in_place(&mut tmp, &c_hat);
        tmp.invntt_tomont();
        *hint_row = [0; N >> 5];
        for (g, (chunk, ct0)) in row.chunks_exact(23).zip(tmp.0.chunks_exact(8)).enumerate() {
            unpack23(chunk, &mut group);
            for (k, (x, ct0)) in group.iter().zip(ct0).enumerate() {
                let ct0 = center(freeze(*ct0));
                bad |= exceeds(ct0, G2);
                let d = high_bits::<G2>(reduce_wide(x.wrapping_add(ct0))) ^ high_bits::<G2>(*x);
                let hint = (d | d.wrapping_neg()) >> 31 & 1;
                let n = (g << 3) | k;
                hint_row[n >> 5] |= (hint as u32) << (n & 31);
                count = count.wrapping_add(hint);
            }
        }
    }
    // The w rows are no longer needed: the z field is free.
    // Lines 18 and 23: z_j = y_j + cs1_j, reject if ‖z‖∞ ≥ γ1 − β.
    let gamma1 = P::GAMMA1;
    for j in 0..P::L {
        unpack_eta::<P>(&mut tmp, &skb[s1_range::<P>(j)]);
        tmp.ntt();
        mul_mont_in_place(&mut tmp, &c_hat);
        tmp.invntt_tomont();
        for x in &mut tmp.0 {
            // cs1 exactly (|cs1| ≤ β): then adding y gives z exactly.
            *x = center(freeze(*x));
        }
        expand_mask_add(
            &mut tmp,
            rho_pp,
            kappa.wrapping_add(j as u16),
            P::GAMMA1_BITS,
        );
        for x in &tmp.0 {
            bad |= exceeds(*x, gamma1 - P::BETA);
        }
        let out = &mut w.z[j * P::Z_POLY_SIZE..(j + 1) * P::Z_POLY_SIZE];
        pack(out, &tmp, P::Z_BITS, |c| gamma1.wrapping_sub(c));
    }
    // Line 28: more than ω hints.
    bad |= (P::OMEGA as i32).wrapping_sub(count);
    c_hat.zeroize();
    tmp.zeroize();
    group.zeroize();
    bad
}
