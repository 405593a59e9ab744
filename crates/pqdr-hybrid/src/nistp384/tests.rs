//! Known answers (NIST CAVS 14.1 KAS ECC CDH primitive, P-384 COUNT = 0),
//! the field against big-integer arithmetic (crypto-bigint), and a
//! differential test against RustCrypto `p384` (an independent
//! implementation, a dev-dependency only), on both paths (the portable
//! field and scans; the MULX/ADX kernels and the AVX2 scans), and the
//! kernels against their portable twins.

extern crate std;
use std::string::String;
use std::vec;
use std::vec::Vec;

use ::p384::elliptic_curve::PrimeField;
use ::p384::elliptic_curve::bigint::{NonZero, U384, U448};
use ::p384::elliptic_curve::point::AffineCoordinates;
use ::p384::{AffinePoint, ProjectivePoint, Scalar};

use super::field::{Arith, Fe, FieldArith, P, Portable, mont_mul, mont_sqr, mul_wide, sqr_wide};
use super::{G, digits_check};
use crate::arch;
use crate::p384_ecdh::{POINT_SIZE, SecretScalar, dh_with, parse_point, public_with};

fn h<const N: usize>(s: &str) -> [u8; N] {
    let s: String = s.split_whitespace().collect();
    assert_eq!(s.len(), 2 * N);
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

/// Big-endian scalar bytes as little-endian limbs.
fn limbs(b: &[u8; 48]) -> [u64; 6] {
    let mut l = [0u64; 6];
    for (i, limb) in l.iter_mut().enumerate() {
        *limb = u64::from_be_bytes(b[40 - 8 * i..48 - 8 * i].try_into().unwrap());
    }
    l
}

/// Both paths: the portable code (`None`) and, if this CPU has BMI2 and
/// ADX, the kernels (`Some`, with the AVX2 scans where the CPU has them).
fn paths() -> Vec<Option<arch::Bmi2Adx>> {
    let mut v = vec![None];
    if let Some(t) = arch::bmi2_adx() {
        v.push(Some(t));
    }
    v
}

fn point(x: &str, y: &str) -> [u8; POINT_SIZE] {
    let mut p = [0u8; POINT_SIZE];
    p[0] = 4;
    p[1..49].copy_from_slice(&h::<48>(x));
    p[49..].copy_from_slice(&h::<48>(y));
    p
}

/// NIST CAVS 14.1, KAS ECC CDH primitive test (SP 800-56A §5.7.1.2),
/// `KAS_ECC_CDH_PrimitiveTest.txt` [P-384] COUNT = 0: `QIUT = dIUT·G` and
/// `ZIUT = x(dIUT·QCAVS)`.
#[test]
fn cavs_kas_ecc_cdh_p384_count0() {
    let q_cavs = point(
        "a7c76b970c3b5fe8b05d2838ae04ab47697b9eaf52e764592efda27fe7513272734466b400091adbf2d68c58e0c50066",
        "ac68f19f2e1cb879aed43a9969b91a0839c4c38a49749b661efedf243451915ed0905a32b060992b468c64766fc8437a",
    );
    let d = h::<48>(
        "3cc3122a68f0d95027ad38c067916ba0eb8c38894d22e1b15618b6818a661774ad463b205da88cf699ab4d43c9cf98a1",
    );
    let q_iut = point(
        "9803807f2f6d2fd966cdd0290bd410c0190352fbec7ff6247de1302df86f25d34fe4a97bef60cff548355c015dbb3e5f",
        "ba26ca69ec2f5b5d9dad20cc9da711383a9dbe34ea3fa5a2af75b46502629ad54dd8b7d73a8abb06a3a3be47d650cc99",
    );
    let z = h::<48>(
        "5f9d29dc5e31a163060356213669c8ce132e22f57c9a04f40ba7fcead493b457e5621e766c40a2e3d4d6a04b25e533f1",
    );
    let q = parse_point(&q_cavs).unwrap();
    for t in paths() {
        assert_eq!(public_with(t, &limbs(&d)), q_iut);
        assert_eq!(*dh_with(t, &limbs(&d), &q).unwrap(), z);
    }
}

/// A deterministic byte stream for the random cases (SHAKE128 of a label).
fn stream(label: &[u8], n: usize) -> Vec<u8> {
    use shake::{ExtendableOutput, Update, XofReader};
    let mut x = shake::Shake128::default();
    x.update(label);
    let mut out = vec![0u8; n];
    x.finalize_xof().read(&mut out);
    out
}

/// The uncompressed encoding of a `p384` point.
fn encode(a: &AffinePoint) -> [u8; POINT_SIZE] {
    let mut out = [0u8; POINT_SIZE];
    out[0] = 4;
    out[1..49].copy_from_slice(&a.x());
    out[49..].copy_from_slice(&a.y());
    out
}

/// `p384`'s uncompressed encoding of `k·G`.
fn p384_public(k: &Scalar) -> [u8; POINT_SIZE] {
    encode(&(ProjectivePoint::GENERATOR * k).to_affine())
}

/// Random scalars (and the edges 1, 2, n − 1, n − 2, scalars with long runs
/// of equal digits, small scalars and powers of two, for which the
/// accumulator of `d·Q` is the identity through many windows, and digits
/// ±16 at the top): our `d·G` equals `p384`'s, and `d·Q` for `Q = k·G`
/// equals `p384`'s `x(d·k·G)`, on both paths.
#[test]
fn differential_against_p384() {
    let n_minus = |k: u8| {
        let mut b = h::<48>(
            "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
        );
        b[47] -= k;
        b
    };
    let mut scalars: Vec<[u8; 48]> = vec![[0; 48], [0; 48], n_minus(1), n_minus(2)];
    scalars[0][47] = 1;
    scalars[1][47] = 2;
    for f in [0x88u8, 0x77, 0x80, 0x08, 0xf8, 0x8f, 0x10, 0x0f] {
        scalars.push([f; 48]);
    }
    for v in [3u8, 15, 16, 17, 31, 32, 33, 0xf0] {
        let mut b = [0u8; 48];
        b[47] = v;
        scalars.push(b);
    }
    for bit in [5usize, 64, 128, 200, 250, 255, 256, 379, 380, 382] {
        let mut b = [0u8; 48];
        b[47 - (bit >> 3)] = 1 << (bit & 7);
        scalars.push(b);
    }
    let s = stream(b"pqdr p384 differential", 48 * 40);
    for c in s.chunks_exact(48) {
        let mut b: [u8; 48] = c.try_into().unwrap();
        b[0] &= 0x7f; // below n
        scalars.push(b);
    }
    for (idx, d) in scalars.iter().enumerate() {
        let sd = Scalar::from_repr((*d).into()).unwrap();
        let want = p384_public(&sd);
        let k = &scalars[scalars.len() - 1 - idx];
        let sk = Scalar::from_repr((*k).into()).unwrap();
        let q_bytes = p384_public(&sk);
        let q = parse_point(&q_bytes).unwrap();
        let shared = (ProjectivePoint::GENERATOR * sk * sd).to_affine().x();
        for t in paths() {
            assert_eq!(public_with(t, &limbs(d)), want, "d={d:02x?}");
            assert_eq!(
                dh_with(t, &limbs(d), &q).unwrap()[..],
                shared[..],
                "d={d:02x?}"
            );
        }
    }
}

/// The generator constant is SP 800-186's G (`p384`'s), and the digits of
/// the top window carry nothing out.
#[test]
fn generator_and_digits() {
    let g = p384_public(&Scalar::ONE);
    assert_eq!(parse_point(&g).unwrap(), G);
    digits_check();
}

/// FIPS 186-5 A.2.1: `d = (c mod (n − 1)) + 1` against big-integer
/// arithmetic (crypto-bigint's remainder of the same integer).
#[test]
fn scalar_from_seed_reduces() {
    let m = NonZero::<U384>::from_be_hex(
        "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52972",
    );
    let mut seeds = vec![[0u8; 56], [0xff; 56]];
    let s = stream(b"pqdr p384 seeds", 56 * 32);
    seeds.extend(s.chunks_exact(56).map(|c| <[u8; 56]>::try_from(c).unwrap()));
    // c = n − 1 and n in the top 384 bits, low bits zero.
    for k in [0u8, 1] {
        let mut c = [0u8; 56];
        c[..48].copy_from_slice(&h::<48>(
            "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52972",
        ));
        c[47] += k;
        seeds.push(c);
    }
    for c in seeds {
        let want = U448::from_be_slice(&c).rem(&m).wrapping_add(&U384::ONE);
        let got = SecretScalar::from_seed(&c);
        let mut be = [0u8; 48];
        for (i, l) in got.limbs().iter().enumerate() {
            be[40 - 8 * i..48 - 8 * i].copy_from_slice(&l.to_be_bytes());
        }
        assert_eq!(U384::from_be_slice(&be), want, "c={c:02x?}");
    }
}

/// Point decoding (SEC 1 v2 §2.3.4 with the checks of SP 800-56A
/// §5.6.2.3.4): off-curve, coordinates ≥ p, the wrong tag and the
/// all-zero "infinity" are refused.
#[test]
fn parse_point_rejects() {
    let g = p384_public(&Scalar::ONE);
    assert!(parse_point(&g).is_ok());
    let mut bad = g;
    bad[96] ^= 1;
    assert!(parse_point(&bad).is_err(), "off the curve");
    let mut bad = g;
    bad[0] = 2;
    assert!(parse_point(&bad).is_err(), "tag");
    assert!(parse_point(&[0u8; POINT_SIZE]).is_err(), "zero");
    let mut z = [0u8; POINT_SIZE];
    z[0] = 4;
    assert!(parse_point(&z).is_err(), "(0, 0)");
    let p_be = h::<48>(
        "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
    );
    let mut xp = g;
    xp[1..49].copy_from_slice(&p_be);
    assert!(parse_point(&xp).is_err(), "x = p");
    let mut yp = g;
    yp[49..].copy_from_slice(&p_be);
    assert!(parse_point(&yp).is_err(), "y = p");
    // y + p would be the same residue if accepted: refused as ≥ p.
    let mut big = g;
    big[49..].copy_from_slice(&[0xff; 48]);
    assert!(parse_point(&big).is_err(), "y = 2^384 − 1");
}

/// Field inputs below p: edges (0, 1, 2, p − 1, p − 2, 2^383, half-limb
/// patterns, 2^384 − 2^128 − 2^96 region) and random values.
fn field_inputs() -> Vec<[u64; 6]> {
    let pm = |k: u64| {
        let mut a = P;
        a[0] -= k;
        a
    };
    let mut v = vec![
        [0; 6],
        [1, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0],
        pm(1),
        pm(2),
        [0, 0, 0, 0, 0, 1 << 63],
        [0xffff_ffff; 6],
        [
            0xffff_ffff_0000_0000,
            0,
            0xffff_ffff_0000_0000,
            0,
            u64::MAX,
            0,
        ],
        [u64::MAX, u64::MAX, 0, 0, u64::MAX, u64::MAX >> 1],
    ];
    let s = stream(b"pqdr p384 field", 48 * 64);
    for c in s.chunks_exact(48) {
        let mut a = limbs(&c.try_into().unwrap());
        a[5] &= u64::MAX >> 1; // below p
        v.push(a);
    }
    v
}

fn to_uint(a: &[u64; 6]) -> U384 {
    let mut be = [0u8; 48];
    for (i, l) in a.iter().enumerate() {
        be[40 - 8 * i..48 - 8 * i].copy_from_slice(&l.to_be_bytes());
    }
    U384::from_be_slice(&be)
}

/// Montgomery multiplication, squaring, addition and subtraction against
/// crypto-bigint on every pair of [`field_inputs`]: `mont_mul(a, b)·R ≡
/// a·b (mod p)`, outputs canonical (below p); the square's shortcut equals
/// the schoolbook product.
#[test]
fn field_matches_bigint() {
    let p = NonZero::<U384>::new(to_uint(&P)).unwrap();
    // R mod p = 2^384 − p.
    let r = to_uint(&Fe::ONE.0);
    let inputs = field_inputs();
    for a in &inputs {
        assert_eq!(sqr_wide::<6, 12>(a), mul_wide::<6, 12>(a, a));
        assert_eq!(mont_sqr(a), mont_mul(a, a));
        for b in &inputs {
            let m = mont_mul(a, b);
            let um = to_uint(&m);
            assert!(um < *p, "canonical");
            assert_eq!(
                um.mul_mod(&r, &p),
                to_uint(a).mul_mod(&to_uint(b), &p),
                "a={a:x?} b={b:x?}"
            );
            let (fa, fb) = (Fe(*a), Fe(*b));
            assert_eq!(to_uint(&fa.add(&fb).0), to_uint(a).add_mod(&to_uint(b), &p));
            assert_eq!(to_uint(&fa.sub(&fb).0), to_uint(a).sub_mod(&to_uint(b), &p));
        }
    }
}

/// Field edge cases: 0, 1, p − 1 as canonical outputs, inversion
/// (`a·a⁻¹ = 1` on every nonzero [`field_inputs`] value, 0 → 0).
#[test]
fn field_edges() {
    let pm1 = Fe::ZERO.sub(&Fe::ONE);
    assert_eq!(pm1.add(&Fe::ONE), Fe::ZERO);
    assert_eq!(Portable.mul(&pm1, &pm1), Fe::ONE);
    assert_eq!(Portable.invert(&Fe::ZERO), Fe::ZERO);
    for a in field_inputs().into_iter().skip(1) {
        let a = Fe(a);
        assert_eq!(Portable.mul(&Portable.invert(&a), &a), Fe::ONE, "{a:x?}");
    }
    assert_eq!(
        Fe::from_be_bytes(&[0x5a; 48]).unwrap().to_be_bytes(),
        [0x5a; 48]
    );
    assert!(Fe::from_be_bytes(&[0xff; 48]).is_none());
    assert_eq!(
        Fe::B.to_be_bytes(),
        h::<48>(
            "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
        )
    );
}

/// Kernel inputs: every [`field_inputs`] value (below p: 0, 1, p − 1, …)
/// and the unreduced edges p, p + 1, p + 2^32, 2^384 − 1 (all-ones limbs),
/// 2^384 − 2, half-limb patterns, top limb all ones, and random six-limb
/// values ≥ p.
fn kernel_inputs() -> Vec<[u64; 6]> {
    const M: u64 = u64::MAX;
    let mut v = field_inputs();
    let pp = |k: u64| {
        let mut a = P;
        a[0] += k;
        a
    };
    v.extend([
        P,
        pp(1),
        pp(1 << 32),
        [M; 6],
        [M - 1, M, M, M, M, M],
        [M, 0, M, 0, M, 0],
        [0, M, 0, M, 0, M],
        [M << 32; 6],
        [1, 0, 0, 0, 0, 1 << 63],
        [0, 0, 0, 0, 0, M],
        Fe::ONE.0,
        Fe::B.0,
    ]);
    let s = stream(b"pqdr p384 kernel", 48 * 24);
    for c in s.chunks_exact(48) {
        let mut a = limbs(&c.try_into().unwrap());
        a[5] |= 0xffff_ffff_0000_0000; // mostly ≥ p
        v.push(a);
    }
    v
}

/// The MULX/ADCX/ADOX Montgomery multiplication and squaring against their
/// portable twins (`mont_mul`, `mont_sqr`): the same limbs for every pair
/// of [`kernel_inputs`] (values ≥ p and all-ones limbs too) and a chain of
/// 2,000 steps fed back through the field trait. Nothing to compare (it
/// passes) on a CPU without BMI2+ADX or with the feature `simd` off.
#[test]
fn bmi2_adx_matches_portable() {
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    let inputs = kernel_inputs();
    for a in &inputs {
        assert_eq!(arch::p384_mont_sqr(token, a), mont_sqr(a), "{a:x?}^2");
        for b in &inputs {
            assert_eq!(
                arch::p384_mont_mul(token, a, b),
                mont_mul(a, b),
                "{a:x?} * {b:x?}"
            );
        }
    }
    let mut x = Fe(inputs[3]);
    let mut y = x;
    for (i, c) in field_inputs().iter().cycle().take(2000).enumerate() {
        let c = Fe(*c);
        x = token.sub(&token.mul(&token.square(&x), &c), &token.add(&x, &c));
        y = Portable.sub(
            &Portable.mul(&Portable.square(&y), &c),
            &Portable.add(&y, &c),
        );
        assert_eq!(x, y, "step {i}");
    }
    for a in field_inputs() {
        let a = Fe(a);
        assert_eq!(token.invert(&a), Portable.invert(&a), "1 / {a:x?}");
    }
}
