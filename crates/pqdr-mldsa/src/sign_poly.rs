//! Per-polynomial steps of `ML-DSA.Sign_internal` (FIPS 204 Algorithm 7,
//! lines 12–23), each dispatched to its AVX2 kernel (`arch::x86_64::sign`)
//! when available, else to the portable twin here (the same formulas, so
//! both give identical bytes and identical accept/reject decisions).
//!
//! Every input is secret for a rejected attempt: no branch or index on
//! coefficient values; the norm checks return values that are negative
//! exactly when the bound is reached (the caller ORs them and tests the
//! sign bit once, see `field::exceeds`).

use crate::encode::pack;
use crate::field::{center, exceeds, freeze, reduce_wide};
use crate::keygen;
use crate::params::{D, ParameterSet};
use crate::poly::Poly;
use crate::rounding::{decompose, high_bits};

/// Lines 18–21 for one z_j: centre(z mod q) (z in (−q, q)), packed as
/// `BitPack(z, γ1 − 1, γ1)` (FIPS 204 Algorithm 17) into `out`; negative iff
/// ‖z‖∞ ≥ `bound` (γ1 − β). `z` is scratch afterwards (the portable twin
/// centres it in place, the AVX2 kernel leaves it).
#[inline(always)]
pub(crate) fn z_pack(z: &mut Poly, out: &mut [u8], gamma1_bits: u32, bound: i32) -> i32 {
    match crate::arch::avx2() {
        Some(token) => crate::arch::z_pack(token, &z.0, out, gamma1_bits, bound),
        None => z_pack_portable(z, out, gamma1_bits, bound),
    }
}

/// The portable twin of [`z_pack`] (inlined: the widths are constants at
/// the call site, as `pack` needs for its fast form).
#[inline(always)]
pub(crate) fn z_pack_portable(z: &mut Poly, out: &mut [u8], gamma1_bits: u32, bound: i32) -> i32 {
    let gamma1 = 1i32 << gamma1_bits;
    let mut bad = 0;
    for x in &mut z.0 {
        *x = center(freeze(*x));
        bad |= exceeds(*x, bound);
    }
    pack(out, z, gamma1_bits + 1, |c| gamma1.wrapping_sub(c));
    bad
}

/// Lines 12–15 for one w_i: w ← w mod q in [0, q) (w in (−q, q)), and
/// `w1Encode(HighBits(w))` (FIPS 204 Algorithms 28, 37) into `out`.
#[inline(always)]
pub(crate) fn w1_pack<const G2: i32>(w: &mut Poly, out: &mut [u8], w1_bits: u32) {
    match crate::arch::avx2() {
        Some(token) => crate::arch::w1_pack(token, &mut w.0, out, G2),
        None => w1_pack_portable::<G2>(w, out, w1_bits),
    }
}

/// The portable twin of [`w1_pack`] (inlined: the widths are constants at
/// the call site, as `pack` needs for its fast form).
#[inline(always)]
pub(crate) fn w1_pack_portable<const G2: i32>(w: &mut Poly, out: &mut [u8], w1_bits: u32) {
    w.freeze();
    pack(out, w, w1_bits, high_bits::<G2>);
}

/// Lines 20–21 for one row: w ← (w − cs2) mod q (w in [0, q), cs2 in
/// (−q, q)); negative iff ‖LowBits(w − cs2)‖∞ ≥ `bound` (γ2 − β;
/// Algorithm 36).
#[inline(always)]
pub(crate) fn low_bits_check<const G2: i32>(w: &mut Poly, cs2: &Poly, bound: i32) -> i32 {
    match crate::arch::avx2() {
        Some(token) => crate::arch::low_bits_check(token, &mut w.0, &cs2.0, G2, bound),
        None => low_bits_check_portable::<G2>(w, cs2, bound),
    }
}

/// The portable twin of [`low_bits_check`] (inlined: the widths are constants at
/// the call site, as `pack` needs for its fast form).
#[inline(always)]
pub(crate) fn low_bits_check_portable<const G2: i32>(w: &mut Poly, cs2: &Poly, bound: i32) -> i32 {
    let mut bad = 0;
    for (x, &c) in w.0.iter_mut().zip(cs2.0.iter()) {
        *x = reduce_wide(x.wrapping_sub(freeze(c)));
        bad |= exceeds(decompose::<G2>(*x).1, bound);
    }
    bad
}

/// Lines 25–28 for one row (FIPS 204 Algorithm 7): ct0 ← centre(ct0 mod q)
/// (ct0 from NTT^−1, in (−q, q)), and w ← the hint row of MakeHint(−ct0, w +
/// ct0) as 0/1 coefficients (Algorithm 39: HighBits(w + ct0) ≠ HighBits(w),
/// w = w − cs2 in [0, q)). Returns (number of hints, a value negative iff
/// ‖ct0‖∞ ≥ γ2).
#[inline(always)]
pub(crate) fn make_hint<const G2: i32>(w: &mut Poly, ct0: &Poly) -> (i32, i32) {
    match crate::arch::avx2() {
        Some(token) => crate::arch::make_hint(token, &mut w.0, &ct0.0, G2),
        None => make_hint_portable::<G2>(w, ct0),
    }
}

