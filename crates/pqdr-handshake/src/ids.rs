//! Identities, peers, the app-owned peer store and its replay records,
//! TAI64N timestamps (docs/protocol/handshake.md §3, §5, §8).

use zeroize::Zeroize;

use crate::kdf::{C_PEER_ID, lp16};
use crate::suite::{Auth, Mode};
use crate::x25519;

/// A TAI64N timestamp (docs/protocol/handshake.md §3): seconds since 1970 (TAI) and nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tai64N {
    /// Seconds since the epoch.
    pub secs: u64,
    /// Nanoseconds, `< 1_000_000_000`.
    pub nanos: u32,
}

impl Tai64N {
    /// The 12-byte TAI64N label: be64(2^62 + secs) ‖ be32(nanos).
    pub fn to_bytes(self) -> [u8; 12] {
        let mut b = [0u8; 12];
        b[..8].copy_from_slice(&(self.secs.wrapping_add(1 << 62)).to_be_bytes());
        b[8..].copy_from_slice(&self.nanos.to_be_bytes());
        b
    }

    /// Parses a 12-byte label (any bytes; comparisons are on the decoded value).
    pub fn from_bytes(b: &[u8; 12]) -> Self {
        let mut s = [0u8; 8];
        s.copy_from_slice(&b[..8]);
        let mut n = [0u8; 4];
        n.copy_from_slice(&b[8..]);
        Tai64N {
            secs: u64::from_be_bytes(s).wrapping_sub(1 << 62),
            nanos: u32::from_be_bytes(n),
        }
    }

    /// The next representable instant (one nanosecond later).
    pub fn next(self) -> Self {
        if self.nanos >= 999_999_999 {
            Tai64N {
                secs: self.secs.saturating_add(1),
                nanos: 0,
            }
        } else {
            Tai64N {
                secs: self.secs,
                nanos: self.nanos + 1,
            }
        }
    }
}

/// Key id: `DK(C_PEER_ID, be16(alg) ‖ lp32(pk) ‖ lp(xpk or ε))`
/// (docs/protocol/handshake.md §4.2).
pub fn key_id(alg: u16, pk: &[u8], xpk: Option<&[u8; 32]>) -> [u8; 32] {
    let mut h = C_PEER_ID.hasher();
    h.update(&alg.to_be_bytes());
    h.update(&u32::try_from(pk.len()).unwrap_or(u32::MAX).to_be_bytes());
    h.update(pk);
    match xpk {
        Some(x) => {
            h.update(&lp16(x));
            h.update(x);
        }
        None => {
            h.update(&[0, 0]);
        }
    }
    *h.finalize().as_bytes()
}

fn key_id_of<A: Auth>(pk: &A::PublicKey, xpk: Option<&[u8; 32]>) -> [u8; 32] {
    key_id(A::ALG, A::public_bytes(pk), xpk)
}

/// Our long-term identity: static key, key id, optional X25519 static key
/// (KEM-mode `-X`), and σ, the secret that hedges every KEM coin.
pub struct Identity<A: Auth> {
    pub(crate) sk: A::SecretKey,
    pub(crate) hpk: [u8; 32],
    pub(crate) x_secret: Option<[u8; 32]>,
    pub(crate) x_public: Option<[u8; 32]>,
    pub(crate) sigma: [u8; 32],
}

impl<A: Auth> Identity<A> {
    /// An identity from the key pair and a 32-byte σ (keep σ with the private key).
    ///
    /// `pk` must be the public half of `sk`: it names us (key id) to peers.
    pub fn new(sk: A::SecretKey, pk: &A::PublicKey, sigma: [u8; 32]) -> Self {
        Identity {
            hpk: key_id(A::ALG, A::public_bytes(pk), None),
            sk,
            x_secret: None,
            x_public: None,
            sigma,
        }
    }

    /// Adds an X25519 static key (KEM mode, the `-X` suites). The key id
    /// changes: a hybrid identity speaks only `-X` suites. In SIG mode the
    /// `-X` suites use ephemeral X25519 only, so this is not needed there.
    #[cfg(feature = "hybrid")]
    pub fn with_x25519(mut self, pk: &A::PublicKey, secret: [u8; 32]) -> Self {
        if A::MODE == Mode::Kem {
            let public = x25519::public(&secret);
            self.hpk = key_id(A::ALG, A::public_bytes(pk), Some(&public));
            self.x_public = Some(public);
            self.x_secret = Some(secret);
        }
        self
    }

    /// Our key id (what peers look us up by).
    pub fn key_id(&self) -> &[u8; 32] {
        &self.hpk
    }

    /// Our X25519 static public key, if hybrid.
    pub fn x25519_public(&self) -> Option<[u8; 32]> {
        self.x_public
    }
}

