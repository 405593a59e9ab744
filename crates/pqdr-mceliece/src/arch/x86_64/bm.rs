//! Berlekamp–Massey's iterations on AVX2 (`crate::bm`): each plane's
//! polynomials in 256-bit registers and the products of an iteration in
//! 256-bit products, in a look-ahead form (see [`bm_narrow`]). The state is
//! the portable one (`crate::bm`'s), passed by its parts; the length-change
//! masks come from `crate::bm` as `masks_of(l, n, d)`.

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_alignr_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_blend_epi16, _mm256_blend_epi32, _mm256_blendv_epi8, _mm256_cmpeq_epi16,
    _mm256_cmpeq_epi64, _mm256_movemask_epi8, _mm256_mul_epu32, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_permute4x64_epi64, _mm256_set_epi64x, _mm256_set1_epi16,
    _mm256_set1_epi64x, _mm256_setr_epi16, _mm256_setzero_si256, _mm256_shuffle_epi32,
    _mm256_sll_epi64, _mm256_slli_epi16, _mm256_slli_epi32, _mm256_slli_epi64, _mm256_srl_epi64,
    _mm256_srli_epi16, _mm256_srli_epi32, _mm256_srli_epi64, _mm256_storeu_si256,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

use super::{load4, mul, mul_planes_inline, store4};
use crate::arch::{BmState as State, Scalars};
use crate::gf;
use crate::params::{MAX_M, MAX_T, ParameterSet};
use pqdr_common::simd::Avx2;

/// The one-word iterations 0..`first` of Berlekamp–Massey (the state
/// updates of `crate::bm::iterate`), in a look-ahead form: with R the
/// syndrome window of iteration n + 1 and C' = gamma C + d B, the next
/// discrepancy is d' = c0' S_(n+1) + sum C'_i R_i, which is
/// c0' S_(n+1) + gamma (sum C_i R_i) + d (sum B_i R_i) as the lane sum is
/// linear. So the four products of an iteration (C R, B R, gamma C, d B)
/// are independent: one 256-bit product, with each plane's C, B and R in
/// one register. `syn` holds the syndromes (zero from 2t on), `keep` the
/// positions of B kept.
#[inline]
pub(crate) fn bm_narrow<P: ParameterSet, F: Fn(u16, usize, u16) -> (u16, u64)>(
    token: Avx2,
    st: State<'_, 1>,
    syn: &[u16; 2 * MAX_T + 1],
    first: usize,
    keep: u64,
    masks_of: F,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe { bm_narrow_avx2::<P, F>(st, syn, first, keep, masks_of) }
}

/// The syndromes as field elements (`crate::bm`'s `element`, the bit-plane
/// conversion before Berlekamp–Massey): `out[n]` = sum_b (bit n of plane b
/// of `s`) z^b for n < `count` (at most 256), the rest of `out` untouched.
/// Sixteen positions per register: each plane's 16-bit chunk is broadcast
/// to the sixteen 16-bit lanes, lane i keeps its bit i (a compare gives an
/// all-ones lane) and contributes z^b. No branch or index on the planes.
#[inline]
pub(crate) fn bm_elements(
    token: Avx2,
    m: usize,
    s: &[[u64; 4]; MAX_M],
    out: &mut [u16; 2 * MAX_T + 1],
    count: usize,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { bm_elements_avx2(m, s, out, count) }
}

#[target_feature(enable = "avx2")]
fn bm_elements_avx2(m: usize, s: &[[u64; 4]; MAX_M], out: &mut [u16; 2 * MAX_T + 1], count: usize) {
    let lane_bit = _mm256_setr_epi16(
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        512,
        1024,
        2048,
        4096,
        8192,
        16384,
        i16::MIN,
    );
    let mut tmp = [0u16; 16];
    for (c, chunk) in out
        .chunks_mut(16)
        .enumerate()
        .take(count.min(256).div_ceil(16))
    {
        let mut acc = _mm256_setzero_si256();
        for (b, plane) in s.iter().enumerate().take(m) {
            let w = (plane[c >> 2] >> (16 * (c & 3))) as u16;
            let v = _mm256_and_si256(_mm256_set1_epi16(w.cast_signed()), lane_bit);
            let set = _mm256_cmpeq_epi16(v, lane_bit);
            acc = _mm256_or_si256(acc, _mm256_and_si256(set, _mm256_set1_epi16(1 << b)));
        }
        // SAFETY: `tmp` is 32 writable bytes; `storeu` has no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(tmp.as_mut_ptr().cast::<__m256i>(), acc) };
        let n = (count - 16 * c).min(16);
        chunk[..n].copy_from_slice(&tmp[..n]);
    }
    zeroize::Zeroize::zeroize(&mut tmp);
}

