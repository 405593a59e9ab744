//! `R3_recip` (Core `KeyGen`'s `1/g` in R/3, NTRU Prime spec §2.3; reference
//! `R3_recip`, Bernstein–Yang division steps) **bitsliced** on AVX2: twin of
//! `recip::r3_recip_on(.., None)`, bit-identical results.
//!
//! Each F3 coefficient is two bits in two bit planes, `nz` (the coefficient
//! is nonzero) and `sg` (its sign: -1 when set); `sg` is "don't care" where
//! `nz` is clear. Coefficient i of a polynomial is bit `i mod 64` of 64-bit
//! lane `(i / 64) mod 4` of register `i / 256` of each plane, so one register
//! pair holds 256 coefficients and `p + 1 <= 1280` fit in five.
//!
//! A division step (the reference's loop body, on all coefficients at once):
//! `v = x v`; the constant terms `f0`, `g0` give `swap = delta > 0 && g0 != 0`
//! and `c = -f0 g0`; `(f, g)` and `(v, r)` are swapped under a mask;
//! `g += c f` and `r += c v` are a handful of AND/XOR/OR on whole registers
//! ([`axpy`]); `g = g / x` is a one-bit shift across registers ([`shr1`]).
//! `delta`, the swap and `c` are secret: masks broadcast into every lane,
//! nothing branches on them. Every step works on all `(p + 256) / 256`
//! registers of each plane (a count fixed by p, so the loops unroll): the
//! first version touched only the registers that can still matter (f and g
//! need their first `2p - 1 - k` coefficients at step k, v and r have
//! degree <= k + 1), and its loops with run-time bounds kept the state in
//! memory and cost more than the registers they skipped.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_broadcastq_epi64, _mm256_castsi256_si128, _mm256_cmpgt_epi64, _mm256_extract_epi64,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_epi64x, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_sub_epi64, _mm256_xor_si256,
};

use crate::ct;
use zeroize::Zeroize;

/// Registers per bit plane for the largest set (p + 1 = 1278 coefficients),
/// plus one register of zeros above the top (read by [`shr1`]).
const MAXR: usize = 6;

/// One polynomial: the `nz` and `sg` bit planes.
type Planes = [[__m256i; MAXR]; 2];

/// The four 64-bit lanes of a register as integers.
#[target_feature(enable = "avx2")]
#[inline]
fn lanes(x: __m256i) -> [u64; 4] {
    #[allow(clippy::cast_sign_loss, reason = "bit pattern")]
    [
        _mm256_extract_epi64::<0>(x) as u64,
        _mm256_extract_epi64::<1>(x) as u64,
        _mm256_extract_epi64::<2>(x) as u64,
        _mm256_extract_epi64::<3>(x) as u64,
    ]
}

/// The register of four 64-bit lanes `w`.
#[target_feature(enable = "avx2")]
#[inline]
fn from_lanes(w: [u64; 4]) -> __m256i {
    #[allow(clippy::cast_possible_wrap, reason = "bit pattern")]
    _mm256_set_epi64x(w[3] as i64, w[2] as i64, w[1] as i64, w[0] as i64)
}

/// Division by the variable (coefficient i + 1 moves to i) on registers
/// `0..n` of one plane, ascending and in place: register j takes the low bit of lane 0 of
/// register j + 1 (not yet shifted) into its top bit.
#[target_feature(enable = "avx2")]
#[inline]
fn shr1(x: &mut [__m256i; MAXR], n: usize) {
    for j in 0..n {
        let (a, b) = (x[j], x[j + 1]);
        // [a.l1, a.l2, a.l3, b.l0]
        let y = _mm256_alignr_epi8::<8>(_mm256_permute2x128_si256::<0x21>(a, b), a);
        x[j] = _mm256_or_si256(_mm256_srli_epi64::<1>(a), _mm256_slli_epi64::<63>(y));
    }
}

