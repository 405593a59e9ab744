//! Shared fixtures of the pqdr-handshake targets: fixed keys (generated once),
//! identities and peer tables, fresh responders and initiators (deterministic:
//! the same RNG seeds every time, so a recorded message stays valid for a
//! freshly built party), one valid exchange per suite, and an independent
//! implementation of the few derivations of docs/protocol/handshake.md §4 the targets need (mac1,
//! mac2, biscuit sealing, the msg3 key schedule).
//!
//! Suites: K768, K768-X, S65, S65-X (no McEliece: its key generation is slow).
#![allow(dead_code)]

use std::sync::OnceLock;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use pqdr_handshake::{
    Auth, Identity, Initiator, InitiatorConfig, Instant, K768, Load, Mode, Peer, PeerStore,
    ReplayRecord, Reply, Responder, S65, Tai64N,
};
use pqdr_mldsa::ml_dsa_65 as dsa;
use pqdr_mlkem::ml_kem_768 as kem;

pub const LABEL: &[u8] = b"pqdr-handshake fuzz";
pub const SRC: &[u8] = b"198.51.100.7:4433";
pub const CLOCK: Tai64N = Tai64N {
    secs: 1_764_000_000,
    nanos: 7,
};
/// Bucket slots of the responders.
pub const RL: usize = 8;
pub type Resp<A> = Responder<A, RL>;

pub fn rng(seed: u8) -> pqdr_kat::Drbg {
    pqdr_kat::Drbg::new(&[seed; 48])
}

/// Which party a long-term key belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    I,
    R,
}

const fn seed(side: Side) -> u8 {
    match side {
        Side::I => 1,
        Side::R => 2,
    }
}

pub fn sigma(side: Side) -> [u8; 32] {
    [seed(side) ^ 0xA5; 32]
}

pub fn x_secret(side: Side) -> [u8; 32] {
    [seed(side) ^ 0x3C; 32]
}

/// A suite family with fixed test keys.
pub trait Fam: Auth<SecretKey: Clone, PublicKey: Sized> {
    /// The suite id (`hybrid` adds the -X bit).
    fn suite_id(hybrid: bool) -> u16 {
        Self::ALG | if hybrid { 0x0080 } else { 0 }
    }
    fn pair(side: Side) -> &'static (Self::SecretKey, Self::PublicKey);
    /// The signing key of `side` (SIG mode only).
    fn sign_as(side: Side, msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Vec<u8>;
}

impl Fam for K768 {
    fn pair(side: Side) -> &'static (kem::DecapsulationKey, kem::EncapsulationKey) {
        static KEYS: OnceLock<[(kem::DecapsulationKey, kem::EncapsulationKey); 2]> =
            OnceLock::new();
        let k = KEYS.get_or_init(|| {
            [Side::I, Side::R].map(|s| {
                let n = seed(s);
                kem::generate_deterministic(&[n; 32], &[n ^ 0x55; 32])
            })
        });
        &k[usize::from(side == Side::R)]
    }
    fn sign_as(_: Side, _: &[u8], _: &[u8], _: &[u8; 32]) -> Vec<u8> {
        Vec::new()
    }
}

impl Fam for S65 {
    fn pair(side: Side) -> &'static (dsa::SigningKey, dsa::VerifyingKey) {
        static KEYS: OnceLock<[(dsa::SigningKey, dsa::VerifyingKey); 2]> = OnceLock::new();
        let k = KEYS.get_or_init(|| {
            [Side::I, Side::R].map(|s| dsa::generate_deterministic(&[seed(s); 32]))
        });
        &k[usize::from(side == Side::R)]
    }
    fn sign_as(side: Side, msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Vec<u8> {
        let s = Self::pair(side).0.sign_with_rnd(msg, ctx, rnd).unwrap();
        s.as_bytes().as_ref().to_vec()
    }
}

pub fn identity<A: Fam>(side: Side, hybrid: bool) -> Identity<A> {
    let (sk, pk) = A::pair(side);
    let id = Identity::new(sk.clone(), pk, sigma(side));
    if hybrid && A::MODE == Mode::Kem {
        id.with_x25519(pk, x_secret(side))
    } else {
        id
    }
}

