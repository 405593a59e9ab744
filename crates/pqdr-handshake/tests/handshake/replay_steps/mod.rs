//! The replay tests' steps (`tests/handshake/replay.rs`): one message through the
//! initiator or the responder with its expected outcome, the refusals that
//! must leave the responder and the replay record bit-identical, and the
//! case counter.
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines
)]

use crate::common::*;
use pqdr_handshake::{
    Error, Established, Initiator, Instant, Load, PeerStore, Reply, Responder, Tai64N,
};

/// Seconds in 30 (Julian) years.
pub(crate) const THIRTY_YEARS: u64 = 30 * 31_557_600;

pub(crate) fn future() -> Tai64N {
    Tai64N {
        secs: clock().secs + THIRTY_YEARS,
        nanos: 0,
    }
}

/// Counts the replay cases (one replayed or reordered message and its checked outcome each).
#[derive(Default)]
pub(crate) struct Cases(pub(crate) Vec<(&'static str, usize)>);

impl Cases {
    pub(crate) fn add(&mut self, scenario: &'static str) {
        match self.0.iter_mut().find(|c| c.0 == scenario) {
            Some(c) => c.1 += 1,
            None => self.0.push((scenario, 1)),
        }
    }
    pub(crate) fn total(&self) -> usize {
        self.0.iter().map(|c| c.1).sum()
    }
}

/// msg1 of a new attempt.
pub(crate) fn begin<A: TestKeys>(
    w: &World<A>,
    clock: Tai64N,
    last_sent: Tai64N,
    now: Instant,
    seed: u8,
) -> (Initiator<A>, Vec<u8>) {
    let mut i = Initiator::start(&w.cfg(), &w.i.id, clock, last_sent, now, &mut rng(seed)).unwrap();
    let mut b = vec![0u8; 4096];
    let n = i.poll_transmit(now, &mut b).unwrap();
    b.truncate(n);
    (i, b)
}

/// msg1 → msg2 (or the responder's error; a cookie reply is a test failure).
#[allow(clippy::panic_in_result_fn)]
pub(crate) fn answer<A: TestKeys, P: PeerStore<A>>(
    resp: &mut Responder<A, 16>,
    peers: &mut P,
    msg1: &[u8],
    now: Instant,
) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; 6144];
    match resp.handle_msg1(
        peers,
        SRC,
        msg1,
        Load::Normal,
        now,
        &mut rng(now.0.to_le_bytes()[0] ^ 0x5A),
        &mut out,
    )? {
        Reply::Msg2(n) => Ok(out[..n].to_vec()),
        Reply::CookieReply(_) => panic!("cookie reply under Load::Normal"),
    }
}

pub(crate) fn finish<A: TestKeys>(
    w: &World<A>,
    init: &mut Initiator<A>,
    msg2: &[u8],
    now: Instant,
) -> Result<Established, Error> {
    init.handle_msg2(msg2, &w.i.id, now, &mut rng(9))
}

/// `handle_msg3` that must fail with `e` and change nothing (responder and record).
pub(crate) fn refuse3<A: TestKeys>(
    resp: &mut Responder<A, 16>,
    table: &mut Table<'_, A>,
    msg3: &[u8],
    now: Instant,
    e: Error,
    what: &str,
) {
    let (snap, rec) = (resp.snapshot(), table.rec.to_bytes());
    assert_eq!(
        resp.handle_msg3(table, SRC, msg3, Load::Normal, now).err(),
        Some(e),
        "{what}"
    );
    assert_eq!(
        (resp.snapshot(), table.rec.to_bytes()),
        (snap, rec),
        "{what}: state changed"
    );
}

/// `handle_msg1` that must fail with `e` and change nothing.
pub(crate) fn refuse1<A: TestKeys>(
    resp: &mut Responder<A, 16>,
    table: &mut Table<'_, A>,
    msg1: &[u8],
    now: Instant,
    e: Error,
    what: &str,
) {
    let (snap, rec) = (resp.snapshot(), table.rec.to_bytes());
    assert_eq!(answer(resp, table, msg1, now).err(), Some(e), "{what}");
    assert_eq!(
        (resp.snapshot(), table.rec.to_bytes()),
        (snap, rec),
        "{what}: state changed"
    );
}
