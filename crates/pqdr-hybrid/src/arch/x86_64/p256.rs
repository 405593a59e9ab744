//! Montgomery multiplication modulo the P-256 prime
//! p = 2^256 − 2^224 + 2^192 + 2^96 − 1 (SP 800-186 §3.2.1.3) with `MULX`
//! (BMI2) and the two carry chains of `ADCX` / `ADOX` (ADX).
//!
//! The same integer steps as the portable twin
//! (`nistp256::field::mont_mul`): four rounds, each `t += a_i·b` (low product
//! halves in the OF chain, high halves in the CF chain) and then
//! `t = (t + m·p) / 2^64` with `m = t_0` (p ≡ −1 mod 2^64), where `m·p` is
//! `m·2^32` at limb 1 (shifts) and one `MULX` by `p_3 = 0xffffffff00000001`
//! at limb 3; the limb names rotate instead of moving values. Finally `p`
//! is subtracted from the five-limb `t` and `CMOVC` keeps `t` if that
//! borrowed. Exact for every input, so bit-identical to the twin (the
//! differential test compares limbs).
//!
//! `unsafe` here is only the inline assembly: it reads the 32 bytes behind
//! each reference, writes only its register operands (no stack, no memory),
//! and uses `MULX`, `ADCX` and `ADOX`, which the [`Bmi2Adx`] token proves
//! execute here. No branch, no address depends on the limb values.

use core::arch::asm;

use super::Bmi2Adx;

/// One round on the limbs `T0 … T4` (`T5` is written fresh): `rdx` =
/// `a_i` already. `t += a_i·b`, then the reduction by `m = T0`; the result
/// is in `T1 … T5` (`T0` is free afterwards).
macro_rules! round {
    ($t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal, $t5:literal) => {
        concat!(
            "xor {",
            $t5,
            ":e}, {",
            $t5,
            ":e}\n", // T5 = 0, CF = OF = 0
            "mulx {hi}, {lo}, [{b}]\n",
            "adox {",
            $t0,
            "}, {lo}\n",
            "adcx {",
            $t1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 8]\n",
            "adox {",
            $t1,
            "}, {lo}\n",
            "adcx {",
            $t2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 16]\n",
            "adox {",
            $t2,
            "}, {lo}\n",
            "adcx {",
            $t3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 24]\n",
            "adox {",
            $t3,
            "}, {lo}\n",
            "adcx {",
            $t4,
            "}, {hi}\n",
            "mov {lo:e}, 0\n", // MOV leaves the flags alone
            "adox {",
            $t4,
            "}, {lo}\n",
            "adcx {",
            $t5,
            "}, {lo}\n",
            "adox {",
            $t5,
            "}, {lo}\n",
            // t + m·p, m = T0: limb 1 += m << 32, limb 2 += m >> 32,
            // limbs 3, 4 += m·p_3; one ADD/ADC chain into T5.
            "mov rdx, 0xffffffff00000001\n",
            "mulx {hi}, {lo}, {",
            $t0,
            "}\n",
            "mov {u}, {",
            $t0,
            "}\n",
            "shl {u}, 32\n",
            "shr {",
            $t0,
            "}, 32\n",
            "add {",
            $t1,
            "}, {u}\n",
            "adc {",
            $t2,
            "}, {",
            $t0,
            "}\n",
            "adc {",
            $t3,
            "}, {lo}\n",
            "adc {",
            $t4,
            "}, {hi}\n",
            "adc {",
            $t5,
            "}, 0\n",
        )
    };
}

