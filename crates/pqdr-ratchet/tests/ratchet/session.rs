//! Basic two-party behaviour of the record layer.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use crate::common;
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
    let cfg = Config {
        rekey_after_ms: 1000,
        min_ratchet_interval_ms: 100,
        ..Config::default()
    };
    let (a, b) = run(&cfg, 2000, 10);
    let (sa, sb) = (a.status(Instant(20_000)), b.status(Instant(20_000)));
    println!("{sa:?}\n{sb:?}");
    assert!(sa.epoch >= 15, "{sa:?}");
    assert!(sa.epoch.abs_diff(sb.epoch) <= 1);
}

#[test]
fn stream_mode_roundtrip() {
    let cfg = Config {
        mode: Mode::Stream,
        rekey_after_ms: 500,
        min_ratchet_interval_ms: 50,
        ..Config::default()
    };
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
    assert_eq!(
        b.open(Instant(0), b"", &bad[..n], &mut out, &mut r),
        Err(Error::Unauthentic)
    );
    assert_eq!(
        b.open(Instant(0), b"x", &pkt[..n], &mut out, &mut r),
        Err(Error::Unauthentic)
    );
    let o = b
        .open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
        .unwrap();
    assert_eq!(&out[..o.len], b"hello");
    assert_eq!(
        b.open(Instant(0), b"", &pkt[..n], &mut out, &mut r),
        Err(Error::Replay)
    );
    assert_eq!(
        b.open(Instant(0), b"", &pkt[..5], &mut out, &mut r),
        Err(Error::Malformed)
    );
    let mut far = pkt;
    far[2..6].copy_from_slice(&u32::MAX.to_be_bytes());
    assert_eq!(
        b.open(Instant(0), b"", &far[..n], &mut out, &mut r),
        Err(Error::TooFarAhead)
    );
    let mut ep = pkt;
    ep[1] = 7;
    assert_eq!(
        b.open(Instant(0), b"", &ep[..n], &mut out, &mut r),
        Err(Error::UnknownEpoch)
    );
    assert_eq!(b.status(Instant(0)).auth_failures, 2);
}

#[cfg(feature = "mlkem")]
fn mlkem_cycle<K: pqdr_ratchet::RatchetKem>() -> u64 {
    let cfg = Config {
        rekey_after_ms: 200,
        min_ratchet_interval_ms: 50,
        ..Config::default()
    };
    let mut r = rng(7);
    let (a, b): (Session<K>, Session<K>) = pair(&cfg, Instant(0), &mut r);
    let mut p = [a, b];
    let mut pkt = [0u8; 1500];
    let mut out = [0u8; 1500];
    for t in 0..300u64 {
        let now = Instant(t * 10);
        for first in [true, false] {
            let (l, rr) = p.split_at_mut(1);
            let (s, o) = if first {
                (&mut l[0], &mut rr[0])
            } else {
                (&mut rr[0], &mut l[0])
            };
            let room = s.max_payload(1200);
            let msg = vec![t as u8; room];
            let n = s.seal(now, b"", &msg, &mut pkt[..1200], &mut r).unwrap();
            let o1 = o.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
            assert_eq!(&out[..o1.len], &msg[..]);
            while let Some(n) = s.poll_transmit(now, b"", &mut pkt[..1200], &mut r) {
                o.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
            }
        }
    }
    let (sa, sb) = (p[0].status(Instant(3000)), p[1].status(Instant(3000)));
    assert!(sa.epoch.abs_diff(sb.epoch) <= 1);
    sa.ratchets_completed.min(sb.ratchets_completed)
}

#[cfg(feature = "mlkem")]
#[test]
fn mlkem_512_768_1024_ratchet() {
    let n = [
        mlkem_cycle::<pqdr_ratchet::MlKem512>(),
        mlkem_cycle::<pqdr_ratchet::MlKem768>(),
        mlkem_cycle::<pqdr_ratchet::MlKem1024>(),
    ];
    println!("ratchets completed in 3 s (ML-KEM-512/768/1024): {n:?}");
    assert!(n.iter().all(|&x| x >= 10), "{n:?}");
}

