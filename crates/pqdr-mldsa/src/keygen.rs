//! Key generation (FIPS 204 §6.1): `ML-DSA.KeyGen_internal` (Algorithm 6)
//! with the key encodings of §7.2 (Algorithms 22–25), and the validity check
//! of an expanded signing key.
#![allow(
    clippy::cast_possible_truncation,
    reason = "k and l are at most 8 and fit a byte"
)]

use pqdr_ctgrind::hook;
use pqdr_keccak::Shake256Lane;
use zeroize::Zeroizing;

use crate::encode::{pack, unpack};
use crate::field::{Q, freeze};
use crate::params::{D, ParameterSet, PolyArray, T0_POLY_SIZE, T1_BITS, T1_POLY_SIZE};
use crate::poly::{N, Poly, reduce_acc};
use crate::rounding::power2round;
use crate::sample::h;
use crate::sample_x4::{MatrixRows, expand_s};

/// Byte offsets inside the encoded signing key (`skEncode`, FIPS 204 Algorithm 24).
pub(crate) struct SkLayout;

impl SkLayout {
    pub(crate) const RHO: usize = 0;
    pub(crate) const KEY: usize = 32;
    pub(crate) const TR: usize = 64;
}

/// Offset of s1 in the secret key, after ρ, K and tr (FIPS 204 Algorithm 24:
/// 128, with a 64-byte tr; round-3.1 Dilithium: 96, with a 32-byte tr).
const fn s1_start<P: ParameterSet>() -> usize {
    SkLayout::TR + P::TR_SIZE
}

/// Offsets of s1_i, s2_i and t0_i inside `skEncode(ρ, K, tr, s1, s2, t0)`
/// (FIPS 204 Algorithm 24).
pub(crate) fn s1_range<P: ParameterSet>(i: usize) -> core::ops::Range<usize> {
    s1_start::<P>() + i * P::S_POLY_SIZE..s1_start::<P>() + (i + 1) * P::S_POLY_SIZE
}
pub(crate) fn s2_range<P: ParameterSet>(i: usize) -> core::ops::Range<usize> {
    let start = s1_start::<P>() + (P::L + i) * P::S_POLY_SIZE;
    start..start + P::S_POLY_SIZE
}
pub(crate) fn t0_range<P: ParameterSet>(i: usize) -> core::ops::Range<usize> {
    let start = s1_start::<P>() + (P::L + P::K) * P::S_POLY_SIZE + i * T0_POLY_SIZE;
    start..start + T0_POLY_SIZE
}
/// Offset of t1_i inside `pkEncode(ρ, t1)` (FIPS 204 Algorithm 22).
pub(crate) fn t1_range(i: usize) -> core::ops::Range<usize> {
    32 + T1_POLY_SIZE * i..32 + T1_POLY_SIZE * (i + 1)
}

/// `BitUnpack(·, η, η)` of a secret polynomial (FIPS 204 Algorithm 25).
pub(crate) fn unpack_eta<P: ParameterSet>(p: &mut Poly, bytes: &[u8]) {
    unpack(p, bytes, P::ETA_BITS, |v| P::ETA.wrapping_sub(v));
}

/// `BitUnpack(·, 2^12 − 1, 2^12)` of t0_i (FIPS 204 Algorithm 25).
pub(crate) fn unpack_t0(p: &mut Poly, bytes: &[u8]) {
    unpack(p, bytes, D, |v| (1i32 << (D - 1)).wrapping_sub(v));
}

/// The public ρ of an encoded signing key, released for valgrind: ρ is part
/// of the public key and only seeds the public matrix Â.
pub(crate) fn public_rho(bytes: &[u8]) -> [u8; 32] {
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&bytes[..32]);
    hook::declassify(&mut rho);
    rho
}