impl<A: Auth> Drop for Identity<A> {
    fn drop(&mut self) {
        self.sigma.zeroize();
        self.x_secret.zeroize();
    }
}

impl<A: Auth> core::fmt::Debug for Identity<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Identity")
            .field("key_id", &self.hpk)
            .finish_non_exhaustive()
    }
}

/// What we know about a peer: its public key, optional X25519 static key,
/// optional psk, and which suites it may use.
///
/// Its key id hashes the whole public key (524 KB for McEliece), so build
/// each peer once — when it is added to the peer store — and hand out clones
/// from [`PeerStore::lookup`] (a responder looks a peer up twice per msg1),
/// or rebuild it cheaply with [`Peer::from_parts`] and the stored key id.
pub struct Peer<'a, A: Auth> {
    pub(crate) pk: &'a A::PublicKey,
    pub(crate) x_public: Option<[u8; 32]>,
    pub(crate) hybrid: bool,
    pub(crate) compact: bool,
    pub(crate) hpk: [u8; 32],
    pub(crate) psk: Option<[u8; 32]>,
}

impl<'a, A: Auth> Peer<'a, A> {
    /// A peer known by its static public key (KEM key or ML-DSA verifying key).
    pub fn new(pk: &'a A::PublicKey) -> Self {
        Peer {
            hpk: key_id(A::ALG, A::public_bytes(pk), None),
            pk,
            x_public: None,
            hybrid: false,
            compact: false,
            psk: None,
        }
    }

    /// A peer from its public key, its X25519 static key (KEM `-X`) and the key
    /// id computed earlier for exactly these keys ([`Peer::key_id`] or
    /// [`crate::key_id`]); no hashing. A wrong id only makes handshakes with
    /// this peer fail (every key binds the real ids), but keep ids with keys.
    pub fn from_parts(pk: &'a A::PublicKey, x25519: Option<[u8; 32]>, key_id: [u8; 32]) -> Self {
        debug_assert_eq!(
            key_id,
            key_id_of::<A>(pk, x25519.as_ref().filter(|_| A::MODE == Mode::Kem)),
            "Peer::from_parts: key id of other keys"
        );
        let (x_public, hybrid) = match x25519 {
            Some(x) if A::MODE == Mode::Kem => (Some(x), true),
            _ => (None, false),
        };
        Peer {
            pk,
            x_public,
            hybrid,
            compact: false,
            hpk: key_id,
            psk: None,
        }
    }

    /// KEM mode: the peer's X25519 static key; the peer then speaks only `-X` suites.
    #[cfg(feature = "hybrid")]
    pub fn with_x25519(mut self, xpk: [u8; 32]) -> Self {
        if A::MODE == Mode::Kem {
            self.hpk = key_id(A::ALG, A::public_bytes(self.pk), Some(&xpk));
            self.x_public = Some(xpk);
        }
        self.hybrid = true;
        self
    }

    /// SIG mode: require the `-X` suite (ephemeral X25519) with this peer.
    #[cfg(feature = "hybrid")]
    pub fn hybrid(mut self) -> Self {
        self.hybrid = true;
        self
    }

    /// KEM mode only: a 32-byte pre-shared key mixed into the handshake (Mix('P')).
    pub fn with_psk(mut self, psk: [u8; 32]) -> Self {
        self.psk = Some(psk);
        self
    }

    /// Accepts the compact KMc-c suite (ML-KEM-512 ephemeral) from this peer.
    pub fn allow_compact(mut self) -> Self {
        self.compact = A::COMPACT;
        self
    }

    /// The peer's key id.
    pub fn key_id(&self) -> &[u8; 32] {
        &self.hpk
    }
}

impl<A: Auth> Clone for Peer<'_, A> {
    fn clone(&self) -> Self {
        Peer {
            pk: self.pk,
            x_public: self.x_public,
            hybrid: self.hybrid,
            compact: self.compact,
            hpk: self.hpk,
            psk: self.psk,
        }
    }
}

impl<A: Auth> Drop for Peer<'_, A> {
    fn drop(&mut self) {
        self.psk.zeroize();
    }
}

impl<A: Auth> core::fmt::Debug for Peer<'_, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Peer")
            .field("key_id", &self.hpk)
            .field("hybrid", &self.hybrid)
            .finish_non_exhaustive()
    }
}

/// The app-owned peer table (keys, psk, accepted suites, replay records).
pub trait PeerStore<A: Auth> {
    /// The peer with key id `hpk`, if known and allowed.
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>>;
    /// The peer's replay record (persist it when it changes).
    fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord>;
}

