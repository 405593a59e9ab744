//! X25519 (RFC 7748 §5): scalar clamping, the Montgomery ladder with
//! constant-time conditional swaps and the final inversion, on the field
//! arithmetic of [`field`] (four 64-bit limbs); plus the all-zero test of
//! TLS 1.3.

#[cfg(feature = "precomputed-tables")]
mod base;
mod field;
mod invert;

use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::arch;
use crate::error::Error;
use field::{Arith, Fe, Portable};
use invert::Invert;

/// Size of an X25519 scalar, point and shared secret in bytes.
pub(crate) const X25519_SIZE: usize = 32;

/// The base point's u-coordinate, 9 (RFC 7748 §4.1).
#[cfg(any(test, not(feature = "precomputed-tables")))]
const BASE_U: [u8; X25519_SIZE] = {
    let mut b = [0u8; X25519_SIZE];
    b[0] = 9;
    b
};

/// `decodeScalar25519` (RFC 7748 §5): clear the three low bits and the top
/// bit, set bit 254.
fn clamp(k: &[u8; X25519_SIZE]) -> Zeroizing<[u8; X25519_SIZE]> {
    let mut s = Zeroizing::new(*k);
    s[0] &= 248;
    s[31] &= 127;
    s[31] |= 64;
    s
}

/// The scalar multiplication `X25519(k, u)` of RFC 7748 §5: the Montgomery
/// ladder over bits 254 … 0 of the clamped scalar, `cswap` by masks, then
/// `x_2 · z_2^(p−2)`. Every step runs the same field operations whatever the
/// bits of `k`; the working values are wiped before returning.
///
/// On x86-64 with BMI2 and ADX (and the feature `simd`) each ladder step,
/// its `cswap` included, is one MULX/ADCX/ADOX assembly block
/// (`arch::fe_ladder_step`) and the inversion uses the field kernels of
/// `crate::arch`, else the portable field code; both give the same limbs.
fn scalarmult(k: &[u8; X25519_SIZE], u: &[u8; X25519_SIZE]) -> [u8; X25519_SIZE] {
    match arch::bmi2_adx() {
        Some(token) => ladder_with(token, k, u, |swap, s| arch::fe_ladder_step(token, swap, s)),
        None => ladder(Portable, k, u),
    }
}

/// The ladder state (`arch::LADDER_SLOTS` field elements): 0 `x_1`, 1 … 4
/// `x_2`, `z_2`, `x_3`, `z_3`, then scratch for `arch::fe_ladder_step`.
type State = [[u64; 4]; arch::LADDER_SLOTS];

/// [`scalarmult`] with the field operations of `ar`: [`cswap_state`], then
/// one [`step`], per bit.
fn ladder<A: Invert>(ar: A, k: &[u8; X25519_SIZE], u: &[u8; X25519_SIZE]) -> [u8; X25519_SIZE] {
    ladder_with(ar, k, u, |swap, s| {
        cswap_state(swap, s);
        step(ar, s);
    })
}

/// One ladder step (RFC 7748 §5, after the `cswap`) on the state `s`, in
/// the order and names of RFC 7748 §5: with [`cswap_state`] before it, the
/// portable twin of `arch::fe_ladder_step` (with `Portable`).
#[inline(always)]
fn step<A: Arith>(ar: A, s: &mut State) {
    let (x1, x2, z2, x3, z3) = (Fe(s[0]), Fe(s[1]), Fe(s[2]), Fe(s[3]), Fe(s[4]));
    let a = ar.add(&x2, &z2);
    let aa = ar.square(&a);
    let b = ar.sub(&x2, &z2);
    let bb = ar.square(&b);
    let e = ar.sub(&aa, &bb);
    let c = ar.add(&x3, &z3);
    let d = ar.sub(&x3, &z3);
    let da = ar.mul(&d, &a);
    let cb = ar.mul(&c, &b);
    s[3] = ar.square(&ar.add(&da, &cb)).0;
    s[4] = ar.mul(&x1, &ar.square(&ar.sub(&da, &cb))).0;
    s[1] = ar.mul(&aa, &bb).0;
    s[2] = ar.mul(&e, &ar.add(&aa, &ar.mul_a24(&e))).0;
}

