//! The 1-RTT packet and header protection of PQDR-QUIC (docs/protocol/quic.md §2):
//! quinn's `PacketKey` / `HeaderKey` traits on the ratchet's L1 key schedule,
//! shared by every key object of one connection.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use bytes::BytesMut;
use pqdr_ratchet::{Config as RatchetConfig, InitialSecret, Instant, KeySchedule, MlKem768, Role};
use quinn::crypto::{CryptoError, HeaderKey, KeyPair, PacketKey};
use ring::aead::{self, Aad, LessSafeKey, Nonce, UnboundKey};

use crate::frames;

/// The ratchet's TLS exporter label (docs/protocol/ratchet.md §1.3, RFC 8446 §7.5).
pub const EXPORTER_LABEL: &[u8] = b"EXPORTER-pqdr-ratchet v1";
/// The exporter context, and the ratchet's `InitialSecret::context`: names this mapping.
pub const EXPORTER_CONTEXT: &[u8] = b"pqdr-quic v1";
/// The ratchet exporter label of the header-protection key (docs/protocol/quic.md §2.3).
pub const HP_LABEL: &[u8] = b"pqdr-quic v1 header protection";
/// The key phase bit of a short header (RFC 9000 §17.3.1).
const KEY_PHASE_BIT: u8 = 0x04;
/// Poly1305 tag length.
const TAG_LEN: usize = 16;

/// Counters of one connection's protection layer (all since the handshake).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// 1-RTT packets sealed under a ratchet key.
    pub packets_sealed: u64,
    /// 1-RTT packets that opened (authentic, not replayed).
    pub packets_opened: u64,
    /// 1-RTT packets refused: forged, replayed, too old, unknown epoch.
    pub packets_refused: u64,
    /// 1-RTT packets quinn asked to seal before the ratchet existed, or after
    /// it refused to hand out a key: sent with an invalid tag (lost).
    pub packets_unsealable: u64,
    /// Control datagrams received in authentic packets.
    pub control_in: u64,
    /// Control datagrams queued for sending.
    pub control_out: u64,
    /// Packets opened with a key phase bit different from the previous one's.
    pub key_phase_flips_seen: u64,
}

/// The ratchet of one connection and what protects its packets.
pub(crate) struct State {
    pub(crate) ks: Option<Box<KeySchedule<MlKem768>>>,
    pub(crate) stats: Stats,
    /// The last refusal of the send path (the connection closes on it).
    pub(crate) send_error: Option<pqdr_ratchet::Error>,
    last_phase: Option<bool>,
    /// The packet path's clock (see [`State::now`]).
    clock: Clock,
}

/// The ratchet's millisecond clock as the packet path reads it: the last
/// value computed, and the instant at which it becomes stale (the next
/// millisecond boundary). A packet reads `std::time::Instant::now()` and
/// compares it with `tick`; only when a new millisecond has begun does it
/// compute the milliseconds since the start (`Instant` subtraction and
/// conversion, about 130 instructions per call under callgrind), so the
/// value is always exact to the millisecond (`tests/quic/clock.rs`).
pub(crate) struct Clock {
    ms: Instant,
    tick: std::time::Instant,
}

impl Clock {
    pub(crate) fn new(start: std::time::Instant) -> Self {
        Clock {
            ms: Instant(0),
            tick: start,
        }
    }

    /// The whole milliseconds from `start` to `t`, for non-decreasing `t`:
    /// the same value as `ms_since(start, t)`.
    #[inline]
    pub(crate) fn read(&mut self, start: std::time::Instant, t: std::time::Instant) -> Instant {
        if t >= self.tick {
            self.ms = ms_since(start, t);
            // The first instant of the next millisecond since `start`.
            self.tick = start
                .checked_add(core::time::Duration::from_millis(
                    self.ms.0.saturating_add(1),
                ))
                .unwrap_or(t);
        }
        self.ms
    }
}

impl State {
    /// The ratchet's clock (milliseconds since `start`), exact: the same value
    /// as [`Shared::now`]. Read under the lock, so the instants are in order.
    #[inline]
    fn now(&mut self, start: std::time::Instant) -> Instant {
        self.clock.read(start, std::time::Instant::now())
    }
}

