//! `a^(2^n)` modulo the P-256 prime p = 2^256 − 2^224 + 2^192 + 2^96 − 1
//! (SP 800-186 §3.2.1.3) in Montgomery form: `n` MULX squarings in one
//! loop that keeps the element in registers, for the runs of squarings of
//! the Fermat inversion `a^(p−2)` (`nistp256::field::Arith::invert`).
//!
//! Each round is the square of `p256::p256_mont_sqr` (the six cross
//! products once, doubled in the CF chain, the squares `a_i²` in the OF
//! chain) read from registers, the four reduction rounds of its `reduce!`
//! (m = u_i, p ≡ −1 mod 2^64), then a lazy final step: the sum `s = u +
//! t_hi < 2^256 + p` loses `p` only if it carried out of 256 bits (a mask
//! from `SBB`), so the value stays below 2^256 but not always below p. After
//! the last round one conditional subtraction of p (`CMOVNC`) makes it
//! canonical. The same integer steps as the portable twin
//! `nistp256::field::mont_sqr_n`, so bit-identical on every input.
//!
//! `unsafe` is the inline assembly: it touches no memory and no stack,
//! writes only its declared registers and the flags, uses `MULX`, `ADCX`
//! and `ADOX` (the [`Bmi2Adx`] token proves they execute here). The loop
//! branch depends on `n` only (public: the fixed addition chain), never on
//! the limbs.

use core::arch::asm;

use super::Bmi2Adx;

/// `a^(2^n)·R^(1 − 2^n)`: `n` Montgomery squarings of `a` (any value below
/// 2^256), fully reduced; `a` reduced if `n = 0`. Bit-identical to the
/// portable `nistp256::field::mont_sqr_n` on every input.
#[inline(always)]
#[cfg_attr(
    not(any(test, feature = "p384")),
    allow(
        dead_code,
        reason = "squaring runs serve P-384's inversion and the tests' Fermat reference only"
    )
)]
pub(crate) fn p256_mont_sqr_n(token: Bmi2Adx, a: &[u64; 4], n: u32) -> [u64; 4] {
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
                // Reduction rounds (t0 = x0, t7 = x1); u4 … u7 into x3, x0,
                // t1, t2.
                "mov rdx, 0xffffffff00000001",
                "mulx {x3}, {lo}, {x0}",
                "mov {x2}, {x0}",
                "shl {x2}, 32",
                "shr {x0}, 32",
                "add {t1}, {x2}",
                "adc {t2}, {x0}",
                "adc {t3}, {lo}",
                "adc {x3}, 0",
                "mulx {x0}, {lo}, {t1}",
                "mov {x2}, {t1}",
                "shl {x2}, 32",
                "shr {t1}, 32",
                "add {t2}, {x2}",
                "adc {t3}, {t1}",
                "adc {x3}, {lo}",
                "adc {x0}, 0",
                "mulx {t1}, {lo}, {t2}",
                "mov {x2}, {t2}",
                "shl {x2}, 32",
                "shr {t2}, 32",
                "add {t3}, {x2}",
                "adc {x3}, {t2}",
                "adc {x0}, {lo}",
                "adc {t1}, 0",
                "mulx {t2}, {lo}, {t3}",
                "mov {x2}, {t3}",
                "shl {x2}, 32",
                "shr {t3}, 32",
                "add {x3}, {x2}",
                "adc {x0}, {t3}",
                "adc {t1}, {lo}",
                "adc {t2}, 0",
                // s = t_hi + u (t4, t5, t6, x1); p off iff it carried out.
                "add {t4}, {x3}",
                "adc {t5}, {x0}",
                "adc {t6}, {t1}",
                "adc {x1}, {t2}",
                "sbb {x2}, {x2}",
                "mov {lo:e}, 0xffffffff",
                "and {lo}, {x2}",
                "and rdx, {x2}",
                "sub {t4}, {x2}",
                "sbb {t5}, {lo}",
                "sbb {t6}, 0",
                "sbb {x1}, rdx",
                "mov {x0}, {t4}",
                "mov {x3}, {x1}",
                "mov {x1}, {t5}",
                "mov {x2}, {t6}",
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
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: plain x86-64 instructions on the declared registers and the
    // flags; no memory, no stack.
    unsafe {
        asm!(
            // x − p, kept unless that borrows (x < 2^256 < 2p).
            "mov {d0}, {x0}",
            "mov {d1}, {x1}",
            "mov {d2}, {x2}",
            "mov {d3}, {x3}",
            "mov {p1:e}, 0xffffffff",
            "mov {p3}, 0xffffffff00000001",
            "sub {d0}, -1",
            "sbb {d1}, {p1}",
            "sbb {d2}, 0",
            "sbb {d3}, {p3}",
            "cmovnc {x0}, {d0}",
            "cmovnc {x1}, {d1}",
            "cmovnc {x2}, {d2}",
            "cmovnc {x3}, {d3}",
            x0 = inout(reg) x0 => r0,
            x1 = inout(reg) x1 => r1,
            x2 = inout(reg) x2 => r2,
            x3 = inout(reg) x3 => r3,
            d0 = out(reg) _,
            d1 = out(reg) _,
            d2 = out(reg) _,
            d3 = out(reg) _,
            p1 = out(reg) _,
            p3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}
