//! Constant-time check under valgrind memcheck (see docs/constant-time.md):
//! the scalar permutation (BMI1/BMI2 and portable), the 4-way permutation on every backend this CPU
//! runs (AVX2 and portable) and the sponges, on states and inputs marked
//! secret with `pqdr_ctgrind::classify`. Memcheck reports any branch or memory
//! index that depends on them. Outputs are declassified before comparing.
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1 --track-origins=yes" \
//! RUSTFLAGS="--cfg pqct_valgrind" cargo test --release -p pqdr-keccak --test ct_valgrind
//! ```
//! Natively (no valgrind) the client requests are no-ops and the tests simply pass.

#![allow(
    clippy::cast_possible_truncation,
    clippy::needless_range_loop,
    reason = "test data"
)]

use pqdr_ctgrind::{classify, declassify};
use pqdr_keccak::{
    Avx2, Bmi1Bmi2, Sha3_256, Sha3_512, Shake128, Shake128x4, Shake256, Shake256x4, StateX4,
};

fn state(seed: u64) -> [u64; 25] {
    core::array::from_fn(|i| (i as u64 + 1).wrapping_mul(seed) ^ 0x0123_4567_89ab_cdef)
}

#[test]
fn f1600_secret_state() {
    let mut want = state(3);
    pqdr_keccak::f1600(&mut want);
    let mut s = state(3);
    classify(&mut s);
    pqdr_keccak::f1600(&mut s);
    declassify(&mut s);
    assert_eq!(s, want);
}

/// The BMI1/BMI2 permutation (when this CPU, or valgrind's model of it,
/// has BMI1 and BMI2) and its portable twin, on a secret state.
#[test]
fn f1600_bmi_secret_state() {
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        Bmi1Bmi2::detect().is_some(),
        std::is_x86_feature_detected!("bmi1") && std::is_x86_feature_detected!("bmi2")
    );
    let mut want = state(11);
    pqdr_keccak::f1600_portable(&mut want);
    for bmi in [Bmi1Bmi2::detect(), None] {
        let mut s = state(11);
        classify(&mut s);
        pqdr_keccak::f1600_with(bmi, &mut s);
        declassify(&mut s);
        assert_eq!(s, want, "{bmi:?}");
    }
}

#[test]
fn f1600_x4_secret_states() {
    let mut backends = vec![None];
    // On an AVX2 machine (valgrind executes AVX2) the AVX2 path is checked.
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        Avx2::detect().is_some(),
        std::is_x86_feature_detected!("avx2")
    );
    if Avx2::detect().is_some() {
        backends.push(Avx2::detect());
    }
    for backend in backends {
        let mut four: StateX4 = [[0; 4]; 25];
        for k in 0..4 {
            let s = state(k as u64 + 5);
            for i in 0..25 {
                four[i][k] = s[i];
            }
        }
        let mut want = four;
        pqdr_keccak::f1600_x4_portable(&mut want);
        classify(&mut four);
        pqdr_keccak::f1600_x4(backend, &mut four);
        declassify(&mut four);
        assert_eq!(four, want, "{backend:?}");
    }
}

#[test]
fn sponges_secret_inputs() {
    let msg0: [u8; 300] = core::array::from_fn(|i| (i * 7) as u8);
    let mut msg = msg0;
    classify(&mut msg);
    let mut out = [0u8; 400];
    let mut s = Shake128::new();
    s.absorb(&msg[..33]);
    s.absorb(&msg[33..]);
    s.squeeze_blocks(&mut out[..168]);
    s.squeeze(&mut out[168..]);
    let mut h = Shake256::new();
    h.absorb(&msg);
    let mut out2 = [0u8; 300];
    h.squeeze(&mut out2);
    let mut d32 = [0u8; 32];
    let mut a = Sha3_256::new();
    a.absorb(&msg[5..]);
    a.squeeze(&mut d32);
    let mut d64 = [0u8; 64];
    let mut b = Sha3_512::new();
    b.absorb(&msg[..100]);
    b.squeeze(&mut d64);
    declassify(&mut out);
    declassify(&mut out2);
    declassify(&mut d32);
    declassify(&mut d64);
    assert_eq!(d32, pqdr_keccak::sha3_256(&[&msg0[5..]]));
    assert_eq!(d64, pqdr_keccak::sha3_512(&[&msg0[..100]]));
    let mut want = [0u8; 300];
    pqdr_keccak::shake256(&[&msg0], &mut want);
    assert_eq!(out2, want);
}

