//! BLAKE3 over inputs of at most one chunk (1,024 bytes) through the `blake3`
//! crate's compression function (`blake3::platform`, its SSE4.1 / AVX2 /
//! AVX-512 / portable kernels; no BLAKE3 code of our own), without its
//! incremental `Hasher`: docs/protocol/handshake.md §4.1 "Computing DK and KH
//! on short inputs". The output is BLAKE3's bit for bit (BLAKE3 spec §2.4–§2.6:
//! one chunk is the root, so its last block, compressed with the ROOT flag, is
//! the output); the unit tests compare every mode and length with the
//! `blake3` crate's own functions. Almost every step of the key schedule has
//! such an input (Mix 97 bytes, Key 65, the output 64, MixHash ≤ 80, the
//! MACs of the one-use AEAD ≤ 190), and the `Hasher` costs more than the
//! compressions there: a 1.9 KB state to set up and to wipe (BENCHMARKS.md,
//! "#33 §4").
//!
//! The one-use AEAD of §4.1 (`Seal1`, [`Seal1Key`]) is here too: its keystream
//! and its tag are such inputs.

use blake3::platform::Platform;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;

/// BLAKE3 block flags (BLAKE3 spec §2.1, Table 3).
const CHUNK_START: u8 = 1 << 0;
const CHUNK_END: u8 = 1 << 1;
const ROOT: u8 = 1 << 3;
const KEYED_HASH: u8 = 1 << 4;
const DERIVE_KEY_MATERIAL: u8 = 1 << 6;
/// The most input one chunk holds.
pub(crate) const CHUNK_LEN: usize = 1024;

/// A 32-byte key (a context key or a `keyed_hash` key) as the compression
/// function's chaining value: eight little-endian words (BLAKE3 spec §2.4).
fn words(k: &[u8; 32]) -> [u32; 8] {
    blake3::platform::words_from_le_bytes_32(k)
}

/// Overwrites `x` with zeros: plain stores kept by `black_box` (the device of
/// pqdr-ratchet's `wipe_key`; `zeroize`'s volatile stores go byte by byte).
#[inline(always)]
fn wipe<T: Copy + Default, const N: usize>(x: &mut [T; N]) {
    *x = [T::default(); N];
    core::hint::black_box(&*x);
}

/// BLAKE3 in one of its keyed modes over at most [`CHUNK_LEN`] bytes
/// (`derive_key`'s second stage or `keyed_hash`). Holds secrets (the key and
/// the input); wiped on drop.
pub(crate) struct Chunk {
    platform: Platform,
    cv: [u32; 8],
    buf: [u8; 64],
    /// Bytes in `buf` (0..=64).
    len: usize,
    /// Input bytes before `buf` (whole blocks already compressed).
    done: usize,
    flags: u8,
}

impl Chunk {
    fn new(key: &[u8; 32], flags: u8) -> Self {
        Chunk {
            platform: Platform::detect(),
            cv: words(key),
            buf: [0; 64],
            len: 0,
            done: 0,
            flags,
        }
    }

    /// `derive_key` with the context key `ctx_key`
    /// (`blake3::hazmat::hash_derive_key_context` of the context string).
    pub(crate) fn derive_key(ctx_key: &[u8; 32]) -> Self {
        Chunk::new(ctx_key, DERIVE_KEY_MATERIAL)
    }

    /// `keyed_hash` with the 32-byte key `key`.
    pub(crate) fn keyed(key: &[u8; 32]) -> Self {
        Chunk::new(key, KEYED_HASH)
    }

    /// The flags of the block in `buf`, given whether it is the last.
    fn block_flags(&self, last: bool) -> u8 {
        let start = if self.done == 0 { CHUNK_START } else { 0 };
        let end = if last { CHUNK_END | ROOT } else { 0 };
        self.flags | start | end
    }

