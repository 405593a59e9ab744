//! The TLS 1.3 hybrid key exchange `SecP256r1MLKEM768` (NamedGroup `0x11EB`)
//! of draft-ietf-tls-ecdhe-mlkem §3–4 (built on RFC 9954, hybrid key
//! exchange in TLS 1.3), with P-256 from RustCrypto `p256` (feature `p256`).
//!
//! Unlike [`crate::x25519_mlkem768`], this group puts **ECDH first**
//! everywhere:
//! - client `key_exchange` = uncompressed P-256 point (65 bytes) ‖ ML-KEM-768 `ek` (1184 bytes) = 1249 bytes;
//! - server `key_exchange` = uncompressed P-256 point (65 bytes) ‖ ML-KEM-768 `ct` (1088 bytes) = 1153 bytes;
//! - shared secret = ECDH x-coordinate (32 bytes) ‖ ML-KEM shared secret (32 bytes) = 64 bytes,
//!   the input to the TLS key schedule.
//!
//! Either side aborts (`illegal_parameter`) on a share of the wrong length
//! ([`Error::Length`]) or a P-256 key that is not a valid uncompressed point
//! ([`Error::InvalidPoint`]: tag, coordinate range, curve equation; the
//! identity has no such encoding); the server also on an ML-KEM `ek` that
//! fails the FIPS 203 §7.2 check ([`Error::InvalidKey`]).
//!
//! The P-256 private scalar is derived from 40 random bytes by FIPS 186-5
//! A.2.1 (`d = (c mod (n − 1)) + 1`), without a rejection loop, so no branch
//! depends on it.
//!
//! This is a key exchange for TLS, not a general-purpose KEM: it relies on
//! the TLS transcript for binding (use [`crate::xwing`] elsewhere).
//!
//! ```
//! use pqdr_hybrid::secp256r1_mlkem768::{ClientSecret, ServerShare, server_respond_deterministic};
//!
//! // Fixed randomness for the example; use `ClientSecret::generate(&mut rng)`
//! // and `server_respond(&share, &mut rng)` with a cryptographic RNG.
//! let client = ClientSecret::from_seed(&[7; 104]);
//! let (reply, server_ss) = server_respond_deterministic(client.share(), &[9; 72])?;
//! let client_ss = client.finish(&ServerShare::from_slice(reply.as_bytes())?)?;
//! assert_eq!(client_ss, server_ss);
//! # Ok::<(), pqdr_hybrid::Error>(())
//! ```

use core::fmt;

use pqdr_mlkem::ml_kem_768 as mlkem;
use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, from_mlkem};
use crate::p256_ecdh::{self, POINT_SIZE, SCALAR_SEED_SIZE, SecretScalar};

/// The TLS `NamedGroup` code point of SecP256r1MLKEM768.
pub const NAMED_GROUP: u16 = 0x11EB;
/// Size of the client's `key_exchange`: P-256 point ‖ `ek`.
pub const CLIENT_SHARE_SIZE: usize = POINT_SIZE + EK_M;
/// Size of the server's `key_exchange`: P-256 point ‖ `ct`.
pub const SERVER_SHARE_SIZE: usize = POINT_SIZE + CT_M;
/// Size of the shared secret: the ECDH x-coordinate's 32 bytes ‖ ML-KEM's 32 bytes.
pub const SHARED_SECRET_SIZE: usize = 64;
/// Size of the client's private randomness: ML-KEM `d ‖ z` (64 bytes) ‖
/// the P-256 scalar's `c` (40 bytes, FIPS 186-5 A.2.1).
pub const CLIENT_SEED_SIZE: usize = 64 + SCALAR_SEED_SIZE;
/// Size of the server's randomness: ML-KEM `m` (32 bytes) ‖ the P-256 scalar's `c` (40 bytes).
pub const SERVER_SEED_SIZE: usize = 32 + SCALAR_SEED_SIZE;

const EK_M: usize = mlkem::ENCAPSULATION_KEY_SIZE;
const CT_M: usize = mlkem::CIPHERTEXT_SIZE;
const _: () = assert!(CLIENT_SHARE_SIZE == 1249 && SERVER_SHARE_SIZE == 1153);
const _: () = assert!(CLIENT_SEED_SIZE == 104 && SERVER_SEED_SIZE == 72);

pub use crate::tls::SharedSecret;
use crate::tls::key_share;

key_share!(
    "secp256r1_mlkem768",
    /// The client's `key_exchange`: P-256 point ‖ ML-KEM-768 `ek` (1249 bytes).
    ClientShare, CLIENT_SHARE_SIZE
);
key_share!(
    "secp256r1_mlkem768",
    /// The server's `key_exchange`: P-256 point ‖ ML-KEM-768 `ct` (1153 bytes).
    ServerShare, SERVER_SHARE_SIZE
);

impl ClientShare {
    /// The P-256 point (the first 65 bytes).
    fn point(&self) -> [u8; POINT_SIZE] {
        first_point(&self.0)
    }
}

impl ServerShare {
    /// The P-256 point (the first 65 bytes).
    fn point(&self) -> [u8; POINT_SIZE] {
        first_point(&self.0)
    }
}