/// The ladder of [`scalarmult`] with `step(swap, s)` (the `cswap` of the
/// state by `swap` ∈ {0, 1}, then one step) and, for the final
/// `x_2 · z_2^(p−2)`, the field operations of `ar`.
#[inline(always)]
fn ladder_with<A: Invert>(
    ar: A,
    k: &[u8; X25519_SIZE],
    u: &[u8; X25519_SIZE],
    mut step: impl FnMut(u64, &mut State),
) -> [u8; X25519_SIZE] {
    let k = clamp(k);
    let mut s: State = [[0; 4]; arch::LADDER_SLOTS];
    s[0] = Fe::from_bytes(u).0;
    s[1] = Fe::ONE.0; // x_2 = 1, z_2 = 0
    s[3] = s[0]; // x_3 = u, z_3 = 1
    s[4] = Fe::ONE.0;
    let mut swap = 0u64;
    for t in (0..255).rev() {
        let k_t = u64::from((k[t >> 3] >> (t & 7)) & 1);
        step(swap ^ k_t, &mut s);
        swap = k_t;
    }
    cswap_state(swap, &mut s);
    let out = ar.mul(&Fe(s[1]), &ar.invert(&Fe(s[2]))).to_bytes();
    // Wipe the ladder state (the secret-dependent intermediates).
    s.zeroize();
    out
}

/// `cswap(swap, x_2, x_3)` and `cswap(swap, z_2, z_3)` of RFC 7748 §5 on the
/// state, by a mask (`swap` ∈ {0, 1}; as [`Fe::cswap`]): no branch, no
/// index depends on `swap`.
#[inline(always)]
fn cswap_state(swap: u64, s: &mut State) {
    let mask = swap.wrapping_neg();
    let [_, x2, z2, x3, z3, ..] = s;
    for (a, b) in [(x2, x3), (z2, z3)] {
        for (ai, bi) in a.iter_mut().zip(b.iter_mut()) {
            let d = mask & (*ai ^ *bi);
            *ai ^= d;
            *bi ^= d;
        }
    }
}

/// `X25519(k, 9)`: the public key (or the ephemeral "ciphertext") of the
/// secret scalar `k` (RFC 7748 §6.1; the base point `u = 9`).
///
/// With the feature `precomputed-tables` (default), through the fixed-base
/// multiplication of [`base`] (the clamped scalar times the edwards25519
/// base point with a 48 KiB table of its multiples, mapped to Montgomery
/// u): the same value for fewer instructions. Without it, the ladder on
/// `u = 9`.
pub(crate) fn public(k: &[u8; X25519_SIZE]) -> [u8; X25519_SIZE] {
    let mut p = public_with(arch::bmi2_adx(), k);
    // Public by design: the result is sent (a public key or ct_X), or hashed
    // with the other public inputs of the combiner.
    pqdr_ctgrind::hook::declassify(&mut p);
    p
}

/// [`public`] on the given path (`None`: portable), for the tests.
fn public_with(token: Option<arch::Bmi2Adx>, k: &[u8; X25519_SIZE]) -> [u8; X25519_SIZE] {
    #[cfg(feature = "precomputed-tables")]
    {
        let k = clamp(k);
        match token {
            Some(token) => base::base_mul(token, arch::avx2(), &k),
            None => base::base_mul(Portable, None, &k),
        }
    }
    #[cfg(not(feature = "precomputed-tables"))]
    match token {
        Some(token) => ladder(token, k, &BASE_U),
        None => ladder(Portable, k, &BASE_U),
    }
}

/// `X25519(k, u)`, the shared secret, in a buffer wiped on drop.
pub(crate) fn dh(k: &[u8; X25519_SIZE], u: &[u8; X25519_SIZE]) -> Zeroizing<[u8; X25519_SIZE]> {
    Zeroizing::new(scalarmult(k, u))
}

/// [`dh`] that refuses an all-zero output (RFC 8446 §7.4.2, RFC 7748 §6.1),
/// as the TLS 1.3 hybrid groups require.
///
/// The output is compared with zero in constant time; only the verdict is
/// made public.
pub(crate) fn dh_checked(
    k: &[u8; X25519_SIZE],
    u: &[u8; X25519_SIZE],
) -> Result<Zeroizing<[u8; X25519_SIZE]>, Error> {
    let out = dh(k, u);
    let mut zero = out.ct_eq(&[0u8; X25519_SIZE]).unwrap_u8();
    // Public by design: for a clamped scalar the output is zero iff `u` has
    // low order, a property of the public point alone, and the handshake
    // aborts on it (the error is returned to the peer's side as an alert).
    pqdr_ctgrind::hook::declassify(&mut zero);
    if zero == 1 {
        Err(Error::LowOrderPoint)
    } else {
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
// The timing report compares the fixed-base product, which needs the table,
// and AWS-LC's, which needs the `bench-aws-lc` feature (aws-lc-rs).
#[cfg(all(test, feature = "precomputed-tables", feature = "bench-aws-lc"))]
mod timing;
