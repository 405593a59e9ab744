//! The fragmentation envelope (docs/protocol/fragmentation.md, docs/protocol/handshake.md
//! §8.1): every handshake datagram ≤ 1,232 bytes (the IPv6 minimum MTU, 1,280, minus the
//! 40-byte IPv6 and 8-byte UDP headers).
//!
//! A message of at most [`MAX_DATAGRAM`] bytes travels whole, as before. A longer one
//! (msg1, msg2 or msg3) is cut by [`fragment`] into datagrams of type `0x05`:
//!
//! ```text
//! 0x05 ‖ version ‖ suite be16 ‖ sender_idx be32 ‖ msg_type ‖ frag_index ‖ frag_count   (11 B)
//!      ‖ payload (1,205 B in every fragment but the last; 1..=1,205 B in the last)
//!      ‖ mac = KH(K_frag, header ‖ payload)[..16]
//! K_frag = DK("pqdr-handshake v1 2026-11-25T22:00Z fragment mac", msg_type ‖ base)
//! base = hpk_R (msg1, msg3: the key mac1 is keyed from) or k_m (msg2: its mac1 key)
//! ```
//!
//! A [`Reassembler`] (fixed memory, no allocation) checks each fragment's MAC before it
//! stores a byte, so only a sender that knows hpk_R (or, for msg2, k_m) can occupy its
//! slots; the whole message then goes through the unchanged `handle_msg1` /
//! `handle_msg2` / `handle_msg3`, so mac1, mac2 / cookies and every other check are as
//! before and no KEM work happens until a whole message verifies.
//!
//! ```
//! use pqdr_handshake::frag::{FragKeys, Reassembler, fragment, MAX_DATAGRAM};
//! use pqdr_handshake::Instant;
//! # use rand_core::{TryRng, TryCryptoRng, Infallible};
//! # struct Rng(u64);
//! # impl TryRng for Rng { type Error = Infallible;
//! #   fn try_next_u32(&mut self) -> Result<u32, Infallible> { Ok(self.try_next_u64()? as u32) }
//! #   fn try_next_u64(&mut self) -> Result<u64, Infallible> { self.0 ^= self.0 << 13; self.0 ^= self.0 >> 7; self.0 ^= self.0 << 17; Ok(self.0) }
//! #   fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Infallible> { for b in d { *b = self.try_next_u64()? as u8; } Ok(()) } }
//! # impl TryCryptoRng for Rng {}
//! # let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
//! // A 2,388-byte "msg1" (K768's size): type 1, version 2, suite, sender index, body.
//! let mut msg1 = vec![0u8; 2388];
//! msg1[..8].copy_from_slice(&[1, 2, 0, 1, 0, 0, 0, 42]);
//! let keys = FragKeys::for_responder(&[7; 32]); // the responder's key id hpk_R
//! let dgrams: Vec<_> = fragment(&msg1, &keys)?.collect();
//! assert_eq!(dgrams.len(), 2);
//! assert!(dgrams.iter().all(|d| d.len() <= MAX_DATAGRAM));
//!
//! let mut r: Reassembler<4, 4096> = Reassembler::new(&mut rng);
//! let mut out = [0u8; 4096];
//! assert_eq!(r.push(&keys, b"192.0.2.1:5000", &dgrams[1], Instant(0), &mut out)?, None);
//! let n = r.push(&keys, b"192.0.2.1:5000", &dgrams[0], Instant(1), &mut out)?;
//! assert_eq!(&out[..n.unwrap()], &msg1[..]);
//! # Ok::<(), pqdr_handshake::Error>(())
//! ```

use rand_core::CryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;
use crate::initiator::Initiator;
use crate::kdf::{C_FRAG, derive_key, digest, mac_ok, mac16, mac16_digest};
use crate::responder::Responder;
use crate::suite::{Auth, Suite};
use crate::wire::{Layout, MSG1, MSG2, MSG3, MSG3_MAX, VERSION};
use pqdr_ratchet::Instant;