/// Runs `$body` with `$b` bound to each plane index below `$m` (at most
/// `MAX_M` = 13), unrolled: `$b` is a constant in each copy, so per-plane
/// shift counts and masks fold into immediates.
macro_rules! for_planes {
    ($m:expr, |$b:ident| $body:block) => {
        for_planes!(@ $m, $b, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12)
    };
    (@ $m:expr, $b:ident, $body:block, $($i:literal)*) => {
        $({
            let $b: usize = $i;
            if $b < $m $body
        })*
    };
}

/// Bit b of the 64-bit lanes of `v` as all-ones / all-zero lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn lane_bit_masks(v: __m256i, b: usize) -> __m256i {
    let bit = _mm256_set1_epi64x(1i64 << b);
    _mm256_cmpeq_epi64(_mm256_and_si256(v, bit), bit)
}

/// Bit b of the 64-bit lanes of `v`, at bit 0 of each lane.
#[target_feature(enable = "avx2")]
#[inline]
fn lane_bits(v: __m256i, b: usize) -> __m256i {
    _mm256_and_si256(
        _mm256_srl_epi64(v, _mm_cvtsi32_si128(b as i32)),
        _mm256_set1_epi64x(1),
    )
}

#[target_feature(enable = "avx2")]
fn bm_narrow_avx2<P: ParameterSet, F: Fn(u16, usize, u16) -> (u16, u64)>(
    st: State<'_, 1>,
    syn: &[u16; 2 * MAX_T + 1],
    first: usize,
    keep: u64,
    masks_of: F,
) {
    let State { cv, bv, rv, sc } = st;
    let zero = _mm256_setzero_si256();
    // Plane b: [C_b, B_b, R_b, 0] (64-bit lanes 0..3).
    let mut s = [zero; MAX_M];
    for (b, x) in s.iter_mut().enumerate() {
        *x = _mm256_set_epi64x(0, rv[b][0] as i64, bv[b][0] as i64, cv[b][0] as i64);
    }
    // The new [_, B, R, _] keeps B's positions below t and clears lanes 0
    // (C, replaced by the product) and 3.
    let keep_v = _mm256_set_epi64x(0, -1, keep as i64, 0);
    let mut x = [zero; MAX_M];
    let mut k = [zero; MAX_M];
    // C = 0 at the start: d_0 = C_0 S_0.
    let mut d = gf::mul::<P>(sc.c0, syn[0]);
    for n in 0..first.min(2 * MAX_T) {
        let (sn, sn1) = (syn[n], syn[n + 1]);
        // c0 S_(n+1), off the discrepancy's dependency chain.
        let c0s = gf::mul::<P>(sc.c0, sn1);
        let (lengthen, lengthen64) = masks_of(sc.l, n, d);
        // Per lane, the bit shifted in (B: old C_0 on a length change; R:
        // S_n) and the multipliers (gamma, d) of the products.
        let carry = _mm256_set_epi64x(0, i64::from(sn), i64::from(sc.c0 & lengthen), 0);
        let gd = _mm256_set_epi64x(i64::from(d), i64::from(sc.gamma), 0, 0);
        let sel = _mm256_set_epi64x(0, 0, lengthen64 as i64, 0);
        for_planes!(P::M, |b| {
            let v = s[b];
            // x = [C, B, C, B].
            x[b] = _mm256_permute4x64_epi64::<0b01_00_01_00>(v);
            // B <- (old C on a length change, else B) << 1 | bit; R <- R << 1 | S_n bit.
            let picked = _mm256_blendv_epi8(v, _mm256_permute4x64_epi64::<0>(v), sel);
            let shifted = _mm256_or_si256(_mm256_slli_epi64::<1>(picked), lane_bits(carry, b));
            // k = [R', R', gamma bit mask, d bit mask].
            let r_all = _mm256_permute4x64_epi64::<0b10_10_10_10>(shifted);
            k[b] = _mm256_blend_epi32::<0b1111_0000>(r_all, lane_bit_masks(gd, b));
            // New [0, B, R, 0] (C below), B masked by `keep`.
            s[b] = _mm256_and_si256(shifted, keep_v);
        });
        let q = mul_planes_inline!(P::M, &x, &k);
        // C <- gamma C + d B (lanes 2 and 3 of the product) into lane 0; the
        // lane sums of C R' and B R' (lanes 0 and 1), bit b of each.
        for (sb, &qb) in s.iter_mut().zip(q.iter()).take(P::M) {
            let hi = _mm256_permute4x64_epi64::<0b11_10_11_10>(qb);
            let c_new = _mm256_xor_si256(hi, _mm256_shuffle_epi32::<0b01_00_11_10>(hi));
            *sb = _mm256_blend_epi32::<0b0000_0011>(*sb, c_new);
        }
        // Lanes 0 and 1: C R' and B R' (planes from m on are zero), of
        // planes j and j + h packed into one register (`paired`).
        let h = P::M.div_ceil(2);
        let paired: [__m256i; MAX_M] = core::array::from_fn(|j| {
            let hi = if j + h < MAX_M { q[j + h] } else { zero };
            if j < h {
                _mm256_permute2x128_si256::<0x20>(q[j], hi)
            } else {
                zero
            }
        });
        let [c_lo, b_lo, c_hi, b_hi] = lane_parities(&paired);
        let (cr, br) = (c_lo | (c_hi << h), b_lo | (b_hi << h));
        d = scalar_step::<P>(sc, (n, d, lengthen), c0s, (cr, br));
    }
    let mut lanes = [[0u64; 4]; MAX_M];
    for (l, v) in lanes.iter_mut().zip(s) {
        store4(l, v);
    }
    for (b, l) in lanes.iter().enumerate() {
        (cv[b][0], bv[b][0], rv[b][0]) = (l[0], l[1], l[2]);
    }
    zeroize::Zeroize::zeroize(lanes.as_flattened_mut());
}

