//! Helpers of the adversarial suites (tamper, replay, dos, simultaneous):
//! an independent test-side copy of the key schedule and layouts of
//! docs/protocol/handshake.md §3–§4 (so a
//! tampered field can be re-authenticated and the check behind it reached),
//! the spec's order of prefix checks as a model, a counting RNG and a
//! multi-peer store.
#![allow(
    dead_code,
    unreachable_pub,
    missing_docs,
    clippy::unwrap_used,
    clippy::missing_panics_doc
)]

use core::ops::Range;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use pqdr_handshake::testing::TraceOp;
use pqdr_handshake::{
    Auth, Error, K768, KMc, KNt, Mode, Peer, PeerStore, ReplayRecord, S44, S65, S87, Tai64N,
};
use rand_core::{Infallible, TryCryptoRng, TryRng};

use crate::common::{Side, TestKeys};

// ------------------------------------- contexts (docs/protocol/handshake.md §4.1)

pub const PREFIX: &str = "pqdr-handshake v1 2026-11-25T22:00Z ";
pub const PROTO: &[u8] = b"pqdr-handshake v2";

/// `DK(PREFIX ‖ purpose, parts…)`.
pub fn dk(purpose: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(&format!("{PREFIX}{purpose}"));
    for p in parts {
        h.update(p);
    }
    *h.finalize().as_bytes()
}

/// `KH(k, m)[..16]`.
pub fn mac16(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    let mut out = [0u8; 16];
    out.copy_from_slice(&blake3::keyed_hash(key, msg).as_bytes()[..16]);
    out
}

pub fn lp16(x: &[u8]) -> [u8; 2] {
    u16::try_from(x.len()).unwrap().to_be_bytes()
}

/// mac1 key of msg1 and msg3: `DK(C_MAC1, hpk_R)`.
pub fn mac1_key(hpk_r: &[u8; 32]) -> [u8; 32] {
    dk("mac1", &[hpk_r])
}

/// The end of the head of msg1 / msg2 (docs/protocol/handshake.md §3.5), from
/// the type and suite bytes: msg1 `a` (KEM) or mac1's offset (SIG), msg2 `b`.
/// `None` for msg3 (its mac1 covers the raw bytes).
pub fn head_end(msg: &[u8]) -> Option<usize> {
    let n = msg.len();
    let sig = msg[2] == 2;
    match msg[0] {
        1 => Some(n.saturating_sub(32 + if sig { 0 } else { 48 + 28 })),
        2 => {
            let conf = if sig {
                [0, 2420, 3309, 4627][usize::from(msg[3] & 0x0F).min(3)] + 16
            } else {
                16
            };
            Some(n.saturating_sub(16 + 148 + conf))
        }
        _ => None,
    }
}

/// What mac1 is computed over (docs/protocol/handshake.md §3.5, v2): msg1 /
/// msg2 `H(head) ‖ rest`, msg3 its bytes; `mac_at` = mac1's offset.
pub fn mac1_input(msg: &[u8], mac_at: usize) -> Vec<u8> {
    match head_end(msg) {
        Some(a) => {
            let a = a.min(mac_at);
            let mut v = blake3::hash(&msg[..a]).as_bytes().to_vec();
            v.extend_from_slice(&msg[a..mac_at]);
            v
        }
        None => msg[..mac_at].to_vec(),
    }
}

/// Recomputes msg1's mac1 (bytes before mac1 = all but the last 32).
pub fn remac_msg1(msg: &mut [u8], hpk_r: &[u8; 32]) {
    let n = msg.len();
    let m = mac16(&mac1_key(hpk_r), &mac1_input(msg, n - 32));
    msg[n - 32..n - 16].copy_from_slice(&m);
}

/// Recomputes msg1's mac2 with `cookie`.
pub fn remac2_msg1(msg: &mut [u8], cookie: &[u8; 16]) {
    let n = msg.len();
    let m = mac16(&dk("mac2", &[cookie]), &msg[..n - 16]);
    msg[n - 16..].copy_from_slice(&m);
}

