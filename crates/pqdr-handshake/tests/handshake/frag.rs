//! The fragmentation envelope (docs/protocol/fragmentation.md): every suite's
//! handshake through fragments of ≤ 1,232 bytes, reordering and duplicates,
//! forged fragments store nothing, one source cannot evict another's
//! reassembly, the memory bound, and a typed error for every malformed fragment.
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines,
    clippy::cast_possible_truncation,
    clippy::integer_division_remainder_used,
    reason = "test code on public values"
)]
use crate::common;
use common::*;
use pqdr_handshake::frag::{
    FRAG_HDR, FRAG_MAC, FRAG_PAYLOAD, FRAGMENT, FragKeys, MAX_DATAGRAM, PER_SOURCE,
    REASSEMBLY_TIMEOUT_MS, Reassembler, fragment, is_fragment,
};
use pqdr_handshake::wire::{MSG2_MAX, MSG3_MAX, VERSION};
use pqdr_handshake::{
    Ephemeral, Error, Initiator, Instant, K768, KMc, KNt, Load, Reply, S44, S65, S87,
};

/// The responder's reassembler in these tests.
type RespR = Reassembler<8, MSG3_MAX>;
/// The initiator's: one slot of msg2 size.
type InitR = Reassembler<1, MSG2_MAX>;

/// The spec's formulas, computed here independently of the crate:
/// K_frag = DK(ctx, type ‖ base), mac = KH(K_frag, header ‖ payload)[..16].
const CTX: &str = "pqdr-handshake v1 2026-11-25T22:00Z fragment mac";
fn spec_key(ty: u8, base: &[u8; 32]) -> [u8; 32] {
    let mut m = vec![ty];
    m.extend_from_slice(base);
    blake3::derive_key(CTX, &m)
}

/// A fragment built by hand: header fields, payload, MAC under `key`.
#[allow(clippy::too_many_arguments)]
fn raw(key: &[u8; 32], ty: u8, suite: u16, sender: u32, idx: u8, count: u8, p: &[u8]) -> Vec<u8> {
    let mut d = vec![FRAGMENT, VERSION];
    d.extend_from_slice(&suite.to_be_bytes());
    d.extend_from_slice(&sender.to_be_bytes());
    d.extend_from_slice(&[ty, idx, count]);
    d.extend_from_slice(p);
    let mac = blake3::keyed_hash(key, &d);
    d.extend_from_slice(&mac.as_bytes()[..16]);
    d
}

/// A message-shaped byte string: its own header, then a pattern.
fn message(ty: u8, suite: u16, sender: u32, len: usize) -> Vec<u8> {
    let mut m: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
    m[0] = ty;
    m[1] = VERSION;
    m[2..4].copy_from_slice(&suite.to_be_bytes());
    m[4..8].copy_from_slice(&sender.to_be_bytes());
    m
}

const HPK: [u8; 32] = [0x42; 32];

/// Sends `msg` as datagrams (every one ≤ 1,232 B, the count as specified), in
/// reverse order, into `r`; returns the reassembled message.
fn through<const S: usize, const L: usize>(
    msg: &[u8],
    keys: &FragKeys,
    r: &mut Reassembler<S, L>,
    now: Instant,
) -> Vec<u8> {
    let ds: Vec<_> = fragment(msg, keys).unwrap().collect();
    for d in &ds {
        assert!(d.len() <= MAX_DATAGRAM, "datagram of {} B", d.len());
    }
    if msg.len() <= MAX_DATAGRAM {
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].as_bytes(), msg, "a small message is sent as before");
        assert!(!is_fragment(&ds[0]));
        return msg.to_vec();
    }
    assert_eq!(ds.len(), msg.len().div_ceil(FRAG_PAYLOAD));
    let mut out = vec![0u8; L];
    let mut done = None;
    for (k, d) in ds.iter().enumerate().rev() {
        assert!(is_fragment(d));
        let res = r.push(keys, SRC, d, now, &mut out).unwrap();
        assert_eq!(
            res.is_some(),
            k == 0,
            "complete exactly at the last fragment"
        );
        done = res;
    }
    assert_eq!(r.pending(now), 0, "the slot is free again");
    out[..done.unwrap()].to_vec()
}

