//! The ECDH part of the NIST-curve hybrids on our own curve arithmetic,
//! written once for P-256 and P-384 (`p256_ecdh.rs`, `p384_ecdh.rs` invoke
//! [`nist_ecdh!`] with their curve module and sizes): the key derivation,
//! the point encoding and the checks the TLS hybrid groups need.
//!
//! The private scalar is made without a rejection loop, so nothing branches
//! on it: FIPS 186-5 Appendix A.2.1 ("key pair generation using extra random
//! bits"), `d = (c mod (n − 1)) + 1` from a `len(n) + 64`-bit string `c`,
//! reduced bit by bit with masked subtractions (checked under valgrind by
//! `tests/ct_valgrind.rs`).

/// The items of one curve's ECDH module: `$curve` our curve module
/// (`mul`, `mul_base`, `Affine`, `field::{Arith, Fe, Portable}`), `$limbs`
/// its limb count, `$field_bytes` the size of a coordinate,
/// `$order_minus_one` the little-endian limbs of `n − 1`, `$fast` the type
/// of the fast path's arithmetic and `$detect` the expression that picks it
/// (`None`: portable).
macro_rules! nist_ecdh {
    (
        curve = $curve:ident,
        limbs = $limbs:literal,
        field_bytes = $field_bytes:literal,
        order_minus_one = $order_minus_one:expr,
        fast = $fast:ty,
        detect = $detect:expr $(,)?
    ) => {
        use pqdr_common::ct::opaque;
        use subtle::ConstantTimeEq;
        use zeroize::{Zeroize, Zeroizing};

        use crate::arch::{self, Avx2};
        use crate::error::Error;
        use crate::$curve::field::{Arith, Fe, FieldArith, Portable};
        use crate::$curve::{self, Affine};

        /// Size of an uncompressed SEC 1 point: `0x04 ‖ x ‖ y`.
        pub(crate) const POINT_SIZE: usize = 1 + 2 * SECRET_SIZE;
        /// Size of the ECDH shared secret: the x-coordinate of the shared point.
        pub(crate) const SECRET_SIZE: usize = $field_bytes;
        /// Size of the randomness `c` a private scalar is derived from (FIPS 186-5
        /// A.2.1: `len(n) + 64` bits).
        pub(crate) const SCALAR_SEED_SIZE: usize = SECRET_SIZE + 8;

        /// The SEC 1 tag of an uncompressed point (SEC 1 v2 §2.3.3).
        const UNCOMPRESSED: u8 = 0x04;

        /// `n − 1`, the group order of the curve (SP 800-186 §3.2.1) minus one,
        /// little-endian limbs.
        const ORDER_MINUS_ONE: [u64; $limbs] = $order_minus_one;

        /// A private scalar in `[1, n − 1]` (little-endian limbs); wiped on drop.
        #[derive(Clone)]
        pub(crate) struct SecretScalar([u64; $limbs]);

        /// `r − m` unless that borrows out of the `limbs + 1`-limb `r` (then `r`):
        /// one masked conditional subtraction.
        #[inline(always)]
        fn reduce_once(r: &mut [u64; $limbs + 1], m: &[u64; $limbs]) {
            let mut d = [0u64; $limbs];
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
            let keep = opaque((opaque(borrow) & !opaque(r[$limbs]) & 1).wrapping_neg());
            for i in 0..$limbs {
                r[i] = (r[i] & keep) | (d[i] & !keep);
            }
            r[$limbs] = 0;
            d.zeroize();
        }

        impl SecretScalar {
            /// FIPS 186-5 A.2.1 steps 5–6: `d = (c mod (n − 1)) + 1`, `c` read as a
            /// big-endian integer. Constant time; never zero. The top `len(n)` bits
            /// (below `2·(n − 1)`) are reduced once, then each of the 64 low bits is
            /// shifted in, `r ← 2r + bit`, and reduced once more.
            pub(crate) fn from_seed(c: &[u8; SCALAR_SEED_SIZE]) -> Self {
                let mut limbs = [0u64; $limbs + 1];
                for (i, limb) in limbs.iter_mut().enumerate() {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(&c[SECRET_SIZE - 8 * i..SCALAR_SEED_SIZE - 8 * i]);
                    *limb = u64::from_be_bytes(w);
                }
                // limbs[0] is the low 64 bits of c, limbs[1..] the top len(n).
                let mut r = [0u64; $limbs + 1];
                r[..$limbs].copy_from_slice(&limbs[1..]);
                reduce_once(&mut r, &ORDER_MINUS_ONE);
                for k in (0..64).rev() {
                    let bit = (limbs[0] >> k) & 1;
                    for i in (1..=$limbs).rev() {
                        r[i] = (r[i] << 1) | (r[i - 1] >> 63);
                    }
                    r[0] = (r[0] << 1) | bit;
                    reduce_once(&mut r, &ORDER_MINUS_ONE);
                }
                // r ≤ n − 2, so r + 1 does not carry out of len(n) bits.
                let mut d = [0u64; $limbs];
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

            /// The scalar whose big-endian encoding is `b`, if it is in `[1, n − 1]`
            /// (SEC 1 v2 §2.3.6; the candidate test of draft-ietf-hpke-pq §4's
            /// rejection sampling). The range test is constant time (masked
            /// borrow and zero test); only its verdict is made public, since a
            /// rejected candidate is discarded.
            pub(crate) fn from_be_bytes(b: &[u8; SECRET_SIZE]) -> Option<Self> {
                let mut d = [0u64; $limbs];
                for (i, limb) in d.iter_mut().enumerate() {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(&b[SECRET_SIZE - 8 * (i + 1)..SECRET_SIZE - 8 * i]);
                    *limb = u64::from_be_bytes(w);
                }
                // (n − 1) − d borrows iff d > n − 1.
                let mut borrow = 0u64;
                let mut any = 0u64;
                for (m, di) in ORDER_MINUS_ONE.iter().zip(&d) {
                    let (d1, b1) = m.overflowing_sub(*di);
                    let (_, b2) = d1.overflowing_sub(borrow);
                    borrow = u64::from(b1 | b2);
                    any |= *di;
                }
                let ok = !(opaque(borrow).ct_eq(&1) | any.ct_eq(&0));
                let mut valid = ok.unwrap_u8();
                pqdr_ctgrind::hook::declassify(&mut valid);
                if valid == 1 {
                    Some(Self(d))
                } else {
                    d.zeroize();
                    None
                }
            }

            /// `d·G`, uncompressed. Public by design (the key share sent to the peer).
            pub(crate) fn public(&self) -> [u8; POINT_SIZE] {
                let mut p = public_with($detect, &self.0);
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
                dh_with($detect, &self.0, q)
            }
        }

        /// [`SecretScalar::public`] on the given path (`None`: portable; `Some`:
        /// the fast arithmetic, and the table scans take AVX2 if the CPU has it).
        /// Not inlined: one call per key, and callgrind can count it by name.
        #[inline(never)]
        pub(crate) fn public_with(token: Option<$fast>, d: &[u64; $limbs]) -> [u8; POINT_SIZE] {
            fn go<A: Arith>(ar: A, d: &[u64; $limbs], avx: Option<Avx2>) -> [u8; POINT_SIZE] {
                let mut p = $curve::mul_base(ar, d, avx);
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
            token: Option<$fast>,
            d: &[u64; $limbs],
            q: &Affine,
        ) -> Result<Zeroizing<[u8; SECRET_SIZE]>, Error> {
            fn go<A: Arith>(
                ar: A,
                d: &[u64; $limbs],
                q: &Affine,
                avx: Option<Avx2>,
            ) -> (Zeroizing<[u8; SECRET_SIZE]>, u64) {
                let mut p = $curve::mul(ar, q, d, avx);
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
            pub(crate) fn limbs(&self) -> &[u64; $limbs] {
                &self.0
            }
        }
    };
}
