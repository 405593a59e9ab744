//! Keccak-f\[1600\]×4 with AVX2 (FIPS 202 §3.3, §3.4 on four states at once).
//!
//! Lane `i` of the four states sits in one 256-bit register (one 64-bit
//! element per state), so each step of a round is the scalar step done with
//! one vector instruction: rotations by a shift pair and an OR, χ with
//! `vpandn`. No table lookups, no data-dependent branches or addresses.
//!
//! The only `unsafe` in the crate: calling the `#[target_feature(enable =
//! "avx2")]` permutation behind an [`Avx2`] token (proof of detection), and the unaligned 32-byte
//! loads and stores of the lanes. The intrinsics in between are safe inside
//! a `target_feature` function (Rust ≥ 1.87).

use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
    _mm256_xor_si256 as xor,
};
use core::mem::MaybeUninit;

use crate::f1600::RC;
use pqdr_common::simd::Avx2;

mod avx512;
mod scalar;
pub(crate) use avx512::f1600_x4_avx512_public;
pub(crate) use scalar::f1600_bmi;

/// Keccak-f\[1600\] on four interleaved states: `state[i][k]` is lane `i`
/// of state `k`. Twin of `x4::f1600_x4_portable`.
#[inline]
pub(crate) fn f1600_x4(token: Avx2, state: &mut [[u64; 4]; 25]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
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

/// Reads lane `i` of the four states (one 256-bit value).
#[target_feature(enable = "avx2")]
#[inline]
fn ld(s: &[[u64; 4]; 25], i: usize) -> __m256i {
    // SAFETY: `s[i]` is a `[u64; 4]`, 32 readable bytes (the index is
    // bounds-checked); `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(s[i].as_ptr().cast::<__m256i>()) }
}

/// Writes lane `i` of the four states.
///
/// # Safety
/// `d` must be valid for writes of a `[[u64; 4]; 25]` (it may be
/// uninitialised) and `i < 25`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn st(d: *mut [[u64; 4]; 25], i: usize, v: __m256i) {
    debug_assert!(i < 25);
    // SAFETY: by the contract, lane `i` of `d` is 32 writable bytes;
    // `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(d.cast::<[u64; 4]>().add(i).cast::<__m256i>(), v) }
}

/// ρ and π (Algorithms 2, 3) then χ (Algorithm 4) for output row `y`:
/// input lanes `i0..i4` (the five that π moves to row `y`) are XORed with
/// θ's column term, rotated by their ρ offsets, combined by
/// `A'[x] = B[x] ⊕ (¬B[x+1] ∧ B[x+2])` and stored to lanes `5y..5y + 4` of
/// `d`. Only this row's values are live, so few registers are needed. Row 0
/// passes ι's round constant, XORed into its lane 0 (the other rows pass
/// none: the XOR with zero is folded away).
macro_rules! row {
    ($s:ident, $d:ident, $y:literal, $($i:literal ^ $dx:ident <<< $r:tt),+) => {
        row!($s, $d, $y, _mm256_set1_epi64x(0), $($i ^ $dx <<< $r),+)
    };
    ($s:ident, $d:ident, $y:literal, $iota:expr, $($i:literal ^ $dx:ident <<< $r:tt),+) => {{
        let [b0, b1, b2, b3, b4] = [$(row!(@lane $s, $i, $dx, $r)),+];
        let out = [
            xor(xor(b0, _mm256_andnot_si256(b1, b2)), $iota),
            xor(b1, _mm256_andnot_si256(b2, b3)),
            xor(b2, _mm256_andnot_si256(b3, b4)),
            xor(b3, _mm256_andnot_si256(b4, b0)),
            xor(b4, _mm256_andnot_si256(b0, b1)),
        ];
        for (x, v) in out.into_iter().enumerate() {
            // SAFETY: `$d` is valid for writes of the 25 lanes (`round!`)
            // and `5y + x < 25`.
            unsafe { st($d, 5 * $y + x, v) };
        }
    }};
    (@lane $s:ident, $i:literal, $dx:ident, 0) => {
        xor(ld($s, $i), $dx)
    };
    (@lane $s:ident, $i:literal, $dx:ident, $r:literal) => {
        rol!(xor(ld($s, $i), $dx), $r)
    };
}

/// The column parities `C[x] = A[x, 0] ⊕ … ⊕ A[x, 4]` of θ (Algorithm 1).
#[target_feature(enable = "avx2")]
#[inline]
fn parities(s: &[[u64; 4]; 25]) -> [__m256i; 5] {
    core::array::from_fn(|x| {
        xor(
            xor(
                xor(ld(s, x), ld(s, x + 5)),
                xor(ld(s, x + 10), ld(s, x + 15)),
            ),
            ld(s, x + 20),
        )
    })
}

