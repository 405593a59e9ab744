//! The TLS 1.3 hybrid key exchange `SecP384r1MLKEM1024` (NamedGroup `0x11ED`)
//! of draft-ietf-tls-ecdhe-mlkem §3–4 (built on RFC 9954, hybrid key
//! exchange in TLS 1.3), with our own P-384 (`src/nistp384/`, feature `p384`).
//!
//! The layout of `secp256r1_mlkem768` at the larger sizes, **ECDH
//! first** everywhere:
//! - client `key_exchange` = uncompressed P-384 point (97 bytes) ‖ ML-KEM-1024 `ek` (1568 bytes) = 1665 bytes;
//! - server `key_exchange` = uncompressed P-384 point (97 bytes) ‖ ML-KEM-1024 `ct` (1568 bytes) = 1665 bytes;
//! - shared secret = ECDH x-coordinate (48 bytes) ‖ ML-KEM shared secret (32 bytes) = 80 bytes,
//!   the input to the TLS key schedule.
//!
//! Either side aborts (`illegal_parameter`) on a share of the wrong length
//! ([`Error::Length`]) or a P-384 key that is not a valid uncompressed point
//! ([`Error::InvalidPoint`]: tag, coordinate range, curve equation; the
//! identity has no such encoding); the server also on an ML-KEM `ek` that
//! fails the FIPS 203 §7.2 check ([`Error::InvalidKey`]).
//!
//! The P-384 private scalar is derived from 56 random bytes by FIPS 186-5
//! A.2.1 (`d = (c mod (n − 1)) + 1`), without a rejection loop, so no branch
//! depends on it.
//!
//! This is a key exchange for TLS, not a general-purpose KEM: it relies on
//! the TLS transcript for binding (use [`crate::xwing`] elsewhere).
//!
//! ```
//! use pqdr_hybrid::secp384r1_mlkem1024::{ClientSecret, ServerShare, server_respond_deterministic};
//!
//! // Fixed randomness for the example; use `ClientSecret::generate(&mut rng)`
//! // and `server_respond(&share, &mut rng)` with a cryptographic RNG.
//! let client = ClientSecret::from_seed(&[7; 120]);
//! let (reply, server_ss) = server_respond_deterministic(client.share(), &[9; 88])?;
//! let client_ss = client.finish(&ServerShare::from_slice(reply.as_bytes())?)?;
//! assert_eq!(client_ss, server_ss);
//! # Ok::<(), pqdr_hybrid::Error>(())
//! ```

use core::fmt;

use pqdr_mlkem::ml_kem_1024 as mlkem;
use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, from_mlkem};
use crate::p384_ecdh::{self, POINT_SIZE, SCALAR_SEED_SIZE, SECRET_SIZE, SecretScalar};

/// The TLS `NamedGroup` code point of SecP384r1MLKEM1024.
pub const NAMED_GROUP: u16 = 0x11ED;
/// Size of the client's `key_exchange`: P-384 point ‖ `ek`.
pub const CLIENT_SHARE_SIZE: usize = POINT_SIZE + EK_M;
/// Size of the server's `key_exchange`: P-384 point ‖ `ct`.
pub const SERVER_SHARE_SIZE: usize = POINT_SIZE + CT_M;
/// Size of the shared secret: the ECDH x-coordinate's 48 bytes ‖ ML-KEM's 32 bytes.
pub const SHARED_SECRET_SIZE: usize = SECRET_SIZE + 32;
/// Size of the client's private randomness: ML-KEM `d ‖ z` (64 bytes) ‖
/// the P-384 scalar's `c` (56 bytes, FIPS 186-5 A.2.1).
pub const CLIENT_SEED_SIZE: usize = 64 + SCALAR_SEED_SIZE;
/// Size of the server's randomness: ML-KEM `m` (32 bytes) ‖ the P-384 scalar's `c` (56 bytes).
pub const SERVER_SEED_SIZE: usize = 32 + SCALAR_SEED_SIZE;

const EK_M: usize = mlkem::ENCAPSULATION_KEY_SIZE;
const CT_M: usize = mlkem::CIPHERTEXT_SIZE;
const _: () = assert!(CLIENT_SHARE_SIZE == 1665 && SERVER_SHARE_SIZE == 1665);
const _: () = assert!(CLIENT_SEED_SIZE == 120 && SERVER_SEED_SIZE == 88);
const _: () = assert!(SHARED_SECRET_SIZE == 80);