/// Drives two sessions; `drop_b_to_a(t)` decides whether B's records reach A.
fn drive<K: pqdr_ratchet::RatchetKem>(
    cfg: &Config,
    ticks: u64,
    drop_b_to_a: impl Fn(u64) -> bool,
) -> (Session<K>, Session<K>, Vec<pqdr_ratchet::Event>) {
    let mut r = rng(21);
    let (a, b): (Session<K>, Session<K>) = pair(cfg, Instant(0), &mut r);
    let mut p = [a, b];
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let mut events = Vec::new();
    for t in 0..ticks {
        let now = Instant(t * 10);
        for first in [true, false] {
            let (l, rr) = p.split_at_mut(1);
            let (s, o) = if first {
                (&mut l[0], &mut rr[0])
            } else {
                (&mut rr[0], &mut l[0])
            };
            let lost = !first && drop_b_to_a(t * 10);
            let n = s.seal(now, b"", b"data", &mut pkt, &mut r).unwrap();
            if !lost {
                o.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
            }
            while let Some(n) = s.poll_transmit(now, b"", &mut pkt, &mut r) {
                if !lost {
                    o.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
                }
            }
            s.handle_timeout(now, &mut r);
            if first {
                while let Some(e) = s.poll_event() {
                    events.push(e);
                }
            }
        }
    }
    let [a, b] = p;
    (a, b, events)
}

#[test]
fn invalid_ek_aborts_and_retries() {
    use pqdr_ratchet::{AbortReason, Event};
    let cfg = Config {
        rekey_after_ms: 300,
        min_ratchet_interval_ms: 50,
        ..Config::default()
    };
    let (a, b, ev) = drive::<common::FlakyKem>(&cfg, 400, |_| false);
    let aborted = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::RatchetAborted {
                    reason: AbortReason::Peer
                }
            )
        })
        .count();
    let (ea, eb) = (a.status(Instant(4000)).epoch, b.status(Instant(4000)).epoch);
    println!("initiator saw {aborted} peer aborts; epochs {ea}/{eb}");
    assert!(aborted >= 1, "an invalid ek must abort the attempt");
    assert!(
        ea >= 3 && ea.abs_diff(eb) <= 1,
        "ratchets continue after aborts: {ea}/{eb}"
    );
}

#[test]
fn ratchet_timeout_aborts_then_recovers() {
    use pqdr_ratchet::{AbortReason, Event};
    let cfg = Config {
        ratchet_timeout_ms: 500,
        min_ratchet_interval_ms: 100,
        ..Config::default()
    };
    // B's records are lost for the first 1.5 s: the bootstrap ratchet times out.
    let (a, b, ev) = drive::<ToyKem>(&cfg, 300, |t| t < 1500);
    let timeouts = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::RatchetAborted {
                    reason: AbortReason::Timeout
                }
            )
        })
        .count();
    let (ea, eb) = (a.status(Instant(3000)).epoch, b.status(Instant(3000)).epoch);
    println!("{timeouts} timeouts; epochs {ea}/{eb}");
    assert!(timeouts >= 2);
    assert!(
        ea >= 1 && eb >= 1,
        "the ratchet completes once the link recovers: {ea}/{eb}"
    );
}

