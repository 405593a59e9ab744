//! Keccak-f\[1600\]×4 with AVX-512F/VL on 256-bit registers (FIPS 202
//! §3.3, §3.4 on four states at once), **for public inputs only**: valgrind cannot execute AVX-512, so the
//! constant-time check cannot cover this code (docs/constant-time.md §8).
//! Reached only through the `_public` entry points of the crate.
//!
//! Lane `i` of the four states sits in one `ymm` register, as in the AVX2
//! kernel, but the 32 registers of AVX-512VL hold the whole state (25 lanes)
//! plus θ's column terms across all 24 rounds: the state is loaded once and
//! stored once. Per round: θ's five column parities with two `vpternlogq`
//! each (three-way XOR), D\[x\] with one `vprolq` and one XOR, ρ with one
//! `vprolq` per lane (AVX2 needs a shift pair and an OR), χ with one
//! `vpternlogq` per lane (`b0 ⊕ (¬b1 ∧ b2)`), ι with one XOR: about 96
//! vector instructions per round against about 224 for the AVX2 kernel. No
//! table lookups, no data-dependent branches or addresses.

use core::arch::x86_64::{
    __m256i, _mm256_loadu_si256, _mm256_rol_epi64, _mm256_set1_epi64x, _mm256_storeu_si256,
    _mm256_ternarylogic_epi64, _mm256_xor_si256 as xor,
};

use crate::f1600::RC;
use pqdr_common::simd::Avx512Vl;

/// Keccak-f\[1600\] on four interleaved states (`state[i][k]` is lane `i`
/// of state `k`) with AVX-512F/VL. Twin of `x4::f1600_x4_portable`. Public
/// inputs only (see the module documentation).
#[inline]
pub(crate) fn f1600_x4_avx512_public(token: Avx512Vl, state: &mut [[u64; 4]; 25]) {
    let _ = token;
    // SAFETY: the token proves AVX-512F and AVX-512VL were detected (only
    // `pqdr_common::simd::Avx512Vl::detect` makes one).
    unsafe { f1600_x4_avx512vl(state) }
}

/// `a ⊕ b ⊕ c` in one instruction (truth table 0x96).
macro_rules! xor3 {
    ($a:expr, $b:expr, $c:expr) => {
        _mm256_ternarylogic_epi64::<0x96>($a, $b, $c)
    };
}

/// χ's `a ⊕ (¬b ∧ c)` in one instruction (truth table 0xD2: with a = 0xF0,
/// b = 0xCC, c = 0xAA, ¬b ∧ c = 0x22 and a ⊕ 0x22 = 0xD2).
macro_rules! chi {
    ($a:expr, $b:expr, $c:expr) => {
        _mm256_ternarylogic_epi64::<0xD2>($a, $b, $c)
    };
}

/// ρ and π (Algorithms 2, 3) then χ (Algorithm 4) for one output row: the
/// five lanes `i` that π moves to the row, XORed with θ's column term and
/// rotated by their ρ offsets, combined by `A'[x] = B[x] ⊕ (¬B[x+1] ∧
/// B[x+2])`.
macro_rules! row {
    ($a:ident, $($i:literal ^ $dx:ident <<< $r:tt),+) => {{
        let [b0, b1, b2, b3, b4] = [$(row!(@lane $a, $i, $dx, $r)),+];
        [
            chi!(b0, b1, b2),
            chi!(b1, b2, b3),
            chi!(b2, b3, b4),
            chi!(b3, b4, b0),
            chi!(b4, b0, b1),
        ]
    }};
    (@lane $a:ident, $i:literal, $dx:ident, 0) => {
        xor($a[$i], $dx)
    };
    (@lane $a:ident, $i:literal, $dx:ident, $r:literal) => {
        _mm256_rol_epi64::<$r>(xor($a[$i], $dx))
    };
}

