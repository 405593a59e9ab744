//! One step of the X25519 Montgomery ladder (RFC 7748 §5) as a single
//! assembly block: the `cswap` (a masked exchange of the sums and
//! differences in registers), the four sums and differences, the four
//! squarings, the five products and the a24 product, on a state of 14 field elements in
//! one stack buffer, so that no value leaves the block between two field
//! operations and the out-of-order core sees the whole step at once.
//!
//! Every field operation is the one of the separate kernels in `mod.rs`
//! (`fe_mul`, `fe_square`, `fe_add`, `fe_sub`, `fe_mul_a24`: the same
//! instructions on memory or register operands), so the step gives
//! the same limbs as the ladder written with them, and as the portable
//! twin (`x25519::field::Portable`, the generic `ladder`).
//!
//! `unsafe` is the inline assembly: it reads and writes only the 448 bytes
//! of the `&mut [[u64; 4]; 14]` it is given (offsets 0 … 447, fixed), writes
//! its declared registers and the flags, touches no stack, and uses `MULX`,
//! `ADCX` and `ADOX`, which the [`Bmi2Adx`] token proves execute here. No
//! branch and no address depends on the data.

use core::arch::asm;

use super::Bmi2Adx;

/// Field elements in the ladder state: 0 `x_1` (read only), 1 … 4 `x_2`,
/// `z_2`, `x_3`, `z_3` (in after the `cswap`, out for the next bit), 5 …
/// 13 scratch.
pub(crate) const LADDER_SLOTS: usize = 14;

/// `[s + d] = [s + a] · [s + b] mod p` (the `fe_mul` rows and reduction).
macro_rules! mul_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(mul_r!($a, $b), store_at!($d))
    };
}

/// `t0 … t3 = [s + a] · [s + b] mod p` (as [`mul_at!`], left in registers).
macro_rules! mul_r {
    ($a:literal, $b:literal) => {
        concat!(
            "mov rdx, [{s} + ",
            $a,
            "]\n",
            "mulx {t1}, {t0}, [{s} + ",
            $b,
            "]\n",
            "mulx {t2}, {lo}, [{s} + ",
            $b,
            " + 8]\n",
            "add {t1}, {lo}\n",
            "mulx {t3}, {lo}, [{s} + ",
            $b,
            " + 16]\n",
            "adc {t2}, {lo}\n",
            "mulx {t4}, {lo}, [{s} + ",
            $b,
            " + 24]\n",
            "adc {t3}, {lo}\n",
            "adc {t4}, 0\n",
            "mov rdx, [{s} + ",
            $a,
            " + 8]\n",
            row_at!($b, "t1", "t2", "t3", "t4", "t5"),
            "mov rdx, [{s} + ",
            $a,
            " + 16]\n",
            row_at!($b, "t2", "t3", "t4", "t5", "t6"),
            "mov rdx, [{s} + ",
            $a,
            " + 24]\n",
            row_at!($b, "t3", "t4", "t5", "t6", "t7"),
            reduce512!("z"),
        )
    };
}

/// `row!` of `mod.rs` with the multiplicand at `[s + b]`.
macro_rules! row_at {
    ($b:literal, $ti:literal, $ti1:literal, $ti2:literal, $ti3:literal, $ti4:literal) => {
        concat!(
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $b,
            "]\n",
            "adox {",
            $ti,
            "}, {lo}\n",
            "adcx {",
            $ti1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $b,
            " + 8]\n",
            "adox {",
            $ti1,
            "}, {lo}\n",
            "adcx {",
            $ti2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $b,
            " + 16]\n",
            "adox {",
            $ti2,
            "}, {lo}\n",
            "adcx {",
            $ti3,
            "}, {hi}\n",
            "mulx {",
            $ti4,
            "}, {lo}, [{s} + ",
            $b,
            " + 24]\n",
            "adox {",
            $ti3,
            "}, {lo}\n",
            "mov {lo:e}, 0\n",
            "adcx {",
            $ti4,
            "}, {lo}\n",
            "adox {",
            $ti4,
            "}, {lo}\n",
        )
    };
}

