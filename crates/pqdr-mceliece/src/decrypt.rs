//! Niederreiter decryption (Classic McEliece spec §2.3.3 `Decode`, used by
//! `Decap`, §8.3 step 3): recover the weight-t vector e with H e = C0 or
//! report failure.
//!
//! The bitsliced decoder of McBits (Bernstein–Chou–Schwabe, CHES 2013) and
//! McBits revisited (Chou, CHES 2017), over all 2^m field elements at once:
//! - g at every element by the additive FFT, 1/g^2 by one batch inversion;
//! - the received word (C0, 0, ..., 0) moved from support order to the FFT's
//!   element order by the inverse Beneš network on bits;
//! - the 2t syndromes sum_a r(a) a^j / g(a)^2 by the transposed FFT;
//! - Berlekamp–Massey for the error locator, its roots by one more FFT;
//! - the check of Classic McEliece spec §2.3.3: weight t and the same syndrome (re-encoded by
//!   the transposed FFT), then the forward network back to support order.
//!
//! Everything runs in constant time: no branch or index on g, the control
//! bits, C0 or anything derived from them.
// ref: decrypt.c, synd.c, bm.c, root.c, benes.c (same steps; vec/ layout)
#![allow(
    clippy::needless_range_loop,
    reason = "planes and lanes of several bitsliced arrays are walked in step"
)]

use crate::arch;
use crate::benes;
use crate::bm;
use crate::ct::nonzero_mask_u64;
use crate::fft::{self, Values};
use crate::gf;
use crate::params::{Derived, FIELD_POLY_M12, FIELD_POLY_M13, MAX_M, MAX_Q_WORDS, ParameterSet};
use crate::vec::{self, Bitsliced};
use core::mem::MaybeUninit;
use zeroize::Zeroize;

/// `out[i] = 1 / a[i]`, lane by lane, with one inversion (Montgomery's trick;
/// every lane of every `a[i]` must be nonzero; the length must be even).
/// The two halves run as two chains side by side, so every step is two
/// independent products ([`vec::mul_pair`]).
fn batch_inv<P: ParameterSet>(out: &mut [Bitsliced<2>], a: &[Bitsliced<2>]) {
    let h = a.len() >> 1;
    // Prefix products of both halves: out[i] = a[0] .. a[i], out[h + i] =
    // a[h] .. a[h + i].
    out[0] = a[0];
    out[h] = a[h];
    let (lo, hi) = out.split_at_mut(h);
    for i in 1..h {
        let (lo_done, lo_next) = lo.split_at_mut(i);
        let (hi_done, hi_next) = hi.split_at_mut(i);
        vec::mul_pair::<P>(
            [&mut lo_next[0], &mut hi_next[0]],
            [&lo_done[i - 1], &hi_done[i - 1]],
            [&a[i], &a[h + i]],
        );
    }
    // One inversion of the product of both totals, then each total's inverse.
    let mut t = vec::zero::<2>();
    vec::mul::<P, 2>(&mut t, &lo[h - 1], &hi[h - 1]);
    let mut inv = vec::zero::<2>();
    vec::inv::<P, 2>(&mut inv, &t);
    let mut acc = [vec::zero::<2>(); 2];
    let [acc0, acc1] = &mut acc;
    vec::mul_pair::<P>([acc0, acc1], [&inv, &inv], [&hi[h - 1], &lo[h - 1]]);
    // Back down each chain: out[i] = acc (a[0] .. a[i - 1]); acc <- acc a[i].
    // The accumulator alternates between two buffers (`src` is read, `dst`
    // written), so no step copies it.
    let mut spare = vec::zero::<2>();
    for (half, (acc, a)) in [lo, hi]
        .into_iter()
        .zip(acc.iter_mut().zip(a.chunks_exact(h)))
    {
        let (mut src, mut dst) = (&mut *acc, &mut spare);
        for i in (1..h).rev() {
            let (done, next) = half.split_at_mut(i);
            vec::mul_pair::<P>(
                [&mut next[0], &mut *dst],
                [&*src, &*src],
                [&done[i - 1], &a[i]],
            );
            core::mem::swap(&mut src, &mut dst);
        }
        half[0] = *src;
    }
    spare.zeroize();
    for v in acc.iter_mut().chain([&mut t, &mut inv]) {
        v.zeroize();
    }
}

