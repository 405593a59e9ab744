//! L1 for packet-numbered transports (issue 14 §5): the caller chooses a
//! strictly increasing counter with gaps (QUIC packet numbers, some skipped
//! on purpose), the receive state only advances inside `open_with` after the
//! caller's AEAD succeeded, and the ratchet's control frames travel in the
//! caller's own authenticated records (`poll_control` / `handle_control`).
#![cfg(feature = "mlkem")]
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::integer_division_remainder_used,
    clippy::needless_range_loop,
    missing_docs,
    reason = "test code"
)]

use std::collections::HashSet;

use pqdr_ratchet::chacha20poly1305::aead::AeadInOut;
use pqdr_ratchet::chacha20poly1305::{ChaCha20Poly1305, KeyInit, Tag};
use pqdr_ratchet::{Config, Error, InitialSecret, Instant, KeySchedule, MlKem768, PacketKey, Role};

type Ks = KeySchedule<MlKem768>;

fn init() -> InitialSecret<'static> {
    InitialSecret {
        secret: &[9; 32],
        transcript: b"",
        context: b"l1 packet numbers",
    }
}

/// One protected "QUIC packet": header = (key phase, packet number), then
/// `control_len ‖ control frames ‖ payload`, sealed with the L1 key.
struct Pkt {
    phase_lo: u8,
    pn: u32,
    body: Vec<u8>,
    tag: Tag,
}

fn seal(k: &PacketKey, control: &[u8], payload: &[u8]) -> Pkt {
    let mut body = Vec::new();
    body.extend_from_slice(&(control.len() as u16).to_be_bytes());
    body.extend_from_slice(control);
    body.extend_from_slice(payload);
    let hdr = [k.epoch as u8];
    let tag = ChaCha20Poly1305::new(k.key().into())
        .encrypt_inout_detached(&k.nonce().into(), &hdr, (&mut body[..]).into())
        .unwrap();
    Pkt {
        phase_lo: k.epoch as u8,
        pn: k.counter,
        body,
        tag,
    }
}

/// Receiver: `open_with` + `handle_control`. Returns the payload.
fn open(rx: &mut Ks, p: &Pkt, now: Instant, rng: &mut pqdr_kat::Drbg) -> Result<Vec<u8>, Error> {
    let (auth, body) = rx.open_with(now, p.phase_lo, Some(p.pn), |k| {
        let mut b = p.body.clone();
        ChaCha20Poly1305::new(k.key().into())
            .decrypt_inout_detached(
                &k.nonce().into(),
                &[p.phase_lo],
                (&mut b[..]).into(),
                &p.tag,
            )
            .ok()
            .map(|()| b)
    })?;
    let cl = usize::from(u16::from_be_bytes([body[0], body[1]]));
    rx.handle_control(&auth, &body[2..2 + cl], now, rng)?;
    Ok(body[2 + cl..].to_vec())
}

#[test]
fn packet_number_stream_with_gaps_and_ratchets() {
    let cfg = Config {
        rekey_after_ms: 300,
        min_ratchet_interval_ms: 50,
        ..Config::default()
    };
    let mut rng = pqdr_kat::Drbg::new(&[3; 48]);
    let a = Ks::new(&cfg, Role::Initiator, init(), Instant(0), &mut rng).unwrap();
    let b = Ks::new(&cfg, Role::Responder, init(), Instant(0), &mut rng).unwrap();
    let mut ks = [a, b];
    let mut x = 0x1234_5678_9abc_def0u64;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    // Per side: the next packet number of the current epoch (a QUIC stack's
    // packet number space restarted at each key phase, see
    // docs/protocol/ratchet.md §1.1.1).
    let mut pns = [(0u64, 0u32); 2];
    let (mut delivered, mut skipped_pns, mut ctl) = (0usize, 0usize, [0u8; 1200]);
    let mut seen = HashSet::new();
    for step in 0..6000u64 {
        let now = Instant(step);
        for side in 0..2usize {
            let (l, r) = ks.split_at_mut(1);
            let (tx, rx) = if side == 0 {
                (&mut l[0], &mut r[0])
            } else {
                (&mut r[0], &mut l[0])
            };
            let pn = &mut pns[side];
            let tag = side as u8;
            tx.on_time(now, &mut rng);
            if pn.0 != tx.epoch() {
                *pn = (tx.epoch(), 0);
            }
            // The transport skips packet numbers on purpose (1 in 8 packets).
            if next(8) == 0 {
                let gap = 1 + next(40) as u32;
                pn.1 += gap;
                skipped_pns += gap as usize;
            }
            let n = tx.poll_control(now, &mut ctl);
            let payload = [tag, (step & 0xff) as u8, (step >> 8) as u8];
            let k = tx.next_send_at(now, pn.1, payload.len()).unwrap();
            pn.1 += 1;
            assert!(seen.insert((*k.key(), k.nonce())), "(key, nonce) reuse");
            let p = seal(&k, &ctl[..n], &payload);
            // 5 % loss; the rest is delivered in order (reordering is the
            // window's business, tested elsewhere).
            if next(20) != 0 {
                assert_eq!(open(rx, &p, now, &mut rng).unwrap(), payload);
                delivered += 1;
                // A duplicate is refused and changes nothing.
                assert!(open(rx, &p, now, &mut rng).is_err());
            }
        }
    }
    assert!(skipped_pns > 1000, "gaps exercised: {skipped_pns}");
    assert!(delivered > 10_000);
    let (sa, sb) = (ks[0].status(Instant(6000)), ks[1].status(Instant(6000)));
    assert!(
        sa.ratchets_completed >= 10 && sb.ratchets_completed >= 10,
        "{sa:?} {sb:?}"
    );
    assert!(sa.confirmed && sb.confirmed);
}

#[test]
fn caller_counters_must_increase_and_stay_within_max_jump() {
    let cfg = Config {
        ratchet_on_start: false,
        max_jump: 1000,
        ..Config::default()
    };
    let mut rng = pqdr_kat::Drbg::new(&[4; 48]);
    let mut a = Ks::new(&cfg, Role::Initiator, init(), Instant(0), &mut rng).unwrap();
    let mut b = Ks::new(&cfg, Role::Responder, init(), Instant(0), &mut rng).unwrap();
    let k = a.next_send_at(Instant(0), 10, 0).unwrap();
    assert_eq!(k.counter, 10);
    assert_eq!(
        a.next_send_at(Instant(0), 10, 0).unwrap_err(),
        Error::Replay
    );
    assert_eq!(a.next_send_at(Instant(0), 3, 0).unwrap_err(), Error::Replay);
    assert_eq!(
        a.next_send_at(Instant(0), 11 + 1000, 0).unwrap_err(),
        Error::TooFarAhead
    );
    // next_send continues after the caller's counter.
    assert_eq!(a.next_send(Instant(0), 0).unwrap().counter, 11);
    let p = seal(&k, &[], b"x");
    assert_eq!(open(&mut b, &p, Instant(0), &mut rng).unwrap(), b"x");
    // A forged packet (wrong tag) changes nothing: the real one still opens.
    let k2 = a.next_send_at(Instant(0), 500, 0).unwrap();
    let mut p2 = seal(&k2, &[], b"y");
    p2.tag[0] ^= 1;
    assert_eq!(
        open(&mut b, &p2, Instant(0), &mut rng).unwrap_err(),
        Error::Unauthentic
    );
    p2.tag[0] ^= 1;
    assert_eq!(open(&mut b, &p2, Instant(0), &mut rng).unwrap(), b"y");
}
