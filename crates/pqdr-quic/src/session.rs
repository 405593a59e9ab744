//! quinn's `crypto::Session` for PQDR-QUIC (docs/protocol/quic.md §1–2): the
//! TLS 1.3 handshake is quinn's rustls session, unchanged; once 1-RTT keys
//! are due, the ratchet takes over the 1-RTT packet and header protection.

use core::any::Any;
use std::sync::Arc;

use pqdr_ratchet::Role;
use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use quinn::crypto::{
    self, ExportKeyingMaterialError, HeaderKey, KeyPair, Keys, PacketKey, UnsupportedVersion,
};
use quinn::{ConnectError, ConnectionId, Side};
use quinn_proto::TransportError;
use quinn_proto::transport_parameters::TransportParameters;

use crate::keys::{self, EXPORTER_CONTEXT, EXPORTER_LABEL, Shared};
use crate::{Config, Error};

/// The ALPN identifier of PQDR-QUIC version 1 (docs/protocol/quic.md §4): alone,
/// or followed by `+` and the application's protocol.
pub const ALPN: &[u8] = b"pqdr-quic/1";

/// The protocols a side offers (client) or accepts (server), most preferred first.
pub(crate) fn alpn_list(app: &[Vec<u8>], allow_plain: bool) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = if app.is_empty() {
        vec![ALPN.to_vec()]
    } else {
        app.iter()
            .map(|p| [ALPN, b"+", p.as_slice()].concat())
            .collect()
    };
    if allow_plain {
        out.extend(app.iter().cloned());
    }
    out
}

/// The application protocol inside a negotiated ALPN value, and whether it is PQDR-QUIC.
pub(crate) fn split_alpn(negotiated: &[u8]) -> (bool, Vec<u8>) {
    match negotiated.strip_prefix(ALPN) {
        Some([]) => (true, Vec::new()),
        Some([b'+', rest @ ..]) => (true, rest.to_vec()),
        _ => (false, negotiated.to_vec()),
    }
}

/// What `quinn::Connection::handshake_data` returns for a `pqdr-quic` connection.
#[derive(Clone)]
#[non_exhaustive]
pub struct HandshakeData {
    /// The application protocol negotiated by ALPN (without the PQDR-QUIC prefix).
    pub protocol: Option<Vec<u8>>,
    /// The server name the client sent (server side only).
    pub server_name: Option<String>,
    /// Whether 1-RTT packets are protected by the pqdr ratchet.
    pub pqdr: bool,
    pub(crate) shared: Arc<Shared>,
}

impl core::fmt::Debug for HandshakeData {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HandshakeData")
            .field("protocol", &self.protocol)
            .field("server_name", &self.server_name)
            .field("pqdr", &self.pqdr)
            .finish_non_exhaustive()
    }
}

/// Where the 1-RTT protection stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// 1-RTT keys not reached yet.
    Handshake,
    /// 1-RTT under the ratchet.
    Pqdr,
    /// The peer negotiated plain QUIC and `allow_plain` let it.
    Plain,
}

/// The session wrapper: the TLS session plus the ratchet's shared state.
pub(crate) struct PqdrSession {
    inner: Box<dyn crypto::Session>,
    shared: Arc<Shared>,
    /// How many key sets `write_handshake` returned (the 2nd is 1-RTT, RFC 9001 §4.1.4).
    key_sets: u8,
    mode: Mode,
}

impl PqdrSession {
    fn new(inner: Box<dyn crypto::Session>, side: Side, cfg: &Config) -> Self {
        // Roles from QUIC roles (docs/protocol/quic.md §2.1): the client sent the
        // first handshake message.
        let role = match side {
            Side::Client => Role::Initiator,
            Side::Server => Role::Responder,
        };
        PqdrSession {
            inner,
            shared: Shared::new(cfg.ratchet, role),
            key_sets: 0,
            mode: Mode::Handshake,
        }
    }

    fn negotiated(&self) -> Option<(bool, Vec<u8>, Option<String>)> {
        let data = self.inner.handshake_data()?;
        let data = data.downcast::<crypto::rustls::HandshakeData>().ok()?;
        let (pqdr, proto) = data
            .protocol
            .as_deref()
            .map_or((false, Vec::new()), split_alpn);
        Some((pqdr, proto, data.server_name.clone()))
    }

    /// Installs the ratchet once the TLS exporter is available (RFC 8446 §7.5:
    /// the client has it with its 1-RTT keys, the server once the client's
    /// Finished arrived).
    fn try_install(&mut self) -> Result<(), TransportError> {
        if self.mode != Mode::Pqdr || self.shared.installed() {
            return Ok(());
        }
        let mut secret = [0u8; 32];
        if self
            .inner
            .export_keying_material(&mut secret, EXPORTER_LABEL, EXPORTER_CONTEXT)
            .is_err()
        {
            return Ok(());
        }
        let r = self.shared.install(&secret);
        secret.fill(0);
        r.map_err(|e| TransportError {
            code: quinn::TransportErrorCode::INTERNAL_ERROR,
            frame: None,
            reason: format!("pqdr ratchet: {e}"),
        })
    }
}

impl crypto::Session for PqdrSession {
    fn initial_keys(&self, dst_cid: &ConnectionId, side: Side) -> Keys {
        self.inner.initial_keys(dst_cid, side)
    }

    fn handshake_data(&self) -> Option<Box<dyn Any>> {
        let (pqdr, proto, server_name) = self.negotiated()?;
        Some(Box::new(HandshakeData {
            protocol: (!proto.is_empty() || pqdr).then_some(proto),
            server_name,
            pqdr,
            shared: self.shared.clone(),
        }))
    }

    fn peer_identity(&self) -> Option<Box<dyn Any>> {
        self.inner.peer_identity()
    }