/// out = a^2 on two words per plane in the set's field (Classic McEliece
/// spec §7: f(z) = z^12 + z^3 + 1 or z^13 + z^4 + z^3 + z + 1): bit i of a
/// goes to z^(2i), then the terms from z^m on are folded down from the top
/// (z^k = z^(k-m) (f(z) - z^m)). The same map as `vec::sq`, written out per
/// degree (`fold_down!`), so no loop or branch is left at run time.
#[inline(always)]
fn square<P: ParameterSet>(out: &mut Bitsliced<2>, a: &Bitsliced<2>) {
    let m = P::M;
    let mut buf = [[0u64; 2]; 2 * MAX_M - 1];
    for i in 0..MAX_M {
        if i < m {
            buf[2 * i] = a[i];
        }
    }
    // Degrees 2m - 2 down to m; f's low terms have degree at most 4.
    macro_rules! fold_down {
        ($($k:literal)*) => {$(
            if $k >= m && $k < 2 * m - 1 {
                let hi = buf[$k];
                for e in 0..5usize {
                    if (P::FIELD_POLY >> e) & 1 == 1 {
                        let j = ($k + e).wrapping_sub(m);
                        buf[j][0] ^= hi[0];
                        buf[j][1] ^= hi[1];
                    }
                }
            }
        )*};
    }
    fold_down!(24 23 22 21 20 19 18 17 16 15 14 13 12);
    out[..m].copy_from_slice(&buf[..m]);
}

/// Wipes the 2^(m-7) entries of `v` the decoder writes for this set (the
/// rest of the array is never written: it stays zero from its
/// initialisation, so the m = 12 sets wipe half of it).
fn wipe<P: ParameterSet>(v: &mut Values) {
    v.iter_mut()
        .take(1 << (P::M - 7))
        .for_each(|x| x.as_flattened_mut().zeroize());
}

/// x = w masked by the bit vector `bits` (one word per 64 elements) on
/// the set's entries and planes (the rest of x is left as it is). The
/// portable twin of `arch::masked` and, on a zero-filled x, of
/// `arch::masked_init`.
fn masked<P: ParameterSet>(x: &mut Values, w: &Values, bits: &[u64; MAX_Q_WORDS]) {
    for (e, (xv, wv)) in x.iter_mut().zip(w.iter()).enumerate().take(1 << (P::M - 7)) {
        for b in 0..P::M {
            xv[b] = [wv[b][0] & bits[2 * e], wv[b][1] & bits[2 * e + 1]];
        }
    }
}

/// A bit vector in element order (one bit per value position) to the FFT's
/// value layout (`TO_VALUES`: after the inverse Beneš network) or from it
/// (before the forward network): on the AVX2 path the values are in the
/// kernel layout (`fft::kernel_layout`), moved by `arch::bits_layout`;
/// elsewhere the two layouts are the same.
fn relayout<P: ParameterSet, const TO_VALUES: bool>(bits: &mut [u64; MAX_Q_WORDS]) {
    if let Some(token) = arch::avx2().filter(|_| fft::kernel_layout::<P>()) {
        arch::bits_layout::<TO_VALUES>(token, P::M, bits);
    }
}

/// The key-only part of decoding: 1/g(a)^2 at every field element and the
/// n support positions in element order (both in the FFT's value layout). [`prepare`] computes it once for
/// repeated decapsulation; [`decrypt`] computes it on the fly.
pub(crate) struct Prepared {
    pub(crate) weight: Values,
    pub(crate) in_support: [u64; MAX_Q_WORDS],
}

impl Prepared {
    pub(crate) const fn new() -> Self {
        Self {
            weight: fft::zero_values(),
            in_support: [0; MAX_Q_WORDS],
        }
    }
}

impl Zeroize for Prepared {
    fn zeroize(&mut self) {
        self.weight
            .iter_mut()
            .for_each(|v| v.as_flattened_mut().zeroize());
        self.in_support.zeroize();
    }
}

