//! `n` doublings of a P-256 point in Jacobian coordinates (EFD
//! "dbl-2001-b" for a = −3, `nist_curve`'s `jacobian_double`: 4M + 4S and
//! seven additions / subtractions) as one assembly block looping `n`
//! times over a stack state of field elements, and the mixed Jacobian–affine
//! addition (EFD "madd-2004-hmv", `jacobian_add_affine`) as another, so that no value leaves the
//! block between two field operations and the out-of-order core sees whole
//! doublings at once (the X25519 ladder step's method, `x25519_ladder.rs`).
//!
//! Every field operation is the one of the separate P-256 kernels in
//! `p256.rs` (`p256_mont_mul`, `p256_mont_sqr`, `p256_add`, `p256_sub`,
//! `p256_triple`, `p256_sub2`: the same instructions on memory operands at
//! fixed offsets), so the result has the same limbs as the doublings written
//! with them, and as the portable twin (`FieldArith::jacobian_double_n` on
//! `nistp256::field::Portable`).
//!
//! `unsafe` is the inline assembly: each block reads and writes only the 320
//! bytes of the `&mut [[u64; 4]; 10]` it is given (offsets 0 … 319, fixed),
//! writes its declared registers and the flags, touches no stack, and uses
//! `MULX`, `ADCX` and `ADOX`, which the [`Bmi2Adx`] token proves execute
//! here. The only branch is the doubling loop on the public count `n`; no address
//! depends on the data.

use core::arch::asm;

use super::Bmi2Adx;

/// Slots of the state: 0 … 2 `X`, `Y`, `Z` (in and out), 3 … 8 scratch,
/// 9 the loop counter (limb 0).
pub(crate) const DBL_SLOTS: usize = 10;

/// `[s + d] = t4 … t7`.
macro_rules! store_hi {
    ($d:literal) => {
        concat!(
            "mov [{s} + ",
            $d,
            "], {t4}\n",
            "mov [{s} + ",
            $d,
            " + 8], {t5}\n",
            "mov [{s} + ",
            $d,
            " + 16], {t6}\n",
            "mov [{s} + ",
            $d,
            " + 24], {t7}\n",
        )
    };
}

/// `p256.rs`'s `reduce!` with `{hi}` for its `{a}` and `{u}` for its `{b}`:
/// the Montgomery reduction of `t0 … t7`, ending in `t4 … t7`.
macro_rules! reduce_at {
    () => {
        concat!(
            "mov rdx, 0xffffffff00000001\n",
            "mulx {u}, {lo}, {t0}\n",
            "mov {hi}, {t0}\n",
            "shl {hi}, 32\n",
            "shr {t0}, 32\n",
            "add {t1}, {hi}\n",
            "adc {t2}, {t0}\n",
            "adc {t3}, {lo}\n",
            "adc {u}, 0\n",
            "mulx {t0}, {lo}, {t1}\n",
            "mov {hi}, {t1}\n",
            "shl {hi}, 32\n",
            "shr {t1}, 32\n",
            "add {t2}, {hi}\n",
            "adc {t3}, {t1}\n",
            "adc {u}, {lo}\n",
            "adc {t0}, 0\n",
            "mulx {t1}, {lo}, {t2}\n",
            "mov {hi}, {t2}\n",
            "shl {hi}, 32\n",
            "shr {t2}, 32\n",
            "add {t3}, {hi}\n",
            "adc {u}, {t2}\n",
            "adc {t0}, {lo}\n",
            "adc {t1}, 0\n",
            "mulx {t2}, {lo}, {t3}\n",
            "mov {hi}, {t3}\n",
            "shl {hi}, 32\n",
            "shr {t3}, 32\n",
            "add {u}, {hi}\n",
            "adc {t0}, {t3}\n",
            "adc {t1}, {lo}\n",
            "adc {t2}, 0\n",
            "xor {hi:e}, {hi:e}\n",
            "add {t4}, {u}\n",
            "adc {t5}, {t0}\n",
            "adc {t6}, {t1}\n",
            "adc {t7}, {t2}\n",
            "adc {hi}, 0\n",
            "mov {u}, {t4}\n",
            "mov {t0}, {t5}\n",
            "mov {t1}, {t6}\n",
            "mov {t2}, {t7}\n",
            "mov {t3:e}, 0xffffffff\n",
            "sub {t4}, -1\n",
            "sbb {t5}, {t3}\n",
            "sbb {t6}, 0\n",
            "sbb {t7}, rdx\n",
            "sbb {hi}, 0\n",
            "cmovc {t4}, {u}\n",
            "cmovc {t5}, {t0}\n",
            "cmovc {t6}, {t1}\n",
            "cmovc {t7}, {t2}\n",
        )
    };
}

