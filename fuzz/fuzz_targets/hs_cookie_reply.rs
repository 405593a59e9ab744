//! Arbitrary cookie reply to an initiator in AwaitMsg2 (K768, K768-X, S65,
//! S65-X): never a panic; on any error the initiator is bit-identical; only
//! the real reply is taken, and then the resent msg1 carries the right mac2
//! (a responder under load answers it with msg2, not another cookie reply).
//!
//! Input: `flags ‖ bytes`. flags bits 0–1 suite; 2 XOR into the valid reply
//! (else raw); 3 the initiator already completed (WrongState); 4 at 200 s
//! (after the give-up: a reply may still be taken, but nothing is sent);
//! 5 the reply was already taken once.
#![no_main]

mod hs_common;

use hs_common::*;
use libfuzzer_sys::fuzz_target;
use pqdr_handshake::{Instant, K768, Load, Reply, S65};

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
    let (mut init, me, mut r) = initiator::<A>(hybrid);
    let msg = if flags & 4 != 0 {
        xor_into(&ex.cookie_reply, rest)
    } else {
        rest.to_vec()
    };
    let done = flags & 8 != 0;
    if done {
        init.handle_msg2(&ex.msg2, &me, Instant(0), &mut r).unwrap();
    }
    let now = if flags & 16 != 0 {
        Instant(200_000)
    } else {
        Instant(0)
    };
    if flags & 32 != 0 && !done {
        init.handle_cookie_reply(&ex.cookie_reply, Instant(0))
            .unwrap();
    }
    let mut m1 = vec![0u8; 4096];
    // Drain the scheduled send so that a taken reply's immediate resend shows.
    let _ = init.poll_transmit(Instant(0), &mut m1);
    let before = init.snapshot();
    match init.handle_cookie_reply(&msg, now) {
        Err(_) => assert_eq!(init.snapshot(), before, "initiator changed on error"),
        Ok(()) => {
            assert!(!done, "cookie taken after completion");
            assert_eq!(msg, ex.cookie_reply, "forged cookie reply taken");
            if now.0 >= 90_000 {
                // Expired attempt: nothing more is sent.
                assert_eq!(init.poll_transmit(now, &mut m1), None);
                return;
            }
            let n1 = init.poll_transmit(now, &mut m1).expect("resent at once");
            assert_eq!(m1[..n1], ex.msg1_cookie[..], "mac2 differs");
            let mut resp = responder::<A>(hybrid);
            let mut table = Table::<A>::new(hybrid);
            let mut out = vec![0u8; 6144];
            let res = resp.handle_msg1(
                &mut table,
                SRC,
                &m1[..n1],
                Load::Under,
                now,
                &mut rng(0x4d),
                &mut out,
            );
            assert!(
                matches!(res, Ok(Reply::Msg2(_))),
                "{res:?} under load with a cookie"
            );
        }
    }
}
