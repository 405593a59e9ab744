//! Architecture-specific code: the only place `unsafe` is allowed, each
//! block with a `// SAFETY:` comment.
//!
//! Dispatch (the pattern of `pqdr_common::simd`): every kernel is a safe
//! function taking the `pqdr_common::simd::Bmi2Adx` token, which only
//! detection makes; [`bmi2_adx`] hands one out when this crate's feature
//! `simd` is on and the CPU has BMI2 and ADX (CPUID once per process), else
//! `None`. Off x86-64, or without `simd`, `Bmi2Adx` is an empty enum: no
//! token exists, the stubs below are never reached and no assembly is built.
//!
//! | kernel (`x86_64`, MULX/ADCX/ADOX) | portable twin | differential test |
//! |---|---|---|
//! | `fe_mul` | `x25519::field::Fe::mul` | `x25519::tests::bmi2_adx_matches_portable` (random, edge and all-ones limbs; bit-identical limbs) |
//! | `fe_square` | `x25519::field::Fe::square` | `x25519::tests::bmi2_adx_matches_portable` |
//! | `fe_add`, `fe_sub` | `Fe::add`, `Fe::sub` | `x25519::tests::bmi2_adx_matches_portable` |
//! | `fe_mul_a24` | `Fe::mul_a24` | `x25519::tests::bmi2_adx_matches_portable` |
//! | `fe_ladder_step` (`x86_64/x25519_ladder.rs`, one RFC 7748 §5 ladder step with its `cswap` (masked, in registers): 4 add/sub, 4 squarings, 5 products, a24, in one block on a stack state) | `x25519::cswap_state` then the ladder step of `x25519::ladder` on `Portable` | `x25519::tests::ladder_step_matches_portable` (both swaps; random and edge states, all-ones limbs, chained steps; limbs; planted bugs: a dropped limb swap, a dropped a24 carry fold), plus every X25519 test on the kernel path |
//! | `fe_madd` (`x86_64/x25519_ladder.rs`, the edwards25519 mixed addition of the base-point product as one block) | `x25519::base::madd_portable` | `x25519::tests::madd_matches_portable` (random and edge states, chained additions; limbs), plus the base-point tests on the kernel path |
//! | `fe_base_select` (`x86_64/x25519_base.rs`, AVX2, the `Avx2` token; the masked scan of one row of the X25519 base-point table and the negation by masks) | `x25519::base::select_portable` | `x25519::tests::base_select_matches_portable` (every digit −128 … 127, random rows, rows of all-ones limbs, every row of the table; planted bug seen failing), plus the base-point tests on the kernel path |
//! | `fe_square_n` (`x86_64/x25519_sqr_n.rs`, the inversion's runs of squarings) | `Fe::square` `n` times (`Arith::square_n`) | `x25519::tests::square_n_matches_portable` (every `field_inputs` value, `n` = 0 … 260) |
//! | `p256_mont_mul` (`x86_64/p256.rs`) | `nistp256::field::mont_mul` (`mul_wide`, `mont_reduce`) | `nistp256::tests::bmi2_adx_matches_portable` (random, edge: 0, 1, p − 2, p − 1, p, p + 1, 2^256 − 1, all-ones limbs; bit-identical limbs) |
//! | `p256_mont_sqr` (`x86_64/p256.rs`) | `nistp256::field::mont_sqr` (`sqr_wide`, `mont_reduce`) | `nistp256::tests::bmi2_adx_matches_portable` |
//! | `p256_mont_sqr_n` (`x86_64/p256_sqr_n.rs`, the inversion's runs of squarings) | `nistp256::field::mont_sqr_n` (lazy reduction, then one conditional subtraction) | `nistp256::tests::sqr_n_matches_square_loop` (every `field_inputs` value, ≥ p and all-ones too, `n` = 0 … 255; planted bug seen failing), `invert_matches_previous` |
//! | `p256_jacobian_double_n`, `p256_jacobian_madd` (`x86_64/p256_dbl.rs`, `n` Jacobian doublings / the Jacobian–affine mixed addition, each one block on a stack state) | `nist_field::FieldArith::jacobian_double_n`, `FieldArith::jacobian_add_affine` on `nistp256::field::Portable` | `nistp256::tests::point_kernels_match_portable` (edge and random coordinates below p, `n` = 0 … 6, a 300-step chain on curve points; planted bugs seen failing), plus every P-256 test on the kernel path |
//! | `fe_divsteps_30` (`x86_64/x25519_divsteps.rs`, 30 Bernstein–Yang divsteps of the X25519 inversion in registers, two matrix entries per register) | `x25519::field::divsteps_30` | `x25519::tests::divsteps_match_portable` (random and edge `ζ`, `f`, `g`; planted bug seen failing), `divsteps_invert_matches_fermat` |
//! | `p256_add`, `p256_sub` (`x86_64/p256.rs`) | `nistp256::field::Fe::add`, `Fe::sub` | `nistp256::tests::bmi2_adx_matches_portable` |
//! | `p256_scan` (`x86_64/p256.rs`, AVX2, the `Avx2` token; P-256's and P-384's table scans) | `nist_curve::scan` | `nistp256::tests::avx2_scan_matches_portable` (every index 0 … 17, random tables of 8-, 12- and 20-limb entries) |
//! | `p256_triple`, `p256_sub2` (`x86_64/p256.rs`) | `nist_field::FieldArith::triple`, `FieldArith::sub2` (`(a + a) + a`, `(a − b) − b`) | `nistp256::tests::bmi2_adx_matches_portable` |
//! | `p384_mont_mul` (`x86_64/p384.rs`, rounds with the reduction interleaved) | `nistp384::field::mont_mul` (`mul_wide`, `mont_reduce`) | `nistp384::tests::bmi2_adx_matches_portable` (random, edge: 0, 1, p − 1, p, p + 1, 2^384 − 1 = all-ones limbs, values ≥ p; a 2,000-step chain; bit-identical limbs; planted bug seen failing) |
//! | `p384_mont_sqr` (`x86_64/p384.rs`, `p384_mont_mul(a, a)`) | `nistp384::field::mont_sqr` (`sqr_wide`, `mont_reduce`) | `nistp384::tests::bmi2_adx_matches_portable` |
//!
//! `fe_add`, `fe_sub` and `fe_mul_a24` are in assembly not for speed but for
//! constant time: in the MULX ladder LLVM turned the Rust carry folds of
//! `Fe::add` / `Fe::sub` into branches on the carry (valgrind,
//! tests/ct_valgrind.rs), which `SBB`-made masks rule out.
//!
//! The X25519 tests (RFC 7748 vectors, the differential test against
//! x25519-dalek) run on the path detection picks, and the portable ladder
//! is forced in `x25519::tests`; tests/ct_valgrind.rs runs whichever path
//! detection picks under valgrind.

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[allow(unsafe_code, reason = "inline assembly (MULX/ADCX/ADOX) only")]
mod x86_64;

