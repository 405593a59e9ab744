//! Plain ECDH on this crate's own P-256 and P-384 (constant time, the same
//! code as SecP256r1MLKEM768 / SecP384r1MLKEM1024), for protocols that need
//! the curves on their own, such as HPKE's MLKEM768-P256 and MLKEM1024-P384
//! (draft-ietf-hpke-pq §4, in `pqdr-hpke`).
//!
//! Per curve (features `p256`, `p384`): a [`p256::SecretScalar`] in
//! `[1, n − 1]`, wiped on drop, made from a big-endian candidate (refused
//! if out of range, for rejection sampling) or by FIPS 186-5 A.2.1 from
//! `len(n) + 64` random bits; its public point `d·G` as an uncompressed SEC 1
//! encoding; a validated peer [`p256::PublicPoint`] parsed from its SEC 1
//! encoding; and the shared secret `x(d·Q)` (SP 800-56A rev. 3 §5.7.1.2).
//!
//! ```
//! # #[cfg(feature = "p256")] {
//! use pqdr_hybrid::ecdh::p256::{PublicPoint, SecretScalar};
//! let a = SecretScalar::from_be_bytes(&[7u8; 32]).expect("in range");
//! let b = SecretScalar::from_seed(&[9u8; 40]);
//! let pa = PublicPoint::from_sec1(&a.public()).expect("valid point");
//! let pb = PublicPoint::from_sec1(&b.public()).expect("valid point");
//! assert_eq!(*a.dh(&pb).unwrap(), *b.dh(&pa).unwrap());
//! # }
//! ```

/// The public module of one curve over its internal ECDH module `$inner`
/// (`nist_ecdh!` items) and its group module `$group`.
macro_rules! public_curve {
    ($(#[$doc:meta])* $module:ident, $feature:literal, $inner:ident, $group:ident) => {
        $(#[$doc])*
        #[cfg(feature = $feature)]
        pub mod $module {
            use core::fmt;

            use zeroize::Zeroizing;

            use crate::error::Error;
            use crate::$group::Affine;
            use crate::$inner as inner;

            /// Size of an uncompressed SEC 1 point `0x04 ‖ x ‖ y`.
            pub const POINT_SIZE: usize = inner::POINT_SIZE;
            /// Size of a scalar, a coordinate and the shared secret `x(d·Q)`.
            pub const SECRET_SIZE: usize = inner::SECRET_SIZE;
            /// Size of the random string [`SecretScalar::from_seed`] reduces
            /// (FIPS 186-5 A.2.1: `len(n) + 64` bits).
            pub const SCALAR_SEED_SIZE: usize = inner::SCALAR_SEED_SIZE;

            /// A private scalar `d ∈ [1, n − 1]`; wiped on drop.
            #[derive(Clone)]
            pub struct SecretScalar(inner::SecretScalar);

            impl SecretScalar {
                /// The scalar whose big-endian encoding is `bytes`, if it is in
                /// `[1, n − 1]` (SEC 1 v2 §2.3.6), else `None` (the candidate
                /// test of draft-ietf-hpke-pq §4's rejection sampling). The
                /// range test is constant time; only its verdict is public.
                #[must_use]
                pub fn from_be_bytes(bytes: &[u8; SECRET_SIZE]) -> Option<Self> {
                    inner::SecretScalar::from_be_bytes(bytes).map(Self)
                }

                /// `d = (c mod (n − 1)) + 1` from the big-endian random string
                /// `c` (FIPS 186-5 A.2.1); constant time, never refused.
                #[must_use]
                pub fn from_seed(c: &[u8; SCALAR_SEED_SIZE]) -> Self {
                    Self(inner::SecretScalar::from_seed(c))
                }

                /// The public point `d·G`, uncompressed (SEC 1 v2 §2.3.3).
                #[must_use]
                pub fn public(&self) -> [u8; POINT_SIZE] {
                    self.0.public()
                }

                /// ECDH (SP 800-56A rev. 3 §5.7.1.2): the x-coordinate of `d·Q`,
                /// in a buffer wiped on drop.
                ///
                /// # Errors
                /// [`Error::InvalidPoint`] if `d·Q` is the point at infinity
                /// (cannot happen for a validated `Q`; checked all the same).
                pub fn dh(&self, q: &PublicPoint) -> Result<Zeroizing<[u8; SECRET_SIZE]>, Error> {
                    self.0.dh(&q.0)
                }
            }

            impl fmt::Debug for SecretScalar {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("SecretScalar(..)")
                }
            }

            /// A peer's point, validated when parsed (never the identity).
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct PublicPoint(Affine);

            impl PublicPoint {
                /// Parses and validates an uncompressed SEC 1 point (SP 800-56A
                /// rev. 3 §5.6.2.3.4; SEC 1 v2 §2.3.4): tag `0x04`, `x, y < p`,
                /// on the curve.
                ///
                /// # Errors
                /// [`Error::InvalidPoint`] if any check fails.
                pub fn from_sec1(bytes: &[u8; POINT_SIZE]) -> Result<Self, Error> {
                    inner::parse_point(bytes).map(Self)
                }
            }
        }
    };
}

public_curve!(
    /// ECDH on P-256 (SP 800-186 §3.2.1.3), feature `p256`.
    p256, "p256", p256_ecdh, nistp256
);
public_curve!(
    /// ECDH on P-384 (SP 800-186 §3.2.1.4), feature `p384`.
    p384, "p384", p384_ecdh, nistp384
);
