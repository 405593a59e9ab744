//! The R/q and R/3 products of sntrup1277 (1024 < p <= 1280: the product
//! `c = a b` has degree `2p - 2 < 2560`) by 3072-point transforms, AVX2
//! (the products of Core `KeyGen`, `Encrypt` and `Decrypt`, NTRU Prime spec
//! §2.3). Twin: the portable Karatsuba product `mult::mul_full` (same full
//! product, compared in `mult::tests::avx2_products_match_portable`).
//!
//! Both primes of `ntt.rs` have a primitive 3072-th root of unity ψ
//! (12289 - 1 = 3 * 2^12, 18433 - 1 = 9 * 2^11); ω = ψ^1024 is a primitive
//! cube root of unity and `x^3072 - 1 = (x^1024 - 1)(x^1024 - ω)(x^1024 - ω^2)`
//! (the radix-3 first layer). Modulo `x^1024 - ω^i`, `x = ψ^i y` turns the
//! product into the cyclic 1024-point product of the factors
//! `(v_j + ω^i v_(j+1024)) ψ^(ij)` (part i), so each part runs the
//! 1024-point transforms of `ntt.rs` unchanged, and
//! `D_i[j] = ψ^(-ij) Z_i[j] = c_j + ω^i c_(j+1024) + ω^(2i) c_(j+2048)`.
//! The inverse 3-point DFT gives `c_(j+1024k) = (1/3) Σ_i ω^(-ik) D_i[j]`
//! (the 1/3 is applied to each `D_i`, giving `E_i = D_i / 3`).
//!
//! R/3 products (`|c_k| <= p`) need 12289 only. R/q products take 12289
//! (the three parts in the scratch, then `c mod 12289` in place) and 18433,
//! recombined by Garner's CRT as in `ntt.rs` (`|c_k| <= p (q - 1)/2 < 2^23`).
//! To keep 18433's parts within the scratch and two local transforms, its
//! outputs at j >= 512 come from `D_0` and `D_1` alone: there
//! `c_(j+2048) = 0` (2p - 2 < 2560), so `c_(j+1024) = (1 - ω^2)(E_0 - E_1)`
//! and `c_j = 3 E_0 - c_(j+1024)`; then `D_1[..512]` moves beside
//! `D_0[..512]` and the third part takes its place. Every loop bound and
//! index depends on p only.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi16, _mm256_cvtepi8_epi16, _mm256_set1_epi16,
    _mm256_sub_epi16,
};

use super::{
    K, LaneMuls, Mul, N, P1, P2, Poly, Prime, REGS, barrett, consts, forward, inverse, load, mont,
    montmul, mul_lanes, pointwise, pow_mod, store,
};
use crate::wipe::Wipe;
use pqdr_common::simd::Avx2;

/// Registers of a factor above x^1024 (p <= 1280).
const TAIL: usize = 16;

/// Scratch entries the product needs: `c mod 12289` (2560 entries) and one
/// part of 18433 beside it.
pub(crate) const NTT3_SCRATCH: usize = 3 * N + N / 2;

/// Whether the 3072-point product serves degree p: `1024 < p` and
/// `2p - 1 <= 2560`.
pub(crate) const fn ntt3_fits(p: usize) -> bool {
    p > N && 2 * p - 1 <= 2 * N + N / 2
}

/// The radix-3 constants of one prime.
struct Three {
    /// ψ^j and ψ^-j at coefficient j = 16 register + lane.
    psi: LaneMuls,
    psi_inv: LaneMuls,
    /// ω and ω^2.
    omega: [Mul; 2],
    /// 1/3, -1/2, (ω^2 - ω)/2, 1 - ω^2 and 3.
    third: Mul,
    neg_half: Mul,
    rot: Mul,
    one_minus_w2: Mul,
    three: Mul,
}