/// 1/g(a)^2 at every element a (g irreducible: no zero) into the array
/// `eval` returns after writing g(a) into it (`eval` gets g's low
/// coefficients: `fft::eval_monic` or `fft::eval_monic_init`). `sk_gc` =
/// g || control bits.
fn weights<'a, P: ParameterSet>(
    sk_gc: &[u8],
    eval: impl FnOnce(&Bitsliced<4>) -> &'a mut Values,
) -> &'a mut Values {
    let (m, t) = (P::M, P::T);
    let entries = 1 << (m - 7);
    // g = x^t + sum g_i x^i, the low coefficients bitsliced.
    let mut low = vec::zero::<4>();
    let avx2 = arch::avx2().filter(|_| spec_field::<P>());
    if let Some(token) = avx2 {
        arch::g_planes(token, m, t, &mut low, &sk_gc[..2 * t]);
    } else {
        g_planes_portable::<P>(&mut low, sk_gc);
    }
    let weight = eval(&low);
    low.zeroize();
    if let Some(token) = avx2 {
        arch::inv_sq_batch(token, m, &mut weight[..entries]);
    } else {
        weights_portable::<P>(&mut weight[..entries]);
    }
    weight
}

/// g's low coefficients (`sk_gc`'s first 2t bytes, Classic McEliece spec
/// §9.2.12) bitsliced into `low` (zero on entry): bit i of plane b = bit b
/// of g_i. The portable twin of `arch::g_planes`.
fn g_planes_portable<P: ParameterSet>(low: &mut Bitsliced<4>, sk_gc: &[u8]) {
    for i in 0..P::T {
        let gi = u16::from_le_bytes([sk_gc[2 * i], sk_gc[2 * i + 1]]) & P::GF_MASK;
        for b in 0..P::M {
            low[b][i >> 6] |= u64::from((gi >> b) & 1) << (i & 63);
        }
    }
}

/// Whether P's field is one of the spec's two (§7), which have AVX2 kernels.
const fn spec_field<P: ParameterSet>() -> bool {
    (P::M == 12 && P::FIELD_POLY == FIELD_POLY_M12)
        || (P::M == 13 && P::FIELD_POLY == FIELD_POLY_M13)
}

/// `vals[i] <- 1/vals[i]^2` lane by lane (every lane nonzero; the count
/// even, at most `MAX_ENTRIES`): the squares into a scratch array, then one
/// batch inversion. The portable twin of `arch::inv_sq_batch`. Not inlined,
/// so the scratch array is on the stack only while this runs (not in the
/// frame of `weights`, whose AVX2 path has its own).
#[inline(never)]
fn weights_portable<P: ParameterSet>(vals: &mut [Bitsliced<2>]) {
    let mut scratch = fft::zero_values();
    let scratch = &mut scratch[..vals.len()];
    for (w, s) in scratch.iter_mut().zip(vals.iter()) {
        square::<P>(w, s);
    }
    batch_inv::<P>(vals, scratch);
    scratch
        .iter_mut()
        .for_each(|x| x.as_flattened_mut().zeroize());
}

/// The n support positions as a 2^m-bit vector in support order (all of
/// them for n = 2^m); the caller moves it to element order.
fn support_mask<P: ParameterSet>(in_support: &mut [u64; MAX_Q_WORDS]) {
    let (m, n) = (P::M, P::N);
    for (i, w) in in_support.iter_mut().enumerate().take(1 << (m - 6)) {
        *w = if 64 * i + 64 <= n {
            !0
        } else if 64 * i < n {
            (1u64 << (n - 64 * i)) - 1
        } else {
            0
        };
    }
}

/// r = (C0, 0, ..., 0) in support order.
fn received<P: ParameterSet>(r: &mut [u64; MAX_Q_WORDS], c0: &[u8]) {
    let mt = P::MT;
    for (i, &byte) in c0.iter().enumerate().take(P::SYND_BYTES) {
        let keep = if 8 * i + 8 <= mt {
            0xFF
        } else {
            (1u8 << (mt & 7)) - 1
        };
        r[i >> 3] |= u64::from(byte & keep) << (8 * (i & 7));
    }
}

/// The key-only part of `Decode` (Classic McEliece spec §2.3.3): precomputes
/// [`Prepared`] from the secret key part `sk_gc` = g || control bits.
pub(crate) fn prepare_impl<P: ParameterSet>(out: &mut Prepared, sk_gc: &[u8]) {
    let m = P::M;
    let words = 1 << (m - 6);
    let cb = &sk_gc[P::IRR_BYTES..P::IRR_BYTES + P::COND_BYTES];
    weights::<P>(sk_gc, |low| {
        fft::eval_monic::<P>(&mut out.weight, low);
        &mut out.weight
    });
    support_mask::<P>(&mut out.in_support);
    if P::N < 1 << m {
        benes::apply_bits([&mut out.in_support[..words]], cb, m, true);
        relayout::<P, true>(&mut out.in_support);
    }
}

