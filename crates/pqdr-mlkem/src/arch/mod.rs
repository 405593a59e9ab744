//! Architecture-specific code: the only place `unsafe` is allowed, each
//! block with a `// SAFETY:` comment.
//!
//! Dispatch (the one pattern of the pqdr crates, `pqdr_common::simd`): every
//! kernel is a safe function taking the [`Avx2`] token, which only detection
//! makes; [`avx2`] hands one out when this crate's feature `simd` is on and
//! the CPU has AVX2 (CPUID once per process), else `None`. Without `simd`
//! or off x86-64, `Avx2` is an empty enum: no token can exist, the stubs
//! below are never reached, and no AVX2 code is built.
//!
//! | kernel (`x86_64`, AVX2) | portable twin | differential test |
//! |---|---|---|
//! | `ntt_layers` | `ntt::ntt_portable` (layers 128 … 2) | `arch::x86_64::tests::ntt_matches_portable`, `…::ntt_edge_inputs` |
//! | `inv_ntt_layers` | `ntt::inv_ntt_mont_portable` (layers 2 … 128, scaling) | `…::inv_ntt_matches_portable`, `…::ntt_edge_inputs` |
//! | `add_product` | `Accumulator::add_product_portable` | `…::add_product_matches_portable` |
//! | `add_product_16` | `Accumulator::add_chunk`'s portable branch | `…::add_chunk_matches_portable`, `sample::tests::row_x4_matches_sample_ntt` |
//! | `rej_uniform` (`x86_64/rej.rs`) | `sample::rej_uniform_portable` | `sample::tests::rej_uniform_matches_portable`, `sample::tests::row_x4_matches_sample_ntt` |
//! | `encode::{compress_encode_10, compress_encode_4}` | `encode::compress_encode::<10>`, `::<4>` | `encode::tests::avx2_matches_portable` (every input in `[0, q)`) |
//! | `encode::{decode_decompress_10, decode_decompress_4}` | `encode::decode_decompress::<10>`, `::<4>` | `encode::tests::avx2_matches_portable` (every encoding) |
//! | `encode::{compress_encode_odd::<5>, ::<11>}` | `encode::compress_encode::<5>`, `::<11>` | `encode::tests::avx2_matches_portable` (every input in `[0, q)`) |
//! | `encode::{decode_decompress_odd::<5>, ::<11>}` | `encode::decode_decompress::<5>`, `::<11>` | `encode::tests::avx2_matches_portable` |
//! | `encode::{compress_encode_1, decode_decompress_1}` (the message, `m`) | `encode::compress_encode::<1>`, `encode::decode_message_portable` | `encode::tests::message_avx2_matches_portable` (every input in `[0, q)` at every position, every byte) |
//! | `encode::decode12` | `encode::decode12_portable` | `encode::tests::avx2_matches_portable` (every 12-bit value) |
//! | `encode::encode12` | `encode::encode12_portable` | `encode::tests::avx2_matches_portable` |
//! | `cbd::cbd2` | `sample::sample_cbd_portable` (`η = 2`) | `sample::tests::cbd2_matches_portable` |
//! | `cbd::cbd3` | `sample::sample_cbd_portable` (`η = 3`) | `sample::tests::cbd3_matches_portable` |
//! | `poly_reduce`, `poly_canonicalize` | `Poly::reduce_portable`, `Poly::canonicalize_portable` | `ntt::avx2_tests::poly_reduce_matches_portable` (every `i16` at every position) |
//! | `reduce_into` | `Accumulator::reduce_into_portable` | `…::reduce_into_matches_portable` |
//! | Keccak `f1600_x4` (pqdr-keccak) | `pqdr_keccak::f1600_x4_portable` | `sample::tests::row_x4_matches_sample_ntt`, `hash::tests::prf_x4_matches_prf` |
//! | scalar Keccak with BMI1/BMI2 (pqdr-keccak, token `Bmi1Bmi2`: G, H, J, PRF, XOF and the riders' scalar permutations) | `pqdr_keccak::f1600_portable` | pqdr-keccak `tests/bmi.rs`; here every KAT/ACVP test over both paths |
//!
//! The KAT/ACVP tests run both paths (default features, and
//! `--no-default-features` in scripts/ci-extra.sh); tests/ct_valgrind.rs
//! checks the AVX2 path for secret-dependent branches and addresses.

use pqdr_common::simd::Avx2 as KeccakAvx2;
use pqdr_common::simd::Bmi1Bmi2;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[allow(unsafe_code, reason = "AVX2 dispatch and unaligned loads/stores only")]
mod x86_64;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use pqdr_common::simd::Avx2;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::encode::{
    compress_encode_1, compress_encode_4, compress_encode_10, compress_encode_odd,
    decode_decompress_1, decode_decompress_4, decode_decompress_10, decode_decompress_odd,
    decode12, encode12,
};
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{
    add_product, add_product_16, cbd::cbd2, cbd::cbd3, inv_ntt_layers, ntt_layers,
    poly_canonicalize, poly_reduce, reduce_into, rej::rej_uniform,
};

