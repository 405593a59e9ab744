//! The replay tests' persistence scenario (`tests/handshake/replay.rs`):
//! `ReplayRecord` saved and restored still refuses replays, and a restarted
//! responder accepts new handshakes.
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines
)]

use crate::adv::*;
use crate::common::*;
use crate::replay_steps::*;
use pqdr_handshake::Error::{BiscuitInvalid, BiscuitReplay, Duplicate, StaleTimestamp, WrongState};
use pqdr_handshake::{Instant, Load, Mode, ReplayRecord, Tai64N};

/// `ReplayRecord` persistence: to_bytes / from_bytes, and a restored record
/// still refuses replays; a restarted responder (new instance) accepts new
/// handshakes although its biscuit counter starts again at 1.
pub(crate) fn persistence<A: TestKem>(w: &World<A>, c: &mut Cases) {
    let kem = A::MODE == Mode::Kem;
    assert_eq!(
        ReplayRecord::from_bytes(&ReplayRecord::new().to_bytes()),
        ReplayRecord::new()
    );
    assert_eq!(
        ReplayRecord::new().to_bytes(),
        ReplayRecord::default().to_bytes()
    );
    let mut resp = w.responder(3);
    let mut table = w.table();
    let mut last = Tai64N::default();
    let mut msgs = Vec::new();
    for k in 0..3u8 {
        let t = Instant(1_000 * u64::from(k));
        let (mut i, m1) = begin(w, clock(), last, t, 7 + k);
        last = i.sent_timestamp();
        let e = finish(
            w,
            &mut i,
            &answer(&mut resp, &mut table, &m1, t).unwrap(),
            t,
        )
        .unwrap();
        resp.handle_msg3(&mut table, SRC, e.msg3().unwrap(), Load::Normal, t)
            .unwrap();
        let bytes = table.rec.to_bytes();
        assert_eq!(bytes.len(), ReplayRecord::SIZE);
        assert_eq!(ReplayRecord::from_bytes(&bytes), table.rec);
        assert_eq!(bytes[..12], last.to_bytes(), "last_ts first");
        assert_eq!(
            bytes[12..20],
            (u64::from(k) + 1).to_be_bytes(),
            "then last_biscuit_no"
        );
        assert_eq!(
            ReplayRecord::from_bytes(&bytes).to_bytes()[36..],
            bytes[36..],
            "then the last charged timestamp"
        );
        msgs.push((m1, e.msg3().unwrap().to_vec()));
    }
    // Arbitrary bytes round-trip (no reserved bytes since issue #33 L4).
    let mut any = [0u8; ReplayRecord::SIZE];
    for (i, b) in any.iter_mut().enumerate() {
        *b = u8::try_from(i).unwrap().wrapping_mul(37) ^ 0xC3;
    }
    assert_eq!(ReplayRecord::from_bytes(&any).to_bytes(), any);

    // A table restored from the persisted bytes refuses the same replays.
    let saved = table.rec.to_bytes();
    let mut restored = w.table();
    restored.rec = ReplayRecord::from_bytes(&saved);
    let (m1, m3) = msgs.last().unwrap();
    refuse3(
        &mut resp,
        &mut restored,
        m3,
        Instant(5_000),
        Duplicate,
        "msg3 against a restored record",
    );
    refuse3(
        &mut resp,
        &mut restored,
        &msgs[0].1,
        Instant(5_000),
        BiscuitReplay,
        "older msg3 against a restored record",
    );
    if kem {
        refuse1(
            &mut resp,
            &mut restored,
            m1,
            Instant(5_000),
            StaleTimestamp,
            "msg1 against a restored record",
        );
    }
    c.add("record persistence");
    c.add("record persistence");
    c.add("record persistence");

    // A restarted responder: the old biscuits do not open; a new handshake is
    // accepted although the new counter (1) is below the stored one (3).
    let mut resp2 = w.responder(31);
    refuse3(
        &mut resp2,
        &mut restored,
        m3,
        Instant(6_000),
        BiscuitInvalid,
        "old msg3 to a restarted responder",
    );
    if kem {
        refuse1(
            &mut resp2,
            &mut restored,
            m1,
            Instant(6_000),
            StaleTimestamp,
            "old msg1 to a restarted responder",
        );
    }
    let (mut i, m1n) = begin(w, clock(), last, Instant(6_000), 20);
    let e = finish(
        w,
        &mut i,
        &answer(&mut resp2, &mut restored, &m1n, Instant(6_000)).unwrap(),
        Instant(6_000),
    )
    .unwrap();
    resp2
        .handle_msg3(
            &mut restored,
            SRC,
            e.msg3().unwrap(),
            Load::Normal,
            Instant(6_000),
        )
        .unwrap();
    assert_eq!(restored.rec.to_bytes()[12..20], 1u64.to_be_bytes());
    refuse3(
        &mut resp2,
        &mut restored,
        e.msg3().unwrap(),
        Instant(6_100),
        Duplicate,
        "restarted responder's msg3 again",
    );
    c.add("record persistence");
    c.add("record persistence");

    // reset_replay forgets the committed timestamp only: a replayed msg1 gets
    // a msg2 again but no session (the initiator is done, and only it holds
    // dk_E), and the biscuit order is kept (the last msg3 stays a Duplicate).
    let order = restored.rec.to_bytes()[12..28].to_vec();
    restored.rec.reset_replay();
    assert_eq!(restored.rec.last_timestamp(), Tai64N::default());
    assert_eq!(
        restored.rec.to_bytes()[12..28],
        order[..],
        "biscuit order kept"
    );
    let kept = restored.rec.to_bytes();
    let again = answer(&mut resp2, &mut restored, &m1n, Instant(7_000)).unwrap();
    assert_eq!(
        finish(w, &mut i, &again, Instant(7_000)).err(),
        Some(WrongState)
    );
    assert_eq!(restored.rec.to_bytes()[..28], kept[..28]);
    c.add("reset_replay");
    refuse3(
        &mut resp2,
        &mut restored,
        e.msg3().unwrap(),
        Instant(7_100),
        Duplicate,
        "msg3 again after reset_replay",
    );
    c.add("reset_replay");
}