/// `p256.rs`'s `row!` with the multiplicand at `[s + b]`.
macro_rules! row_at {
    ($b:literal, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            "xor {",
            $t4,
            ":e}, {",
            $t4,
            ":e}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $b,
            "]\n",
            "adox {",
            $t0,
            "}, {lo}\n",
            "adcx {",
            $t1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $b,
            " + 8]\n",
            "adox {",
            $t1,
            "}, {lo}\n",
            "adcx {",
            $t2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $b,
            " + 16]\n",
            "adox {",
            $t2,
            "}, {lo}\n",
            "adcx {",
            $t3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $b,
            " + 24]\n",
            "adox {",
            $t3,
            "}, {lo}\n",
            "adcx {",
            $t4,
            "}, {hi}\n",
            "mov {lo:e}, 0\n",
            "adox {",
            $t4,
            "}, {lo}\n",
        )
    };
}

/// `[s + d] = [s + a]·[s + b]·2^−256 mod p` (`p256_mont_mul`).
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
            reduce_at!(),
            store_hi!($d),
        )
    };
}

/// `[s + d] = [s + a]²·2^−256 mod p` (`p256_mont_sqr`).
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
            "xor {t5:e}, {t5:e}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $a,
            " + 16]\n",
            "adox {t3}, {lo}\n",
            "adcx {t4}, {hi}\n",
            "mulx {hi}, {lo}, [{s} + ",
            $a,
            " + 24]\n",
            "adox {t4}, {lo}\n",
            "adcx {t5}, {hi}\n",
            "mov {lo:e}, 0\n",
            "adox {t5}, {lo}\n",
            "mov rdx, [{s} + ",
            $a,
            " + 16]\n",
            "mulx {t6}, {lo}, [{s} + ",
            $a,
            " + 24]\n",
            "add {t5}, {lo}\n",
            "adc {t6}, 0\n",
            "xor {t7:e}, {t7:e}\n",
            "mov rdx, [{s} + ",
            $a,
            "]\n",
            "mulx {hi}, {t0}, rdx\n",
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
            reduce_at!(),
            store_hi!($d),
        )
    };
}

/// `t4 … t7 = (t0 … t3 + lo·2^256) − p` unless that borrows (then
/// `t0 … t3`): the conditional subtraction of `p256_add`, `lo` the carry.
macro_rules! cond_sub_p {
    () => {
        concat!(
            "mov {hi:e}, 0xffffffff\n",
            "mov {u}, 0xffffffff00000001\n",
            "mov {t4}, {t0}\n",
            "mov {t5}, {t1}\n",
            "mov {t6}, {t2}\n",
            "mov {t7}, {t3}\n",
            "sub {t4}, -1\n",
            "sbb {t5}, {hi}\n",
            "sbb {t6}, 0\n",
            "sbb {t7}, {u}\n",
            "sbb {lo}, 0\n",
            "cmovc {t4}, {t0}\n",
            "cmovc {t5}, {t1}\n",
            "cmovc {t6}, {t2}\n",
            "cmovc {t7}, {t3}\n",
        )
    };
}

/// `t0 … t3 = [s + a]`.
macro_rules! load_lo {
    ($a:literal) => {
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
        )
    };
}

