//! The key schedule of docs/protocol/handshake.md §4: contexts,
//! the chaining state (ck, th), hedged coins, the fixed-nonce AEAD and MACs
//! (the one-use AEAD `Seal1` and the one-chunk BLAKE3 calls are in `chunk.rs`).

use blake3::Hasher;
use blake3::hazmat::{ContextKey, HasherExt};
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use pqdr_common::xof::XofRng;
use rand_core::{CryptoRng, Rng};
#[cfg(any(test, pqct_valgrind))]
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;
pub(crate) use crate::chunk::mac_ok;
use crate::chunk::{Chunk, Seal1Key};

macro_rules! ctx {
    ($p:literal) => {
        concat!("pqdr-handshake v1 2026-11-25T22:00Z ", $p)
    };
}
/// A context string and its BLAKE3 context key
/// (`blake3::hazmat::hash_derive_key_context`, hardcoded and checked by the
/// unit test `context_keys_match_strings`), so a derivation does not hash the
/// context string again each call.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) s: &'static str,
    key: ContextKey,
}

impl Ctx {
    /// A `derive_key` hasher for this context.
    pub(crate) fn hasher(self) -> Hasher {
        Hasher::new_from_context_key(&self.key)
    }
}

pub(crate) const C_PEER_ID: Ctx = Ctx {
    s: ctx!("peer id"),
    key: [
        0x18, 0x7e, 0xa1, 0xe3, 0x20, 0x52, 0x6c, 0x6d, 0x62, 0x67, 0x0a, 0x8b, 0x8b, 0x6a, 0xf3,
        0xcf, 0xb4, 0x0b, 0xfd, 0x63, 0x2b, 0x71, 0xbe, 0xcf, 0xdc, 0x2f, 0xfd, 0x54, 0xd6, 0xd3,
        0xca, 0x41,
    ],
};
pub(crate) const C_CK_INIT: Ctx = Ctx {
    s: ctx!("chaining key init"),
    key: [
        0xc4, 0x24, 0x7f, 0xce, 0x4f, 0x4f, 0x84, 0xd6, 0x5c, 0xa4, 0xf5, 0x5e, 0x08, 0x9e, 0x2c,
        0xf6, 0x33, 0x0e, 0x33, 0xed, 0x52, 0x70, 0x6e, 0xfd, 0x42, 0x1a, 0xcc, 0xaf, 0x47, 0xf0,
        0x31, 0x1f,
    ],
};
pub(crate) const C_TH: Ctx = Ctx {
    s: ctx!("transcript"),
    key: [
        0x47, 0xfc, 0x53, 0x5e, 0x19, 0xd8, 0x65, 0x4e, 0x04, 0xe5, 0x76, 0xd0, 0x94, 0x17, 0x1f,
        0xa9, 0xd7, 0x56, 0x9a, 0xe8, 0x68, 0x9f, 0xec, 0x3f, 0x94, 0x56, 0xb2, 0xde, 0xbc, 0xa6,
        0xbe, 0xe7,
    ],
};
pub(crate) const C_MIX: Ctx = Ctx {
    s: ctx!("mix"),
    key: [
        0x64, 0x0c, 0x3d, 0x2f, 0xfe, 0x49, 0xf4, 0xd4, 0x34, 0x6c, 0xfa, 0xff, 0xf8, 0xd1, 0xb8,
        0x2d, 0x46, 0x9b, 0x6e, 0xae, 0x17, 0xdf, 0x15, 0xbb, 0xd6, 0xab, 0xb9, 0xec, 0xd8, 0x30,
        0x88, 0x2d,
    ],
};
pub(crate) const C_KEY: Ctx = Ctx {
    s: ctx!("handshake key"),
    key: [
        0x4e, 0xf6, 0x2e, 0x75, 0x9d, 0xd4, 0xe1, 0x73, 0x79, 0xd3, 0x6a, 0xea, 0x04, 0xb3, 0x72,
        0xca, 0x3f, 0x12, 0x4a, 0x90, 0xca, 0x87, 0xaf, 0x9e, 0x49, 0xee, 0x61, 0xa7, 0xb5, 0x14,
        0x17, 0xa8,
    ],
};
pub(crate) const C_COINS: Ctx = Ctx {
    s: ctx!("hedged coins"),
    key: [
        0x6f, 0xe6, 0xfa, 0xd7, 0xf7, 0xcc, 0x77, 0x7c, 0x5e, 0x49, 0x1c, 0x2d, 0x05, 0xb1, 0x06,
        0x66, 0xcb, 0xdb, 0x11, 0x0e, 0x4e, 0x22, 0xe3, 0xf3, 0xb4, 0x57, 0xce, 0x8f, 0x09, 0xe2,
        0x52, 0x52,
    ],
};
pub(crate) const C_OUT: Ctx = Ctx {
    s: ctx!("ratchet secret"),
    key: [
        0x9d, 0x1d, 0xed, 0x1f, 0x2d, 0xfd, 0x3a, 0x77, 0x09, 0x31, 0x30, 0x08, 0xd2, 0x60, 0xdd,
        0x45, 0x9b, 0x95, 0x3e, 0xa5, 0x74, 0xc3, 0xe8, 0x3e, 0x55, 0x1a, 0x5e, 0x46, 0x11, 0x4b,
        0xfd, 0x53,
    ],
};
pub(crate) const C_MAC1: Ctx = Ctx {
    s: ctx!("mac1"),
    key: [
        0x97, 0xf4, 0x99, 0xac, 0x85, 0x12, 0x7c, 0xd2, 0xb7, 0xe8, 0x30, 0x0b, 0x46, 0x1e, 0xb4,
        0xe8, 0x73, 0xbb, 0xa6, 0xfd, 0x11, 0x5e, 0x87, 0x9f, 0x2d, 0x7b, 0x3b, 0x70, 0x7a, 0xfe,
        0x9d, 0x76,
    ],
};
pub(crate) const C_MAC2: Ctx = Ctx {
    s: ctx!("mac2"),
    key: [
        0x89, 0x9c, 0xae, 0x1a, 0x6b, 0xb0, 0xd5, 0x3c, 0x75, 0x14, 0xb0, 0xc2, 0x17, 0x34, 0x2d,
        0x00, 0x6e, 0x73, 0x2d, 0xdf, 0xcd, 0xfc, 0x5d, 0x23, 0xa5, 0x4a, 0x74, 0xc4, 0xdf, 0xbb,
        0x24, 0xaf,
    ],
};
pub(crate) const C_COOKIE: Ctx = Ctx {
    s: ctx!("cookie"),
    key: [
        0xa6, 0xf7, 0x20, 0x5e, 0xfa, 0x45, 0x98, 0x6f, 0x2f, 0x0f, 0x2b, 0x56, 0xe5, 0x61, 0x81,
        0x7e, 0xc3, 0x62, 0x17, 0x8b, 0x9b, 0x23, 0x27, 0x57, 0x63, 0xb2, 0x5f, 0xc1, 0x39, 0xbb,
        0xf2, 0x2b,
    ],
};
pub(crate) const C_COOKIE_KEY: Ctx = Ctx {
    s: ctx!("cookie key"),
    key: [
        0xe9, 0x08, 0x58, 0x9f, 0xb1, 0xbf, 0x3b, 0xa6, 0x1d, 0x0f, 0x14, 0x78, 0xa6, 0x78, 0xc8,
        0xc4, 0xe0, 0xd4, 0xc0, 0xa2, 0x5f, 0xf1, 0x04, 0xc1, 0xd2, 0x17, 0x06, 0xea, 0x8b, 0xaf,
        0x4f, 0xba,
    ],
};
pub(crate) const C_BISCUIT: Ctx = Ctx {
    s: ctx!("biscuit"),
    key: [
        0x7a, 0x7d, 0x19, 0x03, 0x50, 0x60, 0x3b, 0xbb, 0x14, 0x9c, 0x1e, 0xe7, 0xbf, 0xda, 0x09,
        0xc3, 0xa3, 0x0e, 0x8b, 0x67, 0x38, 0x3f, 0x2e, 0x58, 0xae, 0xbd, 0x7d, 0x0f, 0x29, 0x8f,
        0xa3, 0xb3,
    ],
};
pub(crate) const C_SOURCE: Ctx = Ctx {
    s: ctx!("source bucket"),
    key: [
        0xe0, 0xe1, 0x92, 0x5d, 0xe7, 0x7a, 0xd1, 0x77, 0xc5, 0xa8, 0x2a, 0x36, 0xd6, 0xa9, 0xe9,
        0xeb, 0x3f, 0x4e, 0x6b, 0x5f, 0xcb, 0xed, 0xa5, 0xec, 0x77, 0x46, 0xcc, 0x15, 0x27, 0x84,
        0x55, 0xa0,
    ],
};
/// The fragment MAC key (docs/protocol/fragmentation.md §2).
pub(crate) const C_FRAG: Ctx = Ctx {
    s: ctx!("fragment mac"),
    key: [
        0x83, 0x98, 0x4d, 0xa2, 0xcc, 0xaf, 0x8c, 0x23, 0xa6, 0x4c, 0x50, 0xec, 0xcc, 0x54, 0x4f,
        0x85, 0x17, 0xa5, 0xdc, 0x78, 0xee, 0xea, 0x4c, 0xf9, 0xe0, 0x29, 0x01, 0xab, 0x42, 0xba,
        0xcf, 0x8c,
    ],
};