#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_sign_loss,
    reason = "compile-time tables of the public primes"
)]
const fn three(p: i16) -> Three {
    let m = p as i64;
    // ψ: a primitive 3072-th root of unity (ψ^1536 != 1, ψ^1024 != 1).
    let mut g = 2;
    let psi = loop {
        let psi = pow_mod(g, (m as u64 - 1) / 3072, m);
        if pow_mod(psi, 1536, m) != 1 && pow_mod(psi, 1024, m) != 1 {
            break psi;
        }
        g += 1;
    };
    let psi_i = pow_mod(psi, m as u64 - 2, m);
    let w = pow_mod(psi, 1024, m);
    let w2 = w * w % m;
    let half = (m + 1) / 2;
    let mut tab = [[[0; 16]; REGS]; 2];
    let mut tab_i = [[[0; 16]; REGS]; 2];
    let mut j = 0;
    while j < REGS {
        let mut n2 = 0;
        while n2 < 16 {
            let e = (16 * j + n2) as u64;
            let v = [mont(pow_mod(psi, e, m), m), mont(pow_mod(psi_i, e, m), m)];
            tab[0][j][n2] = v[0][0];
            tab[1][j][n2] = v[0][1];
            tab_i[0][j][n2] = v[1][0];
            tab_i[1][j][n2] = v[1][1];
            n2 += 1;
        }
        j += 1;
    }
    Three {
        psi: tab,
        psi_inv: tab_i,
        omega: [mont(w, m), mont(w2, m)],
        third: mont(pow_mod(3, m as u64 - 2, m), m),
        neg_half: mont(m - half, m),
        rot: mont((w2 - w + m) % m * half, m),
        one_minus_w2: mont(1 - w2 + m, m),
        three: mont(3, m),
    }
}

static T1: Three = three(12289);
static T2: Three = three(18433);

/// A constant multiplier broadcast.
#[target_feature(enable = "avx2")]
#[inline]
fn bc([w, wq]: Mul) -> (__m256i, __m256i) {
    (_mm256_set1_epi16(w), _mm256_set1_epi16(wq))
}

/// `x c` for the constant `c` (|result| < 3p/4).
#[target_feature(enable = "avx2")]
#[inline]
fn mulc(x: __m256i, c: Mul, k: K) -> __m256i {
    let (w, wq) = bc(c);
    montmul(x, w, wq, k.p)
}

/// Part i of a factor: `x_j = ψ^(ij) (x_j + ω^i tail_j)` (`x` holds the
/// coefficients below x^1024, `tail` those above, zero-padded). Inputs
/// below 2^13 in magnitude; outputs below 3p/4 (i > 0) or 2^14 (i = 0).
#[target_feature(enable = "avx2")]
#[inline]
fn fold_twist(x: &mut Poly, tail: &[[i16; 16]; TAIL], i: usize, t3: &Three, k: K) {
    for (r, s) in x.iter_mut().zip(tail) {
        let hi = if i == 0 {
            load(s)
        } else {
            mulc(load(s), t3.omega[i - 1], k)
        };
        store(r, _mm256_add_epi16(load(r), hi));
    }
    for _ in 0..i {
        mul_lanes(x, &t3.psi, k);
    }
}

/// `x = a[..1024]`, `tail = a[1024..]` (zero-padded).
#[target_feature(enable = "avx2")]
#[inline]
fn load_a3(x: &mut Poly, tail: &mut [[i16; 16]; TAIL], a: &[i16]) {
    let (lo, hi) = a.split_at(N);
    x.as_flattened_mut().copy_from_slice(lo);
    let t = tail.as_flattened_mut();
    t[..hi.len()].copy_from_slice(hi);
    t[hi.len()..].fill(0);
}

/// `dst = src` sign-extended (zero-padded), `src.len() <= 16 dst.len()`.
#[target_feature(enable = "avx2")]
#[inline]
fn widen(dst: &mut [[i16; 16]], src: &[i8]) {
    let (chunks, rest) = src.as_chunks::<16>();
    for (r, c) in dst.iter_mut().zip(chunks) {
        // SAFETY: `c` is 16 readable bytes; `loadu` has no alignment requirement.
        let v = unsafe { _mm_loadu_si128(c.as_ptr().cast()) };
        store(r, _mm256_cvtepi8_epi16(v));
    }
    let flat = dst.as_flattened_mut();
    let start = chunks.len() * 16;
    for (d, &s) in flat[start..].iter_mut().zip(rest) {
        *d = i16::from(s);
    }
    flat[start + rest.len()..].fill(0);
}

