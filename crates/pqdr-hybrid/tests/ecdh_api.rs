//! The public `ecdh` API against RustCrypto `p256` / `p384` (dev-dependencies):
//! the range test of `SecretScalar::from_be_bytes` on edge and random
//! candidates, `d·G`, `x(d·Q)`, and the refusal of invalid points.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use shake::{ExtendableOutput, Shake128, Update, XofReader};

macro_rules! differential {
    ($test:ident, $ours:ident, $theirs:ident, $n:literal, $order:literal) => {
        #[test]
        fn $test() {
            use pqdr_hybrid::Error;
            use pqdr_hybrid::ecdh::$ours::{POINT_SIZE, PublicPoint, SecretScalar};
            use $theirs::elliptic_curve::ff::{Field, PrimeField};
            use $theirs::elliptic_curve::point::AffineCoordinates;
            use $theirs::{AffinePoint, FieldBytes, ProjectivePoint, Scalar};

            let theirs = |b: &[u8; $n]| -> Option<Scalar> {
                let s: Option<Scalar> = Scalar::from_repr(FieldBytes::from(*b)).into();
                s.filter(|s| !bool::from(Field::is_zero(s)))
            };
            let order: [u8; $n] = be_hex(concat!($order));
            let mut edge = vec![[0u8; $n], [0xffu8; $n], order];
            for delta in [1u8, 2] {
                let mut below = order;
                below[$n - 1] -= delta; // n's low byte is above 2
                edge.push(below);
                let mut above = order;
                above[$n - 1] += delta;
                edge.push(above);
                let mut small = [0u8; $n];
                small[$n - 1] = delta;
                edge.push(small);
            }
            let mut xof = Shake128::default();
            xof.update(stringify!($test).as_bytes());
            let mut r = xof.finalize_xof();
            let mut peer_bytes = [0u8; $n];
            r.read(&mut peer_bytes);
            let peer_s = theirs(&peer_bytes).expect("in range");
            let peer_pt = (ProjectivePoint::GENERATOR * peer_s).to_affine();
            let encode = |p: &AffinePoint| -> [u8; POINT_SIZE] {
                let mut out = [0u8; POINT_SIZE];
                out[0] = 0x04;
                out[1..=$n].copy_from_slice(&p.x());
                out[1 + $n..].copy_from_slice(&p.y());
                out
            };
            let peer = &encode(&peer_pt);
            let q = PublicPoint::from_sec1(peer).expect("valid");
            let mut cases = edge;
            for _ in 0..32 {
                let mut b = [0u8; $n];
                r.read(&mut b);
                cases.push(b);
            }
            for b in &cases {
                let ours = SecretScalar::from_be_bytes(b);
                let want = theirs(b);
                assert_eq!(ours.is_some(), want.is_some(), "{b:02x?}");
                let (Some(d), Some(s)) = (ours, want) else {
                    continue;
                };
                let pub_theirs = (ProjectivePoint::GENERATOR * s).to_affine();
                assert_eq!(d.public(), encode(&pub_theirs));
                let shared = (ProjectivePoint::from(peer_pt) * s).to_affine();
                assert_eq!(&d.dh(&q).unwrap()[..], &shared.x()[..]);
            }
            // Invalid points: wrong tag, off the curve, coordinate ≥ p.
            let mut bad = *peer;
            bad[0] = 0x03;
            assert_eq!(PublicPoint::from_sec1(&bad), Err(Error::InvalidPoint));
            let mut bad = *peer;
            bad[POINT_SIZE - 1] ^= 1;
            assert_eq!(PublicPoint::from_sec1(&bad), Err(Error::InvalidPoint));
            let mut bad = [0xffu8; POINT_SIZE];
            bad[0] = 0x04;
            assert_eq!(PublicPoint::from_sec1(&bad), Err(Error::InvalidPoint));
            assert_eq!(
                PublicPoint::from_sec1(&[0u8; POINT_SIZE]),
                Err(Error::InvalidPoint)
            );
        }
    };
}

/// Big-endian bytes of a hex string.
fn be_hex<const N: usize>(s: &str) -> [u8; N] {
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

// Group orders n (SP 800-186 §3.2.1.3, §3.2.1.4).
differential!(
    p256_against_rustcrypto,
    p256,
    p256,
    32,
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
);
differential!(
    p384_against_rustcrypto,
    p384,
    p384,
    48,
    "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"
);
