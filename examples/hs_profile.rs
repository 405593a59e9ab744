//! Instruction counts of one handshake side without the bench's peer crates
//! (`benches/handshake.rs` needs `bench-peers`, whose C peers take long to
//! build): K768 / KNt / S65 sides as the bench's `HANDSHAKE_PROFILE` runs them
//! (initiator = start + poll_transmit + handle_msg2, responder = handle_msg1 +
//! handle_msg3, objects dropped inside the loop), and K768's primitive
//! operations (initiator KGe Es De Ds, responder Ds Ee Es).
//!
//! ```sh
//! cargo build --release --example hs_profile
//! valgrind --tool=callgrind --toggle-collect='*profile_loop*' \
//!   target/release/examples/hs_profile K768 responder 5
//! ```
//! Run under callgrind; `Collected` / n is the count per handshake.
#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

use core::hint::black_box;

use pqdr_handshake::{
    Auth, Identity, Initiator, InitiatorConfig, Instant, K768, KNt, Load, Peer, PeerStore,
    ReplayRecord, Reply, Responder, S65, Tai64N,
};
use pqdr_mlkem::ml_kem_768 as k;
use rand_core::{Infallible, TryCryptoRng, TryRng};

/// xorshift64: a fixed, cheap RNG (reseeded per handshake, as the bench does).
struct Xs(u64);
impl TryRng for Xs {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Infallible> {
        for c in d.chunks_mut(8) {
            let x = self.try_next_u64()?.to_le_bytes();
            c.copy_from_slice(&x[..c.len()]);
        }
        Ok(())
    }
}
impl TryCryptoRng for Xs {}

const NOW: Instant = Instant(5_000);
const CLOCK: Tai64N = Tai64N {
    secs: 1_764_000_000,
    nanos: 5,
};
const SRC: &[u8] = b"192.0.2.1:51820";

/// The responder's peer table: one peer, its key id kept (no hashing per lookup).
struct Store<'a, A: Auth> {
    pk: &'a A::PublicKey,
    hpk: [u8; 32],
    rec: ReplayRecord,
}
impl<A: Auth> PeerStore<A> for Store<'_, A> {
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>> {
        (hpk == &self.hpk).then(|| Peer::from_parts(self.pk, None, self.hpk))
    }
    fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord> {
        (hpk == &self.hpk).then_some(&mut self.rec)
    }
}

#[inline(never)]
fn profile_loop(f: &mut dyn FnMut(), n: u64) {
    for _ in 0..n {
        f();
    }
}

fn run<A: Auth>(keys: impl Fn(u64) -> (A::SecretKey, A::PublicKey), side: &str, n: u64)
where
    A::PublicKey: Sized,
{
    let (sk_i, pk_i) = keys(1);
    let (sk_r, pk_r) = keys(2);
    let i_id = Identity::<A>::new(sk_i, &pk_i, [0xA4; 32]);
    let r_id = Identity::<A>::new(sk_r, &pk_r, [0xA7; 32]);
    let hpk_i = *i_id.key_id();
    let cfg = InitiatorConfig::new(Peer::from_parts(&pk_r, None, *r_id.key_id()), b"pqdr test");
    let mut resp: Responder<A> = Responder::new(r_id, b"pqdr test", NOW, &mut Xs(3)).unwrap();
    let mut store = Store::<A> {
        pk: &pk_i,
        hpk: hpk_i,
        rec: ReplayRecord::new(),
    };
    // One handshake outside the loop: the messages the loop replays.
    let (mut m1, mut m2) = (vec![0u8; 4096], vec![0u8; 6144]);
    let start = |out: &mut [u8]| {
        let mut rng = Xs(42);
        let mut init =
            Initiator::start(&cfg, &i_id, CLOCK, Tai64N::default(), NOW, &mut rng).unwrap();
        let n1 = init.poll_transmit(NOW, out).unwrap();
        (init, rng, n1)
    };
    let (mut init, mut irng, n1) = start(&mut m1);
    let Reply::Msg2(n2) = resp
        .handle_msg1(
            &mut store,
            SRC,
            &m1[..n1],
            Load::Normal,
            NOW,
            &mut Xs(43),
            &mut m2,
        )
        .unwrap()
    else {
        panic!("cookie reply")
    };
    let est = init.handle_msg2(&m2[..n2], &i_id, NOW, &mut irng).unwrap();
    let m3 = est.msg3().unwrap().to_vec();
    store.rec = ReplayRecord::new();
    let est_r = resp
        .handle_msg3(&mut store, SRC, &m3, Load::Normal, NOW)
        .unwrap();
    assert_eq!(est.transcript(), est_r.transcript());
    drop((est, est_r));
    let mut out = vec![0u8; 6144];
    let mut f: Box<dyn FnMut() + '_> = match side {
        "initiator" => Box::new(|| {
            let (mut init, mut rng, _) = start(&mut out);
            black_box(init.handle_msg2(&m2[..n2], &i_id, NOW, &mut rng).unwrap());
        }),
        "responder" => Box::new(|| {
            store.rec = ReplayRecord::new();
            let r = resp.handle_msg1(
                &mut store,
                SRC,
                &m1[..n1],
                Load::Normal,
                NOW,
                &mut Xs(43),
                &mut out,
            );
            assert!(matches!(r, Ok(Reply::Msg2(_))));
            store.rec = ReplayRecord::new();
            black_box(
                resp.handle_msg3(&mut store, SRC, &m3, Load::Normal, NOW)
                    .unwrap(),
            );
        }),
        _ => panic!("side: initiator | responder"),
    };
    profile_loop(&mut *f, n);
}

