#![no_std]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

extern crate alloc;

mod kem;
mod sign;

pub use sign::{KEY_PROVIDER, ML_DSA_44, ML_DSA_65, ML_DSA_87, SUPPORTED_SIG_ALGS, any_mldsa_key};

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use rustls::crypto::{
    ActiveKeyExchange, CompletedKeyExchange, CryptoProvider, SharedSecret, SupportedKxGroup,
};
use rustls::{Error, NamedGroup, ProtocolVersion};

use kem::Kem;

/// A key-exchange group of this crate: rustls' [`SupportedKxGroup`] on one
/// of pqdr's KEMs. TLS 1.3 only (the groups are not defined for TLS 1.2).
struct Group<K>(PhantomData<K>);

impl<K: Kem> fmt::Debug for Group<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pqdr_rustls::{}", K::NAME)
    }
}

impl<K: Kem> SupportedKxGroup for Group<K> {
    /// The client's side: a fresh key and the share for the ClientHello.
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let (secret, share) = K::client_start()?;
        Ok(Box::new(Active::<K> { secret, share }))
    }

    /// The server's side: a KEM's reply depends on the client's share
    /// (an encapsulation to it), so this is not `start` then `complete`.
    fn start_and_complete(&self, peer_pub_key: &[u8]) -> Result<CompletedKeyExchange, Error> {
        let (pub_key, secret) = K::server(peer_pub_key)?;
        Ok(CompletedKeyExchange {
            group: self.name(),
            pub_key,
            secret,
        })
    }

    fn ffdhe_group(&self) -> Option<rustls::ffdhe_groups::FfdheGroup<'static>> {
        None
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::from(K::CODE)
    }

    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

/// The client's state between ClientHello and ServerHello. The secret is
/// wiped on drop by its own type (`pqdr-hybrid`'s `ClientSecret`,
/// `pqdr-mlkem`'s `DecapsulationKey`).
struct Active<K: Kem> {
    secret: K::ClientSecret,
    share: Vec<u8>,
}

impl<K: Kem> ActiveKeyExchange for Active<K> {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        K::client_finish(&self.secret, peer_pub_key)
    }

    fn pub_key(&self) -> &[u8] {
        &self.share
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::from(K::CODE)
    }
}

/// X25519MLKEM768 (`0x11EC`, draft-ietf-tls-ecdhe-mlkem): ML-KEM-768 and
/// X25519 (`pqdr_hybrid::x25519_mlkem768`).
pub static X25519MLKEM768: &dyn SupportedKxGroup = &Group::<kem::X25519MlKem768>(PhantomData);
/// SecP256r1MLKEM768 (`0x11EB`, draft-ietf-tls-ecdhe-mlkem): P-256 and
/// ML-KEM-768 (`pqdr_hybrid::secp256r1_mlkem768`).
pub static SECP256R1MLKEM768: &dyn SupportedKxGroup = &Group::<kem::SecP256r1MlKem768>(PhantomData);
/// SecP384r1MLKEM1024 (`0x11ED`, draft-ietf-tls-ecdhe-mlkem): P-384 and
/// ML-KEM-1024 (`pqdr_hybrid::secp384r1_mlkem1024`).
pub static SECP384R1MLKEM1024: &dyn SupportedKxGroup =
    &Group::<kem::SecP384r1MlKem1024>(PhantomData);
/// MLKEM512 (`0x0200`, draft-ietf-tls-mlkem): ML-KEM-512 alone.
pub static MLKEM512: &dyn SupportedKxGroup = &Group::<kem::MlKem512>(PhantomData);
/// MLKEM768 (`0x0201`, draft-ietf-tls-mlkem): ML-KEM-768 alone.
pub static MLKEM768: &dyn SupportedKxGroup = &Group::<kem::MlKem768>(PhantomData);
/// MLKEM1024 (`0x0202`, draft-ietf-tls-mlkem): ML-KEM-1024 alone.
pub static MLKEM1024: &dyn SupportedKxGroup = &Group::<kem::MlKem1024>(PhantomData);

/// Every group of this crate, in the order [`provider`] prefers them: the
/// three hybrids (X25519MLKEM768 first, as in rustls' and Go's defaults),
/// then pure ML-KEM, strongest first.
pub static ALL_KX_GROUPS: &[&dyn SupportedKxGroup] = &[
    X25519MLKEM768,
    SECP256R1MLKEM768,
    SECP384R1MLKEM1024,
    MLKEM1024,
    MLKEM768,
    MLKEM512,
];

/// rustls' `ring` provider ([`rustls::crypto::ring::default_provider`]) with
/// this crate's groups ([`ALL_KX_GROUPS`]) in front of its classical ones
/// (X25519, P-256, P-384), and ML-DSA authentication added: certificate and
/// CertificateVerify verification through [`SUPPORTED_SIG_ALGS`] (ring's
/// algorithms and [`ML_DSA_44`], [`ML_DSA_65`], [`ML_DSA_87`]) and RFC 9881
/// private keys through [`KEY_PROVIDER`]. Everything else — cipher suites
/// (AEAD), HKDF, the classical signatures, randomness — is `ring`'s,
/// unchanged.
///
/// A client sends a key share for the first group only (X25519MLKEM768);
/// a server that supports none of the hybrids answers with a
/// HelloRetryRequest for a group the client listed (rustls' own behaviour).
///
/// ```
/// use rustls::SignatureScheme;
///
/// let provider = pqdr_rustls::provider();
/// assert_eq!(u16::from(provider.kx_groups[0].name()), 0x11EC);
/// assert_eq!(provider.kx_groups.len(), 6 + 3);
/// let schemes = provider.signature_verification_algorithms.supported_schemes();
/// assert!(schemes.contains(&SignatureScheme::ML_DSA_65));
/// ```
pub fn provider() -> CryptoProvider {
    let mut provider = rustls::crypto::ring::default_provider();
    let mut groups = ALL_KX_GROUPS.to_vec();
    groups.extend(provider.kx_groups);
    provider.kx_groups = groups;
    provider.signature_verification_algorithms = SUPPORTED_SIG_ALGS;
    provider.key_provider = KEY_PROVIDER;
    provider
}