/// The first 65 bytes of a share: its uncompressed P-256 point.
fn first_point(share: &[u8]) -> [u8; POINT_SIZE] {
    let mut p = [0u8; POINT_SIZE];
    p.copy_from_slice(&share[..POINT_SIZE]);
    p
}

/// The client's private state between ClientHello and ServerHello: the
/// ML-KEM-768 decapsulation key and the P-256 scalar, with the key share
/// they make. Zeroized on drop; `Debug` prints nothing secret.
#[derive(Clone)]
pub struct ClientSecret {
    dk: mlkem::DecapsulationKey,
    ecdh: SecretScalar,
    share: ClientShare,
}

impl ClientSecret {
    /// A fresh client key: 104 bytes from `rng` in one call, split as in
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

    /// The client key of `seed = d ‖ z ‖ c`: `ML-KEM.KeyGen_internal(d, z)`
    /// (FIPS 203 Algorithm 16) and the P-256 scalar `(c mod (n − 1)) + 1`
    /// (FIPS 186-5 A.2.1). Deterministic, for known-answer tests.
    ///
    /// # Panics
    /// As [`Self::generate`].
    pub fn from_seed(seed: &[u8; CLIENT_SEED_SIZE]) -> Self {
        let mut d_z = Zeroizing::new([0u8; 64]);
        let mut c = Zeroizing::new([0u8; SCALAR_SEED_SIZE]);
        d_z.copy_from_slice(&seed[..64]);
        c.copy_from_slice(&seed[64..]);
        let dk = mlkem::DecapsulationKey::from_seed(&d_z);
        let ecdh = SecretScalar::from_seed(&c);
        let mut share = ClientShare([0; CLIENT_SHARE_SIZE]);
        share.0[..POINT_SIZE].copy_from_slice(&ecdh.public());
        share.0[POINT_SIZE..].copy_from_slice(dk.encapsulation_key().as_bytes());
        Self { dk, ecdh, share }
    }

    /// The client's `key_exchange` to send in the ClientHello.
    pub fn share(&self) -> &ClientShare {
        &self.share
    }

    /// Derives the shared secret from the server's `key_exchange`: the
    /// x-coordinate of `d · Q_server` ‖ `ML-KEM.Decaps(dk, ct)` (never
    /// fails: implicit rejection).
    ///
    /// # Errors
    /// [`Error::InvalidPoint`] if the server's P-256 key is not a valid
    /// uncompressed point.
    pub fn finish(&self, server: &ServerShare) -> Result<SharedSecret, Error> {
        let q = p256_ecdh::parse_point(&server.point())?;
        let ss_e = self.ecdh.dh(&q)?;
        let mut ct = [0u8; CT_M];
        ct.copy_from_slice(&server.0[POINT_SIZE..]);
        let ss_m = self.dk.decapsulate(&mlkem::Ciphertext::from_array(&ct));
        Ok(crate::tls::concat(&ss_e, ss_m.as_bytes()))
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("secp256r1_mlkem768::ClientSecret")
            .finish_non_exhaustive()
    }
}

impl Zeroize for ClientSecret {
    fn zeroize(&mut self) {
        self.dk.zeroize();
        self.ecdh.zeroize();
    }
}

impl Drop for ClientSecret {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for ClientSecret {}

/// The server's side: parses the client's share, runs ECDH with a fresh
/// P-256 scalar and encapsulates to the client's ML-KEM key. Draws 72 bytes
/// from `rng` in one call, split as in [`server_respond_deterministic`].
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

/// [`server_respond`] with the randomness `seed = m ‖ c` given: `m` drives
/// `ML-KEM.Encaps_internal` (FIPS 203 Algorithm 17), `c` makes the server's
/// P-256 scalar `(c mod (n − 1)) + 1` (FIPS 186-5 A.2.1). For known-answer
/// tests.
///
/// # Errors
/// [`Error::InvalidPoint`] if the client's P-256 key is not a valid
/// uncompressed point; [`Error::InvalidKey`] if its `ek` fails the FIPS 203
/// §7.2 check (TLS: abort with `illegal_parameter` on either).
pub fn server_respond_deterministic(
    client: &ClientShare,
    seed: &[u8; SERVER_SEED_SIZE],
) -> Result<(ServerShare, SharedSecret), Error> {
    let q = p256_ecdh::parse_point(&client.point())?;
    let ek = mlkem::EncapsulationKey::from_slice(&client.0[POINT_SIZE..]).map_err(from_mlkem)?;
    let mut m = Zeroizing::new([0u8; 32]);
    let mut c = Zeroizing::new([0u8; SCALAR_SEED_SIZE]);
    m.copy_from_slice(&seed[..32]);
    c.copy_from_slice(&seed[32..]);
    let ecdh = SecretScalar::from_seed(&c);
    let ss_e = ecdh.dh(&q)?;
    let (ct, ss_m) = ek.encapsulate_deterministic(&m);
    let mut share = ServerShare([0; SERVER_SHARE_SIZE]);
    share.0[..POINT_SIZE].copy_from_slice(&ecdh.public());
    share.0[POINT_SIZE..].copy_from_slice(ct.as_bytes());
    Ok((share, crate::tls::concat(&ss_e, ss_m.as_bytes())))
}
