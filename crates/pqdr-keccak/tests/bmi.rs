//! Differential test of the BMI1/BMI2 Keccak-f\[1600\] (`arch/x86_64/scalar.rs`)
//! against its portable twin `f1600_portable`, on random and edge states,
//! and of every sponge built on either permutation. Where the CPU lacks
//! BMI1/BMI2 (or off x86-64, or with `PQDR_FORCE_PORTABLE=1`) no token
//! exists and the tests compare the portable code with itself.

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test data and split points on public lengths"
)]

use pqdr_keccak::{
    Bmi1Bmi2, Sha3_256, Sha3_512, Shake128, Shake256, Sponge, f1600_portable, f1600_with,
};

/// xorshift64*: deterministic pseudo-random lanes.
fn next(x: &mut u64) -> u64 {
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    x.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

fn check(state: [u64; 25]) {
    let mut want = state;
    f1600_portable(&mut want);
    let mut got = state;
    f1600_with(Bmi1Bmi2::detect(), &mut got);
    assert_eq!(got, want, "input {state:x?}");
    // `None` runs the portable code.
    let mut none = state;
    f1600_with(None, &mut none);
    assert_eq!(none, want);
}

#[test]
fn detection_matches_cpuid() {
    #[cfg(target_arch = "x86_64")]
    if std::env::var_os("PQDR_FORCE_PORTABLE").is_none_or(|v| v != "1") {
        assert_eq!(
            Bmi1Bmi2::detect().is_some(),
            std::is_x86_feature_detected!("bmi1") && std::is_x86_feature_detected!("bmi2")
        );
    }
}

#[test]
fn bmi_matches_portable_random() {
    let mut x = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..3_000 {
        check(core::array::from_fn(|_| next(&mut x)));
    }
    // Chains of permutations (each output the next input).
    let mut a = [0u64; 25];
    let mut b = [0u64; 25];
    for _ in 0..500 {
        f1600_with(Bmi1Bmi2::detect(), &mut a);
        f1600_portable(&mut b);
        assert_eq!(a, b);
    }
}

#[test]
fn bmi_matches_portable_edges() {
    check([0; 25]);
    check([u64::MAX; 25]);
    check(core::array::from_fn(
        |i| if i % 2 == 0 { u64::MAX } else { 0 },
    ));
    for i in 0..25 {
        for bit in [0, 1, 31, 32, 63] {
            let mut s = [0u64; 25];
            s[i] = 1 << bit;
            check(s);
            let mut s = [u64::MAX; 25];
            s[i] ^= 1 << bit;
            check(s);
        }
    }
    // Zero state: the Keccak team's known first lane.
    let mut z = [0u64; 25];
    f1600_with(Bmi1Bmi2::detect(), &mut z);
    assert_eq!(z[0], 0xF125_8F79_40E1_DDE7);
}

fn both<const RATE: usize, const PAD: u8>(msg: &[u8], out_len: usize) {
    let mut a = Sponge::<RATE, PAD>::with_bmi(Bmi1Bmi2::detect());
    assert_eq!(a.bmi(), Bmi1Bmi2::detect());
    let mut b = Sponge::<RATE, PAD>::new();
    assert_eq!(b.bmi(), None);
    let (head, tail) = msg.split_at(msg.len() / 3);
    a.absorb(head);
    a.absorb(tail);
    b.absorb(msg);
    let mut x = vec![0u8; out_len];
    let mut y = vec![0u8; out_len];
    a.squeeze(&mut x[..out_len / 2]);
    a.squeeze(&mut x[out_len / 2..]);
    b.squeeze(&mut y);
    assert_eq!(x, y, "rate {RATE} msg {}", msg.len());
}

#[test]
fn sponges_on_both_permutations() {
    let msg: Vec<u8> = (0..700u32).map(|i| (i * 13 + 5) as u8).collect();
    for len in [0, 1, 71, 72, 135, 136, 137, 167, 168, 169, 400, 700] {
        both::<{ Shake128::RATE }, { pqdr_keccak::PAD_SHAKE }>(&msg[..len], 500);
        both::<{ Shake256::RATE }, { pqdr_keccak::PAD_SHAKE }>(&msg[..len], 300);
        both::<{ Sha3_256::RATE }, { pqdr_keccak::PAD_SHA3 }>(&msg[..len], 32);
        both::<{ Sha3_512::RATE }, { pqdr_keccak::PAD_SHA3 }>(&msg[..len], 64);
    }
}
