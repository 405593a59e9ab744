//! docs/protocol/ratchet.md §1.6–1.7: the KEM exchange of one ratchet, as a state machine
//! over [`Phase`] (at most one ratchet in flight), and its transitions:
//! starting and aborting an attempt, the peer's encapsulation, the owner's
//! decapsulation, and the control frames that drive them (KEM_SYMBOL,
//! KEM_DONE, RATCHET_REQUEST, RATCHET_ABORT, RECV_REPORT), all from
//! authentic records only.

use rand_core::CryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::KeySchedule;
use crate::codec::Decoder;
use crate::config::{AbortReason, Event, Instant, Role};
use crate::kdf;
use crate::kem::{MAX_BLOB_LEN, MAX_SEED_LEN, RatchetKem};
use crate::wire::{Blob, Symbol};

/// Where the KEM exchange of the next epoch stands (public values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// No ratchet in flight (the peer may be collecting ek symbols).
    Idle,
    /// Owner: ek sent, collecting ct symbols (holds the key-generation seed).
    OwnerEk,
    /// Owner: switched to e+1, waiting for the peer's first e+1 record.
    OwnerConfirm,
    /// Peer: e+1 installed, sending ct symbols, still sending in e.
    PeerCt,
}

impl Phase {
    /// The byte of the state format and of `testing::LeakKem`.
    pub(crate) fn byte(self) -> u8 {
        match self {
            Phase::Idle => 0,
            Phase::OwnerEk => 1,
            Phase::OwnerConfirm => 2,
            Phase::PeerCt => 3,
        }
    }

    pub(crate) fn from_byte(b: u8) -> Option<Self> {
        match b {
            0 => Some(Phase::Idle),
            1 => Some(Phase::OwnerEk),
            2 => Some(Phase::OwnerConfirm),
            3 => Some(Phase::PeerCt),
            _ => None,
        }
    }
}

/// The KEM state machine of docs/protocol/ratchet.md §1.7 (at most one ratchet in flight).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct KemMachine {
    #[zeroize(skip)]
    pub(crate) phase: Phase,
    pub(crate) rid: u16,
    pub(crate) started: Instant,
    /// Owner's key-generation seed (the only form the dk is kept in).
    pub(crate) seed: [u8; MAX_SEED_LEN],
    /// Public blob being sent: ek (owner) or ct (peer).
    pub(crate) blob: [u8; MAX_BLOB_LEN],
    /// The other side acknowledged `blob`.
    pub(crate) blob_done: bool,
    pub(crate) next_idx: u8,
    /// Peer collecting ek symbols for `dec_rid` / owner collecting ct symbols.
    pub(crate) decoding: bool,
    pub(crate) dec_rid: u16,
    #[zeroize(skip)]
    pub(crate) decoder: Decoder,
    /// The last [`DEAD_RIDS`] attempts of this epoch that were aborted (by
    /// us or the owner) or superseded by a newer one, newest first: their
    /// symbols are ignored, however late they arrive.
    pub(crate) dead_rids: [Option<u16>; DEAD_RIDS],
    /// Peer: the lowest counter of an authentic record of this epoch seen
    /// carrying an ek symbol of the attempt it decodes or installed. The
    /// owner's attempts occupy disjoint, increasing counter ranges of its
    /// send chain, so a symbol of another attempt in a record below this
    /// counter belongs to an older attempt (given up), one above it to a
    /// newer attempt (which supersedes).
    pub(crate) attempt_at: u32,
    pub(crate) app_request: bool,
    pub(crate) peer_requested: bool,
    pub(crate) next_start_at: Instant,
    pub(crate) abort_pending: Option<(u16, u8)>,
    pub(crate) done_pending: Option<(u16, u8)>,
    pub(crate) owe_reply: bool,
    pub(crate) pace_at: Instant,
    pub(crate) pace_ms: u64,
    /// Owner: when it switched to the new epoch (`OWNER_CONFIRM` start).
    pub(crate) confirm_since: Instant,
    /// `Event::Wedged` was raised for the current confirmation wait.
    pub(crate) wedge_reported: bool,
}

/// How many dead attempt ids an epoch remembers (docs/protocol/ratchet.md
/// §1.7): an owner starts at most one attempt per `min_ratchet_interval_ms`,
/// so four cover delays of several intervals.
pub(crate) const DEAD_RIDS: usize = 4;

