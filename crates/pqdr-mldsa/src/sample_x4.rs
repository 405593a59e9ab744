//! Four XOF streams at a time (FIPS 204 §7.3 on `pqdr_keccak`'s 4-way
//! sponges): `ExpandA` and `ExpandS` (Algorithms 32, 33; `ExpandMask`,
//! Algorithm 34, is in `mask_x4`) sample
//! four polynomials per Keccak-f\[1600\]×4 call. Each lane gives exactly the
//! polynomial of the one-at-a-time sampler in `sample.rs` (same byte stream,
//! same acceptance), so the outputs are identical; the differential tests
//! below check it.
//!
//! The 4-way path is taken only when the permutation runs on SIMD
//! ([`simd_backend`]): the portable 4-way permutation is no faster than four
//! scalar ones, so without AVX2 (or without the `simd` feature) the callers
//! keep the one-at-a-time samplers.
#![allow(
    clippy::cast_possible_truncation,
    reason = "matrix indices are below 8 and fit a byte"
)]

use pqdr_common::simd::{Avx2, Avx512Vl};
use pqdr_keccak::{Shake128x4, Shake256Lane, Shake256x4};
use zeroize::Zeroize;

use crate::poly::{N, Poly, mul_acc};
use crate::sample::{
    SHAKE128_RATE, SHAKE256_RATE, mul_acc_coeff, rej_bounded_fill, rej_bounded_poly,
    rej_ntt_consume, rej_ntt_fill, rej_ntt_mul_acc, rej_ntt_poly,
};

/// The AVX2 token for the 4-way Keccak if this crate's feature `simd` is on
/// and the CPU has AVX2, else `None` (use the scalar samplers). This crate's
/// feature decides, whatever other crates enable in pqdr-keccak.
#[inline]
pub(crate) fn simd_backend() -> Option<Avx2> {
    Avx2::detect_if(cfg!(feature = "simd"))
}

/// The 4-way Keccak of Â's streams (ρ is public, FIPS 204 Algorithm 32):
/// the AVX2 token (`None`: the portable 4-way permutation, for tests) and,
/// on a CPU with AVX-512F/VL, that token too. pqdr-keccak runs AVX-512 only
/// in its public-input sponges (`SpongeX4::with_public_input`): valgrind
/// cannot execute it, so it is used for public streams only
/// (docs/constant-time.md §8): Â and the `tr = H(pk)` rider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PublicX4 {
    avx2: Option<Avx2>,
    avx512: Option<Avx512Vl>,
}

impl PublicX4 {
    /// The 4-way path for public streams if [`simd_backend`] gives one
    /// (AVX2), with AVX-512F/VL where detected (this crate's feature `simd`
    /// decides, as for AVX2).
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        simd_backend().map(|t| Self {
            avx2: Some(t),
            avx512: Avx512Vl::detect_if(cfg!(feature = "simd")),
        })
    }

    /// Whether the AVX-512F/VL permutation runs.
    #[cfg(test)]
    pub(crate) fn has_avx512(self) -> bool {
        self.avx512.is_some()
    }
}

/// One block of each of the four SHAKE128 streams.
#[inline(always)]
fn squeeze128(x: &mut Shake128x4, buf: &mut [[u8; SHAKE128_RATE]; 4]) {
    let [b0, b1, b2, b3] = buf;
    x.squeeze_blocks([b0, b1, b2, b3]);
}

/// One block of each of the four SHAKE256 streams.
#[inline(always)]
fn squeeze256(x: &mut Shake256x4, buf: &mut [[u8; SHAKE256_RATE]; 4]) {
    let [b0, b1, b2, b3] = buf;
    x.squeeze_blocks([b0, b1, b2, b3]);
}

