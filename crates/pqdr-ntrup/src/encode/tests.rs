//! Tests of `encode.rs`: sizes, round trips, the AVX2 kernels against the
//! portable code, `Small_encode` / `Small_decode` against the reference.

use super::*;
use std::prelude::rust_2024::*;
use std::vec;

/// Every parameter set's (p, q).
const SETS: [(usize, u32); 6] = [
    (653, 4621),
    (761, 4591),
    (857, 5167),
    (953, 6343),
    (1013, 7177),
    (1277, 7879),
];

#[test]
fn sizes_match_the_spec_table() {
    // (p, q, Rq_bytes = pk, Rounded_bytes = ct - 32)
    for (p, q, pk, ct) in [
        (653, 4621, 994, 897 - 32),
        (761, 4591, 1158, 1039 - 32),
        (857, 5167, 1322, 1184 - 32),
        (953, 6343, 1505, 1349 - 32),
        (1013, 7177, 1623, 1455 - 32),
        (1277, 7879, 2067, 1847 - 32),
    ] {
        assert_eq!(encoded_len(p, q), pk, "pk p={p}");
        assert_eq!(encoded_len(p, rounded_modulus(q)), ct, "ct p={p}");
    }
}

#[test]
fn encode_decode_roundtrip() {
    let mut s = 3u64;
    for (len, m) in [
        (761usize, 4591u32),
        (761, 1531),
        (1, 4591),
        (2, 300),
        (3, 7),
        (653, 4621),
        (1277, 2627),
        (9, 2),
    ] {
        let vals: Vec<i16> = (0..len)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                ((s >> 33) % u64::from(m)) as i16
            })
            .collect();
        let mut r = vals.clone();
        let mut out = vec![0u8; encoded_len(len, m)];
        encode(&mut out, &mut r, &levels(len, m));
        let mut back = vec![0i16; len];
        decode(&mut back, &out, &levels(len, m));
        assert_eq!(back, vals, "len={len} m={m}");
    }
}

/// AVX2 against portable `Encode` and `Decode`: every set's `Rq` and
/// `Rounded` trees (and a few other lengths and moduli), random digits
/// and the edges (all 0, all m - 1); identical bytes, and identical
/// values decoded from them and from junk bytes (all 0xff, all 0, random).
#[test]
fn avx2_encode_matches_portable() {
    let Some(be) = crate::mult::tests::detected() else {
        return;
    };
    let mut s = 5u64;
    // Also levels of 9 and 15 pairs (one block and a remainder of 1 or 7:
    // the overlapping top / low block of `arch::encode_pairs` /
    // `decode_pairs` covers most of the other).
    let mut cases = vec![
        (17usize, 4591u32),
        (16, 127),
        (33, 128),
        (64, 2),
        (1024, 16383),
        (18, 4591),
        (31, 1531),
        (47, 16383),
    ];
    for (p, q) in SETS {
        cases.push((p, q));
        cases.push((p, rounded_modulus(q)));
    }
    for (len, m) in cases {
        let lv = levels(len, m);
        for kind in 0..4 {
            let vals: Vec<i16> = (0..len)
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                    match kind {
                        0 => 0,
                        1 => (m - 1) as i16,
                        _ => ((s >> 33) % u64::from(m)) as i16,
                    }
                })
                .collect();
            let (mut a, mut b) = (vals.clone(), vals.clone());
            let mut want = vec![0u8; encoded_len(len, m)];
            let mut got = vec![0u8; encoded_len(len, m)];
            encode_on(&mut want, &mut a, &lv, None);
            encode_on(&mut got, &mut b, &lv, Some(be));
            assert_eq!(got, want, "len={len} m={m} kind={kind}");
            // Decode of the encoding, and of arbitrary bytes (invalid
            // encodings: every reduction of `split_pair` matters).
            let mut junk = want.clone();
            for x in junk.iter_mut() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                *x = match kind {
                    0 => 0xff,
                    1 => 0,
                    _ => (s >> 56) as u8,
                };
            }
            for bytes in [&want, &junk] {
                let (mut a, mut b) = (vec![0i16; len], vec![1i16; len]);
                decode_on(&mut a, bytes, &lv, None);
                decode_on(&mut b, bytes, &lv, Some(be));
                assert_eq!(b, a, "decode len={len} m={m} kind={kind}");
            }
            let mut back = vec![0i16; len];
            decode_on(&mut back, &want, &lv, Some(be));
            assert_eq!(back, vals, "roundtrip len={len} m={m} kind={kind}");
        }
    }
}

