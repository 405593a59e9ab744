//! A scripted exchange between an initiator and a responder, driven by the
//! input: sends and resends, deliveries in or out of order, duplicates,
//! drops, bit flips, replays, time steps, load on and off (cookie replies),
//! renewals and restarts of the attempt, biscuit-key rotation, msg3 resends.
//! Invariants (docs/protocol/handshake.md §4, §5, §8):
//!
//! * a failed `handle_*` changes nothing (responder: all but the source
//!   buckets; initiator: bit-identical); msg1 never commits the replay record;
//! * the initiator completes at most once, the responder at most once (the
//!   same msg3 again is `Duplicate`), and never before the initiator;
//! * when both are Established: the same secret and transcript, roles
//!   Initiator / Responder, each names the other; then ratchet sessions are
//!   started from both and a record goes each way.
//!
//! Input: `setup ‖ ops…`. setup bits 0–1 suite (K768, K768-X, S65, S65-X),
//! bit 2 both sides use a psk (KEM mode: msg1 is then authenticated and
//! per-peer rate limited).
#![no_main]

mod hs_common;

use hs_common::*;
use libfuzzer_sys::fuzz_target;
use pqdr_handshake::{
    Error, Established, Identity, Initiator, InitiatorConfig, Instant, K768, Load, Msg3Retransmit,
    Reply, Role, S65, Tai64N,
};
use pqdr_ratchet::{Config, XWing};

fuzz_target!(|data: &[u8]| {
    let Some((&setup, ops)) = data.split_first() else {
        return;
    };
    match setup & 3 {
        0 => run::<K768>(false, setup, ops),
        1 => run::<K768>(true, setup, ops),
        2 => run::<S65>(false, setup, ops),
        _ => run::<S65>(true, setup, ops),
    }
});

/// At most this many operations, responder msg1 answers and initiator starts
/// per input (each is KEM or signature work).
const MAX_OPS: usize = 160;
const MAX_MSG1_WORK: usize = 12;
const MAX_STARTS: usize = 6;

struct World<A: Fam> {
    me: Identity<A>,
    cfg: InitiatorConfig<'static, A>,
    init: Initiator<A>,
    resp: Resp<A>,
    table: Table<A>,
    last_sent: Tai64N,
    now: u64,
    load: Load,
    /// Datagrams in flight to the responder / to the initiator.
    to_r: Vec<Vec<u8>>,
    to_i: Vec<Vec<u8>>,
    /// Everything ever sent (bounded), for replays.
    history: Vec<Vec<u8>>,
    est_i: Option<Established>,
    est_r: Option<Established>,
    retx: Option<Msg3Retransmit>,
    ri: pqdr_kat::Drbg,
    rr: pqdr_kat::Drbg,
    msg1_work: usize,
    starts: usize,
}

impl<A: Fam> World<A> {
    fn clock(&self) -> Tai64N {
        Tai64N {
            secs: CLOCK.secs + self.now / 1000,
            nanos: 0,
        }
    }

    fn send(&mut self, to_r: bool, m: &[u8]) {
        if self.history.len() < 64 {
            self.history.push(m.to_vec());
        }
        if to_r {
            self.to_r.push(m.to_vec());
        } else {
            self.to_i.push(m.to_vec());
        }
    }

    fn transmit(&mut self) {
        let now = Instant(self.now);
        let mut m = [0u8; 4096];
        if let Some(n) = self.init.poll_transmit(now, &mut m) {
            // Persist the timestamp before sending.
            self.last_sent = self.init.sent_timestamp();
            self.send(true, &m[..n]);
        }
        if let Some(r) = &mut self.retx
            && let Some(n) = r.poll_transmit(now, &mut m)
        {
            self.send(true, &m[..n]);
        }
    }

    fn restart(&mut self, force: bool) {
        if self.est_i.is_some() || self.starts >= MAX_STARTS {
            return;
        }
        let now = Instant(self.now);
        let (clock, last) = (self.clock(), self.last_sent);
        if self.init.expired(now) {
            self.init =
                Initiator::start(&self.cfg, &self.me, clock, last, now, &mut self.ri).unwrap();
            self.starts += 1;
        } else if force || self.init.needs_renewal(now) {
            let res = self
                .init
                .renew(&self.cfg, &self.me, clock, last, now, &mut self.ri);
            assert_eq!(res, Ok(()));
            self.starts += 1;
        }
    }

