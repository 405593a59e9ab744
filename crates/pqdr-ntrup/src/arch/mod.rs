//! Architecture-specific code: the only place `unsafe` is allowed, each
//! block with a `// SAFETY:` comment.
//!
//! Dispatch (the one pattern of the pqdr crates, `pqdr_common::simd`): every
//! kernel is a safe function taking the [`Avx2`] token, which only detection
//! makes; [`avx2`] hands one out when this crate's feature `simd` is on and
//! the CPU has AVX2 (CPUID once per process), else `None`. The products and
//! reciprocals take the `Option<Avx2>` (`*_on` functions), so tests run both
//! paths in one process. Without `simd` or off x86-64, `Avx2` is an empty
//! enum: no token can exist, the stubs below are never reached, and no AVX2
//! code is built.
//!
//! | kernel (`x86_64`, AVX2) | portable twin | differential test |
//! |---|---|---|
//! | `schoolbook` (`mult.rs`), under `rq_mult_small_on` / `r3_mult_on` | `mult::schoolbook` | `mult::tests::avx2_products_match_portable` |
//! | `ntt3_mul` (`ntt/three.rs`: k = 3, 4 or 5 twisted 512-point cyclic products over 7681 / 10753, `x^512 - ζ_i` for ζ_i = 1, ω, ω^2, ζ, ζ^2, interpolated by the inverse 3-point DFT and Newton steps; k = 3 for sntrup653/761, 4 for sntrup857/953/1013, 5 for sntrup1277; `ntt/three/parts.rs`; the per-block steps and the 16 x 16 transpose in `ntt/regs.rs`), under `rq_mult_small_on` / `r3_mult_on` | `mult::mul_full` (Karatsuba) | `mult::tests::avx2_products_match_portable` (the block steps at their bounds and the transpose: `ntt::regs::tests`) |
//! | `ntt3_prepare` / `ntt3_mul_sides` (`ntt/three/parts.rs`): a factor's 512-point parts kept (`PreparedDecapsulationKey`, every set) | the same product from the coefficients (`ntt3_mul`) | `ntt::three::parts::tests::kept_parts_products_match`; `tests/roundtrip.rs` `prepared_all_sets` |
//! | `fold_q` / `fold_3` (`fold.rs`), the fold by x^p = x + 1 and freeze ending `rq_mult_small_on` / `r3_mult_on` | their portable loops (`folded`, `Fq::freeze` / `f3_freeze`) | `mult::tests::avx2_products_match_portable` |
//! | `freeze_folded` (`fold.rs`), the freeze ending an R/q product that `ntt3_folds` (sntrup1277) | `fold_q` on `full[p..2p] = 0`, `Fq::freeze` | `sntrup_core::tests::kept_products_any_scratch` (`freeze_differential`: every i16), `mult::tests::avx2_products_match_portable` |
//! | `round` / `r3_from_3rq` (`fold.rs`), under `mult::round_on` / `mult::r3_from_3rq_on` | the same functions on `None` | `mult::tests::avx2_coefficient_maps_match_portable` |
//! | `r3_recip` (`recip.rs`, the bitsliced kernel in `recip3.rs`: two bit planes, 256 coefficients per register pair) | `recip::r3_recip_on(.., None)` | `recip::tests::avx2_recips_match_portable` (random and edge inputs, every set) |
//! | `rq_recip3` (`recip.rs`; safegcd jumps: 32 steps on the low coefficients, the transition matrix applied by `vpmaddwd` to interleaved coefficient pairs) | `recip::rq_recip3_on(.., None)` (passes `divsteps::rows_fg_moved` / `rows_vr_moved`) | `recip::tests::avx2_recips_match_portable` |
//! | `sort_u32` (`sort.rs`), under `sample::sort_u32` | `sample::sort_u32_on(.., None)` | `sample::tests::avx2_sort_matches_portable` |
//! | `sort_u32_1024` (`bitonic.rs`), from `sort_u32` for 513..=1024 entries | `sample::sort_u32_on(.., None)` | `sample::tests::avx2_sort_matches_portable` (every length 500..=1030) |
//! | `sha512_blocks` (`sha512.rs`): SHA-512 compression, 2-block message schedule in 256-bit registers, rounds with BMI2 `rorx` (also takes the `Bmi1Bmi2` token), under `hash::Sha512` | `sha512::compress_portable` | `hash::tests::kernels_match_sha2` (every length 0..=300, block boundaries, against `sha2` and FIPS 180-4 examples), `hash::tests::compress_kernels_agree` |
//! | `wipe` (`mod.rs`), `wipe::Wipe` of integer buffers (i16, i8, u8, u32): 32-byte stores kept by an empty `asm!` barrier | `zeroize` | `arch::x86_64::tests::wipe_matches_zeroize` |
//! | `scratch_words` (`mod.rs`): `Encap`'s word list in its product scratch (`ListScratch`) | `sample::short_random` (its own list) | `sample::tests::list_in_scratch_matches_own_list`; the KATs |
//! | `scratch_bytes` (`mod.rs`): `Decap`'s re-encrypted ciphertext in its product scratch (`kem::reencrypt`) | `kem::compare_own` (its own buffer) | the KATs and implicit-rejection tests (both paths) |
//! | `words_as_bytes` (`mod.rs`): `Short_random`'s one 4p-byte draw into its word list (little endian) | `sample::random_words_on(.., None)` (a byte buffer, `u32::from_le_bytes`) | `sample::tests::avx2_draw_matches_portable` |
//! | `encode_pairs` / `decode_pairs` (`encode.rs`), under `encode::encode_on` / `encode::decode_on` | the same functions on `None` (`emit_bytes`, `split_pairs`) | `encode::tests::avx2_encode_matches_portable` (every set's trees; junk encodings), `encode::tests::decode_pairs_at_the_bound` |
//! | `small_decode` (`encode.rs`), under `encode::small_decode_on` | `encode::small_decode_on(.., None)` (the word loop) | `encode::tests::avx2_small_decode_matches_portable` (every p mod 32, edge and junk bytes) |
//! | `small_encode` (`encode.rs`), under `encode::small_encode_on` | `encode::small_encode_on(.., None)` (the word loop) | `encode::tests::avx2_small_decode_matches_portable` (every p mod 32, edge polynomials) |
//!
//! The KAT tests run both paths (default features, and
//! `--no-default-features` in scripts/ci-extra.sh); tests/ct_valgrind.rs
//! checks the AVX2 path for secret-dependent branches and addresses.

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[allow(
    unsafe_code,
    reason = "AVX2 dispatch, unaligned lane loads/stores and one register-only `vpmulhw` (asm)"
)]
mod x86_64;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use pqdr_common::simd::Avx2;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{
    decode_pairs, encode_pairs, fold_3, fold_q, freeze_folded, ntt3_fits, ntt3_folds, ntt3_mul,
    ntt3_mul_sides, ntt3_parts, ntt3_prepare, ntt3_scratch, r3_from_3rq, r3_recip, round,
    rq_recip3, schoolbook, scratch_bytes, scratch_words, sha512_blocks, small_decode, small_encode,
    sort_u32, wipe, words_as_bytes,
};