/// The two-word iterations `first`..2t of Berlekamp–Massey in the
/// look-ahead form of [`bm_narrow`] (the same state as the
/// portable `crate::bm::iterate` leaves, whose discrepancies it computes
/// ahead by linearity), with `d` the discrepancy of iteration `first`. Per
/// plane, [C, B] (two words each) in one register and [R, _] in another;
/// the products (C | B) R' and (C | B) (gamma | d) are two 256-bit
/// products.
#[inline]
pub(crate) fn bm_wide<P: ParameterSet, F: Fn(u16, usize, u16) -> (u16, u64)>(
    token: Avx2,
    st: State<'_, 2>,
    syn: &[u16; 2 * MAX_T + 1],
    (first, d): (usize, u16),
    keep: &[u64; 2],
    masks_of: F,
) {
    let _ = token;
    // SAFETY: the token proves AVX2 was detected.
    unsafe { bm_wide_avx2::<P, F>(st, syn, (first, d), keep, masks_of) }
}

/// The scalar end of iteration n (discrepancy d, length-change mask
/// `lengthen`): C_0 <- gamma C_0, l and gamma as in `crate::bm::iterate`;
/// returns the next discrepancy, c0' S_(n+1) plus gamma sum C_i R_i plus
/// d sum B_i R_i, from the lane sums `cr`, `br` of the look-ahead products
/// and `c0s` = c0 S_(n+1) (the old c0: c0' S_(n+1) = gamma c0s). The three
/// field products (gamma C_0, gamma (c0s + cr), d br) are one 4-lane
/// product ([`gf_mul4`]).
#[target_feature(enable = "avx2")]
#[inline]
fn scalar_step<P: ParameterSet>(
    sc: &mut Scalars,
    (n, d, lengthen): (usize, u16, u16),
    c0s: u16,
    (cr, br): (u16, u16),
) -> u16 {
    let gamma = sc.gamma;
    let p = gf_mul4::<P>(
        [sc.c0, gamma, d, 0].map(u64::from),
        [gamma, c0s ^ cr, br, 0].map(u64::from),
    );
    sc.c0 = p[0];
    sc.l = (sc.l & !lengthen) | ((n as u16 + 1).wrapping_sub(sc.l) & lengthen);
    sc.gamma = (gamma & !lengthen) | (d & lengthen);
    p[1] ^ p[2]
}

