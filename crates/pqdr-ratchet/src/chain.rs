//! docs/protocol/ratchet.md §1.4.4: the two-level "skip chain" of one (epoch, direction),
//! with key groups of `G = 8` (revision 2026-12-03).
//!
//! Counter `c = 256·j + 8·h + i`. State at position `c` is `(ck, seg_{j+1}, c)`
//! plus, when `i > 0`, the unused keys `mk_c … mk_{c0+7}` of the current group
//! (and then `ck = ck_{j,h+1}`); at a group boundary `ck = ck_{j,h}` and no key.
//! A leak reveals only keys at positions ≥ `c`. Jumping a gap `g` costs at most
//! `g/S + 32 + 3` compressions and one group expansion.

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::kdf::{self, GROUP, GroupKeys, Key, PacketKdf};

/// Segment length `S`.
pub(crate) const SEGMENT_SHIFT: u32 = 8;
/// Positions per segment.
pub(crate) const SEGMENT: u64 = 1 << SEGMENT_SHIFT;
/// Positions per group `G`.
pub(crate) const GROUP_LEN: u64 = GROUP as u64;
/// One past the last usable position (counters are u32).
pub(crate) const POSITION_END: u64 = 1 << 32;

/// The index of position `pos` in its group.
#[inline(always)]
#[allow(clippy::cast_possible_truncation, reason = "masked below 8")]
pub(crate) const fn group_index(pos: u64) -> usize {
    (pos & (GROUP_LEN - 1)) as usize
}

/// Chain state at the next unused position.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Chain {
    /// `ck_{j,h}` of the group at `pos` if `pos` is a group boundary, else
    /// `ck_{j,h+1}` of the next group.
    pub(crate) ck: Key,
    /// `seg_{j+1}` (the current segment key is already erased).
    pub(crate) seg_next: Key,
    /// Next position `c` (public).
    pub(crate) pos: u64,
    /// `keys[i]` for `group_index(pos) ≤ i < 8` when `pos` is not a group
    /// boundary: the unused keys of the current group (the used ones are
    /// zero). All zero at a group boundary.
    pub(crate) keys: GroupKeys,
}

impl Chain {
    /// An all-zero placeholder (a dead slot).
    pub(crate) const fn empty() -> Self {
        Chain {
            ck: [0; 32],
            seg_next: [0; 32],
            pos: 0,
            keys: [[0; 32]; GROUP],
        }
    }

    /// A chain at a group boundary `pos` (no expanded keys).
    pub(crate) const fn at_boundary(ck: Key, seg_next: Key, pos: u64) -> Self {
        Chain {
            ck,
            seg_next,
            pos,
            keys: [[0; 32]; GROUP],
        }
    }

    /// Chain at position 0 from its `seg_0` (docs/protocol/ratchet.md §1.4): enter segment 0,
    /// keep `seg_1`.
    pub(crate) fn from_seg0(seg: &Key) -> Self {
        let ck = kdf::inner0(seg);
        let seg_next = kdf::seg_step(seg);
        Chain::at_boundary(ck, seg_next, 0)
    }

    /// An explicit copy for derivation on scratch (the type is deliberately not `Clone`).
    pub(crate) fn scratch(&self) -> Self {
        Chain {
            ck: self.ck,
            seg_next: self.seg_next,
            pos: self.pos,
            keys: self.keys,
        }
    }

    /// Overwrites `self` with `other` in place.
    pub(crate) fn assign(&mut self, other: &Chain) {
        self.ck = other.ck;
        self.seg_next = other.seg_next;
        self.pos = other.pos;
        self.keys = other.keys;
    }

    /// Wipes the keys with plain stores (`kdf::wipe_key`), for scratch
    /// chains on the per-record paths.
    pub(crate) fn wipe(&mut self) {
        kdf::wipe_key(&mut self.ck);
        kdf::wipe_key(&mut self.seg_next);
        for k in &mut self.keys {
            kdf::wipe_key(k);
        }
        self.pos = 0;
    }

    /// Derives the message key of position `pos` into `mk` and advances by one.
    /// The caller guarantees `pos < POSITION_END`.
    pub(crate) fn step(&mut self, mk: &mut Key) {
        if group_index(self.pos) == 0 {
            kdf::count_group_step();
        }
        self.step_with(&PacketKdf::new(), mk);
    }