/// The 80-byte shared secret of SecP384r1MLKEM1024: the ECDH x-coordinate
/// (48 bytes) ‖ the ML-KEM-1024 shared secret (32 bytes), the `(EC)DHE` input
/// of the TLS 1.3 key schedule. Zeroized on drop, compared in constant time,
/// never printed.
pub type SharedSecret = pqdr_common::SharedSecret<SHARED_SECRET_SIZE>;
use crate::tls::key_share;

key_share!(
    "secp384r1_mlkem1024",
    /// The client's `key_exchange`: P-384 point ‖ ML-KEM-1024 `ek` (1665 bytes).
    ClientShare, CLIENT_SHARE_SIZE
);
key_share!(
    "secp384r1_mlkem1024",
    /// The server's `key_exchange`: P-384 point ‖ ML-KEM-1024 `ct` (1665 bytes).
    ServerShare, SERVER_SHARE_SIZE
);

impl ClientShare {
    /// The P-384 point (the first 97 bytes).
    fn point(&self) -> [u8; POINT_SIZE] {
        first_point(&self.0)
    }
}

impl ServerShare {
    /// The P-384 point (the first 97 bytes).
    fn point(&self) -> [u8; POINT_SIZE] {
        first_point(&self.0)
    }
}

/// The first 97 bytes of a share: its uncompressed P-384 point.
fn first_point(share: &[u8]) -> [u8; POINT_SIZE] {
    let mut p = [0u8; POINT_SIZE];
    p.copy_from_slice(&share[..POINT_SIZE]);
    p
}

/// The client's private state between ClientHello and ServerHello: the
/// ML-KEM-1024 decapsulation key and the P-384 scalar, with the key share
/// they make. Zeroized on drop; `Debug` prints nothing secret.
#[derive(Clone)]
pub struct ClientSecret {
    dk: mlkem::DecapsulationKey,
    ecdh: SecretScalar,
    share: ClientShare,
}

impl ClientSecret {
    /// A fresh client key: 120 bytes from `rng` in one call, split as in
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
    /// (FIPS 203 Algorithm 16) and the P-384 scalar `(c mod (n − 1)) + 1`
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
    /// [`Error::InvalidPoint`] if the server's P-384 key is not a valid
    /// uncompressed point.
    pub fn finish(&self, server: &ServerShare) -> Result<SharedSecret, Error> {
        let q = p384_ecdh::parse_point(&server.point())?;
        let ss_e = self.ecdh.dh(&q)?;
        let mut ct = [0u8; CT_M];
        ct.copy_from_slice(&server.0[POINT_SIZE..]);
        let ss_m = self.dk.decapsulate(&mlkem::Ciphertext::from_array(&ct));
        Ok(concat(&ss_e, ss_m.as_bytes()))
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("secp384r1_mlkem1024::ClientSecret")
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
/// P-384 scalar and encapsulates to the client's ML-KEM key. Draws 88 bytes
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
/// P-384 scalar `(c mod (n − 1)) + 1` (FIPS 186-5 A.2.1). For known-answer
/// tests.
///
/// # Errors
/// [`Error::InvalidPoint`] if the client's P-384 key is not a valid
/// uncompressed point; [`Error::InvalidKey`] if its `ek` fails the FIPS 203
/// §7.2 check (TLS: abort with `illegal_parameter` on either).
pub fn server_respond_deterministic(
    client: &ClientShare,
    seed: &[u8; SERVER_SEED_SIZE],
) -> Result<(ServerShare, SharedSecret), Error> {
    let q = p384_ecdh::parse_point(&client.point())?;
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
    Ok((share, concat(&ss_e, ss_m.as_bytes())))
}

/// `ss_ECDH ‖ ss_ML-KEM` (48 + 32 bytes), written in place.
fn concat(ecdh: &[u8; SECRET_SIZE], mlkem: &[u8; 32]) -> SharedSecret {
    SharedSecret::new_with(|ss| {
        ss[..SECRET_SIZE].copy_from_slice(ecdh);
        ss[SECRET_SIZE..].copy_from_slice(mlkem);
    })
}
