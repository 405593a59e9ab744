//! Pseudorandom sampling (FIPS 204 §7.3): `SampleInBall`, `RejNTTPoly`,
//! `RejBoundedPoly`, `ExpandA`, `ExpandS`, `ExpandMask` (Algorithms 29–34),
//! and the hash H = SHAKE256 of §3.7.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "byte and index conversions of values already range-limited"
)]

use pqdr_ctgrind::hook;
use pqdr_keccak::{Shake128, Shake256};
use zeroize::Zeroize;

use crate::encode::group;
use crate::field::{Q, mont};
use crate::params::MAX_Z_POLY_SIZE;
use crate::poly::{N, Poly};

pub(crate) const SHAKE128_RATE: usize = 168;
pub(crate) const SHAKE256_RATE: usize = 136;
/// Whole SHAKE256 blocks for one ExpandMask polynomial of any set.
const MASK_BUF_SIZE: usize = MAX_Z_POLY_SIZE.div_ceil(SHAKE256_RATE) * SHAKE256_RATE;

/// `H(parts, out.len())` (FIPS 204 §3.7): SHAKE256 of the concatenation.
pub(crate) fn h(parts: &[&[u8]], out: &mut [u8]) {
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    for p in parts {
        x.absorb(p);
    }
    x.squeeze(out);
}

/// `RejNTTPoly(ρ‖s‖r)` (FIPS 204 Algorithm 30): the entry Â[r][s] of ExpandA
/// (Algorithm 32), sampled straight from SHAKE128 with a five-block first
/// squeeze (enough for 256 coefficients with overwhelming probability).
/// ρ is public: the rejection branches depend on public data only.
pub(crate) fn rej_ntt_poly(out: &mut Poly, rho: &[u8; 32], s: usize, r: usize) {
    let mut g = Shake128::with_bmi(crate::arch::keccak_bmi());
    g.absorb(rho);
    g.absorb(&[s as u8, r as u8]);
    let mut reader = g;
    let mut buf = [0u8; 5 * SHAKE128_RATE];
    reader.squeeze_blocks(&mut buf);
    let mut ctr = rej_ntt_fill(&mut out.0, 0, &buf);
    while ctr < N {
        reader.squeeze_blocks(&mut buf[..SHAKE128_RATE]);
        ctr = rej_ntt_fill(&mut out.0, ctr, &buf[..SHAKE128_RATE]);
    }
}

/// [`rej_ntt_consume`] storing into `out`: the AVX2 kernel
/// (`arch::rej_uniform`, eight candidates per step) when available, else
/// the portable loop (its twin). Same count, same coefficients.
#[inline]
pub(crate) fn rej_ntt_fill(out: &mut [i32; N], ctr: usize, bytes: &[u8]) -> usize {
    match crate::arch::avx2() {
        Some(token) => crate::arch::rej_uniform(token, out, ctr, bytes),
        None => rej_ntt_consume(bytes, ctr, |i, z| out[i] = z),
    }
}

/// The rejection loop of `RejNTTPoly` (FIPS 204 Algorithm 30) over `bytes`
/// (a multiple of 3), starting at coefficient `ctr`: `f(i, z)` for every
/// accepted coefficient z of index i until 256 are accepted. Returns the new
/// count. Only public bytes (SHAKE128 of ρ) are branched on.
#[inline(always)]
pub(crate) fn rej_ntt_consume(
    bytes: &[u8],
    mut ctr: usize,
    mut f: impl FnMut(usize, i32),
) -> usize {
    for b in bytes.chunks_exact(3) {
        if ctr == N {
            break;
        }
        // `CoeffFromThreeBytes` (FIPS 204 Algorithm 14): drop the top bit, accept if < q.
        let z = i32::from(b[0]) | (i32::from(b[1]) << 8) | (i32::from(b[2] & 0x7f) << 16);
        if z < Q {
            f(ctr, z);
            ctr += 1;
        }
    }
    ctr
}

/// acc += Â[r][s] ∘ ŷ with Â[r][s] = `RejNTTPoly(ρ‖s‖r)` (FIPS 204
/// Algorithms 30 and 32) consumed coefficient by coefficient as it is
/// sampled, so the entry is never stored: one SHAKE128 block at a time, each
/// accepted coefficient multiplied into `acc` (Montgomery products, |ŷ| < 9q;
/// the caller reduces `acc` after at most 7 of them). Same byte stream and
/// acceptance as [`rej_ntt_poly`]; ρ is public, ŷ is never branched on.
pub(crate) fn rej_ntt_mul_acc(acc: &mut Poly, rho: &[u8; 32], s: usize, r: usize, y: &Poly) {
    let mut g = Shake128::with_bmi(crate::arch::keccak_bmi());
    g.absorb(rho);
    g.absorb(&[s as u8, r as u8]);
    let mut reader = g;
    let mut buf = [0u8; SHAKE128_RATE];
    let mut ctr = 0;
    while ctr < N {
        reader.squeeze_blocks(&mut buf);
        ctr = rej_ntt_consume(&buf, ctr, |i, z| mul_acc_coeff(acc, y, i, z));
    }
}