/// `PROTO` of docs/protocol/handshake.md §4 (v2: one hash per message, §3.5).
pub(crate) const PROTO: &[u8] = b"pqdr-handshake v2";
/// ML-DSA context strings of the two signatures (SIG mode).
pub(crate) const SIG_CTX_R: &[u8] = b"pqdr-handshake v2 responder";
pub(crate) const SIG_CTX_I: &[u8] = b"pqdr-handshake v2 initiator";

/// `DK(ctx, parts…)`: BLAKE3 derive_key over the concatenation.
///
/// Inputs of at most one BLAKE3 chunk (every key-schedule step; not the key
/// ids of long public keys) go through the compression function directly
/// ([`Chunk`], §4.1): same output, no `Hasher` to set up and wipe.
pub(crate) fn derive_key(ctx: Ctx, parts: &[&[u8]]) -> [u8; 32] {
    if Chunk::fits(parts.iter().map(|p| p.len()).sum()) {
        let mut h = Chunk::derive_key(&ctx.key);
        for p in parts {
            h.update(p);
        }
        return h.finalize32();
    }
    let mut h = ctx.hasher();
    for p in parts {
        h.update(p);
    }
    let out = *h.finalize().as_bytes();
    h.zeroize();
    out
}

/// `DKx(ctx, parts…, 64)` for inputs of at most one chunk (the one-use
/// AEAD's key pairs, §4.1): the first 64 bytes of the root output.
pub(crate) fn derive_key64(ctx: Ctx, parts: &[&[u8]]) -> [u8; 64] {
    let mut h = Chunk::derive_key(&ctx.key);
    for p in parts {
        h.update(p);
    }
    h.finalize64()
}

