//! pqdr-ratchet per-packet cost against bare ChaCha20-Poly1305 with a reused
//! key, in the same run (docs/protocol/ratchet.md §1.13), and the cost of forged packets
//! under the default pre-authentication budget (§1.8).
//!
//! `cargo bench --no-default-features --features bench-peers,ratchet --bench ratchet`
//!
//! * `chain_step`: the per-packet ratchet work alone, no AEAD: `send` is
//!   `KeySchedule::next_send` (one packet step: `ck' ‖ mk` from `ck`, plus
//!   the send bookkeeping), `recv-inorder` is `KeySchedule::open_with` for
//!   the next counter (lookup, one packet step, an AEAD closure that only
//!   reads the key, commit); `blake3-hasher-xof64` is the same
//!   one-block derivation through the `blake3` crate's `Hasher` (context key
//!   precomputed, 64-byte XOF) with a new hasher per step and no wiping: the
//!   bare-`blake3` baseline (the crate reuses one hasher per key schedule).
//! * `seal_1200`: one 1200-byte datagram (1177 bytes of application data);
//!   `bare` seals the same 1178-byte AEAD input under one fixed key.
//!   `seal_64`: the same with 64 bytes of application data (87-byte record,
//!   65-byte AEAD input), where the chain step weighs most.
//! * `open_1200_inorder` / `open_64`: opening those records in order; `bare`
//!   opens same-sized AEAD records under one key. Both open batches of 4,096
//!   distinct records sealed untimed (4.9 MB for 1200 bytes, read from the
//!   L3 cache on both sides), decrypting from the record into an output
//!   buffer.
//! * `open_reorder_64`: batches of 64 records (1200 bytes) opened in reverse
//!   order (63 stored skipped keys per batch).
//! * `open_forged_1200` / `open_forged_64`: a sustained flood of forged
//!   records of the same sizes against one receiver with the default
//!   pre-authentication budget (`unauth_derivation_budget` = 2^20 steps/s)
//!   and `max_jump`; its clock advances 1 ms per 1,000 packets (a flood of
//!   10^6 packets/s). Random bodies; the epoch byte is the live epoch's for
//!   3/4 of the packets and uniformly random for 1/4; the counter is, in
//!   thirds, 0–3 ahead of the next expected one, 4–256 ahead, and 257 to
//!   `max_jump` ahead. The time per packet is the amortised cost of a forgery;
//!   compare it with the in-order `open` of the same size. The first two
//!   thirds are small gaps (`c ≤ next + W`, W = 1024): they are never charged
//!   to the budget and cost at most 16 + 2 chain steps each from the
//!   checkpoints of docs/protocol/ratchet.md §1.8.2; only the last third
//!   drains the budget and is then refused before any derivation.
//! * `open_forged_repeat_1200`: one forged record 100,000 counters ahead,
//!   opened again and again: the receiver reuses its cached derivation (no
//!   new steps), so each repeat costs the header checks and the tag check.
//!   Before the groups run, `check_forgery_accounting` asserts that under a
//!   small budget repeats keep being tried while distinct forgeries are
//!   refused (so the cache is what the figure shows).
//! * `paired` (printed, not a criterion group; skipped when a filter is given
//!   unless it contains `paired`): the same comparisons as alternating
//!   batches, session and baseline back to back for 300 rounds, so that both
//!   sides of each ratio see the same machine load: the minimum per-op time of
//!   each side, their ratio, and the median of the per-round ratios. On a
//!   shared machine the criterion medians of two groups measured a minute
//!   apart can move by more than the 10 % being checked; these cannot.
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

use core::hint::black_box;
use std::collections::BTreeMap;
use std::time::{Duration, Instant as StdInstant};

use chacha20poly1305::aead::inout::InOutBuf;
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pqdr_suite::ratchet::blake3;
use pqdr_suite::ratchet::blake3::hazmat::{HasherExt, hash_derive_key_context};
use pqdr_suite::ratchet::wire::{FLAGS, HEADER_LEN, OVERHEAD};
use pqdr_suite::ratchet::{
    Config, DefaultSession, Error, InitialSecret, Instant, KeySchedule, MlKem768, Role,
};

const DATAGRAM: usize = 1200;
/// Application bytes in a 1200-byte record: 6 header + 1 frame type + 16 tag.
const PAYLOAD: usize = DATAGRAM - OVERHEAD - 1;
/// Application bytes of the small-record groups (`seal_64`, `open_64`).
const SMALL: usize = 64;
/// Records sealed (untimed) and then opened (timed) per batch, for both the
/// session and the bare AEAD: 4.9 MB at 1200 bytes, so both read their
/// records from the L3 cache like a receiver draining a ring buffer, and the
/// untimed sealing between batches is amortised over many opens.
const BATCH: u64 = 4096;
/// Forged packets per millisecond of the receiver's clock (10^6 per second).
const FLOOD_PER_MS: u64 = 1000;
/// Storage key of the exported receiver in `open_gap_2^20`.
const STORAGE_KEY: &[u8] = b"bench storage key";

