//! `a^(2^n)` modulo p = 2^255 − 19 (RFC 7748 §4.1): `n` MULX squarings in
//! one loop that keeps the element in registers, for the runs of squarings
//! of the inversion `z^(p−2)` (RFC 7748 §5, `x25519::field::Arith::invert`),
//! a strictly serial chain where the memory round trip between two
//! separate squaring kernels (`fe_square`) lengthens every link.
//!
//! Each round is `fe_square` read from registers: the six cross products
//! once, doubled in the CF chain while the squares `a_i²` go into the OF
//! chain, then the reduction of `x25519::field::reduce512` (`t_lo +
//! 38·t_hi`, the carry folded back as `38·c`, its carry as 38, by a mask
//! from `SBB`). The same integer steps as the portable twin (`Fe::square`
//! `n` times), so the limbs are bit-identical on every input.
//!
//! `unsafe` is the inline assembly: it touches no memory and no stack,
//! writes only its declared registers and the flags, uses `MULX`, `ADCX`
//! and `ADOX` (the [`Bmi2Adx`] token proves they execute here). The loop
//! branch depends on `n` only (public: the fixed addition chain), never on
//! the limbs.

use core::arch::asm;

use super::Bmi2Adx;

/// `a^(2^n) mod p`, loosely reduced (in `[0, 2^256)`); `a` itself if
/// `n = 0`. Bit-identical to `n` portable `Fe::square`s on every input.
#[inline(always)]
pub(crate) fn fe_square_n(token: Bmi2Adx, a: &[u64; 4], n: u32) -> [u64; 4] {
    let _ = token;
    let (mut x0, mut x1, mut x2, mut x3) = (a[0], a[1], a[2], a[3]);
    if n > 0 {
        // The counter lives in an XMM register (all 13 free general registers
        // hold limbs during the cross products).
        let cnt = i64::from(n);
        // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`)
        // proves that MULX (BMI2), ADCX and ADOX (ADX) execute here; the
        // assembly reads and writes only its declared registers and the
        // flags, touches no memory and no stack; the loop runs `n ≥ 1` times.
        unsafe {
            asm!(
                "2:",
                // Cross products a_i·a_j (i < j) into t1 … t6.
                "mov rdx, {x0}",
                "mulx {t2}, {t1}, {x1}",
                "mulx {t3}, {lo}, {x2}",
                "add {t2}, {lo}",
                "mulx {t4}, {lo}, {x3}",
                "adc {t3}, {lo}",
                "adc {t4}, 0",
                "mov rdx, {x1}",
                "xor {t5:e}, {t5:e}", // CF = OF = 0
                "mulx {hi}, {lo}, {x2}",
                "adox {t3}, {lo}",
                "adcx {t4}, {hi}",
                "mulx {hi}, {lo}, {x3}",
                "adox {t4}, {lo}",
                "adcx {t5}, {hi}",
                "mov {lo:e}, 0",
                "adox {t5}, {lo}",
                "mov rdx, {x2}",
                "mulx {t6}, {lo}, {x3}",
                "add {t5}, {lo}",
                "adc {t6}, 0",
                // Doubled in the CF chain, the squares a_i² in the OF chain;
                // t0 takes x0's register, t7 x1's once they are read.
                "mov rdx, {x0}",
                "mulx {hi}, {x0}, rdx",
                "xor {lo:e}, {lo:e}", // CF = OF = 0
                "adcx {t1}, {t1}",
                "adox {t1}, {hi}",
                "mov rdx, {x1}",
                "mulx {hi}, {lo}, rdx",
                "mov {x1:e}, 0", // t7 = 0, flags kept
                "adcx {t2}, {t2}",
                "adox {t2}, {lo}",
                "adcx {t3}, {t3}",
                "adox {t3}, {hi}",
                "mov rdx, {x2}",
                "mulx {hi}, {lo}, rdx",
                "adcx {t4}, {t4}",
                "adox {t4}, {lo}",
                "adcx {t5}, {t5}",
                "adox {t5}, {hi}",
                "mov rdx, {x3}",
                "mulx {hi}, {lo}, rdx",
                "adcx {t6}, {t6}",
                "adox {t6}, {lo}",
                "adcx {x1}, {x1}",
                "adox {x1}, {hi}",
                // s = t_lo + 38·t_hi (t0 = x0, t7 = x1; x2 is the zero):
                // low halves in the OF chain at limb i, high halves in the
                // CF chain at limb i + 1.
                "mov rdx, 38",
                "xor {x2:e}, {x2:e}", // CF = OF = 0
                "mulx {hi}, {lo}, {t4}",
                "adox {x0}, {lo}",
                "adcx {t1}, {hi}",
                "mulx {hi}, {lo}, {t5}",
                "adox {t1}, {lo}",
                "adcx {t2}, {hi}",
                "mulx {hi}, {lo}, {t6}",
                "adox {t2}, {lo}",
                "adcx {t3}, {hi}",
                "mulx {t4}, {lo}, {x1}",
                "adox {t3}, {lo}",
                // c = hi(38·t7) + CF + OF ≤ 39, folded back as 38·c; a carry
                // out of that leaves r < 38·40, so one more 38 cannot carry.
                "adcx {t4}, {x2}",
                "adox {t4}, {x2}",
                "imul {t4}, {t4}, 38",
                "add {x0}, {t4}",
                "adc {t1}, 0",
                "adc {t2}, 0",
                "adc {t3}, 0",
                "sbb {t4}, {t4}", // all ones iff carry, without a branch
                "and {t4}, 38",
                "add {x0}, {t4}",
                "mov {x1}, {t1}",
                "mov {x2}, {t2}",
                "mov {x3}, {t3}",
                // Next round while the counter is not 0 (n is public).
                "movq {lo}, {cnt}",
                "sub {lo}, 1",
                "movq {cnt}, {lo}",
                "jnz 2b",
                x0 = inout(reg) x0,
                x1 = inout(reg) x1,
                x2 = inout(reg) x2,
                x3 = inout(reg) x3,
                cnt = inout(xmm_reg) cnt => _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                t3 = out(reg) _,
                t4 = out(reg) _,
                t5 = out(reg) _,
                t6 = out(reg) _,
                hi = out(reg) _,
                lo = out(reg) _,
                out("rdx") _,
                options(pure, nomem, nostack),
            );
        }
    }
    [x0, x1, x2, x3]
}
