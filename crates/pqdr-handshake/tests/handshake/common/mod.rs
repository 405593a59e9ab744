//! Shared test harness: keys for every suite from fixed seeds, a peer table,
//! and a driver that runs msg1 → msg2 → msg3.
#![allow(
    dead_code,
    unreachable_pub,
    missing_docs,
    clippy::unwrap_used,
    clippy::missing_panics_doc
)]

use pqdr_handshake::{
    Auth, Ephemeral, Established, Identity, Initiator, InitiatorConfig, Instant, K768, KMc, KNt,
    Load, Peer, PeerStore, ReplayRecord, Reply, Responder, S44, S65, S87, Tai64N,
};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

pub use pqdr_mlkem::ml_kem_768;

/// The deterministic test RNG (ChaCha20 from a 32-byte seed).
pub fn rng(seed: u8) -> ChaCha20Rng {
    ChaCha20Rng::from_seed([seed; 32])
}

pub const LABEL: &[u8] = b"pqdr test";
pub const SRC: &[u8] = b"192.0.2.1:51820";
pub fn clock() -> Tai64N {
    Tai64N {
        secs: 1_764_000_000,
        nanos: 5,
    }
}

/// A static key pair of suite family `A`, as the test builds it.
pub trait TestKeys: Auth {
    /// Generates (sk, pk) from a seed.
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>);
}

impl TestKeys for K768 {
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
        let (dk, ek) = ml_kem_768::generate_deterministic(&[seed; 32], &[seed ^ 0x55; 32]);
        (dk, Box::new(ek))
    }
}
impl TestKeys for KMc {
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
        use pqdr_mceliece::mceliece460896 as m;
        let mut pk = vec![0u8; m::ENCAPSULATION_KEY_SIZE].into_boxed_slice();
        let mut sk = [0u8; m::DECAPSULATION_KEY_SIZE];
        let pk_arr: &mut [u8; m::ENCAPSULATION_KEY_SIZE] = (&mut *pk).try_into().unwrap();
        m::generate_deterministic_into(pk_arr, &mut sk, &[seed; 32]);
        let dk = m::DecapsulationKey::from_slice(&sk).unwrap().prepare();
        let pk: Box<[u8; m::ENCAPSULATION_KEY_SIZE]> = pk.try_into().unwrap();
        (dk, pk)
    }
}
impl TestKeys for KNt {
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
        let (dk, ek) = pqdr_ntrup::sntrup761::generate(&mut rng(seed));
        (dk, Box::new(ek))
    }
}
macro_rules! sig_keys {
    ($t:ident, $m:ident) => {
        impl TestKeys for $t {
            fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
                let (sk, vk) = pqdr_mldsa::$m::generate_deterministic(&[seed; 32]);
                (sk, Box::new(vk))
            }
        }
    };
}
sig_keys!(S44, ml_dsa_44);
sig_keys!(S65, ml_dsa_65);
sig_keys!(S87, ml_dsa_87);

/// One side's long-term material.
pub struct Side<A: TestKeys> {
    pub pk: Box<A::PublicKey>,
    pub x_secret: Option<[u8; 32]>,
    pub id: Identity<A>,
}

impl<A: TestKeys> Side<A> {
    pub fn new(seed: u8, hybrid: bool) -> Self {
        let (sk, pk) = A::keypair(seed);
        let mut id = Identity::new(sk, &*pk, [seed ^ 0xA5; 32]);
        // SIG-mode `-X` uses ephemeral X25519 only: no static X25519 key.
        let x_secret =
            (hybrid && A::MODE == pqdr_handshake::Mode::Kem).then_some([seed ^ 0x3C; 32]);
        if let Some(x) = x_secret {
            id = id.with_x25519(&*pk, x);
        }
        Side { pk, x_secret, id }
    }