/// `t0 … t3` to `[s + d]`.
macro_rules! store_at {
    ($d:literal) => {
        concat!(
            "mov [{s} + ",
            $d,
            "], {t0}\n",
            "mov [{s} + ",
            $d,
            " + 8], {t1}\n",
            "mov [{s} + ",
            $d,
            " + 16], {t2}\n",
            "mov [{s} + ",
            $d,
            " + 24], {t3}\n",
        )
    };
}

/// `[s + d] = [s + a]² mod p` (the `fe_square` cross products, doubling,
/// squares and reduction).
macro_rules! sqr_at {
    ($d:literal, $a:literal) => {
        concat!(sqr_r!($a), store_at!($d))
    };
}

/// `t0 … t3 = [s + a]² mod p` (as [`sqr_at!`], left in registers).
macro_rules! sqr_r {
    ($a:literal) => {
        concat!(
            "mov rdx, [{s} + ",
            $a,
            "]\n",
            "mulx {t2}, {t1}, [{s} + ",
            $a,
            " + 8]\n",
            "mulx {t3}, {lo}, [{s} + ",
            $a,
            " + 16]\n",
            "add {t2}, {lo}\n",
            "mulx {t4}, {lo}, [{s} + ",
            $a,
            " + 24]\n",
            "adc {t3}, {lo}\n",
            "adc {t4}, 0\n",
            "mov rdx, [{s} + ",
            $a,
            " + 8]\n",
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $a,
            " + 16]\n",
            "adox {t3}, {lo}\n",
            "adcx {t4}, {hi}\n",
            "mulx {t5}, {lo}, [{s} + ",
            $a,
            " + 24]\n",
            "adox {t4}, {lo}\n",
            "mov {lo:e}, 0\n",
            "adcx {t5}, {lo}\n",
            "adox {t5}, {lo}\n",
            "mov rdx, [{s} + ",
            $a,
            " + 16]\n",
            "mulx {t6}, {lo}, [{s} + ",
            $a,
            " + 24]\n",
            "add {t5}, {lo}\n",
            "adc {t6}, 0\n",
            "mov rdx, [{s} + ",
            $a,
            "]\n",
            "mulx {hi}, {t0}, rdx\n",
            "xor {t7:e}, {t7:e}\n",
            "adcx {t1}, {t1}\n",
            "adox {t1}, {hi}\n",
            "mov rdx, [{s} + ",
            $a,
            " + 8]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t2}, {t2}\n",
            "adox {t2}, {lo}\n",
            "adcx {t3}, {t3}\n",
            "adox {t3}, {hi}\n",
            "mov rdx, [{s} + ",
            $a,
            " + 16]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t4}, {t4}\n",
            "adox {t4}, {lo}\n",
            "adcx {t5}, {t5}\n",
            "adox {t5}, {hi}\n",
            "mov rdx, [{s} + ",
            $a,
            " + 24]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t6}, {t6}\n",
            "adox {t6}, {lo}\n",
            "adcx {t7}, {t7}\n",
            "adox {t7}, {hi}\n",
            reduce512!("z"),
        )
    };
}

/// `[s + d] = [s + a] + [s + b] mod p` (`fe_add`: the carry folded as 38
/// twice, by masks).
#[cfg(feature = "precomputed-tables")]
macro_rules! add_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(
            load4!($a, "t0", "t1", "t2", "t3"),
            addsub!("add", "adc", [$b], "t0", "t1", "t2", "t3", "t4"),
            store_at!($d),
        )
    };
}

/// `[s + d] = [s + a] − [s + b] mod p` (`fe_sub`: a borrow taken back as
/// − 38 twice, by masks).
#[cfg(feature = "precomputed-tables")]
macro_rules! sub_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(
            load4!($a, "t0", "t1", "t2", "t3"),
            addsub!("sub", "sbb", [$b], "t0", "t1", "t2", "t3", "t4"),
            store_at!($d),
        )
    };
}

/// `mov` of the four limbs at `[s + a]` into the named registers.
macro_rules! load4 {
    ($a:literal, $r0:literal, $r1:literal, $r2:literal, $r3:literal) => {
        concat!(
            "mov {",
            $r0,
            "}, [{s} + ",
            $a,
            "]\n",
            "mov {",
            $r1,
            "}, [{s} + ",
            $a,
            " + 8]\n",
            "mov {",
            $r2,
            "}, [{s} + ",
            $a,
            " + 16]\n",
            "mov {",
            $r3,
            "}, [{s} + ",
            $a,
            " + 24]\n",
        )
    };
}

