//! docs/protocol/ratchet.md §1.5–1.6: the control frames a side owes the other (KEM
//! symbols, acks, requests, aborts, probes), their pacing, and writing them.

use rand_core::CryptoRng;

use crate::Error;
use crate::codec;
use crate::config::Instant;
use crate::kem::RatchetKem;
use crate::keys::PacketKey;
use crate::schedule::KeySchedule;
use crate::schedule::Phase;
use crate::wire::{self, Blob, Frame, Frames, Writer, ty};

/// RATCHET_ABORT frame length.
const ABORT_LEN: usize = 4;
/// KEM_DONE frame length.
const DONE_LEN: usize = 4;
/// RATCHET_REQUEST frame length.
const REQUEST_LEN: usize = 2;
/// RECV_REPORT frame length.
const REPORT_LEN: usize = 6;
/// Room the small control frames (abort, done, request) may take in a data record.
pub(crate) const FIXED_CONTROL_LEN: usize = ABORT_LEN + DONE_LEN + REQUEST_LEN;

/// Proof that a record authenticated: only [`KeySchedule::open_with`] makes
/// one, and [`KeySchedule::handle_control`] takes one, so control frames can
/// only come from authentic records.
#[derive(Debug)]
pub struct Authentic {
    epoch: u64,
    counter: u32,
}

impl Authentic {
    /// Epoch of the record.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Counter of the record.
    pub fn counter(&self) -> u32 {
        self.counter
    }
}

