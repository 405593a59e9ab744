//! The frame parser on arbitrary plaintexts: no panic, validate agrees with iteration.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_ratchet::wire::{Frame, Frames, validate};

fuzz_target!(|data: &[u8]| {
    let mut ok = true;
    let mut data_runs = 0;
    for f in Frames::new(data) {
        match f {
            Ok(Frame::Data { start, len }) => {
                assert!(start + len <= data.len());
                data_runs += 1;
            }
            Ok(Frame::Symbol(s)) => assert!(s.idx <= 254 && s.k > 0 && !s.data.is_empty()),
            Ok(_) => {}
            Err(_) => ok = false,
        }
    }
    assert_eq!(validate(data).is_ok(), ok && data_runs <= 1);
});
