//! Keccak-f\[1600\]×4 with AVX2 (FIPS 202 §3.3, §3.4 on four states at once).
//!
//! Lane `i` of the four states sits in one 256-bit register (one 64-bit
//! element per state), so each step of a round is the scalar step done with
//! one vector instruction: rotations by a shift pair and an OR, χ with
//! `vpandn`. No table lookups, no data-dependent branches or addresses.
//!
//! The only `unsafe` in the crate: calling the `#[target_feature(enable =
//! "avx2")]` permutation after run-time detection, and the unaligned 32-byte
//! loads and stores of the lanes. The intrinsics in between are safe inside
//! a `target_feature` function (Rust ≥ 1.87).

use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_xor_si256 as xor,
};
use zeroize::Zeroize;

use crate::f1600::RC;

cpufeatures::new!(avx2_cpuid, "avx2");

/// Whether this CPU (and OS) supports AVX2; the result is cached.
#[inline]
pub(crate) fn has_avx2() -> bool {
    avx2_cpuid::get()
}

/// Keccak-f\[1600\] on four interleaved states: `state[i][k]` is lane `i`
/// of state `k`. The caller must have seen [`has_avx2`] return `true`
/// (the `Backend` type holds that proof).
#[inline]
pub(crate) fn f1600_x4(state: &mut [[u64; 4]; 25]) {
    debug_assert!(has_avx2());
    // SAFETY: `Backend::avx2` is only constructed after `has_avx2()` returned
    // true, and this is only reached through such a `Backend`: the CPU
    // executes AVX2.
    unsafe { f1600_x4_avx2(state) }
}

/// `a <<< n` in each 64-bit element.
macro_rules! rol {
    ($a:expr, $n:literal) => {{
        let a = $a;
        _mm256_or_si256(
            _mm256_slli_epi64::<$n>(a),
            _mm256_srli_epi64::<{ 64 - $n }>(a),
        )
    }};
}

/// χ (FIPS 202 Algorithm 4) on one row: `A'[x] = b[x] ⊕ (¬b[x+1] ∧ b[x+2])`.
macro_rules! chi_row {
    ($d:ident, $y:literal, $b0:expr, $b1:expr, $b2:expr, $b3:expr, $b4:expr) => {{
        let (b0, b1, b2, b3, b4) = ($b0, $b1, $b2, $b3, $b4);
        $d[5 * $y] = xor(b0, _mm256_andnot_si256(b1, b2));
        $d[5 * $y + 1] = xor(b1, _mm256_andnot_si256(b2, b3));
        $d[5 * $y + 2] = xor(b2, _mm256_andnot_si256(b3, b4));
        $d[5 * $y + 3] = xor(b3, _mm256_andnot_si256(b4, b0));
        $d[5 * $y + 4] = xor(b4, _mm256_andnot_si256(b0, b1));
    }};
}

/// One round `Rnd(A, i_r)` (FIPS 202 §3.3) from `s` into `d`, lane
/// `A[x, y]` at index `x + 5y`: θ, then per output row the five lanes that
/// ρ and π move there, combined by χ; ι last.
#[target_feature(enable = "avx2")]
#[inline]
fn round(s: &[__m256i; 25], d: &mut [__m256i; 25], rc: u64) {
    // θ (Algorithm 1).
    let c0 = xor(xor(xor(s[0], s[5]), xor(s[10], s[15])), s[20]);
    let c1 = xor(xor(xor(s[1], s[6]), xor(s[11], s[16])), s[21]);
    let c2 = xor(xor(xor(s[2], s[7]), xor(s[12], s[17])), s[22]);
    let c3 = xor(xor(xor(s[3], s[8]), xor(s[13], s[18])), s[23]);
    let c4 = xor(xor(xor(s[4], s[9]), xor(s[14], s[19])), s[24]);
    let d0 = xor(c4, rol!(c1, 1));
    let d1 = xor(c0, rol!(c2, 1));
    let d2 = xor(c1, rol!(c3, 1));
    let d3 = xor(c2, rol!(c4, 1));
    let d4 = xor(c3, rol!(c0, 1));
    // ρ (Algorithm 2) and π (Algorithm 3): A[x, y] ⊕ D[x] rotated by r[x, y]
    // lands at (y, 2x + 3y mod 5); then χ (Algorithm 4) per output row.
    chi_row!(
        d,
        0,
        xor(s[0], d0),
        rol!(xor(s[6], d1), 44),
        rol!(xor(s[12], d2), 43),
        rol!(xor(s[18], d3), 21),
        rol!(xor(s[24], d4), 14)
    );
    chi_row!(
        d,
        1,
        rol!(xor(s[3], d3), 28),
        rol!(xor(s[9], d4), 20),
        rol!(xor(s[10], d0), 3),
        rol!(xor(s[16], d1), 45),
        rol!(xor(s[22], d2), 61)
    );
    chi_row!(
        d,
        2,
        rol!(xor(s[1], d1), 1),
        rol!(xor(s[7], d2), 6),
        rol!(xor(s[13], d3), 25),
        rol!(xor(s[19], d4), 8),
        rol!(xor(s[20], d0), 18)
    );
    chi_row!(
        d,
        3,
        rol!(xor(s[4], d4), 27),
        rol!(xor(s[5], d0), 36),
        rol!(xor(s[11], d1), 10),
        rol!(xor(s[17], d2), 15),
        rol!(xor(s[23], d3), 56)
    );
    chi_row!(
        d,
        4,
        rol!(xor(s[2], d2), 62),
        rol!(xor(s[8], d3), 55),
        rol!(xor(s[14], d4), 39),
        rol!(xor(s[15], d0), 41),
        rol!(xor(s[21], d1), 2)
    );
    // ι (Algorithm 6): the round constant into lane (0, 0) of every state.
    #[allow(clippy::cast_possible_wrap, reason = "bit pattern of the constant")]
    let rc = _mm256_set1_epi64x(rc as i64);
    d[0] = xor(d[0], rc);
}

/// `KECCAK-p[1600, 24]` (FIPS 202 Algorithm 7) on four interleaved states.
#[target_feature(enable = "avx2")]
fn f1600_x4_avx2(state: &mut [[u64; 4]; 25]) {
    let mut a = [_mm256_set1_epi64x(0); 25];
    for (v, lane) in a.iter_mut().zip(state.iter()) {
        // SAFETY: `lane` is a `[u64; 4]`, 32 readable bytes; `loadu` has no
        // alignment requirement.
        *v = unsafe { _mm256_loadu_si256(lane.as_ptr().cast::<__m256i>()) };
    }
    let mut e = [_mm256_set1_epi64x(0); 25];
    for rc in RC.chunks_exact(2) {
        round(&a, &mut e, rc[0]);
        round(&e, &mut a, rc[1]);
    }
    for (v, lane) in a.iter().zip(state.iter_mut()) {
        // SAFETY: `lane` is a `[u64; 4]`, 32 writable bytes; `storeu` has no
        // alignment requirement.
        unsafe { _mm256_storeu_si256(lane.as_mut_ptr().cast::<__m256i>(), *v) };
    }
    // Intermediate states (secret whenever the inputs are).
    a.zeroize();
    e.zeroize();
}