/// `lo:t3 … t0 = t3 … t0 + [s + b]` (the carry into `lo`, zeroed before),
/// then `mod p` into `t4 … t7` (`p256_add`'s steps).
macro_rules! add_lo_mod_p {
    ($b:literal) => {
        concat!(
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
            "adc {lo}, 0\n",
            cond_sub_p!(),
        )
    };
}

/// `[s + d] = [s + a] + [s + b] mod p` (`p256_add`).
macro_rules! add_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(
            "xor {lo:e}, {lo:e}\n",
            load_lo!($a),
            add_lo_mod_p!($b),
            store_hi!($d),
        )
    };
}

/// `[s + d] = 3·[s + a] mod p` (`p256_triple`: `2a mod p`, then `+ a mod p`).
macro_rules! triple_at {
    ($d:literal, $a:literal) => {
        concat!(
            "xor {lo:e}, {lo:e}\n",
            load_lo!($a),
            "add {t0}, {t0}\n",
            "adc {t1}, {t1}\n",
            "adc {t2}, {t2}\n",
            "adc {t3}, {t3}\n",
            "adc {lo}, 0\n",
            cond_sub_p!(),
            "xor {lo:e}, {lo:e}\n",
            "mov {t0}, {t4}\n",
            "mov {t1}, {t5}\n",
            "mov {t2}, {t6}\n",
            "mov {t3}, {t7}\n",
            add_lo_mod_p!($a),
            store_hi!($d),
        )
    };
}

/// `t4 … t7 −= [s + b] mod p` (`p256_sub`'s steps: the difference, then
/// `p` added under the mask of the borrow).
macro_rules! sub_from_hi {
    ($b:literal) => {
        concat!(
            "sub {t4}, [{s} + ",
            $b,
            "]\n",
            "sbb {t5}, [{s} + ",
            $b,
            " + 8]\n",
            "sbb {t6}, [{s} + ",
            $b,
            " + 16]\n",
            "sbb {t7}, [{s} + ",
            $b,
            " + 24]\n",
            "sbb {lo}, {lo}\n",
            "mov {hi:e}, 0xffffffff\n",
            "mov {u}, 0xffffffff00000001\n",
            "and {hi}, {lo}\n",
            "and {u}, {lo}\n",
            "add {t4}, {lo}\n",
            "adc {t5}, {hi}\n",
            "adc {t6}, 0\n",
            "adc {t7}, {u}\n",
        )
    };
}

/// `t4 … t7 = [s + a]`.
macro_rules! load_hi {
    ($a:literal) => {
        concat!(
            "mov {t4}, [{s} + ",
            $a,
            "]\n",
            "mov {t5}, [{s} + ",
            $a,
            " + 8]\n",
            "mov {t6}, [{s} + ",
            $a,
            " + 16]\n",
            "mov {t7}, [{s} + ",
            $a,
            " + 24]\n",
        )
    };
}

/// `[s + d] = [s + a] − [s + b] mod p` (`p256_sub`).
macro_rules! sub_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(load_hi!($a), sub_from_hi!($b), store_hi!($d))
    };
}

/// `[s + d] = [s + a] − 2·[s + b] mod p` (`p256_sub2`).
macro_rules! sub2_at {
    ($d:literal, $a:literal, $b:literal) => {
        concat!(
            load_hi!($a),
            sub_from_hi!($b),
            sub_from_hi!($b),
            store_hi!($d)
        )
    };
}

