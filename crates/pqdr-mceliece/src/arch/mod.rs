//! Architecture-specific code: the only place `unsafe` is allowed, each
//! block with a `// SAFETY:` comment.
//!
//! Dispatch (the one pattern of the pqdr crates, `pqdr_common::simd`): every
//! kernel is a safe function taking the [`Avx2`] token, which only detection
//! makes; [`avx2`] hands one out when this crate's feature `simd` is on and
//! the CPU has AVX2 (CPUID once per process), else `None`. Berlekamp–Massey
//! detects once per call and passes the `Option<Avx2>` down. Without `simd`
//! or off x86-64, `Avx2` is an empty enum: no token can exist, the stubs
//! below are never reached, and no AVX2 code is built.
//!
//! | kernel (`x86_64`, AVX2) | portable twin | differential test |
//! |---|---|---|
//! | `mul_x4` (256 products) | `vec::mul::<P, 4>`'s two-batch split (`vec::mul12` / `vec::mul13`) | `vec::avx2_tests::avx2_products_match_portable` |
//! | `mul_pair` (2 × 128 products) | two `vec::mul::<P, 2>` | `…::avx2_products_match_portable` |
//! | `butterflies_inword::<true>` / `::<false>` (all six in-word levels of four entries as register-bit swaps and whole-register butterflies, per field size, and optionally the lane level and the first entry level; forward output and transposed input in the FFT's kernel layout) | `fft::fwd_wide` at depth 7, 6 then `fft::fwd_word` depth 5..0 / `fft::transposed::tr_word` depth 0..5 then `tr_wide` at depth 6, 7, the values moved by `fft::consts::swapped_pos(0, ..)` | `…::avx2_butterflies_match_portable`, `fft::tests::avx2_inword_matches_portable_levels` |
//! | `bits_layout::<true>` / `::<false>` (a bit vector to / from the FFT's kernel layout: the same swaps on one plane) | `fft::consts::swapped_pos(0, ..)` bit by bit | `fft::tests::avx2_bits_layout_matches_position_map` |
//! | `radix_conversions::<true>` / `::<false>` (twists and Taylor expansions of every depth, in registers) | `fft::radix_fwd` / `fft::transposed::radix_tr` (`…_with(.., None)`) | `fft::tests::avx2_radix_matches_portable` |
//! | `inv_x2` (128 inversions by an Itoh–Tsujii chain, planes in registers) | `vec::inv_portable` | `vec::avx2_tests::avx2_inv_matches_portable` |
//! | `inv_sq_batch` (`Decode`'s weights 1/g(a)^2: one batch inversion over 256-bit entry pairs, `x86_64/weights.rs`) | `decrypt::weights_portable` | `decrypt::tests::avx2_inv_sq_matches_portable` |
//! | `masked_init`, `masked` (`Decode`'s weights masked by a bit vector: into an uninitialised value array, written in full / in place, `x86_64/weights.rs`) | `decrypt::masked` (on a zero-filled array) | `decrypt::tests::avx2_masked_matches_portable` |
//! | `spread_init` (the FFT's depth-k values into an uninitialised value array, written in full, `x86_64/weights.rs`) | `fft::init::spread` (on a zero-filled array) | `fft::init::tests::avx2_spread_init_matches_portable` |
//! | `g_planes` (g's coefficients bitsliced, 32 per step, `x86_64/weights.rs`) | `decrypt::g_planes_portable` | `decrypt::tests::avx2_g_planes_match_portable` |
//! | `bm_elements` (the syndromes' bit planes to field elements) | `bm::element` | `bm::tests::avx2_elements_match_portable` |
//! | `bm_narrow`, `bm_wide` | `bm::iterate` (via `bm::bm_with(.., None)`) | `bm::tests::avx2_matches_portable` |
//! | their `x86_64::bm::gf_mul4` (four scalar field products per call) | `gf::mul` | `x86_64::bm::tests::gf_mul4_matches_scalar` |
//! | `benes_bits` (the Beneš network on bit vectors, four words per register) | `benes::apply_bits` (`benes::apply_bits_with(.., None)`) | `benes::tests::avx2_matches_portable` |
//! | `fold_pivot_rows` (key generation: rows receive their combination of a block's eight pivot rows) | `pk_gen::rows::fold_rows_portable` | `pk_gen::tests::avx2_fold_rows_match_portable` |
//! | `recv_masks` (key generation: the masks of a block's pivot rows that each row receives, from its bits in the block's columns) | `pk_gen::rows::recv_masks_portable` | `pk_gen::avx2_tests::avx2_recv_masks_match_portable` |
//! | `window_fix`, `window_clear` (key generation: one pivot's fix-up and column clearing in a block's window rows, four rows per register) | `pk_gen::eliminate::window_fix_portable`, `window_clear_portable` | `pk_gen::avx2_tests::avx2_window_matches_portable` |
//! | `sort_records` (key generation's control bits: the record sorts, a group of records in registers, `x86_64/sort.rs`) | `sort::records::sort_records_with(sort::Portable, ..)` | `x86_64::sort::tests::avx2_records_match_portable` |
//! | `sort_u64` (key generation's random permutation: `sort::sort_u64`'s network compiled with AVX2, four 64-bit lanes per register, `x86_64/sort.rs`) | `sort::sort_u64` | `x86_64::sort::tests::avx2_u64_matches_portable` |
//! | `sort_cols` (key generation's control bits: many columns sorted at once, 16 lanes per compare-exchange, `x86_64/sort.rs`) | `sort::columns::sort_cols_with(sort::columns::Portable, ..)` (`sort/columns.rs`) | `x86_64::sort::tests::avx2_cols_match_portable` |
//! | `repeated_index`, `index_words` (`FixedWeight`'s distinctness check and its indices to e's words: the portable loops compiled with AVX2, `x86_64/encode.rs`) | `encrypt::weight::repeated_index`, `encrypt::weight::index_words` | `encrypt::tests::avx2_fixed_weight_matches_portable` |
//! | `row_products` (`Encode`: eight public-key rows' products with e's tail, 32 bytes a step, `x86_64/encode.rs`) | `encrypt::syndrome_rows_with(.., None)` | `encrypt::tests::avx2_row_products_match_portable` |
//! | `genpoly_gen` (key generation's Goppa polynomial: `sk_gen::minimal_poly` compiled with AVX2, its scaled row additions 16 field elements per register, `x86_64/keygen.rs`) | `sk_gen::genpoly_gen` | `pk_gen::avx2_tests::avx2_genpoly_matches_portable` |
//! | `t_row` (key generation: one row of T = A H_right receives m planes of H_right) | `pk_gen::t_stage::t_row_portable` | `pk_gen::tests::avx2_t_row_matches_portable` |
//!
//! The KAT tests run both paths (default features, and
//! `--no-default-features` in scripts/ci-extra.sh); tests/ct_valgrind.rs
//! checks the AVX2 path for secret-dependent branches and addresses.

