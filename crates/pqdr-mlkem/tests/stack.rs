//! Peak stack per operation, measured by painting (`pqdr_ctgrind::stack::peak`):
//! the stack below the measuring frame is filled with a pattern, the
//! operation runs, and the deepest overwritten byte is found. The figure
//! includes the operation's result, which lives in the measured closure
//! (for key generation: the decapsulation key with its embedded
//! encapsulation key and seed, plus the separate encapsulation key).
//!
//! `cargo test --release -p pqdr-mlkem --test stack -- --nocapture`

use core::hint::black_box;

use pqdr_mlkem::{DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};

const DEPTH: usize = 256 * 1024;

/// (keygen, encaps, decaps) peak stack in bytes.
fn measure<P: ParameterSet>() -> [usize; 3] {
    let dk = DecapsulationKey::<P>::from_seed(&[1; 64]);
    let ek = dk.encapsulation_key().clone();
    let (ct, _) = ek.encapsulate_deterministic(&[2; 32]);
    let keygen = pqdr_ctgrind::stack::peak(DEPTH, || {
        black_box(pqdr_mlkem::generate_deterministic::<P>(
            black_box(&[3; 32]),
            black_box(&[4; 32]),
        ));
    });
    let encaps = pqdr_ctgrind::stack::peak(DEPTH, || {
        black_box(black_box(&ek).encapsulate_deterministic(black_box(&[5; 32])));
    });
    let decaps = pqdr_ctgrind::stack::peak(DEPTH, || {
        black_box(black_box(&dk).decapsulate(black_box(&ct)));
    });
    [keygen, encaps, decaps]
}

#[test]
fn peak_stack() {
    let results = std::thread::Builder::new()
        .stack_size(4 << 20)
        .spawn(|| {
            [
                ("ML-KEM-512", measure::<MlKem512>()),
                ("ML-KEM-768", measure::<MlKem768>()),
                ("ML-KEM-1024", measure::<MlKem1024>()),
            ]
        })
        .expect("spawn")
        .join()
        .expect("join");
    for (name, [k, e, d]) in &results {
        println!("{name}: peak stack keygen {k} B, encaps {e} B, decaps {d} B (painting)");
    }
    // Budget for ML-KEM-768 in optimized builds (debug builds use far more).
    // With `self-test`, key generation also runs the pair-wise consistency
    // test (an encapsulation and a decapsulation next to the new keys and
    // the test's ciphertext): 11 KiB since decapsulation carries J(z ‖ c)
    // in a spare Keccak lane (issue #34: decapsulation 7,519 → 8,103 B,
    // still under its own 8 KiB; key generation with the test 9,991 →
    // 10,463 B).
    if !cfg!(debug_assertions) {
        let [k, e, d] = results[1].1;
        let keygen_budget = if cfg!(feature = "self-test") {
            11 * 1024
        } else {
            8 * 1024
        };
        assert!(
            k < keygen_budget && e < 8 * 1024 && d < 8 * 1024,
            "{:?}",
            results[1]
        );
    }
}
