//! Random small and short polynomials: the uniform random `g` (small) and
//! `f ∈ Short` of Core `KeyGen` (NTRU Prime spec §2.3) and the uniform random
//! `r ∈ Inputs = Short` of `Encap` (§2.3.7); reference `urandom32`,
//! `Small_random`, `Short_random`, `Short_fromlist`, `crypto_sort_uint32`.
//!
//! The official round-3 code draws every 32-bit word with its own
//! `randombytes(4)` call (`urandom32`), little endian; so do key generation
//! and `encapsulate_reference`, which makes the NIST-DRBG known answers
//! byte-identical to the submission's. `encapsulate` (and the `*_pqclean`
//! entry points) draw a polynomial's p words with one call of 4p bytes, as
//! PQClean and liboqs do: the same words from any RNG that yields one byte
//! stream however it is called.

use crate::arch::{self, Avx2};
use crate::ct;
use crate::wipe::Wipe;
use rand_core::TryCryptoRng;
use zeroize::Zeroizing;

/// `urandom32`: one 4-byte draw, little endian.
#[inline]
pub(crate) fn urandom32<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<u32, R::Error> {
    let mut c = [0u8; 4];
    rng.try_fill_bytes(&mut c)?;
    Ok(u32::from_le_bytes(c))
}

/// A small coefficient from a uniform 32-bit word: `((x mod 2^30) * 3) >> 30) - 1`.
#[inline(always)]
pub(crate) fn small_from_u32(x: u32) -> i8 {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        reason = "0..=2"
    )]
    let v = ((u64::from(x & 0x3fff_ffff) * 3) >> 30) as i8;
    v - 1
}

/// `Small_random` (Core `KeyGen`'s random small `g`, NTRU Prime spec §2.3): p draws of `urandom32`.
pub(crate) fn small_random<const P: usize, R: TryCryptoRng + ?Sized>(
    out: &mut [i8; P],
    rng: &mut R,
) -> Result<(), R::Error> {
    for o in out.iter_mut() {
        *o = small_from_u32(urandom32(rng)?);
    }
    Ok(())
}

/// p random words: p 4-byte draws (`urandom32`, the official pattern), or
/// with `BATCHED` one draw of 4p bytes (PQClean's and liboqs's pattern):
/// [`random_words_on`] on the detected backend.
fn random_words<const P: usize, const BATCHED: bool, R: TryCryptoRng + ?Sized>(
    list: &mut [u32; P],
    rng: &mut R,
) -> Result<(), R::Error> {
    random_words_on::<P, BATCHED, R>(list, rng, arch::avx2())
}

/// [`random_words`] on the given backend: with the token (x86-64) the one
/// 4p-byte draw goes straight into the list's memory (`arch::words_as_bytes`),
/// else into a byte buffer whose words are read little endian (the same words).
fn random_words_on<const P: usize, const BATCHED: bool, R: TryCryptoRng + ?Sized>(
    list: &mut [u32; P],
    rng: &mut R,
    be: Option<Avx2>,
) -> Result<(), R::Error> {
    if BATCHED && let Some(token) = be {
        rng.try_fill_bytes(arch::words_as_bytes(token, list))?;
    } else if BATCHED {
        words_from_bytes(list, rng)?;
    } else {
        for l in list.iter_mut() {
            *l = urandom32(rng)?;
        }
    }
    Ok(())
}

/// One 4p-byte draw into a byte buffer, read as p little-endian words. Its
/// own frame: the buffer (5 KB for sntrup1277) is not on the stack beside
/// the caller's sort.
#[inline(never)]
fn words_from_bytes<const P: usize, R: TryCryptoRng + ?Sized>(
    list: &mut [u32; P],
    rng: &mut R,
) -> Result<(), R::Error> {
    let mut bytes = Zeroizing::new([[0u8; 4]; P]);
    rng.try_fill_bytes(bytes.as_flattened_mut())?;
    for (l, b) in list.iter_mut().zip(bytes.iter()) {
        *l = u32::from_le_bytes(*b);
    }
    Ok(())
}

/// `Small_random` (NTRU Prime spec §2.3, Core `KeyGen`) with PQClean's draw pattern (one call of 4p bytes).
pub(crate) fn small_random_batched<const P: usize, R: TryCryptoRng + ?Sized>(
    out: &mut [i8; P],
    rng: &mut R,
) -> Result<(), R::Error> {
    let mut list = [0u32; P];
    let mut list = Wipe::new(&mut list);
    random_words::<P, true, R>(&mut list, rng)?;
    for (o, &l) in out.iter_mut().zip(list.iter()) {
        *o = small_from_u32(l);
    }
    Ok(())
}

/// `Short_random` (a uniform random element of `Short`: `f` of Core `KeyGen`,
/// NTRU Prime spec §2.3; `r` of `Encap`, §2.3.7): [`short_random_in`] with
/// a list of its own.
#[inline(never)]
pub(crate) fn short_random<const P: usize, const W: usize, const BATCHED: bool, R>(
    out: &mut [i8; P],
    rng: &mut R,
) -> Result<(), R::Error>
where
    R: TryCryptoRng + ?Sized,
{
    let mut list = [0u32; P];
    let mut list = Wipe::new(&mut list);
    short_random_in::<P, W, BATCHED, R>(out, rng, &mut list)
}