/// How the other party sees `side`.
pub fn peer<A: Fam>(side: Side, hybrid: bool) -> Peer<'static, A> {
    let p = Peer::new(&A::pair(side).1);
    if !hybrid {
        return p;
    }
    match A::MODE {
        Mode::Kem => p.with_x25519(x_public::<A>(side)),
        Mode::Sig => p.hybrid(),
    }
}

/// The X25519 static public key of `side` (KEM -X).
pub fn x_public<A: Fam>(side: Side) -> [u8; 32] {
    static X: OnceLock<[[u8; 32]; 2]> = OnceLock::new();
    let x = X.get_or_init(|| {
        [Side::I, Side::R].map(|s| identity::<K768>(s, true).x25519_public().unwrap())
    });
    x[usize::from(side == Side::R)]
}

pub fn hpk<A: Fam>(side: Side, hybrid: bool) -> [u8; 32] {
    *peer::<A>(side, hybrid).key_id()
}

/// The responder's peer table: the one initiator, optionally with a psk.
pub struct Table<A: Fam> {
    pub hybrid: bool,
    pub psk: Option<[u8; 32]>,
    pub rec: ReplayRecord,
    hpk_i: [u8; 32],
    _a: core::marker::PhantomData<A>,
}

impl<A: Fam> Table<A> {
    pub fn new(hybrid: bool) -> Self {
        Table {
            hybrid,
            psk: None,
            rec: ReplayRecord::new(),
            hpk_i: hpk::<A>(Side::I, hybrid),
            _a: core::marker::PhantomData,
        }
    }
}

impl<A: Fam> PeerStore<A> for Table<A> {
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>> {
        if hpk != &self.hpk_i {
            return None;
        }
        let p = peer::<A>(Side::I, self.hybrid);
        Some(match self.psk {
            Some(k) => p.with_psk(k),
            None => p,
        })
    }
    fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord> {
        (hpk == &self.hpk_i).then_some(&mut self.rec)
    }
}

/// A fresh responder; always the same biscuit keys, cookie secrets and instance.
pub fn responder<A: Fam>(hybrid: bool) -> Resp<A> {
    Responder::new(
        identity::<A>(Side::R, hybrid),
        LABEL,
        Instant(0),
        &mut rng(0x52),
    )
    .unwrap()
}

pub fn config<A: Fam>(hybrid: bool) -> InitiatorConfig<'static, A> {
    InitiatorConfig::new(peer::<A>(Side::R, hybrid), LABEL)
}

/// A fresh initiator in AwaitMsg2 (always the same msg1), its identity and
/// its RNG (positioned after `start`).
pub fn initiator<A: Fam>(hybrid: bool) -> (Initiator<A>, Identity<A>, pqdr_kat::Drbg) {
    let me = identity::<A>(Side::I, hybrid);
    let mut r = rng(0x49);
    let init = Initiator::start(
        &config::<A>(hybrid),
        &me,
        CLOCK,
        Tai64N::default(),
        Instant(0),
        &mut r,
    )
    .unwrap();
    (init, me, r)
}

/// One valid exchange: the reference messages of a suite.
pub struct Exchange {
    pub msg1: Vec<u8>,
    pub msg2: Vec<u8>,
    pub msg3: Vec<u8>,
    /// The responder's cookie reply to `msg1` under load.
    pub cookie_reply: Vec<u8>,
    /// msg1 as resent after the cookie reply (with mac2).
    pub msg1_cookie: Vec<u8>,
    /// msg2's mac1 key (from the initiator's key-schedule trace).
    pub k_m: [u8; 32],
    pub secret: [u8; 32],
    pub transcript: [u8; 32],
    /// The responder's replay record after msg3 (its instance id inside).
    pub rec_after: [u8; pqdr_handshake::ReplayRecord::SIZE],
}

impl Exchange {
    /// The responder's instance id (docs/protocol/handshake.md §5.3).
    pub fn instance(&self) -> u64 {
        u64::from_be_bytes(self.rec_after[20..28].try_into().unwrap())
    }
}

