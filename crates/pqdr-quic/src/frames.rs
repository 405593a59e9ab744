//! The QUIC payload walk that finds the ratchet's control datagrams in a
//! decrypted 1-RTT packet, and the control datagram's encoding
//! (docs/protocol/quic.md §3).
//!
//! The walk reads the frames of RFC 9000 §19, the DATAGRAM frame of RFC 9221
//! §4 and the two frames of the ACK-frequency extension quinn 0.11 speaks
//! (draft-ietf-quic-ack-frequency: ACK_FREQUENCY 0xaf, IMMEDIATE_ACK 0x1f).
//! Every length is checked against the payload; nothing here panics on any
//! input (`fuzz/fuzz_targets/quic_control.rs`).

use crate::Error;

/// First byte of a control datagram (docs/protocol/quic.md §3.1): version 1 of
/// the mapping. A DATAGRAM frame whose payload starts with another byte is
/// not the ratchet's.
pub const CONTROL_TAG: u8 = 0x70;

/// Reads a QUIC variable-length integer (RFC 9000 §16) at `*pos`.
fn varint(buf: &[u8], pos: &mut usize) -> Option<u64> {
    let first = *buf.get(*pos)?;
    let len = 1usize << (first >> 6);
    let bytes = buf.get(*pos..pos.checked_add(len)?)?;
    let mut v = u64::from(first & 0x3f);
    for b in &bytes[1..] {
        v = (v << 8) | u64::from(*b);
    }
    *pos += len;
    Some(v)
}

/// Skips `n` varints.
fn skip_varints(buf: &[u8], pos: &mut usize, n: usize) -> Option<()> {
    for _ in 0..n {
        varint(buf, pos)?;
    }
    Some(())
}

/// Skips `len` bytes.
fn skip(buf: &[u8], pos: &mut usize, len: u64) -> Option<()> {
    let len = usize::try_from(len).ok()?;
    let end = pos.checked_add(len)?;
    if end > buf.len() {
        return None;
    }
    *pos = end;
    Some(())
}

/// Reads a length-prefixed byte string.
fn take_len<'a>(buf: &'a [u8], pos: &mut usize) -> Option<&'a [u8]> {
    let len = varint(buf, pos)?;
    let start = *pos;
    skip(buf, pos, len)?;
    Some(&buf[start..*pos])
}

/// Walks the frames of a decrypted 1-RTT payload and calls `f` with the body
/// (the ratchet frames, after [`CONTROL_TAG`]) of every control datagram, in
/// order. Returns how many it found.
///
/// # Errors
/// [`Error::MalformedPayload`] with the offset of the frame that could not be
/// read (truncated, or a frame type this walk does not know); `f` has then
/// seen the control datagrams before that frame only.
pub fn scan_control(payload: &[u8], mut f: impl FnMut(&[u8])) -> Result<usize, Error> {
    let mut pos = 0;
    let mut found = 0;
    while pos < payload.len() {
        let start = pos;
        let bad = || Error::MalformedPayload { offset: start };
        let ty = varint(payload, &mut pos).ok_or_else(bad)?;
        let ok = match ty {
            // PADDING, PING, HANDSHAKE_DONE, IMMEDIATE_ACK (§19.1, §19.2, §19.20).
            0x00 | 0x01 | 0x1e | 0x1f => Some(()),
            // ACK (§19.3): largest, delay, range count, first range, ranges, ECN.
            0x02 | 0x03 => (|| {
                skip_varints(payload, &mut pos, 2)?;
                let ranges = varint(payload, &mut pos)?;
                skip_varints(payload, &mut pos, 1)?;
                for _ in 0..ranges {
                    skip_varints(payload, &mut pos, 2)?;
                }
                if ty == 0x03 {
                    skip_varints(payload, &mut pos, 3)?;
                }
                Some(())
            })(),
            // RESET_STREAM (§19.4).
            0x04 => skip_varints(payload, &mut pos, 3),
            // STOP_SENDING, MAX_STREAM_DATA, STREAM_DATA_BLOCKED (§19.5, §19.10, §19.13).
            0x05 | 0x11 | 0x15 => skip_varints(payload, &mut pos, 2),
            // CRYPTO (§19.6): offset, then length-prefixed data.
            0x06 => varint(payload, &mut pos).and_then(|_| take_len(payload, &mut pos).map(drop)),
            // NEW_TOKEN (§19.7).
            0x07 => take_len(payload, &mut pos).map(drop),
            // STREAM (§19.8): OFF 0x04, LEN 0x02, FIN 0x01.
            0x08..=0x0f => (|| {
                varint(payload, &mut pos)?;
                if ty & 0x04 != 0 {
                    varint(payload, &mut pos)?;
                }
                if ty & 0x02 != 0 {
                    take_len(payload, &mut pos)?;
                } else {
                    pos = payload.len();
                }
                Some(())
            })(),
            // MAX_DATA, MAX_STREAMS, DATA_BLOCKED, STREAMS_BLOCKED, RETIRE_CONNECTION_ID.
            0x10 | 0x12 | 0x13 | 0x14 | 0x16 | 0x17 | 0x19 => skip_varints(payload, &mut pos, 1),
            // NEW_CONNECTION_ID (§19.15): seq, retire prior to, u8 length (1..=20), cid, 16-byte token.
            0x18 => (|| {
                skip_varints(payload, &mut pos, 2)?;
                let len = *payload.get(pos)?;
                pos += 1;
                if !(1..=20).contains(&len) {
                    return None;
                }
                skip(payload, &mut pos, u64::from(len) + 16)
            })(),
            // PATH_CHALLENGE, PATH_RESPONSE (§19.17, §19.18): 8 bytes.
            0x1a | 0x1b => skip(payload, &mut pos, 8),
            // CONNECTION_CLOSE (§19.19): code, [frame type], reason.
            0x1c | 0x1d => (|| {
                skip_varints(payload, &mut pos, if ty == 0x1c { 2 } else { 1 })?;
                take_len(payload, &mut pos).map(drop)
            })(),
            // DATAGRAM (RFC 9221 §4): 0x30 to the end of the packet, 0x31 length-prefixed.
            0x30 | 0x31 => {
                let body = if ty == 0x31 {
                    take_len(payload, &mut pos)
                } else {
                    let b = &payload[pos..];
                    pos = payload.len();
                    Some(b)
                };
                body.map(|b| {
                    if let Some((&CONTROL_TAG, frames)) = b.split_first() {
                        found += 1;
                        f(frames);
                    }
                })
            }
            // ACK_FREQUENCY: sequence, threshold, max ack delay, reordering threshold.
            0xaf => skip_varints(payload, &mut pos, 4),
            _ => None,
        };
        ok.ok_or_else(bad)?;
    }
    Ok(found)
}

/// The DATAGRAM payload that carries `frames` (docs/protocol/quic.md §3.1).
pub fn encode_control(frames: &[u8]) -> bytes::Bytes {
    let mut v = Vec::with_capacity(frames.len() + 1);
    v.push(CONTROL_TAG);
    v.extend_from_slice(frames);
    v.into()
}