/// A whole handshake through the envelope in both directions.
fn handshake<A: TestKeys>(hybrid: bool, eph: Ephemeral) -> [usize; 3] {
    let w = World::<A>::new(hybrid, eph);
    let mut resp = w.responder(3);
    let mut table = w.table();
    let now = Instant(1_000);
    let (mut rng_i, mut rng_r) = (rng(7), rng(8));
    let mut init = Initiator::start(
        &w.cfg(),
        &w.i.id,
        clock(),
        table.rec.last_timestamp(),
        now,
        &mut rng_i,
    )
    .unwrap();
    let mut rr = RespR::new(&mut rng(9));
    let mut ir = InitR::new(&mut rng(10));
    let mut m1 = vec![0u8; 4096];
    let n1 = init.poll_transmit(now, &mut m1).unwrap();
    let ikeys = init.frag_keys();
    let rkeys = resp.frag_keys();
    let got1 = through(&m1[..n1], &ikeys, &mut rr, now);
    assert_eq!(got1, &m1[..n1]);
    let mut m2 = vec![0u8; 6144];
    let Reply::Msg2(n2) = resp
        .handle_msg1(
            &mut table,
            SRC,
            &got1,
            Load::Normal,
            now,
            &mut rng_r,
            &mut m2,
        )
        .unwrap()
    else {
        panic!("cookie reply")
    };
    // msg2: fragmented under k_m by the responder, reassembled by the initiator.
    let ds: Vec<_> = resp.msg2_fragments(&m2[..n2]).unwrap().collect();
    let mut out2 = vec![0u8; MSG2_MAX];
    let mut n2r = None;
    for d in ds.iter().rev() {
        assert!(d.len() <= MAX_DATAGRAM);
        if n2 <= MAX_DATAGRAM {
            n2r = Some(d.len());
            out2[..d.len()].copy_from_slice(d);
        } else {
            // The responder's keys have no msg2 key: it cannot take msg2 fragments.
            assert_eq!(
                rr.push(&rkeys, SRC, d, now, &mut out2),
                Err(Error::MessageType)
            );
            n2r = ir.push(&ikeys, SRC, d, now, &mut out2).unwrap();
        }
    }
    assert_eq!(&out2[..n2r.unwrap()], &m2[..n2]);
    let a = init
        .handle_msg2(&out2[..n2], &w.i.id, now, &mut rng_i)
        .unwrap();
    let msg3 = a.msg3().unwrap();
    let got3 = through(msg3, &ikeys, &mut rr, now);
    let b = resp
        .handle_msg3(&mut table, SRC, &got3, Load::Normal, now)
        .unwrap();
    assert_eq!(
        a.initial_secret_for_test().secret,
        b.initial_secret_for_test().secret
    );
    let pk = |n: usize| {
        if n <= MAX_DATAGRAM {
            1
        } else {
            n.div_ceil(FRAG_PAYLOAD)
        }
    };
    println!(
        "{:8} msg1 {n1:5} ({} pkt) msg2 {n2:5} ({} pkt) msg3 {:5} ({} pkt)",
        init.suite().name(),
        pk(n1),
        pk(n2),
        msg3.len(),
        pk(msg3.len())
    );
    [pk(n1), pk(n2), pk(msg3.len())]
}

#[test]
fn every_suite_through_fragments() {
    let m = Ephemeral::MlKem768;
    assert_eq!(handshake::<K768>(false, m), [2, 2, 1]);
    assert_eq!(handshake::<K768>(true, m), [3, 2, 1]);
    assert_eq!(handshake::<KNt>(false, m), [2, 2, 1]);
    assert_eq!(handshake::<KNt>(true, m), [2, 2, 1]);
    assert_eq!(handshake::<S44>(false, m), [2, 4, 3]);
    assert_eq!(handshake::<S65>(false, m), [2, 4, 3]);
    assert_eq!(handshake::<S87>(false, m), [2, 5, 5]);
    assert_eq!(handshake::<S44>(true, m), [2, 4, 3]);
    assert_eq!(handshake::<S65>(true, m), [2, 4, 3]);
    assert_eq!(handshake::<S87>(true, m), [2, 5, 5]);
}

