//! One step of the X25519 Montgomery ladder (RFC 7748 §5) as a single
//! assembly block: the four sums and differences, the four squarings, the
//! five products and the a24 product, on a state of 14 field elements in
//! one stack buffer, so that no value leaves the block between two field
//! operations and the out-of-order core sees the whole step at once.
//!
//! Every field operation is the one of the separate kernels in `mod.rs`
//! (`fe_mul`, `fe_square`, `fe_add`, `fe_sub`, `fe_mul_a24`: the same
//! instructions on memory operands at fixed offsets), so the step gives
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
            store_at!($d),
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
            store_at!($d),
        )
    };
}

/// `[s + d] = [s + a] + [s + b] mod p` (`fe_add`: the carry folded as 38
/// twice, by masks).
macro_rules! add_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(
            "mov {t0}, [{s} + ",
            $a,
            "]\n",
            "mov {t1}, [{s} + ",
            $a,
            " + 8]\n",
            "mov {t2}, [{s} + ",
            $a,
            " + 16]\n",
            "mov {t3}, [{s} + ",
            $a,
            " + 24]\n",
            "add {t0}, [{s} + ",
            $b,
            "]\n",
            "adc {t1}, [{s} + ",
            $b,
            " + 8]\n",
            "adc {t2}, [{s} + ",
            $b,
            " + 16]\n",
            "adc {t3}, [{s} + ",
            $b,
            " + 24]\n",
            "sbb {t4}, {t4}\n",
            "and {t4}, 38\n",
            "add {t0}, {t4}\n",
            "adc {t1}, 0\n",
            "adc {t2}, 0\n",
            "adc {t3}, 0\n",
            "sbb {t4}, {t4}\n",
            "and {t4}, 38\n",
            "add {t0}, {t4}\n",
            store_at!($d),
        )
    };
}

/// `[s + d] = [s + a] − [s + b] mod p` (`fe_sub`: a borrow taken back as
/// − 38 twice, by masks).
macro_rules! sub_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(
            "mov {t0}, [{s} + ",
            $a,
            "]\n",
            "mov {t1}, [{s} + ",
            $a,
            " + 8]\n",
            "mov {t2}, [{s} + ",
            $a,
            " + 16]\n",
            "mov {t3}, [{s} + ",
            $a,
            " + 24]\n",
            "sub {t0}, [{s} + ",
            $b,
            "]\n",
            "sbb {t1}, [{s} + ",
            $b,
            " + 8]\n",
            "sbb {t2}, [{s} + ",
            $b,
            " + 16]\n",
            "sbb {t3}, [{s} + ",
            $b,
            " + 24]\n",
            "sbb {t4}, {t4}\n",
            "and {t4}, 38\n",
            "sub {t0}, {t4}\n",
            "sbb {t1}, 0\n",
            "sbb {t2}, 0\n",
            "sbb {t3}, 0\n",
            "sbb {t4}, {t4}\n",
            "and {t4}, 38\n",
            "sub {t0}, {t4}\n",
            store_at!($d),
        )
    };
}

/// `[s + d] = 121665 · [s + a] mod p` (`fe_mul_a24`).
macro_rules! a24_at {
    ($d:literal, $a:literal) => {
        concat!(
            "mov edx, 121665\n",
            "mulx {hi}, {t0}, [{s} + ",
            $a,
            "]\n",
            "mulx {lo}, {t1}, [{s} + ",
            $a,
            " + 8]\n",
            "add {t1}, {hi}\n",
            "mulx {hi}, {t2}, [{s} + ",
            $a,
            " + 16]\n",
            "adc {t2}, {lo}\n",
            "mulx {t4}, {t3}, [{s} + ",
            $a,
            " + 24]\n",
            "adc {t3}, {hi}\n",
            "adc {t4}, 0\n",
            "imul {t4}, {t4}, 38\n",
            "add {t0}, {t4}\n",
            "adc {t1}, 0\n",
            "adc {t2}, 0\n",
            "adc {t3}, 0\n",
            "sbb {t4}, {t4}\n",
            "and {t4}, 38\n",
            "add {t0}, {t4}\n",
            store_at!($d),
        )
    };
}

/// One ladder step (RFC 7748 §5, after the `cswap`) on `s`: from `x_1`,
/// `x_2`, `z_2`, `x_3`, `z_3` (slots 0 … 4), the new `x_2`, `z_2`, `x_3`,
/// `z_3` in the same slots; slots 5 … 13 are scratch. The limbs equal
/// those of the step written with `fe_add`, `fe_sub`, `fe_square`,
/// `fe_mul` and `fe_mul_a24` (and so the portable ones).
#[inline(always)]
pub(crate) fn fe_ladder_step(token: Bmi2Adx, s: &mut [[u64; 4]; LADDER_SLOTS]) {
    let _ = token;
    // Slots (byte offsets): 0 x1, 32 x2, 64 z2, 96 x3, 128 z3, 160 A, 192 B,
    // 224 C, 256 D, 288 AA, 320 BB, 352 DA, 384 CB, 416 E.
    // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`)
    // proves that MULX (BMI2), ADCX and ADOX (ADX) execute here; every memory
    // operand is `[s + c]` with a constant `c + 8 ≤ 448 = size_of_val(s)`, `s`
    // an exclusive reference; only declared registers and the flags are
    // written besides; no stack.
    unsafe {
        asm!(
            add_at!("160", "32", "64"),   // A = x2 + z2
            sub_at!("192", "32", "64"),   // B = x2 − z2
            add_at!("224", "96", "128"),  // C = x3 + z3
            sub_at!("256", "96", "128"),  // D = x3 − z3
            sqr_at!("288", "160"),        // AA = A²
            mul_at!("352", "256", "160"), // DA = D·A
            sqr_at!("320", "192"),        // BB = B²
            mul_at!("384", "224", "192"), // CB = C·B
            mul_at!("32", "288", "320"),  // x2 = AA·BB
            sub_at!("416", "288", "320"), // E = AA − BB
            add_at!("160", "352", "384"), // DA + CB
            sub_at!("192", "352", "384"), // DA − CB
            sqr_at!("96", "160"),         // x3 = (DA + CB)²
            sqr_at!("224", "192"),        // (DA − CB)²
            mul_at!("128", "0", "224"),   // z3 = x1·(DA − CB)²
            a24_at!("256", "416"),        // a24·E
            add_at!("256", "288", "256"), // AA + a24·E
            mul_at!("64", "416", "256"),  // z2 = E·(AA + a24·E)
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
