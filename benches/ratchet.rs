//! pqdr-ratchet per-packet cost against bare ChaCha20-Poly1305 with a reused
//! key, in the same run (RATCHET.md §1.13).
//!
//! `cargo bench --features bench-peers --bench ratchet`
//!
//! * `chain_step`: the per-packet ratchet work alone, no AEAD: `send` is
//!   `KeySchedule::next_send` (one packet step: `ck' ‖ mk` from `ck`, plus
//!   the send bookkeeping), `recv-inorder` is `KeySchedule::candidate` +
//!   `commit` for the next counter; `blake3-hasher-xof64` is the same
//!   one-block derivation through the `blake3` crate's `Hasher` (context key
//!   precomputed, 64-byte XOF) with a new hasher per step and no wiping: the
//!   bare-`blake3` baseline (the crate reuses one hasher per key schedule).
//! * `seal_1200`: one 1200-byte datagram (1177 bytes of application data);
//!   `bare` seals the same 1178-byte AEAD input under one fixed key.
//! * `open_1200_inorder`: opening those records in order; `bare` opens
//!   same-sized AEAD records under one key. Both open batches of 4,096
//!   distinct records sealed untimed (4.9 MB, read from the L3 cache on both
//!   sides), decrypting from the record into an output buffer.
//! * `open_reorder_64`: batches of 64 records opened in reverse order
//!   (63 stored skipped keys per batch).
//! * `open_gap_2^20`: one record 2^20 counters ahead (skip chain:
//!   ≈ 2^20/256 + 258 BLAKE3 steps), from a restored receiver each time.
//! * `ratchet_cycle`: a full ML-KEM-768 ratchet between two in-memory sessions
//!   (keygen + encaps + decaps + RS encode/decode + the control records).
#![allow(
    clippy::std_instead_of_core,
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "demo and benchmark code on public values"
)]

use std::hint::black_box;
use std::time::{Duration, Instant as StdInstant};

use chacha20poly1305::aead::inout::InOutBuf;
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pqdr_suite::ratchet::blake3;
use pqdr_suite::ratchet::blake3::hazmat::{HasherExt, hash_derive_key_context};
use pqdr_suite::ratchet::{
    Config, DefaultSession, InitialSecret, Instant, KeySchedule, MlKem768, Role,
};

const DATAGRAM: usize = 1200;
/// Application bytes in a 1200-byte record: 6 header + 1 frame type + 16 tag.
const PAYLOAD: usize = DATAGRAM - 23;
/// Records sealed (untimed) and then opened (timed) per batch, for both the
/// session and the bare AEAD: 4.9 MB, so both read their records from the L3
/// cache like a receiver draining a ring buffer, and the untimed sealing
/// between batches is amortised over many opens.
const BATCH: u64 = 4096;

fn rng() -> pqdr_kat::Drbg {
    pqdr_kat::Drbg::new(&[5; 48])
}

