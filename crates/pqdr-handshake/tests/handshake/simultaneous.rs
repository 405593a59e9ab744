//! Simultaneous initiation (docs/protocol/handshake.md §8, §10; issue 15): two peers, each
//! with an Initiator toward the other and a Responder, send msg1 at once. Both
//! handshakes complete; each peer holds one Initiator and one Responder
//! session; the secrets pair up crosswise; `preferred_over` makes both peers
//! keep the same pair (same transcript, complementary roles), and a ratchet
//! session started from it carries a record each way.
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]

use crate::common;
use common::*;
use pqdr_handshake::{
    Ephemeral, Established, Initiator, InitiatorConfig, Instant, K768, KMc, KNt, Load, Reply,
    Responder, Role, S44, S65, S87, Tai64N,
};
use pqdr_ratchet::{Config, Session, XWing};

/// One peer: its initiator toward the other, its responder, its peer table.
struct PeerSide<'a, A: TestKeys> {
    init: Initiator<A>,
    resp: Responder<A, 16>,
    table: Table<'a, A>,
    id: &'a Side<A>,
}

impl<'a, A: TestKeys> PeerSide<'a, A> {
    fn new(
        me: &'a Side<A>,
        seed: u8,
        other: &'a Side<A>,
        hybrid: bool,
        eph: Ephemeral,
        now: Instant,
    ) -> Self {
        let cfg = InitiatorConfig {
            peer: other.peer(hybrid),
            app_label: LABEL,
            ephemeral: eph,
        };
        let init = Initiator::start(
            &cfg,
            &me.id,
            clock(),
            Tai64N::default(),
            now,
            &mut rng(seed),
        )
        .unwrap();
        // The responder owns an identity: a second copy of the same key.
        let resp = Responder::new(
            Side::<A>::new(seed, hybrid).id,
            LABEL,
            now,
            &mut rng(seed ^ 0x40),
        )
        .unwrap();
        assert_eq!(resp.identity().key_id(), me.id.key_id());
        let table = Table {
            peer: other,
            hybrid,
            psk: None,
            rec: pqdr_handshake::ReplayRecord::new(),
        };
        PeerSide {
            init,
            resp,
            table,
            id: me,
        }
    }

    fn msg1(&mut self, now: Instant) -> Vec<u8> {
        let mut b = vec![0u8; 4096];
        let n = self.init.poll_transmit(now, &mut b).unwrap();
        b.truncate(n);
        b
    }

    fn answer(&mut self, msg1: &[u8], now: Instant) -> Vec<u8> {
        let mut out = vec![0u8; 6144];
        let Ok(Reply::Msg2(n)) = self.resp.handle_msg1(
            &mut self.table,
            SRC,
            msg1,
            Load::Normal,
            now,
            &mut rng(now.0.to_le_bytes()[0]),
            &mut out,
        ) else {
            panic!("msg2")
        };
        out.truncate(n);
        out
    }

    fn finish(&mut self, msg2: &[u8], now: Instant) -> Established {
        self.init
            .handle_msg2(msg2, &self.id.id, now, &mut rng(99))
            .unwrap()
    }

    fn confirm(&mut self, msg3: &[u8], now: Instant) -> Established {
        self.resp
            .handle_msg3(&mut self.table, SRC, msg3, Load::Normal, now)
            .unwrap()
    }
}

/// Seals `msg` at `a`, opens it at `b`.
fn carry(a: &mut Session<XWing>, b: &mut Session<XWing>, msg: &[u8], now: Instant) {
    let mut rec = vec![0u8; 1500];
    let n = a.seal(now, b"", msg, &mut rec, &mut rng(50)).unwrap();
    let mut out = vec![0u8; 1500];
    let got = b.open(now, b"", &rec[..n], &mut out, &mut rng(51)).unwrap();
    assert_eq!(&out[..got.len], msg);
}

