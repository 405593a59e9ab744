//! The sponges against the RustCrypto `sha3` (SHA3-256, SHA3-512) and
//! `shake` (SHAKE128, SHAKE256) crates: every input length from 0 to three
//! blocks plus one, absorbs split at every position, squeezes split at every
//! position, and block-wise squeezes over several blocks.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::integer_division_remainder_used,
    reason = "test code: public lengths and splits"
)]

use pqdr_keccak::{Sha3_256, Sha3_512, Shake128, Shake256, Sponge};
use sha3::Digest;
use shake::{ExtendableOutput, Update, XofReader};

fn input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + len * 7 + 3) as u8).collect()
}

/// `len` bytes of the reference XOF (`R`) on `msg`.
fn shake_ref<R: Default + Update + ExtendableOutput>(msg: &[u8], len: usize) -> Vec<u8> {
    let mut r = R::default();
    r.update(msg);
    let mut out = vec![0u8; len];
    r.finalize_xof().read(&mut out);
    out
}

/// Our sponge on `msg`, absorbed in two parts split at `split`.
fn ours<const RATE: usize, const PAD: u8>(msg: &[u8], split: usize) -> Sponge<RATE, PAD> {
    let mut s = Sponge::<RATE, PAD>::new();
    s.absorb(&msg[..split]);
    s.absorb(&msg[split..]);
    s
}

/// Every length 0..=3 blocks + 1, each with a few splits, plus every split of
/// one length of each block count.
fn lengths_and_splits(rate: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for len in 0..=3 * rate + 1 {
        for split in [0, 1, len / 2, len.saturating_sub(1), len] {
            v.push((len, split.min(len)));
        }
    }
    for len in [rate - 1, rate, 2 * rate + 5, 3 * rate] {
        for split in 0..=len {
            v.push((len, split));
        }
    }
    v
}

#[test]
fn sha3_256_matches() {
    for (len, split) in lengths_and_splits(136) {
        let msg = input(len);
        let mut got = [0u8; 32];
        ours::<136, 0x06>(&msg, split).squeeze(&mut got);
        assert_eq!(
            got[..],
            sha3::Sha3_256::digest(&msg)[..],
            "len {len} split {split}"
        );
    }
    assert_eq!(Sha3_256::RATE, 136);
}

#[test]
fn sha3_512_matches() {
    for (len, split) in lengths_and_splits(72) {
        let msg = input(len);
        let mut got = [0u8; 64];
        ours::<72, 0x06>(&msg, split).squeeze(&mut got);
        assert_eq!(
            got[..],
            sha3::Sha3_512::digest(&msg)[..],
            "len {len} split {split}"
        );
        let one_shot = pqdr_keccak::sha3_512(&[&msg[..split], &msg[split..]]);
        assert_eq!(one_shot, got);
    }
    assert_eq!(Sha3_512::RATE, 72);
    assert_eq!(
        pqdr_keccak::sha3_256(&[b"ab", b"c"])[..],
        sha3::Sha3_256::digest(b"abc")[..]
    );
}

fn shake_matches<const RATE: usize, R: Default + Update + ExtendableOutput>() {
    for (len, split) in lengths_and_splits(RATE) {
        let msg = input(len);
        let want = shake_ref::<R>(&msg, 2 * RATE + 9);
        let mut got = vec![0u8; want.len()];
        ours::<RATE, 0x1f>(&msg, split).squeeze(&mut got);
        assert_eq!(got, want, "rate {RATE} len {len} split {split}");
    }
}

#[test]
fn shake128_matches() {
    shake_matches::<168, shake::Shake128>();
    assert_eq!(Shake128::RATE, 168);
}

#[test]
fn shake256_matches() {
    shake_matches::<136, shake::Shake256>();
    let msg = input(300);
    let mut got = [0u8; 1000];
    pqdr_keccak::shake256(&[&msg[..7], &msg[7..]], &mut got);
    assert_eq!(got[..], shake_ref::<shake::Shake256>(&msg, 1000)[..]);
    assert_eq!(Shake256::RATE, 136);
}

