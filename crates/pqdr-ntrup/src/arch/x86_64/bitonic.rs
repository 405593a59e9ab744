//! The sort of `Short_fromlist` (NTRU Prime spec §2.3, `Short_random`;
//! reference `crypto_sort_uint32`) for 512 < n <= 2048 with AVX2: a
//! bitonic sorting network (Batcher 1968, in the form whose comparators all
//! put the minimum first: each merge of size 2^k starts with the "flip"
//! stage `i <-> i XOR (2^k - 1)`, then the half-cleaners `i <-> i XOR 2^j`,
//! j = k − 2 … 0) on 1024 entries (2048 for sntrup1277), the input padded
//! with `u32::MAX`.
//!
//! A sorted list is unique, so the output is the portable network's
//! (`sample::sort_u32_on(.., None)`, Batcher's merge exchange) for every
//! input; the differential test checks it. Layout: R = 128 (256) registers
//! of 8 lanes; entry i of the network is lane `i / R` of register `i mod R`,
//! so the comparators of distance < R are register against register in the
//! same lane (`vpminud` / `vpmaxud`, no shuffle), and only the stages on
//! the three lane bits permute lanes. The input is loaded in memory order
//! (its order is irrelevant to a sort); the output is transposed back (8 x 8
//! blocks). Every index, mask and loop bound is a constant or depends on n
//! alone.

use core::arch::x86_64::{
    __m256i, _mm256_blendv_epi8, _mm256_loadu_si256, _mm256_max_epu32, _mm256_min_epu32,
    _mm256_permute2x128_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32,
    _mm256_unpacklo_epi64,
};

use core::mem::MaybeUninit;

use pqdr_common::simd::Avx2;

/// Lanes per register.
const L: usize = 8;

/// The network's state: `R` registers (`8 R` entries; R = 128 or 256).
type Regs<const R: usize> = [__m256i; R];

/// Comparator on registers `i < j` (every lane): minimum to `i` (the
/// indices are taken mod 128, which they already are: no bounds check).
#[target_feature(enable = "avx2")]
#[inline]
fn cmp<const R: usize>(r: &mut Regs<R>, i: usize, j: usize) {
    let (i, j) = (i & (R - 1), j & (R - 1));
    let (a, b) = (r[i], r[j]);
    r[i] = _mm256_min_epu32(a, b);
    r[j] = _mm256_max_epu32(a, b);
}

/// Comparator on local registers.
#[target_feature(enable = "avx2")]
#[inline]
fn cmp8(v: &mut [__m256i; 8], i: usize, j: usize) {
    let (a, b) = (v[i], v[j]);
    v[i] = _mm256_min_epu32(a, b);
    v[j] = _mm256_max_epu32(a, b);
}

/// The flip stage of merge size 2^K on register bits (`K <= log2 R`):
/// register `g` against `g XOR (2^K − 1)` for every `g` whose bit `K − 1`
/// is clear, skipping the comparators whose upper register is `>= NR` (see
/// [`sort_avx2`]: it holds `u32::MAX` there, so the comparator would change
/// nothing). In block `hi` the partner of `g` is `2 hi + 2^K − 1 − g`, so
/// the live `g` are one range and no comparator is tested.
#[target_feature(enable = "avx2")]
#[inline]
fn flip_regs<const R: usize, const NR: usize, const K: u32>(r: &mut Regs<R>) {
    let hb = 1usize << (K - 1);
    for hi in (0..NR).step_by(2 * hb) {
        let lo = hi.max((hi + 2 * hb).saturating_sub(NR));
        for g in lo..hi + hb {
            cmp(r, g, 2 * hi + 2 * hb - 1 - g);
        }
    }
}

/// One half-cleaner stage on register bit `J`: register `g` against
/// `g + 2^J` for every `g` whose bit `J` is clear and whose partner is
/// below `NR` (the others would change nothing, see [`flip_regs`]).
#[target_feature(enable = "avx2")]
#[inline]
fn half_regs<const R: usize, const NR: usize, const J: u32>(r: &mut Regs<R>) {
    let hb = 1usize << J;
    for hi in (0..NR).step_by(2 * hb) {
        for g in hi..(hi + hb).min(NR.saturating_sub(hb)) {
            cmp(r, g, g + hb);
        }
    }
}

