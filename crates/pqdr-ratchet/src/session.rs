//! docs/protocol/ratchet.md §1.1 layer L2: the record layer (wire format §1.5, receive path §1.8).

use core::fmt;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::Error;
use crate::aead;
use crate::config::{
    Config, Event, HandshakeOutput, InitialSecret, Instant, Mode, Role, SeedToken, Status,
};
use crate::kem::RatchetKem;
use crate::schedule::KeySchedule;
use crate::wire::{self, HEADER_LEN, STREAM_PREFIX_LEN, TAG_LEN, ty};

/// Largest caller AAD (it is concatenated with the header on the stack).
pub const MAX_AAD_LEN: usize = 256;

/// What [`Session::open`] delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opened {
    /// Application bytes written to the start of `out`.
    pub len: usize,
    /// Epoch of the record.
    pub epoch: u64,
    /// Counter of the record.
    pub counter: u32,
}

/// L2: a PQDR session over datagrams or a stream (sans-IO).
///
/// `WW` and `MS` size the receive window (see [`KeySchedule`]); the whole
/// session is one fixed-size value.
pub struct Session<K: RatchetKem, const WW: usize = 16, const MS: usize = 256> {
    pub(crate) ks: KeySchedule<K, WW, MS>,
}

impl<K: RatchetKem, const WW: usize, const MS: usize> fmt::Debug for Session<K, WW, MS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session").field("ks", &self.ks).finish()
    }
}

/// Builds `header ‖ aad` on the stack.
fn assemble_ad<'a>(
    buf: &'a mut [u8; HEADER_LEN + MAX_AAD_LEN],
    header: &[u8; HEADER_LEN],
    aad: &[u8],
) -> &'a [u8] {
    buf[..HEADER_LEN].copy_from_slice(header);
    buf[HEADER_LEN..HEADER_LEN + aad.len()].copy_from_slice(aad);
    &buf[..HEADER_LEN + aad.len()]
}

fn header(epoch: u64, counter: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0] = wire::FLAGS;
    #[allow(clippy::cast_possible_truncation, reason = "epoch_lo = epoch mod 256")]
    {
        h[1] = epoch as u8;
    }
    h[2..6].copy_from_slice(&counter.to_be_bytes());
    h
}

impl<K: RatchetKem, const WW: usize, const MS: usize> Session<K, WW, MS> {
    /// Creates a session from an authenticated key exchange's output, with
    /// the role that exchange assigned (docs/protocol/ratchet.md §1.3): the side that sent
    /// the first handshake message is the Initiator. This is the constructor
    /// to use after `pqdr-handshake` (`Established::into_session` calls it).
    ///
    /// It consumes the output (its secrets are erased when it drops here):
    /// one handshake output seeds one session.
    ///
    /// # Errors
    /// [`Error::KemMismatch`] if the handshake asks for another ratchet KEM
    /// than `K` (a `-X` handshake starts an X-Wing ratchet),
    /// [`Error::Malformed`] for out-of-range inputs or an invalid configuration.
    pub fn from_handshake<H: HandshakeOutput, R: CryptoRng + ?Sized>(
        cfg: &Config,
        handshake: H,
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        if !handshake.accepts_ratchet_kem(K::ID) {
            return Err(Error::KemMismatch);
        }
        let token = SeedToken::new();
        Self::new(
            cfg,
            handshake.role(),
            handshake.initial_secret(&token),
            now,
            rng,
        )
    }

    /// Creates a session from a secret and an explicit role: the constructor
    /// for pre-shared-key users. **The caller is responsible for the roles**:
    /// exactly one side must be [`Role::Initiator`]. If both pick the same
    /// role they encrypt with identical (key, nonce) pairs, a two-time pad.
    /// After a handshake use [`Session::from_handshake`], which takes the
    /// role from the handshake's state machine.
    ///
    /// # Errors
    /// [`Error::Malformed`] for out-of-range inputs or an invalid configuration.
    pub fn new<R: CryptoRng + ?Sized>(
        cfg: &Config,
        role: Role,
        init: InitialSecret<'_>,
        now: Instant,
        rng: &mut R,
    ) -> Result<Self, Error> {
        Ok(Session {
            ks: KeySchedule::new(cfg, role, init, now, rng)?,
        })
    }

    /// The key schedule underneath (read-only).
    pub fn key_schedule(&self) -> &KeySchedule<K, WW, MS> {
        &self.ks
    }

    fn prefix_len(&self) -> usize {
        match self.ks.cfg.mode {
            Mode::Datagram => HEADER_LEN,
            Mode::Stream => STREAM_PREFIX_LEN,
        }
    }

    /// Room for application data in a record of `datagram_size` bytes, leaving
    /// space for the control frames a ratchet in flight adds.
    pub fn max_payload(&self, datagram_size: usize) -> usize {
        let mut reserve = self.prefix_len() + TAG_LEN + 1 + crate::control::FIXED_CONTROL_LEN;
        if self.ks.kem.phase != crate::schedule::Phase::Idle || self.ks.kem.decoding {
            reserve += wire::symbol_frame_len(usize::from(self.ks.cfg.sym_len));
        }
        datagram_size.saturating_sub(reserve)
    }

