//! A run of 30 Bernstein–Yang division steps ("Fast constant-time gcd
//! computation and modular inversion", TCHES 2019(3); the half-delta form
//! of libsecp256k1's `modinv64`) for the inversion modulo 2^255 − 19
//! (`x25519::invert`, two runs per batch): the loop of the portable twin
//! `x25519::field::divsteps_30` in registers, every selection by masks
//! from `SAR` and `NEG` (no `CMOV`, no branch on the data).
//!
//! Two matrix entries share a register: after at most 30 steps every entry
//! lies in `[−2^30, 2^30]`, so `u + 2^32·v` and `q + 2^32·r` (mod 2^64)
//! determine `u, v, q, r`, and every operation of a step (conditional
//! negation, addition, doubling) is linear, so it acts on the packed sum as
//! on each entry: two registers fewer to update per step than the 59-step
//! form (28 instructions per step, the loop counter included, instead of
//! 37).
//!
//! `unsafe` is the inline assembly: it touches no memory and no stack and
//! writes only its declared registers and the flags; its one branch is the
//! loop counter (30 rounds, public). The [`Bmi2Adx`] token only marks the
//! path (the instructions are baseline x86-64).

use core::arch::asm;

use super::Bmi2Adx;

/// 30 divsteps from `ζ`, `f0` (odd), `g0`: the new `ζ` and the transition
/// matrix `[u, v, q, r]` scaled by 2^30, the same integers as
/// `x25519::field::divsteps_30` for every input.
#[inline(always)]
pub(crate) fn fe_divsteps_30(token: Bmi2Adx, zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    let _ = token;
    let (mut zeta, mut f, mut g) = (zeta, f0, g0);
    // uv = u + 2^32·v, qr = q + 2^32·r: the identity matrix.
    let (mut uv, mut qr) = (1u64, 1u64 << 32);
    // SAFETY: plain x86-64 register instructions: no memory, no stack, only
    // the declared registers and the flags are written; the loop runs 30
    // times (the counter is a constant).
    unsafe {
        asm!(
            "mov {cnt:e}, 30",
            "2:",
            // m1 = all ones iff ζ < 0; m2 = all ones iff g is odd.
            "mov {m1}, {zeta}",
            "sar {m1}, 63",
            "mov {m2}, {g}",
            "and {m2}, 1",
            "neg {m2}",
            // x, y = f, uv negated iff ζ < 0, kept iff g is odd.
            "mov {x}, {f}",
            "xor {x}, {m1}",
            "sub {x}, {m1}",
            "mov {y}, {uv}",
            "xor {y}, {m1}",
            "sub {y}, {m1}",
            "and {x}, {m2}",
            "and {y}, {m2}",
            "add {g}, {x}",
            "add {qr}, {y}",
            // m1 = all ones iff ζ < 0 and g was odd: ζ ← −ζ − 2, and
            // f, uv gain g, qr; else ζ ← ζ − 1.
            "and {m1}, {m2}",
            "xor {zeta}, {m1}",
            "sub {zeta}, 1",
            "mov {x}, {g}",
            "and {x}, {m1}",
            "add {f}, {x}",
            "mov {y}, {qr}",
            "and {y}, {m1}",
            "add {uv}, {y}",
            "shr {g}, 1",
            "add {uv}, {uv}",
            "dec {cnt:e}",
            "jnz 2b",
            zeta = inout(reg) zeta,
            f = inout(reg) f,
            g = inout(reg) g,
            uv = inout(reg) uv,
            qr = inout(reg) qr,
            m1 = out(reg) _,
            m2 = out(reg) _,
            x = out(reg) _,
            y = out(reg) _,
            cnt = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    let _ = (f, g);
    let (u, q) = (low32(uv), low32(qr));
    let (v, r) = (
        uv.wrapping_sub(u.cast_unsigned()).cast_signed() >> 32,
        qr.wrapping_sub(q.cast_unsigned()).cast_signed() >> 32,
    );
    (zeta, [u, v, q, r])
}

/// The low 32 bits of `x` as a signed value (sign-extended).
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the low 32 bits, by design"
)]
fn low32(x: u64) -> i64 {
    i64::from(x as u32 as i32)
}
