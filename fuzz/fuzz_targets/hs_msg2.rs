//! Arbitrary msg2 to an initiator in AwaitMsg2 (K768, K768-X, S65, S65-X):
//! never a panic; on any error the initiator is bit-identical (a forged msg2
//! cannot kill the attempt); a success only for the real msg2 (up to the
//! biscuit, which the initiator only echoes, and mac1) and with the real
//! secret.
//!
//! Input: `flags ‖ bytes`. flags bits 0–1 suite; 2 XOR into the valid msg2
//! (else raw); 3 mac1 recomputed with k_m (reaches decapsulation, conf_R /
//! enc_R and the signature); 4 the initiator took the cookie reply first;
//! 5 the initiator already completed (WrongState); 6–7 the time: 0, 91 s
//! (Timeout) or 8.5 s (renewal due).
#![no_main]

mod hs_common;

use hs_common::*;
use libfuzzer_sys::fuzz_target;
use pqdr_handshake::{Instant, K768, Mode, Role, S65};

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
    let mut msg = if flags & 4 != 0 {
        xor_into(&ex.msg2, rest)
    } else {
        rest.to_vec()
    };
    let n = msg.len();
    if flags & 8 != 0 && n >= 16 {
        // conf_R (KEM) / enc_R (SIG) and the biscuit follow the head.
        let rest = 148
            + if A::MODE == Mode::Kem {
                16
            } else {
                A::SIG_LEN + 16
            };
        set_mac1(&mut msg, n - 16, (n - 16).saturating_sub(rest), &ex.k_m);
    }
    if flags & 16 != 0 {
        init.handle_cookie_reply(&ex.cookie_reply, Instant(0))
            .unwrap();
    }
    let done = flags & 32 != 0;
    if done {
        init.handle_msg2(&ex.msg2, &me, Instant(0), &mut r).unwrap();
    }
    let now = match flags >> 6 {
        0 => Instant(0),
        1 => Instant(91_000),
        _ => Instant(8_500),
    };
    let before = init.snapshot();
    match init.handle_msg2(&msg, &me, now, &mut r) {
        Err(_) => assert_eq!(init.snapshot(), before, "initiator changed on error"),
        Ok(est) => {
            assert!(!done, "a second Established from one attempt");
            assert!(now < Instant(90_000), "Established after the give-up");
            // The biscuit (148 B) and mac1 (16 B) are not bound by th.
            assert_eq!(n, ex.msg2.len());
            let tail = 148 + 16;
            assert_eq!(msg[..n - tail], ex.msg2[..n - tail], "forged msg2 accepted");
            assert_eq!(est.role(), Role::Initiator);
            assert_eq!(est.initial_secret_for_test().secret, &ex.secret);
            assert_eq!(est.initial_secret_for_test().transcript, &ex.transcript);
            let m3 = est.msg3().unwrap();
            assert_eq!(m3[12..160], msg[n - tail..n - 16], "biscuit not echoed");
        }
    }
}
