//! State import (sealed blobs, docs/protocol/ratchet.md §1.11) on fuzzer-made bytes.
//!
//! The input picks a fixture's sealed export (every ratchet state, both
//! modes, made under a fixed storage key) and one of four ways to build the
//! blob: the raw input itself; the sealed blob with the input XORed in (the
//! header, nonce, ciphertext and tag as an attacker on the storage sees
//! them); or the blob's *plaintext* edited by the input (XOR, or an overwrite
//! at an offset plus a new length) and sealed again under the same key, so
//! that the state parser itself is reached with arbitrary content.
//! `min_generation` comes from the input too (around the blob's generation,
//! or any 64-bit value).
//!
//! Asserted: no panic; an unedited blob imports when `min_generation` does
//! not exceed its generation and is refused as stale when it does; nothing
//! below `min_generation` is ever accepted; the plaintext is wiped after a
//! successful import; and every imported session refuses to send
//! (`ExportRequired`, no `poll_transmit`) until it has been exported again,
//! after which it sends and its new export imports again.
#![no_main]

mod common;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqdr_ratchet::blake3;
use pqdr_ratchet::chacha20poly1305::aead::{AeadInOut, KeyInit};
use pqdr_ratchet::chacha20poly1305::{Tag, XChaCha20Poly1305, XNonce};
use pqdr_ratchet::{Error, Instant};

/// "PQDS" ‖ be16 version ‖ 24-byte nonce: the AD of the seal.
/// `"PQDS" ‖ version ‖ session_id[16] ‖ nonce[24]`.
const HEADER: usize = 46;
const TAG: usize = 16;

fn cipher() -> XChaCha20Poly1305 {
    // docs/protocol/ratchet.md §1.11 rule 3, recomputed here: DK(state seal, storage_key).
    let key = blake3::derive_key(
        "pqdr-ratchet v2 2026-11-25T20:00Z state seal",
        common::STORAGE_KEY,
    );
    XChaCha20Poly1305::new((&key).into())
}

/// The plaintext of every fixture's blob (opened with the recomputed key).
fn plaintexts() -> &'static [Vec<u8>] {
    static P: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    P.get_or_init(|| {
        common::fixtures()
            .iter()
            .map(|f| {
                let b = &f.blob;
                let mut body = b[HEADER..b.len() - TAG].to_vec();
                let tag = Tag::try_from(&b[b.len() - TAG..]).unwrap();
                let nonce = XNonce::try_from(&b[22..HEADER]).unwrap();
                cipher()
                    .decrypt_inout_detached(&nonce, &b[..HEADER], (&mut body[..]).into(), &tag)
                    .expect("the fixture blob opens under the recomputed seal key");
                body
            })
            .collect()
    })
}