/// Whole milliseconds from `start` to `t` (0 if `t` is earlier).
pub(crate) fn ms_since(start: std::time::Instant, t: std::time::Instant) -> Instant {
    Instant(u64::try_from(t.saturating_duration_since(start).as_millis()).unwrap_or(u64::MAX))
}

/// Shared by the session, every packet and header key, and the driver.
pub(crate) struct Shared {
    state: Mutex<State>,
    hp: OnceLock<aead::quic::HeaderProtectionKey>,
    #[cfg(feature = "test-utils")]
    pub(crate) hp_raw: OnceLock<[u8; 32]>,
    pub(crate) notify: tokio::sync::Notify,
    start: std::time::Instant,
    pub(crate) cfg: RatchetConfig,
    pub(crate) role: Role,
}

impl Shared {
    pub(crate) fn new(cfg: RatchetConfig, role: Role) -> Arc<Self> {
        let start = std::time::Instant::now();
        Arc::new(Shared {
            state: Mutex::new(State {
                ks: None,
                stats: Stats::default(),
                send_error: None,
                last_phase: None,
                clock: Clock::new(start),
            }),
            hp: OnceLock::new(),
            #[cfg(feature = "test-utils")]
            hp_raw: OnceLock::new(),
            notify: tokio::sync::Notify::new(),
            start,
            cfg,
            role,
        })
    }

    /// The ratchet's clock: milliseconds since the connection started.
    pub(crate) fn now(&self) -> Instant {
        ms_since(self.start, std::time::Instant::now())
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave a half-updated ratchet:
        // every ratchet call commits only on success.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn installed(&self) -> bool {
        self.lock().ks.is_some()
    }

    /// Creates the ratchet from the TLS exporter value (docs/protocol/quic.md §2.1)
    /// and the header-protection key from the ratchet's epoch-0 exporter.
    pub(crate) fn install(&self, secret: &[u8; 32]) -> Result<(), pqdr_ratchet::Error> {
        let mut st = self.lock();
        if st.ks.is_some() {
            return Ok(());
        }
        let init = InitialSecret {
            secret,
            transcript: b"",
            context: EXPORTER_CONTEXT,
        };
        let ks = Box::new(KeySchedule::new(
            &self.cfg,
            self.role,
            init,
            self.now(),
            &mut crate::rng(),
        )?);
        let mut hp = [0u8; 32];
        ks.export_secret(HP_LABEL, &mut hp)?;
        let key = aead::quic::HeaderProtectionKey::new(&aead::quic::CHACHA20, &hp)
            .map_err(|_| pqdr_ratchet::Error::Malformed)?;
        let _ = self.hp.set(key);
        #[cfg(feature = "test-utils")]
        let _ = self.hp_raw.set(hp);
        hp.fill(0);
        st.ks = Some(ks);
        drop(st);
        self.notify.notify_one();
        Ok(())
    }
}

/// A 1-RTT packet key: every quinn key generation of a connection delegates
/// to the same ratchet (docs/protocol/quic.md §2.2).
pub(crate) struct RatchetPacketKey(pub(crate) Arc<Shared>);

pub(crate) fn packet_pair(shared: &Arc<Shared>) -> KeyPair<Box<dyn PacketKey>> {
    KeyPair {
        local: Box::new(RatchetPacketKey(shared.clone())),
        remote: Box::new(RatchetPacketKey(shared.clone())),
    }
}

pub(crate) fn header_pair(shared: &Arc<Shared>) -> KeyPair<Box<dyn HeaderKey>> {
    KeyPair {
        local: Box::new(RatchetHeaderKey(shared.clone())),
        remote: Box::new(RatchetHeaderKey(shared.clone())),
    }
}

/// ring's ChaCha20-Poly1305 key for `key`. Built where it is used (inlined,
/// no `Option` around it): ring's key type is sized for AES-GCM (about 550
/// bytes), and each move of it was a `memcpy` of that size per packet.
///
/// Under `--cfg pqct_valgrind` (scripts/ct-check.sh, `tests/ct_valgrind.rs`)
/// ring is given a declassified copy of the message key: ring's open
/// branches on its tag comparison inside ring, where no declassification
/// hook can reach, so ring's AEAD is outside that check (its ChaCha20 and
/// Poly1305 are constant-time assembly); the derivation of the key, header
/// protection and everything of this crate stay classified.
#[inline(always)]
fn aead_key(key: &[u8; 32]) -> Result<LessSafeKey, ring::error::Unspecified> {
    #[cfg(pqct_valgrind)]
    {
        let mut k = *key;
        pqdr_ctgrind::declassify(&mut k);
        let r = UnboundKey::new(&aead::CHACHA20_POLY1305, &k).map(LessSafeKey::new);
        k.fill(0);
        core::hint::black_box(&k);
        r
    }
    #[cfg(not(pqct_valgrind))]
    UnboundKey::new(&aead::CHACHA20_POLY1305, key).map(LessSafeKey::new)
}