/// `arch::decode_pairs` at the bound of its one conditional subtraction
/// (`q = x div d < 2d`): on every level of every set's `Rq` and
/// `Rounded` trees, each pair's top value the largest below the merged
/// modulus (`M - 1`) and its bytes all 0xff (the largest x), and random
/// tops and bytes; the same values as `split_pairs`.
#[test]
fn decode_pairs_at_the_bound() {
    let Some(be) = crate::mult::tests::detected() else {
        return;
    };
    let mut s = 9u64;
    for (p, q) in SETS {
        for m in [q, rounded_modulus(q)] {
            let (lv, n, _) = levels(p, m);
            for (i, level) in lv[..n].iter().enumerate() {
                // The pairs of moduli (m, m) and their merged modulus.
                let pairs = (level.len >> 1) - usize::from(level.len & 1 == 0);
                let (bytes, top) = (level.bytes_mm, merge(level.m, level.m).1);
                for kind in 0..2 {
                    let mut lcg = || {
                        s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                        (s >> 33) as u32
                    };
                    let mut a = vec![0i16; 2 * pairs];
                    for x in &mut a[..pairs] {
                        *x = [top - 1, lcg() % top][kind] as i16;
                    }
                    let bs: Vec<u8> = (0..bytes * pairs)
                        .map(|_| [0xff, lcg() as u8][kind])
                        .collect();
                    let mut b = a.clone();
                    let rem = arch::decode_pairs(be, &mut b, &bs, pairs, bytes, level.div.parts());
                    match bytes {
                        0 => split_pairs::<0>(&mut a, &bs, pairs, level),
                        1 => split_pairs::<1>(&mut a, &bs, pairs, level),
                        _ => split_pairs::<2>(&mut a, &bs, pairs, level),
                    }
                    assert_eq!(b[2 * rem..], a[2 * rem..], "p={p} m={m} level {i}");
                }
            }
        }
    }
}

/// `Small_encode` / `Small_decode` one coefficient at a time (NTRU
/// Prime spec §3.1), the reference for the word-wise code.
fn small_ref_encode(f: &[i8]) -> Vec<u8> {
    f.chunks(4)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |x, (j, &v)| x | ((v + 1) as u8) << (2 * j))
        })
        .collect()
}

fn small_ref_decode(s: &[u8], p: usize) -> Vec<i8> {
    (0..p)
        .map(|i| ((s[i / 4] >> (2 * (i % 4))) & 3) as i8 - 1)
        .collect()
}

fn small_words_match<const P: usize>(s: &mut u64) {
    for kind in 0..5 {
        let mut f = [0i8; P];
        for (i, x) in f.iter_mut().enumerate() {
            *s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            *x = match kind {
                0 => -1,
                1 => 1,
                2 => [-1, 0, 1][i % 3],
                _ => ((*s >> 33) % 3) as i8 - 1,
            };
        }
        let mut enc = vec![0u8; small_bytes(P)];
        small_encode(&mut enc, &f);
        assert_eq!(enc, small_ref_encode(&f), "encode p={P} kind={kind}");
        let mut back = [7i8; P];
        small_decode(&mut back, &enc);
        assert_eq!(back, f, "decode p={P} kind={kind}");
        // Any bytes (fields of 3, bits past p) decode as the reference does.
        let junk: Vec<u8> = (0..small_bytes(P))
            .map(|i| [0xff, 0xaa][kind % 2] ^ (i as u8).wrapping_mul(29 * kind as u8))
            .collect();
        small_decode(&mut back, &junk);
        let want = small_ref_decode(&junk, P);
        assert_eq!(back.to_vec(), want, "junk p={P} kind={kind}");
    }
}