fn simultaneous<A: TestKeys>(hybrid: bool, eph: Ephemeral) -> &'static str {
    let (sp, sq) = (Side::<A>::new(1, hybrid), Side::<A>::new(2, hybrid));
    let t0 = Instant(1_000);
    let mut p = PeerSide::new(&sp, 1, &sq, hybrid, eph, t0);
    let mut q = PeerSide::new(&sq, 2, &sp, hybrid, eph, t0);
    let name = p.init.suite().name();

    // Both send msg1 at once; each answers the other's.
    let (m1p, m1q) = (p.msg1(t0), q.msg1(t0));
    let m2_to_p = q.answer(&m1p, t0);
    let m2_to_q = p.answer(&m1q, t0);
    // Both initiators complete, then both responders.
    let p_i = p.finish(&m2_to_p, t0);
    let q_i = q.finish(&m2_to_q, t0);
    let q_r = q.confirm(p_i.msg3().unwrap(), t0);
    let p_r = p.confirm(q_i.msg3().unwrap(), t0);

    // Each side: one Initiator and one Responder session, with the other as peer.
    assert_eq!(
        (p_i.role(), p_r.role(), q_i.role(), q_r.role()),
        (
            Role::Initiator,
            Role::Responder,
            Role::Initiator,
            Role::Responder
        ),
        "{name}"
    );
    for e in [&p_i, &p_r] {
        assert_eq!(e.peer(), sq.id.key_id(), "{name}");
    }
    for e in [&q_i, &q_r] {
        assert_eq!(e.peer(), sp.id.key_id(), "{name}");
    }
    assert!(
        p_r.msg3().is_none() && q_r.msg3().is_none(),
        "{name}: only initiators send msg3"
    );
    // The secrets pair up crosswise: P's initiator with Q's responder and vice versa.
    let s = |e: &Established| e.initial_secret_for_test().secret.to_vec();
    assert_eq!(s(&p_i), s(&q_r), "{name}");
    assert_eq!(s(&q_i), s(&p_r), "{name}");
    assert_ne!(s(&p_i), s(&q_i), "{name}: two different handshakes");
    assert_eq!(p_i.transcript(), q_r.transcript(), "{name}");
    assert_eq!(q_i.transcript(), p_r.transcript(), "{name}");
    assert_eq!(
        p_i.initial_secret_for_test().context,
        q_r.initial_secret_for_test().context,
        "{name}"
    );
    // The two contexts name the same two keys in opposite order (hpk_I ‖ hpk_R).
    assert_ne!(
        p_i.initial_secret_for_test().context,
        q_i.initial_secret_for_test().context,
        "{name}"
    );

    // preferred_over is a strict order on the two transcripts (they differ).
    assert_ne!(p_i.transcript(), q_i.transcript());
    assert_ne!(
        p_i.preferred_over(&p_r),
        p_r.preferred_over(&p_i),
        "{name}: exactly one wins"
    );
    assert_eq!(
        p_i.preferred_over(&p_r),
        q_r.preferred_over(&q_i),
        "{name}: both peers decide alike"
    );
    assert!(p_i.preferred_over(&p_i), "ties keep self");
    let (p_keep, p_drop) = if p_i.preferred_over(&p_r) {
        (p_i, p_r)
    } else {
        (p_r, p_i)
    };
    let (q_keep, q_drop) = if q_i.preferred_over(&q_r) {
        (q_i, q_r)
    } else {
        (q_r, q_i)
    };
    assert_eq!(
        p_keep.transcript(),
        q_keep.transcript(),
        "{name}: the same session kept"
    );
    assert!(
        p_keep.transcript() < p_drop.transcript(),
        "{name}: the smaller transcript is kept"
    );
    assert_eq!(p_drop.transcript(), q_drop.transcript(), "{name}");
    assert_ne!(p_keep.role(), q_keep.role(), "{name}: complementary roles");
    assert_eq!(s(&p_keep), s(&q_keep), "{name}");

    // Ratchet sessions from the kept pair; one record each way. X-Wing: the
    // ratchet KEM every suite may start (a `-X` suite must, issue #33 L8).
    let cfg = Config::default();
    let t1 = Instant(2_000);
    let mut sp_keep = p_keep
        .into_session::<XWing, _>(&cfg, t1, &mut rng(60))
        .unwrap();
    let mut sq_keep = q_keep
        .into_session::<XWing, _>(&cfg, t1, &mut rng(61))
        .unwrap();
    carry(
        &mut sp_keep,
        &mut sq_keep,
        b"from P over the kept session",
        t1,
    );
    carry(
        &mut sq_keep,
        &mut sp_keep,
        b"from Q over the kept session",
        t1,
    );
    // The dropped pair is a different session: its records do not open in the kept one.
    let mut sp_drop = p_drop
        .into_session::<XWing, _>(&cfg, t1, &mut rng(62))
        .unwrap();
    let mut rec = vec![0u8; 1500];
    let n = sp_drop
        .seal(t1, b"", b"stale", &mut rec, &mut rng(63))
        .unwrap();
    let mut out = vec![0u8; 1500];
    assert!(
        sq_keep
            .open(t1, b"", &rec[..n], &mut out, &mut rng(64))
            .is_err(),
        "{name}"
    );
    carry(
        &mut sq_keep,
        &mut sp_keep,
        b"the kept session still works",
        t1,
    );
    name
}

