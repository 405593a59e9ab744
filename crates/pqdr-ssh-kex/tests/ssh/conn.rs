//! A blocking SSH connection on a `TcpStream`, both roles, up to the
//! encrypted SERVICE_REQUEST / SERVICE_ACCEPT and one USERAUTH exchange.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use pqdr_ssh_kex::hostkey::HostKey;
use pqdr_ssh_kex::hybrid::ClientShare;
use pqdr_ssh_kex::kex::{self, Hello, Outcome};
use pqdr_ssh_kex::kexinit::{self, KexInit, Role};
use pqdr_ssh_kex::packet::Transport;
use pqdr_ssh_kex::version::{self, Line};
use pqdr_ssh_kex::wire::{Reader, Sink};
use pqdr_ssh_kex::{Error, Kex, msg};

pub type Rng = rand_core::UnwrapErr<getrandom::SysRng>;

pub fn rng() -> Rng {
    rand_core::UnwrapErr(getrandom::SysRng)
}

/// An SSH error or an I/O error.
#[derive(Debug)]
pub enum ConnError {
    Ssh(Error),
    Io(#[allow(dead_code, reason = "read through Debug")] std::io::Error),
}

impl From<Error> for ConnError {
    fn from(e: Error) -> Self {
        Self::Ssh(e)
    }
}

impl From<std::io::Error> for ConnError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

pub type Result<T> = core::result::Result<T, ConnError>;

pub struct Conn {
    pub stream: TcpStream,
    pub transport: Transport,
    pub rng: Rng,
    /// Inside a strict initial key exchange (until NEWKEYS).
    pub strict_kex: bool,
}

/// What a finished handshake tells the test.
#[derive(Debug)]
pub struct Done {
    pub peer_version: Vec<u8>,
    pub kex: Kex,
    /// Strict key exchange was negotiated (and the sequence numbers reset).
    pub strict: bool,
    pub outcome: Outcome,
    /// Server: the service the client asked for; client: the one accepted.
    pub service: Vec<u8>,
    /// Server: the client's USERAUTH_REQUEST user and method;
    /// client: whether the server answered USERAUTH_SUCCESS.
    pub userauth: Option<(Vec<u8>, Vec<u8>)>,
    pub auth_success: bool,
}

impl Conn {
    pub fn new(stream: TcpStream) -> Self {
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.set_nodelay(true).unwrap();
        Self {
            stream,
            transport: Transport::new(),
            rng: rng(),
            strict_kex: false,
        }
    }

    /// One line up to LF (at most 1024 bytes).
    fn read_line(&mut self) -> Result<Vec<u8>> {
        let mut line = Vec::new();
        let mut b = [0u8; 1];
        while line.len() < 1024 {
            self.stream.read_exact(&mut b)?;
            line.push(b[0]);
            if b[0] == b'\n' {
                return Ok(line);
            }
        }
        Err(Error::Version.into())
    }

    /// Sends our identification and reads the peer's (RFC 4253 §4.2).
    pub fn exchange_versions(&mut self, is_client: bool) -> Result<Vec<u8>> {
        self.stream.write_all(version::IDENTIFICATION)?;
        for _ in 0..=version::MAX_PRELUDE_LINES {
            let line = self.read_line()?;
            match version::parse_line(&line)? {
                Line::Identification(v) => return Ok(v.to_vec()),
                Line::Other if is_client => {}
                Line::Other => return Err(Error::Version.into()),
            }
        }
        Err(Error::Version.into())
    }

    pub fn send(&mut self, payload: &[u8]) -> Result<()> {
        let wire = self.transport.sealer.seal_to_vec(payload, &mut self.rng)?;
        self.stream.write_all(&wire)?;
        Ok(())
    }

    /// The next payload that is not IGNORE / DEBUG / UNIMPLEMENTED (those
    /// are refused during a strict initial key exchange).
    pub fn recv(&mut self) -> Result<Vec<u8>> {
        let mut buf = [0u8; 4096];
        loop {
            while let Some(p) = self.transport.next_payload()? {
                if p.first().is_some_and(|&n| msg::is_skippable(n)) {
                    if let Some(&actual) = p.first().filter(|_| self.strict_kex) {
                        return Err(Error::UnexpectedMessage {
                            expected: msg::KEX_ECDH_INIT,
                            actual,
                        }
                        .into());
                    }
                    continue;
                }
                return Ok(p);
            }
            let n = self.stream.read(&mut buf)?;
            if n == 0 {
                return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
            }
            self.transport.feed(&buf[..n]);
        }
    }

    fn send_kexinit(&mut self, kexes: &[Kex], role: Role) -> Result<Vec<u8>> {
        let mut cookie = [0u8; 16];
        rand_core::Rng::fill_bytes(&mut self.rng, &mut cookie);
        let mut i = Vec::new();
        kexinit::write_kexinit(&mut i, &cookie, kexes, role)?;
        self.send(&i)?;
        Ok(i)
    }

    /// NEWKEYS both ways (RFC 4253 §7.3), then the new keys; under strict
    /// key exchange the sequence numbers restart at 0.
    fn newkeys(&mut self, send_key: &[u8; 64], recv_key: &[u8; 64]) -> Result<()> {
        self.send(&[msg::NEWKEYS])?;
        self.transport.sealer.set_key(send_key);
        if self.strict_kex {
            self.transport.sealer.reset_sequence_number();
        }
        kex::parse_newkeys(&self.recv()?)?;
        self.transport.opener.set_key(recv_key);
        if self.strict_kex {
            self.transport.opener.reset_sequence_number();
        }
        self.strict_kex = false;
        Ok(())
    }

