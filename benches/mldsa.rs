//! ML-DSA side by side: pqdr-mldsa, RustCrypto `ml-dsa` 0.1, `libcrux-ml-dsa`
//! (portable, and the multiplexed API that picks AVX2 at run time when
//! libcrux is built with its `simd256` feature), and PQClean through
//! `pqcrypto-mldsa`.
//!
//! `cargo bench --features bench-peers,libcrux-ml-dsa/simd256 --bench mldsa -- --warm-up-time 1 --measurement-time 3`
//!
//! Signing is deterministic (rnd = 0) everywhere except PQClean, whose API
//! signs hedged with OS randomness. Keys are objects made beforehand: RustCrypto
//! keeps the expanded matrix Â inside its key objects, the others (pqdr,
//! libcrux, PQClean) expand Â from ρ in every sign and verify call;
//! `pqdr-expanded` is pqdr's `ExpandedSigningKey` / `ExpandedVerifyingKey`
//! (Â and the key's NTTs cached, like RustCrypto's key objects).

use core::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqcrypto_traits::sign::DetachedSignature as _;

const XI: [u8; 32] = [7; 32];

macro_rules! bench_set {
    ($c:expr, $label:literal, $ours:ident, $rc:ident, $lx:ident, $pq:ident) => {{
        let c: &mut Criterion = $c;
        let short = [0x42u8; 32];
        let long = [0x24u8; 1024];

        // --- keygen ---
        let mut g = c.benchmark_group(concat!($label, "/keygen"));
        g.bench_function("pqdr", |b| {
            b.iter(|| pqdr_mldsa::$ours::generate_deterministic(black_box(&XI)))
        });
        g.bench_function("rustcrypto", |b| {
            b.iter(|| ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(black_box(&XI.into())))
        });
        g.bench_function("libcrux-portable", |b| {
            b.iter(|| libcrux_ml_dsa::$lx::portable::generate_key_pair(black_box(XI)))
        });
        g.bench_function("libcrux-multiplexed", |b| {
            b.iter(|| libcrux_ml_dsa::$lx::generate_key_pair(black_box(XI)))
        });
        g.bench_function("pqclean", |b| b.iter(pqcrypto_mldsa::$pq::keypair));
        g.finish();

        let (sk, vk) = pqdr_mldsa::$ours::generate_deterministic(&XI);
        let esk = sk.expand();
        let rc_sk = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&XI.into());
        let rc_vk = rc_sk.expanded_key().verifying_key();
        let lx = libcrux_ml_dsa::$lx::portable::generate_key_pair(XI);
        let (pq_pk, pq_sk) = pqcrypto_mldsa::$pq::keypair();

        // --- sign, 32-byte and 1 KiB messages ---
        for (name, msg) in [("sign-32B", &short[..]), ("sign-1KiB", &long[..])] {
            let mut g = c.benchmark_group(format!("{}/{name}", $label));
            g.bench_function("pqdr", |b| {
                b.iter(|| sk.sign_deterministic(black_box(msg), b""))
            });
            g.bench_function("pqdr-expanded", |b| {
                b.iter(|| esk.sign_deterministic(black_box(msg), b""))
            });
            g.bench_function("rustcrypto", |b| {
                b.iter(|| rc_sk.expanded_key().sign_deterministic(black_box(msg), b""))
            });
            g.bench_function("libcrux-portable", |b| {
                b.iter(|| {
                    libcrux_ml_dsa::$lx::portable::sign(
                        &lx.signing_key,
                        black_box(msg),
                        b"",
                        [0; 32],
                    )
                })
            });
            g.bench_function("libcrux-multiplexed", |b| {
                b.iter(|| libcrux_ml_dsa::$lx::sign(&lx.signing_key, black_box(msg), b"", [0; 32]))
            });
            g.bench_function("pqclean", |b| {
                b.iter(|| pqcrypto_mldsa::$pq::detached_sign(black_box(msg), &pq_sk))
            });
            g.finish();
        }

        // --- verify (32-byte message) ---
        let sig = sk.sign_deterministic(&short, b"").expect("sign");
        let rc_sig = rc_sk
            .expanded_key()
            .sign_deterministic(&short, b"")
            .expect("sign");
        let lx_sig = libcrux_ml_dsa::$lx::portable::sign(&lx.signing_key, &short, b"", [0; 32])
            .expect("sign");
        let pq_sig = pqcrypto_mldsa::$pq::detached_sign(&short, &pq_sk);
        assert!(vk.verify(&short, b"", &sig).is_ok());
        assert!(rc_vk.verify_with_context(&short, b"", &rc_sig));
        let mut g = c.benchmark_group(concat!($label, "/verify"));
        g.bench_function("pqdr", |b| {
            b.iter(|| vk.verify(black_box(&short), b"", &sig))
        });
        let evk = vk.expand();
        g.bench_function("pqdr-expanded", |b| {
            b.iter(|| evk.verify(black_box(&short), b"", &sig))
        });
        g.bench_function("rustcrypto", |b| {
            b.iter(|| rc_vk.verify_with_context(black_box(&short), b"", &rc_sig))
        });
        g.bench_function("libcrux-portable", |b| {
            b.iter(|| {
                libcrux_ml_dsa::$lx::portable::verify(
                    &lx.verification_key,
                    black_box(&short),
                    b"",
                    &lx_sig,
                )
            })
        });
        g.bench_function("libcrux-multiplexed", |b| {
            b.iter(|| {
                libcrux_ml_dsa::$lx::verify(&lx.verification_key, black_box(&short), b"", &lx_sig)
            })
        });
        g.bench_function("pqclean", |b| {
            b.iter(|| {
                pqcrypto_mldsa::$pq::verify_detached_signature(
                    &pqcrypto_mldsa::$pq::DetachedSignature::from_bytes(pq_sig.as_bytes())
                        .expect("sig"),
                    black_box(&short),
                    &pq_pk,
                )
            })
        });
        g.finish();
    }};
}

fn ml_dsa_44(c: &mut Criterion) {
    bench_set!(c, "ML-DSA-44", ml_dsa_44, MlDsa44, ml_dsa_44, mldsa44);
}

fn ml_dsa_65(c: &mut Criterion) {
    bench_set!(c, "ML-DSA-65", ml_dsa_65, MlDsa65, ml_dsa_65, mldsa65);
}

fn ml_dsa_87(c: &mut Criterion) {
    bench_set!(c, "ML-DSA-87", ml_dsa_87, MlDsa87, ml_dsa_87, mldsa87);
}

criterion_group!(benches, ml_dsa_65, ml_dsa_44, ml_dsa_87);
criterion_main!(benches);
