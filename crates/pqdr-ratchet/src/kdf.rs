//! docs/protocol/ratchet.md §1.3–1.4: the context strings and every BLAKE3 `derive_key` call.
//!
//! `DK(ctx, m)` is BLAKE3 `derive_key`. The per-packet and per-segment steps
//! (`DKf`) use the context key precomputed once
//! (`blake3::hazmat::hash_derive_key_context`, hardcoded below and checked by a
//! unit test), as docs/protocol/ratchet.md §1.4 says: their input is one block
//! (≤ 64 bytes), so each step is a single BLAKE3 compression, done by the
//! `blake3` crate's compression function (`blake3::platform`, its SSE4.1 /
//! AVX-512 / portable kernels; no BLAKE3 code of our own) without its
//! incremental `Hasher` / `OutputReader` around it ([`one_block`]).

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
    pub(crate) const PACKET: &str = "pqdr-ratchet v2 2026-11-25T20:00Z packet step";
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
/// `hash_derive_key_context(ctx::PACKET)`.
const CK_PACKET: ContextKey = [
    0xef, 0x44, 0xd1, 0x64, 0x1e, 0x37, 0xc1, 0x48, 0x60, 0x03, 0xbf, 0x81, 0x01, 0x75, 0x51, 0x0c,
    0x93, 0x65, 0x63, 0xa0, 0xe9, 0xfc, 0x2a, 0x3d, 0xcf, 0x71, 0xe7, 0x91, 0x8b, 0x76, 0xbf, 0x45,
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
const CV_PACKET: [u32; 8] = cv_words(&CK_PACKET);

/// The flags of the only block of a `derive_key` input of at most 64 bytes
/// (BLAKE3 spec §2.1 Table 3, §2.6): first and last block of chunk 0, the
/// root, and the key-material mode of `derive_key`'s second stage.
const ONE_BLOCK_KEY_MATERIAL: u8 = {
    const CHUNK_START: u8 = 1 << 0;
    const CHUNK_END: u8 = 1 << 1;
    const ROOT: u8 = 1 << 3;
    const DERIVE_KEY_MATERIAL: u8 = 1 << 6;
    CHUNK_START | CHUNK_END | ROOT | DERIVE_KEY_MATERIAL
};

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

/// The per-packet step `DKf_xof64(CTX_PACKET, ·)` with the compression
/// kernel chosen once (`Platform::detect`, a CPU feature check) when the key
/// schedule is made. Holds no secret; not part of the exported state.
pub(crate) struct PacketKdf {
    platform: Platform,
}

impl PacketKdf {
    pub(crate) fn new() -> Self {
        PacketKdf {
            platform: Platform::detect(),
        }
    }

    /// docs/protocol/ratchet.md §1.4: `ck' ‖ mk = DKf_xof64(CTX_PACKET, ck ‖ be32(c))`;
    /// overwrites `ck` with `ck'` in place and writes `mk`. The same
    /// derivation as [`packet_step`] (unit-tested against it and against
    /// plain `derive_key`): one BLAKE3 compression of the 36-byte block.
    ///
    /// Wiping: the secret input `ck ‖ be32(c)` is in the local `block`, the
    /// output in the local `out`; both are wiped with [`wipe_key`] (plain
    /// stores kept by `black_box`). What the `blake3` crate's kernel leaves
    /// in its own frame (registers spilled, its output before the return
    /// copy) is the same as under its `Hasher`, which this replaces.
    ///
    /// The whole step is free of secret-dependent branches and indices:
    /// fixed lengths, and the `blake3` crate's compression is constant time.
    #[inline]
    pub(crate) fn step(&mut self, ck: &mut Key, counter: u32, mk: &mut Key) {
        let mut out = self.xof64(ck, counter);
        ck.copy_from_slice(&out[..KEY_LEN]);
        mk.copy_from_slice(&out[KEY_LEN..]);
        wipe_key(&mut out);
    }

    /// [`PacketKdf::step`] from `ck` into `ck_out` (`ck` unchanged).
    #[inline]
    pub(crate) fn step_into(&mut self, ck: &Key, counter: u32, ck_out: &mut Key, mk: &mut Key) {
        let mut out = self.xof64(ck, counter);
        ck_out.copy_from_slice(&out[..KEY_LEN]);
        mk.copy_from_slice(&out[KEY_LEN..]);
        wipe_key(&mut out);
    }

    /// `DKf_xof64(CTX_PACKET, ck ‖ be32(counter))`; the caller wipes the result.
    #[inline(always)]
    fn xof64(&self, ck: &Key, counter: u32) -> [u8; 64] {
        let mut block = [0u8; 64];
        block[..KEY_LEN].copy_from_slice(ck);
        block[KEY_LEN..KEY_LEN + 4].copy_from_slice(&counter.to_be_bytes());
        let out = one_block(self.platform, &CV_PACKET, &block, 36);
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
/// [`seg_step`], [`inner0`] and [`packet_step`], the steps of every scratch
/// derivation (not the in-order `PacketKdf` step).
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

/// docs/protocol/ratchet.md §1.4: `ck' ‖ mk = DKf_xof64(CTX_PACKET, ck ‖ be32(c))`; overwrites `ck`
/// with `ck'` in place and writes `mk`: one compression for the 64 output
/// bytes ([`PacketKdf::step`], with the kernel detected here).
#[inline]
pub(crate) fn packet_step(ck: &mut Key, counter: u32, mk: &mut Key) {
    count_step();
    PacketKdf::new().step(ck, counter, mk);
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

    /// The context-key steps against plain `derive_key` / XOF (context string
    /// hashed every call), over many keys and counters.
    #[test]
    fn steps_equal_plain_derive_key() {
        let mut key = [0u8; 32];
        let mut kdf = PacketKdf::new();
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
            let (mut ck2, mut mk2) = (key, [0u8; 32]);
            kdf.step(&mut ck2, counter, &mut mk2);
            assert_eq!((ck2, mk2), (ck, mk), "PacketKdf, counter {counter:#x}");
            assert_eq!(seg_step(&key), blake3::derive_key(ctx::SEG_STEP, &key));
            assert_eq!(inner0(&key), blake3::derive_key(ctx::INNER0, &key));
            key = mk;
            key[0] ^= ck[0];
        }
    }
}
