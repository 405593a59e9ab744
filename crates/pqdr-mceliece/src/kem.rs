//! The KEM on caller-provided byte buffers (Classic McEliece spec §2.5 and
//! §8: KeyGen §8.1, Encap §8.2, Decap §8.3). Round-4 KEM without plaintext
//! confirmation; the `pc` sets add C1 = H(2, e) to the ciphertext and check
//! it in Decap.
// ref: operations.c

use crate::arch;
use crate::controlbits::{self, Scratch};
use crate::decrypt;
use crate::encrypt;
use crate::params::{Buf, Derived, MAX_N_BYTES, MAX_ROW_BYTES, MAX_T, ParameterSet};
use crate::pk_gen;
use crate::sk_gen;
use crate::sort;
use pqdr_keccak::Shake256;
use rand_core::CryptoRng;
use zeroize::Zeroize;

/// H(prefix ‖ parts…) with a 32-byte output: SHAKE256 (Classic McEliece
/// spec §2.5.1; all seeds and session keys are SHAKE256 outputs, §8.1).
fn h32(prefix: u8, parts: &[&[u8]]) -> [u8; 32] {
    let mut s = Shake256::new();
    s.absorb(&[prefix]);
    for p in parts {
        s.absorb(p);
    }
    let mut out = [0u8; 32];
    s.squeeze(&mut out);
    out
}

/// `FieldOrdering` (Classic McEliece spec §2.4.2): sorts (perm_i << 31 | i)
/// and rejects repeated perm values. Fills pi (2^m) or returns false.
#[inline(never)]
fn field_ordering<P: ParameterSet>(pi: &mut [u16], perm_bytes: &mut Shake256) -> bool {
    let mut buf = P::Q64::zeroed();
    let buf = buf.as_mut();
    // The 32-bit values 64 at a time: whole-lane squeezes (4-byte ones went
    // byte by byte through the sponge).
    let mut bytes = [0u8; 4 * 64];
    for (k, part) in buf.chunks_mut(64).enumerate() {
        let bytes = &mut bytes[..4 * part.len()];
        perm_bytes.squeeze(bytes);
        for (j, (x, b)) in part.iter_mut().zip(bytes.as_chunks::<4>().0).enumerate() {
            *x = (u64::from(u32::from_le_bytes(*b)) << 31) | (64 * k + j) as u64;
        }
    }
    bytes.zeroize();
    // The same network on the AVX2 path where there is one.
    match arch::avx2() {
        Some(token) => arch::sort_u64(token, buf),
        None => sort::sort_u64(buf),
    }
    let mut dup = 0u64;
    for w in buf.windows(2) {
        dup |= !crate::ct::nonzero_mask_u64((w[0] ^ w[1]) >> 31);
    }
    // Public by design (libmceliece `pk_gen`): a repeated value rejects this seed.
    pqdr_ctgrind::hook::declassify(&mut dup);
    for (p, &x) in pi.iter_mut().zip(buf.iter()) {
        *p = (x as u16) & P::GF_MASK;
    }
    buf.zeroize();
    dup == 0
}

/// The field ordering pi as Beneš control bits, the secret key's alpha
/// (Classic McEliece spec §3.3); false if their self-check fails.
#[inline(never)]
fn write_controlbits<P: ParameterSet>(cond: &mut [u8], pi: &mut [u16]) -> bool {
    let mut p = P::Q16::zeroed();
    let mut c = P::Q16::zeroed();
    let mut rec = P::R16::zeroed();
    let mut a = [0u32; controlbits::PACKED_MAX];
    let mut check = P::Q16::zeroed();
    let mut s = Scratch {
        p: p.as_mut(),
        c: c.as_mut(),
        rec: rec.as_mut(),
        a: &mut a,
    };
    let ok = controlbits::controlbits(cond, pi, P::M, &mut s, check.as_mut());
    p.as_mut().zeroize();
    c.as_mut().zeroize();
    rec.as_mut().zeroize();
    a.zeroize();
    check.as_mut().zeroize();
    ok
}

