//! docs/protocol/ratchet.md §1.8: the receive path of L1. A candidate key is derived on
//! scratch and changes nothing until it is committed after the caller's AEAD
//! check succeeded. The in-order step, stored-key lookups and small gaps
//! (`next < c ≤ next + W`) are never charged to the pre-authentication token
//! bucket: a small gap walks from the window's near checkpoints (`near.rs`),
//! at most 16 packet steps and 2 segment steps besides the frontier's walk,
//! which over a window's life is at most `W` plus the distance `next`
//! advanced (issue #33 M1: forgeries that empty the bucket must not make
//! legitimate records after a loss fail). Every larger derivation is charged
//! before it is made; its tokens are refunded if it authenticates.

use crate::Error;
use crate::chain::{POSITION_END, SEGMENT, SEGMENT_SHIFT, group_index};
use crate::config::{Event, Instant};
use crate::epoch::directions;
use crate::kdf;
use crate::kdf::{Key, PacketKdf};
use crate::kem::RatchetKem;
use crate::keys::{Candidate, CandidateKind};
use crate::schedule::KeySchedule;
use crate::schedule::Phase;
use crate::window::{Lookup, Window};

/// Whether the step from `counter` crosses into the next segment.
fn ends_segment(counter: u32) -> bool {
    (u64::from(counter) + 1) & (SEGMENT - 1) == 0
}

