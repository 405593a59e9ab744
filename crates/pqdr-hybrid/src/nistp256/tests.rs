//! Known answers (RFC 5903 §8.1; NIST CAVS 14.1 KAS ECC CDH primitive,
//! P-256 COUNT = 0), the MULX kernel against its portable twin, and a
//! differential test against RustCrypto `p256` (an independent
//! implementation, a dev-dependency only), on both paths.

extern crate std;
use std::string::String;
use std::vec;
use std::vec::Vec;

use ::p256::elliptic_curve::PrimeField;
use ::p256::elliptic_curve::point::AffineCoordinates;
use ::p256::{AffinePoint, ProjectivePoint, Scalar};

use super::field::{
    Arith, Fe, FieldArith, P, Portable, mont_mul, mont_sqr, mont_sqr_n, mul_wide, sqr_wide,
};
use crate::arch;
use crate::p256_ecdh::{POINT_SIZE, SecretScalar, dh_with, parse_point, public_with};

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
fn limbs(b: &[u8; 32]) -> [u64; 4] {
    let mut l = [0u64; 4];
    for (i, limb) in l.iter_mut().enumerate() {
        *limb = u64::from_be_bytes(b[24 - 8 * i..32 - 8 * i].try_into().unwrap());
    }
    l
}

/// Both paths: the kernel (if this CPU has it) and the portable code.
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
    p[1..33].copy_from_slice(&h::<32>(x));
    p[33..].copy_from_slice(&h::<32>(y));
    p
}

/// RFC 5903 §8.1 (256-bit random ECP group): both public keys `g^i`,
/// `g^r` and the shared `x(g^ir)`, from both sides.
#[test]
fn rfc5903_8_1() {
    let i = h::<32>("C88F01F5 10D9AC3F 70A292DA A2316DE5 44E9AAB8 AFE84049 C62A9C57 862D1433");
    let gi = point(
        "DAD0B653 94221CF9 B051E1FE CA5787D0 98DFE637 FC90B9EF 945D0C37 72581180",
        "5271A046 1CDB8252 D61F1C45 6FA3E59A B1F45B33 ACCF5F58 389E0577 B8990BB3",
    );
    let r = h::<32>("C6EF9C5D 78AE012A 011164AC B397CE20 88685D8F 06BF9BE0 B283AB46 476BEE53");
    let gr = point(
        "D12DFB52 89C8D4F8 1208B702 70398C34 2296970A 0BCCB74C 736FC755 4494BF63",
        "56FBF3CA 366CC23E 8157854C 13C58D6A AC23F046 ADA30F83 53E74F33 039872AB",
    );
    let gir = h::<32>("D6840F6B 42F6EDAF D13116E0 E1256520 2FEF8E9E CE7DCE03 812464D0 4B9442DE");
    for t in paths() {
        assert_eq!(public_with(t, &limbs(&i)), gi);
        assert_eq!(public_with(t, &limbs(&r)), gr);
        let q = parse_point(&gr).unwrap();
        assert_eq!(*dh_with(t, &limbs(&i), &q).unwrap(), gir);
        let q = parse_point(&gi).unwrap();
        assert_eq!(*dh_with(t, &limbs(&r), &q).unwrap(), gir);
    }
}

/// NIST CAVS 14.1, KAS ECC CDH primitive test (SP 800-56A §5.7.1.2),
/// `KAS_ECC_CDH_PrimitiveTest.txt` [P-256] COUNT = 0: `QIUT = dIUT·G` and
/// `ZIUT = x(dIUT·QCAVS)`.
#[test]
fn cavs_kas_ecc_cdh_p256_count0() {
    let qcavs = point(
        "700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
        "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
    );
    let d = h::<32>("7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534");
    let qiut = point(
        "ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230",
        "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
    );
    let z = h::<32>("46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b");
    for t in paths() {
        assert_eq!(public_with(t, &limbs(&d)), qiut);
        let q = parse_point(&qcavs).unwrap();
        assert_eq!(*dh_with(t, &limbs(&d), &q).unwrap(), z);
    }
}