fn build<A: Fam>(hybrid: bool) -> Exchange {
    let (mut init, me, mut ri) = initiator::<A>(hybrid);
    let mut resp = responder::<A>(hybrid);
    let mut table = Table::<A>::new(hybrid);
    let mut rr = rng(0x4d);
    let now = Instant(0);
    let mut m1 = vec![0u8; 4096];
    let n1 = init.poll_transmit(now, &mut m1).unwrap();
    let msg1 = m1[..n1].to_vec();
    let mut out = vec![0u8; 6144];
    let Ok(Reply::CookieReply(nc)) =
        resp.handle_msg1(&mut table, SRC, &msg1, Load::Under, now, &mut rr, &mut out)
    else {
        panic!("no cookie reply")
    };
    let cookie_reply = out[..nc].to_vec();
    // The cookie-carrying msg1 from a twin initiator (same state).
    let (mut twin, _, _) = initiator::<A>(hybrid);
    twin.handle_cookie_reply(&cookie_reply, now).unwrap();
    let n1c = twin.poll_transmit(now, &mut m1).unwrap();
    let msg1_cookie = m1[..n1c].to_vec();
    let Ok(Reply::Msg2(n2)) =
        resp.handle_msg1(&mut table, SRC, &msg1, Load::Normal, now, &mut rr, &mut out)
    else {
        panic!("no msg2")
    };
    let msg2 = out[..n2].to_vec();
    let a = init.handle_msg2(&msg2, &me, now, &mut ri).unwrap();
    let msg3 = a.msg3().unwrap().to_vec();
    let k_m = a
        .trace()
        .iter()
        .rev()
        .find(|op| op.op == "key" && op.label == Some(b'm'))
        .unwrap()
        .out;
    // A fresh responder (same keys) accepts msg3.
    let mut resp2 = responder::<A>(hybrid);
    let b = resp2
        .handle_msg3(&mut table, SRC, &msg3, Load::Normal, now)
        .unwrap();
    assert_eq!(
        a.initial_secret_for_test().secret,
        b.initial_secret_for_test().secret
    );
    Exchange {
        msg1,
        msg2,
        msg3,
        cookie_reply,
        msg1_cookie,
        k_m,
        secret: a.initial_secret_for_test().secret.try_into().unwrap(),
        transcript: a.initial_secret_for_test().transcript.try_into().unwrap(),
        rec_after: table.rec.to_bytes(),
    }
}

pub fn exchange<A: Fam>(hybrid: bool) -> &'static Exchange {
    static E: OnceLock<Vec<(u16, Exchange)>> = OnceLock::new();
    let all = E.get_or_init(|| {
        vec![
            (K768::suite_id(false), build::<K768>(false)),
            (K768::suite_id(true), build::<K768>(true)),
            (S65::suite_id(false), build::<S65>(false)),
            (S65::suite_id(true), build::<S65>(true)),
        ]
    });
    let id = A::suite_id(hybrid);
    &all.iter().find(|(s, _)| *s == id).unwrap().1
}

/// `out = base` with `delta` XORed in from the start (the length of `base`).
pub fn xor_into(base: &[u8], delta: &[u8]) -> Vec<u8> {
    let mut m = base.to_vec();
    for (b, d) in m.iter_mut().zip(delta) {
        *b ^= d;
    }
    m
}

// ---- An independent implementation of docs/protocol/handshake.md §4's derivations ----

macro_rules! ctx {
    ($p:literal) => {
        concat!("pqdr-handshake v1 2026-11-25T22:00Z ", $p)
    };
}
pub const C_TH: &str = ctx!("transcript");
pub const C_KEY: &str = ctx!("handshake key");
pub const C_OUT: &str = ctx!("ratchet secret");
pub const C_MAC1: &str = ctx!("mac1");
pub const C_MAC2: &str = ctx!("mac2");
pub const C_BISCUIT: &str = ctx!("biscuit");
pub const SIG_CTX_I: &[u8] = b"pqdr-handshake v2 initiator";

pub fn dk(ctx: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(ctx);
    for p in parts {
        h.update(p);
    }
    *h.finalize().as_bytes()
}

pub fn mac16(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    blake3::keyed_hash(key, msg).as_bytes()[..16]
        .try_into()
        .unwrap()
}

/// Rewrites the 16-byte MAC at `at` over the bytes before it.
pub fn set_mac(msg: &mut [u8], at: usize, key: &[u8; 32]) {
    if msg.len() >= at + 16 {
        let m = mac16(key, &msg[..at]);
        msg[at..at + 16].copy_from_slice(&m);
    }
}

