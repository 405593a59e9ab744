//! A batch of 59 Bernstein–Yang division steps ("Fast constant-time gcd
//! computation and modular inversion", TCHES 2019(3); the half-delta form
//! of libsecp256k1's `modinv64`) for the inversion modulo 2^255 − 19
//! (`x25519::invert`): the loop of the portable twin
//! `x25519::field::divsteps_59` in registers, every selection by masks
//! from `SAR` and `NEG` (no `CMOV`, no branch on the data), so the serial
//! chain of the 59 steps costs no memory round trips.
//!
//! `unsafe` is the inline assembly: it touches no memory and no stack and
//! writes only its declared registers and the flags; its one branch is the
//! loop counter (59 rounds, public). The [`Bmi2Adx`] token only marks the
//! path (the instructions are baseline x86-64).

use core::arch::asm;

use super::Bmi2Adx;

/// 59 divsteps from `ζ`, `f0` (odd), `g0`: the new `ζ` and the transition
/// matrix `[u, v, q, r]` scaled by 2^62, the same integers as
/// `x25519::field::divsteps_59` for every input.
#[inline(always)]
pub(crate) fn fe_divsteps_59(token: Bmi2Adx, zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    let _ = token;
    let (mut zeta, mut f, mut g) = (zeta, f0, g0);
    let (mut u, mut v, mut q, mut r) = (8u64, 0u64, 0u64, 8u64);
    // SAFETY: plain x86-64 register instructions: no memory, no stack, only
    // the declared registers and the flags are written; the loop runs 59
    // times (the counter is a constant).
    unsafe {
        asm!(
            "mov {cnt:e}, 59",
            "2:",
            // m1 = all ones iff ζ < 0; m2 = all ones iff g is odd.
            "mov {m1}, {zeta}",
            "sar {m1}, 63",
            "mov {m2}, {g}",
            "and {m2}, 1",
            "neg {m2}",
            // x, y, z = f, u, v negated iff ζ < 0, kept iff g is odd.
            "mov {x}, {f}",
            "xor {x}, {m1}",
            "sub {x}, {m1}",
            "mov {y}, {u}",
            "xor {y}, {m1}",
            "sub {y}, {m1}",
            "mov {z}, {v}",
            "xor {z}, {m1}",
            "sub {z}, {m1}",
            "and {x}, {m2}",
            "and {y}, {m2}",
            "and {z}, {m2}",
            "add {g}, {x}",
            "add {q}, {y}",
            "add {r}, {z}",
            // m1 = all ones iff ζ < 0 and g was odd: ζ ← −ζ − 2, and
            // f, u, v gain g, q, r; else ζ ← ζ − 1.
            "and {m1}, {m2}",
            "xor {zeta}, {m1}",
            "sub {zeta}, 1",
            "mov {x}, {g}",
            "and {x}, {m1}",
            "add {f}, {x}",
            "mov {y}, {q}",
            "and {y}, {m1}",
            "add {u}, {y}",
            "mov {z}, {r}",
            "and {z}, {m1}",
            "add {v}, {z}",
            "shr {g}, 1",
            "add {u}, {u}",
            "add {v}, {v}",
            "dec {cnt:e}",
            "jnz 2b",
            zeta = inout(reg) zeta,
            f = inout(reg) f,
            g = inout(reg) g,
            u = inout(reg) u,
            v = inout(reg) v,
            q = inout(reg) q,
            r = inout(reg) r,
            m1 = out(reg) _,
            m2 = out(reg) _,
            x = out(reg) _,
            y = out(reg) _,
            z = out(reg) _,
            cnt = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    let _ = (f, g);
    (
        zeta,
        [
            u.cast_signed(),
            v.cast_signed(),
            q.cast_signed(),
            r.cast_signed(),
        ],
    )
}
