//! HPKE (RFC 9180) with the post-quantum KEMs of draft-ietf-hpke-pq
//! (see the [README](https://docs.rs/crate/pqdr-hpke) for the examples, the
//! known answers and the interoperability checks).
//!
//! KEMs: DHKEM(X25519, HKDF-SHA256), ML-KEM-768, ML-KEM-1024,
//! MLKEM768-X25519 (X-Wing), MLKEM768-P256, MLKEM1024-P384. KDFs:
//! HKDF-SHA256/384/512 and the one-stage SHAKE128 / SHAKE256. AEADs:
//! AES-128-GCM, AES-256-GCM, ChaCha20Poly1305, export-only. Modes base and
//! psk. `no_std`; no heap (caller buffers; feature `alloc` adds
//! `seal_to_vec` / `open_to_vec`).
//!
//! ```
//! use pqdr_hpke::{Aead, Kdf, Kem, PrivateKey, PublicKey, Recipient, Sender, Suite};
//! # fn main() -> Result<(), pqdr_hpke::Error> {
//! # let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let suite = Suite { kem: Kem::XWing, kdf: Kdf::HkdfSha256, aead: Aead::ChaCha20Poly1305 };
//! // Recipient: a key pair; the public key is published.
//! let sk = PrivateKey::generate(suite.kem, &mut rng)?;
//! let pk = PublicKey::from_bytes(suite.kem, sk.public_key().as_bytes())?;
//! // Sender: encapsulate, then seal into a caller buffer.
//! let (enc, mut sender) = Sender::new(&suite, &pk, b"app info", None, &mut rng)?;
//! let mut ct = [0u8; 5 + pqdr_hpke::TAG_SIZE];
//! sender.seal(b"aad", b"hello", &mut ct)?;
//! // Recipient: decapsulate `enc`, open.
//! let mut r = Recipient::new(&suite, &sk, enc.as_bytes(), b"app info", None)?;
//! let mut pt = [0u8; 5];
//! r.open(b"aad", &ct, &mut pt)?;
//! assert_eq!(&pt, b"hello");
//! # Ok(()) }
//! ```
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;

mod aead;
mod context;
mod error;
mod kdf;
mod kem;
mod suite;

pub use context::{Psk, Recipient, Sender};
pub use error::{Error, Object};
pub use kem::{Enc, PrivateKey, PublicKey};
pub use suite::{
    Aead, Kdf, Kem, MAX_ENC_SIZE, MAX_PRIVATE_KEY_SIZE, MAX_PUBLIC_KEY_SIZE, Suite, TAG_SIZE,
};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
