//! Each group's key exchange as a KEM: the client makes a key share and keeps
//! a secret, the server answers a client share with its own share and the
//! shared secret, the client finishes with the server's share. The group
//! modules of `pqdr-hybrid` and `pqdr-mlkem` do the cryptography; this file
//! only draws their randomness, passes bytes and maps their errors.

use alloc::vec::Vec;

use pqdr_hybrid::{secp256r1_mlkem768 as p256, secp384r1_mlkem1024 as p384, x25519_mlkem768 as x};
use pqdr_mlkem::{ml_kem_512, ml_kem_768, ml_kem_1024};
use rustls::crypto::SharedSecret;
use rustls::{Error, PeerMisbehaved};
use zeroize::Zeroizing;

/// A TLS 1.3 key exchange done as a KEM (RFC 9954 §3: the client's share
/// is an encapsulation key, the server's a ciphertext).
pub(crate) trait Kem: Send + Sync + 'static {
    /// The TLS `NamedGroup` code point.
    const CODE: u16;
    /// The group's name in `Debug` output.
    const NAME: &'static str;
    /// What the client keeps between ClientHello and ServerHello.
    type ClientSecret: Send + Sync;

    /// A fresh client secret and its `key_exchange` bytes.
    fn client_start() -> Result<(Self::ClientSecret, Vec<u8>), Error>;

    /// The client's shared secret from the server's `key_exchange`.
    fn client_finish(secret: &Self::ClientSecret, server: &[u8]) -> Result<SharedSecret, Error>;

    /// The server's `key_exchange` and shared secret for a client's share.
    fn server(client: &[u8]) -> Result<(Vec<u8>, SharedSecret), Error>;
}

/// `N` bytes from the operating system's generator, wiped on drop.
pub(crate) fn random<const N: usize>() -> Result<Zeroizing<[u8; N]>, Error> {
    let mut seed = Zeroizing::new([0u8; N]);
    getrandom::fill(seed.as_mut()).map_err(|_| Error::FailedToGetRandomBytes)?;
    Ok(seed)
}

/// Every refusal of a peer's share (wrong length, invalid point, low-order
/// X25519 key, an ML-KEM `ek` failing FIPS 203 §7.2) is what rustls calls an
/// invalid key share: it aborts the handshake with `illegal_parameter`
/// (RFC 8446 §4.2.8; draft-ietf-tls-ecdhe-mlkem §4, draft-ietf-tls-mlkem §3).
pub(crate) fn invalid_share<E>(_: E) -> Error {
    Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)
}

/// The three hybrid groups of draft-ietf-tls-ecdhe-mlkem: their modules in
/// `pqdr-hybrid` have the same shape (`ClientSecret`, `ClientShare`,
/// `ServerShare`, `server_respond_deterministic`), only sizes and byte
/// orders differ, and those stay inside `pqdr-hybrid`.
macro_rules! hybrid_kem {
    ($(#[$doc:meta])* $name:ident, $module:ident, $label:literal) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub(crate) struct $name;

        impl Kem for $name {
            const CODE: u16 = $module::NAMED_GROUP;
            const NAME: &'static str = $label;
            type ClientSecret = $module::ClientSecret;

            fn client_start() -> Result<(Self::ClientSecret, Vec<u8>), Error> {
                let seed = random::<{ $module::CLIENT_SEED_SIZE }>()?;
                let secret = $module::ClientSecret::from_seed(&seed);
                let share = secret.share().as_bytes().to_vec();
                Ok((secret, share))
            }

            fn client_finish(
                secret: &Self::ClientSecret,
                server: &[u8],
            ) -> Result<SharedSecret, Error> {
                let share = $module::ServerShare::from_slice(server).map_err(invalid_share)?;
                let ss = secret.finish(&share).map_err(invalid_share)?;
                Ok(SharedSecret::from(&ss.as_bytes()[..]))
            }

            fn server(client: &[u8]) -> Result<(Vec<u8>, SharedSecret), Error> {
                let share = $module::ClientShare::from_slice(client).map_err(invalid_share)?;
                let seed = random::<{ $module::SERVER_SEED_SIZE }>()?;
                let (reply, ss) = $module::server_respond_deterministic(&share, &seed)
                    .map_err(invalid_share)?;
                Ok((reply.as_bytes().to_vec(), SharedSecret::from(&ss.as_bytes()[..])))
            }
        }
    };
}

hybrid_kem!(
    /// X25519MLKEM768 (`0x11EC`): ML-KEM-768 first, then X25519.
    X25519MlKem768, x, "X25519MLKEM768"
);
hybrid_kem!(
    /// SecP256r1MLKEM768 (`0x11EB`): P-256 first, then ML-KEM-768.
    SecP256r1MlKem768, p256, "SecP256r1MLKEM768"
);
hybrid_kem!(
    /// SecP384r1MLKEM1024 (`0x11ED`): P-384 first, then ML-KEM-1024.
    SecP384r1MlKem1024, p384, "SecP384r1MLKEM1024"
);

/// The pure ML-KEM groups of draft-ietf-tls-mlkem §3: the client's share is
/// the encapsulation key `ek`, the server's the ciphertext `ct`, the shared
/// secret ML-KEM's 32-byte `K`. The server refuses an `ek` failing the
/// FIPS 203 §7.2 check (`EncapsulationKey::from_slice`); decapsulation of a
/// ciphertext of the right length never fails (implicit rejection).
macro_rules! mlkem_kem {
    ($(#[$doc:meta])* $name:ident, $module:ident, $code:literal, $label:literal) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub(crate) struct $name;

        impl Kem for $name {
            const CODE: u16 = $code;
            const NAME: &'static str = $label;
            type ClientSecret = $module::DecapsulationKey;

            fn client_start() -> Result<(Self::ClientSecret, Vec<u8>), Error> {
                // FIPS 203 Algorithm 19 with d ‖ z from the system generator.
                let seed = random::<{ $module::SEED_SIZE }>()?;
                let dk = $module::DecapsulationKey::from_seed(&seed);
                let share = dk.encapsulation_key().as_bytes().to_vec();
                Ok((dk, share))
            }

            fn client_finish(
                secret: &Self::ClientSecret,
                server: &[u8],
            ) -> Result<SharedSecret, Error> {
                let ct = $module::Ciphertext::from_slice(server).map_err(invalid_share)?;
                let k = secret.decapsulate(&ct);
                Ok(SharedSecret::from(&k.as_bytes()[..]))
            }

            fn server(client: &[u8]) -> Result<(Vec<u8>, SharedSecret), Error> {
                let ek = $module::EncapsulationKey::from_slice(client).map_err(invalid_share)?;
                // FIPS 203 Algorithm 20 with m from the system generator.
                let m = random::<32>()?;
                let (ct, k) = ek.encapsulate_deterministic(&m);
                Ok((ct.as_bytes().to_vec(), SharedSecret::from(&k.as_bytes()[..])))
            }
        }
    };
}

mlkem_kem!(
    /// MLKEM512 (`0x0200`).
    MlKem512, ml_kem_512, 0x0200, "MLKEM512"
);
mlkem_kem!(
    /// MLKEM768 (`0x0201`).
    MlKem768, ml_kem_768, 0x0201, "MLKEM768"
);
mlkem_kem!(
    /// MLKEM1024 (`0x0202`).
    MlKem1024, ml_kem_1024, 0x0202, "MLKEM1024"
);