/// A peer store holding one peer: the point-to-point case (a tunnel, a
/// device talking to its server). Persist [`OnePeer::replay_record`] when it
/// changes (after each completed handshake).
#[derive(Debug)]
pub struct OnePeer<'a, A: Auth> {
    peer: Peer<'a, A>,
    record: ReplayRecord,
}

impl<'a, A: Auth> OnePeer<'a, A> {
    /// The store for `peer`, with a fresh replay record.
    pub fn new(peer: Peer<'a, A>) -> Self {
        OnePeer {
            peer,
            record: ReplayRecord::new(),
        }
    }

    /// The store for `peer` with its persisted replay record.
    pub fn with_record(peer: Peer<'a, A>, record: ReplayRecord) -> Self {
        OnePeer { peer, record }
    }

    /// The replay record (persist it after each completed handshake).
    pub fn replay_record(&self) -> &ReplayRecord {
        &self.record
    }
}

impl<A: Auth> PeerStore<A> for OnePeer<'_, A> {
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>> {
        (self.peer.hpk == *hpk).then(|| self.peer.clone())
    }
    fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord> {
        (self.peer.hpk == *hpk).then_some(&mut self.record)
    }
}

/// Per-peer replay state kept by the responder (docs/protocol/handshake.md §5.3: 48 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayRecord {
    pub(crate) last_ts: Tai64N,
    pub(crate) last_biscuit_no: u64,
    pub(crate) instance: u64,
    pub(crate) flood_tat: u64,
    /// The newest msg1 timestamp charged to the per-peer rate (50/s): a
    /// timestamp at or below it (a replay, or a resend of the same msg1) is
    /// not charged again, so replays cannot keep the bucket empty.
    pub(crate) flood_ts: Tai64N,
}

impl ReplayRecord {
    /// Size of [`ReplayRecord::to_bytes`].
    pub const SIZE: usize = 48;

    /// A fresh record (no handshake seen).
    pub const fn new() -> Self {
        ReplayRecord {
            last_ts: Tai64N { secs: 0, nanos: 0 },
            last_biscuit_no: 0,
            instance: 0,
            flood_tat: 0,
            flood_ts: Tai64N { secs: 0, nanos: 0 },
        }
    }

    /// The last committed timestamp.
    pub fn last_timestamp(&self) -> Tai64N {
        self.last_ts
    }

    /// Forgets the committed timestamp (`reset_replay`, docs/protocol/handshake.md §5): for
    /// an initiator that lost its `last_sent`. Replays of that peer's recorded
    /// msg1s then get msg2s again (but never a session: they need dk_E).
    /// The biscuit order is kept: a recorded msg3 stays a replay.
    pub fn reset_replay(&mut self) {
        self.last_ts = Tai64N::default();
    }

    /// Serialises the record for persistence.
    pub fn to_bytes(&self) -> [u8; Self::SIZE] {
        let mut b = [0u8; Self::SIZE];
        b[..12].copy_from_slice(&self.last_ts.to_bytes());
        b[12..20].copy_from_slice(&self.last_biscuit_no.to_be_bytes());
        b[20..28].copy_from_slice(&self.instance.to_be_bytes());
        b[28..36].copy_from_slice(&self.flood_tat.to_be_bytes());
        b[36..48].copy_from_slice(&self.flood_ts.to_bytes());
        b
    }

    /// Parses [`ReplayRecord::to_bytes`].
    pub fn from_bytes(b: &[u8; Self::SIZE]) -> Self {
        let mut ts = [0u8; 12];
        ts.copy_from_slice(&b[..12]);
        let mut fts = [0u8; 12];
        fts.copy_from_slice(&b[36..48]);
        let u = |r: core::ops::Range<usize>| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[r]);
            u64::from_be_bytes(x)
        };
        ReplayRecord {
            last_ts: Tai64N::from_bytes(&ts),
            last_biscuit_no: u(12..20),
            instance: u(20..28),
            flood_tat: u(28..36),
            flood_ts: Tai64N::from_bytes(&fts),
        }
    }
}

/// Whether the responder is under load (app-detected; WireGuard: ≥ 512
/// queued handshakes, sticky for 1 s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Load {
    /// Answer every msg1 with a valid mac1.
    #[default]
    Normal,
    /// Demand a valid mac2 (cookie) and apply per-source buckets first.
    Under,
}

/// Generic cell rate: allow if the theoretical arrival time is within the
/// burst (the responder's source buckets and per-peer rate, docs/protocol/handshake.md §5).
pub(crate) fn gcra(tat: &mut u64, now: u64, interval: u64, burst: u64) -> bool {
    let t = (*tat).max(now);
    if t > now + interval * burst.saturating_sub(1) {
        return false;
    }
    *tat = t + interval;
    true
}