/// `MatGen` (Classic McEliece spec §2.4.3): the public key T from g and pi;
/// the pivot word c, or `None` if this candidate is rejected.
#[inline(never)]
fn pk_gen_step<P: ParameterSet>(pk: &mut [u8], g: &[u16], pi: &mut [u16]) -> Option<u64> {
    let mut support = P::N16::zeroed();
    let r = pk_gen::pk_gen::<P>(pk, g, pi, support.as_mut());
    support.as_mut().zeroize();
    r
}

/// `KeyGen` from the 32-byte seed delta (Classic McEliece spec §8.1).
///
/// E = SHAKE256(64 || delta) gives s, the field-ordering bits, the
/// Goppa-polynomial bits and the next delta, in that order; on any rejection
/// the next delta is tried (ref: round-4 `crypto_kem_keypair`).
pub(crate) fn keypair_impl<P: ParameterSet>(pk: &mut [u8], sk: &mut [u8], seed: &[u8; 32]) {
    let (t, n) = (P::T, P::N);
    let mut delta = *seed;
    let mut pi = P::Q16::zeroed();
    let s_off = 40 + P::IRR_BYTES + P::COND_BYTES;
    loop {
        let mut xof = Shake256::new();
        xof.absorb(&[64]);
        xof.absorb(&delta);
        sk[..32].copy_from_slice(&delta);
        // s
        xof.squeeze(&mut sk[s_off..s_off + (n >> 3)]);
        // field-ordering bits, consumed straight into the sort buffer
        let ordering_ok = field_ordering::<P>(pi.as_mut(), &mut xof);
        // Goppa polynomial bits
        let mut fb = [0u8; 2 * MAX_T];
        xof.squeeze(&mut fb[..2 * t]);
        let mut f = [0u16; MAX_T];
        for (i, x) in f.iter_mut().enumerate().take(t) {
            *x = u16::from_le_bytes([fb[2 * i], fb[2 * i + 1]]) & P::GF_MASK;
        }
        fb.zeroize();
        xof.squeeze(&mut delta);
        drop(xof);

        let mut g = [0u16; MAX_T];
        let ok = match arch::avx2() {
            Some(token) => arch::genpoly_gen::<P>(token, &mut g, &f[..t]),
            None => sk_gen::genpoly_gen::<P>(&mut g, &f[..t]),
        };
        f.zeroize();
        if !ok || !ordering_ok {
            // A rejected candidate g (ordering failed after g was found) is
            // wiped before the retry.
            g.zeroize();
            continue;
        }
        for (i, &x) in g.iter().enumerate().take(t) {
            sk[40 + 2 * i..42 + 2 * i].copy_from_slice(&x.to_le_bytes());
        }
        let Some(pivots) = pk_gen_step::<P>(pk, &g[..t], pi.as_mut()) else {
            g.zeroize();
            continue;
        };
        g.zeroize();
        if !write_controlbits::<P>(&mut sk[40 + P::IRR_BYTES..s_off], pi.as_mut()) {
            continue;
        }
        sk[32..40].copy_from_slice(&pivots.to_le_bytes());
        break;
    }
    delta.zeroize();
    pi.as_mut().zeroize();
}

/// `Encap` (Classic McEliece spec §8.2): e = FixedWeight(), C0 = H e,
/// (C1 = H(2, e)), K = H(1, e, C).
pub(crate) fn encapsulate<P: ParameterSet, R: CryptoRng + ?Sized>(
    pk: &[u8],
    ct: &mut [u8],
    rng: &mut R,
) -> [u8; 32] {
    let mut e = [0u8; MAX_N_BYTES];
    let e = &mut e[..(P::N >> 3)];
    encrypt::gen_e::<P, R>(e, rng);
    let k = P::encode_entry(pk, ct, e);
    e.zeroize();
    k
}

