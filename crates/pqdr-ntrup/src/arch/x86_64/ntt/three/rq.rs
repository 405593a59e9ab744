//! sntrup1277's R/q product (p = 1277, 3072 = 3 x 1024 points; the parent
//! module's radix-3 layer with n = 1024), AVX2 (the products of Core
//! `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime spec §2.3): modulo 12289
//! the three parts' inverse transforms go straight into the product buffer
//! and are [`combine`]d there into the full product `c mod 12289` (degree
//! `2p - 2 < 3072`), which is folded in place by x^p = x + 1 into
//! `F_k = c_k + c_(p+k) + c_(p+k-1)` ([`fold_in_place`]); modulo 18433 the
//! scratch left (p + 2307 entries) does not hold three parts, so its
//! folded product is summed part by part ([`folded_mod`]); then Garner's
//! CRT. Twin: the portable Karatsuba product `mult::mul_full` (compared in
//! `mult::tests::avx2_products_match_portable`). Every loop bound and index
//! depends on p only.

use core::arch::x86_64::{__m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_setr_epi16};

use super::super::{K, P1, P2, REGS, barrett, consts, load, store};
use super::{Garner, Part, Src, T1, combine_in_place, f_len, folded_mod, part};
use crate::wipe::Wipe;

/// The folded product modulo q (|.| < 2^14) into `full[..p]` (entries
/// `p..f_len(p)` left arbitrary), from `a` (|a| < 2^12) and the small `b`;
/// `full` holds at least `max(3072, 2 f_len(p) + 1024)` entries.
#[target_feature(enable = "avx2")]
pub(super) fn ntt3_rq_avx2<const P: usize, const Q: i16>(full: &mut [i16], a: &[i16], b: &[i8]) {
    let mut y0: Part<REGS> = [[0; 16]; REGS];
    let mut y = Wipe::new(&mut y0);
    // 12289: the three parts into full[..3072], combined in place, folded.
    {
        let (regs, _) = full.as_chunks_mut::<16>();
        let regs = &mut regs[..3 * REGS];
        let (ps, _) = regs.as_chunks_mut::<REGS>();
        for (i, x) in ps.iter_mut().enumerate() {
            part::<P, REGS>(x, &mut y, (Src::Coeffs(a), Src::Coeffs(b)), (i, false), &P1);
        }
        combine_in_place::<REGS>(regs, &T1, consts(&P1));
    }
    fold_in_place::<P>(full, consts(&P1));
    // 18433: the folded product part by part, after 12289's.
    let (f1, rest) = full.split_at_mut(f_len(P));
    let (f2, xs) = rest.split_at_mut(f_len(P));
    let (xs, _) = xs.as_chunks_mut::<16>();
    let x: &mut Part<REGS> = (&mut xs[..REGS]).try_into().expect("64 registers");
    folded_mod::<P, REGS>(f2, (x, &mut y), (a, b), &P2);
    let g = Garner::new::<Q>();
    let (c1s, _) = f1.as_chunks_mut::<16>();
    let (c2s, _) = f2.as_chunks::<16>();
    for (o, c2) in c1s.iter_mut().zip(c2s) {
        let v = g.apply(load(o), load(c2));
        store(o, v);
    }
    // x and f2 (secret) are wiped by the caller's scratch guard.
}

/// `F_k = c_k + c_(p+k) + c_(p+k-1)` (the last for k >= 1) of the full
/// product `c` in `full[..2p - 1]` (|c| <= p1/2 + p1/2^9, so the sums stay
/// in i16) into `full[..p]`, reduced (|.| <= p1/2 + p1/2^9), register by
/// register upwards: register r writes entries below `16 r + 16` and reads
/// `c_(p+k-1)` at `p + 16 r - 1` and above, which no earlier register
/// wrote (entries `p..f_len(p)` of the last register are written after
/// register 0, their only reader).
#[target_feature(enable = "avx2")]
#[inline]
fn fold_in_place<const P: usize>(full: &mut [i16], k: K) {
    const { assert!(P > 16 && 2 * P + 16 < 3 * 16 * REGS) };
    let at = |full: &[i16], n: usize| -> __m256i {
        load(full[n..].first_chunk::<16>().expect("inside the product"))
    };
    // Register 0 without c_(p-1) in lane 0.
    let not0 = _mm256_setr_epi16(
        0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    for r in 0..f_len(P) / 16 {
        let n = 16 * r;
        let mut low = at(full, P + n - 1);
        if r == 0 {
            low = _mm256_and_si256(low, not0);
        }
        let s = _mm256_add_epi16(_mm256_add_epi16(at(full, n), at(full, P + n)), low);
        let o = full[n..]
            .first_chunk_mut::<16>()
            .expect("inside the product");
        store(o, barrett(s, k));
    }
}