#[test]
fn hard_stop_when_no_ratchet_completes() {
    use pqdr_ratchet::HardStop;
    // B's records never reach A: no ratchet can complete; A hits reject_after.
    let cfg = Config {
        reject_after_ms: 1_000,
        ratchet_timeout_ms: 300,
        hard_stop: HardStop::HardFail,
        ..Config::default()
    };
    let mut r = rng(30);
    let (mut a, _b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let mut pkt = [0u8; 1500];
    assert!(a.seal(Instant(999), b"", b"x", &mut pkt, &mut r).is_ok());
    assert_eq!(
        a.seal(Instant(1_000), b"", b"x", &mut pkt, &mut r),
        Err(Error::RekeyOverdue)
    );
    let warn = Config {
        hard_stop: HardStop::Warn,
        ..cfg
    };
    let (mut w, _): (S, S) = pair(&warn, Instant(0), &mut r);
    assert!(w.seal(Instant(5_000), b"", b"x", &mut pkt, &mut r).is_ok());
    let mut overdue = false;
    while let Some(e) = w.poll_event() {
        overdue |= e == pqdr_ratchet::Event::RekeyOverdue;
    }
    assert!(overdue);
}

#[cfg(feature = "alloc")]
#[test]
fn export_to_vec_roundtrip() {
    let cfg = Config::default();
    let mut r = rng(31);
    let (mut a, _b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let mut v = a
        .export_state_to_vec(5, b"sixteen byte key", Instant(1), &mut r)
        .unwrap();
    assert!(v.len() <= pqdr_ratchet::max_state_len(16, 256));
    let g = a.generation();
    assert_eq!(g, 1);
    assert!(
        S::import_state(
            &cfg,
            b"sixteen byte key",
            a.session_id(),
            &mut v,
            g,
            Instant(1)
        )
        .is_ok()
    );
}

#[test]
fn rtt_hint_shortens_old_epoch_grace() {
    for (hint, late_ok) in [(Some(10), false), (None, true)] {
        let cfg = Config::default();
        let mut r = rng(40);
        let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
        a.set_rtt_hint(hint);
        b.set_rtt_hint(hint);
        let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
        // An epoch-0 record from B, held back.
        let n = b.seal(Instant(0), b"", b"late", &mut pkt, &mut r).unwrap();
        let held = pkt[..n].to_vec();
        for t in 0..10u64 {
            let now = Instant(t);
            while let Some(n) = a.poll_transmit(now, b"", &mut pkt, &mut r) {
                b.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
            }
            while let Some(n) = b.poll_transmit(now, b"", &mut pkt, &mut r) {
                a.open(now, b"", &pkt[..n], &mut out, &mut r).unwrap();
            }
        }
        assert_eq!(a.status(Instant(10)).epoch, 1);
        a.handle_timeout(Instant(100), &mut r);
        let got = a.open(Instant(100), b"", &held, &mut out, &mut r);
        assert_eq!(got.is_ok(), late_ok, "hint {hint:?}: {got:?}");
    }
}

#[test]
fn lookahead_cache_bounds_repeat_far_jumps() {
    // Budget 6000 steps/s. A forged record 10^6 ahead costs ~4,160 steps and
    // warms the checkpoint cache; the genuine record just after it then costs
    // ~1,100 steps from the cached checkpoint (without the cache: ~4,160,
    // more than the ~1,840 left in the bucket).
    let cfg = Config {
        ratchet_on_start: false,
        max_jump: 1 << 21,
        unauth_derivation_budget: 6_000,
        ..Config::default()
    };
    let mut r = rng(50);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let n = a.seal(Instant(0), b"", b"first", &mut pkt, &mut r).unwrap();
    b.open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
        .unwrap();
    let mut forged = Vec::new();
    for i in 1..=1_000_010u32 {
        let n = a.seal(Instant(0), b"", b"far", &mut pkt, &mut r).unwrap();
        if i == 1_000_000 {
            forged = pkt[..n].to_vec();
            forged[10] ^= 1;
        }
    }
    let n = a
        .seal(Instant(0), b"", b"genuine", &mut pkt, &mut r)
        .unwrap();
    assert_eq!(
        b.open(Instant(0), b"", &forged, &mut out, &mut r),
        Err(Error::Unauthentic)
    );
    let o = b
        .open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
        .unwrap();
    assert_eq!(&out[..o.len], b"genuine");
    assert_eq!(o.counter, 1_000_011);
    // A later record in the same epoch still opens (cache pruned, chain moved).
    let n = a.seal(Instant(0), b"", b"next", &mut pkt, &mut r).unwrap();
    let o = b
        .open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
        .unwrap();
    assert_eq!(&out[..o.len], b"next");
}
