//! The two hybrid KEM key exchange methods, their `C_INIT` / `S_REPLY`
//! values and the shared secret `K`.
//!
//! - `sntrup761x25519-sha512` (RFC 9941; OpenSSH's
//!   `sntrup761x25519-sha512@openssh.com`): `C_INIT` = sntrup761 public key
//!   (1158) ‖ X25519 public key (32); `S_REPLY` = sntrup761 ciphertext
//!   (1039) ‖ X25519 public key (32); `K` = SHA-512(sntrup761 secret ‖
//!   X25519 secret).
//! - `mlkem768x25519-sha256` (draft-ietf-sshm-mlkem-hybrid-kex-09):
//!   `C_INIT` = ML-KEM-768 encapsulation key (1184) ‖ X25519 public key;
//!   `S_REPLY` = ML-KEM-768 ciphertext (1088) ‖ X25519 public key; `K` =
//!   SHA-256(ML-KEM secret ‖ X25519 secret).
//!
//! In both, `K` enters the exchange hash and the key derivation as a
//! `string`, not an `mpint` (RFC 9941 and the draft: each says K travels as a string). An all-zero X25519
//! output (a low-order peer key) is refused, as OpenSSH and Go do.

use pqdr_mlkem::MlKem768;
use pqdr_ntrup::Sntrup761;
use rand_core::CryptoRng;
use sha2::{Digest, Sha256, Sha512};
use x25519_dalek::{PublicKey, StaticSecret};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, Field};
use crate::kexinit::Kex;
use crate::wire::Sink;

const X25519_LEN: usize = 32;
const SNTRUP_PK: usize = 1158;
const SNTRUP_CT: usize = 1039;
const MLKEM_EK: usize = 1184;
const MLKEM_CT: usize = 1088;

/// The length of the client's `C_INIT` for `kex`.
#[must_use]
pub const fn client_init_len(kex: Kex) -> usize {
    match kex {
        Kex::Sntrup761X25519Sha512 | Kex::Sntrup761X25519Sha512OpenSsh => SNTRUP_PK + X25519_LEN,
        Kex::MlKem768X25519Sha256 => MLKEM_EK + X25519_LEN,
    }
}

/// The length of the server's `S_REPLY` for `kex`.
#[must_use]
pub const fn server_reply_len(kex: Kex) -> usize {
    match kex {
        Kex::Sntrup761X25519Sha512 | Kex::Sntrup761X25519Sha512OpenSsh => SNTRUP_CT + X25519_LEN,
        Kex::MlKem768X25519Sha256 => MLKEM_CT + X25519_LEN,
    }
}

/// The shared secret `K` (64 bytes for SHA-512, 32 for SHA-256); wiped on
/// drop, no revealing `Debug`.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SharedSecret {
    bytes: [u8; 64],
    len: usize,
}

impl SharedSecret {
    /// `K`'s bytes (before its `string` encoding).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// `K = HASH(ss_pq ‖ ss_x25519)` with the method's hash.
    fn combine(kex: Kex, pq: &[u8; 32], ecdh: &[u8; 32]) -> Self {
        let mut out = Self {
            bytes: [0; 64],
            len: kex.hash_len(),
        };
        match kex {
            Kex::Sntrup761X25519Sha512 | Kex::Sntrup761X25519Sha512OpenSsh => {
                let mut h = Sha512::new();
                h.update(pq);
                h.update(ecdh);
                out.bytes.copy_from_slice(&h.finalize());
            }
            Kex::MlKem768X25519Sha256 => {
                let mut h = Sha256::new();
                h.update(pq);
                h.update(ecdh);
                out.bytes[..32].copy_from_slice(&h.finalize());
            }
        }
        out
    }
}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SharedSecret(…)")
    }
}

/// X25519 with the all-zero output refused (RFC 7748 §6.1; in constant time).
fn x25519(secret: &StaticSecret, peer: &[u8]) -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut p = [0u8; 32];
    p.copy_from_slice(peer);
    let shared = secret.diffie_hellman(&PublicKey::from(p));
    let mut contributory = u8::from(shared.was_contributory());
    // Public by design: for a clamped scalar the output is zero iff the
    // peer's point has low order, a property of the public point alone.
    pqdr_ctgrind::hook::declassify(&mut contributory);
    if contributory == 0 {
        return Err(Error::LowOrderPoint);
    }
    Ok(Zeroizing::new(shared.to_bytes()))
}

/// The client's ephemeral secrets between `C_INIT` and `S_REPLY` (no
/// heap in the core: both sizes stay inline).
#[allow(clippy::large_enum_variant, reason = "no_std without alloc: no Box")]
enum ClientKem {
    Sntrup(pqdr_ntrup::DecapsulationKey<Sntrup761>),
    MlKem(pqdr_mlkem::DecapsulationKey<MlKem768>),
}

/// The client's half of the exchange: its KEM and X25519 secret keys.
/// Wiped on drop (the key types wipe themselves).
pub struct ClientShare {
    kex: Kex,
    kem: ClientKem,
    x25519: StaticSecret,
}