/// `Encap` after `FixedWeight` (Classic McEliece spec §8.2): C0 = H e, then
/// [`finish_encapsulation`]. Instantiated once per set in this crate
/// (`params::sealed::Sealed::encode_entry`).
pub(crate) fn encode_impl<P: ParameterSet>(pk: &[u8], ct: &mut [u8], e: &[u8]) -> [u8; 32] {
    let mut tail = [0u8; MAX_ROW_BYTES];
    encrypt::e_tail::<P>(&mut tail, e);
    ct.fill(0);
    encrypt::syndrome_rows::<P>(&mut ct[..P::SYND_BYTES], pk, 0, e, &tail);
    tail.zeroize();
    finish_encapsulation::<P>(e, ct)
}

/// `KeyGen` ([`keypair_impl`]) through the set's entry point, compiled once
/// in this crate (`params::sealed::Sealed`).
#[inline(always)]
pub(crate) fn keypair<P: ParameterSet>(pk: &mut [u8], sk: &mut [u8], seed: &[u8; 32]) {
    P::keypair_entry(pk, sk, seed);
}

/// `Decap` ([`decapsulate_impl`]) through the set's entry point.
#[inline(always)]
pub(crate) fn decapsulate<P: ParameterSet>(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    P::decapsulate_entry(sk, ct)
}

/// `Decap` with a prepared key ([`decapsulate_prepared_impl`]) through the
/// set's entry point.
#[inline(always)]
pub(crate) fn decapsulate_prepared<P: ParameterSet>(
    sk: &[u8],
    prep: &decrypt::Prepared,
    ct: &[u8],
) -> [u8; 32] {
    P::decapsulate_prepared_entry(sk, prep, ct)
}

/// Implements `params::sealed::Sealed` (the entry points) for each set:
/// non-generic, never inlined, so their generic bodies are compiled here
/// once per set instead of in every caller's crate.
macro_rules! entry_points {
    ($($ty:ident $feature:literal),* $(,)?) => {$(
        #[cfg(feature = $feature)]
        impl crate::params::sealed::Sealed for crate::params::$ty {
            #[inline(never)]
            fn keypair_entry(pk: &mut [u8], sk: &mut [u8], seed: &[u8; 32]) {
                keypair_impl::<Self>(pk, sk, seed);
            }
            #[inline(never)]
            fn encode_entry(pk: &[u8], ct: &mut [u8], e: &[u8]) -> [u8; 32] {
                encode_impl::<Self>(pk, ct, e)
            }
            #[inline(never)]
            fn decapsulate_entry(sk: &[u8], ct: &[u8]) -> [u8; 32] {
                decapsulate_impl::<Self>(sk, ct)
            }
            #[inline(never)]
            fn prepare_entry(out: &mut dyn core::any::Any, sk_gc: &[u8]) {
                // The type test is on public type identities, not on data.
                match out.downcast_mut::<decrypt::Prepared>() {
                    Some(out) => decrypt::prepare_impl::<Self>(out, sk_gc),
                    None => unreachable!("decrypt::prepare passes a Prepared"),
                }
            }
            #[inline(never)]
            fn decapsulate_prepared_entry(
                sk: &[u8],
                prep: &dyn core::any::Any,
                ct: &[u8],
            ) -> [u8; 32] {
                match prep.downcast_ref::<decrypt::Prepared>() {
                    Some(prep) => decapsulate_prepared_impl::<Self>(sk, prep, ct),
                    None => unreachable!("decapsulate_prepared passes a Prepared"),
                }
            }
        }
    )*};
}
entry_points!(
    Mceliece348864 "mceliece348864", Mceliece348864f "mceliece348864f",
    Mceliece460896 "mceliece460896", Mceliece460896f "mceliece460896f",
    Mceliece6688128 "mceliece6688128", Mceliece6688128f "mceliece6688128f",
    Mceliece6960119 "mceliece6960119", Mceliece6960119f "mceliece6960119f",
    Mceliece8192128 "mceliece8192128", Mceliece8192128f "mceliece8192128f",
    Mceliece348864pc "mceliece348864pc", Mceliece348864pcf "mceliece348864pcf",
    Mceliece460896pc "mceliece460896pc", Mceliece460896pcf "mceliece460896pcf",
    Mceliece6688128pc "mceliece6688128pc", Mceliece6688128pcf "mceliece6688128pcf",
    Mceliece6960119pc "mceliece6960119pc", Mceliece6960119pcf "mceliece6960119pcf",
    Mceliece8192128pc "mceliece8192128pc", Mceliece8192128pcf "mceliece8192128pcf",
);