    /// No 0-RTT: its packets would be under TLS keys, not the ratchet's.
    fn early_crypto(&self) -> Option<(Box<dyn HeaderKey>, Box<dyn PacketKey>)> {
        None
    }

    fn early_data_accepted(&self) -> Option<bool> {
        self.inner.early_data_accepted()
    }

    fn is_handshaking(&self) -> bool {
        self.inner.is_handshaking()
    }

    fn read_handshake(&mut self, buf: &[u8]) -> Result<bool, TransportError> {
        let r = self.inner.read_handshake(buf)?;
        self.try_install()?;
        Ok(r)
    }

    fn transport_parameters(&self) -> Result<Option<TransportParameters>, TransportError> {
        self.inner.transport_parameters()
    }

    fn write_handshake(&mut self, buf: &mut Vec<u8>) -> Option<Keys> {
        let keys = self.inner.write_handshake(buf)?;
        self.key_sets = self.key_sets.saturating_add(1);
        if self.key_sets != 2 {
            return Some(keys);
        }
        // 1-RTT keys: ALPN has been negotiated by now (RFC 9001 §8.1).
        let pqdr = self.negotiated().is_some_and(|(p, _, _)| p);
        if !pqdr {
            self.mode = Mode::Plain;
            return Some(keys);
        }
        self.mode = Mode::Pqdr;
        // The TLS 1-RTT keys are dropped unused.
        drop(keys);
        // An exporter failure here is retried on the next handshake read.
        let _ = self.try_install();
        Some(Keys {
            header: keys::header_pair(&self.shared),
            packet: keys::packet_pair(&self.shared),
        })
    }

    fn next_1rtt_keys(&mut self) -> Option<KeyPair<Box<dyn PacketKey>>> {
        match self.mode {
            Mode::Pqdr => Some(keys::packet_pair(&self.shared)),
            _ => self.inner.next_1rtt_keys(),
        }
    }

    fn is_valid_retry(&self, orig_dst_cid: &ConnectionId, header: &[u8], payload: &[u8]) -> bool {
        self.inner.is_valid_retry(orig_dst_cid, header, payload)
    }

    fn export_keying_material(
        &self,
        output: &mut [u8],
        label: &[u8],
        context: &[u8],
    ) -> Result<(), ExportKeyingMaterialError> {
        self.inner.export_keying_material(output, label, context)
    }
}

/// quinn's client crypto configuration with PQDR-QUIC sessions.
struct ClientCrypto {
    inner: Arc<QuicClientConfig>,
    cfg: Config,
}

impl crypto::ClientConfig for ClientCrypto {
    fn start_session(
        self: Arc<Self>,
        version: u32,
        server_name: &str,
        params: &TransportParameters,
    ) -> Result<Box<dyn crypto::Session>, ConnectError> {
        let inner =
            crypto::ClientConfig::start_session(self.inner.clone(), version, server_name, params)?;
        Ok(Box::new(PqdrSession::new(inner, Side::Client, &self.cfg)))
    }
}

/// quinn's server crypto configuration with PQDR-QUIC sessions.
struct ServerCrypto {
    inner: Arc<QuicServerConfig>,
    cfg: Config,
}

impl crypto::ServerConfig for ServerCrypto {
    fn initial_keys(
        &self,
        version: u32,
        dst_cid: &ConnectionId,
    ) -> Result<Keys, UnsupportedVersion> {
        self.inner.initial_keys(version, dst_cid)
    }

    fn retry_tag(&self, version: u32, orig_dst_cid: &ConnectionId, packet: &[u8]) -> [u8; 16] {
        self.inner.retry_tag(version, orig_dst_cid, packet)
    }

    fn start_session(
        self: Arc<Self>,
        version: u32,
        params: &TransportParameters,
    ) -> Box<dyn crypto::Session> {
        let inner = crypto::ServerConfig::start_session(self.inner.clone(), version, params);
        Box::new(PqdrSession::new(inner, Side::Server, &self.cfg))
    }
}

/// A quinn client configuration whose connections run PQDR-QUIC: the TLS
/// handshake with `tls` (its ALPN list is wrapped, docs/protocol/quic.md §4; no
/// 0-RTT), then every 1-RTT packet under the ratchet.
///
/// # Errors
/// [`Error::TlsConfig`] if `tls` cannot run QUIC (no TLS 1.3 or no
/// TLS_AES_128_GCM_SHA256 for the Initial packets).
pub fn client_config(
    mut tls: rustls::ClientConfig,
    cfg: Config,
) -> Result<quinn::ClientConfig, Error> {
    tls.alpn_protocols = alpn_list(&tls.alpn_protocols, cfg.allow_plain);
    tls.enable_early_data = false;
    let inner = QuicClientConfig::try_from(tls).map_err(|e| Error::TlsConfig(e.to_string()))?;
    Ok(quinn::ClientConfig::new(Arc::new(ClientCrypto {
        inner: Arc::new(inner),
        cfg,
    })))
}

/// A quinn server configuration whose connections run PQDR-QUIC (see
/// [`client_config`]).
///
/// # Errors
/// As [`client_config`].
pub fn server_config(
    mut tls: rustls::ServerConfig,
    cfg: Config,
) -> Result<quinn::ServerConfig, Error> {
    tls.alpn_protocols = alpn_list(&tls.alpn_protocols, cfg.allow_plain);
    tls.max_early_data_size = 0;
    let inner = QuicServerConfig::try_from(tls).map_err(|e| Error::TlsConfig(e.to_string()))?;
    Ok(quinn::ServerConfig::with_crypto(Arc::new(ServerCrypto {
        inner: Arc::new(inner),
        cfg,
    })))
}