#[cfg(all(
    feature = "simd",
    target_arch = "x86_64",
    any(feature = "p256", feature = "p384")
))]
pub(crate) use x86_64::p256_scan;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::{
    LADDER_SLOTS, fe_add, fe_ladder_step, fe_mul, fe_mul_a24, fe_square, fe_square_n, fe_sub,
};
#[cfg(all(
    feature = "simd",
    target_arch = "x86_64",
    feature = "precomputed-tables"
))]
pub(crate) use x86_64::{MADD_SLOTS, fe_base_select, fe_madd};
#[cfg(all(feature = "simd", target_arch = "x86_64", feature = "p256"))]
pub(crate) use x86_64::{
    P256_DBL_SLOTS, P256_MADD_SLOTS, p256_jacobian_double_n, p256_jacobian_madd,
};
#[cfg(all(feature = "simd", target_arch = "x86_64", feature = "p256"))]
pub(crate) use x86_64::{
    p256_add, p256_mont_mul, p256_mont_sqr, p256_mont_sqr_n, p256_sub, p256_sub2, p256_triple,
};
#[cfg(all(feature = "simd", target_arch = "x86_64", feature = "p384"))]
pub(crate) use x86_64::{p384_mont_mul, p384_mont_sqr};

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use pqdr_common::simd::{Avx2, Bmi2Adx};
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86_64::fe_divsteps_30;

/// The AVX2 token (the P-256 and P-384 table scans) if this crate's feature `simd` is
/// on (and the target is x86-64) and `pqdr_common::simd::Avx2::detect`
/// hands one out, else `None`. `PQDR_FORCE_PORTABLE=1` (test builds) makes
/// it `None`.
#[inline(always)]
#[cfg_attr(
    not(any(feature = "p256", feature = "p384", feature = "precomputed-tables")),
    allow(
        dead_code,
        reason = "the P-256, P-384 and X25519 base-point table scans only"
    )
)]
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

