//! docs/protocol/ratchet.md §1.3–1.4: the context strings and every BLAKE3 `derive_key` call.
//!
//! `DK(ctx, m)` is BLAKE3 `derive_key`. The per-packet and per-segment steps
//! (`DKf`) use the context key precomputed once
//! (`blake3::hazmat::hash_derive_key_context`, hardcoded below and checked by a
//! unit test), as docs/protocol/ratchet.md §1.4 says: their input is one block
//! (≤ 64 bytes), so each step is a single BLAKE3 compression, done by the
//! `blake3` crate's compression function (`blake3::platform`, its SSE4.1 /
//! AVX-512 / portable kernels; no BLAKE3 code of our own) without its
//! incremental `Hasher` / `OutputReader` around it ([`one_block`]). The eight
//! packet keys of a group (§1.4.4, revision 2026-12-03) are eight such
//! one-block derivations in one call of the crate's `hash_many`
//! ([`PacketKdf::expand`]: 8 lanes with AVX2, 4 with SSE4.1).

use blake3::Hasher;
use blake3::hazmat::ContextKey;
use blake3::platform::Platform;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Length of roots, chain keys, segment keys and message keys.
pub(crate) const KEY_LEN: usize = 32;

/// A 32-byte secret (root, chain, segment or message key).
pub(crate) type Key = [u8; KEY_LEN];

/// docs/protocol/ratchet.md §1.4 context strings, frozen at the spec's timestamp.
pub(crate) mod ctx {
    pub(crate) const ROOT_INIT: &str = "pqdr-ratchet v2 2026-11-25T20:00Z root init";
    pub(crate) const KEM_TRANSCRIPT: &str = "pqdr-ratchet v2 2026-11-25T20:00Z kem transcript";
    pub(crate) const ROOT_STEP: &str = "pqdr-ratchet v2 2026-11-25T20:00Z root step";
    pub(crate) const SEG0_I2R: &str = "pqdr-ratchet v2 2026-11-25T20:00Z segment 0 i2r";
    pub(crate) const SEG0_R2I: &str = "pqdr-ratchet v2 2026-11-25T20:00Z segment 0 r2i";
    #[allow(dead_code, reason = "used through the precomputed context key")]
    pub(crate) const SEG_STEP: &str = "pqdr-ratchet v2 2026-11-25T20:00Z segment step";
    #[allow(dead_code, reason = "used through the precomputed context key")]
    pub(crate) const INNER0: &str = "pqdr-ratchet v2 2026-11-25T20:00Z inner 0";
    #[allow(dead_code, reason = "used through the precomputed context key")]
    pub(crate) const GROUP: &str = "pqdr-ratchet v2 2026-11-25T20:00Z group step";
    #[allow(dead_code, reason = "used through the precomputed context key")]
    pub(crate) const PACKET_KEY: &str = "pqdr-ratchet v2 2026-11-25T20:00Z packet key";
    pub(crate) const ROOT_CARRY: &str = "pqdr-ratchet v2 2026-11-25T20:00Z root carry";
    pub(crate) const STATE_SEAL: &str = "pqdr-ratchet v2 2026-11-25T20:00Z state seal";
    pub(crate) const EXPORTER: &str = "pqdr-ratchet v2 2026-11-25T20:00Z exporter";
}