/// `H(head)`: the message digest of docs/protocol/handshake.md §3.5 (BLAKE3
/// `hash`), taken once per msg1 / msg2 and used by both mac1 and MixHash.
pub(crate) fn digest(head: &[u8]) -> [u8; 32] {
    *blake3::hash(head).as_bytes()
}

/// mac1 of msg1 / msg2 (§3.5): `KH(k, H(head) ‖ rest)[..16]`.
pub(crate) fn mac16_digest(key: &[u8; 32], head: &[u8; 32], rest: &[u8]) -> [u8; 16] {
    // KEM mode: rest is at most 164 bytes, one chunk with H(head). SIG msg2
    // (rest = enc_R ‖ biscuit, up to 4.8 KB) streams.
    let full = if Chunk::fits(32 + rest.len()) {
        let mut h = Chunk::keyed(key);
        h.update(head);
        h.update(rest);
        h.finalize32()
    } else {
        let mut h = Hasher::new_keyed(key);
        update_after(&mut h, head, rest);
        let out = *h.finalize().as_bytes();
        h.zeroize();
        out
    };
    let mut out = [0u8; 16];
    out.copy_from_slice(&full[..16]);
    out
}

/// `h.update(prefix ‖ m)` for a 32-byte public `prefix`: when `m` is long,
/// the prefix and m's start go in as one two-chunk slice, which BLAKE3
/// hashes as one subtree (its SIMD path); the rest then starts on a chunk
/// boundary. The prefix alone first would send the first chunks block by block.
fn update_after(h: &mut Hasher, prefix: &[u8; 32], m: &[u8]) {
    if 32 + m.len() >= 2 * blake3::CHUNK_LEN {
        let mut buf = [0u8; 2 * blake3::CHUNK_LEN];
        let (head, rest) = m.split_at(buf.len() - 32);
        buf[..32].copy_from_slice(prefix);
        buf[32..].copy_from_slice(head);
        h.update(&buf);
        h.update(rest);
    } else {
        h.update(prefix);
        h.update(m);
    }
}

