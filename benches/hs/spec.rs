//! The handshake bench's replay of docs/protocol/handshake.md §4: the
//! derivations, the hedged-coin streams and the AEAD opening it needs to
//! rebuild each suite's primitive inputs from the public messages.

use super::*;

// ------------------------------------------- docs/protocol/handshake.md §4

/// `DK(PREFIX ‖ purpose, parts…)`.
pub(crate) fn dk(purpose: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(&format!("{PREFIX}{purpose}"));
    for p in parts {
        h.update(p);
    }
    *h.finalize().as_bytes()
}

/// The stream `coins(σ, label, ·)` for the 32 bytes `r` the RNG gave.
pub(crate) fn coin_stream(sigma: &[u8; 32], r: &[u8; 32], label: u8) -> blake3::OutputReader {
    let mut h = blake3::Hasher::new_derive_key(&format!("{PREFIX}hedged coins"));
    h.update(sigma);
    h.update(r);
    h.update(&[label]);
    h.finalize_xof()
}

/// `coins(σ, label, N)`: the first N bytes of the stream.
pub(crate) fn coins<const N: usize>(sigma: &[u8; 32], r: &[u8; 32], label: u8) -> [u8; N] {
    let mut out = [0u8; N];
    coin_stream(sigma, r, label).fill(&mut out);
    out
}

pub(crate) fn draw32(rng: &mut StdRng) -> [u8; 32] {
    let mut r = [0u8; 32];
    rng.fill_bytes(&mut r);
    r
}

/// ChaCha20-Poly1305 open with the zero nonce (docs/protocol/handshake.md §4.1 `Seal`).
pub(crate) fn open(key: &[u8; 32], ad: &[u8], sealed: &[u8]) -> Vec<u8> {
    let (ct, tag) = sealed.split_at(sealed.len() - 16);
    let mut buf = ct.to_vec();
    ChaCha20Poly1305::new(&(*key).into())
        .decrypt_inout_detached(
            &Nonce::default(),
            ad,
            buf.as_mut_slice().into(),
            &Tag::try_from(tag).unwrap(),
        )
        .unwrap();
    buf
}

/// An RNG over a BLAKE3 XOF reader, as the handshake's hedged coins.
pub(crate) struct Xof(pub(crate) blake3::OutputReader);

impl Xof {
    pub(crate) fn new(seed: u8) -> Self {
        Xof(blake3::Hasher::new().update(&[seed]).finalize_xof())
    }
}

/// A fresh reader at the start of a coin stream (the handshake's `Coins`).
pub(crate) fn xof_at(stream: &blake3::OutputReader) -> Xof {
    Xof(stream.clone())
}

impl TryRng for Xof {
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

impl TryCryptoRng for Xof {}
