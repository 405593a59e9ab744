//! **Legacy:** the TLS 1.3 hybrid group `X25519Kyber768Draft00` (NamedGroup
//! `0x6399`, draft-tls-westerbaan-xyber768d00-03; feature
//! `x25519-kyber768-draft00`), which browsers and Cloudflare deployed in
//! 2023–24 before FIPS 203. For reading captured exchanges and talking to
//! peers not yet migrated; new systems use [`crate::x25519_mlkem768`]
//! (`0x11EC`).
//!
//! Round-3 Kyber768 ([`pqdr_mlkem::kyber_r3`]), and **X25519 first**
//! everywhere (the opposite of X25519MLKEM768):
//! - client `key_exchange` = X25519 public key (32) ‖ Kyber768 public key (1184) = 1216 bytes;
//! - server `key_exchange` = X25519 public key (32) ‖ Kyber768 ciphertext (1088) = 1120 bytes;
//! - shared secret = X25519 shared secret (32) ‖ Kyber768 shared secret (32) = 64 bytes.
//!
//! The server refuses a Kyber public key that fails the modulus check
//! ([`Error::InvalidKey`]), either side a share of the wrong length
//! ([`Error::Length`]) or an all-zero X25519 secret ([`Error::LowOrderPoint`]).
//!
//! ```
//! use pqdr_hybrid::x25519_kyber768_draft00 as xk;
//!
//! let client = xk::ClientSecret::from_seed(&[1; xk::CLIENT_SEED_SIZE]);
//! let (server_share, server_ss) =
//!     xk::server_respond_deterministic(client.share(), &[2; xk::SERVER_SEED_SIZE])?;
//! assert_eq!(client.finish(&server_share)?, server_ss);
//! # Ok::<(), pqdr_hybrid::Error>(())
//! ```

use core::fmt;

use pqdr_mlkem::kyber_r3::{self, Ciphertext, Kyber768};
use rand_core::CryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, from_mlkem};
use crate::x25519::{self, X25519_SIZE};

/// The TLS `NamedGroup` code point of X25519Kyber768Draft00.
pub const NAMED_GROUP: u16 = 0x6399;
/// Size of the client's `key_exchange`: X25519 public key ‖ Kyber768 `pk`.
pub const CLIENT_SHARE_SIZE: usize = X25519_SIZE + PK_K;
/// Size of the server's `key_exchange`: X25519 public key ‖ Kyber768 `ct`.
pub const SERVER_SHARE_SIZE: usize = X25519_SIZE + CT_K;
/// Size of the shared secret: X25519's 32 bytes ‖ Kyber768's 32 bytes.
pub const SHARED_SECRET_SIZE: usize = 64;
/// Size of the client's randomness: Kyber `d ‖ z` (64 bytes) ‖ X25519 scalar (32 bytes).
pub const CLIENT_SEED_SIZE: usize = 96;
/// Size of the server's randomness: Kyber encapsulation coins (32 bytes) ‖ X25519 scalar (32 bytes).
pub const SERVER_SEED_SIZE: usize = 64;

const PK_K: usize = pqdr_mlkem::ml_kem_768::ENCAPSULATION_KEY_SIZE;
const CT_K: usize = pqdr_mlkem::ml_kem_768::CIPHERTEXT_SIZE;
const _: () = assert!(CLIENT_SHARE_SIZE == 1216 && SERVER_SHARE_SIZE == 1120);

pub use crate::tls::SharedSecret;
use crate::tls::key_share;

key_share!(
    "x25519_kyber768_draft00",
    /// The client's `key_exchange`: X25519 public key ‖ Kyber768 `pk` (1216 bytes).
    ClientShare, CLIENT_SHARE_SIZE
);
key_share!(
    "x25519_kyber768_draft00",
    /// The server's `key_exchange`: X25519 public key ‖ Kyber768 `ct` (1120 bytes).
    ServerShare, SERVER_SHARE_SIZE
);

/// The first 32 bytes of a share: its X25519 public key.
fn first_x25519(share: &[u8]) -> [u8; X25519_SIZE] {
    let mut p = [0u8; X25519_SIZE];
    p.copy_from_slice(&share[..X25519_SIZE]);
    p
}

/// The client's private state between ClientHello and ServerHello: the
/// Kyber768 secret key and the X25519 scalar. Zeroized on drop.
#[derive(Clone)]
pub struct ClientSecret {
    dk: kyber_r3::DecapsulationKey<Kyber768>,
    x25519: [u8; X25519_SIZE],
    share: ClientShare,
}