/// The word-wise `Small_encode` / `Small_decode` against the
/// coefficient-by-coefficient reference: every set's p and short
/// lengths (each `p mod 8`), random and edge polynomials, junk bytes.
#[test]
fn small_codec_matches_reference() {
    let mut s = 11u64;
    macro_rules! each {
        ($($p:literal),*) => { $(small_words_match::<$p>(&mut s);)* };
    }
    each!(1, 7, 8, 13, 18, 653, 761, 857, 953, 1013, 1277);
}

/// AVX2 against portable `Small_encode` (`arch::small_encode`, 32
/// coefficients per register, then the word loop) and the reference.
fn small_encode_differential<const P: usize>(be: Avx2, s: &mut u64) {
    for kind in 0..5 {
        let mut f = [0i8; P];
        for (i, x) in f.iter_mut().enumerate() {
            *s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            *x = match kind {
                0 => -1,
                1 => 1,
                2 => 0,
                3 => [-1, 0, 1, 1, 0][i % 5], // every value at every position
                _ => ((*s >> 33) % 3) as i8 - 1,
            };
        }
        let (mut a, mut b) = (vec![7u8; small_bytes(P)], vec![9u8; small_bytes(P)]);
        small_encode_on(&mut a, &f, None);
        small_encode_on(&mut b, &f, Some(be));
        assert_eq!(b, a, "p={P} kind={kind}");
        assert_eq!(a, small_ref_encode(&f), "p={P} kind={kind}");
    }
}

fn small_decode_differential<const P: usize>(be: Avx2, s: &mut u64) {
    for kind in 0..6 {
        let bytes: Vec<u8> = (0..small_bytes(P))
            .map(|i| {
                *s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                match kind {
                    0 => 0xff,
                    1 => 0,
                    2 => 0x55,
                    3 => [0xaa, 0x1b, 0xe4][i % 3], // every field value in every place
                    _ => (*s >> 56) as u8,
                }
            })
            .collect();
        let (mut a, mut b) = ([7i8; P], [9i8; P]);
        small_decode_on(&mut a, &bytes, None);
        small_decode_on(&mut b, &bytes, Some(be));
        assert_eq!(b, a, "p={P} kind={kind}");
        assert_eq!(a.to_vec(), small_ref_decode(&bytes, P), "p={P} kind={kind}");
    }
}

/// AVX2 against portable `Small_decode` and `Small_encode`
/// (`arch::small_decode`, `arch::small_encode`, 32 coefficients per
/// register, then the word loops): every p mod 32 (p in 1 and 32..=64)
/// and every set's p; decoding junk and edge bytes (all 0xff, all 0, every
/// field value at every position) and random ones, encoding edge
/// polynomials (all -1, all 1, all 0, every value at every position) and
/// random ones.
#[test]
fn avx2_small_decode_matches_portable() {
    let Some(be) = crate::mult::tests::detected() else {
        return;
    };
    let mut s = 13u64;
    macro_rules! each {
        ($($p:literal),*) => { $(
            small_decode_differential::<$p>(be, &mut s);
            small_encode_differential::<$p>(be, &mut s);
        )* };
    }
    each!(1, 8, 31, 653, 761, 857, 953, 1013, 1277);
    each!(
        32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48
    );
    each!(
        49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
    );
}

#[test]
fn decode_never_out_of_range() {
    let m = 1531;
    let bytes: Vec<u8> = (0..encoded_len(761, m))
        .map(|i| (i * 37 + 255) as u8)
        .collect();
    let mut out = vec![0i16; 761];
    decode(&mut out, &bytes, &levels(761, m));
    assert!(out.iter().all(|&x| x >= 0 && (x as u32) < m));
    let ff = vec![0xffu8; encoded_len(761, m)];
    decode(&mut out, &ff, &levels(761, m));
    assert!(out.iter().all(|&x| x >= 0 && (x as u32) < m));
}
