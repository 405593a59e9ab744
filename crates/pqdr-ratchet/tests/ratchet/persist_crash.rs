//! Two-phase persistence (docs/protocol/ratchet.md §1.11, issue #33 M2, L1,
//! L2): a reservation takes effect only once the application confirms that
//! the blob is durable; a blob is bound to its session; a failed export
//! leaves no secret in the caller's buffer; a reserve the peer could not
//! follow is refused.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use crate::common;
use std::collections::HashSet;

use common::{ToyKem, pair, rng};
use pqdr_ratchet::{Config, Error, Instant, Session, max_state_len};

type S = Session<ToyKem>;
type Rng = pqdr_kat::Drbg;
type Pair = ([u8; 32], [u8; 12]);

const KEY: &[u8] = b"persist test storage key, 32 B..";
const LEN: usize = max_state_len(16, 256);

fn cfg() -> Config {
    Config {
        ratchet_on_start: false,
        ..Config::default()
    }
}

/// A pair that has exchanged a few records both ways.
fn warm_pair(seed: u8) -> (S, S, Rng) {
    let mut r = rng(seed);
    let (mut a, mut b): (S, S) = pair(&cfg(), Instant(0), &mut r);
    let (mut pkt, mut out) = ([0u8; 1500], [0u8; 1500]);
    for _ in 0..5 {
        let n = a.seal(Instant(1), b"", b"warm", &mut pkt, &mut r).unwrap();
        b.open(Instant(1), b"", &pkt[..n], &mut out, &mut r)
            .unwrap();
        let n = b.seal(Instant(1), b"", b"warm", &mut pkt, &mut r).unwrap();
        a.open(Instant(1), b"", &pkt[..n], &mut out, &mut r)
            .unwrap();
    }
    (a, b, r)
}

/// Seals up to `n` records, recording each (key, nonce) the AEAD was given;
/// returns how many were sealed and the first error.
fn seal_n(
    s: &mut S,
    n: usize,
    now: Instant,
    r: &mut Rng,
    log: &mut Vec<Pair>,
) -> (usize, Option<Error>) {
    let mut pkt = [0u8; 1500];
    for i in 0..n {
        match s.seal(now, b"", b"record", &mut pkt, r) {
            Ok(_) => log.push(s.last_sealed().unwrap()),
            Err(e) => return (i, Some(e)),
        }
    }
    (n, None)
}

fn import(blob: &[u8], id: [u8; 16], min_generation: u64, now: Instant) -> Result<S, Error> {
    let mut copy = blob.to_vec();
    S::import_state(&cfg(), KEY, id, &mut copy, min_generation, now)
}

fn repeats(log: &[Pair]) -> usize {
    log.len() - log.iter().collect::<HashSet<_>>().len()
}

/// Export (reserve 16) + persist + confirm; use the reservation up; export
/// again and crash before that blob is written, having tried to seal 8 more
/// records; restore the durable blob, export, confirm, send. No (key,
/// nonce) is ever used twice. (Before the fix the second export raised the
/// live limit at once: the 8 records were sealed and the restored session
/// sealed the same 8 positions again.)
#[test]
fn crash_before_the_blob_is_durable_never_repeats_a_nonce() {
    let (mut a, _b, mut r) = warm_pair(1);
    let id = a.session_id();
    let mut log = Vec::new();
    // Life 1.
    let durable = a.export_state_to_vec(16, KEY, Instant(2), &mut r).unwrap();
    let g_durable = a.generation();
    // ... the application writes `durable` and `g_durable`, then:
    a.confirm_persisted(g_durable).unwrap();
    assert_eq!(seal_n(&mut a, 16, Instant(2), &mut r, &mut log), (16, None));
    assert_eq!(
        seal_n(&mut a, 1, Instant(2), &mut r, &mut log),
        (0, Some(Error::ReservationExhausted)),
        "the confirmed reservation is used up"
    );
    let _lost = a.export_state_to_vec(16, KEY, Instant(3), &mut r).unwrap();
    // Crash before `_lost` reaches the disk; the live session tried to send.
    let (sent, err) = seal_n(&mut a, 8, Instant(3), &mut r, &mut log);
    println!("after the unconfirmed export: {sent} of 8 records sealed ({err:?})");
    drop(a);
    // Life 2: the disk holds `durable`.
    let mut a2 = import(&durable, id, g_durable, Instant(4)).unwrap();
    a2.export_state_to_vec(16, KEY, Instant(4), &mut r).unwrap();
    a2.confirm_persisted(a2.generation()).unwrap();
    assert_eq!(
        seal_n(&mut a2, 16, Instant(4), &mut r, &mut log),
        (16, None)
    );
    let rep = repeats(&log);
    println!(
        "{} records sealed across both lives, {rep} (key, nonce) repeats",
        log.len()
    );
    assert_eq!(rep, 0, "a (key, nonce) pair was used twice");
    assert_eq!((sent, err), (0, Some(Error::ReservationExhausted)));
}