#[test]
fn mceliece_suites_through_fragments() {
    let m = Ephemeral::MlKem768;
    assert_eq!(handshake::<KMc>(false, m), [2, 2, 1]);
    assert_eq!(handshake::<KMc>(true, m), [2, 2, 1]);
    // KMc-c: every message ≤ 1,232 B, sent whole as before.
    assert_eq!(handshake::<KMc>(false, Ephemeral::MlKem512), [1, 1, 1]);
}

#[test]
fn out_of_order_and_duplicates() {
    let keys = FragKeys::for_responder(&HPK);
    let msg = message(1, 0x0001, 77, 4000);
    let ds: Vec<_> = fragment(&msg, &keys).unwrap().collect();
    assert_eq!(ds.len(), 4);
    let mut r = RespR::new(&mut rng(1));
    let mut out = vec![0u8; MSG3_MAX];
    let now = Instant(0);
    for i in [2usize, 0, 3] {
        assert_eq!(r.push(&keys, SRC, &ds[i], now, &mut out), Ok(None));
        // The same fragment again: refused, nothing changes.
        assert_eq!(
            r.push(&keys, SRC, &ds[i], now, &mut out),
            Err(Error::FragmentDuplicate)
        );
    }
    assert_eq!(r.pending(now), 1);
    assert_eq!(r.push(&keys, SRC, &ds[1], now, &mut out), Ok(Some(4000)));
    assert_eq!(&out[..4000], &msg[..]);
    // A late duplicate after completion is still a duplicate (it does not start
    // a reassembly of its own).
    for d in &ds {
        assert_eq!(
            r.push(&keys, SRC, d, now, &mut out),
            Err(Error::FragmentDuplicate)
        );
    }
    assert_eq!(r.pending(now), 0);
}

/// msg1 resent with mac2 after a cookie reply differs in its last fragment
/// only: the slot holding the first transmission (complete, or missing a
/// fragment) returns the new message as soon as the changed fragment arrives.
#[test]
fn resend_with_changed_last_fragment() {
    let keys = FragKeys::for_responder(&HPK);
    let a = message(1, 0x0001, 5, 2388);
    let mut b = a.clone();
    b[2388 - 16..].fill(0xCC); // mac2 filled in
    let da: Vec<_> = fragment(&a, &keys).unwrap().collect();
    let db: Vec<_> = fragment(&b, &keys).unwrap().collect();
    assert_eq!(da[0].as_bytes(), db[0].as_bytes());
    let now = Instant(0);
    let mut out = vec![0u8; MSG3_MAX];
    // a completed, then b's fragments.
    let mut r = RespR::new(&mut rng(1));
    assert_eq!(r.push(&keys, SRC, &da[0], now, &mut out), Ok(None));
    assert_eq!(r.push(&keys, SRC, &da[1], now, &mut out), Ok(Some(2388)));
    assert_eq!(&out[..2388], &a[..]);
    assert_eq!(
        r.push(&keys, SRC, &db[0], now, &mut out),
        Err(Error::FragmentDuplicate)
    );
    assert_eq!(r.push(&keys, SRC, &db[1], now, &mut out), Ok(Some(2388)));
    assert_eq!(&out[..2388], &b[..]);
    // a's first fragment lost: its last one waits; b's first completes the old
    // bytes (identical first fragment), b's last then gives b.
    let mut r = RespR::new(&mut rng(1));
    assert_eq!(r.push(&keys, SRC, &da[1], now, &mut out), Ok(None));
    assert_eq!(r.push(&keys, SRC, &db[0], now, &mut out), Ok(Some(2388)));
    assert_eq!(&out[..2388], &a[..]);
    assert_eq!(r.push(&keys, SRC, &db[1], now, &mut out), Ok(Some(2388)));
    assert_eq!(&out[..2388], &b[..]);
    assert_eq!(r.pending(now), 0);
}