impl<const WW: usize, const MS: usize> Window<WW, MS> {
    /// The key of the in-order candidate `c = next` whose step stays inside
    /// the current segment (docs/protocol/ratchet.md §1.8.1): inside a group the chain's
    /// stored key (nothing derived); at a group boundary the group expanded
    /// on scratch into `next_ck` / `next_keys` (marked by `next_ck_for`),
    /// which [`Window::commit_next`] moves into the chain.
    #[inline(always)]
    pub(crate) fn in_order_key(&mut self, kdf: &PacketKdf, c: u32, mk: &mut Key) {
        let i = group_index(u64::from(c));
        if i == 0 {
            kdf.expand(&self.chain.ck, c, &mut self.next_ck, &mut self.next_keys);
            *mk = self.next_keys[0];
            self.next_ck_for = u64::from(c);
        } else {
            *mk = self.chain.keys[i];
        }
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// The live slot whose epoch has low byte `lo`.
    pub(crate) fn slot_by_lo(&self, lo: u8) -> Option<usize> {
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        self.slots
            .iter()
            .position(|s| s.live && s.epoch as u8 == lo)
    }

    /// Looks up (without changing the key state) the receive key for
    /// `(epoch_lo, counter)`; `counter = None` means "the next expected one"
    /// (stream mode). Only the pre-authentication token bucket is charged.
    ///
    /// # Errors
    /// [`Error::Closed`], [`Error::UnknownEpoch`], [`Error::TooOld`],
    /// [`Error::Replay`], [`Error::TooFarAhead`].
    #[inline(always)]
    pub(crate) fn candidate(
        &mut self,
        epoch_lo: u8,
        counter: Option<u32>,
        now: Instant,
    ) -> Result<Candidate, Error> {
        // Fast path, inlined into the callers: the next record in order of
        // the current epoch (one packet step, nothing else to decide).
        let cur = self.cur();
        let (_, theirs) = directions(self.role);
        let w = &mut self.slots[cur].recv;
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        let lo = self.epoch as u8;
        if !self.closed
            && epoch_lo == lo
            && let Some(c) = counter.or_else(|| u32::try_from(w.next).ok())
            && u64::from(c) == w.next
            && !ends_segment(c)
            && u64::from(c) < POSITION_END
        {
            let epoch = self.epoch;
            let mut cand = Candidate::new([0; 32], (epoch, c, theirs), cur, CandidateKind::Next);
            w.in_order_key(&self.kdf, c, &mut cand.pk.key);
            return Ok(cand);
        }
        self.candidate_slow(epoch_lo, counter, now)
    }

    /// [`KeySchedule::candidate`] for everything but the in-order record of
    /// the current epoch.
    #[inline(never)]
    fn candidate_slow(
        &mut self,
        epoch_lo: u8,
        counter: Option<u32>,
        now: Instant,
    ) -> Result<Candidate, Error> {
        if self.closed {
            return Err(Error::Closed);
        }
        let slot = self.slot_by_lo(epoch_lo).ok_or(Error::UnknownEpoch)?;
        let (_, theirs) = directions(self.role);
        let w = &self.slots[slot].recv;
        let counter = match counter {
            Some(c) => c,
            None => u32::try_from(w.next).map_err(|_| Error::TooFarAhead)?,
        };
        let epoch = self.slots[slot].epoch;
        match w.lookup(counter, self.cfg.max_jump) {
            Lookup::TooOld => Err(Error::TooOld),
            Lookup::Replay => Err(Error::Replay),
            Lookup::TooFarAhead => Err(Error::TooFarAhead),
            Lookup::Stored(i) => Ok(Candidate::new(
                w.skipped[i].key,
                (epoch, counter, theirs),
                slot,
                CandidateKind::Stored(i),
            )),
            Lookup::Ahead if u64::from(counter) == w.next && !ends_segment(counter) => {
                // In order (the common case): one step, no scratch chains.
                let mut cand =
                    Candidate::new([0; 32], (epoch, counter, theirs), slot, CandidateKind::Next);
                let w = &mut self.slots[slot].recv;
                w.in_order_key(&self.kdf, counter, &mut cand.pk.key);
                Ok(cand)
            }
            Lookup::Ahead => {
                let c = u64::from(counter);
                if w.pending.live && w.pending.c == c && w.pending.next == w.next {
                    // The same derivation as the last uncommitted candidate
                    // (a repeated forgery): no new steps (docs/protocol/ratchet.md §1.8).
                    let kind = CandidateKind::Ahead {
                        expect_next: w.next,
                    };
                    let key = w.pending.mk;
                    return Ok(Candidate::new(key, (epoch, counter, theirs), slot, kind));
                }
                let keep = w.keep_for(c);
                if w.is_near(c) {
                    // A small gap: bounded work, never charged (M1).
                    let w = &mut self.slots[slot].recv;
                    let kind = CandidateKind::Ahead {
                        expect_next: w.next,
                    };
                    let mut cand = Candidate::new([0; 32], (epoch, counter, theirs), slot, kind);
                    w.prepare_near(c, keep, &mut cand.pk.key);
                    return Ok(cand);
                }
                let p0 = c - keep;
                let jt = p0 >> SEGMENT_SHIFT;
                // Segment walk starts at the best cached checkpoint, if any.
                let start = w
                    .best_checkpoint(jt)
                    .map_or(w.chain.pos >> SEGMENT_SHIFT, |i| w.checkpoints[i].seg);
                let here = w.chain.pos >> SEGMENT_SHIFT;
                let cost = if jt == here {
                    // Inside the chain's own segment: the walk starts at the
                    // chain's position (packet steps to `c`, then `c` itself).
                    p0 - w.chain.pos + keep + 1
                } else {
                    // Segment steps from the start point, entering `jt`
                    // (2), packet steps to `c`, then `c` itself.
                    jt.saturating_sub(start) + (p0 & (SEGMENT - 1)) + keep + 2
                };
                // Only the in-order record (`c = next`: at most a packet step
                // and a segment entry) and small gaps are free; every other
                // derivation is charged before it is made (docs/protocol/ratchet.md §1.8).
                let charged = if c == w.next { 0 } else { cost };
                if charged > 0 {
                    self.charge(charged, now)?;
                }
                let w = &mut self.slots[slot].recv;
                let kind = CandidateKind::Ahead {
                    expect_next: w.next,
                };
                let mut cand = Candidate::new([0; 32], (epoch, counter, theirs), slot, kind);
                w.prepare_ahead(c, keep, &mut cand.pk.key);
                w.pending.charged = charged;
                Ok(cand)
            }
        }
    }

    /// Charges `cost` derivation steps to the token bucket.
    fn charge(&mut self, cost: u64, now: Instant) -> Result<(), Error> {
        self.bucket
            .take(self.cfg.unauth_derivation_budget, cost, now)
    }

    /// Counts a failed authentication (with the token bucket, the only change
    /// an unauthentic record makes). At `auth_failure_limit` failures in one
    /// epoch an [`Event::AuthFailureAlarm`] is raised once; the session is
    /// never closed by unauthenticated input (docs/protocol/ratchet.md §1.8 step 4).
    pub(crate) fn auth_failed(&mut self) {
        self.auth_failures = self.auth_failures.saturating_add(1);
        self.epoch_auth_failures = self.epoch_auth_failures.saturating_add(1);
        if self.epoch_auth_failures == self.cfg.auth_failure_limit {
            self.events
                .push(Event::AuthFailureAlarm { epoch: self.epoch });
        }
    }

    /// Commits an authenticated candidate: consumes its key, stores skipped
    /// keys, sets the replay bit, and performs the causal epoch switch.
    ///
    /// # Errors
    /// [`Error::Replay`] if the state changed since the candidate was made.
    #[inline(always)]
    pub(crate) fn commit(&mut self, cand: Candidate, now: Instant) -> Result<(), Error> {
        let s = &mut self.slots[cand.slot];
        if !s.live || s.epoch != cand.epoch {
            return Err(Error::Replay);
        }
        match cand.kind {
            CandidateKind::Stored(i) => {
                if i >= s.recv.n_skipped || s.recv.skipped[i].counter != cand.counter {
                    return Err(Error::Replay);
                }
                s.recv.clear_pending();
                s.recv.commit_stored(i);
            }
            CandidateKind::Next => {
                let c = u64::from(cand.counter);
                if s.recv.next != c {
                    return Err(Error::Replay);
                }
                if group_index(c) == 0 && s.recv.next_ck_for != c {
                    // Another candidate replaced its group expansion since:
                    // derive it again.
                    let mut mk = [0u8; 32];
                    s.recv.in_order_key(&self.kdf, cand.counter, &mut mk);
                    kdf::wipe_key(&mut mk);
                }
                s.recv.commit_next();
                s.recv.clear_pending();
            }
            CandidateKind::Ahead { expect_next } => {
                if s.recv.next != expect_next {
                    return Err(Error::Replay);
                }
                let c = u64::from(cand.counter);
                let p = &s.recv.pending;
                // An authentic record gets back the tokens its derivation
                // was charged (only unauthenticated work is rate-limited).
                let refund = if p.live && p.c == c && p.next == expect_next {
                    p.charged
                } else {
                    0
                };
                s.recv.commit_pending(c);
                let rate = u64::from(self.cfg.unauth_derivation_budget);
                self.bucket.tokens = self.bucket.tokens.saturating_add(refund).min(rate);
            }
        }
        s.recv_any = true;
        self.rx_ok = true;
        let epoch = cand.epoch;
        if epoch != self.epoch || self.kem.phase == Phase::OwnerConfirm {
            self.after_commit(epoch, now);
        }
        Ok(())
    }

    /// The causal epoch switch after a commit in another epoch than the
    /// sending one, or while the owner waits for the peer's switch.
    #[inline(never)]
    fn after_commit(&mut self, epoch: u64, now: Instant) {
        if epoch == self.epoch.wrapping_add(1) {
            // Peer side, step 4: the owner has switched (it decapsulated the
            // ct this side sent: proof it decrypts our records); follow it.
            self.tx_ok = true;
            self.switch_to_next(now);
        } else if epoch == self.epoch && self.kem.phase == Phase::OwnerConfirm {
            // Owner side: the peer has switched (after decrypting our e+1
            // record); start its grace countdown.
            self.tx_ok = true;
            self.kem.phase = Phase::Idle;
            self.kem.wedge_reported = false;
            self.start_grace(now);
        }
    }
}
