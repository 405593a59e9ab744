//! docs/protocol/ratchet.md §1.8–1.9: the receive window of one (epoch, direction).
//!
//! `next` = highest received counter + 1 (0 before the first packet), a
//! `W`-bit replay bitmap (RFC 6479 style) over `[next − W, next)`, and up to
//! `MS` stored message keys for skipped counters in that range, lowest evicted
//! first. All counters are public; only keys are secret. Candidates with a
//! small gap (`next < c ≤ next + W`) are derived from the near checkpoints
//! (`near.rs`, issue #33 M1), larger ones from the lookahead cache.

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::chain::{Chain, POSITION_END, group_index};
use crate::kdf::{GROUP, GroupKeys, Key};
use crate::near::{NEAR_EVERY, Near};

/// A stored key for a skipped counter.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Skipped {
    pub(crate) counter: u32,
    pub(crate) key: Key,
}

/// Result of a non-mutating lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// Below the window, or in it but its key was evicted.
    TooOld,
    /// Already received.
    Replay,
    /// A stored skipped key at this index.
    Stored(usize),
    /// Ahead of (or at) `next`, within `max_jump`.
    Ahead,
    /// Ahead by more than `max_jump`.
    TooFarAhead,
}

/// Segments between two lookahead checkpoints.
pub(crate) const CHECKPOINT_EVERY: u64 = 1024;
/// Lookahead checkpoints kept per window (covers `max_jump = 2^24`).
pub(crate) const CHECKPOINTS: usize = 64;

/// A segment key `seg_j` for a future segment `j` (docs/protocol/ratchet.md §1.8 lookahead cache).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Checkpoint {
    pub(crate) seg: u64,
    pub(crate) key: Key,
}

/// The chains derived for an ahead candidate (`KeySchedule::candidate` for a
/// counter that is not simply the next one), kept here until the candidate is
/// committed instead of inside the `Candidate`: that keeps the `Candidate`
/// small so that moving it is a few inline 16-byte copies, not a
/// `memcpy` call whose wide loads stall on the just-derived keys
/// (BENCHMARKS.md). Not persisted. Everything here is derivable from `chain`
/// (positions at or after `next`); it is wiped at every commit of this window
/// (so it never outlives the chain position it was derived from) and with
/// the window.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Pending {
    /// `base`/`after` below belong to the candidate `(c, next)`.
    pub(crate) live: bool,
    /// The candidate's counter.
    pub(crate) c: u64,
    /// `Window::next` when the candidate was derived.
    pub(crate) next: u64,
    /// Derived from the near checkpoints (a small gap, never charged):
    /// `base` is not derived before authentication.
    pub(crate) near: bool,
    /// Tokens the candidate was charged (refunded if it authenticates).
    pub(crate) charged: u64,
    /// Whether skipped keys are stored (`base` is meaningful).
    pub(crate) has_base: bool,
    /// Chain at the first counter whose key will be stored.
    pub(crate) base: Chain,
    /// Chain at `c + 1`.
    pub(crate) after: Chain,
    /// The candidate's message key: a repeated candidate for the same
    /// `(c, next)` (a replayed forgery) reuses it without new steps.
    pub(crate) mk: Key,
    /// The message keys of `[c − n_keys, c)` met on the way to `c` (at most
    /// [`PENDING_KEYS`], all to be stored): the commit stores these instead
    /// of deriving them a second time (reordered records cost one step each,
    /// not two). `keys[..n_keys]` are valid. Future keys, like the rest.
    pub(crate) keys: [Key; PENDING_KEYS],
    pub(crate) n_keys: usize,
}

/// Skipped keys an ahead candidate keeps from its own derivation.
pub(crate) const PENDING_KEYS: usize = 64;

impl Pending {
    pub(crate) const fn empty() -> Self {
        Pending {
            live: false,
            c: 0,
            next: 0,
            near: false,
            charged: 0,
            has_base: false,
            base: Chain::empty(),
            after: Chain::empty(),
            mk: [0; 32],
            keys: [[0; 32]; PENDING_KEYS],
            n_keys: 0,
        }
    }
}