#[test]
fn forged_fragments_store_nothing() {
    let keys = FragKeys::for_responder(&HPK);
    let msg = message(1, 0x0001, 5, 2388);
    let ds: Vec<_> = fragment(&msg, &keys).unwrap().collect();
    let mut r = RespR::new(&mut rng(1));
    let mut out = vec![0u8; MSG3_MAX];
    let now = Instant(0);
    // Someone who does not know hpk_R: another key, and every single-bit flip.
    let other = FragKeys::for_responder(&[0x43; 32]);
    let forged: Vec<_> = fragment(&msg, &other).unwrap().collect();
    for d in forged.iter().chain(ds.iter()) {
        for bit in [0usize, 8 * 9, 8 * 12, 8 * (d.len() - 17), 8 * (d.len() - 1)] {
            let mut f = d.to_vec();
            f[bit / 8] ^= 1 << (bit % 8);
            let e = r.push(&keys, SRC, &f, now, &mut out).unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::FragmentMac | Error::MessageType | Error::FragmentHeader
                ),
                "{e:?}"
            );
        }
        if forged.iter().any(|x| x.as_bytes() == d.as_bytes()) {
            assert_eq!(
                r.push(&keys, SRC, d, now, &mut out),
                Err(Error::FragmentMac)
            );
        }
    }
    assert_eq!(r.pending(now), 0, "nothing stored");
    // The real fragments still go through, in order.
    assert_eq!(r.push(&keys, SRC, &ds[0], now, &mut out), Ok(None));
    assert_eq!(r.push(&keys, SRC, &ds[1], now, &mut out), Ok(Some(2388)));
    assert_eq!(&out[..2388], &msg[..]);
    // The MAC is the specified one (an independent computation).
    let k = spec_key(1, &HPK);
    let d = &ds[0];
    let at = d.len() - FRAG_MAC;
    assert_eq!(&d[at..], &blake3::keyed_hash(&k, &d[..at]).as_bytes()[..16]);
}

#[test]
fn one_source_cannot_evict_another() {
    let keys = FragKeys::for_responder(&HPK);
    let k1 = spec_key(1, &HPK);
    let mut r = Reassembler::<4, MSG3_MAX>::new(&mut rng(1));
    let mut out = vec![0u8; MSG3_MAX];
    let victim = message(1, 0x0001, 1, 2388);
    let vd: Vec<_> = fragment(&victim, &keys).unwrap().collect();
    assert_eq!(
        r.push(&keys, b"victim:1", &vd[0], Instant(0), &mut out),
        Ok(None)
    );
    // The attacker knows hpk_R: valid fragments, a new sender index each time,
    // 1,000 reassemblies from one source address.
    for s in 0..1000u32 {
        let m = message(1, 0x0001, 1000 + s, 2388);
        let d = raw(&k1, 1, 0x0001, 1000 + s, 0, 2, &m[..FRAG_PAYLOAD]);
        assert_eq!(
            r.push(&keys, b"attacker:1", &d, Instant(u64::from(s)), &mut out),
            Ok(None)
        );
        assert!(r.pending(Instant(u64::from(s))) <= 1 + PER_SOURCE);
    }
    assert_eq!(
        r.push(&keys, b"victim:1", &vd[1], Instant(1000), &mut out),
        Ok(Some(2388))
    );
    assert_eq!(&out[..2388], &victim[..]);
    // Many sources: the oldest reassembly goes first.
    let mut last = victim.clone();
    last[4..8].copy_from_slice(&9u32.to_be_bytes());
    for (i, src) in [b"a:1", b"b:1", b"c:1", b"d:1", b"e:1"].iter().enumerate() {
        let d = raw(&k1, 1, 1, 9, 0, 2, &last[..FRAG_PAYLOAD]);
        let t = Instant(2000 + i as u64);
        assert_eq!(r.push(&keys, *src, &d, t, &mut out), Ok(None));
    }
    assert_eq!(r.pending(Instant(2005)), 4);
    let tail = raw(&k1, 1, 1, 9, 1, 2, &last[FRAG_PAYLOAD..]);
    // a's reassembly was evicted (its tail starts a new one), e's completes.
    assert_eq!(
        r.push(&keys, b"a:1", &tail, Instant(2006), &mut out),
        Ok(None)
    );
    assert_eq!(
        r.push(&keys, b"e:1", &tail, Instant(2006), &mut out),
        Ok(Some(2388))
    );
}

