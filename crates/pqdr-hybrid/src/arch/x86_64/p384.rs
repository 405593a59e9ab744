//! Montgomery multiplication and squaring modulo the P-384 prime
//! p = 2^384 − 2^128 − 2^96 + 2^32 − 1 (SP 800-186 §3.2.1.4) with `MULX`
//! (BMI2) and the two carry chains of `ADCX` / `ADOX` (ADX).
//!
//! Operand scanning with the reduction interleaved (HAC Algorithm 14.36,
//! word by word): six rounds, each adding the row `a_i·b` to the eight-limb
//! accumulator `u` (low product halves in the OF chain, high halves in the
//! CF chain), then `m·p` with `m = u_0·(2^32 + 1) mod 2^64` (p's low limb
//! is `2^32 − 1`, so `−p⁻¹ ≡ 2^32 + 1 (mod 2^64)`, as in the portable
//! `nistp384::field::mont_reduce`): four `MULX` by p's limbs (limbs 3 … 5
//! are equal, one product serves the three), after which limb 0 is zero
//! and the accumulator moves down a limb (the registers rotate). Bounds:
//! with `u < b + p` before a round, `u + a_i·b + m·p < 2^64·(b + p) <
//! 2^449` (eight limbs), and after the shift `u < b + p < 2^385` again, for
//! any six-limb `a`, `b`. The result is `s = (a·b + M·p)/2^384` with `M <
//! 2^384` the one value making the division exact — the integer the
//! portable twin's separate product and reduction reach too — and `p` is
//! subtracted from the seven-limb `s` unless that borrows (`CMOVC`), as
//! there: bit-identical to `nistp384::field::mont_mul` / `mont_sqr` on
//! every input (the differential test compares limbs).
//!
//! `unsafe` here is the inline assembly: it reads the 48 bytes behind each
//! reference and p's limbs, writes only its register operands (no stack,
//! no memory), and uses `MULX`, `ADCX` and `ADOX`, which the [`Bmi2Adx`]
//! token proves execute here. No branch, no address depends on the limb
//! values.

use core::arch::asm;

use super::Bmi2Adx;

/// p's limbs 0 … 3, little-endian (the memory operands of the reduction's
/// `MULX` and of the final subtraction); limbs 4 and 5 equal limb 3.
static P: [u64; 4] = [
    0x0000_0000_ffff_ffff,
    0xffff_ffff_0000_0000,
    0xffff_ffff_ffff_fffe,
    u64::MAX,
];

/// One row `u += a_i·b` (`rdx` = `a_i`) for rounds 1 … 5: `$u0 … $u6` hold
/// the accumulator, `$u7` (limb 7) is written fresh and takes the carries.
macro_rules! p384_row {
    ($u0:literal, $u1:literal, $u2:literal, $u3:literal, $u4:literal, $u5:literal, $u6:literal, $u7:literal) => {
        concat!(
            "xor {",
            $u7,
            ":e}, {",
            $u7,
            ":e}\n", // limb 7 = 0, CF = OF = 0
            "mulx {hi}, {lo}, [{b}]\n",
            "adox {",
            $u0,
            "}, {lo}\n",
            "adcx {",
            $u1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 8]\n",
            "adox {",
            $u1,
            "}, {lo}\n",
            "adcx {",
            $u2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 16]\n",
            "adox {",
            $u2,
            "}, {lo}\n",
            "adcx {",
            $u3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 24]\n",
            "adox {",
            $u3,
            "}, {lo}\n",
            "adcx {",
            $u4,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 32]\n",
            "adox {",
            $u4,
            "}, {lo}\n",
            "adcx {",
            $u5,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 40]\n",
            "adox {",
            $u5,
            "}, {lo}\n",
            "adcx {",
            $u6,
            "}, {hi}\n",
            "mov {lo:e}, 0\n", // MOV leaves the flags alone
            "adox {",
            $u6,
            "}, {lo}\n",
            "adcx {",
            $u7,
            "}, {lo}\n",
            "adox {",
            $u7,
            "}, {lo}\n",
        )
    };
}

/// One reduction step `u += m·p`, `m = u_0·(2^32 + 1) mod 2^64`, on the
/// accumulator `$u0 … $u7`; `$z` is a register to clear (with the flags:
/// `lo`, or in round 0 the fresh limb 7). Limb 0 ends zero (`u_0 +
/// lo(m·p_0) ≡ u_0·(1 + (2^32 + 1)(2^32 − 1)) ≡ 0`) and serves as the zero
/// of the last carries; the value is then `$u1 … $u7` shifted down.
macro_rules! p384_redc {
    ($z:literal, $u0:literal, $u1:literal, $u2:literal, $u3:literal, $u4:literal, $u5:literal, $u6:literal, $u7:literal) => {
        concat!(
            "mov rdx, {",
            $u0,
            "}\n",
            "shl rdx, 32\n",
            "add rdx, {",
            $u0,
            "}\n", // m
            "xor {",
            $z,
            ":e}, {",
            $z,
            ":e}\n", // CF = OF = 0
            "mulx {hi}, {lo}, [{p}]\n",
            "adox {",
            $u0,
            "}, {lo}\n",
            "adcx {",
            $u1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{p} + 8]\n",
            "adox {",
            $u1,
            "}, {lo}\n",
            "adcx {",
            $u2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{p} + 16]\n",
            "adox {",
            $u2,
            "}, {lo}\n",
            "adcx {",
            $u3,
            "}, {hi}\n",
            // p_3 = p_4 = p_5: lo at limbs 3, 4, 5, hi at 4, 5, 6.
            "mulx {hi}, {lo}, [{p} + 24]\n",
            "adox {",
            $u3,
            "}, {lo}\n",
            "adcx {",
            $u4,
            "}, {hi}\n",
            "adox {",
            $u4,
            "}, {lo}\n",
            "adcx {",
            $u5,
            "}, {hi}\n",
            "adox {",
            $u5,
            "}, {lo}\n",
            "adcx {",
            $u6,
            "}, {hi}\n",
            "adox {",
            $u6,
            "}, {",
            $u0,
            "}\n",
            "adcx {",
            $u7,
            "}, {",
            $u0,
            "}\n",
            "adox {",
            $u7,
            "}, {",
            $u0,
            "}\n",
        )
    };
}