/// The BMI2+ADX token if this crate's feature `simd` is on (and the target
/// is x86-64) and `pqdr_common::simd::Bmi2Adx::detect` hands one out (the
/// CPU has both, cached detection; in `--cfg pqct_valgrind` builds also on
/// valgrind, which hides ADX in CPUID but executes it), else `None`: the
/// one place that picks the path. `PQDR_FORCE_PORTABLE=1` (test builds)
/// makes it `None`.
#[inline(always)]
pub(crate) fn bmi2_adx() -> Option<Bmi2Adx> {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    {
        Bmi2Adx::detect()
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    {
        None
    }
}

/// No MULX/ADX path in this build (feature `simd` off, or not x86-64): no
/// value of this type exists, so [`bmi2_adx`] is `None` and the stubs are
/// never run (pqdr-mlkem's pattern for its AVX2 token).
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Bmi2Adx {}

/// No AVX2 path in this build (as [`Bmi2Adx`]): [`avx2`] is `None`.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Avx2 {}

#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
pub(crate) use stubs::*;

/// The kernels' signatures in builds without the MULX/ADX path.
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
mod stubs {
    #[cfg(any(feature = "p256", feature = "p384", feature = "precomputed-tables"))]
    use super::Avx2;
    use super::Bmi2Adx;
    pub(crate) fn fe_mul(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_square(token: Bmi2Adx, _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_add(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_sub(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_mul_a24(token: Bmi2Adx, _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_square_n(token: Bmi2Adx, _: &[u64; 4], _: u32) -> [u64; 4] {
        match token {}
    }
    pub(crate) fn fe_divsteps_30(token: Bmi2Adx, _: i64, _: u64, _: u64) -> (i64, [i64; 4]) {
        match token {}
    }
    pub(crate) const LADDER_SLOTS: usize = 14;
    pub(crate) fn fe_ladder_step(token: Bmi2Adx, _: u64, _: &mut [[u64; 4]; LADDER_SLOTS]) {
        match token {}
    }
    #[cfg(feature = "precomputed-tables")]
    pub(crate) const MADD_SLOTS: usize = 17;
    #[cfg(feature = "precomputed-tables")]
    pub(crate) fn fe_madd(token: Bmi2Adx, _: &mut [[u64; 4]; MADD_SLOTS]) {
        match token {}
    }
    #[cfg(feature = "precomputed-tables")]
    pub(crate) fn fe_base_select(token: Avx2, _: &[[u64; 12]; 8], _: i8, _: &mut [[u64; 4]; 3]) {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) fn p256_mont_mul(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) fn p256_mont_sqr(token: Bmi2Adx, _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) fn p256_mont_sqr_n(token: Bmi2Adx, _: &[u64; 4], _: u32) -> [u64; 4] {
        match token {}
    }
    #[cfg(any(feature = "p256", feature = "p384"))]
    pub(crate) fn p256_scan<const N: usize>(token: Avx2, _: &[[u64; N]; 16], _: u64) -> [u64; N] {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) fn p256_triple(token: Bmi2Adx, _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) fn p256_sub2(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) fn p256_add(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) fn p256_sub(token: Bmi2Adx, _: &[u64; 4], _: &[u64; 4]) -> [u64; 4] {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) const P256_DBL_SLOTS: usize = 10;
    #[cfg(feature = "p256")]
    pub(crate) fn p256_jacobian_double_n(
        token: Bmi2Adx,
        _: &mut [[u64; 4]; P256_DBL_SLOTS],
        _: u32,
    ) {
        match token {}
    }
    #[cfg(feature = "p256")]
    pub(crate) const P256_MADD_SLOTS: usize = 10;
    #[cfg(feature = "p256")]
    pub(crate) fn p256_jacobian_madd(token: Bmi2Adx, _: &mut [[u64; 4]; P256_MADD_SLOTS]) {
        match token {}
    }
    #[cfg(feature = "p384")]
    pub(crate) fn p384_mont_mul(token: Bmi2Adx, _: &[u64; 6], _: &[u64; 6]) -> [u64; 6] {
        match token {}
    }
    #[cfg(feature = "p384")]
    pub(crate) fn p384_mont_sqr(token: Bmi2Adx, _: &[u64; 6]) -> [u64; 6] {
        match token {}
    }
}
