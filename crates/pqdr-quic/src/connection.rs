//! The application side: [`Connection`] (a `quinn::Connection` plus the task
//! that carries the ratchet's control frames, docs/protocol/quic.md §3) and
//! [`Endpoint`] (quinn's, returning [`Connection`]s).

use core::net::SocketAddr;
use core::time::Duration;
use std::sync::Arc;

use pqdr_ratchet::Status;

use crate::keys::{Shared, Stats};
use crate::{Error, HandshakeData, frames};

/// Longest wait of the control driver between two looks at the ratchet.
const MAX_IDLE: Duration = Duration::from_millis(250);

/// A QUIC connection whose 1-RTT packets are protected by the pqdr ratchet.
/// Dereferences to the `quinn::Connection` (streams, datagrams of the
/// application are not supported yet, close, stats).
#[derive(Debug)]
pub struct Connection {
    inner: quinn::Connection,
    shared: Option<Arc<Shared>>,
}

impl core::fmt::Debug for Shared {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Shared")
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Takes over an established `quinn::Connection` made with
    /// [`crate::client_config`] / [`crate::server_config`] and starts the task
    /// that sends the ratchet's control datagrams (it needs a tokio runtime and
    /// ends with the connection).
    ///
    /// # Errors
    /// [`Error::NotPqdr`] if the connection was not made with this crate's
    /// configuration; a plain-QUIC peer is accepted only when
    /// `Config::allow_plain` was set (then [`Connection::is_pqdr`] is false).
    pub fn new(inner: quinn::Connection) -> Result<Self, Error> {
        let data = inner
            .handshake_data()
            .and_then(|d| d.downcast::<HandshakeData>().ok())
            .ok_or(Error::NotPqdr)?;
        if !data.pqdr {
            return Ok(Connection {
                inner,
                shared: None,
            });
        }
        let shared = data.shared.clone();
        tokio::spawn(drive(inner.clone(), shared.clone()));
        Ok(Connection {
            inner,
            shared: Some(shared),
        })
    }

    /// A second handle on the same connection (no second control driver).
    pub fn clone_handle(&self) -> Connection {
        Connection {
            inner: self.inner.clone(),
            shared: self.shared.clone(),
        }
    }

    /// Whether 1-RTT packets are protected by the ratchet.
    pub fn is_pqdr(&self) -> bool {
        self.shared.is_some()
    }

    /// The underlying quinn connection.
    pub fn quinn(&self) -> &quinn::Connection {
        &self.inner
    }

    /// The ratchet's status (epoch, ratchets completed, …), `None` on plain QUIC
    /// or before the ratchet is installed.
    pub fn ratchet_status(&self) -> Option<Status> {
        let shared = self.shared.as_ref()?;
        let now = shared.now();
        shared.lock().ks.as_ref().map(|ks| ks.status(now))
    }

    /// Packet counters of the protection layer (all zero on plain QUIC).
    pub fn stats(&self) -> Stats {
        self.shared
            .as_ref()
            .map(|s| s.lock().stats)
            .unwrap_or_default()
    }

    /// Asks for a KEM ratchet now (docs/protocol/ratchet.md §1.7: it may wait for
    /// the owner and the rate limit).
    pub fn request_ratchet(&self) {
        if let Some(shared) = &self.shared {
            if let Some(ks) = shared.lock().ks.as_mut() {
                ks.request_ratchet();
            }
            shared.notify.notify_one();
        }
    }

    /// Test-only: the ratchet's whole state and the header-protection key
    /// (feature `test-utils`; never in production).
    #[cfg(feature = "test-utils")]
    pub fn leak(&self) -> Option<(pqdr_ratchet::testing::Leak, [u8; 32])> {
        let shared = self.shared.as_ref()?;
        let hp = *shared.hp_raw.get()?;
        let leak = shared.lock().ks.as_ref()?.leak();
        Some((leak, hp))
    }
}

impl core::ops::Deref for Connection {
    type Target = quinn::Connection;

    fn deref(&self) -> &quinn::Connection {
        &self.inner
    }
}