/// `KH(k, m)[..16]`: the 16-byte MACs (msg3's mac1, mac2).
pub(crate) fn mac16(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    let full = if Chunk::fits(msg.len()) {
        let mut h = Chunk::keyed(key);
        h.update(msg);
        h.finalize32()
    } else {
        *blake3::keyed_hash(key, msg).as_bytes()
    };
    let mut out = [0u8; 16];
    out.copy_from_slice(&full[..16]);
    out
}

/// be16 length prefix; callers keep `x` under 64 KiB.
pub(crate) fn lp16(x: &[u8]) -> [u8; 2] {
    u16::try_from(x.len()).unwrap_or(u16::MAX).to_be_bytes()
}

/// The chaining state: chaining key and transcript hash.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Chain {
    pub(crate) ck: [u8; 32],
    pub(crate) th: [u8; 32],
    #[cfg(feature = "test-utils")]
    #[zeroize(skip)]
    pub(crate) trace: alloc::vec::Vec<TraceOp>,
}

/// One key-schedule operation and its output (feature `test-utils`, for the
/// vectors; re-exported as `testing::TraceOp`).
#[cfg(feature = "test-utils")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceOp {
    /// `ck0`, `th0`, `mixhash`, `mix` or `key`.
    pub op: &'static str,
    /// The 1-byte label of `mix` / `key`.
    pub label: Option<u8>,
    /// The new ck (mix), th (mixhash) or key.
    pub out: [u8; 32],
}

impl Chain {
    /// `ck_0`, `th_0` (docs/protocol/handshake.md §4.3).
    pub(crate) fn init(suite: u16, hpk_r: &[u8; 32], app_label: &[u8]) -> Self {
        let p = lp16(PROTO);
        let s = suite.to_be_bytes();
        let ck = derive_key(C_CK_INIT, &[&p, PROTO, &s, hpk_r]);
        let th = derive_key(C_TH, &[&p, PROTO, &s, hpk_r, &lp16(app_label), app_label]);
        let c = Chain {
            ck,
            th,
            #[cfg(feature = "test-utils")]
            trace: alloc::vec::Vec::new(),
        };
        #[cfg(feature = "test-utils")]
        let c = {
            let mut c = c;
            c.record("ck0", None, c.ck);
            c.record("th0", None, c.th);
            c
        };
        c
    }

    /// `ck_0`, `th_0` computed earlier by [`Chain::init`] for the same suite,
    /// key and label (public values; the responder keeps them per suite).
    pub(crate) fn from_init(ck: [u8; 32], th: [u8; 32]) -> Self {
        let c = Chain::resume(ck, th);
        #[cfg(feature = "test-utils")]
        let c = {
            let mut c = c;
            c.record("ck0", None, c.ck);
            c.record("th0", None, c.th);
            c
        };
        c
    }

    /// Resumes from a biscuit's (ck, th).
    pub(crate) fn resume(ck: [u8; 32], th: [u8; 32]) -> Self {
        Chain {
            ck,
            th,
            #[cfg(feature = "test-utils")]
            trace: alloc::vec::Vec::new(),
        }
    }

