//! The TLS 1.3 hybrid key exchange `X25519MLKEM768` (NamedGroup `0x11EC`)
//! of draft-ietf-tls-ecdhe-mlkem §3–4 (built on RFC 9954, hybrid key
//! exchange in TLS 1.3).
//!
//! Unlike the other groups of that draft, this one puts **ML-KEM first**
//! everywhere:
//! - client `key_exchange` = `ek` (1184 bytes) ‖ client X25519 public key (32 bytes) = 1216 bytes;
//! - server `key_exchange` = `ct` (1088 bytes) ‖ server X25519 public key (32 bytes) = 1120 bytes;
//! - shared secret = ML-KEM shared secret (32 bytes) ‖ X25519 shared secret (32 bytes) = 64 bytes,
//!   the input to the TLS key schedule.
//!
//! The server aborts (`illegal_parameter`) on an ML-KEM encapsulation key
//! that fails the FIPS 203 §7.2 check ([`Error::InvalidKey`]), either side on
//! a share of the wrong length ([`Error::Length`]) and on an all-zero X25519
//! shared secret (RFC 8446 §7.4.2, [`Error::LowOrderPoint`]).
//!
//! This is a key exchange for TLS, not a general-purpose KEM: it relies on
//! the TLS transcript for binding (use [`crate::xwing`] elsewhere).

use core::fmt;

use pqdr_mlkem::ml_kem_768 as mlkem;
use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, from_mlkem};
use crate::x25519::{self, X25519_SIZE};

/// The TLS `NamedGroup` code point of X25519MLKEM768.
pub const NAMED_GROUP: u16 = 0x11EC;
/// Size of the client's `key_exchange`: `ek ‖ X25519 public key`.
pub const CLIENT_SHARE_SIZE: usize = EK_M + X25519_SIZE;
/// Size of the server's `key_exchange`: `ct ‖ X25519 public key`.
pub const SERVER_SHARE_SIZE: usize = CT_M + X25519_SIZE;
/// Size of the shared secret: ML-KEM's 32 bytes ‖ X25519's 32 bytes.
pub const SHARED_SECRET_SIZE: usize = 64;
/// Size of the client's private randomness: ML-KEM `d ‖ z` (64 bytes) ‖ X25519 scalar (32 bytes).
pub const CLIENT_SEED_SIZE: usize = 96;
/// Size of the server's randomness: ML-KEM `m` (32 bytes) ‖ X25519 scalar (32 bytes).
pub const SERVER_SEED_SIZE: usize = 64;

const EK_M: usize = mlkem::ENCAPSULATION_KEY_SIZE;
const CT_M: usize = mlkem::CIPHERTEXT_SIZE;
const _: () = assert!(CLIENT_SHARE_SIZE == 1216 && SERVER_SHARE_SIZE == 1120);

pub use crate::tls::SharedSecret;
use crate::tls::key_share;

key_share!(
    "x25519_mlkem768",
    /// The client's `key_exchange`: ML-KEM-768 `ek` ‖ X25519 public key (1216 bytes).
    ClientShare, CLIENT_SHARE_SIZE
);
key_share!(
    "x25519_mlkem768",
    /// The server's `key_exchange`: ML-KEM-768 `ct` ‖ X25519 public key (1120 bytes).
    ServerShare, SERVER_SHARE_SIZE
);

impl ClientShare {
    /// The X25519 public key (the last 32 bytes).
    fn x25519(&self) -> [u8; X25519_SIZE] {
        last_x25519(&self.0)
    }
}

impl ServerShare {
    /// The X25519 public key (the last 32 bytes).
    fn x25519(&self) -> [u8; X25519_SIZE] {
        last_x25519(&self.0)
    }
}

/// The last 32 bytes of a share: its X25519 public key.
fn last_x25519(share: &[u8]) -> [u8; X25519_SIZE] {
    let mut p = [0u8; X25519_SIZE];
    p.copy_from_slice(&share[share.len() - X25519_SIZE..]);
    p
}

/// The client's private state between ClientHello and ServerHello: the
/// ML-KEM-768 decapsulation key and the X25519 scalar, with the key share
/// they make. Zeroized on drop; `Debug` prints nothing secret.
#[derive(Clone)]
pub struct ClientSecret {
    dk: mlkem::DecapsulationKey,
    x25519: [u8; X25519_SIZE],
    share: ClientShare,
}

