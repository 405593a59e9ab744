//! Forward secrecy through the QUIC path: the client's whole ratchet state,
//! leaked in the middle of a transfer, opens none of the server's packets
//! captured on the wire well before the leak, and does open later ones of the
//! same epoch (the check itself works).

use std::sync::Arc;

use pqdr_quic::Config;
use pqdr_quic::pqdr_ratchet::testing::{Leak, record_nonce};
use ring::aead::{self, Aad, LessSafeKey, Nonce, UnboundKey};

use crate::common::{Impair, Shim, transfer};

/// quinn's default connection id length (`RandomConnectionIdGenerator`).
const CID_LEN: usize = 8;

/// A captured short-header packet with its protection removed: (header, body, pn, phase).
fn unprotect(
    hp: &aead::quic::HeaderProtectionKey,
    pkt: &[u8],
    largest: &mut u64,
) -> Option<(Vec<u8>, Vec<u8>, u64, bool)> {
    if pkt[0] & 0x80 != 0 || pkt.len() < 1 + CID_LEN + 4 + 16 {
        return None;
    }
    let off = 1 + CID_LEN;
    let mask = hp.new_mask(&pkt[off + 4..off + 20]).ok()?;
    let mut p = pkt.to_vec();
    p[0] ^= mask[0] & 0x1f;
    let pn_len = usize::from(p[0] & 3) + 1;
    let mut truncated = 0u64;
    for i in 0..pn_len {
        p[off + i] ^= mask[1 + i];
        truncated = (truncated << 8) | u64::from(p[off + i]);
    }
    // RFC 9000 §A.3: the packet number closest to largest + 1.
    let win = 1u64 << (8 * pn_len);
    let expected = *largest + 1;
    let mut pn = (expected & !(win - 1)) | truncated;
    if pn + win / 2 <= expected {
        pn += win;
    } else if pn > expected + win / 2 && pn >= win {
        pn -= win;
    }
    // A packet whose header was never protected (the server's packet sealed
    // before its ratchet existed, docs/protocol/quic.md §2.1) decodes to
    // garbage: it must not move the reference.
    // (RFC 9000 §17.3.1: the reserved bits are zero once protection is removed.)
    if pn > *largest + 1_000 || p[0] & 0x18 != 0 {
        return None;
    }
    *largest = (*largest).max(pn);
    let phase = p[0] & 0x04 != 0;
    let body = p.split_off(off + pn_len);
    Some((p, body, pn, phase))
}

/// Does any key the leak yields open this packet?
fn leak_opens(
    leak: &Leak,
    header: &[u8],
    body: &[u8],
    pn: u64,
    phase: bool,
    catch_all: bool,
) -> bool {
    let counter = pn as u32;
    leak.slots
        .iter()
        .filter(|s| (s.epoch & 1 == 1) == phase)
        .any(|s| {
            let keys = if catch_all {
                leak.candidate_keys(s.epoch as u8, counter)
            } else {
                leak.typed_keys(s.epoch as u8, counter)
            };
            keys.iter().any(|(k, dir, e)| {
                let key = LessSafeKey::new(UnboundKey::new(&aead::CHACHA20_POLY1305, k).unwrap());
                let mut b = body.to_vec();
                key.open_in_place(
                    Nonce::assume_unique_for_key(record_nonce(*dir, *e, counter)),
                    Aad::from(header),
                    &mut b,
                )
                .is_ok()
            })
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaked_state_does_not_open_earlier_packets() {
    let shim = Arc::new(Shim::start(
        Impair {
            capture: true,
            ..Impair::default()
        },
        3,
    ));
    let cap = shim.captured.clone();
    let mut mark_a = None;
    let mut leaked = None;
    // One epoch for the whole test after the bootstrap ratchet (rekey 60 s).
    let cfg = Config::with_rekey_after_ms(60_000);
    let out = transfer(cfg, 12 << 20, Some(&shim), |c, _, got| {
        let epoch = c.ratchet_status().map_or(0, |s| s.epoch);
        if mark_a.is_none() && got >= 2 << 20 && epoch >= 1 {
            mark_a = Some(cap.lock().unwrap().len());
        }
        if mark_a.is_some() && leaked.is_none() && got >= 8 << 20 {
            leaked = Some((c.leak().unwrap(), cap.lock().unwrap().len()));
        }
    })
    .await;
    assert!(out.ok);
    let ((leak, hp), mark_b) = leaked.unwrap();
    let mark_a = mark_a.unwrap();
    let hp = aead::quic::HeaderProtectionKey::new(&aead::quic::CHACHA20, &hp).unwrap();
    let packets = cap.lock().unwrap().clone();
    let mut largest = 0u64;
    // The first datagrams are the handshake's, and the server may have sent
    // one 1-RTT packet before its ratchet existed (docs/protocol/quic.md §2.1),
    // whose header was never protected: decoding it would skew the packet
    // number reference (RFC 9000 §A.3), so the decoding starts after them.
    let decoded: Vec<_> = packets
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i < 16 {
                None
            } else {
                unprotect(&hp, p, &mut largest)
            }
        })
        .collect();
    let cur_parity = leak.slots.iter().map(|s| s.epoch).max().unwrap() & 1 == 1;
    // Earlier: captured between mark_a and halfway to the leak (4 MiB of transfer before it).
    let mid = mark_a + (mark_b - mark_a) / 2;
    let earlier: Vec<_> = decoded[mark_a..mid]
        .iter()
        .flatten()
        .filter(|d| d.3 == cur_parity)
        .collect();
    let later: Vec<_> = decoded[mark_b + 64..]
        .iter()
        .flatten()
        .filter(|d| d.3 == cur_parity)
        .collect();
    println!(
        "leak slots {:?}; first later pns {:?}",
        leak.slots
            .iter()
            .map(|s| (s.epoch, s.recv.pos, s.send.map(|c| c.pos)))
            .collect::<Vec<_>>(),
        later.iter().take(3).map(|d| (d.2, d.3)).collect::<Vec<_>>()
    );
    assert!(
        earlier.len() >= 200 && later.len() >= 200,
        "{} earlier, {} later",
        earlier.len(),
        later.len()
    );
    let step = earlier.len() / 100;
    let opened_earlier = earlier
        .iter()
        .step_by(step)
        .enumerate()
        // The catch-all keys (every leaked secret as a root, a seg_0 and a
        // message key) on every 5th: each costs about a thousand derivations.
        .filter(|(i, (h, b, pn, ph))| leak_opens(&leak, h, b, *pn, *ph, i % 5 == 0))
        .count();
    let sample_later: Vec<_> = later.iter().step_by(later.len() / 100).collect();
    let opened_later = sample_later
        .iter()
        .filter(|(h, b, pn, ph)| leak_opens(&leak, h, b, *pn, *ph, false))
        .count();
    println!(
        "earlier packets opened by the leak: {opened_earlier} of {} tried; later: {opened_later} of {}",
        earlier.len().div_ceil(step),
        sample_later.len()
    );
    assert_eq!(opened_earlier, 0, "forward secrecy through the QUIC path");
    assert!(
        opened_later * 10 >= sample_later.len() * 9,
        "the leak must open later packets of its epoch"
    );
}