    /// `MixHash(x…)`: th ← DK(C_TH, th ‖ x).
    pub(crate) fn mix_hash(&mut self, parts: &[&[u8]]) {
        if Chunk::fits(32 + parts.iter().map(|p| p.len()).sum::<usize>()) {
            // Every KEM-mode MixHash (th ‖ a digest, a sealed field or a header).
            let mut h = Chunk::derive_key(&C_TH.key);
            h.update(&self.th);
            for p in parts {
                h.update(p);
            }
            self.th = h.finalize32();
            #[cfg(feature = "test-utils")]
            self.record("mixhash", None, self.th);
            return;
        }
        let mut h = C_TH.hasher();
        match parts {
            // One long field (SIG mode's enc_R / enc_I): th is public.
            [m] => update_after(&mut h, &self.th, m),
            _ => {
                h.update(&self.th);
                for p in parts {
                    h.update(p);
                }
            }
        }
        self.th = *h.finalize().as_bytes();
        #[cfg(feature = "test-utils")]
        self.record("mixhash", None, self.th);
    }

    /// `Mix(l, s)`: ck ← DK(C_MIX, ck ‖ l ‖ th ‖ s).
    pub(crate) fn mix(&mut self, label: u8, secret: &[u8]) {
        self.ck = derive_key(C_MIX, &[&self.ck, &[label], &self.th, secret]);
        #[cfg(feature = "test-utils")]
        self.record("mix", Some(label), self.ck);
    }

    /// `Mix(l, X25519(k, u))` (the `-X` suites): the DH output is wiped as soon
    /// as it is mixed in.
    ///
    /// # Errors
    /// [`Error::Length`] or [`Error::LowOrderPoint`] from `x25519::dh`.
    pub(crate) fn mix_dh(&mut self, label: u8, k: &[u8; 32], u: &[u8]) -> Result<(), Error> {
        let mut shared = crate::x25519::dh(k, u)?;
        self.mix(label, &shared);
        shared.zeroize();
        Ok(())
    }

    /// `Key(l)` = DK(C_KEY, ck ‖ l ‖ th).
    pub(crate) fn key(&mut self, label: u8) -> Key {
        let k = Key(derive_key(C_KEY, &[&self.ck, &[label], &self.th]));
        #[cfg(feature = "test-utils")]
        self.record("key", Some(label), k.0);
        k
    }

    /// `Key64(l)` = DKx(C_KEY, ck ‖ l ‖ th, 64): the key pair of the
    /// one-use AEAD for enc_id / enc_ts (§4.1 `Seal1`, §4.4 steps 2–3). Its
    /// first 32 bytes are `Key(l)`, which the trace records.
    pub(crate) fn key64(&mut self, label: u8) -> Seal1Key {
        let k = Seal1Key::from_output(derive_key64(C_KEY, &[&self.ck, &[label], &self.th]));
        #[cfg(feature = "test-utils")]
        self.record("key", Some(label), k.enc());
        k
    }

    /// `secret = DK(C_OUT, ck ‖ th)`.
    pub(crate) fn output(&self) -> [u8; 32] {
        derive_key(C_OUT, &[&self.ck, &self.th])
    }

    #[cfg(feature = "test-utils")]
    fn record(&mut self, op: &'static str, label: Option<u8>, out: [u8; 32]) {
        self.trace.push(TraceOp { op, label, out });
    }
}

/// A one-use key (`Key(l)`, cookie-reply key): it seals one ChaCha20-Poly1305
/// field (SIG mode's enc_R / enc_I, the cookie reply) or makes one key
/// confirmation. enc_id, enc_ts and the biscuit use `Seal1` instead
/// (`chunk::Seal1Key`, docs/protocol/handshake.md §4.1).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Key(pub(crate) [u8; 32]);

impl Key {
    /// The key confirmations conf_R / conf_I of docs/protocol/handshake.md
    /// §4.4 steps 5–6: `KH(k, th)[0..16]`, BLAKE3 keyed_hash as a PRF MAC
    /// over the transcript under the one-use key k3 / k4. The sender
    /// declassifies it once written into its message; the receiver compares
    /// it with [`mac_ok`] (constant time, only the verdict is public).
    pub(crate) fn confirm(&self, th: &[u8; 32]) -> [u8; 16] {
        mac16(&self.0, th)
    }

