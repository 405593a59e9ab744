//! Handshake glue shared by `handshake_udp`, `ratchet_udp` and `ratchet_tcp`:
//! long-term keys, a one-peer table, the wall clock for TAI64N, the UDP
//! framing of docs/protocol/handshake.md §8, an initiator ([`Dialer`]) and a responder
//! ([`Listener`]) that sort datagrams, and blocking drivers over a connected
//! UDP socket and over a TCP stream.
//!
//! **UDP framing** (docs/protocol/handshake.md §8 "Over UDP"; type `0x11` is our own):
//!
//! | first byte | datagram |
//! |---|---|
//! | `0x01`–`0x04` | one handshake message: msg1, msg2, msg3, cookie reply |
//! | `0x05` | a fragment of a handshake message over 1,232 B (docs/protocol/fragmentation.md; `handshake_udp` only) |
//! | `0x10` | `0x10 ‖ receiver_idx be32 ‖ record`: a ratchet record for the session whose local index is `receiver_idx`; these 5 bytes are the record's `aad` |
//! | `0x11` | `0x11 ‖ be16 len(msg3) ‖ msg3 ‖ (0x10 ‖ receiver_idx ‖ record)`: msg3 and the initiator's first record in one datagram |
//!
//! The session indices are the handshake's: msg3's header is `type ‖ version
//! ‖ suite ‖ sender_idx (the initiator's) ‖ receiver_idx (the responder's)`.
//! A resent msg3 travels alone (`0x03`).
//!
//! **TCP framing**: each handshake message is `be16 len ‖ message` (the same
//! length prefix as the ratchet's stream records); the records follow on the
//! same stream.
#![allow(dead_code, reason = "each example uses part of the glue")]

use std::io::{Read, Write};
use std::net::{TcpStream, UdpSocket};
use std::time::{Duration, Instant as StdInstant, SystemTime, UNIX_EPOCH};

use pqdr_suite::handshake::{
    Auth, Error, Established, Identity, Initiator, InitiatorConfig, Instant, K768, Load, Peer,
    PeerStore, ReplayRecord, Reply, Responder, S65, Tai64N, frag, wire,
};
use pqdr_suite::mldsa::ml_dsa_65;
use pqdr_suite::mlkem::ml_kem_768;
use rand_core::CryptoRng;

/// First byte of a session datagram.
pub(crate) const RECORD: u8 = 0x10;
/// First byte of a msg3 + first record datagram.
pub(crate) const MSG3_RECORD: u8 = 0x11;
/// `0x10 ‖ receiver_idx`: the session frame, also the record's `aad`.
pub(crate) const FRAME: usize = 5;
/// Largest handshake datagram (msg2 of S87 is 5,939 B; msg3 + a record fits too).
pub(crate) const HS_BUF: usize = 8192;

/// Static-key families the examples can generate keys for.
pub(crate) trait DemoAuth:
    Auth<PublicKey: Sized + Clone + Send + Sync, SecretKey: Send>
{
    /// A fresh key pair.
    fn keypair<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::SecretKey, Self::PublicKey);
}

impl DemoAuth for K768 {
    fn keypair<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::SecretKey, Self::PublicKey) {
        ml_kem_768::generate(rng)
    }
}

impl DemoAuth for S65 {
    fn keypair<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::SecretKey, Self::PublicKey) {
        ml_dsa_65::generate(rng)
    }
}

/// What a peer knows about us: the public key and, for `-X`, the X25519 key.
pub(crate) struct PublicKeys<A: DemoAuth> {
    pk: A::PublicKey,
    x25519: Option<[u8; 32]>,
    hybrid: bool,
}

impl<A: DemoAuth> Clone for PublicKeys<A> {
    fn clone(&self) -> Self {
        PublicKeys {
            pk: self.pk.clone(),
            x25519: self.x25519,
            hybrid: self.hybrid,
        }
    }
}

impl<A: DemoAuth> PublicKeys<A> {
    /// The handshake's view of this peer (`-X`: with its X25519 key in KEM
    /// mode, ephemeral X25519 only in SIG mode).
    pub(crate) fn peer(&self) -> Peer<'_, A> {
        let p = Peer::new(&self.pk);
        match (self.hybrid, self.x25519) {
            (false, _) => p,
            (true, Some(x)) => p.with_x25519(x),
            (true, None) => p.hybrid(),
        }
    }
}