/// Multiplication by the variable (coefficient i moves to i + 1) on
/// registers `0..n` of one plane, descending and in place: register j takes the top bit of lane 3
/// of register j - 1 (not yet shifted) into its bit 0; register 0 takes 0.
#[target_feature(enable = "avx2")]
#[inline]
fn shl1(x: &mut [__m256i; MAXR], n: usize) {
    for j in (0..n).rev() {
        let a = x[j];
        let b = if j == 0 {
            _mm256_setzero_si256()
        } else {
            x[j - 1]
        };
        // [b.l3, a.l0, a.l1, a.l2]
        let z = _mm256_alignr_epi8::<8>(a, _mm256_permute2x128_si256::<0x21>(b, a));
        x[j] = _mm256_or_si256(_mm256_slli_epi64::<1>(a), _mm256_srli_epi64::<63>(z));
    }
}

/// `y + c x` in F3 on 256 coefficients, `c` in {-1, 0, 1} as the masks
/// `cnz` (c != 0) and `cneg` (c = -1); inputs and output as `(nz, sg)`
/// planes. With `t = c x` (`t.nz = x.nz & cnz`, `t.sg = x.sg ^ cneg`):
/// the sum is nonzero where exactly one of t, y is, or both are with the
/// same sign (`t + t = -t`); its sign is `t.sg` where only t is nonzero,
/// `!t.sg` where both are, `y.sg` where t is zero (don't-care bits stay
/// don't-care).
#[target_feature(enable = "avx2")]
#[inline]
fn axpy(
    x: (__m256i, __m256i),
    y: (__m256i, __m256i),
    cnz: __m256i,
    cneg: __m256i,
) -> (__m256i, __m256i) {
    let t0 = _mm256_and_si256(x.0, cnz);
    let t1 = _mm256_xor_si256(x.1, cneg);
    let both = _mm256_and_si256(y.0, t0);
    let differ = _mm256_xor_si256(y.1, t1);
    let nz = _mm256_or_si256(_mm256_xor_si256(y.0, t0), _mm256_andnot_si256(differ, both));
    let sg = _mm256_or_si256(
        _mm256_and_si256(t0, _mm256_xor_si256(t1, y.0)),
        _mm256_andnot_si256(t0, y.1),
    );
    (nz, sg)
}

/// One step's swap and elimination on registers `0..n` of a pair of
/// polynomials (`(f, g)` or `(v, r)`): swap under the mask `sm`, then
/// `b += c a` for the new `(a, b)`.
#[target_feature(enable = "avx2")]
#[inline]
fn swap_axpy(a: &mut Planes, b: &mut Planes, n: usize, sm: __m256i, cnz: __m256i, cneg: __m256i) {
    for j in 0..n {
        let t0 = _mm256_and_si256(sm, _mm256_xor_si256(a[0][j], b[0][j]));
        let t1 = _mm256_and_si256(sm, _mm256_xor_si256(a[1][j], b[1][j]));
        let x = (_mm256_xor_si256(a[0][j], t0), _mm256_xor_si256(a[1][j], t1));
        let y = (_mm256_xor_si256(b[0][j], t0), _mm256_xor_si256(b[1][j], t1));
        (a[0][j], a[1][j]) = x;
        (b[0][j], b[1][j]) = axpy(x, y, cnz, cneg);
    }
}

/// Sets coefficient `i` of `w` (a plane as lanes) to the bits of `x` in
/// {-1, 0, 1}: `nz` = bit 0 of x, `sg` = its sign bit.
#[inline(always)]
fn put(w: &mut [[u64; 4 * MAXR]; 2], i: usize, x: i8) {
    #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
    let b = x as u8;
    w[0][i >> 6] |= u64::from(b & 1) << (i & 63);
    w[1][i >> 6] |= u64::from(b >> 7) << (i & 63);
}

/// The planes of `w` as registers.
#[target_feature(enable = "avx2")]
#[inline]
fn load(w: &[[u64; 4 * MAXR]; 2]) -> Planes {
    core::array::from_fn(|s| {
        core::array::from_fn(|j| {
            from_lanes([
                w[s][4 * j],
                w[s][4 * j + 1],
                w[s][4 * j + 2],
                w[s][4 * j + 3],
            ])
        })
    })
}

