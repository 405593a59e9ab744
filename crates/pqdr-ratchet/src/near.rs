//! docs/protocol/ratchet.md §1.8 (M1, issue #33): the near checkpoints of a
//! receive window, which make a small gap cost bounded work without
//! charging the pre-authentication token bucket.
//!
//! For a candidate `c` with `next < c ≤ next + W` the window keeps the
//! chain state at every multiple of [`NEAR_EVERY`] in `(next, front]`,
//! where the frontier `front ≤ next + W` only moves forward: it is extended
//! (by walking the chain) to `⌊c/16⌋·16` when a candidate lies beyond it.
//! A candidate then walks from the checkpoint `⌊c/16⌋·16` (or from `next`):
//! at most 16 packet steps and 2 segment steps (entering a segment: a
//! checkpoint at a segment start holds the segment key, or `c + 1` starts
//! the next segment). The frontier's walk, summed over the life of a
//! window, is at most `W` plus the distance `next` advanced (plus two
//! segment steps per segment): positions it passes are never walked by it
//! again, and it never goes beyond `next + W`.
//!
//! Memory: one 32-byte key per checkpoint, `W/16` of them (a ring indexed
//! by `(p/16) mod (W/16)`: the checkpoints of `(next, next + W]` never
//! collide), and the frontier's chain: `2·W + 72` bytes, 2,120 bytes for the
//! default `W = 1024`. The key at a position `p` that is not a segment start
//! is `ck` at `p`; at a segment start `p = 256·j` it is `seg_j`. The chain
//! at a checkpoint in segment `j` finds `seg_{j+1}` at the checkpoint of the
//! next segment start, or in the frontier chain. Everything here is a
//! future key derivable from the window's chain (like the lookahead cache):
//! never exported, zeroized, and erased as soon as `next` passes it.

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::chain::{Chain, SEGMENT, SEGMENT_SHIFT};
use crate::kdf::{self, Key};

/// Distance between two near checkpoints.
pub(crate) const NEAR_EVERY: u64 = 16;
const NEAR_SHIFT: u32 = 4;

/// The near checkpoints of a window of `64·WW` bits (four per bitmap word).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Near<const WW: usize> {
    /// The key of the checkpoint at position `p` (a multiple of 16 in
    /// `(next, front]`) is in slot `(p/16) mod 4·WW`.
    keys: [[Key; 4]; WW],
    /// The chain at the frontier; checkpoints exist iff `front.pos > next`.
    pub(crate) front: Chain,
}

impl<const WW: usize> Near<WW> {
    /// No checkpoints.
    pub(crate) fn new() -> Self {
        Near {
            keys: [[[0; 32]; 4]; WW],
            front: Chain::empty(),
        }
    }

    fn slot(&mut self, p: u64) -> &mut Key {
        #[allow(clippy::cast_possible_truncation, reason = "masked below 4·WW")]
        let i = ((p >> NEAR_SHIFT) as usize) & (4 * WW - 1);
        &mut self.keys[i >> 2][i & 3]
    }

    fn key(&self, p: u64) -> &Key {
        #[allow(clippy::cast_possible_truncation, reason = "masked below 4·WW")]
        let i = ((p >> NEAR_SHIFT) as usize) & (4 * WW - 1);
        &self.keys[i >> 2][i & 3]
    }

    /// Extends the frontier to `target` (a multiple of 16 with
    /// `next < target ≤ next + W`), walking from `chain` (the window's,
    /// at `next`) if there are no checkpoints yet. `visit(p, mk)` sees the
    /// message key of every position walked.
    pub(crate) fn extend(
        &mut self,
        chain: &Chain,
        next: u64,
        target: u64,
        mut visit: impl FnMut(u64, &Key),
    ) {
        if self.front.pos <= next {
            self.front.assign(chain);
        }
        let mut mk = [0u8; 32];
        while self.front.pos < target {
            let p = self.front.pos;
            if (p + 1) & (SEGMENT - 1) == 0 {
                // The step enters segment `(p + 1)/256` and erases its key
                // from the chain: keep it as that checkpoint's key.
                let seg = self.front.seg_next;
                *self.slot(p + 1) = seg;
            }
            self.front.step(&mut mk);
            visit(p, &mk);
            let q = p + 1;
            if q & (NEAR_EVERY - 1) == 0 && q & (SEGMENT - 1) != 0 {
                let ck = self.front.ck;
                *self.slot(q) = ck;
            }
        }
        mk.zeroize();
    }

    /// The chain at position `p`, `next ≤ p`, where `⌊p/16⌋·16 ≤ front`
    /// or `p < ⌊next/16⌋·16 + 16`: from the checkpoint `⌊p/16⌋·16` (or from
    /// `chain` at `next`), at most 15 packet steps and 2 segment steps.
    pub(crate) fn chain_at(&self, chain: &Chain, next: u64, p: u64) -> Chain {
        let s = p & !(NEAR_EVERY - 1);
        let mut out = if s <= next || self.front.pos <= next {
            chain.scratch()
        } else if s == self.front.pos {
            self.front.scratch()
        } else if s & (SEGMENT - 1) == 0 {
            // A segment start: its key enters the segment (2 steps).
            let seg = self.key(s);
            Chain::at_boundary(kdf::inner0(seg), kdf::seg_step(seg), s)
        } else {
            let j1 = ((s >> SEGMENT_SHIFT) + 1) << SEGMENT_SHIFT;
            let seg_next = if j1 <= self.front.pos {
                *self.key(j1)
            } else {
                self.front.seg_next
            };
            Chain::at_boundary(*self.key(s), seg_next, s)
        };
        out.jump_to(p);
        out
    }

    /// `next` moved from `old` to `new > old`: erases the checkpoints it
    /// passed (forward secrecy), and the frontier if it passed that too.
    pub(crate) fn passed(&mut self, old: u64, new: u64) {
        if self.front.pos <= old {
            return;
        }
        let end = new.min(self.front.pos);
        let mut p = (old | (NEAR_EVERY - 1)) + 1;
        while p <= end {
            kdf::wipe_key(self.slot(p));
            p += NEAR_EVERY;
        }
        if new >= self.front.pos {
            self.front.wipe();
        }
    }

    /// The positions of the live checkpoints, for the test-only leak.
    #[cfg(feature = "test-utils")]
    pub(crate) fn positions(&self, next: u64) -> alloc::vec::Vec<u64> {
        let first = (next | (NEAR_EVERY - 1)) + 1;
        if self.front.pos <= next {
            return alloc::vec::Vec::new();
        }
        (first..=self.front.pos).step_by(16).collect()
    }
}