/// The sponges on the BMI1/BMI2 permutation, on secret inputs.
#[test]
fn sponges_bmi_secret_inputs() {
    let bmi = Bmi1Bmi2::detect();
    let msg0: [u8; 300] = core::array::from_fn(|i| (i * 5 + 1) as u8);
    let mut msg = msg0;
    classify(&mut msg);
    let mut out = [0u8; 400];
    let mut s = Shake128::with_bmi(bmi);
    s.absorb(&msg[..33]);
    s.absorb(&msg[33..]);
    s.squeeze_blocks(&mut out[..168]);
    s.squeeze(&mut out[168..]);
    let mut out2 = [0u8; 300];
    let mut h = Shake256::with_bmi(bmi);
    h.absorb(&msg);
    h.squeeze(&mut out2);
    let mut d32 = [0u8; 32];
    let mut a = Sha3_256::with_bmi(bmi);
    a.absorb(&msg[5..]);
    a.squeeze(&mut d32);
    let mut d64 = [0u8; 64];
    let mut b = Sha3_512::with_bmi(bmi);
    b.absorb(&msg[..100]);
    b.squeeze(&mut d64);
    declassify(&mut out);
    declassify(&mut out2);
    declassify(&mut d32);
    declassify(&mut d64);
    assert_eq!(d32, pqdr_keccak::sha3_256(&[&msg0[5..]]));
    assert_eq!(d64, pqdr_keccak::sha3_512(&[&msg0[..100]]));
    let mut want = [0u8; 300];
    pqdr_keccak::shake256(&[&msg0], &mut want);
    assert_eq!(out2, want);
    let mut want = [0u8; 400];
    let mut s = Shake128::new();
    s.absorb(&msg0);
    s.squeeze(&mut want);
    assert_eq!(out, want);
}

#[test]
fn sponges_x4_secret_inputs() {
    let seeds0: [[u8; 66]; 4] =
        core::array::from_fn(|k| core::array::from_fn(|i| (i + 31 * k) as u8));
    let mut seeds = seeds0;
    classify(&mut seeds);
    let mut x = Shake256x4::new();
    x.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
    let mut out = [[0u8; 272]; 4];
    let [a, b, c, d] = &mut out;
    x.squeeze_blocks([a, b, c, d]);
    let mut y = Shake128x4::new();
    y.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
    let mut out128 = [[0u8; 168]; 4];
    let [a, b, c, d] = &mut out128;
    y.squeeze_blocks([a, b, c, d]);
    declassify(&mut out);
    declassify(&mut out128);
    for k in 0..4 {
        let mut want = [0u8; 272];
        pqdr_keccak::shake256(&[&seeds0[k]], &mut want);
        assert_eq!(out[k], want);
    }
}

/// The 4-way sponges with a `Shake256Lane` riding in lane 3, everything
/// secret (seeds and the rider's message), on every backend.
#[test]
fn riding_lane_secret_inputs() {
    let msg0: [u8; 700] = core::array::from_fn(|i| (i * 3 + 7) as u8);
    let seeds0: [[u8; 34]; 4] = core::array::from_fn(|k| [k as u8 + 1; 34]);
    for backend in [None, Avx2::detect()] {
        let (mut msg, mut seeds) = (msg0, seeds0);
        classify(&mut msg);
        classify(&mut seeds);
        let mut h = pqdr_keccak::Shake256Lane::new();
        let mut x4 = Shake128x4::with_avx2(backend);
        x4.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
        let mut out = [[0u8; 2 * 168]; 3];
        let [o0, o1, o2] = &mut out;
        x4.squeeze_blocks_riding([o0, o1, o2], &mut h, &msg[..400]);
        let mut tr = [0u8; 64];
        h.finish(Bmi1Bmi2::detect(), &msg, &mut tr);
        declassify(&mut out);
        declassify(&mut tr);
        let mut want = [0u8; 64];
        pqdr_keccak::shake256(&[&msg0], &mut want);
        assert_eq!(tr, want, "{backend:?}");
        let mut one = [0u8; 2 * 168];
        let mut s = Shake128::new();
        s.absorb(&seeds0[1]);
        s.squeeze(&mut one);
        assert_eq!(out[1], one, "{backend:?}");
    }
}

/// The public-input entry points (`f1600_x4_public`,
/// `SpongeX4::with_public_input`): under valgrind CPUID reports no
/// AVX-512, so they run the AVX2 permutation, which is checked here (on
/// secret states, although their callers pass public ones). Natively on an
/// AVX-512 machine they run AVX-512, which valgrind could not check: that
/// is why only public inputs may go through them (docs/constant-time.md §8).
#[test]
fn public_entry_points_run_avx2_under_valgrind() {
    if pqdr_ctgrind::running_on_valgrind() > 0 {
        assert_eq!(
            pqdr_keccak::Avx512Vl::detect(),
            None,
            "valgrind hides AVX-512"
        );
    }
    let mut four: StateX4 =
        core::array::from_fn(|i| core::array::from_fn(|k| state(k as u64 + 9)[i]));
    let mut want = four;
    pqdr_keccak::f1600_x4_portable(&mut want);
    classify(&mut four);
    pqdr_keccak::f1600_x4_public(pqdr_keccak::Avx512Vl::detect(), Avx2::detect(), &mut four);
    declassify(&mut four);
    assert_eq!(four, want);
    let seeds0: [[u8; 34]; 4] = core::array::from_fn(|k| [k as u8 + 3; 34]);
    let mut seeds = seeds0;
    classify(&mut seeds);
    let mut x = Shake128x4::with_public_input(Avx2::detect(), pqdr_keccak::Avx512Vl::detect());
    x.absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
    let mut out = [[0u8; 336]; 4];
    let [a, b, c, d] = &mut out;
    x.squeeze_blocks([a, b, c, d]);
    declassify(&mut out);
    for k in 0..4 {
        let mut one = Shake128::new();
        one.absorb(&seeds0[k]);
        let mut want = [0u8; 336];
        one.squeeze(&mut want);
        assert_eq!(out[k], want);
    }
}
