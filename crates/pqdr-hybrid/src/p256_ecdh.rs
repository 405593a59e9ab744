//! ECDH on P-256 (secp256r1) for SecP256r1MLKEM768 on our own curve
//! arithmetic ([`crate::nistp256`]): the key derivation, the point encoding and
//! the checks the TLS hybrid group needs, with the contract of
//! `nist_ecdh.rs` (which P-384 still uses): a 40-byte scalar seed, 65-byte
//! points, 32-byte secrets.
//!
//! The private scalar is made without a rejection loop, so nothing branches
//! on it: FIPS 186-5 Appendix A.2.1 ("key pair generation using extra random
//! bits"), `d = (c mod (n − 1)) + 1` from a 320-bit string `c`, reduced here
//! bit by bit with masked subtractions (checked under valgrind by
//! `tests/ct_valgrind.rs`).

use pqdr_common::ct::opaque;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::arch::{self, Avx2, Bmi2Adx};
use crate::error::Error;
use crate::nistp256::field::{Arith, Fe, Portable};
use crate::nistp256::{self, Affine};

/// Size of an uncompressed SEC 1 point: `0x04 ‖ x ‖ y`.
pub(crate) const POINT_SIZE: usize = 1 + 2 * SECRET_SIZE;
/// Size of the ECDH shared secret: the x-coordinate of the shared point.
pub(crate) const SECRET_SIZE: usize = 32;
/// Size of the randomness `c` a private scalar is derived from (FIPS 186-5
/// A.2.1: `len(n) + 64` bits).
pub(crate) const SCALAR_SEED_SIZE: usize = SECRET_SIZE + 8;

/// The SEC 1 tag of an uncompressed point (SEC 1 v2 §2.3.3).
const UNCOMPRESSED: u8 = 0x04;

/// `n − 1`, the group order of P-256 (SP 800-186 §3.2.1.3) minus one,
/// little-endian limbs.
const ORDER_MINUS_ONE: [u64; 4] = [
    0xf3b9_cac2_fc63_2550,
    0xbce6_faad_a717_9e84,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_0000_0000,
];

/// A private scalar in `[1, n − 1]` (little-endian limbs); wiped on drop.
#[derive(Clone)]
pub(crate) struct SecretScalar([u64; 4]);

/// `r − m` unless that borrows out of the five-limb `r` (then `r`): one
/// masked conditional subtraction.
#[inline(always)]
fn reduce_once(r: &mut [u64; 5], m: &[u64; 4]) {
    let mut d = [0u64; 4];
    let mut borrow = 0u64;
    for (i, di) in d.iter_mut().enumerate() {
        let (d1, b1) = r[i].overflowing_sub(m[i]);
        let (d2, b2) = d1.overflowing_sub(borrow);
        *di = d2;
        borrow = u64::from(b1 | b2);
    }
    // r ≥ m iff the top limb covers the borrow: keep r iff r_4 < borrow.
    // `opaque` on the inputs: LLVM knew r_4 ∈ {0, 1} and branched on it
    // (valgrind, tests/ct_valgrind.rs).
    let keep = opaque((opaque(borrow) & !opaque(r[4]) & 1).wrapping_neg());
    for i in 0..4 {
        r[i] = (r[i] & keep) | (d[i] & !keep);
    }
    r[4] = 0;
    d.zeroize();
}

impl SecretScalar {
    /// FIPS 186-5 A.2.1 steps 5–6: `d = (c mod (n − 1)) + 1`, `c` read as a
    /// big-endian integer. Constant time; never zero. The top 256 bits
    /// (below `2·(n − 1)`) are reduced once, then each of the 64 low bits is
    /// shifted in, `r ← 2r + bit`, and reduced once more.
    pub(crate) fn from_seed(c: &[u8; SCALAR_SEED_SIZE]) -> Self {
        let mut limbs = [0u64; 5];
        for (i, limb) in limbs.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&c[32 - 8 * i..40 - 8 * i]);
            *limb = u64::from_be_bytes(w);
        }
        // limbs[0] is the low 64 bits of c, limbs[1..5] the top 256.
        let mut r = [limbs[1], limbs[2], limbs[3], limbs[4], 0];
        reduce_once(&mut r, &ORDER_MINUS_ONE);
        for k in (0..64).rev() {
            let bit = (limbs[0] >> k) & 1;
            r[4] = r[3] >> 63;
            r[3] = (r[3] << 1) | (r[2] >> 63);
            r[2] = (r[2] << 1) | (r[1] >> 63);
            r[1] = (r[1] << 1) | (r[0] >> 63);
            r[0] = (r[0] << 1) | bit;
            reduce_once(&mut r, &ORDER_MINUS_ONE);
        }
        // r ≤ n − 2, so r + 1 does not carry out of 256 bits.
        let mut d = [0u64; 4];
        let mut carry = 1u64;
        for (di, ri) in d.iter_mut().zip(r) {
            let (s, o) = ri.overflowing_add(carry);
            *di = s;
            carry = u64::from(o);
        }
        limbs.zeroize();
        r.zeroize();
        Self(d)
    }

    /// `d·G`, uncompressed. Public by design (the key share sent to the peer).
    pub(crate) fn public(&self) -> [u8; POINT_SIZE] {
        let mut p = public_with(arch::bmi2_adx(), &self.0);
        pqdr_ctgrind::hook::declassify(&mut p);
        p
    }

    /// ECDH (SP 800-56A rev. 3 §5.7.1.2): the x-coordinate of `d·Q`, in a
    /// buffer wiped on drop. `Q` was validated by [`parse_point`].
    ///
    /// # Errors
    /// [`Error::InvalidPoint`] if `d·Q` is the point at infinity (SP 800-56A
    /// §5.7.1.2 step 2). `Q` is a validated point of the prime-order group
    /// and `d ≠ 0`, so this cannot happen; it is checked all the same.
    pub(crate) fn dh(&self, q: &Affine) -> Result<Zeroizing<[u8; SECRET_SIZE]>, Error> {
        dh_with(arch::bmi2_adx(), &self.0, q)
    }
}

