//! The per-record keys L1 hands out: [`PacketKey`] (key, epoch, counter,
//! direction; docs/protocol/ratchet.md §1.4 nonce) is the one core of both the key to send
//! with ([`SendKey`]) and the key to try on a received record ([`Candidate`]).

use core::fmt;
use core::ops::Deref;

use crate::kdf::{self, Direction, Key};

/// A message key with the position it belongs to.
///
/// `repr(C)` with the key first: `next_send` derives the key into a local
/// value with two 16-byte stores and then moves it out in 16-byte loads;
/// with the key at offset 0 each load reads exactly one of those stores
/// (store-to-load forwarding), while the default layout put the epoch first
/// and made every load straddle two stores, a forwarding stall of ≈ 15 ns per
/// packet (BENCHMARKS.md). The key is wiped on drop; `Debug` omits it.
#[repr(C)]
pub struct PacketKey {
    pub(crate) key: Key,
    /// Epoch of the record.
    pub epoch: u64,
    /// Counter of the record.
    pub counter: u32,
    /// Direction of the record.
    pub direction: Direction,
}

impl PacketKey {
    /// The ChaCha20-Poly1305 key `mk`.
    pub fn key(&self) -> &[u8; 32] {
        &self.key
    }

    /// `dir ‖ 0x000000 ‖ be32(epoch mod 2^32) ‖ be32(counter)`.
    pub fn nonce(&self) -> [u8; 12] {
        nonce(self.direction, self.epoch, self.counter)
    }
}

impl Drop for PacketKey {
    fn drop(&mut self) {
        kdf::wipe_key(&mut self.key);
    }
}

impl fmt::Debug for PacketKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PacketKey")
            .field("epoch", &self.epoch)
            .field("counter", &self.counter)
            .field("direction", &self.direction)
            .finish_non_exhaustive()
    }
}

/// The key and nonce for one record to send.
pub type SendKey = PacketKey;

/// docs/protocol/ratchet.md §1.4 nonce.
#[allow(
    clippy::cast_possible_truncation,
    reason = "epoch mod 2^32 by definition"
)]
pub(crate) fn nonce(dir: Direction, epoch: u64, counter: u32) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[0] = dir.byte();
    n[4..8].copy_from_slice(&(epoch as u32).to_be_bytes());
    n[8..12].copy_from_slice(&counter.to_be_bytes());
    n
}

/// How a candidate's key was found, and so how it commits.
pub(crate) enum CandidateKind {
    Stored(usize),
    /// The next counter in order: one packet step from the window's chain
    /// (plus a segment entry at a segment's end), whose new chain key waits
    /// in the window's `next_ck`.
    Next,
    /// Any other counter at or after `next`: the chains to commit are in the
    /// window's `pending` scratch (`Window::prepare_ahead`).
    Ahead {
        expect_next: u64,
    },
}

/// A receive key derived on scratch: nothing changes until it is committed
/// (inside [`crate::KeySchedule::open_with`], after the caller's AEAD check).
///
/// Small (a [`PacketKey`] plus a slot and a kind: the chains to commit wait in
/// the window), so that moving it is a few 16-byte copies, each reading
/// exactly one of the stores that wrote the key (BENCHMARKS.md).
#[repr(C)]
pub(crate) struct Candidate {
    pub(crate) pk: PacketKey,
    pub(crate) slot: usize,
    pub(crate) kind: CandidateKind,
}

impl Deref for Candidate {
    type Target = PacketKey;

    fn deref(&self) -> &PacketKey {
        &self.pk
    }
}

impl Candidate {
    /// A candidate for `(epoch, counter, direction)` with key `key`.
    #[inline(always)]
    pub(crate) fn new(
        key: Key,
        (epoch, counter, direction): (u64, u32, Direction),
        slot: usize,
        kind: CandidateKind,
    ) -> Self {
        Candidate {
            pk: PacketKey {
                key,
                epoch,
                counter,
                direction,
            },
            slot,
            kind,
        }
    }
}
