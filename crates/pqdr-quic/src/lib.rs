//! PQDR inside QUIC: [quinn](https://docs.rs/quinn) 0.11 with the TLS 1.3
//! handshake of rustls (the post-quantum groups of `pqdr-rustls` recommended)
//! and every 1-RTT packet protected by the pqdr ratchet's L1 key schedule:
//! the packet key of packet number `pn` is the ratchet's key for counter
//! `pn`, ML-KEM-768 ratchets run inside the connection (their control frames
//! in RFC 9221 DATAGRAM frames), and the key phase bit is the epoch's parity.
//! The protocol is specified in `docs/protocol/quic.md`.
//!
//! Feature `quinn` (default) is the QUIC stack; without it the crate is only
//! the control-frame walk of [`frames`] (docs/protocol/quic.md §3), built
//! without quinn, rustls, ring or tokio.
//!
//! A quinn user changes the configuration builders and wraps the connection:
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use rustls::pki_types::pem::PemObject;
//! use rustls::pki_types::{CertificateDer, PrivateKeyDer};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
//! let provider = Arc::new(pqdr_rustls::provider());
//! let chain = CertificateDer::pem_file_iter(format!("{dir}/server.pem"))?.collect::<Result<Vec<_>, _>>()?;
//! let key = PrivateKeyDer::from_pem_file(format!("{dir}/server.key"))?;
//! let tls = rustls::ServerConfig::builder_with_provider(provider.clone())
//!     .with_protocol_versions(&[&rustls::version::TLS13])?
//!     .with_no_client_auth()
//!     .with_single_cert(chain, key)?;
//! let mut roots = rustls::RootCertStore::empty();
//! roots.add(CertificateDer::from_pem_file(format!("{dir}/ca.pem"))?)?;
//! let client_tls = rustls::ClientConfig::builder_with_provider(provider)
//!     .with_protocol_versions(&[&rustls::version::TLS13])?
//!     .with_root_certificates(roots)
//!     .with_no_client_auth();
//!
//! let cfg = pqdr_quic::Config::default();
//! let server = pqdr_quic::Endpoint::server(pqdr_quic::server_config(tls, cfg)?, "127.0.0.1:0".parse()?)?;
//! let addr = server.quinn().local_addr()?;
//! let client = pqdr_quic::Endpoint::client(pqdr_quic::client_config(client_tls, cfg)?, "127.0.0.1:0".parse()?)?;
//!
//! let accept = tokio::spawn(async move {
//!     let conn = server.accept().await.expect("one connection")?;
//!     let mut s = conn.open_uni().await.map_err(quinn::ConnectionError::from)?;
//!     s.write_all(b"hello, post-quantum QUIC").await.expect("write");
//!     s.finish().expect("finish");
//!     conn.closed().await;
//!     Ok::<_, pqdr_quic::Error>(())
//! });
//! let conn = client.connect(addr, "localhost").await?;
//! assert!(conn.is_pqdr());
//! let mut s = conn.accept_uni().await?;
//! assert_eq!(s.read_to_end(1024).await?, b"hello, post-quantum QUIC");
//! conn.close(0u32.into(), b"done");
//! accept.await??;
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]

#[cfg(feature = "quinn")]
mod connection;
mod error;
pub mod frames;
#[cfg(feature = "quinn")]
mod keys;
#[cfg(feature = "quinn")]
mod session;

#[cfg(feature = "quinn")]
pub use connection::{Connection, Endpoint};
pub use error::Error;
#[cfg(feature = "quinn")]
pub use keys::{EXPORTER_CONTEXT, EXPORTER_LABEL, HP_LABEL, Stats};
pub use pqdr_ratchet;
#[cfg(feature = "quinn")]
pub use quinn;
#[cfg(feature = "quinn")]
pub use session::{ALPN, HandshakeData, client_config, server_config};

/// Configuration of a PQDR-QUIC endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The ratchet's configuration (docs/protocol/ratchet.md §1.2). The default
    /// is the ratchet's, with a KEM ratchet at least every 10 s
    /// (`rekey_after_ms` 9,090 ms, jittered by ±10 %) and `max_jump` 2^28
    /// (docs/protocol/quic.md §2.2).
    pub ratchet: pqdr_ratchet::Config,
    /// Accept a peer that negotiates plain QUIC (no PQDR-QUIC ALPN): such a
    /// connection is ordinary quinn + rustls. Default `false`: refused.
    pub allow_plain: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            ratchet: pqdr_ratchet::Config {
                rekey_after_ms: 9_090,
                max_jump: 1 << 28,
                ..pqdr_ratchet::Config::default()
            },
            allow_plain: false,
        }
    }
}

impl Config {
    /// The default with a KEM ratchet at least every `ms` milliseconds: the
    /// ratchet's trigger is jittered by ±10 % (docs/protocol/ratchet.md §1.7), so
    /// `rekey_after_ms` is set to `ms · 10 / 11`.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "a public configuration value"
    )]
    pub fn with_rekey_after_ms(ms: u64) -> Self {
        let mut c = Config::default();
        c.ratchet.rekey_after_ms = (ms.saturating_mul(10) / 11).max(1);
        c.ratchet.min_ratchet_interval_ms = c.ratchet.min_ratchet_interval_ms.min(ms);
        c
    }
}

/// Test-only (feature `test-utils`): reads the packet path's cached clock
/// (docs/protocol/quic.md §2.2) at `start + offset` for each offset in
/// `offsets_us` (microseconds, non-decreasing) and returns, for each, the
/// cached value and the milliseconds computed directly (they must be equal).
#[cfg(feature = "test-utils")]
#[doc(hidden)]
pub fn clock_trace(offsets_us: &[u64]) -> Vec<(u64, u64)> {
    let start = std::time::Instant::now();
    let mut clock = keys::Clock::new(start);
    offsets_us
        .iter()
        .map(|&us| {
            let t = start + core::time::Duration::from_micros(us);
            (clock.read(start, t).0, keys::ms_since(start, t).0)
        })
        .collect()
}

/// Test-only (feature `test-utils`): the 1-RTT packet key and header key of
/// one side of a PQDR-QUIC connection whose TLS exporter value is `secret`
/// (docs/protocol/quic.md §2.1; `client` picks the QUIC role), without quinn:
/// for `tests/ct_valgrind.rs`.
///
/// # Errors
/// As the ratchet's `KeySchedule::new`.
#[cfg(feature = "test-utils")]
#[doc(hidden)]
#[allow(clippy::type_complexity, reason = "test-only")]
pub fn test_keys(
    secret: &[u8; 32],
    client: bool,
) -> Result<
    (
        Box<dyn quinn::crypto::PacketKey>,
        Box<dyn quinn::crypto::HeaderKey>,
    ),
    pqdr_ratchet::Error,
> {
    let role = if client {
        pqdr_ratchet::Role::Initiator
    } else {
        pqdr_ratchet::Role::Responder
    };
    let shared = keys::Shared::new(Config::default().ratchet, role);
    shared.install(secret)?;
    Ok((
        Box::new(keys::RatchetPacketKey(shared.clone())),
        Box::new(keys::RatchetHeaderKey(shared)),
    ))
}

/// The operating system's generator, as the ratchet's `CryptoRng`.
#[cfg(feature = "quinn")]
pub(crate) fn rng() -> rand_core::UnwrapErr<getrandom::SysRng> {
    rand_core::UnwrapErr(getrandom::SysRng)
}