/// Rewrites mac1 at `at` of msg1 / msg2 (type byte 1 / 2), v2's
/// `KH(key, H(head) ‖ rest)` (docs/protocol/handshake.md §3.5); `head_end` is
/// where the head ends (`at - 76` for KEM msg1, `at` for SIG msg1, `b` for msg2).
pub fn set_mac1(msg: &mut [u8], at: usize, head_end: usize, key: &[u8; 32]) {
    if msg.len() >= at + 16 && head_end <= at {
        let mut input = blake3::hash(&msg[..head_end]).as_bytes().to_vec();
        input.extend_from_slice(&msg[head_end..at]);
        let m = mac16(key, &input);
        msg[at..at + 16].copy_from_slice(&m);
    }
}

/// mac1 of msg1 / msg3 to the responder.
pub fn mac1_key(hpk_r: &[u8; 32]) -> [u8; 32] {
    dk(C_MAC1, &[hpk_r])
}

/// mac2 under a cookie.
pub fn mac2_key(cookie: &[u8; 16]) -> [u8; 32] {
    dk(C_MAC2, &[cookie])
}

/// `Seal(k, buf[..len-16], ad)` in place, nonce 0.
pub fn seal(key: &[u8; 32], buf: &mut [u8], ad: &[u8]) {
    let split = buf.len() - 16;
    let (pt, tag) = buf.split_at_mut(split);
    let t = ChaCha20Poly1305::new(key.into())
        .encrypt_inout_detached(&Nonce::default(), ad, pt.into())
        .unwrap();
    tag.copy_from_slice(&t);
}

pub fn biscuit_ad(suite: u16, idx_i: u32, idx_r: u32, hpk_r: &[u8; 32]) -> Vec<u8> {
    let mut ad = suite.to_be_bytes().to_vec();
    ad.extend_from_slice(&idx_i.to_be_bytes());
    ad.extend_from_slice(&idx_r.to_be_bytes());
    ad.extend_from_slice(hpk_r);
    ad
}

/// `Seal1(k, buf[..len-16], ad)` in place (docs/protocol/handshake.md §4.1):
/// `k_e ‖ k_a = k`, `c = p ⊕ KHx(k_e, ε)`, tag `KH(k_a, ad ‖ c ‖ be64(|ad|) ‖ be64(|c|))[..16]`.
pub fn seal1(k: &[u8; 64], buf: &mut [u8], ad: &[u8]) {
    let split = buf.len() - 16;
    let (body, tag) = buf.split_at_mut(split);
    let mut ks = vec![0u8; body.len()];
    blake3::Hasher::new_keyed(k[..32].try_into().unwrap())
        .finalize_xof()
        .fill(&mut ks);
    body.iter_mut().zip(&ks).for_each(|(b, k)| *b ^= k);
    let mut t = ad.to_vec();
    t.extend_from_slice(body);
    t.extend_from_slice(&(ad.len() as u64).to_be_bytes());
    t.extend_from_slice(&(body.len() as u64).to_be_bytes());
    tag.copy_from_slice(&blake3::keyed_hash(k[32..].try_into().unwrap(), &t).as_bytes()[..16]);
}

/// `salt ‖ Seal1(DKx(C_BISCUIT, bkey ‖ salt, 64), pt, ad)` (148 bytes).
pub fn biscuit(bkey: &[u8; 32], salt: &[u8; 16], pt: &[u8; 116], ad: &[u8]) -> Vec<u8> {
    let mut b = salt.to_vec();
    b.extend_from_slice(pt);
    b.extend_from_slice(&[0; 16]);
    let mut k = [0u8; 64];
    blake3::Hasher::new_derive_key(C_BISCUIT)
        .update(bkey)
        .update(salt)
        .finalize_xof()
        .fill(&mut k);
    seal1(&k, &mut b[16..], ad);
    b
}

pub fn header(ty: u8, suite: u16, sender: u32, receiver: u32) -> [u8; 12] {
    let mut h = [0u8; 12];
    h[0] = ty;
    h[1] = pqdr_handshake::wire::VERSION;
    h[2..4].copy_from_slice(&suite.to_be_bytes());
    h[4..8].copy_from_slice(&sender.to_be_bytes());
    h[8..12].copy_from_slice(&receiver.to_be_bytes());
    h
}
