//! Instruction-count harness for the per-packet path (BENCHMARKS.md).
//!
//! `ratchet_ops <op> <n>` runs `n` operations of one kind on 1200-byte
//! datagrams (1177 bytes of data) after an untimed setup; run it under
//! `valgrind --tool=callgrind` for two values of `n` and divide the
//! difference of the totals by the difference of `n`:
//!
//! ```text
//! cargo build --release -p pqdr-ratchet --example ratchet_ops
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/ratchet_ops seal 1000
//! ```
//!
//! Operations: `seal`, `open` (in order; records sealed beforehand, so the
//! setup grows with `n` too: subtract `seal-only`), `seal-only` (the setup of
//! `open` alone), `open-rev` (like `open`, each group of 64 reversed),
//! `bare-seal`, `bare-open` (ChaCha20-Poly1305 with one reused
//! key), `step` (`KeySchedule::next_send`: the send-side chain step) and
//! `recv-step` (`KeySchedule::open_with`, in order), and `blake3-step`
//! (the bare-`blake3` one-block derivation the budget compares them with).
//! `ratchet_ops time` prints wall-clock minimums of all of them instead.
#![allow(
    clippy::std_instead_of_core,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::integer_division_remainder_used,
    clippy::print_stdout,
    missing_docs,
    reason = "measurement harness"
)]

use std::hint::black_box;

use pqdr_ratchet::blake3::Hasher;
use pqdr_ratchet::blake3::hazmat::{HasherExt, hash_derive_key_context};
use pqdr_ratchet::chacha20poly1305::aead::inout::InOutBuf;
use pqdr_ratchet::chacha20poly1305::aead::{AeadInOut, KeyInit};
use pqdr_ratchet::chacha20poly1305::{ChaCha20Poly1305, Nonce};
use pqdr_ratchet::{Config, DefaultSession, InitialSecret, Instant, KeySchedule, MlKem768, Role};

const DATAGRAM: usize = 1200;
const PAYLOAD: usize = DATAGRAM - 23;

fn cfg() -> Config {
    Config {
        ratchet_on_start: false,
        ..Config::default()
    }
}

fn init() -> InitialSecret<'static> {
    InitialSecret {
        secret: &[1; 32],
        transcript: b"",
        context: b"bench",
    }
}

/// Minimum ns per operation of `f` and of `g` over `batches` batches of
/// `per_batch` operations each, alternating `f` and `g` so both meet the
/// same machine load; the minimum filters out the other processes'
/// interference on a shared machine.
fn pair_min(
    batches: usize,
    per_batch: usize,
    f: &mut dyn FnMut() -> std::time::Duration,
    g: &mut dyn FnMut() -> std::time::Duration,
) -> (f64, f64) {
    let (mut tf, mut tg) = (Vec::with_capacity(batches), Vec::with_capacity(batches));
    for _ in 0..batches {
        tf.push(f().as_secs_f64() * 1e9 / per_batch as f64);
        tg.push(g().as_secs_f64() * 1e9 / per_batch as f64);
    }
    tf.sort_by(f64::total_cmp);
    tg.sort_by(f64::total_cmp);
    if std::env::var_os("RATCHET_OPS_MEDIAN").is_some() {
        println!(
            "  medians {:.1} / {:.1} ns (difference {:.1})",
            tf[batches / 2],
            tg[batches / 2],
            tf[batches / 2] - tg[batches / 2]
        );
    }
    (tf[0], tg[0])
}