/// Four products in GF(2^m) (Classic McEliece spec §7 field of P: m <= 13,
/// operands below 2^m), one per 64-bit lane, with `gf::mul`'s method: the
/// carry-less product by integer products of operands with holes (every
/// fourth bit kept: a column of such a product sums at most four bits, so
/// bit p is its parity), here `vpmuludq` on four lanes at once, then the
/// reduction by f(z) folded twice. No branch or table on the operands.
#[target_feature(enable = "avx2")]
#[inline]
fn gf_mul4<P: ParameterSet>(a: [u64; 4], b: [u64; 4]) -> [u16; 4] {
    let (a, b) = (load4(&a), load4(&b));
    let hole = |k: u32| _mm256_set1_epi64x(0x1111i64 << k);
    let ak: [__m256i; 4] = core::array::from_fn(|k| _mm256_and_si256(a, hole(k as u32)));
    let bk: [__m256i; 4] = core::array::from_fn(|k| _mm256_and_si256(b, hole(k as u32)));
    let mut t = _mm256_setzero_si256();
    for i in 0..4 {
        // Column residue i: a_k b_l with k + l = i mod 4.
        let mut z = _mm256_setzero_si256();
        for (k, &a) in ak.iter().enumerate() {
            z = _mm256_xor_si256(z, _mm256_mul_epu32(a, bk[(i + 4 - k) & 3]));
        }
        let keep = _mm256_set1_epi64x(0x1111_1111i64 << i);
        t = _mm256_or_si256(t, _mm256_and_si256(z, keep));
    }
    // z^(m + k) = z^k (f(z) - z^m), twice (the degree is at most 2m - 2 and
    // f's low terms have degree at most 4).
    let m = P::M;
    let low = _mm256_set1_epi64x((1i64 << m) - 1);
    let by_m = _mm_cvtsi32_si128(m as i32);
    for _ in 0..2 {
        let h = _mm256_srl_epi64(t, by_m);
        t = _mm256_and_si256(t, low);
        for e in 0..m {
            if (P::FIELD_POLY >> e) & 1 == 1 {
                t = _mm256_xor_si256(t, _mm256_sll_epi64(h, _mm_cvtsi32_si128(e as i32)));
            }
        }
    }
    let mut out = [0u64; 4];
    store4(&mut out, t);
    out.map(|x| x as u16)
}

/// The parity of every 64-bit lane of every plane: element i of the result
/// has at bit k the parity of lane i of plane k (k < MAX_M). The planes are
/// folded and packed together, eight per register: 64 -> 32 bits (planes k
/// and k + 4 in the two halves of each lane), 32 -> 16 (k and k + 2), 16 -> 8
/// (k and k + 1), so byte k of a lane belongs to plane k; then the bytes are
/// folded to their bit 0 and one `movemask` collects them.
#[target_feature(enable = "avx2")]
#[inline]
fn lane_parities(q: &[__m256i; MAX_M]) -> [u16; 4] {
    let zero = _mm256_setzero_si256();
    let plane = |k: usize| if k < MAX_M { q[k] } else { zero };
    let low_bytes = _mm256_set1_epi16(0x00FF);
    let mut masks = [0u32; 2];
    for (g, mask) in masks.iter_mut().enumerate() {
        let base = 8 * g;
        let mut h32 = [zero; 4];
        for (k, h) in h32.iter_mut().enumerate() {
            let (lo, hi) = (plane(base + k), plane(base + k + 4));
            let lo = _mm256_xor_si256(lo, _mm256_srli_epi64::<32>(lo));
            let hi = _mm256_xor_si256(hi, _mm256_slli_epi64::<32>(hi));
            *h = _mm256_blend_epi32::<0b1010_1010>(lo, hi);
        }
        let mut h16 = [zero; 2];
        for (k, h) in h16.iter_mut().enumerate() {
            let (lo, hi) = (h32[k], h32[k + 2]);
            let lo = _mm256_xor_si256(lo, _mm256_srli_epi32::<16>(lo));
            let hi = _mm256_xor_si256(hi, _mm256_slli_epi32::<16>(hi));
            *h = _mm256_blend_epi16::<0b1010_1010>(lo, hi);
        }
        let lo = _mm256_xor_si256(h16[0], _mm256_srli_epi16::<8>(h16[0]));
        let hi = _mm256_xor_si256(h16[1], _mm256_slli_epi16::<8>(h16[1]));
        let mut x = _mm256_or_si256(
            _mm256_and_si256(lo, low_bytes),
            _mm256_andnot_si256(low_bytes, hi),
        );
        // Bit 0 of each byte: the parity of the byte (the 16-bit shifts only
        // carry bits into a byte's bits 4..7, which never reach bit 0).
        x = _mm256_xor_si256(x, _mm256_srli_epi16::<4>(x));
        x = _mm256_xor_si256(x, _mm256_srli_epi16::<2>(x));
        x = _mm256_xor_si256(x, _mm256_srli_epi16::<1>(x));
        *mask = _mm256_movemask_epi8(_mm256_slli_epi16::<7>(x)).cast_unsigned();
    }
    core::array::from_fn(|i| {
        let [lo, hi] = masks.map(|m| ((m >> (8 * i)) & 0xFF) as u16);
        lo | (hi << 8)
    })
}