/// Receive window with `64·WW` bitmap bits and `MS` skipped-key slots.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Window<const WW: usize, const MS: usize> {
    /// Chain at position `next`.
    pub(crate) chain: Chain,
    /// Highest received + 1.
    pub(crate) next: u64,
    /// Bit `c mod W` is set iff counter `c ∈ [next − W, next)` was received.
    pub(crate) bitmap: [u64; WW],
    /// Stored keys, ascending by counter; `skipped[..n_skipped]` are valid.
    pub(crate) skipped: [Skipped; MS],
    /// Number of valid stored keys.
    pub(crate) n_skipped: usize,
    /// Lookahead cache: segment keys of future segments at multiples of
    /// `CHECKPOINT_EVERY`, filled while deriving far-ahead candidates before
    /// authentication. Everything here is derivable from `chain` (future keys
    /// only); entries the chain has passed are erased at commit. Not persisted.
    pub(crate) checkpoints: [Checkpoint; CHECKPOINTS],
    pub(crate) n_checkpoints: usize,
    /// Chains of the last ahead candidate, until its commit (not persisted).
    pub(crate) pending: Pending,
    /// Near checkpoints: the chain every 16 positions in `(next, next + W]`
    /// as far as candidates reached (`near.rs`; not persisted).
    pub(crate) near: Near<WW>,
    /// The chain key after the step of counter `next_ck_for`, derived by an
    /// in-order candidate (`u64::MAX`: none). Kept here rather than in the
    /// `Candidate`, so that the chain key goes from the derivation to the
    /// commit without passing through the moves of the candidate. Derivable
    /// from `chain`; consumed or wiped at every commit (not persisted).
    pub(crate) next_ck: Key,
    /// The keys of the group expanded with `next_ck` (docs/protocol/ratchet.md §1.4.4),
    /// valid with it.
    pub(crate) next_keys: GroupKeys,
    pub(crate) next_ck_for: u64,
}

impl<const WW: usize, const MS: usize> Window<WW, MS> {
    /// Window bits `W`.
    pub(crate) const BITS: u64 = 64 * WW as u64;

    /// A fresh window over `chain` (position 0).
    pub(crate) fn new(chain: Chain) -> Self {
        Window {
            chain,
            next: 0,
            bitmap: [0; WW],
            skipped: core::array::from_fn(|_| Skipped {
                counter: 0,
                key: [0; 32],
            }),
            n_skipped: 0,
            checkpoints: core::array::from_fn(|_| Checkpoint {
                seg: 0,
                key: [0; 32],
            }),
            n_checkpoints: 0,
            pending: Pending::empty(),
            near: Near::new(),
            next_ck: [0; 32],
            next_keys: [[0; 32]; GROUP],
            next_ck_for: u64::MAX,
        }
    }

    /// Derives the ahead candidate `c ≥ next` storing `keep` skipped keys:
    /// writes its message key to `mk` and its chains to `pending`.
    pub(crate) fn prepare_ahead(&mut self, c: u64, keep: u64, mk: &mut Key) {
        let mut after = self.lookahead(c - keep);
        self.pending.has_base = keep > 0;
        if keep > 0 {
            self.pending.base.assign(&after);
        }
        self.pending.n_keys = 0;
        #[allow(clippy::cast_possible_truncation, reason = "keep ≤ PENDING_KEYS")]
        if keep as usize <= PENDING_KEYS {
            // Walk to `c` keeping the keys on the way (same steps as `jump_to`).
            let n = keep as usize;
            for k in &mut self.pending.keys[..n] {
                after.step(k);
            }
            self.pending.n_keys = n;
        } else {
            after.jump_to(c);
        }
        after.step(mk);
        self.pending.mk = *mk;
        self.pending.after.assign(&after);
        self.pending.c = c;
        self.pending.next = self.next;
        self.pending.near = false;
        self.pending.charged = 0;
        self.pending.live = true;
    }

    /// Whether `c` is a small gap ahead: `next < c ≤ next + W` (never
    /// charged, derived from the near checkpoints).
    #[inline]
    pub(crate) fn is_near(&self, c: u64) -> bool {
        c > self.next && c - self.next <= Self::BITS
    }

