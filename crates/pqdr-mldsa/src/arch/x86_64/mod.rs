//! The AVX2 kernels, one file per kind (the table of kernels, portable
//! twins and differential tests is in the parent module's doc):
//! - `ntt`: `NTT`, `NTT^−1` (FIPS 204 Algorithms 41, 42) and the pointwise
//!   Montgomery products;
//! - `keygen`: t + s2, `Power2Round` and the t1 / t0 packing of key
//!   generation (Algorithms 6, 16, 17, 35);
//! - `mask`: `BitUnpack` of `ExpandMask` (Algorithms 19, 34) and of the
//!   signing key's s1, s2, t0 for signing (Algorithms 19, 25);
//! - `rej`: the rejection sampling of `RejNTTPoly` (Algorithms 14, 30);
//! - `eta`: the rejection sampling of `RejBoundedPoly` (Algorithms 15, 31);
//! - `t1`: `SimpleBitUnpack` of t1 times 2^d in verification (Algorithms
//!   18, 23, 8);
//! - `sign`: the per-polynomial steps of signing (Algorithm 7: z and its
//!   norm check and packing, w1Encode(HighBits(w)), the LowBits check,
//!   ct0's check and MakeHint);
//! - `clear`: zeroization of a polynomial (FIPS 204 §3.6.3).
//!
//! The only `unsafe`: calling `#[target_feature(enable = "avx2")]` functions
//! behind an [`Avx2`](pqdr_common::simd::Avx2) token (proof of detection),
//! and unaligned loads and stores of in-bounds slices.

mod clear;
mod eta;
mod keygen;
mod mask;
mod ntt;
mod rej;
mod sign;
mod t1;

pub(crate) use clear::zeroize_poly;
pub(crate) use eta::rej_eta;
pub(crate) use keygen::power2round_pack;
pub(crate) use mask::{mask_unpack, sk_unpack};
pub(crate) use ntt::{
    dot_mont, invntt_tomont, mul_acc, mul_mont_from, mul_mont_in_place, ntt, reduce_acc,
};
pub(crate) use rej::rej_uniform;
pub(crate) use sign::{
    hint_pack_row, low_bits_check, make_hint, swap_in_ball, use_hint_pack, w1_pack, z_pack,
};
pub(crate) use t1::t1_unpack_shift;