fn pair(cfg: &Config) -> (DefaultSession, DefaultSession) {
    let mut r = rng();
    let a = DefaultSession::new(cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let b = DefaultSession::new(cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
    (a, b)
}

fn quiet() -> Config {
    Config {
        ratchet_on_start: false,
        ..Config::default()
    }
}

fn bare_seal(c: &ChaCha20Poly1305, i: u64, buf: &mut [u8]) -> Tag {
    let mut n = [0u8; 12];
    n[4..].copy_from_slice(&i.to_be_bytes());
    c.encrypt_inout_detached(&Nonce::from(n), &[0x20, 0, 0, 0, 0, 0], buf.into())
        .unwrap()
}

fn init() -> InitialSecret<'static> {
    InitialSecret {
        secret: &[1; 32],
        transcript: b"",
        context: b"bench",
    }
}

/// The per-packet ratchet overhead measured directly (no AEAD).
fn chain_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("ratchet/chain_step");
    g.bench_function("send", |b| {
        let mut ks: KeySchedule<MlKem768> =
            KeySchedule::new(&quiet(), Role::Initiator, init(), Instant(0), &mut rng()).unwrap();
        b.iter(|| black_box(ks.next_send(Instant(0), PAYLOAD).unwrap()))
    });
    g.bench_function("recv-inorder", |b| {
        let mut ks: KeySchedule<MlKem768> =
            KeySchedule::new(&quiet(), Role::Responder, init(), Instant(0), &mut rng()).unwrap();
        let mut counter = 0u32;
        b.iter(|| {
            let cand = ks.candidate(0, Some(counter), Instant(0)).unwrap();
            black_box(cand.key());
            ks.commit(cand, Instant(0)).unwrap();
            counter += 1;
        })
    });
    g.bench_function("blake3-hasher-xof64", |b| {
        let context_key = hash_derive_key_context("pqdr-ratchet v1 2026-11-22T02:00Z packet step");
        let mut ck = [7u8; 32];
        let mut counter = 0u32;
        b.iter(|| {
            let mut h = blake3::Hasher::new_from_context_key(&context_key);
            h.update(&ck);
            h.update(&counter.to_be_bytes());
            let mut out = [0u8; 64];
            h.finalize_xof().fill(&mut out);
            ck.copy_from_slice(&out[..32]);
            counter = counter.wrapping_add(1);
            black_box(&out[32..]);
        })
    });
    g.finish();
}

fn per_packet(c: &mut Criterion) {
    let payload = [0xabu8; PAYLOAD];
    let mut g = c.benchmark_group("ratchet/seal_1200");
    g.throughput(Throughput::Bytes(DATAGRAM as u64));
    g.bench_function("bare-chacha20poly1305", |b| {
        let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
        let mut buf = [0xabu8; PAYLOAD + 1];
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            black_box(bare_seal(&cipher, i, &mut buf))
        })
    });
    g.bench_function("pqdr-ratchet", |b| {
        let (mut a, _) = pair(&quiet());
        let mut r = rng();
        let mut out = [0u8; DATAGRAM];
        b.iter(|| {
            black_box(
                a.seal(Instant(0), b"", black_box(&payload), &mut out, &mut r)
                    .unwrap(),
            )
        })
    });
    g.finish();

    let mut g = c.benchmark_group("ratchet/open_1200_inorder");
    g.throughput(Throughput::Bytes(DATAGRAM as u64));
    g.bench_function("bare-chacha20poly1305", |b| {
        b.iter_custom(bare_open_batches)
    });
    g.bench_function("pqdr-ratchet", |b| {
        b.iter_custom(|iters| open_batches(iters, &payload, false))
    });
    g.finish();

    let mut g = c.benchmark_group("ratchet/open_reorder_64");
    g.throughput(Throughput::Bytes(DATAGRAM as u64));
    g.bench_function("pqdr-ratchet", |b| {
        b.iter_custom(|iters| open_batches(iters, &payload, true))
    });
    g.finish();
}

/// Bare ChaCha20-Poly1305 under one key: opens `iters` distinct records
/// (sealed untimed in batches) from the record into an output buffer, the
/// same data movement as `Session::open`.
fn bare_open_batches(iters: u64) -> Duration {
    let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
    let mut recs = vec![([0xabu8; PAYLOAD + 1], Tag::default()); BATCH as usize];
    let mut out = [0u8; PAYLOAD + 1];
    let mut total = Duration::ZERO;
    let mut done = 0u64;
    while done < iters {
        let n = (iters - done).min(BATCH) as usize;
        for (i, (rec, tag)) in recs.iter_mut().enumerate().take(n) {
            rec.fill(0xab);
            *tag = bare_seal(&cipher, done + i as u64, rec);
        }
        let t = StdInstant::now();
        for (i, (rec, tag)) in recs[..n].iter().enumerate() {
            let mut nonce = [0u8; 12];
            nonce[4..].copy_from_slice(&(done + i as u64).to_be_bytes());
            let io = InOutBuf::new(&rec[..], &mut out[..]).unwrap();
            cipher
                .decrypt_inout_detached(&Nonce::from(nonce), &[0x20, 0, 0, 0, 0, 0], io, tag)
                .unwrap();
            black_box(&out);
        }
        total += t.elapsed();
        done += n as u64;
    }
    total
}