/// SHAKE128(ρ‖s‖r) for four index pairs `sr` = [s, r] (FIPS 204 Algorithm
/// 32), on pqdr-keccak's public-input sponges (ρ is public).
#[inline(always)]
fn shake128_rho(backend: PublicX4, rho: &[u8; 32], sr: &[[u8; 2]; 4]) -> Shake128x4 {
    let mut g = Shake128x4::with_public_input(backend.avx2, backend.avx512);
    g.absorb([rho; 4]);
    g.absorb([&sr[0], &sr[1], &sr[2], &sr[3]]);
    g
}

/// Four `RejNTTPoly(ρ‖s‖r)` (FIPS 204 Algorithm 30) with `sr` = [s, r] per
/// lane: `out[k]` = Â[r_k][s_k]. A `None` lane is squeezed along (the
/// permutation is 4-way anyway) but neither parsed nor waited for. ρ is public.
pub(crate) fn rej_ntt_poly_x4(
    backend: PublicX4,
    out: [Option<&mut Poly>; 4],
    rho: &[u8; 32],
    sr: [[u8; 2]; 4],
) {
    rej_ntt_poly_x4_riding(backend, out, rho, sr, None);
}

/// [`rej_ntt_poly_x4`], with `rider` (a sponge and the prefix of its
/// message written so far, e.g. `tr = H(pk)` over the rows of t1 done)
/// permuting its next whole blocks in lane 3, one per permutation: then
/// `out[3]` must be `None`. Branches on lengths and the public Â only.
pub(crate) fn rej_ntt_poly_x4_riding(
    backend: PublicX4,
    out: [Option<&mut Poly>; 4],
    rho: &[u8; 32],
    sr: [[u8; 2]; 4],
    mut rider: Option<(&mut Shake256Lane, &[u8])>,
) {
    debug_assert!(rider.is_none() || out[3].is_none());
    let mut g = shake128_rho(backend, rho, &sr);
    let mut buf = [[0u8; SHAKE128_RATE]; 4];
    let mut ctr = out.each_ref().map(|o| if o.is_some() { 0 } else { N });
    let mut out = out;
    while ctr.iter().any(|&c| c < N) {
        if let Some((h, prefix)) = rider.as_mut() {
            let [b0, b1, b2, _] = &mut buf;
            g.squeeze_blocks_riding([b0, b1, b2], &mut **h, prefix);
        } else {
            squeeze128(&mut g, &mut buf);
        }
        for ((o, c), b) in out.iter_mut().zip(ctr.iter_mut()).zip(buf.iter()) {
            if let Some(o) = o {
                *c = rej_ntt_fill(&mut o.0, *c, b);
            }
        }
    }
}

/// Up to four polynomials of `it` as the lanes of a 4-way call (`None` for
/// the missing ones).
fn lanes<'a, T>(it: impl IntoIterator<Item = &'a mut T>) -> [Option<&'a mut T>; 4] {
    let mut it = it.into_iter();
    core::array::from_fn(|_| it.next())
}

/// The rows of Â = `ExpandA(ρ)` (FIPS 204 Algorithm 32) one after the
/// other, each entry sampled once and used once, four entries per 4-way
/// call in row-major order across row boundaries (a batch that runs into the
/// next row keeps those entries for it), so only the very last batch of the
/// matrix can have idle lanes. With a rider ([`Self::mul_acc_row_riding`]),
/// some batches take three entries and lend lane 3 to it. ρ is public.
pub(crate) struct MatrixRows<'a> {
    rho: &'a [u8; 32],
    l: usize,
    entries: usize,
    backend: Option<PublicX4>,
    /// The last 4-way batch: `buf[..filled]`; its lanes from the first
    /// entry of a later row on belong to later rows.
    buf: [Poly; 4],
    filled: usize,
    /// Row-major index of the next entry not yet sampled.
    next: usize,
}

/// A rider's whole blocks that make a batch give it lane 3 when the batch
/// has no idle lane anyway: the permutations one batch runs (RejNTTPoly
/// squeezes five SHAKE128 blocks, FIPS 204 Algorithm 30), so that a lane
/// taken from Â carries a full load.
const RIDE_MIN_BLOCKS: usize = 5;

