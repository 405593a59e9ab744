//! Montgomery multiplication and squaring modulo the P-256 prime
//! p = 2^256 − 2^224 + 2^192 + 2^96 − 1 (SP 800-186 §3.2.1.3) with `MULX`
//! (BMI2) and the two carry chains of `ADCX` / `ADOX` (ADX), and add / sub.
//!
//! The same integer steps as the portable twins (`nistp256::field::mul_wide`
//! / `sqr_wide`, then `mont_reduce`): the full 512-bit product (rows of
//! `a_i·b`, low product halves in the OF chain, high halves in the CF chain)
//! or the square (the six cross products once, then doubled in the CF chain
//! while the four squares `a_i²` go in the OF chain); then four reduction
//! rounds on the low half with `m = u_i` (p ≡ −1 mod 2^64), where `m·p` is
//! `m·2^32` at limb `i + 1` (shifts) and one `MULX` by `p_3 =
//! 0xffffffff00000001` at limb `i + 3`; then the high half is added and `p`
//! subtracted from the five-limb sum, `CMOVC` keeping the sum if that
//! borrowed. Exact for every input, so bit-identical to the twins (the
//! differential test compares limbs).
//!
//! `unsafe` here is the inline assembly: it reads the 32 bytes behind
//! each reference, writes only its register operands (no stack, no memory),
//! and uses `MULX`, `ADCX` and `ADOX`, which the [`Bmi2Adx`] token proves
//! execute here; and the AVX2 table scan `p256_scan` (the [`Avx2`] token,
//! unaligned loads and stores inside its arrays). No branch, no address
//! depends on the limb values or the secret index.

use core::arch::asm;

use pqdr_common::simd::Avx2;

use super::Bmi2Adx;

/// The Montgomery reduction of the product `t0 … t7`, ending in `t4 … t7`
/// (`nistp256::field::mont_reduce`): `{a}` and `{b}` are free registers;
/// `rdx` is overwritten. Round `i` takes `m = u_i`, adds `m << 32` at
/// limb `i + 1`, `m >> 32` at `i + 2` and `m·p_3` at `i + 3`, `i + 4`; the
/// fresh limbs `u_4 … u_7` go to `b`, `t0`, `t1`, `t2` (freed by then).
macro_rules! reduce {
    () => {
        concat!(
            "mov rdx, 0xffffffff00000001\n",
            // round 0: m = t0, u4 -> b
            "mulx {b}, {lo}, {t0}\n",
            "mov {a}, {t0}\n",
            "shl {a}, 32\n",
            "shr {t0}, 32\n",
            "add {t1}, {a}\n",
            "adc {t2}, {t0}\n",
            "adc {t3}, {lo}\n",
            "adc {b}, 0\n",
            // round 1: m = t1, u5 -> t0
            "mulx {t0}, {lo}, {t1}\n",
            "mov {a}, {t1}\n",
            "shl {a}, 32\n",
            "shr {t1}, 32\n",
            "add {t2}, {a}\n",
            "adc {t3}, {t1}\n",
            "adc {b}, {lo}\n",
            "adc {t0}, 0\n",
            // round 2: m = t2, u6 -> t1
            "mulx {t1}, {lo}, {t2}\n",
            "mov {a}, {t2}\n",
            "shl {a}, 32\n",
            "shr {t2}, 32\n",
            "add {t3}, {a}\n",
            "adc {b}, {t2}\n",
            "adc {t0}, {lo}\n",
            "adc {t1}, 0\n",
            // round 3: m = t3, u7 -> t2
            "mulx {t2}, {lo}, {t3}\n",
            "mov {a}, {t3}\n",
            "shl {a}, 32\n",
            "shr {t3}, 32\n",
            "add {b}, {a}\n",
            "adc {t0}, {t3}\n",
            "adc {t1}, {lo}\n",
            "adc {t2}, 0\n",
            // s = (t4 … t7) + (b, t0, t1, t2), carry in a; then s − p, kept
            // unless the five-limb subtraction borrows.
            "xor {a:e}, {a:e}\n",
            "add {t4}, {b}\n",
            "adc {t5}, {t0}\n",
            "adc {t6}, {t1}\n",
            "adc {t7}, {t2}\n",
            "adc {a}, 0\n",
            "mov {b}, {t4}\n",
            "mov {t0}, {t5}\n",
            "mov {t1}, {t6}\n",
            "mov {t2}, {t7}\n",
            "mov {t3:e}, 0xffffffff\n",
            "sub {t4}, -1\n",
            "sbb {t5}, {t3}\n",
            "sbb {t6}, 0\n",
            "sbb {t7}, rdx\n",
            "sbb {a}, 0\n",
            "cmovc {t4}, {b}\n",
            "cmovc {t5}, {t0}\n",
            "cmovc {t6}, {t1}\n",
            "cmovc {t7}, {t2}\n",
        )
    };
}