/// Recomputes the trailing mac1 of msg2 (`key` = k_m) or msg3 (`key` = DK(C_MAC1, hpk_R)).
pub fn remac_tail(msg: &mut [u8], key: &[u8; 32]) {
    let n = msg.len();
    let m = mac16(key, &mac1_input(msg, n - 16));
    msg[n - 16..].copy_from_slice(&m);
}

// ---------------------------------------------------------------- the chaining state

/// The test-side chaining state (docs/protocol/handshake.md §4.3).
#[derive(Clone)]
pub struct Ch {
    pub ck: [u8; 32],
    pub th: [u8; 32],
}

impl Ch {
    pub fn init(suite: u16, hpk_r: &[u8; 32], label: &[u8]) -> Self {
        let p = lp16(PROTO);
        let s = suite.to_be_bytes();
        Ch {
            ck: dk("chaining key init", &[&p, PROTO, &s, hpk_r]),
            th: dk("transcript", &[&p, PROTO, &s, hpk_r, &lp16(label), label]),
        }
    }
    pub fn mix_hash(&mut self, x: &[u8]) {
        self.th = dk("transcript", &[&self.th, x]);
    }
    pub fn mix(&mut self, l: u8, s: &[u8]) {
        self.ck = dk("mix", &[&self.ck, &[l], &self.th, s]);
    }
    pub fn key(&self, l: u8) -> [u8; 32] {
        dk("handshake key", &[&self.ck, &[l], &self.th])
    }
    /// `Key64(l)`: the 64-byte `Seal1` key pair (§4.3).
    pub fn key64(&self, l: u8) -> [u8; 64] {
        let mut out = [0u8; 64];
        blake3::Hasher::new_derive_key(&format!("{PREFIX}handshake key"))
            .update(&self.ck)
            .update(&[l])
            .update(&self.th)
            .finalize_xof()
            .fill(&mut out);
        out
    }
}

/// `Seal1(k, pt, ad)` of docs/protocol/handshake.md §4.1: `k_e ‖ k_a = k`,
/// `c = pt ⊕ KHx(k_e, ε)`, tag `KH(k_a, ad ‖ c ‖ be64(|ad|) ‖ be64(|c|))[..16]`.
pub fn seal1(k: &[u8; 64], pt: &[u8], ad: &[u8]) -> Vec<u8> {
    let ke: [u8; 32] = k[..32].try_into().unwrap();
    let ka: [u8; 32] = k[32..].try_into().unwrap();
    let mut c = vec![0u8; pt.len()];
    blake3::Hasher::new_keyed(&ke).finalize_xof().fill(&mut c);
    c.iter_mut().zip(pt).for_each(|(c, p)| *c ^= p);
    let mut t = ad.to_vec();
    t.extend_from_slice(&c);
    t.extend_from_slice(&(ad.len() as u64).to_be_bytes());
    t.extend_from_slice(&(pt.len() as u64).to_be_bytes());
    c.extend_from_slice(&blake3::keyed_hash(&ka, &t).as_bytes()[..16]);
    c
}

/// `Seal(k, pt, ad)`: ChaCha20-Poly1305, nonce 0, tag appended.
pub fn seal(k: &[u8; 32], pt: &[u8], ad: &[u8]) -> Vec<u8> {
    let mut buf = pt.to_vec();
    let tag = ChaCha20Poly1305::new(k.into())
        .encrypt_inout_detached(&Nonce::default(), ad, buf.as_mut_slice().into())
        .unwrap();
    buf.extend_from_slice(&tag);
    buf
}

/// Opens `ct ‖ tag`.
pub fn open(k: &[u8; 32], ct: &[u8], ad: &[u8]) -> Option<Vec<u8>> {
    let (c, t) = ct.split_at(ct.len() - 16);
    let mut buf = c.to_vec();
    let tag = Tag::try_from(t).ok()?;
    ChaCha20Poly1305::new(k.into())
        .decrypt_inout_detached(&Nonce::default(), ad, buf.as_mut_slice().into(), &tag)
        .ok()?;
    Some(buf)
}