/// Each 128-bit half of `v` (two 64-bit words, low word first) shifted up
/// by one bit, with bit 63 of the high word of the matching half of `top`
/// shifted in (the other bits of `top` are ignored).
#[target_feature(enable = "avx2")]
#[inline]
fn shl1_128(v: __m256i, top: __m256i) -> __m256i {
    // Per half [top's high word, v's low word]: their bits 63 are the bits
    // shifted into v's two words.
    let below = _mm256_alignr_epi8::<8>(v, top);
    _mm256_or_si256(_mm256_slli_epi64::<1>(v), _mm256_srli_epi64::<63>(below))
}

/// Bit b of the 64-bit lanes of `v` at bit 63 (the bits below: garbage).
#[target_feature(enable = "avx2")]
#[inline]
fn lane_bits_at_top(v: __m256i, b: usize) -> __m256i {
    _mm256_sll_epi64(v, _mm_cvtsi32_si128((63 - b) as i32))
}

#[target_feature(enable = "avx2")]
fn bm_wide_avx2<P: ParameterSet, F: Fn(u16, usize, u16) -> (u16, u64)>(
    st: State<'_, 2>,
    syn: &[u16; 2 * MAX_T + 1],
    (first, mut d): (usize, u16),
    keep: &[u64; 2],
    masks_of: F,
) {
    let State { cv, bv, rv, sc } = st;
    let zero = _mm256_setzero_si256();
    // Plane b: cb = [C0, C1, B0, B1], r = [R0, R1, R0, R1] (R twice: the
    // multiplier of C and of B in the look-ahead product).
    let mut cb = [zero; MAX_M];
    let mut r = [zero; MAX_M];
    for b in 0..MAX_M {
        let (c, bv, rv) = (cv[b], bv[b], rv[b]);
        cb[b] = _mm256_set_epi64x(bv[1] as i64, bv[0] as i64, c[1] as i64, c[0] as i64);
        r[b] = _mm256_set_epi64x(rv[1] as i64, rv[0] as i64, rv[1] as i64, rv[0] as i64);
    }
    // The new B (lanes 2, 3) keeps its positions below t; lanes 0 and 1
    // are cleared (C, replaced by the product).
    let keep_v = _mm256_set_epi64x(keep[1] as i64, keep[0] as i64, 0, 0);
    let mut k_gd = [zero; MAX_M];
    let mut nb = [zero; MAX_M];
    for n in first..(2 * P::T).min(2 * MAX_T) {
        let (sn, sn1) = (syn[n], syn[n + 1]);
        // c0 S_(n+1), off the discrepancy's dependency chain.
        let c0s = gf::mul::<P>(sc.c0, sn1);
        let (lengthen, lengthen64) = masks_of(sc.l, n, d);
        // Bits shifted in (`shl1_128` takes them from lanes 1 and 3): S_n
        // into R (the low half), old C_0 into B (the high half).
        let carry = _mm256_set_epi64x(i64::from(sc.c0 & lengthen), 0, i64::from(sn), 0);
        let gd = _mm256_set_epi64x(
            i64::from(d),
            i64::from(d),
            i64::from(sc.gamma),
            i64::from(sc.gamma),
        );
        let sel = _mm256_set_epi64x(lengthen64 as i64, lengthen64 as i64, 0, 0);
        for_planes!(P::M, |b| {
            k_gd[b] = lane_bit_masks(gd, b);
            // R and B shifted in one register: [R, B] and [R, C] (R from r's
            // low half, B and C from cb), picked by the length change, then
            // R <- R << 1 | S_n bit and B <- (old C or B) << 1 | bit.
            let (v, w) = (cb[b], r[b]);
            let r_b = _mm256_blend_epi32::<0b0000_1111>(v, w);
            let r_c = _mm256_permute2x128_si256::<0x20>(w, v);
            let picked = _mm256_blendv_epi8(r_b, r_c, sel);
            let shifted = shl1_128(picked, lane_bits_at_top(carry, b));
            // R twice (the multiplier of C and of B), the new B masked.
            r[b] = _mm256_permute4x64_epi64::<0b01_00_01_00>(shifted);
            nb[b] = _mm256_and_si256(shifted, keep_v);
        });
        let q_r = mul_planes_inline!(P::M, &cb, &r);
        let q_gd = mul_planes_inline!(P::M, &cb, &k_gd);
        for b in 0..P::M {
            // C <- gamma C + d B into lanes 0 and 1, the new B above.
            let swapped = _mm256_permute4x64_epi64::<0b01_00_11_10>(q_gd[b]);
            cb[b] = _mm256_blend_epi32::<0b0000_1111>(nb[b], _mm256_xor_si256(q_gd[b], swapped));
        }
        // Lane sums of C R' (lanes 0, 1) and B R' (lanes 2, 3): planes j
        // and j + h paired, each pair of words folded, so the register
        // holds [C R' of j, of j + h, B R' of j, of j + h].
        let h = P::M.div_ceil(2);
        let folded: [__m256i; MAX_M] = core::array::from_fn(|j| {
            let hi = if j + h < MAX_M { q_r[j + h] } else { zero };
            if j < h {
                _mm256_xor_si256(
                    _mm256_unpacklo_epi64(q_r[j], hi),
                    _mm256_unpackhi_epi64(q_r[j], hi),
                )
            } else {
                zero
            }
        });
        let [c_lo, c_hi, b_lo, b_hi] = lane_parities(&folded);
        let (cr, br) = (c_lo | (c_hi << h), b_lo | (b_hi << h));
        d = scalar_step::<P>(sc, (n, d, lengthen), c0s, (cr, br));
    }
    let mut lanes = [[0u64; 4]; MAX_M];
    for (b, l) in lanes.iter_mut().enumerate() {
        store4(l, cb[b]);
        (cv[b], bv[b]) = ([l[0], l[1]], [l[2], l[3]]);
        store4(l, r[b]);
        rv[b] = [l[0], l[1]];
    }
    zeroize::Zeroize::zeroize(lanes.as_flattened_mut());
}

