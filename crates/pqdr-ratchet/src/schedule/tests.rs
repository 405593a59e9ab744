//! Unit tests of the L1 receive path (candidates and commits).
use super::*;
use crate::MlKem768;

fn pair() -> (KeySchedule<MlKem768>, KeySchedule<MlKem768>) {
    let cfg = Config {
        ratchet_on_start: false,
        ..Config::default()
    };
    let init = || InitialSecret {
        secret: &[1; 32],
        transcript: b"",
        context: b"pending",
    };
    let mut r = pqdr_kat::Drbg::new(&[5; 48]);
    let tx = KeySchedule::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap();
    let rx = KeySchedule::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap();
    (tx, rx)
}

/// Two ahead candidates derived before either is committed: the second
/// replaces the window's `pending` chains, so committing the first
/// derives them again; the stored keys and the chain stay those of the
/// sender.
#[test]
fn interleaved_ahead_candidates() {
    let (mut tx, mut rx) = pair();
    let now = Instant(0);
    let mut keys = [[0u8; 32]; 600];
    for k in &mut keys {
        *k = *tx.next_send(now, 1).unwrap().key();
    }
    let a = rx.candidate(0, Some(5), now).unwrap();
    let b = rx.candidate(0, Some(300), now).unwrap();
    assert_eq!(a.key(), &keys[5]);
    assert_eq!(b.key(), &keys[300]);
    rx.commit(a, now).unwrap();
    // `b` was derived for `next = 0`: stale now.
    assert_eq!(rx.commit(b, now), Err(Error::Replay));
    assert!(!rx.slots[0].recv.pending.live, "pending wiped at commit");
    for c in [0u32, 1, 2, 3, 4, 6, 7, 255, 256, 257, 300, 301, 302] {
        let k = rx.candidate(0, Some(c), now).unwrap();
        assert_eq!(k.key(), &keys[c as usize], "counter {c}");
        rx.commit(k, now).unwrap();
    }
    // An uncommitted ahead candidate's chains are wiped by the next commit.
    let far = rx.candidate(0, Some(500), now).unwrap();
    assert_eq!(far.key(), &keys[500]);
    drop(far);
    assert!(rx.slots[0].recv.pending.live);
    let k = rx.candidate(0, Some(303), now).unwrap();
    rx.commit(k, now).unwrap();
    assert!(!rx.slots[0].recv.pending.live);
    assert_eq!(rx.slots[0].recv.pending.after.ck, [0; 32]);
    // In order: two candidates for 304, an ahead one in between; the
    // first commits (its chain key still waits in the window), the
    // second is a replay.
    let a = rx.candidate(0, Some(304), now).unwrap();
    let b = rx.candidate(0, Some(304), now).unwrap();
    let far = rx.candidate(0, Some(400), now).unwrap();
    assert_eq!((a.key(), far.key()), (&keys[304], &keys[400]));
    rx.commit(a, now).unwrap();
    assert_eq!(rx.commit(b, now), Err(Error::Replay));
    assert_eq!(rx.slots[0].recv.next_ck_for, u64::MAX);
    assert_eq!(rx.slots[0].recv.next_ck, [0; 32], "consumed and wiped");
    assert!(!rx.slots[0].recv.pending.live, "ahead scratch wiped");
    // An in-order candidate replaced by a stored-key commit: derived again.
    let a = rx.candidate(0, Some(305), now).unwrap();
    let st = rx.candidate(0, Some(100), now).unwrap();
    assert_eq!((a.key(), st.key()), (&keys[305], &keys[100]));
    rx.commit(st, now).unwrap();
    assert_eq!(rx.slots[0].recv.next_ck, [0; 32], "wiped by the commit");
    rx.commit(a, now).unwrap();
    for c in 306..600u32 {
        let k = rx.candidate(0, Some(c), now).unwrap();
        assert_eq!(k.key(), &keys[c as usize], "counter {c}");
        rx.commit(k, now).unwrap();
    }
    // A dropped in-order candidate leaves its chain key (position 601,
    // derivable from the chain) until the next commit wipes it.
    drop(rx.candidate(0, Some(600), now).unwrap());
    assert_eq!(rx.slots[0].recv.next_ck_for, 600);
}

/// `div_1000` is floor(x / 1000) on its whole domain's edges (every x next to
/// a multiple of 1000 up to 10^6, and around the largest elapsed · rate,
/// 1000 · (2^32 − 1)) and on a spread of values up to 2^43.
#[test]
fn div_1000_is_exact() {
    #[allow(clippy::integer_division_remainder_used, reason = "the reference")]
    let want = |x: u64| x / 1000;
    for x in 0..1_000_000u64 {
        assert_eq!(div_1000(x), want(x), "{x}");
    }
    let top = 1000 * u64::from(u32::MAX);
    for x in top - 5000..=top {
        assert_eq!(div_1000(x), want(x), "{x}");
    }
    let mut x = 1u64;
    while x < 1 << 43 {
        for y in [x - 1, x, x + 1, x.wrapping_mul(999) & ((1 << 43) - 1)] {
            assert_eq!(div_1000(y), want(y), "{y}");
        }
        x = x * 3 + 7;
    }
}