/// Largest handshake datagram: 1,280 (IPv6 minimum MTU) − 40 (IPv6) − 8 (UDP).
pub const MAX_DATAGRAM: usize = 1232;
/// Datagram type byte of a fragment.
pub const FRAGMENT: u8 = 0x05;
/// Fragment header length.
pub const FRAG_HDR: usize = 11;
/// Fragment MAC length.
pub const FRAG_MAC: usize = 16;
/// Payload bytes in every fragment but the last (1,205).
pub const FRAG_PAYLOAD: usize = MAX_DATAGRAM - FRAG_HDR - FRAG_MAC;
/// Most fragments of one message (the reassembler's bitmap is a `u32`).
pub const MAX_FRAGMENTS: usize = 32;
/// A reassembly not completed this long after its first fragment is dropped.
pub const REASSEMBLY_TIMEOUT_MS: u64 = 5_000;
/// Most reassemblies one source holds at once; its next one evicts its oldest.
pub const PER_SOURCE: usize = 2;

/// The fragment MAC keys one side needs, per message type (msg1, msg2, msg3).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct FragKeys {
    keys: [[u8; 32]; 3],
    #[zeroize(skip)]
    has: [bool; 3],
}

/// `K_frag = DK(C_FRAG, msg_type ‖ base)` (docs/protocol/fragmentation.md §2).
fn frag_key(ty: u8, base: &[u8; 32]) -> [u8; 32] {
    derive_key(C_FRAG, &[&[ty], base])
}

impl FragKeys {
    /// The msg1 and msg3 keys of the responder whose key id is `hpk_r`
    /// ([`Peer::key_id`](crate::Peer::key_id), [`Identity::key_id`](crate::Identity::key_id)):
    /// what the initiator fragments msg1 / msg3 with and the responder reassembles them with.
    pub fn for_responder(hpk_r: &[u8; 32]) -> Self {
        FragKeys {
            keys: [frag_key(MSG1, hpk_r), [0; 32], frag_key(MSG3, hpk_r)],
            has: [true, false, true],
        }
    }

    /// Adds the msg2 key from `k_m`.
    fn with_msg2(mut self, k_m: &[u8; 32]) -> Self {
        self.keys[1] = frag_key(MSG2, k_m);
        self.has[1] = true;
        self
    }

    /// The key for message type `ty`, if this side holds one.
    fn key(&self, ty: u8) -> Option<&[u8; 32]> {
        let i = usize::from(ty).checked_sub(1)?;
        match self.has.get(i) {
            Some(true) => self.keys.get(i),
            _ => None,
        }
    }
}

impl core::fmt::Debug for FragKeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FragKeys")
            .field("has", &self.has)
            .finish_non_exhaustive()
    }
}

impl<A: Auth> Initiator<A> {
    /// This attempt's fragment keys: msg1 / msg3 (from the responder's key id)
    /// and, until msg2 has been handled, msg2 (from k_m).
    pub fn frag_keys(&self) -> FragKeys {
        let keys = FragKeys::for_responder(self.responder_key_id());
        match self.msg2_mac_key() {
            Some(k_m) => keys.with_msg2(k_m),
            None => keys,
        }
    }
}

impl<A: Auth, const RL: usize> Responder<A, RL> {
    /// The keys this responder reassembles msg1 and msg3 fragments with.
    pub fn frag_keys(&self) -> FragKeys {
        FragKeys::for_responder(self.identity().key_id())
    }

