//! The 4-way permutation and sponges against the scalar ones: the detected
//! backend (AVX2 on a CPU that has it) and the portable backend on many
//! random states, and the x4 sponges against four single sponges for every
//! input length up to two blocks and multi-block squeezes.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "test code"
)]

use pqdr_keccak::{Avx2, Shake128, Shake128x4, Shake256, Shake256x4, Sponge, SpongeX4, StateX4};

/// xorshift64*: deterministic test states.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// The two paths: `None` (portable) and the AVX2 token if the CPU has AVX2.
fn backends() -> Vec<Option<Avx2>> {
    let mut v = vec![None];
    if Avx2::detect().is_some() {
        v.push(Avx2::detect());
    }
    v
}

#[cfg(target_arch = "x86_64")]
#[test]
fn detection_matches_the_cpu() {
    let avx2 = std::is_x86_feature_detected!("avx2");
    assert_eq!(Avx2::detect().is_some(), avx2);
    // `SpongeX4::new` follows this crate's own feature `simd`.
    let expect = avx2 && cfg!(feature = "simd");
    assert_eq!(Shake128x4::new().avx2().is_some(), expect);
    assert_eq!(Shake128x4::default().avx2(), Shake128x4::new().avx2());
}

/// Every backend against four scalar permutations, on 2,000 random states
/// (each iterated: the output of one call is the next input).
#[test]
fn f1600_x4_matches_scalar() {
    for backend in backends() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let mut four: StateX4 = [[0; 4]; 25];
            for lane in four.iter_mut() {
                for v in lane.iter_mut() {
                    *v = rng.next();
                }
            }
            for _ in 0..10 {
                let mut want = [[0u64; 25]; 4];
                for (k, w) in want.iter_mut().enumerate() {
                    for (i, x) in w.iter_mut().enumerate() {
                        *x = four[i][k];
                    }
                    pqdr_keccak::f1600(w);
                }
                pqdr_keccak::f1600_x4(backend, &mut four);
                for (k, w) in want.iter().enumerate() {
                    for (i, x) in w.iter().enumerate() {
                        assert_eq!(four[i][k], *x, "{backend:?} lane {i} state {k}");
                    }
                }
            }
        }
    }
    // The portable twin, called directly, agrees with the detected path.
    let mut a: StateX4 = [[7; 4]; 25];
    let mut b = a;
    pqdr_keccak::f1600_x4(Avx2::detect(), &mut a);
    pqdr_keccak::f1600_x4_portable(&mut b);
    assert_eq!(a, b);
}

/// `N`-byte inputs per instance, absorbed in one call, squeezed in two
/// calls of `B1` and `B2` bytes; against four single sponges.
fn check<const RATE: usize, const N: usize, const B1: usize, const B2: usize>(
    backend: Option<Avx2>,
    seed: u64,
) {
    let mut rng = Rng(seed);
    let inputs: [[u8; N]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next() as u8));
    let mut x4 = SpongeX4::<RATE, 0x1f>::with_avx2(backend);
    assert_eq!(x4.avx2(), backend);
    x4.absorb([&inputs[0], &inputs[1], &inputs[2], &inputs[3]]);
    let mut a = [[0u8; B1]; 4];
    let mut b = [[0u8; B2]; 4];
    {
        let [a0, a1, a2, a3] = &mut a;
        x4.squeeze_blocks([a0, a1, a2, a3]);
        let [b0, b1, b2, b3] = &mut b;
        x4.squeeze_blocks([b0, b1, b2, b3]);
    }
    for k in 0..4 {
        let mut one = Sponge::<RATE, 0x1f>::new();
        one.absorb(&inputs[k]);
        let mut want = vec![0u8; B1 + B2];
        one.squeeze(&mut want);
        assert_eq!(a[k][..], want[..B1], "{backend:?} rate {RATE} N {N} k {k}");
        assert_eq!(b[k][..], want[B1..], "{backend:?} rate {RATE} N {N} k {k}");
    }
}

/// The input lengths below for both rates (expanded by a macro, the length
/// being a const generic), with 1 + 3 blocks of output.
macro_rules! all_lengths {
    ($backend:expr, $rate:literal, $($n:literal)*) => {
        $( check::<$rate, $n, $rate, { 3 * $rate }>($backend, $n + 1); )*
    };
}

#[test]
fn shake128x4_matches_single() {
    for backend in backends() {
        seq_macro_lengths_128(backend);
    }
}

#[test]
fn shake256x4_matches_single() {
    for backend in backends() {
        seq_macro_lengths_256(backend);
    }
}