    /// Seals one record: `header ‖ AEAD(frames) ‖ tag`. Returns the bytes written.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`], [`Error::Malformed`] (AAD too long, stream
    /// record too large), [`Error::Closed`], [`Error::RekeyOverdue`],
    /// [`Error::EpochExhausted`], [`Error::ReservationExhausted`].
    pub fn seal<R: CryptoRng + ?Sized>(
        &mut self,
        now: Instant,
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
        rng: &mut R,
    ) -> Result<usize, Error> {
        self.ks.on_time(now, rng);
        self.seal_inner(now, aad, Some(plaintext), out)
    }

    /// A control-only record (KEM symbols, acks, epoch confirm) if one is due.
    pub fn poll_transmit<R: CryptoRng + ?Sized>(
        &mut self,
        now: Instant,
        aad: &[u8],
        out: &mut [u8],
        rng: &mut R,
    ) -> Option<usize> {
        self.ks.on_time(now, rng);
        // Check that a record can be sealed before a pacing slot and an owed
        // reply are used up (they would be lost if `seal_inner` then failed).
        if self.ks.closed || !self.ks.can_send(now) || !self.ks.control_due(now) {
            return None;
        }
        self.seal_inner(now, aad, None, out).ok()
    }

    fn seal_inner(
        &mut self,
        now: Instant,
        aad: &[u8],
        data: Option<&[u8]>,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        if aad.len() > MAX_AAD_LEN {
            return Err(Error::Malformed);
        }
        let pre = self.prefix_len();
        let data_len = data.map_or(0, |d| d.len() + 1);
        let base = pre + data_len + TAG_LEN;
        if out.len() < base {
            return Err(Error::short(base, out.len()));
        }
        if self.ks.cfg.mode == Mode::Stream && base - 2 > usize::from(u16::MAX) {
            return Err(Error::Malformed);
        }
        let limit = out.len().min(self.ks.cfg.max_record.max(base));
        let sk = self.ks.next_send(now, data.map_or(0, <[u8]>::len))?;
        // Control frames first, DATA (rest of plaintext) last.
        let body_end = limit - TAG_LEN;
        let mut w = wire::Writer {
            buf: &mut out[pre..body_end],
            pos: 0,
        };
        self.ks.write_control(&mut w, data_len, data.is_some(), now);
        if let Some(d) = data {
            w.put(&[ty::DATA]);
            w.put(d);
        }
        let n = w.pos;
        let h = header(sk.epoch, sk.counter);
        let mut adbuf;
        let ad: &[u8] = if aad.is_empty() {
            // The AD is the header alone: no buffer to clear and fill.
            &h
        } else {
            adbuf = [0u8; HEADER_LEN + MAX_AAD_LEN];
            assemble_ad(&mut adbuf, &h, aad)
        };
        #[cfg(feature = "test-utils")]
        {
            self.ks.last_sealed = Some((*sk.key(), sk.nonce()));
        }
        let cipher = ChaCha20Poly1305::new(sk.key().into());
        let body = &mut out[pre..pre + n];
        let tag = cipher
            .encrypt_inout_detached(&Nonce::from(sk.nonce()), ad, body.into())
            .map_err(|_| Error::short(pre + n + TAG_LEN, out.len()))?;
        out[pre + n..pre + n + TAG_LEN].copy_from_slice(&tag);
        match self.ks.cfg.mode {
            Mode::Datagram => out[..HEADER_LEN].copy_from_slice(&h),
            Mode::Stream => {
                #[allow(clippy::cast_possible_truncation, reason = "checked ≤ u16::MAX above")]
                let len = (2 + n + TAG_LEN) as u16;
                out[..2].copy_from_slice(&len.to_be_bytes());
                out[2..4].copy_from_slice(&h[..2]);
            }
        }
        Ok(pre + n + TAG_LEN)
    }