/// A deterministic byte stream for the random cases (SHAKE128 of a label).
fn stream(label: &[u8], n: usize) -> Vec<u8> {
    use shake::{ExtendableOutput, Update, XofReader};
    let mut x = shake::Shake128::default();
    x.update(label);
    let mut r = x.finalize_xof();
    let mut v = vec![0u8; n];
    r.read(&mut v);
    v
}

/// The uncompressed encoding of a `p256` point.
fn encode(a: &AffinePoint) -> [u8; POINT_SIZE] {
    let mut out = [0u8; POINT_SIZE];
    out[0] = 4;
    out[1..33].copy_from_slice(&a.x());
    out[33..].copy_from_slice(&a.y());
    out
}

/// `p256`'s uncompressed encoding of `k·G`.
fn p256_public(k: &Scalar) -> [u8; POINT_SIZE] {
    encode(&(ProjectivePoint::GENERATOR * k).to_affine())
}

/// Random scalars (and the edges 1, 2, n − 1, n − 2, scalars with long runs
/// of equal digits, small scalars and powers of two, for which the
/// accumulator of `d·Q` is the identity through many windows, digits
/// ±16 at the top, and for `d·G`'s radix 64 digits 32 and carries): our `d·G` equals `p256`'s, and `d·Q` for `Q = k·G`
/// equals `p256`'s `x(d·k·G)`, on both paths.
#[test]
fn differential_against_p256() {
    let n_minus = |k: u8| {
        let mut b = h::<32>("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
        b[31] -= k;
        b
    };
    let mut scalars: Vec<[u8; 32]> = vec![[0; 32], [0; 32], n_minus(1), n_minus(2)];
    scalars[0][31] = 1;
    scalars[1][31] = 2;
    for f in [0x88u8, 0x77, 0x80, 0x08, 0xf8, 0x8f, 0x10, 0x0f] {
        scalars.push([f; 32]);
    }
    // Radix-64 windows of `d·G` all `100000` (digits 32: bytes from the
    // least significant `0x20 0x08 0x82` repeated) or all `100001` (33:
    // each a digit −31 and a carry into the next).
    for pat in [[0x20u8, 0x08, 0x82], [0x61, 0x18, 0x86]] {
        let mut b = [0u8; 32];
        for (x, p) in b.iter_mut().rev().zip(pat.iter().cycle()) {
            *x = *p;
        }
        b[0] &= 0x7f;
        scalars.push(b);
    }
    for v in [3u8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 0xf0] {
        let mut b = [0u8; 32];
        b[31] = v;
        scalars.push(b);
    }
    for bit in [5usize, 64, 128, 200, 250, 254, 255] {
        let mut b = [0u8; 32];
        b[31 - (bit >> 3)] = 1 << (bit & 7);
        scalars.push(b);
    }
    let s = stream(b"pqdr p256 differential", 32 * 48);
    for c in s.chunks_exact(32) {
        let mut b: [u8; 32] = c.try_into().unwrap();
        b[0] &= 0x7f; // below n
        scalars.push(b);
    }
    let paths = paths();
    for (idx, d) in scalars.iter().enumerate() {
        let sd = Scalar::from_repr((*d).into()).unwrap();
        let want = p256_public(&sd);
        let k = &scalars[scalars.len() - 1 - idx];
        let sk = Scalar::from_repr((*k).into()).unwrap();
        let q_bytes = p256_public(&sk);
        let q = parse_point(&q_bytes).unwrap();
        let shared = (ProjectivePoint::GENERATOR * sk * sd).to_affine().x();
        for &t in &paths {
            assert_eq!(public_with(t, &limbs(d)), want, "d={d:02x?}");
            assert_eq!(
                dh_with(t, &limbs(d), &q).unwrap()[..],
                shared[..],
                "d={d:02x?}"
            );
        }
    }
}

/// FIPS 186-5 A.2.1: `d = (c mod (n − 1)) + 1` against `p256`'s reduction
/// of the same integer (wide reduction mod n of `c mod (n − 1)` computed
/// with big integers here: `c = q·(n − 1) + r`).
#[test]
fn scalar_from_seed_reduces() {
    use ::p256::elliptic_curve::bigint::{NonZero, U256, U320};
    let m = NonZero::<U256>::from_be_hex(
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
    );
    let mut seeds = vec![[0u8; 40], [0xff; 40]];
    let s = stream(b"pqdr p256 seeds", 40 * 32);
    seeds.extend(s.chunks_exact(40).map(|c| <[u8; 40]>::try_from(c).unwrap()));
    // c = n − 1, n, 2(n − 1) − 1 in the top 256 bits, low bits zero.
    for c in seeds {
        let want = U320::from_be_slice(&c).rem(&m).wrapping_add(&U256::ONE);
        let got = SecretScalar::from_seed(&c);
        let mut be = [0u8; 32];
        for (i, l) in got.limbs().iter().enumerate() {
            be[24 - 8 * i..32 - 8 * i].copy_from_slice(&l.to_be_bytes());
        }
        assert_eq!(U256::from_be_slice(&be), want, "c={c:02x?}");
    }
}

/// Point decoding (SEC 1 v2 §2.3.4 with the checks of SP 800-56A
/// §5.6.2.3.4): off-curve, coordinates ≥ p, the wrong tag and the
/// all-zero "infinity" are refused.
#[test]
fn parse_point_rejects() {
    let g = p256_public(&Scalar::ONE);
    assert!(parse_point(&g).is_ok());
    let mut bad = g;
    bad[64] ^= 1;
    assert!(parse_point(&bad).is_err(), "off the curve");
    let mut bad = g;
    bad[0] = 2;
    assert!(parse_point(&bad).is_err(), "tag");
    assert!(parse_point(&[0u8; POINT_SIZE]).is_err(), "zero");
    let mut z = [0u8; POINT_SIZE];
    z[0] = 4;
    assert!(parse_point(&z).is_err(), "(0, 0)");
    // x + p (x < 2^256 − p) would decode to the same residue: refused.
    let p_be = h::<32>("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
    let mut big = [0u8; POINT_SIZE];
    big[0] = 4;
    big[1..33].copy_from_slice(&p_be);
    assert!(parse_point(&big).is_err(), "x = p");
    // A point whose x + p < 2^256: x = 1 has no y on the curve? use y ≥ p.
    let mut yp = g;
    yp[33..].copy_from_slice(&p_be);
    assert!(parse_point(&yp).is_err(), "y = p");
}

/// Field edge cases: 0, 1, p − 1 as canonical outputs, inversion.
#[test]
fn field_edges() {
    let pm1 = Fe::ZERO.sub(&Fe::ONE);
    assert_eq!(pm1.add(&Fe::ONE), Fe::ZERO);
    assert_eq!(Portable.mul(&pm1, &pm1), Fe::ONE);
    let x = Fe::from_be_bytes(&[0x5a; 32]).unwrap();
    assert_eq!(Portable.mul(&Portable.invert(&x), &x), Fe::ONE);
    assert_eq!(Portable.invert(&Fe::ZERO), Fe::ZERO);
    assert_eq!(
        Fe::from_be_bytes(&[0x5a; 32]).unwrap().to_be_bytes(),
        [0x5a; 32]
    );
    assert!(Fe::from_be_bytes(&[0xff; 32]).is_none());
}

/// Field inputs for the kernel test: edges (0, 1, p − 1, p, p + 1,
/// 2^256 − 1 = all-ones limbs, 2^256 − p, half-limb patterns) and random
/// four-limb values (mostly ≥ p as often as not).
fn field_inputs() -> Vec<[u64; 4]> {
    const M: u64 = u64::MAX;
    let mut v = vec![
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [P[0] - 2, P[1], P[2], P[3]],
        [P[0] - 1, P[1], P[2], P[3]],
        [1, P[1], P[2], P[3]],
        [0, 0, 0, 1 << 63],
        [M, M, M, P[3] - 1],
        P,
        [0, P[1] + 1, P[2], P[3]],
        [M, M, M, M],
        [1, M - P[1], M, !P[3]],
        [M << 32, M << 32, M << 32, M << 32],
        [M >> 32, M >> 32, M >> 32, M >> 32],
        [M, 0, M, 0],
        [0, M, 0, M],
        Fe::ONE.0,
        Fe::B.0,
    ];
    let s = stream(b"pqdr p256 field", 32 * 40);
    for c in s.chunks_exact(32) {
        let mut l = [0u64; 4];
        for (i, x) in l.iter_mut().enumerate() {
            *x = u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap());
        }
        v.push(l);
    }
    v
}

/// The portable twins among themselves: the square's shortcut (cross
/// products once, doubled) equals the schoolbook product `a·a` on every
/// input, and the Montgomery square equals the Montgomery product.
#[test]
fn square_matches_product() {
    for a in field_inputs() {
        assert_eq!(sqr_wide::<4, 8>(&a), mul_wide::<4, 8>(&a, &a), "{a:x?}");
        assert_eq!(mont_sqr(&a), mont_mul(&a, &a), "{a:x?}");
        let f = Fe(a);
        assert_eq!(Portable.square(&f), Portable.mul(&f, &f), "{a:x?}");
    }
}

/// The MULX/ADCX/ADOX Montgomery multiplication, squaring and the add / sub kernels
/// against their portable twins: the same limbs for every pair of
/// [`field_inputs`] (values ≥ p too) and a chain of 2,000 steps fed back. Nothing to compare (it passes) on a
/// CPU without BMI2+ADX or with the feature `simd` off.
#[test]
fn bmi2_adx_matches_portable() {
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    let inputs = field_inputs();
    for a in &inputs {
        for b in &inputs {
            assert_eq!(
                arch::p256_mont_mul(token, a, b),
                mont_mul(a, b),
                "{a:x?} * {b:x?}"
            );
            if a == b {
                let fa = Fe(*a);
                assert_eq!(token.triple(&fa), Portable.triple(&fa), "3 * {a:x?}");
                assert_eq!(arch::p256_mont_sqr(token, a), mont_sqr(a), "{a:x?}^2");
            }
            let (fa, fb) = (Fe(*a), Fe(*b));
            assert_eq!(
                token.add(&fa, &fb),
                Portable.add(&fa, &fb),
                "{a:x?} + {b:x?}"
            );
            assert_eq!(
                token.sub(&fa, &fb),
                Portable.sub(&fa, &fb),
                "{a:x?} - {b:x?}"
            );
            assert_eq!(
                token.sub2(&fa, &fb),
                Portable.sub2(&fa, &fb),
                "{a:x?} - 2 * {b:x?}"
            );
        }
    }
    let mut x = Fe(inputs[20]);
    let mut y = x;
    for (i, c) in inputs.iter().cycle().take(2000).enumerate() {
        let c = Fe(*c);
        assert_eq!(arch::p256_mont_sqr(token, &c.0), mont_sqr(&c.0), "{c:x?}^2");
        x = token.sub(&token.mul(&token.square(&x), &c), &token.add(&x, &c));
        y = Portable.sub(
            &Portable.mul(&Portable.square(&y), &c),
            &Portable.add(&y, &c),
        );
        assert_eq!(x, y, "step {i}");
    }
}

/// The squaring counts of the inversion chain, and a few more.
const SQR_NS: [u32; 12] = [0, 1, 2, 3, 4, 6, 15, 30, 32, 33, 96, 255];

/// `a < p` (limbs, most significant first).
fn below_p(a: &[u64; 4]) -> bool {
    a.iter().rev().cmp(P.iter().rev()) == core::cmp::Ordering::Less
}

/// The lazy `n`-fold squaring: the portable twin against `n` canonical
/// squarings (inputs below p), and the MULX kernel `p256_mont_sqr_n`
/// against the twin, limb for limb, on every [`field_inputs`] value (≥ p
/// and all-ones too, where the lazy step's carry is taken).
#[test]
fn sqr_n_matches_square_loop() {
    let token = arch::bmi2_adx();
    for a in field_inputs() {
        for n in SQR_NS {
            let r = mont_sqr_n(&a, n);
            assert!(below_p(&r), "{a:x?}^(2^{n}) not reduced");
            if below_p(&a) {
                let mut x = a;
                for _ in 0..n {
                    x = mont_sqr(&x);
                }
                assert_eq!(r, x, "{a:x?}^(2^{n})");
            }
            if let Some(t) = token {
                assert_eq!(arch::p256_mont_sqr_n(t, &a, n), r, "{a:x?}^(2^{n}) kernel");
            }
        }
    }
}

/// The previous inversion: the same chain with `square_n` as a loop of
/// single squarings (the trait's default), on the portable arithmetic.
#[derive(Clone, Copy)]
struct SquareLoop;

impl FieldArith<Fe> for SquareLoop {
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        Portable.mul(a, b)
    }
    fn add(self, a: &Fe, b: &Fe) -> Fe {
        Portable.add(a, b)
    }
    fn sub(self, a: &Fe, b: &Fe) -> Fe {
        Portable.sub(a, b)
    }
    fn square(self, a: &Fe) -> Fe {
        Portable.square(a)
    }
}

