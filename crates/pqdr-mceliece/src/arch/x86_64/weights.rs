//! `Decode`'s weights 1/g(a)^2 (Classic McEliece spec §2.3.3; McBits §5,
//! the syndrome's scaling) for all 2^m field elements on AVX2: one batch
//! inversion (Montgomery's trick) over 256-bit registers, entry j and
//! entry j + h (h = half the entries) side by side in one register per
//! plane, so each chain step is one 256-wide product with no repacking:
//! - forward, the prefix products p_j = g_0 .. g_j (per lane), p_0 .. p_(h-2)
//!   kept in a local array of 256-bit pairs that is never zero-filled (each
//!   slot is written before it is read; wiped at the end);
//! - one inversion of p_(h-1) on all 256 lanes (an Itoh–Tsujii chain, as
//!   `inv_x2`);
//! - backward, 1/g_j = (1/p_j) p_(j-1) and 1/p_(j-1) = (1/p_j) g_j.
//!
//! 1/g^2 = (1/g)^2 (squaring is linear in the planes), so g itself is
//! chained and only each output is squared: one squaring per pair.
//! Products: 3(h - 1) + 4 or 5; no table, branch or address depends on g.
//! Portable twin: `crate::decrypt::weights_portable` (squares, then
//! `batch_inv`); differential test `decrypt::tests::avx2_inv_sq_matches_portable`.

use super::{Bitsliced, load2x2, mul, mul_planes, mul_planes_inline, sq_n, sq_planes, store2x2};
use crate::arch::{VALUE_ENTRIES as MAX_ENTRIES, ValueArray as Values};
use crate::params::{MAX_M, MAX_Q_WORDS};
use core::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_cvtsi32_si128, _mm_loadu_si128, _mm_set1_epi64x,
    _mm_setzero_si128, _mm_storeu_si128, _mm256_and_si256, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_packs_epi16, _mm256_permute4x64_epi64, _mm256_setzero_si256,
    _mm256_sll_epi16, _mm256_xor_si256,
};
use core::mem::MaybeUninit;
use zeroize::Zeroize;

/// `vals[i] <- 1/vals[i]^2` lane by lane for every entry (their count even,
/// at most `MAX_ENTRIES`, every lane nonzero; planes from m on left as they
/// are). m = 12 or 13 (the spec's fields).
pub(crate) fn inv_sq_batch(token: super::Avx2, m: usize, vals: &mut [Bitsliced<2>]) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe {
        if m == 12 {
            inv_sq_batch_avx2::<12>(vals);
        } else {
            inv_sq_batch_avx2::<13>(vals);
        }
    }
}

/// `out` = `w` masked by the bit vector `bits` (`Decode`'s syndrome input,
/// Classic McEliece spec §2.3.3: lane k of entry e's word l kept iff bit
/// 64 (2e + l) + k of `bits` is set) on the set's 2^(m-7) entries and m
/// planes, zero everywhere else: every byte of `out` is written, so it
/// needs no zero-fill before. Returns `out`, initialised. m = 12 or 13.
pub(crate) fn masked_init<'a>(
    token: super::Avx2,
    m: usize,
    out: &'a mut MaybeUninit<Values>,
    w: &Values,
    bits: &[u64; MAX_Q_WORDS],
) -> &'a mut Values {
    let _ = token;
    let p = out.as_mut_ptr().cast::<[u64; 2]>();
    // SAFETY: the token proves AVX2 was detected; `p` points to the
    // MAX_ENTRIES MAX_M slots of 16 bytes `out` holds (no padding), and
    // with FULL every one of them is written, so `out` is initialised.
    unsafe {
        masked_for_m::<true>(m, p, w, bits);
        out.assume_init_mut()
    }
}

/// `out` = `w` masked by `bits` (as [`masked_init`]) on the set's entries
/// and planes; the rest of `out` is left as it is. m = 12 or 13.
pub(crate) fn masked(
    token: super::Avx2,
    m: usize,
    out: &mut Values,
    w: &Values,
    bits: &[u64; MAX_Q_WORDS],
) {
    let _ = token;
    let p = out.as_mut_ptr().cast::<[u64; 2]>();
    // SAFETY: the token proves AVX2 was detected; `p` points to the
    // MAX_ENTRIES MAX_M writable slots of `out`.
    unsafe { masked_for_m::<false>(m, p, w, bits) }
}