/// `Short_random` in the caller's word list (any contents; left holding
/// the sorted words, a secret the caller wipes): p random words (see
/// [`random_words`]), then [`short_fromlist`]. Inlined into its callers
/// (no frame of its own: a Cortex-M4's encapsulation stack as before).
#[inline]
pub(crate) fn short_random_in<const P: usize, const W: usize, const BATCHED: bool, R>(
    out: &mut [i8; P],
    rng: &mut R,
    list: &mut [u32; P],
) -> Result<(), R::Error>
where
    R: TryCryptoRng + ?Sized,
{
    random_words::<P, BATCHED, R>(list, rng)?;
    short_fromlist::<P, W>(out, list);
    Ok(())
}

/// `Short_fromlist`: tag the first w words as ±1 (low bits 00 or 10) and the
/// rest as 0 (low bits 01), sort (a random permutation), read the tags.
pub(crate) fn short_fromlist<const P: usize, const W: usize>(
    out: &mut [i8; P],
    list: &mut [u32; P],
) {
    // Two loops without a per-entry test (they vectorize).
    let (ones, zeros) = list.split_at_mut(W);
    for l in ones {
        *l &= !1;
    }
    for l in zeros {
        *l = (*l & !3) | 1;
    }
    sort_u32(list);
    for (o, &l) in out.iter_mut().zip(list.iter()) {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            reason = "0..=3"
        )]
        let v = (l & 3) as i8;
        *o = v - 1;
    }
}

/// Constant-time sort (`crypto_sort_uint32`, the sort of `Short_fromlist`):
/// [`sort_u32_on`] on the detected backend.
pub(crate) fn sort_u32(x: &mut [u32]) {
    sort_u32_on(x, arch::avx2());
}