    /// Appends `data`. The whole input must stay within [`CHUNK_LEN`] bytes
    /// (every caller's input has a fixed bound; `fits` checks it).
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        debug_assert!(self.done + self.len + data.len() <= CHUNK_LEN);
        while !data.is_empty() {
            if self.len == 64 {
                // A full block with more input after it: not the last one.
                let flags = self.block_flags(false);
                self.platform
                    .compress_in_place(&mut self.cv, &self.buf, 64, 0, flags);
                self.done += 64;
                self.len = 0;
            }
            let take = (64 - self.len).min(data.len());
            let (now, later) = data.split_at(take);
            self.buf[self.len..self.len + take].copy_from_slice(now);
            self.len += take;
            data = later;
        }
    }

    /// Whether an input of `total` bytes fits in one chunk.
    pub(crate) fn fits(total: usize) -> bool {
        total <= CHUNK_LEN
    }

    /// The root's output block `counter` (64 bytes; block 0 is the first 64
    /// bytes of the output, BLAKE3 spec §2.6). Secret: the caller wipes it.
    fn output_block(&mut self, counter: u64) -> [u8; 64] {
        // The padding after the input must be zeros (BLAKE3 spec §2.2).
        self.buf[self.len..].fill(0);
        let flags = self.block_flags(true);
        #[allow(clippy::cast_possible_truncation, reason = "len ≤ 64")]
        let len = self.len as u8;
        self.platform
            .compress_xof(&self.cv, &self.buf, len, counter, flags)
    }

    /// The first 64 output bytes (`DKx(·, 64)` / `KHx(·, 64)`).
    pub(crate) fn finalize64(mut self) -> [u8; 64] {
        self.output_block(0)
    }

    /// The 32-byte hash (`DK` / `KH`).
    pub(crate) fn finalize32(mut self) -> [u8; 32] {
        let mut full = self.output_block(0);
        let mut out = [0u8; 32];
        out.copy_from_slice(&full[..32]);
        wipe(&mut full);
        out
    }

    /// XORs the output stream into `data` (`data ⊕= XOF[0..len]`): the
    /// one-use AEAD's keystream.
    fn xor_stream(mut self, data: &mut [u8]) {
        for (i, part) in data.chunks_mut(64).enumerate() {
            let mut ks = self.output_block(i as u64);
            for (d, k) in part.iter_mut().zip(ks.iter()) {
                *d ^= k;
            }
            wipe(&mut ks);
        }
    }
}

impl Drop for Chunk {
    fn drop(&mut self) {
        wipe(&mut self.cv);
        wipe(&mut self.buf);
    }
}

/// Constant-time check of a 16-byte MAC field (mac1, mac2, the key
/// confirmations, the `Seal1` tag).
pub(crate) fn mac_ok(expected: &[u8; 16], got: &[u8]) -> bool {
    let mut ok = expected.ct_eq(got).unwrap_u8();
    // The MAC verdict is public: the message is accepted or refused.
    pqdr_ctgrind::hook::declassify(&mut ok);
    got.len() == 16 && ok == 1
}

/// The key pair of one `Seal1` (docs/protocol/handshake.md §4.1): the 64-byte
/// output of the one KDF call that made it (`Key64(l)` or the biscuit key),
/// `k_e = out[0..32]` for the keystream, `k_a = out[32..64]` for the tag.
/// Each pair seals or opens one field (§4.8).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Seal1Key {
    enc: [u8; 32],
    auth: [u8; 32],
}

impl Seal1Key {
    /// Splits a 64-byte KDF output (wiped here).
    pub(crate) fn from_output(mut out: [u8; 64]) -> Self {
        let mut k = Seal1Key {
            enc: [0; 32],
            auth: [0; 32],
        };
        k.enc.copy_from_slice(&out[..32]);
        k.auth.copy_from_slice(&out[32..]);
        wipe(&mut out);
        k
    }