/// Two half-cleaner stages at once, on register bits `J` and `J − 1`
/// (`J >= 1`): the four registers `base + t 2^(J−1)` of each group in
/// locals; groups starting at or above `NR` skipped.
#[target_feature(enable = "avx2")]
#[inline]
fn clean2<const J: u32, const R: usize, const NR: usize>(r: &mut Regs<R>) {
    let low = 1usize << (J - 1);
    for hi in (0..NR).step_by(2 << J) {
        for base in hi..hi + low {
            let at = |t: usize| (base + t * low) & (R - 1);
            let mut v = [r[at(0)], r[at(1)], r[at(2)], r[at(3)]];
            for (i, j) in [(0, 2), (1, 3), (0, 1), (2, 3)] {
                let (a, b) = (v[i], v[j]);
                v[i] = _mm256_min_epu32(a, b);
                v[j] = _mm256_max_epu32(a, b);
            }
            for (t, x) in v.into_iter().enumerate() {
                r[at(t)] = x;
            }
        }
    }
}

/// Three half-cleaner stages at once, on register bits `J`, `J − 1`,
/// `J − 2` (`J >= 2`): the eight registers `base + t 2^(J−2)` of each group
/// in locals; groups starting at or above `NR` (all `u32::MAX`) skipped.
#[target_feature(enable = "avx2")]
#[inline]
fn clean3<const J: u32, const R: usize, const NR: usize>(r: &mut Regs<R>) {
    let low = 1usize << (J - 2);
    for hi in (0..NR).step_by(2 << J) {
        for base in hi..hi + low {
            let mut v = [r[base & (R - 1)]; 8];
            for (t, x) in v.iter_mut().enumerate().skip(1) {
                *x = r[(base + t * low) & (R - 1)];
            }
            for (i, j) in [(0, 4), (1, 5), (2, 6), (3, 7)] {
                cmp8(&mut v, i, j);
            }
            for (i, j) in [(0, 2), (1, 3), (4, 6), (5, 7)] {
                cmp8(&mut v, i, j);
            }
            for (i, j) in [(0, 1), (2, 3), (4, 5), (6, 7)] {
                cmp8(&mut v, i, j);
            }
            for (t, x) in v.iter().enumerate() {
                r[(base + t * low) & (R - 1)] = *x;
            }
        }
    }
}

/// Half-cleaners on register bits `2^TOP` … `2^0` (`TOP <= 7`), in passes
/// of three stages (then two, then one) over groups of registers held in
/// locals; groups starting at or above `NR` skipped (see [`sort_avx2`]).
/// Every stage and bound is a constant, so the passes unroll.
#[target_feature(enable = "avx2")]
#[inline]
fn clean_regs<const R: usize, const NR: usize, const TOP: u32>(r: &mut Regs<R>) {
    match TOP {
        0 => half_regs::<R, NR, 0>(r),
        1 => clean2::<1, R, NR>(r),
        2 => clean3::<2, R, NR>(r),
        3 => {
            clean3::<3, R, NR>(r);
            half_regs::<R, NR, 0>(r);
        }
        4 => {
            clean3::<4, R, NR>(r);
            clean2::<1, R, NR>(r);
        }
        5 => {
            clean3::<5, R, NR>(r);
            clean3::<2, R, NR>(r);
        }
        6 => {
            clean3::<6, R, NR>(r);
            clean3::<3, R, NR>(r);
            half_regs::<R, NR, 0>(r);
        }
        _ => {
            clean3::<7, R, NR>(r);
            clean3::<4, R, NR>(r);
            clean2::<1, R, NR>(r);
        }
    }
}

/// The half-cleaners on every register bit (`log2 R − 1` … 0), no register skipped.
#[target_feature(enable = "avx2")]
#[inline]
fn clean_all_regs<const R: usize>(r: &mut Regs<R>) {
    if R == 128 {
        clean_regs::<R, R, 6>(r);
    } else {
        clean_regs::<R, R, 7>(r);
    }
}

/// Lane indices `lane ^ m`.
#[target_feature(enable = "avx2")]
#[inline]
fn xor_lanes(m: i32) -> __m256i {
    _mm256_setr_epi32(m, 1 ^ m, 2 ^ m, 3 ^ m, 4 ^ m, 5 ^ m, 6 ^ m, 7 ^ m)
}

/// All-ones in the lanes whose index has bit `b` set.
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_with(b: i32) -> __m256i {
    let on = |j: i32| if j & b != 0 { -1 } else { 0 };
    _mm256_setr_epi32(on(0), on(1), on(2), on(3), on(4), on(5), on(6), on(7))
}

/// The half-cleaners on lane bits `2^(CL − 1)` … `2^0` (`CL <= 2`) of one
/// register: lane `l` against lane `l ^ 2^b`, the minimum to the lower lane.
#[target_feature(enable = "avx2")]
#[inline]
fn clean_lanes<const CL: u32>(mut a: __m256i) -> __m256i {
    for b in (0..CL).rev() {
        let p = _mm256_permutevar8x32_epi32(a, xor_lanes(1 << b));
        let (mn, mx) = (_mm256_min_epu32(a, p), _mm256_max_epu32(a, p));
        a = _mm256_blendv_epi8(mn, mx, lanes_with(1 << b));
    }
    a
}