/// `ML-DSA.KeyGen_internal(ξ)` (FIPS 204 Algorithm 6): writes pkEncode and skEncode.
pub(crate) fn keygen_internal<P: ParameterSet>(
    xi: &[u8; 32],
    pk: &mut P::VkBytes,
    sk: &mut P::SkBytes,
) {
    let mut seeds = Zeroizing::new([0u8; 128]);
    if P::ROUND3 {
        // Round-3.1 Dilithium (v3.1 Fig. 4, line 2): (ρ, ρ', K) ← H(ζ).
        h(&[xi], &mut seeds[..]);
    } else {
        h(&[xi, &[P::K as u8, P::L as u8]], &mut seeds[..]);
    }
    let sk_b = sk.as_mut();
    sk_b[SkLayout::RHO..SkLayout::RHO + 32].copy_from_slice(&seeds[..32]);
    sk_b[SkLayout::KEY..SkLayout::KEY + 32].copy_from_slice(&seeds[96..128]);
    let mut rho_prime = Zeroizing::new([0u8; 64]);
    rho_prime.copy_from_slice(&seeds[32..96]);
    // `ExpandS(ρ')` (FIPS 204 Algorithm 33): s1 then s2, packed straight into the key.
    expand_s(&rho_prime, P::L + P::K, P::ETA, |r, s| {
        let range = if r < P::L {
            s1_range::<P>(r)
        } else {
            s2_range::<P>(r - P::L)
        };
        pack(&mut sk_b[range], s, P::ETA_BITS, |c| P::ETA.wrapping_sub(c));
    });
    let ok = derive_t::<P>(sk, pk, true);
    debug_assert_eq!(ok, 0);
    // The public key is a public output.
    hook::declassify(pk.as_mut());
}

/// The second half of `ML-DSA.KeyGen_internal` (FIPS 204 Algorithm 6): from
/// ρ, s1, s2 of an encoded signing key, computes t = NTT^−1(Â∘NTT(s1)) + s2,
/// (t1, t0) = Power2Round(t), writes pk = pkEncode(ρ, t1) and tr = H(pk).
/// With `write` the t0 and tr fields of `sk` are filled in; without it they
/// are compared, and the result is 0 if they match (constant time), non-zero
/// otherwise. Â is sampled one entry at a time (each entry is used once).
pub(crate) fn derive_t<P: ParameterSet>(
    sk: &mut P::SkBytes,
    pk: &mut P::VkBytes,
    write: bool,
) -> u32 {
    let rho = public_rho(sk.as_ref());
    pk.as_mut()[..32].copy_from_slice(&rho);
    let mut s1_hat = Zeroizing::new(P::VecL::zeroed());
    for (j, s) in s1_hat.as_mut().iter_mut().enumerate() {
        unpack_eta::<P>(s, &sk.as_ref()[s1_range::<P>(j)]);
        s.ntt();
    }
    let mut acc = Zeroizing::new([0i64; N]);
    let mut t = Zeroizing::new(Poly::ZERO);
    let mut s2 = Zeroizing::new(Poly::ZERO);
    let mut t0 = Zeroizing::new(Poly::ZERO);
    let mut diff = 0u32;
    let mut rows = MatrixRows::new(&rho, P::K, P::L);
    // tr = H(pk) (Algorithm 6, line 10): its whole blocks over ρ and the
    // rows of t1 written so far ride in lane 3 of Â's 4-way batches; the
    // rest (from the last row on) runs on the scalar permutation below.
    let mut h_pk = Shake256Lane::new();
    for r in 0..P::K {
        acc.fill(0);
        let prefix = &pk.as_ref()[..t1_range(r).start];
        rows.mul_acc_row_riding(&mut acc, r, s1_hat.as_ref(), Some((&mut h_pk, prefix)));
        reduce_acc(&mut t, &acc);
        t.invntt_tomont();
        unpack_eta::<P>(&mut s2, &sk.as_ref()[s2_range::<P>(r)]);
        let range = t0_range::<P>(r);
        let t1_out = &mut pk.as_mut()[t1_range(r)];
        if write {
            // t0 packed in place in skEncode (Algorithm 24), no copy.
            power2round_pack(&mut t, &s2, &mut t0, t1_out, &mut sk.as_mut()[range]);
        } else {
            let mut packed = Zeroizing::new([0u8; T0_POLY_SIZE]);
            power2round_pack(&mut t, &s2, &mut t0, t1_out, &mut packed[..]);
            for (x, y) in packed.iter().zip(&sk.as_ref()[range]) {
                diff |= u32::from(x ^ y);
            }
        }
        // t1 is public (it is the public key), before H(pk) absorbs it.
        hook::declassify(&mut pk.as_mut()[t1_range(r)]);
    }
    hook::declassify(pk.as_mut());
    let mut tr = [0u8; 64];
    h_pk.finish(
        crate::arch::keccak_bmi(),
        pk.as_ref(),
        &mut tr[..P::TR_SIZE],
    );
    let tr_field = &mut sk.as_mut()[SkLayout::TR..SkLayout::TR + P::TR_SIZE];
    if write {
        tr_field.copy_from_slice(&tr[..P::TR_SIZE]);
    } else {
        for (x, y) in tr.iter().zip(tr_field.iter()) {
            diff |= u32::from(x ^ y);
        }
    }
    diff
}

