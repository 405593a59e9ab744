//! Arbitrary msg3 to a responder (K768, K768-X, S65, S65-X): never a panic;
//! on any error the responder and the replay record are bit-identical; a
//! session only for the real msg3 (mac1 aside), with the real secret, and it
//! commits the record; the same msg3 again is `Duplicate`.
//!
//! Input: `flags ‖ bytes`. flags bits 0–1 suite; 2 XOR into the valid msg3
//! (else raw); 3 mac1 recomputed; 4–5 the replay record: fresh, after the
//! valid msg3, or the next 48 input bytes; 6 `Load::Under`; 7 biscuit keys
//! rotated once (the biscuit opens under the previous key) or twice (120 s
//! apart: it no longer opens) depending on bit 4.
#![no_main]

mod hs_common;

use hs_common::*;
use libfuzzer_sys::fuzz_target;
use pqdr_handshake::{Error, Instant, K768, Load, ReplayRecord, Role, S65};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    match flags & 3 {
        0 => run::<K768>(false, flags, rest),
        1 => run::<K768>(true, flags, rest),
        2 => run::<S65>(false, flags, rest),
        _ => run::<S65>(true, flags, rest),
    }
});

fn run<A: Fam>(hybrid: bool, flags: u8, mut rest: &[u8]) {
    let ex = exchange::<A>(hybrid);
    let mut table = Table::<A>::new(hybrid);
    match (flags >> 4) & 3 {
        0 => {}
        1 => table.rec = ReplayRecord::from_bytes(&ex.rec_after),
        _ => {
            let Some((r, tail)) = rest.split_first_chunk::<{ ReplayRecord::SIZE }>() else {
                return;
            };
            table.rec = ReplayRecord::from_bytes(r);
            rest = tail;
        }
    }
    let mut msg = if flags & 4 != 0 {
        xor_into(&ex.msg3, rest)
    } else {
        rest.to_vec()
    };
    let n = msg.len();
    if flags & 8 != 0 && n >= 16 {
        set_mac(&mut msg, n - 16, &mac1_key(&hpk::<A>(Side::R, hybrid)));
    }
    let mut resp = responder::<A>(hybrid);
    let mut now = Instant(0);
    let mut rotations = 0;
    if flags & 128 != 0 {
        rotations = 1 + usize::from(flags & 16 != 0);
        let mut r = rng(0x54);
        for _ in 0..rotations {
            now = now.plus(120_000);
            resp.handle_timeout(now, &mut r);
        }
    }
    let load = if flags & 64 != 0 {
        Load::Under
    } else {
        Load::Normal
    };
    let old = table.rec;
    let before = resp.snapshot();
    match resp.handle_msg3(&mut table, SRC, &msg, load, now) {
        Err(e) => {
            assert_eq!(resp.snapshot(), before, "responder changed on error");
            assert_eq!(table.rec, old, "replay record changed on error");
            let same = n == ex.msg3.len() && msg[..n - 16] == ex.msg3[..n - 16];
            if same && rotations < 2 && old == ReplayRecord::from_bytes(&ex.rec_after) {
                assert!(
                    matches!(e, Error::Duplicate | Error::Mac1),
                    "{e:?} for the accepted msg3 again"
                );
            }
        }
        Ok(est) => {
            assert!(rotations < 2, "a biscuit older than 240 s opened");
            assert_eq!(n, ex.msg3.len());
            assert_eq!(msg[..n - 16], ex.msg3[..n - 16], "forged msg3 accepted");
            assert_eq!(est.role(), Role::Responder);
            assert_eq!(est.initial_secret_for_test().secret, &ex.secret);
            assert_eq!(est.initial_secret_for_test().transcript, &ex.transcript);
            assert_eq!(table.rec.last_timestamp(), old.last_timestamp().max(CLOCK));
            assert_eq!(table.rec.to_bytes()[12..28], ex.rec_after[12..28]);
            // The same msg3 again is a duplicate and changes nothing.
            let rec = table.rec;
            let snap = resp.snapshot();
            let again = resp.handle_msg3(&mut table, SRC, &msg, load, now);
            assert_eq!(again.err(), Some(Error::Duplicate));
            assert_eq!((table.rec, resp.snapshot()), (rec, snap));
        }
    }
}