/// `E_i = D_i / 3` of prime `t` into `x` (|.| < 3p/4): part i of both
/// factors, forward transforms (`y` holds b's), pointwise product,
/// inverse, `ψ^(-ij) / 3`.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn part(x: &mut Poly, y: &mut Poly, (a, b): (&[i16], &[i8]), i: usize, (t, t3): (&Prime, &Three)) {
    let k = consts(t);
    let mut tail = [[0i16; 16]; TAIL];
    let mut tail = Wipe::new(&mut tail);
    load_a3(x, &mut tail, a);
    fold_twist(x, &tail, i, t3, k);
    forward(x, t, k);
    widen(y, &b[..N]);
    widen(&mut tail[..], &b[N..]);
    fold_twist(y, &tail, i, t3, k);
    forward(y, t, k);
    pointwise(x, y, k);
    inverse(x, t, k);
    for _ in 0..i {
        mul_lanes(x, &t3.psi_inv, k);
    }
    for r in x.iter_mut() {
        store(r, mulc(load(r), t3.third, k));
    }
}

/// `(c_j, c_(j+1024), c_(j+2048))` from `E_0, E_1, E_2` (|.| < 3p/4), each
/// reduced (|.| <= p/2 + p/2^9): `c_0 = E_0 + s`, `c_(1,2) = E_0 - s/2 ±
/// (ω^2 - ω)/2 (E_1 - E_2)` with `s = E_1 + E_2`.
#[target_feature(enable = "avx2")]
#[inline]
fn combine(e: [__m256i; 3], t3: &Three, k: K) -> [__m256i; 3] {
    let s = barrett(_mm256_add_epi16(e[1], e[2]), k);
    let n = mulc(_mm256_sub_epi16(e[1], e[2]), t3.rot, k);
    let u = barrett(_mm256_add_epi16(e[0], mulc(s, t3.neg_half, k)), k);
    [
        barrett(_mm256_add_epi16(e[0], s), k),
        barrett(_mm256_add_epi16(u, n), k),
        barrett(_mm256_sub_epi16(u, n), k),
    ]
}

/// The Garner step: `c` modulo q (|.| < 2^14) from `c1 = c mod 12289`
/// (|.| <= p1/2 + p1/2^9) and `c2 ≡ c mod 18433` (|c2 - c1| < 2^15).
#[derive(Clone, Copy)]
struct Garner {
    k2: K,
    kq: __m256i,
    pinv: (__m256i, __m256i),
    p1q: (__m256i, __m256i),
}

impl Garner {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new<const Q: i16>() -> Self {
        let pinv = const { mont(pow_mod(12289, 18433 - 2, 18433), 18433) };
        let p1q = const { mont(12289, Q as i64) };
        Garner {
            k2: consts(&P2),
            // Opaque, as the primes in `consts`.
            kq: core::hint::black_box(_mm256_set1_epi16(Q)),
            pinv: bc(pinv),
            p1q: bc(p1q),
        }
    }

    /// `c1 + 12289 u` modulo q, `u = (c2 - c1) / 12289 mod 18433` (exact: |u| < 700).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn apply(self, c1: __m256i, c2: __m256i) -> __m256i {
        let d = _mm256_sub_epi16(c2, c1);
        let u = barrett(montmul(d, self.pinv.0, self.pinv.1, self.k2.p), self.k2);
        _mm256_add_epi16(c1, montmul(u, self.p1q.0, self.p1q.1, self.kq))
    }
}