/// K768's primitive operations with inputs of the same shape (ML-KEM's
/// instruction counts do not depend on the data but for the rejection
/// sampling of the matrix, a fraction of a percent).
fn ops_k768(side: &str, n: u64) {
    let (dk_i, ek_i) = k::generate_deterministic(&[1; 32], &[0x54; 32]);
    let (dk_r, ek_r) = k::generate_deterministic(&[2; 32], &[0x57; 32]);
    let seed_e = [0x5e; 64];
    let (ct_r, _) = ek_r.encapsulate_deterministic(&[0x11; 32]);
    let (ct_i, _) = ek_i.encapsulate_deterministic(&[0x22; 32]);
    let e = k::DecapsulationKey::from_seed(&seed_e);
    let ek_e = e.encapsulation_key().as_bytes().to_vec();
    let (ct_e, _) = e.encapsulation_key().encapsulate_deterministic(&[0x33; 32]);
    let mut f: Box<dyn FnMut()> = match side {
        "ops-initiator" => Box::new(|| {
            let e = k::DecapsulationKey::from_seed(black_box(&seed_e)); // KGe
            black_box(e.encapsulation_key().as_bytes());
            black_box(ek_r.encapsulate_deterministic(&[0x11; 32])); // Es
            black_box(e.decapsulate(&ct_e)); // De
            black_box(dk_i.decapsulate(&ct_i)); // Ds
        }),
        "ops-responder" => Box::new(|| {
            black_box(dk_r.decapsulate(&ct_r)); // Ds
            let ek = k::EncapsulationKey::from_slice(black_box(&ek_e)).unwrap(); // Ee (§7.2 check)
            black_box(ek.encapsulate_deterministic(&[0x33; 32]));
            black_box(ek_i.encapsulate_deterministic(&[0x22; 32])); // Es
        }),
        _ => panic!("ops-initiator | ops-responder"),
    };
    profile_loop(&mut *f, n);
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (suite, side) = (a[1].as_str(), a[2].as_str());
    let n: u64 = a[3].parse().unwrap();
    match (suite, side) {
        ("K768", s) if s.starts_with("ops-") => ops_k768(s, n),
        ("K768", _) => run::<K768>(
            |s| {
                let (dk, ek) = k::generate_deterministic(&[s as u8; 32], &[s as u8 ^ 0x55; 32]);
                (dk, ek)
            },
            side,
            n,
        ),
        ("KNt", _) => run::<KNt>(
            |s| pqdr_ntrup::sntrup761::generate(&mut Xs(s * 77 + 1)),
            side,
            n,
        ),
        ("S65", _) => run::<S65>(
            |s| pqdr_mldsa::ml_dsa_65::generate_deterministic(&[s as u8; 32]),
            side,
            n,
        ),
        _ => panic!(
            "hs_profile <K768|KNt|S65> <initiator|responder|ops-initiator|ops-responder> <n>"
        ),
    }
}
