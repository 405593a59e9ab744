//! ML-KEM side by side: pqdr-mlkem, RustCrypto `ml-kem` 0.3 (hazmat
//! deterministic API), `libcrux-ml-kem` (its portable path, and its AVX2
//! path: libcrux's build script turns on `simd256` on every x86-64 build),
//! and PQClean through `pqcrypto-mlkem` (which uses its AVX2 code when the
//! CPU has AVX2).
//!
//! `cargo bench --features bench-peers --bench mlkem`
//!
//! Every implementation gets the same seeds and messages; PQClean draws its
//! own randomness from the OS (its API takes no seed), which adds a
//! `getrandom` call to its keygen and encaps.

use core::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ml_kem::{Decapsulate, KeyExport};
use pqcrypto_traits::kem::{PublicKey as _, SecretKey as _};

const D: [u8; 32] = [7; 32];
const Z: [u8; 32] = [9; 32];
const M: [u8; 32] = [42; 32];

fn seed() -> [u8; 64] {
    let mut s = [0u8; 64];
    s[..32].copy_from_slice(&D);
    s[32..].copy_from_slice(&Z);
    s
}

macro_rules! bench_set {
    ($c:expr, $label:literal, $ours:ident, $rc:ident, $lx:ident, $pq:ident) => {{
        let c: &mut Criterion = $c;

        // --- keygen ---
        let mut g = c.benchmark_group(concat!($label, "/keygen"));
        g.bench_function("pqdr", |b| {
            b.iter(|| pqdr_mlkem::$ours::generate_deterministic(black_box(&D), black_box(&Z)))
        });
        g.bench_function("rustcrypto", |b| {
            b.iter(|| ml_kem::$rc::DecapsulationKey::from_seed(black_box(seed()).into()))
        });
        g.bench_function("libcrux-portable", |b| {
            b.iter(|| libcrux_ml_kem::$lx::portable::generate_key_pair(black_box(seed())))
        });
        g.bench_function("libcrux-avx2", |b| {
            b.iter(|| libcrux_ml_kem::$lx::avx2::generate_key_pair(black_box(seed())))
        });
        g.bench_function("pqclean", |b| b.iter(pqcrypto_mlkem::$pq::keypair));
        g.finish();

        // Keys and ciphertexts for the other operations.
        let (dk, ek) = pqdr_mlkem::$ours::generate_deterministic(&D, &Z);
        let (ct, ss) = ek.encapsulate_deterministic(&M);
        let rc_dk = ml_kem::$rc::DecapsulationKey::from_seed(seed().into());
        let rc_ek = rc_dk.encapsulation_key().clone();
        let (rc_ct, rc_ss) = rc_ek.encapsulate_deterministic(&M.into());
        let lx = libcrux_ml_kem::$lx::portable::generate_key_pair(seed());
        let (lx_ct, lx_ss) = libcrux_ml_kem::$lx::portable::encapsulate(lx.public_key(), M);
        let (pq_pk, pq_sk) = pqcrypto_mlkem::$pq::keypair();
        let (pq_ss, pq_ct) = pqcrypto_mlkem::$pq::encapsulate(&pq_pk);
        // All implementations agree on the same inputs.
        assert_eq!(ek.as_bytes().as_ref(), rc_ek.to_bytes().as_slice());
        assert_eq!(ek.as_bytes().as_ref(), lx.public_key().as_slice());
        assert_eq!(ct.as_bytes().as_ref(), rc_ct.as_slice());
        assert_eq!(ct.as_bytes().as_ref(), lx_ct.as_slice());
        assert_eq!(ss.as_bytes().as_ref(), rc_ss.as_slice());
        assert_eq!(ss.as_bytes().as_ref(), lx_ss.as_slice());
        let _ = (pq_pk.as_bytes(), pq_sk.as_bytes(), pq_ss);

        // --- encaps ---
        let mut g = c.benchmark_group(concat!($label, "/encaps"));
        g.bench_function("pqdr", |b| {
            b.iter(|| ek.encapsulate_deterministic(black_box(&M)))
        });
        g.bench_function("rustcrypto", |b| {
            b.iter(|| rc_ek.encapsulate_deterministic(black_box(&M.into())))
        });
        g.bench_function("libcrux-portable", |b| {
            b.iter(|| libcrux_ml_kem::$lx::portable::encapsulate(lx.public_key(), black_box(M)))
        });
        g.bench_function("libcrux-avx2", |b| {
            b.iter(|| libcrux_ml_kem::$lx::avx2::encapsulate(lx.public_key(), black_box(M)))
        });
        g.bench_function("pqclean", |b| {
            b.iter(|| pqcrypto_mlkem::$pq::encapsulate(black_box(&pq_pk)))
        });
        g.finish();

        // --- decaps ---
        let mut g = c.benchmark_group(concat!($label, "/decaps"));
        g.bench_function("pqdr", |b| b.iter(|| dk.decapsulate(black_box(&ct))));
        g.bench_function("rustcrypto", |b| {
            b.iter(|| rc_dk.decapsulate(black_box(&rc_ct)))
        });
        g.bench_function("libcrux-portable", |b| {
            b.iter(|| {
                libcrux_ml_kem::$lx::portable::decapsulate(lx.private_key(), black_box(&lx_ct))
            })
        });
        g.bench_function("libcrux-avx2", |b| {
            b.iter(|| libcrux_ml_kem::$lx::avx2::decapsulate(lx.private_key(), black_box(&lx_ct)))
        });
        g.bench_function("pqclean", |b| {
            b.iter(|| pqcrypto_mlkem::$pq::decapsulate(black_box(&pq_ct), &pq_sk))
        });
        g.finish();
    }};
}

fn mlkem(c: &mut Criterion) {
    bench_set!(c, "ML-KEM-512", ml_kem_512, ml_kem_512, mlkem512, mlkem512);
    bench_set!(c, "ML-KEM-768", ml_kem_768, ml_kem_768, mlkem768, mlkem768);
    bench_set!(
        c,
        "ML-KEM-1024",
        ml_kem_1024,
        ml_kem_1024,
        mlkem1024,
        mlkem1024
    );
}

criterion_group!(benches, mlkem);
criterion_main!(benches);
