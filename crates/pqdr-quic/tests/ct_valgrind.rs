//! Constant-time check of PQDR-QUIC's 1-RTT packet protection under valgrind
//! memcheck (docs/constant-time.md; run by scripts/ct-check.sh).
//!
//! The TLS exporter value both sides start from is classified, so the
//! ratchet's roots, chains and every packet key, and the header-protection
//! key exported from the ratchet, are secret. Memcheck reports any branch or
//! memory index that depends on them in the packet key's seal and open (the
//! ratchet's derivation, the receive window, the key phase, the frame walk)
//! and in header protection (the mask, the packet number length read from
//! the unmasked first byte: RFC 9001 §5.4.1, §9.5).
//!
//! Declassified: the protected packet (it goes on the wire), the header
//! after header protection is removed (the receiver reads the packet number
//! and key phase from it, as quinn does), and, inside the crate, the message
//! key as ring is given it (`src/keys.rs`: ring's tag check branches inside
//! ring; its AEAD is not covered here). The ML-KEM bootstrap ratchet draws
//! from the OS generator (ML-KEM has its own check).
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1" \
//! RUSTFLAGS="--cfg pqct_valgrind" cargo test --release -p pqdr-quic --test ct_valgrind
//! ```
//! Natively the client requests are no-ops and the test simply passes.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    missing_docs,
    reason = "test code"
)]

use bytes::BytesMut;
use pqdr_ctgrind::{classify, declassify};

/// Short header: form 0, fixed bit, key phase 0, 4-byte packet number; an
/// 8-byte connection ID (RFC 9000 §17.3.1).
const DCID_LEN: usize = 8;
const PN_OFFSET: usize = 1 + DCID_LEN;
const HEADER_LEN: usize = PN_OFFSET + 4;
const TAG_LEN: usize = 16;

/// A 1-RTT packet with packet number `pn`: PING, then PADDING (RFC 9000 §19.1, §19.2).
fn packet(pn: u64) -> (Vec<u8>, Vec<u8>) {
    let mut header = vec![0x40 | 0x03];
    header.extend_from_slice(&[0xc1; DCID_LEN]);
    header.extend_from_slice(&(pn as u32).to_be_bytes());
    let mut payload = vec![0u8; 200];
    payload[0] = 0x01;
    (header, payload)
}

#[test]
fn packet_and_header_protection_with_classified_secrets() {
    let mut secret = [0x5au8; 32];
    classify(&mut secret);
    let (client_pk, client_hk) = pqdr_quic::test_keys(&secret, true).unwrap();
    let (server_pk, server_hk) = pqdr_quic::test_keys(&secret, false).unwrap();
    // Sent in packet-number order (QUIC never reuses or lowers one): across a
    // segment boundary (256) and with a gap; delivered with 305 late.
    let sent: Vec<u64> = (0..300).chain([305, 310, 311]).collect();
    let mut wires: Vec<(u64, Vec<u8>)> = sent
        .iter()
        .map(|&pn| {
            let (header, payload) = packet(pn);
            let mut wire = [header.as_slice(), &payload, &[0u8; TAG_LEN]].concat();
            client_pk.encrypt(pn, &mut wire, HEADER_LEN);
            client_hk.encrypt(PN_OFFSET, &mut wire);
            declassify(&mut wire[..]);
            (pn, wire)
        })
        .collect();
    wires.swap(300, 301);
    for (pn, mut wire) in wires {
        server_hk.decrypt(PN_OFFSET, &mut wire);
        declassify(&mut wire[..HEADER_LEN]);
        let got_pn = u32::from_be_bytes(wire[PN_OFFSET..HEADER_LEN].try_into().unwrap());
        assert_eq!(u64::from(got_pn), pn, "header protection round trip");
        let (hdr, body) = wire.split_at(HEADER_LEN);
        let mut body = BytesMut::from(body);
        assert!(
            server_pk.decrypt(pn, hdr, &mut body).is_ok(),
            "open packet {pn}"
        );
        assert_eq!(&body[..], &packet(pn).1[..], "packet {pn}");
    }
    // A replay is refused (before any AEAD work).
    let (header, payload) = packet(311);
    let mut wire = [header.as_slice(), &payload, &[0u8; TAG_LEN]].concat();
    let mut body = BytesMut::from(&wire[HEADER_LEN..]);
    assert!(server_pk.decrypt(311, &header, &mut body).is_err());
    wire.fill(0);
}