    /// [`Window::prepare_ahead`] for a small gap ([`Window::is_near`]),
    /// docs/protocol/ratchet.md §1.8 (M1): extends the near frontier to
    /// `⌊c/16⌋·16` if needed, then walks from the checkpoint there (or from
    /// `next`): at most 16 packet steps and 2 segment steps besides the
    /// frontier's walk. Keeps the keys met in `[c − keep, c)` (at most
    /// [`PENDING_KEYS`]); the rest of the skipped keys are derived at the
    /// commit, after authentication.
    pub(crate) fn prepare_near(&mut self, c: u64, keep: u64, mk: &mut Key) {
        let next = self.next;
        let target = c & !(NEAR_EVERY - 1);
        let kfrom = c - keep.min(PENDING_KEYS as u64);
        let s = target.max(next);
        let front = self.near.front.pos;
        let mut kstart = kfrom.max(s);
        if target > next && (front <= next || front < target) {
            kstart = kfrom.max(front.max(next));
            let keys = &mut self.pending.keys;
            self.near.extend(&self.chain, next, target, |pos, k| {
                if pos >= kstart {
                    #[allow(clippy::cast_possible_truncation, reason = "< PENDING_KEYS")]
                    let i = (pos - kstart) as usize;
                    keys[i] = *k;
                }
            });
        }
        let mut after = self.near.chain_at(&self.chain, next, s);
        let mut skip = [0u8; 32];
        while after.pos < c {
            if after.pos >= kstart {
                #[allow(clippy::cast_possible_truncation, reason = "< PENDING_KEYS")]
                let i = (after.pos - kstart) as usize;
                after.step(&mut self.pending.keys[i]);
            } else {
                after.step(&mut skip);
            }
        }
        crate::kdf::wipe_key(&mut skip);
        after.step(mk);
        #[allow(clippy::cast_possible_truncation, reason = "≤ PENDING_KEYS")]
        let n = (c - kstart) as usize;
        let p = &mut self.pending;
        p.n_keys = n;
        p.has_base = keep > 0;
        p.mk = *mk;
        p.after.assign(&after);
        p.c = c;
        p.next = next;
        p.near = true;
        p.charged = 0;
        p.live = true;
    }

    /// Commits the ahead candidate `c` derived by [`Window::prepare_ahead`]
    /// (derived again if another candidate of this window replaced it since),
    /// then wipes `pending`.
    pub(crate) fn commit_pending(&mut self, c: u64) {
        let keep = self.keep_for(c);
        if !(self.pending.live && self.pending.c == c && self.pending.next == self.next) {
            let mut mk = [0u8; 32];
            if self.is_near(c) {
                self.prepare_near(c, keep, &mut mk);
            } else {
                self.prepare_ahead(c, keep, &mut mk);
            }
            mk.zeroize();
        }
        // Small copies of the chains (the kept keys are read in place). A
        // near candidate's base is derived now, after authentication, and
        // only if the walk did not meet every key to store.
        let p = &self.pending;
        let base = if p.near {
            (keep > p.n_keys as u64).then(|| self.near.chain_at(&self.chain, self.next, c - keep))
        } else {
            p.has_base.then(|| p.base.scratch())
        };
        let after = self.pending.after.scratch();
        self.commit_ahead(c, keep, base.as_ref(), true, &after);
        self.clear_pending();
        // `base` and `after` zeroize themselves on drop.
    }

    /// Wipes the chains of an uncommitted ahead candidate (called at every
    /// commit of this window: they must not outlive its chain position).
    #[inline]
    pub(crate) fn clear_pending(&mut self) {
        if self.pending.live {
            // Only what was written is wiped (`wipe_key`: plain stores kept
            // by `black_box`, as on the per-packet path): the 64 kept keys
            // are 2 KB that a volatile wipe would write byte by byte.
            let p = &mut self.pending;
            for k in &mut p.keys[..p.n_keys] {
                crate::kdf::wipe_key(k);
            }
            crate::kdf::wipe_key(&mut p.mk);
            p.base.wipe();
            p.after.wipe();
            p.n_keys = 0;
            p.has_base = false;
            p.near = false;
            p.charged = 0;
            p.live = false;
        }
        if self.next_ck_for != u64::MAX {
            crate::kdf::wipe_key(&mut self.next_ck);
            for k in &mut self.next_keys {
                crate::kdf::wipe_key(k);
            }
            self.next_ck_for = u64::MAX;
        }
    }