/// Our long-term identity and the public half we hand to peers.
pub(crate) struct Keys<A: DemoAuth> {
    pub(crate) id: Identity<A>,
    pub(crate) public: PublicKeys<A>,
}

impl<A: DemoAuth> Keys<A> {
    /// A fresh identity: key pair, σ, and an X25519 key for KEM-mode `-X`.
    pub(crate) fn generate<R: CryptoRng + ?Sized>(hybrid: bool, rng: &mut R) -> Self {
        let (sk, pk) = A::keypair(rng);
        let mut sigma = [0u8; 32];
        rng.fill_bytes(&mut sigma);
        let mut id = Identity::new(sk, &pk, sigma);
        if hybrid {
            let mut x = [0u8; 32];
            rng.fill_bytes(&mut x);
            id = id.with_x25519(&pk, x); // SIG mode: no static X25519 key (a no-op)
        }
        let x25519 = id.x25519_public();
        Keys {
            id,
            public: PublicKeys { pk, x25519, hybrid },
        }
    }
}

/// The responder's peer table: one known initiator and its replay record.
pub(crate) struct OnePeer<A: DemoAuth> {
    peer: PublicKeys<A>,
    hpk: [u8; 32],
    rec: ReplayRecord,
}

impl<A: DemoAuth> OnePeer<A> {
    pub(crate) fn new(peer: PublicKeys<A>) -> Self {
        let hpk = *peer.peer().key_id();
        OnePeer {
            peer,
            hpk,
            rec: ReplayRecord::new(),
        }
    }
}

impl<A: DemoAuth> PeerStore<A> for OnePeer<A> {
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>> {
        (*hpk == self.hpk).then(|| self.peer.peer())
    }
    fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord> {
        (*hpk == self.hpk).then_some(&mut self.rec)
    }
}

/// The wall clock as a TAI64N label (UTC seconds: only its monotonicity per
/// identity matters, and `Initiator::start` keeps it monotonic with `last_sent`).
pub(crate) fn wall_clock() -> Tai64N {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    Tai64N {
        secs: d.as_secs(),
        nanos: d.subsec_nanos(),
    }
}

/// Monotonic milliseconds since `t0` (the handshake's and the ratchet's clock).
pub(crate) fn ms(t0: StdInstant) -> Instant {
    Instant(u64::try_from(t0.elapsed().as_millis()).unwrap_or(u64::MAX))
}

/// `0x10 ‖ receiver_idx`.
pub(crate) fn record_header(receiver_idx: u32) -> [u8; FRAME] {
    let mut h = [RECORD, 0, 0, 0, 0];
    h[1..].copy_from_slice(&receiver_idx.to_be_bytes());
    h
}

/// One received datagram, sorted by its first byte.
#[derive(Debug)]
pub(crate) enum Dgram<'a> {
    /// msg1, msg2, msg3 or a cookie reply.
    Handshake(&'a [u8]),
    /// A session record: index, the 5-byte aad, the record.
    Record {
        idx: u32,
        aad: &'a [u8],
        record: &'a [u8],
    },
    /// msg3 and a whole session datagram (`0x10 ‖ idx ‖ record`).
    Msg3Record { msg3: &'a [u8], framed: &'a [u8] },
    /// Anything else.
    Unknown,
}

/// Sorts a datagram by type (no cryptography).
pub(crate) fn classify(d: &[u8]) -> Dgram<'_> {
    match d.first() {
        Some(&(wire::MSG1 | wire::MSG2 | wire::MSG3 | wire::COOKIE_REPLY)) => Dgram::Handshake(d),
        Some(&RECORD) if d.len() > FRAME => Dgram::Record {
            idx: u32::from_be_bytes([d[1], d[2], d[3], d[4]]),
            aad: &d[..FRAME],
            record: &d[FRAME..],
        },
        Some(&MSG3_RECORD) if d.len() >= 3 => {
            let n = usize::from(u16::from_be_bytes([d[1], d[2]]));
            match (d.get(3..3 + n), d.get(3 + n..)) {
                (Some(msg3), Some(framed)) if msg3.first() == Some(&wire::MSG3) => {
                    Dgram::Msg3Record { msg3, framed }
                }
                _ => Dgram::Unknown,
            }
        }
        _ => Dgram::Unknown,
    }
}