/// The named registers to `[s + d]`.
macro_rules! store4 {
    ($d:literal, $r0:literal, $r1:literal, $r2:literal, $r3:literal) => {
        concat!(
            "mov [{s} + ",
            $d,
            "], {",
            $r0,
            "}\n",
            "mov [{s} + ",
            $d,
            " + 8], {",
            $r1,
            "}\n",
            "mov [{s} + ",
            $d,
            " + 16], {",
            $r2,
            "}\n",
            "mov [{s} + ",
            $d,
            " + 24], {",
            $r3,
            "}\n",
        )
    };
}

/// `r = r ± x mod p` (`$op`/`$opc` = `add`/`adc` or `sub`/`sbb`) with `x`
/// the registers `x0 … x3` or, given as `[m]`, the limbs at `[s + m]`;
/// the carry (borrow) folded as ± 38 twice by masks in `c`: the same
/// instructions as [`add_at!`] / [`sub_at!`], so the same limbs.
macro_rules! addsub {
    ($op:literal, $opc:literal, [$m:literal], $r0:literal, $r1:literal, $r2:literal,
     $r3:literal, $c:literal) => {
        concat!(
            $op,
            " {",
            $r0,
            "}, [{s} + ",
            $m,
            "]\n",
            $opc,
            " {",
            $r1,
            "}, [{s} + ",
            $m,
            " + 8]\n",
            $opc,
            " {",
            $r2,
            "}, [{s} + ",
            $m,
            " + 16]\n",
            $opc,
            " {",
            $r3,
            "}, [{s} + ",
            $m,
            " + 24]\n",
            fold!($op, $opc, $r0, $r1, $r2, $r3, $c),
        )
    };
    ($op:literal, $opc:literal, $x0:literal, $x1:literal, $x2:literal, $x3:literal,
     $r0:literal, $r1:literal, $r2:literal, $r3:literal, $c:literal) => {
        concat!(
            $op,
            " {",
            $r0,
            "}, {",
            $x0,
            "}\n",
            $opc,
            " {",
            $r1,
            "}, {",
            $x1,
            "}\n",
            $opc,
            " {",
            $r2,
            "}, {",
            $x2,
            "}\n",
            $opc,
            " {",
            $r3,
            "}, {",
            $x3,
            "}\n",
            fold!($op, $opc, $r0, $r1, $r2, $r3, $c),
        )
    };
}

/// The two masked folds of a carry (borrow) out of bit 256 as ± 38.
macro_rules! fold {
    ($op:literal, $opc:literal, $r0:literal, $r1:literal, $r2:literal, $r3:literal,
     $c:literal) => {
        concat!(
            "sbb {", $c, "}, {", $c, "}\n", "and {", $c, "}, 38\n", $op, " {", $r0, "}, {", $c,
            "}\n", $opc, " {", $r1, "}, 0\n", $opc, " {", $r2, "}, 0\n", $opc, " {", $r3, "}, 0\n",
            "sbb {", $c, "}, {", $c, "}\n", "and {", $c, "}, 38\n", $op, " {", $r0, "}, {", $c,
            "}\n",
        )
    };
}

/// `cswap` of one limb pair by the mask `{t7}` (all ones or zero), `c` a
/// scratch register: `d = m & (r ^ x)`, `r ^= d`, `x ^= d`.
macro_rules! cswap1 {
    ($r:literal, $x:literal, $c:literal) => {
        concat!(
            "mov {",
            $c,
            "}, {",
            $r,
            "}\n",
            "xor {",
            $c,
            "}, {",
            $x,
            "}\n",
            "and {",
            $c,
            "}, {t7}\n",
            "xor {",
            $r,
            "}, {",
            $c,
            "}\n",
            "xor {",
            $x,
            "}, {",
            $c,
            "}\n",
        )
    };
}

