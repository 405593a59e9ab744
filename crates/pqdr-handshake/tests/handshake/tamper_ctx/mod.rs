//! The tamper tests' model (`tests/handshake/tamper.rs`): what each mutated field
//! must do (the tables of docs/protocol/handshake.md §5's order of checks),
//! how many positions to try, and `Ctx`, one suite's responder side that
//! drives a message through a receiver and checks the typed error and the
//! bit-identical state.
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines
)]

use crate::adv::*;
use crate::common::*;
use pqdr_handshake::Error::{
    BiscuitInvalid, Decrypt, InvalidEncapsulationKey, Length, Mac1, MessageType, NonZeroPadding,
    SuiteNotAccepted, UnknownIndex, UnknownSuite, Version,
};
use pqdr_handshake::{
    Error, Established, Initiator, Instant, Load, Mode, Reply, Responder, Tai64N,
};
use rand_chacha::ChaCha20Rng;

/// What a mutated message must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exp {
    /// This typed error; the receiver's state is bit-identical afterwards.
    E(Error),
    /// The spec's prefix checks decide (shifted header bytes, a flipped suite
    /// id): length, type, version, suite, length again (`adv::*_prefix`).
    Model,
    /// Accepted: the mutated bytes are not authenticated by this receiver and
    /// do not matter (mac2 under `Load::Normal`).
    Accept,
    /// Accepted here (nothing here authenticates the field), and the peer's
    /// next step fails with this error (its state bit-identical).
    Then(Error),
    /// SIG msg1 ek_E (deep): `InvalidEncapsulationKey` iff the flipped key
    /// fails FIPS 203 §7.2 (checked test-side), else `Then(Mac1)`.
    EkCheck,
    /// Not applicable.
    No,
    /// `Length`, with the sizes the prefix model (`adv::*_prefix`, its own
    /// layout) computes for the mutated message: the model decides every
    /// length check.
    Len,
}
pub(crate) use Exp::{Accept, E, EkCheck, Len, Model, No, Then};