/// acc_i += mont(z·y_i): one accepted Â coefficient multiplied into `acc`.
#[inline(always)]
pub(crate) fn mul_acc_coeff(acc: &mut Poly, y: &Poly, i: usize, z: i32) {
    let p = mont(i64::from(z).wrapping_mul(i64::from(y.0[i])));
    acc.0[i] = acc.0[i].wrapping_add(p);
}

/// `RejBoundedPoly(ρ'‖r)` (FIPS 204 Algorithm 31) for η ∈ {2, 4} (ExpandS, Algorithm 33).
///
/// ρ' is secret. Whether a half-byte is rejected is released (declassified):
/// the accepted coefficients are uniform whatever the rejected half-bytes
/// were, so the positions of rejections say nothing about s1, s2. The kept
/// value is computed without `%` or a table (`CoeffFromHalfByte`, Algorithm 15).
pub(crate) fn rej_bounded_poly(out: &mut Poly, rho_prime: &[u8; 64], r: u16, eta: i32) {
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    x.absorb(rho_prime);
    x.absorb(&r.to_le_bytes());
    let mut reader = x;
    let mut buf = [0u8; 2 * SHAKE256_RATE];
    reader.squeeze_blocks(&mut buf);
    let mut ctr = rej_bounded_fill(&buf, 0, out, eta);
    while ctr < N {
        reader.squeeze_blocks(&mut buf[..SHAKE256_RATE]);
        ctr = rej_bounded_fill(&buf[..SHAKE256_RATE], ctr, out, eta);
    }
    buf.zeroize();
}

/// [`rej_bounded_consume`] with the AVX2 kernel (`arch::rej_eta`, sixteen
/// half-bytes per step) over the bytes it takes, when available, and the
/// portable loop (its twin) over the rest. Same count, same coefficients,
/// same released accept bits.
#[inline]
pub(crate) fn rej_bounded_fill(bytes: &[u8], ctr: usize, out: &mut Poly, eta: i32) -> usize {
    match crate::arch::avx2() {
        Some(token) => {
            let (ctr, used) = crate::arch::rej_eta(token, &mut out.0, ctr, bytes, eta);
            rej_bounded_consume(bytes.get(used..).unwrap_or_default(), ctr, out, eta)
        }
        None => rej_bounded_consume(bytes, ctr, out, eta),
    }
}

/// The rejection loop of `RejBoundedPoly` (FIPS 204 Algorithm 31) over
/// `bytes`, starting at coefficient `ctr`; returns the new count (at most
/// 256). Releases only the accept bits, as [`rej_bounded_poly`] explains.
#[inline(always)]
pub(crate) fn rej_bounded_consume(bytes: &[u8], mut ctr: usize, out: &mut Poly, eta: i32) -> usize {
    let bound: i32 = if eta == 2 { 15 } else { 9 };
    for &byte in bytes {
        for b in [i32::from(byte & 15), i32::from(byte >> 4)] {
            if ctr == N {
                return ctr;
            }
            // η = 2: 2 − (b mod 5), with b mod 5 = b − 5·⌊205b/1024⌋ for b < 15.
            // η = 4: 4 − b.
            let v = if eta == 2 {
                2 - (b - 5 * ((b * 205) >> 10))
            } else {
                4 - b
            };
            let mut accept = u8::from(b < bound);
            // Released on purpose, see the doc of `rej_bounded_poly`.
            hook::declassify(&mut accept);
            if accept != 0 {
                out.0[ctr] = v;
                ctr += 1;
            }
        }
    }
    ctr
}

/// `ExpandMask(ρ'', μ)` (FIPS 204 Algorithm 34): the r-th polynomial, y_r =
/// BitUnpack(H(ρ''‖IntegerToBytes(κ + r, 2)), γ1 − 1, γ1). No rejection.
#[inline(always)]
pub(crate) fn expand_mask_poly(out: &mut Poly, rho_pp: &[u8; 64], kappa: u16, gamma1_bits: u32) {
    let mut buf = [0u8; MASK_BUF_SIZE];
    let len = 32 * (gamma1_bits as usize + 1);
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    x.absorb(rho_pp);
    x.absorb(&kappa.to_le_bytes());
    x.squeeze_blocks(&mut buf);
    // γ1 − field, eight fields at a time (AVX2 when available); the buffer
    // holds the kernel's read past the last group (at most 26 bytes after
    // byte 620 of 680).
    debug_assert!(len + 16 <= MASK_BUF_SIZE);
    crate::encode::mask_unpack(&mut out.0, &buf, gamma1_bits + 1);
    buf.zeroize();
}

