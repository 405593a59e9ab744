//! Runs one ML-KEM operation in a loop, for profilers and instruction counts:
//! `cargo run --release -p pqdr-mlkem --example mlkem_ops -- <512|768|1024> <keygen|encaps|decaps> [iterations]`
//! e.g. `valgrind --tool=callgrind target/release/examples/mlkem_ops 768 decaps 100`.
//! With `--features self-test`, `keygen` includes the pair-wise consistency
//! test and the operation `selftest` runs the set's `self_test()`.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]

use core::hint::black_box;

use pqdr_mlkem::{DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};

fn run<P: ParameterSet>(op: &str, n: usize) {
    let dk = DecapsulationKey::<P>::from_seed(&[1; 64]);
    let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&[2; 32]);
    for i in 0..n {
        match op {
            "keygen" => {
                black_box(DecapsulationKey::<P>::from_seed(black_box(&[i as u8; 64])));
            }
            "encaps" => {
                black_box(
                    dk.encapsulation_key()
                        .encapsulate_deterministic(black_box(&[i as u8; 32])),
                );
            }
            "decaps" => {
                black_box(dk.decapsulate(black_box(&ct)));
            }
            #[cfg(feature = "self-test")]
            "selftest" => {
                // Through an opaque pointer, so the call is not hoisted out of the loop.
                let run: fn() -> Result<(), pqdr_mlkem::Error> =
                    black_box(pqdr_mlkem::self_test::self_test::<P>);
                assert_eq!(run(), Ok(()));
            }
            _ => panic!("unknown operation {op}"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let set = args.get(1).map_or("768", String::as_str);
    let op = args.get(2).map_or("decaps", String::as_str);
    let n = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    match set {
        "512" => run::<MlKem512>(op, n),
        "768" => run::<MlKem768>(op, n),
        "1024" => run::<MlKem1024>(op, n),
        _ => panic!("unknown parameter set {set}"),
    }
}