    /// [`Chain::step`] with the key schedule's reusable kernel choice: at a
    /// group boundary expands the group (docs/protocol/ratchet.md §1.4.4), then takes
    /// `mk_pos` out of the state (wiping it there).
    #[allow(
        clippy::cast_possible_truncation,
        reason = "pos < 2^32 is a caller invariant"
    )]
    #[inline]
    pub(crate) fn step_with(&mut self, kdf: &PacketKdf, mk: &mut Key) {
        let i = group_index(self.pos);
        if i == 0 {
            kdf.expand_in_place(&mut self.ck, self.pos as u32, &mut self.keys);
        }
        *mk = self.keys[i];
        kdf::wipe_key(&mut self.keys[i]);
        self.advance();
    }

    /// The position after a step, entering the next segment at its end.
    #[inline(always)]
    pub(crate) fn advance(&mut self) {
        self.pos = self.pos.wrapping_add(1);
        if self.pos & (SEGMENT - 1) == 0 {
            self.enter_next_segment();
        }
    }

    /// `ck_{j+1,0} = DKf(CTX_INNER0, seg_{j+1})`, keep `seg_{j+2}`, erase `seg_{j+1}`.
    fn enter_next_segment(&mut self) {
        self.ck = kdf::inner0(&self.seg_next);
        let next = kdf::seg_step(&self.seg_next);
        self.seg_next = next;
    }

    /// Walks to `target ≥ pos` inside the current segment (or to its end):
    /// wipes the unused keys of the current group it passes, passes whole
    /// groups with a group step only, and expands the target's group if
    /// `target` is not a group boundary. Returns the positions walked.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "pos < 2^32 is a caller invariant"
    )]
    fn walk_to(&mut self, target: u64) -> u64 {
        let walked = target - self.pos;
        let kdf = PacketKdf::new();
        while self.pos < target {
            let i = group_index(self.pos);
            if i != 0 {
                // Finish the current group: its keys below `target` are skipped.
                let end = (self.pos | (GROUP_LEN - 1)) + 1;
                let stop = end.min(target);
                while self.pos < stop {
                    kdf::wipe_key(&mut self.keys[group_index(self.pos)]);
                    self.advance();
                }
            } else if target - self.pos >= GROUP_LEN {
                kdf::count_group_step();
                kdf.skip_group(&mut self.ck, self.pos as u32);
                self.pos += GROUP_LEN - 1;
                self.advance();
            } else {
                kdf::count_group_step();
                kdf.expand_in_place(&mut self.ck, self.pos as u32, &mut self.keys);
                while self.pos < target {
                    kdf::wipe_key(&mut self.keys[group_index(self.pos)]);
                    self.pos += 1;
                }
            }
        }
        walked
    }

    /// Like [`Chain::jump_to`] for `target` in a later segment, starting from
    /// `seg_s` (segment index `s`, with `pos >> 8 < s ≤ target >> 8`) instead
    /// of walking from `seg_next`; `visit(j, seg_j)` sees every segment key
    /// walked through (the lookahead cache records checkpoints there).
    pub(crate) fn jump_from_segment(
        &mut self,
        s: u64,
        seg_s: &Key,
        target: u64,
        mut visit: impl FnMut(u64, &Key),
    ) {
        let jt = target >> SEGMENT_SHIFT;
        let mut seg = *seg_s;
        let mut j = s;
        while j < jt {
            let next = kdf::seg_step(&seg);
            seg = next;
            j += 1;
            visit(j, &seg);
        }
        self.ck = kdf::inner0(&seg);
        self.seg_next = kdf::seg_step(&seg);
        seg.zeroize();
        self.pos = jt << SEGMENT_SHIFT;
        self.keys.zeroize();
        self.walk_to(target);
    }

    /// Advances to position `target ≥ pos` without producing keys; returns the
    /// work spent in the unit of the pre-authentication budget: segment
    /// steps plus positions walked (docs/protocol/ratchet.md §1.8.1, an upper bound on
    /// the compressions).
    pub(crate) fn jump_to(&mut self, target: u64) -> u64 {
        let mut cost = 0u64;
        let j = self.pos >> SEGMENT_SHIFT;
        let jt = target >> SEGMENT_SHIFT;
        if jt > j {
            // seg_next holds seg_{j+1}; walk it to seg_{jt}.
            let mut s = j.wrapping_add(1);
            while s < jt {
                let next = kdf::seg_step(&self.seg_next);
                self.seg_next = next;
                s = s.wrapping_add(1);
                cost = cost.wrapping_add(1);
            }
            self.enter_next_segment();
            self.pos = jt << SEGMENT_SHIFT;
            self.keys.zeroize();
            cost = cost.wrapping_add(2);
        }
        cost.wrapping_add(self.walk_to(target))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kdf::Direction;
    use alloc::vec::Vec;

    #[test]
    fn jump_equals_sequential() {
        let seg0 = kdf::seg0(&[3u8; 32], Direction::I2R);
        for &t in &[0u64, 1, 255, 256, 257, 600, 1024, 5000] {
            let mut a = Chain::from_seg0(&seg0);
            let mut mk = [0u8; 32];
            for _ in 0..t {
                a.step(&mut mk);
            }
            let mut b = Chain::from_seg0(&seg0);
            b.jump_to(t);
            let (mut m1, mut m2) = ([0u8; 32], [0u8; 32]);
            assert_eq!(
                (a.ck, a.seg_next, a.pos, a.keys),
                (b.ck, b.seg_next, b.pos, b.keys),
                "target {t}"
            );
            a.step(&mut m1);
            b.step(&mut m2);
            assert_eq!(m1, m2, "target {t}");
            assert_eq!(a.ck, b.ck);
        }
    }

    /// Every position's key is distinct, the state never holds a used key,
    /// and chains at any position agree with a walk from any earlier one.
    #[test]
    fn group_state_holds_only_future_keys() {
        let seg0 = kdf::seg0(&[5u8; 32], Direction::R2I);
        let mut a = Chain::from_seg0(&seg0);
        let mut seen = Vec::new();
        for _ in 0..600 {
            let mut mk = [0u8; 32];
            a.step(&mut mk);
            assert!(!seen.contains(&mk));
            seen.push(mk);
            for (i, k) in a.keys.iter().enumerate() {
                if i < group_index(a.pos) || group_index(a.pos) == 0 {
                    assert_eq!(*k, [0; 32], "pos {} slot {i}", a.pos);
                } else {
                    assert!(!seen.contains(k));
                }
            }
            for from in [0u64, a.pos.saturating_sub(9), a.pos.saturating_sub(1)] {
                let mut b = Chain::from_seg0(&seg0);
                b.jump_to(from);
                b.jump_to(a.pos);
                assert_eq!(
                    (b.ck, b.seg_next, b.keys),
                    (a.ck, a.seg_next, a.keys),
                    "{from} -> {}",
                    a.pos
                );
            }
        }
    }
}