/// Bytes of the block given to `rej_uniform`: the SHAKE128 rate (168) and
/// 8 bytes of padding, so that the last 24-byte group can be read with one
/// 32-byte load.
pub(crate) const REJ_BLOCK: usize = 176;

/// Room for `rej_uniform`'s output: up to 15 coefficients carried in, the
/// block's 112 candidates, and the 8 lanes a store may write past the last
/// accepted one.
pub(crate) const REJ_OUT: usize = 136;

/// The AVX2 token if this crate's feature `simd` is on and the CPU has AVX2
/// (cached detection), else `None`: the one place that picks the path.
#[inline(always)]
pub(crate) fn avx2() -> Option<Avx2> {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    {
        Avx2::detect()
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    {
        None
    }
}

/// Whether this build has an AVX2 path at all (feature `simd` on x86-64):
/// [`avx2`] can return a token only in such a build. For sizes fixed at
/// compile time (K-PKE's 4-way noise buffers are empty without it).
#[cfg(not(feature = "small-stack"))]
pub(crate) const SIMD_BUILD: bool = cfg!(all(feature = "simd", target_arch = "x86_64"));

/// The token for pqdr-keccak's 4-way permutation, chosen by this crate's
/// feature `simd` (not by whoever else enables `pqdr-keccak/simd`).
#[inline(always)]
#[cfg_attr(
    all(feature = "small-stack", not(test)),
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) fn keccak_avx2() -> Option<KeccakAvx2> {
    KeccakAvx2::detect_if(cfg!(feature = "simd"))
}

/// The token for pqdr-keccak's scalar permutation with ANDN and RORX
/// (`pqdr_keccak::f1600_with`, `Sponge::with_bmi`), chosen by this crate's
/// feature `simd`: every scalar sponge of §4.1 (G, H, J, PRF, XOF) and the
/// riders' scalar permutations run on it when the CPU has BMI1 and BMI2.
#[inline(always)]
pub(crate) fn keccak_bmi() -> Option<Bmi1Bmi2> {
    Bmi1Bmi2::detect_if(cfg!(feature = "simd"))
}

/// No AVX2 path in this build (feature `simd` off, or not x86-64): no value
/// of this type exists, so `avx2()` is `None` and the stubs are never run.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Avx2 {}

#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
pub(crate) use stubs::*;

/// The kernels' signatures in builds without the AVX2 path.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
mod stubs {
    use super::Avx2;
    use crate::field::N;
    pub(crate) fn ntt_layers(token: Avx2, _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn inv_ntt_layers(token: Avx2, _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn add_product(
        token: Avx2,
        _: &mut [i32; N],
        _: &[i16; N],
        _: &[i16; N],
        _: &[i16; N >> 1],
    ) {
        match token {}
    }
    pub(crate) fn add_product_16(
        token: Avx2,
        _: &mut [[i32; 8]; 2],
        _: &[i16; 16],
        _: &[i16; 16],
        _: &[i16; 8],
    ) {
        match token {}
    }
    pub(crate) fn poly_reduce(token: Avx2, _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn poly_canonicalize(token: Avx2, _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn reduce_into(token: Avx2, _: &[i32; N], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn compress_encode_1(token: Avx2, _: &[i16; N], _: &mut [u8; 32]) {
        match token {}
    }
    pub(crate) fn decode_decompress_1(token: Avx2, _: &[u8; 32], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn compress_encode_10(token: Avx2, _: &[i16; N], _: &mut [u8]) {
        match token {}
    }
    pub(crate) fn compress_encode_4(token: Avx2, _: &[i16; N], _: &mut [u8]) {
        match token {}
    }
    pub(crate) fn decode_decompress_10(token: Avx2, _: &[u8], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn decode_decompress_4(token: Avx2, _: &[u8], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn compress_encode_odd<const D: usize>(token: Avx2, _: &[i16; N], _: &mut [u8]) {
        match token {}
    }
    pub(crate) fn decode_decompress_odd<const D: usize>(token: Avx2, _: &[u8], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn decode12(token: Avx2, _: &[u8], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn encode12(token: Avx2, _: &[i16; N], _: &mut [u8]) {
        match token {}
    }
    pub(crate) fn cbd2(token: Avx2, _: &[u8; 128], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn cbd3(token: Avx2, _: &[u8; 192], _: &mut [i16; N]) {
        match token {}
    }
    pub(crate) fn rej_uniform(
        token: Avx2,
        _: &[u8; super::REJ_BLOCK],
        _: &mut [i16; super::REJ_OUT],
        _: usize,
    ) -> usize {
        match token {}
    }
}