/// [`prepare_impl`] through the set's entry point, compiled once in this
/// crate (`params::sealed::Sealed`).
#[inline(always)]
pub(crate) fn prepare<P: ParameterSet>(out: &mut Prepared, sk_gc: &[u8]) {
    P::prepare_entry(out, sk_gc);
}

/// `Decode` (Classic McEliece spec §2.3.3) with the key-only part
/// precomputed by [`prepare`]: the same result as [`decrypt`].
pub(crate) fn decrypt_prepared<P: ParameterSet>(
    e: &mut [u8],
    sk_gc: &[u8],
    prep: &Prepared,
    c0: &[u8],
) -> u8 {
    let m = P::M;
    let words = 1 << (m - 6);
    let cb = &sk_gc[P::IRR_BYTES..P::IRR_BYTES + P::COND_BYTES];
    let mut r = [0u64; MAX_Q_WORDS];
    received::<P>(&mut r, c0);
    benes::apply_bits([&mut r[..words]], cb, m, true);
    relayout::<P, true>(&mut r);
    let ok = decode::<P>(e, cb, &prep.weight, &prep.in_support, &r);
    r[..words].zeroize();
    ok
}

/// `Decode` (Classic McEliece spec §2.3.3).
///
/// Decodes `c0` (SYND_BYTES) with the secret key part `sk_gc` = g || control
/// bits into `e` (n/8 bytes). Returns 0xFF if decoding succeeded (weight t,
/// same syndrome), else 0.
pub(crate) fn decrypt<P: ParameterSet>(e: &mut [u8], sk_gc: &[u8], c0: &[u8]) -> u8 {
    let m = P::M;
    let words = 1 << (m - 6);
    let cb = &sk_gc[P::IRR_BYTES..P::IRR_BYTES + P::COND_BYTES];
    // The weights' array is first written by their FFT (on AVX2 in full,
    // never zero-filled first).
    let mut slot = MaybeUninit::<Values>::uninit();
    let weight = weights::<P>(sk_gc, |low| fft::eval_monic_init::<P>(&mut slot, low));
    // r and the support positions at pi(i) (element order), in one pass.
    let mut r = [0u64; MAX_Q_WORDS];
    received::<P>(&mut r, c0);
    let mut in_support = [0u64; MAX_Q_WORDS];
    support_mask::<P>(&mut in_support);
    // (For n = 2^m the support mask is all ones in every order.)
    if P::N < 1 << m {
        benes::apply_bits([&mut r[..words], &mut in_support[..words]], cb, m, true);
        relayout::<P, true>(&mut in_support);
    } else {
        benes::apply_bits([&mut r[..words]], cb, m, true);
    }
    relayout::<P, true>(&mut r);
    let ok = decode::<P>(e, cb, weight, &in_support, &r);
    wipe::<P>(weight);
    r[..words].zeroize();
    in_support[..words].zeroize();
    ok
}

