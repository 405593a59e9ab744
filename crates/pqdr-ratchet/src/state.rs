//! RATCHET.md §1.11: versioned state export/import.
//!
//! Big-endian, fixed-width fields only (never host-endian):
//!
//! ```text
//! "PQDR" ‖ u16 format_version ‖ u16 kem_id ‖ u16 aead_id ‖ u8 role ‖ u8 mode ‖
//! u16 WW ‖ u16 MS ‖ u64 generation ‖ u64 epoch ‖ u8 flags ‖
//! u64 ratchets_completed ‖ u8 n_slots ‖ slot* ‖ kem ‖ config_digest[32]
//! slot = u64 epoch ‖ u8 flags ‖ [root] ‖ [send ck ‖ seg ‖ u64 pos ‖ u64 packets ‖ u64 bytes] ‖
//!        recv ck ‖ seg ‖ u64 next ‖ bitmap (WW × u64) ‖ u16 n ‖ (u32 counter ‖ key)* ‖
//!        i64 started ‖ u64 rekey_at ‖ u8 has_expiry ‖ i64 expiry
//! kem  = u8 phase ‖ u16 rid ‖ i64 started ‖ [seed] (owner, ek in flight) ‖ [ct] (peer) ‖
//!        u8 blob_done ‖ u8 next_idx ‖ u8 flags ‖ u16 dead_rid ‖ i64 next_start ‖
//!        u16 abort_rid ‖ u8 abort_reason ‖ u16 done_rid ‖ u8 done_blob
//! ```
//! Times are offsets from `now` in milliseconds. The authentication-failure
//! counter is deliberately not saved (it is the one thing a failed `open`
//! changes; it restarts at 0). Decoders in progress are not
//! saved (symbols are resent). The sealed form is
//! `"PQDS" ‖ u16 version ‖ salt[16] ‖ ChaCha20-Poly1305(plain) ‖ tag` under
//! `DK(CTX_STATE_SEAL, lp(storage_key) ‖ salt)`; the salt is a keyed hash of
//! live chain state and the generation, so it never repeats within a lineage.

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use zeroize::Zeroize;

use crate::Error;
use crate::chain::{Chain, POSITION_END};
use crate::config::{Config, Instant, Mode, Role};
use crate::kdf::{self, KEY_LEN};
use crate::kem::{MAX_BLOB_LEN, RatchetKem};
use crate::schedule::{AEAD_ID, KeySchedule, phase};
use crate::session::Session;
use crate::window::Window;

/// Current state format version.
pub const STATE_FORMAT_VERSION: u16 = 1;

const MAGIC_PLAIN: &[u8; 4] = b"PQDR";
const MAGIC_SEALED: &[u8; 4] = b"PQDS";
/// Diagnostic snapshots: same layout, refused by import (no reservation was made).
const MAGIC_SNAPSHOT: &[u8; 4] = b"PQDX";
const SALT_LEN: usize = 16;
const SEALED_OVERHEAD: usize = 4 + 2 + SALT_LEN + 16;

/// Upper bound on an exported (plain or sealed) state for window sizes `WW`, `MS`.
pub const fn max_state_len(ww: usize, ms: usize) -> usize {
    let slot = 8 + 1 + 32 + (64 + 24) + (64 + 8 + 8 * ww + 2 + 36 * ms) + 8 + 8 + 9;
    let kem = 1 + 2 + 8 + 64 + MAX_BLOB_LEN + 3 + 2 + 8 + 3 + 3 + 16;
    64 + 1 + 3 * slot + kem + 32 + SEALED_OVERHEAD
}

struct W<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl W<'_> {
    fn put(&mut self, b: &[u8]) -> Result<(), Error> {
        let end = self.pos.checked_add(b.len()).ok_or(Error::BufferTooSmall)?;
        self.buf
            .get_mut(self.pos..end)
            .ok_or(Error::BufferTooSmall)?
            .copy_from_slice(b);
        self.pos = end;
        Ok(())
    }
    fn u8(&mut self, v: u8) -> Result<(), Error> {
        self.put(&[v])
    }
    fn u16(&mut self, v: u16) -> Result<(), Error> {
        self.put(&v.to_be_bytes())
    }
    fn u64(&mut self, v: u64) -> Result<(), Error> {
        self.put(&v.to_be_bytes())
    }
    #[allow(clippy::cast_possible_wrap, reason = "times fit in i64 ms")]
    fn time(&mut self, t: Instant, now: Instant) -> Result<(), Error> {
        self.put(&(t.0 as i64).wrapping_sub(now.0 as i64).to_be_bytes())
    }
}

