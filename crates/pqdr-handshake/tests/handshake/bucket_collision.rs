//! Two sources that share a bucket slot share the bucket: alternating between
//! them cannot refill it (found by the fuzzing helper: a slot used to be reset
//! whenever another source's tag arrived, so alternation was never limited).
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]
use crate::common;
use common::*;
use pqdr_handshake::{Initiator, Instant, K768, Load, Reply, Responder};

#[test]
fn colliding_sources_share_a_bucket() {
    let w = World::<K768>::new(false, pqdr_handshake::Ephemeral::MlKem768);
    let r = Side::<K768>::new(2, false);
    // One slot: every source collides (with RL = 256 two random sources
    // collide with probability 1/256; a colliding pair is visible by behaviour).
    let mut resp: Responder<K768, 1> =
        Responder::new(r.id, LABEL, Instant(0), &mut rng(3)).unwrap();
    let mut table = w.table();
    let now = Instant(0);
    let mut rr = rng(8);
    let mut out = vec![0u8; 6144];
    // Each source gets its cookie, then holds a msg1 with a valid mac2.
    let mut msg =
        |src: &[u8], seed: u8, resp: &mut Responder<K768, 1>, table: &mut Table<'_, K768>| {
            let mut init = Initiator::start(
                &w.cfg(),
                &w.i.id,
                clock(),
                Default::default(),
                now,
                &mut rng(seed),
            )
            .unwrap();
            let mut m1 = vec![0u8; 4096];
            let n = init.poll_transmit(now, &mut m1).unwrap();
            let Ok(Reply::CookieReply(c)) = resp.handle_msg1(
                table,
                src,
                &m1[..n],
                Load::Under,
                now,
                &mut rng(9),
                &mut out,
            ) else {
                panic!()
            };
            init.handle_cookie_reply(&out[..c], now).unwrap();
            let n = init.poll_transmit(now, &mut m1).unwrap();
            m1.truncate(n);
            m1
        };
    let (a, b) = (b"198.51.100.1:1".as_slice(), b"198.51.100.2:1".as_slice());
    let ma = msg(a, 11, &mut resp, &mut table);
    let mb = msg(b, 12, &mut resp, &mut table);
    // Source A alone: burst 5, then RateLimited (all at the same instant).
    let mut ok_a = 0;
    for _ in 0..8 {
        if let Ok(Reply::Msg2(_)) =
            resp.handle_msg1(&mut table, a, &ma, Load::Under, now, &mut rr, &mut out)
        {
            ok_a += 1;
        }
    }
    assert_eq!(ok_a, 5, "the bucket works for one source");
    // A and B alternating at the same instant: every msg1 is answered.
    let mut answered = 0;
    for i in 0..40 {
        let (src, m) = if i & 1 == 0 { (b, &mb) } else { (a, &ma) };
        if let Ok(Reply::Msg2(_)) =
            resp.handle_msg1(&mut table, src, m, Load::Under, now, &mut rr, &mut out)
        {
            answered += 1;
        }
    }
    // With per-source buckets of burst 5 at most 5 (B) + 0 (A) should pass.
    assert!(
        answered <= 5,
        "{answered} of 40 msg1 answered at one instant from two sources"
    );
}
