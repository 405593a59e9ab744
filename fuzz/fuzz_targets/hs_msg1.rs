//! Arbitrary msg1 to a responder (K768, K768-X, S65, S65-X) under both loads:
//! never a panic; on any error the responder's state (all but the source
//! buckets) and the replay record (all but the per-peer flood bucket) are
//! unchanged; msg1 never commits anything; a cookie reply only under load;
//! in KEM mode a msg2 only for the bytes of the real msg1 (they are all bound
//! by th before enc_id and enc_ts open).
//!
//! Input: `flags ‖ bytes`. flags bits 0–1 suite; 2 `Load::Under`; 3 the bytes
//! are XORed into the valid msg1 (else they are msg1); 4 mac1 recomputed;
//! 5 mac2 recomputed with the responder's cookie for the source; 6 the peer
//! table holds a psk (the recorded msg1 has none); 7 a 64-byte output buffer.
#![no_main]

mod hs_common;

use hs_common::*;
use libfuzzer_sys::fuzz_target;
use pqdr_handshake::{Instant, K768, Load, Mode, Reply, S65};

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

fn run<A: Fam>(hybrid: bool, flags: u8, rest: &[u8]) {
    let ex = exchange::<A>(hybrid);
    let mut resp = responder::<A>(hybrid);
    let load = if flags & 4 != 0 {
        Load::Under
    } else {
        Load::Normal
    };
    let mut msg = if flags & 8 != 0 {
        xor_into(&ex.msg1, rest)
    } else {
        rest.to_vec()
    };
    let n = msg.len();
    if flags & 16 != 0 && n >= 32 {
        let head_end = if A::MODE == Mode::Kem {
            (n - 32).saturating_sub(76)
        } else {
            n - 32
        };
        set_mac1(
            &mut msg,
            n - 32,
            head_end,
            &mac1_key(&hpk::<A>(Side::R, hybrid)),
        );
    }
    if flags & 32 != 0 && n >= 16 {
        set_mac(&mut msg, n - 16, &mac2_key(&resp.cookie_for_test(SRC)));
    }
    let mut table = Table::<A>::new(hybrid);
    if flags & 64 != 0 {
        table.psk = Some([0x77; 32]);
    }
    let mut out = vec![0u8; if flags & 128 != 0 { 64 } else { 6144 }];
    let before = resp.snapshot();
    let rec_before = table.rec.to_bytes();
    let mut r = rng(0x4d);
    let res = resp.handle_msg1(&mut table, SRC, &msg, load, Instant(0), &mut r, &mut out);
    // msg1 commits nothing: last_ts, last_biscuit_no, instance stay.
    assert_eq!(
        table.rec.to_bytes()[..28],
        rec_before[..28],
        "msg1 committed"
    );
    match res {
        Err(_) => assert_eq!(resp.snapshot(), before, "responder changed on error"),
        Ok(Reply::CookieReply(len)) => {
            assert_eq!(len, 56);
            assert_eq!(load, Load::Under, "cookie reply without load");
            assert_eq!(out[0], 4);
            assert_eq!(resp.snapshot(), before, "a cookie reply changed the state");
        }
        Ok(Reply::Msg2(len)) => {
            assert!(len <= out.len() && out[0] == 2);
            if A::MODE == Mode::Kem {
                assert_eq!(n, ex.msg1.len());
                assert_eq!(
                    msg[..n - 32],
                    ex.msg1[..n - 32],
                    "msg2 for a modified KEM msg1"
                );
                assert!(table.psk.is_none(), "msg2 despite a psk mismatch");
            }
        }
    }
}