impl<'a> MatrixRows<'a> {
    /// The rows of the k × l matrix Â of ρ.
    pub(crate) fn new(rho: &'a [u8; 32], k: usize, l: usize) -> Self {
        Self {
            rho,
            l,
            entries: k * l,
            backend: PublicX4::detect(),
            buf: [Poly::ZERO; 4],
            filled: 0,
            next: 0,
        }
    }

    /// acc += Σ_s Â[r][s] ∘ v_s (i64 products) for the next row r (rows
    /// must be asked for in order 0, 1, …).
    pub(crate) fn mul_acc_row(&mut self, acc: &mut [i64; N], r: usize, v: &[Poly]) {
        self.mul_acc_row_riding(acc, r, v, None);
    }

    /// [`Self::mul_acc_row`]; on the 4-way path, `rider` (a sponge and the
    /// prefix of its message written so far) permutes its pending whole
    /// blocks in lane 3 of the batches that have an idle lane, or that it
    /// can fill ([`RIDE_MIN_BLOCKS`] pending; such a batch samples three
    /// entries). Without the 4-way path the rider is left as it is.
    /// Branches on lengths only.
    pub(crate) fn mul_acc_row_riding(
        &mut self,
        acc: &mut [i64; N],
        r: usize,
        v: &[Poly],
        mut rider: Option<(&mut Shake256Lane, &[u8])>,
    ) {
        let start = r * self.l;
        let end = start + self.l;
        let Some(backend) = self.backend else {
            scalar_row(acc, self.rho, r, v);
            return;
        };
        // Entries start .. next came with the previous row's last batch, in
        // its last lanes.
        let carried = self.next - start;
        for (a, x) in self.buf[self.filled - carried..self.filled].iter().zip(v) {
            mul_acc(acc, a, x);
        }
        while self.next < end {
            let e0 = self.next;
            let mut n = (self.entries - e0).min(4);
            let ride = rider.as_ref().is_some_and(|(h, prefix)| {
                h.pending(prefix, 1) && (n < 4 || h.pending(prefix, RIDE_MIN_BLOCKS))
            });
            if ride {
                n = n.min(3);
            }
            // (s, r) of entry e0 + k: entries run past `end` into row r + 1.
            let sr = core::array::from_fn(|k| {
                let e = e0 + k.min(n - 1);
                if e < end {
                    [(e - start) as u8, r as u8]
                } else {
                    [(e - end) as u8, (r + 1) as u8]
                }
            });
            let lane3 = rider
                .as_mut()
                .filter(|_| ride)
                .map(|(h, prefix)| (&mut **h, *prefix));
            rej_ntt_poly_x4_riding(backend, lanes(&mut self.buf[..n]), self.rho, sr, lane3);
            self.next += n;
            self.filled = n;
            for (k, a) in self.buf[..n].iter().enumerate() {
                if e0 + k < end {
                    mul_acc(acc, a, &v[e0 + k - start]);
                }
            }
        }
    }
}

/// acc += Σ_k mont(Â[r][s_k] ∘ y_k) for the four entries `s` of row `r`,
/// sampled as they are consumed (the 4-way [`rej_ntt_mul_acc`]).
fn rej_ntt_mul_acc_x4(
    backend: PublicX4,
    acc: &mut Poly,
    rho: &[u8; 32],
    s: [usize; 4],
    r: usize,
    y: [&Poly; 4],
) {
    let sr = s.map(|s| [s as u8, r as u8]);
    let mut g = shake128_rho(backend, rho, &sr);
    let mut buf = [[0u8; SHAKE128_RATE]; 4];
    let mut ctr = [0usize; 4];
    while ctr.iter().any(|&c| c < N) {
        squeeze128(&mut g, &mut buf);
        for ((y, c), b) in y.iter().zip(ctr.iter_mut()).zip(buf.iter()) {
            *c = rej_ntt_consume(b, *c, |i, z| mul_acc_coeff(acc, y, i, z));
        }
    }
}