    /// Opens one record. On any `Err` the session state is unchanged, except
    /// the authentication-failure counter, the pre-authentication token
    /// bucket and, in stream mode, closure (a stream cannot lose records).
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`], [`Error::Malformed`], [`Error::Unauthentic`],
    /// [`Error::Replay`], [`Error::TooOld`], [`Error::TooFarAhead`],
    /// [`Error::UnknownEpoch`], [`Error::Closed`].
    pub fn open<R: CryptoRng + ?Sized>(
        &mut self,
        now: Instant,
        aad: &[u8],
        packet: &[u8],
        out: &mut [u8],
        rng: &mut R,
    ) -> Result<Opened, Error> {
        if self.ks.closed {
            return Err(Error::Closed);
        }
        if aad.len() > MAX_AAD_LEN {
            return Err(Error::Malformed);
        }
        let stream = self.ks.cfg.mode == Mode::Stream;
        let pre = self.prefix_len();
        if packet.len() < pre + TAG_LEN {
            return Err(Error::Malformed);
        }
        let (flags, epoch_lo, counter) = if stream {
            let len = usize::from(u16::from_be_bytes([packet[0], packet[1]]));
            if len + 2 != packet.len() {
                return Err(Error::Malformed);
            }
            (packet[2], packet[3], None)
        } else {
            let c = u32::from_be_bytes([packet[2], packet[3], packet[4], packet[5]]);
            (packet[0], packet[1], Some(c))
        };
        if flags != wire::FLAGS {
            return Err(Error::Malformed);
        }
        let n = packet.len() - pre - TAG_LEN;
        if out.len() < n {
            return Err(Error::short(n, out.len()));
        }
        let cand = self.ks.candidate(epoch_lo, counter, now)?;
        let h = header(cand.epoch, cand.counter);
        let mut adbuf;
        let ad: &[u8] = if aad.is_empty() {
            // The AD is the header alone: no buffer to clear and fill.
            &h
        } else {
            adbuf = [0u8; HEADER_LEN + MAX_AAD_LEN];
            assemble_ad(&mut adbuf, &h, aad)
        };
        let body = &mut out[..n];
        let tag = <&[u8; TAG_LEN]>::try_from(&packet[pre + n..]).map_err(|_| Error::Malformed)?;
        // Authenticate, then decrypt from the packet straight into `out`. The
        // one-time key stays secret throughout (see `aead`): only the verdict
        // and an authentic plaintext are declassified for the valgrind check.
        if !aead::open(
            cand.key(),
            &cand.nonce(),
            ad,
            &packet[pre..pre + n],
            body,
            tag,
        ) {
            let body = &mut out[..n];
            body.zeroize();
            self.ks.auth_failed();
            if stream {
                self.ks.close();
            }
            return Err(Error::Unauthentic);
        }
        let body = &mut out[..n];
        if wire::validate(body).is_err() {
            body.zeroize();
            if stream {
                self.ks.close();
            }
            return Err(Error::Malformed);
        }
        let (epoch, counter) = (cand.epoch, cand.counter);
        self.ks.commit(cand, now)?;
        let data = if out[..n].first() == Some(&ty::DATA) {
            // Application data only (the common case): nothing else to apply.
            (1, n - 1)
        } else {
            self.ks.apply_frames(&out[..n], epoch, counter, now, rng)
        };
        out.copy_within(data.0..data.0 + data.1, 0);
        Ok(Opened {
            len: data.1,
            epoch,
            counter,
        })
    }

    /// When [`Session::handle_timeout`] (or `poll_transmit`) should next be called.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.ks.next_timeout()
    }

    /// Advances timers (ratchet triggers and timeouts, grace expiry).
    pub fn handle_timeout<R: CryptoRng + ?Sized>(&mut self, now: Instant, rng: &mut R) {
        self.ks.on_time(now, rng);
    }

    /// Round-trip-time hint: old-epoch receive state lives `3 × RTT` instead
    /// of `old_epoch_grace_ms`; `None` restores the configured grace.
    pub fn set_rtt_hint(&mut self, rtt_ms: Option<u64>) {
        self.ks.set_rtt_hint(rtt_ms);
    }

    /// Asks for a KEM ratchet as soon as the rules allow (an
    /// application-forced PCS step).
    ///
    /// The request may be deferred, silently: only the owner of the next
    /// epoch starts a ratchet (on the other side the request travels to the
    /// peer in the next record), at most one attempt per
    /// `min_ratchet_interval_ms` (default 1 s; a session's bootstrap ratchet
    /// counts), and not while one is in flight (docs/protocol/ratchet.md
    /// §1.7). Watch [`Status::ratchet_requested`] (set until the next epoch
    /// is installed) and [`Status::ratchet_deferred_until`] (when the
    /// interval lets the owner start); `Event::RatchetStarted` reports the
    /// start, `Event::EpochAdvanced` the switch.
    ///
    /// ```
    /// # #[cfg(feature = "mlkem")] {
    /// use pqdr_ratchet::{Config, DefaultSession, InitialSecret, Instant, Role};
    /// let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    /// let init = InitialSecret { secret: &[7; 32], transcript: b"", context: b"doc" };
    /// // Created at t = 0 with the bootstrap ratchet: the interval runs to t = 1000.
    /// let mut s = DefaultSession::new(&Config::default(), Role::Initiator, init, Instant(0), &mut rng).unwrap();
    /// s.request_ratchet();
    /// let st = s.status(Instant(10));
    /// assert!(st.ratchet_requested);
    /// # }
    /// ```
    pub fn request_ratchet(&mut self) {
        self.ks.request_ratchet();
    }

    /// Pops the next event.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.ks.poll_event()
    }

    /// Public status at `now`.
    pub fn status(&self, now: Instant) -> Status {
        self.ks.status(now)
    }

    /// Derives an exporter secret from the current epoch's root (for binding
    /// into a re-handshake).
    ///
    /// # Errors
    /// [`Error::Closed`] if the root is unavailable.
    pub fn export_secret(&self, label: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.ks.export_secret(label, out)
    }
}

/// Total length of a stream record from its first two bytes.
pub fn stream_record_len(prefix: [u8; 2]) -> usize {
    2 + usize::from(u16::from_be_bytes(prefix))
}