/// The inversion with `sqr_n` (both paths) against [`SquareLoop`]'s on
/// every canonical [`field_inputs`] value (0 → 0, 1, p − 1, random), and
/// `a·a⁻¹ = 1` for `a ≠ 0`.
#[test]
fn invert_matches_previous() {
    for a in field_inputs().into_iter().filter(below_p) {
        let a = Fe(a);
        let want = SquareLoop.invert_fermat(&a);
        assert_eq!(Portable.invert_fermat(&a), want, "1 / {a:x?} Fermat");
        assert_eq!(Portable.invert(&a), want, "1 / {a:x?}");
        if let Some(t) = arch::bmi2_adx() {
            assert_eq!(t.invert_fermat(&a), want, "1 / {a:x?} kernel Fermat");
            assert_eq!(t.invert(&a), want, "1 / {a:x?} kernel");
        }
        if a == Fe::ZERO {
            assert_eq!(want, Fe::ZERO);
        } else {
            assert_eq!(Portable.mul(&want, &a), Fe::ONE, "{a:x?}");
        }
    }
}

/// The AVX2 table scan against its portable twin [`super::scan`]: every
/// index 0 … 17 (0 and 17 select nothing) on random 8-, 12- and 20-limb
/// tables (P-256's affine and projective entries, P-384's padded projective
/// ones) and on an all-ones table. Nothing to compare (it passes) without AVX2 or
/// with the feature `simd` off.
#[test]
fn avx2_scan_matches_portable() {
    let Some(token) = arch::avx2() else {
        return;
    };
    let s = stream(b"pqdr p256 scan", 8 * (16 * 12 + 16 * 8 + 16 * 20));
    let mut words = s
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()));
    let mut t12 = [[0u64; 12]; 16];
    let mut t8 = [[0u64; 8]; 16];
    let mut t20 = [[0u64; 20]; 16];
    for l in t12
        .iter_mut()
        .flatten()
        .chain(t8.iter_mut().flatten())
        .chain(t20.iter_mut().flatten())
    {
        *l = words.next().unwrap();
    }
    for idx in 0..18u64 {
        assert_eq!(
            arch::p256_scan(token, &t12, idx),
            super::scan(&t12, idx),
            "{idx}"
        );
        assert_eq!(
            arch::p256_scan(token, &t8, idx),
            super::scan(&t8, idx),
            "{idx}"
        );
        assert_eq!(
            arch::p256_scan(token, &t20, idx),
            super::scan(&t20, idx),
            "{idx}"
        );
        let ones = [[u64::MAX; 8]; 16];
        assert_eq!(
            arch::p256_scan(token, &ones, idx),
            super::scan(&ones, idx),
            "{idx}"
        );
    }
    assert_eq!(super::scan(&t12, 5), t12[4]);
    assert_eq!(super::scan(&t8, 0), [0; 8]);
    assert_eq!(super::scan(&t20, 16), t20[15]);
}