use crate::params::MAX_M;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[allow(
    unsafe_code,
    reason = "calls into the AVX2 kernels behind the detection token only"
)]
mod x86_64;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use pqdr_common::simd::Avx2;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{
    benes_bits, bits_layout, bm_elements, bm_narrow, bm_wide, butterflies_inword, inv_x2, mul_pair,
    mul_x4, radix_conversions,
};
// Decode's weights 1/g(a)^2 (issue #31).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{g_planes, inv_sq_batch, masked, masked_init, spread_init};
// Key generation's kernels (issue #31).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{
    fold_pivot_rows, genpoly_gen, recv_masks, t_row, window_clear, window_fix,
};
// Encapsulation's fixed-weight checks and row products (issue #31).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{index_words, repeated_index, row_products};
// The control bits' record sorts (issue #31).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{sort_cols, sort_records, sort_u64};

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

/// L bitsliced batches of 64 field elements (`crate::vec`'s layout).
type Planes<const L: usize> = [[u64; L]; MAX_M];

/// Entries of a value array (2^MAX_M elements, 128 per entry).
pub(crate) const VALUE_ENTRIES: usize = 1 << (MAX_M - 7);

/// A value array, the type `crate::fft::Values` (named here too, so the
/// kernels do not depend on `crate::fft`).
pub(crate) type ValueArray = [Planes<2>; VALUE_ENTRIES];