/// t = t' + s2 (t' in (−q, q), s2 in [−η, η]) to [0, q), then `Power2Round`
/// (FIPS 204 Algorithm 35, line 8 of Algorithm 6): t1 = `SimpleBitPack`(t1,
/// 2^10 − 1) into `t1_out` (320 bytes; Algorithm 16, as in pkEncode), t0 =
/// `BitPack`(t0, 2^12 − 1, 2^12) into `t0_out` (416 bytes; Algorithm 17, as
/// in skEncode). The AVX2 kernel (`arch::power2round_pack`) when available,
/// else the portable twin, which uses `t` and `t0` as scratch.
#[inline]
fn power2round_pack(t: &mut Poly, s2: &Poly, t0: &mut Poly, t1_out: &mut [u8], t0_out: &mut [u8]) {
    if let Some(token) = crate::arch::avx2() {
        return crate::arch::power2round_pack(token, &t.0, &s2.0, t1_out, t0_out);
    }
    power2round_pack_portable(t, s2, t0, t1_out, t0_out);
}

/// The portable twin of `arch::power2round_pack` (see [`power2round_pack`]).
#[inline(always)]
fn power2round_pack_portable(
    t: &mut Poly,
    s2: &Poly,
    t0: &mut Poly,
    t1_out: &mut [u8],
    t0_out: &mut [u8],
) {
    for ((x, e), z) in t.0.iter_mut().zip(s2.0.iter()).zip(t0.0.iter_mut()) {
        // (−q, q) + [−η, η] → [0, q)
        let v = freeze(freeze(freeze(*x).wrapping_add(*e)).wrapping_sub(Q));
        let (hi, lo) = power2round(v);
        *x = hi;
        *z = lo;
    }
    pack(t1_out, t, T1_BITS, |c| c);
    pack(t0_out, t0, D, |c| (1i32 << (D - 1)).wrapping_sub(c));
}

/// Checks that every packed secret coefficient of s1 and s2 is in [0, 2η]
/// (`skDecode`, FIPS 204 Algorithm 25, only defines those): 0 if so, non-zero otherwise.
pub(crate) fn check_s_range<P: ParameterSet>(sk: &P::SkBytes) -> u32 {
    let mut p = Zeroizing::new(Poly::ZERO);
    let mut bad = 0i32;
    for i in 0..P::L + P::K {
        let range = if i < P::L {
            s1_range::<P>(i)
        } else {
            s2_range::<P>(i - P::L)
        };
        unpack(&mut p, &sk.as_ref()[range], P::ETA_BITS, |v| v);
        for &v in &p.0 {
            // negative exactly when v > 2η
            bad |= (2 * P::ETA).wrapping_sub(v);
        }
    }
    u32::from(bad < 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX2 kernel against its portable twin: random t in (−q, q) and
    /// s2 in [−η, η] for η = 2 and 4, and the edges (t = ±(q − 1), 0, s2 =
    /// ±η, sums at 0, q − 1, and at the rounding boundaries 2^12 and
    /// 2^12 + 1 where Power2Round turns over).
    #[test]
    fn power2round_pack_matches_portable() {
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
        let edges = [
            -(Q - 1),
            Q - 1,
            0,
            1,
            -1,
            4096,
            4097,
            -4096,
            8191,
            8192,
            Q - 4096,
        ];
        for trial in 0..400 {
            let eta = if trial & 1 == 0 { 2 } else { 4 };
            let mut t = Poly::ZERO;
            let mut s2 = Poly::ZERO;
            for (i, (x, e)) in t.0.iter_mut().zip(s2.0.iter_mut()).enumerate() {
                let r = next();
                *x = if trial % 4 == 3 {
                    edges[(i + trial) % edges.len()]
                } else {
                    (r % (2 * Q as u64 - 1)) as i32 - (Q - 1)
                };
                *e = ((r >> 40) % (2 * eta as u64 + 1)) as i32 - eta;
                if trial % 4 == 2 {
                    *e = if i & 1 == 0 { eta } else { -eta };
                }
            }
            let (mut a1, mut a0) = ([0u8; T1_POLY_SIZE], [0u8; T0_POLY_SIZE]);
            crate::arch::power2round_pack(token, &t.0, &s2.0, &mut a1[..], &mut a0[..]);
            let (mut b1, mut b0) = ([0u8; T1_POLY_SIZE], [0u8; T0_POLY_SIZE]);
            let (mut tt, mut t0) = (t, Poly::ZERO);
            power2round_pack_portable(&mut tt, &s2, &mut t0, &mut b1[..], &mut b0[..]);
            assert_eq!(a1, b1, "t1, trial {trial}");
            assert_eq!(a0, b0, "t0, trial {trial}");
        }
    }
}
