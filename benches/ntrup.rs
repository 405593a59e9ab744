//! Streamlined NTRU Prime: pqdr-ntrup (AVX2 kernels with the default `simd`
//! feature; portable with `--no-default-features`) against PQClean
//! (`pqcrypto-ntruprime` with its `avx2` feature: the AVX2 C on an AVX2 CPU)
//! and the `sntrup` 0.4 crate (run-time AVX2) for all six sets, and the
//! `sntrup761` 0.4 crate (portable path: no AVX2 at compile time) for sntrup761.
//!
//! `cargo bench --features bench-peers --bench ntrup -- --warm-up-time 1 --measurement-time 3`
//!
//! Instruction counts (exact, unlike wall time on a shared machine): with
//! `NTRUP_ICOUNT=<impl>:<set>:<op>:<n>` (impl `pqdr` | `pqclean` | `sntrup-crate` | `sntrup761-crate`,
//! op `keygen` | `encaps` | `decaps` | `none`) the binary runs one key pair and
//! ciphertext, then `n` operations, and exits; run it under
//! `valgrind --tool=callgrind` and subtract the `none` run.

use core::hint::black_box;
use criterion::{BenchmarkId, Criterion, criterion_group};
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _};
use pqdr_ntrup::{DecapsulationKey, ParameterSet};
use rand::SeedableRng;
use rand::rngs::StdRng;

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
            let dk = DecapsulationKey::<pqdr_ntrup::$module::Set>::from_slice(sk.as_bytes())
                .expect("PQClean sk");
            let ct2 = pqdr_ntrup::$module::Ciphertext::from_slice(ct.as_bytes()).expect("ct");
            assert_eq!(dk.decapsulate(&ct2).as_bytes().as_slice(), ss.as_bytes());
            let _ = pk.as_bytes();
            let mut g = c.benchmark_group($name);
            g.bench_function(BenchmarkId::new("keygen", "pqclean-avx2"), |b| {
                b.iter(|| black_box(m::keypair()))
            });
            g.bench_function(BenchmarkId::new("encaps", "pqclean-avx2"), |b| {
                b.iter(|| black_box(m::encapsulate(&pk)))
            });
            g.bench_function(BenchmarkId::new("decaps", "pqclean-avx2"), |b| {
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

macro_rules! sntrup_crate {
    ($fn:ident, $module:ident, $name:literal) => {
        fn $fn(c: &mut Criterion) {
            use sntrup::$module as m;
            let mut rng = StdRng::seed_from_u64(3);
            let (ek, dk) = m::generate_key(&mut rng);
            let (ct, ss) = ek.encapsulate(&mut rng);
            assert_eq!(dk.decapsulate(&ct).as_ref(), ss.as_ref());
            let mut g = c.benchmark_group($name);
            g.bench_function(BenchmarkId::new("keygen", "sntrup-crate"), |b| {
                b.iter(|| black_box(m::generate_key(&mut rng)))
            });
            g.bench_function(BenchmarkId::new("encaps", "sntrup-crate"), |b| {
                b.iter(|| black_box(ek.encapsulate(&mut rng)))
            });
            g.bench_function(BenchmarkId::new("decaps", "sntrup-crate"), |b| {
                b.iter(|| black_box(dk.decapsulate(black_box(&ct))))
            });
            g.finish();
        }
    };
}

sntrup_crate!(sntrup_crate653, sntrup653, "sntrup653");
sntrup_crate!(sntrup_crate761, sntrup761, "sntrup761");
sntrup_crate!(sntrup_crate857, sntrup857, "sntrup857");
sntrup_crate!(sntrup_crate953, sntrup953, "sntrup953");
sntrup_crate!(sntrup_crate1013, sntrup1013, "sntrup1013");
sntrup_crate!(sntrup_crate1277, sntrup1277, "sntrup1277");

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
    sntrup_crate761(c);
    ours::<pqdr_ntrup::Sntrup653>(c);
    pqclean653(c);
    sntrup_crate653(c);
    ours::<pqdr_ntrup::Sntrup857>(c);
    pqclean857(c);
    sntrup_crate857(c);
    ours::<pqdr_ntrup::Sntrup953>(c);
    pqclean953(c);
    sntrup_crate953(c);
    ours::<pqdr_ntrup::Sntrup1013>(c);
    pqclean1013(c);
    sntrup_crate1013(c);
    ours::<pqdr_ntrup::Sntrup1277>(c);
    pqclean1277(c);
    sntrup_crate1277(c);
}

fn icount_pqdr<S: ParameterSet>(op: &str, n: usize) {
    let mut rng = StdRng::seed_from_u64(1);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let (ct, _) = ek.encapsulate(&mut rng);
    for _ in 0..n {
        match op {
            "keygen" => drop(black_box(DecapsulationKey::<S>::generate(&mut rng))),
            "encaps" => drop(black_box(ek.encapsulate(&mut rng))),
            "decaps" => drop(black_box(dk.decapsulate(&ct))),
            _ => {}
        }
    }
}

macro_rules! icount_pqclean {
    ($module:ident, $op:expr, $n:expr) => {{
        use pqcrypto_ntruprime::$module as m;
        let (pk, sk) = m::keypair();
        let (_, ct) = m::encapsulate(&pk);
        for _ in 0..$n {
            match $op {
                "keygen" => drop(black_box(m::keypair())),
                "encaps" => drop(black_box(m::encapsulate(&pk))),
                "decaps" => drop(black_box(m::decapsulate(&ct, &sk))),
                _ => {}
            }
        }
    }};
}

macro_rules! icount_sntrup {
    ($module:ident, $op:expr, $n:expr) => {{
        use sntrup::$module as m;
        let mut rng = StdRng::seed_from_u64(3);
        let (ek, dk) = m::generate_key(&mut rng);
        let (ct, _) = ek.encapsulate(&mut rng);
        for _ in 0..$n {
            match $op {
                "keygen" => drop(black_box(m::generate_key(&mut rng))),
                "encaps" => drop(black_box(ek.encapsulate(&mut rng))),
                "decaps" => drop(black_box(dk.decapsulate(&ct))),
                _ => {}
            }
        }
    }};
}

fn icount(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let [imp, set, op, n] = parts[..] else {
        panic!("NTRUP_ICOUNT=<impl>:<set>:<op>:<n>")
    };
    let n: usize = n.parse().expect("n");
    match (imp, set) {
        ("pqdr", "sntrup653") => icount_pqdr::<pqdr_ntrup::Sntrup653>(op, n),
        ("pqdr", "sntrup761") => icount_pqdr::<pqdr_ntrup::Sntrup761>(op, n),
        ("pqdr", "sntrup857") => icount_pqdr::<pqdr_ntrup::Sntrup857>(op, n),
        ("pqdr", "sntrup953") => icount_pqdr::<pqdr_ntrup::Sntrup953>(op, n),
        ("pqdr", "sntrup1013") => icount_pqdr::<pqdr_ntrup::Sntrup1013>(op, n),
        ("pqdr", "sntrup1277") => icount_pqdr::<pqdr_ntrup::Sntrup1277>(op, n),
        ("pqclean", "sntrup653") => icount_pqclean!(sntrup653, op, n),
        ("pqclean", "sntrup761") => icount_pqclean!(sntrup761, op, n),
        ("pqclean", "sntrup857") => icount_pqclean!(sntrup857, op, n),
        ("pqclean", "sntrup953") => icount_pqclean!(sntrup953, op, n),
        ("pqclean", "sntrup1013") => icount_pqclean!(sntrup1013, op, n),
        ("pqclean", "sntrup1277") => icount_pqclean!(sntrup1277, op, n),
        ("sntrup-crate", "sntrup653") => icount_sntrup!(sntrup653, op, n),
        ("sntrup-crate", "sntrup761") => icount_sntrup!(sntrup761, op, n),
        ("sntrup-crate", "sntrup857") => icount_sntrup!(sntrup857, op, n),
        ("sntrup-crate", "sntrup953") => icount_sntrup!(sntrup953, op, n),
        ("sntrup-crate", "sntrup1013") => icount_sntrup!(sntrup1013, op, n),
        ("sntrup-crate", "sntrup1277") => icount_sntrup!(sntrup1277, op, n),
        ("sntrup761-crate", "sntrup761") => {
            let mut rng = StdRng::seed_from_u64(2);
            let (ek, dk) = sntrup761::generate_key(&mut rng);
            let (ct, _) = ek.encapsulate(&mut rng);
            for _ in 0..n {
                match op {
                    "keygen" => drop(black_box(sntrup761::generate_key(&mut rng))),
                    "encaps" => drop(black_box(ek.encapsulate(&mut rng))),
                    "decaps" => drop(black_box(dk.decapsulate(&ct))),
                    _ => {}
                }
            }
        }
        _ => panic!("unknown impl/set {imp}/{set}"),
    }
}

criterion_group!(benches, all);

fn main() {
    if let Ok(spec) = std::env::var("NTRUP_ICOUNT") {
        icount(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
