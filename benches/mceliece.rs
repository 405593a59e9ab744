//! Classic McEliece side by side: pqdr-mceliece and `pq-mceliece` 0.3 on the
//! same parameter sets (348864, 460896f, 6960119, 8192128).
//!
//! `cargo bench --features bench-peers --bench mceliece`
//!
//! `classic-mceliece-rust` 3.1 (one parameter set per build; its default is
//! mceliece348864) takes a rand 0.8 / rand_core 0.6 RNG, which the workspace
//! does not depend on; its figures in BENCHMARKS.md come from a separate
//! throw-away crate with the same criterion settings.

use core::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pq_mceliece::Algorithm;
use pqdr_mceliece::Params;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn bench_set<P: Params>(c: &mut Criterion, label: &str, peer: Algorithm) {
    let mut rng = StdRng::seed_from_u64(1);

    let mut g = c.benchmark_group(format!("{label}/keygen"));
    g.sample_size(10);
    g.bench_function("pqdr", |b| {
        b.iter(|| pqdr_mceliece::generate_deterministic::<P>(black_box(&[7u8; 32])))
    });
    g.bench_function("pq-mceliece", |b| {
        b.iter(|| {
            peer.generate_keypair_from_seed(black_box([7u8; 32]))
                .expect("seed")
        })
    });
    g.finish();

    let (dk, ek) = pqdr_mceliece::generate_deterministic::<P>(&[7u8; 32]);
    let (ct, ss) = ek.encapsulate(&mut rng);
    let (p_ek, p_dk) = peer.generate_keypair_from_seed([7u8; 32]).expect("seed");
    let (p_ct, p_ss) = peer.encapsulate(&p_ek, &mut rng).expect("encaps");
    // Same seed, same keys: both follow the round-4 KeyGen.
    assert_eq!(ek.as_bytes().as_ref(), p_ek.value());
    assert_eq!(dk.decapsulate(&ct), ss);
    assert_eq!(peer.decapsulate(&p_dk, &p_ct).expect("decaps"), p_ss);

    let mut g = c.benchmark_group(format!("{label}/encaps"));
    g.bench_function("pqdr", |b| b.iter(|| ek.encapsulate(&mut rng)));
    g.bench_function("pq-mceliece", |b| {
        b.iter(|| peer.encapsulate(&p_ek, &mut rng))
    });
    g.finish();

    let mut g = c.benchmark_group(format!("{label}/decaps"));
    g.bench_function("pqdr", |b| b.iter(|| dk.decapsulate(black_box(&ct))));
    g.bench_function("pq-mceliece", |b| {
        b.iter(|| peer.decapsulate(&p_dk, black_box(&p_ct)))
    });
    let prepared = p_dk.prepare();
    g.bench_function("pq-mceliece-prepared", |b| {
        b.iter(|| prepared.decapsulate(black_box(&p_ct)))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_set::<pqdr_mceliece::Mceliece348864>(c, "mceliece348864", Algorithm::McEliece348864);
    bench_set::<pqdr_mceliece::Mceliece460896f>(c, "mceliece460896f", Algorithm::McEliece460896f);
    bench_set::<pqdr_mceliece::Mceliece6960119>(c, "mceliece6960119", Algorithm::McEliece6960119);
    bench_set::<pqdr_mceliece::Mceliece8192128>(c, "mceliece8192128", Algorithm::McEliece8192128);
}

criterion_group! {
    name = group;
    config = Criterion::default()
        .warm_up_time(core::time::Duration::from_millis(500))
        .measurement_time(core::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(group);
