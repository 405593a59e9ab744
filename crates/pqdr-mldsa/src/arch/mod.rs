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
//! | kernel (`x86_64`, AVX2) | portable twin (`poly`) | differential test |
//! |---|---|---|
//! | `ntt` (`x86_64/ntt.rs`) | `Poly::ntt_portable` | `arch::x86_64::tests::ntt_and_inverse_match_portable` |
//! | `invntt_tomont` | `Poly::invntt_tomont_portable` | `…::ntt_and_inverse_match_portable` |
//! | `mul_acc` (i64 sums, even/odd layout) | `mul_acc_portable` (coefficient order) | `…::pointwise_products_match_portable` |
//! | `dot_mont` | `mul_acc_portable` over j, then `reduce_acc_portable` (`poly::dot_mont`) | `…::pointwise_products_match_portable` |
//! | `reduce_acc` (with a last product: `poly::mul_acc_reduce_in_place`) | `reduce_acc_portable`, `mul_acc_reduce_in_place_portable` | `…::pointwise_products_match_portable` |
//! | `mul_mont_in_place` | `mul_mont_in_place_portable`, `mul_add_mont_in_place_portable` | `…::pointwise_products_match_portable` |
//! | `mul_mont_from` | `mul_mont_portable`, `mul_add_mont_portable` | `…::pointwise_products_match_portable` |
//! | `mask_unpack` (`x86_64/mask.rs`; ExpandMask, and z in verification) | `encode::mask_unpack_portable` | `encode::tests::mask_unpack_matches_portable`, `verify::tests::decode_z_checks_the_norm_bound` |
//! | `sk_unpack` (`x86_64/mask.rs`; s1, s2, t0 for signing) | `keygen::unpack_eta`, `keygen::unpack_t0` | `sign_poly::tests::sk_unpack_matches_portable` |
//! | `rej_uniform` (`x86_64/rej.rs`) | `sample::rej_ntt_consume` storing into a polynomial | `sample::tests::rej_uniform_matches_portable` |
//! | `rej_eta` (`x86_64/eta.rs`) | `sample::rej_bounded_consume` | `sample::tests::rej_eta_matches_portable` |
//! | `power2round_pack` (`x86_64/keygen.rs`) | `keygen::power2round_pack_portable` | `keygen::tests::power2round_pack_matches_portable` |
//! | `z_pack` (`x86_64/sign.rs`) | `sign_poly::z_pack_portable` | `sign_poly::tests::kernels_match_portable` |
//! | `w1_pack` (`x86_64/sign.rs`) | `sign_poly::w1_pack_portable` | `…::kernels_match_portable` |
//! | `low_bits_check` (`x86_64/sign.rs`) | `sign_poly::low_bits_check_portable` | `…::kernels_match_portable` |
//! | `make_hint` (`x86_64/sign.rs`) | `sign_poly::make_hint_portable` | `sign_poly::tests::make_hint_matches_portable`, `…::kernels_match_portable` |
//! | `use_hint_pack` (`x86_64/sign.rs`) | `verify::use_hint_pack_portable` | `verify::tests::use_hint_pack_matches_portable` |
//! | `t1_unpack_shift` (`x86_64/t1.rs`) | `verify::unpack_t1_shifted_portable` | `verify::tests::t1_unpack_shift_matches_portable` |
//! | `zeroize_poly` (`x86_64/clear.rs`) | `zeroize::Zeroize` on `[i32; N]` (`Poly::zeroize`) | `poly::avx2_tests::zeroize_matches_portable` |
//! | `swap_in_ball` (`x86_64/sign.rs`; one pass, for c_i = 0) | `ct::swap_in_ball_portable` | `sample::tests::swap_in_ball_matches_portable` |
//! | `hint_pack_row` (`x86_64/sign.rs`) | `encode::hint_pack_row_portable` | `encode::tests::hint_pack_row_matches_portable` |
//! | Keccak `f1600_x4` (pqdr-keccak), via `sample_x4::simd_backend` | the scalar samplers of `sample` | `sample_x4::tests`, `mask_x4::tests` (both 4-way paths against the scalar samplers) |
//!
//! The KAT/ACVP tests run both paths (default features, and
//! `--no-default-features` in scripts/ci-extra.sh); tests/ct_valgrind.rs
//! checks the AVX2 path for secret-dependent branches and addresses.

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[allow(
    unsafe_code,
    reason = "AVX2 dispatch and unaligned loads/stores of coefficients only"
)]
mod x86_64;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use pqdr_common::simd::Avx2;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{
    dot_mont, hint_pack_row, invntt_tomont, low_bits_check, make_hint, mask_unpack, mul_acc,
    mul_mont_from, mul_mont_in_place, ntt, power2round_pack, reduce_acc, rej_eta, rej_uniform,
    sk_unpack, swap_in_ball, t1_unpack_shift, use_hint_pack, w1_pack, z_pack, zeroize_poly,
};