    fn bit(c: u64) -> (usize, u64) {
        let i = c & (Self::BITS - 1);
        #[allow(clippy::cast_possible_truncation, reason = "i < W fits usize")]
        ((i >> 6) as usize, 1u64 << (i & 63))
    }

    /// Classifies counter `c` without changing anything.
    pub(crate) fn lookup(&self, c: u32, max_jump: u32) -> Lookup {
        let c = u64::from(c);
        if c >= self.next {
            // Gap from the highest received counter (or from -1 before any).
            let gap = c.wrapping_add(1).wrapping_sub(self.next);
            if gap > u64::from(max_jump) || c >= POSITION_END {
                return Lookup::TooFarAhead;
            }
            return Lookup::Ahead;
        }
        if self.next.wrapping_sub(c) > Self::BITS {
            return Lookup::TooOld;
        }
        let (w, m) = Self::bit(c);
        if self.bitmap[w] & m != 0 {
            return Lookup::Replay;
        }
        match self.find(c) {
            Some(i) => Lookup::Stored(i),
            None => Lookup::TooOld,
        }
    }

    fn find(&self, c: u64) -> Option<usize> {
        self.skipped[..self.n_skipped]
            .iter()
            .position(|s| u64::from(s.counter) == c)
    }

    /// How many skipped keys a jump to `c` stores: never more than `MS`, and
    /// none that the window would evict immediately.
    pub(crate) fn keep_for(&self, c: u64) -> u64 {
        let gap = c.saturating_sub(self.next);
        gap.min(MS as u64).min(Self::BITS - 1)
    }

    /// Removes stored entry `i` (after its successful use) and marks `c` received.
    pub(crate) fn commit_stored(&mut self, i: usize) {
        let c = u64::from(self.skipped[i].counter);
        self.remove(i);
        let (w, m) = Self::bit(c);
        self.bitmap[w] |= m;
    }

    fn remove(&mut self, i: usize) {
        if i >= self.n_skipped {
            return;
        }
        let mut j = i;
        while j + 1 < self.n_skipped {
            self.skipped[j].counter = self.skipped[j + 1].counter;
            self.skipped[j].key = self.skipped[j + 1].key;
            j += 1;
        }
        self.n_skipped -= 1;
        self.skipped[self.n_skipped].zeroize();
    }

    /// Commits reception of `c ≥ next`: stores the keys of `[c − keep, c)`,
    /// evicting the lowest; `after` is the chain at `c + 1`. With `kept`,
    /// the keys `pending.keys[..pending.n_keys]` are those of
    /// `[c − n_keys, c)`; the others are derived from `base`, the chain at
    /// `c − keep` (needed only then).
    pub(crate) fn commit_ahead(
        &mut self,
        c: u64,
        keep: u64,
        base: Option<&Chain>,
        kept: bool,
        after: &Chain,
    ) {
        let old_next = self.next;
        // Drop stored keys that fall out of the window [c + 1 − W, c].
        let floor = c.wrapping_add(1).saturating_sub(Self::BITS);
        while self.n_skipped > 0 && u64::from(self.skipped[0].counter) < floor {
            self.remove(0);
        }
        #[allow(clippy::cast_possible_truncation, reason = "keep ≤ MS")]
        let keep_us = keep as usize;
        while self.n_skipped + keep_us > MS && self.n_skipped > 0 {
            self.remove(0);
        }
        // Clear bitmap bits of the counters the window slides over.
        let span = c.wrapping_add(1).wrapping_sub(self.next);
        if span >= Self::BITS {
            self.bitmap = [0; WW];
        } else {
            let mut p = self.next;
            while p <= c {
                let (w, m) = Self::bit(p);
                self.bitmap[w] &= !m;
                p += 1;
            }
        }
        if keep > 0 {
            self.store_skipped(keep, base, kept, c);
        }
        let (w, m) = Self::bit(c);
        self.bitmap[w] |= m;
        self.chain.assign(after);
        self.next = c.wrapping_add(1);
        self.prune_checkpoints();
        self.near.passed(old_next, self.next);
    }

