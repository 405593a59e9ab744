//! Basic two-party behaviour of the record layer.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use common::{ToyKem, pair, rng};
use pqdr_ratchet::{Config, Error, Instant, Mode, Session};

type S = Session<ToyKem>;

/// Lossless ping-pong with control packets; returns completed ratchets.
fn run(cfg: &Config, rounds: u64, step_ms: u64) -> (S, S) {
    let mut r = rng(1);
    let (mut a, mut b): (S, S) = pair(cfg, Instant(0), &mut r);
    let mut pkt = [0u8; 2000];
    let mut out = [0u8; 2000];
    for i in 0..rounds {
        let now = Instant(i * step_ms);
        let msg = i.to_be_bytes();
        let n = a.seal(now, b"cid", &msg, &mut pkt, &mut r).unwrap();
        let o = b.open(now, b"cid", &pkt[..n], &mut out, &mut r).unwrap();
        assert_eq!(&out[..o.len], &msg);
        let n = b.seal(now, b"cid", &msg, &mut pkt, &mut r).unwrap();
        let o = a.open(now, b"cid", &pkt[..n], &mut out, &mut r).unwrap();
        assert_eq!(&out[..o.len], &msg);
        for _ in 0..4 {
            while let Some(n) = a.poll_transmit(now, b"cid", &mut pkt, &mut r) {
                let o = b.open(now, b"cid", &pkt[..n], &mut out, &mut r).unwrap();
                assert_eq!(o.len, 0);
            }
            while let Some(n) = b.poll_transmit(now, b"cid", &mut pkt, &mut r) {
                let o = a.open(now, b"cid", &pkt[..n], &mut out, &mut r).unwrap();
                assert_eq!(o.len, 0);
            }
        }
    }
    (a, b)
}

#[test]
fn bootstrap_ratchet_completes() {
    let cfg = Config::default();
    let (a, b) = run(&cfg, 20, 10);
    let (sa, sb) = (a.status(Instant(200)), b.status(Instant(200)));
    println!("{sa:?}\n{sb:?}");
    assert_eq!(sa.epoch, 1);
    assert_eq!(sb.epoch, 1);
    assert!(sa.confirmed && sb.confirmed);
}

#[test]
fn periodic_ratchets_alternate_owner() {
    let cfg = Config { rekey_after_ms: 1000, min_ratchet_interval_ms: 100, ..Config::default() };
    let (a, b) = run(&cfg, 2000, 10);
    let (sa, sb) = (a.status(Instant(20_000)), b.status(Instant(20_000)));
    println!("{sa:?}\n{sb:?}");
    assert!(sa.epoch >= 15, "{sa:?}");
    assert!(sa.epoch.abs_diff(sb.epoch) <= 1);
}

#[test]
fn stream_mode_roundtrip() {
    let cfg = Config { mode: Mode::Stream, rekey_after_ms: 500, min_ratchet_interval_ms: 50, ..Config::default() };
    let (a, b) = run(&cfg, 300, 10);
    assert!(a.status(Instant(3000)).epoch >= 3);
    assert!(b.status(Instant(3000)).epoch >= 3);
}

#[test]
fn tamper_replay_and_errors() {
    let cfg = Config::default();
    let mut r = rng(2);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let mut pkt = [0u8; 1500];
    let mut out = [0u8; 1500];
    let n = a.seal(Instant(0), b"", b"hello", &mut pkt, &mut r).unwrap();
    let mut bad = pkt;
    bad[10] ^= 1;
    assert_eq!(b.open(Instant(0), b"", &bad[..n], &mut out, &mut r), Err(Error::Unauthentic));
    assert_eq!(b.open(Instant(0), b"x", &pkt[..n], &mut out, &mut r), Err(Error::Unauthentic));
    let o = b.open(Instant(0), b"", &pkt[..n], &mut out, &mut r).unwrap();
    assert_eq!(&out[..o.len], b"hello");
    assert_eq!(b.open(Instant(0), b"", &pkt[..n], &mut out, &mut r), Err(Error::Replay));
    assert_eq!(b.open(Instant(0), b"", &pkt[..5], &mut out, &mut r), Err(Error::Malformed));
    let mut far = pkt;
    far[2..6].copy_from_slice(&u32::MAX.to_be_bytes());
    assert_eq!(b.open(Instant(0), b"", &far[..n], &mut out, &mut r), Err(Error::TooFarAhead));
    let mut ep = pkt;
    ep[1] = 7;
    assert_eq!(b.open(Instant(0), b"", &ep[..n], &mut out, &mut r), Err(Error::UnknownEpoch));
    assert_eq!(b.status(Instant(0)).auth_failures, 2);
}