/// The six rounds and the final subtraction, `{b}` pointing at the second
/// factor (the first is `{a}`); the result in `t6, t7, t0, t1, t2, t3`.
macro_rules! p384_montmul {
    () => {
        concat!(
            // round 0: u = a_0·b into t0 … t6, then the reduction (t7 fresh).
            "mov rdx, [{a}]\n",
            "mulx {t1}, {t0}, [{b}]\n",
            "mulx {t2}, {lo}, [{b} + 8]\n",
            "add {t1}, {lo}\n",
            "mulx {t3}, {lo}, [{b} + 16]\n",
            "adc {t2}, {lo}\n",
            "mulx {t4}, {lo}, [{b} + 24]\n",
            "adc {t3}, {lo}\n",
            "mulx {t5}, {lo}, [{b} + 32]\n",
            "adc {t4}, {lo}\n",
            "mulx {t6}, {lo}, [{b} + 40]\n",
            "adc {t5}, {lo}\n",
            "adc {t6}, 0\n",
            p384_redc!("t7", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"),
            // rounds 1 … 5: the accumulator rotates one register each.
            "mov rdx, [{a} + 8]\n",
            p384_row!("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t0"),
            p384_redc!("lo", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t0"),
            "mov rdx, [{a} + 16]\n",
            p384_row!("t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1"),
            p384_redc!("lo", "t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1"),
            "mov rdx, [{a} + 24]\n",
            p384_row!("t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2"),
            p384_redc!("lo", "t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2"),
            "mov rdx, [{a} + 32]\n",
            p384_row!("t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3"),
            p384_redc!("lo", "t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3"),
            "mov rdx, [{a} + 40]\n",
            p384_row!("t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4"),
            p384_redc!("lo", "t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4"),
            // s = t6, t7, t0, t1, t2, t3 and the carry t4; s − p on seven
            // limbs, s kept (CMOVC) if that borrows.
            "mov {t5}, {t6}\n",
            "mov {hi}, {t7}\n",
            "mov {lo}, {t0}\n",
            "mov rdx, {t1}\n",
            "mov {a}, {t2}\n",
            "mov {b}, {t3}\n",
            "sub {t6}, [{p}]\n",
            "sbb {t7}, [{p} + 8]\n",
            "sbb {t0}, [{p} + 16]\n",
            "sbb {t1}, [{p} + 24]\n",
            "sbb {t2}, [{p} + 24]\n",
            "sbb {t3}, [{p} + 24]\n",
            "sbb {t4}, 0\n",
            "cmovc {t6}, {t5}\n",
            "cmovc {t7}, {hi}\n",
            "cmovc {t0}, {lo}\n",
            "cmovc {t1}, rdx\n",
            "cmovc {t2}, {a}\n",
            "cmovc {t3}, {b}\n",
        )
    };
}

/// `a·b·2^−384 mod p` (Montgomery), fully reduced for inputs below p,
/// bit-identical to the portable `nistp384::field::mont_mul` on every input.
#[inline(always)]
pub(crate) fn p384_mont_mul(token: Bmi2Adx, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    let _ = token;
    let (r0, r1, r2, r3, r4, r5): (u64, u64, u64, u64, u64, u64);
    // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`)
    // proves that MULX (BMI2), ADCX and ADOX (ADX) execute here; the assembly
    // reads only a[0..6], b[0..6] (valid shared references) and the static
    // `P` (four limbs, offsets 0 … 24), writes only its declared registers and the flags, and touches no
    // stack.
    unsafe {
        asm!(
            p384_montmul!(),
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            p = in(reg) P.as_ptr(),
            t0 = out(reg) r2,
            t1 = out(reg) r3,
            t2 = out(reg) r4,
            t3 = out(reg) r5,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) r0,
            t7 = out(reg) r1,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3, r4, r5]
}

/// `a²·2^−384 mod p` (Montgomery): [`p384_mont_mul`] with `b = a`,
/// bit-identical to the portable `nistp384::field::mont_sqr` (the same
/// integer) on every input.
#[inline(always)]
pub(crate) fn p384_mont_sqr(token: Bmi2Adx, a: &[u64; 6]) -> [u64; 6] {
    p384_mont_mul(token, a, a)
}
