//! The biscuit plaintext parser and everything after it in `handle_msg3`.
//! There is no separate parser: the target seals an arbitrary 116-byte
//! plaintext (`biscuit_no ‖ hpk_I ‖ ts ‖ ck ‖ th`) under a known biscuit key
//! (`Responder::set_secrets_for_test`) as docs/protocol/handshake.md §3.4 says, builds the rest of
//! msg3 from the plaintext's (ck, th) with an independent key schedule
//! (conf_I, or in SIG mode enc_I with a real or arbitrary signature), and
//! checks the responder's verdict against the rules of docs/protocol/handshake.md §5.2:
//!
//! * a session only if conf_I / enc_I and the signature are genuine, the
//!   peer is known, the biscuit is not replayed and the timestamp is newer,
//!   and then always (no false rejection);
//! * its secret and transcript are `DK(C_OUT, ck ‖ th_final)`, `th_final`;
//! * the record commits `max(last_ts, ts)`, the biscuit number and the
//!   responder's instance; on any error nothing changes.
//!
//! Input: `flags ‖ idx_I(4) ‖ idx_R(4) ‖ salt(16) ‖ pt(116) ‖ [ts(12), SIG]
//! ‖ [record: last_ts(12) ‖ last_no(8), flag 6] ‖ tail`. flags bits 0–1 suite;
//! 2 pt's hpk_I replaced by the real one; 3 conf_I / enc_I sealed under the
//! right k4 (else the tail's bytes); 4 SIG: signed with the initiator's key
//! (else the tail's bytes); 5 SIG: kind 1 (vk_I) instead of kind 0 (hpk_I);
//! 6 a record of this responder's instance; 7 the biscuit key rotated once
//! (the biscuit opens under the previous key).
#![no_main]

mod hs_common;

use hs_common::*;
use libfuzzer_sys::fuzz_target;
use pqdr_handshake::{Instant, K768, Load, Mode, ReplayRecord, Role, S65, Tai64N};

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

/// Takes `N` bytes (zeros past the end of the input).
fn take<const N: usize>(rest: &mut &[u8]) -> [u8; N] {
    let mut b = [0u8; N];
    let k = N.min(rest.len());
    b[..k].copy_from_slice(&rest[..k]);
    *rest = &rest[k..];
    b
}

const BKEY: [u8; 32] = [0xB1; 32];
const CSECRET: [u8; 32] = [0xC5; 32];
const SIG_LEN: usize = 3309; // ML-DSA-65
const VK_LEN: usize = 1952;