/// The portable twin of [`make_hint`].
#[inline(always)]
pub(crate) fn make_hint_portable<const G2: i32>(w: &mut Poly, ct0: &Poly) -> (i32, i32) {
    let (mut count, mut bad) = (0i32, 0i32);
    for (x, &c) in w.0.iter_mut().zip(ct0.0.iter()) {
        let ct0 = center(freeze(c));
        bad |= exceeds(ct0, G2);
        let d = high_bits::<G2>(reduce_wide(x.wrapping_add(ct0))) ^ high_bits::<G2>(*x);
        let hint = (d | d.wrapping_neg()) >> 31 & 1;
        *x = hint;
        count = count.wrapping_add(hint);
    }
    (count, bad)
}

/// s1_j or s2_i from the encoded signing key (`BitUnpack(·, η, η)`, FIPS
/// 204 Algorithms 25, 19): the AVX2 kernel when available, else
/// `keygen::unpack_eta` (its twin).
#[inline(always)]
pub(crate) fn unpack_eta<P: ParameterSet>(p: &mut Poly, bytes: &[u8]) {
    match crate::arch::avx2() {
        Some(token) => crate::arch::sk_unpack(token, &mut p.0, bytes, P::ETA_BITS, P::ETA),
        None => keygen::unpack_eta::<P>(p, bytes),
    }
}