/// One in-word butterfly level's multipliers for four value entries, packed
/// (`crate::fft::consts`): per plane, the four 64-bit lanes of a 256-bit
/// register. 32-byte aligned, so the AVX2 kernel reads them in place. (The
/// type exists in every build, so the tables in `crate::fft` need no `cfg`;
/// only the AVX2 path reads them.)
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct QuadMultiplier(pub(crate) [[u64; 4]; MAX_M]);

/// The six in-word levels' (depth 0..6) multipliers of four entries (level
/// d per lane and in-word bit in the layout that level sees,
/// `crate::fft::consts::swapped_pos(d, ..)`), then
/// (index 6) the lane level's (depth 6): lane w of plane b is bit b of entry
/// 4i + w's multiplier, all ones or all zeros; (index 7) the first entry
/// level's (depth 7): lanes 0 and 1 bit b of the multiplier of the entry
/// pair (4i, 4i + 1), lanes 2 and 3 that of (4i + 2, 4i + 3).
pub(crate) type QuadMultipliers = [QuadMultiplier; 8];

/// The scalars of the Berlekamp–Massey state: C_0, gamma (the discrepancy
/// of the last length change) and the register length L.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scalars {
    pub(crate) c0: u16,
    pub(crate) gamma: u16,
    pub(crate) l: u16,
}

/// The Berlekamp–Massey state by its parts, W words per plane: C_1.. (`cv`),
/// B (`bv`), the syndrome window (`rv`) and the scalars (the form the AVX2
/// iterations take).
#[allow(
    dead_code,
    reason = "read by the AVX2 iterations only (none without `simd`)"
)]
pub(crate) struct BmState<'a, const W: usize> {
    pub(crate) cv: &'a mut Planes<W>,
    pub(crate) bv: &'a mut Planes<W>,
    pub(crate) rv: &'a mut Planes<W>,
    pub(crate) sc: &'a mut Scalars,
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
#[allow(
    clippy::extra_unused_type_parameters,
    reason = "the AVX2 kernels' signatures"
)]
mod stubs {
    use super::{Avx2, BmState, Planes, QuadMultipliers, ValueArray as Values};
    use crate::params::{MAX_Q_WORDS, MAX_T, ParameterSet};
    use core::mem::MaybeUninit;