/// `head` (the blob's header) ‖ seal(plain) ‖ tag, as `export_state` lays it out.
fn reseal(head: &[u8], plain: &[u8]) -> Vec<u8> {
    let mut v = head[..HEADER].to_vec();
    let mut body = plain.to_vec();
    let nonce = XNonce::try_from(&head[22..HEADER]).unwrap();
    let tag = cipher()
        .encrypt_inout_detached(&nonce, &head[..HEADER], (&mut body[..]).into())
        .unwrap();
    v.extend_from_slice(&body);
    v.extend_from_slice(&tag);
    v
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let fx = common::fixtures();
    let fi = usize::from(data[0]) % fx.len();
    let f = &fx[fi];
    let (how, gen_sel, edit) = (data[1] & 3, data[2], &data[3..]);
    let g = f.generation;
    let mut blob = match how {
        0 => edit.to_vec(),
        1 => {
            let mut b = f.blob.clone();
            for (i, x) in edit.iter().enumerate() {
                let n = b.len();
                b[i.wrapping_mul(13) % n] ^= x;
            }
            b
        }
        2 => {
            let mut p = plaintexts()[fi].clone();
            for (i, x) in edit.iter().enumerate() {
                let n = p.len();
                p[i.wrapping_mul(7) % n] ^= x;
            }
            reseal(&f.blob, &p)
        }
        _ => {
            // edit = be16 offset ‖ be16 new length ‖ bytes written at the offset.
            let mut p = plaintexts()[fi].clone();
            if edit.len() >= 4 {
                let at = usize::from(u16::from_be_bytes([edit[0], edit[1]])) % (p.len() + 1);
                let len = usize::from(u16::from_be_bytes([edit[2], edit[3]])) % (p.len() + 64);
                for (i, x) in edit[4..].iter().enumerate() {
                    if let Some(y) = p.get_mut(at + i) {
                        *y = *x;
                    }
                }
                p.resize(len, 0);
            }
            reseal(&f.blob, &p)
        }
    };
    // Byte-identical to the fixture's export (an all-zero edit, or none).
    let unedited = blob == f.blob;
    let min_generation = match gen_sel % 6 {
        0 => 0,
        1 => g.saturating_sub(1),
        2 => g,
        3 => g + 1,
        4 => u64::MAX,
        _ => edit
            .get(..8)
            .map_or(g, |b| u64::from_be_bytes(b.try_into().unwrap())),
    };
    let cfg = f.cfg;
    let res = common::S::import_state(
        &cfg,
        common::STORAGE_KEY,
        f.session_id,
        &mut blob,
        min_generation,
        Instant(20),
    );
    if unedited {
        if min_generation <= g {
            assert!(
                res.is_ok(),
                "{}: a valid blob was refused: {:?}",
                f.name,
                res.err()
            );
        } else {
            assert_eq!(
                res.as_ref().err(),
                Some(&Error::StaleGeneration),
                "{}",
                f.name
            );
        }
    }
    let Ok(mut s) = res else {
        return;
    };
    assert!(
        s.generation() >= min_generation,
        "{}: rollback accepted",
        f.name
    );
    assert!(
        blob[HEADER..blob.len() - TAG].iter().all(|&b| b == 0),
        "{}: plaintext state left in the caller's buffer",
        f.name
    );
    // §1.11 rule 1: nothing is sent before the next export.
    let mut r = common::rng();
    let mut pkt = [0u8; 1500];
    assert_eq!(
        s.seal(Instant(21), b"", b"x", &mut pkt, &mut r),
        Err(Error::ExportRequired),
        "{}: a restored session sealed before exporting",
        f.name
    );
    assert_eq!(s.poll_transmit(Instant(22), b"", &mut pkt, &mut r), None);
    // Records still open (no panic on the fixture's record, whatever the state).
    let mut out = vec![0u8; 70_000];
    let _ = s.open(Instant(22), b"", &f.record, &mut out, &mut r);
    let reserve = u32::from(data[1] >> 2);
    let g1 = s.generation();
    let mut again = match s.export_state_to_vec(reserve, common::STORAGE_KEY, Instant(23), &mut r) {
        Ok(v) => v,
        // Only a session closed by its (stream-mode) record may refuse.
        Err(e) => {
            assert_eq!(e, Error::Closed, "{}", f.name);
            return;
        }
    };
    let g2 = s.generation();
    assert_eq!(g2, g1.wrapping_add(1), "{}", f.name);
    // Two-phase export: the block lifts only once the export is confirmed.
    assert_eq!(
        s.seal(Instant(24), b"", b"x", &mut pkt, &mut r),
        Err(Error::ExportRequired),
        "{}: an unconfirmed export lifted the send block",
        f.name
    );
    assert_eq!(s.confirm_persisted(g1), Err(Error::UnknownGeneration));
    s.confirm_persisted(g2).unwrap();
    assert_ne!(
        s.seal(Instant(24), b"", b"x", &mut pkt, &mut r),
        Err(Error::ExportRequired),
        "{}: a confirmed export did not lift the send block",
        f.name
    );
    let _ = s.poll_transmit(Instant(25), b"", &mut pkt, &mut r);
    s.handle_timeout(Instant(100_000), &mut r);
    let back = common::S::import_state(
        &cfg,
        common::STORAGE_KEY,
        f.session_id,
        &mut again,
        g2,
        Instant(26),
    );
    assert!(
        back.is_ok(),
        "{}: a fresh export of an imported state was refused: {:?}",
        f.name,
        back.err()
    );
});