/// The end of `Encap` once C0 is in `ct` (Classic McEliece spec §8.2): C1
/// for the `pc` sets, then K = H(1, e, C).
pub(crate) fn finish_encapsulation<P: ParameterSet>(e: &[u8], ct: &mut [u8]) -> [u8; 32] {
    if P::PC {
        let c1 = h32(2, &[e]);
        ct[P::SYND_BYTES..].copy_from_slice(&c1);
    }
    h32(1, &[e, ct])
}

/// `Decap` with implicit rejection (Classic McEliece spec §8.3): K = H(1, e,
/// C) on success, H(0, s, C) otherwise, chosen without a branch.
pub(crate) fn decapsulate_impl<P: ParameterSet>(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    let mut e = [0u8; MAX_N_BYTES];
    let e = &mut e[..(P::N >> 3)];
    let ok = decrypt::decrypt::<P>(e, &sk[40..], &ct[..P::SYND_BYTES]);
    finish_decapsulation::<P>(e, ok, sk, ct)
}

/// `Decap` (Classic McEliece spec §8.3) with the key-only part of decoding
/// precomputed: the same result as [`decapsulate`].
pub(crate) fn decapsulate_prepared_impl<P: ParameterSet>(
    sk: &[u8],
    prep: &decrypt::Prepared,
    ct: &[u8],
) -> [u8; 32] {
    let mut e = [0u8; MAX_N_BYTES];
    let e = &mut e[..(P::N >> 3)];
    let ok = decrypt::decrypt_prepared::<P>(e, &sk[40..], prep, &ct[..P::SYND_BYTES]);
    finish_decapsulation::<P>(e, ok, sk, ct)
}

/// The end of `Decap` after decoding (Classic McEliece spec §8.3): the C1
/// check of the `pc` sets, then K = H(1, e, C) if `ok` (0xFF) or H(0, s, C),
/// selected by masks; wipes `e`.
fn finish_decapsulation<P: ParameterSet>(
    e: &mut [u8],
    mut ok: u8,
    sk: &[u8],
    ct: &[u8],
) -> [u8; 32] {
    if P::PC {
        let c1 = h32(2, &[e]);
        let mut diff = 0u8;
        for (a, b) in c1.iter().zip(&ct[P::SYND_BYTES..]) {
            diff |= a ^ b;
        }
        ok &= crate::ct::eq_mask_u16(u16::from(diff), 0) as u8;
    }
    let s = &sk[40 + P::IRR_BYTES + P::COND_BYTES..];
    // The mask through `opaque`, the optimisation barrier of this crate's
    // other masks (ML-KEM and sntrup select through `subtle`'s `Choice`,
    // which does the same): LLVM cannot prove it is 0 or 0xFF, so the
    // select between e and s stays arithmetic instead of becoming a branch.
    let ok = crate::ct::opaque(ok);
    for (x, &y) in e.iter_mut().zip(s) {
        *x = (*x & ok) | (y & !ok);
    }
    let k = h32(ok & 1, &[e, ct]);
    e.zeroize();
    k
}