/// The one-block point kernels `arch::p256_jacobian_double_n` and
/// `arch::p256_jacobian_madd` against their portable twins (the
/// `FieldArith` formulas on `Portable`), limb for limb: every combination
/// of [`field_inputs`] values below p as coordinates (edges 0, 1, p − 1,
/// `R mod p`, b and random), `n` = 0 … 6 doublings, and a chain of 300
/// alternating additions and doubling runs on real points.
#[test]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "public test indices"
)]
fn point_kernels_match_portable() {
    let Some(t) = arch::bmi2_adx() else {
        return;
    };
    let v: Vec<Fe> = field_inputs().into_iter().filter(below_p).map(Fe).collect();
    let k = v.len();
    for i in 0..k * 3 {
        let p = [v[i % k], v[(i * 7 + 1) % k], v[(i * 13 + 2) % k]];
        let q = [v[(i * 5 + 3) % k], v[(i * 11 + 4) % k]];
        for n in 0..=6 {
            let want = Portable.jacobian_double_n(&p, n);
            assert_eq!(t.jacobian_double_n(&p, n), want, "double {n} {p:x?}");
        }
        let want = Portable.jacobian_add_affine(&p, &q);
        assert_eq!(t.jacobian_add_affine(&p, &q), want, "madd {p:x?} {q:x?}");
    }
    // A chain on points of the curve: G and the table rows as affine inputs.
    let g = parse_point(&p256_public(&Scalar::ONE)).unwrap();
    let (mut a, mut b) = ([g.x, g.y, Fe::ONE], [g.x, g.y, Fe::ONE]);
    for i in 0..300u32 {
        let q = parse_point(&p256_public(&Scalar::from(u64::from(i) + 2))).unwrap();
        if i % 3 == 0 {
            a = t.jacobian_double_n(&a, i % 7);
            b = Portable.jacobian_double_n(&b, i % 7);
        } else {
            a = t.jacobian_add_affine(&a, &[q.x, q.y]);
            b = Portable.jacobian_add_affine(&b, &[q.x, q.y]);
        }
        assert_eq!(a, b, "step {i}");
    }
}