struct R<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> R<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.pos.checked_add(n).ok_or(Error::StateCorrupt)?;
        let s = self.buf.get(self.pos..end).ok_or(Error::StateCorrupt)?;
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, Error> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, Error> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, Error> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_be_bytes(a))
    }
    fn key(&mut self, k: &mut [u8; KEY_LEN]) -> Result<(), Error> {
        k.copy_from_slice(self.take(KEY_LEN)?);
        Ok(())
    }
    #[allow(
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        reason = "offset arithmetic"
    )]
    fn time(&mut self, now: Instant) -> Result<Instant, Error> {
        let off = self.u64()? as i64;
        let t = (now.0 as i64).saturating_add(off);
        Ok(Instant(t.max(0) as u64))
    }
    fn chain(&mut self, c: &mut Chain) -> Result<(), Error> {
        self.key(&mut c.ck)?;
        self.key(&mut c.seg_next)?;
        c.pos = self.u64()?;
        if c.pos > POSITION_END {
            return Err(Error::StateCorrupt);
        }
        Ok(())
    }
}

fn put_chain(w: &mut W<'_>, c: &Chain) -> Result<(), Error> {
    w.put(&c.ck)?;
    w.put(&c.seg_next)?;
    w.u64(c.pos)
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// Encodes the state; `reserve` advances every exported send chain.
    #[allow(clippy::cast_possible_truncation, reason = "WW, MS, counts are small")]
    fn encode(
        &self,
        magic: &[u8; 4],
        reserve: u64,
        now: Instant,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let mut w = W { buf: out, pos: 0 };
        w.put(magic)?;
        w.u16(STATE_FORMAT_VERSION)?;
        w.u16(K::ID)?;
        w.u16(AEAD_ID)?;
        w.u8(self.role.byte())?;
        w.u8(self.cfg.mode.byte())?;
        w.u16(WW as u16)?;
        w.u16(MS as u16)?;
        w.u64(self.generation)?;
        w.u64(self.epoch)?;
        w.u8(u8::from(self.confirmed)
            | u8::from(self.closed) << 1
            | u8::from(self.overdue_reported) << 2)?;
        w.u64(self.ratchets_completed)?;
        let n = self.slots.iter().filter(|s| s.live).count();
        w.u8(n as u8)?;
        for s in self.slots.iter().filter(|s| s.live) {
            w.u64(s.epoch)?;
            w.u8(u8::from(s.root_live) | u8::from(s.send_live) << 1 | u8::from(s.recv_any) << 2)?;
            if s.root_live {
                w.put(&s.root)?;
            }
            if s.send_live {
                let mut c = s.send.scratch();
                let target = c.pos.saturating_add(reserve).min(POSITION_END);
                c.jump_to(target);
                put_chain(&mut w, &c)?;
                w.u64(s.sent_packets)?;
                w.u64(s.sent_bytes)?;
            }
            put_chain(&mut w, &s.recv.chain)?;
            w.u64(s.recv.next)?;
            for b in &s.recv.bitmap {
                w.u64(*b)?;
            }
            w.u16(s.recv.n_skipped as u16)?;
            for k in &s.recv.skipped[..s.recv.n_skipped] {
                w.put(&k.counter.to_be_bytes())?;
                w.put(&k.key)?;
            }
            w.time(s.started, now)?;
            w.u64(s.rekey_at_ms)?;
            w.u8(u8::from(s.expires.is_some()))?;
            w.time(s.expires.unwrap_or(now), now)?;
        }
        let k = &self.kem;
        w.u8(k.phase)?;
        w.u16(k.rid)?;
        w.time(k.started, now)?;
        if k.phase == phase::OWNER_EK {
            w.put(&k.seed[..K::SEED_LEN])?;
        }
        if k.phase == phase::PEER_CT {
            w.put(&k.blob[..K::CT_LEN])?;
        }
        w.u8(u8::from(k.blob_done))?;
        w.u8(k.next_idx)?;
        w.u8(u8::from(k.app_request)
            | u8::from(k.peer_requested) << 1
            | u8::from(k.dead_rid.is_some()) << 2)?;
        w.u16(k.dead_rid.unwrap_or(0))?;
        w.time(k.next_start_at, now)?;
        w.u8(u8::from(k.abort_pending.is_some()))?;
        let (ar, ae) = k.abort_pending.unwrap_or((0, 0));
        w.u16(ar)?;
        w.u8(ae)?;
        w.u8(u8::from(k.done_pending.is_some()))?;
        let (dr, db) = k.done_pending.unwrap_or((0, 0));
        w.u16(dr)?;
        w.u8(db)?;
        w.put(&self.cfg.digest())?;
        Ok(w.pos)
    }

    /// Decodes a plain state blob (untrusted bytes: no panics, no allocation).
    #[allow(clippy::too_many_lines, reason = "one linear parser, field by field")]
    fn decode(
        cfg: &Config,
        bytes: &[u8],
        min_generation: u64,
        now: Instant,
    ) -> Result<Self, Error> {
        let mut r = R { buf: bytes, pos: 0 };
        if r.take(4)? != MAGIC_PLAIN {
            return Err(Error::StateCorrupt);
        }
        if r.u16()? != STATE_FORMAT_VERSION {
            return Err(Error::StateVersion);
        }
        if r.u16()? != K::ID || r.u16()? != AEAD_ID {
            return Err(Error::StateCorrupt);
        }
        let role = Role::from_byte(r.u8()?).ok_or(Error::StateCorrupt)?;
        let mode = Mode::from_byte(r.u8()?).ok_or(Error::StateCorrupt)?;
        if mode != cfg.mode || usize::from(r.u16()?) != WW || usize::from(r.u16()?) != MS {
            return Err(Error::StateCorrupt);
        }
        if !cfg.is_valid() {
            return Err(Error::Malformed);
        }
        let mut s = Self::empty(cfg, role);
        s.generation = r.u64()?;
        if s.generation < min_generation {
            return Err(Error::StateCorrupt);
        }
        s.epoch = r.u64()?;
        // Far beyond any reachable epoch (one ratchet per second for 10^11 years).
        if s.epoch >= 1 << 62 {
            return Err(Error::StateCorrupt);
        }
        let f = r.u8()?;
        s.confirmed = f & 1 != 0;
        s.closed = f & 2 != 0;
        s.overdue_reported = f & 4 != 0;
        s.ratchets_completed = r.u64()?;
        let n = usize::from(r.u8()?);
        if n == 0 || n > 3 {
            return Err(Error::StateCorrupt);
        }
        for i in 0..n {
            let slot = &mut s.slots[i];
            slot.live = true;
            slot.epoch = r.u64()?;
            let f = r.u8()?;
            slot.root_live = f & 1 != 0;
            slot.send_live = f & 2 != 0;
            slot.recv_any = f & 4 != 0;
            if slot.root_live {
                r.key(&mut slot.root)?;
            }
            if slot.send_live {
                r.chain(&mut slot.send)?;
                slot.sent_packets = r.u64()?;
                slot.sent_bytes = r.u64()?;
            }
            slot.send_limit = u64::MAX;
            let win: &mut Window<WW, MS> = &mut slot.recv;
            r.chain(&mut win.chain)?;
            win.next = r.u64()?;
            if win.next != win.chain.pos {
                return Err(Error::StateCorrupt);
            }
            for b in &mut win.bitmap {
                *b = r.u64()?;
            }
            let ns = usize::from(r.u16()?);
            if ns > MS {
                return Err(Error::StateCorrupt);
            }
            let mut last: Option<u32> = None;
            for j in 0..ns {
                let c = r.u32()?;
                if last.is_some_and(|l| c <= l) || u64::from(c) >= win.next {
                    return Err(Error::StateCorrupt);
                }
                last = Some(c);
                win.skipped[j].counter = c;
                r.key(&mut win.skipped[j].key)?;
            }
            win.n_skipped = ns;
            slot.started = r.time(now)?;
            slot.rekey_at_ms = r.u64()?;
            let has = r.u8()? != 0;
            let t = r.time(now)?;
            slot.expires = has.then_some(t);
        }
        // Epochs must be distinct and include the current one.
        let cur = s.slot_of(s.epoch).ok_or(Error::StateCorrupt)?;
        for i in 0..n {
            for j in 0..i {
                if s.slots[i].epoch == s.slots[j].epoch {
                    return Err(Error::StateCorrupt);
                }
            }
            if s.slots[i].epoch.abs_diff(s.epoch) > 1 {
                return Err(Error::StateCorrupt);
            }
        }
        if !s.slots[cur].send_live {
            return Err(Error::StateCorrupt);
        }
        let k = &mut s.kem;
        k.phase = r.u8()?;
        if k.phase > phase::PEER_CT {
            return Err(Error::StateCorrupt);
        }
        k.rid = r.u16()?;
        k.started = r.time(now)?;
        if k.phase == phase::OWNER_EK {
            k.seed[..K::SEED_LEN].copy_from_slice(r.take(K::SEED_LEN)?);
            K::generate_from_seed(&k.seed[..K::SEED_LEN], &mut k.blob[..K::EK_LEN]);
            k.decoding = true;
            k.dec_rid = k.rid;
            k.decoder.reset(K::CT_LEN);
        }
        if k.phase == phase::PEER_CT {
            k.blob[..K::CT_LEN].copy_from_slice(r.take(K::CT_LEN)?);
        }
        k.blob_done = r.u8()? != 0;
        k.next_idx = r.u8()?;
        if k.next_idx > crate::codec::MAX_INDEX {
            return Err(Error::StateCorrupt);
        }
        let f = r.u8()?;
        k.app_request = f & 1 != 0;
        k.peer_requested = f & 2 != 0;
        let dead = r.u16()?;
        k.dead_rid = (f & 4 != 0).then_some(dead);
        k.next_start_at = r.time(now)?;
        let has_abort = r.u8()? != 0;
        let (ar, ae) = (r.u16()?, r.u8()?);
        k.abort_pending = has_abort.then_some((ar, ae));
        let has_done = r.u8()? != 0;
        let (dr, db) = (r.u16()?, r.u8()?);
        k.done_pending = has_done.then_some((dr, db));
        k.pace_at = now;
        k.pace_ms = cfg.pacing_initial_ms;
        if r.take(32)? != cfg.digest() || r.pos != bytes.len() {
            return Err(Error::StateCorrupt);
        }
        let next_live = s.slot_of(s.epoch.wrapping_add(1)).is_some();
        let owner = Role::owner_of(s.epoch) == s.role;
        let consistent = match s.kem.phase {
            phase::PEER_CT => next_live && !owner,
            phase::OWNER_EK => !next_live && owner,
            _ => !next_live,
        };
        if !consistent {
            return Err(Error::StateCorrupt);
        }
        s.bucket_reset(now);
        Ok(s)
    }

    fn bucket_reset(&mut self, now: Instant) {
        self.bucket = crate::schedule::Bucket::full(self.cfg.unauth_derivation_budget, now);
    }

    /// A per-export salt: keyed hash of live chain state and the generation.
    fn salt(&self) -> [u8; SALT_LEN] {
        let c = &self.slots[self.slot_of(self.epoch).unwrap_or(0)];
        let mut h = blake3::Hasher::new_keyed(&c.recv.chain.ck);
        h.update(b"pqdr-ratchet state salt");
        h.update(&self.generation.to_be_bytes());
        h.update(&c.send.ck);
        let mut out = [0u8; SALT_LEN];
        out.copy_from_slice(&h.finalize().as_bytes()[..SALT_LEN]);
        h.zeroize();
        out
    }

    fn export(
        &mut self,
        reserve: u32,
        storage_key: Option<&[u8]>,
        now: Instant,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let (pre, post) = match storage_key {
            Some(_) => (4 + 2 + SALT_LEN, 16),
            None => (0, 0),
        };
        if out.len() < pre + post {
            return Err(Error::BufferTooSmall);
        }
        self.generation = self.generation.wrapping_add(1);
        let body_end = out.len() - post;
        let n = match self.encode(
            MAGIC_PLAIN,
            u64::from(reserve),
            now,
            &mut out[pre..body_end],
        ) {
            Ok(n) => n,
            Err(e) => {
                self.generation = self.generation.wrapping_sub(1);
                return Err(e);
            }
        };
        // The live session may send at most `reserve` more records per chain.
        for s in self.slots.iter_mut().filter(|s| s.live && s.send_live) {
            s.send_limit = s.send.pos.saturating_add(u64::from(reserve));
        }
        let Some(sk) = storage_key else { return Ok(n) };
        let salt = self.salt();
        out[..4].copy_from_slice(MAGIC_SEALED);
        out[4..6].copy_from_slice(&STATE_FORMAT_VERSION.to_be_bytes());
        out[6..pre].copy_from_slice(&salt);
        let mut key = kdf::state_seal_key(sk, &salt);
        let cipher = ChaCha20Poly1305::new((&key).into());
        key.zeroize();
        let (head, rest) = out.split_at_mut(pre);
        let tag = cipher
            .encrypt_inout_detached(&Nonce::default(), head, (&mut rest[..n]).into())
            .map_err(|_| Error::BufferTooSmall)?;
        rest[n..n + 16].copy_from_slice(&tag);
        Ok(pre + n + 16)
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> Session<K, WW, MS> {
    /// Exports the state for persistence, reserving `reserve` send positions
    /// per chain: the exported chains start `reserve` records ahead, and this
    /// live session refuses to send more than `reserve` further records per
    /// chain ([`Error::ReservationExhausted`]) until the next export. The
    /// generation increments on every export. Returns the bytes written
    /// (at most [`max_state_len`]).
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`].
    pub fn export_state(
        &mut self,
        reserve: u32,
        now: Instant,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.ks.export(reserve, None, now, out)
    }

    /// Like [`Session::export_state`], sealed with ChaCha20-Poly1305 under
    /// `DK(CTX_STATE_SEAL, lp(storage_key) ‖ salt)`.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`], [`Error::Malformed`] if the storage key is longer than 255 bytes.
    pub fn export_state_sealed(
        &mut self,
        reserve: u32,
        storage_key: &[u8],
        now: Instant,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        if storage_key.len() > 255 {
            return Err(Error::Malformed);
        }
        self.ks.export(reserve, Some(storage_key), now, out)
    }

    /// [`Session::export_state`] into a new vector (`alloc` convenience).
    ///
    /// # Errors
    /// As [`Session::export_state`].
    #[cfg(feature = "alloc")]
    pub fn export_state_to_vec(
        &mut self,
        reserve: u32,
        now: Instant,
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        let mut v = alloc::vec![0u8; max_state_len(WW, MS)];
        let n = self.export_state(reserve, now, &mut v)?;
        v.truncate(n);
        Ok(v)
    }

    /// The generation of the last export (store it to refuse rollbacks).
    pub fn generation(&self) -> u64 {
        self.ks.generation
    }

    /// Serializes the state without exporting it (no generation bump, no
    /// reservation). The blob cannot be imported; it is for comparisons and
    /// diagnostics (it contains secrets: handle it like the session).
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`].
    pub fn snapshot(&self, now: Instant, out: &mut [u8]) -> Result<usize, Error> {
        self.ks.encode(MAGIC_SNAPSHOT, 0, now, out)
    }

    /// Restores an exported (plain) state. `min_generation` is the caller's
    /// last-seen generation: older states are refused (anti-rollback).
    ///
    /// # Errors
    /// [`Error::StateVersion`] for an unknown format version,
    /// [`Error::StateCorrupt`] for anything else wrong (including a rollback
    /// or another configuration), [`Error::Malformed`] for an invalid `cfg`.
    pub fn import_state(
        cfg: &Config,
        bytes: &[u8],
        min_generation: u64,
        now: Instant,
    ) -> Result<Self, Error> {
        Ok(Session {
            ks: KeySchedule::decode(cfg, bytes, min_generation, now)?,
        })
    }

    /// Restores a sealed state (see [`Session::import_state`]). `scratch`
    /// must hold the decrypted state (`bytes.len()` bytes suffice).
    ///
    /// # Errors
    /// As [`Session::import_state`]; a wrong storage key is [`Error::StateCorrupt`];
    /// [`Error::BufferTooSmall`] if `scratch` is too short.
    pub fn import_state_sealed(
        cfg: &Config,
        bytes: &[u8],
        storage_key: &[u8],
        min_generation: u64,
        now: Instant,
        scratch: &mut [u8],
    ) -> Result<Self, Error> {
        let pre = 4 + 2 + SALT_LEN;
        if bytes.len() < pre + 16 || &bytes[..4] != MAGIC_SEALED {
            return Err(Error::StateCorrupt);
        }
        if bytes[4..6] != STATE_FORMAT_VERSION.to_be_bytes() {
            return Err(Error::StateVersion);
        }
        let n = bytes.len() - pre - 16;
        if scratch.len() < n || storage_key.len() > 255 {
            return Err(Error::BufferTooSmall);
        }
        let mut key = kdf::state_seal_key(storage_key, &bytes[6..pre]);
        let cipher = ChaCha20Poly1305::new((&key).into());
        key.zeroize();
        let body = &mut scratch[..n];
        body.copy_from_slice(&bytes[pre..pre + n]);
        let tag = Tag::try_from(&bytes[pre + n..]).map_err(|_| Error::StateCorrupt)?;
        if cipher
            .decrypt_inout_detached(&Nonce::default(), &bytes[..pre], body.into(), &tag)
            .is_err()
        {
            body.zeroize();
            return Err(Error::StateCorrupt);
        }
        let r = Self::import_state(cfg, body, min_generation, now);
        body.zeroize();
        r
    }
}
