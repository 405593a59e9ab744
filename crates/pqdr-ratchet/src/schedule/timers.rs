//! docs/protocol/ratchet.md §1.7: timers — ratchet triggers and jitter, attempt timeouts,
//! the owner's confirmation wait (wedge rule, §1.8), grace periods of old
//! epochs — and the next time the application must call back.

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::KeySchedule;
use super::exchange::Phase;
use crate::config::{AbortReason, Event, Instant};
use crate::kem::RatchetKem;

/// Counter from which a ratchet is forced (docs/protocol/ratchet.md §1.7).
const FORCE_RATCHET_AT: u64 = 1 << 31;

/// Jittered rekey age: `rekey_after_ms · (0.9 + 0.2·u)` for a uniform `u`.
pub(crate) fn jitter(rekey_after_ms: u64, mut r: u32) -> u64 {
    // Public by design: the rekey time is observable from the traffic.
    pqdr_ctgrind::hook::declassify(&mut r);
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "public configuration value"
    )]
    let tenth = rekey_after_ms / 10; // ct: public division
    let span = (u128::from(tenth) * 2 * u128::from(r)) >> 32;
    #[allow(clippy::cast_possible_truncation, reason = "span ≤ 2·tenth")]
    let span = span as u64;
    rekey_after_ms - tenth + span
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// Sets a round-trip-time hint: old-epoch receive state then lives
    /// `max(3 × RTT, 1 ms)` instead of `old_epoch_grace_ms` (docs/protocol/ratchet.md §1.7
    /// step 5). `None` restores the configured grace. Not persisted.
    pub fn set_rtt_hint(&mut self, rtt_ms: Option<u64>) {
        self.rtt_hint_ms = rtt_ms;
    }

    /// The rekey age of a newly installed epoch: [`jitter`] of the configured
    /// `rekey_after_ms` with the random word `r`.
    pub(crate) fn jittered_rekey_delay(&self, r: u32) -> u64 {
        jitter(self.cfg.rekey_after_ms, r)
    }

    /// The grace period of an old epoch's receive state.
    pub(crate) fn grace_ms(&self) -> u64 {
        self.rtt_hint_ms
            .map_or(self.cfg.old_epoch_grace_ms, |r| r.saturating_mul(3).max(1))
    }

    pub(crate) fn start_grace(&mut self, now: Instant) {
        if let Some(p) = self.slot_of(self.epoch.wrapping_sub(1))
            && self.epoch > 0
        {
            self.slots[p].expires = Some(now.plus(self.grace_ms()));
        }
    }

    /// Whether a ratchet trigger (time, packets, bytes, counter, request) is active.
    pub(crate) fn triggered(&self, now: Instant) -> bool {
        let c = &self.slots[self.cur()];
        self.kem.app_request
            || self.kem.peer_requested
            || now.since(c.started) >= c.rekey_at_ms
            || c.sent_packets >= self.cfg.rekey_after_packets
            || c.sent_bytes >= self.cfg.rekey_after_bytes
            || c.send.pos >= FORCE_RATCHET_AT
    }

    /// Advances timers: starts or aborts ratchets, expires grace epochs.
    pub fn on_time<R: CryptoRng + ?Sized>(&mut self, now: Instant, rng: &mut R) {
        for i in 0..3 {
            if self.slots[i].live
                && self.slots[i].epoch != self.epoch
                && let Some(t) = self.slots[i].expires
                && now >= t
                && self.slots[i].epoch < self.epoch
            {
                self.slots[i].zeroize();
            }
        }
        if self.wedged(now) && !self.kem.wedge_reported {
            self.kem.wedge_reported = true;
            self.events.push(Event::Wedged);
        }
        if self.kem.phase == Phase::OwnerEk
            && now.since(self.kem.started) >= self.cfg.ratchet_timeout_ms
        {
            self.abort_own(AbortReason::Timeout, true, now);
        }
        if self.kem.phase == Phase::Idle
            && self.is_owner()
            && now >= self.kem.next_start_at
            && self.triggered(now)
        {
            self.start_ratchet(now, rng);
        }
    }

    /// The time at which [`KeySchedule::on_time`] has something to do.
    pub fn next_timeout(&self) -> Option<Instant> {
        let mut t: Option<Instant> = None;
        let mut min = |x: Instant| {
            t = Some(match t {
                Some(y) if y <= x => y,
                _ => x,
            });
        };
        for s in &self.slots {
            if s.live
                && s.epoch != self.epoch
                && let Some(e) = s.expires
            {
                min(e);
            }
        }
        let c = &self.slots[self.cur()];
        match self.kem.phase {
            Phase::OwnerEk => min(self.kem.started.plus(self.cfg.ratchet_timeout_ms)),
            Phase::OwnerConfirm if !self.kem.wedge_reported => {
                min(self.kem.confirm_since.plus(self.cfg.confirm_timeout_ms));
            }
            Phase::Idle if self.is_owner() => {
                let due = c.started.plus(c.rekey_at_ms);
                let due = if self.kem.app_request || self.kem.peer_requested {
                    self.kem.next_start_at
                } else if due > self.kem.next_start_at {
                    due
                } else {
                    self.kem.next_start_at
                };
                min(due);
            }
            _ => {}
        }
        if !self.is_owner() && self.kem.phase == Phase::Idle {
            min(c.started.plus(c.rekey_at_ms));
        }
        if self.control_pending() {
            min(self.kem.pace_at);
        }
        t
    }
}