impl KemMachine {
    /// Whether `rid` names an attempt of this epoch known to be dead.
    pub(crate) fn is_dead(&self, rid: u16) -> bool {
        self.dead_rids.contains(&Some(rid))
    }

    /// Remembers `rid` as dead (the oldest entry is forgotten).
    pub(crate) fn mark_dead(&mut self, rid: u16) {
        if !self.is_dead(rid) {
            self.dead_rids.rotate_right(1);
            self.dead_rids[0] = Some(rid);
        }
    }

    pub(crate) fn new() -> Self {
        KemMachine {
            phase: Phase::Idle,
            rid: 0,
            started: Instant(0),
            seed: [0; MAX_SEED_LEN],
            blob: [0; MAX_BLOB_LEN],
            blob_done: false,
            next_idx: 0,
            decoding: false,
            dec_rid: 0,
            decoder: Decoder::new(),
            dead_rids: [None; DEAD_RIDS],
            attempt_at: 0,
            app_request: false,
            peer_requested: false,
            next_start_at: Instant(0),
            abort_pending: None,
            done_pending: None,
            owe_reply: false,
            pace_at: Instant(0),
            pace_ms: 0,
            confirm_since: Instant(0),
            wedge_reported: false,
        }
    }
}

impl<K: RatchetKem, const WW: usize, const MS: usize> KeySchedule<K, WW, MS> {
    /// Owner step 1: `(dk, ek) = generate_from_seed(rng)`, keep the seed.
    pub(crate) fn start_ratchet<R: CryptoRng + ?Sized>(&mut self, now: Instant, rng: &mut R) {
        let mut seed = [0u8; MAX_SEED_LEN];
        rng.fill_bytes(&mut seed[..K::SEED_LEN]);
        let [r0, r1, _, _] = rng.next_u32().to_be_bytes();
        let mut rid = u16::from_be_bytes([r0, r1]);
        // Public by design: the attempt id travels in KEM_SYMBOL frames.
        pqdr_ctgrind::hook::declassify(&mut rid);
        // At most DEAD_RIDS + 1 ids are excluded: the loop ends.
        while self.kem.is_dead(rid) || rid == self.kem.rid {
            rid = rid.wrapping_add(1);
        }
        self.start_ratchet_with(now, &seed, rid);
        seed.zeroize();
    }

    /// Owner step 1 with explicit randomness (test vectors).
    pub(crate) fn start_ratchet_with(&mut self, now: Instant, seed: &[u8; MAX_SEED_LEN], rid: u16) {
        let k = &mut self.kem;
        k.seed = *seed;
        K::generate_from_seed(&k.seed[..K::SEED_LEN], &mut k.blob[..K::EK_LEN]);
        // Public by design: the encapsulation key is sent to the peer (docs/protocol/ratchet.md §1.7 step 1).
        pqdr_ctgrind::hook::declassify(&mut k.blob[..K::EK_LEN]);
        k.phase = Phase::OwnerEk;
        k.rid = rid;
        k.started = now;
        k.blob_done = false;
        k.next_idx = 0;
        k.decoding = true;
        k.dec_rid = rid;
        k.decoder.reset(K::CT_LEN);
        k.next_start_at = now.plus(self.cfg.min_ratchet_interval_ms);
        k.pace_at = now;
        k.pace_ms = self.cfg.pacing_initial_ms;
        self.events
            .push(Event::RatchetStarted { epoch: self.epoch });
    }

    /// Owner abandons its attempt (timeout or peer abort).
    pub(crate) fn abort_own(&mut self, reason: AbortReason, tell_peer: bool, now: Instant) {
        let k = &mut self.kem;
        k.seed.zeroize();
        k.phase = Phase::Idle;
        k.decoding = false;
        k.mark_dead(k.rid);
        if tell_peer {
            k.abort_pending = Some((k.rid, reason.code()));
        }
        k.next_start_at = now.plus(self.cfg.min_ratchet_interval_ms);
        self.events.push(Event::RatchetAborted { reason });
    }

    /// Peer drops an installed-but-unused next epoch (attempt aborted or superseded).
    pub(crate) fn drop_next(&mut self) {
        if let Some(n) = self.slot_of(self.epoch.wrapping_add(1)) {
            self.slots[n].zeroize();
        }
        self.kem.phase = Phase::Idle;
        self.kem.blob_done = false;
    }