#[test]
fn memory_bound() {
    let resp = size_of::<Reassembler<16, MSG3_MAX>>();
    let init = size_of::<Reassembler<1, MSG2_MAX>>();
    println!("Reassembler<16, {MSG3_MAX}>: {resp} B; Reassembler<1, {MSG2_MAX}>: {init} B");
    assert!(resp <= 16 * (MSG3_MAX + 64) + 64, "{resp}");
    assert!(init <= MSG2_MAX + 128, "{init}");
    // Per slot: the data plus at most 64 bytes of bookkeeping.
    let per = size_of::<Reassembler<2, MSG3_MAX>>() - size_of::<Reassembler<1, MSG3_MAX>>();
    assert!(per <= MSG3_MAX + 64, "{per}");
}

#[test]
fn malformed_fragments_have_typed_errors() {
    let keys = FragKeys::for_responder(&HPK);
    let k1 = spec_key(1, &HPK);
    let k3 = spec_key(3, &HPK);
    let msg = message(1, 0x0001, 5, 2388);
    let full = &msg[..FRAG_PAYLOAD];
    let mut r = RespR::new(&mut rng(1));
    let mut out = vec![0u8; MSG3_MAX];
    let now = Instant(0);
    let mut push = |d: &[u8], out: &mut Vec<u8>| r.push(&keys, SRC, d, now, out);
    let cases: Vec<(Vec<u8>, Error)> = vec![
        // Truncated: header and MAC only, or less.
        (vec![FRAGMENT; FRAG_HDR + FRAG_MAC], Error::FragmentHeader),
        (vec![], Error::FragmentHeader),
        // Oversized: one payload byte too many.
        (
            raw(&k1, 1, 1, 5, 0, 2, &[full, &[0u8][..]].concat()),
            Error::FragmentHeader,
        ),
        // count 1 (a whole message is sent as itself), index ≥ count, count 0.
        (raw(&k1, 1, 1, 5, 0, 1, full), Error::FragmentHeader),
        (raw(&k1, 1, 1, 5, 2, 2, full), Error::FragmentHeader),
        (raw(&k1, 1, 1, 5, 0, 0, full), Error::FragmentHeader),
        // More fragments than MAX_LEN holds (4,864 B: 5).
        (raw(&k1, 1, 1, 5, 0, 6, full), Error::FragmentHeader),
        // A short fragment that is not the last.
        (raw(&k1, 1, 1, 5, 0, 2, &full[..100]), Error::FragmentHeader),
        // The last fragment makes the message longer than MAX_LEN.
        (raw(&k1, 1, 1, 5, 4, 5, &full[..100]), Error::FragmentHeader),
        // Type and version bytes; message type 2 (no key here) and 4.
        (
            {
                let mut d = raw(&k1, 1, 1, 5, 0, 2, full);
                d[0] = 1;
                d
            },
            Error::MessageType,
        ),
        (
            {
                let mut d = raw(&k1, 1, 1, 5, 0, 2, full);
                d[1] = 1; // v1's version byte
                d
            },
            Error::Version,
        ),
        (raw(&k1, 2, 1, 5, 0, 2, full), Error::MessageType),
        (raw(&k1, 4, 1, 5, 0, 2, full), Error::MessageType),
        // Right shape, wrong key (msg3's key on a msg1 fragment).
        (raw(&k3, 1, 1, 5, 0, 2, full), Error::FragmentMac),
        // The first fragment's message header disagrees with the fragment header.
        (raw(&k1, 1, 2, 5, 0, 2, full), Error::FragmentMismatch),
        (raw(&k1, 1, 1, 6, 0, 2, full), Error::FragmentMismatch),
        (raw(&k3, 3, 1, 5, 0, 2, full), Error::FragmentMismatch),
    ];
    for (i, (d, e)) in cases.iter().enumerate() {
        assert_eq!(push(d, &mut out), Err(*e), "case {i}");
    }
    assert_eq!(r.pending(now), 0, "nothing stored");
    // Inconsistent with what is stored: another count, another suite.
    let mut r = RespR::new(&mut rng(1));
    let tail = &msg[FRAG_PAYLOAD..];
    assert_eq!(
        r.push(&keys, SRC, &raw(&k1, 1, 1, 5, 0, 2, full), now, &mut out),
        Ok(None)
    );
    assert_eq!(
        r.push(&keys, SRC, &raw(&k1, 1, 1, 5, 1, 3, full), now, &mut out),
        Err(Error::FragmentMismatch)
    );
    assert_eq!(
        r.push(&keys, SRC, &raw(&k1, 1, 2, 5, 1, 2, tail), now, &mut out),
        Err(Error::FragmentMismatch)
    );
    // The output buffer too small for the whole message: refused, nothing stored.
    let mut small = vec![0u8; 2000];
    assert_eq!(
        r.push(&keys, SRC, &raw(&k1, 1, 1, 5, 1, 2, tail), now, &mut small),
        Err(Error::BufferTooSmall)
    );
    assert_eq!(
        r.push(&keys, SRC, &raw(&k1, 1, 1, 5, 1, 2, tail), now, &mut out),
        Ok(Some(2388))
    );
    assert_eq!(&out[..2388], &msg[..]);
    // The sender side: too short, too many fragments, no key for the type.
    assert_eq!(
        fragment(&msg[..7], &keys).err(),
        Some(Error::Length {
            expected: 8,
            actual: 7
        })
    );
    let huge = message(1, 1, 5, 33 * FRAG_PAYLOAD);
    assert_eq!(
        fragment(&huge, &keys).err(),
        Some(Error::Length {
            expected: 32 * 1205,
            actual: huge.len()
        })
    );
    let m2 = message(2, 1, 5, 2368);
    assert_eq!(fragment(&m2, &keys).err(), Some(Error::MessageType));
}