    /// `k_e` (the trace and the vectors record it as the key, §9.1).
    #[cfg(feature = "test-utils")]
    pub(crate) fn enc(&self) -> [u8; 32] {
        self.enc
    }

    /// `tag = KH(k_a, ad ‖ c ‖ be64(len ad) ‖ be64(len c))[0..16]`.
    fn tag(&self, ad: &[u8], c: &[u8]) -> [u8; 16] {
        let mut h = Chunk::keyed(&self.auth);
        h.update(ad);
        h.update(c);
        h.update(&(ad.len() as u64).to_be_bytes());
        h.update(&(c.len() as u64).to_be_bytes());
        let mut full = h.finalize32();
        let mut t = [0u8; 16];
        t.copy_from_slice(&full[..16]);
        wipe(&mut full);
        t
    }

    /// `Seal1(k, p, ad)` in place: `buf[..len-16]` is the plaintext, the tag
    /// goes into the last 16 bytes (`buf` is at least 16 bytes, and `ad`
    /// with the ciphertext at most [`SEAL1_MAX`]: every field has a fixed
    /// length).
    pub(crate) fn seal(&self, buf: &mut [u8], ad: &[u8]) {
        let split = buf.len() - 16;
        let (body, tag) = buf.split_at_mut(split);
        Chunk::keyed(&self.enc).xor_stream(body);
        tag.copy_from_slice(&self.tag(ad, body));
        // Public: every sealed field is sent.
        pqdr_ctgrind::hook::declassify(buf);
    }

    /// `Open1` in place: checks the tag over (ad, ciphertext) in constant
    /// time first (encrypt-then-MAC: nothing is decrypted unless it
    /// verifies), then removes the keystream. On failure `buf` is unchanged.
    ///
    /// # Errors
    /// [`Error::Length`] below 16 bytes, [`Error::Decrypt`] on a bad tag.
    pub(crate) fn open(&self, buf: &mut [u8], ad: &[u8]) -> Result<(), Error> {
        if buf.len() < 16 || ad.len() + buf.len() > SEAL1_MAX {
            return Err(Error::length(16, buf.len()));
        }
        let split = buf.len() - 16;
        let (body, tag) = buf.split_at_mut(split);
        if !mac_ok(&self.tag(ad, body), tag) {
            return Err(Error::Decrypt);
        }
        Chunk::keyed(&self.enc).xor_stream(body);
        Ok(())
    }
}

/// The most `ad` and ciphertext bytes one `Seal1` takes together: the tag's
/// input (with its 16 length bytes) stays within one BLAKE3 chunk.
pub(crate) const SEAL1_MAX: usize = CHUNK_LEN - 16;