    /// Commits reception of `c = next` whose step stays inside the current
    /// segment ([`Window::in_order_key`]; at a group boundary the group
    /// expanded in `next_ck` / `next_keys`, for `c`: the caller checks
    /// `next_ck_for`): [`Window::commit_ahead`] with nothing to store, in
    /// place: the key of `c` is wiped from the chain. The segment index does
    /// not change, so no checkpoint is passed. Wipes `next_ck` / `next_keys`.
    #[inline]
    pub(crate) fn commit_next(&mut self) {
        let c = self.next;
        let floor = c.wrapping_add(1).saturating_sub(Self::BITS);
        while self.n_skipped > 0 && u64::from(self.skipped[0].counter) < floor {
            self.remove(0);
        }
        // The window slides by one: the bit of `c` (last used by `c − W`) now means `c`.
        let (w, m) = Self::bit(c);
        self.bitmap[w] |= m;
        let i = group_index(c);
        if i == 0 {
            self.chain.ck = self.next_ck;
            self.chain.keys = self.next_keys;
            crate::kdf::wipe_key(&mut self.next_ck);
            for k in &mut self.next_keys {
                crate::kdf::wipe_key(k);
            }
            self.next_ck_for = u64::MAX;
        }
        crate::kdf::wipe_key(&mut self.chain.keys[i]);
        self.chain.pos = c.wrapping_add(1);
        self.next = c.wrapping_add(1);
        if self.near.front.pos > c {
            self.near_passed_one(c);
        }
    }

    /// `next` passed `c`, a position the near checkpoints cover.
    #[cold]
    #[inline(never)]
    fn near_passed_one(&mut self, c: u64) {
        self.near.passed(c, c + 1);
    }

    /// The cached checkpoint with the highest segment index in `(cur, jt]`.
    pub(crate) fn best_checkpoint(&self, jt: u64) -> Option<usize> {
        let cur = self.chain.pos >> crate::chain::SEGMENT_SHIFT;
        let mut best: Option<usize> = None;
        for (i, c) in self.checkpoints[..self.n_checkpoints].iter().enumerate() {
            if c.seg > cur && c.seg <= jt && best.is_none_or(|b| self.checkpoints[b].seg < c.seg) {
                best = Some(i);
            }
        }
        best
    }

    /// Derives a scratch chain at `target` (≥ the window's position), using
    /// and filling the lookahead cache.
    pub(crate) fn lookahead(&mut self, target: u64) -> Chain {
        let mut out = self.chain.scratch();
        let j = out.pos >> crate::chain::SEGMENT_SHIFT;
        let jt = target >> crate::chain::SEGMENT_SHIFT;
        if jt <= j + 1 {
            out.jump_to(target);
            return out;
        }
        let (s, seg) = match self.best_checkpoint(jt) {
            Some(i) => (self.checkpoints[i].seg, self.checkpoints[i].key),
            None => (j + 1, self.chain.seg_next),
        };
        let mut seg = seg;
        let (cps, n) = (&mut self.checkpoints, &mut self.n_checkpoints);
        out.jump_from_segment(s, &seg, target, |idx, key| {
            if idx & (CHECKPOINT_EVERY - 1) == 0
                && *n < CHECKPOINTS
                && !cps[..*n].iter().any(|c| c.seg == idx)
            {
                cps[*n].seg = idx;
                cps[*n].key = *key;
                *n += 1;
            }
        });
        seg.zeroize();
        out
    }

    /// Erases checkpoints the chain has reached (forward secrecy).
    fn prune_checkpoints(&mut self) {
        let cur = self.chain.pos >> crate::chain::SEGMENT_SHIFT;
        let mut i = 0;
        while i < self.n_checkpoints {
            if self.checkpoints[i].seg <= cur {
                let last = self.n_checkpoints - 1;
                self.checkpoints[i].seg = self.checkpoints[last].seg;
                self.checkpoints[i].key = self.checkpoints[last].key;
                self.checkpoints[last].zeroize();
                self.n_checkpoints = last;
            } else {
                i += 1;
            }
        }
    }

