//! Runs one ML-DSA operation in a loop, for profilers and instruction counts:
//! `cargo run --release -p pqdr-mldsa --example mldsa_ops -- <keygen|sign|sign-msgs|verify|sign-expanded|verify-expanded> <44|65|87> [iterations]`.
//! With `--features self-test`, `keygen` includes the pair-wise consistency
//! test and the operation `selftest` runs the set's `self_test()`.

use pqdr_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

fn run<P: ParameterSet>(op: &str, n: usize) {
    let (sk, vk) = pqdr_mldsa::generate_deterministic::<P>(&[7; 32]);
    let msg = [0x42u8; 32];
    let sig = sk.sign_deterministic(&msg, b"").expect("sign");
    let esk = sk.expand();
    let evk = vk.expand();
    for i in 0..n {
        match op {
            "keygen" => {
                let mut xi = [7u8; 32];
                xi[..8].copy_from_slice(&(i as u64).to_le_bytes());
                core::hint::black_box(pqdr_mldsa::generate_deterministic::<P>(&xi));
            }
            "sign" => {
                core::hint::black_box(
                    sk.sign_deterministic(core::hint::black_box(&msg), b"")
                        .expect("sign"),
                );
            }
            "sign-msgs" => {
                // Message i mod 64 (as the race signs 64 messages): the
                // average over their rejection-loop attempts.
                let mut m = [0x42u8; 32];
                m[0] = (i & 63).to_le_bytes()[0];
                core::hint::black_box(
                    sk.sign_deterministic(core::hint::black_box(&m), b"")
                        .expect("sign"),
                );
            }
            "sign-expanded" => {
                core::hint::black_box(
                    esk.sign_deterministic(core::hint::black_box(&msg), b"")
                        .expect("sign"),
                );
            }
            "verify-expanded" => {
                assert!(evk.verify(core::hint::black_box(&msg), b"", &sig).is_ok());
            }
            "verify" => {
                assert!(vk.verify(core::hint::black_box(&msg), b"", &sig).is_ok());
            }
            #[cfg(feature = "self-test")]
            "selftest" => {
                // Through an opaque pointer, so the call is not hoisted out of the loop.
                let run: fn() -> Result<(), pqdr_mldsa::Error> =
                    core::hint::black_box(pqdr_mldsa::self_test::self_test::<P>);
                assert_eq!(run(), Ok(()));
            }
            other => panic!("unknown operation {other}"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let op = args.get(1).map_or("sign", String::as_str);
    let set = args.get(2).map_or("65", String::as_str);
    let n = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    match set {
        "44" => run::<MlDsa44>(op, n),
        "65" => run::<MlDsa65>(op, n),
        "87" => run::<MlDsa87>(op, n),
        other => panic!("unknown set {other}"),
    }
}