/// Opens `iters` records (sealed untimed in batches); reversed in groups of 64 if `reorder`.
fn open_batches(iters: u64, payload: &[u8], reorder: bool) -> Duration {
    let (mut a, mut b) = pair(&quiet());
    let mut r = rng();
    let mut out = [0u8; DATAGRAM];
    let mut total = Duration::ZERO;
    let mut done = 0u64;
    let mut recs = vec![[0u8; DATAGRAM]; BATCH as usize];
    while done < iters {
        let n = (iters - done).min(BATCH) as usize;
        for rec in recs.iter_mut().take(n) {
            a.seal(Instant(0), b"", payload, rec, &mut r).unwrap();
        }
        if reorder {
            for chunk in recs[..n].chunks_mut(64) {
                chunk.reverse();
            }
        }
        let t = StdInstant::now();
        for rec in &recs[..n] {
            black_box(b.open(Instant(0), b"", rec, &mut out, &mut r).unwrap());
        }
        total += t.elapsed();
        done += n as u64;
    }
    total
}

fn gap_and_cycle(c: &mut Criterion) {
    // A receiver state and one record 2^20 counters ahead of it.
    let (mut a, mut b) = pair(&quiet());
    let mut r = rng();
    let mut rec = [0u8; DATAGRAM];
    let n = a.seal(Instant(0), b"", b"first", &mut rec, &mut r).unwrap();
    let mut out = [0u8; DATAGRAM];
    b.open(Instant(0), b"", &rec[..n], &mut out, &mut r)
        .unwrap();
    for _ in 1..(1 << 20) {
        a.seal(Instant(0), b"", b"", &mut rec, &mut r).unwrap();
    }
    let n = a.seal(Instant(0), b"", b"far", &mut rec, &mut r).unwrap();
    let far = rec[..n].to_vec();
    let mut state = vec![0u8; pqdr_suite::ratchet::max_state_len(16, 256)];
    let len = b.export_state(0, Instant(0), &mut state).unwrap();
    state.truncate(len);
    let cfg = quiet();
    let mut g = c.benchmark_group("ratchet/open_gap_2^20");
    g.sample_size(20);
    g.bench_function("pqdr-ratchet", |bch| {
        bch.iter_batched(
            || DefaultSession::import_state(&cfg, &state, 0, Instant(0)).unwrap(),
            |mut s| {
                black_box(
                    s.open(Instant(0), b"", &far, &mut [0u8; DATAGRAM], &mut rng())
                        .unwrap(),
                )
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();

    let cfg = Config {
        ratchet_on_start: false,
        min_ratchet_interval_ms: 0,
        ..Config::default()
    };
    let mut g = c.benchmark_group("ratchet/ratchet_cycle");
    g.sample_size(20);
    g.bench_function("ml-kem-768", |bch| {
        let (mut a, mut b) = pair(&cfg);
        let mut r = rng();
        let (mut pkt, mut out) = ([0u8; DATAGRAM], [0u8; DATAGRAM]);
        let mut now = 0u64;
        bch.iter(|| {
            let e = a.status(Instant(now)).epoch;
            // The owner of the next ratchet alternates; ask both.
            a.request_ratchet();
            b.request_ratchet();
            while a.status(Instant(now)).epoch == e || b.status(Instant(now)).epoch == e {
                now += 1;
                while let Some(n) = a.poll_transmit(Instant(now), b"", &mut pkt, &mut r) {
                    b.open(Instant(now), b"", &pkt[..n], &mut out, &mut r)
                        .unwrap();
                }
                while let Some(n) = b.poll_transmit(Instant(now), b"", &mut pkt, &mut r) {
                    a.open(Instant(now), b"", &pkt[..n], &mut out, &mut r)
                        .unwrap();
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, chain_step, per_packet, gap_and_cycle);
criterion_main!(benches);