/// One row: field, bit flip, deep flip (outer MAC recomputed), truncated by one byte, extended by one byte.
pub(crate) type Row = (&'static str, Exp, Exp, Exp, Exp);
pub(crate) const L: Exp = Len;

/// msg1 at the responder, KEM mode (docs/protocol/handshake.md §5.1: length, type,
/// version, suite, length, mac1, [mac2], decapsulate ct_R, [es], enc_id, peer,
/// psk, [ss], enc_ts, ts, [flood], ek_E, encapsulations).
pub(crate) const MSG1_KEM: &[Row] = &[
    ("type", E(MessageType), No, Model, E(Version)),
    ("version", E(Version), No, Model, E(UnknownSuite)),
    ("suite", Model, No, Model, L),
    ("sender_idx", E(Mac1), E(Decrypt), L, L),
    ("ek_E", E(Mac1), E(Decrypt), L, L),
    ("ct_R", E(Mac1), E(Decrypt), L, L),
    ("X_I", E(Mac1), E(Decrypt), L, L),
    ("enc_id", E(Mac1), E(Decrypt), L, L),
    ("enc_ts", E(Mac1), E(Decrypt), L, L),
    ("mac1", E(Mac1), No, L, L),
    ("mac2", Accept, No, L, L),
];

/// msg1 at the responder, SIG mode: nothing in msg1 is sealed; th (and so
/// k_m, msg2's mac1 key) covers hdrA ‖ ek_E ‖ [X_I] ‖ pad.
pub(crate) const MSG1_SIG: &[Row] = &[
    ("type", E(MessageType), No, Model, E(Version)),
    ("version", E(Version), No, Model, E(UnknownSuite)),
    ("suite", Model, No, Model, L),
    ("sender_idx", E(Mac1), Then(UnknownIndex), L, L),
    ("ek_E", E(Mac1), EkCheck, L, L),
    ("X_I", E(Mac1), Then(Mac1), L, L),
    ("pad", E(Mac1), E(NonZeroPadding), L, L),
    ("mac1", E(Mac1), No, L, L),
    ("mac2", Accept, No, L, L),
];

/// msg2 at the initiator (header, state, suite = ours, length, receiver
/// index, mac1 with k_m, decapsulations, [ee, se], conf_R / enc_R, [sig_R]).
/// The biscuit is R's to check: the initiator copies it into msg3.
pub(crate) const MSG2: &[Row] = &[
    // Truncated: the version byte 0x02 becomes the type (msg2's own), so the
    // prefix model decides (v2, docs/protocol/handshake.md §2).
    ("type", E(MessageType), No, Model, E(Version)),
    ("version", E(Version), No, Model, E(SuiteNotAccepted)),
    ("suite", E(SuiteNotAccepted), No, Model, L),
    ("sender_idx", E(Mac1), E(Decrypt), L, L),
    ("receiver_idx", E(UnknownIndex), E(UnknownIndex), L, L),
    ("ct_E", E(Mac1), E(Decrypt), L, L),
    ("ct_I", E(Mac1), E(Decrypt), L, L),
    ("X_R", E(Mac1), E(Decrypt), L, L),
    ("conf_R", E(Mac1), E(Decrypt), L, L),
    ("enc_R", E(Mac1), E(Decrypt), L, L),
    ("biscuit_salt", E(Mac1), Then(BiscuitInvalid), L, L),
    ("biscuit_body", E(Mac1), Then(BiscuitInvalid), L, L),
    ("mac1", E(Mac1), No, L, L),
];

/// msg3 at the responder (length, type, version, suite, length, mac1,
/// biscuit under the current then previous key with ad = suite ‖ indices ‖
/// hpk_R, conf_I / enc_I, peer, biscuit_no, ts, [signature]).
pub(crate) const MSG3: &[Row] = &[
    ("type", E(MessageType), No, E(MessageType), E(Version)),
    ("version", E(Version), No, Model, E(UnknownSuite)),
    ("suite", Model, No, Model, L),
    ("sender_idx", E(Mac1), E(BiscuitInvalid), L, L),
    ("receiver_idx", E(Mac1), E(BiscuitInvalid), L, L),
    ("biscuit_salt", E(Mac1), E(BiscuitInvalid), L, L),
    ("biscuit_body", E(Mac1), E(BiscuitInvalid), L, L),
    ("conf_I", E(Mac1), E(Decrypt), L, L),
    ("enc_I", E(Mac1), E(Decrypt), L, L),
    ("mac1", E(Mac1), No, L, L),
];

/// The cookie reply at the initiator (length, type, version, state, suite,
/// receiver index, tag with ad = msg1's mac1).
pub(crate) const COOKIE: &[Row] = &[
    ("type", E(MessageType), No, L, L),
    ("version", E(Version), No, L, L),
    ("suite", E(SuiteNotAccepted), No, L, L),
    ("receiver_idx", E(UnknownIndex), No, L, L),
    ("salt", E(Mac1), No, L, L),
    ("cookie", E(Mac1), No, L, L),
    ("tag", E(Mac1), No, L, L),
];

pub(crate) fn row(table: &[Row], field: &str) -> Row {
    *table
        .iter()
        .find(|r| r.0 == field)
        .unwrap_or_else(|| panic!("no row for {field}"))
}

/// How many bit positions to try per field.
#[derive(Clone, Copy)]
pub(crate) struct Budget {
    /// Raw flips: every bit of fields up to this many bytes...
    pub(crate) all: usize,
    /// ...else edge bytes plus this many bytes across the field.
    pub(crate) spread: usize,
    /// Deep flips (cost KEM / signature work): the same two numbers.
    pub(crate) deep_all: usize,
    pub(crate) deep_spread: usize,
}

pub(crate) const FULL: Budget = Budget {
    all: 64,
    spread: 8,
    deep_all: 4,
    deep_spread: 3,
};
/// McEliece: its decapsulation sets the cost; fewer deep cases.
pub(crate) const LIGHT: Budget = Budget {
    all: 64,
    spread: 4,
    deep_all: 1,
    deep_spread: 1,
};

#[derive(Default, Debug, Clone, Copy)]
pub(crate) struct Counts {
    pub(crate) m1: usize,
    pub(crate) m2: usize,
    pub(crate) m3: usize,
    pub(crate) cr: usize,
}

impl Counts {
    pub(crate) fn total(&self) -> usize {
        self.m1 + self.m2 + self.m3 + self.cr
    }
}

/// One suite's world and the responder side.
pub(crate) struct Ctx<'w, A: TestKem> {
    pub(crate) w: &'w World<A>,
    pub(crate) resp: Responder<A, 16>,
    pub(crate) table: Table<'w, A>,
    /// The responder's clock (moves 20 ms per accepted msg1).
    pub(crate) now: Instant,
    /// The initiators' clock (fixed: initiators are rebuilt bit-identically).
    pub(crate) t_i: Instant,
    pub(crate) rr: ChaCha20Rng,
    pub(crate) suite: u16,
    pub(crate) hpk_r: [u8; 32],
    pub(crate) own_x: bool,
    pub(crate) c: Counts,
}

/// `Error::Length { expected, actual }`.
pub(crate) fn len(expected: usize, actual: usize) -> Error {
    Length { expected, actual }
}

pub(crate) fn resolve(exp: Exp, model: Result<(), Error>, what: &str) -> Exp {
    match exp {
        // A prefix that passes (a flipped suite id with the same layout, e.g.
        // KMc ↔ KMc-c in msg3) goes on to mac1.
        Model => E(model.err().unwrap_or(Mac1)),
        Len => match model {
            Err(e @ Length { .. }) => E(e),
            other => panic!("{what}: a length row, but the prefix model gives {other:?}"),
        },
        E(e) => {
            // The table and the prefix model agree wherever the model decides.
            if let Err(m) = model {
                assert_eq!(m, e, "{what}: table vs prefix model");
            }
            E(e)
        }
        other => other,
    }
}

