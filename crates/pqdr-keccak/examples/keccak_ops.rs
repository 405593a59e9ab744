//! Runs one Keccak operation in a loop, for instruction counts:
//! `cargo run --release -p pqdr-keccak --example keccak_ops -- <f1600|f1600-bmi|f1600x4|f1600x4-avx512|sha3-256-1184|sha3-256-1184-bmi> [iterations]`
//! e.g. `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/keccak_ops f1600 1000`;
//! the difference of two counts over the difference of the iterations is the cost of one.
//! Valgrind cannot execute AVX-512: count `f1600x4-avx512` with
//! `perf stat -e instructions:u` instead.

use core::hint::black_box;

use pqdr_keccak::{
    Avx2, Avx512Vl, Bmi1Bmi2, Sha3_256, StateX4, f1600, f1600_with, f1600_x4, f1600_x4_public,
    sha3_256,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let op = args.get(1).map_or("f1600", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    match op {
        "f1600" => {
            let mut s = [0u64; 25];
            for _ in 0..n {
                f1600(black_box(&mut s));
            }
            black_box(s);
        }
        "f1600-bmi" => {
            let bmi = Bmi1Bmi2::detect();
            assert!(bmi.is_some(), "this CPU has no BMI1/BMI2");
            let mut s = [0u64; 25];
            for _ in 0..n {
                f1600_with(bmi, black_box(&mut s));
            }
            black_box(s);
        }
        "f1600x4" => {
            let mut s: StateX4 = [[0; 4]; 25];
            let avx2 = Avx2::detect();
            for _ in 0..n {
                f1600_x4(avx2, black_box(&mut s));
            }
            black_box(s);
        }
        "f1600x4-avx512" => {
            let avx512 = Avx512Vl::detect();
            assert!(avx512.is_some(), "this CPU has no AVX-512F/VL");
            let mut s: StateX4 = [[0; 4]; 25];
            for _ in 0..n {
                f1600_x4_public(avx512, None, black_box(&mut s));
            }
            black_box(s);
        }
        "sha3-256-1184" => {
            // H(ek) of ML-KEM-768 (FIPS 203 §4.1): 1,184 bytes in.
            let ek = [7u8; 1184];
            for _ in 0..n {
                black_box(sha3_256(&[black_box(&ek)]));
            }
        }
        "sha3-256-1184-bmi" => {
            let ek = [7u8; 1184];
            let bmi = Bmi1Bmi2::detect();
            for _ in 0..n {
                let mut h = Sha3_256::with_bmi(bmi);
                h.absorb(black_box(&ek));
                let mut out = [0u8; 32];
                h.squeeze(&mut out);
                black_box(out);
            }
        }
        _ => panic!("unknown operation {op}"),
    }
}
