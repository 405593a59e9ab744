//! Streaming: a message fed in pieces is signed and verified without being
//! buffered. The default test streams 64 MiB; the 1 GiB variant is
//! `#[ignore]`d (it generates the stream twice with SHAKE128 and absorbs it
//! three times with SHAKE256: 15–30 s in release on the shared 2-core dev box):
//! `cargo test --release -p pqdr-mldsa --test all -- --ignored stream::`.

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]
#![cfg(feature = "ml_dsa_65")]

mod common;

use common::keys;
use pqdr_mldsa::ml_dsa_65 as s;
use shake::{ExtendableOutput, Shake128, Update, XofReader};

/// Streams `total` bytes of a SHAKE128-generated message through a signer and
/// a verifier in 64 KiB chunks; checks that a changed last byte fails.
fn stream(total: usize) {
    let (sk, vk) = keys::<s::Set>(11);
    let chunk = 64 * 1024;
    let source = || {
        let mut x = Shake128::default();
        x.update(b"pqdr-mldsa streaming test");
        x.finalize_xof()
    };
    let mut buf = vec![0u8; chunk];

    let mut signer = sk.signer(b"stream").expect("ctx");
    let mut g = source();
    for _ in 0..total / chunk {
        g.read(&mut buf);
        signer.update(&buf);
    }
    let sig = signer.finalize_deterministic();

    let mut verifier = vk.verifier(b"stream").expect("ctx");
    let mut tampered = vk.verifier(b"stream").expect("ctx");
    let mut g = source();
    let n = total / chunk;
    for i in 0..n {
        g.read(&mut buf);
        verifier.update(&buf);
        if i == n - 1 {
            buf[chunk - 1] ^= 1;
        }
        tampered.update(&buf);
    }
    verifier.verify(&sig).expect("streamed signature verifies");
    assert!(tampered.verify(&sig).is_err());
}

#[test]
fn stream_64_mib() {
    stream(64 << 20);
}

#[test]
#[ignore = "1 GiB: a few seconds in release; run with --ignored"]
fn stream_1_gib() {
    stream(1 << 30);
}