/// Whether this build has the AVX2 paths at all (feature `simd` on x86-64),
/// for sizing buffers only they use.
pub(crate) const AVX2_BUILT: bool = cfg!(all(feature = "simd", target_arch = "x86_64"));

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

/// The token for pqdr-keccak's scalar permutation with ANDN and RORX
/// (`pqdr_keccak::Sponge::with_bmi`), chosen by this crate's feature
/// `simd`: every scalar SHAKE128 / SHAKE256 sponge (FIPS 204 §3.7: `H`,
/// `G`, the samplers' one-at-a-time streams) runs on it when the CPU has
/// BMI1 and BMI2; twin `pqdr_keccak::f1600_portable`, differential test
/// pqdr-keccak `tests/bmi.rs`.
#[inline(always)]
pub(crate) fn keccak_bmi() -> Option<pqdr_common::simd::Bmi1Bmi2> {
    pqdr_common::simd::Bmi1Bmi2::detect_if(cfg!(feature = "simd"))
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
    use crate::zetas::N;

    pub(crate) fn ntt(token: Avx2, _: &mut [i32; N]) {
        match token {}
    }
    pub(crate) fn invntt_tomont(token: Avx2, _: &mut [i32; N]) {
        match token {}
    }
    pub(crate) fn mul_acc(token: Avx2, _: &mut [i64; N], _: &[i32; N], _: &[i32; N]) {
        match token {}
    }
    pub(crate) fn dot_mont<'a>(
        token: Avx2,
        _: &mut [i32; N],
        _: usize,
        _: impl Fn(usize) -> (&'a [i32; N], &'a [i32; N]),
    ) {
        match token {}
    }
    pub(crate) fn reduce_acc(token: Avx2, _: &mut [i32; N], _: &[i64; N], _: Option<&[i32; N]>) {
        match token {}
    }
    pub(crate) fn mask_unpack(token: Avx2, _: &mut [i32], _: &[u8], _: u32) {
        match token {}
    }
    pub(crate) fn sk_unpack(token: Avx2, _: &mut [i32; N], _: &[u8], _: u32, _: i32) {
        match token {}
    }
    pub(crate) fn rej_uniform(token: Avx2, _: &mut [i32; N], _: usize, _: &[u8]) -> usize {
        match token {}
    }
    pub(crate) fn rej_eta(
        token: Avx2,
        _: &mut [i32; N],
        _: usize,
        _: &[u8],
        _: i32,
    ) -> (usize, usize) {
        match token {}
    }
    pub(crate) fn power2round_pack(
        token: Avx2,
        _: &[i32; N],
        _: &[i32; N],
        _: &mut [u8],
        _: &mut [u8],
    ) {
        match token {}
    }
    pub(crate) fn use_hint_pack(token: Avx2, _: &[i32; N], _: &[i32; N], _: &mut [u8], _: i32) {
        match token {}
    }
    pub(crate) fn z_pack(token: Avx2, _: &[i32; N], _: &mut [u8], _: u32, _: i32) -> i32 {
        match token {}
    }
    pub(crate) fn w1_pack(token: Avx2, _: &mut [i32; N], _: &mut [u8], _: i32) {
        match token {}
    }
    pub(crate) fn make_hint(token: Avx2, _: &mut [i32; N], _: &[i32; N], _: i32) -> (i32, i32) {
        match token {}
    }
    pub(crate) fn low_bits_check(
        token: Avx2,
        _: &mut [i32; N],
        _: &[i32; N],
        _: i32,
        _: i32,
    ) -> i32 {
        match token {}
    }
    /// `[u8; 320]`: `params::T1_POLY_SIZE` (checked in `verify`).
    pub(crate) fn t1_unpack_shift(token: Avx2, _: &mut [i32; N], _: &[u8; 320]) {
        match token {}
    }
    pub(crate) fn zeroize_poly(token: Avx2, _: &mut [i32; N]) {
        match token {}
    }
    pub(crate) fn swap_in_ball(token: Avx2, _: &mut [u8; N], _: usize, _: u8, _: u8) {
        match token {}
    }
    pub(crate) fn hint_pack_row(
        token: Avx2,
        _: &mut [u8],
        _: usize,
        _: usize,
        _: &[i32; N],
        _: usize,
    ) -> usize {
        match token {}
    }
    pub(crate) fn mul_mont_from(
        token: Avx2,
        _: &mut [i32; N],
        _: &[i32; N],
        _: &[i32; N],
        _: Option<&[i32; N]>,
    ) {
        match token {}
    }
    pub(crate) fn mul_mont_in_place(
        token: Avx2,
        _: &mut [i32; N],
        _: &[i32; N],
        _: Option<&[i32; N]>,
    ) {
        match token {}
    }
}