/// Constant-time sort: Batcher's merge exchange (Knuth TAOCP 5.2.2,
/// Algorithm M), a sorting network for any length. Every index depends only
/// on `x.len()`. In each pass the compared pairs `(i, i + d)` with
/// `i & p == r` form runs of up to `p` consecutive `i`, and `d >= p`, so each
/// run is a branch-free element-wise min/max of two disjoint slices. With
/// the AVX2 token (and `x.len() >= 32`) the same network runs on 8-lane
/// registers (`arch`'s `sort_u32`).
pub(crate) fn sort_u32_on(x: &mut [u32], be: Option<Avx2>) {
    let n = x.len();
    if n < 2 {
        return;
    }
    if let Some(token) = be
        && n >= 32
    {
        arch::sort_u32(token, x);
        return;
    }
    let t = usize::BITS - (n - 1).leading_zeros(); // ceil(log2 n)
    let mut p = 1usize << (t - 1);
    while p > 0 {
        let mut q = 1usize << (t - 1);
        let mut r = 0usize;
        let mut d = p;
        loop {
            let mut start = r;
            while start < n - d {
                let len = p.min(n - d - start);
                let (lo, hi) = x.split_at_mut(start + d);
                ct::minmax_u32_slices(&mut lo[start..start + len], &mut hi[..len]);
                start += 2 * p;
            }
            if q == p {
                break;
            }
            d = q - p;
            q >>= 1;
            r = p;
        }
        p >>= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::prelude::rust_2024::*;

    #[test]
    fn sort_sorts_every_length() {
        let mut s = 5u64;
        for n in (0..70).chain([653, 761, 1277]) {
            let mut v: Vec<u32> = (0..n)
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (s >> 32) as u32 >> (s & 31)
                })
                .collect();
            let mut want = v.clone();
            want.sort_unstable();
            sort_u32(&mut v);
            assert_eq!(v, want, "n={n}");
        }
    }

    /// AVX2 against portable sort: every length 32..300, every length
    /// 500..=1030 and 1020..=1300 (the bitonic networks' 513..=1024 and
    /// 1025..=2048 with their edges, sntrup1277's p and the 1280 threshold; every
    /// ninth length below),
    /// a few longer ones, every set's p (random words, few distinct values,
    /// sorted, reversed, all equal, 0 and `u32::MAX`), identical outputs (and
    /// both sorted).
    #[test]
    fn avx2_sort_matches_portable() {
        let be = crate::mult::tests::detected();
        let mut s = 9u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 32) as u32
        };
        let lens = (0..300)
            .chain(500..=1030)
            .chain((1031..1270).step_by(9))
            .chain(1270..=1290)
            .chain([1536, 2047, 2048, 2049]);
        for n in lens {
            for kind in 0..7 {
                let v: Vec<u32> = (0..n as u32)
                    .map(|i| match kind {
                        0 | 1 => next(),
                        2 => next() & 3,
                        3 => i,
                        4 => u32::MAX - i,
                        5 => 7,
                        _ => [0, u32::MAX][(next() & 1) as usize],
                    })
                    .collect();
                let mut want = v.clone();
                want.sort_unstable();
                let mut port = v.clone();
                sort_u32_on(&mut port, None);
                let mut simd = v.clone();
                sort_u32_on(&mut simd, be);
                assert_eq!(port, want, "portable n={n} kind={kind}");
                assert_eq!(simd, want, "avx2 n={n} kind={kind}");
            }
        }
    }

    /// Bytes from a per-call counter (a different stream for every call, as
    /// the NIST DRBG gives), with the number of calls made.
    struct CallRng {
        calls: u32,
        kind: u8,
    }

    impl rand_core::TryRng for CallRng {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            unreachable!("draws are fill_bytes calls")
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            unreachable!("draws are fill_bytes calls")
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            self.calls += 1;
            for (i, b) in dst.iter_mut().enumerate() {
                *b = match self.kind {
                    0 => 0,
                    1 => 0xff,
                    _ => (i as u32 * 167 + self.calls * 89 + (i as u32 >> 8) * 13) as u8,
                };
            }
            Ok(())
        }
    }

    impl TryCryptoRng for CallRng {}

    fn draw<const P: usize, const BATCHED: bool>(kind: u8, be: Option<Avx2>) -> (Vec<u32>, u32) {
        let mut rng = CallRng { calls: 0, kind };
        let mut list = [7u32; P];
        let Ok(()) = random_words_on::<P, BATCHED, _>(&mut list, &mut rng, be);
        (list.to_vec(), rng.calls)
    }

    /// The one 4p-byte draw straight into the word list (AVX2 path) against
    /// the portable byte buffer read little endian: the same words from one
    /// call, for every set's p (random bytes, all 0, all 0xff); the words
    /// are those of `u32::from_le_bytes` and the official pattern makes p calls.
    #[test]
    fn avx2_draw_matches_portable() {
        fn each<const P: usize>(be: Option<Avx2>) {
            for kind in 0..3 {
                let (want, calls) = draw::<P, true>(kind, None);
                assert_eq!(calls, 1);
                let first = want.first().copied();
                let expect = match kind {
                    0 => Some(0),
                    1 => Some(u32::MAX),
                    _ => Some(u32::from_le_bytes(
                        [89, 167 + 89, 78 + 89, 245 + 89].map(|x: u32| x as u8),
                    )),
                };
                assert_eq!(first, expect, "p={P} kind={kind}");
                if be.is_some() {
                    assert_eq!(draw::<P, true>(kind, be), (want, 1), "p={P} kind={kind}");
                }
                assert_eq!(draw::<P, false>(kind, be).1, P as u32);
            }
        }
        let be = crate::mult::tests::detected();
        each::<1>(be);
        each::<653>(be);
        each::<761>(be);
        each::<857>(be);
        each::<953>(be);
        each::<1013>(be);
        each::<1277>(be);
    }

    /// `Short_random` in `Encap`'s product scratch (`arch::scratch_words`,
    /// the scratch holding junk first, as after a product) against its own
    /// zeroed list: the same short polynomial from the same draws, for every
    /// set's (p, w), both draw patterns and constant or varying bytes.
    #[test]
    fn list_in_scratch_matches_own_list() {
        fn one<const P: usize, const W: usize, const BATCHED: bool>(token: Avx2, kind: u8) {
            let mut want = [0i8; P];
            let Ok(()) =
                short_random::<P, W, BATCHED, _>(&mut want, &mut CallRng { calls: 0, kind });
            let mut acc = Box::new(arch::ListScratch::<P>::new());
            for (i, x) in acc.s.as_flattened_mut().iter_mut().enumerate() {
                *x = (i as i16).wrapping_mul(7919) | 1;
            }
            let (mut got, mut rng) = ([0i8; P], CallRng { calls: 0, kind });
            let list = arch::scratch_words(token, &mut acc);
            let Ok(()) = short_random_in::<P, W, BATCHED, _>(&mut got, &mut rng, list);
            assert_eq!(got, want, "p={P} kind={kind} batched={BATCHED}");
            assert_eq!(got.iter().filter(|&&c| c != 0).count(), W);
        }
        fn each<const P: usize, const W: usize>(token: Avx2) {
            for kind in 0..3 {
                one::<P, W, true>(token, kind);
                one::<P, W, false>(token, kind);
            }
        }
        let Some(token) = arch::avx2() else { return };
        each::<653, 288>(token);
        each::<761, 286>(token);
        each::<857, 322>(token);
        each::<953, 396>(token);
        each::<1013, 448>(token);
        each::<1277, 492>(token);
    }

    #[test]
    fn short_has_weight_w() {
        let mut list: [u32; 761] = core::array::from_fn(|i| (i as u32).wrapping_mul(2654435761));
        let mut out = [0i8; 761];
        short_fromlist::<761, 286>(&mut out, &mut list);
        assert_eq!(out.iter().filter(|&&c| c != 0).count(), 286);
    }
}