/// `0x11 ‖ be16 len ‖ msg3 ‖ framed` into `out`; returns its length.
pub(crate) fn coalesce(msg3: &[u8], framed: &[u8], out: &mut Vec<u8>) -> usize {
    out.clear();
    out.push(MSG3_RECORD);
    out.extend_from_slice(&u16::try_from(msg3.len()).unwrap_or(0).to_be_bytes());
    out.extend_from_slice(msg3);
    out.extend_from_slice(framed);
    out.len()
}

/// (initiator's index, responder's index) from msg3's header.
pub(crate) fn msg3_indices(msg3: &[u8]) -> (u32, u32) {
    let u = |i: usize| {
        msg3.get(i..i + 4)
            .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    (u(4), u(8))
}

/// Human name of a handshake datagram type.
pub(crate) fn kind_name(d: &[u8]) -> &'static str {
    match d.first() {
        Some(&wire::MSG1) => {
            // mac2 is msg1's last 16 bytes: zero unless a cookie was applied.
            if d.len() >= 16 && d[d.len() - 16..].iter().any(|&b| b != 0) {
                "msg1 (with mac2)"
            } else {
                "msg1"
            }
        }
        Some(&wire::MSG2) => "msg2",
        Some(&wire::MSG3) => "msg3",
        Some(&wire::COOKIE_REPLY) => "cookie reply",
        Some(&MSG3_RECORD) => "msg3 + record",
        // docs/protocol/fragmentation.md: byte 8 is the fragmented message's type.
        Some(&frag::FRAGMENT) => match d.get(8) {
            Some(&wire::MSG1) => "msg1 fragment",
            Some(&wire::MSG2) => "msg2 fragment",
            Some(&wire::MSG3) => "msg3 fragment",
            _ => "fragment",
        },
        Some(&RECORD) => "record",
        _ => "?",
    }
}

/// Sizes and timings of one handshake, as one side saw it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HsStats {
    pub(crate) suite: &'static str,
    pub(crate) msg1: usize,
    pub(crate) msg2: usize,
    pub(crate) msg3: usize,
    pub(crate) msg1_sends: u32,
    pub(crate) cookie_round: bool,
    /// Handshake datagrams sent and received by the initiator.
    pub(crate) datagrams: u32,
    /// From `Initiator::start` to `Established` (msg2 handled).
    pub(crate) established: Duration,
}

impl HsStats {
    /// One line: suite, message sizes, time.
    pub(crate) fn summary(&self) -> String {
        format!(
            "{} msg1 {} B, msg2 {} B, msg3 {} B, {:.2} ms{}",
            self.suite,
            self.msg1,
            self.msg2,
            self.msg3,
            self.established.as_secs_f64() * 1e3,
            if self.cookie_round {
                " (with a cookie round)"
            } else {
                ""
            }
        )
    }
}

/// The initiator's side of one handshake: msg1, its resends and renewals,
/// cookie replies, msg2. `last_sent` is the identity's persisted timestamp.
pub(crate) struct Dialer<A: DemoAuth> {
    init: Initiator<A>,
    label: Vec<u8>,
    started: StdInstant,
    pub(crate) stats: HsStats,
}

impl<A: DemoAuth> Dialer<A> {
    /// Starts an attempt (and "persists" its timestamp in `last_sent`).
    pub(crate) fn start<R: CryptoRng + ?Sized>(
        me: &Keys<A>,
        server: &PublicKeys<A>,
        label: &[u8],
        last_sent: &mut Tai64N,
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        let started = StdInstant::now();
        let cfg = InitiatorConfig::new(server.peer(), label);
        let init = Initiator::start(&cfg, &me.id, wall_clock(), *last_sent, now, rng)?;
        *last_sent = init.sent_timestamp();
        let stats = HsStats {
            suite: init.suite().name(),
            ..HsStats::default()
        };
        Ok(Dialer {
            init,
            label: label.to_vec(),
            started,
            stats,
        })
    }