impl PacketKey for RatchetPacketKey {
    /// Seals 1-RTT packet `packet` under the ratchet key of counter `packet`
    /// in the current sending epoch; the key phase bit becomes the epoch's
    /// parity (docs/protocol/quic.md §2.2) before the header is used as AD.
    fn encrypt(&self, packet: u64, buf: &mut [u8], header_len: usize) {
        let shared = &self.0;
        let mut st = shared.lock();
        let now = st.now(shared.start);
        let payload_len = buf.len().saturating_sub(header_len + TAG_LEN);
        let key = match (st.ks.as_mut(), u32::try_from(packet)) {
            (Some(ks), Ok(counter)) => ks.next_send_at(now, counter, payload_len),
            (Some(_), Err(_)) => Err(pqdr_ratchet::Error::EpochExhausted),
            (None, _) => Err(pqdr_ratchet::Error::Closed),
        };
        let (header, rest) = buf.split_at_mut(header_len);
        let (payload, tag) = rest.split_at_mut(payload_len);
        let refused = key.as_ref().err().copied();
        let sealed = key.ok().and_then(|k| {
            header[0] =
                (header[0] & !KEY_PHASE_BIT) | if k.epoch & 1 == 1 { KEY_PHASE_BIT } else { 0 };
            let t = aead_key(k.key())
                .and_then(|key| {
                    key.seal_in_place_separate_tag(
                        Nonce::assume_unique_for_key(k.nonce()),
                        Aad::from(&*header),
                        payload,
                    )
                })
                .ok()?;
            tag.copy_from_slice(t.as_ref());
            Some(())
        });
        match sealed {
            Some(()) => st.stats.packets_sealed += 1,
            None => {
                // No key: the packet cannot be protected. An all-zero tag does
                // not verify (but with probability 2^-128): the peer drops it,
                // quinn sees a loss. A refusal of the ratchet itself is final
                // (closed, overdue, exhausted): the driver closes the connection.
                tag.fill(0);
                payload.fill(0);
                st.stats.packets_unsealable += 1;
                if st.ks.is_some() {
                    st.send_error = refused.or(Some(pqdr_ratchet::Error::Malformed));
                    shared.notify.notify_one();
                }
            }
        }
    }

