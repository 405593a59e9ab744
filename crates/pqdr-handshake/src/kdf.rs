//! The key schedule of HANDSHAKE.md §4 (exact form in SPEC.md): contexts,
//! the chaining state (ck, th), hedged coins, the fixed-nonce AEAD and MACs.

use blake3::Hasher;
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use rand_core::{CryptoRng, Infallible, TryCryptoRng, TryRng};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;

macro_rules! ctx {
    ($p:literal) => {
        concat!("pqdr-handshake v1 2026-11-25T22:00Z ", $p)
    };
}
pub(crate) const C_PEER_ID: &str = ctx!("peer id");
pub(crate) const C_CK_INIT: &str = ctx!("chaining key init");
pub(crate) const C_TH: &str = ctx!("transcript");
pub(crate) const C_MIX: &str = ctx!("mix");
pub(crate) const C_KEY: &str = ctx!("handshake key");
pub(crate) const C_COINS: &str = ctx!("hedged coins");
pub(crate) const C_OUT: &str = ctx!("ratchet secret");
pub(crate) const C_MAC1: &str = ctx!("mac1");
pub(crate) const C_MAC2: &str = ctx!("mac2");
pub(crate) const C_COOKIE: &str = ctx!("cookie");
pub(crate) const C_COOKIE_KEY: &str = ctx!("cookie key");
pub(crate) const C_BISCUIT: &str = ctx!("biscuit");
pub(crate) const C_SOURCE: &str = ctx!("source bucket");

/// `PROTO` of HANDSHAKE.md §4.
pub(crate) const PROTO: &[u8] = b"pqdr-handshake v1";
/// ML-DSA context strings of the two signatures (SIG mode).
pub(crate) const SIG_CTX_R: &[u8] = b"pqdr-handshake v1 responder";
pub(crate) const SIG_CTX_I: &[u8] = b"pqdr-handshake v1 initiator";

/// `DK(ctx, parts…)`: BLAKE3 derive_key over the concatenation.
pub(crate) fn dk(ctx: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Hasher::new_derive_key(ctx);
    for p in parts {
        h.update(p);
    }
    let out = *h.finalize().as_bytes();
    h.zeroize();
    out
}

/// `KH(k, m)[..16]`: the 16-byte MACs (mac1, mac2).
pub(crate) fn mac16(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    let full = blake3::keyed_hash(key, msg);
    let mut out = [0u8; 16];
    out.copy_from_slice(&full.as_bytes()[..16]);
    out
}

/// Constant-time check of a 16-byte MAC field.
pub(crate) fn mac_ok(expected: &[u8; 16], got: &[u8]) -> bool {
    let mut ok = expected.ct_eq(got).unwrap_u8();
    // The MAC verdict is public: the message is accepted or refused.
    pqdr_ct::hook::declassify(&mut ok);
    got.len() == 16 && ok == 1
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
    pub(crate) trace: alloc::vec::Vec<crate::testing::TraceOp>,
}

impl Chain {
    /// `ck_0`, `th_0` (SPEC.md "Chaining state").
    pub(crate) fn init(suite: u16, hpk_r: &[u8; 32], app_label: &[u8]) -> Self {
        let p = lp16(PROTO);
        let s = suite.to_be_bytes();
        let ck = dk(C_CK_INIT, &[&p, PROTO, &s, hpk_r]);
        let th = dk(C_TH, &[&p, PROTO, &s, hpk_r, &lp16(app_label), app_label]);
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
        let mut h = Hasher::new_derive_key(C_TH);
        h.update(&self.th);
        for p in parts {
            h.update(p);
        }
        self.th = *h.finalize().as_bytes();
        #[cfg(feature = "test-utils")]
        self.record("mixhash", None, self.th);
    }

    /// `Mix(l, s)`: ck ← DK(C_MIX, ck ‖ l ‖ th ‖ s).
    pub(crate) fn mix(&mut self, label: u8, secret: &[u8]) {
        self.ck = dk(C_MIX, &[&self.ck, &[label], &self.th, secret]);
        #[cfg(feature = "test-utils")]
        self.record("mix", Some(label), self.ck);
    }

    /// `Key(l)` = DK(C_KEY, ck ‖ l ‖ th).
    pub(crate) fn key(&mut self, label: u8) -> Key {
        let k = Key(dk(C_KEY, &[&self.ck, &[label], &self.th]));
        #[cfg(feature = "test-utils")]
        self.record("key", Some(label), k.0);
        k
    }

    /// `secret = DK(C_OUT, ck ‖ th)`.
    pub(crate) fn output(&self) -> [u8; 32] {
        dk(C_OUT, &[&self.ck, &self.th])
    }

    #[cfg(feature = "test-utils")]
    fn record(&mut self, op: &'static str, label: Option<u8>, out: [u8; 32]) {
        self.trace.push(crate::testing::TraceOp { op, label, out });
    }
}

/// A one-use AEAD key (`Key(l)`, biscuit key, cookie key).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Key(pub(crate) [u8; 32]);

impl Key {
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
        pqdr_ct::hook::declassify(buf);
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
            return Err(Error::Length);
        }
        let split = buf.len() - 16;
        let (ct, tag) = buf.split_at_mut(split);
        let tag = Tag::try_from(&*tag).map_err(|_| Error::Length)?;
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
            return Err(Error::Length);
        }
        let split = buf.len() - 16;
        let (body, tag) = buf.split_at_mut(split);
        let aead = ChaCha20Poly1305::new(&self.0.into());
        let n = Nonce::default();
        let enc = |b: &mut [u8]| {
            aead.encrypt_inout_detached(&n, ad, b.into())
                .map_err(|_| Error::Length)
        };
        enc(body)?;
        let expected: Tag = enc(body)?;
        let mut ok = expected.as_slice().ct_eq(tag).unwrap_u8();
        // The tag verdict is public: the field is accepted or refused.
        pqdr_ct::hook::declassify(&mut ok);
        if ok != 1 {
            return Err(Error::Decrypt);
        }
        enc(body)?;
        Ok(())
    }
}

/// Hedged coins (SPEC.md): an RNG over `DKx(C_COINS, σ ‖ r ‖ label)`, with
/// `r` 32 fresh bytes from the caller's RNG. Also the RNG the static KEMs
/// draw their encapsulation randomness from. A bad RNG alone exposes nothing
/// while σ stays secret; a leaked σ alone exposes nothing while the RNG works.
pub struct Coins(blake3::OutputReader);

impl Coins {
    pub(crate) fn new<R: CryptoRng + ?Sized>(sigma: &[u8; 32], label: u8, rng: &mut R) -> Self {
        let mut r = [0u8; 32];
        rng.fill_bytes(&mut r);
        let mut h = Hasher::new_derive_key(C_COINS);
        h.update(sigma);
        h.update(&r);
        h.update(&[label]);
        r.zeroize();
        let reader = h.finalize_xof();
        h.zeroize();
        Coins(reader)
    }

    /// Fills `out` from the stream.
    pub(crate) fn fill(&mut self, out: &mut [u8]) {
        self.0.fill(out);
    }

    /// The first 32 bytes (ML-KEM `m`, X25519 scalars, ML-DSA `rnd`).
    pub(crate) fn take32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        self.0.fill(&mut out);
        out
    }
}

impl core::fmt::Debug for Coins {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Coins(..)")
    }
}

impl Drop for Coins {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl TryRng for Coins {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.0.fill(&mut b);
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.0.fill(&mut b);
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.fill(dst);
        Ok(())
    }
}

impl TryCryptoRng for Coins {}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation)]
mod tests {
    extern crate std;

    use super::*;

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