/// The flip stage of merge size 2^k, k = log2 R + LB > log2 R: entry
/// (lane l, register g) against (l ^ (2^LB − 1), R − 1 − g); then the
/// merge's half-cleaners on the lane bits below its top one (`CL = LB − 1`
/// of them, entry bits log2 R + LB − 2 … log2 R) on both registers while
/// they are loaded.
#[target_feature(enable = "avx2")]
#[inline]
fn flip_lanes<const R: usize, const LB: u32, const CL: u32>(r: &mut Regs<R>) {
    let lm = (1i32 << LB) - 1;
    let idx = xor_lanes(lm);
    let hi = lanes_with(1 << (LB - 1));
    for g in 0..R >> 1 {
        let a = r[g];
        let b = _mm256_permutevar8x32_epi32(r[R - 1 - g], idx);
        let (mn, mx) = (_mm256_min_epu32(a, b), _mm256_max_epu32(a, b));
        r[g] = clean_lanes::<CL>(_mm256_blendv_epi8(mn, mx, hi));
        let up = _mm256_permutevar8x32_epi32(_mm256_blendv_epi8(mx, mn, hi), idx);
        r[R - 1 - g] = clean_lanes::<CL>(up);
    }
}

/// The 8 x 8 transpose of 32-bit lanes: `v[l]` lane j becomes `v[j]` lane l.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose8(v: &mut [__m256i; 8]) {
    let t0 = _mm256_unpacklo_epi32(v[0], v[1]);
    let t1 = _mm256_unpackhi_epi32(v[0], v[1]);
    let t2 = _mm256_unpacklo_epi32(v[2], v[3]);
    let t3 = _mm256_unpackhi_epi32(v[2], v[3]);
    let t4 = _mm256_unpacklo_epi32(v[4], v[5]);
    let t5 = _mm256_unpackhi_epi32(v[4], v[5]);
    let t6 = _mm256_unpacklo_epi32(v[6], v[7]);
    let t7 = _mm256_unpackhi_epi32(v[6], v[7]);
    let u0 = _mm256_unpacklo_epi64(t0, t2);
    let u1 = _mm256_unpackhi_epi64(t0, t2);
    let u2 = _mm256_unpacklo_epi64(t1, t3);
    let u3 = _mm256_unpackhi_epi64(t1, t3);
    let u4 = _mm256_unpacklo_epi64(t4, t6);
    let u5 = _mm256_unpackhi_epi64(t4, t6);
    let u6 = _mm256_unpacklo_epi64(t5, t7);
    let u7 = _mm256_unpackhi_epi64(t5, t7);
    v[0] = _mm256_permute2x128_si256::<0x20>(u0, u4);
    v[1] = _mm256_permute2x128_si256::<0x20>(u1, u5);
    v[2] = _mm256_permute2x128_si256::<0x20>(u2, u6);
    v[3] = _mm256_permute2x128_si256::<0x20>(u3, u7);
    v[4] = _mm256_permute2x128_si256::<0x31>(u0, u4);
    v[5] = _mm256_permute2x128_si256::<0x31>(u1, u5);
    v[6] = _mm256_permute2x128_si256::<0x31>(u2, u6);
    v[7] = _mm256_permute2x128_si256::<0x31>(u3, u7);
}