#[test]
fn reassembly_expires() {
    let keys = FragKeys::for_responder(&HPK);
    let msg = message(3, 0x0041, 5, 3546);
    let ds: Vec<_> = fragment(&msg, &keys).unwrap().collect();
    let mut r = RespR::new(&mut rng(1));
    let mut out = vec![0u8; MSG3_MAX];
    assert_eq!(r.push(&keys, SRC, &ds[0], Instant(0), &mut out), Ok(None));
    assert_eq!(r.push(&keys, SRC, &ds[1], Instant(100), &mut out), Ok(None));
    // 5 s after the first fragment the reassembly is gone: the last fragment
    // starts a new one instead of completing the old.
    let t = Instant(REASSEMBLY_TIMEOUT_MS);
    assert_eq!(r.pending(t), 0);
    assert_eq!(r.push(&keys, SRC, &ds[2], t, &mut out), Ok(None));
    assert_eq!(r.push(&keys, SRC, &ds[0], t, &mut out), Ok(None));
    assert_eq!(r.push(&keys, SRC, &ds[1], t, &mut out), Ok(Some(3546)));
    assert_eq!(&out[..3546], &msg[..]);
}

#[test]
fn msg2_fragments_only_for_the_last_msg2() {
    let w = World::<K768>::new(false, Ephemeral::MlKem768);
    let mut resp = w.responder(3);
    let mut table = w.table();
    let now = Instant(0);
    let mut rng_i = rng(7);
    let mut init = Initiator::start(
        &w.cfg(),
        &w.i.id,
        clock(),
        table.rec.last_timestamp(),
        now,
        &mut rng_i,
    )
    .unwrap();
    let mut m1 = vec![0u8; 4096];
    let n1 = init.poll_transmit(now, &mut m1).unwrap();
    let mut m2 = vec![0u8; 6144];
    let Ok(Reply::Msg2(n2)) = resp.handle_msg1(
        &mut table,
        SRC,
        &m1[..n1],
        Load::Normal,
        now,
        &mut rng(8),
        &mut m2,
    ) else {
        panic!()
    };
    let mut bad = m2[..n2].to_vec();
    bad[100] ^= 1;
    assert_eq!(resp.msg2_fragments(&bad).err(), Some(Error::WrongState));
    assert_eq!(
        resp.msg2_fragments(&m2[..10]).err(),
        Some(Error::Length {
            expected: 24,
            actual: 10
        })
    );
    let ds: Vec<_> = resp.msg2_fragments(&m2[..n2]).unwrap().collect();
    // The initiator's msg2 key is k_m: a reassembler keyed only from hpk_R refuses.
    let mut ir = InitR::new(&mut rng(2));
    let mut out = vec![0u8; MSG2_MAX];
    let only_r = FragKeys::for_responder(w.r.id.key_id());
    assert_eq!(
        ir.push(&only_r, SRC, &ds[0], now, &mut out),
        Err(Error::MessageType)
    );
    let keys = init.frag_keys();
    assert_eq!(ir.push(&keys, SRC, &ds[0], now, &mut out), Ok(None));
    assert_eq!(ir.push(&keys, SRC, &ds[1], now, &mut out), Ok(Some(n2)));
    // After msg2 the attempt has no msg2 key any more.
    let _est = init
        .handle_msg2(&out[..n2], &w.i.id, now, &mut rng_i)
        .unwrap();
    let mut ir = InitR::new(&mut rng(2));
    assert_eq!(
        ir.push(&init.frag_keys(), SRC, &ds[0], now, &mut out),
        Err(Error::MessageType)
    );
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(256))]
    /// Arbitrary datagrams (half of them re-MACed under a real key, so they reach
    /// the slot logic): no panic, nothing stored on an error, at most the slots,
    /// and a completed message starts with the header its fragments named
    /// (the `hs_frag` fuzz target's checks, here with proptest).
    #[test]
    fn arbitrary_datagrams(ops in proptest::collection::vec(
        (0u8..=255, proptest::collection::vec(0u8..=255, 0..1300)), 1..24)
    ) {
        let keys = FragKeys::for_responder(&HPK);
        let mut r = Reassembler::<4, MSG3_MAX>::new(&mut rng(1));
        let mut out = vec![0u8; MSG3_MAX];
        let mut now = 0u64;
        for (op, mut d) in ops {
            now += u64::from(op >> 5) * 1000;
            let t = Instant(now);
            if op & 4 != 0 && d.len() >= FRAG_HDR + 1 + FRAG_MAC {
                // A plausible header and a valid MAC for message type 1 or 3.
                d[0] = FRAGMENT;
                d[1] = VERSION;
                d[8] = if op & 8 == 0 { 1 } else { 3 };
                d[9] %= 4;
                d[10] = 2 + d[10] % 3;
                // Fragment 0 carries the message header it names.
                let hdr: Vec<u8> = [&[d[8]][..], &d[1..8]].concat();
                d[FRAG_HDR..FRAG_HDR + 8].copy_from_slice(&hdr);
                let at = d.len() - FRAG_MAC;
                let mac = blake3::keyed_hash(&spec_key(d[8], &HPK), &d[..at]);
                d[at..].copy_from_slice(&mac.as_bytes()[..16]);
            }
            let src = [b'a' + (op & 3)];
            let before = r.pending(t);
            match r.push(&keys, &src, &d, t, &mut out) {
                Err(_) => proptest::prop_assert_eq!(r.pending(t), before),
                Ok(None) => proptest::prop_assert!(r.pending(t) <= 4),
                Ok(Some(n)) => {
                    proptest::prop_assert!(n > FRAG_PAYLOAD && n <= MSG3_MAX);
                    proptest::prop_assert_eq!(out[0], d[8]);
                    proptest::prop_assert_eq!(&out[1..8], &d[1..8]);
                }
            }
        }
    }
}