/// The `n`-th key with `label` in a key-schedule trace, and the transcript
/// hash it was derived under (the last `mixhash` before it).
pub fn traced_key(trace: &[TraceOp], label: u8) -> ([u8; 32], [u8; 32]) {
    let i = trace
        .iter()
        .position(|t| t.op == "key" && t.label == Some(label))
        .unwrap();
    let th = trace[..i]
        .iter()
        .rev()
        .find(|t| t.op == "mixhash" || t.op == "th0")
        .unwrap()
        .out;
    (trace[i].out, th)
}

// -------------------------------------- layouts (docs/protocol/handshake.md §3)

pub const TAG: usize = 16;
pub const BISCUIT: usize = 148;

/// Field sizes of one suite, from the suite id and the static algorithm.
#[derive(Clone, Copy, Debug)]
pub struct Fields {
    pub kem: bool,
    pub ek: usize,
    pub ct_e: usize,
    pub ct_s: usize,
    pub x: usize,
    pub sig: usize,
    pub vk: usize,
}

fn r(start: usize, len: usize) -> Range<usize> {
    start..start + len
}

impl Fields {
    pub fn of<A: Auth>(suite: u16) -> Self {
        let compact = suite & 0x0070 != 0;
        Fields {
            kem: A::MODE == Mode::Kem,
            ek: if compact { 800 } else { 1184 },
            ct_e: if compact { 768 } else { 1088 },
            ct_s: A::CT_LEN,
            x: if suite & 0x0080 != 0 { 32 } else { 0 },
            sig: A::SIG_LEN,
            vk: A::VK_LEN,
        }
    }

    pub fn msg1_len(&self) -> usize {
        let bare = 8 + self.ek + self.x + 32;
        if self.kem {
            bare + self.ct_s + 48 + 28
        } else {
            self.msg2_len().div_ceil(3).max(bare)
        }
    }
    pub fn msg2_len(&self) -> usize {
        12 + self.ct_e + self.ct_s + self.x + self.conf2() + BISCUIT + 16
    }
    fn conf2(&self) -> usize {
        if self.kem { TAG } else { self.sig + TAG }
    }
    /// enc_I / conf_I length for an id of `id` bytes.
    pub fn conf3(&self, id: usize) -> usize {
        if self.kem {
            TAG
        } else {
            1 + id + 12 + self.sig + TAG
        }
    }
    pub fn msg3_len(&self, id: usize) -> usize {
        12 + BISCUIT + self.conf3(id) + 16
    }

    /// msg1's fields, in order, covering every byte.
    pub fn msg1(&self) -> Vec<(&'static str, Range<usize>)> {
        let mut v = vec![
            ("type", r(0, 1)),
            ("version", r(1, 1)),
            ("suite", r(2, 2)),
            ("sender_idx", r(4, 4)),
        ];
        let mut at = 8;
        v.push(("ek_E", r(at, self.ek)));
        at += self.ek;
        if self.kem {
            v.push(("ct_R", r(at, self.ct_s)));
            at += self.ct_s;
        }
        if self.x > 0 {
            v.push(("X_I", r(at, 32)));
            at += 32;
        }
        if self.kem {
            v.push(("enc_id", r(at, 48)));
            v.push(("enc_ts", r(at + 48, 28)));
            at += 76;
        } else if self.msg1_len() - 32 > at {
            v.push(("pad", at..self.msg1_len() - 32));
            at = self.msg1_len() - 32;
        }
        v.push(("mac1", r(at, 16)));
        v.push(("mac2", r(at + 16, 16)));
        assert_eq!(at + 32, self.msg1_len());
        v
    }

    /// msg2's fields; the biscuit split into salt and sealed body.
    pub fn msg2(&self) -> Vec<(&'static str, Range<usize>)> {
        let mut v = vec![
            ("type", r(0, 1)),
            ("version", r(1, 1)),
            ("suite", r(2, 2)),
            ("sender_idx", r(4, 4)),
            ("receiver_idx", r(8, 4)),
            ("ct_E", r(12, self.ct_e)),
        ];
        let mut at = 12 + self.ct_e;
        if self.kem {
            v.push(("ct_I", r(at, self.ct_s)));
            at += self.ct_s;
        }
        if self.x > 0 {
            v.push(("X_R", r(at, 32)));
            at += 32;
        }
        v.push((
            if self.kem { "conf_R" } else { "enc_R" },
            r(at, self.conf2()),
        ));
        at += self.conf2();
        v.push(("biscuit_salt", r(at, 16)));
        v.push(("biscuit_body", r(at + 16, BISCUIT - 16)));
        at += BISCUIT;
        v.push(("mac1", r(at, 16)));
        assert_eq!(at + 16, self.msg2_len());
        v
    }