    fn deliver_to_r(&mut self, m: &[u8]) {
        let now = Instant(self.now);
        let before = self.resp.snapshot();
        let rec = self.table.rec.to_bytes();
        match m.first() {
            Some(3) => match self
                .resp
                .handle_msg3(&mut self.table, SRC, m, self.load, now)
            {
                Ok(est) => {
                    assert!(self.est_r.is_none(), "the responder completed twice");
                    assert!(self.est_i.is_some(), "the responder completed first");
                    self.est_r = Some(est);
                }
                Err(e) => {
                    assert_eq!(self.resp.snapshot(), before, "responder changed on {e:?}");
                    assert_eq!(self.table.rec.to_bytes(), rec, "record changed on {e:?}");
                    if e == Error::Duplicate {
                        assert!(self.est_r.is_some());
                    }
                }
            },
            _ => {
                if self.msg1_work >= MAX_MSG1_WORK {
                    return;
                }
                self.msg1_work += 1;
                let mut out = [0u8; 6144];
                let res = self.resp.handle_msg1(
                    &mut self.table,
                    SRC,
                    m,
                    self.load,
                    now,
                    &mut self.rr,
                    &mut out,
                );
                assert_eq!(self.table.rec.to_bytes()[..28], rec[..28], "msg1 committed");
                match res {
                    Ok(Reply::Msg2(n) | Reply::CookieReply(n)) => self.send(false, &out[..n]),
                    Err(e) => {
                        assert_eq!(self.resp.snapshot(), before, "responder changed on {e:?}")
                    }
                }
            }
        }
    }

    fn deliver_to_i(&mut self, m: &[u8]) {
        let now = Instant(self.now);
        let before = self.init.snapshot();
        let res = match m.first() {
            Some(4) => self.init.handle_cookie_reply(m, now),
            _ => match self.init.handle_msg2(m, &self.me, now, &mut self.ri) {
                Ok(est) => {
                    assert!(self.est_i.is_none(), "the initiator completed twice");
                    let m3 = est.msg3().unwrap().to_vec();
                    self.retx = est.msg3_retransmit(now);
                    self.est_i = Some(est);
                    self.send(true, &m3);
                    Ok(())
                }
                Err(e) => Err(e),
            },
        };
        if let Err(e) = res {
            assert_eq!(self.init.snapshot(), before, "initiator changed on {e:?}");
        }
    }

    fn check(&self) {
        if let Some(b) = &self.est_r {
            let a = self.est_i.as_ref().unwrap();
            assert_eq!((a.role(), b.role()), (Role::Initiator, Role::Responder));
            assert_eq!(
                a.initial_secret_for_test().secret,
                b.initial_secret_for_test().secret,
                "secrets differ"
            );
            assert_eq!(
                a.initial_secret_for_test().transcript,
                b.initial_secret_for_test().transcript
            );
            assert_eq!(
                a.initial_secret_for_test().context,
                b.initial_secret_for_test().context
            );
            assert_eq!(a.peer(), &hpk::<A>(Side::R, self.table.hybrid));
            assert_eq!(b.peer(), &hpk::<A>(Side::I, self.table.hybrid));
        }
    }
}

fn pick(q: &mut Vec<Vec<u8>>, arg: u8) -> Option<Vec<u8>> {
    if q.is_empty() {
        return None;
    }
    let i = usize::from(arg) % q.len();
    Some(q.remove(i))
}