fn run<A: Fam>(hybrid: bool, flags: u8, mut rest: &[u8]) {
    let ex = exchange::<A>(hybrid);
    let sig = A::MODE == Mode::Sig;
    let suite = A::suite_id(hybrid);
    let hpk_r = hpk::<A>(Side::R, hybrid);
    let hpk_i = hpk::<A>(Side::I, hybrid);
    let idx_i = u32::from_be_bytes(take(&mut rest));
    let idx_r = u32::from_be_bytes(take(&mut rest));
    let salt = take::<16>(&mut rest);
    let mut pt = take::<116>(&mut rest);
    if flags & 4 != 0 {
        pt[8..40].copy_from_slice(&hpk_i);
    }
    let no = u64::from_be_bytes(pt[..8].try_into().unwrap());
    let ck: [u8; 32] = pt[52..84].try_into().unwrap();
    let th: [u8; 32] = pt[84..116].try_into().unwrap();
    let ts_bytes: [u8; 12] = if sig {
        take(&mut rest)
    } else {
        pt[40..52].try_into().unwrap()
    };
    let ts = Tai64N::from_bytes(&ts_bytes);
    let mut old = ReplayRecord::new();
    if flags & 64 != 0 {
        let r = take::<20>(&mut rest);
        let mut b = [0u8; ReplayRecord::SIZE];
        b[..20].copy_from_slice(&r);
        b[20..28].copy_from_slice(&ex.instance().to_be_bytes());
        old = ReplayRecord::from_bytes(&b);
    }
    let old_no = u64::from_be_bytes(old.to_bytes()[12..20].try_into().unwrap());

    // msg3 = hdrB ‖ biscuit ‖ conf_I / enc_I ‖ mac1.
    let hdr = header(3, suite, idx_i, idx_r);
    let mut msg = hdr.to_vec();
    let ad = biscuit_ad(suite, idx_i, idx_r, &hpk_r);
    msg.extend_from_slice(&biscuit(&BKEY, &salt, &pt, &ad));
    let th3 = dk(C_TH, &[&th, &hdr]);
    let k4 = dk(C_KEY, &[&ck, b"4", &th3]);
    let genuine_conf = flags & 8 != 0;
    let mut genuine_sig = false;
    let conf_at = msg.len();
    if sig {
        let kind1 = flags & 32 != 0;
        msg.push(u8::from(kind1));
        if kind1 {
            msg.extend_from_slice(A::public_bytes(&A::pair(Side::I).1));
        } else {
            msg.extend_from_slice(&hpk_i);
        }
        msg.extend_from_slice(&ts_bytes);
        if flags & 16 != 0 {
            let m = [&th3[..], &hpk_i, &ts_bytes].concat();
            msg.extend_from_slice(&A::sign_as(Side::I, &m, SIG_CTX_I, &[0; 32]));
            genuine_sig = true;
        } else {
            msg.extend_from_slice(&take::<SIG_LEN>(&mut rest));
        }
        msg.extend_from_slice(&[0; 16]);
        debug_assert_eq!(
            msg.len() - conf_at,
            1 + if kind1 { VK_LEN } else { 32 } + 12 + SIG_LEN + 16
        );
    } else {
        msg.extend_from_slice(&[0; 16]);
    }
    if genuine_conf && sig {
        seal(&k4, &mut msg[conf_at..], &th3);
    } else if genuine_conf {
        // KEM mode: conf_I = KH(k4, th)[0..16] (docs/protocol/handshake.md §4.4 step 6).
        msg[conf_at..].copy_from_slice(&mac16(&k4, &th3));
    } else {
        let tail = msg.len() - 16;
        let raw = take::<16>(&mut rest);
        msg[tail..].copy_from_slice(&raw);
    }
    let th_final = dk(C_TH, &[&th3, &msg[conf_at..]]);
    let secret = dk(C_OUT, &[&ck, &th_final]);
    msg.extend_from_slice(&[0; 16]);
    let n = msg.len();
    set_mac(&mut msg, n - 16, &mac1_key(&hpk_r));

    let mut resp = responder::<A>(hybrid);
    resp.set_secrets_for_test(BKEY, CSECRET);
    let mut now = Instant(0);
    if flags & 128 != 0 {
        now = Instant(120_000);
        resp.handle_timeout(now, &mut rng(0x54));
    }
    let mut table = Table::<A>::new(hybrid);
    table.rec = old;
    let before = resp.snapshot();
    let res = resp.handle_msg3(&mut table, SRC, &msg, Load::Normal, now);

    // docs/protocol/handshake.md §5.2, msg3.
    let peer_known = if sig { true } else { pt[8..40] == hpk_i };
    let fresh_biscuit = old.to_bytes()[20..28] != ex.instance().to_be_bytes() || no > old_no;
    let accept = genuine_conf
        && (!sig || genuine_sig)
        && peer_known
        && fresh_biscuit
        && ts > old.last_timestamp();
    match res {
        Err(e) => {
            assert!(!accept, "{e:?} for a genuine msg3");
            assert_eq!(resp.snapshot(), before, "responder changed on error");
            assert_eq!(table.rec, old, "replay record changed on error");
        }
        Ok(est) => {
            assert!(
                accept,
                "accepted: conf {genuine_conf} sig {genuine_sig} peer {peer_known} fresh {fresh_biscuit} ts {ts:?} > {:?}",
                old.last_timestamp()
            );
            assert_eq!(est.role(), Role::Responder);
            assert_eq!(est.peer(), &hpk_i);
            assert_eq!(est.initial_secret_for_test().secret, &secret);
            assert_eq!(est.initial_secret_for_test().transcript, &th_final);
            let rec = table.rec.to_bytes();
            assert_eq!(table.rec.last_timestamp(), old.last_timestamp().max(ts));
            assert_eq!(rec[12..20], no.to_be_bytes());
            assert_eq!(rec[20..28], ex.instance().to_be_bytes());
        }
    }
}