    /// Handles a KEM_SYMBOL frame from the authentic record `(epoch, counter)`.
    pub(crate) fn handle_symbol<R: CryptoRng + ?Sized>(
        &mut self,
        epoch: u64,
        counter: u32,
        sym: &Symbol<'_>,
        now: Instant,
        rng: &mut R,
    ) {
        match sym.blob {
            Blob::Ek => {
                if epoch != self.epoch || self.is_owner() || self.kem.is_dead(sym.rid) {
                    return;
                }
                let installed = self.kem.phase == Phase::PeerCt;
                let current = if installed {
                    Some(self.kem.rid)
                } else {
                    self.kem.decoding.then_some(self.kem.dec_rid)
                };
                match current {
                    Some(cur) if cur == sym.rid => {
                        self.kem.attempt_at = self.kem.attempt_at.min(counter);
                        if installed {
                            return;
                        }
                    }
                    // Sent before the current attempt's records: an older
                    // attempt, which the owner gave up. Remember it.
                    Some(_) if counter < self.kem.attempt_at => {
                        self.kem.mark_dead(sym.rid);
                        return;
                    }
                    // The owner started a new attempt: the current one is
                    // void, and its late symbols must not revive it.
                    Some(cur) => {
                        self.kem.mark_dead(cur);
                        self.kem.decoding = false;
                        if installed {
                            self.drop_next();
                        }
                    }
                    None => {}
                }
                if !self.kem.decoding || self.kem.dec_rid != sym.rid {
                    self.kem.attempt_at = counter;
                    self.kem.decoding = true;
                    self.kem.dec_rid = sym.rid;
                    self.kem.decoder.reset(K::EK_LEN);
                }
                let sym_len = sym.data.len();
                if self.kem.decoder.add(sym.k, sym_len, sym.idx, sym.data) {
                    let mut m = [0u8; MAX_SEED_LEN];
                    rng.fill_bytes(&mut m[..K::ENCAPS_SEED_LEN]);
                    self.peer_encapsulate(now, &m, rng.next_u32());
                    m.zeroize();
                }
            }
            Blob::Ct => {
                if !self.is_owner() && self.kem.phase != Phase::OwnerConfirm {
                    return;
                }
                if sym.rid != self.kem.rid {
                    return;
                }
                if self.kem.phase == Phase::OwnerConfirm {
                    // The peer has not seen our e+1 records yet: answer once.
                    if epoch.wrapping_add(1) == self.epoch {
                        self.kem.owe_reply = true;
                    }
                    return;
                }
                if self.kem.phase != Phase::OwnerEk || epoch != self.epoch {
                    return;
                }
                // Receiving ct symbols acknowledges the ek implicitly (and
                // proves that the peer decrypts our records).
                self.kem.blob_done = true;
                self.tx_ok = true;
                let sym_len = sym.data.len();
                if self.kem.decoder.add(sym.k, sym_len, sym.idx, sym.data) {
                    let r = rng.next_u32();
                    self.owner_decapsulate(now, r);
                }
            }
        }
    }

    /// Peer step 2: on ek decode, `(ct, ss) = encaps(ek)`, compute `root_{e+1}`,
    /// install e+1, keep sending in e, send ct symbols.
    pub(crate) fn peer_encapsulate(&mut self, now: Instant, m: &[u8; MAX_SEED_LEN], r: u32) {
        let mut ek = [0u8; MAX_BLOB_LEN];
        if !self.kem.decoder.decode(&mut ek[..K::EK_LEN]) {
            return;
        }
        let rid = self.kem.dec_rid;
        self.kem.decoding = false;
        let mut ss = [0u8; 32];
        let mut ct = [0u8; MAX_BLOB_LEN];
        if K::encapsulate_deterministic(
            &ek[..K::EK_LEN],
            &m[..K::ENCAPS_SEED_LEN],
            &mut ct[..K::CT_LEN],
            &mut ss,
        )
        .is_err()
        {
            self.kem.mark_dead(rid);
            self.kem.abort_pending = Some((rid, AbortReason::InvalidKey.code()));
            self.events.push(Event::RatchetAborted {
                reason: AbortReason::InvalidKey,
            });
            return;
        }
        // Public by design: the ciphertext is sent to the owner (docs/protocol/ratchet.md §1.7 step 2).
        pqdr_ctgrind::hook::declassify(&mut ct[..K::CT_LEN]);
        let next = self.epoch.wrapping_add(1);
        let owner = Role::owner_of(self.epoch).byte();
        let mut th =
            kdf::kem_transcript(next, K::ID, owner, rid, &ek[..K::EK_LEN], &ct[..K::CT_LEN]);
        self.install_next(&mut ss, &mut th, now, r);
        let k = &mut self.kem;
        k.blob[..K::CT_LEN].copy_from_slice(&ct[..K::CT_LEN]);
        k.phase = Phase::PeerCt;
        k.rid = rid;
        k.started = now;
        k.blob_done = false;
        k.next_idx = 0;
        k.done_pending = Some((rid, Blob::Ek as u8));
        k.pace_at = now;
        k.pace_ms = self.cfg.pacing_initial_ms;
        self.events.push(Event::NextEpochReady { epoch: next });
    }