/// `R3_recip` bitsliced (contract of `recip::r3_recip`): `out = 1/input` in
/// R/3 and a set `Choice` if the reciprocal exists.
#[target_feature(enable = "avx2")]
pub(super) fn r3_recip_bitsliced<const P: usize>(out: &mut [i8; P], input: &[i8; P]) -> ct::Choice {
    const { assert!(P < 256 * (MAXR - 1)) };
    // The reference's start: f = x^p - x - 1 reversed (f[0] = 1,
    // f[p - 1] = f[p] = -1), g = input reversed, r = 1, v = 0, delta = 1.
    let mut w = [[0u64; 4 * MAXR]; 2];
    put(&mut w, 0, 1);
    put(&mut w, P - 1, -1);
    put(&mut w, P, -1);
    let mut f = load(&w);
    w = [[0; 4 * MAXR]; 2];
    for (i, &x) in input.iter().enumerate() {
        put(&mut w, P - 1 - i, x);
    }
    let mut g = load(&w);
    w = [[0; 4 * MAXR]; 2];
    put(&mut w, 0, 1);
    let mut r = load(&w);
    w = [[0; 4 * MAXR]; 2];
    let mut v = load(&w);
    let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi64x(1));
    let mut delta = one;

    // Registers per plane (see the module doc): p + 1 coefficients.
    let n = const { (P + 256) >> 8 };
    for _ in 0..2 * P - 1 {
        shl1(&mut v[0], n);
        shl1(&mut v[1], n);
        // The step's scalars as broadcast 64-bit lanes, computed on
        // registers (no call, no branch, no spill of the state): masks
        // from bit 0 of the constant terms.
        let mask0 = |x: __m256i| {
            _mm256_sub_epi64(
                zero,
                _mm256_and_si256(_mm256_broadcastq_epi64(_mm256_castsi256_si128(x)), one),
            )
        };
        // g0 != 0 (f0 never is), and c = -f0 g0 is -1 iff the signs agree.
        let cnz = mask0(_mm256_and_si256(f[0][0], g[0][0]));
        let cneg = mask0(_mm256_xor_si256(_mm256_xor_si256(f[1][0], g[1][0]), one));
        // swap = delta > 0 && g0 != 0; delta = (swap ? -delta : delta) + 1.
        let sm = _mm256_and_si256(_mm256_cmpgt_epi64(delta, zero), cnz);
        delta = _mm256_add_epi64(_mm256_sub_epi64(_mm256_xor_si256(delta, sm), sm), one);
        swap_axpy(&mut f, &mut g, n, sm, cnz, cneg);
        swap_axpy(&mut v, &mut r, n, sm, cnz, cneg);
        shr1(&mut g[0], n);
        shr1(&mut g[1], n);
    }

    // out = f0 * reverse(v[0..p]) (f0 = ±1).
    let mut vw = [[0u64; 4 * MAXR]; 2];
    for s in 0..2 {
        for j in 0..MAXR {
            vw[s][4 * j..4 * j + 4].copy_from_slice(&lanes(v[s][j]));
        }
    }
    let f0s = lanes(f[1][0])[0] & 1;
    for (i, o) in out.iter_mut().enumerate() {
        let pos = P - 1 - i;
        let nz = (vw[0][pos >> 6] >> (pos & 63)) & 1;
        let sg = (vw[1][pos >> 6] >> (pos & 63)) & 1;
        #[allow(clippy::cast_possible_truncation, reason = "0 or 1")]
        let neg = (nz & (sg ^ f0s)) as i8;
        #[allow(clippy::cast_possible_truncation, reason = "0 or 1")]
        let nz = nz as i8;
        *o = nz - 2 * neg;
    }
    for x in [&mut f, &mut g, &mut v, &mut r] {
        x.zeroize();
    }
    w.zeroize();
    vw.zeroize();
    #[allow(clippy::cast_possible_truncation, reason = "|delta| <= 2p")]
    let delta = lanes(delta)[0] as i32;
    !ct::nonzero_i32(delta)
}