/// One round `Rnd(A, i_r)` (FIPS 202 §3.3) from `$s` into `$d`, lane
/// `A[x, y]` at index `x + 5y`: θ, then per output row the five lanes that
/// ρ and π move there, combined by χ, ι on lane 0. The states stay in
/// memory: each lane is loaded about twice (θ's parities, then its row) and
/// stored once per round, so no state copy sits in the frame. `$s` goes
/// through `black_box` so that the compiler reloads the lanes rather than
/// keeping the previous round's stores in (spilled) registers. A macro
/// rather than a function: an `avx2` function cannot be
/// `#[inline(always)]`, and a call per round costs instructions.
macro_rules! round {
    ($s:expr, $d:expr, $rc:expr) => {{
        // `d` is a pointer so that the first round can write the
        // uninitialised scratch state; it is always valid for writes of the
        // 25 lanes and not aliased by `s`.
        let (s, d): (&[[u64; 4]; 25], *mut [[u64; 4]; 25]) = (core::hint::black_box($s), $d);
        // θ (Algorithm 1): column parities C[x], D[x] = C[x-1] ⊕ (C[x+1] <<< 1).
        let c = parities(s);
        let d0 = xor(c[4], rol!(c[1], 1));
        let d1 = xor(c[0], rol!(c[2], 1));
        let d2 = xor(c[1], rol!(c[3], 1));
        let d3 = xor(c[2], rol!(c[4], 1));
        let d4 = xor(c[3], rol!(c[0], 1));
        // A[x, y] ⊕ D[x] rotated by r[x, y] lands at (y, 2x + 3y mod 5);
        // ι (Algorithm 6): the round constant into lane (0, 0) of every state.
        #[allow(clippy::cast_possible_wrap, reason = "bit pattern of the constant")]
        let rc = _mm256_set1_epi64x($rc as i64);
        row!(s, d, 0, rc, 0 ^ d0 <<< 0, 6 ^ d1 <<< 44, 12 ^ d2 <<< 43, 18 ^ d3 <<< 21, 24 ^ d4 <<< 14);
        row!(s, d, 1, 3 ^ d3 <<< 28, 9 ^ d4 <<< 20, 10 ^ d0 <<< 3, 16 ^ d1 <<< 45, 22 ^ d2 <<< 61);
        row!(s, d, 2, 1 ^ d1 <<< 1, 7 ^ d2 <<< 6, 13 ^ d3 <<< 25, 19 ^ d4 <<< 8, 20 ^ d0 <<< 18);
        row!(s, d, 3, 4 ^ d4 <<< 27, 5 ^ d0 <<< 36, 11 ^ d1 <<< 10, 17 ^ d2 <<< 15, 23 ^ d3 <<< 56);
        row!(s, d, 4, 2 ^ d2 <<< 62, 8 ^ d3 <<< 55, 14 ^ d4 <<< 39, 15 ^ d0 <<< 41, 21 ^ d1 <<< 2);
    }};
}

/// `KECCAK-p[1600, 24]` (FIPS 202 Algorithm 7) on four interleaved states,
/// in place: the rounds alternate between `state` and one scratch copy.
///
/// Stack: the frame is about that one copy (864 bytes). Both states go
/// through `black_box`, so the compiler cannot tell that they are distinct
/// and keeps each lane in memory between rounds, instead of holding the
/// two states in registers and spilling most of them (the two-array
/// version had a 2,464-byte frame, for about 3 % fewer instructions). The
/// hints affect only code generation, never the result.
///
/// The scratch copy is not zero-filled first (the first round writes all 25
/// of its lanes before any is read) and is wiped afterwards with 25 aligned
/// 32-byte volatile stores (it holds secret intermediate states), instead of
/// an 800-byte memset before and 100 8-byte volatile writes after.
#[target_feature(enable = "avx2")]
fn f1600_x4_avx2(state: &mut [[u64; 4]; 25]) {
    // 32-byte aligned, so that the wipe below can store whole registers.
    let mut scratch = MaybeUninit::<[__m256i; 25]>::uninit();
    let a = core::hint::black_box(state);
    let e = core::hint::black_box(scratch.as_mut_ptr().cast::<[[u64; 4]; 25]>());
    // `e` points to the 800 bytes of `scratch` (same size as
    // `[[u64; 4]; 25]`, alignment 32 ≥ 8), which nothing else references:
    // the first round (from `a`) writes every lane of it, rows 0..4 × 5.
    round!(&*a, e, RC[0]);
    // SAFETY: `e` is valid, aligned and now fully initialised (above); the
    // only other access to `scratch` is the wipe, after the last use of `e`.
    let e = unsafe { &mut *e };
    round!(e, a, RC[1]);
    for rc in RC[2..].chunks_exact(2) {
        round!(a, e, rc[0]);
        round!(e, a, rc[1]);
    }
    // Wipe the intermediate state (secret whenever the input is): one
    // volatile 32-byte store per lane of the four states, then a fence so
    // that later code is not moved before it (as `zeroize` does).
    let p = scratch.as_mut_ptr().cast::<__m256i>();
    for i in 0..25 {
        // SAFETY: `p.add(i)` for `i < 25` is inside `scratch`
        // (`[__m256i; 25]`), aligned to 32 bytes and writable; `e` is no
        // longer used.
        unsafe { core::ptr::write_volatile(p.add(i), _mm256_setzero_si256()) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}