/// Squeezes split at every position (two calls), and three calls with an
/// unaligned middle, over four blocks of output.
fn split_squeezes<const RATE: usize, R: Default + Update + ExtendableOutput>() {
    let msg = input(RATE + 3);
    let total = 4 * RATE;
    let want = shake_ref::<R>(&msg, total);
    for cut in 0..=total {
        let mut s = ours::<RATE, 0x1f>(&msg, 5);
        let mut got = vec![0u8; total];
        let (a, b) = got.split_at_mut(cut);
        s.squeeze(a);
        s.squeeze(b);
        assert_eq!(got, want, "rate {RATE} cut {cut}");

        let mut s = ours::<RATE, 0x1f>(&msg, 5);
        let mut got = vec![0u8; total];
        let third = cut / 3;
        let (a, rest) = got.split_at_mut(third);
        let (b, c) = rest.split_at_mut(cut - third);
        s.squeeze(a);
        s.squeeze(b);
        s.squeeze(c);
        assert_eq!(got, want, "rate {RATE} cuts {third} {cut}");
    }
}

#[test]
fn split_squeezes_match() {
    split_squeezes::<168, shake::Shake128>();
    split_squeezes::<136, shake::Shake256>();
}

/// Block-wise squeezes: 1 then 3 blocks, then bytes; and after an
/// unaligned byte squeeze (the fallback path) blocks still continue the stream.
fn block_squeezes<const RATE: usize, R: Default + Update + ExtendableOutput>() {
    for len in [0, 1, 33, 34, RATE, RATE + 1, 2 * RATE] {
        let msg = input(len);
        let want = shake_ref::<R>(&msg, 6 * RATE);
        let mut s = ours::<RATE, 0x1f>(&msg, len / 2);
        let mut got = vec![0u8; 6 * RATE];
        s.squeeze_blocks(&mut got[..RATE]);
        s.squeeze_blocks(&mut got[RATE..4 * RATE]);
        s.squeeze(&mut got[4 * RATE..5 * RATE - 3]);
        s.squeeze(&mut got[5 * RATE - 3..5 * RATE]);
        s.squeeze_blocks(&mut got[5 * RATE..]);
        assert_eq!(got, want, "rate {RATE} len {len}");

        // Unaligned start: 7 bytes, then blocks (fallback), then the rest.
        let mut s = ours::<RATE, 0x1f>(&msg, 0);
        let mut got = vec![0u8; 6 * RATE];
        s.squeeze(&mut got[..7]);
        s.squeeze_blocks(&mut got[7..7 + 2 * RATE]);
        s.squeeze(&mut got[7 + 2 * RATE..]);
        assert_eq!(got, want, "rate {RATE} len {len} unaligned");
    }
}

#[test]
fn block_squeezes_match() {
    block_squeezes::<168, shake::Shake128>();
    block_squeezes::<136, shake::Shake256>();
}

/// The permutation itself: Keccak-f[1600] applied twice to the zero state
/// (the Keccak team's KeccakF-1600 intermediate values, first lanes).
#[test]
fn permutation_known_answers() {
    let mut st = [0u64; 25];
    pqdr_keccak::f1600(&mut st);
    assert_eq!(st[0], 0xF1258F7940E1DDE7);
    assert_eq!(st[1], 0x84D5CCF933C0478A);
    pqdr_keccak::f1600(&mut st);
    assert_eq!(st[0], 0x2D5C954DF96ECB3C);
}

#[test]
fn clone_and_debug() {
    let mut a = Shake128::new();
    a.absorb(b"x");
    let mut b = a.clone();
    let (mut x, mut y) = ([0u8; 40], [0u8; 40]);
    a.squeeze(&mut x);
    b.squeeze(&mut y);
    assert_eq!(x, y);
    assert!(!format!("{a:?}").contains('0'));
}