/// `a·b·2^−256 mod p` (Montgomery), fully reduced for inputs below p,
/// bit-identical to the portable `nistp256::field::mont_mul` on every input.
#[inline(always)]
pub(crate) fn p256_mont_mul(token: Bmi2Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`)
    // proves that MULX (BMI2), ADCX and ADOX (ADX) execute here; the assembly
    // reads only a[0..4] and b[0..4] (valid shared references), writes only
    // its declared registers and the flags, and touches no stack.
    unsafe {
        asm!(
            "xor {t0:e}, {t0:e}",
            "xor {t1:e}, {t1:e}",
            "xor {t2:e}, {t2:e}",
            "xor {t3:e}, {t3:e}",
            "xor {t4:e}, {t4:e}",
            "mov rdx, [{a}]",
            round!("t0", "t1", "t2", "t3", "t4", "t5"),
            "mov rdx, [{a} + 8]",
            round!("t1", "t2", "t3", "t4", "t5", "t0"),
            "mov rdx, [{a} + 16]",
            round!("t2", "t3", "t4", "t5", "t0", "t1"),
            "mov rdx, [{a} + 24]",
            round!("t3", "t4", "t5", "t0", "t1", "t2"),
            // t = (t4, t5, t0, t1; t2). Subtract p; keep t on a borrow.
            "mov {hi}, {t4}",
            "mov {lo}, {t5}",
            "mov {u}, {t0}",
            "mov rdx, {t1}",
            "mov {a:e}, 0xffffffff",
            "mov {b}, 0xffffffff00000001",
            "sub {t4}, -1",
            "sbb {t5}, {a}",
            "sbb {t0}, 0",
            "sbb {t1}, {b}",
            "sbb {t2}, 0",
            "cmovc {t4}, {hi}",
            "cmovc {t5}, {lo}",
            "cmovc {t0}, {u}",
            "cmovc {t1}, rdx",
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            t0 = out(reg) r2,
            t1 = out(reg) r3,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) r0,
            t5 = out(reg) r1,
            hi = out(reg) _,
            lo = out(reg) _,
            u = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a + b mod p` (in assembly for speed, and so that no compiler turns the
/// final selection into a branch), bit-identical to the portable `nistp256::field::Fe::add`
/// on every input: the 257-bit sum `s`, then `s − p` unless that borrows
/// out of the 257 bits (`CMOVC` keeps `s`).
#[inline(always)]
pub(crate) fn p256_add(token: Bmi2Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: plain x86-64 instructions reading a[0..4] and b[0..4] (valid
    // shared references), writing only the declared registers and the
    // flags; no stack.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "mov {s0}, [{a}]",
            "mov {s1}, [{a} + 8]",
            "mov {s2}, [{a} + 16]",
            "mov {s3}, [{a} + 24]",
            "add {s0}, [{b}]",
            "adc {s1}, [{b} + 8]",
            "adc {s2}, [{b} + 16]",
            "adc {s3}, [{b} + 24]",
            "adc {c}, 0",
            "mov {a:e}, 0xffffffff",
            "mov {b}, 0xffffffff00000001",
            "mov {d0}, {s0}",
            "mov {d1}, {s1}",
            "mov {d2}, {s2}",
            "mov {d3}, {s3}",
            "sub {d0}, -1",
            "sbb {d1}, {a}",
            "sbb {d2}, 0",
            "sbb {d3}, {b}",
            "sbb {c}, 0",
            "cmovc {d0}, {s0}",
            "cmovc {d1}, {s1}",
            "cmovc {d2}, {s2}",
            "cmovc {d3}, {s3}",
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            c = out(reg) _,
            s0 = out(reg) _,
            s1 = out(reg) _,
            s2 = out(reg) _,
            s3 = out(reg) _,
            d0 = out(reg) r0,
            d1 = out(reg) r1,
            d2 = out(reg) r2,
            d3 = out(reg) r3,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a − b mod p`, bit-identical to the portable `nistp256::field::Fe::sub`
/// on every input: the difference, then `p` added under the mask of the
/// borrow (`SBB` makes it, no branch).
#[inline(always)]
pub(crate) fn p256_sub(token: Bmi2Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `p256_add`: reads a[0..4] and b[0..4], writes only the
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
            "sbb {m}, {m}",
            "mov {p1:e}, 0xffffffff",
            "mov {p3}, 0xffffffff00000001",
            "and {p1}, {m}",
            "and {p3}, {m}",
            "add {r0}, {m}",
            "adc {r1}, {p1}",
            "adc {r2}, 0",
            "adc {r3}, {p3}",
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            m = out(reg) _,
            p1 = out(reg) _,
            p3 = out(reg) _,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}