impl<'w, A: TestKem> Ctx<'w, A> {
    pub(crate) fn new(w: &'w World<A>) -> Self {
        let resp = w.responder(3);
        let hpk_r = *w.r.id.key_id();
        let own_x = A::MODE == Mode::Kem && w.hybrid;
        let suite = Initiator::start(
            &w.cfg(),
            &w.i.id,
            clock(),
            Tai64N::default(),
            Instant(0),
            &mut rng(1),
        )
        .unwrap()
        .suite()
        .id();
        Ctx {
            w,
            resp,
            table: w.table(),
            now: Instant(1_000),
            t_i: Instant(1_000),
            rr: rng(8),
            suite,
            hpk_r,
            own_x,
            c: Counts::default(),
        }
    }

    /// A fresh initiator (deterministic in `seed`) and its msg1.
    pub(crate) fn start(&self, seed: u8) -> (Initiator<A>, Vec<u8>) {
        let mut i = Initiator::start(
            &self.w.cfg(),
            &self.w.i.id,
            clock(),
            Tai64N::default(),
            self.t_i,
            &mut rng(seed),
        )
        .unwrap();
        let mut b = vec![0u8; 4096];
        let n = i.poll_transmit(self.t_i, &mut b).unwrap();
        b.truncate(n);
        (i, b)
    }

    /// msg1 to the responder: `Err(e)` ⇒ that error and no state change;
    /// `Ok` ⇒ msg2 (returned), and still no replay-record change.
    pub(crate) fn r1(
        &mut self,
        m: &[u8],
        load: Load,
        exp: Result<(), Error>,
        what: &str,
    ) -> Option<Vec<u8>> {
        let (snap, rec) = (self.resp.snapshot(), self.table.rec.to_bytes());
        let mut out = vec![0u8; 6144];
        let got = self.resp.handle_msg1(
            &mut self.table,
            SRC,
            m,
            load,
            self.now,
            &mut self.rr,
            &mut out,
        );
        // last_ts, last_biscuit_no and the instance move only on msg3; the
        // peer's msg1 rate bucket (bytes 28..36) is a rate limit and moves on
        // an authenticated msg1 (psk or -X) that passes enc_ts.
        assert_eq!(
            self.table.rec.to_bytes()[..28],
            rec[..28],
            "{what}: replay record changed"
        );
        match exp {
            Err(e) => {
                assert_eq!(got, Err(e), "{what}");
                assert_eq!(
                    self.resp.snapshot(),
                    snap,
                    "{what}: responder state changed"
                );
                if e == InvalidEncapsulationKey {
                    // Checked after the rate bucket: let it refill.
                    self.now = self.now.plus(20);
                } else {
                    assert_eq!(
                        self.table.rec.to_bytes(),
                        rec,
                        "{what}: rate bucket moved before its check"
                    );
                }
                None
            }
            Ok(()) => {
                let Ok(Reply::Msg2(n)) = got else {
                    panic!("{what}: {got:?}")
                };
                out.truncate(n);
                // The next authenticated msg1 of this peer is ≥ 20 ms later (50/s, `Flood`).
                self.now = self.now.plus(20);
                Some(out)
            }
        }
    }

    /// msg3 to the responder.
    pub(crate) fn r3(
        &mut self,
        m: &[u8],
        exp: Result<(), Error>,
        what: &str,
    ) -> Option<Established> {
        let (snap, rec) = (self.resp.snapshot(), self.table.rec.to_bytes());
        let got = self
            .resp
            .handle_msg3(&mut self.table, SRC, m, Load::Normal, self.now);
        assert_eq!(
            self.resp.snapshot(),
            snap,
            "{what}: responder state changed"
        );
        match exp {
            Err(e) => {
                assert_eq!(got.as_ref().err(), Some(&e), "{what}");
                assert_eq!(
                    self.table.rec.to_bytes(),
                    rec,
                    "{what}: replay record changed"
                );
                None
            }
            Ok(()) => Some(got.unwrap_or_else(|e| panic!("{what}: {e:?}"))),
        }
    }

    /// msg2 to an initiator.
    pub(crate) fn i2(
        &self,
        init: &mut Initiator<A>,
        m: &[u8],
        exp: Result<(), Error>,
        what: &str,
    ) -> Option<Established> {
        let snap = init.snapshot();
        let got = init.handle_msg2(m, &self.w.i.id, self.t_i, &mut rng(9));
        match exp {
            Err(e) => {
                assert_eq!(got.as_ref().err(), Some(&e), "{what}");
                assert_eq!(init.snapshot(), snap, "{what}: initiator state changed");
                None
            }
            Ok(()) => Some(got.unwrap_or_else(|e| panic!("{what}: {e:?}"))),
        }
    }
}

pub(crate) fn deep_positions(f: &core::ops::Range<usize>, b: Budget) -> Vec<(usize, u8)> {
    flip_positions(f, b.deep_all, b.deep_spread)
}
