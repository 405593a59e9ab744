//! The Garner step of the 512-point parts' products (Chinese remainder
//! theorem for the primes 7681 and 10753, then mod q), as in `ntt.rs`.

use core::arch::x86_64::{__m256i, _mm256_add_epi16, _mm256_set1_epi16, _mm256_sub_epi16};

use super::super::{K, Prime, consts, mont, montmul, pow_mod};
use super::bc;

/// The Garner step: `c` modulo q (below |c1| + 3q/4: 2^14 for a reduced
/// `c1`) from `c1 ≡ c mod p1` (|.| <= p1/2 + p1/2^9, or unreduced from
/// `five_rq`'s fold, below 3 (p1/2 + p1/2^9) = 11,565) and `c2 ≡ c mod p2`
/// (|.| <= p2/2 + p2/2^9, or unreduced from `combine`, below 2 * 10753 +
/// 10753/2^9, or from `five_rq`'s fold, below 3 (p2/2 + p2/2^9) = 16,191;
/// see [`Garner::apply`]), the primes (p1, p2) = (7681, 10753).
#[derive(Clone, Copy)]
pub(super) struct Garner {
    k2: K,
    kq: __m256i,
    pinv: (__m256i, __m256i),
    p1q: (__m256i, __m256i),
}

impl Garner {
    /// The step for the primes p1 = `A`, p2 = `B` (`t2` the tables of `B`).
    #[target_feature(enable = "avx2")]
    #[inline]
    #[allow(clippy::cast_sign_loss, reason = "the public primes are positive")]
    pub(super) fn of<const Q: i16, const A: i16, const B: i16>(t2: &Prime) -> Self {
        let pinv = const { mont(pow_mod(A as i64, B as u64 - 2, B as i64), B as i64) };
        let p1q = const { mont(A as i64, Q as i64) };
        Garner {
            k2: consts(t2),
            // Opaque, as the primes in `consts`.
            kq: core::hint::black_box(_mm256_set1_epi16(Q)),
            pinv: bc(pinv),
            p1q: bc(p1q),
        }
    }

    /// `c1 + p1 u` modulo q, `u = (c2 - c1) / p1 mod p2`, exact: |c| < 2^24
    /// and |c1| < 2^15, so |u| < (2^24 + 2^15) / p1 (2189 for 7681). The
    /// Montgomery product of `d = c2 - c1` by `w = p1^-1 2^16` (centred, |w|
    /// <= p2/2) is `(d w - l p2) / 2^16` with |l| <= 2^15, so below |d| p2 /
    /// 2^17 + p2/2 in magnitude: for 7681 / 10753 (|d| <= 3855 + 21,527,
    /// `combine`'s unreduced `c2`, or 11,565 + 16,191, `five_rq`'s unreduced
    /// folds: |d| <= 27,756) below 7654; it is congruent to u mod p2
    /// and within p2 - 2189 of u, so it is u itself: no reduction. The
    /// output is below |c1| + 3q/4 (`garner_at_the_bounds` in `parts.rs`).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn apply(self, c1: __m256i, c2: __m256i) -> __m256i {
        let d = _mm256_sub_epi16(c2, c1);
        let u = montmul(d, self.pinv.0, self.pinv.1, self.k2.p);
        _mm256_add_epi16(c1, montmul(u, self.p1q.0, self.p1q.1, self.kq))
    }
}
