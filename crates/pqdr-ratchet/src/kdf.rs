//! RATCHET.md §1.3–1.4: the context strings and every BLAKE3 `derive_key` call.
//!
//! `DK(ctx, m)` is BLAKE3 `derive_key`. The per-packet and per-segment steps
//! (`DKf`) use the context key precomputed once
//! (`blake3::hazmat::hash_derive_key_context`, hardcoded below and checked by a
//! unit test). Their input is one block (≤ 64 bytes), so `derive_key` with a
//! precomputed context key *is* a single BLAKE3 compression, which
//! [`dk_one_block`] computes directly: the `blake3` crate has no public
//! single-block entry point, and its `Hasher` path (hasher setup, buffering,
//! XOF reader, wiping) cost more than the compression itself (BENCHMARKS.md).

use blake3::Hasher;
use blake3::hazmat::ContextKey;
use zeroize::Zeroize;

/// Length of roots, chain keys, segment keys and message keys.
pub(crate) const KEY_LEN: usize = 32;

/// A 32-byte secret (root, chain, segment or message key).
pub(crate) type Key = [u8; KEY_LEN];

/// RATCHET.md §1.4 context strings, frozen at the spec's timestamp.
pub(crate) mod ctx {
    pub(crate) const ROOT_INIT: &str = "pqdr-ratchet v1 2026-11-22T02:00Z root init";
    pub(crate) const KEM_TRANSCRIPT: &str = "pqdr-ratchet v1 2026-11-22T02:00Z kem transcript";
    pub(crate) const ROOT_STEP: &str = "pqdr-ratchet v1 2026-11-22T02:00Z root step";
    pub(crate) const SEG0_I2R: &str = "pqdr-ratchet v1 2026-11-22T02:00Z segment 0 i2r";
    pub(crate) const SEG0_R2I: &str = "pqdr-ratchet v1 2026-11-22T02:00Z segment 0 r2i";
    #[allow(dead_code, reason = "used through the precomputed context key")]
    pub(crate) const SEG_STEP: &str = "pqdr-ratchet v1 2026-11-22T02:00Z segment step";
    #[allow(dead_code, reason = "used through the precomputed context key")]
    pub(crate) const INNER0: &str = "pqdr-ratchet v1 2026-11-22T02:00Z inner 0";
    #[allow(dead_code, reason = "used through the precomputed context key")]
    pub(crate) const PACKET: &str = "pqdr-ratchet v1 2026-11-22T02:00Z packet step";
    pub(crate) const STATE_SEAL: &str = "pqdr-ratchet v1 2026-11-22T02:00Z state seal";
    pub(crate) const EXPORTER: &str = "pqdr-ratchet v1 2026-11-22T02:00Z exporter";
}

/// `hash_derive_key_context(ctx::SEG_STEP)`.
const CK_SEG_STEP: ContextKey = [
    0x8a, 0x70, 0x32, 0x20, 0x1c, 0xe5, 0xe3, 0x32, 0x40, 0x56, 0x16, 0xb9, 0x36, 0xe8, 0x99, 0xab,
    0x31, 0x91, 0xdc, 0xd3, 0x42, 0xe1, 0xaa, 0x28, 0x7a, 0x75, 0x00, 0x03, 0x9b, 0x91, 0x8d, 0xc9,
];
/// `hash_derive_key_context(ctx::INNER0)`.
const CK_INNER0: ContextKey = [
    0x4b, 0x82, 0x89, 0x7e, 0x1a, 0x81, 0xaa, 0x5a, 0x7a, 0x63, 0xb6, 0xdc, 0x56, 0xc5, 0x4c, 0xc9,
    0x43, 0x17, 0x5d, 0x04, 0x29, 0x66, 0x95, 0x64, 0xad, 0x11, 0xba, 0xce, 0x5a, 0xe2, 0x1d, 0x0d,
];
/// `hash_derive_key_context(ctx::PACKET)`.
const CK_PACKET: ContextKey = [
    0x8f, 0xd5, 0x66, 0xfb, 0xa9, 0x04, 0x8e, 0x64, 0xdf, 0x3b, 0xc9, 0x61, 0x8c, 0xe2, 0x7c, 0x3c,
    0x4b, 0xe8, 0xa1, 0xee, 0x05, 0x50, 0x96, 0x61, 0xdb, 0x1a, 0xab, 0x64, 0x54, 0xe7, 0xb7, 0x49,
];

/// The context keys as the little-endian words the compression function reads.
const fn words(key: &ContextKey) -> [u32; 8] {
    let mut w = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        w[i] = u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]]);
        i += 1;
    }
    w
}
const CKW_SEG_STEP: [u32; 8] = words(&CK_SEG_STEP);
const CKW_INNER0: [u32; 8] = words(&CK_INNER0);
const CKW_PACKET: [u32; 8] = words(&CK_PACKET);