/// The message-dependent part of decoding: syndrome of `r` (element order,
/// in the FFT's value layout as `weight` and `in_support`) weighted by `weight`, Berlekamp–Massey, roots, the weight and syndrome
/// checks, and e back in support order. The working value array is this
/// function's own (its first contents are the masked weights), so callers
/// hold no second zero-filled array.
fn decode<P: ParameterSet>(
    e: &mut [u8],
    cb: &[u8],
    weight: &Values,
    in_support: &[u64; MAX_Q_WORDS],
    r: &[u64; MAX_Q_WORDS],
) -> u8 {
    let (m, t, n) = (P::M, P::T, P::N);
    let entries = 1 << (m - 7);
    let words = 1 << (m - 6);
    // Syndromes: 2t of them, from a transposed FFT of 2^k >= 2t outputs.
    let k_synd = (2 * t).next_power_of_two().trailing_zeros() as usize;

    // Syndrome of r.
    let mut s = vec::zero::<4>();
    // The working value array starts as the weights masked by r: on AVX2
    // written once in full (never zero-filled first).
    let avx2 = arch::avx2().filter(|_| spec_field::<P>());
    let mut slot = MaybeUninit::<Values>::uninit();
    let rest = if let Some(token) = avx2 {
        arch::masked_init(token, m, &mut slot, weight, r)
    } else {
        let rest = slot.write(fft::zero_values());
        masked::<P>(rest, weight, r);
        rest
    };
    fft::fft_tr::<P>(&mut s, rest, k_synd);

    // Error locator and its roots among all elements.
    let mut locator = vec::zero::<4>();
    bm::bm::<P>(&mut locator, &s);
    fft::eval_monic::<P>(rest, &locator);
    let mut ew = [0u64; MAX_Q_WORDS];
    for (ei, v) in rest.iter().enumerate().take(entries) {
        for l in 0..2 {
            let mut nz = 0u64;
            for x in &v[..m] {
                nz |= x[l];
            }
            ew[2 * ei + l] = !nz;
        }
    }
    // Only the n support elements count.
    for (x, y) in ew.iter_mut().zip(in_support.iter()) {
        *x &= y;
    }
    let mut w = 0u32;
    for x in &ew[..words] {
        w += x.count_ones();
    }

    // Re-encode: the syndrome of e must equal the syndrome of r.
    let mut s_cmp = vec::zero::<4>();
    if let Some(token) = avx2 {
        arch::masked(token, m, rest, weight, &ew);
    } else {
        masked::<P>(rest, weight, &ew);
    }
    fft::fft_tr::<P>(&mut s_cmp, rest, k_synd);
    let mut diff = 0u64;
    for (a, b) in s.iter().zip(s_cmp.iter()).take(m) {
        for i in 0..4 {
            let lo = 64 * i;
            let keep = if 2 * t >= lo + 64 {
                !0
            } else if 2 * t > lo {
                (1u64 << (2 * t - lo)) - 1
            } else {
                0
            };
            diff |= (a[i] ^ b[i]) & keep;
        }
    }

    // e in support order.
    relayout::<P, false>(&mut ew);
    benes::apply_bits([&mut ew[..words]], cb, m, false);
    for (bytes, w) in e[..n >> 3].chunks_mut(8).zip(ew.iter()) {
        bytes.copy_from_slice(&w.to_le_bytes()[..bytes.len()]);
    }

    let check = nonzero_mask_u64(diff) | nonzero_mask_u64(u64::from(w ^ t as u32));
    s.zeroize();
    s_cmp.zeroize();
    locator.zeroize();
    ew[..words].zeroize();
    wipe::<P>(rest);
    (gf::is_zero_mask(check as u16) & 0xFF) as u8
}

#[cfg(all(test, feature = "mceliece348864", feature = "mceliece460896"))]
mod tests {
    use super::*;
    use crate::params::{Mceliece348864, Mceliece460896};
    use crate::test_util::xorshift;

    /// The element at lane (word l, bit k) of an entry.
    fn lane(v: &Bitsliced<2>, m: usize, l: usize, k: usize) -> u16 {
        (0..m).fold(0, |x, b| x | ((((v[b][l] >> k) & 1) as u16) << b))
    }

    /// `arch::inv_sq_batch` against the portable twin and per-lane scalar
    /// 1/a^2 (`gf`): random nonzero lanes, and entries of edge values (all
    /// lanes 1, all lanes 2^m - 1, z^(m-1), one lane differing); the
    /// planes from m on must be left as they were.
    fn check<P: ParameterSet>(seed: u64) {
        let Some(token) = arch::avx2() else { return };
        let (m, entries) = (P::M, 1usize << (P::M - 7));
        let mut s = seed;
        for round in 0..6 {
            let mut vals = fft::zero_values();
            for v in vals.iter_mut().take(entries) {
                for p in v.iter_mut() {
                    *p = [xorshift(&mut s), xorshift(&mut s)];
                }
                // Every lane nonzero: a zero lane gets z^0.
                for l in 0..2 {
                    let nz = v[..m].iter().fold(0, |a, p| a | p[l]);
                    v[0][l] |= !nz;
                }
            }
            if round > 0 {
                let e = (round * 5) % entries;
                let edge: [u16; 4] = [1, P::GF_MASK, 1 << (m - 1), 2];
                let x = edge[round % 4];
                for b in 0..m {
                    let w = if (x >> b) & 1 == 1 { !0 } else { 0 };
                    vals[e][b] = [w, w];
                    vals[entries - 1 - e][b] = [w, w ^ (1 << 63)];
                }
                vals[entries - 1 - e][0][1] |= 1 << 63;
            }
            let mut want = vals;
            weights_portable::<P>(&mut want[..entries]);
            let mut got = vals;
            arch::inv_sq_batch(token, m, &mut got[..entries]);
            for e in 0..entries {
                assert_eq!(got[e][..m], want[e][..m], "entry {e}");
                assert_eq!(got[e][m..], vals[e][m..], "planes from m, entry {e}");
                for l in 0..2 {
                    for k in (0..64).step_by(7).chain([63]) {
                        let a = lane(&vals[e], m, l, k);
                        let r = gf::inv::<P>(gf::sq::<P>(a));
                        assert_eq!(lane(&got[e], m, l, k), r, "lane {e} {l} {k}");
                    }
                }
            }
        }
    }