/// The control driver (docs/protocol/quic.md §3.2): timers, then every control
/// frame that is due, as DATAGRAM frames; wakes on the ratchet's next timeout,
/// on control frames received, or after `MAX_IDLE`.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "tokio::select! picks its first branch with `%` on a public counter"
)]
async fn drive(conn: quinn::Connection, shared: Arc<Shared>) {
    let mut buf = vec![0u8; 1500];
    loop {
        let mut out: Vec<bytes::Bytes> = Vec::new();
        let mut close = None;
        // quinn's connection lock is taken before ours, never inside it: quinn
        // calls the packet keys (our lock) with its own lock held.
        let room = conn
            .max_datagram_size()
            .unwrap_or(0)
            .saturating_sub(1)
            .min(buf.len());
        let wait = {
            let now = shared.now();
            let mut st = shared.lock();
            if let Some(e) = st.send_error.take() {
                close = Some(e);
            }
            match st.ks.as_mut() {
                Some(ks) => {
                    ks.on_time(now, &mut crate::rng());
                    while room > 0 && out.len() < 16 {
                        let n = ks.poll_control(now, &mut buf[..room]);
                        if n == 0 {
                            break;
                        }
                        out.push(frames::encode_control(&buf[..n]));
                    }
                    while ks.poll_event().is_some() {}
                    let next = ks.next_timeout().map_or(MAX_IDLE, |t| {
                        Duration::from_millis(t.0.saturating_sub(now.0))
                    });
                    st.stats.control_out += out.len() as u64;
                    next.min(MAX_IDLE)
                }
                None => MAX_IDLE,
            }
        };
        if let Some(e) = close {
            conn.close(
                quinn::VarInt::from_u32(0x50),
                format!("pqdr ratchet: {e}").as_bytes(),
            );
            return;
        }
        for d in out {
            // A full send buffer or a closed connection: the ratchet resends.
            let _ = conn.send_datagram(d);
        }
        tokio::select! {
            _ = conn.closed() => return,
            () = shared.notify.notified() => {}
            () = tokio::time::sleep(wait.max(Duration::from_millis(1))) => {}
        }
    }
}

/// A quinn endpoint whose connections are [`Connection`]s.
#[derive(Debug, Clone)]
pub struct Endpoint {
    inner: quinn::Endpoint,
}

impl Endpoint {
    /// A server endpoint on `addr` (see [`crate::server_config`]).
    ///
    /// # Errors
    /// [`Error::Io`] if the socket cannot be bound.
    pub fn server(config: quinn::ServerConfig, addr: SocketAddr) -> Result<Self, Error> {
        Ok(Endpoint {
            inner: quinn::Endpoint::server(config, addr)?,
        })
    }

    /// A client endpoint on `addr` with `config` as its default (see [`crate::client_config`]).
    ///
    /// # Errors
    /// [`Error::Io`] if the socket cannot be bound.
    pub fn client(config: quinn::ClientConfig, addr: SocketAddr) -> Result<Self, Error> {
        let mut inner = quinn::Endpoint::client(addr)?;
        inner.set_default_client_config(config);
        Ok(Endpoint { inner })
    }

    /// The underlying quinn endpoint.
    pub fn quinn(&self) -> &quinn::Endpoint {
        &self.inner
    }

    /// Connects to `addr` (certificate checked for `server_name`) and completes the handshake.
    ///
    /// # Errors
    /// [`Error::Connect`], [`Error::Connection`], or [`Error::NotPqdr`] (see [`Connection::new`]).
    pub async fn connect(&self, addr: SocketAddr, server_name: &str) -> Result<Connection, Error> {
        let conn = self.inner.connect(addr, server_name)?.await?;
        Connection::new(conn)
    }

    /// The next incoming connection, handshake completed; `None` once the endpoint is closed.
    ///
    /// # Errors
    /// As [`Endpoint::connect`].
    pub async fn accept(&self) -> Option<Result<Connection, Error>> {
        let incoming = self.inner.accept().await?;
        Some(match incoming.await {
            Ok(c) => Connection::new(c),
            Err(e) => Err(e.into()),
        })
    }
}
