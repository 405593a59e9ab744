//! Test-only introspection (feature `test-utils`): leaks secrets on purpose
//! for the test vectors and the FS/PCS experiment (RATCHET.md §3.1, §3.5).
//! Never enable this feature in production.

use crate::chain::Chain;
use crate::config::{InitialSecret, Mode};
use crate::kdf::{self, Direction};
use crate::kem::{MAX_SEED_LEN, RatchetKem};
use crate::schedule::{AEAD_ID, directions};
use crate::session::Session;

/// `root_0` (RATCHET.md §1.3).
pub fn root0(init: &InitialSecret<'_>, kem_id: u16, mode: Mode) -> [u8; 32] {
    kdf::root_init(
        init.secret,
        init.transcript,
        init.context,
        kem_id,
        AEAD_ID,
        mode.byte(),
    )
}

/// `seg_0` of a direction.
pub fn seg0(root: &[u8; 32], dir: Direction) -> [u8; 32] {
    kdf::seg0(root, dir)
}

/// `ck_{0,0}` of a direction.
pub fn ck00(root: &[u8; 32], dir: Direction) -> [u8; 32] {
    kdf::inner0(&kdf::seg0(root, dir))
}

/// Message key at `counter` through the skip chain.
pub fn message_key(root: &[u8; 32], dir: Direction, counter: u32) -> [u8; 32] {
    let mut c = Chain::new(root, dir);
    c.jump_to(u64::from(counter));
    let mut mk = [0u8; 32];
    c.step(&mut mk);
    mk
}

/// `th_{e+1}`.
pub fn transcript(
    next_epoch: u64,
    kem_id: u16,
    owner: u8,
    rid: u16,
    ek: &[u8],
    ct: &[u8],
) -> [u8; 32] {
    kdf::kem_transcript(next_epoch, kem_id, owner, rid, ek, ct)
}

/// `root_{e+1}`.
pub fn root_step(root: &[u8; 32], ss: &[u8; 32], th: &[u8; 32]) -> [u8; 32] {
    kdf::root_step(root, ss, th)
}

/// Leaked positions of one live epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeakEpoch {
    /// Epoch.
    pub epoch: u64,
    /// Next send position, if the send chain is live.
    pub send_pos: Option<u64>,
    /// Next receive position (highest + 1).
    pub recv_next: u64,
}

/// Leaked KEM state.
#[derive(Clone, Copy, Debug)]
pub struct LeakKem {
    /// Phase (0 idle, 1 owner sent ek, 2 owner awaiting confirm, 3 peer sent ct).
    pub phase: u8,
    /// Attempt id.
    pub rid: u16,
    /// Owner seed.
    pub seed: [u8; MAX_SEED_LEN],
    /// Public blob being sent (ek or ct), `MAX_BLOB_LEN` bytes, prefix valid.
    pub blob: [u8; crate::kem::MAX_BLOB_LEN],
}

impl<K: RatchetKem, const WW: usize, const MS: usize> Session<K, WW, MS> {
    /// A full copy of the session (what an attacker who leaks the state holds).
    pub fn fork(&self) -> Self {
        let mut s = crate::schedule::KeySchedule::empty(&self.ks.cfg, self.ks.role);
        let ks = &self.ks;
        s.epoch = ks.epoch;
        for (d, o) in s.slots.iter_mut().zip(ks.slots.iter()) {
            d.live = o.live;
            d.epoch = o.epoch;
            d.root = o.root;
            d.root_live = o.root_live;
            d.send.assign(&o.send);
            d.send_live = o.send_live;
            d.send_limit = o.send_limit;
            d.sent_packets = o.sent_packets;
            d.sent_bytes = o.sent_bytes;
            d.recv.chain.assign(&o.recv.chain);
            d.recv.next = o.recv.next;
            d.recv.bitmap = o.recv.bitmap;
            for (a, b) in d.recv.skipped.iter_mut().zip(o.recv.skipped.iter()) {
                a.counter = b.counter;
                a.key = b.key;
            }
            d.recv.n_skipped = o.recv.n_skipped;
            d.recv_any = o.recv_any;
            d.started = o.started;
            d.rekey_at_ms = o.rekey_at_ms;
            d.expires = o.expires;
        }
        let (a, b) = (&mut s.kem, &ks.kem);
        a.phase = b.phase;
        a.rid = b.rid;
        a.started = b.started;
        a.seed = b.seed;
        a.blob = b.blob;
        a.blob_done = b.blob_done;
        a.next_idx = b.next_idx;
        a.decoding = b.decoding;
        a.dec_rid = b.dec_rid;
        a.dead_rid = b.dead_rid;
        a.app_request = b.app_request;
        a.peer_requested = b.peer_requested;
        a.next_start_at = b.next_start_at;
        a.pace_at = b.pace_at;
        a.pace_ms = b.pace_ms;
        if a.decoding {
            let len = if a.phase == crate::schedule::phase::OWNER_EK {
                K::CT_LEN
            } else {
                K::EK_LEN
            };
            a.decoder.reset(len);
        }
        s.confirmed = ks.confirmed;
        s.closed = ks.closed;
        s.generation = ks.generation;
        s.bucket = crate::schedule::Bucket::full(u32::MAX, crate::Instant(0));
        s.cfg.max_jump = 1 << 30;
        s.cfg.auth_failure_limit = u64::MAX;
        Session { ks: s }
    }