/// `[s + d] = [s + p] ± [s + q]` and `[s + e] = [s + u] ± [s + v]`, both
/// in registers, conditionally swapped by the mask `{t7}` before the stores:
/// the same limbs as `cswap` of the inputs followed by the two operations.
macro_rules! addsub_pair_cswap {
    ($op:literal, $opc:literal, $d:literal, $p:literal, $q:literal, $e:literal, $u:literal,
     $v:literal) => {
        concat!(
            load4!($p, "t0", "t1", "t2", "t3"),
            addsub!($op, $opc, [$q], "t0", "t1", "t2", "t3", "t4"),
            load4!($u, "t5", "t6", "hi", "lo"),
            addsub!($op, $opc, [$v], "t5", "t6", "hi", "lo", "z"),
            cswap1!("t0", "t5", "t4"),
            cswap1!("t1", "t6", "t4"),
            cswap1!("t2", "hi", "t4"),
            cswap1!("t3", "lo", "t4"),
            store4!($d, "t0", "t1", "t2", "t3"),
            store4!($e, "t5", "t6", "hi", "lo"),
        )
    };
}

/// `t0 … t3 = 121665 · (t4 … t7) mod p` (`fe_mul_a24`: the product's
/// top limb folded as 38, then a carry out as 38, by a mask).
macro_rules! a24_r {
    () => {
        concat!(
            "mov edx, 121665\n",
            "mulx {hi}, {t0}, {t4}\n",
            "mulx {lo}, {t1}, {t5}\n",
            "add {t1}, {hi}\n",
            "mulx {hi}, {t2}, {t6}\n",
            "adc {t2}, {lo}\n",
            "mulx {z}, {t3}, {t7}\n",
            "adc {t3}, {hi}\n",
            "adc {z}, 0\n",
            "imul {z}, {z}, 38\n",
            "add {t0}, {z}\n",
            "adc {t1}, 0\n",
            "adc {t2}, 0\n",
            "adc {t3}, 0\n",
            "sbb {z}, {z}\n",
            "and {z}, 38\n",
            "add {t0}, {z}\n",
        )
    };
}