/// [`SecretScalar::public`] on the given path (`None`: portable; with the
/// kernels, the table scans take AVX2 if the CPU has it). Not
/// inlined: one call per key, and callgrind can count it by name.
#[inline(never)]
pub(crate) fn public_with(token: Option<Bmi2Adx>, d: &[u64; 4]) -> [u8; POINT_SIZE] {
    fn go<A: Arith>(ar: A, d: &[u64; 4], avx: Option<Avx2>) -> [u8; POINT_SIZE] {
        let mut p = nistp256::mul_base(ar, d, avx);
        // `d ∈ [1, n − 1]`, so `d·G` is never the identity.
        let (a, _) = p.to_affine(ar);
        p.wipe();
        encode(&a)
    }
    match token {
        Some(t) => go(t, d, arch::avx2()),
        None => go(Portable, d, None),
    }
}

/// [`SecretScalar::dh`] on the given path (`None`: portable). Not inlined
/// (as [`public_with`]).
#[inline(never)]
pub(crate) fn dh_with(
    token: Option<Bmi2Adx>,
    d: &[u64; 4],
    q: &Affine,
) -> Result<Zeroizing<[u8; SECRET_SIZE]>, Error> {
    fn go<A: Arith>(
        ar: A,
        d: &[u64; 4],
        q: &Affine,
        avx: Option<Avx2>,
    ) -> (Zeroizing<[u8; SECRET_SIZE]>, u64) {
        let mut p = nistp256::mul(ar, q, d, avx);
        let (mut a, infinity) = p.to_affine(ar);
        p.wipe();
        let out = Zeroizing::new(a.x.to_be_bytes());
        a.x.0.zeroize();
        a.y.0.zeroize();
        (out, infinity)
    }
    let (out, infinity) = match token {
        Some(t) => go(t, d, q, arch::avx2()),
        None => go(Portable, d, q, None),
    };
    let mut infinity = u8::from(infinity != 0);
    // Public by design: `d·Q = O` iff `Q = O` for `d ∈ [1, n − 1]` on a
    // prime-order curve, a property of the public point; the handshake
    // aborts on it.
    pqdr_ctgrind::hook::declassify(&mut infinity);
    if infinity == 1 {
        return Err(Error::InvalidPoint);
    }
    Ok(out)
}

impl Zeroize for SecretScalar {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for SecretScalar {
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// The uncompressed encoding `0x04 ‖ x ‖ y` of an affine point
/// (SEC 1 v2 §2.3.3).
fn encode(p: &Affine) -> [u8; POINT_SIZE] {
    let mut out = [0u8; POINT_SIZE];
    out[0] = UNCOMPRESSED;
    out[1..=SECRET_SIZE].copy_from_slice(&p.x.to_be_bytes());
    out[1 + SECRET_SIZE..].copy_from_slice(&p.y.to_be_bytes());
    out
}

/// Parses a peer's uncompressed point and validates it (SP 800-56A rev. 3
/// §5.6.2.3.4, ECC partial public-key validation, which suffices on a
/// prime-order curve; SEC 1 v2 §2.3.4): the tag is `0x04` (TLS 1.3 allows
/// only the uncompressed form, RFC 8446 §4.2.8.2), `x, y < p`, and
/// `y² = x³ − 3x + b`. The identity has no uncompressed encoding, so it is
/// refused too.
///
/// # Errors
/// [`Error::InvalidPoint`] if any check fails. All inputs are public.
pub(crate) fn parse_point(bytes: &[u8; POINT_SIZE]) -> Result<Affine, Error> {
    if bytes[0].ct_eq(&UNCOMPRESSED).unwrap_u8() == 0 {
        return Err(Error::InvalidPoint);
    }
    let mut xb = [0u8; SECRET_SIZE];
    let mut yb = [0u8; SECRET_SIZE];
    xb.copy_from_slice(&bytes[1..=SECRET_SIZE]);
    yb.copy_from_slice(&bytes[1 + SECRET_SIZE..]);
    let x = Fe::from_be_bytes(&xb).ok_or(Error::InvalidPoint)?;
    let y = Fe::from_be_bytes(&yb).ok_or(Error::InvalidPoint)?;
    // Public data: the portable products suffice.
    let ar = Portable;
    let x3 = ar.mul(&ar.square(&x), &x);
    let three_x = x.add(&x).add(&x);
    let rhs = x3.sub(&three_x).add(&Fe::B);
    if ar.square(&y) != rhs {
        return Err(Error::InvalidPoint);
    }
    Ok(Affine { x, y })
}

/// Test access to the scalar's limbs.
#[cfg(test)]
impl SecretScalar {
    pub(crate) fn limbs(&self) -> &[u64; 4] {
        &self.0
    }
}