/// `ratchet_ops time`: wall-clock minimums (see [`pair_min`]) of the send and
/// receive steps and of seal/open against the bare AEAD, batches of 64.
fn time_all() {
    const N: usize = 64;
    const BATCHES: usize = 3000;
    let mut r = pqdr_kat::Drbg::new(&[5; 48]);
    let payload = [0xabu8; PAYLOAD];
    let hdr = [pqdr_ratchet::wire::FLAGS, 0, 0, 0, 0, 0];
    let mut a: KeySchedule<MlKem768> =
        KeySchedule::new(&cfg(), Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut b: KeySchedule<MlKem768> =
        KeySchedule::new(&cfg(), Role::Responder, init(), Instant(0), &mut r).unwrap();
    let mut c = 0u32;
    let (step, recv_step) = pair_min(
        BATCHES,
        N,
        &mut || {
            let t = std::time::Instant::now();
            for _ in 0..N {
                black_box(a.next_send(Instant(0), PAYLOAD).unwrap());
            }
            t.elapsed()
        },
        &mut || {
            let t = std::time::Instant::now();
            for _ in 0..N {
                b.open_with(Instant(0), 0, Some(c), |k| Some(black_box(k.key()).len()))
                    .unwrap();
                c += 1;
            }
            t.elapsed()
        },
    );
    let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
    let mut buf = [0xabu8; PAYLOAD + 1];
    let mut i = 0u64;
    let mut sa = DefaultSession::new(&cfg(), Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut out = [0u8; DATAGRAM];
    let (seal, bare_seal) = pair_min(
        BATCHES,
        N,
        &mut || {
            let t = std::time::Instant::now();
            for _ in 0..N {
                black_box(
                    sa.seal(Instant(0), b"", black_box(&payload), &mut out, &mut r)
                        .unwrap(),
                );
            }
            t.elapsed()
        },
        &mut || {
            let t = std::time::Instant::now();
            for _ in 0..N {
                let mut nonce = [0u8; 12];
                nonce[4..].copy_from_slice(&i.to_be_bytes());
                i += 1;
                black_box(
                    cipher
                        .encrypt_inout_detached(&Nonce::from(nonce), &hdr, (&mut buf[..]).into())
                        .unwrap(),
                );
            }
            t.elapsed()
        },
    );
    // Opening: each batch opens N distinct records sealed untimed just before
    // (77 KB, L2-resident), decrypting from the record into an output buffer,
    // for both the session and the bare AEAD.
    let mut bare_recs = vec![([0xabu8; PAYLOAD + 1], [0u8; 16]); N];
    let mut sa = DefaultSession::new(&cfg(), Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut sb = DefaultSession::new(&cfg(), Role::Responder, init(), Instant(0), &mut r).unwrap();
    let mut recs = vec![[0u8; DATAGRAM]; N];
    let mut r2 = pqdr_kat::Drbg::new(&[6; 48]);
    let (open, bare_open) = pair_min(
        BATCHES,
        N,
        &mut || {
            for rec in &mut recs {
                sa.seal(Instant(0), b"", &payload, rec, &mut r).unwrap();
            }
            let t = std::time::Instant::now();
            for rec in &recs {
                black_box(sb.open(Instant(0), b"", rec, &mut out, &mut r2).unwrap());
            }
            t.elapsed()
        },
        &mut || {
            // Re-sealed untimed like the session's records.
            for (k, (rec, tag)) in bare_recs.iter_mut().enumerate() {
                let mut nonce = [0u8; 12];
                nonce[4..].copy_from_slice(&(k as u64).to_be_bytes());
                rec.fill(0xab);
                *tag = cipher
                    .encrypt_inout_detached(&Nonce::from(nonce), &hdr, (&mut rec[..]).into())
                    .unwrap()
                    .into();
            }
            let t = std::time::Instant::now();
            for (k, (rec, tag)) in bare_recs.iter().enumerate() {
                let mut nonce = [0u8; 12];
                nonce[4..].copy_from_slice(&(k as u64).to_be_bytes());
                let io = InOutBuf::new(&rec[..], &mut buf[..]).unwrap();
                cipher
                    .decrypt_inout_detached(&Nonce::from(nonce), &hdr, io, &(*tag).into())
                    .unwrap();
                black_box(&buf);
            }
            t.elapsed()
        },
    );
    println!("step {step:.1} ns, recv-step {recv_step:.1} ns");
    println!(
        "seal {seal:.1} ns, bare {bare_seal:.1} ns, overhead {:.1} ns",
        seal - bare_seal
    );
    println!(
        "open {open:.1} ns, bare {bare_open:.1} ns, overhead {:.1} ns",
        open - bare_open
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().expect("op");
    if op == "time" {
        time_all();
        return;
    }
    let n: usize = args.next().expect("n").parse().expect("n");
    let mut r = pqdr_kat::Drbg::new(&[5; 48]);
    let payload = [0xabu8; PAYLOAD];
    let hdr = [pqdr_ratchet::wire::FLAGS, 0, 0, 0, 0, 0];
    match op.as_str() {
        "seal" => {
            let mut a =
                DefaultSession::new(&cfg(), Role::Initiator, init(), Instant(0), &mut r).unwrap();
            let mut out = [0u8; DATAGRAM];
            for _ in 0..n {
                black_box(
                    a.seal(Instant(0), b"", black_box(&payload), &mut out, &mut r)
                        .unwrap(),
                );
            }
        }
        "open" | "open-rev" | "seal-only" => {
            let mut a =
                DefaultSession::new(&cfg(), Role::Initiator, init(), Instant(0), &mut r).unwrap();
            let mut b =
                DefaultSession::new(&cfg(), Role::Responder, init(), Instant(0), &mut r).unwrap();
            let mut recs = vec![[0u8; DATAGRAM]; n];
            for rec in &mut recs {
                a.seal(Instant(0), b"", &payload, rec, &mut r).unwrap();
            }
            if op == "open-rev" {
                for chunk in recs.chunks_mut(64) {
                    chunk.reverse();
                }
            }
            if op != "seal-only" {
                let mut out = [0u8; DATAGRAM];
                for rec in &recs {
                    black_box(b.open(Instant(0), b"", rec, &mut out, &mut r).unwrap());
                }
            }
        }
        "bare-seal" => {
            let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
            let mut buf = [0xabu8; PAYLOAD + 1];
            for i in 0..n as u64 {
                let mut nonce = [0u8; 12];
                nonce[4..].copy_from_slice(&i.to_be_bytes());
                black_box(
                    cipher
                        .encrypt_inout_detached(&Nonce::from(nonce), &hdr, (&mut buf[..]).into())
                        .unwrap(),
                );
            }
        }
        "bare-open" => {
            let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
            let mut rec = [0xabu8; PAYLOAD + 1];
            let nonce = Nonce::from([0u8; 12]);
            let tag = cipher
                .encrypt_inout_detached(&nonce, &hdr, (&mut rec[..]).into())
                .unwrap();
            let mut buf = [0u8; PAYLOAD + 1];
            for _ in 0..n {
                buf.copy_from_slice(&rec);
                cipher
                    .decrypt_inout_detached(&nonce, &hdr, (&mut buf[..]).into(), &tag)
                    .unwrap();
                black_box(&buf);
            }
        }
        "step" => {
            let mut a: KeySchedule<MlKem768> =
                KeySchedule::new(&cfg(), Role::Initiator, init(), Instant(0), &mut r).unwrap();
            for _ in 0..n {
                black_box(a.next_send(Instant(0), PAYLOAD).unwrap());
            }
        }
        "recv-step" => {
            let mut b: KeySchedule<MlKem768> =
                KeySchedule::new(&cfg(), Role::Responder, init(), Instant(0), &mut r).unwrap();
            for c in 0..n as u32 {
                b.open_with(Instant(0), 0, Some(c), |k| Some(black_box(k.key()).len()))
                    .unwrap();
            }
        }
        "blake3-step" => {
            // The bare-`blake3` baseline of the benches: the same one-block
            // derivation through a new context-key `Hasher` per step.
            let context_key =
                hash_derive_key_context("pqdr-ratchet v2 2026-11-25T20:00Z packet step");
            let mut ck = [7u8; 32];
            for c in 0..n as u32 {
                let mut h = Hasher::new_from_context_key(&context_key);
                h.update(&ck);
                h.update(&c.to_be_bytes());
                let mut out = [0u8; 64];
                h.finalize_xof().fill(&mut out);
                ck.copy_from_slice(&out[..32]);
                black_box(&out[32..]);
            }
        }
        _ => panic!("unknown op {op}"),
    }
}
