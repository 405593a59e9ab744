//! ML-KEM (FIPS 203): pqdr against PQClean AVX2 (`pqcrypto-mlkem`), AWS-LC
//! (`aws-lc-rs`), libcrux AVX2 and RustCrypto `ml-kem`.
//!
//! Seeds: libcrux and RustCrypto take d‖z and m (FIPS 203 Algorithms 16 and
//! 17, the `_internal` functions), so they must give byte for byte our keys,
//! ciphertexts and shared secrets. PQClean and AWS-LC draw their own
//! randomness (inside the timed call: a `getrandom` for PQClean, AWS-LC's
//! DRBG), so they are checked by decapsulating each other's ciphertexts.

use core::hint::black_box;

use aws_lc_rs::kem as awslc;
use ml_kem::{Decapsulate, KeyExport};
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SharedSecret as _};

use crate::harness::{Config, Op, OpResult, entry, race};
use crate::{check, seed32};

/// d‖z of call `i`.
fn dz(i: usize) -> [u8; 64] {
    let mut s = [0u8; 64];
    s[..32].copy_from_slice(&seed32(i, 1));
    s[32..].copy_from_slice(&seed32(i, 2));
    s
}

macro_rules! mlkem_set {
    ($fn:ident, $ours:ident, $rc:ident, $lx:ident, $pq:ident, $aws:ident) => {
        /// Cross-checks, then races keygen / encaps / decaps.
        pub(crate) fn $fn(cfg: &Config) -> Vec<OpResult> {
            use libcrux_ml_kem::$lx as lx;
            use pqcrypto_mlkem::$pq as pq;
            use pqdr_mlkem::$ours as ours;
            let d = seed32(0, 1);
            let z = seed32(0, 2);
            let m = seed32(0, 3);

            // --- cross-checks (hard failures) ---
            let (dk, ek) = ours::generate_deterministic(&d, &z);
            let (ct, ss) = ek.encapsulate_deterministic(&m);
            // RustCrypto and libcrux: same seeds, same bytes.
            let rc_dk = ml_kem::$rc::DecapsulationKey::from_seed(dz(0).into());
            let rc_ek = rc_dk.encapsulation_key().clone();
            let (rc_ct, rc_ss) = rc_ek.encapsulate_deterministic(&m.into());
            check("RustCrypto ek", ek.as_bytes().as_ref() == rc_ek.to_bytes().as_slice());
            check("RustCrypto ct", ct.as_bytes().as_ref() == rc_ct.as_slice());
            check("RustCrypto ss", ss.as_bytes().as_ref() == rc_ss.as_slice());
            let lx_kp = lx::avx2::generate_key_pair(dz(0));
            let (lx_ct, lx_ss) = lx::avx2::encapsulate(lx_kp.public_key(), m);
            check("libcrux ek", ek.as_bytes().as_ref() == lx_kp.public_key().as_slice());
            check("libcrux dk", dk.as_bytes().as_ref() == lx_kp.private_key().as_slice());
            check("libcrux ct", ct.as_bytes().as_ref() == lx_ct.as_slice());
            check("libcrux ss", ss.as_bytes().as_ref() == lx_ss.as_slice());
            // PQClean: its ciphertext to our key decapsulates (ours) to its
            // secret, ours to its key decapsulates (PQClean) to ours.
            let (pq_pk, pq_sk) = pq::keypair();
            let our_pk_pq = pq::PublicKey::from_bytes(ek.as_bytes().as_ref()).expect("pk");
            let (pq_ss, pq_ct) = pq::encapsulate(&our_pk_pq);
            let pq_ct_ours = ours::Ciphertext::from_slice(pq_ct.as_bytes()).expect("ct");
            check("pqdr decaps PQClean ct", dk.decapsulate(&pq_ct_ours).as_bytes().as_ref() == pq_ss.as_bytes());
            let pq_ek_ours = ours::EncapsulationKey::from_slice(pq_pk.as_bytes()).expect("ek");
            let (o_ct, o_ss) = pq_ek_ours.encapsulate_deterministic(&m);
            let o_ct_pq = pq::Ciphertext::from_bytes(o_ct.as_bytes().as_ref()).expect("ct");
            check("PQClean decaps pqdr ct", pq::decapsulate(&o_ct_pq, &pq_sk).as_bytes() == o_ss.as_bytes().as_ref());
            // AWS-LC: the same both ways.
            let aws_dk = awslc::DecapsulationKey::generate(&awslc::$aws).expect("AWS-LC keygen");
            let aws_ek = aws_dk.encapsulation_key().expect("AWS-LC ek");
            let our_ek_aws = awslc::EncapsulationKey::new(&awslc::$aws, ek.as_bytes().as_ref()).expect("AWS-LC ek parse");
            let (a_ct, a_ss) = our_ek_aws.encapsulate().expect("AWS-LC encaps");
            let a_ct_ours = ours::Ciphertext::from_slice(a_ct.as_ref()).expect("ct");
            check("pqdr decaps AWS-LC ct", dk.decapsulate(&a_ct_ours).as_bytes().as_ref() == a_ss.as_ref());
            let aws_ek_bytes = aws_ek.key_bytes().expect("AWS-LC ek bytes");
            let aws_ek_ours = ours::EncapsulationKey::from_slice(aws_ek_bytes.as_ref()).expect("ek");
            let (o_ct, o_ss) = aws_ek_ours.encapsulate_deterministic(&m);
            let aws_ss = aws_dk.decapsulate(o_ct.as_bytes().as_ref().into()).expect("AWS-LC decaps");
            check("AWS-LC decaps pqdr ct", aws_ss.as_ref() == o_ss.as_bytes().as_ref());
            // And a wrong ciphertext gives a different secret everywhere
            // (implicit rejection), so the checks above can fail.
            let mut bad = ct.as_bytes().as_ref().to_vec();
            bad[0] ^= 1;
            let bad_ours = ours::Ciphertext::from_slice(&bad).expect("ct");
            check("pqdr rejects a flipped ct", dk.decapsulate(&bad_ours).as_bytes() != ss.as_bytes());
            eprintln!("  cross-checks passed (RustCrypto, libcrux: same bytes; PQClean, AWS-LC: each other's ciphertexts)");

            // --- race ---
            let mut out = Vec::new();
            out.push(race(cfg, Op {
                name: "keygen",
                multiple: 1,
                slow: false,
                contestants: vec![
                    entry("pqdr", |i| {
                        black_box(ours::generate_deterministic(&seed32(i, 1), &seed32(i, 2)));
                    }),
                    entry("PQClean AVX2", |_| {
                        black_box(pq::keypair());
                    }),
                    entry("AWS-LC", |_| {
                        black_box(awslc::DecapsulationKey::generate(&awslc::$aws).expect("keygen"));
                    }),
                    entry("libcrux AVX2", |i| {
                        black_box(lx::avx2::generate_key_pair(dz(i)));
                    }),
                    entry("RustCrypto", |i| {
                        let k = ml_kem::$rc::DecapsulationKey::from_seed(dz(i).into());
                        black_box(k.encapsulation_key().to_bytes());
                    }),
                ],
            }));
            out.push(race(cfg, Op {
                name: "encaps",
                multiple: 1,
                slow: false,
                contestants: vec![
                    entry("pqdr", |i| {
                        black_box(ek.encapsulate_deterministic(&seed32(i, 3)));
                    }),
                    entry("PQClean AVX2", |_| {
                        black_box(pq::encapsulate(&pq_pk));
                    }),
                    entry("AWS-LC", |_| {
                        black_box(aws_ek.encapsulate().expect("encaps"));
                    }),
                    entry("libcrux AVX2", |i| {
                        black_box(lx::avx2::encapsulate(lx_kp.public_key(), seed32(i, 3)));
                    }),
                    entry("RustCrypto", |i| {
                        black_box(rc_ek.encapsulate_deterministic(&seed32(i, 3).into()));
                    }),
                ],
            }));
            let (pq_ss2, pq_ct2) = pq::encapsulate(&pq_pk);
            let (aws_ct2, aws_ss2) = aws_ek.encapsulate().expect("encaps");
            check("PQClean self", pq::decapsulate(&pq_ct2, &pq_sk).as_bytes() == pq_ss2.as_bytes());
            check("AWS-LC self", aws_dk.decapsulate(aws_ct2.as_ref().into()).expect("decaps").as_ref() == aws_ss2.as_ref());
            let aws_ct_bytes = aws_ct2.as_ref().to_vec();
            out.push(race(cfg, Op {
                name: "decaps",
                multiple: 1,
                slow: false,
                contestants: vec![
                    entry("pqdr", |_| {
                        black_box(dk.decapsulate(black_box(&ct)));
                    }),
                    entry("PQClean AVX2", |_| {
                        black_box(pq::decapsulate(black_box(&pq_ct2), &pq_sk));
                    }),
                    entry("AWS-LC", |_| {
                        black_box(aws_dk.decapsulate(black_box(&aws_ct_bytes[..]).into()).expect("decaps"));
                    }),
                    entry("libcrux AVX2", |_| {
                        black_box(lx::avx2::decapsulate(lx_kp.private_key(), black_box(&lx_ct)));
                    }),
                    entry("RustCrypto", |_| {
                        black_box(rc_dk.decapsulate(black_box(&rc_ct)));
                    }),
                ],
            }));
            out
        }
    };
}

mlkem_set!(
    mlkem512, ml_kem_512, ml_kem_512, mlkem512, mlkem512, ML_KEM_512
);
mlkem_set!(
    mlkem768, ml_kem_768, ml_kem_768, mlkem768, mlkem768, ML_KEM_768
);
mlkem_set!(
    mlkem1024,
    ml_kem_1024,
    ml_kem_1024,
    mlkem1024,
    mlkem1024,
    ML_KEM_1024
);
