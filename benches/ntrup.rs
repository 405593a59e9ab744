//! Streamlined NTRU Prime: pqdr-ntrup against PQClean's portable C
//! (`pqcrypto-ntruprime`, built without AVX2) for all six sets, and against
//! the `sntrup761` crate (portable path: no AVX2 at compile time) for sntrup761.
//!
//! `cargo bench --features bench-peers --bench ntrup -- --warm-up-time 1 --measurement-time 3`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _};
use pqdr_ntrup::{DecapsulationKey, ParameterSet};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::hint::black_box;

fn ours<S: ParameterSet>(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(1);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let (ct, _) = ek.encapsulate(&mut rng);
    let mut g = c.benchmark_group(S::NAME);
    g.bench_function(BenchmarkId::new("keygen", "pqdr"), |b| {
        b.iter(|| black_box(DecapsulationKey::<S>::generate(&mut rng)))
    });
    g.bench_function(BenchmarkId::new("encaps", "pqdr"), |b| {
        b.iter(|| black_box(ek.encapsulate(&mut rng)))
    });
    g.bench_function(BenchmarkId::new("decaps", "pqdr"), |b| {
        b.iter(|| black_box(dk.decapsulate(black_box(&ct))))
    });
    g.finish();
}

macro_rules! pqclean {
    ($fn:ident, $module:ident, $name:literal) => {
        fn $fn(c: &mut Criterion) {
            use pqcrypto_ntruprime::$module as m;
            let (pk, sk) = m::keypair();
            let (ss, ct) = m::encapsulate(&pk);
            assert_eq!(m::decapsulate(&ct, &sk).as_bytes(), ss.as_bytes());
            // Same key formats: PQClean's keys work with ours.
            let dk = DecapsulationKey::<pqdr_ntrup::$module::Params>::from_bytes(sk.as_bytes())
                .expect("PQClean sk");
            let ct2 = pqdr_ntrup::$module::Ciphertext::from_bytes(ct.as_bytes()).expect("ct");
            assert_eq!(dk.decapsulate(&ct2).as_bytes().as_slice(), ss.as_bytes());
            let _ = pk.as_bytes();
            let mut g = c.benchmark_group($name);
            g.bench_function(BenchmarkId::new("keygen", "pqclean-clean"), |b| {
                b.iter(|| black_box(m::keypair()))
            });
            g.bench_function(BenchmarkId::new("encaps", "pqclean-clean"), |b| {
                b.iter(|| black_box(m::encapsulate(&pk)))
            });
            g.bench_function(BenchmarkId::new("decaps", "pqclean-clean"), |b| {
                b.iter(|| black_box(m::decapsulate(black_box(&ct), &sk)))
            });
            g.finish();
        }
    };
}

pqclean!(pqclean653, sntrup653, "sntrup653");
pqclean!(pqclean761, sntrup761, "sntrup761");
pqclean!(pqclean857, sntrup857, "sntrup857");
pqclean!(pqclean953, sntrup953, "sntrup953");
pqclean!(pqclean1013, sntrup1013, "sntrup1013");
pqclean!(pqclean1277, sntrup1277, "sntrup1277");

fn sntrup761_crate(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(2);
    let (ek, dk) = sntrup761::generate_key(&mut rng);
    let (ct, _) = ek.encapsulate(&mut rng);
    let mut g = c.benchmark_group("sntrup761");
    g.bench_function(BenchmarkId::new("keygen", "sntrup761-crate"), |b| {
        b.iter(|| black_box(sntrup761::generate_key(&mut rng)))
    });
    g.bench_function(BenchmarkId::new("encaps", "sntrup761-crate"), |b| {
        b.iter(|| black_box(ek.encapsulate(&mut rng)))
    });
    g.bench_function(BenchmarkId::new("decaps", "sntrup761-crate"), |b| {
        b.iter(|| black_box(dk.decapsulate(black_box(&ct))))
    });
    g.finish();
}

fn all(c: &mut Criterion) {
    ours::<pqdr_ntrup::Sntrup761>(c);
    sntrup761_crate(c);
    pqclean761(c);
    ours::<pqdr_ntrup::Sntrup653>(c);
    pqclean653(c);
    ours::<pqdr_ntrup::Sntrup857>(c);
    pqclean857(c);
    ours::<pqdr_ntrup::Sntrup953>(c);
    pqclean953(c);
    ours::<pqdr_ntrup::Sntrup1013>(c);
    pqclean1013(c);
    ours::<pqdr_ntrup::Sntrup1277>(c);
    pqclean1277(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
