//! Writes the seed corpora of the pqdr-handshake targets (not a fuzz target):
//! a valid message of each kind per suite, in each target's input format.
//!
//! ```sh
//! cargo run --release --features seeds --bin hs_seeds   # in fuzz/
//! ```

mod hs_common;

use std::fs;
use std::path::Path;

use hs_common::*;
use pqdr_handshake::{K768, S65, Tai64N};

fn write(target: &str, name: &str, data: &[u8]) {
    let dir = Path::new("corpus").join(target);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), data).unwrap();
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn suite<A: Fam>(hybrid: bool, code: u8, name: &str) {
    let ex = exchange::<A>(hybrid);
    // hs_msg1: raw msg1 (msg2), under load (cookie reply), with the cookie's
    // mac2 under load (msg2), and the XOR form of the valid msg1.
    write(
        "hs_msg1",
        &format!("{name}-msg1"),
        &cat(&[&[code], &ex.msg1]),
    );
    write(
        "hs_msg1",
        &format!("{name}-msg1-load"),
        &cat(&[&[code | 4], &ex.msg1]),
    );
    write(
        "hs_msg1",
        &format!("{name}-msg1-cookie-load"),
        &cat(&[&[code | 4 | 32], &ex.msg1]),
    );
    write("hs_msg1", &format!("{name}-msg1-xor-psk"), &[code | 8 | 64]);
    // hs_msg2: raw msg2, after a cookie reply, and with mac1 recomputed.
    write(
        "hs_msg2",
        &format!("{name}-msg2"),
        &cat(&[&[code], &ex.msg2]),
    );
    write(
        "hs_msg2",
        &format!("{name}-msg2-cookie"),
        &cat(&[&[code | 16], &ex.msg2]),
    );
    write("hs_msg2", &format!("{name}-msg2-xor-mac"), &[code | 4 | 8]);
    // hs_msg3: raw msg3 to a fresh record, and again after it (Duplicate).
    write(
        "hs_msg3",
        &format!("{name}-msg3"),
        &cat(&[&[code], &ex.msg3]),
    );
    write(
        "hs_msg3",
        &format!("{name}-msg3-dup"),
        &cat(&[&[code | 16], &ex.msg3]),
    );
    write(
        "hs_msg3",
        &format!("{name}-msg3-prev-key"),
        &cat(&[&[code | 128], &ex.msg3]),
    );
    // hs_cookie_reply: the reply raw and as the XOR form.
    write(
        "hs_cookie_reply",
        &format!("{name}-cookie"),
        &cat(&[&[code], &ex.cookie_reply]),
    );
    write(
        "hs_cookie_reply",
        &format!("{name}-cookie-xor"),
        &[code | 4],
    );
    // hs_biscuit: a genuine msg3 from a plaintext (no 5, the real hpk_I, ts,
    // arbitrary ck/th), and one replayed against a record at no 9.
    let mut pt = [0u8; 116];
    pt[..8].copy_from_slice(&5u64.to_be_bytes());
    pt[40..52].copy_from_slice(&CLOCK.to_bytes());
    pt[52..84].copy_from_slice(&[0x11; 32]);
    pt[84..116].copy_from_slice(&[0x22; 32]);
    let ts = CLOCK.to_bytes();
    let sig_ts: &[u8] = if A::MODE == pqdr_handshake::Mode::Sig {
        &ts
    } else {
        &[]
    };
    let head = cat(&[
        &7u32.to_be_bytes(),
        &9u32.to_be_bytes(),
        &[0x5a; 16],
        &pt,
        sig_ts,
    ]);
    write(
        "hs_biscuit",
        &format!("{name}-genuine"),
        &cat(&[&[code | 4 | 8 | 16], &head]),
    );
    let old = Tai64N {
        secs: CLOCK.secs - 1,
        nanos: 0,
    }
    .to_bytes();
    let rec = cat(&[&old, &9u64.to_be_bytes()]);
    write(
        "hs_biscuit",
        &format!("{name}-replayed"),
        &cat(&[&[code | 4 | 8 | 16 | 64], &head, &rec]),
    );
    if A::MODE == pqdr_handshake::Mode::Sig {
        write(
            "hs_biscuit",
            &format!("{name}-kind1-prev-key"),
            &cat(&[&[code | 4 | 8 | 16 | 32 | 128], &head]),
        );
    }
}

fn main() {
    suite::<K768>(false, 0, "k768");
    suite::<K768>(true, 1, "k768x");
    suite::<S65>(false, 2, "s65");
    suite::<S65>(true, 3, "s65x");
    // hs_interaction scripts (see its op table): 0x00 transmit, 0x30 a
    // deliver to R, 0x60 a deliver to I, 0xB3 a time +a s, 0xC0/0xC1 load
    // off/on, 0xD0 renewal when due (0xD1 forced), 0xF0 deliver everything,
    // 0x90/0x91 a drop, 0xA0 i b flip.
    for setup in [0u8, 1, 2, 3, 4, 5] {
        let plain = [setup, 0x00, 0x30, 0, 0x60, 0, 0x30, 0];
        write("hs_interaction", &format!("{setup}-plain"), &plain);
        let load = [
            setup, 0xC1, 0x00, 0x30, 0, 0x60, 0, 0x00, 0x30, 0, 0x60, 0, 0x30, 0,
        ];
        write("hs_interaction", &format!("{setup}-cookie"), &load);
    }
    for setup in [0u8, 2] {
        // Lost msg1, resend at ~1 s, duplicated msg2, renewal at 9 s, flip, drain.
        let s = [
            setup, 0x00, 0x90, 0, 0xB3, 1, 0x00, 0x30, 0, 0x61, 0, 0xB3, 9, 0xD0, 0x00, 0xA0, 3, 9,
            0xF0, 0xB3, 2, 0xF0, 0x61, 0, 0x31, 0, 0xF0,
        ];
        write("hs_interaction", &format!("{setup}-lossy"), &s);
    }
}