/// [`masked_avx2`] for m = 12 or 13 (the same requirement on `out`).
#[target_feature(enable = "avx2")]
fn masked_for_m<const FULL: bool>(
    m: usize,
    out: *mut [u64; 2],
    w: &Values,
    bits: &[u64; MAX_Q_WORDS],
) {
    if m == 12 {
        masked_avx2::<12, FULL>(out, w, bits);
    } else {
        masked_avx2::<13, FULL>(out, w, bits);
    }
}

/// Slot (e, b) (16 bytes at `out` + 16 (MAX_M e + b)) = plane b of w's
/// entry e AND the entry's two words of `bits`, for the set's entries
/// e < 2^(M-7) and planes b < M; with FULL also zero in every other slot
/// of the MAX_ENTRIES entries. The caller guarantees `out` is valid for
/// writes of MAX_ENTRIES MAX_M slots.
#[target_feature(enable = "avx2")]
fn masked_avx2<const M: usize, const FULL: bool>(
    out: *mut [u64; 2],
    w: &Values,
    bits: &[u64; MAX_Q_WORDS],
) {
    let entries = 1 << (M - 7);
    let (e_end, b_end) = if FULL {
        (MAX_ENTRIES, MAX_M)
    } else {
        (entries, M)
    };
    for (e, we) in w.iter().enumerate().take(e_end) {
        let mask = if e < entries {
            // SAFETY: 2e + 1 < 2 MAX_ENTRIES = MAX_Q_WORDS: 16 readable
            // bytes of `bits`; `loadu` has no alignment requirement.
            unsafe { _mm_loadu_si128(bits.as_ptr().add(2 * e).cast::<__m128i>()) }
        } else {
            _mm_setzero_si128()
        };
        for (b, wb) in we.iter().enumerate().take(b_end) {
            let v = if b < M {
                // SAFETY: `wb` is 16 readable bytes.
                let x = unsafe { _mm_loadu_si128(wb.as_ptr().cast::<__m128i>()) };
                _mm_and_si128(x, mask)
            } else {
                _mm_setzero_si128()
            };
            // SAFETY: e < MAX_ENTRIES and b < MAX_M: slot (e, b) is inside
            // the caller's MAX_ENTRIES MAX_M slots; `storeu` has no
            // alignment requirement.
            unsafe { _mm_storeu_si128(out.add(MAX_M * e + b).cast::<__m128i>(), v) };
        }
    }
}

/// `out` = the FFT's first values (Gao–Mateer Algorithm 2 at depth k, the
/// start of `crate::fft`'s butterflies): slot (e, b) = words 2e and 2e + 1
/// (mod `words`, a power of two <= 4) of plane b of `x`, on the set's
/// 2^(m-7) entries and m planes, zero everywhere else: every byte of `out`
/// is written, so it needs no zero-fill before. Returns `out`,
/// initialised. m = 12 or 13. Portable twin: `crate::fft::init::spread` on a
/// zero-filled array (differential test
/// `fft::init::tests::avx2_spread_init_matches_portable`).
pub(crate) fn spread_init<'a>(
    token: super::Avx2,
    m: usize,
    out: &'a mut MaybeUninit<Values>,
    x: &Bitsliced<4>,
    words: usize,
) -> &'a mut Values {
    let _ = token;
    let p = out.as_mut_ptr().cast::<[u64; 2]>();
    // SAFETY: the token proves AVX2 was detected; `p` points to the
    // MAX_ENTRIES MAX_M slots of 16 bytes `out` holds (no padding), and
    // every one of them is written, so `out` is initialised.
    unsafe {
        if m == 12 {
            spread_avx2::<12>(p, x, words);
        } else {
            spread_avx2::<13>(p, x, words);
        }
        out.assume_init_mut()
    }
}