    /// `root_{e+1} = DK(CTX_ROOT_STEP, rk_e ‖ ss ‖ th_{e+1})` (docs/protocol/ratchet.md §1.4),
    /// installed as epoch e+1 (its root erased by the install); `ss` and `th`
    /// are wiped.
    fn install_next(&mut self, ss: &mut [u8; 32], th: &mut [u8; 32], now: Instant, r: u32) {
        let next = self.epoch.wrapping_add(1);
        let mut root = kdf::root_step(&self.slots[self.cur()].rk, ss, th);
        ss.zeroize();
        th.zeroize();
        let n = self.free_slot();
        let rekey = self.jittered_rekey_delay(r);
        let (limit, v1) = (self.send_reserve, self.v1_leak);
        self.slots[n].install(next, &mut root, self.role, now, rekey, limit, v1);
    }

    /// Owner step 3: on ct decode, `ss = decaps(dk, ct)`, erase the seed,
    /// compute `root_{e+1}`, install e+1 and switch sending to it at once.
    pub(crate) fn owner_decapsulate(&mut self, now: Instant, r: u32) {
        let mut ct = [0u8; MAX_BLOB_LEN];
        if !self.kem.decoder.decode(&mut ct[..K::CT_LEN]) {
            return;
        }
        let mut ss = [0u8; 32];
        K::decapsulate(&self.kem.seed[..K::SEED_LEN], &ct[..K::CT_LEN], &mut ss);
        self.kem.seed.zeroize();
        self.kem.decoding = false;
        let next = self.epoch.wrapping_add(1);
        let mut th = kdf::kem_transcript(
            next,
            K::ID,
            self.role.byte(),
            self.kem.rid,
            &self.kem.blob[..K::EK_LEN],
            &ct[..K::CT_LEN],
        );
        self.install_next(&mut ss, &mut th, now, r);
        self.switch_to_next(now);
    }

    /// Handles KEM_DONE.
    pub(crate) fn handle_done(&mut self, rid: u16, blob: Blob) {
        let k = &mut self.kem;
        if rid != k.rid {
            return;
        }
        match (blob, k.phase) {
            (Blob::Ek, Phase::OwnerEk) | (Blob::Ct, Phase::PeerCt) => {
                k.blob_done = true;
                self.tx_ok = true;
            }
            _ => {}
        }
    }

    /// Handles RATCHET_REQUEST from an authentic record of `epoch`.
    pub(crate) fn handle_request(&mut self, epoch: u64, next_epoch_lo: u8) {
        #[allow(clippy::cast_possible_truncation, reason = "low byte by definition")]
        let lo = self.epoch.wrapping_add(1) as u8;
        if epoch == self.epoch && next_epoch_lo == lo && self.is_owner() {
            self.kem.peer_requested = true;
        }
    }

    /// Handles RATCHET_ABORT.
    pub(crate) fn handle_abort(&mut self, rid: u16, now: Instant) {
        if self.kem.phase == Phase::OwnerEk && rid == self.kem.rid {
            self.abort_own(AbortReason::Peer, false, now);
        } else if self.kem.phase == Phase::PeerCt && rid == self.kem.rid {
            self.kem.mark_dead(rid);
            self.drop_next();
            self.events.push(Event::RatchetAborted {
                reason: AbortReason::Peer,
            });
        } else if !self.is_owner() {
            if self.kem.decoding && self.kem.dec_rid == rid {
                self.kem.decoding = false;
            }
            // Even an attempt not seen yet: its symbols may still be on the way.
            self.kem.mark_dead(rid);
        }
    }

    /// Handles RECV_REPORT: a probe that elicits one reply record.
    pub(crate) fn handle_report(&mut self) {
        self.kem.owe_reply = true;
    }
}