/// The same, but the second blob *was* written and the crash came before
/// `confirm_persisted`: restoring either blob is safe.
#[test]
fn crash_after_persist_before_confirm_is_safe() {
    for restore_new in [true, false] {
        let (mut a, _b, mut r) = warm_pair(2);
        let id = a.session_id();
        let mut log = Vec::new();
        let d = a.export_state_to_vec(16, KEY, Instant(2), &mut r).unwrap();
        let gd = a.generation();
        a.confirm_persisted(gd).unwrap();
        assert_eq!(seal_n(&mut a, 10, Instant(2), &mut r, &mut log), (10, None));
        let u = a.export_state_to_vec(16, KEY, Instant(3), &mut r).unwrap();
        let gu = a.generation();
        // `u` and `gu` are on disk; crash before the confirmation. Until then
        // the live session stays within the old reservation.
        assert_eq!(
            seal_n(&mut a, 20, Instant(3), &mut r, &mut log),
            (6, Some(Error::ReservationExhausted))
        );
        drop(a);
        let (blob, g) = if restore_new { (&u, gu) } else { (&d, gd) };
        let mut a2 = import(blob, id, g, Instant(4)).unwrap();
        a2.export_state_to_vec(16, KEY, Instant(4), &mut r).unwrap();
        a2.confirm_persisted(a2.generation()).unwrap();
        assert_eq!(
            seal_n(&mut a2, 16, Instant(4), &mut r, &mut log),
            (16, None)
        );
        assert_eq!(repeats(&log), 0, "restore_new = {restore_new}");
    }
}

/// Confirming applies exactly the blob's positions: after confirming the
/// export made at P with reserve R the session sends up to P + R.
#[test]
fn confirm_applies_the_latest_blob() {
    let (mut a, _b, mut r) = warm_pair(3);
    let mut log = Vec::new();
    let p = a.status(Instant(2)).send_counter;
    a.export_state_to_vec(8, KEY, Instant(2), &mut r).unwrap();
    let g1 = a.generation();
    a.confirm_persisted(g1).unwrap();
    assert_eq!(seal_n(&mut a, 3, Instant(2), &mut r, &mut log), (3, None));
    a.export_state_to_vec(20, KEY, Instant(2), &mut r).unwrap();
    let g2 = a.generation();
    a.export_state_to_vec(30, KEY, Instant(2), &mut r).unwrap();
    let g3 = a.generation();
    assert_eq!((g2, g3), (g1 + 1, g1 + 2));
    // Only the latest export can be confirmed.
    for g in [0, g1, g2, g3 + 1, u64::MAX] {
        assert_eq!(a.confirm_persisted(g), Err(Error::UnknownGeneration), "{g}");
    }
    // Unconfirmed: still the first blob's limit, P + 8.
    assert_eq!(
        seal_n(&mut a, 100, Instant(2), &mut r, &mut log),
        (5, Some(Error::ReservationExhausted))
    );
    a.confirm_persisted(g3).unwrap();
    // Confirming the confirmed latest export again changes nothing.
    a.confirm_persisted(g3).unwrap();
    assert_eq!(
        seal_n(&mut a, 100, Instant(2), &mut r, &mut log),
        (30 - 5, Some(Error::ReservationExhausted)),
        "limit = P + 3 + 30"
    );
    assert_eq!(a.status(Instant(2)).send_counter, p + 3 + 30);
}

/// A restored session sends only after an export of its own was confirmed;
/// the generation it was restored from cannot be confirmed.
#[test]
fn import_requires_a_confirmed_export() {
    let (mut a, _b, mut r) = warm_pair(4);
    let id = a.session_id();
    let blob = a.export_state_to_vec(16, KEY, Instant(2), &mut r).unwrap();
    let g = a.generation();
    let mut a2 = import(&blob, id, g, Instant(3)).unwrap();
    assert_eq!(a2.confirm_persisted(g), Err(Error::UnknownGeneration));
    let mut log = Vec::new();
    assert_eq!(
        seal_n(&mut a2, 1, Instant(3), &mut r, &mut log),
        (0, Some(Error::ExportRequired))
    );
    a2.export_state_to_vec(16, KEY, Instant(3), &mut r).unwrap();
    assert_eq!(
        seal_n(&mut a2, 1, Instant(3), &mut r, &mut log),
        (0, Some(Error::ExportRequired)),
        "exported but not confirmed"
    );
    a2.confirm_persisted(g + 1).unwrap();
    assert_eq!(
        seal_n(&mut a2, 16, Instant(3), &mut r, &mut log),
        (16, None)
    );
}