#[test]
fn simultaneous_initiation_every_suite() {
    let names = [
        simultaneous::<K768>(false, Ephemeral::MlKem768),
        simultaneous::<K768>(true, Ephemeral::MlKem768),
        simultaneous::<KMc>(false, Ephemeral::MlKem768),
        simultaneous::<KMc>(true, Ephemeral::MlKem512),
        simultaneous::<KNt>(false, Ephemeral::MlKem768),
        simultaneous::<KNt>(true, Ephemeral::MlKem768),
        simultaneous::<S44>(false, Ephemeral::MlKem768),
        simultaneous::<S65>(false, Ephemeral::MlKem768),
        simultaneous::<S65>(true, Ephemeral::MlKem768),
        simultaneous::<S87>(true, Ephemeral::MlKem768),
    ];
    println!("simultaneous: {} suites: {}", names.len(), names.join(", "));
}

/// The order of arrival does not matter: P's responder confirms Q's msg3
/// before P's own initiator sees its msg2, with msg1 and msg2 crossing.
#[test]
fn simultaneous_initiation_any_order() {
    let (sp, sq) = (Side::<K768>::new(1, false), Side::<K768>::new(2, false));
    let t0 = Instant(0);
    let mut p = PeerSide::new(&sp, 1, &sq, false, Ephemeral::MlKem768, t0);
    let mut q = PeerSide::new(&sq, 2, &sp, false, Ephemeral::MlKem768, t0);
    let m1q = q.msg1(t0);
    let m2_to_q = p.answer(&m1q, t0);
    let q_i = q.finish(&m2_to_q, t0);
    let p_r = p.confirm(q_i.msg3().unwrap(), t0);
    let m1p = p.msg1(Instant(5));
    let m2_to_p = q.answer(&m1p, Instant(5));
    let p_i = p.finish(&m2_to_p, Instant(5));
    let q_r = q.confirm(p_i.msg3().unwrap(), Instant(5));
    assert_eq!(
        p_i.initial_secret_for_test().secret,
        q_r.initial_secret_for_test().secret
    );
    assert_eq!(
        q_i.initial_secret_for_test().secret,
        p_r.initial_secret_for_test().secret
    );
    assert_eq!(p_i.preferred_over(&p_r), q_r.preferred_over(&q_i));
    // P's responder recorded Q, Q's recorded P: each table moved once.
    assert_eq!(p.table.rec.last_timestamp(), clock());
    assert_eq!(q.table.rec.last_timestamp(), clock());
}