    /// Root of a live epoch, if still held.
    pub fn leak_root(&self, epoch: u64) -> Option<[u8; 32]> {
        let i = self.ks.slot_of(epoch)?;
        self.ks.slots[i].root_live.then_some(self.ks.slots[i].root)
    }

    /// KEM state.
    pub fn leak_kem(&self) -> LeakKem {
        LeakKem {
            phase: self.ks.kem.phase,
            rid: self.ks.kem.rid,
            seed: self.ks.kem.seed,
            blob: self.ks.kem.blob,
        }
    }

    /// Positions of the live epochs.
    pub fn leak_positions(&self) -> [Option<LeakEpoch>; 3] {
        core::array::from_fn(|i| {
            let s = &self.ks.slots[i];
            s.live.then_some(LeakEpoch {
                epoch: s.epoch,
                send_pos: s.send_live.then_some(s.send.pos),
                recv_next: s.recv.next,
            })
        })
    }

    /// Whether a stored skipped key for `(epoch, counter)` is held.
    pub fn leak_holds_skipped(&self, epoch: u64, counter: u32) -> bool {
        self.ks.slot_of(epoch).is_some_and(|i| {
            let w = &self.ks.slots[i].recv;
            w.skipped[..w.n_skipped]
                .iter()
                .any(|s| s.counter == counter)
        })
    }

    /// Attacker check: can the leaked material open this datagram record, in
    /// either direction, by derivation only (no state change)?
    pub fn attacker_can_open(&self, aad: &[u8], packet: &[u8]) -> bool {
        use chacha20poly1305::aead::{AeadInOut, KeyInit};
        use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
        if packet.len() < 22 || aad.len() > 256 {
            return false;
        }
        let lo = packet[1];
        let c = u32::from_be_bytes([packet[2], packet[3], packet[4], packet[5]]);
        let (mine, theirs) = directions(self.ks.role);
        let mut buf = [0u8; 65536];
        let n = packet.len() - 22;
        if n > buf.len() {
            return false;
        }
        let mut ad = [0u8; 262];
        ad[..6].copy_from_slice(&packet[..6]);
        ad[6..6 + aad.len()].copy_from_slice(aad);
        let Ok(tag) = Tag::try_from(&packet[6 + n..]) else {
            return false;
        };
        for s in self.ks.slots.iter().filter(|s| s.live) {
            #[allow(clippy::cast_possible_truncation, reason = "low byte")]
            if s.epoch as u8 != lo {
                continue;
            }
            let mut keys: [Option<([u8; 32], Direction)>; 2] = [None, None];
            if s.send_live && u64::from(c) >= s.send.pos {
                let mut ch = s.send.scratch();
                ch.jump_to(u64::from(c));
                let mut mk = [0u8; 32];
                ch.step(&mut mk);
                keys[0] = Some((mk, mine));
            }
            if u64::from(c) >= s.recv.next {
                let mut ch = s.recv.chain.scratch();
                ch.jump_to(u64::from(c));
                let mut mk = [0u8; 32];
                ch.step(&mut mk);
                keys[1] = Some((mk, theirs));
            } else if let Some(k) = s.recv.skipped[..s.recv.n_skipped]
                .iter()
                .find(|k| k.counter == c)
            {
                keys[1] = Some((k.key, theirs));
            }
            for (mk, dir) in keys.iter().flatten() {
                buf[..n].copy_from_slice(&packet[6..6 + n]);
                let cipher = ChaCha20Poly1305::new(mk.into());
                let nonce = crate::schedule::nonce(*dir, s.epoch, c);
                if cipher
                    .decrypt_inout_detached(
                        &Nonce::from(nonce),
                        &ad[..6 + aad.len()],
                        (&mut buf[..n]).into(),
                        &tag,
                    )
                    .is_ok()
                {
                    return true;
                }
            }
        }
        false
    }
}