/// Integer entries of a buffer that `wipe` zeroes through its bytes: no
/// padding, every byte pattern a valid value, all-zero bytes the value 0.
pub(crate) trait Plain: Copy {}
impl Plain for u8 {}
impl Plain for i8 {}
impl Plain for i16 {}
impl Plain for u32 {}

/// The product scratch of `Encap` (`mult::Scratch`, 6p bytes) whose first
/// 4p bytes serve, before the product, as `Short_random`'s list of p words
/// (with AVX2, [`scratch_words`]): one buffer, zero-filled once, where
/// sampling and the product each had their own. 4-byte aligned for the words.
#[repr(C, align(4))]
pub(crate) struct ListScratch<const P: usize> {
    /// The product's scratch (any contents).
    pub(crate) s: [[i16; P]; 3],
}

impl<const P: usize> ListScratch<P> {
    /// All zero.
    pub(crate) const fn new() -> Self {
        ListScratch { s: [[0; P]; 3] }
    }
}

/// Coefficients past the 4p of [`RecipState`]: the AVX2 reciprocal's
/// padding (its jumps read whole registers past f and g and keep zeros
/// between them and v; `arch/x86_64/recip.rs` asserts it suffices).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) const RECIP_TAIL: usize = 160;
/// Without the AVX2 code there is no tail (the portable code and the
/// microcontrollers' stacks need only the 4p coefficients).
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
pub(crate) const RECIP_TAIL: usize = 0;