    /// How the other side sees us.
    ///
    /// When the requested view matches our identity, the identity's key id
    /// is reused (`Peer::from_parts`, no hashing of the public key): the way
    /// a peer store should cache it.
    pub fn peer(&self, hybrid: bool) -> Peer<'_, A> {
        let x = self.id.x25519_public();
        if hybrid == x.is_some() || (A::MODE == pqdr_handshake::Mode::Sig && !hybrid) {
            let p = Peer::from_parts(&*self.pk, x, *self.id.key_id());
            let p = if hybrid && x.is_none() { p.hybrid() } else { p };
            return p.allow_compact();
        }
        let mut p = Peer::new(&*self.pk);
        if hybrid {
            p = match self.id.x25519_public() {
                Some(x) => p.with_x25519(x),
                None => p.hybrid(),
            };
        }
        p.allow_compact()
    }
}

/// The responder's peer table: one known initiator.
pub struct Table<'a, A: TestKeys> {
    pub peer: &'a Side<A>,
    pub hybrid: bool,
    pub psk: Option<[u8; 32]>,
    pub rec: ReplayRecord,
}

impl<A: TestKeys> PeerStore<A> for Table<'_, A> {
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>> {
        let mut p = self.peer.peer(self.hybrid);
        if let Some(k) = self.psk {
            p = p.with_psk(k);
        }
        (p.key_id() == hpk).then_some(p)
    }
    fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord> {
        (self.peer.id.key_id() == hpk).then_some(&mut self.rec)
    }
}

/// Both sides of one suite.
pub struct World<A: TestKeys> {
    pub i: Side<A>,
    pub r: Side<A>,
    pub hybrid: bool,
    pub ephemeral: Ephemeral,
}

impl<A: TestKeys> World<A> {
    pub fn new(hybrid: bool, ephemeral: Ephemeral) -> Self {
        World {
            i: Side::new(1, hybrid),
            r: Side::new(2, hybrid),
            hybrid,
            ephemeral,
        }
    }

    pub fn cfg(&self) -> InitiatorConfig<'_, A> {
        InitiatorConfig {
            peer: self.r.peer(self.hybrid),
            app_label: LABEL,
            ephemeral: self.ephemeral,
        }
    }

    pub fn table(&self) -> Table<'_, A> {
        Table {
            peer: &self.i,
            hybrid: self.hybrid,
            psk: None,
            rec: ReplayRecord::new(),
        }
    }

    /// A responder owning a fresh identity equal to `r` (identities are not Clone).
    pub fn responder(&self, seed: u8) -> Responder<A, 16> {
        let r = Side::<A>::new(2, self.hybrid);
        Responder::new(r.id, LABEL, Instant(0), &mut rng(seed)).unwrap()
    }
}

/// An initiator of `w` started at `now`, and its first msg1.
pub fn begin_msg1<A: TestKeys>(
    w: &World<A>,
    last_sent: Tai64N,
    now: Instant,
    seed: u8,
) -> (Initiator<A>, Vec<u8>) {
    let mut i =
        Initiator::start(&w.cfg(), &w.i.id, clock(), last_sent, now, &mut rng(seed)).unwrap();
    let mut b = vec![0u8; 4096];
    let n = i.poll_transmit(now, &mut b).unwrap();
    b.truncate(n);
    (i, b)
}

/// Runs a whole handshake; returns (initiator's, responder's) outputs.
pub fn run<A: TestKeys>(
    w: &World<A>,
    resp: &mut Responder<A, 16>,
    table: &mut Table<'_, A>,
    now: Instant,
) -> (Established, Established) {
    let mut rng_i = rng(7);
    let mut rng_r = rng(8);
    let mut init = Initiator::start(
        &w.cfg(),
        &w.i.id,
        clock(),
        table.rec.last_timestamp(),
        now,
        &mut rng_i,
    )
    .unwrap();
    let mut m1 = vec![0u8; 4096];
    let n1 = init.poll_transmit(now, &mut m1).unwrap();
    let mut m2 = vec![0u8; 6144];
    let Reply::Msg2(n2) = resp
        .handle_msg1(
            table,
            SRC,
            &m1[..n1],
            Load::Normal,
            now,
            &mut rng_r,
            &mut m2,
        )
        .unwrap()
    else {
        panic!("cookie reply")
    };
    let a = init
        .handle_msg2(&m2[..n2], &w.i.id, now, &mut rng_i)
        .unwrap();
    let b = resp
        .handle_msg3(table, SRC, a.msg3().unwrap(), Load::Normal, now)
        .unwrap();
    (a, b)
}