    /// msg3's fields (id of 32 bytes: KEM, or SIG kind 0).
    pub fn msg3(&self) -> Vec<(&'static str, Range<usize>)> {
        let c = self.conf3(32);
        vec![
            ("type", r(0, 1)),
            ("version", r(1, 1)),
            ("suite", r(2, 2)),
            ("sender_idx", r(4, 4)),
            ("receiver_idx", r(8, 4)),
            ("biscuit_salt", r(12, 16)),
            ("biscuit_body", r(28, BISCUIT - 16)),
            (
                if self.kem { "conf_I" } else { "enc_I" },
                r(12 + BISCUIT, c),
            ),
            ("mac1", r(12 + BISCUIT + c, 16)),
        ]
    }
}

/// Cookie reply fields (docs/protocol/handshake.md §3.3).
pub fn cookie_fields() -> Vec<(&'static str, Range<usize>)> {
    vec![
        ("type", r(0, 1)),
        ("version", r(1, 1)),
        ("suite", r(2, 2)),
        ("receiver_idx", r(4, 4)),
        ("salt", r(8, 16)),
        ("cookie", r(24, 16)),
        ("tag", r(40, 16)),
    ]
}

// ---------------------------------------------------------------- the spec's prefix checks as a model

const KNOWN: [u16; 7] = [0x0101, 0x0102, 0x0103, 0x0112, 0x0201, 0x0202, 0x0203];

/// `Suite::parse` plus the hybrid rule, from docs/protocol/handshake.md §2 and §5.1.
pub fn suite_verdict<A: Auth>(id: u16, own_hybrid_kem: bool) -> Result<(), Error> {
    if !KNOWN.contains(&(id & !0x0080)) {
        return Err(Error::UnknownSuite);
    }
    if id & 0xFF0F != A::ALG || (id & 0x0070 != 0 && !A::COMPACT) {
        return Err(Error::SuiteNotAccepted);
    }
    if A::MODE == Mode::Kem && (id & 0x0080 != 0) != own_hybrid_kem {
        return Err(Error::SuiteNotAccepted);
    }
    Ok(())
}

fn hdr(msg: &[u8], ty: u8, len: usize) -> Result<u16, Error> {
    if msg.len() < len {
        return Err(Error::Length {
            expected: len,
            actual: msg.len(),
        });
    }
    if msg[0] != ty {
        return Err(Error::MessageType);
    }
    if msg[1] != pqdr_handshake::wire::VERSION {
        return Err(Error::Version);
    }
    Ok(u16::from_be_bytes([msg[2], msg[3]]))
}

/// The responder's checks on msg1 before mac1 (length, type, version, suite, length).
pub fn msg1_prefix<A: Auth>(msg: &[u8], own_hybrid_kem: bool) -> Result<(), Error> {
    let s = hdr(msg, 1, 8)?;
    suite_verdict::<A>(s, own_hybrid_kem)?;
    if msg.len() != Fields::of::<A>(s).msg1_len() {
        return Err(Error::Length {
            expected: Fields::of::<A>(s).msg1_len(),
            actual: msg.len(),
        });
    }
    Ok(())
}

/// The initiator's checks on msg2 before mac1 (header, suite = ours, length, receiver index).
pub fn msg2_prefix<A: Auth>(msg: &[u8], suite: u16, idx: u32) -> Result<(), Error> {
    let s = hdr(msg, 2, 12)?;
    if s != suite {
        return Err(Error::SuiteNotAccepted);
    }
    if msg.len() != Fields::of::<A>(suite).msg2_len() {
        return Err(Error::Length {
            expected: Fields::of::<A>(suite).msg2_len(),
            actual: msg.len(),
        });
    }
    if u32::from_be_bytes([msg[8], msg[9], msg[10], msg[11]]) != idx {
        return Err(Error::UnknownIndex);
    }
    Ok(())
}