/// BLAKE3 spec Table 1: the IV (SHA-256's).
const IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// BLAKE3 spec Table 2: the message word permutation applied between rounds.
const PERMUTATION: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

/// Which original message word each round reads at each position: round `r`
/// uses the block permuted `r` times by [`PERMUTATION`]. Precomputed so the
/// seven rounds index the block directly instead of moving words around.
const SCHEDULE: [[usize; 16]; 7] = {
    let mut s = [[0usize; 16]; 7];
    let mut i = 0;
    while i < 16 {
        s[0][i] = i;
        i += 1;
    }
    let mut r = 1;
    while r < 7 {
        let mut i = 0;
        while i < 16 {
            s[r][i] = s[r - 1][PERMUTATION[i]];
            i += 1;
        }
        r += 1;
    }
    s
};

/// BLAKE3 spec Table 3 flags of a `derive_key` input that fits one block: the
/// block is the first and last of chunk 0 (`CHUNK_START | CHUNK_END`), the
/// only node (`ROOT`), in the key-material mode (`DERIVE_KEY_MATERIAL`).
const ONE_BLOCK_DERIVE_KEY: u32 = 1 | 2 | 8 | 64;

/// BLAKE3 spec §2.2: the mixing function `G` on state words `a, b, c, d` with
/// message words `x, y`. `a + x` is formed first: `b` arrives last, so this
/// shortens the dependency chain (the sum is the same).
#[inline(always)]
fn g(v: &mut [u32; 16], (a, b, c, d): (usize, usize, usize, usize), x: u32, y: u32) {
    v[a] = v[a].wrapping_add(x).wrapping_add(v[b]);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(12);
    v[a] = v[a].wrapping_add(y).wrapping_add(v[b]);
    v[d] = (v[d] ^ v[a]).rotate_right(8);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(7);
}

/// BLAKE3 spec §2.2: one round, columns then diagonals, reading the message
/// words in the order `s`.
#[inline(always)]
fn round(v: &mut [u32; 16], m: &impl Fn(usize) -> u32, s: &[usize; 16]) {
    g(v, (0, 4, 8, 12), m(s[0]), m(s[1]));
    g(v, (1, 5, 9, 13), m(s[2]), m(s[3]));
    g(v, (2, 6, 10, 14), m(s[4]), m(s[5]));
    g(v, (3, 7, 11, 15), m(s[6]), m(s[7]));
    g(v, (0, 5, 10, 15), m(s[8]), m(s[9]));
    g(v, (1, 6, 11, 12), m(s[10]), m(s[11]));
    g(v, (2, 7, 8, 13), m(s[12]), m(s[13]));
    g(v, (3, 4, 9, 14), m(s[14]), m(s[15]));
}

/// `derive_key` with the precomputed context key `cv` of a one-block input
/// (`block_len` ≤ 64 bytes; `m(i)` is message word `i`, zero past the input).
/// The words are read where the input lives (the chain key itself), so no
/// copy of the secret input is made that would need wiping:
/// BLAKE3 spec §2.2 compression with counter 0 and [`ONE_BLOCK_DERIVE_KEY`],
/// returning all 16 output words, i.e. the first 64 bytes of the root output
/// (§2.6: the first 8 words are the 32-byte `derive_key` result).
///
/// Straight-line 32-bit additions, rotations and XORs: constant time.
#[inline(always)]
fn dk_one_block(cv: &[u32; 8], m: impl Fn(usize) -> u32, block_len: u32) -> [u32; 16] {
    let mut v = [
        cv[0],
        cv[1],
        cv[2],
        cv[3],
        cv[4],
        cv[5],
        cv[6],
        cv[7],
        IV[0],
        IV[1],
        IV[2],
        IV[3],
        0, // counter, low word
        0, // counter, high word
        block_len,
        ONE_BLOCK_DERIVE_KEY,
    ];
    // Written out (not a loop) so every message index is a constant.
    round(&mut v, &m, &SCHEDULE[0]);
    round(&mut v, &m, &SCHEDULE[1]);
    round(&mut v, &m, &SCHEDULE[2]);
    round(&mut v, &m, &SCHEDULE[3]);
    round(&mut v, &m, &SCHEDULE[4]);
    round(&mut v, &m, &SCHEDULE[5]);
    round(&mut v, &m, &SCHEDULE[6]);
    for i in 0..8 {
        v[i] ^= v[i + 8];
        v[i + 8] ^= cv[i];
    }
    v
}

