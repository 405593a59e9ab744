//! Classic McEliece (round-4 spec §8): pqdr against PQClean AVX2
//! (`pqcrypto-classicmceliece`), `pq-mceliece` 0.3 and, on mceliece348864
//! (the one set its default build has), `classic-mceliece-rust` 3.1.
//!
//! Key generation from the seed delta: pq-mceliece and
//! classic-mceliece-rust must give our public key byte for byte (and, the
//! keys being the same, decapsulate our ciphertext to our secret). PQClean
//! draws its own keys: it encapsulates to our key and we decapsulate, and the
//! other way round. Key generation is slow and its cost depends on the seed
//! (a candidate is rejected when the matrix is not systematic): call i of
//! every seeded contestant uses the same seed i, so they do the same work;
//! PQClean's attempts are random (`--slow-batch` seeds per batch smooth it).

use core::hint::black_box;

use pq_mceliece::Algorithm;
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SharedSecret as _};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::harness::{Config, Op, OpResult, Run, entry, race};
use crate::{check, seed32};

/// A rand_core 0.6 RNG over a rand_core 0.10 one, for classic-mceliece-rust.
struct Rng06<R>(R);

impl<R: rand_core::Rng> rand_core_06::RngCore for Rng06<R> {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core_06::Error> {
        self.0.fill_bytes(dest);
        Ok(())
    }
}
impl<R: rand_core::CryptoRng> rand_core_06::CryptoRng for Rng06<R> {}

/// Returns its 32-byte seed on every draw: classic-mceliece-rust draws delta
/// with one 32-byte `fill_bytes`, so it starts from the same delta as ours.
struct FixedSeed([u8; 32]);

impl rand_core_06::RngCore for FixedSeed {
    fn next_u32(&mut self) -> u32 {
        u32::from_le_bytes([self.0[0]; 4])
    }
    fn next_u64(&mut self) -> u64 {
        u64::from_le_bytes([self.0[0]; 8])
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for (d, s) in dst.iter_mut().zip(self.0.iter().cycle()) {
            *d = *s;
        }
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), rand_core_06::Error> {
        self.fill_bytes(dst);
        Ok(())
    }
}
impl rand_core_06::CryptoRng for FixedSeed {}

