//! Known answers of RFC 7748 (§5.2, §6.1) and a differential test against
//! x25519-dalek (an independent implementation, a dev-dependency only).

extern crate std;

use super::field::{Arith, Fe, Portable};
use super::{X25519_SIZE, dh, ladder, public, public_with, scalarmult};
use crate::arch;

fn h(s: &str) -> [u8; X25519_SIZE] {
    assert_eq!(s.len(), 2 * X25519_SIZE);
    let mut out = [0u8; X25519_SIZE];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

/// RFC 7748 §5.2, the two test vectors (the second has a u with its top bit
/// set, which must be masked).
#[test]
fn rfc7748_5_2_vectors() {
    let cases = [
        (
            "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
            "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
            "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
        ),
        (
            "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
            "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
            "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957",
        ),
    ];
    for (k, u, out) in cases {
        assert_eq!(*dh(&h(k), &h(u)), h(out));
    }
}

/// RFC 7748 §5.2, the iterated vectors after 1 and 1,000 iterations:
/// `k, u ← X25519(k, u), k`, starting from `k = u = 9`.
#[test]
fn rfc7748_5_2_iterations() {
    iterations(scalarmult);
}

/// The same on the portable ladder, whatever the CPU.
#[test]
fn rfc7748_5_2_iterations_portable() {
    iterations(|k, u| ladder(Portable, k, u));
}

fn iterations(f: impl Fn(&[u8; X25519_SIZE], &[u8; X25519_SIZE]) -> [u8; X25519_SIZE]) {
    let mut k = super::BASE_U;
    let mut u = super::BASE_U;
    for i in 1..=1000 {
        let r = f(&k, &u);
        u = k;
        k = r;
        if i == 1 {
            assert_eq!(
                k,
                h("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079")
            );
        }
    }
    assert_eq!(
        k,
        h("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    );
}

/// RFC 7748 §6.1: both public keys and the shared secret.
#[test]
fn rfc7748_6_1_diffie_hellman() {
    let a = h("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    let b = h("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
    let pa = h("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    let pb = h("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
    let k = h("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    assert_eq!(public(&a), pa);
    assert_eq!(public(&b), pb);
    assert_eq!(public_with(None, &a), pa);
    assert_eq!(public_with(None, &b), pb);
    assert_eq!(scalarmult(&a, &super::BASE_U), pa);
    assert_eq!(scalarmult(&b, &super::BASE_U), pb);
    assert_eq!(*dh(&a, &pb), k);
    assert_eq!(*dh(&b, &pa), k);
}

/// A small deterministic generator for the differential test (splitmix64).
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn bytes(&mut self) -> [u8; X25519_SIZE] {
        let mut out = [0u8; X25519_SIZE];
        for c in out.chunks_mut(8) {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            c.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
        }
        out
    }
}

/// Edge u-coordinates: 0, 1, p − 1, p, p + 1, 2^255 − 1 (≥ p, non-canonical),
/// the same with the top bit set, all ones, and the low-order points of
/// curve25519 (orders 1, 2, 4, 8).
fn edge_points() -> [[u8; X25519_SIZE]; 14] {
    let mut p = [0xffu8; X25519_SIZE];
    p[0] = 0xed;
    p[31] = 0x7f;
    let mut p_minus_1 = p;
    p_minus_1[0] = 0xec;
    let mut p_plus_1 = p;
    p_plus_1[0] = 0xee;
    let mut max255 = [0xffu8; X25519_SIZE];
    max255[31] = 0x7f;
    let mut one = [0u8; X25519_SIZE];
    one[0] = 1;
    let mut p_high = p;
    p_high[31] |= 0x80;
    let mut one_high = one;
    one_high[31] |= 0x80;
    [
        [0u8; X25519_SIZE],
        one,
        p_minus_1,
        p,
        p_plus_1,
        max255,
        p_high,
        one_high,
        [0xffu8; X25519_SIZE],
        // The points of order 8 (and their non-canonical twins + p).
        h("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
        h("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
        h("cdeb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880"),
        h("4c9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7"),
        h("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    ]
}

/// Ours against x25519-dalek on random scalars and points, on the edge
/// points, and (through `public`) on the base point.
#[test]
fn differential_against_x25519_dalek() {
    let mut rng = Rng(0x5eed);
    for _ in 0..300 {
        let k = rng.bytes();
        let u = rng.bytes();
        assert_eq!(
            *dh(&k, &u),
            x25519_dalek::x25519(k, u),
            "k={k:02x?} u={u:02x?}"
        );
        assert_eq!(ladder(Portable, &k, &u), x25519_dalek::x25519(k, u));
        let base = x25519_dalek::x25519(k, x25519_dalek::X25519_BASEPOINT_BYTES);
        assert_eq!(public(&k), base);
        assert_eq!(public_with(None, &k), base);
        assert_eq!(scalarmult(&k, &super::BASE_U), base);
    }
    for u in edge_points() {
        for _ in 0..8 {
            let k = rng.bytes();
            assert_eq!(
                *dh(&k, &u),
                x25519_dalek::x25519(k, u),
                "k={k:02x?} u={u:02x?}"
            );
            assert_eq!(ladder(Portable, &k, &u), x25519_dalek::x25519(k, u));
        }
    }
}

/// Low-order points give the all-zero output for every scalar (the case
/// `dh_checked` refuses, RFC 7748 §6.1), and `dh_checked` refuses them.
#[test]
fn low_order_points_give_zero() {
    let mut rng = Rng(7);
    let low: [&str; 5] = [
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    ];
    for u in low {
        let k = rng.bytes();
        assert_eq!(*dh(&k, &h(u)), [0u8; X25519_SIZE]);
        assert!(super::dh_checked(&k, &h(u)).is_err());
    }
    let k = rng.bytes();
    assert!(super::dh_checked(&k, &super::BASE_U).is_ok());
}

/// `encodeUCoordinate` (RFC 7748 §5) of loosely reduced values: the
/// canonical residue mod p = 2^255 − 19, computed by hand.
#[test]
fn encoding_reduces_fully() {
    use super::field::Fe;
    const M: u64 = u64::MAX;
    let p = [M - 18, M, M, M >> 1];
    let le = |v: u64| {
        let mut b = [0u8; X25519_SIZE];
        b[..8].copy_from_slice(&v.to_le_bytes());
        b
    };
    let mut p_minus_1 = [0u8; X25519_SIZE];
    for (i, l) in [M - 19, M, M, M >> 1].iter().enumerate() {
        p_minus_1[8 * i..8 * i + 8].copy_from_slice(&l.to_le_bytes());
    }
    assert_eq!(Fe(p).to_bytes(), [0u8; X25519_SIZE]); // p ≡ 0
    assert_eq!(Fe([M - 17, M, M, M >> 1]).to_bytes(), le(1)); // p + 1
    assert_eq!(Fe([M - 19, M, M, M >> 1]).to_bytes(), p_minus_1); // p − 1
    assert_eq!(Fe([M, M, M, M >> 1]).to_bytes(), le(18)); // 2^255 − 1
    assert_eq!(Fe([0, 0, 0, 1 << 63]).to_bytes(), le(19)); // 2^255
    assert_eq!(Fe([M; 4]).to_bytes(), le(37)); // 2^256 − 1 = 2p + 37
    assert_eq!(Fe([M - 37, M, M, M]).to_bytes(), [0u8; X25519_SIZE]); // 2p
}

/// Field operations on the extreme loose values, whose residues follow by
/// hand from 2^256 − 1 = 2p + 37: they reach the double borrow of `sub` and
/// the double carry folds that random inputs practically never reach.
#[test]
fn field_extremes() {
    use super::field::Fe;
    const M: u64 = u64::MAX;
    let le = |v: u64| {
        let mut b = [0u8; X25519_SIZE];
        b[..8].copy_from_slice(&v.to_le_bytes());
        b
    };
    let max = Fe([M; 4]); // ≡ 37
    let mut p_minus_37 = [0u8; X25519_SIZE];
    for (i, l) in [M - 18 - 37, M, M, M >> 1].iter().enumerate() {
        p_minus_37[8 * i..8 * i + 8].copy_from_slice(&l.to_le_bytes());
    }
    assert_eq!(Fe::ZERO.sub(&max).to_bytes(), p_minus_37); // −37
    assert_eq!(max.sub(&Fe::ZERO).to_bytes(), le(37));
    assert_eq!(max.add(&max).to_bytes(), le(74));
    assert_eq!(max.mul(&max).to_bytes(), le(37 * 37));
    assert_eq!(max.square().to_bytes(), le(37 * 37));
    assert_eq!(max.mul_a24().to_bytes(), le(37 * 121_665));
    assert_eq!(max.invert().mul(&max).to_bytes(), le(1));
    assert_eq!(Fe::ZERO.invert().to_bytes(), [0u8; X25519_SIZE]);
}

/// Field inputs for the kernel test: loosely reduced values at the edges
/// (0, 1, p − 1, p, p + 1, 2^255 − 1, 2^255, 2^256 − 1 = all-ones limbs,
/// 2p, limbs with only the top or only the low halves set) and random ones.
fn field_inputs() -> [[u64; 4]; 40] {
    const M: u64 = u64::MAX;
    let mut v = [[0u64; 4]; 40];
    let edges = [
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [M - 19, M, M, M >> 1],
        [M - 18, M, M, M >> 1],
        [M - 17, M, M, M >> 1],
        [M, M, M, M >> 1],
        [0, 0, 0, 1 << 63],
        [M, M, M, M],
        [M - 37, M, M, M],
        [M << 32, M << 32, M << 32, M << 32],
        [M >> 32, M >> 32, M >> 32, M >> 32],
        [M, 0, M, 0],
        [0, M, 0, M],
        [37, 0, 0, 1 << 63],
    ];
    v[..edges.len()].copy_from_slice(&edges);
    let mut rng = Rng(0xf1e1d);
    for x in v[edges.len()..].iter_mut() {
        let b = rng.bytes();
        for (i, l) in x.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[8 * i..8 * i + 8]);
            *l = u64::from_le_bytes(w);
        }
    }
    v
}

/// The MULX/ADCX/ADOX kernels against their portable twins: the same limbs
/// (not only the same residues) for every pair of [`field_inputs`] (`mul`,
/// `add`, `sub`), every input (`square` against both `square` and `mul`,
/// `mul_a24`), and a chain of 2,000 products fed back. Nothing to compare (it passes) on a CPU without BMI2+ADX or
/// with the feature `simd` off.
#[test]
fn bmi2_adx_matches_portable() {
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    let inputs = field_inputs();
    for a in &inputs {
        let fa = Fe(*a);
        for b in &inputs {
            let fb = Fe(*b);
            assert_eq!(
                token.mul(&fa, &fb).0,
                Portable.mul(&fa, &fb).0,
                "{a:x?} * {b:x?}"
            );
            let sum = (token.add(&fa, &fb).0, Portable.add(&fa, &fb).0);
            assert_eq!(sum.0, sum.1, "{a:x?} + {b:x?}");
            let diff = (token.sub(&fa, &fb).0, Portable.sub(&fa, &fb).0);
            assert_eq!(diff.0, diff.1, "{a:x?} - {b:x?}");
        }
        let a24 = (token.mul_a24(&fa).0, Portable.mul_a24(&fa).0);
        assert_eq!(a24.0, a24.1, "{a:x?} * a24");
        assert_eq!(token.square(&fa).0, Portable.square(&fa).0, "{a:x?}^2");
        assert_eq!(token.square(&fa).0, Portable.mul(&fa, &fa).0, "{a:x?}^2");
    }
    // Chained products (outputs of the kernels as inputs), as in the ladder.
    let mut x = Fe(inputs[7]);
    let mut y = Fe(inputs[7]);
    for (i, c) in inputs.iter().cycle().take(2000).enumerate() {
        let c = Fe(*c);
        x = token.mul(&token.square(&x), &c);
        y = Portable.mul(&Portable.square(&y), &c);
        assert_eq!(x.0, y.0, "step {i}");
    }
}

/// The one-block ladder step `fe_ladder_step` (its `cswap` inside) against
/// the portable [`cswap_state`](super::cswap_state) and
/// [`step`](super::step): the same limbs of `x_2`, `z_2`, `x_3`, `z_3`, for
/// both values of `swap`, for states made of every [`field_inputs`] value in
/// each slot (edges, ≥ p, all-ones limbs: the loose bound `< 2^256` at its
/// maximum) with random others, random states, and 2,000 chained steps with
/// random swaps (the outputs fed back, as in the ladder). Nothing to compare
/// on a CPU without BMI2+ADX.
#[test]
fn ladder_step_matches_portable() {
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    let inputs = field_inputs();
    let mut rng = Rng(0x1add);
    let mut limbs = || -> [u64; 4] {
        let b = rng.bytes();
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
    };
    let check = |swap: u64, s: &super::State| {
        let mut want = *s;
        super::cswap_state(swap, &mut want);
        super::step(Portable, &mut want);
        let mut got = *s;
        arch::fe_ladder_step(token, swap, &mut got);
        assert_eq!(got[..5], want[..5], "swap {swap}, state {s:x?}");
        got
    };
    for v in inputs {
        for slot in 0..5 {
            for swap in [0, 1] {
                let mut s: super::State = core::array::from_fn(|_| limbs());
                s[slot] = v;
                check(swap, &s);
                let mut s: super::State = core::array::from_fn(|_| v);
                s[slot] = limbs();
                check(swap, &s);
            }
        }
    }
    let mut s: super::State = core::array::from_fn(|_| limbs());
    for (i, v) in inputs.iter().cycle().take(2000).enumerate() {
        s = check(limbs()[0] & 1, &s);
        if i & 7 == 0 {
            s[0] = *v;
        }
    }
}

/// The one-block mixed addition `fe_madd` against the portable
/// `madd_portable`: the same limbs of `X`, `Y`, `Z`, `T` for states made of
/// every [`field_inputs`] value in each input slot with random others,
/// random states, and 2,000 chained additions. Nothing to compare on a CPU
/// without BMI2+ADX.
#[cfg(feature = "precomputed-tables")]
#[test]
fn madd_matches_portable() {
    use super::base::{MaddState, madd_portable};
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    let inputs = field_inputs();
    let mut rng = Rng(0xadd);
    let mut limbs = || -> [u64; 4] {
        let b = rng.bytes();
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
    };
    let check = |s: &MaddState| {
        let mut want = *s;
        madd_portable(Portable, &mut want);
        let mut got = *s;
        arch::fe_madd(token, &mut got);
        assert_eq!(got[..7], want[..7], "state {s:x?}");
        got
    };
    for v in inputs {
        for slot in 0..7 {
            let mut s: MaddState = core::array::from_fn(|_| limbs());
            s[slot] = v;
            check(&s);
            let mut s: MaddState = core::array::from_fn(|_| v);
            s[slot] = limbs();
            check(&s);
        }
    }
    let mut s: MaddState = core::array::from_fn(|_| limbs());
    for (slot, v) in (4..7).cycle().zip(inputs.iter().cycle()).take(2000) {
        s = check(&s);
        s[slot] = *v;
    }
}

/// The AVX2 table lookup `fe_base_select` against `select_portable`: the
/// same limbs for every digit −128 … 127 (−8 … 8 occur) on 200 random
/// rows, rows of all-ones limbs and every row of the real table; and the
/// base-point product with the MULX additions but the portable lookup (the
/// path of a CPU with BMI2+ADX and no AVX2) against x25519-dalek. Nothing
/// to compare on a CPU without AVX2.
#[cfg(feature = "precomputed-tables")]
#[test]
fn base_select_matches_portable() {
    use super::base::{Row, select_portable};
    let Some(avx2) = arch::avx2() else {
        return;
    };
    let mut rng = Rng(0x5ca2);
    let check = |row: &Row| {
        for e in i8::MIN..=i8::MAX {
            let (mut want, mut got) = ([[0u64; 4]; 3], [[7u64; 4]; 3]);
            select_portable(row, e, &mut want);
            arch::fe_base_select(avx2, row, e, &mut got);
            assert_eq!(got, want, "e {e}");
        }
    };
    for _ in 0..200 {
        let row: Row = core::array::from_fn(|_| {
            let (a, b) = (rng.bytes(), rng.bytes());
            let c = rng.bytes();
            core::array::from_fn(|i| {
                let w = [&a, &b, &c][i >> 2];
                u64::from_le_bytes(w[8 * (i & 3)..8 * (i & 3) + 8].try_into().unwrap())
            })
        });
        check(&row);
    }
    check(&[[u64::MAX; 12]; 8]);
    for row in super::base::table() {
        check(row);
    }
    if let Some(token) = arch::bmi2_adx() {
        for _ in 0..20 {
            let k = rng.bytes();
            let want = x25519_dalek::x25519(k, x25519_dalek::X25519_BASEPOINT_BYTES);
            assert_eq!(super::base::base_mul(token, None, &super::clamp(&k)), want);
        }
    }
}

/// The divstep inversion against the Fermat chain `z^(p−2)` (portable and
/// kernel paths): the same canonical value for every [`field_inputs`] value
/// (0, 1, p − 1, p, p + 1, 2^255 − 1, all-ones limbs, random) and 2,000
/// chained random ones, and `z·z^(−1) = 1` for `z ≢ 0`.
#[test]
fn divsteps_invert_matches_fermat() {
    use super::invert::invert;
    let mut le1 = [0u8; X25519_SIZE];
    le1[0] = 1;
    let check = |z: Fe| {
        let got = invert(Portable, &z);
        let want = Portable.invert_fermat(&z).to_bytes();
        assert_eq!(got.to_bytes(), want, "{:x?}", z.0);
        // Canonical limbs: to_bytes leaves them as they are.
        assert_eq!(Fe::from_bytes(&got.to_bytes()).0, got.0, "{:x?}", z.0);
        if let Some(token) = arch::bmi2_adx() {
            assert_eq!(invert(token, &z).0, got.0, "{:x?}", z.0);
            assert_eq!(token.invert_fermat(&z).to_bytes(), want, "{:x?}", z.0);
        }
        let one = Portable.mul(&z, &got).to_bytes();
        let zero = z.to_bytes() == [0; X25519_SIZE];
        assert_eq!(one, if zero { [0; X25519_SIZE] } else { le1 }, "{:x?}", z.0);
        got
    };
    for a in field_inputs() {
        check(Fe(a));
    }
    let mut rng = Rng(0x1a7);
    let mut z = Fe::from_bytes(&rng.bytes());
    for _ in 0..2000 {
        let inv = check(z);
        z = Portable.add(&inv, &Fe::from_bytes(&rng.bytes()));
    }
}

/// The divstep kernel `fe_divsteps_30` against the portable
/// `divsteps_30`: the same `ζ` and matrix for random odd `f`, random `g`
/// and `ζ` in the inversion's range, and for the edges (`f` = 1, 2^64 − 1,
/// `g` = 0, 1, 2^64 − 1, 2^63, `ζ` = −1, 0, ±591, `i64::MIN`, `i64::MAX`).
/// Nothing to compare on a CPU without BMI2+ADX.
#[test]
fn divsteps_match_portable() {
    use super::field::divsteps_30;
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    let fs = [1, 3, u64::MAX, (1 << 63) | 1, 0xffff_ffff_ffff_ffed];
    let gs = [0, 1, 2, u64::MAX, 1 << 63, 0xffff_ffff_ffff_ffed];
    let zetas = [-1, 0, 1, -591, 591, i64::MIN, i64::MAX];
    for f in fs {
        for g in gs {
            for zeta in zetas {
                let got = arch::fe_divsteps_30(token, zeta, f, g);
                assert_eq!(got, divsteps_30(zeta, f, g), "{zeta} {f:x} {g:x}");
            }
        }
    }
    let mut rng = Rng(0xd1f);
    for _ in 0..3000 {
        let b = rng.bytes();
        let w = |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
        let (f, g) = (w(0) | 1, w(1));
        let zeta = i64::from(i16::from_le_bytes([b[16], b[17]]) >> 5);
        let got = arch::fe_divsteps_30(token, zeta, f, g);
        assert_eq!(got, divsteps_30(zeta, f, g), "{zeta} {f:x} {g:x}");
    }
}

/// The register-resident squaring loop `fe_square_n` against `n` portable
/// squarings: the same limbs for every [`field_inputs`] value (edges, ≥ p,
/// all-ones limbs, random) and every `n` = 0 … 260 (the inversion uses 1 …
/// 100). Nothing to compare on a CPU without BMI2+ADX.
#[test]
fn square_n_matches_portable() {
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    for a in field_inputs() {
        let mut want = Fe(a);
        for n in 0..=260 {
            assert_eq!(token.square_n(&Fe(a), n).0, want.0, "{a:x?}^(2^{n})");
            want = Portable.square(&want);
        }
    }
}

/// The base-point product on scalars whose signed radix-16 digits hit the
/// edges (every digit −8, 8 after the carries, 7, 0; the all-zero and
/// all-ones scalars, clamped) against x25519-dalek, on both paths.
#[test]
fn public_edge_scalars() {
    let mut ks = [[0u8; X25519_SIZE]; 8];
    let fills = [0x00, 0xff, 0x88, 0x77, 0x80, 0x08, 0xf8, 0x8f];
    for (k, f) in ks.iter_mut().zip(fills) {
        *k = [f; X25519_SIZE];
    }
    for k in ks {
        let want = x25519_dalek::x25519(k, x25519_dalek::X25519_BASEPOINT_BYTES);
        assert_eq!(public(&k), want, "k={k:02x?}");
        assert_eq!(public_with(None, &k), want, "k={k:02x?}");
        assert_eq!(scalarmult(&k, &super::BASE_U), want, "k={k:02x?}");
    }
}
