//! Runs one operation of one parameter set `n` times (for instruction counts
//! under `valgrind --tool=callgrind` and for profiling):
//! `cargo run --release -p pqdr-ntrup --example ntrup_ops -- sntrup761 keygen 10`.
//! With `--features self-test`, `keygen` includes the pair-wise consistency
//! test and the operation `selftest` runs the set's `self_test()`.

use core::hint::black_box;
use pqdr_ntrup::{DecapsulationKey, ParameterSet};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn run<S: ParameterSet>(op: &str, n: usize) {
    let mut rng = StdRng::seed_from_u64(1);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let (ct, _) = ek.encapsulate(&mut rng);
    let pdk = (op == "decaps-prepared").then(|| dk.prepare());
    for _ in 0..n {
        match op {
            "keygen" => drop(black_box(DecapsulationKey::<S>::generate(&mut rng))),
            "encaps" => drop(black_box(ek.encapsulate(&mut rng))),
            // The reference code's draw pattern (p calls of 4 bytes).
            "encaps-reference" => drop(black_box(ek.encapsulate_reference(&mut rng))),
            "decaps" => drop(black_box(dk.decapsulate(&ct))),
            // With the transforms kept (`DecapsulationKey::prepare`, made once above).
            "decaps-prepared" => {
                if let Some(pdk) = &pdk {
                    drop(black_box(pdk.decapsulate(&ct)));
                }
            }
            "none" => {}
            #[cfg(feature = "self-test")]
            "selftest" => {
                // Through an opaque pointer, so the call is not hoisted out of the loop.
                let run: fn() -> Result<(), pqdr_ntrup::Error> =
                    black_box(pqdr_ntrup::self_test::self_test::<S>);
                assert_eq!(run(), Ok(()));
            }
            _ => panic!("op: keygen | encaps | encaps-reference | decaps | decaps-prepared | none"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let set = args.get(1).map_or("sntrup761", String::as_str);
    let op = args.get(2).map_or("keygen", String::as_str);
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    match set {
        "sntrup653" => run::<pqdr_ntrup::Sntrup653>(op, n),
        "sntrup761" => run::<pqdr_ntrup::Sntrup761>(op, n),
        "sntrup857" => run::<pqdr_ntrup::Sntrup857>(op, n),
        "sntrup953" => run::<pqdr_ntrup::Sntrup953>(op, n),
        "sntrup1013" => run::<pqdr_ntrup::Sntrup1013>(op, n),
        "sntrup1277" => run::<pqdr_ntrup::Sntrup1277>(op, n),
        _ => panic!("unknown set {set}"),
    }
}