macro_rules! mceliece_set {
    ($fn:ident, $m:ident, $alg:ident, $classic:literal) => {
        /// Cross-checks, then races keygen / encaps / decaps.
        pub(crate) fn $fn(cfg: &Config) -> Vec<OpResult> {
            use classic_mceliece_rust as cmr;
            use pqcrypto_classicmceliece::$m as pq;
            use pqdr_mceliece::$m as ours;
            let alg = Algorithm::$alg;
            let mut rng = StdRng::seed_from_u64(1);
            let seed = seed32(0, 1);

            // --- cross-checks (hard failures) ---
            let (dk, ek) = ours::generate_deterministic(&seed);
            let (ct, ss) = ek.encapsulate(&mut rng);
            check("pqdr self", dk.decapsulate(&ct) == ss);
            let (p_ek, p_dk) = alg.generate_keypair_from_seed(seed).expect("pq-mceliece keygen");
            check("pq-mceliece ek", ek.as_bytes().as_ref() == p_ek.value());
            let p_ct_of_ours = alg.ciphertext_from_bytes(ct.as_bytes().as_ref()).expect("ct");
            let p_ss = alg.decapsulate(&p_dk, &p_ct_of_ours).expect("decaps");
            check("pq-mceliece decaps pqdr ct", p_ss.value() == ss.as_bytes().as_ref());
            let classic = if $classic {
                let (c_pk, c_sk) = cmr::keypair_boxed(&mut FixedSeed(seed));
                check("classic-mceliece-rust ek", ek.as_bytes().as_ref() == &c_pk.as_array()[..]);
                let mut c_ct = [0u8; cmr::CRYPTO_CIPHERTEXTBYTES];
                c_ct.copy_from_slice(ct.as_bytes().as_ref());
                let c_ss = cmr::decapsulate_boxed(&cmr::Ciphertext::from(c_ct), &c_sk);
                check("classic-mceliece-rust decaps pqdr ct", &c_ss.as_array()[..] == ss.as_bytes().as_ref());
                let (c_ct, _) = cmr::encapsulate_boxed(&c_pk, &mut Rng06(StdRng::seed_from_u64(4)));
                Some((c_pk, c_sk, c_ct))
            } else {
                None
            };
            let (pq_pk, pq_sk) = pq::keypair();
            let our_pk_pq = pq::PublicKey::from_bytes(ek.as_bytes().as_ref()).expect("pk");
            let (q_ss, q_ct) = pq::encapsulate(&our_pk_pq);
            let q_ct_ours = ours::Ciphertext::from_slice(q_ct.as_bytes()).expect("ct");
            check("pqdr decaps PQClean ct", dk.decapsulate(&q_ct_ours).as_bytes().as_ref() == q_ss.as_bytes());
            let pq_ek_ours = ours::EncapsulationKey::from_slice(pq_pk.as_bytes()).expect("ek");
            let (o_ct, o_ss) = pq_ek_ours.encapsulate(&mut rng);
            let o_ct_pq = pq::Ciphertext::from_bytes(o_ct.as_bytes().as_ref()).expect("ct");
            check("PQClean decaps pqdr ct", pq::decapsulate(&o_ct_pq, &pq_sk).as_bytes() == o_ss.as_bytes().as_ref());
            let mut bad = ct.as_bytes().as_ref().to_vec();
            bad[0] ^= 1;
            let bad = ours::Ciphertext::from_slice(&bad).expect("ct");
            check("pqdr rejects a flipped ct", dk.decapsulate(&bad) != ss);
            eprintln!("  cross-checks passed (pq-mceliece{}: same key; PQClean: each other's ciphertexts)",
                if $classic { ", classic-mceliece-rust" } else { "" });

            let mut out = Vec::new();
            let mut keygen: Vec<(&'static str, Run<'_>)> = vec![
                entry("pqdr", |i| {
                    black_box(ours::generate_deterministic(&seed32(i, 5)));
                }),
                entry("PQClean AVX2", |_| {
                    black_box(pq::keypair());
                }),
                entry("pq-mceliece", |i| {
                    black_box(alg.generate_keypair_from_seed(seed32(i, 5)).expect("keygen"));
                }),
            ];
            if $classic {
                keygen.push(entry("classic-mceliece-rust", |i| {
                    let _keys = black_box(cmr::keypair_boxed(&mut FixedSeed(seed32(i, 5))));
                }));
            }
            out.push(race(cfg, Op { name: "keygen", multiple: 1, slow: true, contestants: keygen }));

            let (p_ct, _) = alg.encapsulate(&p_ek, &mut rng).expect("encaps");
            let mut r_ours = StdRng::seed_from_u64(3);
            let mut r_p = StdRng::seed_from_u64(3);
            let mut r_c = Rng06(StdRng::seed_from_u64(3));
            let mut encaps: Vec<(&'static str, Run<'_>)> = vec![
                entry("pqdr", |_| {
                    black_box(ek.encapsulate(&mut r_ours));
                }),
                entry("PQClean AVX2", |_| {
                    black_box(pq::encapsulate(&pq_pk));
                }),
                entry("pq-mceliece", |_| {
                    black_box(alg.encapsulate(&p_ek, &mut r_p).expect("encaps"));
                }),
            ];
            if let Some((c_pk, _, _)) = &classic {
                encaps.push(entry("classic-mceliece-rust", move |_| {
                    let _out = black_box(cmr::encapsulate_boxed(c_pk, &mut r_c));
                }));
            }
            out.push(race(cfg, Op { name: "encaps", multiple: 1, slow: false, contestants: encaps }));

            let (_, pq_ct) = pq::encapsulate(&pq_pk);
            let mut decaps: Vec<(&'static str, Run<'_>)> = vec![
                entry("pqdr", |_| {
                    black_box(dk.decapsulate(black_box(&ct)));
                }),
                entry("PQClean AVX2", |_| {
                    black_box(pq::decapsulate(black_box(&pq_ct), &pq_sk));
                }),
                entry("pq-mceliece", |_| {
                    black_box(alg.decapsulate(&p_dk, black_box(&p_ct)).expect("decaps"));
                }),
            ];
            if let Some((_, c_sk, c_ct)) = &classic {
                decaps.push(entry("classic-mceliece-rust", move |_| {
                    let _ss = black_box(cmr::decapsulate_boxed(black_box(c_ct), c_sk));
                }));
            }
            out.push(race(cfg, Op { name: "decaps", multiple: 1, slow: false, contestants: decaps }));
            out
        }
    };
}

mceliece_set!(mceliece348864, mceliece348864, McEliece348864, true);
mceliece_set!(mceliece348864f, mceliece348864f, McEliece348864f, false);
mceliece_set!(mceliece460896, mceliece460896, McEliece460896, false);
mceliece_set!(mceliece460896f, mceliece460896f, McEliece460896f, false);
mceliece_set!(mceliece6688128, mceliece6688128, McEliece6688128, false);
mceliece_set!(mceliece6688128f, mceliece6688128f, McEliece6688128f, false);
mceliece_set!(mceliece6960119, mceliece6960119, McEliece6960119, false);
mceliece_set!(mceliece6960119f, mceliece6960119f, McEliece6960119f, false);
mceliece_set!(mceliece8192128, mceliece8192128, McEliece8192128, false);
mceliece_set!(mceliece8192128f, mceliece8192128f, McEliece8192128f, false);
