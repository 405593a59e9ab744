//! docs/protocol/ratchet.md §1.4: the two-level "skip chain" of one (epoch, direction).
//!
//! Counter `c = j·S + k` with `S = 256`. State is `(ck_{j,k}, seg_{j+1}, c)`:
//! a leak reveals only keys at positions ≥ `c`. Jumping a gap `g` costs at most
//! `g/S + S + 2` compressions.

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::kdf::{self, Key, PacketKdf};

/// Segment length `S`.
pub(crate) const SEGMENT_SHIFT: u32 = 8;
/// Positions per segment.
pub(crate) const SEGMENT: u64 = 1 << SEGMENT_SHIFT;
/// One past the last usable position (counters are u32).
pub(crate) const POSITION_END: u64 = 1 << 32;

/// Chain state at the next unused position.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Chain {
    /// `ck_{j,k}` for the position `pos`.
    pub(crate) ck: Key,
    /// `seg_{j+1}` (the current segment key is already erased).
    pub(crate) seg_next: Key,
    /// Next position `c` (public).
    pub(crate) pos: u64,
}

impl Chain {
    /// An all-zero placeholder (a dead slot).
    pub(crate) const fn empty() -> Self {
        Chain {
            ck: [0; 32],
            seg_next: [0; 32],
            pos: 0,
        }
    }

    /// Chain at position 0 from its `seg_0` (docs/protocol/ratchet.md §1.4): enter segment 0,
    /// keep `seg_1`.
    pub(crate) fn from_seg0(seg: &Key) -> Self {
        let ck = kdf::inner0(seg);
        let seg_next = kdf::seg_step(seg);
        Chain {
            ck,
            seg_next,
            pos: 0,
        }
    }

    /// An explicit copy for derivation on scratch (the type is deliberately not `Clone`).
    pub(crate) fn scratch(&self) -> Self {
        Chain {
            ck: self.ck,
            seg_next: self.seg_next,
            pos: self.pos,
        }
    }

    /// Overwrites `self` with `other` in place.
    pub(crate) fn assign(&mut self, other: &Chain) {
        self.ck = other.ck;
        self.seg_next = other.seg_next;
        self.pos = other.pos;
    }

    /// Derives the message key of position `pos` into `mk` and advances by one.
    /// The caller guarantees `pos < POSITION_END`.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "pos < 2^32 is a caller invariant"
    )]
    pub(crate) fn step(&mut self, mk: &mut Key) {
        kdf::packet_step(&mut self.ck, self.pos as u32, mk);
        self.advance();
    }

    /// [`Chain::step`] with the key schedule's reusable packet-step state.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "pos < 2^32 is a caller invariant"
    )]
    #[inline]
    pub(crate) fn step_with(&mut self, kdf: &mut PacketKdf, mk: &mut Key) {
        kdf.step(&mut self.ck, self.pos as u32, mk);
        self.advance();
    }

    /// The position after a packet step, entering the next segment at its end.
    #[inline(always)]
    fn advance(&mut self) {
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
        let mut mk = [0u8; 32];
        while self.pos < target {
            self.step(&mut mk);
        }
        mk.zeroize();
    }

    /// Advances to position `target ≥ pos` without producing keys; returns the
    /// number of compressions spent (for the pre-authentication budget).
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
            cost = cost.wrapping_add(2);
        }
        let mut mk = [0u8; 32];
        while self.pos < target {
            self.step(&mut mk);
            cost = cost.wrapping_add(1);
        }
        mk.zeroize();
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kdf::Direction;

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
            a.step(&mut m1);
            b.step(&mut m2);
            assert_eq!(m1, m2, "target {t}");
            assert_eq!(a.ck, b.ck);
        }
    }
}