/// The state of `recip::rq_recip3`: 4p coefficients (f, g, r and v for the
/// portable code; the result in `c[0]` afterwards) and a short tail that only
/// the AVX2 code uses. `repr(C)`: the tail follows the coefficients.
#[repr(C)]
pub(crate) struct RecipState<const P: usize> {
    /// The coefficients; `c[0]` holds the reciprocal afterwards.
    pub(crate) c: [[i16; P]; 4],
    /// Padding for the AVX2 code (zero afterwards).
    pub(crate) tail: [i16; RECIP_TAIL],
}

impl<const P: usize> RecipState<P> {
    /// All zero.
    pub(crate) const fn new() -> Self {
        RecipState {
            c: [[0; P]; 4],
            tail: [0; RECIP_TAIL],
        }
    }
}

/// Two of a factor's kept 512-point parts (`arch::x86_64::ntt::three`,
/// [`ntt3_prepare`]): 2 x 32 registers of 16 lanes, in the transform's own
/// order; the parts of a factor run on through consecutive `Hat`s.
pub(crate) type Hat = [[i16; 16]; 64];

/// A factor of [`ntt3_mul_sides`]: its coefficients, or its kept parts made
/// earlier by [`ntt3_prepare`].
#[derive(Clone, Copy, Debug)]
#[cfg_attr(
    not(all(feature = "simd", target_arch = "x86_64")),
    allow(dead_code, reason = "read by the AVX2 product only")
)]
pub(crate) enum Side<'a, T> {
    /// The coefficients (transformed on the way).
    Coeffs(&'a [T]),
    /// The kept parts ([`Hat`]s).
    Hat(&'a [Hat]),
}

#[cfg_attr(
    not(all(feature = "simd", target_arch = "x86_64")),
    allow(dead_code, reason = "read by the AVX2 product only")
)]
impl<T> Side<'_, T> {
    /// Coefficients, or at least `n` transforms.
    pub(crate) fn covers(&self, n: usize) -> bool {
        match self {
            Side::Coeffs(_) => true,
            Side::Hat(h) => h.len() >= n,
        }
    }
}

/// Blocks in the SHA-512 hasher's buffer (`hash::Sha512`): two where the
/// AVX2 kernel, which compresses pairs, is built; one otherwise (128 bytes
/// less stack on the microcontroller builds).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) const SHA512_BUFFER_BLOCKS: usize = 2;
/// Blocks in the SHA-512 hasher's buffer (`hash::Sha512`): two where the
/// AVX2 kernel, which compresses pairs, is built; one otherwise (128 bytes
/// less stack on the microcontroller builds).
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
pub(crate) const SHA512_BUFFER_BLOCKS: usize = 1;

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

/// No AVX2 path in this build (feature `simd` off, or not x86-64): no value
/// of this type exists, so `avx2()` is `None` and the stubs are never run.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Avx2 {}

#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
pub(crate) use stubs::*;

/// The kernels' signatures in builds without the AVX2 path.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
mod stubs {
    use super::Avx2;
    use crate::ct;

