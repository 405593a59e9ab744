//! docs/protocol/ratchet.md §1.11 (revised 2026-11-25): sealed, versioned state export/import.
//!
//! The plaintext state (format version 3) uses big-endian, fixed-width
//! fields only (never host-endian), with the reader and writer of
//! [`crate::wire`]:
//!
//! ```text
//! "PQDR" ‖ u16 format_version ‖ session_id[16] ‖ u16 kem_id ‖ u16 aead_id ‖ u8 role ‖ u8 mode ‖
//! u16 WW ‖ u16 MS ‖ u64 generation ‖ u64 epoch ‖ u8 flags ‖
//! u64 ratchets_completed ‖ u8 n_slots ‖ slot* ‖ kem ‖ config_digest[32]
//! slot = u64 epoch ‖ u8 flags ‖ [rk ‖ xk] ‖ [send chain ‖ u64 packets ‖ u64 bytes] ‖
//!        recv chain ‖ u64 next (= pos) ‖ bitmap (WW × u64) ‖ u16 n ‖
//!        (u32 counter ‖ key)* ‖ i64 started ‖ u64 rekey_at ‖ u8 has_expiry ‖ i64 expiry
//! slot flags: bit 0 rk ‖ xk present, bit 1 send chain present, bit 2 a record was received
//! kem  = u8 phase ‖ u16 rid ‖ u32 attempt_at ‖ i64 started ‖ [ct] (peer, ct being sent) ‖
//!        u8 blob_done ‖ u8 next_idx ‖ u8 flags ‖ u8 n_dead ‖ u16 dead_rid[4] ‖
//!        i64 next_start ‖ u8 has_abort ‖ u16 abort_rid ‖ u8 abort_reason ‖
//!        u8 has_done ‖ u16 done_rid ‖ u8 done_blob
//! chain = ck ‖ seg ‖ u64 pos ‖ key × ((8 − pos mod 8) mod 8): the unused
//!        keys of the current group (§1.4.4, revision 2026-12-03)
//! kem flags: bit 0 app_request, bit 1 peer_requested (other bits zero)
//! attempt_at: peer with ct in flight: the lowest counter of an owner's
//!        record seen carrying that attempt's ek symbols (orders a late
//!        symbol of another attempt); zero in every other phase
//! dead_rid: the n_dead (≤ 4) dead attempt ids of the epoch, newest first,
//!        then zeros
//! ```
//!
//! Times are offsets from `now` in milliseconds. What is deliberately *not*
//! saved: `root_e` (no state ever holds it), the owner's key-generation seed
//! of a ratchet in flight (rule 2: the restored owner aborts that attempt and
//! starts a new one with fresh randomness), KEM decoders in progress
//! (symbols are resent), the authentication-failure counters, the
//! pre-authentication token bucket (restored full), "closed" (a closed
//! session cannot be exported), and the live send limits and unconfirmed
//! export (a restored session sends nothing until an export of its own is
//! confirmed).
//!
//! The blob is always sealed (rule 3):
//! `"PQDS" ‖ u16 format_version ‖ session_id[16] ‖ nonce[24] ‖
//! XChaCha20-Poly1305(plain) ‖ tag` under `DK(CTX_STATE_SEAL, storage_key)`,
//! with a fresh random nonce from the caller's RNG and the first 46 bytes as
//! associated data. The session id is in clear so that `import_state` can
//! refuse another session's blob ([`Error::WrongSession`]) before decrypting.
//!
//! Two-phase export (rule 1 as revised for issue #33): `export_state` seals
//! the blob but never raises a live send limit (each becomes the minimum of
//! itself and the exported position); `confirm_persisted(generation)`, called
//! once the blob and its generation are durable, applies the blob's
//! positions as the new limits.

use crate::Error;
use crate::chain::{Chain, POSITION_END, group_index};
use crate::config::{AbortReason, Config, Instant, Mode, Role};
use crate::kem::{MAX_BLOB_LEN, RatchetKem};
use crate::schedule::{AEAD_ID, DEAD_RIDS, KeySchedule, Phase};
use crate::window::Window;
use crate::wire::{Reader, Writer};

