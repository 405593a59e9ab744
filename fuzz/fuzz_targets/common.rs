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

/// The storage key of every exported fixture (fixed, 32 bytes).
pub const STORAGE_KEY: &[u8] = b"pqdr-ratchet fuzz storage key 32";

/// A receiving session and a valid record for it, at a given ratchet state,
/// with a sealed export of that state.
pub struct Fixture {
    pub name: &'static str,
    pub mode: Mode,
    /// A `fork` of the session (every field copied, including a KEM exchange
    /// in flight; `fork` widens `max_jump` and the pre-auth budget).
    pub receiver: S,
    pub record: Vec<u8>,
    /// The configuration the session runs under (`Config::default()` in
    /// the fixture's mode).
    pub cfg: Config,
    /// The session itself exported (reserve 1000) under [`STORAGE_KEY`].
    pub blob: Vec<u8>,
    /// The generation of `blob`.
    pub generation: u64,
    /// The session id of the exported session (`import_state` checks it).
    pub session_id: [u8; 16],
}

impl Fixture {
    /// The fixture's session restored from its blob: the real configuration
    /// and limits (it opens at once; it sends only after an export).
    pub fn restored(&self, now: Instant) -> S {
        let mut b = self.blob.clone();
        S::import_state(
            &self.cfg,
            STORAGE_KEY,
            self.session_id,
            &mut b,
            self.generation,
            now,
        )
        .unwrap()
    }
}

fn fixture(
    name: &'static str,
    cfg: &Config,
    s: &mut S,
    record: Vec<u8>,
    now: Instant,
    r: &mut pqdr_kat::Drbg,
) -> Fixture {
    let blob = s
        .export_state_to_vec(1000, STORAGE_KEY, now, r)
        .unwrap_or_else(|err| {
            panic!(
                "fixture {name} ({:?}) cannot be exported: {err:?}",
                cfg.mode
            )
        });
    Fixture {
        name,
        mode: cfg.mode,
        receiver: s.fork(),
        record,
        cfg: *cfg,
        blob,
        generation: s.generation(),
        session_id: s.session_id(),
    }
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
            let mut b = S::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
            let mut pkt = [0u8; 1500];
            let n = a.seal(Instant(0), b"", b"hello", &mut pkt, &mut r).unwrap();
            let hello = pkt[..n].to_vec();
            v.push(fixture(
                "fresh",
                &cfg,
                &mut b,
                hello.clone(),
                Instant(0),
                &mut r,
            ));
            // The initiator with its bootstrap ek in flight (exported as aborted).
            v.push(fixture(
                "fresh-owner",
                &cfg,
                &mut a,
                hello.clone(),
                Instant(0),
                &mut r,
            ));
            // After the bootstrap ratchet, with traffic (the fresh record is
            // delivered first: a stream that misses a record closes).
            let mut out = [0u8; 1500];
            b.open(Instant(0), b"", &hello, &mut out, &mut r).unwrap();
            let rec = pump(&mut a, &mut b, Instant(1), &mut r, 5);
            v.push(fixture(
                "epoch1",
                &cfg,
                &mut b,
                rec.clone(),
                Instant(1),
                &mut r,
            ));
            b.open(Instant(1), b"", &rec, &mut out, &mut r).unwrap();
            // Mid-ratchet: the responder owns epoch 1 -> 2.
            b.request_ratchet();
            let rec = pump(&mut a, &mut b, Instant(1500), &mut r, 1);
            v.push(fixture(
                "mid-ratchet",
                &cfg,
                &mut b,
                rec.clone(),
                Instant(1500),
                &mut r,
            ));
            v.push(fixture(
                "mid-ratchet-owner",
                &cfg,
                &mut a,
                rec,
                Instant(1500),
                &mut r,
            ));
        }
        v
    })
}