/// `hash_derive_key_context(ctx::SEG_STEP)`.
const CK_SEG_STEP: ContextKey = [
    0x90, 0x89, 0xc2, 0x85, 0xfa, 0x98, 0x50, 0x10, 0x88, 0x83, 0xeb, 0xd7, 0x55, 0xfd, 0xb3, 0xe2,
    0x10, 0x8d, 0xd2, 0x21, 0xdc, 0x7c, 0x43, 0x57, 0x3d, 0xda, 0xbc, 0x8f, 0xb3, 0x87, 0x9b, 0xea,
];
/// `hash_derive_key_context(ctx::INNER0)`.
const CK_INNER0: ContextKey = [
    0xf3, 0xb5, 0x6a, 0x47, 0xac, 0x6d, 0xb7, 0x8b, 0xe2, 0xdd, 0x8c, 0x99, 0x11, 0x3c, 0xe2, 0xff,
    0xb3, 0x74, 0xf1, 0xf8, 0xfe, 0xef, 0x7c, 0x9e, 0x72, 0xee, 0x64, 0x79, 0x3c, 0x35, 0x59, 0xeb,
];
/// `hash_derive_key_context(ctx::GROUP)`.
const CK_GROUP: ContextKey = [
    0x1f, 0x97, 0xf8, 0xfa, 0x30, 0x32, 0x13, 0x46, 0xc7, 0xd2, 0x8d, 0xb5, 0xd7, 0x25, 0xd2, 0x45,
    0xef, 0x23, 0x71, 0x6c, 0x97, 0x7c, 0xff, 0x18, 0x24, 0x17, 0x4a, 0x55, 0xb4, 0x95, 0xe6, 0x8b,
];
/// `hash_derive_key_context(ctx::PACKET_KEY)`.
const CK_PACKET_KEY: ContextKey = [
    0xcd, 0xa4, 0x0e, 0x4c, 0x91, 0xdd, 0xcc, 0x53, 0x76, 0x6a, 0x78, 0x75, 0x77, 0x94, 0xb7, 0x20,
    0x43, 0x3f, 0x06, 0xbc, 0x5a, 0x46, 0x99, 0xe8, 0x83, 0x3b, 0xf2, 0xb5, 0xfb, 0x70, 0x1e, 0xdc,
];

/// A context key as the compression function's chaining value: eight
/// little-endian words (BLAKE3 spec §2.4: the key words of `derive_key`'s
/// second stage).
const fn cv_words(k: &ContextKey) -> [u32; 8] {
    let mut w = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        w[i] = u32::from_le_bytes([k[4 * i], k[4 * i + 1], k[4 * i + 2], k[4 * i + 3]]);
        i += 1;
    }
    w
}

const CV_SEG_STEP: [u32; 8] = cv_words(&CK_SEG_STEP);
const CV_INNER0: [u32; 8] = cv_words(&CK_INNER0);
const CV_GROUP: [u32; 8] = cv_words(&CK_GROUP);
const CV_PACKET_KEY: [u32; 8] = cv_words(&CK_PACKET_KEY);

/// Records per group `G` (docs/protocol/ratchet.md §1.4.4): one GROUP
/// compression and one batch of `G` PACKET_KEY derivations per group.
pub(crate) const GROUP: usize = 8;

/// The unused message keys of a chain's current group (index `c mod G`).
pub(crate) type GroupKeys = [Key; GROUP];

/// The flags of the only block of a `derive_key` input of at most 64 bytes
/// (BLAKE3 spec §2.1 Table 3, §2.6): first and last block of chunk 0, the
/// root, and the key-material mode of `derive_key`'s second stage.
const CHUNK_START: u8 = 1 << 0;
const CHUNK_END: u8 = 1 << 1;
const ROOT: u8 = 1 << 3;
const DERIVE_KEY_MATERIAL: u8 = 1 << 6;
const ONE_BLOCK_KEY_MATERIAL: u8 = CHUNK_START | CHUNK_END | ROOT | DERIVE_KEY_MATERIAL;