/// Slot (e, b) (16 bytes at `out` + 16 (MAX_M e + b)) = words 2e, 2e + 1
/// (mod `words`) of plane b of `x` for e < 2^(M-7), b < M, zero in every
/// other slot of the MAX_ENTRIES entries. The caller guarantees `out` is
/// valid for writes of MAX_ENTRIES MAX_M slots.
#[target_feature(enable = "avx2")]
fn spread_avx2<const M: usize>(out: *mut [u64; 2], x: &Bitsliced<4>, words: usize) {
    let entries = 1 << (M - 7);
    let words = words.clamp(1, 4);
    for e in 0..MAX_ENTRIES {
        // Words 2e, 2e + 1 (mod words): adjacent for words >= 2, one word
        // twice for words = 1.
        let w0 = (2 * e) & (words - 1);
        for (b, xb) in x.iter().enumerate() {
            let v = if e >= entries || b >= M {
                _mm_setzero_si128()
            } else if words == 1 {
                _mm_set1_epi64x(xb[0].cast_signed())
            } else {
                // SAFETY: w0 + 1 < words <= 4: 16 readable bytes of `xb`;
                // `loadu` has no alignment requirement.
                unsafe { _mm_loadu_si128(xb.as_ptr().add(w0).cast::<__m128i>()) }
            };
            // SAFETY: e < MAX_ENTRIES and b < MAX_M: slot (e, b) is inside
            // the caller's MAX_ENTRIES MAX_M slots; `storeu` has no
            // alignment requirement.
            unsafe { _mm_storeu_si128(out.add(MAX_M * e + b).cast::<__m128i>(), v) };
        }
    }
}

/// g's low coefficients g_0 .. g_(t-1) (`bytes`: 2t bytes, little-endian
/// 16-bit, Classic McEliece spec §9.2.12 `irr`) bitsliced into `out`: bit i
/// of plane b = bit b of g_i (planes from m on and positions from t on
/// untouched: the caller's zeros). 32 coefficients per step: each plane's
/// bit moved to the 16-bit lanes' sign, packed to bytes with the sign kept
/// (`vpacksswb`), put in order and collected by `vpmovmskb`. t <= 128.
pub(crate) fn g_planes(
    token: super::Avx2,
    m: usize,
    t: usize,
    out: &mut Bitsliced<4>,
    bytes: &[u8],
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { g_planes_avx2(m, t, out, bytes) }
}

#[target_feature(enable = "avx2")]
fn g_planes_avx2(m: usize, t: usize, out: &mut Bitsliced<4>, bytes: &[u8]) {
    // The coefficients, zero from t on (256 bytes: 128 coefficients).
    let mut buf = [0u8; 256];
    let t = t.min(128);
    buf[..2 * t].copy_from_slice(&bytes[..2 * t]);
    for c in 0..t.div_ceil(32) {
        // SAFETY: 64 c + 64 <= 256: both 32-byte loads are inside `buf`;
        // `loadu` has no alignment requirement.
        let (v0, v1) = unsafe {
            let p = buf.as_ptr().add(64 * c).cast::<__m256i>();
            (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)))
        };
        for (b, w) in out.iter_mut().enumerate().take(m) {
            let n = _mm_cvtsi32_si128(15 - b as i32);
            let x = _mm256_packs_epi16(_mm256_sll_epi16(v0, n), _mm256_sll_epi16(v1, n));
            // Bytes (v0 0..7, v1 0..7 | v0 8..15, v1 8..15) into order.
            let x = _mm256_permute4x64_epi64::<0b11_01_10_00>(x);
            let bits = u64::from(_mm256_movemask_epi8(x).cast_unsigned());
            w[c >> 1] |= bits << (32 * (c & 1));
        }
    }
    buf.zeroize();
}

/// Planes of entries `lo` and `hi` (one 128-bit lane each).
#[target_feature(enable = "avx2")]
#[inline]
fn load_pair<const M: usize>(lo: &Bitsliced<2>, hi: &Bitsliced<2>) -> [__m256i; MAX_M] {
    let mut x = [_mm256_setzero_si256(); MAX_M];
    for (v, (l, h)) in x.iter_mut().zip(lo.iter().zip(hi.iter())).take(M) {
        *v = load2x2(l, h);
    }
    x
}