    /// `arch::g_planes` against `g_planes_portable`: random bytes (bits
    /// from m on set too), all ones, and single bits at the first and last
    /// coefficient; every set's t (including 119, not a multiple of 32).
    fn check_g<P: ParameterSet>(seed: u64) {
        let Some(token) = arch::avx2() else { return };
        let t = P::T;
        let mut s = seed;
        for round in 0..8 {
            let mut bytes = [0u8; 256];
            match round {
                0 => bytes.fill(0xFF),
                1 => bytes[0] = 1,
                2 => bytes[2 * t - 1] = 0x10,
                3 => bytes[2 * t - 2] = 0x80,
                _ => bytes.iter_mut().for_each(|b| *b = xorshift(&mut s) as u8),
            }
            let mut want = vec::zero::<4>();
            g_planes_portable::<P>(&mut want, &bytes);
            let mut got = vec::zero::<4>();
            arch::g_planes(token, P::M, t, &mut got, &bytes[..2 * t]);
            assert_eq!(got, want, "round {round}");
        }
    }

    /// `arch::masked_init` and `arch::masked` against `masked` (on a zero
    /// array, and on the same array of random words: entries and planes
    /// outside the set's must stay as they were): random weights and bit
    /// vectors, and the bits all zero, all ones, single bits at the first
    /// and last element (the words past the set's entries set too).
    fn check_masked<P: ParameterSet>(seed: u64) {
        let Some(token) = arch::avx2() else { return };
        let m = P::M;
        let mut s = seed;
        for round in 0..8 {
            let mut w = fft::zero_values();
            w.as_flattened_mut()
                .as_flattened_mut()
                .iter_mut()
                .for_each(|x| *x = xorshift(&mut s));
            let mut bits = [0u64; MAX_Q_WORDS];
            match round {
                0 => {}
                1 => bits.fill(!0),
                2 => bits[0] = 1,
                3 => bits[(1 << (m - 6)) - 1] = 1 << 63,
                _ => bits.iter_mut().for_each(|x| *x = xorshift(&mut s)),
            }
            let mut want = fft::zero_values();
            masked::<P>(&mut want, &w, &bits);
            let mut slot = MaybeUninit::<Values>::uninit();
            let got = arch::masked_init(token, m, &mut slot, &w, &bits);
            assert_eq!(*got, want, "masked_init, round {round}");
            let mut x = fft::zero_values();
            x.as_flattened_mut()
                .as_flattened_mut()
                .iter_mut()
                .for_each(|v| *v = xorshift(&mut s));
            let mut want = x;
            masked::<P>(&mut want, &w, &bits);
            arch::masked(token, m, &mut x, &w, &bits);
            assert_eq!(x, want, "masked, round {round}");
        }
    }

    #[test]
    fn avx2_masked_matches_portable() {
        check_masked::<Mceliece348864>(5);
        check_masked::<Mceliece460896>(6);
    }

    #[test]
    fn avx2_g_planes_match_portable() {
        check_g::<Mceliece348864>(1);
        check_g::<Mceliece460896>(2);
        #[cfg(feature = "mceliece6960119")]
        check_g::<crate::params::Mceliece6960119>(3);
        #[cfg(feature = "mceliece8192128")]
        check_g::<crate::params::Mceliece8192128>(4);
    }

    #[test]
    fn avx2_inv_sq_matches_portable() {
        check::<Mceliece348864>(0x1234_5678_9ABC_DEF1);
        check::<Mceliece460896>(0x0FED_CBA9_8765_4321);
    }
}