/// out += y_r, with y_r the r-th polynomial of `ExpandMask(ρ'', μ)` (FIPS 204
/// Algorithm 34) as in [`expand_mask_poly`], squeezed one packing group (at
/// most 10 bytes) at a time instead of into a 680-byte buffer. |out| + γ1 must
/// fit an `i32` (the caller passes zero or a centred value).
#[cfg_attr(
    not(feature = "smallest-stack"),
    allow(dead_code, reason = "used by the smallest-stack signer")
)]
pub(crate) fn expand_mask_add(out: &mut Poly, rho_pp: &[u8; 64], kappa: u16, gamma1_bits: u32) {
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    x.absorb(rho_pp);
    x.absorb(&kappa.to_le_bytes());
    let mut reader = x;
    let bits = gamma1_bits + 1;
    let gamma1 = 1i32 << gamma1_bits;
    let mask = (1u128 << bits) - 1;
    let (g, gbytes) = group(bits);
    let mut buf = [0u8; 16];
    for coeffs in out.0.chunks_exact_mut(g) {
        reader.squeeze(&mut buf[..gbytes]);
        let mut v = u128::from_le_bytes(buf);
        for c in coeffs.iter_mut() {
            *c = c.wrapping_add(gamma1.wrapping_sub((v & mask) as i32));
            v >>= bits;
        }
    }
    buf.zeroize();
}