/// acc += Σ_s Â[r][s] ∘ v_s one entry at a time (no 4-way Keccak). Out of
/// line, so that its entry buffer is not part of the caller's frame.
#[inline(never)]
fn scalar_row(acc: &mut [i64; N], rho: &[u8; 32], r: usize, v: &[Poly]) {
    let mut a = Poly::ZERO;
    for (j, x) in v.iter().enumerate() {
        rej_ntt_poly(&mut a, rho, j, r);
        mul_acc(acc, &a, x);
    }
}

/// `ExpandA(ρ)` (FIPS 204 Algorithm 32) into `a` (row-major, `l` columns):
/// entry r·l + s is `RejNTTPoly(ρ‖s‖r)`, four entries per 4-way call (the
/// last call with idle lanes if k·l is not a multiple of 4).
pub(crate) fn expand_a(rho: &[u8; 32], a: &mut [Poly], l: usize) {
    expand_a_with(PublicX4::detect(), rho, a, l);
}

/// [`expand_a`] on `backend` (`None`: the scalar samplers).
fn expand_a_with(backend: Option<PublicX4>, rho: &[u8; 32], a: &mut [Poly], l: usize) {
    // (s, r) of entry e, by counting (no division).
    let sr = |e: usize| {
        let (mut s, mut r) = (e, 0);
        while s >= l {
            s -= l;
            r += 1;
        }
        (s, r)
    };
    if let Some(backend) = backend {
        for (b, batch) in a.chunks_mut(4).enumerate() {
            let n = batch.len();
            let idx: [[u8; 2]; 4] = core::array::from_fn(|k| {
                let (s, r) = sr(4 * b + k.min(n - 1));
                [s as u8, r as u8]
            });
            rej_ntt_poly_x4(backend, lanes(batch), rho, idx);
        }
        return;
    }
    for (k, p) in a.iter_mut().enumerate() {
        let (s, r) = sr(k);
        rej_ntt_poly(p, rho, s, r);
    }
}

/// w += Σ_s mont(Â[r][s] ∘ ŷ_s) (Montgomery products, |ŷ| < 9q; the caller
/// reduces after at most 7), each entry consumed as sampled, four at a time.
pub(crate) fn row_mul_acc_mont(w: &mut Poly, rho: &[u8; 32], r: usize, y: &[Poly]) {
    let mut s = 0;
    if let Some(backend) = PublicX4::detect() {
        while let Some([y0, y1, y2, y3]) = y.get(s..s + 4) {
            rej_ntt_mul_acc_x4(
                backend,
                w,
                rho,
                [s, s + 1, s + 2, s + 3],
                r,
                [y0, y1, y2, y3],
            );
            s += 4;
        }
    }
    for (j, yj) in y.iter().enumerate().skip(s) {
        rej_ntt_mul_acc(w, rho, j, r, yj);
    }
}

/// Four `RejBoundedPoly(ρ'‖r_k)` (FIPS 204 Algorithm 31, ExpandS). ρ' is
/// secret; only the accept bits are released, as in [`rej_bounded_poly`].
/// A `None` lane is squeezed along but never parsed.
pub(crate) fn rej_bounded_poly_x4(
    backend: Option<Avx2>,
    out: [Option<&mut Poly>; 4],
    rho_prime: &[u8; 64],
    r: [u16; 4],
    eta: i32,
) {
    let mut x = Shake256x4::with_avx2(backend);
    x.absorb([rho_prime; 4]);
    let idx = r.map(u16::to_le_bytes);
    x.absorb([&idx[0], &idx[1], &idx[2], &idx[3]]);
    let mut buf = [[0u8; SHAKE256_RATE]; 4];
    let mut ctr = out.each_ref().map(|o| if o.is_some() { 0 } else { N });
    let mut out = out;
    while ctr.iter().any(|&c| c < N) {
        squeeze256(&mut x, &mut buf);
        for ((o, c), b) in out.iter_mut().zip(ctr.iter_mut()).zip(buf.iter()) {
            if let Some(o) = o {
                *c = rej_bounded_fill(b, *c, o, eta);
            }
        }
    }
    buf.zeroize();
}