    /// The datagrams of the msg2 that the last successful `handle_msg1` wrote
    /// (fragmented under its k_m if it is over [`MAX_DATAGRAM`] bytes).
    ///
    /// # Errors
    /// [`Error::WrongState`] if `msg2` is not that msg2 (its mac1 does not
    /// verify under the last k_m); [`Error::Length`] for a msg2 under 24 bytes.
    pub fn msg2_fragments<'a>(&self, msg2: &'a [u8]) -> Result<Fragments<'a>, Error> {
        let n = msg2.len();
        if n < 16 + 8 {
            return Err(Error::length(16 + 8, n));
        }
        // mac1 of msg2 (docs/protocol/handshake.md §3.5) under the last k_m.
        let l = Suite::parse::<A>(u16::from_be_bytes([msg2[2], msg2[3]]))
            .map(Layout::new::<A>)
            .map_err(|_| Error::WrongState)?;
        if msg2[0] != MSG2 || n != l.msg2_len() {
            return Err(Error::WrongState);
        }
        let head = digest(&msg2[..l.m2_conf().start]);
        let mac = mac16_digest(&self.last_k_m, &head, &msg2[l.m2_conf().start..n - 16]);
        if !mac_ok(&mac, &msg2[n - 16..]) {
            return Err(Error::WrongState);
        }
        fragment(
            msg2,
            &FragKeys::for_responder(&[0; 32]).with_msg2(&self.last_k_m),
        )
    }
}

/// One datagram to send (≤ [`MAX_DATAGRAM`] bytes).
#[derive(Clone)]
pub struct Datagram {
    buf: [u8; MAX_DATAGRAM],
    len: usize,
}

impl Datagram {
    /// The datagram's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl core::ops::Deref for Datagram {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::fmt::Debug for Datagram {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Datagram").field("len", &self.len).finish()
    }
}

/// The datagrams of one message, in order ([`fragment`]).
pub struct Fragments<'a> {
    msg: &'a [u8],
    key: [u8; 32],
    count: usize,
    next: usize,
}

impl Drop for Fragments<'_> {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl core::fmt::Debug for Fragments<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Fragments")
            .field("len", &self.msg.len())
            .field("count", &self.count)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl Fragments<'_> {
    /// How many datagrams the message takes in all (1 if it is sent whole).
    pub fn total(&self) -> usize {
        self.count
    }
}

/// Cuts `msg` (msg1, msg2, msg3 or a cookie reply, as the handshake wrote it) into
/// datagrams: the message itself if it is at most [`MAX_DATAGRAM`] bytes, otherwise
/// ⌈len / 1,205⌉ fragments (docs/protocol/fragmentation.md §1).
///
/// # Errors
/// [`Error::Length`] for a message under 8 bytes or over 32 fragments;
/// [`Error::MessageType`] for a long message that is not msg1/msg2/msg3 or whose
/// key `keys` does not hold (msg2 needs the initiator's or responder's k_m).
pub fn fragment<'a>(msg: &'a [u8], keys: &FragKeys) -> Result<Fragments<'a>, Error> {
    if msg.len() < 8 {
        return Err(Error::length(8, msg.len()));
    }
    if msg.len() <= MAX_DATAGRAM {
        return Ok(Fragments {
            msg,
            key: [0; 32],
            count: 1,
            next: 0,
        });
    }
    let key = keys.key(msg[0]).ok_or(Error::MessageType)?;
    let count = msg.len().div_ceil(FRAG_PAYLOAD);
    if count > MAX_FRAGMENTS {
        return Err(Error::length(MAX_FRAGMENTS * FRAG_PAYLOAD, msg.len()));
    }
    Ok(Fragments {
        msg,
        key: *key,
        count,
        next: 0,
    })
}