/// `n ≥ 1` Jacobian doublings of the point in slots 0 … 2 of `st` (in
/// place; the other slots are scratch and are left holding intermediate
/// values, which the caller wipes), bit-identical to `n` rounds of
/// `FieldArith::jacobian_double_n`'s formula on the P-256 kernels (and the
/// portable field) for inputs below p. `n = 0` leaves `st` as it is.
#[inline(always)]
pub(crate) fn p256_jacobian_double_n(token: Bmi2Adx, st: &mut [[u64; 4]; DBL_SLOTS], n: u32) {
    let _ = token;
    if n == 0 {
        return;
    }
    st[9][0] = u64::from(n);
    // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`)
    // proves that MULX (BMI2), ADCX and ADOX (ADX) execute here; the assembly
    // reads and writes only `st` (320 bytes behind a unique reference, fixed
    // offsets 0 … 319), writes only its declared registers and the flags, and
    // touches no stack; the loop count is `n ≥ 1`.
    unsafe {
        asm!(
            "2:",
            sqr_at!("96", "64"),         // δ = Z²
            sqr_at!("128", "32"),        // γ = Y²
            add_at!("128", "128", "128"), // g = 2γ
            mul_at!("160", "0", "128"),  // 2β = X·g
            add_at!("160", "160", "160"), // 4β
            sub_at!("192", "0", "96"),   // X − δ
            add_at!("224", "0", "96"),   // X + δ
            mul_at!("192", "192", "224"), // (X − δ)(X + δ)
            triple_at!("192", "192"),    // α
            sqr_at!("224", "192"),       // α²
            sub2_at!("0", "224", "160"), // X3 = α² − 2·4β
            mul_at!("256", "32", "64"),  // Y·Z
            add_at!("64", "256", "256"), // Z3 = 2·Y·Z
            sqr_at!("224", "128"),       // g²
            sub_at!("160", "160", "0"),  // 4β − X3
            mul_at!("256", "192", "160"), // α·(4β − X3)
            sub2_at!("32", "256", "224"), // Y3 = α·(4β − X3) − 2g²
            "dec qword ptr [{s} + 288]",
            "jnz 2b",
            s = in(reg) st.as_mut_ptr(),
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
            u = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// Slots of the mixed-addition state: 0 … 2 `X1`, `Y1`, `Z1` (in and out),
/// 3, 4 the affine `x2`, `y2` (in), 5 … 9 scratch.
pub(crate) const MADD_SLOTS: usize = 10;

/// The mixed Jacobian–affine addition (EFD "madd-2004-hmv", `nist_curve`'s
/// `jacobian_add_affine`: 8M + 3S) of slots 3, 4 to slots 0 … 2, in place,
/// as one block; bit-identical to `FieldArith::jacobian_add_affine` on the
/// P-256 kernels (and the portable field) for inputs below p. The scratch
/// slots are left holding intermediate values, which the caller wipes.
#[inline(always)]
pub(crate) fn p256_jacobian_madd(token: Bmi2Adx, st: &mut [[u64; 4]; MADD_SLOTS]) {
    let _ = token;
    // SAFETY: the token (made only by `pqdr_common::simd::Bmi2Adx::detect`)
    // proves that MULX (BMI2), ADCX and ADOX (ADX) execute here; the assembly
    // reads and writes only `st` (320 bytes behind a unique reference, fixed
    // offsets 0 … 319), writes only its declared registers and the flags, and
    // touches no stack. No branch.
    unsafe {
        asm!(
            sqr_at!("160", "64"),         // Z1²
            mul_at!("192", "96", "160"),  // U2 = x2·Z1²
            mul_at!("224", "64", "160"),  // Z1³
            mul_at!("224", "128", "224"), // S2 = y2·Z1³
            sub_at!("192", "192", "0"),   // H = U2 − X1
            sub_at!("224", "224", "32"),  // r = S2 − Y1
            sqr_at!("160", "192"),        // H²
            mul_at!("256", "192", "160"), // H³
            mul_at!("160", "0", "160"),   // V = X1·H²
            sqr_at!("288", "224"),        // r²
            sub_at!("288", "288", "256"), // r² − H³
            sub2_at!("0", "288", "160"),  // X3 = r² − H³ − 2V
            sub_at!("160", "160", "0"),   // V − X3
            mul_at!("160", "224", "160"), // r·(V − X3)
            mul_at!("256", "32", "256"),  // Y1·H³
            sub_at!("32", "160", "256"),  // Y3
            mul_at!("64", "64", "192"),   // Z3 = Z1·H
            s = in(reg) st.as_mut_ptr(),
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
            u = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}