/// The full product `a b` into `full[..2p]` (`full[2p - 1] = 0`; `full` is
/// the product's scratch, at least [`NTT3_SCRATCH`] entries): with `REDUCE`
/// congruent to the product modulo q with `|full[k]| < 2^14`, else the exact
/// integer product (`|a|, |b| <= 1`). `|a| <= (q - 1) / 2 < 2^12`, `b`
/// small. Requires [`ntt3_fits`]`(P)`.
pub(crate) fn ntt3_mul<const P: usize, const Q: i16, const REDUCE: bool>(
    token: Avx2,
    full: &mut [i16],
    a: &[i16; P],
    b: &[i8; P],
) {
    assert!(ntt3_fits(P), "ntt3_mul: p outside 1025..=1280");
    const { assert!(Q < 1 << 13, "ntt3_mul: q >= 2^13") };
    let _ = token;
    // SAFETY: the `Avx2` token exists only when the CPU has AVX2.
    unsafe { ntt3_avx2::<Q, REDUCE>(&mut full[..NTT3_SCRATCH], a, b) };
    full[2 * P - 1] = 0;
}

/// Registers `r` as one transform.
fn slot(r: &mut [[i16; 16]]) -> &mut Poly {
    r.try_into().expect("64 registers")
}

/// [`ntt3_mul`] on the first [`NTT3_SCRATCH`] entries.
#[target_feature(enable = "avx2")]
fn ntt3_avx2<const Q: i16, const REDUCE: bool>(full: &mut [i16], a: &[i16], b: &[i8]) {
    let (mut x0, mut y0): (Poly, Poly) = ([[0; 16]; REGS], [[0; 16]; REGS]);
    let (mut xg, mut yg) = (Wipe::new(&mut x0), Wipe::new(&mut y0));
    let (x, y): (&mut Poly, &mut Poly) = (&mut xg, &mut yg);
    let ab = (a, b);
    let (regs, _) = full.as_chunks_mut::<16>();
    // 12289: the three parts in registers 0..192, then c mod 12289 in place.
    for i in 0..3 {
        part(
            slot(&mut regs[REGS * i..REGS * (i + 1)]),
            y,
            ab,
            i,
            (&P1, &T1),
        );
    }
    let k1 = consts(&P1);
    for r in 0..REGS {
        let e = [
            load(&regs[r]),
            load(&regs[REGS + r]),
            load(&regs[2 * REGS + r]),
        ];
        let c = combine(e, &T1, k1);
        for (i, v) in c.into_iter().enumerate() {
            store(&mut regs[REGS * i + r], v);
        }
    }
    if !REDUCE {
        return;
    }
    // 18433: E_0 in registers 160..224 (beside c mod 12289, whose
    // coefficients from 2560 on are zero), E_1 in x.
    let g = Garner::new::<Q>();
    let k2 = consts(&P2);
    let (c1, rest) = regs.split_at_mut(160);
    let s = slot(&mut rest[..REGS]);
    part(s, y, ab, 0, (&P2, &T2));
    part(x, y, ab, 1, (&P2, &T2));
    // j >= 512: c_(j+2048) = 0, so D_2 is not needed.
    let h = REGS / 2;
    for r in h..REGS {
        let (e0, e1) = (load(&s[r]), load(&x[r]));
        let hi = mulc(_mm256_sub_epi16(e0, e1), T2.one_minus_w2, k2);
        let lo = barrett(_mm256_sub_epi16(mulc(e0, T2.three, k2), hi), k2);
        for (i, v) in [lo, hi].into_iter().enumerate() {
            let o = &mut c1[REGS * i + r];
            let v = g.apply(load(o), v);
            store(o, v);
        }
    }
    // j < 512: E_1 beside E_0, then E_2 in x.
    let (s_lo, s_hi) = s.split_at_mut(h);
    s_hi.copy_from_slice(&x[..h]);
    part(x, y, ab, 2, (&P2, &T2));
    for r in 0..h {
        let c = combine([load(&s_lo[r]), load(&s_hi[r]), load(&x[r])], &T2, k2);
        for (i, v) in c.into_iter().enumerate() {
            let o = &mut c1[REGS * i + r];
            let v = g.apply(load(o), v);
            store(o, v);
        }
    }
}