impl Iterator for Fragments<'_> {
    type Item = Datagram;

    fn next(&mut self) -> Option<Datagram> {
        if self.next >= self.count {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let mut d = Datagram {
            buf: [0; MAX_DATAGRAM],
            len: 0,
        };
        if self.count == 1 {
            d.buf[..self.msg.len()].copy_from_slice(self.msg);
            d.len = self.msg.len();
            return Some(d);
        }
        let body = &self.msg[i * FRAG_PAYLOAD..self.msg.len().min((i + 1) * FRAG_PAYLOAD)];
        // The header: 0x05 ‖ version ‖ suite ‖ sender index (from the message's own
        // header) ‖ message type ‖ index ‖ count. count ≤ 32, so both fit a byte.
        d.buf[0] = FRAGMENT;
        d.buf[1] = VERSION;
        d.buf[2..8].copy_from_slice(&self.msg[2..8]);
        d.buf[8] = self.msg[0];
        d.buf[9] = u8::try_from(i).unwrap_or(u8::MAX);
        d.buf[10] = u8::try_from(self.count).unwrap_or(u8::MAX);
        let end = FRAG_HDR + body.len();
        d.buf[FRAG_HDR..end].copy_from_slice(body);
        let mac = mac16(&self.key, &d.buf[..end]);
        d.buf[end..end + FRAG_MAC].copy_from_slice(&mac);
        d.len = end + FRAG_MAC;
        Some(d)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Fragments<'_> {}

/// Is `datagram` a fragment (type `0x05`)? Other datagrams go to the handshake as before.
pub fn is_fragment(datagram: &[u8]) -> bool {
    datagram.first() == Some(&FRAGMENT)
}

/// One reassembly in progress.
struct Slot<const MAX_LEN: usize> {
    used: bool,
    src: u64,
    sender: u32,
    ty: u8,
    suite: u16,
    count: u8,
    have: u32,
    last_len: usize,
    started: Instant,
    age: u64,
    data: [u8; MAX_LEN],
}

impl<const MAX_LEN: usize> Slot<MAX_LEN> {
    fn live(&self, now: Instant) -> bool {
        self.used && now < self.started.plus(REASSEMBLY_TIMEOUT_MS)
    }

    /// Every fragment is stored (the message was returned; the slot stays
    /// until it expires or is taken, to recognise repeats and changed fragments).
    fn done(&self) -> bool {
        self.count >= 2 && self.have == u32::MAX >> (32 - u32::from(self.count))
    }
}

/// A parsed, length-checked fragment header.
struct Hdr {
    suite: u16,
    sender: u32,
    ty: u8,
    index: usize,
    count: usize,
}

/// Reassembles fragmented handshake messages (docs/protocol/fragmentation.md §3):
/// `SLOTS` reassemblies of at most `MAX_LEN` bytes each, in fixed memory
/// (`size_of` ≈ `SLOTS · (MAX_LEN + 48)`); no allocation.
///
/// A slot is keyed by (keyed hash of the source address, sender index, message type).
/// One source holds at most [`PER_SOURCE`] slots (its next reassembly evicts its own
/// oldest); when every slot is taken, a completed reassembly, else the oldest, is evicted;
/// a slot expires
/// [`REASSEMBLY_TIMEOUT_MS`] after its first fragment. The responder uses one with
/// `MAX_LEN` = [`MSG3_MAX`] (the default), the initiator one with a single slot of
/// [`MSG2_MAX`](crate::wire::MSG2_MAX) bytes.
pub struct Reassembler<const SLOTS: usize = 16, const MAX_LEN: usize = MSG3_MAX> {
    src_key: [u8; 32],
    age: u64,
    slots: [Slot<MAX_LEN>; SLOTS],
}

impl<const SLOTS: usize, const MAX_LEN: usize> Reassembler<SLOTS, MAX_LEN> {
    /// Most fragments a message of `MAX_LEN` bytes takes.
    const MAX_COUNT: usize = {
        assert!(SLOTS >= 1, "at least one slot");
        assert!(MAX_LEN > MAX_DATAGRAM && MAX_LEN <= MAX_FRAGMENTS * FRAG_PAYLOAD);
        MAX_LEN.div_ceil(FRAG_PAYLOAD)
    };

    /// An empty reassembler; `rng` keys the hash of source addresses.
    pub fn new<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        let mut src_key = [0u8; 32];
        rng.fill_bytes(&mut src_key);
        Reassembler {
            src_key,
            age: 0,
            slots: core::array::from_fn(|_| Slot {
                used: false,
                src: 0,
                sender: 0,
                ty: 0,
                suite: 0,
                count: 0,
                have: 0,
                last_len: 0,
                started: Instant(0),
                age: 0,
                data: [0; MAX_LEN],
            }),
        }
    }

    /// Reassemblies in progress (not complete, not expired) at `now`.
    pub fn pending(&self, now: Instant) -> usize {
        self.slots
            .iter()
            .filter(|s| s.live(now) && !s.done())
            .count()
    }

    /// Reads the header after checking the datagram's bounds, type, version
    /// and message type (no cryptography).
    fn parse(d: &[u8]) -> Result<Hdr, Error> {
        if d.len() < FRAG_HDR + 1 + FRAG_MAC || d.len() > MAX_DATAGRAM {
            return Err(Error::FragmentHeader);
        }
        if d[0] != FRAGMENT {
            return Err(Error::MessageType);
        }
        if d[1] != VERSION {
            return Err(Error::Version);
        }
        if !(MSG1..=MSG3).contains(&d[8]) {
            return Err(Error::MessageType);
        }
        Ok(Hdr {
            suite: u16::from_be_bytes([d[2], d[3]]),
            sender: u32::from_be_bytes([d[4], d[5], d[6], d[7]]),
            ty: d[8],
            index: usize::from(d[9]),
            count: usize::from(d[10]),
        })
    }

    /// index < count, 2 ≤ count ≤ what `MAX_LEN` holds, a full payload in every
    /// fragment but the last, and the whole message within `MAX_LEN`.
    fn check_shape(h: &Hdr, len: usize) -> Result<(), Error> {
        let (index, count) = (h.index, h.count);
        if count < 2 || count > Self::MAX_COUNT || index >= count {
            return Err(Error::FragmentHeader);
        }
        let last = index + 1 == count;
        if (!last && len != FRAG_PAYLOAD) || (last && (count - 1) * FRAG_PAYLOAD + len > MAX_LEN) {
            return Err(Error::FragmentHeader);
        }
        Ok(())
    }

    /// The slot a new reassembly from `src` takes: that source's oldest if it
    /// already holds [`PER_SOURCE`], else a free or expired one, else the oldest
    /// completed one, else the oldest.
    fn victim(&self, src: u64, now: Instant) -> usize {
        let oldest = |f: &dyn Fn(&Slot<MAX_LEN>) -> bool| {
            self.slots
                .iter()
                .enumerate()
                .filter(|(_, s)| f(s))
                .min_by_key(|(_, s)| s.age)
                .map(|(i, _)| i)
        };
        let own = self
            .slots
            .iter()
            .filter(|s| s.live(now) && s.src == src)
            .count();
        if own >= PER_SOURCE
            && let Some(i) = oldest(&|s| s.live(now) && s.src == src)
        {
            return i;
        }
        if let Some(i) = self.slots.iter().position(|s| !s.live(now)) {
            return i;
        }
        oldest(&|s| s.done())
            .or_else(|| oldest(&|_| true))
            .unwrap_or(0)
    }

    /// Takes one fragment from `src` (the source address bytes, as for
    /// `handle_msg1`). Its MAC is checked under `keys` before anything is stored.
    /// Returns `Some(n)` when the message is complete: `out[..n]` holds it, ready
    /// for `handle_msg1` / `handle_msg2` / `handle_msg3`. The completed slot then
    /// refuses the same fragments again ([`Error::FragmentDuplicate`]) and returns the
    /// message anew if a fragment with other bytes replaces one (a resend of msg1 that
    /// gained mac2 differs only in its last fragment).
    ///
    /// # Errors
    /// Nothing is stored on any error:
    /// [`Error::FragmentHeader`] (truncated, oversized, bad index / count / payload length),
    /// [`Error::MessageType`] / [`Error::Version`] (not a fragment, or a message type
    /// `keys` has no key for), [`Error::FragmentMac`], [`Error::FragmentMismatch`]
    /// (count or suite differ from the fragments stored, or the first fragment
    /// does not start with the message's own header), [`Error::FragmentDuplicate`],
    /// [`Error::BufferTooSmall`] (`out` cannot take the completed message).
    pub fn push(
        &mut self,
        keys: &FragKeys,
        src: &[u8],
        datagram: &[u8],
        now: Instant,
        out: &mut [u8],
    ) -> Result<Option<usize>, Error> {
        let d = datagram;
        let h = Self::parse(d)?;
        let key = keys.key(h.ty).ok_or(Error::MessageType)?;
        let mac_at = d.len() - FRAG_MAC;
        Self::check_shape(&h, mac_at - FRAG_HDR)?;
        if !mac_ok(&mac16(key, &d[..mac_at]), &d[mac_at..]) {
            return Err(Error::FragmentMac);
        }
        let payload = &d[FRAG_HDR..mac_at];
        // The first fragment carries the message's own header: it must agree.
        if h.index == 0 && (payload[0] != h.ty || payload[1..8] != d[1..8]) {
            return Err(Error::FragmentMismatch);
        }
        let src_h = {
            let full = blake3::keyed_hash(&self.src_key, src);
            let mut b = [0u8; 8];
            b.copy_from_slice(&full.as_bytes()[..8]);
            u64::from_le_bytes(b)
        };
        let found = self
            .slots
            .iter()
            .position(|s| s.live(now) && s.src == src_h && s.sender == h.sender && s.ty == h.ty);
        let bit = 1u32 << h.index;
        let full = u32::MAX >> (32 - h.count);
        let (have, last_len) = match found {
            Some(i) => {
                let s = &self.slots[i];
                if usize::from(s.count) != h.count || s.suite != h.suite {
                    return Err(Error::FragmentMismatch);
                }
                // The same bytes again: a duplicate. Other bytes for a stored index
                // (a resent msg1 that gained mac2 after a cookie reply) replace them.
                let at = h.index * FRAG_PAYLOAD;
                let stored = if h.index + 1 == h.count {
                    s.last_len
                } else {
                    FRAG_PAYLOAD
                };
                if s.have & bit != 0 && s.data[at..at + stored] == *payload {
                    return Err(Error::FragmentDuplicate);
                }
                (s.have, s.last_len)
            }
            None => (0, 0),
        };
        let last_len = if h.index + 1 == h.count {
            payload.len()
        } else {
            last_len
        };
        let total = (h.count - 1) * FRAG_PAYLOAD + last_len;
        let complete = have | bit == full;
        if complete && out.len() < total {
            return Err(Error::BufferTooSmall);
        }
        // Store.
        let i = match found {
            Some(i) => i,
            None => {
                let i = self.victim(src_h, now);
                self.age += 1;
                let s = &mut self.slots[i];
                s.used = true;
                s.src = src_h;
                s.sender = h.sender;
                s.ty = h.ty;
                s.suite = h.suite;
                s.count = d[10];
                s.have = 0;
                s.started = now;
                s.age = self.age;
                i
            }
        };
        let s = &mut self.slots[i];
        let at = h.index * FRAG_PAYLOAD;
        s.data[at..at + payload.len()].copy_from_slice(payload);
        s.have |= bit;
        s.last_len = last_len;
        if !complete {
            return Ok(None);
        }
        out[..total].copy_from_slice(&s.data[..total]);
        Ok(Some(total))
    }
}

impl<const SLOTS: usize, const MAX_LEN: usize> Drop for Reassembler<SLOTS, MAX_LEN> {
    fn drop(&mut self) {
        self.src_key.zeroize();
    }
}

impl<const SLOTS: usize, const MAX_LEN: usize> core::fmt::Debug for Reassembler<SLOTS, MAX_LEN> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Reassembler")
            .field("slots", &SLOTS)
            .field("max_len", &MAX_LEN)
            .finish_non_exhaustive()
    }
}
