//! Shared fuzzing fixtures: sessions in every ratchet state, built once.
#![allow(dead_code)]

use std::sync::OnceLock;

use pqdr_ratchet::{Config, InitialSecret, Instant, MlKem768, Mode, Role, Session};

pub type S = Session<MlKem768>;

pub fn rng() -> pqdr_kat::Drbg {
    pqdr_kat::Drbg::new(&[9; 48])
}

pub fn init() -> InitialSecret<'static> {
    InitialSecret {
        secret: &[0x42; 32],
        transcript: b"",
        context: b"fuzz",
    }
}

/// A receiving session and a valid record for it, at a given ratchet state.
pub struct Fixture {
    pub name: &'static str,
    pub mode: Mode,
    pub receiver: S,
    pub record: Vec<u8>,
}

fn pump(a: &mut S, b: &mut S, now: Instant, r: &mut pqdr_kat::Drbg, rounds: usize) -> Vec<u8> {
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    let mut last = Vec::new();
    for _ in 0..rounds {
        let n = a.seal(now, b"", b"payload", &mut pkt, r).unwrap();
        last = pkt[..n].to_vec();
        let _ = b.open(now, b"", &pkt[..n], &mut out, r);
        while let Some(n) = a.poll_transmit(now, b"", &mut pkt, r) {
            let _ = b.open(now, b"", &pkt[..n], &mut out, r);
        }
        while let Some(n) = b.poll_transmit(now, b"", &mut pkt, r) {
            let _ = a.open(now, b"", &pkt[..n], &mut out, r);
        }
    }
    let n = a.seal(now, b"", b"payload", &mut pkt, r).unwrap();
    if n > 0 {
        last = pkt[..n].to_vec();
    }
    last
}

pub fn fixtures() -> &'static [Fixture] {
    static F: OnceLock<Vec<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        let mut v = Vec::new();
        let mut r = rng();
        for mode in [Mode::Datagram, Mode::Stream] {
            let cfg = Config {
                mode,
                ..Config::default()
            };
            // Fresh: the initiator's bootstrap ek is in flight.
            let mut a = S::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
            let b = S::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
            let mut pkt = [0u8; 1500];
            let n = a.seal(Instant(0), b"", b"hello", &mut pkt, &mut r).unwrap();
            v.push(Fixture {
                mode,
                name: "fresh",
                receiver: b.fork(),
                record: pkt[..n].to_vec(),
            });
            // After the bootstrap ratchet, with traffic.
            let mut b = b;
            let rec = pump(&mut a, &mut b, Instant(1), &mut r, 5);
            v.push(Fixture {
                mode,
                name: "epoch1",
                receiver: b.fork(),
                record: rec,
            });
            // Mid-ratchet: the responder owns epoch 1 -> 2.
            b.request_ratchet();
            let rec = pump(&mut a, &mut b, Instant(1500), &mut r, 1);
            v.push(Fixture {
                mode,
                name: "mid-ratchet",
                receiver: b.fork(),
                record: rec.clone(),
            });
            v.push(Fixture {
                mode,
                name: "mid-ratchet-owner",
                receiver: a.fork(),
                record: rec,
            });
        }
        v
    })
}