/// [`sort_u32_1024`] / [`sort_u32_2048`] with AVX2 enabled: the network on
/// `8 R` entries. Registers `NR` … `R − 1` (`8 NR >= n`) start as `u32::MAX`
/// (the padding), and through the merges of size 2^1 … R (register against
/// register in each lane, the minimum always to the lower register) every
/// comparator with its upper register `>= NR` changes nothing, so those
/// registers stay `u32::MAX` and their comparators are skipped; the lane
/// stages after them mix them in.
#[target_feature(enable = "avx2")]
fn sort_avx2<const R: usize, const NR: usize>(x: &mut [u32]) {
    let n = x.len();
    // Load in memory order, u32::MAX (all ones) past n.
    let whole = n >> 3; // n / L
    // Built in place, each register written once (an array built by
    // `from_fn` was copied, 4 KB, by `memcpy`; one filled first with
    // `u32::MAX` was a 4 KB `memset`).
    let mut r = MaybeUninit::<Regs<R>>::uninit();
    let regs = r.as_mut_ptr().cast::<__m256i>();
    for g in 0..R {
        let v = if g < whole {
            let s = &x[g * L..(g + 1) * L];
            // SAFETY: `s` is 8 readable `u32` (32 bytes); `loadu` has no alignment requirement.
            unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
        } else if g == whole {
            let mut t = [u32::MAX; L];
            t[..n - whole * L].copy_from_slice(&x[whole * L..]);
            // SAFETY: `t` is 32 readable bytes; `loadu` has no alignment requirement.
            unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
        } else {
            _mm256_set1_epi32(-1)
        };
        // SAFETY: `g < R`: register `g` of the `R` in `r` (in bounds, aligned).
        unsafe { regs.add(g).write(v) };
    }
    // SAFETY: the loop above wrote all `R` registers (borrowed in place, not
    // moved: a move was a second 4 KB copy on the stack).
    let r = unsafe { r.assume_init_mut() };
    // Merges of size 2^1 .. 2^3: within groups of eight registers, one pass.
    for base in (0..NR).step_by(L) {
        let mut v = [r[base]; 8];
        v.copy_from_slice(&r[base..base + L]);
        for (i, j) in [(0, 1), (2, 3), (4, 5), (6, 7)] {
            cmp8(&mut v, i, j); // k = 1
        }
        for (i, j) in [(0, 3), (1, 2), (4, 7), (5, 6)] {
            cmp8(&mut v, i, j); // k = 2, flip
        }
        for (i, j) in [(0, 1), (2, 3), (4, 5), (6, 7)] {
            cmp8(&mut v, i, j);
        }
        for (i, j) in [(0, 7), (1, 6), (2, 5), (3, 4)] {
            cmp8(&mut v, i, j); // k = 3, flip
        }
        for (i, j) in [(0, 2), (1, 3), (4, 6), (5, 7)] {
            cmp8(&mut v, i, j);
        }
        for (i, j) in [(0, 1), (2, 3), (4, 5), (6, 7)] {
            cmp8(&mut v, i, j);
        }
        r[base..base + L].copy_from_slice(&v);
    }
    // Merges of size 2^4 .. R: register against register (every stage a
    // constant, so each pass unrolls).
    flip_regs::<R, NR, 4>(r);
    clean_regs::<R, NR, 2>(r);
    flip_regs::<R, NR, 5>(r);
    clean_regs::<R, NR, 3>(r);
    flip_regs::<R, NR, 6>(r);
    clean_regs::<R, NR, 4>(r);
    flip_regs::<R, NR, 7>(r);
    clean_regs::<R, NR, 5>(r);
    if R == 256 {
        flip_regs::<R, NR, 8>(r);
        clean_regs::<R, NR, 6>(r);
    }
    // Merges of size 2 R .. 8 R: the flip and the lane bits, then the register bits.
    flip_lanes::<R, 1, 0>(r);
    clean_all_regs(r);
    flip_lanes::<R, 2, 1>(r);
    clean_all_regs(r);
    flip_lanes::<R, 3, 2>(r);
    clean_all_regs(r);
    // Entry i = lane (i / R) of register (i mod R): transpose blocks of 8.
    for g in 0..R >> 3 {
        let mut v = [r[g * L]; 8];
        v.copy_from_slice(&r[g * L..(g + 1) * L]);
        transpose8(&mut v);
        for (l, row) in v.iter().enumerate() {
            let at = l * R + g * L;
            if at + L <= n {
                let s = &mut x[at..at + L];
                // SAFETY: `s` is 8 writable `u32` (32 bytes); `storeu` has no alignment requirement.
                unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), *row) };
            } else if at < n {
                let mut t = [0u32; L];
                // SAFETY: `t` is 32 writable bytes; `storeu` has no alignment requirement.
                unsafe { _mm256_storeu_si256(t.as_mut_ptr().cast(), *row) };
                x[at..].copy_from_slice(&t[..n - at]);
            }
        }
    }
}

/// Sorts `x` (`512 < x.len() <= 1024`) with the AVX2 bitonic network,
/// behind the [`Avx2`] token (twin of `sample::sort_u32_on(.., None)`).
#[inline]
pub(crate) fn sort_u32_1024(token: Avx2, x: &mut [u32]) {
    let _ = token;
    assert!(x.len() > 512 && x.len() <= 1024);
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe {
        if x.len() <= 96 * L {
            sort_avx2::<128, 96>(x);
        } else {
            sort_avx2::<128, 128>(x);
        }
    }
}

/// Sorts `x` (`1024 < x.len() <= 2048`, sntrup1277) with the AVX2 bitonic
/// network on 2048 entries (256 registers), behind the [`Avx2`] token (twin
/// of `sample::sort_u32_on(.., None)`).
#[inline]
pub(crate) fn sort_u32_2048(token: Avx2, x: &mut [u32]) {
    let _ = token;
    assert!(x.len() > 1024 && x.len() <= 2048);
    // SAFETY: the token proves AVX2 was detected (only
    // `pqdr_common::simd::Avx2::detect` makes one).
    unsafe {
        if x.len() <= 160 * L {
            sort_avx2::<256, 160>(x);
        } else {
            sort_avx2::<256, 256>(x);
        }
    }
}
