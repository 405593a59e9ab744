//! Multiplication and squaring modulo p = 2^255 − 19 (RFC 7748 §4.1) on
//! four 64-bit limbs with `MULX` (BMI2) and the two independent carry
//! chains of `ADCX` (carry flag) and `ADOX` (overflow flag), ADX. The
//! P-256 kernels (Montgomery multiplication, add, sub) are in the
//! submodule `p256` (feature `p256`), the P-384 ones (Montgomery
//! multiplication and squaring) in `p384` (feature `p384`).
//!
//! Each function computes the full 512-bit product `t` by rows (operand
//! scanning): a row's low product halves go into the OF chain, its high
//! halves into the CF chain, so the two additions interleave without
//! saving flags. `t` is then reduced exactly as the portable twin
//! (`x25519::field::reduce512`) does: `s = t_lo + 38·t_hi` (2^256 ≡ 38),
//! its carry `c` folded back as `38·c`, and the last carry of that as 38.
//! The same integer steps give the same loosely reduced limbs, so the
//! results are bit-identical to the portable ones (the differential test
//! compares limbs).
//!
//! `unsafe` here is only the inline assembly: it reads the 32 bytes behind
//! each reference, writes only its register operands (no stack, no memory),
//! and uses `MULX`, `ADCX` and `ADOX`, which the [`Bmi2Adx`] token proves
//! execute here. No branch, no address depends on the limb values.

use core::arch::asm;

// The table scan `p256_scan` serves P-384 too (any entry size).
#[cfg(any(feature = "p256", feature = "p384"))]
#[cfg_attr(
    not(feature = "p256"),
    allow(dead_code, reason = "P-384 uses the scan only")
)]
mod p256;
#[cfg(feature = "p256")]
mod p256_dbl;
#[cfg(feature = "p256")]
mod p256_sqr_n;
#[cfg(any(feature = "p256", feature = "p384"))]
pub(crate) use p256::p256_scan;
#[cfg(feature = "p256")]
pub(crate) use p256::{p256_add, p256_mont_mul, p256_mont_sqr, p256_sub, p256_sub2, p256_triple};
#[cfg(feature = "p256")]
pub(crate) use p256_dbl::{
    DBL_SLOTS as P256_DBL_SLOTS, MADD_SLOTS as P256_MADD_SLOTS, p256_jacobian_double_n,
    p256_jacobian_madd,
};
#[cfg(feature = "p256")]
pub(crate) use p256_sqr_n::p256_mont_sqr_n;
#[cfg(feature = "p384")]
mod p384;
#[cfg(feature = "p384")]
pub(crate) use p384::{p384_mont_mul, p384_mont_sqr};

use super::Bmi2Adx;

/// The reduction of `t0 … t7` to four limbs in `t0 … t3` (see the module
/// docs): `$z` names a free register (it ends 0), `rdx` is overwritten.
macro_rules! reduce512 {
    ($z:literal) => {
        concat!(
            // s = t_lo + 38·t_hi: low halves of 38·t_{i+4} in the OF chain at
            // limb i, high halves in the CF chain at limb i + 1.
            "mov rdx, 38\n",
            "xor {",
            $z,
            ":e}, {",
            $z,
            ":e}\n", // z = 0, CF = OF = 0
            "mulx {hi}, {lo}, {t4}\n",
            "adox {t0}, {lo}\n",
            "adcx {t1}, {hi}\n",
            "mulx {hi}, {lo}, {t5}\n",
            "adox {t1}, {lo}\n",
            "adcx {t2}, {hi}\n",
            "mulx {hi}, {lo}, {t6}\n",
            "adox {t2}, {lo}\n",
            "adcx {t3}, {hi}\n",
            "mulx {t4}, {lo}, {t7}\n",
            "adox {t3}, {lo}\n",
            // c = hi(38·t7) + CF + OF ≤ 39: the carry out of bit 256.
            "adcx {t4}, {",
            $z,
            "}\n",
            "adox {t4}, {",
            $z,
            "}\n",
            // r + 38·c; a carry out of that leaves r < 38·40, so adding 38
            // once more cannot carry.
            "imul {t4}, {t4}, 38\n",
            "add {t0}, {t4}\n",
            "adc {t1}, 0\n",
            "adc {t2}, 0\n",
            "adc {t3}, 0\n",
            "sbb {t4}, {t4}\n", // all ones iff carry, without a branch
            "and {t4}, 38\n",
            "add {t0}, {t4}\n",
        )
    };
}

/// Folds a carry out of bit 256, `{c}` = 0 or 1 after `sbb {c}, {c}` made
/// it a mask, into `{r0} … {r3}` as 38, twice (the second cannot carry):
/// the portable `fold_carry` without a branch on the carry.
macro_rules! fold_mask {
    () => {
        concat!(
            "and {c}, 38\n",
            "add {r0}, {c}\n",
            "adc {r1}, 0\n",
            "adc {r2}, 0\n",
            "adc {r3}, 0\n",
            "sbb {c}, {c}\n",
            "and {c}, 38\n",
            "add {r0}, {c}\n",
        )
    };
}