/// t0_i from the encoded signing key (`BitUnpack(·, 2^12 − 1, 2^12)`, FIPS
/// 204 Algorithm 25): the AVX2 kernel when available, else
/// `keygen::unpack_t0` (its twin).
#[inline(always)]
pub(crate) fn unpack_t0(p: &mut Poly, bytes: &[u8]) {
    match crate::arch::avx2() {
        Some(token) => crate::arch::sk_unpack(token, &mut p.0, bytes, D, 1 << (D - 1)),
        None => keygen::unpack_t0(p, bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Q;

    /// A deterministic generator of values in (−q, q).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> i32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            ((self.0 >> 16) % (2 * Q as u64 - 1)) as i32 - (Q - 1)
        }
    }

    /// Random polynomials and edge values (0, ±1, ±(q − 1), ±(q − 1)/2,
    /// ±γ1, the bounds ±1, the Decompose corner q − 1 and multiples of 2γ2
    /// ± 1), with small-range polynomials that pass the norm checks and
    /// single out-of-bound coefficients that fail them; AVX2 against the
    /// portable twins, every set's γ1, γ2.
    #[test]
    fn kernels_match_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut edges = [0i32; 56];
        edges[..8].copy_from_slice(&[
            0,
            1,
            -1,
            Q - 1,
            1 - Q,
            (Q - 1) / 2,
            -(Q - 1) / 2,
            (Q + 1) / 2,
        ]);
        let mut n = 8;
        for g in [1 << 17, 1 << 19, 261_888, 95_232] {
            for d in [-1, 0, 1] {
                edges[n..n + 4].copy_from_slice(&[g + d, -g - d, (2 * g + d) % Q, Q - 1 - d]);
                n += 4;
            }
        }
        for t in 0..400 {
            let z = Poly(core::array::from_fn(|i| match t {
                0 => edges[i % edges.len()],
                // Small: inside every bound but for one coefficient.
                1..=99 => {
                    let v = rng.next() % 1000;
                    if i == t { v + (1 << 19) - 200 } else { v }
                }
                _ => rng.next(),
            }));
            for (g1, beta) in [(17u32, 78), (19, 196), (19, 120)] {
                let bound = (1 << g1) - beta;
                let (mut a, mut b) = ([0u8; 640], [0u8; 640]);
                let len = 32 * (g1 as usize + 1);
                let ra = crate::arch::z_pack(token, &z.0, &mut a[..len], g1, bound);
                let rb = z_pack_portable(&mut { z }, &mut b[..len], g1, bound);
                assert_eq!(a, b, "z_pack bytes, t {t}, γ1 bits {g1}");
                assert_eq!(ra < 0, rb < 0, "z_pack check, t {t}");
            }
            let cs2 = Poly(core::array::from_fn(|_| rng.next() % 200));
            check_w::<261_888>(token, &z, &cs2, 4, 261_888 - 196);
            check_w::<95_232>(token, &z, &cs2, 6, 95_232 - 78);
        }
    }

    /// MakeHint (Algorithm 39) with the ct0 bound: w in [0, q) near the
    /// HighBits boundaries (r1·2γ2 ± γ2, the q − 1 corner) and anywhere,
    /// ct0 small (hints both ways), at the bound ±γ2 and ±(γ2 − 1), and
    /// anywhere in (−q, q); AVX2 against the portable twin, both γ2.
    #[test]
    fn make_hint_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        fn run<const G2: i32>(token: crate::arch::Avx2, rng: &mut Rng) {
            let mut hints_seen = 0;
            for t in 0..300 {
                let w = Poly(core::array::from_fn(|i| {
                    let r = rng.next();
                    let near = (r.rem_euclid(44) * 2 * G2 + G2 + r % 300).rem_euclid(Q);
                    match (t + i) % 4 {
                        0 => r.rem_euclid(Q),
                        1 => near,
                        2 => (Q - 1 - r.rem_euclid(300)).max(0),
                        _ => r.rem_euclid(300),
                    }
                }));
                let ct0 = Poly(core::array::from_fn(|i| match t % 3 {
                    0 => rng.next() % 400,
                    1 => [G2, -G2, G2 - 1, 1 - G2, 0, 1, -1, Q - 1, 1 - Q][i % 9],
                    _ => rng.next(),
                }));
                let (mut wa, mut wb) = (w, w);
                let ma = crate::arch::make_hint(token, &mut wa.0, &ct0.0, G2);
                let mb = make_hint_portable::<G2>(&mut wb, &ct0);
                assert_eq!(wa.0, wb.0, "make_hint hints, t {t}, γ2 {G2}");
                assert_eq!(ma.0, mb.0, "make_hint count, t {t}, γ2 {G2}");
                assert_eq!(ma.1 < 0, mb.1 < 0, "make_hint bound, t {t}, γ2 {G2}");
                hints_seen += mb.0;
            }
            assert!(hints_seen > 1000, "too few hints to test: {hints_seen}");
        }
        let mut rng = Rng(0x0f1e_2d3c_4b5a_6978);
        run::<261_888>(token, &mut rng);
        run::<95_232>(token, &mut rng);
    }

    /// The signing key's unpacking (s1, s2 for η = 2 and 4, t0): AVX2
    /// against `keygen::unpack_eta` / `keygen::unpack_t0` on random bytes,
    /// all zeros and all ones.
    #[test]
    fn sk_unpack_matches_portable() {
        use crate::params::{MlDsa44, MlDsa65};
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut rng = Rng(0x2468_ace0_1357_9bdf);
        for t in 0..200 {
            let mut bytes = [0u8; 416];
            for b in &mut bytes {
                *b = match t {
                    0 => 0,
                    1 => 0xff,
                    _ => rng.next().to_le_bytes()[1],
                };
            }
            let (mut a, mut b) = (Poly::ZERO, Poly::ZERO);
            crate::arch::sk_unpack(token, &mut a.0, &bytes[..96], 3, 2);
            keygen::unpack_eta::<MlDsa44>(&mut b, &bytes[..96]);
            assert_eq!(a.0, b.0, "η = 2, t {t}");
            crate::arch::sk_unpack(token, &mut a.0, &bytes[..128], 4, 4);
            keygen::unpack_eta::<MlDsa65>(&mut b, &bytes[..128]);
            assert_eq!(a.0, b.0, "η = 4, t {t}");
            crate::arch::sk_unpack(token, &mut a.0, &bytes, 13, 1 << 12);
            keygen::unpack_t0(&mut b, &bytes);
            assert_eq!(a.0, b.0, "t0, t {t}");
        }
    }

    fn check_w<const G2: i32>(
        token: crate::arch::Avx2,
        w: &Poly,
        cs2: &Poly,
        bits: u32,
        bound: i32,
    ) {
        let (mut a, mut b) = ([0u8; 192], [0u8; 192]);
        let len = 32 * bits as usize;
        let (mut wa, mut wb) = (*w, *w);
        crate::arch::w1_pack(token, &mut wa.0, &mut a[..len], G2);
        w1_pack_portable::<G2>(&mut wb, &mut b[..len], bits);
        assert_eq!((a, wa.0), (b, wb.0), "w1_pack, γ2 {G2}");
        let ra = crate::arch::low_bits_check(token, &mut wa.0, &cs2.0, G2, bound);
        let rb = low_bits_check_portable::<G2>(&mut wb, cs2, bound);
        assert_eq!(wa.0, wb.0, "low_bits_check w, γ2 {G2}");
        assert_eq!(ra < 0, rb < 0, "low_bits_check result, γ2 {G2}");
        // MakeHint on w − cs2 in [0, q): ct0 both small (hints near the
        // HighBits boundaries, within the bound) and anywhere in (−q, q).
        for ct0 in [*cs2, *w] {
            let (mut ha, mut hb) = (wa, wb);
            let ma = crate::arch::make_hint(token, &mut ha.0, &ct0.0, G2);
            let mb = make_hint_portable::<G2>(&mut hb, &ct0);
            assert_eq!(ha.0, hb.0, "make_hint hints, γ2 {G2}");
            assert_eq!(ma.0, mb.0, "make_hint count, γ2 {G2}");
            assert_eq!(ma.1 < 0, mb.1 < 0, "make_hint bound, γ2 {G2}");
        }
    }
}