/// `SampleInBall(c̃)` (FIPS 204 Algorithm 29): c with τ coefficients ±1.
///
/// For a rejected signing attempt c̃ must stay secret, so the swap
/// c_i ← c_j, c_j ← ±1 touches every position with masks instead of indexing
/// by j. Only the rejection of sample bytes j > i is released: those bytes are
/// independent of the accepted ones, so they say nothing about c.
pub(crate) fn sample_in_ball(c: &mut Poly, c_tilde: &[u8], tau: usize) {
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    x.absorb(c_tilde);
    let mut reader = x;
    let mut buf = [0u8; SHAKE256_RATE];
    reader.squeeze_blocks(&mut buf);
    let mut signs = u64::from_le_bytes([
        buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7],
    ]);
    let mut pos = 8;
    let mut cb = [0u8; N];
    let avx2 = crate::arch::avx2();
    for i in N - tau..N {
        let j = loop {
            if pos == SHAKE256_RATE {
                reader.squeeze_blocks(&mut buf);
                pos = 0;
            }
            let j = buf[pos];
            pos += 1;
            let mut reject = u8::from(usize::from(j) > i);
            // Released on purpose, see the function doc.
            hook::declassify(&mut reject);
            if reject == 0 {
                break j;
            }
        };
        // +1 as 0x01, −1 as 0xff.
        let sign = 1u8.wrapping_sub(((signs & 1) as u8) << 1);
        signs >>= 1;
        crate::ct::swap_in_ball(avx2, &mut cb, i, j, sign);
    }
    for (x, &b) in c.0.iter_mut().zip(cb.iter()) {
        *x = i32::from(b as i8);
    }
    cb.zeroize();
    buf.zeroize();
    signs.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX2 update of `SampleInBall` against the portable one: random
    /// bytes (any value, not only 0 / ±1) but c_i = 0 (as in Algorithm 29,
    /// the kernel's precondition), every i with j = 0, i, 255 and random j
    /// (also j > i, which callers never pass), both signs.
    #[test]
    fn swap_in_ball_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for i in 0..N {
            for t in 0..8 {
                let mut c = [0u8; N];
                for b in &mut c {
                    *b = next() as u8;
                }
                c[i] = 0;
                let j = match t {
                    0 => 0,
                    1 => i as u8,
                    2 => 255,
                    _ => next() as u8,
                };
                let sign = if t & 1 == 0 { 1 } else { 0xff };
                let (mut p, mut a) = (c, c);
                crate::ct::swap_in_ball_portable(&mut p, i, j, sign);
                crate::ct::swap_in_ball(Some(token), &mut a, i, j, sign);
                assert_eq!(p, a, "i {i}, j {j}, sign {sign}");
            }
        }
    }

    /// The AVX2 `RejBoundedPoly` loop (then the portable one over the bytes
    /// it leaves) against the portable loop alone, for η = 2 and 4: random
    /// bytes, bytes of only rejected half-bytes (0xff; 0x9f / 0xf9 for η = 4
    /// mix accepted and rejected), the edge half-bytes 14 / 15 and 8 / 9,
    /// every start count near 0 and 256, lengths of one and two SHAKE256
    /// blocks and short ones (not a multiple of 8).
    #[test]
    fn rej_eta_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let patterns = [0xffu8, 0x9f, 0xf9, 0xef, 0xfe, 0x89, 0x98, 0x00];
        for t in 0..800usize {
            let mut bytes = [0u8; 2 * SHAKE256_RATE];
            for (k, b) in bytes.iter_mut().enumerate() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *b = match t % 4 {
                    0 | 1 => s as u8,
                    2 => patterns[(k + t) % patterns.len()],
                    _ => patterns[(s as usize) % patterns.len()],
                };
            }
            let eta = if t & 1 == 0 { 2 } else { 4 };
            let len = [SHAKE256_RATE, 2 * SHAKE256_RATE, 13, 7, 100][t % 5];
            let start = [0, 1, 100, 239, 240, 241, 250, 255, 256][t % 9];
            let init = Poly(core::array::from_fn(|i| -(i as i32)));
            let (mut a, mut b) = (init, init);
            let ca = rej_bounded_fill(&bytes[..len], start, &mut a, eta);
            let cb = rej_bounded_consume(&bytes[..len], start, &mut b, eta);
            assert_eq!(ca, cb, "count, t {t}");
            assert_eq!(a.0[..ca], b.0[..cb], "coefficients, t {t}");
            assert_eq!(
                a.0[..start],
                init.0[..start],
                "untouched before start, t {t}"
            );
            // The kernel alone stops at a whole group of 8 bytes with room
            // for 16 more coefficients, and agrees with the portable loop there.
            let mut c = init;
            let (cc, used) = crate::arch::rej_eta(token, &mut c.0, start, &bytes[..len], eta);
            assert_eq!(used % 8, 0);
            assert!(used <= len && (cc + 16 > N || used + 8 > len), "t {t}");
            let mut d = init;
            let cd = rej_bounded_consume(&bytes[..used], start, &mut d, eta);
            assert_eq!(cc, cd, "t {t}");
            assert_eq!(c.0[..cc], d.0[..cd], "t {t}");
        }
    }

    /// The AVX2 `RejNTTPoly` loop against the portable one: random bytes
    /// (about half the candidates rejected when the top bits are forced), edge
    /// candidates (q − 1 accepted; q, 2^23 − 1 rejected; the ignored top bit
    /// set), every start count from 0 and near 256, block lengths of one and
    /// five SHAKE128 blocks and a short one.
    #[test]
    fn rej_uniform_matches_portable() {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut s = 0x0123_4567_89ab_cdefu64;
        let edges: [[u8; 3]; 6] = [
            [0x00, 0xe0, 0x7f], // q − 1 = 0x7fe000
            [0x01, 0xe0, 0x7f], // q
            [0xff, 0xff, 0x7f], // 2^23 − 1
            [0x00, 0xe0, 0xff], // q − 1 with the top bit set
            [0x00, 0x00, 0x80], // 0 with the top bit set
            [0x01, 0xe0, 0xff], // q with the top bit set
        ];
        for t in 0..600usize {
            let mut bytes = [0u8; 5 * SHAKE128_RATE];
            for (k, b) in bytes.chunks_exact_mut(3).enumerate() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let r = s.to_le_bytes();
                let forced = [r[0], r[1], r[2] | 0x60];
                b.copy_from_slice(match t % 3 {
                    0 => &r[..3],
                    1 => &edges[(k + t) % edges.len()],
                    // Top bits forced: candidates in [0x600000, 2^23), about
                    // 60 % of them below q.
                    _ => &forced,
                });
            }
            let len = [SHAKE128_RATE, 5 * SHAKE128_RATE, 21][t % 3];
            let start = [0, 1, 100, 247, 248, 249, 255, 256][t % 8];
            let init: [i32; N] = core::array::from_fn(|i| -(i as i32));
            let (mut a, mut b) = (init, init);
            let ca = crate::arch::rej_uniform(token, &mut a, start, &bytes[..len]);
            let cb = rej_ntt_consume(&bytes[..len], start, |i, z| b[i] = z);
            assert_eq!(ca, cb, "count, t {t}");
            assert_eq!(a[..ca], b[..cb], "coefficients, t {t}");
            assert_eq!(a[..start], init[..start], "untouched before start, t {t}");
        }
    }
}
