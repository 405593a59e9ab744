//! ML-DSA (FIPS 204): pqdr against PQClean AVX2 (`pqcrypto-mldsa`), AWS-LC
//! (`aws-lc-rs`), libcrux (its run-time multiplexed API, AVX2 on this CPU)
//! and RustCrypto `ml-dsa`.
//!
//! Key generation from ξ (FIPS 204 Algorithm 6): libcrux, RustCrypto and
//! AWS-LC (`PqdsaKeyPair::from_seed`) must give our verifying key byte for
//! byte, libcrux and RustCrypto also our deterministic (rnd = 0) signatures.
//! PQClean (own random keys, hedged signing) and AWS-LC (hedged signing)
//! are checked by verifying each other's signatures.
//!
//! Signing: every batch signs each of `MSGS` different 32-byte messages
//! once (the rejection loop's iteration count depends on the message), with
//! the empty context. Verification cost hardly depends on the message: its
//! batches are sized by time alone and cycle through the `MSGS` messages
//! and signatures. Verification includes parsing the verifying key from
//! its bytes (what a verifier holding an encoded key does); PQClean and
//! libcrux keys are byte arrays, so their "parsing" is a copy.

use core::hint::black_box;

use aws_lc_rs::signature::{self as awslc, KeyPair as _};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _};

use crate::harness::{Config, Op, OpResult, entry, race};
use crate::{check, seed32};

/// Different messages per signing batch.
pub(crate) const MSGS: usize = 64;

/// Message `i mod MSGS`.
fn msg(i: usize) -> [u8; 32] {
    seed32(i.rem_euclid(MSGS), 9)
}

