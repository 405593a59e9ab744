//! Streamlined NTRU Prime (NTRU Prime spec §2.3): pqdr against PQClean AVX2
//! (`pqcrypto-ntruprime` with `avx2`) and the `sntrup` 0.4 crate (run-time
//! AVX2).
//!
//! No peer takes our explicit inputs, so each is checked both ways: it
//! encapsulates to our key and we decapsulate its ciphertext to its secret,
//! we encapsulate to its key and it decapsulates ours. pqdr and the `sntrup`
//! crate draw from a seeded ChaCha RNG; PQClean draws from the OS inside
//! its calls.

use core::hint::black_box;

use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SharedSecret as _};
use pqdr_ntrup::DecapsulationKey;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::check;
use crate::harness::{Config, Op, OpResult, entry, race};

macro_rules! ntrup_set {
    ($fn:ident, $m:ident) => {
        /// Cross-checks, then races keygen / encaps / decaps.
        pub(crate) fn $fn(cfg: &Config) -> Vec<OpResult> {
            use pqcrypto_ntruprime::$m as pq;
            use pqdr_ntrup::$m as ours;
            use sntrup::$m as sc;
            type Dk = DecapsulationKey<ours::Set>;
            let mut rng = StdRng::seed_from_u64(1);

            // --- cross-checks (hard failures) ---
            let (dk, ek) = Dk::generate(&mut rng);
            let (ct, ss) = ek.encapsulate(&mut rng);
            check("pqdr self", dk.decapsulate(&ct).as_bytes() == ss.as_bytes());
            let ek_bytes = ek.as_bytes().as_ref().to_vec();
            // PQClean both ways.
            let (pq_pk, pq_sk) = pq::keypair();
            let (p_ss, p_ct) = pq::encapsulate(&pq::PublicKey::from_bytes(&ek_bytes).expect("pk"));
            let p_ct_ours = ours::Ciphertext::from_slice(p_ct.as_bytes()).expect("ct");
            check(
                "pqdr decaps PQClean ct",
                dk.decapsulate(&p_ct_ours).as_bytes().as_slice() == p_ss.as_bytes(),
            );
            let pq_ek_ours = ours::EncapsulationKey::from_slice(pq_pk.as_bytes()).expect("ek");
            let (o_ct, o_ss) = pq_ek_ours.encapsulate(&mut rng);
            let o_ct_pq = pq::Ciphertext::from_bytes(o_ct.as_bytes().as_ref()).expect("ct");
            check(
                "PQClean decaps pqdr ct",
                pq::decapsulate(&o_ct_pq, &pq_sk).as_bytes() == o_ss.as_bytes().as_slice(),
            );
            // The sntrup crate both ways.
            let (sc_ek, sc_dk) = sc::generate_key(&mut rng);
            let our_ek_sc = sc::EncapsulationKey::try_from(&ek_bytes[..]).expect("sntrup ek");
            let (s_ct, s_ss) = our_ek_sc.encapsulate(&mut rng);
            let s_ct_ours = ours::Ciphertext::from_slice(s_ct.as_ref()).expect("ct");
            check(
                "pqdr decaps sntrup-crate ct",
                dk.decapsulate(&s_ct_ours).as_bytes().as_slice() == s_ss.as_ref(),
            );
            let sc_ek_ours = ours::EncapsulationKey::from_slice(sc_ek.as_ref()).expect("ek");
            let (o_ct, o_ss) = sc_ek_ours.encapsulate(&mut rng);
            let o_ct_sc = sc::Ciphertext::try_from(o_ct.as_bytes().as_ref()).expect("ct");
            check(
                "sntrup-crate decaps pqdr ct",
                sc_dk.decapsulate(&o_ct_sc).as_ref() == o_ss.as_bytes().as_slice(),
            );
            // A flipped ciphertext gives another secret (implicit rejection).
            let mut bad = ct.as_bytes().as_ref().to_vec();
            bad[0] ^= 1;
            let bad = ours::Ciphertext::from_slice(&bad).expect("ct");
            check(
                "pqdr rejects a flipped ct",
                dk.decapsulate(&bad).as_bytes() != ss.as_bytes(),
            );
            eprintln!(
                "  cross-checks passed (PQClean, sntrup crate: each other's ciphertexts both ways)"
            );

            let mut out = Vec::new();
            let mut r_ours = StdRng::seed_from_u64(2);
            let mut r_sc = StdRng::seed_from_u64(2);
            out.push(race(
                cfg,
                Op {
                    name: "keygen",
                    multiple: 1,
                    slow: false,
                    contestants: vec![
                        entry("pqdr", |_| {
                            black_box(Dk::generate(&mut r_ours));
                        }),
                        entry("PQClean AVX2", |_| {
                            black_box(pq::keypair());
                        }),
                        entry("sntrup 0.4 crate", |_| {
                            black_box(sc::generate_key(&mut r_sc));
                        }),
                    ],
                },
            ));
            let mut r_ours = StdRng::seed_from_u64(3);
            let mut r_sc = StdRng::seed_from_u64(3);
            out.push(race(
                cfg,
                Op {
                    name: "encaps",
                    multiple: 1,
                    slow: false,
                    contestants: vec![
                        entry("pqdr", |_| {
                            black_box(ek.encapsulate(&mut r_ours));
                        }),
                        entry("PQClean AVX2", |_| {
                            black_box(pq::encapsulate(&pq_pk));
                        }),
                        entry("sntrup 0.4 crate", |_| {
                            black_box(sc_ek.encapsulate(&mut r_sc));
                        }),
                    ],
                },
            ));
            let (_, pq_ct) = pq::encapsulate(&pq_pk);
            let (sc_ct, _) = sc_ek.encapsulate(&mut rng);
            out.push(race(
                cfg,
                Op {
                    name: "decaps",
                    multiple: 1,
                    slow: false,
                    contestants: vec![
                        entry("pqdr", |_| {
                            black_box(dk.decapsulate(black_box(&ct)));
                        }),
                        entry("PQClean AVX2", |_| {
                            black_box(pq::decapsulate(black_box(&pq_ct), &pq_sk));
                        }),
                        entry("sntrup 0.4 crate", |_| {
                            black_box(sc_dk.decapsulate(black_box(&sc_ct)));
                        }),
                    ],
                },
            ));
            // The opt-in prepared key (transforms of f, 1/g, h kept: 20 KB
            // more; `DecapsulationKey::prepare`), against the same peers.
            let pdk = dk.prepare();
            check(
                "pqdr prepared",
                pdk.decapsulate(&ct).as_bytes() == dk.decapsulate(&ct).as_bytes(),
            );
            out.push(race(
                cfg,
                Op {
                    name: "decaps prepared",
                    multiple: 1,
                    slow: false,
                    contestants: vec![
                        entry("pqdr", |_| {
                            black_box(pdk.decapsulate(black_box(&ct)));
                        }),
                        entry("PQClean AVX2", |_| {
                            black_box(pq::decapsulate(black_box(&pq_ct), &pq_sk));
                        }),
                        entry("sntrup 0.4 crate", |_| {
                            black_box(sc_dk.decapsulate(black_box(&sc_ct)));
                        }),
                    ],
                },
            ));
            out
        }
    };
}

ntrup_set!(sntrup653, sntrup653);
ntrup_set!(sntrup761, sntrup761);
ntrup_set!(sntrup857, sntrup857);
ntrup_set!(sntrup953, sntrup953);
ntrup_set!(sntrup1013, sntrup1013);
ntrup_set!(sntrup1277, sntrup1277);
