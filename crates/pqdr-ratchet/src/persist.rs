//! docs/protocol/ratchet.md §1.11: the sealed blob around the state of
//! `state.rs`, the two-phase export (export, then `confirm_persisted` once
//! the blob is durable) and import, and the public `Session` API for them.

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{Tag, XChaCha20Poly1305, XNonce};
use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::Error;
use crate::chain::POSITION_END;
use crate::config::{Config, Instant};
use crate::kdf;
use crate::kem::RatchetKem;
use crate::schedule::{KeySchedule, PendingExport};
use crate::session::Session;
#[cfg(feature = "test-utils")]
use crate::state::MAGIC_SNAPSHOT;
use crate::state::{
    MAGIC_PLAIN, MAGIC_SEALED, MIN_STORAGE_KEY_LEN, NONCE_AT, NONCE_LEN, SEALED_HEADER,
    SESSION_ID_LEN, SID_AT, STATE_FORMAT_VERSION, TAG_LEN, max_state_len,
};

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// Exports the sealed state (docs/protocol/ratchet.md §1.11). On every
    /// error `out` is wiped (it may hold part of the plaintext state).
    pub(crate) fn export<R: CryptoRng + ?Sized>(
        &mut self,
        reserve: u32,
        storage_key: &[u8],
        now: Instant,
        out: &mut [u8],
        rng: &mut R,
    ) -> Result<usize, Error> {
        let r = self.export_inner(reserve, storage_key, now, out, rng);
        if r.is_err() {
            out.zeroize();
        }
        r
    }

    fn export_inner<R: CryptoRng + ?Sized>(
        &mut self,
        reserve: u32,
        storage_key: &[u8],
        now: Instant,
        out: &mut [u8],
        rng: &mut R,
    ) -> Result<usize, Error> {
        if self.closed {
            return Err(Error::Closed);
        }
        if storage_key.len() < MIN_STORAGE_KEY_LEN {
            return Err(Error::Malformed);
        }
        // A restored sender starts `reserve` ahead: the receiver must be able
        // to follow that jump (it accepts gaps below `max_jump` only).
        if reserve >= self.cfg.max_jump {
            return Err(Error::ReserveTooLarge);
        }
        // The blob's size depends on the state; the error names the bound.
        let short = Error::short(max_state_len(WW, MS), out.len());
        if out.len() < SEALED_HEADER + TAG_LEN {
            return Err(short);
        }
        // A generation never wraps (a wrapped one would pass any
        // `min_generation` check as 0); 2^64 exports are unreachable anyway.
        let generation = self.generation.checked_add(1).ok_or(Error::StateCorrupt)?;
        let body_end = out.len() - TAG_LEN;
        self.generation = generation;
        let enc = self.encode(
            MAGIC_PLAIN,
            u64::from(reserve),
            now,
            &mut out[SEALED_HEADER..body_end],
        );
        self.generation = generation - 1;
        let n = enc.map_err(|e| match e {
            Error::BufferTooSmall { .. } => short,
            e => e,
        })?;
        let mut nonce = [0u8; NONCE_LEN];
        rng.fill_bytes(&mut nonce);
        // Public by design: the nonce is written next to the ciphertext.
        pqdr_ctgrind::hook::declassify(&mut nonce);
        out[..4].copy_from_slice(MAGIC_SEALED);
        out[4..SID_AT].copy_from_slice(&STATE_FORMAT_VERSION.to_be_bytes());
        out[SID_AT..NONCE_AT].copy_from_slice(&self.session_id);
        out[NONCE_AT..SEALED_HEADER].copy_from_slice(&nonce);
        let mut key = kdf::state_seal_key(storage_key);
        let cipher = XChaCha20Poly1305::new((&key).into());
        key.zeroize();
        let (head, rest) = out.split_at_mut(SEALED_HEADER);
        let tag = cipher
            .encrypt_inout_detached(&XNonce::from(nonce), head, (&mut rest[..n]).into())
            .map_err(|_| short)?;
        rest[n..n + TAG_LEN].copy_from_slice(&tag);
        // Phase 1 of rule 1: the blob is not durable yet, so no limit is
        // raised. Each live send chain may go on up to the smaller of its
        // current limit and the position this blob restores it to (a restored
        // session, from this blob or from the durable one, then never sends
        // at a position this one used); epochs installed from now on get the
        // smaller reserve.
        let reserve = u64::from(reserve);
        let mut limits = [None; 3];
        for (s, l) in self.slots.iter_mut().zip(&mut limits) {
            if s.live && s.send_live {
                let at = s.send.pos.saturating_add(reserve).min(POSITION_END);
                s.send_limit = s.send_limit.min(at);
                *l = Some((s.epoch, at));
            }
        }
        self.send_reserve = self.send_reserve.min(reserve);
        self.generation = generation;
        self.pending_export = Some(PendingExport {
            generation,
            reserve,
            limits,
        });
        Ok(SEALED_HEADER + n + TAG_LEN)
    }

    /// Phase 2 of docs/protocol/ratchet.md §1.11 rule 1: the blob of export
    /// `generation` and that generation are durable. Its send positions
    /// become the live send limits, its reserve that of epochs installed from
    /// now on, and a restored session may send again. Confirming the already
    /// confirmed latest export again changes nothing.
    ///
    /// # Errors
    /// [`Error::UnknownGeneration`] if `generation` is not that of the latest
    /// export (an older export, one never made, or none since
    /// `import_state`).
    pub fn confirm_persisted(&mut self, generation: u64) -> Result<(), Error> {
        let p = match self.pending_export {
            // Exports overwrite it: a pending export is always the latest.
            Some(p) if p.generation == generation => p,
            // Already confirmed (never for generation 0 or a restored, not
            // yet exported session).
            None if generation == self.generation
                && self.generation > 0
                && !self.export_required =>
            {
                return Ok(());
            }
            _ => return Err(Error::UnknownGeneration),
        };
        self.pending_export = None;
        for s in self.slots.iter_mut().filter(|s| s.live && s.send_live) {
            // An epoch installed after the export was not in the blob: it
            // may carry `reserve` records, as if installed after this call.
            s.send_limit = p
                .limits
                .iter()
                .flatten()
                .find(|(e, _)| *e == s.epoch)
                .map_or(p.reserve, |(_, at)| *at);
        }
        self.send_reserve = p.reserve;
        self.export_required = false;
        Ok(())
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> Session<K, WW, MS> {
    /// Exports the state for persistence, sealed with XChaCha20-Poly1305
    /// under `DK(CTX_STATE_SEAL, storage_key)` with a fresh random nonce
    /// from `rng` (docs/protocol/ratchet.md §1.11). Returns the bytes written
    /// (at most [`max_state_len`]). The blob carries [`Session::session_id`]
    /// in clear and authenticated.
    ///
    /// Persistence has two phases. The exported chains start `reserve`
    /// records ahead of the live ones, but the reservation takes effect only
    /// once the application has made the blob **and** its generation
    /// ([`Session::generation`]) durable and called
    /// [`Session::confirm_persisted`]. Until then this export never raises
    /// what the live session may send: each send chain stays at or below the
    /// position of the last confirmed blob (and of this one), and an epoch
    /// installed meanwhile gets the smaller reserve. After the confirmation
    /// the live session sends at most `reserve` further records per
    /// (epoch, direction) — including epochs installed later — before the
    /// next confirmed export ([`Error::ReservationExhausted`]). So whichever
    /// blob survives a crash (the old durable one or this one), the restored
    /// session never reuses a (key, nonce). The generation increments on
    /// every export.
    ///
    /// Pass the last persisted generation as `min_generation` to
    /// [`Session::import_state`]: that refuses a rollback to an older blob.
    ///
    /// ```
    /// # #[cfg(feature = "mlkem")] {
    /// use pqdr_ratchet::{Config, DefaultSession, InitialSecret, Instant, Role, max_state_len};
    ///
    /// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
    /// let cfg = Config::default();
    /// let init = InitialSecret { secret: &[7; 32], transcript: b"", context: b"doc" };
    /// let mut alice = DefaultSession::new(&cfg, Role::Initiator, init, Instant(0), &mut rng)?;
    /// let storage_key = [0x5a; 32];
    ///
    /// // 1. Export; 2. persist the blob and its generation (keep the session
    /// // id in the application's index); 3. confirm; then send.
    /// let mut blob = vec![0u8; max_state_len(16, 256)];
    /// let n = alice.export_state(64, &storage_key, Instant(1), &mut blob, &mut rng)?;
    /// blob.truncate(n);
    /// let (generation, id) = (alice.generation(), alice.session_id());
    /// // ... write `blob` and `generation` durably (fsync) ...
    /// alice.confirm_persisted(generation)?;
    /// let mut record = [0u8; 128];
    /// alice.seal(Instant(2), b"", b"hello", &mut record, &mut rng)?;
    ///
    /// // After a crash: import with the expected session id and the
    /// // persisted generation; export, persist and confirm before sending.
    /// let mut restored =
    ///     DefaultSession::import_state(&cfg, &storage_key, id, &mut blob, generation, Instant(3))?;
    /// assert_eq!(restored.session_id(), id);
    /// assert!(restored.seal(Instant(3), b"", b"early", &mut record, &mut rng).is_err());
    /// let blob2 = restored.export_state_to_vec(64, &storage_key, Instant(3), &mut rng)?;
    /// // ... write `blob2` and `restored.generation()` durably ...
    /// # drop(blob2);
    /// restored.confirm_persisted(restored.generation())?;
    /// restored.seal(Instant(4), b"", b"again", &mut record, &mut rng)?;
    /// # }
    /// # Ok::<(), pqdr_ratchet::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`]; [`Error::Malformed`] if the storage key is
    /// shorter than [`MIN_STORAGE_KEY_LEN`]; [`Error::ReserveTooLarge`] if
    /// `reserve` is not below the configuration's `max_jump` (the peer could
    /// not follow a restored sender); [`Error::Closed`] for a closed session.
    /// On error nothing changes and `out` is wiped.
    pub fn export_state<R: CryptoRng + ?Sized>(
        &mut self,
        reserve: u32,
        storage_key: &[u8],
        now: Instant,
        out: &mut [u8],
        rng: &mut R,
    ) -> Result<usize, Error> {
        self.ks.export(reserve, storage_key, now, out, rng)
    }

    /// [`Session::export_state`] into a new vector (`alloc` convenience).
    ///
    /// # Errors
    /// As [`Session::export_state`].
    #[cfg(feature = "alloc")]
    pub fn export_state_to_vec<R: CryptoRng + ?Sized>(
        &mut self,
        reserve: u32,
        storage_key: &[u8],
        now: Instant,
        rng: &mut R,
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        let mut v = alloc::vec![0u8; max_state_len(WW, MS)];
        let n = self.export_state(reserve, storage_key, now, &mut v, rng)?;
        v.truncate(n);
        Ok(v)
    }

    /// Tells the session that the blob of export `generation` and the
    /// generation itself are durable (phase 2 of [`Session::export_state`]):
    /// the blob's reservation takes effect, and a restored session may send.
    /// Only the latest export can be confirmed.
    ///
    /// # Errors
    /// [`Error::UnknownGeneration`] for any other generation (an older
    /// export, one never made, or none since [`Session::import_state`]).
    pub fn confirm_persisted(&mut self, generation: u64) -> Result<(), Error> {
        self.ks.confirm_persisted(generation)
    }

    /// The generation of the last export (persist it with the blob).
    pub fn generation(&self) -> u64 {
        self.ks.generation
    }

    /// The session id: 16 random bytes drawn at creation, kept across
    /// export and import, written into every blob. Keep it in the
    /// application's index of stored sessions and pass it to
    /// [`Session::import_state`].
    pub fn session_id(&self) -> [u8; SESSION_ID_LEN] {
        self.ks.session_id
    }

    /// Restores a sealed state made by [`Session::export_state`] of the
    /// session `session_id` (the caller's record of which session this slot
    /// holds: a blob of another session is refused, even under the same
    /// storage key).
    ///
    /// `blob` is decrypted in place (no second buffer: stack-only callers
    /// need no scratch); on success its plaintext is wiped, on failure it is
    /// left as it was (sealed) unless the tag verified. `min_generation` is
    /// the caller's last persisted generation: older blobs are refused.
    ///
    /// The restored session opens records at once but **sends nothing until
    /// it has been exported again and that export confirmed**
    /// ([`Error::ExportRequired`] from `seal`, nothing from
    /// `poll_transmit`): export, persist the new blob and generation, call
    /// [`Session::confirm_persisted`], then send. A ratchet that the owner
    /// had in flight at export time is aborted and restarted with fresh
    /// randomness. Records received after the exported one was taken are
    /// accepted once more (see the crate README, "Persistence").
    ///
    /// # Errors
    /// [`Error::WrongSession`] for a blob of another session,
    /// [`Error::StateVersion`] for an unknown format version,
    /// [`Error::StaleGeneration`] for a rollback, [`Error::StateCorrupt`] for
    /// anything else wrong (tampering, another storage key or
    /// configuration), [`Error::Malformed`] for an invalid `cfg` or a short
    /// storage key.
    pub fn import_state(
        cfg: &Config,
        storage_key: &[u8],
        session_id: [u8; SESSION_ID_LEN],
        blob: &mut [u8],
        min_generation: u64,
        now: Instant,
    ) -> Result<Self, Error> {
        if storage_key.len() < MIN_STORAGE_KEY_LEN {
            return Err(Error::Malformed);
        }
        if blob.len() < SEALED_HEADER + TAG_LEN || &blob[..4] != MAGIC_SEALED {
            return Err(Error::StateCorrupt);
        }
        if blob[4..SID_AT] != STATE_FORMAT_VERSION.to_be_bytes() {
            return Err(Error::StateVersion);
        }
        if blob[SID_AT..NONCE_AT] != session_id {
            return Err(Error::WrongSession);
        }
        let n = blob.len() - SEALED_HEADER - TAG_LEN;
        let mut key = kdf::state_seal_key(storage_key);
        let cipher = XChaCha20Poly1305::new((&key).into());
        key.zeroize();
        let (head, rest) = blob.split_at_mut(SEALED_HEADER);
        let (body, tag) = rest.split_at_mut(n);
        let tag = Tag::try_from(&*tag).map_err(|_| Error::StateCorrupt)?;
        let mut nonce = [0u8; NONCE_LEN];
        nonce.copy_from_slice(&head[NONCE_AT..]);
        if cipher
            .decrypt_inout_detached(&XNonce::from(nonce), head, (&mut *body).into(), &tag)
            .is_err()
        {
            return Err(Error::StateCorrupt);
        }
        // Decoded in place, into the value that is returned (issue #33 I1:
        // no moved-from copy of the restored roots and chain keys is left in
        // a dead stack frame). On error the partly filled session is
        // dropped, and its slots wipe themselves.
        let mut out: Result<Self, Error> = Ok(Session {
            ks: KeySchedule::empty(cfg, crate::config::Role::Initiator),
        });
        if let Ok(restored) = &mut out {
            let r = restored.ks.decode_into(cfg, body, min_generation, now);
            body.zeroize();
            // The header's id is authenticated as associated data; the
            // state's own copy must agree with it.
            let r = r.and_then(|()| {
                if restored.ks.session_id == session_id {
                    Ok(())
                } else {
                    Err(Error::StateCorrupt)
                }
            });
            if let Err(e) = r {
                out = Err(e);
            }
        }
        out
    }

    /// Serializes the plaintext state without exporting it (no generation
    /// bump, no reservation, never importable). Test-only: the atomicity
    /// property ("any failed `open` leaves the state bit-identical") compares
    /// these. It contains secrets.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`].
    #[cfg(feature = "test-utils")]
    pub fn snapshot(&self, now: Instant, out: &mut [u8]) -> Result<usize, Error> {
        self.ks.encode(MAGIC_SNAPSHOT, 0, now, out)
    }
}