    /// Opens 1-RTT packet `packet`: the key phase bit selects the epoch
    /// (docs/protocol/ratchet.md §1.1.1), the ratchet derives the candidate
    /// key, and commits only if the tag verified. Control datagrams in the
    /// plaintext are applied with the proof of this packet's authenticity.
    fn decrypt(
        &self,
        packet: u64,
        header: &[u8],
        payload: &mut BytesMut,
    ) -> Result<(), CryptoError> {
        let shared = &self.0;
        let mut guard = shared.lock();
        let st = &mut *guard;
        let now = st.now(shared.start);
        let (Some(ks), Ok(counter), Some(&first)) =
            (st.ks.as_mut(), u32::try_from(packet), header.first())
        else {
            st.stats.packets_refused += 1;
            return Err(CryptoError);
        };
        let phase = first & KEY_PHASE_BIT != 0;
        let cur = ks.epoch();
        // The phase names the current epoch, or else the next (the peer
        // switched first) or the previous one (grace): docs/protocol/ratchet.md §1.1.1.
        let guesses: [Option<u64>; 2] = if phase == (cur & 1 == 1) {
            [Some(cur), None]
        } else {
            [Some(cur.wrapping_add(1)), cur.checked_sub(1)]
        };
        let mut opened = None;
        let mut spare: Option<Vec<u8>> = None;
        for (i, e) in guesses.iter().enumerate() {
            let Some(e) = *e else { continue };
            // ring may overwrite a buffer that fails to open: keep a copy when a
            // second guess may follow.
            if i == 0 && guesses[1].is_some() {
                spare = Some(payload.to_vec());
            } else if let Some(s) = spare.take() {
                payload.copy_from_slice(&s);
            }
            #[allow(
                clippy::cast_possible_truncation,
                reason = "the epoch's low byte, by definition"
            )]
            let r = ks.open_with(now, e as u8, Some(counter), |k| {
                aead_key(k.key())
                    .and_then(|key| {
                        key.open_in_place(
                            Nonce::assume_unique_for_key(k.nonce()),
                            Aad::from(header),
                            &mut payload[..],
                        )
                        .map(|p| p.len())
                    })
                    .ok()
            });
            if let Ok((auth, len)) = r {
                opened = Some((auth, len));
                break;
            }
        }
        let Some((auth, len)) = opened else {
            st.stats.packets_refused += 1;
            return Err(CryptoError);
        };
        payload.truncate(len);
        st.stats.packets_opened += 1;
        if st.last_phase.is_some_and(|p| p != phase) {
            st.stats.key_phase_flips_seen += 1;
        }
        st.last_phase = Some(phase);
        // Control datagrams ride in this authentic packet (docs/protocol/quic.md §3).
        let mut applied = 0u64;
        let _ = frames::scan_control(payload, |body| {
            if ks
                .handle_control(&auth, body, now, &mut crate::rng())
                .is_ok()
            {
                applied += 1;
            }
        });
        if applied > 0 {
            st.stats.control_in += applied;
            shared.notify.notify_one();
        }
        Ok(())
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    /// Every packet has its own key: no per-key limit applies; quinn's own
    /// key updates (RFC 9001 §6) only rename the same ratchet.
    fn confidentiality_limit(&self) -> u64 {
        u64::MAX
    }

    /// RFC 9001 §6.6 for AEAD_CHACHA20_POLY1305 (2^36), counted by quinn over
    /// the connection; the ratchet's own budget bounds forgeries' work.
    fn integrity_limit(&self) -> u64 {
        1 << 36
    }
}

/// Header protection (RFC 9001 §5.4.4, ChaCha20) under the key exported from
/// the ratchet's epoch 0 (docs/protocol/quic.md §2.3).
pub(crate) struct RatchetHeaderKey(pub(crate) Arc<Shared>);

impl RatchetHeaderKey {
    /// RFC 9001 §5.4.1: the mask from the sample, applied to the first byte's
    /// low 5 (short header) or 4 (long header) bits and to the packet number.
    fn apply(&self, pn_offset: usize, packet: &mut [u8], unmask_first: bool) {
        let Some(hp) = self.0.hp.get() else {
            // No ratchet yet (a server before the client's Finished): the packet
            // cannot be protected or opened anyway.
            return;
        };
        let Some(sample) = packet.get(pn_offset + 4..pn_offset + 4 + 16) else {
            return;
        };
        let Ok(mask) = hp.new_mask(sample) else {
            return;
        };
        let bits = if packet[0] & 0x80 != 0 { 0x0f } else { 0x1f };
        // The packet number length is read from the unprotected first byte.
        let pn_len = if unmask_first {
            packet[0] ^= mask[0] & bits;
            (packet[0] & 0x03) + 1
        } else {
            let n = (packet[0] & 0x03) + 1;
            packet[0] ^= mask[0] & bits;
            n
        };
        // All four possible packet number bytes are touched, the mask zeroed
        // beyond the length without a branch (RFC 9001 §9.5: no timing that
        // depends on the unprotected length). The sample starts 4 bytes after
        // `pn_offset`, so the 4 bytes exist.
        for (i, m) in (0u8..4).zip(&mask[1..]) {
            let keep = 0u8.wrapping_sub(i.wrapping_sub(pn_len) >> 7);
            packet[pn_offset + usize::from(i)] ^= m & keep;
        }
    }
}

impl HeaderKey for RatchetHeaderKey {
    fn decrypt(&self, pn_offset: usize, packet: &mut [u8]) {
        self.apply(pn_offset, packet, true);
    }

    fn encrypt(&self, pn_offset: usize, packet: &mut [u8]) {
        self.apply(pn_offset, packet, false);
    }

    fn sample_size(&self) -> usize {
        16
    }
}