fn rng() -> pqdr_kat::Drbg {
    pqdr_kat::Drbg::new(&[5; 48])
}

fn pair(cfg: &Config) -> (DefaultSession, DefaultSession) {
    let mut r = rng();
    let a = DefaultSession::new(cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let b = DefaultSession::new(cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
    (a, b)
}

/// `Config::default()` without the bootstrap ratchet: every pre-auth limit
/// (`unauth_derivation_budget`, `max_jump`, `auth_failure_limit`) is the default.
fn quiet() -> Config {
    Config {
        ratchet_on_start: false,
        ..Config::default()
    }
}

/// The 6-byte header of epoch 0, counter 0: the AD of every bare record.
const BARE_AD: [u8; HEADER_LEN] = [FLAGS, 0, 0, 0, 0, 0];

fn bare_seal(c: &ChaCha20Poly1305, i: u64, buf: &mut [u8]) -> Tag {
    let mut n = [0u8; 12];
    n[4..].copy_from_slice(&i.to_be_bytes());
    c.encrypt_inout_detached(&Nonce::from(n), &BARE_AD, buf.into())
        .unwrap()
}

fn init() -> InitialSecret<'static> {
    InitialSecret {
        secret: &[1; 32],
        transcript: b"",
        context: b"bench",
    }
}

/// SplitMix64: the forged headers' randomness (public, fast, reproducible).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
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
            ks.open_with(Instant(0), 0, Some(counter), |k| {
                Some(black_box(k.key()).len())
            })
            .unwrap();
            counter += 1;
        })
    });
    g.bench_function("blake3-hasher-xof64", |b| {
        let context_key = hash_derive_key_context("pqdr-ratchet v2 2026-11-25T20:00Z packet step");
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

/// `seal_<n>` and `open_<n>` groups for `payload` bytes of application data.
fn seal_open(c: &mut Criterion, seal_group: &str, open_group: &str, payload: usize) {
    let data = vec![0xabu8; payload];
    let record = payload + OVERHEAD + 1;
    let mut g = c.benchmark_group(seal_group);
    g.throughput(Throughput::Bytes(record as u64));
    g.bench_function("bare-chacha20poly1305", |b| {
        let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
        let mut buf = vec![0xabu8; payload + 1];
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
                a.seal(Instant(0), b"", black_box(&data), &mut out, &mut r)
                    .unwrap(),
            )
        })
    });
    g.finish();

    let mut g = c.benchmark_group(open_group);
    g.throughput(Throughput::Bytes(record as u64));
    g.bench_function("bare-chacha20poly1305", |b| {
        b.iter_custom(|iters| bare_open_batches(iters, payload))
    });
    g.bench_function("pqdr-ratchet", |b| {
        b.iter_custom(|iters| open_batches(iters, &data, false))
    });
    g.finish();
}

fn per_packet(c: &mut Criterion) {
    seal_open(c, "ratchet/seal_1200", "ratchet/open_1200_inorder", PAYLOAD);
    seal_open(c, "ratchet/seal_64", "ratchet/open_64", SMALL);

    let payload = [0xabu8; PAYLOAD];
    let mut g = c.benchmark_group("ratchet/open_reorder_64");
    g.throughput(Throughput::Bytes(DATAGRAM as u64));
    g.bench_function("pqdr-ratchet", |b| {
        b.iter_custom(|iters| open_batches(iters, &payload, true))
    });
    g.finish();
}

