//! ECDH on P-256 and P-384 through RustCrypto `p256` / `p384` (no curve
//! arithmetic here): scalars from seeds by rejection (draft-ietf-hpke-pq §4,
//! the hybrids' `expandDecapsulationKey` and `RandomScalar`), uncompressed
//! SEC 1 points, and the x-coordinate shared secret (SP 800-56A rev. 3
//! §5.7.1.2).

/// One module per curve; the two differ only in their sizes and crate.
macro_rules! nist_curve {
    ($(#[$doc:meta])* $module:ident, $krate:ident, $field:literal) => {
        $(#[$doc])*
        pub(crate) mod $module {
            use $krate::elliptic_curve::ff::{Field, PrimeField};
            use $krate::elliptic_curve::group::Group;
            use $krate::elliptic_curve::point::AffineCoordinates;
            use $krate::{AffinePoint, FieldBytes, ProjectivePoint, Scalar};
            use subtle::ConstantTimeEq;
            use zeroize::{Zeroize, Zeroizing};

            use crate::error::Error;

            /// Size of a field element / scalar in bytes.
            pub(crate) const FIELD_SIZE: usize = $field;
            /// Size of an uncompressed point `0x04 ‖ x ‖ y`.
            pub(crate) const POINT_SIZE: usize = 1 + 2 * $field;

            /// A private scalar in `[1, n − 1]`; wiped on drop.
            #[derive(Clone)]
            pub(crate) struct SecretScalar(Scalar);

            impl SecretScalar {
                /// The scalar whose big-endian encoding is `seed`, if it is in
                /// `[1, n − 1]` (SEC 1 v2 §2.3.6; Go's `ecdh.Curve.NewPrivateKey`).
                /// The range test is constant time; only its verdict is made
                /// public (a rejected candidate is discarded, draft-ietf-hpke-pq §4).
                pub(crate) fn from_seed(seed: &[u8; FIELD_SIZE]) -> Option<Self> {
                    let mut repr = FieldBytes::default();
                    repr.copy_from_slice(seed);
                    let s = Scalar::from_repr(repr);
                    repr.zeroize();
                    let mut valid = (s.is_some() & !Field::is_zero(&s.unwrap_or(Scalar::ZERO))).unwrap_u8();
                    pqdr_ctgrind::hook::declassify(&mut valid);
                    if valid == 1 {
                        Some(Self(s.unwrap_or(Scalar::ONE)))
                    } else {
                        None
                    }
                }

                /// `d·G`, uncompressed. Public by design.
                pub(crate) fn public(&self) -> [u8; POINT_SIZE] {
                    let mut p = encode(&(ProjectivePoint::GENERATOR * self.0).to_affine());
                    pqdr_ctgrind::hook::declassify(&mut p);
                    p
                }

                /// ECDH (SP 800-56A rev. 3 §5.7.1.2): the x-coordinate of `d·Q`.
                ///
                /// # Errors
                /// [`Error::Decap`] if `d·Q` is the point at infinity (cannot
                /// happen for a validated `Q` and `d ≠ 0`; checked all the same).
                pub(crate) fn dh(&self, q: &AffinePoint) -> Result<Zeroizing<[u8; FIELD_SIZE]>, Error> {
                    let shared = ProjectivePoint::from(*q) * self.0;
                    let mut infinity = shared.is_identity().unwrap_u8();
                    // Public: `d·Q = O` iff `Q = O` on a prime-order curve.
                    pqdr_ctgrind::hook::declassify(&mut infinity);
                    if infinity == 1 {
                        return Err(Error::Decap);
                    }
                    let mut x: FieldBytes = shared.to_affine().x();
                    let mut out = Zeroizing::new([0u8; FIELD_SIZE]);
                    out.copy_from_slice(&x);
                    x.zeroize();
                    Ok(out)
                }
            }

            impl Drop for SecretScalar {
                fn drop(&mut self) {
                    self.0.zeroize();
                }
            }

            /// The uncompressed encoding `0x04 ‖ x ‖ y` (SEC 1 v2 §2.3.3).
            fn encode(p: &AffinePoint) -> [u8; POINT_SIZE] {
                let mut out = [0u8; POINT_SIZE];
                out[0] = 0x04;
                out[1..1 + FIELD_SIZE].copy_from_slice(&p.x());
                out[1 + FIELD_SIZE..].copy_from_slice(&p.y());
                out
            }

            /// Parses and validates an uncompressed point (SP 800-56A rev. 3
            /// §5.6.2.3.4): tag `0x04`, coordinates below `p`, on the curve; the
            /// identity has no uncompressed encoding. All inputs are public.
            pub(crate) fn parse_point(bytes: &[u8; POINT_SIZE]) -> Option<AffinePoint> {
                if bytes[0].ct_eq(&0x04).unwrap_u8() == 0 {
                    return None;
                }
                let mut x = FieldBytes::default();
                let mut y = FieldBytes::default();
                x.copy_from_slice(&bytes[1..1 + FIELD_SIZE]);
                y.copy_from_slice(&bytes[1 + FIELD_SIZE..]);
                Option::from(AffinePoint::from_coordinates(&x, &y))
            }
        }
    };
}

nist_curve!(
    /// P-256 (SP 800-186 §3.2.1.3).
    p256, p256, 32
);
nist_curve!(
    /// P-384 (SP 800-186 §3.2.1.4).
    p384, p384, 48
);