/// The responder's checks on msg3 before mac1.
pub fn msg3_prefix<A: Auth>(msg: &[u8], own_hybrid_kem: bool) -> Result<(), Error> {
    let s = hdr(msg, 3, 12)?;
    suite_verdict::<A>(s, own_hybrid_kem)?;
    let f = Fields::of::<A>(s);
    if msg.len() != f.msg3_len(32) && (f.kem || msg.len() != f.msg3_len(f.vk)) {
        return Err(Error::Length {
            expected: f.msg3_len(32),
            actual: msg.len(),
        });
    }
    Ok(())
}

/// The initiator's checks on a cookie reply before its tag.
pub fn cookie_prefix(msg: &[u8], suite: u16, idx: u32) -> Result<(), Error> {
    if msg.len() != 56 {
        return Err(Error::Length {
            expected: 56,
            actual: msg.len(),
        });
    }
    let s = hdr(msg, 4, 8)?;
    if s != suite {
        return Err(Error::SuiteNotAccepted);
    }
    if u32::from_be_bytes([msg[4], msg[5], msg[6], msg[7]]) != idx {
        return Err(Error::UnknownIndex);
    }
    Ok(())
}

// ---------------------------------------------------------------- mutations

pub fn flip(msg: &[u8], byte: usize, bit: u8) -> Vec<u8> {
    let mut m = msg.to_vec();
    m[byte] ^= 1 << bit;
    m
}

/// Removes the last byte of `field`.
pub fn truncate(msg: &[u8], field: &Range<usize>) -> Vec<u8> {
    let mut m = msg.to_vec();
    m.remove(field.end - 1);
    m
}

/// Inserts one byte (0xA5) after `field`.
pub fn extend(msg: &[u8], field: &Range<usize>) -> Vec<u8> {
    let mut m = msg.to_vec();
    m.insert(field.end, 0xA5);
    m
}

/// Bit positions (byte, bit) to flip in `field`: every bit of a field of up to
/// `all` bytes, else every bit of the first and last two bytes plus `spread` bytes across it.
pub fn flip_positions(field: &Range<usize>, all: usize, spread: usize) -> Vec<(usize, u8)> {
    let len = field.len();
    let bytes: Vec<usize> = if len <= all {
        field.clone().collect()
    } else {
        let mut b = vec![field.start, field.start + 1, field.end - 2, field.end - 1];
        for k in 1..=spread {
            b.push(field.start + (k * len).div_euclid(spread + 1));
        }
        b.sort_unstable();
        b.dedup();
        b
    };
    let full = len <= all;
    bytes
        .into_iter()
        .flat_map(|b| {
            let bits: Vec<u8> = if full || b < field.start + 2 || b + 2 >= field.end {
                (0..8).collect()
            } else {
                vec![u8::try_from(b & 7).unwrap()]
            };
            bits.into_iter().map(move |bit| (b, bit))
        })
        .collect()
}

/// FIPS 203 §7.2 modulus check, test-side: every 12-bit coefficient of
/// `ek[..len-32]` is below q = 3329.
pub fn ek_valid(ek: &[u8]) -> bool {
    ek[..ek.len() - 32].chunks_exact(3).all(|c| {
        let a = u16::from(c[0]) | (u16::from(c[1] & 0x0F) << 8);
        let b = u16::from(c[1] >> 4) | (u16::from(c[2]) << 4);
        a < 3329 && b < 3329
    })
}

/// Sets the first coefficient of `ek` to 4095 (≥ q).
pub fn break_ek(ek: &mut [u8]) {
    ek[0] = 0xFF;
    ek[1] |= 0x0F;
}

/// X25519 u-coordinates of small order (and their non-canonical forms):
/// with a clamped scalar each gives the all-zero output.
pub const LOW_ORDER: [[u8; 32]; 6] = [
    [0; 32],
    {
        let mut u = [0; 32];
        u[0] = 1;
        u
    },
    [
        0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1, 0x9f, 0xc4,
        0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49,
        0xb8, 0x00,
    ],
    [
        0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c, 0x83, 0xef,
        0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f,
        0x11, 0x57,
    ],
    {
        // p - 1 (order 2)
        let mut u = [0xff; 32];
        u[0] = 0xec;
        u[31] = 0x7f;
        u
    },
    {
        // p (≡ 0, non-canonical)
        let mut u = [0xff; 32];
        u[0] = 0xed;
        u[31] = 0x7f;
        u
    },
];