#[cfg(all(test, feature = "mceliece348864", feature = "mceliece6960119"))]
mod tests {
    use super::gf_mul4;
    use crate::gf;
    use crate::params::{Derived, Mceliece348864, Mceliece6960119, ParameterSet};
    use pqdr_common::simd::Avx2;

    /// The four-lane product against `gf::mul`, both fields: random operands
    /// and the edges (0, 1, all ones).
    fn check<P: ParameterSet>(seed: u64) {
        let mask = u64::from(P::GF_MASK);
        let mut s = seed;
        let mut next = || crate::test_util::xorshift(&mut s);
        for i in 0..2000 {
            let (a, b): ([u64; 4], [u64; 4]) = if i < 9 {
                let e = [0, 1, mask];
                ([e[i % 3]; 4], [e[i / 3], mask, 1, 0])
            } else {
                (
                    core::array::from_fn(|_| next() & mask),
                    core::array::from_fn(|_| next() & mask),
                )
            };
            // SAFETY: AVX2 was detected above (the test returns without it).
            let got = unsafe { gf_mul4::<P>(a, b) };
            for (l, &g) in got.iter().enumerate() {
                assert_eq!(g, gf::mul::<P>(a[l] as u16, b[l] as u16), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn gf_mul4_matches_scalar() {
        if Avx2::detect().is_none() {
            return;
        }
        check::<Mceliece348864>(1);
        check::<Mceliece6960119>(2);
    }
}
