//! Interleaved speed ratios of pqdr-hpke against hpke-rs 0.8 (libcrux
//! backend, feature `draft-ietf-hpke-pq`) on the suites both implement:
//! every KEM of pqdr-hpke with HKDF-SHA256 and AES-128-GCM, base mode.
//!
//! Per suite and operation (`seal`: SetupBaseS + one Seal of 64 bytes;
//! `open`: SetupBaseR + one Open), each round times a batch of `--batch`
//! operations of each contestant, alternating which goes first, and records
//! the ratio hpke-rs time / pqdr time (above 1: pqdr faster); the median and
//! interquartile range over `--rounds` rounds are printed, with pqdr's median
//! time per operation. Before timing, each direction is cross-checked: pqdr
//! opens hpke-rs's ciphertext and hpke-rs opens pqdr's (exit code 2 if not).
//!
//! `cargo run --release --manifest-path crates/pqdr-hpke/peer-bench/Cargo.toml -- [--rounds 31] [--batch 20]`

use std::process::exit;
use std::time::Instant;

use hpke_rs::libcrux::HpkeLibcrux;
use hpke_rs::{Hpke, HpkePrivateKey, HpkePublicKey, Mode};
use hpke_rs_crypto::types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
use pqdr_hpke::{Aead, Kdf, Kem, PrivateKey, PublicKey, Recipient, Sender, Suite};

const INFO: &[u8] = b"pqdr-hpke race";
const AAD: &[u8] = b"aad";
const PT: [u8; 64] = [0x42; 64];

fn peer_kem(kem: Kem) -> KemAlgorithm {
    match kem {
        Kem::DhKemX25519 => KemAlgorithm::DhKem25519,
        Kem::MlKem768 => KemAlgorithm::MlKem768,
        Kem::MlKem1024 => KemAlgorithm::MlKem1024,
        Kem::XWing => KemAlgorithm::XWingDraft06,
        Kem::MlKem768P256 => KemAlgorithm::MlKem768P256,
        _ => KemAlgorithm::MlKem1024P384,
    }
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn fail(msg: &str) -> ! {
    eprintln!("cross-check failed: {msg}");
    exit(2)
}

fn median_iqr(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    (q(0.5), q(0.25), q(0.75))
}

/// Times `f` over `batch` calls, in seconds per call.
fn time(batch: usize, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..batch {
        f();
    }
    t.elapsed().as_secs_f64() / batch as f64
}

fn race(label: &str, rounds: usize, batch: usize, mut ours: impl FnMut(), mut peer: impl FnMut()) {
    ours();
    peer();
    let mut ratios = Vec::with_capacity(rounds);
    let mut own = Vec::with_capacity(rounds);
    for r in 0..rounds {
        let (a, b) = if r % 2 == 0 {
            let a = time(batch, &mut ours);
            (a, time(batch, &mut peer))
        } else {
            let b = time(batch, &mut peer);
            (time(batch, &mut ours), b)
        };
        ratios.push(b / a);
        own.push(a);
    }
    let (m, lo, hi) = median_iqr(ratios);
    let (t, _, _) = median_iqr(own);
    println!("| {label} | {:.1} µs | {m:.2} ({lo:.2}–{hi:.2}) |", t * 1e6);
}

fn main() {
    let rounds = arg("--rounds", 31);
    let batch = arg("--batch", 20);
    let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    println!("| suite, operation | pqdr time | hpke-rs / pqdr (IQR) |");
    println!("|---|---|---|");
    for kem in Kem::ALL {
        let suite = Suite {
            kem,
            kdf: Kdf::HkdfSha256,
            aead: Aead::Aes128Gcm,
        };
        let mut peer = Hpke::<HpkeLibcrux>::new(
            Mode::Base,
            peer_kem(kem),
            KdfAlgorithm::HkdfSha256,
            AeadAlgorithm::Aes128Gcm,
        );
        let our_sk = PrivateKey::generate(kem, &mut rng).expect("generate");
        let peer_kp = peer.generate_key_pair().expect("peer keygen");
        let (peer_sk, peer_pk): (HpkePrivateKey, HpkePublicKey) = peer_kp.into_keys();
        let our_pk_for_peer = HpkePublicKey::new(our_sk.public_key().as_bytes().to_vec());
        let peer_pk_for_us = PublicKey::from_bytes(kem, peer_pk.as_slice())
            .unwrap_or_else(|e| fail(&format!("{kem:?}: hpke-rs public key: {e}")));

        // Cross-checks: each side opens the other's ciphertext.
        let (enc, ct) = peer
            .seal(&our_pk_for_peer, INFO, AAD, &PT, None, None, None)
            .unwrap_or_else(|e| fail(&format!("{kem:?}: hpke-rs seal: {e:?}")));
        let mut r = Recipient::new(&suite, &our_sk, &enc, INFO, None)
            .unwrap_or_else(|e| fail(&format!("{kem:?}: pqdr decap: {e}")));
        if r.open_to_vec(AAD, &ct).ok().as_deref() != Some(&PT[..]) {
            fail(&format!("{kem:?}: pqdr cannot open hpke-rs's ciphertext"));
        }
        let (enc, mut s) =
            Sender::new(&suite, &peer_pk_for_us, INFO, None, &mut rng).expect("encap");
        let ct = s.seal_to_vec(AAD, &PT).expect("seal");
        if peer
            .open(enc.as_bytes(), &peer_sk, INFO, AAD, &ct, None, None, None)
            .ok()
            .as_deref()
            != Some(&PT[..])
        {
            fail(&format!("{kem:?}: hpke-rs cannot open pqdr's ciphertext"));
        }

        let name = format!("{kem:?}, HKDF-SHA256, AES-128-GCM");
        let mut out = [0u8; 64 + 16];
        race(
            &format!("{name}: SetupBaseS + Seal"),
            rounds,
            batch,
            || {
                let (_, mut s) =
                    Sender::new(&suite, &peer_pk_for_us, INFO, None, &mut rng).expect("encap");
                s.seal(AAD, &PT, &mut out).expect("seal");
            },
            || {
                peer.seal(&our_pk_for_peer, INFO, AAD, &PT, None, None, None)
                    .expect("seal");
            },
        );
        let (enc, mut s) =
            Sender::new(&suite, our_sk.public_key(), INFO, None, &mut rng).expect("encap");
        let ct = s.seal_to_vec(AAD, &PT).expect("seal");
        // hpke-rs opens with its own key: give it the same kind of work
        // (a ciphertext sealed to its key).
        let (peer_enc, peer_ct) = peer
            .seal(&peer_pk, INFO, AAD, &PT, None, None, None)
            .expect("seal");
        let mut pt = [0u8; 64];
        race(
            &format!("{name}: SetupBaseR + Open"),
            rounds,
            batch,
            || {
                let mut r =
                    Recipient::new(&suite, &our_sk, enc.as_bytes(), INFO, None).expect("decap");
                r.open(AAD, &ct, &mut pt).expect("open");
            },
            || {
                peer.open(&peer_enc, &peer_sk, INFO, AAD, &peer_ct, None, None, None)
                    .expect("open");
            },
        );
    }
}