/// Bare ChaCha20-Poly1305 under one key: opens `iters` distinct records of
/// `payload + 1` AEAD bytes (sealed untimed in batches) from the record into
/// an output buffer, the same data movement as `Session::open`.
fn bare_open_batches(iters: u64, payload: usize) -> Duration {
    let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
    let mut recs = vec![(vec![0xabu8; payload + 1], Tag::default()); BATCH as usize];
    let mut out = vec![0u8; payload + 1];
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
                .decrypt_inout_detached(&Nonce::from(nonce), &BARE_AD, io, tag)
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
    let len = payload.len() + OVERHEAD + 1;
    let mut recs = vec![vec![0u8; len]; BATCH as usize];
    while done < iters {
        let n = (iters - done).min(BATCH) as usize;
        for rec in recs.iter_mut().take(n) {
            let m = a.seal(Instant(0), b"", payload, rec, &mut r).unwrap();
            assert_eq!(m, len);
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

/// A receiver under a sustained flood of forged records of one size.
struct Flood {
    rx: DefaultSession,
    rng: pqdr_kat::Drbg,
    mix: Mix,
    /// Forged records (random bodies; headers rewritten for every batch).
    recs: Vec<Vec<u8>>,
    /// The receiver's next expected counter and live epoch byte.
    next: u64,
    epoch_lo: u8,
    max_jump: u64,
    /// Packets opened so far: the clock is `sent / FLOOD_PER_MS` ms.
    sent: u64,
    out: Vec<u8>,
}

impl Flood {
    /// A receiver that has opened 1,000 genuine records (so its window is
    /// not at 0), facing forged records of `len` bytes.
    fn new(len: usize) -> Self {
        let cfg = quiet();
        let (mut a, mut rx) = pair(&cfg);
        let mut r = rng();
        let (mut pkt, mut out) = ([0u8; DATAGRAM], vec![0u8; DATAGRAM]);
        for _ in 0..1000 {
            let n = a
                .seal(Instant(0), b"", b"genuine", &mut pkt, &mut r)
                .unwrap();
            rx.open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
                .unwrap();
        }
        let mut recs = vec![vec![0u8; len]; BATCH as usize];
        let mut body = pqdr_kat::Drbg::new(&[6; 48]);
        for rec in &mut recs {
            body.fill(rec);
        }
        Flood {
            epoch_lo: rx.status(Instant(0)).epoch as u8,
            rx,
            rng: r,
            mix: Mix(0x5eed),
            recs,
            next: 1000,
            max_jump: u64::from(cfg.max_jump),
            sent: 0,
            out,
        }
    }

    /// Writes a forged header (see the module doc for the mix).
    fn forge(&mut self, i: usize) {
        let x = self.mix.next();
        let epoch_lo = if x & 3 == 0 {
            (x >> 8) as u8
        } else {
            self.epoch_lo
        };
        let y = x >> 32;
        let ahead = match (x >> 16) % 3 {
            0 => y % 4,
            1 => 4 + y % 253,
            _ => 257 + y % (self.max_jump - 256),
        };
        let c = (self.next + ahead) as u32;
        let rec = &mut self.recs[i];
        rec[0] = FLAGS;
        rec[1] = epoch_lo;
        rec[2..6].copy_from_slice(&c.to_be_bytes());
    }

    /// Opens `iters` forged records (headers forged untimed, in batches),
    /// advancing the clock 1 ms per `FLOOD_PER_MS` packets.
    fn run(&mut self, iters: u64, mut tally: Option<&mut BTreeMap<String, u64>>) -> Duration {
        let mut total = Duration::ZERO;
        let mut done = 0u64;
        while done < iters {
            let n = (iters - done).min(BATCH) as usize;
            for i in 0..n {
                self.forge(i);
            }
            let t = StdInstant::now();
            for rec in &self.recs[..n] {
                let now = Instant(self.sent / FLOOD_PER_MS);
                self.sent += 1;
                let r = self.rx.open(now, b"", rec, &mut self.out, &mut self.rng);
                if let Some(tl) = tally.as_deref_mut() {
                    let k = match r {
                        Ok(_) => "accepted (forgery!)".to_string(),
                        Err(e) => format!("{e:?}"),
                    };
                    *tl.entry(k).or_default() += 1;
                }
                black_box(r.is_err());
            }
            total += t.elapsed();
            done += n as u64;
        }
        total
    }
}

/// Under a small budget at a fixed clock: 10,000 repeats of one forged
/// record far ahead all reach the AEAD (`Unauthentic`: the cached derivation,
/// no new charge), while a few distinct forged records are already refused
/// for the budget (`TooFarAhead`): so `open_forged_repeat_1200` measures the
/// cache, and the check could fail.
fn check_forgery_accounting() {
    let cfg = Config {
        unauth_derivation_budget: 2_000,
        ..quiet()
    };
    let (mut a, mut rx) = pair(&cfg);
    let mut r = rng();
    let (mut pkt, mut out) = ([0u8; DATAGRAM], [0u8; DATAGRAM]);
    let n = a
        .seal(Instant(0), b"", b"genuine", &mut pkt, &mut r)
        .unwrap();
    rx.open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
        .unwrap();
    let forged = |c: u32| {
        let mut rec = [0x5au8; DATAGRAM];
        rec[0] = FLAGS;
        rec[1] = 0;
        rec[2..6].copy_from_slice(&c.to_be_bytes());
        rec
    };
    let rec = forged(1 + 100_000);
    for i in 0..10_000 {
        let e = rx
            .open(Instant(0), b"", &rec, &mut out, &mut r)
            .unwrap_err();
        assert_eq!(
            e,
            Error::Unauthentic,
            "repeat {i} of one forgery was charged again"
        );
    }
    let refused = (1..10u32).any(|i| {
        rx.open(
            Instant(0),
            b"",
            &forged(1 + 100_000 + 300 * i),
            &mut out,
            &mut r,
        ) == Err(Error::TooFarAhead)
    });
    assert!(
        refused,
        "distinct forgeries were never refused for the budget"
    );
}

/// Criterion's positional filter, if any (the arguments after the options).
fn filter_given() -> Option<String> {
    // Options of the criterion CLI that take a value.
    const WITH_VALUE: &[&str] = &[
        "--warm-up-time",
        "--measurement-time",
        "--sample-size",
        "--save-baseline",
        "--baseline",
        "--baseline-lenient",
        "--load-baseline",
        "--profile-time",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--nresamples",
        "--output-format",
        "--plotting-backend",
        "--color",
        "--format",
    ];
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        if WITH_VALUE.contains(&args[i].as_str()) {
            i += 2;
            continue;
        }
        if !args[i].starts_with('-') {
            return Some(args[i].clone());
        }
        i += 1;
    }
    None
}

/// Runs `a` and `b` (each: one timed batch of `n` operations) alternately
/// for `rounds` rounds and prints the minimum per-op time of each, their
/// ratio, and the median of the per-round ratios.
fn paired(
    name: &str,
    rounds: usize,
    n: u64,
    mut a: impl FnMut(u64) -> Duration,
    mut b: impl FnMut(u64) -> Duration,
) {
    let (mut ta, mut tb, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let x = a(n).as_nanos() as f64 / n as f64;
        let y = b(n).as_nanos() as f64 / n as f64;
        ta.push(x);
        tb.push(y);
        ratios.push(x / y);
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    ratios.sort_by(f64::total_cmp);
    let (ma, mb) = (min(&ta), min(&tb));
    eprintln!(
        "paired {name}: min {ma:.1} vs {mb:.1} ns/op, ratio of minimums {:.3}, \
         median of {rounds} per-round ratios {:.3} (quartiles {:.3}-{:.3})",
        ma / mb,
        ratios[rounds / 2],
        ratios[rounds / 4],
        ratios[rounds * 3 / 4],
    );
}

/// The budget comparisons of docs/protocol/ratchet.md §1.13 as alternating batches.
fn paired_ratios(_: &mut Criterion) {
    if filter_given().is_some_and(|f| !f.contains("paired")) {
        return;
    }
    const ROUNDS: usize = 300;
    // Chain steps against the bare `blake3` derivation.
    let context_key = hash_derive_key_context("pqdr-ratchet v2 2026-11-25T20:00Z packet step");
    let mut ck = [7u8; 32];
    let mut ctr = 0u32;
    let mut bare_step = |n: u64| {
        let t = StdInstant::now();
        for _ in 0..n {
            let mut h = blake3::Hasher::new_from_context_key(&context_key);
            h.update(&ck);
            h.update(&ctr.to_be_bytes());
            let mut out = [0u8; 64];
            h.finalize_xof().fill(&mut out);
            ck.copy_from_slice(&out[..32]);
            ctr = ctr.wrapping_add(1);
            black_box(&out[32..]);
        }
        t.elapsed()
    };
    let mut tx: KeySchedule<MlKem768> =
        KeySchedule::new(&quiet(), Role::Initiator, init(), Instant(0), &mut rng()).unwrap();
    let send = |n: u64| {
        let t = StdInstant::now();
        for _ in 0..n {
            black_box(tx.next_send(Instant(0), PAYLOAD).unwrap());
        }
        t.elapsed()
    };
    paired(
        "chain_step/send vs blake3-hasher-xof64",
        ROUNDS,
        4096,
        send,
        &mut bare_step,
    );
    let mut rx: KeySchedule<MlKem768> =
        KeySchedule::new(&quiet(), Role::Responder, init(), Instant(0), &mut rng()).unwrap();
    let mut counter = 0u32;
    let recv = |n: u64| {
        let t = StdInstant::now();
        for _ in 0..n {
            rx.open_with(Instant(0), 0, Some(counter), |k| {
                Some(black_box(k.key()).len())
            })
            .unwrap();
            counter += 1;
        }
        t.elapsed()
    };
    paired(
        "chain_step/recv-inorder vs blake3-hasher-xof64",
        ROUNDS,
        4096,
        recv,
        &mut bare_step,
    );

    for (payload, seal_name, open_name) in [
        (PAYLOAD, "seal_1200", "open_1200_inorder"),
        (SMALL, "seal_64", "open_64"),
    ] {
        let data = vec![0xabu8; payload];
        let cipher = ChaCha20Poly1305::new(&[3u8; 32].into());
        let mut buf = vec![0xabu8; payload + 1];
        let mut i = 0u64;
        let bare = |n: u64| {
            let t = StdInstant::now();
            for _ in 0..n {
                i += 1;
                black_box(bare_seal(&cipher, i, &mut buf));
            }
            t.elapsed()
        };
        let (mut a, _) = pair(&quiet());
        let mut r = rng();
        let mut out = [0u8; DATAGRAM];
        let session = |n: u64| {
            let t = StdInstant::now();
            for _ in 0..n {
                black_box(
                    a.seal(Instant(0), b"", black_box(&data), &mut out, &mut r)
                        .unwrap(),
                );
            }
            t.elapsed()
        };
        paired(&format!("{seal_name} vs bare"), ROUNDS, 256, session, bare);
        paired(
            &format!("{open_name} vs bare"),
            ROUNDS,
            1024,
            |n| open_batches(n, &data, false),
            |n| bare_open_batches(n, payload),
        );
    }
}

fn forged(c: &mut Criterion) {
    check_forgery_accounting();
    for (group, len) in [
        ("ratchet/open_forged_1200", DATAGRAM),
        ("ratchet/open_forged_64", SMALL + OVERHEAD + 1),
    ] {
        // Set up on first use (a filtered run skips it).
        let mut flood: Option<Flood> = None;
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Bytes(len as u64));
        g.bench_function("pqdr-ratchet", |b| {
            let flood = flood.get_or_insert_with(|| {
                let mut f = Flood::new(len);
                // One second of flood untimed: drains the initially full
                // bucket, and shows where the forgeries end.
                let mut tally = BTreeMap::new();
                f.run(1_000_000, Some(&mut tally));
                eprintln!(
                    "{group}: outcome of 10^6 forged records after 1,000 genuine ones: {tally:?}"
                );
                f
            });
            b.iter_custom(|iters| flood.run(iters, None))
        });
        g.finish();
    }

    let mut g = c.benchmark_group("ratchet/open_forged_repeat_1200");
    g.throughput(Throughput::Bytes(DATAGRAM as u64));
    let mut flood = Flood::new(DATAGRAM);
    let c0 = (flood.next + 100_000) as u32;
    let rec = &mut flood.recs[0];
    rec[0] = FLAGS;
    rec[1] = flood.epoch_lo;
    rec[2..6].copy_from_slice(&c0.to_be_bytes());
    let rec = flood.recs[0].clone();
    g.bench_function("pqdr-ratchet", |b| {
        b.iter(|| {
            let now = Instant(flood.sent / FLOOD_PER_MS);
            flood.sent += 1;
            let r = flood
                .rx
                .open(now, b"", &rec, &mut flood.out, &mut flood.rng);
            debug_assert_eq!(r, Err(Error::Unauthentic));
            black_box(r.is_err())
        })
    });
    g.finish();
}

/// A receiver's sealed state and one record 2^20 counters ahead of it.
fn gap_setup() -> (Vec<u8>, Vec<u8>) {
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
    let state = b
        .export_state_to_vec(0, STORAGE_KEY, Instant(0), &mut r)
        .unwrap();
    (state, rec[..n].to_vec())
}

fn gap_and_cycle(c: &mut Criterion) {
    let cfg = quiet();
    let mut setup: Option<(Vec<u8>, Vec<u8>)> = None;
    let mut g = c.benchmark_group("ratchet/open_gap_2^20");
    g.sample_size(20);
    g.bench_function("pqdr-ratchet", |bch| {
        let (state, far) = setup.get_or_insert_with(gap_setup);
        bch.iter_batched(
            || {
                let mut blob = state.clone();
                // The session id travels in clear in the blob's header.
                let id = state[6..22].try_into().unwrap();
                DefaultSession::import_state(&cfg, STORAGE_KEY, id, &mut blob, 0, Instant(0))
                    .unwrap()
            },
            |mut s| {
                black_box(
                    s.open(Instant(0), b"", far, &mut [0u8; DATAGRAM], &mut rng())
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

criterion_group!(
    benches,
    chain_step,
    per_packet,
    paired_ratios,
    forged,
    gap_and_cycle
);
criterion_main!(benches);