    /// `Seal(k, p, ad)` in place: `buf[..len-16]` is the plaintext, the tag
    /// goes into the last 16 bytes. Nonce 0^12 (each key seals once, §4).
    pub(crate) fn seal(&self, buf: &mut [u8], ad: &[u8]) {
        let split = buf.len() - 16;
        let (pt, tag) = buf.split_at_mut(split);
        let aead = ChaCha20Poly1305::new(&self.0.into());
        // The ChaCha20-Poly1305 limit (2^38 bytes) is far above any message here.
        if let Ok(t) = aead.encrypt_inout_detached(&Nonce::default(), ad, pt.into()) {
            tag.copy_from_slice(&t);
        }
        // Public: every sealed field is sent.
        pqdr_ctgrind::hook::declassify(buf);
    }

    /// Opens `buf` (ciphertext ‖ tag) in place; on failure `buf` is restored.
    pub(crate) fn open(&self, buf: &mut [u8], ad: &[u8]) -> Result<(), Error> {
        #[cfg(not(pqct_valgrind))]
        {
            self.open_aead(buf, ad)
        }
        #[cfg(pqct_valgrind)]
        {
            self.open_by_encrypt(buf, ad)
        }
    }

    /// The production path: `decrypt_inout_detached`. Its only secret-dependent
    /// branch is on the tag verdict (chacha20poly1305 `cipher.rs`), which is public.
    #[cfg_attr(pqct_valgrind, allow(dead_code))]
    fn open_aead(&self, buf: &mut [u8], ad: &[u8]) -> Result<(), Error> {
        if buf.len() < 16 {
            return Err(Error::length(16, buf.len()));
        }
        let split = buf.len() - 16;
        let (ct, tag) = buf.split_at_mut(split);
        let tag = Tag::try_from(&*tag).map_err(|_| Error::length(16, tag.len()))?;
        let aead = ChaCha20Poly1305::new(&self.0.into());
        aead.decrypt_inout_detached(&Nonce::default(), ad, ct.into(), &tag)
            .map_err(|_| Error::Decrypt)
    }

    /// The same function with a tag check of our own, so the constant-time
    /// test (`--cfg pqct_valgrind`) can declassify exactly the verdict and
    /// nothing else: encryption XORs the keystream in, so encrypting the
    /// ciphertext gives the plaintext, encrypting that gives back the
    /// ciphertext and its sender's tag, and a third pass decrypts again.
    /// Three passes: only the valgrind build uses it (`open_paths_agree`
    /// checks both paths give the same results).
    #[cfg(any(test, pqct_valgrind))]
    fn open_by_encrypt(&self, buf: &mut [u8], ad: &[u8]) -> Result<(), Error> {
        if buf.len() < 16 {
            return Err(Error::length(16, buf.len()));
        }
        let split = buf.len() - 16;
        let (body, tag) = buf.split_at_mut(split);
        let aead = ChaCha20Poly1305::new(&self.0.into());
        let n = Nonce::default();
        let enc = |b: &mut [u8]| {
            // Unreachable: the AEAD refuses only inputs over 256 GiB.
            aead.encrypt_inout_detached(&n, ad, b.into())
                .map_err(|_| Error::Decrypt)
        };
        enc(body)?;
        let expected: Tag = enc(body)?;
        let mut ok = expected.as_slice().ct_eq(tag).unwrap_u8();
        // The tag verdict is public: the field is accepted or refused.
        pqdr_ctgrind::hook::declassify(&mut ok);
        if ok != 1 {
            return Err(Error::Decrypt);
        }
        enc(body)?;
        Ok(())
    }
}

/// Hedged coins (docs/protocol/handshake.md §4.7): an RNG over
/// `DKx(C_COINS, σ ‖ r ‖ label)`, with `r` 32 fresh bytes from the caller's
/// RNG. Also the RNG the static KEMs draw their encapsulation randomness from.
/// A bad RNG alone exposes nothing while σ stays secret; a leaked σ alone
/// exposes nothing while the RNG works. The BLAKE3 XOF stream as a
/// `rand_core` RNG (`pqdr_common::xof::XofRng`), wiped on drop.
pub type Coins = XofRng<blake3::OutputReader>;