/// `DKf` of an input of at most one block: the first 64 bytes of BLAKE3's
/// root output (BLAKE3 spec §2.6: output block 0 is the compression of the
/// only block, zero-padded, with its length, counter 0 and the root flag),
/// i.e. `derive_key` output by the `blake3` crate's compression function
/// without the `Hasher` (its 1.9 KB state, reset and `OutputReader` were as
/// many instructions per packet step as the compression itself, callgrind,
/// BENCHMARKS.md). `block` holds the input and zeros; `len` is the input
/// length. The output is secret: the callers wipe it and `block`.
#[inline(always)]
fn one_block(platform: Platform, cv: &[u32; 8], block: &[u8; 64], len: u8) -> [u8; 64] {
    platform.compress_xof(cv, block, len, 0, ONE_BLOCK_KEY_MATERIAL)
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

/// The packet chain's group derivations (docs/protocol/ratchet.md §1.4.4)
/// with the compression kernel chosen once (`Platform::detect`, a CPU
/// feature check) when the key schedule is made. Holds no secret; not part
/// of the exported state.
pub(crate) struct PacketKdf {
    platform: Platform,
}

impl PacketKdf {
    pub(crate) fn new() -> Self {
        PacketKdf {
            platform: Platform::detect(),
        }
    }

    /// docs/protocol/ratchet.md §1.4.4, expanding the group that starts at
    /// counter `c0`: `ck' ‖ gk = DKf_xof64(CTX_GROUP, ck ‖ be32(c0))`, then
    /// `keys[i] = DKf(CTX_PACKET_KEY, gk ‖ be32(c0 + i) ‖ 0^28)` for the
    /// `G = 8` counters of the group, in one batched evaluation (the
    /// `blake3` crate's `hash_many`: 8 lanes with AVX2, 4 with SSE4.1; eight
    /// independent one-block inputs, block length 64, counter 0, the flags of
    /// a one-block `derive_key`). Writes `ck'` to `ck_out`; `gk` and the
    /// inputs are wiped here.
    ///
    /// Free of secret-dependent branches and indices: fixed lengths, and the
    /// `blake3` crate's kernels are constant time.
    #[inline]
    pub(crate) fn expand(&self, ck: &Key, c0: u32, ck_out: &mut Key, keys: &mut GroupKeys) {
        let mut out = self.xof64(&CV_GROUP, ck, c0);
        ck_out.copy_from_slice(&out[..KEY_LEN]);
        let mut blocks = [[0u8; 64]; GROUP];
        for (i, b) in blocks.iter_mut().enumerate() {
            b[..KEY_LEN].copy_from_slice(&out[KEY_LEN..]);
            #[allow(clippy::cast_possible_truncation, reason = "i < 8")]
            let c = c0.wrapping_add(i as u32);
            b[KEY_LEN..KEY_LEN + 4].copy_from_slice(&c.to_be_bytes());
        }
        wipe_key(&mut out);
        let inputs: [&[u8; 64]; GROUP] = core::array::from_fn(|i| &blocks[i]);
        self.platform.hash_many(
            &inputs,
            &CV_PACKET_KEY,
            0,
            blake3::IncrementCounter::No,
            ROOT | DERIVE_KEY_MATERIAL,
            CHUNK_START,
            CHUNK_END,
            keys.as_flattened_mut(),
        );
        for b in &mut blocks {
            wipe_key(b);
        }
    }

    /// [`PacketKdf::expand`] in place: `ck` becomes `ck'`.
    #[inline]
    pub(crate) fn expand_in_place(&self, ck: &mut Key, c0: u32, keys: &mut GroupKeys) {
        let mut next = [0u8; KEY_LEN];
        self.expand(ck, c0, &mut next, keys);
        *ck = next;
        wipe_key(&mut next);
    }

    /// Passes the group at `c0` whole: `ck' = first half of
    /// DKf_xof64(CTX_GROUP, ck ‖ be32(c0))` (its keys are never made).
    pub(crate) fn skip_group(&self, ck: &mut Key, c0: u32) {
        let mut out = self.xof64(&CV_GROUP, ck, c0);
        ck.copy_from_slice(&out[..KEY_LEN]);
        wipe_key(&mut out);
    }

    /// `DKf_xof64(ctx, ck ‖ be32(counter))`; the caller wipes the result.
    #[inline(always)]
    fn xof64(&self, cv: &[u32; 8], ck: &Key, counter: u32) -> [u8; 64] {
        let mut block = [0u8; 64];
        block[..KEY_LEN].copy_from_slice(ck);
        block[KEY_LEN..KEY_LEN + 4].copy_from_slice(&counter.to_be_bytes());
        let out = one_block(self.platform, cv, &block, 36);
        wipe_key(&mut block);
        out
    }
}

/// `DKf(ctx, key)` for a 32-byte input and output ([`one_block`]).
fn dk_key(cv: &[u32; 8], key: &Key) -> Key {
    let mut block = [0u8; 64];
    block[..KEY_LEN].copy_from_slice(key);
    let mut out = one_block(Platform::detect(), cv, &block, 32);
    wipe_key(&mut block);
    let mut k = [0u8; KEY_LEN];
    k.copy_from_slice(&out[..KEY_LEN]);
    wipe_key(&mut out);
    k
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
/// Every input here is at most a few chunks (the one-block steps do not use
/// a `Hasher`): the secret bytes sit in the chunk buffer, which `reset`
/// overwrites. This avoids
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

/// A direction, named by who sends (never "send"/"recv", docs/protocol/ratchet.md §1.3).
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

/// docs/protocol/ratchet.md §1.3: `root_0 = DK(CTX_ROOT_INIT, lp(secret) ‖ lp(transcript) ‖ lp(context) ‖ be16(kem_id) ‖ be16(aead_id) ‖ mode)`.
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

/// docs/protocol/ratchet.md §1.4: `th_{e+1} = DK(CTX_KEM_TRANSCRIPT, be64(e+1) ‖ be16(kem_id) ‖ owner ‖ be16(rid) ‖ lp(ek) ‖ lp(ct))`.
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

/// docs/protocol/ratchet.md §1.4 (v2): `root_{e+1} = DK(CTX_ROOT_STEP, rk_e ‖ ss ‖ th_{e+1})`.
pub(crate) fn root_step(rk: &Key, ss: &[u8; 32], th: &Key) -> Key {
    let mut h = Hasher::new_derive_key(ctx::ROOT_STEP);
    h.update(rk);
    h.update(ss);
    h.update(th);
    finish32(h)
}

/// docs/protocol/ratchet.md §1.4: `seg_0 = DK(CTX_SEG0_dir, root_e)`.
pub(crate) fn seg0(root: &Key, dir: Direction) -> Key {
    let c = match dir {
        Direction::I2R => ctx::SEG0_I2R,
        Direction::R2I => ctx::SEG0_R2I,
    };
    let mut h = Hasher::new_derive_key(c);
    h.update(root);
    finish32(h)
}

/// Test-only (`testing::kdf_steps`): the chain compressions made by
/// [`seg_step`], [`inner0`] and the group steps and expansions of scratch
/// chains (`Chain::step`, `Chain::jump_to`; not the in-order path).
#[cfg(feature = "test-utils")]
pub(crate) static STEPS: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

#[inline(always)]
fn count_step() {
    #[cfg(feature = "test-utils")]
    STEPS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
}

/// docs/protocol/ratchet.md §1.4: `seg_{j+1} = DKf(CTX_SEG_STEP, seg_j)`.
pub(crate) fn seg_step(seg: &Key) -> Key {
    count_step();
    dk_key(&CV_SEG_STEP, seg)
}

/// docs/protocol/ratchet.md §1.4: `ck_{j,0} = DKf(CTX_INNER0, seg_j)`.
pub(crate) fn inner0(seg: &Key) -> Key {
    count_step();
    dk_key(&CV_INNER0, seg)
}

/// Counts one group expansion or group step of a scratch derivation
/// (`testing::kdf_steps`; the chain's own calls, not the in-order path).
#[inline(always)]
pub(crate) fn count_group_step() {
    count_step();
}

/// docs/protocol/ratchet.md §1.11 rule 3: `DK(CTX_STATE_SEAL, storage_key)`, the
/// XChaCha20-Poly1305 key sealing an exported state.
pub(crate) fn state_seal_key(storage_key: &[u8]) -> Key {
    let mut h = Hasher::new_derive_key(ctx::STATE_SEAL);
    h.update(storage_key);
    finish32(h)
}

/// The children of an epoch root (docs/protocol/ratchet.md §1.4 as revised 2026-11-25),
/// derived at once so that `root_e` itself can be erased: nothing kept
/// opens a packet sent before the current chain positions.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct EpochKeys {
    /// `rk_e = DK(CTX_ROOT_CARRY, root_e)`: enters only the next root step.
    pub(crate) rk: Key,
    /// `xk_e = DK(CTX_EXPORTER, root_e)`: the exporter key of the epoch.
    pub(crate) xk: Key,
    /// `seg_0 = DK(CTX_SEG0_I2R, root_e)`.
    pub(crate) seg0_i2r: Key,
    /// `seg_0 = DK(CTX_SEG0_R2I, root_e)`.
    pub(crate) seg0_r2i: Key,
}

impl EpochKeys {
    /// Derives the four children of `root` and erases `root` (by value: for
    /// `testing`; the library fills an epoch's keys in place).
    #[cfg(feature = "test-utils")]
    pub(crate) fn from_root(root: &mut Key) -> Self {
        let mut k = EpochKeys {
            rk: [0; 32],
            xk: [0; 32],
            seg0_i2r: [0; 32],
            seg0_r2i: [0; 32],
        };
        k.fill_from_root(root);
        k
    }

    /// `EpochKeys::from_root` into `self`, in place: no returned copy of
    /// the children is left behind by a move (issue #33 I1).
    pub(crate) fn fill_from_root(&mut self, root: &mut Key) {
        self.rk = dk_plain(ctx::ROOT_CARRY, root);
        self.xk = dk_plain(ctx::EXPORTER, root);
        self.seg0_i2r = seg0(root, Direction::I2R);
        self.seg0_r2i = seg0(root, Direction::R2I);
        root.zeroize();
    }

    /// `seg_0` of a direction.
    pub(crate) fn seg0(&self, dir: Direction) -> &Key {
        match dir {
            Direction::I2R => &self.seg0_i2r,
            Direction::R2I => &self.seg0_r2i,
        }
    }
}

/// `DK(ctx, key)` with the context string hashed in this call (once per epoch).
fn dk_plain(context: &str, key: &Key) -> Key {
    let mut h = Hasher::new_derive_key(context);
    h.update(key);
    finish32(h)
}

/// docs/protocol/ratchet.md §1.4: an exporter output `DK(CTX_EXPORTER, xk_e ‖ lp(label))`,
/// filling `out` (XOF). (`xk_e` itself is `DK(CTX_EXPORTER, root_e)`: a
/// 32-byte input, while every exporter input is at least 34 bytes.)
pub(crate) fn exporter(xk: &Key, label: &[u8], out: &mut [u8]) {
    let mut h = Hasher::new_derive_key(ctx::EXPORTER);
    h.update(xk);
    lp(&mut h, label);
    let mut xof = h.finalize_xof();
    xof.fill(out);
    xof.zeroize();
    wipe(&mut h);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use blake3::hazmat::hash_derive_key_context;

    #[test]
    fn context_keys_match_strings() {
        assert_eq!(hash_derive_key_context(ctx::SEG_STEP), CK_SEG_STEP);
        assert_eq!(hash_derive_key_context(ctx::INNER0), CK_INNER0);
        assert_eq!(hash_derive_key_context(ctx::GROUP), CK_GROUP);
        assert_eq!(hash_derive_key_context(ctx::PACKET_KEY), CK_PACKET_KEY);
    }

    #[test]
    fn precomputed_equals_plain_derive_key() {
        let seg = [7u8; 32];
        assert_eq!(seg_step(&seg), blake3::derive_key(ctx::SEG_STEP, &seg));
        assert_eq!(inner0(&seg), blake3::derive_key(ctx::INNER0, &seg));
    }

    /// The batched group expansion against plain `derive_key` / XOF (context
    /// string hashed every call), over many keys and counters, on the
    /// detected kernel and on every kernel this CPU has (portable, SSE2,
    /// SSE4.1, AVX2, AVX-512: 1, 4, 4, 8 and 16 lanes).
    #[test]
    fn expand_equals_plain_derive_key() {
        let mut key = [0u8; 32];
        let kernels: Vec<PacketKdf> = [
            Some(Platform::portable()),
            Platform::sse2(),
            Platform::sse41(),
            Platform::avx2(),
            Platform::avx512(),
            Some(Platform::detect()),
        ]
        .into_iter()
        .flatten()
        .map(|platform| PacketKdf { platform })
        .collect();
        for n in 0..600u32 {
            // Keys from the chain itself; group starts over the whole u32 range.
            let c0 = n.wrapping_mul(0x9e37_79b9) & !7;
            let mut h = Hasher::new_derive_key(ctx::GROUP);
            h.update(&key);
            h.update(&c0.to_be_bytes());
            let mut want = [0u8; 64];
            h.finalize_xof().fill(&mut want);
            let mut gk = [0u8; 32];
            gk.copy_from_slice(&want[32..]);
            let want_keys: [Key; GROUP] = core::array::from_fn(|i| {
                let mut m = [0u8; 64];
                m[..32].copy_from_slice(&gk);
                let i = u32::try_from(i).unwrap_or(0);
                m[32..36].copy_from_slice(&c0.wrapping_add(i).to_be_bytes());
                blake3::derive_key(ctx::PACKET_KEY, &m)
            });
            for kdf in &kernels {
                let (mut ck, mut keys) = ([0u8; 32], [[0u8; 32]; GROUP]);
                kdf.expand(&key, c0, &mut ck, &mut keys);
                assert_eq!(ck[..], want[..32], "ck', c0 {c0:#x}");
                assert_eq!(keys, want_keys, "keys, c0 {c0:#x}");
                let mut ck2 = key;
                kdf.skip_group(&mut ck2, c0);
                assert_eq!(ck2, ck);
            }
            assert_eq!(seg_step(&key), blake3::derive_key(ctx::SEG_STEP, &key));
            assert_eq!(inner0(&key), blake3::derive_key(ctx::INNER0, &key));
            key = want_keys[(n & 7) as usize];
            key[0] ^= want[0];
        }
    }
}