/// Current state format version (3: the session id in the header and the
/// state, four dead attempt ids; 2: v2 key schedule, always sealed).
pub const STATE_FORMAT_VERSION: u16 = 3;
/// Length of a session id ([`crate::Session::session_id`]).
pub const SESSION_ID_LEN: usize = 16;
/// Shortest accepted storage key.
pub const MIN_STORAGE_KEY_LEN: usize = 16;

pub(crate) const MAGIC_PLAIN: &[u8; 4] = b"PQDR";
pub(crate) const MAGIC_SEALED: &[u8; 4] = b"PQDS";
/// Diagnostic snapshots (test-only): same layout, never importable.
#[cfg(feature = "test-utils")]
pub(crate) const MAGIC_SNAPSHOT: &[u8; 4] = b"PQDX";
pub(crate) const NONCE_LEN: usize = 24;
/// Where the session id starts in the sealed header.
pub(crate) const SID_AT: usize = 6;
/// Where the nonce starts in the sealed header.
pub(crate) const NONCE_AT: usize = SID_AT + SESSION_ID_LEN;
/// `"PQDS" ‖ version ‖ session_id ‖ nonce`: the associated data of the seal.
pub(crate) const SEALED_HEADER: usize = NONCE_AT + NONCE_LEN;
pub(crate) const TAG_LEN: usize = 16;

/// Upper bound on an exported (sealed) state for window sizes `WW`, `MS`.
pub const fn max_state_len(ww: usize, ms: usize) -> usize {
    let chain_keys = 32 * (crate::kdf::GROUP - 1);
    let slot = 8
        + 1
        + 64
        + (64 + 24 + chain_keys)
        + (64 + chain_keys + 8 + 8 * ww + 2 + 36 * ms)
        + 8
        + 8
        + 9;
    let kem = 1 + 2 + 4 + 8 + MAX_BLOB_LEN + 3 + 1 + 2 * DEAD_RIDS + 8 + 4 + 4;
    64 + SESSION_ID_LEN + 3 * slot + kem + 32 + SEALED_HEADER + TAG_LEN
}

#[allow(clippy::cast_possible_wrap, reason = "times fit in i64 ms")]
fn put_time(w: &mut Writer<'_>, t: Instant, now: Instant) -> Result<(), Error> {
    w.try_put(&(t.0 as i64).wrapping_sub(now.0 as i64).to_be_bytes())
}

#[allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "offset arithmetic"
)]
fn get_time(r: &mut Reader<'_>, now: Instant) -> Result<Instant, Error> {
    let off = r.u64()? as i64;
    let t = (now.0 as i64).saturating_add(off);
    Ok(Instant(t.max(0) as u64))
}

fn put_chain(w: &mut Writer<'_>, c: &Chain) -> Result<(), Error> {
    w.try_put(&c.ck)?;
    w.try_put(&c.seg_next)?;
    w.u64(c.pos)?;
    // The unused keys of the current group (none at a group boundary).
    let i = group_index(c.pos);
    if i != 0 {
        for k in &c.keys[i..] {
            w.try_put(k)?;
        }
    }
    Ok(())
}