/// `ExpandS(ρ')` (FIPS 204 Algorithm 33): calls `store(r, s_r)` for r = 0 ..
/// `count` (s1 then s2), four polynomials per 4-way call (the last one with
/// idle lanes if `count` is not a multiple of 4).
pub(crate) fn expand_s(
    rho_prime: &[u8; 64],
    count: usize,
    eta: i32,
    mut store: impl FnMut(usize, &Poly),
) {
    if let Some(token) = simd_backend() {
        let mut tmp = [Poly::ZERO; 4];
        let mut r = 0;
        while r < count {
            let n = (count - r).min(4);
            let idx = core::array::from_fn(|k| (r + k.min(n - 1)) as u16);
            rej_bounded_poly_x4(Some(token), lanes(&mut tmp[..n]), rho_prime, idx, eta);
            for (k, t) in tmp[..n].iter().enumerate() {
                store(r + k, t);
            }
            r += n;
        }
        tmp.zeroize();
        return;
    }
    let mut s = Poly::ZERO;
    for r in 0..count {
        rej_bounded_poly(&mut s, rho_prime, r as u16, eta);
        store(r, &s);
    }
    s.zeroize();
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The backends to compare against the scalar samplers: the portable
    /// 4-way permutation always, AVX2 too when the CPU has it.
    fn backends() -> impl Iterator<Item = Option<Avx2>> {
        [None, Avx2::detect()].into_iter()
    }

    /// The 4-way paths of Â's public streams: portable, AVX2 (when the CPU
    /// has it) and AVX-512F/VL over AVX2 (when it has that too; the test
    /// says so when it does not).
    fn public_backends() -> impl Iterator<Item = PublicX4> {
        extern crate std;
        let avx512 = Avx512Vl::detect();
        static ONCE: std::sync::Once = std::sync::Once::new();
        if avx512.is_none() {
            use std::io::Write;
            // Past the test harness's output capture: shown on every run.
            ONCE.call_once(|| {
                let _ = std::writeln!(
                    std::io::stderr(),
                    "NOTE: AVX-512F/VL not detected (CPU, or PQDR_FORCE_PORTABLE=1/avx2): \
                     the AVX-512 path of ExpandA is NOT tested in this run"
                );
            });
        }
        [
            PublicX4 {
                avx2: None,
                avx512: None,
            },
            PublicX4 {
                avx2: Avx2::detect(),
                avx512: None,
            },
            PublicX4 {
                avx2: Avx2::detect(),
                avx512,
            },
        ]
        .into_iter()
    }

    /// Â = ExpandA(ρ) of every set's shape, on the AVX-512 path against the
    /// AVX2 path and the scalar samplers.
    #[test]
    fn expand_a_paths_agree() {
        for (k, l) in [(4, 4), (6, 5), (8, 7)] {
            for t in 0..8 {
                let rho = seed::<32>(500 + t);
                let mut want = [Poly::ZERO; 56];
                expand_a_with(None, &rho, &mut want[..k * l], l);
                for backend in public_backends() {
                    let mut got = [Poly::ZERO; 56];
                    expand_a_with(Some(backend), &rho, &mut got[..k * l], l);
                    for (e, (g, w)) in got[..k * l].iter().zip(&want).enumerate() {
                        assert_eq!(g.0, w.0, "{backend:?}, ({k}, {l}), entry {e}");
                    }
                }
            }
        }
        // The production choice: AVX-512 exactly when detected (with AVX2).
        assert_eq!(
            PublicX4::detect().is_some_and(PublicX4::has_avx512),
            cfg!(feature = "simd") && Avx2::detect().is_some() && Avx512Vl::detect().is_some()
        );
    }

    /// The 4-way path follows this crate's own feature `simd` (and the CPU),
    /// not pqdr-keccak's: with `pqdr-keccak/simd` turned on by another crate
    /// and this crate's `simd` off, the scalar samplers still run.
    #[test]
    fn four_way_path_follows_this_crates_simd_feature() {
        let want = cfg!(feature = "simd") && Avx2::detect().is_some();
        assert_eq!(simd_backend().is_some(), want);
    }

    /// Deterministic test bytes (xorshift) for seed `t`; also used by `mask_x4`'s tests.
    pub(crate) fn seed<const L: usize>(t: u32) -> [u8; L] {
        let mut s = t.wrapping_mul(2_654_435_761).wrapping_add(1);
        core::array::from_fn(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s as u8
        })
    }

    #[test]
    fn rej_ntt_x4_matches_scalar() {
        for t in 0..300 {
            let rho = seed::<32>(t);
            let sr: [[u8; 2]; 4] = core::array::from_fn(|k| [(t as u8 + k as u8) & 7, k as u8]);
            for backend in public_backends() {
                let mut got = [Poly::ZERO; 4];
                let [g0, g1, g2, g3] = &mut got;
                rej_ntt_poly_x4(backend, [Some(g0), Some(g1), Some(g2), Some(g3)], &rho, sr);
                for (g, [s, r]) in got.iter().zip(sr) {
                    let mut want = Poly::ZERO;
                    rej_ntt_poly(&mut want, &rho, s.into(), r.into());
                    assert_eq!(g.0, want.0);
                }
            }
        }
    }

    /// Idle (`None`) lanes: the others are still the scalar samplers' output.
    #[test]
    fn partial_batches_match_scalar() {
        for t in 0..50 {
            let rho = seed::<32>(t);
            let sr: [[u8; 2]; 4] = core::array::from_fn(|k| [k as u8, (t & 7) as u8]);
            for backend in public_backends() {
                for n in 1..4 {
                    let mut got = [Poly::ZERO; 4];
                    rej_ntt_poly_x4(backend, lanes(&mut got[..n]), &rho, sr);
                    for (k, g) in got.iter().enumerate() {
                        let mut want = Poly::ZERO;
                        if k < n {
                            rej_ntt_poly(&mut want, &rho, sr[k][0].into(), sr[k][1].into());
                        }
                        assert_eq!(g.0, want.0, "lanes {n}, lane {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn expand_a_and_rows_match_scalar() {
        for (k, l) in [(4, 4), (6, 5), (8, 7)] {
            for t in 0..20 {
                let rho = seed::<32>(t);
                let mut a = [Poly::ZERO; 56];
                expand_a(&rho, &mut a[..k * l], l);
                let mut y = [Poly::ZERO; 7];
                for (j, p) in y.iter_mut().enumerate() {
                    *p = Poly(core::array::from_fn(|i| {
                        ((i * 7919 + j * 104_729 + t as usize) & 0x3f_ffff) as i32 - (1 << 21)
                    }));
                }
                let mut rows = MatrixRows::new(&rho, k, l);
                for r in 0..k {
                    let mut acc = [0i64; N];
                    let mut w = Poly::ZERO;
                    rows.mul_acc_row(&mut acc, r, &y[..l]);
                    row_mul_acc_mont(&mut w, &rho, r, &y[..l]);
                    let mut want_acc = [0i64; N];
                    let mut want_w = Poly::ZERO;
                    for s in 0..l {
                        let mut e = Poly::ZERO;
                        rej_ntt_poly(&mut e, &rho, s, r);
                        assert_eq!(a[r * l + s].0, e.0, "entry ({r}, {s})");
                        mul_acc(&mut want_acc, &e, &y[s]);
                        rej_ntt_mul_acc(&mut want_w, &rho, s, r, &y[s]);
                    }
                    assert_eq!(acc, want_acc);
                    assert_eq!(w.0, want_w.0);
                }
            }
        }
    }

    /// Rows with `tr = H(pk)` riding as in key generation (the prefix grows
    /// by a row of t1 per row): the same products as the scalar samplers, and
    /// the rider's SHAKE256 that of the whole message, for every set's shape.
    #[test]
    fn rows_with_rider_match_scalar() {
        // Rows of t1 (320 bytes), and 700-byte steps so that three-entry
        // batches straddle rows.
        for (k, l, step) in [
            (4, 4, 320),
            (6, 5, 320),
            (8, 7, 320),
            (6, 5, 700),
            (8, 7, 700),
        ] {
            for t in 0..6 {
                let rho = seed::<32>(100 + t);
                let msg = seed::<5632>(200 + t);
                let m = &msg[..32 + step * k];
                let y: [Poly; 7] = core::array::from_fn(|j| {
                    Poly(core::array::from_fn(|i| {
                        ((i * 31 + j * 7 + t as usize) & 0xffff) as i32
                    }))
                });
                let mut rows = MatrixRows::new(&rho, k, l);
                let mut h = Shake256Lane::new();
                for r in 0..k {
                    let mut acc = [0i64; N];
                    rows.mul_acc_row_riding(
                        &mut acc,
                        r,
                        &y[..l],
                        Some((&mut h, &m[..32 + step * r])),
                    );
                    let mut want = [0i64; N];
                    for s in 0..l {
                        let mut e = Poly::ZERO;
                        rej_ntt_poly(&mut e, &rho, s, r);
                        mul_acc(&mut want, &e, &y[s]);
                    }
                    assert_eq!(acc, want, "k {k} row {r}");
                }
                // Some blocks rode on the 4-way path, none without it.
                assert_eq!(h.absorbed() > 0, simd_backend().is_some(), "k {k}");
                let (mut got, mut want) = ([0u8; 64], [0u8; 64]);
                h.finish(None, m, &mut got);
                pqdr_keccak::shake256(&[m], &mut want);
                assert_eq!(got, want, "k {k}");
            }
        }
    }

    #[test]
    fn expand_s_x4_matches_scalar() {
        for t in 0..300 {
            let rho_prime = seed::<64>(t);
            let eta = if t & 1 == 0 { 2 } else { 4 };
            let r: [u16; 4] =
                core::array::from_fn(|k| (t as u16).wrapping_mul(3).wrapping_add(k as u16) & 15);
            for backend in backends() {
                let mut got = [Poly::ZERO; 4];
                let [g0, g1, g2, g3] = &mut got;
                rej_bounded_poly_x4(
                    backend,
                    [Some(g0), Some(g1), Some(g2), Some(g3)],
                    &rho_prime,
                    r,
                    eta,
                );
                for (g, rk) in got.iter().zip(r) {
                    let mut want = Poly::ZERO;
                    rej_bounded_poly(&mut want, &rho_prime, rk, eta);
                    assert_eq!(g.0, want.0);
                }
            }
        }
        // Every count mod 4 (idle lanes in the last call), both η.
        for (t, count) in [8usize, 9, 10, 11, 15].into_iter().enumerate() {
            let rho_prime = seed::<64>(9 + t as u32);
            let eta = if t & 1 == 0 { 2 } else { 4 };
            let mut n = 0;
            expand_s(&rho_prime, count, eta, |r, p| {
                let mut want = Poly::ZERO;
                rej_bounded_poly(&mut want, &rho_prime, r as u16, eta);
                assert_eq!(p.0, want.0, "count {count}, r {r}");
                assert_eq!(r, n);
                n += 1;
            });
            assert_eq!(n, count);
        }
    }
}