/// 1/x lane by lane on loaded planes: x^(2^m - 2) = (x_(m-1))^2 with
/// x_k = x^(2^k - 1), x_(i+j) = x_i^(2^j) x_j (Itoh–Tsujii 1988), k = 1, 2,
/// 3, 5, 10, 11 (m = 12) or 1, 2, 3, 6, 12 (m = 13). Returns x_(m-1)
/// (the caller squares it, or folds the square into what follows).
#[target_feature(enable = "avx2")]
#[inline]
fn inv_half<const M: usize>(x1: &[__m256i; MAX_M]) -> [__m256i; MAX_M] {
    let x2 = mul_planes(M, &sq_planes::<M>(x1), x1);
    let x3 = mul_planes(M, &sq_planes::<M>(&x2), x1);
    if M == 12 {
        let x5 = mul_planes(M, &sq_n::<M>(x3, 2), &x2);
        let x10 = mul_planes(M, &sq_n::<M>(x5, 5), &x5);
        mul_planes(M, &sq_planes::<M>(&x10), x1)
    } else {
        let x6 = mul_planes(M, &sq_n::<M>(x3, 3), &x3);
        mul_planes(M, &sq_n::<M>(x6, 6), &x6)
    }
}

#[target_feature(enable = "avx2")]
fn inv_sq_batch_avx2<const M: usize>(vals: &mut [Bitsliced<2>]) {
    let h = vals.len() >> 1;
    let (lo, hi) = vals.split_at_mut(h);
    // p_0 .. p_(h-2), one 256-bit pair per plane (12.9 KB at most): left
    // uninitialised instead of zero-filled, since the forward pass writes
    // slot j - 1 (planes 0 .. M) before the backward pass reads it.
    let mut prefix = [[const { MaybeUninit::<__m256i>::uninit() }; MAX_M]; (MAX_ENTRIES >> 1) - 1];
    // Forward: p_j = p_(j-1) g_j; p_0 .. p_(h-2) stored.
    let mut acc = load_pair::<M>(&lo[0], &hi[0]);
    for j in 1..h {
        for (w, &v) in prefix[j - 1].iter_mut().zip(acc.iter()).take(M) {
            w.write(v);
        }
        let g = load_pair::<M>(&lo[j], &hi[j]);
        acc = mul_planes_inline!(M, &acc, &g);
    }
    // inv = 1/p_(h-1) = x_(m-1)^2.
    let mut inv = sq_planes::<M>(&inv_half::<M>(&acc));
    // Backward: 1/g_j = inv p_(j-1), then inv <- inv g_j (= 1/p_(j-1)).
    for j in (1..h).rev() {
        let mut p = [_mm256_setzero_si256(); MAX_M];
        for (v, w) in p.iter_mut().zip(prefix[j - 1].iter()).take(M) {
            // SAFETY: the forward pass's step j wrote planes 0 .. M of
            // slot j - 1 (j < h).
            *v = unsafe { w.assume_init() };
        }
        let g = load_pair::<M>(&lo[j], &hi[j]);
        let r = sq_planes::<M>(&mul_planes_inline!(M, &inv, &p));
        inv = mul_planes_inline!(M, &inv, &g);
        for ((l, hw), &v) in lo[j].iter_mut().zip(hi[j].iter_mut()).zip(r.iter()).take(M) {
            store2x2(l, hw, v);
        }
    }
    let r = sq_planes::<M>(&inv);
    for ((l, hw), &v) in lo[0].iter_mut().zip(hi[0].iter_mut()).zip(r.iter()).take(M) {
        store2x2(l, hw, v);
    }
    // The prefix products are secret: wiped (volatile stores).
    for p in &mut prefix[..h.saturating_sub(1)] {
        p[..M].iter_mut().for_each(Zeroize::zeroize);
    }
}