    /// After both KEXINITs: strict mode requires the peer's KEXINIT to have
    /// been its first packet.
    fn start_strict(&mut self, strict: bool) -> Result<()> {
        if strict && self.transport.opener.sequence_number() != 1 {
            return Err(Error::UnexpectedMessage {
                expected: msg::KEXINIT,
                actual: msg::IGNORE,
            }
            .into());
        }
        self.strict_kex = strict;
        Ok(())
    }

    /// The client's side, up to SERVICE_ACCEPT and, with `userauth`, one
    /// USERAUTH_REQUEST "none".
    pub fn client(stream: TcpStream, kexes: &[Kex], userauth: bool) -> Result<Done> {
        let mut c = Self::new(stream);
        let v_s = c.exchange_versions(true)?;
        let i_c = c.send_kexinit(kexes, Role::Client)?;
        let i_s = c.recv()?;
        let chosen = kexinit::negotiate(&KexInit::parse(&i_c)?, &KexInit::parse(&i_s)?)?;
        c.start_strict(chosen.strict)?;
        if chosen.ignore_guessed_packet {
            c.recv()?;
        }
        let v_c = version::IDENTIFICATION.strip_suffix(b"\r\n").unwrap();
        let hello = Hello {
            v_c,
            v_s: &v_s,
            i_c: &i_c,
            i_s: &i_s,
        };
        let share = ClientShare::generate(chosen.kex, &mut c.rng);
        let mut init = Vec::new();
        kex::write_init(&mut init, &share)?;
        c.send(&init)?;
        let reply = c.recv()?;
        let outcome = kex::client_finish(share, &hello, &reply)?;
        c.newkeys(
            &outcome.keys.client_to_server.clone(),
            &outcome.keys.server_to_client.clone(),
        )?;
        let mut req = Vec::new();
        msg::write_service(&mut req, msg::SERVICE_REQUEST, b"ssh-userauth")?;
        c.send(&req)?;
        let mut accept = c.recv()?;
        while accept.first() == Some(&msg::EXT_INFO) {
            accept = c.recv()?;
        }
        let service = msg::parse_service(&accept, msg::SERVICE_ACCEPT)?.to_vec();
        let mut auth_success = false;
        if userauth {
            let mut req = Vec::new();
            req.put_byte(msg::USERAUTH_REQUEST)?;
            req.put_string(b"pqdr")?;
            req.put_string(b"ssh-connection")?;
            req.put_string(b"none")?;
            c.send(&req)?;
            let answer = c.recv()?;
            auth_success = answer.first() == Some(&msg::USERAUTH_SUCCESS);
        }
        Ok(Done {
            peer_version: v_s,
            kex: chosen.kex,
            strict: chosen.strict,
            outcome,
            service,
            userauth: None,
            auth_success,
        })
    }

    /// The server's side: the exchange, SERVICE_ACCEPT for the client's
    /// request, USERAUTH_SUCCESS for its first USERAUTH_REQUEST; then
    /// waits (briefly) for the client to close.
    pub fn server(stream: TcpStream, kexes: &[Kex], host_key: &HostKey) -> Result<Done> {
        Self::server_with(stream, kexes, host_key, false)
    }

    /// [`server`](Self::server); with `tamper_signature`, one bit of the
    /// host key signature over H is flipped (the peer must refuse it).
    pub fn server_with(
        stream: TcpStream,
        kexes: &[Kex],
        host_key: &HostKey,
        tamper_signature: bool,
    ) -> Result<Done> {
        let mut c = Self::new(stream);
        let v_c = c.exchange_versions(false)?;
        let i_s = c.send_kexinit(kexes, Role::Server)?;
        let i_c = c.recv()?;
        let chosen = kexinit::negotiate(&KexInit::parse(&i_c)?, &KexInit::parse(&i_s)?)?;
        c.start_strict(chosen.strict)?;
        if chosen.ignore_guessed_packet {
            c.recv()?;
        }
        let v_s = version::IDENTIFICATION.strip_suffix(b"\r\n").unwrap();
        let hello = Hello {
            v_c: &v_c,
            v_s,
            i_c: &i_c,
            i_s: &i_s,
        };
        let init = c.recv()?;
        let mut reply = Vec::new();
        let outcome =
            kex::server_respond(chosen.kex, host_key, &hello, &init, &mut c.rng, &mut reply)?;
        if tamper_signature {
            // The signature blob ends the reply: its last byte is in s.
            let last = reply.len() - 1;
            reply[last] ^= 1;
        }
        c.send(&reply)?;
        c.newkeys(
            &outcome.keys.server_to_client.clone(),
            &outcome.keys.client_to_server.clone(),
        )?;
        let service = msg::parse_service(&c.recv()?, msg::SERVICE_REQUEST)?.to_vec();
        let mut accept = Vec::new();
        msg::write_service(&mut accept, msg::SERVICE_ACCEPT, &service)?;
        c.send(&accept)?;
        let req = c.recv()?;
        let mut r: Reader<'_> = msg::expect(&req, msg::USERAUTH_REQUEST)?;
        let user = r.string()?.to_vec();
        let _service = r.string()?;
        let method = r.string()?.to_vec();
        c.send(&[msg::USERAUTH_SUCCESS])?;
        // The peer goes on (a channel request) or closes; either ends it.
        c.stream.set_read_timeout(Some(Duration::from_secs(5)))?;
        let _ = c.recv();
        Ok(Done {
            peer_version: v_c,
            kex: chosen.kex,
            strict: chosen.strict,
            outcome,
            service,
            userauth: Some((user, method)),
            auth_success: true,
        })
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