macro_rules! mldsa_set {
    ($fn:ident, $ours:ident, $rc:ident, $lx:ident, $lx_vk:ident, $lx_sig:ident, $pq:ident, $aws_v:ident, $aws_s:ident) => {
        /// Cross-checks, then races keygen / sign / verify.
        pub(crate) fn $fn(cfg: &Config) -> Vec<OpResult> {
            use libcrux_ml_dsa::$lx as lx;
            use pqcrypto_mldsa::$pq as pq;
            use pqdr_mldsa::$ours as ours;
            type Rc = ml_dsa::$rc;
            let xi = seed32(0, 1);
            let m0 = msg(0);

            // --- cross-checks (hard failures) ---
            let (sk, vk) = ours::generate_deterministic(&xi);
            let vk_bytes: Vec<u8> = vk.as_bytes().as_ref().to_vec();
            let sig = sk.sign_deterministic(&m0, b"").expect("sign");
            let sig_bytes: Vec<u8> = sig.as_bytes().as_ref().to_vec();
            let rc_sk = ml_dsa::SigningKey::<Rc>::from_seed(&xi.into());
            let rc_vk = rc_sk.expanded_key().verifying_key();
            let rc_sig = rc_sk.expanded_key().sign_deterministic(&m0, b"").expect("sign");
            check("RustCrypto vk", vk_bytes == rc_vk.encode().as_slice());
            check("RustCrypto sig", sig_bytes == rc_sig.encode().as_slice());
            let lx_kp = lx::generate_key_pair(xi);
            let lx_sig = lx::sign(&lx_kp.signing_key, &m0, b"", [0; 32]).expect("sign");
            check("libcrux vk", vk_bytes == lx_kp.verification_key.as_slice());
            check("libcrux sig", sig_bytes == lx_sig.as_slice());
            let aws_kp = awslc::PqdsaKeyPair::from_seed(&awslc::$aws_s, &xi).expect("AWS-LC from_seed");
            check("AWS-LC vk", vk_bytes == aws_kp.public_key().as_ref());
            // AWS-LC signs hedged: we verify its signature, it verifies ours.
            let mut aws_sig = vec![0u8; awslc::$aws_s.signature_len()];
            aws_kp.sign(&m0, &mut aws_sig).expect("AWS-LC sign");
            let parse_sig = |b: &[u8]| ours::Signature::from_array(b.try_into().expect("sig len"));
            check("pqdr verifies AWS-LC sig", vk.verify(&m0, b"", &parse_sig(&aws_sig)).is_ok());
            let aws_vk = awslc::UnparsedPublicKey::new(&awslc::$aws_v, &vk_bytes);
            check("AWS-LC verifies pqdr sig", aws_vk.verify(&m0, &sig_bytes).is_ok());
            // PQClean: its own random key; each verifies the other's signature.
            let (pq_pk, pq_sk) = pq::keypair();
            let pq_sig = pq::detached_sign(&m0, &pq_sk);
            let pq_vk_ours = ours::VerifyingKey::from_array(pq_pk.as_bytes().try_into().expect("vk len"));
            check("pqdr verifies PQClean sig", pq_vk_ours.verify(&m0, b"", &parse_sig(pq_sig.as_bytes())).is_ok());
            let our_pk_pq = pq::PublicKey::from_bytes(&vk_bytes).expect("pk");
            let our_sig_pq = pq::DetachedSignature::from_bytes(&sig_bytes).expect("sig");
            check("PQClean verifies pqdr sig", pq::verify_detached_signature(&our_sig_pq, &m0, &our_pk_pq).is_ok());
            // A wrong message fails everywhere, so the checks above can fail.
            let m1 = msg(1);
            check("pqdr rejects", vk.verify(&m1, b"", &sig).is_err());
            check("AWS-LC rejects", aws_vk.verify(&m1, &sig_bytes).is_err());
            check("PQClean rejects", pq::verify_detached_signature(&our_sig_pq, &m1, &our_pk_pq).is_err());
            eprintln!("  cross-checks passed (RustCrypto, libcrux: same key and signature; AWS-LC: same key; PQClean, AWS-LC: each other's signatures)");

            let mut out = Vec::new();
            out.push(race(cfg, Op {
                name: "keygen",
                multiple: 1,
                slow: false,
                contestants: vec![
                    entry("pqdr", |i| {
                        black_box(ours::generate_deterministic(&seed32(i, 1)));
                    }),
                    entry("PQClean AVX2", |_| {
                        black_box(pq::keypair());
                    }),
                    entry("AWS-LC", |i| {
                        black_box(awslc::PqdsaKeyPair::from_seed(&awslc::$aws_s, &seed32(i, 1)).expect("keygen"));
                    }),
                    entry("libcrux AVX2", |i| {
                        black_box(lx::generate_key_pair(seed32(i, 1)));
                    }),
                    entry("RustCrypto", |i| {
                        let k = ml_dsa::SigningKey::<Rc>::from_seed(&seed32(i, 1).into());
                        black_box(k.expanded_key().verifying_key().encode());
                    }),
                ],
            }));
            let mut aws_buf = vec![0u8; awslc::$aws_s.signature_len()];
            out.push(race(cfg, Op {
                name: "sign",
                multiple: MSGS,
                slow: false,
                contestants: vec![
                    entry("pqdr", |i| {
                        black_box(sk.sign_deterministic(&msg(i), b"").expect("sign"));
                    }),
                    entry("PQClean AVX2", |i| {
                        black_box(pq::detached_sign(&msg(i), &pq_sk));
                    }),
                    entry("AWS-LC", |i| {
                        black_box(aws_kp.sign(&msg(i), &mut aws_buf).expect("sign"));
                    }),
                    entry("libcrux AVX2", |i| {
                        black_box(lx::sign(&lx_kp.signing_key, &msg(i), b"", [0; 32]).expect("sign"));
                    }),
                    entry("RustCrypto", |i| {
                        black_box(rc_sk.expanded_key().sign_deterministic(&msg(i), b"").expect("sign"));
                    }),
                ],
            }));
            // Verify: each contestant's own signatures of the MSGS messages,
            // its key parsed from bytes in every call.
            let ours_sigs: Vec<Vec<u8>> = (0..MSGS)
                .map(|i| sk.sign_deterministic(&msg(i), b"").expect("sign").as_bytes().as_ref().to_vec())
                .collect();
            let pq_pk_bytes = pq_pk.as_bytes().to_vec();
            let pq_sigs: Vec<Vec<u8>> = (0..MSGS)
                .map(|i| pq::detached_sign(&msg(i), &pq_sk).as_bytes().to_vec())
                .collect();
            let aws_sigs: Vec<Vec<u8>> = (0..MSGS)
                .map(|i| {
                    let mut s = vec![0u8; awslc::$aws_s.signature_len()];
                    aws_kp.sign(&msg(i), &mut s).expect("sign");
                    s
                })
                .collect();
            let lx_vk_bytes: Vec<u8> = lx_kp.verification_key.as_slice().to_vec();
            let lx_sigs: Vec<Vec<u8>> = (0..MSGS)
                .map(|i| lx::sign(&lx_kp.signing_key, &msg(i), b"", [0; 32]).expect("sign").as_slice().to_vec())
                .collect();
            let rc_vk_bytes: Vec<u8> = rc_vk.encode().as_slice().to_vec();
            let rc_sigs: Vec<Vec<u8>> = (0..MSGS)
                .map(|i| rc_sk.expanded_key().sign_deterministic(&msg(i), b"").expect("sign").encode().as_slice().to_vec())
                .collect();
            let aws_pk_bytes = aws_kp.public_key().as_ref().to_vec();
            out.push(race(cfg, Op {
                name: "verify",
                multiple: 1,
                slow: false,
                contestants: vec![
                    entry("pqdr", |i| {
                        let k = ours::VerifyingKey::from_array(black_box(&vk_bytes[..]).try_into().expect("len"));
                        let s = ours::Signature::from_array(ours_sigs[i.rem_euclid(MSGS)][..].try_into().expect("len"));
                        check("pqdr verify", k.verify(&msg(i), b"", &s).is_ok());
                    }),
                    entry("PQClean AVX2", |i| {
                        let k = pq::PublicKey::from_bytes(black_box(&pq_pk_bytes)).expect("pk");
                        let s = pq::DetachedSignature::from_bytes(&pq_sigs[i.rem_euclid(MSGS)]).expect("sig");
                        check("PQClean verify", pq::verify_detached_signature(&s, &msg(i), &k).is_ok());
                    }),
                    entry("AWS-LC", |i| {
                        let k = awslc::UnparsedPublicKey::new(&awslc::$aws_v, black_box(&aws_pk_bytes[..]));
                        check("AWS-LC verify", k.verify(&msg(i), &aws_sigs[i.rem_euclid(MSGS)]).is_ok());
                    }),
                    entry("libcrux AVX2", |i| {
                        let k = lx::$lx_vk::new(black_box(&lx_vk_bytes[..]).try_into().expect("len"));
                        let s = lx::$lx_sig::new(lx_sigs[i.rem_euclid(MSGS)][..].try_into().expect("len"));
                        check("libcrux verify", lx::verify(&k, &msg(i), b"", &s).is_ok());
                    }),
                    entry("RustCrypto", |i| {
                        let k = ml_dsa::VerifyingKey::<Rc>::decode(black_box(&rc_vk_bytes[..]).try_into().expect("len"));
                        let s = ml_dsa::Signature::<Rc>::decode(rc_sigs[i.rem_euclid(MSGS)][..].try_into().expect("len")).expect("sig");
                        check("RustCrypto verify", k.verify_with_context(&msg(i), b"", &s));
                    }),
                ],
            }));
            out
        }
    };
}

mldsa_set!(
    mldsa44,
    ml_dsa_44,
    MlDsa44,
    ml_dsa_44,
    MLDSA44VerificationKey,
    MLDSA44Signature,
    mldsa44,
    ML_DSA_44,
    ML_DSA_44_SIGNING
);
mldsa_set!(
    mldsa65,
    ml_dsa_65,
    MlDsa65,
    ml_dsa_65,
    MLDSA65VerificationKey,
    MLDSA65Signature,
    mldsa65,
    ML_DSA_65,
    ML_DSA_65_SIGNING
);
mldsa_set!(
    mldsa87,
    ml_dsa_87,
    MlDsa87,
    ml_dsa_87,
    MLDSA87VerificationKey,
    MLDSA87Signature,
    mldsa87,
    ML_DSA_87,
    ML_DSA_87_SIGNING
);
