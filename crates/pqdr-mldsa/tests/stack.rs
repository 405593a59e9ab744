//! Peak stack per operation, measured by painting (`pqdr_ctgrind::stack::peak`,
//! which counts bytes written below the caller's frame) on a thread with an
//! 8 MiB stack. Prints the figures recorded in BENCHMARKS.md and checks the
//! budgets of compact-key signing per memory plan (src/sign.rs): ML-DSA-65
//! under 64 KiB with Â cached (the hosted default), under 20 KiB row by row
//! (`small-stack`, the bare-metal default), and every set under 8 KiB
//! streaming (`smallest-stack`), each also into a caller's signature.
//! Run: `cargo test --release -p pqdr-mldsa --test stack -- --nocapture`
//! (add `--features small-stack` or `--features smallest-stack`).

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]

mod common;

use common::keys;
use pqdr_mldsa::{ByteArray, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey};

const DEPTH: usize = 1 << 20;

#[derive(Debug)]
struct Figures {
    keygen: usize,
    sign: usize,
    sign_into: usize,
    sign_expanded: usize,
    verify: usize,
    sk_from_bytes: usize,
}

// `Sync` expanded-key parts: `peak` runs the closure on a thread of its own.
fn measure<P: ParameterSet>() -> Figures
where
    P::VecK: Sync,
    P::VecL: Sync,
    P::Matrix: Sync,
{
    let (sk, vk) = keys::<P>(1);
    let msg = [0x42u8; 32];
    let sig = sk.sign_deterministic(&msg, b"").expect("sign");
    let mut keys = None;
    let keygen = pqdr_ctgrind::stack::peak(DEPTH, || {
        keys = Some(pqdr_mldsa::generate_deterministic::<P>(
            core::hint::black_box(&[2; 32]),
        ));
    });
    let mut out = None;
    let sign = pqdr_ctgrind::stack::peak(DEPTH, || {
        out = Some(core::hint::black_box(&sk).sign_deterministic(&msg, b""));
    });
    let mut into = Signature::<P>::from_array(&P::SigBytes::zeroed());
    let mut done = None;
    let sign_into = pqdr_ctgrind::stack::peak(DEPTH, || {
        done = Some(core::hint::black_box(&sk).sign_with_rnd_into(&msg, b"", &[0; 32], &mut into));
    });
    let mut ok = None;
    let verify = pqdr_ctgrind::stack::peak(DEPTH, || {
        ok = Some(core::hint::black_box(&vk).verify(&msg, b"", &sig));
    });
    let esk = sk.expand();
    let mut out_e = None;
    let sign_expanded = pqdr_ctgrind::stack::peak(DEPTH, || {
        out_e = Some(core::hint::black_box(&esk).sign_deterministic(&msg, b""));
    });
    let mut parsed = None;
    let sk_from_bytes = pqdr_ctgrind::stack::peak(DEPTH, || {
        parsed = Some(SigningKey::<P>::from_array(core::hint::black_box(
            sk.as_bytes(),
        )));
    });
    assert!(keys.is_some());
    assert_eq!(
        out.expect("ran").expect("signed").as_bytes(),
        sig.as_bytes()
    );
    assert!(done.expect("ran").is_ok());
    assert_eq!(into.as_bytes(), sig.as_bytes());
    assert!(out_e.expect("ran").is_ok());
    assert!(ok.expect("ran").is_ok());
    assert!(parsed.expect("ran").is_ok());
    Figures {
        keygen,
        sign,
        sign_into,
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
    let mode = if cfg!(feature = "smallest-stack") {
        "smallest-stack"
    } else if cfg!(feature = "small-stack") {
        "small-stack"
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
            "{name} ({mode}): keygen {} B, sign {} B, sign_with_rnd_into {} B, sign with ExpandedSigningKey {} B, verify {} B, SigningKey::from_array {} B",
            fig.keygen, fig.sign, fig.sign_into, fig.sign_expanded, fig.verify, fig.sk_from_bytes
        );
        if cfg!(feature = "smallest-stack") {
            // Streaming signer: the same buffers for every set.
            assert!(fig.sign < 8 << 10, "{name} sign uses {} B", fig.sign);
            assert!(
                fig.sign_into < 8 << 10,
                "{name} sign uses {} B",
                fig.sign_into
            );
        } else if name == "ML-DSA-65" {
            let budget = if cfg!(feature = "small-stack") {
                20 << 10
            } else {
                64 << 10
            };
            assert!(fig.sign < budget, "{name} sign uses {} B", fig.sign);
            assert!(
                fig.sign_into < budget,
                "{name} sign uses {} B",
                fig.sign_into
            );
        }
    }
}