impl ClientSecret {
    /// A fresh client key: 96 bytes from `rng` in one call, split as in
    /// [`Self::from_seed`].
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        let mut seed = Zeroizing::new([0u8; CLIENT_SEED_SIZE]);
        rng.fill_bytes(seed.as_mut());
        Self::from_seed(&seed)
    }

    /// The client key of `seed = d ‖ z ‖ x25519_scalar`: `Kyber.CCAKEM.KeyGen`
    /// (Kyber v3.02 Algorithm 7) from `d`, `z`, and the X25519 scalar
    /// (RFC 7748 §5, clamped when used). Deterministic, for known answers.
    pub fn from_seed(seed: &[u8; CLIENT_SEED_SIZE]) -> Self {
        let mut d = Zeroizing::new([0u8; 32]);
        let mut z = Zeroizing::new([0u8; 32]);
        d.copy_from_slice(&seed[..32]);
        z.copy_from_slice(&seed[32..64]);
        let mut x = [0u8; X25519_SIZE];
        x.copy_from_slice(&seed[64..]);
        let dk = kyber_r3::DecapsulationKey::<Kyber768>::generate_deterministic(&d, &z);
        let mut share = ClientShare([0; CLIENT_SHARE_SIZE]);
        share.0[..X25519_SIZE].copy_from_slice(&x25519::public(&x));
        share.0[X25519_SIZE..].copy_from_slice(dk.encapsulation_key().as_bytes());
        Self {
            dk,
            x25519: x,
            share,
        }
    }

    /// The client's `key_exchange` to send in the ClientHello.
    pub fn share(&self) -> &ClientShare {
        &self.share
    }

    /// Derives the shared secret from the server's `key_exchange`:
    /// `X25519(scalar, server public key)` ‖ `Kyber.CCAKEM.Dec(ct, sk)` (never
    /// fails: implicit rejection).
    ///
    /// # Errors
    /// [`Error::LowOrderPoint`] if the X25519 shared secret is all zeros.
    pub fn finish(&self, server: &ServerShare) -> Result<SharedSecret, Error> {
        let ss_x = x25519::dh_checked(&self.x25519, &first_x25519(&server.0))?;
        let mut ct = [0u8; CT_K];
        ct.copy_from_slice(&server.0[X25519_SIZE..]);
        let ss_k = self.dk.decapsulate(&Ciphertext::from_array(&ct));
        Ok(crate::tls::concat(&ss_x, ss_k.as_bytes()))
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("x25519_kyber768_draft00::ClientSecret")
            .finish_non_exhaustive()
    }
}

impl Zeroize for ClientSecret {
    fn zeroize(&mut self) {
        self.dk.zeroize();
        self.x25519.zeroize();
    }
}

impl Drop for ClientSecret {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for ClientSecret {}

/// The server's side: draws 64 bytes from `rng` in one call, split as in
/// [`server_respond_deterministic`].
///
/// # Errors
/// As [`server_respond_deterministic`].
pub fn server_respond<R: CryptoRng + ?Sized>(
    client: &ClientShare,
    rng: &mut R,
) -> Result<(ServerShare, SharedSecret), Error> {
    let mut seed = Zeroizing::new([0u8; SERVER_SEED_SIZE]);
    rng.fill_bytes(seed.as_mut());
    server_respond_deterministic(client, &seed)
}

/// [`server_respond`] with `seed = coins ‖ x25519_scalar` given: the coins
/// drive `Kyber.CCAKEM.Enc` (v3.02 Algorithm 8, hashed to `m` there), the
/// scalar makes the server's X25519 key. For known-answer tests.
///
/// # Errors
/// [`Error::InvalidKey`] if the client's Kyber public key fails the modulus
/// check; [`Error::LowOrderPoint`] if the X25519 shared secret is all zeros.
pub fn server_respond_deterministic(
    client: &ClientShare,
    seed: &[u8; SERVER_SEED_SIZE],
) -> Result<(ServerShare, SharedSecret), Error> {
    let pk = kyber_r3::EncapsulationKey::<Kyber768>::from_slice(&client.0[X25519_SIZE..])
        .map_err(from_mlkem)?;
    let mut coins = Zeroizing::new([0u8; 32]);
    let mut x = Zeroizing::new([0u8; X25519_SIZE]);
    coins.copy_from_slice(&seed[..32]);
    x.copy_from_slice(&seed[32..]);
    let ss_x = x25519::dh_checked(&x, &first_x25519(&client.0))?;
    let (ct, ss_k) = pk.encapsulate_deterministic(&coins);
    let mut share = ServerShare([0; SERVER_SHARE_SIZE]);
    share.0[..X25519_SIZE].copy_from_slice(&x25519::public(&x));
    share.0[X25519_SIZE..].copy_from_slice(ct.as_bytes());
    Ok((share, crate::tls::concat(&ss_x, ss_k.as_bytes())))
}
