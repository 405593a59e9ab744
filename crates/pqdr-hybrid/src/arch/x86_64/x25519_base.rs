//! The table lookup of the X25519 base-point product (`x25519::base`) on
//! AVX2: from a row of eight `(y + x, y − x, 2d·x·y)` entries (12 limbs,
//! three ymm registers each) and a signed digit `e ∈ [−8, 8]`, the addend
//! `e·P`, as the portable twin `x25519::base::select_portable` computes
//! it: entry `|e|` (the identity `(1, 1, 0)` for 0) by a scan that loads
//! every entry and ORs it in under a mask from `VPCMPEQQ` of its index with
//! `|e|`; then, under the all-ones mask of `e < 0`, `y + x` and `y − x`
//! swapped (XOR by mask, in the ymm registers) and `2d·x·y` replaced by
//! `2p − 2d·x·y` (a four-limb subtraction, kept or not by mask). Neither a
//! branch nor an address depends on `e` (a secret digit).
//!
//! `unsafe` here: the call of the `#[target_feature(enable = "avx2")]`
//! body, which the [`Avx2`] token (made only by detection) allows, and the
//! unaligned loads and stores, each inside its array.

use pqdr_common::ct::opaque;
use pqdr_common::simd::Avx2;

/// `2p = 2^256 − 38` in limbs.
const TWO_P: [u64; 4] = [u64::MAX - 37, u64::MAX, u64::MAX, u64::MAX];

/// The addend `e·P` of `row` into `q` (`y + x`, `y − x`, `2d·x·y`), the same
/// limbs as `x25519::base::select_portable` for every `e`.
#[inline(always)]
pub(crate) fn fe_base_select(token: Avx2, row: &[[u64; 12]; 8], e: i8, q: &mut [[u64; 4]; 3]) {
    let _ = token;
    // SAFETY: the token (made only by `pqdr_common::simd::Avx2::detect`)
    // proves that AVX2 executes here.
    unsafe { select_avx2(row, e, q) }
}

/// [`fe_base_select`]'s body, compiled for AVX2.
#[target_feature(enable = "avx2")]
fn select_avx2(row: &[[u64; 12]; 8], e: i8, q: &mut [[u64; 4]; 3]) {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256,
        _mm256_storeu_si256, _mm256_xor_si256,
    };
    let sign = e >> 7; // −1 iff e < 0
    // All ones iff e < 0.
    let neg = opaque(u64::from(u8::from_ne_bytes(sign.to_ne_bytes()) & 1).wrapping_neg());
    let abs = u64::from(u8::from_ne_bytes(
        (e ^ sign).wrapping_sub(sign).to_ne_bytes(),
    ));
    let target = _mm256_set1_epi64x(i64::from_ne_bytes(abs.to_ne_bytes()));
    let one = _mm256_set1_epi64x(1);
    // Index 0: the identity, y + x = y − x = 1, 2d·x·y = 0.
    let id = _mm256_set_epi64x(0, 0, 0, 1);
    let mask = _mm256_cmpeq_epi64(_mm256_setzero_si256(), target);
    let mut acc = [
        _mm256_and_si256(id, mask),
        _mm256_and_si256(id, mask),
        _mm256_setzero_si256(),
    ];
    let mut k = _mm256_setzero_si256();
    for entry in row {
        k = _mm256_add_epi64(k, one);
        let mask = _mm256_cmpeq_epi64(k, target);
        for (j, a) in acc.iter_mut().enumerate() {
            // SAFETY: `4 * j + 4 ≤ 12`: the 32 bytes read lie inside
            // `entry` (an unaligned load).
            let v = unsafe { _mm256_loadu_si256(entry.as_ptr().add(4 * j).cast::<__m256i>()) };
            *a = _mm256_or_si256(*a, _mm256_and_si256(v, mask));
        }
    }
    // y + x and y − x swapped iff e < 0.
    let swap = _mm256_and_si256(
        _mm256_xor_si256(acc[0], acc[1]),
        _mm256_set1_epi64x(neg.cast_signed()),
    );
    let [ypx, ymx, xy2d] = q;
    // SAFETY: each store writes the 32 bytes of one `[u64; 4]` of `q`.
    unsafe {
        _mm256_storeu_si256(
            ypx.as_mut_ptr().cast::<__m256i>(),
            _mm256_xor_si256(acc[0], swap),
        );
        _mm256_storeu_si256(
            ymx.as_mut_ptr().cast::<__m256i>(),
            _mm256_xor_si256(acc[1], swap),
        );
        _mm256_storeu_si256(xy2d.as_mut_ptr().cast::<__m256i>(), acc[2]);
    }
    // 2d·x·y ← 2p − 2d·x·y iff e < 0.
    let mut borrow = 0u64;
    for (x, p) in xy2d.iter_mut().zip(TWO_P) {
        let (d1, b1) = p.overflowing_sub(*x);
        let (d2, b2) = d1.overflowing_sub(borrow);
        borrow = u64::from(b1 | b2);
        *x ^= (*x ^ d2) & neg;
    }
}
