//! The ECDH part of the NIST-curve hybrids, written once for P-256 and
//! P-384 (`p256_ecdh.rs`, `p384_ecdh.rs` invoke `nist_ecdh!` with their
//! curve crate and sizes): no curve arithmetic here (RustCrypto `p256` /
//! `p384` do it), only the key derivation, the point encoding and the checks
//! the TLS hybrid groups need.
//!
//! The private scalar is made without a rejection loop, so nothing branches
//! on it: FIPS 186-5 Appendix A.2.1 ("key pair generation using extra random
//! bits"), `d = (c mod (n − 1)) + 1` from a `len(n) + 64`-bit string `c`.
//! The reduction is crypto-bigint's constant-time remainder (no branch or
//! index on `c`, checked under valgrind by `tests/ct_valgrind.rs`). The
//! curve crates' own random scalar (`Scalar::try_random`) rejects
//! out-of-range candidates in a loop that branches on them; it is not used.

/// The items of one curve's ECDH module: `$curve` the RustCrypto crate,
/// `$narrow` / `$wide` its scalar-sized and `len(n) + 64`-bit integers,
/// `$field_bytes` the size of a coordinate, `$order_minus_one` the hex of
/// `n − 1`.
macro_rules! nist_ecdh {
    (
        curve = $curve:ident,
        narrow = $narrow:ident,
        wide = $wide:ident,
        field_bytes = $field_bytes:literal,
        order_minus_one = $order_minus_one:expr $(,)?
    ) => {
        use subtle::ConstantTimeEq;
        use $curve::elliptic_curve::bigint::{NonZero, $narrow, $wide};
        use $curve::elliptic_curve::group::Group;
        use $curve::elliptic_curve::ops::Reduce;
        use $curve::elliptic_curve::point::AffineCoordinates;
        use $curve::{AffinePoint, FieldBytes, ProjectivePoint, Scalar};
        use zeroize::{Zeroize, Zeroizing};

        use crate::error::Error;

        /// Size of an uncompressed SEC 1 point: `0x04 ‖ x ‖ y`.
        pub(crate) const POINT_SIZE: usize = 1 + 2 * SECRET_SIZE;
        /// Size of the ECDH shared secret: the x-coordinate of the shared point.
        pub(crate) const SECRET_SIZE: usize = $field_bytes;
        /// Size of the randomness `c` a private scalar is derived from (FIPS 186-5
        /// A.2.1: `len(n) + 64` bits).
        pub(crate) const SCALAR_SEED_SIZE: usize = SECRET_SIZE + 8;

        /// The SEC 1 tag of an uncompressed point (SEC 1 v2 §2.3.3).
        const UNCOMPRESSED: u8 = 0x04;

        /// `n − 1`, the group order of the curve (SP 800-186 §3.2.1) minus one.
        const ORDER_MINUS_ONE: NonZero<$narrow> = NonZero::<$narrow>::from_be_hex($order_minus_one);

        /// A private scalar in `[1, n − 1]`; wiped on drop.
        #[derive(Clone)]
        pub(crate) struct SecretScalar(Scalar);

        impl SecretScalar {
            /// FIPS 186-5 A.2.1 steps 5–6: `d = (c mod (n − 1)) + 1`, `c` read as a
            /// big-endian integer. Constant time; never zero.
            pub(crate) fn from_seed(c: &[u8; SCALAR_SEED_SIZE]) -> Self {
                let mut wide = $wide::from_be_slice(c);
                let mut d = wide.rem(&ORDER_MINUS_ONE).wrapping_add(&$narrow::ONE);
                // `d < n`, so the (constant-time) reduction leaves it unchanged.
                let s = Self(<Scalar as Reduce<$narrow>>::reduce(&d));
                wide.zeroize();
                d.zeroize();
                s
            }

            /// `d·G`, uncompressed. Public by design (the key share sent to the peer).
            pub(crate) fn public(&self) -> [u8; POINT_SIZE] {
                let mut p = encode(&(ProjectivePoint::GENERATOR * self.0).to_affine());
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
            pub(crate) fn dh(
                &self,
                q: &AffinePoint,
            ) -> Result<Zeroizing<[u8; SECRET_SIZE]>, Error> {
                let shared = ProjectivePoint::from(*q) * self.0;
                let mut infinity = shared.is_identity().unwrap_u8();
                // Public by design: `d·Q = O` iff `Q = O` for `d ∈ [1, n − 1]` on a
                // prime-order curve, a property of the public point; the handshake
                // aborts on it.
                pqdr_ctgrind::hook::declassify(&mut infinity);
                if infinity == 1 {
                    return Err(Error::InvalidPoint);
                }
                let mut x: FieldBytes = shared.to_affine().x();
                let mut out = Zeroizing::new([0u8; SECRET_SIZE]);
                out.copy_from_slice(&x);
                x.zeroize();
                Ok(out)
            }
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

        /// The uncompressed encoding `0x04 ‖ x ‖ y` of a point that is not the
        /// identity (SEC 1 v2 §2.3.3).
        fn encode(p: &AffinePoint) -> [u8; POINT_SIZE] {
            let mut out = [0u8; POINT_SIZE];
            out[0] = UNCOMPRESSED;
            out[1..=SECRET_SIZE].copy_from_slice(&p.x());
            out[1 + SECRET_SIZE..].copy_from_slice(&p.y());
            out
        }

        /// Parses a peer's uncompressed point and validates it (SP 800-56A rev. 3
        /// §5.6.2.3.4, ECC partial public-key validation, which suffices on a
        /// prime-order curve): the tag is `0x04` (TLS 1.3 allows only the
        /// uncompressed form, RFC 8446 §4.2.8.2), `x, y < p`, and `(x, y)` is on the
        /// curve. The identity has no uncompressed encoding, so it is refused too.
        ///
        /// # Errors
        /// [`Error::InvalidPoint`] if any check fails. All inputs are public.
        pub(crate) fn parse_point(bytes: &[u8; POINT_SIZE]) -> Result<AffinePoint, Error> {
            if bytes[0].ct_eq(&UNCOMPRESSED).unwrap_u8() == 0 {
                return Err(Error::InvalidPoint);
            }
            let mut x = FieldBytes::default();
            let mut y = FieldBytes::default();
            x.copy_from_slice(&bytes[1..=SECRET_SIZE]);
            y.copy_from_slice(&bytes[1 + SECRET_SIZE..]);
            Option::from(AffinePoint::from_coordinates(&x, &y)).ok_or(Error::InvalidPoint)
        }
    };
}