    /// msg1 if due (renewing the attempt after 8 s without msg2).
    ///
    /// # Errors
    /// [`Error::Timeout`] after 90 s.
    pub(crate) fn poll_transmit<R: CryptoRng + ?Sized>(
        &mut self,
        me: &Keys<A>,
        server: &PublicKeys<A>,
        last_sent: &mut Tai64N,
        now: Instant,
        rng: &mut R,
        out: &mut [u8],
    ) -> Result<Option<usize>, Error> {
        if self.init.expired(now) {
            return Err(Error::Timeout);
        }
        if self.init.needs_renewal(now) {
            let cfg = InitiatorConfig::new(server.peer(), &self.label);
            self.init
                .renew(&cfg, &me.id, wall_clock(), *last_sent, now, rng)?;
            *last_sent = self.init.sent_timestamp();
        }
        let n = self.init.poll_transmit(now, out);
        if let Some(n) = n {
            self.stats.msg1 = n;
            self.stats.msg1_sends += 1;
            self.stats.datagrams += 1;
        }
        Ok(n)
    }

    /// The attempt's fragment keys (msg1 / msg3 out, msg2 in).
    pub(crate) fn frag_keys(&self) -> frag::FragKeys {
        self.init.frag_keys()
    }

    /// When `poll_transmit` next has work.
    pub(crate) fn poll_timeout(&self) -> Option<Instant> {
        self.init.poll_timeout()
    }

    /// A cookie reply (`Ok(None)`) or msg2 (`Ok(Some(Established))`).
    ///
    /// # Errors
    /// The handshake's typed error; drop the datagram, the attempt goes on.
    pub(crate) fn handle<R: CryptoRng + ?Sized>(
        &mut self,
        msg: &[u8],
        me: &Keys<A>,
        now: Instant,
        rng: &mut R,
    ) -> Result<Option<Established>, Error> {
        match msg.first() {
            Some(&wire::COOKIE_REPLY) => {
                self.init.handle_cookie_reply(msg, now)?;
                self.stats.cookie_round = true;
                self.stats.datagrams += 1;
                Ok(None)
            }
            Some(&wire::MSG2) => {
                let est = self.init.handle_msg2(msg, &me.id, now, rng)?;
                self.stats.msg2 = msg.len();
                self.stats.msg3 = est.msg3().map_or(0, <[u8]>::len);
                self.stats.datagrams += 2; // msg2 in, msg3 out
                self.stats.established = self.started.elapsed();
                Ok(Some(est))
            }
            _ => Err(Error::MessageType),
        }
    }
}

/// What [`Listener::handle`] made of a datagram.
pub(crate) enum Heard<'d> {
    /// Send `out[..n]` (msg2 or a cookie reply) back to the source.
    Reply(usize),
    /// msg3 completed a handshake: start the session; `framed` is the first
    /// record (`0x10 ‖ idx ‖ record`) if it came in the same datagram.
    Session {
        est: Box<Established>,
        local: u32,
        peer: u32,
        framed: Option<&'d [u8]>,
    },
    /// The same msg3 again: the session `local` exists (answer with a keepalive).
    Duplicate {
        local: u32,
        framed: Option<&'d [u8]>,
    },
    /// A session record for the caller's sessions.
    Record(&'d [u8]),
    /// Refused (typed error); drop it.
    Dropped(Error),
}

/// The responder's side: answers msg1 statelessly, completes on msg3.
pub(crate) struct Listener<A: DemoAuth> {
    resp: Responder<A>,
    table: OnePeer<A>,
    /// Normal, or Under (cookies demanded before any KEM work).
    pub(crate) load: Load,
    pub(crate) cookies_sent: u32,
    pub(crate) msg2_sent: u32,
}

