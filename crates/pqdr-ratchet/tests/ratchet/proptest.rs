//! Property tests (docs/protocol/ratchet.md §3.3).
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use crate::common;
use std::collections::BTreeSet;

use common::{ToyKem, init, rng};
use pqdr_ratchet::chacha20poly1305::aead::{AeadInOut, KeyInit};
use pqdr_ratchet::chacha20poly1305::{ChaCha20Poly1305, Nonce};
use pqdr_ratchet::codec::{Decoder, encode_symbol, symbol_count};
use pqdr_ratchet::wire::{Frame, Frames};
use pqdr_ratchet::{Config, Direction, Error, Instant, Mode, Role, Session, testing};
use proptest::prelude::*;

/// Small window: W = 64 bits, MAX_SKIPPED = 3, max_jump = 5.
type Small = Session<ToyKem, 1, 3>;
const W: u64 = 64;
const MS: usize = 3;
const MAX_JUMP: u64 = 5;

/// Reference model of the receive window (docs/protocol/ratchet.md §1.8–1.9) on sets.
#[derive(Default)]
struct Model {
    next: u64,
    received: BTreeSet<u64>,
    stored: BTreeSet<u64>,
}

impl Model {
    fn receive(&mut self, c: u64) -> Result<(), Error> {
        if c >= self.next {
            if c + 1 - self.next > MAX_JUMP {
                return Err(Error::TooFarAhead);
            }
            let keep = (c - self.next).min(MS as u64).min(W - 1);
            self.stored.retain(|&s| s + W > c);
            while self.stored.len() + keep as usize > MS {
                let low = *self.stored.iter().next().unwrap();
                self.stored.remove(&low);
            }
            self.stored.extend(c - keep..c);
            self.received.insert(c);
            self.next = c + 1;
            return Ok(());
        }
        if self.next - c > W {
            return Err(Error::TooOld);
        }
        if self.received.contains(&c) {
            return Err(Error::Replay);
        }
        if self.stored.remove(&c) {
            self.received.insert(c);
            return Ok(());
        }
        Err(Error::TooOld)
    }
}