/// Two absorbs of different lengths (split inside a lane and across the
/// block), the sampling shapes of ML-KEM (32 + 2) and ML-DSA (64 + 2).
#[test]
fn split_absorbs_match() {
    for backend in backends() {
        let seeds: [[u8; 64]; 4] =
            core::array::from_fn(|k| core::array::from_fn(|i| (i * 3 + k) as u8));
        let idx: [[u8; 2]; 4] = core::array::from_fn(|k| [k as u8, 1]);
        let long: [[u8; 150]; 4] = core::array::from_fn(|k| [k as u8 ^ 0x5a; 150]);
        let mut x4 = Shake256x4::with_avx2(backend);
        x4.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
        x4.absorb([&idx[0], &idx[1], &idx[2], &idx[3]]);
        x4.absorb([&long[0], &long[1], &long[2], &long[3]]);
        x4.finalize();
        x4.finalize();
        let mut out = [[0u8; 2 * 136]; 4];
        let [o0, o1, o2, o3] = &mut out;
        x4.squeeze_blocks([o0, o1, o2, o3]);
        let mut x128 = Shake128x4::with_avx2(backend);
        x128.absorb([
            seeds[0].first_chunk::<32>().unwrap(),
            seeds[1].first_chunk::<32>().unwrap(),
            seeds[2].first_chunk::<32>().unwrap(),
            seeds[3].first_chunk::<32>().unwrap(),
        ]);
        x128.absorb([&idx[0], &idx[1], &idx[2], &idx[3]]);
        let mut out128 = [[0u8; 168]; 4];
        let [p0, p1, p2, p3] = &mut out128;
        x128.squeeze_blocks([p0, p1, p2, p3]);
        for k in 0..4 {
            let mut one = Shake256::new();
            one.absorb(&seeds[k]);
            one.absorb(&idx[k]);
            one.absorb(&long[k]);
            let mut want = [0u8; 2 * 136];
            one.squeeze(&mut want);
            assert_eq!(out[k], want, "{backend:?} k {k}");
            let mut one = Shake128::new();
            one.absorb(&seeds[k][..32]);
            one.absorb(&idx[k]);
            let mut want = [0u8; 168];
            one.squeeze(&mut want);
            assert_eq!(out128[k], want, "{backend:?} k {k}");
        }
        assert!(format!("{x4:?}").contains("SpongeX4"));
    }
}

/// Lengths 0..=40, rate ± 9 and 2·rate ± 1.
fn seq_macro_lengths_128(backend: Option<Avx2>) {
    all_lengths!(backend, 168, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 159 160 161 162 163 164 165 166 167 168 169 170 171 172 173 174 175 176 177 335 336 337);
}

/// Lengths 0..=40, rate ± 9 and 2·rate ± 1.
fn seq_macro_lengths_256(backend: Option<Avx2>) {
    all_lengths!(backend, 136, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 271 272 273);
}

/// `squeeze_blocks_riding`: lanes 0..2 give the plain streams, and a
/// `Shake256Lane` whose prefix grows between calls (by 0, part of a block,
/// one or several blocks) gives SHAKE256 of the whole message, for message
/// lengths around block boundaries; with one block per call and with the
/// padding permutation ridden or not. Both backends.
#[test]
fn riding_lane_matches_single() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let msg: Vec<u8> = (0..2_000).map(|_| rng.next() as u8).collect();
    for backend in backends() {
        for len in [0, 1, 135, 136, 137, 272, 500, 1312, 1952, 2000] {
            let m = &msg[..len];
            for step in [0usize, 50, 136, 300, 700, 2_000] {
                let mut h = pqdr_keccak::Shake256Lane::new();
                let mut prefix = 0;
                for call in 0..4u8 {
                    let seeds: [[u8; 34]; 4] = core::array::from_fn(|k| [call ^ k as u8; 34]);
                    let mut x4 = Shake128x4::with_avx2(backend);
                    x4.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
                    let mut got = [[0u8; 2 * 168]; 3];
                    prefix = (prefix + step).min(len);
                    // Three permutations below: one block of the prefix each while there is one.
                    let mut expect = h.absorbed();
                    for _ in 0..3 {
                        if expect + 136 <= prefix {
                            expect += 136;
                        }
                    }
                    let [g0, g1, g2] = &mut got;
                    x4.squeeze_blocks_riding([g0, g1, g2], &mut h, &m[..prefix]);
                    // Another block for each, still riding.
                    let mut more = [[0u8; 168]; 3];
                    let [m0, m1, m2] = &mut more;
                    x4.squeeze_blocks_riding([m0, m1, m2], &mut h, &m[..prefix]);
                    for k in 0..3 {
                        let mut one = Shake128::new();
                        one.absorb(&seeds[k]);
                        let mut want = [0u8; 3 * 168];
                        one.squeeze(&mut want);
                        assert_eq!(got[k][..], want[..336], "{backend:?} len {len} k {k}");
                        assert_eq!(more[k][..], want[336..], "{backend:?} len {len} k {k}");
                    }
                    assert_eq!(h.absorbed(), expect, "len {len} step {step} call {call}");
                }
                let mut got = [0u8; 64];
                h.finish(pqdr_keccak::Bmi1Bmi2::detect(), m, &mut got);
                let mut want = [0u8; 64];
                pqdr_keccak::shake256(&[m], &mut want);
                assert_eq!(got, want, "{backend:?} len {len} step {step}");
                assert_eq!(h.absorbed(), 0);
            }
        }
    }
}