/// One round `Rnd(A, i_r)` (FIPS 202 §3.3) on the lanes `$a` in
/// registers: θ, ρ and π, χ, ι. A macro so that the rounds unroll inside
/// the `target_feature` function.
macro_rules! round {
    ($a:ident, $rc:expr) => {{
        let rc: u64 = $rc;
        // θ (Algorithm 1): C[x] = A[x, 0] ⊕ … ⊕ A[x, 4],
        // D[x] = C[x-1] ⊕ (C[x+1] <<< 1).
        let c: [__m256i; 5] =
            core::array::from_fn(|x| xor3!(xor3!($a[x], $a[x + 5], $a[x + 10]), $a[x + 15], $a[x + 20]));
        let d0 = xor(c[4], _mm256_rol_epi64::<1>(c[1]));
        let d1 = xor(c[0], _mm256_rol_epi64::<1>(c[2]));
        let d2 = xor(c[1], _mm256_rol_epi64::<1>(c[3]));
        let d3 = xor(c[2], _mm256_rol_epi64::<1>(c[4]));
        let d4 = xor(c[3], _mm256_rol_epi64::<1>(c[0]));
        // A[x, y] ⊕ D[x] rotated by r[x, y] lands at (y, 2x + 3y mod 5).
        let r0 = row!($a, 0 ^ d0 <<< 0, 6 ^ d1 <<< 44, 12 ^ d2 <<< 43, 18 ^ d3 <<< 21, 24 ^ d4 <<< 14);
        let r1 = row!($a, 3 ^ d3 <<< 28, 9 ^ d4 <<< 20, 10 ^ d0 <<< 3, 16 ^ d1 <<< 45, 22 ^ d2 <<< 61);
        let r2 = row!($a, 1 ^ d1 <<< 1, 7 ^ d2 <<< 6, 13 ^ d3 <<< 25, 19 ^ d4 <<< 8, 20 ^ d0 <<< 18);
        let r3 = row!($a, 4 ^ d4 <<< 27, 5 ^ d0 <<< 36, 11 ^ d1 <<< 10, 17 ^ d2 <<< 15, 23 ^ d3 <<< 56);
        let r4 = row!($a, 2 ^ d2 <<< 62, 8 ^ d3 <<< 55, 14 ^ d4 <<< 39, 15 ^ d0 <<< 41, 21 ^ d1 <<< 2);
        // ι (Algorithm 6): the round constant into lane (0, 0) of every state.
        #[allow(clippy::cast_possible_wrap, reason = "bit pattern of the constant")]
        let iota = _mm256_set1_epi64x(rc as i64);
        $a = [
            xor(r0[0], iota), r0[1], r0[2], r0[3], r0[4],
            r1[0], r1[1], r1[2], r1[3], r1[4],
            r2[0], r2[1], r2[2], r2[3], r2[4],
            r3[0], r3[1], r3[2], r3[3], r3[4],
            r4[0], r4[1], r4[2], r4[3], r4[4],
        ];
    }};
}

/// `KECCAK-p[1600, 24]` (FIPS 202 Algorithm 7) on four interleaved states,
/// the 25 lanes in registers from the first round to the last.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn f1600_x4_avx512vl(state: &mut [[u64; 4]; 25]) {
    let mut a: [__m256i; 25] = core::array::from_fn(|i| {
        // SAFETY: `state[i]` is a `[u64; 4]`, 32 readable bytes (the index
        // is bounds-checked); `loadu` has no alignment requirement.
        unsafe { _mm256_loadu_si256(state[i].as_ptr().cast::<__m256i>()) }
    });
    // Four rounds per iteration: π renames the lanes each round, and the
    // register moves that put them back for the next iteration are paid
    // once per four rounds.
    // Two rounds per iteration (112 instructions per round in the loop,
    // against 115 for one and 120 for four, where the compiler spills).
    for rc in RC.chunks_exact(2) {
        round!(a, rc[0]);
        round!(a, rc[1]);
    }
    for (i, v) in a.into_iter().enumerate() {
        // SAFETY: `state[i]` is 32 writable bytes (bounds-checked index);
        // `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(state[i].as_mut_ptr().cast::<__m256i>(), v) };
    }
}