fn get_chain(r: &mut Reader<'_>, c: &mut Chain) -> Result<(), Error> {
    r.array(&mut c.ck)?;
    r.array(&mut c.seg_next)?;
    c.pos = r.u64()?;
    if c.pos > POSITION_END {
        return Err(Error::StateCorrupt);
    }
    let i = group_index(c.pos);
    for (j, k) in c.keys.iter_mut().enumerate() {
        if i != 0 && j >= i {
            r.array(k)?;
        } else {
            *k = [0; 32];
        }
    }
    Ok(())
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// Encodes the plaintext state; `reserve` advances every exported send
    /// chain. An owner's ratchet in flight is written as aborted (rule 2).
    #[allow(clippy::cast_possible_truncation, reason = "WW, MS, counts are small")]
    pub(crate) fn encode(
        &self,
        magic: &[u8; 4],
        reserve: u64,
        now: Instant,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let mut w = Writer { buf: out, pos: 0 };
        w.try_put(magic)?;
        w.u16(STATE_FORMAT_VERSION)?;
        w.try_put(&self.session_id)?;
        w.u16(K::ID)?;
        w.u16(AEAD_ID)?;
        w.u8(self.role.byte())?;
        w.u8(self.cfg.mode.byte())?;
        w.u16(WW as u16)?;
        w.u16(MS as u16)?;
        w.u64(self.generation)?;
        w.u64(self.epoch)?;
        w.u8(u8::from(self.rx_ok)
            | u8::from(self.tx_ok) << 1
            | u8::from(self.overdue_reported) << 2)?;
        w.u64(self.ratchets_completed)?;
        let n = self.slots.iter().filter(|s| s.live).count();
        w.u8(n as u8)?;
        for s in self.slots.iter().filter(|s| s.live) {
            w.u64(s.epoch)?;
            w.u8(u8::from(s.rk_live) | u8::from(s.send_live) << 1 | u8::from(s.recv_any) << 2)?;
            if s.rk_live {
                w.try_put(&s.rk)?;
                w.try_put(&s.xk)?;
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
                w.u32(k.counter)?;
                w.try_put(&k.key)?;
            }
            put_time(&mut w, s.started, now)?;
            w.u64(s.rekey_at_ms)?;
            w.u8(u8::from(s.expires.is_some()))?;
            put_time(&mut w, s.expires.unwrap_or(now), now)?;
        }
        let k = &self.kem;
        // Rule 2: the owner's seed is never written; the attempt is recorded
        // as aborted (the restored owner tells the peer and starts afresh).
        let in_flight = k.phase == Phase::OwnerEk;
        let mut dead = k.dead_rids;
        let (ph, abort, app_request) = if in_flight {
            if !dead.contains(&Some(k.rid)) {
                dead.rotate_right(1);
                dead[0] = Some(k.rid);
            }
            let abort = Some((k.rid, AbortReason::Restored.code()));
            (Phase::Idle, abort, true)
        } else {
            (k.phase, k.abort_pending, k.app_request)
        };
        w.u8(ph.byte())?;
        w.u16(k.rid)?;
        w.u32(if ph == Phase::PeerCt { k.attempt_at } else { 0 })?;
        put_time(&mut w, k.started, now)?;
        if ph == Phase::PeerCt {
            w.try_put(&k.blob[..K::CT_LEN])?;
        }
        w.u8(u8::from(k.blob_done))?;
        w.u8(k.next_idx)?;
        w.u8(u8::from(app_request) | u8::from(k.peer_requested) << 1)?;
        w.u8(dead.iter().filter(|d| d.is_some()).count() as u8)?;
        for d in dead {
            w.u16(d.unwrap_or(0))?;
        }
        put_time(&mut w, k.next_start_at, now)?;
        w.u8(u8::from(abort.is_some()))?;
        let (ar, ae) = abort.unwrap_or((0, 0));
        w.u16(ar)?;
        w.u8(ae)?;
        w.u8(u8::from(k.done_pending.is_some()))?;
        let (dr, db) = k.done_pending.unwrap_or((0, 0));
        w.u16(dr)?;
        w.u8(db)?;
        w.try_put(&self.cfg.digest())?;
        Ok(w.pos)
    }

    /// Decodes a plaintext state (untrusted bytes: no panics, no allocation).
    #[allow(clippy::too_many_lines, reason = "one linear parser, field by field")]
    ///
    /// Decodes into `self`, a schedule fresh from [`KeySchedule::empty`] for
    /// `cfg`: the restored secrets are written where the session will keep
    /// them, not into a value that is then moved (a move leaves a copy of
    /// the roots and chain keys in a dead stack frame; issue #33 I1). On
    /// error `self` holds part of the state: drop it (its slots wipe
    /// themselves).
    pub(crate) fn decode_into(
        &mut self,
        cfg: &Config,
        bytes: &[u8],
        min_generation: u64,
        now: Instant,
    ) -> Result<(), Error> {
        let s = self;
        let mut r = Reader::new(bytes, Error::StateCorrupt);
        if r.take(4)? != MAGIC_PLAIN {
            return Err(Error::StateCorrupt);
        }
        if r.u16()? != STATE_FORMAT_VERSION {
            return Err(Error::StateVersion);
        }
        let mut session_id = [0u8; SESSION_ID_LEN];
        r.array(&mut session_id)?;
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
        s.role = role;
        s.session_id = session_id;
        s.generation = r.u64()?;
        if s.generation < min_generation {
            return Err(Error::StaleGeneration);
        }
        s.epoch = r.u64()?;
        // Far beyond any reachable epoch (one ratchet per second for 10^11 years).
        if s.epoch >= 1 << 62 {
            return Err(Error::StateCorrupt);
        }
        let f = r.u8()?;
        s.rx_ok = f & 1 != 0;
        s.tx_ok = f & 2 != 0;
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
            slot.rk_live = f & 1 != 0;
            slot.send_live = f & 2 != 0;
            slot.recv_any = f & 4 != 0;
            if slot.rk_live {
                r.array(&mut slot.rk)?;
                r.array(&mut slot.xk)?;
            }
            if slot.send_live {
                get_chain(&mut r, &mut slot.send)?;
                slot.sent_packets = r.u64()?;
                slot.sent_bytes = r.u64()?;
            }
            slot.send_limit = u64::MAX;
            let win: &mut Window<WW, MS> = &mut slot.recv;
            get_chain(&mut r, &mut win.chain)?;
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
                r.array(&mut win.skipped[j].key)?;
            }
            win.n_skipped = ns;
            slot.started = get_time(&mut r, now)?;
            slot.rekey_at_ms = r.u64()?;
            let has = r.u8()? != 0;
            let t = get_time(&mut r, now)?;
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
        if !s.slots[cur].send_live || !s.slots[cur].rk_live {
            return Err(Error::StateCorrupt);
        }
        let k = &mut s.kem;
        k.phase = Phase::from_byte(r.u8()?).ok_or(Error::StateCorrupt)?;
        // An owner's attempt in flight is never exported (rule 2).
        if k.phase == Phase::OwnerEk {
            return Err(Error::StateCorrupt);
        }
        k.rid = r.u16()?;
        k.attempt_at = r.u32()?;
        if k.phase != Phase::PeerCt && k.attempt_at != 0 {
            return Err(Error::StateCorrupt);
        }
        k.started = get_time(&mut r, now)?;
        if k.phase == Phase::PeerCt {
            k.blob[..K::CT_LEN].copy_from_slice(r.take(K::CT_LEN)?);
        }
        k.blob_done = r.u8()? != 0;
        k.next_idx = r.u8()?;
        if k.next_idx > crate::codec::MAX_INDEX {
            return Err(Error::StateCorrupt);
        }
        let f = r.u8()?;
        if f & !3 != 0 {
            return Err(Error::StateCorrupt);
        }
        k.app_request = f & 1 != 0;
        k.peer_requested = f & 2 != 0;
        let n_dead = usize::from(r.u8()?);
        if n_dead > DEAD_RIDS {
            return Err(Error::StateCorrupt);
        }
        for (i, d) in k.dead_rids.iter_mut().enumerate() {
            let rid = r.u16()?;
            *d = (i < n_dead).then_some(rid);
            if i >= n_dead && rid != 0 {
                return Err(Error::StateCorrupt);
            }
        }
        k.next_start_at = get_time(&mut r, now)?;
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
            Phase::PeerCt => next_live && !owner,
            _ => !next_live,
        };
        if !consistent {
            return Err(Error::StateCorrupt);
        }
        if s.kem.phase == Phase::OwnerConfirm {
            s.kem.confirm_since = now;
        }
        s.bucket = crate::schedule::Bucket::full(cfg.unauth_derivation_budget, now);
        // Rule 1: nothing is sent until the application has exported again
        // and confirmed that export as durable.
        s.export_required = true;
        Ok(())
    }
}