/// The coins of `label` (§4.7): `r` from `rng`, then the XOF of
/// `DKx(C_COINS, σ ‖ r ‖ label)`.
pub(crate) fn coins<R: CryptoRng + ?Sized>(sigma: &[u8; 32], label: u8, rng: &mut R) -> Coins {
    let mut r = [0u8; 32];
    rng.fill_bytes(&mut r);
    let mut h = C_COINS.hasher();
    h.update(sigma);
    h.update(&r);
    h.update(&[label]);
    r.zeroize();
    let reader = h.finalize_xof();
    h.zeroize();
    XofRng::new(reader)
}

/// The first 32 bytes of the coins of `label` (ML-KEM `m`, X25519 scalars,
/// ML-DSA `rnd`).
pub(crate) fn coins32<R: CryptoRng + ?Sized>(sigma: &[u8; 32], label: u8, rng: &mut R) -> [u8; 32] {
    let mut out = [0u8; 32];
    coins(sigma, label, rng).fill_bytes(&mut out);
    out
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn context_keys_match_strings() {
        use blake3::hazmat::hash_derive_key_context;
        for c in [
            C_PEER_ID,
            C_CK_INIT,
            C_TH,
            C_MIX,
            C_KEY,
            C_COINS,
            C_OUT,
            C_MAC1,
            C_MAC2,
            C_COOKIE,
            C_COOKIE_KEY,
            C_BISCUIT,
            C_SOURCE,
            C_FRAG,
        ] {
            assert_eq!(hash_derive_key_context(c.s), c.key, "{}", c.s);
            assert_eq!(derive_key(c, &[b"x"]), blake3::derive_key(c.s, b"x"));
        }
    }

    /// MixHash over one whole message (th and its start fed as one slice)
    /// equals DK(C_TH, th ‖ m) of the spec (§4.3), the BLAKE3 reference
    /// `derive_key` over the concatenation, at and around the two-chunk split.
    #[test]
    fn mix_hash_is_dk_of_th_and_message() {
        let th = [0x5a; 32];
        for len in [
            0usize, 1, 1000, 2015, 2016, 2017, 2079, 2080, 2420, 3072, 4688, 6000,
        ] {
            let m: std::vec::Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let mut c = Chain::resume([1; 32], th);
            c.mix_hash(&[&m]);
            let mut all = th.to_vec();
            all.extend_from_slice(&m);
            assert_eq!(c.th, blake3::derive_key(C_TH.s, &all), "len {len}");
        }
    }

    /// The valgrind build's `open` equals the production `open` on valid,
    /// tampered, wrong-key and wrong-ad inputs of several lengths.
    #[test]
    fn open_paths_agree() {
        for len in [16usize, 17, 28, 48, 132, 2436, 4643] {
            let k = Key([len as u8; 32]);
            let mut sealed = alloc_buf(len);
            k.seal(&mut sealed, b"ad");
            let cases: [(&Key, &[u8], Option<usize>); 4] = [
                (&k, b"ad", None),
                (&k, b"ad", Some(len >> 1)),
                (&k, b"ax", None),
                (&Key([7; 32]), b"ad", None),
            ];
            for (key, ad, flip) in cases {
                let mut a = sealed.clone();
                if let Some(i) = flip {
                    a[i] ^= 1;
                }
                let mut b = a.clone();
                let ra = key.open_aead(&mut a, ad);
                let rb = key.open_by_encrypt(&mut b, ad);
                assert_eq!(ra, rb, "len {len} flip {flip:?}");
                if ra.is_ok() {
                    assert_eq!(a, b);
                    assert!(
                        a[..len - 16]
                            .iter()
                            .enumerate()
                            .all(|(i, &x)| x == (i as u8))
                    );
                }
            }
        }
    }

    fn alloc_buf(len: usize) -> std::vec::Vec<u8> {
        (0..len)
            .map(|i| if i < len - 16 { i as u8 } else { 0 })
            .collect()
    }
}