/// One row `t += a_i·b·2^(64i)` of the product for `i ≥ 1` (`rdx` = `a_i`):
/// `$t0 … $t3` are the limbs `i … i + 3` (accumulated), `$t4` limb `i + 4`
/// (written fresh).
macro_rules! row {
    ($t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            "xor {",
            $t4,
            ":e}, {",
            $t4,
            ":e}\n", // limb i + 4 = 0, CF = OF = 0
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
            // row 0: t0 … t4 = a_0·b
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
            reduce!(),
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) r0,
            t5 = out(reg) r1,
            t6 = out(reg) r2,
            t7 = out(reg) r3,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a²·2^−256 mod p` (Montgomery), fully reduced for inputs below p,
/// bit-identical to the portable `nistp256::field::mont_sqr` on every input:
/// 10 `MULX` for the square instead of 16.
#[inline(always)]
pub(crate) fn p256_mont_sqr(token: Bmi2Adx, a: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `p256_mont_mul`: the token proves MULX, ADCX and ADOX;
    // the assembly reads only a[0..4], writes only its declared registers
    // and the flags; no stack.
    unsafe {
        asm!(
            // The cross products a_i·a_j (i < j) into t1 … t6.
            "mov rdx, [{a}]",
            "mulx {t2}, {t1}, [{a} + 8]",
            "mulx {t3}, {lo}, [{a} + 16]",
            "add {t2}, {lo}",
            "mulx {t4}, {lo}, [{a} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            "mov rdx, [{a} + 8]",
            "xor {t5:e}, {t5:e}", // CF = OF = 0
            "mulx {hi}, {lo}, [{a} + 16]",
            "adox {t3}, {lo}",
            "adcx {t4}, {hi}",
            "mulx {hi}, {lo}, [{a} + 24]",
            "adox {t4}, {lo}",
            "adcx {t5}, {hi}",
            "mov {lo:e}, 0",
            "adox {t5}, {lo}",
            "mov rdx, [{a} + 16]",
            "mulx {t6}, {lo}, [{a} + 24]",
            "add {t5}, {lo}",
            "adc {t6}, 0",
            // Doubled in the CF chain, the squares a_i² added in the OF chain.
            "xor {t7:e}, {t7:e}", // CF = OF = 0
            "mov rdx, [{a}]",
            "mulx {hi}, {t0}, rdx",
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
            reduce!(),
            a = inout(reg) a.as_ptr() => _,
            b = out(reg) _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) r0,
            t5 = out(reg) r1,
            t6 = out(reg) r2,
            t7 = out(reg) r3,
            hi = out(reg) _,
            lo = out(reg) _,
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

/// `3a mod p`, bit-identical to the portable `(a + a) + a` of
/// `nistp256::field::Fe::add` on every input (the two additions of
/// [`p256_add`] in registers, without storing `2a`): each the 257-bit sum,
/// then `p` subtracted unless that borrows (`CMOVC`).
#[inline(always)]
pub(crate) fn p256_triple(token: Bmi2Adx, a: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: plain x86-64 instructions reading a[0..4] (a valid shared
    // reference), writing only the declared registers and the flags; no
    // stack.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "mov {s0}, [{a}]",
            "mov {s1}, [{a} + 8]",
            "mov {s2}, [{a} + 16]",
            "mov {s3}, [{a} + 24]",
            "add {s0}, {s0}",
            "adc {s1}, {s1}",
            "adc {s2}, {s2}",
            "adc {s3}, {s3}",
            "adc {c}, 0",
            "mov {p1:e}, 0xffffffff",
            "mov {p3}, 0xffffffff00000001",
            "mov {d0}, {s0}",
            "mov {d1}, {s1}",
            "mov {d2}, {s2}",
            "mov {d3}, {s3}",
            "sub {d0}, -1",
            "sbb {d1}, {p1}",
            "sbb {d2}, 0",
            "sbb {d3}, {p3}",
            "sbb {c}, 0",
            "cmovc {d0}, {s0}",
            "cmovc {d1}, {s1}",
            "cmovc {d2}, {s2}",
            "cmovc {d3}, {s3}",
            // d = 2a mod p; now d + a.
            "xor {c:e}, {c:e}",
            "add {d0}, [{a}]",
            "adc {d1}, [{a} + 8]",
            "adc {d2}, [{a} + 16]",
            "adc {d3}, [{a} + 24]",
            "adc {c}, 0",
            "mov {s0}, {d0}",
            "mov {s1}, {d1}",
            "mov {s2}, {d2}",
            "mov {s3}, {d3}",
            "sub {s0}, -1",
            "sbb {s1}, {p1}",
            "sbb {s2}, 0",
            "sbb {s3}, {p3}",
            "sbb {c}, 0",
            "cmovc {s0}, {d0}",
            "cmovc {s1}, {d1}",
            "cmovc {s2}, {d2}",
            "cmovc {s3}, {d3}",
            a = in(reg) a.as_ptr(),
            c = out(reg) _,
            p1 = out(reg) _,
            p3 = out(reg) _,
            d0 = out(reg) _,
            d1 = out(reg) _,
            d2 = out(reg) _,
            d3 = out(reg) _,
            s0 = out(reg) r0,
            s1 = out(reg) r1,
            s2 = out(reg) r2,
            s3 = out(reg) r3,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a − 2b mod p`, bit-identical to the portable `(a − b) − b` of
/// `nistp256::field::Fe::sub` on every input (the two subtractions of
/// [`p256_sub`] in registers): each the difference, then `p` added under
/// the mask of the borrow.
#[inline(always)]
pub(crate) fn p256_sub2(token: Bmi2Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let _ = token;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `p256_sub`: reads a[0..4] and b[0..4], writes only the
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
            // r = (a − b) mod p; now r − b.
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

/// The masked table scan of `nist_curve` (P-256, P-384) with AVX2: `Σ_k table[k] AND m_k`
/// (OR), `m_k` all ones iff `k + 1 = idx`, four limbs per `VPAND` / `VPOR`;
/// bit-identical to the portable `nist_curve::scan` for every `idx` (0 gives
/// all zeros). `N` is a multiple of 4 up to 20: 8 (P-256's affine
/// entries), 12 (its projective ones) or 20 (P-384's projective entries,
/// 18 limbs padded).
/// Every entry is read whole; the mask comes from `VPCMPEQQ` (no branch, no
/// address depends on `idx`).
#[inline(always)]
pub(crate) fn p256_scan<const N: usize>(token: Avx2, table: &[[u64; N]; 16], idx: u64) -> [u64; N] {
    let _ = token;
    // SAFETY: the token (made only by `pqdr_common::simd::Avx2::detect`)
    // proves that AVX2 executes here.
    unsafe { scan_avx2(table, idx) }
}

/// [`p256_scan`]'s body, compiled for AVX2.
#[target_feature(enable = "avx2")]
fn scan_avx2<const N: usize>(table: &[[u64; N]; 16], idx: u64) -> [u64; N] {
    use core::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi64, _mm256_loadu_si256, _mm256_or_si256,
        _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    const { assert!(N & 3 == 0 && N <= 20) };
    let mut acc = [_mm256_setzero_si256(); 5];
    let target = _mm256_set1_epi64x(i64::from_ne_bytes(idx.to_ne_bytes()));
    let mut k = _mm256_setzero_si256();
    let one = _mm256_set1_epi64x(1);
    for entry in table {
        k = core::arch::x86_64::_mm256_add_epi64(k, one);
        let mask = _mm256_cmpeq_epi64(k, target);
        for (j, a) in acc.iter_mut().take(N >> 2).enumerate() {
            // SAFETY: `4 * j + 4 ≤ N`: the 32 bytes read lie inside `entry`
            // (an unaligned load).
            let v = unsafe { _mm256_loadu_si256(entry.as_ptr().add(4 * j).cast::<__m256i>()) };
            *a = _mm256_or_si256(*a, _mm256_and_si256(v, mask));
        }
    }
    let mut out = [0u64; N];
    for (j, a) in acc.iter().take(N >> 2).enumerate() {
        // SAFETY: `4 * j + 4 ≤ N`: the 32 bytes written lie inside `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(4 * j).cast::<__m256i>(), *a) };
    }
    out
}