fn small_cfg() -> Config {
    Config {
        ratchet_on_start: false,
        max_jump: MAX_JUMP as u32,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn window_matches_reference_model(order in proptest::collection::vec(0u64..120, 1..200)) {
        let cfg = small_cfg();
        let mut r = rng(9);
        let mut a = Small::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
        let mut b = Small::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
        let mut pkts = Vec::new();
        let mut buf = [0u8; 256];
        for i in 0..120u64 {
            let n = a.seal(Instant(0), b"", &i.to_be_bytes(), &mut buf, &mut r).unwrap();
            pkts.push(buf[..n].to_vec());
        }
        let mut model = Model::default();
        let mut out = [0u8; 256];
        for &c in &order {
            let got = b.open(Instant(0), b"", &pkts[c as usize], &mut out, &mut r).map(|o| {
                assert_eq!(&out[..o.len], &c.to_be_bytes());
            });
            prop_assert_eq!(got, model.receive(c), "counter {}", c);
        }
    }

    #[test]
    fn skip_chain_any_jumps_equal_sequential(targets in proptest::collection::btree_set(0u32..3000, 1..20)) {
        let root = [5u8; 32];
        for &t in &targets {
            prop_assert_eq!(testing::message_key(&root, Direction::R2I, t), sequential_key(&root, t));
        }
    }

    #[test]
    fn codec_any_k_of_n_decode(len in 1usize..2000, sym in 16usize..300, picks in proptest::collection::vec(any::<u8>(), 300)) {
        let blob: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
        let Some(k) = symbol_count(len, sym) else { return Ok(()) };
        // Distinct indices in 0..=254, in pick order.
        let mut seen = BTreeSet::new();
        let idxs: Vec<u8> = picks.iter().map(|p| p % 255).filter(|p| seen.insert(*p)).collect();
        prop_assume!(idxs.len() >= usize::from(k));
        let mut d = Decoder::new();
        d.reset(len);
        let mut s = vec![0u8; sym];
        let mut out = vec![0u8; len];
        for (i, &idx) in idxs.iter().take(usize::from(k)).enumerate() {
            prop_assert!(!d.decode(&mut out), "decoded with {} < k symbols", i);
            prop_assert_eq!(encode_symbol(&blob, sym, idx, &mut s), Ok(()));
            prop_assert_eq!(d.add(k, sym, idx, &s), i + 1 == usize::from(k));
        }
        prop_assert!(d.decode(&mut out));
        prop_assert_eq!(out, blob);
    }

    #[test]
    fn open_error_leaves_state_bit_identical(
        prefix in proptest::collection::vec((any::<bool>(), any::<bool>()), 0..60),
        junk in proptest::collection::vec(any::<u8>(), 0..300),
        flip in any::<(u16, u8)>(),
    ) {
        let cfg = Config::default();
        let mut r = rng(10);
        let mut a: Session<ToyKem> = Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
        let mut b: Session<ToyKem> = Session::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
        let mut buf = [0u8; 1500];
        let mut out = [0u8; 1500];
        let mut recent = Vec::new();
        // Random traffic (some packets lost) to reach varied states, incl. mid-ratchet.
        for (i, &(deliver, ctrl)) in prefix.iter().enumerate() {
            let now = Instant(i as u64);
            let n = if ctrl { a.poll_transmit(now, b"", &mut buf, &mut r) } else { a.seal(now, b"", b"data", &mut buf, &mut r).ok() };
            if let Some(n) = n {
                recent.push(buf[..n].to_vec());
                if deliver { let _ = b.open(now, b"", &buf[..n], &mut out, &mut r); }
            }
            if let Some(n) = b.poll_transmit(now, b"", &mut buf, &mut r)
                && deliver { let _ = a.open(now, b"", &buf[..n], &mut out, &mut r); }
        }
        let now = Instant(prefix.len() as u64);
        let mut candidates = vec![junk.clone()];
        if let Some(p) = recent.last() {
            let mut t = p.clone();
            let i = usize::from(flip.0) % t.len();
            t[i] ^= flip.1 | 1;
            candidates.push(t);
            candidates.push(p.clone());
        }
        for c in candidates {
            let mut before = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
            let mut after = before.clone();
            let n0 = b.snapshot(now, &mut before).unwrap();
            if b.open(now, b"", &c, &mut out, &mut r).is_err() {
                let n1 = b.snapshot(now, &mut after).unwrap();
                prop_assert_eq!(&before[..n0], &after[..n1]);
            }
        }
    }

    #[test]
    fn frames_roundtrip(rid in any::<u16>(), k in 1u8..30, idx in 0u8..=254, data in proptest::collection::vec(any::<u8>(), 1..200), lo in any::<u8>(), hi in any::<u32>()) {
        let mut p = vec![0x10];
        p.extend_from_slice(&rid.to_be_bytes());
        p.extend_from_slice(&[1, k]);
        p.extend_from_slice(&(data.len() as u16).to_be_bytes());
        p.push(idx);
        p.extend_from_slice(&data);
        p.extend_from_slice(&[0x12, lo, 0x14, lo]);
        p.extend_from_slice(&hi.to_be_bytes());
        p.extend_from_slice(&[0x02, 0x03, 9, 8, 7, 0x01, 1, 2]);
        let f: Vec<Frame<'_>> = Frames::new(&p).collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(f.len(), 5);
        match f[0] { Frame::Symbol(s) => { prop_assert_eq!((s.rid, s.k, s.idx, s.data), (rid, k, idx, &data[..])); } _ => prop_assert!(false) }
        prop_assert_eq!(f[1], Frame::Request { next_epoch_lo: lo });
        prop_assert_eq!(f[2], Frame::RecvReport { epoch_lo: lo, highest: hi });
        match (f[3], f[4]) { (Frame::Data { len: 3, .. }, Frame::Data { len: 2, .. }) => {}, _ => prop_assert!(false) }
    }
}

fn sequential_key(root: &[u8; 32], t: u32) -> [u8; 32] {
    // Sequential walk, written out from the spec with plain derive_key calls.
    const P: &str = "pqdr-ratchet v2 2026-11-25T20:00Z ";
    let mut seg = blake3::derive_key(&format!("{P}segment 0 r2i"), root);
    let mut ck = blake3::derive_key(&format!("{P}inner 0"), &seg);
    seg = blake3::derive_key(&format!("{P}segment step"), &seg);
    // Groups of 8 (revision 2026-12-03): ck' ‖ gk = DK_64(group step, ck ‖ be32(c0)),
    // mk_c = DK(packet key, gk ‖ be32(c) ‖ 0^28).
    let mut c0 = 0u32;
    loop {
        let mut h = blake3::Hasher::new_derive_key(&format!("{P}group step"));
        h.update(&ck);
        h.update(&c0.to_be_bytes());
        let mut out = [0u8; 64];
        h.finalize_xof().fill(&mut out);
        if t - c0 < 8 {
            let mut m = [0u8; 64];
            m[..32].copy_from_slice(&out[32..]);
            m[32..36].copy_from_slice(&t.to_be_bytes());
            return blake3::derive_key(&format!("{P}packet key"), &m);
        }
        ck.copy_from_slice(&out[..32]);
        c0 += 8;
        if c0.is_multiple_of(256) {
            ck = blake3::derive_key(&format!("{P}inner 0"), &seg);
            seg = blake3::derive_key(&format!("{P}segment step"), &seg);
        }
    }
}

/// An authentic epoch-0 I2R record with arbitrary frames, sealed with the
/// key of `s`'s send chain (test-only leak; `s` must not have sent `counter` yet).
fn craft(s: &Session<ToyKem>, counter: u32, frames: &[u8]) -> Vec<u8> {
    let mk = s.leak_send_chain(0).unwrap().key_at(counter).unwrap();
    let mut h = vec![pqdr_ratchet::wire::FLAGS, 0];
    h.extend_from_slice(&counter.to_be_bytes());
    let mut body = frames.to_vec();
    let nonce = testing::record_nonce(Direction::I2R, 0, counter);
    let tag = ChaCha20Poly1305::new((&mk).into())
        .encrypt_inout_detached(&Nonce::from(nonce), &h, (&mut body[..]).into())
        .unwrap();
    h.extend_from_slice(&body);
    h.extend_from_slice(&tag);
    h
}

#[test]
fn unknown_frame_type_drops_without_commit() {
    let cfg = Config {
        ratchet_on_start: false,
        ..Config::default()
    };
    let mut r = rng(11);
    let a: Session<ToyKem> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut b: Session<ToyKem> =
        Session::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
    let mut out = [0u8; 512];
    let mut before = vec![0u8; 40_000];
    let mut after = before.clone();
    let n0 = b.snapshot(Instant(0), &mut before).unwrap();
    for bad in [
        &[0x7f, 1, 2][..],
        &[0x00, 0x00, 0x01][..],
        &[0x10, 0, 1][..],
        &[0x02, 1, 5, 0x02, 1, 6][..],
    ] {
        let p = craft(&a, 0, bad);
        assert_eq!(
            b.open(Instant(0), b"", &p, &mut out, &mut r),
            Err(Error::Malformed),
            "{bad:?}"
        );
        let n1 = b.snapshot(Instant(0), &mut after).unwrap();
        assert_eq!(before[..n0], after[..n1]);
    }
    // The same counter still opens with valid frames.
    let p = craft(&a, 0, &[0x01, b'o', b'k']);
    let o = b.open(Instant(0), b"", &p, &mut out, &mut r).unwrap();
    assert_eq!(&out[..o.len], b"ok");
}

#[test]
fn swapped_roles_never_decrypt() {
    let cfg = Config::default();
    let mut r = rng(12);
    let mut a: Session<ToyKem> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut b: Session<ToyKem> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut buf = [0u8; 1500];
    let mut out = [0u8; 1500];
    for i in 0..20 {
        let n = a.seal(Instant(i), b"", b"x", &mut buf, &mut r).unwrap();
        assert_eq!(
            b.open(Instant(i), b"", &buf[..n], &mut out, &mut r),
            Err(Error::Unauthentic)
        );
    }
    assert!(!b.status(Instant(20)).confirmed);
    // Stream mode: the first failure closes the session.
    let cfg = Config {
        mode: Mode::Stream,
        ..Config::default()
    };
    let mut a: Session<ToyKem> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut b: Session<ToyKem> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let n = a.seal(Instant(0), b"", b"x", &mut buf, &mut r).unwrap();
    assert_eq!(
        b.open(Instant(0), b"", &buf[..n], &mut out, &mut r),
        Err(Error::Unauthentic)
    );
    assert_eq!(
        b.open(Instant(0), b"", &buf[..n], &mut out, &mut r),
        Err(Error::Closed)
    );
}

#[test]
fn export_import_continue_matches_twin_with_reservation() {
    let cfg = Config {
        ratchet_on_start: false,
        ..Config::default()
    };
    let mut r = rng(13);
    let mut a: Session<ToyKem> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut twin: Session<ToyKem> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let mut b: Session<ToyKem> =
        Session::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
    let mut buf = [0u8; 1500];
    let mut buf2 = [0u8; 1500];
    let mut out = [0u8; 1500];
    for _ in 0..10 {
        let n = a.seal(Instant(0), b"", b"x", &mut buf, &mut r).unwrap();
        let m = twin.seal(Instant(0), b"", b"x", &mut buf2, &mut r).unwrap();
        assert_eq!(buf[..n], buf2[..m]);
        b.open(Instant(0), b"", &buf[..n], &mut out, &mut r)
            .unwrap();
    }
    let key = [0x5au8; 32];
    let mut st = a.export_state_to_vec(7, &key, Instant(0), &mut r).unwrap();
    let mut a2: Session<ToyKem> = Session::import_state(
        &cfg,
        &key,
        a.session_id(),
        &mut st,
        a.generation(),
        Instant(0),
    )
    .unwrap();
    // A restored session sends nothing before it has been exported again.
    assert_eq!(
        a2.seal(Instant(0), b"", b"y", &mut buf, &mut r),
        Err(Error::ExportRequired)
    );
    let _ = a2
        .export_state_to_vec(10, &key, Instant(0), &mut r)
        .unwrap();
    a2.confirm_persisted(a2.generation()).unwrap();
    // The twin skips the 7 reserved positions; then both produce identical records.
    for _ in 0..7 {
        twin.seal(Instant(0), b"", b"skip", &mut buf2, &mut r)
            .unwrap();
    }
    for _ in 0..10 {
        let n = a2.seal(Instant(0), b"", b"y", &mut buf, &mut r).unwrap();
        let m = twin.seal(Instant(0), b"", b"y", &mut buf2, &mut r).unwrap();
        assert_eq!(buf[..n], buf2[..m]);
        b.open(Instant(0), b"", &buf[..n], &mut out, &mut r)
            .unwrap();
    }
    // The second export reserved exactly 10 records.
    assert_eq!(
        a2.seal(Instant(0), b"", b"z", &mut buf, &mut r),
        Err(Error::ReservationExhausted)
    );
}