/// L1: two sessions under the same storage key; A's blob in B's slot is
/// refused, and the id survives export and import.
#[test]
fn blob_of_another_session_is_refused() {
    let (mut a, mut b, mut r) = warm_pair(5);
    let (ida, idb) = (a.session_id(), b.session_id());
    assert_ne!(ida, idb);
    let blob_a = a.export_state_to_vec(16, KEY, Instant(2), &mut r).unwrap();
    let blob_b = b.export_state_to_vec(16, KEY, Instant(2), &mut r).unwrap();
    let mut c = blob_a.clone();
    assert_eq!(
        S::import_state(&cfg(), KEY, idb, &mut c, 0, Instant(3)).err(),
        Some(Error::WrongSession)
    );
    assert_eq!(c, blob_a, "a refused blob is left as it was");
    // Rewriting the clear id in the header does not help: it is associated data.
    let mut forged = blob_a.clone();
    forged[6..22].copy_from_slice(&idb);
    assert_eq!(
        S::import_state(&cfg(), KEY, idb, &mut forged, 0, Instant(3)).err(),
        Some(Error::StateCorrupt)
    );
    let a2 = import(&blob_a, ida, 0, Instant(3)).unwrap();
    let b2 = import(&blob_b, idb, 0, Instant(3)).unwrap();
    assert_eq!((a2.session_id(), b2.session_id()), (ida, idb));
    // Two sessions from the same secret and RNG stream still differ.
    let mut r2 = rng(5);
    let (x, y): (S, S) = pair(&cfg(), Instant(0), &mut r2);
    assert_ne!(x.session_id(), y.session_id());
}

/// L2: every failed export wipes `out` (it may have held part of the
/// plaintext state: chain keys, roots).
#[test]
fn failed_export_wipes_out() {
    let (mut a, _b, mut r) = warm_pair(6);
    let full = a
        .export_state_to_vec(16, KEY, Instant(2), &mut r)
        .unwrap()
        .len();
    let g = a.generation();
    for len in [0, 10, 62, 63, 100, 500, full >> 1, full - 17, full - 1] {
        let mut out = vec![0xa5u8; len];
        assert_eq!(
            a.export_state(16, KEY, Instant(2), &mut out, &mut r),
            Err(Error::BufferTooSmall {
                needed: LEN,
                got: len
            }),
            "{len}"
        );
        assert!(out.iter().all(|&x| x == 0), "out not wiped at length {len}");
    }
    let mut out = vec![0xa5u8; LEN];
    assert_eq!(
        a.export_state(16, b"short", Instant(2), &mut out, &mut r),
        Err(Error::Malformed)
    );
    assert!(out.iter().all(|&x| x == 0));
    assert_eq!(a.generation(), g, "a failed export changes nothing");
}

/// A reserve the peer could not follow (at or above `max_jump`) is refused.
#[test]
fn reserve_at_or_above_max_jump_is_refused() {
    let cfg = Config {
        max_jump: 1000,
        ..cfg()
    };
    let mut r = rng(7);
    let (mut a, mut b): (S, S) = pair(&cfg, Instant(0), &mut r);
    let mut out = vec![0xa5u8; LEN];
    for reserve in [1000, 1001, u32::MAX] {
        assert_eq!(
            a.export_state(reserve, KEY, Instant(1), &mut out, &mut r),
            Err(Error::ReserveTooLarge)
        );
        assert!(out.iter().all(|&x| x == 0));
    }
    assert_eq!(a.generation(), 0);
    // The largest allowed reserve: a restored sender's first record opens.
    let blob = a.export_state_to_vec(999, KEY, Instant(1), &mut r).unwrap();
    let id = a.session_id();
    let mut copy = blob.clone();
    let mut a2 = S::import_state(&cfg, KEY, id, &mut copy, 1, Instant(2)).unwrap();
    a2.export_state_to_vec(999, KEY, Instant(2), &mut r)
        .unwrap();
    a2.confirm_persisted(2).unwrap();
    let (mut pkt, mut o) = ([0u8; 1500], [0u8; 1500]);
    let n = a2.seal(Instant(2), b"", b"far", &mut pkt, &mut r).unwrap();
    let got = b.open(Instant(2), b"", &pkt[..n], &mut o, &mut r).unwrap();
    assert_eq!(got.counter, 999);
}