    pub(crate) fn schoolbook<const Q: i16, const REDUCE: bool>(
        token: Avx2,
        _: &mut [i16],
        _: &[i16],
        _: &[i8],
        _: u32,
    ) {
        match token {}
    }
    pub(crate) fn r3_recip<const P: usize>(
        token: Avx2,
        _: &mut [i8; P],
        _: &[i8; P],
        _: &mut [[i8; P]; 4],
    ) -> ct::Choice {
        match token {}
    }
    pub(crate) fn words_as_bytes(token: Avx2, _: &mut [u32]) -> &mut [u8] {
        match token {}
    }
    pub(crate) fn scratch_bytes<const P: usize>(token: Avx2, _: &mut [[i16; P]; 3]) -> &mut [u8] {
        match token {}
    }
    pub(crate) const fn ntt3_fits(_: usize) -> bool {
        false
    }
    pub(crate) const fn ntt3_scratch(_: usize) -> usize {
        usize::MAX
    }
    pub(crate) const fn ntt3_folds(_: usize) -> bool {
        false
    }
    pub(crate) const fn ntt3_parts(_: usize) -> usize {
        0
    }
    pub(crate) fn ntt3_prepare<const P: usize>(
        token: Avx2,
        _: &mut [super::Hat],
        _: Option<&[i16; P]>,
        _: &[i8; P],
    ) {
        match token {}
    }
    pub(crate) fn ntt3_mul_sides<const P: usize, const Q: i16, const REDUCE: bool>(
        token: Avx2,
        _: &mut [i16],
        _: super::Side<'_, i16>,
        _: super::Side<'_, i8>,
    ) {
        match token {}
    }
    pub(crate) fn ntt3_mul<const P: usize, const Q: i16, const REDUCE: bool>(
        token: Avx2,
        _: &mut [i16],
        _: &[i16; P],
        _: &[i8; P],
    ) {
        match token {}
    }
    pub(crate) fn fold_q<const P: usize, const Q: i16>(token: Avx2, _: &mut [i16; P], _: &[i16]) {
        match token {}
    }
    pub(crate) fn fold_3<const P: usize>(token: Avx2, _: &mut [i8; P], _: &[i16]) {
        match token {}
    }
    pub(crate) fn freeze_folded<const P: usize, const Q: i16>(
        token: Avx2,
        _: &mut [i16; P],
        _: &[i16],
    ) {
        match token {}
    }
    pub(crate) fn round<const P: usize>(token: Avx2, _: &mut [i16; P]) {
        match token {}
    }
    pub(crate) fn r3_from_3rq<const P: usize, const Q: i16>(token: Avx2, _: &mut [i16; P]) {
        match token {}
    }
    pub(crate) fn sort_u32(token: Avx2, _: &mut [u32]) {
        match token {}
    }
    pub(crate) fn scratch_words<const P: usize>(
        token: Avx2,
        _: &mut super::ListScratch<P>,
    ) -> &mut [u32; P] {
        match token {}
    }
    pub(crate) fn sha512_blocks(
        token: Avx2,
        _: pqdr_common::simd::Bmi1Bmi2,
        _: &mut [u64; 8],
        _: &[[u8; crate::sha512::BLOCK]],
    ) {
        match token {}
    }
    pub(crate) fn wipe<T: super::Plain>(token: Avx2, _: &mut [T]) {
        match token {}
    }
    pub(crate) fn decode_pairs(
        token: Avx2,
        _: &mut [i16],
        _: &[u8],
        _: usize,
        _: usize,
        _: (u32, u64, u32),
    ) -> usize {
        match token {}
    }
    pub(crate) fn small_decode(token: Avx2, _: &mut [i8], _: &[u8]) -> usize {
        match token {}
    }
    pub(crate) fn small_encode(token: Avx2, _: &mut [u8], _: &[i8]) -> usize {
        match token {}
    }
    pub(crate) fn encode_pairs(
        token: Avx2,
        _: &mut [u8],
        _: &mut [i16],
        _: usize,
        _: u32,
        _: usize,
    ) -> usize {
        match token {}
    }
    pub(crate) fn rq_recip3<const P: usize, const Q: i16>(
        token: Avx2,
        _: &mut super::RecipState<P>,
        _: impl IntoIterator<Item = i8>,
    ) -> ct::Choice {
        match token {}
    }
}