    /// Appends the keys of `[c − keep, c)`: the pending candidate's kept
    /// keys (`kept`) for `[c − n_keys, c)`, the others derived from `base`
    /// (the chain at `c − keep`).
    fn store_skipped(&mut self, keep: u64, base: Option<&Chain>, kept: bool, c: u64) {
        let n = if kept {
            (self.pending.n_keys as u64).min(keep)
        } else {
            0
        };
        let from = c - n;
        if let Some(base) = base.filter(|_| n < keep) {
            let mut scratch = base.scratch();
            while scratch.pos < from {
                let i = self.n_skipped;
                #[allow(clippy::cast_possible_truncation, reason = "positions < 2^32")]
                let pos32 = scratch.pos as u32;
                self.skipped[i].counter = pos32;
                scratch.step(&mut self.skipped[i].key);
                self.n_skipped += 1;
            }
        }
        #[allow(clippy::cast_possible_truncation, reason = "n ≤ n_keys")]
        let k0 = self.pending.n_keys - n as usize;
        for (j, pos) in (from..c).enumerate() {
            let i = self.n_skipped;
            #[allow(clippy::cast_possible_truncation, reason = "positions < 2^32")]
            let pos32 = pos as u32;
            self.skipped[i].counter = pos32;
            self.skipped[i].key = self.pending.keys[k0 + j];
            self.n_skipped += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kdf::Direction;

    #[test]
    fn lookahead_equals_plain_jump_with_warm_cache() {
        let root = [9u8; 32];
        let mut w: Window<1, 4> =
            Window::new(Chain::from_seg0(&crate::kdf::seg0(&root, Direction::I2R)));
        // Out of order on purpose: later targets reuse earlier checkpoints.
        for &t in &[
            3_000_000u64,
            300_000,
            2_621_440,
            262_144,
            262_400,
            5_000,
            3_100_000,
        ] {
            let mut a = w.lookahead(t);
            let mut b = w.chain.scratch();
            b.jump_to(t);
            let (mut ka, mut kb) = ([0u8; 32], [0u8; 32]);
            a.step(&mut ka);
            b.step(&mut kb);
            assert_eq!(ka, kb, "target {t}");
        }
        assert!(w.n_checkpoints > 0);
        // Moving the chain past checkpoints erases them.
        let mut after = w.chain.scratch();
        after.jump_to(2_700_000);
        w.commit_ahead(2_699_999, 0, None, false, &after);
        let cur = w.chain.pos >> crate::chain::SEGMENT_SHIFT;
        assert!(w.checkpoints[..w.n_checkpoints].iter().all(|c| c.seg > cur));
    }

    /// Near candidates and their commits against plain jumps from `seg_0`,
    /// over many segments, with a 64-bit window (the checkpoint ring wraps).
    #[test]
    fn near_candidates_equal_plain_jumps() {
        let seg0 = crate::kdf::seg0(&[5u8; 32], Direction::R2I);
        let key = |c: u64| {
            let mut ch = Chain::from_seg0(&seg0);
            ch.jump_to(c);
            let mut k = [0u8; 32];
            ch.step(&mut k);
            k
        };
        let mut w: Window<1, 8> = Window::new(Chain::from_seg0(&seg0));
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for i in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let c = w.next + 1 + (x & (Window::<1, 8>::BITS - 1));
            let mut mk = [0u8; 32];
            w.prepare_near(c, w.keep_for(c), &mut mk);
            assert_eq!(mk, key(c), "candidate {c} (next {})", w.next);
            if i & 3 == 0 {
                w.commit_pending(c);
                let mut r = Chain::from_seg0(&seg0);
                r.jump_to(w.next);
                assert_eq!((w.chain.ck, w.chain.seg_next), (r.ck, r.seg_next));
                for k in &w.skipped[..w.n_skipped] {
                    assert_eq!(k.key, key(u64::from(k.counter)), "stored {}", k.counter);
                }
                assert!(w.near.front.pos == 0 || w.near.front.pos > w.next);
            }
        }
    }
}
