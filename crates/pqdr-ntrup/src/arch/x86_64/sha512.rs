//! The SHA-512 compression function with AVX2 (FIPS 180-4 §6.4.2), twin of
//! `sha512::compress_portable`: the message schedule (step 1) of two blocks
//! at once, words t and t + 1 of the first block in the low 128 bits of a
//! register and of the second block in the high 128 bits, with `K_t` added
//! before it is stored; the rounds (step 3) are the portable ones
//! (`sha512::Working::round`), compiled here with BMI2 so that each
//! rotation is one `rorx`. The first block's rounds are interleaved with the
//! schedule of both blocks (two rounds per schedule step), then the second
//! block's rounds read its stored words. An odd last block is scheduled in
//! both halves and compressed once. Every index and branch depends on the
//! number of blocks only.

use crate::sha512::{BLOCK, K, Working, unroll};
use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_broadcastsi128_si256,
    _mm256_castsi128_si256, _mm256_inserti128_si256, _mm256_set_epi64x, _mm256_shuffle_epi8,
    _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_xor_si256,
};
use pqdr_common::simd::{Avx2, Bmi1Bmi2};

/// Compresses `blocks` into `h`, two at a time (twin:
/// `sha512::compress_portable`; test `sha512::tests::kernels_match_sha2`).
pub(crate) fn sha512_blocks(token: Avx2, bmi: Bmi1Bmi2, h: &mut [u64; 8], blocks: &[[u8; BLOCK]]) {
    let _ = (token, bmi);
    let (pairs, rest) = blocks.as_chunks::<2>();
    for [a, b] in pairs {
        // SAFETY: the tokens prove AVX2, BMI1 and BMI2 were detected.
        unsafe { compress2::<true>(h, a, b) }
    }
    if let [a] = rest {
        // SAFETY: the tokens prove AVX2, BMI1 and BMI2 were detected.
        unsafe { compress2::<false>(h, a, a) }
    }
}

/// Blocks `a` and (if `TWO`) `b` into `h`. `wk[t / 2]` holds
/// `K_t + W_t`, `K_{t+1} + W_{t+1}` of `a`, then the same two of `b`.
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress2<const TWO: bool>(h: &mut [u64; 8], a: &[u8; BLOCK], b: &[u8; BLOCK]) {
    let mut wk = [[0u64; 4]; 40];
    // Step 1, t < 16: the big-endian words of both blocks.
    let mut x: [__m256i; 8] = core::array::from_fn(|i| load_words(a, b, i));
    for (i, x) in x.iter().enumerate() {
        store(&mut wk[i], _mm256_add_epi64(*x, k_pair(i)));
    }
    let mut s = Working::new(h);
    // Rounds 0..64 of `a`, each pair beside the schedule of words 16 on.
    for g in 1..5 {
        unroll!(J in [0, 1, 2, 3, 4, 5, 6, 7] {
            let w = schedule(&x, J);
            x[J] = w;
            store(&mut wk[8 * g + J], _mm256_add_epi64(w, k_pair(8 * g + J)));
            let [w0, w1, _, _] = wk[8 * (g - 1) + J];
            s.round(w0);
            s.round(w1);
        });
    }
    unroll!(J in [0, 1, 2, 3, 4, 5, 6, 7] {
        let [w0, w1, _, _] = wk[32 + J];
        s.round(w0);
        s.round(w1);
    });
    s.add_into(h);
    if TWO {
        let mut s = Working::new(h);
        for g in 0..5 {
            unroll!(J in [0, 1, 2, 3, 4, 5, 6, 7] {
                let [_, _, w0, w1] = wk[8 * g + J];
                s.round(w0);
                s.round(w1);
            });
        }
        s.add_into(h);
    }
}

/// Words 2i and 2i + 1 of `a` (low half) and of `b` (high half), from
/// big-endian bytes.
#[target_feature(enable = "avx2")]
#[inline]
fn load_words(a: &[u8; BLOCK], b: &[u8; BLOCK], i: usize) -> __m256i {
    let (a, b) = (&a[16 * i..16 * i + 16], &b[16 * i..16 * i + 16]);
    // SAFETY: `a` and `b` are 16 readable bytes each; `loadu` has no
    // alignment requirement.
    let (a, b) = unsafe {
        (
            _mm_loadu_si128(a.as_ptr().cast()),
            _mm_loadu_si128(b.as_ptr().cast()),
        )
    };
    let both = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(a), b);
    // Reverses the bytes of each 64-bit word.
    let swap = _mm256_set_epi64x(
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
    );
    _mm256_shuffle_epi8(both, swap)
}

/// `K_{2i}`, `K_{2i+1}` in both halves.
#[target_feature(enable = "avx2")]
#[inline]
fn k_pair(i: usize) -> __m256i {
    let k = &K[2 * i..2 * i + 2];
    // SAFETY: `k` is 16 readable bytes; `loadu` has no alignment requirement.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(k.as_ptr().cast()) })
}

/// Stores the four words of `v` into `x`.
#[target_feature(enable = "avx2")]
#[inline]
fn store(x: &mut [u64; 4], v: __m256i) {
    // SAFETY: `x` is 32 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
}

/// `ROTR^R(x) ⊕ ROTR^S(x) ⊕ SHR^N(x)` on each 64-bit word (`L = 64 - R`,
/// `M = 64 - S`: the shift counts of the rotations' other halves).
#[target_feature(enable = "avx2")]
#[inline]
fn sigma<const R: i32, const L: i32, const S: i32, const M: i32, const N: i32>(
    x: __m256i,
) -> __m256i {
    let r = _mm256_xor_si256(_mm256_srli_epi64::<R>(x), _mm256_slli_epi64::<L>(x));
    let s = _mm256_xor_si256(_mm256_srli_epi64::<S>(x), _mm256_slli_epi64::<M>(x));
    _mm256_xor_si256(_mm256_xor_si256(r, s), _mm256_srli_epi64::<N>(x))
}

/// Step 1 for t ≥ 16, two words of each block: with `x[j]` holding
/// `W_{t-16}`, `W_{t-15}` (and `x[j + k mod 8]` the words 2k later),
/// `W_t = σ1(W_{t-2}) + W_{t-7} + σ0(W_{t-15}) + W_{t-16}` and the same for
/// t + 1 (FIPS 180-4 §6.4.2, σ0 and σ1 from §4.1.3 (4.12), (4.13)).
#[target_feature(enable = "avx2")]
#[inline]
fn schedule(x: &[__m256i; 8], j: usize) -> __m256i {
    let w16 = x[j];
    let w15 = _mm256_alignr_epi8::<8>(x[(j + 1) & 7], w16);
    let w7 = _mm256_alignr_epi8::<8>(x[(j + 5) & 7], x[(j + 4) & 7]);
    let w2 = x[(j + 7) & 7];
    let s0 = sigma::<1, 63, 8, 56, 7>(w15);
    let s1 = sigma::<19, 45, 61, 3, 6>(w2);
    _mm256_add_epi64(_mm256_add_epi64(w16, s0), _mm256_add_epi64(w7, s1))
}