fn run<A: Fam>(hybrid: bool, setup: u8, ops: &[u8]) {
    let me = identity::<A>(Side::I, hybrid);
    let mut cfg = config::<A>(hybrid);
    let mut table = Table::<A>::new(hybrid);
    if setup & 4 != 0 {
        cfg.peer = cfg.peer.with_psk([0x99; 32]);
        table.psk = Some([0x99; 32]);
    }
    let mut ri = rng(0x49);
    let init = Initiator::start(&cfg, &me, CLOCK, Tai64N::default(), Instant(0), &mut ri).unwrap();
    let mut w = World {
        me,
        cfg,
        init,
        resp: responder::<A>(hybrid),
        table,
        last_sent: Tai64N::default(),
        now: 0,
        load: Load::Normal,
        to_r: Vec::new(),
        to_i: Vec::new(),
        history: Vec::new(),
        est_i: None,
        est_r: None,
        retx: None,
        ri,
        rr: rng(0x4d),
        msg1_work: 0,
        starts: 0,
    };
    let mut it = ops.iter().copied().take(MAX_OPS);
    while let Some(op) = it.next() {
        let mut arg = || it.next().unwrap_or(0);
        match op >> 4 {
            0..=2 => w.transmit(),
            3..=5 => {
                // Deliver to the responder: any queued datagram; odd ops keep a duplicate.
                if let Some(m) = pick(&mut w.to_r, arg()) {
                    if op & 1 == 1 {
                        w.to_r.push(m.clone());
                    }
                    w.deliver_to_r(&m);
                }
            }
            6..=8 => {
                if let Some(m) = pick(&mut w.to_i, arg()) {
                    if op & 1 == 1 {
                        w.to_i.push(m.clone());
                    }
                    w.deliver_to_i(&m);
                }
            }
            9 => {
                // Drop.
                let a = arg();
                let q = if op & 1 == 0 {
                    &mut w.to_r
                } else {
                    &mut w.to_i
                };
                pick(q, a);
            }
            10 => {
                // Flip one bit of a queued datagram.
                let (i, bit) = (usize::from(arg()), usize::from(arg()));
                let q = if op & 1 == 0 {
                    &mut w.to_r
                } else {
                    &mut w.to_i
                };
                if let Some(m) = q.last_mut()
                    && !m.is_empty()
                {
                    let pos = (i * 257 + bit) % m.len();
                    m[pos] ^= 1 << (bit & 7);
                }
            }
            11 => {
                // Time: ms, or ×64 ms, or whole seconds.
                let a = u64::from(arg());
                w.now += match op & 3 {
                    0 | 1 => a,
                    2 => a * 64,
                    _ => a * 1000,
                };
                let now = Instant(w.now);
                w.resp.handle_timeout(now, &mut w.rr);
            }
            12 => {
                w.load = if op & 1 == 0 {
                    Load::Normal
                } else {
                    Load::Under
                };
            }
            13 => w.restart(op & 1 == 1),
            14 => {
                // Replay something sent before.
                let a = usize::from(arg());
                if !w.history.is_empty() {
                    let m = w.history[a % w.history.len()].clone();
                    match m.first() {
                        Some(1 | 3) => w.deliver_to_r(&m),
                        _ => w.deliver_to_i(&m),
                    }
                }
            }
            _ => {
                // Both sides poll and deliver everything in order (progress).
                w.transmit();
                while let Some(m) = pick(&mut w.to_r, 0) {
                    w.deliver_to_r(&m);
                }
                while let Some(m) = pick(&mut w.to_i, 0) {
                    w.deliver_to_i(&m);
                }
            }
        }
        w.check();
    }
    // Both established: ratchet sessions from both, one record each way
    // (X-Wing: every suite may start it, a `-X` suite must).
    if let (Some(a), Some(b)) = (w.est_i.take(), w.est_r.take()) {
        let now = Instant(w.now);
        let cfg = Config::default();
        let mut sa = a.into_session::<XWing, _>(&cfg, now, &mut w.ri).unwrap();
        let mut sb = b.into_session::<XWing, _>(&cfg, now, &mut w.rr).unwrap();
        let mut pkt = [0u8; 1500];
        let mut out = [0u8; 1500];
        let msg = b"from the initiator";
        let n = sa.seal(now, b"hs", msg, &mut pkt, &mut w.ri).unwrap();
        let got = sb.open(now, b"hs", &pkt[..n], &mut out, &mut w.rr).unwrap();
        assert_eq!(&out[..got.len], msg);
        let msg = b"from the responder";
        let n = sb.seal(now, b"hs", msg, &mut pkt, &mut w.rr).unwrap();
        let got = sa.open(now, b"hs", &pkt[..n], &mut out, &mut w.ri).unwrap();
        assert_eq!(&out[..got.len], msg);
    }
}