    pub(crate) fn mul_x4(token: Avx2, _: usize, _: &mut Planes<4>, _: &Planes<4>, _: &Planes<4>) {
        match token {}
    }
    pub(crate) fn mul_pair(
        token: Avx2,
        _: usize,
        _: [&mut Planes<2>; 2],
        _: [&Planes<2>; 2],
        _: [&Planes<2>; 2],
    ) {
        match token {}
    }
    pub(crate) fn benes_bits<const N: usize>(
        token: Avx2,
        _: &mut [&mut [u64]; N],
        _: &[u8],
        _: usize,
        _: bool,
    ) {
        match token {}
    }
    pub(crate) fn radix_conversions<const FORWARD: bool>(
        token: Avx2,
        _: usize,
        _: &mut Planes<4>,
        _: &[Planes<4>; 8],
        _: &[[[u64; 4]; 4]; 8],
        _: usize,
    ) {
        match token {}
    }
    pub(crate) fn butterflies_inword<const FORWARD: bool>(
        token: Avx2,
        _: usize,
        _: &mut [Planes<2>; 4],
        _: &QuadMultipliers,
        _: usize,
    ) {
        match token {}
    }
    pub(crate) fn bits_layout<const TO_KERNEL: bool>(
        token: Avx2,
        _: usize,
        _: &mut [u64; MAX_Q_WORDS],
    ) {
        match token {}
    }
    pub(crate) fn inv_x2(token: Avx2, _: usize, _: &mut Planes<2>, _: &Planes<2>) {
        match token {}
    }
    pub(crate) fn inv_sq_batch(token: Avx2, _: usize, _: &mut [Planes<2>]) {
        match token {}
    }
    pub(crate) fn g_planes(token: Avx2, _: usize, _: usize, _: &mut Planes<4>, _: &[u8]) {
        match token {}
    }
    pub(crate) fn spread_init<'a>(
        token: Avx2,
        _: usize,
        _: &'a mut MaybeUninit<Values>,
        _: &Planes<4>,
        _: usize,
    ) -> &'a mut Values {
        match token {}
    }
    pub(crate) fn masked_init<'a>(
        token: Avx2,
        _: usize,
        _: &'a mut MaybeUninit<Values>,
        _: &Values,
        _: &[u64; MAX_Q_WORDS],
    ) -> &'a mut Values {
        match token {}
    }
    pub(crate) fn masked(
        token: Avx2,
        _: usize,
        _: &mut Values,
        _: &Values,
        _: &[u64; MAX_Q_WORDS],
    ) {
        match token {}
    }
    pub(crate) fn fold_pivot_rows<const C: usize>(
        token: Avx2,
        _: &mut [u8],
        _: usize,
        _: (usize, usize),
        _: core::ops::Range<usize>,
        _: &[[[u8; 16]; C]; 8],
        _: &[u8],
    ) {
        match token {}
    }
    pub(crate) fn row_products(token: Avx2, _: &[u8], _: &[u8]) -> [u64; 8] {
        match token {}
    }
    pub(crate) fn repeated_index<P: ParameterSet>(token: Avx2, _: &[u16]) -> u16 {
        match token {}
    }
    pub(crate) fn index_words<P: ParameterSet>(token: Avx2, _: &[u16], _: &mut [u16]) {
        match token {}
    }
    pub(crate) fn recv_masks(token: Avx2, _: &mut [u8], _: &[u8; 8]) {
        match token {}
    }
    pub(crate) fn window_fix<const N: usize>(
        t: Avx2,
        _: &mut [[u64; N]; 3],
        _: (usize, usize),
    ) -> [u64; 3] {
        match t {}
    }
    pub(crate) fn window_clear<const N: usize>(
        t: Avx2,
        _: &mut [[u64; N]; 3],
        _: (usize, usize),
        _: u64,
    ) {
        match t {}
    }
    pub(crate) fn t_row<const G: usize>(
        token: Avx2,
        _: usize,
        _: &mut [u8],
        _: &[Planes<8>; G],
        _: u32,
    ) {
        match token {}
    }
    pub(crate) fn sort_records<const W: usize>(token: Avx2, _: &mut [[u16; W]]) {
        match token {}
    }
    pub(crate) fn sort_u64(token: Avx2, _: &mut [u64]) {
        match token {}
    }
    pub(crate) fn genpoly_gen<P: ParameterSet>(token: Avx2, _: &mut [u16], _: &[u16]) -> bool {
        match token {}
    }
    pub(crate) fn sort_cols(token: Avx2, _: &mut [u16], _: &mut [u16], _: &mut [u16], _: usize) {
        match token {}
    }
    pub(crate) fn bm_elements(
        token: Avx2,
        _: usize,
        _: &Planes<4>,
        _: &mut [u16; 2 * MAX_T + 1],
        _: usize,
    ) {
        match token {}
    }
    pub(crate) fn bm_narrow<P: ParameterSet, F: Fn(u16, usize, u16) -> (u16, u64)>(
        token: Avx2,
        _: BmState<'_, 1>,
        _: &[u16; 2 * MAX_T + 1],
        _: usize,
        _: u64,
        _: F,
    ) {
        match token {}
    }
    pub(crate) fn bm_wide<P: ParameterSet, F: Fn(u16, usize, u16) -> (u16, u64)>(
        token: Avx2,
        _: BmState<'_, 2>,
        _: &[u16; 2 * MAX_T + 1],
        _: (usize, u16),
        _: &[u64; 2],
        _: F,
    ) {
        match token {}
    }
}
