//! The exchange hash `H` and the key derivation.
//!
//! `H` (RFC 5656 §4 for the ECDH shape, with `K` as a `string` as RFC 9941
//! and draft-ietf-sshm-mlkem-hybrid-kex-09 specify) is the method's hash of
//!
//! ```text
//! string V_C, string V_S, string I_C, string I_S, string K_S,
//! string C_INIT (Q_C), string S_REPLY (Q_S), string K
//! ```
//!
//! Keys (RFC 4253 §7.2): `HASH(K ‖ H ‖ X ‖ session_id)` with `X` one of
//! `"A"` … `"F"`, extended by `K_{n+1} = HASH(K ‖ H ‖ K_1 ‖ … ‖ K_n)` until
//! long enough; `K` again as a `string`.

use sha2::{Digest, Sha256, Sha512};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::hybrid::SharedSecret;
use crate::kexinit::Kex;

/// A hash output of the method's length (64 or 32 bytes): the exchange
/// hash `H`, which is also the session identifier of the first exchange.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ExchangeHash {
    bytes: [u8; 64],
    len: usize,
}

impl ExchangeHash {
    /// The hash bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl core::fmt::Debug for ExchangeHash {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ExchangeHash(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

/// SHA-512 or SHA-256 by method; both wipe their state on drop.
enum Hasher {
    Sha512(Sha512),
    Sha256(Sha256),
}

impl Hasher {
    fn new(kex: Kex) -> Self {
        if kex.hash_len() == 64 {
            Self::Sha512(Sha512::new())
        } else {
            Self::Sha256(Sha256::new())
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            Self::Sha512(h) => h.update(data),
            Self::Sha256(h) => h.update(data),
        }
    }

    /// An RFC 4251 §5 `string`; lengths here are KEX values far below 4 GiB.
    fn string(&mut self, data: &[u8]) {
        let len = u32::try_from(data.len()).unwrap_or(u32::MAX);
        self.update(&len.to_be_bytes());
        self.update(data);
    }

    fn finish(self, out: &mut [u8; 64]) -> usize {
        match self {
            Self::Sha512(h) => {
                out.copy_from_slice(&h.finalize());
                64
            }
            Self::Sha256(h) => {
                out[..32].copy_from_slice(&h.finalize());
                32
            }
        }
    }
}

/// The inputs of the exchange hash, each as sent (identification lines
/// without CR LF, KEXINIT payloads with their message number).
#[derive(Clone, Copy, Debug)]
pub struct Transcript<'a> {
    /// `V_C`, the client's identification line without CR LF.
    pub v_c: &'a [u8],
    /// `V_S`, the server's.
    pub v_s: &'a [u8],
    /// `I_C`, the payload of the client's KEXINIT.
    pub i_c: &'a [u8],
    /// `I_S`, the payload of the server's KEXINIT.
    pub i_s: &'a [u8],
    /// `K_S`, the server's host key blob.
    pub k_s: &'a [u8],
    /// `C_INIT`, the client's KEX value.
    pub c_init: &'a [u8],
    /// `S_REPLY`, the server's KEX value.
    pub s_reply: &'a [u8],
}

/// Computes `H` for `kex` over the transcript and `K`.
#[must_use]
pub fn exchange_hash(kex: Kex, t: &Transcript<'_>, k: &SharedSecret) -> ExchangeHash {
    let mut h = Hasher::new(kex);
    for field in [t.v_c, t.v_s, t.i_c, t.i_s, t.k_s, t.c_init, t.s_reply] {
        h.string(field);
    }
    h.string(k.as_bytes());
    let mut bytes = [0u8; 64];
    let len = h.finish(&mut bytes);
    // Public by design: H is the session identifier and the value the host
    // key signs (the signature travels in the clear); as a one-way hash of
    // the transcript and K it reveals nothing of K, and the keys hash K again.
    pqdr_ctgrind::hook::declassify(&mut bytes);
    ExchangeHash { bytes, len }
}

/// The key length of `chacha20-poly1305@openssh.com`: two ChaCha20 keys.
pub const CIPHER_KEY_LEN: usize = 64;

/// The derived keys of one exchange: the cipher keys of both directions
/// (`chacha20-poly1305@openssh.com` has no IV and no separate MAC key, so
/// letters "A", "B", "E", "F" are unused). Wiped on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SessionKeys {
    /// Encryption key client to server (letter "C").
    pub client_to_server: [u8; CIPHER_KEY_LEN],
    /// Encryption key server to client (letter "D").
    pub server_to_client: [u8; CIPHER_KEY_LEN],
}

impl core::fmt::Debug for SessionKeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SessionKeys(…)")
    }
}

/// RFC 4253 §7.2: fills `out` with `HASH(K ‖ H ‖ letter ‖ session_id)` and
/// its extensions `HASH(K ‖ H ‖ K_1 ‖ … ‖ K_n)`.
pub fn derive_key(
    kex: Kex,
    k: &SharedSecret,
    h: &ExchangeHash,
    letter: u8,
    session_id: &[u8],
    out: &mut [u8],
) {
    let mut block = [0u8; 64];
    let mut filled = 0;
    while filled < out.len() {
        let mut hasher = Hasher::new(kex);
        hasher.string(k.as_bytes());
        hasher.update(h.as_bytes());
        if filled == 0 {
            hasher.update(&[letter]);
            hasher.update(session_id);
        } else {
            hasher.update(&out[..filled]);
        }
        let n = hasher.finish(&mut block);
        let take = n.min(out.len() - filled);
        out[filled..filled + take].copy_from_slice(&block[..take]);
        filled += take;
    }
    block.zeroize();
}

/// Derives both cipher keys (letters "C" and "D").
#[must_use]
pub fn session_keys(
    kex: Kex,
    k: &SharedSecret,
    h: &ExchangeHash,
    session_id: &[u8],
) -> SessionKeys {
    let mut keys = SessionKeys {
        client_to_server: [0; CIPHER_KEY_LEN],
        server_to_client: [0; CIPHER_KEY_LEN],
    };
    derive_key(kex, k, h, b'C', session_id, &mut keys.client_to_server);
    derive_key(kex, k, h, b'D', session_id, &mut keys.server_to_client);
    keys
}