/// One row `t_{i..i+4} += a_i · b` of the product (rows 1 … 3): `rdx` = a_i
/// already; `ti … ti3` are t_i … t_{i+3}, `ti4` (t_{i+4}) is written fresh.
macro_rules! row {
    ($ti:literal, $ti1:literal, $ti2:literal, $ti3:literal, $ti4:literal) => {
        concat!(
            "xor {lo:e}, {lo:e}\n", // CF = OF = 0
            "mulx {hi}, {lo}, [{b}]\n",
            "adox {",
            $ti,
            "}, {lo}\n",
            "adcx {",
            $ti1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 8]\n",
            "adox {",
            $ti1,
            "}, {lo}\n",
            "adcx {",
            $ti2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 16]\n",
            "adox {",
            $ti2,
            "}, {lo}\n",
            "adcx {",
            $ti3,
            "}, {hi}\n",
            "mulx {",
            $ti4,
            "}, {lo}, [{b} + 24]\n",
            "adox {",
            $ti3,
            "}, {lo}\n",
            "mov {lo:e}, 0\n", // MOV leaves the flags alone
            "adcx {",
            $ti4,
            "}, {lo}\n",
            "adox {",
            $ti4,
            "}, {lo}\n",
        )
    };
}

/// `a · b mod p`, loosely reduced (in `[0, 2^256)`), bit-identical to the
/// portable `Fe::mul`.
#[inline(always)]
pub(crate) fn fe_mul(token: Bmi2Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`) proves that MULX
    // (BMI2), ADCX and ADOX (ADX) execute here; the assembly reads only a[0..4] and b[0..4] (valid shared
    // references), writes only its declared registers and the flags, and
    // touches no stack.
    unsafe {
        asm!(
            // Row 0: t_0..4 = a_0 · b, one plain ADD/ADC chain.
            "mov rdx, [{a}]",
            "mulx {t1}, {t0}, [{b}]",
            "mulx {t2}, {lo}, [{b} + 8]",
            "add {t1}, {lo}",
            "mulx {t3}, {lo}, [{b} + 16]",
            "adc {t2}, {lo}",
            "mulx {t4}, {lo}, [{b} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            "mov rdx, [{a} + 8]",
            row!("t1", "t2", "t3", "t4", "t5"),
            "mov rdx, [{a} + 16]",
            row!("t2", "t3", "t4", "t5", "t6"),
            "mov rdx, [{a} + 24]",
            row!("t3", "t4", "t5", "t6", "t7"),
            reduce512!("a"), // a_ptr is no longer needed
            a = inout(reg) a.as_ptr() => _,
            b = in(reg) b.as_ptr(),
            t0 = out(reg) r0,
            t1 = out(reg) r1,
            t2 = out(reg) r2,
            t3 = out(reg) r3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a² mod p`, loosely reduced, bit-identical to the portable `Fe::square`:
/// the six cross products once, doubled in the CF chain while the four
/// squares are added in the OF chain.
#[inline(always)]
pub(crate) fn fe_square(token: Bmi2Adx, a: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `fe_mul`: the token proves BMI2 and ADX; only a[0..4]
    // is read, only declared registers and the flags are written.
    unsafe {
        asm!(
            // Cross products a_0·a_{1,2,3} at limbs 1 … 4.
            "mov rdx, [{a}]",
            "mulx {t2}, {t1}, [{a} + 8]",
            "mulx {t3}, {lo}, [{a} + 16]",
            "add {t2}, {lo}",
            "mulx {t4}, {lo}, [{a} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            // a_1·a_2 at limb 3, a_1·a_3 at limb 4.
            "mov rdx, [{a} + 8]",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, [{a} + 16]",
            "adox {t3}, {lo}",
            "adcx {t4}, {hi}",
            "mulx {t5}, {lo}, [{a} + 24]",
            "adox {t4}, {lo}",
            "mov {lo:e}, 0",
            "adcx {t5}, {lo}",
            "adox {t5}, {lo}",
            // a_2·a_3 at limb 5.
            "mov rdx, [{a} + 16]",
            "mulx {t6}, {lo}, [{a} + 24]",
            "add {t5}, {lo}",
            "adc {t6}, 0",
            // t = 2·t (CF chain, t_k + t_k) + a_i² at limb 2i (OF chain);
            // each limb is doubled before its square half is added.
            "mov rdx, [{a}]",
            "mulx {hi}, {t0}, rdx",
            "xor {t7:e}, {t7:e}",
            "adcx {t1}, {t1}",
            "adox {t1}, {hi}",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t2}, {t2}",
            "adox {t2}, {lo}",
            "adcx {t3}, {t3}",
            "adox {t3}, {hi}",
            "mov rdx, [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t4}, {t4}",
            "adox {t4}, {lo}",
            "adcx {t5}, {t5}",
            "adox {t5}, {hi}",
            "mov rdx, [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t6}, {t6}",
            "adox {t6}, {lo}",
            "adcx {t7}, {t7}",
            "adox {t7}, {hi}",
            reduce512!("a"), // a_ptr is no longer needed
            a = inout(reg) a.as_ptr() => _,
            t0 = out(reg) r0,
            t1 = out(reg) r1,
            t2 = out(reg) r2,
            t3 = out(reg) r3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a + b mod p`, loosely reduced, bit-identical to the portable `Fe::add`:
/// the 256-bit sum, its carry folded back as 38 (twice) by masks.
#[inline(always)]
pub(crate) fn fe_add(token: Bmi2Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: plain x86-64 instructions reading a[0..4] and b[0..4] (valid
    // shared references), writing only the declared registers and the
    // flags; no stack.
    unsafe {
        asm!(
            "mov {r0}, [{a}]",
            "mov {r1}, [{a} + 8]",
            "mov {r2}, [{a} + 16]",
            "mov {r3}, [{a} + 24]",
            "add {r0}, [{b}]",
            "adc {r1}, [{b} + 8]",
            "adc {r2}, [{b} + 16]",
            "adc {r3}, [{b} + 24]",
            "sbb {c}, {c}",
            fold_mask!(),
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            c = out(reg) _,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a − b mod p`, loosely reduced, bit-identical to the portable `Fe::sub`:
/// the 256-bit difference, a borrow taken back as − 38 (twice) by masks.
#[inline(always)]
pub(crate) fn fe_sub(token: Bmi2Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `fe_add`: reads a[0..4] and b[0..4], writes only the
    // declared registers and the flags; no stack.
    unsafe {
        asm!(
            "mov {r0}, [{a}]",
            "mov {r1}, [{a} + 8]",
            "mov {r2}, [{a} + 16]",
            "mov {r3}, [{a} + 24]",
            "sub {r0}, [{b}]",
            "sbb {r1}, [{b} + 8]",
            "sbb {r2}, [{b} + 16]",
            "sbb {r3}, [{b} + 24]",
            "sbb {c}, {c}",
            "and {c}, 38",
            "sub {r0}, {c}",
            "sbb {r1}, 0",
            "sbb {r2}, 0",
            "sbb {r3}, 0",
            "sbb {c}, {c}",
            "and {c}, 38",
            "sub {r0}, {c}",
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            c = out(reg) _,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a · 121665 mod p` (RFC 7748 §5's a24), loosely reduced, bit-identical to
/// the portable `Fe::mul_a24`: four MULX, the top limb `c` folded as `38·c`
/// and the carry of that as 38.
#[inline(always)]
pub(crate) fn fe_mul_a24(token: Bmi2Adx, a: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the token proves MULX (BMI2) executes here; reads a[0..4],
    // writes only the declared registers and the flags; no stack.
    unsafe {
        asm!(
            "mov edx, 121665",
            "mulx {h0}, {r0}, [{a}]",
            "mulx {h1}, {r1}, [{a} + 8]",
            "add {r1}, {h0}",
            "mulx {h0}, {r2}, [{a} + 16]",
            "adc {r2}, {h1}",
            "mulx {c}, {r3}, [{a} + 24]",
            "adc {r3}, {h0}",
            "adc {c}, 0",
            // r + 38·c (c < 2^17), then a last carry as 38.
            "imul {c}, {c}, 38",
            "add {r0}, {c}",
            "adc {r1}, 0",
            "adc {r2}, 0",
            "adc {r3}, 0",
            "sbb {c}, {c}",
            "and {c}, 38",
            "add {r0}, {c}",
            a = in(reg) a.as_ptr(),
            c = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

// The X25519 ladder step and edwards25519 mixed addition as one block each,
// and the inversion's runs of
// squarings in registers.
mod x25519_ladder;
mod x25519_sqr_n;
pub(crate) use x25519_ladder::{LADDER_SLOTS, fe_ladder_step};
#[cfg(feature = "precomputed-tables")]
pub(crate) use x25519_ladder::{MADD_SLOTS, fe_madd};
pub(crate) use x25519_sqr_n::fe_square_n;
// The divstep batches of the X25519 inversion.
mod x25519_divsteps;
pub(crate) use x25519_divsteps::fe_divsteps_30;
// The AVX2 table lookup of the X25519 base-point product.
#[cfg(feature = "precomputed-tables")]
mod x25519_base;
#[cfg(feature = "precomputed-tables")]
pub(crate) use x25519_base::fe_base_select;