impl<A: DemoAuth> Listener<A> {
    /// A responder for `me` that knows one initiator, `client`.
    pub(crate) fn new<R: CryptoRng + ?Sized>(
        me: Identity<A>,
        client: PublicKeys<A>,
        label: &[u8],
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        Ok(Listener {
            resp: Responder::new(me, label, now, rng)?,
            table: OnePeer::new(client),
            load: Load::Normal,
            cookies_sent: 0,
            msg2_sent: 0,
        })
    }

    /// The responder (its fragment keys, the datagrams of its msg2).
    pub(crate) fn responder(&self) -> &Responder<A> {
        &self.resp
    }

    /// When the responder's biscuit keys and cookie secrets rotate next
    /// (every 120 s; run [`Listener::handle_timeout`] from a timer then).
    pub(crate) fn poll_timeout(&self) -> Instant {
        self.resp.poll_timeout()
    }

    /// Rotates the biscuit keys and cookie secrets if due.
    pub(crate) fn handle_timeout<R: CryptoRng + ?Sized>(&mut self, now: Instant, rng: &mut R) {
        self.resp.handle_timeout(now, rng);
    }

    /// Sorts one datagram from `src` and runs the handshake part of it.
    pub(crate) fn handle<'d, R: CryptoRng + ?Sized>(
        &mut self,
        src: &[u8],
        d: &'d [u8],
        now: Instant,
        rng: &mut R,
        out: &mut [u8],
    ) -> Heard<'d> {
        match classify(d) {
            Dgram::Record { .. } => Heard::Record(d),
            Dgram::Handshake(m) if m[0] == wire::MSG1 => {
                self.resp.handle_timeout(now, rng);
                match self
                    .resp
                    .handle_msg1(&mut self.table, src, m, self.load, now, rng, out)
                {
                    Ok(Reply::Msg2(n)) => {
                        self.msg2_sent += 1;
                        Heard::Reply(n)
                    }
                    Ok(Reply::CookieReply(n)) => {
                        self.cookies_sent += 1;
                        Heard::Reply(n)
                    }
                    Err(e) => Heard::Dropped(e),
                }
            }
            Dgram::Handshake(m) if m[0] == wire::MSG3 => self.msg3(src, m, None, now),
            Dgram::Msg3Record { msg3, framed } => self.msg3(src, msg3, Some(framed), now),
            Dgram::Handshake(_) | Dgram::Unknown => Heard::Dropped(Error::MessageType),
        }
    }

    fn msg3<'d>(
        &mut self,
        src: &[u8],
        msg3: &[u8],
        framed: Option<&'d [u8]>,
        now: Instant,
    ) -> Heard<'d> {
        let (peer, local) = msg3_indices(msg3);
        match self
            .resp
            .handle_msg3(&mut self.table, src, msg3, self.load, now)
        {
            Ok(est) => Heard::Session {
                est: Box::new(est),
                local,
                peer,
                framed,
            },
            Err(Error::Duplicate) => Heard::Duplicate { local, framed },
            Err(e) => Heard::Dropped(e),
        }
    }
}

