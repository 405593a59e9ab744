//! Differential test of the AVX-512F/VL Keccak-f\[1600\]×4 for public inputs
//! (`arch/x86_64/avx512.rs`, reached through `f1600_x4_public` and
//! `SpongeX4::with_public_input`) against its portable twin
//! `f1600_x4_portable` and the AVX2 permutation: random, edge and chained
//! states, and the public-input sponges (with a rider in lane 3) against
//! single sponges. Where the CPU lacks AVX-512F/VL (or with
//! `PQDR_FORCE_PORTABLE=1` / `avx2`) no token exists: every test then prints
//! that the AVX-512 kernel was not tested, and checks the fallback.

#![allow(
    clippy::cast_possible_truncation,
    clippy::needless_range_loop,
    reason = "test data"
)]

use pqdr_keccak::{
    Avx2, Avx512Vl, Shake128x4, Shake256Lane, Shake256x4, Sponge, SpongeX4, StateX4,
    f1600_x4_portable, f1600_x4_public,
};

/// xorshift64*: deterministic test lanes.
fn next(x: &mut u64) -> u64 {
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    x.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// The token, or a loud note that the AVX-512 kernel is not under test
/// (written to stderr directly, past the test harness's output capture).
fn avx512() -> Option<Avx512Vl> {
    static ONCE: std::sync::Once = std::sync::Once::new();
    let t = Avx512Vl::detect();
    if t.is_none() {
        use std::io::Write;
        ONCE.call_once(|| {
            let _ = writeln!(
                std::io::stderr(),
                "NOTE: AVX-512F/VL not detected (CPU, or PQDR_FORCE_PORTABLE=1/avx2): \
                 the AVX-512 Keccak kernel is NOT tested in this run, only its fallback"
            );
        });
    }
    t
}

/// The public entry point on `state` against the portable twin and the
/// AVX2 permutation.
fn check(state: StateX4) {
    let mut want = state;
    f1600_x4_portable(&mut want);
    let mut got = state;
    f1600_x4_public(avx512(), Avx2::detect(), &mut got);
    assert_eq!(got, want, "input {state:x?}");
    let mut avx2 = state;
    pqdr_keccak::f1600_x4(Avx2::detect(), &mut avx2);
    assert_eq!(avx2, want);
}

/// Without `PQDR_FORCE_PORTABLE` the token is CPUID's AVX-512F and VL (the
/// variable is read only where pqdr-common's `test-utils` is on, e.g. in a
/// workspace test build; its own tests check it there).
#[test]
fn detection_matches_cpuid() {
    #[cfg(target_arch = "x86_64")]
    if std::env::var_os("PQDR_FORCE_PORTABLE").is_none() {
        let cpuid =
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl");
        assert_eq!(avx512().is_some(), cpuid);
    }
    // `with_avx2` never runs AVX-512; `with_public_input` keeps its token.
    assert_eq!(Shake128x4::with_avx2(Avx2::detect()).avx512(), None);
    assert_eq!(Shake128x4::new().avx512(), None);
    let x = Shake128x4::with_public_input(Avx2::detect(), avx512());
    assert_eq!(x.avx512(), avx512());
}

#[test]
fn avx512_matches_portable_random() {
    let mut x = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..1_000 {
        check(core::array::from_fn(|_| {
            core::array::from_fn(|_| next(&mut x))
        }));
    }
    // Chains (each output the next input).
    let mut a: StateX4 = [[0; 4]; 25];
    let mut b = a;
    for _ in 0..500 {
        f1600_x4_public(avx512(), Avx2::detect(), &mut a);
        f1600_x4_portable(&mut b);
        assert_eq!(a, b);
    }
}

/// All-zero and all-ones states, single set bits in every lane position
/// (each state a different bit), each lane alone all-ones, and the four
/// states different (a lane mix-up between states shows).
#[test]
fn avx512_matches_portable_edges() {
    check([[0; 4]; 25]);
    check([[u64::MAX; 4]; 25]);
    for i in 0..25 {
        let mut s: StateX4 = [[0; 4]; 25];
        s[i] = [u64::MAX; 4];
        check(s);
        let mut s: StateX4 = [[u64::MAX; 4]; 25];
        s[i] = [0; 4];
        check(s);
    }
    for bit in 0..64 {
        let mut s: StateX4 = [[0; 4]; 25];
        for i in 0..25 {
            s[i] = core::array::from_fn(|k| 1u64 << ((bit + 7 * i + 13 * k) & 63));
        }
        check(s);
    }
    check(core::array::from_fn(|i| [i as u64, 0, u64::MAX, 1 << i]));
}

/// `N`-byte public inputs per instance, split into two absorbs, squeezed
/// in `B` bytes, on the public-input sponges; against single sponges.
fn sponge<const RATE: usize, const N: usize, const B: usize>(seed: u64) {
    let mut x = seed;
    let inputs: [[u8; N]; 4] =
        core::array::from_fn(|_| core::array::from_fn(|_| next(&mut x) as u8));
    let mut x4 = SpongeX4::<RATE, 0x1f>::with_public_input(Avx2::detect(), avx512());
    x4.absorb([&inputs[0], &inputs[1], &inputs[2], &inputs[3]]);
    x4.absorb([&[1u8, 2], &[3, 4], &[5, 6], &[7, 8]]);
    let mut out = [[0u8; B]; 4];
    let [o0, o1, o2, o3] = &mut out;
    x4.squeeze_blocks([o0, o1, o2, o3]);
    let tails = [[1u8, 2], [3, 4], [5, 6], [7, 8]];
    for k in 0..4 {
        let mut one = Sponge::<RATE, 0x1f>::new();
        one.absorb(&inputs[k]);
        one.absorb(&tails[k]);
        let mut want = [0u8; B];
        one.squeeze(&mut want);
        assert_eq!(out[k], want, "rate {RATE} N {N} k {k}");
    }
}

#[test]
fn public_sponges_match_single() {
    // ML-DSA's ExpandA shape (ρ‖s‖r, five SHAKE128 blocks), lengths around
    // the rate, SHAKE256.
    sponge::<168, 32, { 5 * 168 }>(1);
    sponge::<168, 166, { 2 * 168 }>(2);
    sponge::<168, 167, { 2 * 168 }>(3);
    sponge::<168, 400, 168>(4);
    sponge::<136, 64, { 3 * 136 }>(5);
    sponge::<136, 135, 136>(6);
    sponge::<136, 300, { 2 * 136 }>(7);
}

/// `tr = H(pk)`'s shape: a SHAKE256 rider in lane 3 of a public SHAKE128
/// sponge, against the one-shot SHAKE256 of the message, and the three
/// streams against single sponges.
#[test]
fn public_sponge_with_rider() {
    let mut x = 77;
    let msg: [u8; 1952] = core::array::from_fn(|_| next(&mut x) as u8);
    let rho = [9u8; 32];
    let mut h = Shake256Lane::new();
    let mut g = Shake128x4::with_public_input(Avx2::detect(), avx512());
    g.absorb([&rho; 4]);
    let mut out = [[0u8; 168]; 3];
    let mut stream = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..12 {
        let [a, b, c] = &mut out;
        g.squeeze_blocks_riding([a, b, c], &mut h, &msg);
        for (s, o) in stream.iter_mut().zip(&out) {
            s.extend_from_slice(o);
        }
    }
    let mut want = [0u8; 12 * 168];
    let mut one = pqdr_keccak::Shake128::new();
    one.absorb(&rho);
    one.squeeze(&mut want);
    for s in &stream {
        assert_eq!(s[..], want[..]);
    }
    assert!(h.absorbed() > 0);
    let (mut got, mut want) = ([0u8; 64], [0u8; 64]);
    h.finish(None, &msg, &mut got);
    pqdr_keccak::shake256(&[&msg], &mut want);
    assert_eq!(got, want);
}

/// The public sponges are [`Shake256x4`]s like any other: with no token they
/// are the AVX2 / portable ones.
#[test]
fn public_sponge_without_avx512_is_the_plain_one() {
    let seeds: [[u8; 33]; 4] = core::array::from_fn(|k| [k as u8; 33]);
    let mut outs = [[[0u8; 136]; 4]; 3];
    for (x4, o) in [
        Shake256x4::with_public_input(Avx2::detect(), None),
        Shake256x4::with_public_input(Avx2::detect(), avx512()),
        Shake256x4::with_avx2(None),
    ]
    .iter_mut()
    .zip(outs.iter_mut())
    {
        x4.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
        let [a, b, c, d] = o;
        x4.squeeze_blocks([a, b, c, d]);
    }
    assert_eq!(outs[0], outs[2]);
    assert_eq!(outs[1], outs[2]);
}
