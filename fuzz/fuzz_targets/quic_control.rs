//! pqdr-quic's control-frame path on arbitrary decrypted 1-RTT payloads
//! (docs/protocol/quic.md §3): the QUIC frame walk never panics, every
//! control body it reports lies inside the input, and the ratchet's frame
//! validator takes each; a control datagram put in front of a readable
//! payload is found with its exact bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_quic::frames::{CONTROL_TAG, scan_control};

fuzz_target!(|data: &[u8]| {
    let range = data.as_ptr_range();
    let mut bodies = 0;
    let r = scan_control(data, |body| {
        let b = body.as_ptr_range();
        assert!(range.start <= b.start && b.end <= range.end);
        let _ = pqdr_quic::pqdr_ratchet::wire::validate(body);
        bodies += 1;
    });
    if let Ok(n) = r {
        assert_eq!(n, bodies);
        // DATAGRAM(0x31, two-byte length) = tag ‖ body in front of a readable
        // payload: the walk finds that body first, byte for byte, then the rest.
        let body = &data[..data.len().min(64)];
        let len = body.len() + 1;
        let mut p = vec![0x31, 0x40, len as u8, CONTROL_TAG];
        p.extend_from_slice(body);
        p.extend_from_slice(data);
        let mut first = None;
        let n2 = scan_control(&p, |b| {
            first.get_or_insert_with(|| b.to_vec());
        })
        .expect("still readable");
        assert_eq!(n2, n + 1);
        assert_eq!(first.as_deref(), Some(body));
    }
});