/// Runs a handshake as the initiator over a connected UDP socket until msg2
/// arrives (msg1 resends, cookie replies, renewals; everything else is
/// dropped). The caller sends msg3 (with its first record).
#[allow(clippy::too_many_arguments)]
pub(crate) fn dial_udp<A: DemoAuth, R: CryptoRng + ?Sized>(
    sock: &UdpSocket,
    me: &Keys<A>,
    server: &PublicKeys<A>,
    label: &[u8],
    last_sent: &mut Tai64N,
    t0: StdInstant,
    give_up: Duration,
    rng: &mut R,
) -> Result<(Established, HsStats), String> {
    let deadline = StdInstant::now() + give_up;
    let mut d =
        Dialer::start(me, server, label, last_sent, ms(t0), rng).map_err(|e| format!("{e:?}"))?;
    let mut buf = vec![0u8; HS_BUF];
    sock.set_nonblocking(false).map_err(|e| e.to_string())?;
    loop {
        let now = ms(t0);
        if StdInstant::now() > deadline {
            return Err("handshake timed out".into());
        }
        while let Some(n) = d
            .poll_transmit(me, server, last_sent, now, rng, &mut buf)
            .map_err(|e| format!("{e:?}"))?
        {
            sock.send(&buf[..n]).map_err(|e| e.to_string())?;
        }
        let wait = d.poll_timeout().map_or(50, |t| t.since(now)).clamp(1, 50);
        sock.set_read_timeout(Some(Duration::from_millis(wait)))
            .map_err(|e| e.to_string())?;
        match sock.recv(&mut buf) {
            Ok(n) => {
                if let Ok(Some(est)) = d.handle(&buf[..n], me, ms(t0), rng) {
                    return Ok((est, d.stats));
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Writes one handshake message on a stream: `be16 len ‖ msg`.
pub(crate) fn write_frame(
    w: &mut impl Write,
    msg: &[u8],
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    out.clear();
    let len = u16::try_from(msg.len()).map_err(|_| std::io::ErrorKind::InvalidInput)?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(msg);
    w.write_all(out)
}

/// Reads one `be16 len ‖ msg` handshake message from a stream.
pub(crate) fn read_frame(r: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut h = [0u8; 2];
    r.read_exact(&mut h)?;
    let mut m = vec![0u8; usize::from(u16::from_be_bytes(h))];
    r.read_exact(&mut m)?;
    Ok(m)
}

/// Runs a handshake as the initiator over a TCP stream until msg2; returns
/// the output and the framed msg3 (`be16 len ‖ msg3`) to write before the
/// first record. A stream loses nothing: no resends are needed.
pub(crate) fn dial_stream<A: DemoAuth, R: CryptoRng + ?Sized>(
    s: &mut TcpStream,
    me: &Keys<A>,
    server: &PublicKeys<A>,
    label: &[u8],
    last_sent: &mut Tai64N,
    t0: StdInstant,
    rng: &mut R,
) -> Result<(Established, Vec<u8>, HsStats), String> {
    let mut d =
        Dialer::start(me, server, label, last_sent, ms(t0), rng).map_err(|e| format!("{e:?}"))?;
    let (mut buf, mut fr) = (vec![0u8; HS_BUF], Vec::new());
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    loop {
        if let Some(n) = d
            .poll_transmit(me, server, last_sent, ms(t0), rng, &mut buf)
            .map_err(|e| format!("{e:?}"))?
        {
            write_frame(s, &buf[..n], &mut fr).map_err(|e| e.to_string())?;
        }
        let m = read_frame(s).map_err(|e| format!("handshake: {e}"))?;
        match d.handle(&m, me, ms(t0), rng) {
            Ok(Some(est)) => {
                let mut msg3 = Vec::new();
                let m3 = est.msg3().ok_or("no msg3")?;
                msg3.extend_from_slice(&u16::try_from(m3.len()).map_err(|_| "msg3")?.to_be_bytes());
                msg3.extend_from_slice(m3);
                s.set_read_timeout(None).map_err(|e| e.to_string())?;
                return Ok((est, msg3, d.stats));
            }
            Ok(None) => {}
            Err(e) => return Err(format!("handshake: {e:?}")),
        }
    }
}

/// Runs a handshake as the responder over a TCP stream: msg1 → msg2, msg3.
pub(crate) fn accept_stream<A: DemoAuth, R: CryptoRng + ?Sized>(
    s: &mut TcpStream,
    l: &mut Listener<A>,
    t0: StdInstant,
    rng: &mut R,
) -> Result<Established, String> {
    let src = s.peer_addr().map_err(|e| e.to_string())?.to_string();
    let (mut out, mut fr) = (vec![0u8; HS_BUF], Vec::new());
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    loop {
        let m = read_frame(s).map_err(|e| format!("handshake: {e}"))?;
        match l.handle(src.as_bytes(), &m, ms(t0), rng, &mut out) {
            Heard::Reply(n) => write_frame(s, &out[..n], &mut fr).map_err(|e| e.to_string())?,
            Heard::Session { est, .. } => {
                s.set_read_timeout(None).map_err(|e| e.to_string())?;
                return Ok(*est);
            }
            Heard::Dropped(e) => return Err(format!("handshake: {e:?}")),
            Heard::Duplicate { .. } | Heard::Record(_) => {
                return Err("handshake: unexpected message".into());
            }
        }
    }
}