impl core::fmt::Debug for ClientShare {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ClientShare")
            .field("kex", &self.kex)
            .finish_non_exhaustive()
    }
}

impl ClientShare {
    /// Generates the ephemeral key pairs for `kex`.
    pub fn generate<R: CryptoRng + ?Sized>(kex: Kex, rng: &mut R) -> Self {
        let kem = match kex {
            Kex::Sntrup761X25519Sha512 | Kex::Sntrup761X25519Sha512OpenSsh => {
                ClientKem::Sntrup(pqdr_ntrup::DecapsulationKey::generate(rng).0)
            }
            Kex::MlKem768X25519Sha256 => ClientKem::MlKem(pqdr_mlkem::generate(rng).0),
        };
        let mut seed = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(seed.as_mut());
        Self {
            kex,
            kem,
            x25519: StaticSecret::from(*seed),
        }
    }

    /// The method.
    #[must_use]
    pub const fn kex(&self) -> Kex {
        self.kex
    }

    /// Writes `C_INIT` (KEM public key ‖ X25519 public key).
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] from the sink.
    pub fn write_init<S: Sink + ?Sized>(&self, sink: &mut S) -> Result<(), Error> {
        match &self.kem {
            ClientKem::Sntrup(dk) => sink.put(dk.encapsulation_key().as_bytes())?,
            ClientKem::MlKem(dk) => sink.put(dk.encapsulation_key().as_bytes())?,
        }
        sink.put(PublicKey::from(&self.x25519).as_bytes())
    }

    /// Computes `K` from the server's `S_REPLY`.
    ///
    /// # Errors
    /// [`Error::Length`] for an `S_REPLY` of the wrong length,
    /// [`Error::LowOrderPoint`] for a low-order X25519 key.
    pub fn finish(self, s_reply: &[u8]) -> Result<SharedSecret, Error> {
        let expected = server_reply_len(self.kex);
        if s_reply.len() != expected {
            return Err(Error::Length {
                field: Field::ServerReply,
                expected,
                actual: s_reply.len(),
            });
        }
        let (ct, x) = s_reply.split_at(expected - X25519_LEN);
        let ecdh = x25519(&self.x25519, x)?;
        let len_err = Error::Length {
            field: Field::ServerReply,
            expected,
            actual: s_reply.len(),
        };
        let pq = match &self.kem {
            ClientKem::Sntrup(dk) => {
                let ct =
                    pqdr_ntrup::Ciphertext::<Sntrup761>::from_slice(ct).map_err(|_| len_err)?;
                dk.decapsulate(&ct)
            }
            ClientKem::MlKem(dk) => {
                let ct = pqdr_mlkem::Ciphertext::<MlKem768>::from_slice(ct).map_err(|_| len_err)?;
                dk.decapsulate(&ct)
            }
        };
        Ok(SharedSecret::combine(self.kex, pq.as_bytes(), &ecdh))
    }
}

/// The server's side: from the client's `C_INIT`, writes `S_REPLY` (KEM
/// ciphertext ‖ X25519 public key) into `sink` and returns `K`.
///
/// # Errors
/// [`Error::Length`] for a `C_INIT` of the wrong length,
/// [`Error::InvalidKey`] for an ML-KEM key failing FIPS 203 §7.2,
/// [`Error::LowOrderPoint`] for a low-order X25519 key,
/// [`Error::BufferTooSmall`] from the sink.
pub fn server_reply<R: CryptoRng + ?Sized, S: Sink + ?Sized>(
    kex: Kex,
    c_init: &[u8],
    rng: &mut R,
    sink: &mut S,
) -> Result<SharedSecret, Error> {
    let expected = client_init_len(kex);
    if c_init.len() != expected {
        return Err(Error::Length {
            field: Field::ClientInit,
            expected,
            actual: c_init.len(),
        });
    }
    let (pk, x) = c_init.split_at(expected - X25519_LEN);
    let mut seed = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(seed.as_mut());
    let secret = StaticSecret::from(*seed);
    let ecdh = x25519(&secret, x)?;
    let len_err = Error::Length {
        field: Field::ClientInit,
        expected,
        actual: c_init.len(),
    };
    let pq = match kex {
        Kex::Sntrup761X25519Sha512 | Kex::Sntrup761X25519Sha512OpenSsh => {
            let ek =
                pqdr_ntrup::EncapsulationKey::<Sntrup761>::from_slice(pk).map_err(|_| len_err)?;
            let (ct, ss) = ek.encapsulate(rng);
            sink.put(ct.as_bytes())?;
            ss
        }
        Kex::MlKem768X25519Sha256 => {
            let ek = pqdr_mlkem::EncapsulationKey::<MlKem768>::from_slice(pk)
                .map_err(|_| Error::InvalidKey)?;
            let (ct, ss) = ek.encapsulate(rng);
            sink.put(ct.as_bytes())?;
            ss
        }
    };
    sink.put(PublicKey::from(&secret).as_bytes())?;
    Ok(SharedSecret::combine(kex, pq.as_bytes(), &ecdh))
}