impl ClientSecret {
    /// A fresh client key: 96 bytes from `rng` in one call, split as in
    /// [`Self::from_seed`].
    ///
    /// # Panics
    /// With `pqdr-mlkem`'s feature `self-test`, on a failed pair-wise
    /// consistency test (a hardware or memory fault, never an input).
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        let Ok(key) = Self::try_generate(rng);
        key
    }

    /// [`Self::generate`] with a fallible RNG.
    ///
    /// # Errors
    /// The RNG's error, if it fails.
    ///
    /// # Panics
    /// As [`Self::generate`].
    pub fn try_generate<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut seed = Zeroizing::new([0u8; CLIENT_SEED_SIZE]);
        rng.try_fill_bytes(seed.as_mut())?;
        Ok(Self::from_seed(&seed))
    }

    /// The client key of `seed = d ‖ z ‖ x25519_scalar`: `ML-KEM.KeyGen_internal(d, z)`
    /// (FIPS 203 Algorithm 16) and the X25519 scalar (RFC 7748 §5, clamped
    /// when used). Deterministic, for known-answer tests.
    ///
    /// # Panics
    /// As [`Self::generate`].
    pub fn from_seed(seed: &[u8; CLIENT_SEED_SIZE]) -> Self {
        let mut d_z = Zeroizing::new([0u8; 64]);
        d_z.copy_from_slice(&seed[..64]);
        let mut x = [0u8; X25519_SIZE];
        x.copy_from_slice(&seed[64..]);
        let dk = mlkem::DecapsulationKey::from_seed(&d_z);
        let mut share = ClientShare([0; CLIENT_SHARE_SIZE]);
        share.0[..EK_M].copy_from_slice(dk.encapsulation_key().as_bytes());
        share.0[EK_M..].copy_from_slice(&x25519::public(&x));
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
    /// `ML-KEM.Decaps(dk, ct)` (never fails: implicit rejection) ‖
    /// `X25519(x25519_scalar, server public key)`.
    ///
    /// # Errors
    /// [`Error::LowOrderPoint`] if the X25519 shared secret is all zeros.
    pub fn finish(&self, server: &ServerShare) -> Result<SharedSecret, Error> {
        let mut ct = [0u8; CT_M];
        ct.copy_from_slice(&server.0[..CT_M]);
        let ss_x = x25519::dh_checked(&self.x25519, &server.x25519())?;
        let ss_m = self.dk.decapsulate(&mlkem::Ciphertext::from_array(&ct));
        Ok(crate::tls::concat(ss_m.as_bytes(), &ss_x))
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("x25519_mlkem768::ClientSecret")
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

/// The server's side: parses the client's share, encapsulates to its ML-KEM
/// key and runs X25519 with a fresh scalar. Draws 64 bytes from `rng` in one
/// call, split as in [`server_respond_deterministic`].
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

/// [`server_respond`] with the randomness `seed = m ‖ x25519_scalar` given:
/// `m` drives `ML-KEM.Encaps_internal` (FIPS 203 Algorithm 17), the scalar
/// makes the server's X25519 key. For known-answer tests.
///
/// # Errors
/// [`Error::InvalidKey`] if the client's `ek` fails the FIPS 203 §7.2 check
/// (TLS: abort with `illegal_parameter`); [`Error::LowOrderPoint`] if the
/// X25519 shared secret is all zeros.
pub fn server_respond_deterministic(
    client: &ClientShare,
    seed: &[u8; SERVER_SEED_SIZE],
) -> Result<(ServerShare, SharedSecret), Error> {
    let ek = mlkem::EncapsulationKey::from_slice(&client.0[..EK_M]).map_err(from_mlkem)?;
    let mut m = Zeroizing::new([0u8; 32]);
    let mut x = Zeroizing::new([0u8; X25519_SIZE]);
    m.copy_from_slice(&seed[..32]);
    x.copy_from_slice(&seed[32..]);
    let ss_x = x25519::dh_checked(&x, &client.x25519())?;
    let (ct, ss_m) = ek.encapsulate_deterministic(&m);
    let mut share = ServerShare([0; SERVER_SHARE_SIZE]);
    share.0[..CT_M].copy_from_slice(ct.as_bytes());
    share.0[CT_M..].copy_from_slice(&x25519::public(&x));
    Ok((share, crate::tls::concat(ss_m.as_bytes(), &ss_x)))
}