/// One outgoing KEM symbol (its bytes were written to the caller's buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymbolOut {
    /// Attempt id.
    pub rid: u16,
    /// ek or ct.
    pub blob: Blob,
    /// Data symbols of the blob.
    pub k: u8,
    /// Symbol index.
    pub idx: u8,
    /// Symbol length.
    pub sym_len: usize,
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// The KEM blob this side is currently sending, if any.
    pub(crate) fn sending_blob(&self) -> Option<(Blob, usize)> {
        match self.kem.phase {
            Phase::OwnerEk if !self.kem.blob_done => Some((Blob::Ek, K::EK_LEN)),
            Phase::PeerCt if !self.kem.blob_done => Some((Blob::Ct, K::CT_LEN)),
            _ => None,
        }
    }

    /// Whether a RATCHET_REQUEST should ride on outgoing records.
    pub fn wants_request(&self, now: Instant) -> Option<u8> {
        if self.is_owner() || self.kem.phase != Phase::Idle || self.kem.decoding {
            return None;
        }
        if !self.triggered(now) {
            return None;
        }
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        Some(self.epoch.wrapping_add(1) as u8)
    }

    /// Writes the next KEM symbol (if a blob is being sent) to `out`.
    pub fn poll_symbol(&mut self, out: &mut [u8]) -> Option<SymbolOut> {
        let (blob, len) = self.sending_blob()?;
        let sym_len = usize::from(self.cfg.sym_len);
        let k = codec::symbol_count(len, sym_len)?;
        let idx = self.kem.next_idx;
        // Fails only on a short `out`: then nothing is sent and the index is kept.
        codec::encode_symbol(&self.kem.blob[..len], sym_len, idx, out).ok()?;
        self.kem.next_idx = if idx >= codec::MAX_INDEX { 0 } else { idx + 1 };
        Some(SymbolOut {
            rid: self.kem.rid,
            blob,
            k,
            idx,
            sym_len,
        })
    }

    /// Control frames are waiting (pending abort/done/reply, or paced symbols,
    /// requests and probes).
    pub(crate) fn control_pending(&self) -> bool {
        let k = &self.kem;
        k.owe_reply
            || k.abort_pending.is_some()
            || k.done_pending.is_some()
            || self.sending_blob().is_some()
            || k.phase == Phase::OwnerConfirm
            || (!self.is_owner() && k.phase == Phase::Idle && !k.decoding && k.app_request)
    }

    /// Whether a control record is due now; if so, consumes one pacing slot.
    pub(crate) fn control_due(&mut self, now: Instant) -> bool {
        let k = &self.kem;
        let urgent = k.owe_reply || k.abort_pending.is_some() || k.done_pending.is_some();
        let paced = self.sending_blob().is_some()
            || k.phase == Phase::OwnerConfirm
            || self.wants_request(now).is_some();
        if urgent || (paced && now >= k.pace_at) {
            if paced && now >= self.kem.pace_at {
                let k = &mut self.kem;
                k.pace_at = now.plus(k.pace_ms.max(1));
                k.pace_ms = k.pace_ms.saturating_mul(2).min(self.cfg.pacing_max_ms);
            }
            self.kem.owe_reply = false;
            return true;
        }
        false
    }

    /// Whether a RECV_REPORT probe should be sent (owner waiting for the peer's switch).
    pub(crate) fn wants_probe(&self) -> Option<(u8, u32)> {
        if self.kem.phase != Phase::OwnerConfirm {
            return None;
        }
        let c = &self.slots[self.cur()];
        #[allow(clippy::cast_possible_truncation, reason = "low byte / counter range")]
        Some((self.epoch as u8, c.recv.next.saturating_sub(1) as u32))
    }

    /// Writes the control frames that are due into `w`, keeping
    /// `room_for_data` bytes free (`with_data`: at most one KEM symbol, no
    /// probe).
    pub(crate) fn write_control(
        &mut self,
        w: &mut Writer<'_>,
        room_for_data: usize,
        with_data: bool,
        now: Instant,
    ) {
        let kem = &mut self.kem;
        if w.room() >= room_for_data + ABORT_LEN
            && let Some((rid, reason)) = kem.abort_pending.take()
        {
            w.put(&[ty::RATCHET_ABORT]);
            w.put(&rid.to_be_bytes());
            w.put(&[reason]);
        }
        if w.room() >= room_for_data + DONE_LEN
            && let Some((rid, blob)) = kem.done_pending.take()
        {
            w.put(&[ty::KEM_DONE]);
            w.put(&rid.to_be_bytes());
            w.put(&[blob]);
        }
        if w.room() >= room_for_data + REQUEST_LEN
            && let Some(lo) = self.wants_request(now)
        {
            w.put(&[ty::RATCHET_REQUEST, lo]);
        }
        if !with_data
            && w.room() >= REPORT_LEN
            && let Some((lo, highest)) = self.wants_probe()
        {
            w.put(&[ty::RECV_REPORT, lo]);
            w.put(&highest.to_be_bytes());
        }
        let sym_len = usize::from(self.cfg.sym_len);
        let max_symbols = if with_data { 1 } else { usize::MAX };
        let mut sent = 0;
        while sent < max_symbols && w.room() >= room_for_data + wire::symbol_frame_len(sym_len) {
            let hdr_at = w.pos;
            let Some(s) = self.poll_symbol(&mut w.buf[hdr_at + 8..hdr_at + 8 + sym_len]) else {
                break;
            };
            w.symbol_header(s.rid, s.blob, s.k, s.sym_len, s.idx);
            w.pos += sym_len;
            sent += 1;
        }
    }

    /// Applies the frames of an authentic, validated plaintext of the record
    /// `(epoch, counter)`; returns where its data run is (`(start, len)`,
    /// `(0, 0)` if none).
    pub(crate) fn apply_frames<R: CryptoRng + ?Sized>(
        &mut self,
        body: &[u8],
        epoch: u64,
        counter: u32,
        now: Instant,
        rng: &mut R,
    ) -> (usize, usize) {
        let mut data = (0, 0);
        for f in Frames::new(body).flatten() {
            match f {
                Frame::Padding => {}
                Frame::Data { start, len } => data = (start, len),
                Frame::Symbol(s) => self.handle_symbol(epoch, counter, &s, now, rng),
                Frame::Done { rid, blob } => self.handle_done(rid, blob),
                Frame::Request { next_epoch_lo } => self.handle_request(epoch, next_epoch_lo),
                Frame::Abort { rid, .. } => self.handle_abort(rid, now),
                Frame::RecvReport { .. } => self.handle_report(),
            }
        }
        data
    }

    /// The receive path of L1 (docs/protocol/ratchet.md §1.8), with the AEAD supplied by
    /// the caller: derives the key for `(epoch_lo, counter)` on scratch
    /// (`counter = None`: the next expected one, for streams), calls
    /// `aead_open` with it, and commits the key schedule **only** if
    /// `aead_open` returns `Some` (the record authenticated). On `None`,
    /// nothing changes but the failure counters and the pre-authentication
    /// token bucket. This is the only way to advance the receive state from
    /// outside the crate.
    ///
    /// ```
    /// # use pqdr_ratchet::{Config, InitialSecret, Instant, KeySchedule, MlKem768, Role};
    /// use pqdr_ratchet::chacha20poly1305::{ChaCha20Poly1305, KeyInit, aead::AeadInOut};
    /// # let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    /// # let cfg = Config { ratchet_on_start: false, ..Config::default() };
    /// # let init = || InitialSecret { secret: &[7; 32], transcript: b"", context: b"doc" };
    /// let mut a = KeySchedule::<MlKem768>::new(&cfg, Role::Initiator, init(), Instant(0), &mut rng)?;
    /// let mut b = KeySchedule::<MlKem768>::new(&cfg, Role::Responder, init(), Instant(0), &mut rng)?;
    /// // Sender: the transport's packet number is the counter (gaps allowed).
    /// let k = a.next_send_at(Instant(0), 5, 5)?;
    /// let mut buf = *b"hello";
    /// let tag = ChaCha20Poly1305::new(k.key().into())
    ///     .encrypt_inout_detached(&k.nonce().into(), b"hdr", (&mut buf[..]).into())
    ///     .unwrap();
    /// // Receiver: the epoch's low byte (or key phase) and the packet number.
    /// let (auth, ()) = b.open_with(Instant(0), k.epoch as u8, Some(5), |key| {
    ///     ChaCha20Poly1305::new(key.key().into())
    ///         .decrypt_inout_detached(&key.nonce().into(), b"hdr", (&mut buf[..]).into(), &tag)
    ///         .ok()
    /// })?;
    /// assert_eq!((&buf, auth.counter()), (b"hello", 5));
    /// // A second delivery is a replay: refused before any AEAD call.
    /// assert!(b.open_with(Instant(0), 0, Some(5), |_| Some(())).is_err());
    /// # Ok::<(), pqdr_ratchet::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Unauthentic`] if `aead_open` returns `None`; otherwise as the
    /// lookup: [`Error::Closed`], [`Error::UnknownEpoch`], [`Error::TooOld`],
    /// [`Error::Replay`], [`Error::TooFarAhead`].
    pub fn open_with<T>(
        &mut self,
        now: Instant,
        epoch_lo: u8,
        counter: Option<u32>,
        aead_open: impl FnOnce(&PacketKey) -> Option<T>,
    ) -> Result<(Authentic, T), Error> {
        let cand = self.candidate(epoch_lo, counter, now)?;
        let Some(t) = aead_open(&cand) else {
            self.auth_failed();
            return Err(Error::Unauthentic);
        };
        let auth = Authentic {
            epoch: cand.epoch,
            counter: cand.counter,
        };
        self.commit(cand, now)?;
        Ok((auth, t))
    }

    /// Applies the ratchet's control frames (docs/protocol/ratchet.md §1.5 frame syntax)
    /// that an L1 integration carried in an authentic record (e.g. a QUIC
    /// extension frame), proven by `auth` from [`KeySchedule::open_with`].
    /// All frames are validated first; on a malformed or unknown frame
    /// nothing is applied.
    ///
    /// # Errors
    /// [`Error::Malformed`].
    pub fn handle_control<R: CryptoRng + ?Sized>(
        &mut self,
        auth: &Authentic,
        frames: &[u8],
        now: Instant,
        rng: &mut R,
    ) -> Result<(), Error> {
        wire::validate(frames)?;
        self.apply_frames(frames, auth.epoch, auth.counter, now, rng);
        Ok(())
    }

    /// Writes the ratchet's control frames that are due into `out` (for an
    /// L1 integration to carry in its own authenticated records); returns
    /// the bytes written (0: nothing due or no room). Paced like
    /// `Session::poll_transmit`.
    pub fn poll_control(&mut self, now: Instant, out: &mut [u8]) -> usize {
        if !self.can_send(now) || !self.control_due(now) {
            return 0;
        }
        let mut w = Writer { buf: out, pos: 0 };
        self.write_control(&mut w, 0, false, now);
        w.pos
    }
}