/// Overwrites a per-packet key (a `SendKey`'s or a `Candidate`'s) with zeros.
///
/// Ordinary wide stores made observable by `black_box`, so they are not
/// removed as dead stores — the same device as [`wipe`]. The `zeroize`
/// crate's volatile writes go one byte at a time (32 stores per key), a
/// visible share of the per-packet cost (BENCHMARKS.md). Long-lived state
/// (chains, windows, slots) keeps `Zeroize`/`ZeroizeOnDrop`.
#[inline(always)]
pub(crate) fn wipe_key<T: Copy + Default, const N: usize>(x: &mut [T; N]) {
    *x = [T::default(); N];
    core::hint::black_box(&*x);
}

/// Message word `i` of a block holding the 32-byte `key` (words 0–7),
/// `extra` (word 8) and zero padding.
#[inline(always)]
fn key_word(key: &Key, extra: u32, i: usize) -> u32 {
    if i < 8 {
        u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]])
    } else if i == 8 {
        extra
    } else {
        0
    }
}

/// Writes words `w` as little-endian bytes to `out`.
#[inline(always)]
fn put_words(out: &mut Key, w: &[u32]) {
    for (b, x) in out.chunks_exact_mut(4).zip(w) {
        b.copy_from_slice(&x.to_le_bytes());
    }
}

/// `DKf(ctx, key)` for a 32-byte input and output: one compression.
fn dk_key(cv: &[u32; 8], key: &Key) -> Key {
    let v = dk_one_block(cv, |i| key_word(key, 0, i), 32);
    let mut out = [0u8; KEY_LEN];
    put_words(&mut out, &v[..8]);
    out
}

/// Two-byte big-endian length prefix `lp(x)` (inputs here are ≤ 4 KiB).
#[allow(
    clippy::cast_possible_truncation,
    reason = "callers bound lengths below 2^16"
)]
fn lp(h: &mut Hasher, x: &[u8]) {
    h.update(&(x.len() as u16).to_be_bytes());
    h.update(x);
}

/// Wipes a hasher that buffered secret input.
///
/// Every input here is at most a few chunks and, in the per-packet path, a
/// single block: the secret bytes sit in the chunk buffer, which `reset`
/// overwrites (the chaining values are the public context key). This avoids
/// `Zeroize for Hasher`, which volatile-writes the whole 1.7 KB CV stack per
/// call (measured: more than the rest of a packet step). `black_box` keeps the
/// overwrite from being elided as a dead store.
fn wipe(h: &mut Hasher) {
    h.reset();
    core::hint::black_box(&*h);
}

/// Finishes a 32-byte output and wipes the hasher (it buffered secret input).
fn finish32(mut h: Hasher) -> Key {
    let out = *h.finalize().as_bytes();
    wipe(&mut h);
    out
}

/// A direction, named by who sends (never "send"/"recv", RATCHET.md §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Initiator to responder.
    I2R,
    /// Responder to initiator.
    R2I,
}

impl Direction {
    /// The nonce/label byte: 0 for I2R, 1 for R2I.
    pub(crate) fn byte(self) -> u8 {
        match self {
            Direction::I2R => 0,
            Direction::R2I => 1,
        }
    }
}

/// RATCHET.md §1.3: `root_0 = DK(CTX_ROOT_INIT, lp(secret) ‖ lp(transcript) ‖ lp(context) ‖ be16(kem_id) ‖ be16(aead_id) ‖ mode)`.
pub(crate) fn root_init(
    secret: &[u8],
    transcript: &[u8],
    context: &[u8],
    kem_id: u16,
    aead_id: u16,
    mode: u8,
) -> Key {
    let mut h = Hasher::new_derive_key(ctx::ROOT_INIT);
    lp(&mut h, secret);
    lp(&mut h, transcript);
    lp(&mut h, context);
    h.update(&kem_id.to_be_bytes());
    h.update(&aead_id.to_be_bytes());
    h.update(&[mode]);
    finish32(h)
}

/// RATCHET.md §1.4: `th_{e+1} = DK(CTX_KEM_TRANSCRIPT, be64(e+1) ‖ be16(kem_id) ‖ owner ‖ be16(rid) ‖ lp(ek) ‖ lp(ct))`.
pub(crate) fn kem_transcript(
    next_epoch: u64,
    kem_id: u16,
    owner: u8,
    rid: u16,
    ek: &[u8],
    ct: &[u8],
) -> Key {
    let mut h = Hasher::new_derive_key(ctx::KEM_TRANSCRIPT);
    h.update(&next_epoch.to_be_bytes());
    h.update(&kem_id.to_be_bytes());
    h.update(&[owner]);
    h.update(&rid.to_be_bytes());
    lp(&mut h, ek);
    lp(&mut h, ct);
    finish32(h)
}

