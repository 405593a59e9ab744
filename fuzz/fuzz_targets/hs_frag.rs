//! The fragmentation envelope (docs/protocol/fragmentation.md): arbitrary
//! datagrams into a `Reassembler` never panic, never store anything on an
//! error, never hold more than the slots or a source more than 2 of them,
//! and only ever return whole messages that start with the header of the
//! fragments they came from; any message cut by `fragment` comes back
//! byte for byte in any order.
//!
//! Input: `mode ‖ bytes`. mode bit 0: 0 = round trip (`bytes` is the
//! message, the next byte of `mode` orders the fragments), 1 = a sequence of
//! `op ‖ be16 len ‖ datagram` records. op bits 0–1 the source, 2 re-MAC the
//! datagram under the right key (so it reaches the slot logic), 3–4 the message
//! type that key is for, 5–7 time advance (× 1 s).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_handshake::Instant;
use pqdr_handshake::frag::{FRAG_MAC, FRAG_PAYLOAD, FragKeys, MAX_DATAGRAM, Reassembler, fragment};
use pqdr_handshake::wire::MSG3_MAX;
use rand_core::{Infallible, TryCryptoRng, TryRng};

const HPK: [u8; 32] = [0x5a; 32];
const CTX: &str = "pqdr-handshake v1 2026-11-25T22:00Z fragment mac";
type R = Reassembler<4, MSG3_MAX>;

struct Fixed;
impl TryRng for Fixed {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(7)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(7)
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Infallible> {
        d.fill(7);
        Ok(())
    }
}
impl TryCryptoRng for Fixed {}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        round_trip(mode, rest);
    } else {
        sequence(rest);
    }
});

fn round_trip(mode: u8, rest: &[u8]) {
    let keys = FragKeys::for_responder(&HPK);
    let mut msg = rest.to_vec();
    if msg.len() >= 8 {
        msg[0] = 1 + (msg[0] % 3);
        if msg[0] == 2 {
            msg[0] = 3; // no msg2 key on this side
        }
        msg[1] = pqdr_handshake::wire::VERSION;
    }
    let Ok(frags) = fragment(&msg, &keys) else {
        assert!(msg.len() < 8 || msg.len() > 32 * FRAG_PAYLOAD);
        return;
    };
    let ds: Vec<_> = frags.collect();
    assert!(ds.iter().all(|d| d.len() <= MAX_DATAGRAM));
    if msg.len() <= MAX_DATAGRAM {
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].as_bytes(), &msg[..]);
        return;
    }
    if msg.len() > MSG3_MAX {
        return;
    }
    let mut r = R::new(&mut Fixed);
    let mut out = vec![0u8; MSG3_MAX];
    // A rotation of the fragments, set by `mode`.
    let k = usize::from(mode >> 1) % ds.len();
    let mut got = None;
    for j in 0..ds.len() {
        let d = &ds[(j + k) % ds.len()];
        let res = r.push(&keys, b"src", d, Instant(0), &mut out).expect("valid fragment");
        assert_eq!(res.is_some(), j + 1 == ds.len());
        got = got.or(res);
    }
    assert_eq!(&out[..got.expect("complete")], &msg[..]);
    assert_eq!(r.pending(Instant(0)), 0);
}

fn sequence(mut rest: &[u8]) {
    let keys = FragKeys::for_responder(&HPK);
    let mut r = R::new(&mut Fixed);
    let mut out = vec![0u8; MSG3_MAX];
    let mut now = 0u64;
    while rest.len() >= 3 {
        let op = rest[0];
        let len = usize::from(u16::from_be_bytes([rest[1], rest[2]])).min(rest.len() - 3);
        let mut d = rest[3..3 + len].to_vec();
        rest = &rest[3 + len..];
        now += u64::from(op >> 5) * 1000;
        let t = Instant(now);
        if op & 4 != 0 && d.len() >= FRAG_MAC {
            let ty = [1u8, 3, 2, 4][usize::from((op >> 3) & 3)];
            let mut m = vec![ty];
            m.extend_from_slice(&HPK);
            let key = blake3::derive_key(CTX, &m);
            let at = d.len() - FRAG_MAC;
            let mac = blake3::keyed_hash(&key, &d[..at]);
            d[at..].copy_from_slice(&mac.as_bytes()[..16]);
        }
        let src = [b'a' + (op & 3)];
        let before = r.pending(t);
        match r.push(&keys, &src, &d, t, &mut out) {
            Err(_) => assert_eq!(r.pending(t), before, "an error stores nothing"),
            Ok(None) => assert!(r.pending(t) <= 4 && r.pending(t) >= before.min(1)),
            Ok(Some(n)) => {
                assert!(n > MAX_DATAGRAM - 27 && n <= MSG3_MAX);
                // The message starts with its own header, as the fragments said.
                assert_eq!(out[0], d[8]);
                assert_eq!(&out[1..8], &d[1..8]);
            }
        }
    }
}