/// One ladder step of RFC 7748 §5 *with* its `cswap` on `s`: from `x_1`,
/// `x_2`, `z_2`, `x_3`, `z_3` (slots 0 … 4) and `swap` ∈ {0, 1}, the new
/// `x_2`, `z_2`, `x_3`, `z_3` in the same slots; slots 5 … 13 are scratch.
/// The limbs equal those of `cswap(swap)` of the state followed by the step
/// written with `fe_add`, `fe_sub`, `fe_square`, `fe_mul` and `fe_mul_a24`
/// (and so the portable ones: `x25519::cswap_state`, `x25519::step`).
///
/// The swap is a masked exchange of `A ↔ C` and `B ↔ D` in registers (the
/// sums and differences are the same operations on swapped inputs), and
/// values stay in registers where the next operation reads them: `CB` into
/// `DA ± CB`, `BB` into `E = AA − BB`, `E` into `a24·E` and `AA + a24·E`.
/// Bounds: every value is loosely reduced, in `[0, 2^256)` (the folds of
/// `fe_add`/`fe_sub`, the reduction of `fe_mul`), which every operation
/// accepts as input; nothing is fully reduced before `to_bytes`.
#[inline(always)]
pub(crate) fn fe_ladder_step(token: Bmi2Adx, swap: u64, s: &mut [[u64; 4]; LADDER_SLOTS]) {
    let _ = token;
    let mask = swap.wrapping_neg();
    // Slots (byte offsets): 0 x1, 32 x2, 64 z2, 96 x3, 128 z3, 160 A (later
    // AA + a24·E), 192 B (later (DA − CB)²), 224 C (later DA + CB), 256 D
    // (later DA − CB), 288 AA, 320 BB, 352 DA, 416 E.
    // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`)
    // proves that MULX (BMI2), ADCX and ADOX (ADX) execute here; every memory
    // operand is `[s + c]` with a constant `c + 8 ≤ 448 = size_of_val(s)`, `s`
    // an exclusive reference; only declared registers and the flags are
    // written besides; no stack. The mask is only ANDed: no branch or
    // address depends on it or on the limbs.
    unsafe {
        asm!(
            addsub_pair_cswap!("add", "adc", "160", "32", "64", "224", "96", "128"), // A, C
            addsub_pair_cswap!("sub", "sbb", "192", "32", "64", "256", "96", "128"), // B, D
            mul_at!("352", "256", "160"), // DA = D·A
            mul_r!("224", "192"),         // CB = C·B
            load4!("352", "t4", "t5", "t6", "t7"),
            addsub!("add", "adc", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "hi"),
            store4!("224", "t4", "t5", "t6", "t7"), // DA + CB
            load4!("352", "t4", "t5", "t6", "t7"),
            addsub!("sub", "sbb", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "hi"),
            store4!("256", "t4", "t5", "t6", "t7"), // DA − CB
            sqr_at!("288", "160"),                  // AA = A²
            sqr_r!("192"),                          // BB = B²
            load4!("288", "t4", "t5", "t6", "t7"),
            addsub!("sub", "sbb", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "hi"),
            store4!("320", "t0", "t1", "t2", "t3"), // BB
            store4!("416", "t4", "t5", "t6", "t7"), // E = AA − BB
            a24_r!(),
            addsub!("add", "adc", ["288"], "t0", "t1", "t2", "t3", "t4"),
            store4!("160", "t0", "t1", "t2", "t3"), // AA + a24·E
            sqr_at!("192", "256"),                  // (DA − CB)²
            sqr_at!("96", "224"),                   // x3 = (DA + CB)²
            mul_at!("128", "0", "192"),             // z3 = x1·(DA − CB)²
            mul_at!("32", "288", "320"),            // x2 = AA·BB
            mul_at!("64", "416", "160"),            // z2 = E·(AA + a24·E)
            s = in(reg) s.as_mut_ptr(),
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = inout(reg) mask => _,
            hi = out(reg) _,
            lo = out(reg) _,
            z = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// Field elements in the state of [`fe_madd`]: 0 … 3 `X`, `Y`, `Z`, `T`
/// (in and out), 4 … 6 the affine `y + x`, `y − x`, `2d·x·y` (read only),
/// 7 … 16 scratch.
#[cfg(feature = "precomputed-tables")]
pub(crate) const MADD_SLOTS: usize = 17;

/// The mixed addition `P + Q` of edwards25519 (RFC 8032 §5.1.4 with
/// `Z2 = 1`, `T2 = x2·y2`; `x25519::base`) as one block on the state `s`:
/// `A = (Y − X)(y − x)`, `B = (Y + X)(y + x)`, `C = T·2d·x·y`, `D = 2Z`,
/// `E, F, G, H = B − A, D − C, D + C, B + A`, then `(EF, GH, FG, EH)`. The
/// limbs equal those of the same formulas with the separate kernels (and
/// the portable twin `x25519::base::madd_portable`).
#[cfg(feature = "precomputed-tables")]
#[inline(always)]
pub(crate) fn fe_madd(token: Bmi2Adx, s: &mut [[u64; 4]; MADD_SLOTS]) {
    let _ = token;
    // Slots (byte offsets): 0 X, 32 Y, 64 Z, 96 T, 128 y + x, 160 y − x,
    // 192 2d·x·y, 224 A, 256 B, 288 C, 320 D, 352 E, 384 F, 416 G, 448 H,
    // 480 Y − X, 512 Y + X.
    // SAFETY: as in `fe_ladder_step`: the token proves MULX, ADCX and ADOX;
    // every memory operand is `[s + c]` with a constant `c + 8 ≤ 544 =
    // size_of_val(s)`, `s` an exclusive reference; only declared registers
    // and the flags are written besides; no stack.
    unsafe {
        asm!(
            sub_at!("480", "32", "0"),    // Y − X
            add_at!("512", "32", "0"),    // Y + X
            mul_at!("224", "480", "160"), // A = (Y − X)(y − x)
            mul_at!("256", "512", "128"), // B = (Y + X)(y + x)
            mul_at!("288", "96", "192"),  // C = T·2d·x·y
            add_at!("320", "64", "64"),   // D = 2Z
            sub_at!("352", "256", "224"), // E = B − A
            sub_at!("384", "320", "288"), // F = D − C
            add_at!("416", "320", "288"), // G = D + C
            add_at!("448", "256", "224"), // H = B + A
            mul_at!("0", "352", "384"),   // X = EF
            mul_at!("32", "416", "448"),  // Y = GH
            mul_at!("64", "384", "416"),  // Z = FG
            mul_at!("96", "352", "448"),  // T = EH
            s = in(reg) s.as_mut_ptr(),
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            z = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}