/// RATCHET.md §1.4: `root_{e+1} = DK(CTX_ROOT_STEP, root_e ‖ ss ‖ th_{e+1})`.
pub(crate) fn root_step(root: &Key, ss: &[u8; 32], th: &Key) -> Key {
    let mut h = Hasher::new_derive_key(ctx::ROOT_STEP);
    h.update(root);
    h.update(ss);
    h.update(th);
    finish32(h)
}

/// RATCHET.md §1.4: `seg_0 = DK(CTX_SEG0_dir, root_e)`.
pub(crate) fn seg0(root: &Key, dir: Direction) -> Key {
    let c = match dir {
        Direction::I2R => ctx::SEG0_I2R,
        Direction::R2I => ctx::SEG0_R2I,
    };
    let mut h = Hasher::new_derive_key(c);
    h.update(root);
    finish32(h)
}

/// RATCHET.md §1.4: `seg_{j+1} = DKf(CTX_SEG_STEP, seg_j)`.
pub(crate) fn seg_step(seg: &Key) -> Key {
    dk_key(&CKW_SEG_STEP, seg)
}

/// RATCHET.md §1.4: `ck_{j,0} = DKf(CTX_INNER0, seg_j)`.
pub(crate) fn inner0(seg: &Key) -> Key {
    dk_key(&CKW_INNER0, seg)
}

/// RATCHET.md §1.4: `ck' ‖ mk = DKf_xof64(CTX_PACKET, ck ‖ be32(c))`; overwrites `ck`
/// with `ck'` in place and writes `mk`. The 36-byte input is one block and
/// the 64 output bytes are one compression's 16 output words.
#[inline]
pub(crate) fn packet_step(ck: &mut Key, counter: u32, mk: &mut Key) {
    let c = u32::from_le_bytes(counter.to_be_bytes());
    let v = dk_one_block(&CKW_PACKET, |i| key_word(ck, c, i), 36);
    put_words(ck, &v[..8]);
    put_words(mk, &v[8..]);
}

/// `DK(CTX_STATE_SEAL, lp(storage_key) ‖ salt)`: key sealing an exported state.
pub(crate) fn state_seal_key(storage_key: &[u8], salt: &[u8]) -> Key {
    let mut h = Hasher::new_derive_key(ctx::STATE_SEAL);
    lp(&mut h, storage_key);
    h.update(salt);
    finish32(h)
}

/// RATCHET.md §1.4: `DK(CTX_EXPORTER, root_e ‖ lp(label))`, filling `out` (XOF).
pub(crate) fn exporter(root: &Key, label: &[u8], out: &mut [u8]) {
    let mut h = Hasher::new_derive_key(ctx::EXPORTER);
    h.update(root);
    lp(&mut h, label);
    let mut xof = h.finalize_xof();
    xof.fill(out);
    xof.zeroize();
    wipe(&mut h);
}

#[cfg(test)]
mod tests {
    use super::*;
    use blake3::hazmat::hash_derive_key_context;

    #[test]
    fn context_keys_match_strings() {
        assert_eq!(hash_derive_key_context(ctx::SEG_STEP), CK_SEG_STEP);
        assert_eq!(hash_derive_key_context(ctx::INNER0), CK_INNER0);
        assert_eq!(hash_derive_key_context(ctx::PACKET), CK_PACKET);
    }

    #[test]
    fn precomputed_equals_plain_derive_key() {
        let seg = [7u8; 32];
        assert_eq!(seg_step(&seg), blake3::derive_key(ctx::SEG_STEP, &seg));
        assert_eq!(inner0(&seg), blake3::derive_key(ctx::INNER0, &seg));
    }

    /// The direct one-block compression against the `blake3` crate's
    /// `derive_key` / XOF, over many keys and counters.
    #[test]
    fn one_block_equals_blake3_crate() {
        let mut key = [0u8; 32];
        for i in 0..2000u32 {
            // Keys from the chain itself; counters over the whole u32 range.
            let counter = i.wrapping_mul(0x9e37_79b9);
            let mut h = Hasher::new_derive_key(ctx::PACKET);
            h.update(&key);
            h.update(&counter.to_be_bytes());
            let mut want = [0u8; 64];
            h.finalize_xof().fill(&mut want);
            let (mut ck, mut mk) = (key, [0u8; 32]);
            packet_step(&mut ck, counter, &mut mk);
            assert_eq!(ck[..], want[..32], "ck', counter {counter:#x}");
            assert_eq!(mk[..], want[32..], "mk, counter {counter:#x}");
            assert_eq!(seg_step(&key), blake3::derive_key(ctx::SEG_STEP, &key));
            assert_eq!(inner0(&key), blake3::derive_key(ctx::INNER0, &key));
            key = mk;
            key[0] ^= ck[0];
        }
    }
}