// ---------------------------------------------------------------- a test-side msg1 (KEM mode)

/// Encapsulation to a static key, test-side (the crate's `Auth::encapsulate`
/// takes its private coin type).
pub trait TestKem: TestKeys {
    /// (ct, ss) for `pk`, or None in SIG mode.
    fn encaps(
        pk: &Self::PublicKey,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Option<(Vec<u8>, [u8; 32])>;
}

impl TestKem for K768 {
    fn encaps(
        pk: &Self::PublicKey,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Option<(Vec<u8>, [u8; 32])> {
        let mut m = [0u8; 32];
        rand_core::Rng::fill_bytes(rng, &mut m);
        let (c, s) = pk.encapsulate_deterministic(&m);
        Some((c.as_bytes().to_vec(), *s.as_bytes()))
    }
}
impl TestKem for KMc {
    fn encaps(
        pk: &Self::PublicKey,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Option<(Vec<u8>, [u8; 32])> {
        use pqdr_mceliece::mceliece460896 as m;
        let mut c = [0u8; m::CIPHERTEXT_SIZE];
        let s = m::encapsulate_into(pk, &mut c, rng);
        Some((c.to_vec(), *s.as_bytes()))
    }
}
impl TestKem for KNt {
    fn encaps(
        pk: &Self::PublicKey,
        rng: &mut rand_chacha::ChaCha20Rng,
    ) -> Option<(Vec<u8>, [u8; 32])> {
        let (c, s) = pk.encapsulate(rng);
        Some((c.as_bytes().to_vec(), *s.as_bytes()))
    }
}
macro_rules! no_kem {
    ($($t:ident),*) => {$(
        impl TestKem for $t {
            fn encaps(_: &Self::PublicKey, _: &mut rand_chacha::ChaCha20Rng) -> Option<(Vec<u8>, [u8; 32])> {
                None
            }
        }
    )*};
}
no_kem!(S44, S65, S87);

/// What a test-side KEM-mode msg1 carries.
pub struct Msg1Spec<'a> {
    pub suite: u16,
    pub sender: u32,
    pub ek: &'a [u8],
    pub hpk_i: [u8; 32],
    pub hpk_r: [u8; 32],
    /// (our ephemeral scalar, our static scalar, R's static public key) for `-X`.
    pub x: Option<([u8; 32], [u8; 32], [u8; 32])>,
    pub psk: Option<[u8; 32]>,
    pub ts: Tai64N,
    pub label: &'a [u8],
}

/// Builds a KEM-mode msg1 test-side (docs/protocol/handshake.md §4.4, steps 1–3),
/// with whatever `ek` the caller gives. Returns the message and k_m.
pub fn build_msg1<A: TestKem>(
    s: &Msg1Spec<'_>,
    pk_r: &A::PublicKey,
    rng: &mut rand_chacha::ChaCha20Rng,
) -> (Vec<u8>, [u8; 32]) {
    let (ct, ss) = A::encaps(pk_r, rng).unwrap();
    let mut m = vec![1, pqdr_handshake::wire::VERSION];
    m.extend_from_slice(&s.suite.to_be_bytes());
    m.extend_from_slice(&s.sender.to_be_bytes());
    m.extend_from_slice(s.ek);
    m.extend_from_slice(&ct);
    if let Some((x, _, _)) = s.x {
        m.extend_from_slice(&x25519_dalek::x25519(
            x,
            x25519_dalek::X25519_BASEPOINT_BYTES,
        ));
    }
    let mut ch = Ch::init(s.suite, &s.hpk_r, s.label);
    // §4.4 step 1: MixHash(H(msg1[0..a])).
    ch.mix_hash(blake3::hash(&m).as_bytes());
    ch.mix(b'R', &ss);
    if let Some((x, _, xs_r)) = s.x {
        ch.mix(b'a', &x25519_dalek::x25519(x, xs_r));
    }
    let enc_id = seal1(&ch.key64(b'1'), &s.hpk_i, &ch.th);
    ch.mix_hash(&enc_id);
    ch.mix(b'P', &s.psk.unwrap_or([0; 32]));
    if let Some((_, xs, xs_r)) = s.x {
        ch.mix(b'b', &x25519_dalek::x25519(xs, xs_r));
    }
    let enc_ts = seal1(&ch.key64(b'2'), &s.ts.to_bytes(), &ch.th);
    ch.mix_hash(&enc_ts);
    let k_m = ch.key(b'm');
    m.extend_from_slice(&enc_id);
    m.extend_from_slice(&enc_ts);
    m.extend_from_slice(&[0; 32]);
    remac_msg1(&mut m, &s.hpk_r);
    (m, k_m)
}

// ---------------------------------------------------------------- RNG and peer store

/// An RNG that counts the bytes drawn from it.
pub struct CountingRng<R> {
    pub inner: R,
    pub bytes: usize,
}

impl<R: rand_core::Rng> TryRng for CountingRng<R> {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.bytes += 4;
        Ok(self.inner.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.bytes += 8;
        Ok(self.inner.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.bytes += dst.len();
        self.inner.fill_bytes(dst);
        Ok(())
    }
}
impl<R: rand_core::CryptoRng> TryCryptoRng for CountingRng<R> {}

/// One initiator known to a [`Multi`] store.
pub struct Entry<'a, A: TestKeys> {
    pub side: &'a Side<A>,
    pub hybrid: bool,
    pub psk: Option<[u8; 32]>,
    pub rec: ReplayRecord,
}

/// A peer store with several initiators (and call counters).
pub struct Multi<'a, A: TestKeys> {
    pub peers: Vec<Entry<'a, A>>,
    pub lookups: core::cell::Cell<usize>,
    pub records: usize,
}

impl<'a, A: TestKeys> Multi<'a, A> {
    pub fn new(peers: &[(&'a Side<A>, bool)]) -> Self {
        Multi {
            peers: peers
                .iter()
                .map(|&(side, hybrid)| Entry {
                    side,
                    hybrid,
                    psk: None,
                    rec: ReplayRecord::new(),
                })
                .collect(),
            lookups: 0.into(),
            records: 0,
        }
    }
    pub fn rec(&self, i: usize) -> [u8; ReplayRecord::SIZE] {
        self.peers[i].rec.to_bytes()
    }
}

impl<A: TestKeys> PeerStore<A> for Multi<'_, A> {
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>> {
        self.lookups.set(self.lookups.get() + 1);
        self.peers
            .iter()
            .find(|p| p.side.id.key_id() == hpk)
            .map(|p| {
                let peer = p.side.peer(p.hybrid);
                match p.psk {
                    Some(k) => peer.with_psk(k),
                    None => peer,
                }
            })
    }
    fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord> {
        self.records += 1;
        self.peers
            .iter_mut()
            .find(|p| p.side.id.key_id() == hpk)
            .map(|p| &mut p.rec)
    }
}

/// Handles one msg1 with a counting RNG: the reply and its bytes, and the
/// RNG bytes drawn (dos, peer_rate).
pub fn msg1_at<A: TestKeys, P: PeerStore<A>>(
    resp: &mut pqdr_handshake::Responder<A, 16>,
    peers: &mut P,
    src: &[u8],
    msg: &[u8],
    load: pqdr_handshake::Load,
    now: pqdr_handshake::Instant,
) -> (Result<(pqdr_handshake::Reply, Vec<u8>), Error>, usize) {
    let mut r = CountingRng {
        inner: crate::common::rng(now.0.to_le_bytes()[0] ^ 0x33),
        bytes: 0,
    };
    let mut out = vec![0u8; 6144];
    let got = resp
        .handle_msg1(peers, src, msg, load, now, &mut r, &mut out)
        .map(|rep| {
            let n = match rep {
                pqdr_handshake::Reply::Msg2(n) | pqdr_handshake::Reply::CookieReply(n) => n,
            };
            (rep, out[..n].to_vec())
        });
    (got, r.bytes)
}
