//! The hybrid KEMs of pqdr-hybrid beside their parts: X-Wing,
//! X25519MLKEM768 and SecP256r1MLKEM768 against bare pqdr-mlkem ML-KEM-768,
//! x25519-dalek and RustCrypto p256 (through the group), so the cost of the
//! combiner, key expansion and curve shows as a ratio in one run.
//!
//! `cargo bench --features bench-peers --bench hybrid -- --warm-up-time 1 --measurement-time 3`

use core::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pqdr_hybrid::secp256r1_mlkem768 as p256;
use pqdr_hybrid::x25519_mlkem768::{self as tls, ClientSecret};
use pqdr_hybrid::xwing::{self, DecapsulationKey};
use pqdr_mlkem::ml_kem_768 as mlkem;

fn xwing(c: &mut Criterion) {
    let (dk, ek) = xwing::generate_from_seed(&[7; 32]);
    let (ct, _) = ek.encapsulate_deterministic(&[9; 64]);
    let mut g = c.benchmark_group("X-Wing");
    g.bench_function(BenchmarkId::new("keygen", "pqdr"), |b| {
        b.iter(|| black_box(xwing::generate_from_seed(black_box(&[7; 32]))))
    });
    g.bench_function(BenchmarkId::new("encaps", "pqdr"), |b| {
        b.iter(|| black_box(ek.encapsulate_deterministic(black_box(&[9; 64]))))
    });
    g.bench_function(BenchmarkId::new("decaps", "pqdr"), |b| {
        b.iter(|| black_box(dk.decapsulate(black_box(&ct))))
    });
    // A decapsulation key stored as its seed: expansion + decapsulation.
    g.bench_function(BenchmarkId::new("decaps-from-seed", "pqdr"), |b| {
        b.iter(|| black_box(DecapsulationKey::from_seed(black_box(&[7; 32])).decapsulate(&ct)))
    });
    g.finish();
}

fn tls_group(c: &mut Criterion) {
    let client = ClientSecret::from_seed(&[1; tls::CLIENT_SEED_SIZE]);
    let (reply, _) = tls::server_respond_deterministic(client.share(), &[2; tls::SERVER_SEED_SIZE])
        .expect("valid");
    let mut g = c.benchmark_group("X25519MLKEM768");
    g.bench_function(BenchmarkId::new("client-keygen", "pqdr"), |b| {
        b.iter(|| {
            black_box(ClientSecret::from_seed(black_box(
                &[1; tls::CLIENT_SEED_SIZE],
            )))
        })
    });
    g.bench_function(BenchmarkId::new("server", "pqdr"), |b| {
        b.iter(|| {
            black_box(tls::server_respond_deterministic(
                client.share(),
                black_box(&[2; 64]),
            ))
        })
    });
    g.bench_function(BenchmarkId::new("client-finish", "pqdr"), |b| {
        b.iter(|| black_box(client.finish(black_box(&reply))))
    });
    g.finish();
}

fn p256_group(c: &mut Criterion) {
    let client = p256::ClientSecret::from_seed(&[1; p256::CLIENT_SEED_SIZE]);
    let (reply, _) =
        p256::server_respond_deterministic(client.share(), &[2; p256::SERVER_SEED_SIZE])
            .expect("valid");
    let mut g = c.benchmark_group("SecP256r1MLKEM768");
    g.bench_function(BenchmarkId::new("client-keygen", "pqdr"), |b| {
        b.iter(|| {
            black_box(p256::ClientSecret::from_seed(black_box(
                &[1; p256::CLIENT_SEED_SIZE],
            )))
        })
    });
    g.bench_function(BenchmarkId::new("server", "pqdr"), |b| {
        b.iter(|| {
            black_box(p256::server_respond_deterministic(
                client.share(),
                black_box(&[2; p256::SERVER_SEED_SIZE]),
            ))
        })
    });
    g.bench_function(BenchmarkId::new("client-finish", "pqdr"), |b| {
        b.iter(|| black_box(client.finish(black_box(&reply))))
    });
    g.finish();
}

fn parts(c: &mut Criterion) {
    let (dk, ek) = mlkem::generate_deterministic(&[3; 32], &[4; 32]);
    let (ct, _) = ek.encapsulate_deterministic(&[5; 32]);
    let mut g = c.benchmark_group("parts");
    g.bench_function(BenchmarkId::new("keygen", "ML-KEM-768"), |b| {
        b.iter(|| black_box(mlkem::generate_deterministic(black_box(&[3; 32]), &[4; 32])))
    });
    g.bench_function(BenchmarkId::new("encaps", "ML-KEM-768"), |b| {
        b.iter(|| black_box(ek.encapsulate_deterministic(black_box(&[5; 32]))))
    });
    g.bench_function(BenchmarkId::new("decaps", "ML-KEM-768"), |b| {
        b.iter(|| black_box(dk.decapsulate(black_box(&ct))))
    });
    g.bench_function(BenchmarkId::new("x25519", "x25519-dalek"), |b| {
        b.iter(|| {
            black_box(x25519_dalek::x25519(
                black_box([6; 32]),
                x25519_dalek::X25519_BASEPOINT_BYTES,
            ))
        })
    });
    g.finish();
}

criterion_group!(benches, xwing, tls_group, p256_group, parts);
criterion_main!(benches);