#[cfg(test)]
#[allow(clippy::cast_possible_truncation)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    fn bytes(n: usize, seed: u8) -> Vec<u8> {
        (0..n).map(|i| (i as u8).wrapping_mul(31) ^ seed).collect()
    }

    /// Every length 0..=1024 in both modes, fed whole and in uneven parts,
    /// equals the `blake3` crate's own `derive_key` / `keyed_hash` and
    /// their XOF.
    #[test]
    fn chunk_matches_blake3() {
        let key = [0x42u8; 32];
        let ctx = "pqdr chunk test";
        let ctx_key = blake3::hazmat::hash_derive_key_context(ctx);
        for len in 0..=CHUNK_LEN {
            let m = bytes(len, len as u8);
            let mut want_k = [0u8; 64];
            blake3::Hasher::new_keyed(&key)
                .update(&m)
                .finalize_xof()
                .fill(&mut want_k);
            let mut want_d = [0u8; 64];
            blake3::Hasher::new_derive_key(ctx)
                .update(&m)
                .finalize_xof()
                .fill(&mut want_d);
            for split in [0, 1, 63, 64, 65, 500] {
                let s = split.min(len);
                let mut h = Chunk::keyed(&key);
                h.update(&m[..s]);
                h.update(&m[s..]);
                assert_eq!(h.finalize64(), want_k, "keyed len {len} split {s}");
                let mut h = Chunk::derive_key(&ctx_key);
                h.update(&m[..s]);
                h.update(&[]);
                h.update(&m[s..]);
                assert_eq!(h.finalize32()[..], want_d[..32], "dk len {len} split {s}");
            }
        }
    }

    /// The keystream is the keyed XOF of the empty input, for several lengths.
    #[test]
    fn stream_is_keyed_xof_of_empty_input() {
        let key = [7u8; 32];
        for len in [0usize, 1, 12, 32, 63, 64, 65, 116, 200] {
            let mut want = std::vec![0u8; len];
            blake3::Hasher::new_keyed(&key)
                .finalize_xof()
                .fill(&mut want);
            let mut got = std::vec![0u8; len];
            Chunk::keyed(&key).xor_stream(&mut got);
            assert_eq!(got, want, "len {len}");
        }
    }

    /// Seal1 from its definition (§4.1) with the `blake3` crate's functions,
    /// opened back; any flipped ciphertext, tag, ad or key bit is refused
    /// and leaves the buffer unchanged.
    #[test]
    fn seal1_definition_and_tamper() {
        for len in [0usize, 12, 32, 116] {
            let mut out = [0u8; 64];
            out.iter_mut()
                .enumerate()
                .for_each(|(i, b)| *b = (i as u8) ^ 0x5c);
            let k = Seal1Key::from_output(out);
            let ad = bytes(42, 9);
            let p = bytes(len, 3);
            let mut buf = p.clone();
            buf.extend_from_slice(&[0; 16]);
            k.seal(&mut buf, &ad);
            // The definition: c = p ⊕ KHx(k_e, ε), tag = KH(k_a, ad ‖ c ‖ lens)[..16].
            let mut ks = std::vec![0u8; len];
            blake3::Hasher::new_keyed(&out[..32].try_into().unwrap())
                .finalize_xof()
                .fill(&mut ks);
            let c: Vec<u8> = p.iter().zip(&ks).map(|(a, b)| a ^ b).collect();
            let mut t_in = ad.clone();
            t_in.extend_from_slice(&c);
            t_in.extend_from_slice(&(ad.len() as u64).to_be_bytes());
            t_in.extend_from_slice(&(len as u64).to_be_bytes());
            let t = blake3::keyed_hash(&out[32..].try_into().unwrap(), &t_in);
            assert_eq!(buf[..len], c[..], "ciphertext, len {len}");
            assert_eq!(buf[len..], t.as_bytes()[..16], "tag, len {len}");
            let mut opened = buf.clone();
            k.open(&mut opened, &ad).unwrap();
            assert_eq!(opened[..len], p[..]);
            for bit in 0..(len + 16) * 8 {
                let mut bad = buf.clone();
                bad[bit >> 3] ^= 1 << (bit & 7);
                let before = bad.clone();
                assert_eq!(k.open(&mut bad, &ad), Err(Error::Decrypt), "bit {bit}");
                assert_eq!(bad, before, "unchanged on failure");
            }
            let mut bad_ad = ad.clone();
            bad_ad[41] ^= 0x80;
            assert_eq!(k.open(&mut buf.clone(), &bad_ad), Err(Error::Decrypt));
            assert_eq!(k.open(&mut buf.clone(), &ad[..41]), Err(Error::Decrypt));
            // The tag is keyed by k_a alone (out[32..64]): any other k_a is refused.
            for i in [32, 47, 63] {
                let mut other = out;
                other[i] ^= 1;
                let k2 = Seal1Key::from_output(other);
                assert_eq!(
                    k2.open(&mut buf.clone(), &ad),
                    Err(Error::Decrypt),
                    "k_a byte {i}"
                );
            }
            assert!(k.open(&mut [0u8; 15], &ad).is_err());
        }
    }
}