/// The divstep inversion against the Fermat chain on inputs that stress
/// its batches and limb carries: `2^k` and `p − 2^k` (below p), all-ones
/// patterns, and 600 random values, on both paths; `a·a⁻¹ = 1`.
#[test]
fn invert_divsteps_matches_fermat() {
    let mut v: Vec<[u64; 4]> = Vec::new();
    for k in 0..256 {
        let mut a = [0u64; 4];
        a[k >> 6] = 1 << (k & 63);
        v.push(a);
        let (b, borrow) = crate::nist_field::sub_limbs(&P, &a);
        assert_eq!(borrow, 0);
        v.push(b);
    }
    let s = stream(b"pqdr p256 invert", 32 * 600);
    for c in s.chunks_exact(32) {
        v.push(core::array::from_fn(|i| {
            u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap())
        }));
    }
    for a in v.into_iter().filter(below_p) {
        let a = Fe(a);
        let want = Portable.invert_fermat(&a);
        assert_eq!(Portable.invert(&a), want, "1 / {a:x?}");
        if let Some(t) = arch::bmi2_adx() {
            assert_eq!(t.invert(&a), want, "1 / {a:x?} kernel");
        }
        if a != Fe::ZERO {
            assert_eq!(Portable.mul(&want, &a), Fe::ONE, "{a:x?}");
        }
    }
}
