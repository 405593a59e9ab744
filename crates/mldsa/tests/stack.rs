//! Peak stack per operation, measured by painting (`pqdr_ct::stack::peak`,
//! which counts bytes written below the caller's frame) on a thread with an
//! 8 MiB stack. Prints the figures recorded in BENCHMARKS.md and checks the
//! budget: ML-DSA-65 signing under 64 KiB (under 40 KiB with `low-memory`).
//! Run: `cargo test --release -p pqdr-mldsa --test stack -- --nocapture`.

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]

mod common;

use common::keys;
use pqdr_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

const DEPTH: usize = 1 << 20;

#[derive(Debug)]
struct Figures {
    keygen: usize,
    sign: usize,
    sign_expanded: usize,
    verify: usize,
    sk_from_bytes: usize,
}

fn measure<P: ParameterSet>() -> Figures {
    let (sk, vk) = keys::<P>(1);
    let msg = [0x42u8; 32];
    let sig = sk.sign_deterministic(&msg, b"").expect("sign");
    let mut keys = None;
    let keygen = pqdr_ct::stack::peak(DEPTH, || {
        keys = Some(pqdr_mldsa::generate_deterministic::<P>(
            core::hint::black_box(&[2; 32]),
        ));
    });
    let mut out = None;
    let sign = pqdr_ct::stack::peak(DEPTH, || {
        out = Some(core::hint::black_box(&sk).sign_deterministic(&msg, b""));
    });
    let mut ok = None;
    let verify = pqdr_ct::stack::peak(DEPTH, || {
        ok = Some(core::hint::black_box(&vk).verify(&msg, b"", &sig));
    });
    let esk = sk.expand();
    let mut out_e = None;
    let sign_expanded = pqdr_ct::stack::peak(DEPTH, || {
        out_e = Some(core::hint::black_box(&esk).sign_deterministic(&msg, b""));
    });
    let mut parsed = None;
    let sk_from_bytes = pqdr_ct::stack::peak(DEPTH, || {
        parsed = Some(SigningKey::<P>::from_bytes(core::hint::black_box(
            sk.as_bytes(),
        )));
    });
    assert!(keys.is_some());
    assert!(out.expect("ran").is_ok());
    assert!(out_e.expect("ran").is_ok());
    assert!(ok.expect("ran").is_ok());
    assert!(parsed.expect("ran").is_ok());
    Figures {
        keygen,
        sign,
        sign_expanded,
        verify,
        sk_from_bytes,
    }
}

fn on_big_stack<T: Send + 'static>(f: fn() -> T) -> T {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("join")
}

#[test]
fn peak_stack_per_operation() {
    let mode = if cfg!(feature = "low-memory") {
        "low-memory"
    } else {
        "default"
    };
    for (name, f) in [
        ("ML-DSA-44", measure::<MlDsa44> as fn() -> Figures),
        ("ML-DSA-65", measure::<MlDsa65>),
        ("ML-DSA-87", measure::<MlDsa87>),
    ] {
        let fig = on_big_stack(f);
        println!(
            "{name} ({mode}): keygen {} B, sign {} B, sign with ExpandedSigningKey {} B, verify {} B, SigningKey::from_bytes {} B",
            fig.keygen, fig.sign, fig.sign_expanded, fig.verify, fig.sk_from_bytes
        );
        if name == "ML-DSA-65" {
            let budget = if cfg!(feature = "low-memory") {
                40 << 10
            } else {
                64 << 10
            };
            assert!(fig.sign < budget, "ML-DSA-65 sign uses {} B", fig.sign);
        }
    }
}
