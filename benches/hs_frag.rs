//! pqdr-handshake fragmentation envelope: the responder's cost of a fragment
//! flood (docs/protocol/fragmentation.md §5), next to one msg1 handled.
//!
//! `cargo bench --bench hs_frag` (default features; no criterion: medians of
//! batches timed with `std::time::Instant`, printed as ns per operation).
//!
//! * `forged fragment`: a full-size (1,232 B) fragment whose MAC does not
//!   verify, what anyone not holding hpk_R can send: parse + one keyed BLAKE3
//!   over 1,216 B + a 16-byte compare; nothing stored.
//! * `valid-MAC junk fragment`: a first fragment with a valid MAC (a holder of
//!   hpk_R) and a new sender index each time, from 1,024 rotating sources:
//!   each one takes (evicts) a slot and copies its 1,205 B in.
//! * `msg1 refused at mac1`: the unfragmented path's cheapest refusal.
//! * `msg1 reassembled + handled`: K768's two fragments, then `handle_msg1`
//!   writing msg2 (static decapsulation, encapsulations, sealing).
//! * `handle_msg1` (K768, msg2 written), for scale.
#![allow(
    clippy::std_instead_of_core,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::integer_division_remainder_used,
    reason = "benchmark code on public values"
)]

use std::hint::black_box;
use std::time::Instant as StdInstant;

use pqdr_suite::handshake::frag::{Reassembler, fragment};
use pqdr_suite::handshake::{
    Identity, Initiator, InitiatorConfig, Instant, K768, Load, Peer, PeerStore, ReplayRecord,
    Reply, Responder, Tai64N, wire,
};
use pqdr_suite::mlkem::ml_kem_768;
use rand_core::{Infallible, TryCryptoRng, TryRng};

/// xorshift64 (benchmark inputs only).
struct Rng(u64);
impl TryRng for Rng {
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
        for b in d {
            *b = self.try_next_u64()? as u8;
        }
        Ok(())
    }
}
impl TryCryptoRng for Rng {}

struct Table<'a> {
    alice: &'a ml_kem_768::EncapsulationKey,
    rec: ReplayRecord,
}
impl PeerStore<K768> for Table<'_> {
    fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, K768>> {
        let p = Peer::new(self.alice);
        (p.key_id() == hpk).then_some(p)
    }
    fn record(&mut self, _: &[u8; 32]) -> Option<&mut ReplayRecord> {
        Some(&mut self.rec)
    }
}

/// Median ns per call of `f` over `rounds` batches of `batch` calls.
fn median_ns(rounds: usize, batch: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut v: Vec<f64> = (0..rounds)
        .map(|r| {
            let t = StdInstant::now();
            for i in 0..batch {
                f(r * batch + i);
            }
            t.elapsed().as_nanos() as f64 / batch as f64
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The profiled loop (its own symbol for callgrind's `--toggle-collect`).
#[inline(never)]
fn profile_loop(n: usize, op: &mut dyn FnMut(usize)) {
    for i in 0..n {
        op(i);
    }
}

fn main() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (dk_i, ek_i) = ml_kem_768::generate(&mut rng);
    let (dk_r, ek_r) = ml_kem_768::generate(&mut rng);
    let alice = Identity::<K768>::new(dk_i, &ek_i, [1; 32]);
    let bob = Identity::<K768>::new(dk_r, &ek_r, [2; 32]);
    let mut table = Table {
        alice: &ek_i,
        rec: ReplayRecord::new(),
    };
    let now = Instant(0);
    let mut resp: Responder<K768> = Responder::new(bob, b"bench", now, &mut rng).unwrap();
    let cfg = InitiatorConfig::new(Peer::new(&ek_r), b"bench");
    let clock = Tai64N {
        secs: 1_700_000_000,
        nanos: 0,
    };
    let mut init = Initiator::start(&cfg, &alice, clock, Tai64N::default(), now, &mut rng).unwrap();
    let mut m1 = vec![0u8; wire::MSG1_MAX];
    let n1 = init.poll_transmit(now, &mut m1).unwrap();
    let m1 = m1[..n1].to_vec();
    let keys = resp.frag_keys();
    let ds: Vec<_> = fragment(&m1, &init.frag_keys()).unwrap().collect();
    let mut r: Reassembler = Reassembler::new(&mut rng);
    let mut out = vec![0u8; wire::MSG2_MAX];
    let mut msg = vec![0u8; wire::MSG3_MAX];
    println!(
        "K768 msg1 {n1} B in {} fragments of {:?} B; Reassembler<16, {}>: {} B",
        ds.len(),
        ds.iter().map(|d| d.len()).collect::<Vec<_>>(),
        wire::MSG3_MAX,
        size_of::<Reassembler>()
    );

    let mut forged = ds[0].to_vec();
    let n = forged.len();
    forged[n - 1] ^= 1;
    let junk: Vec<Vec<u8>> = (0..4096u32)
        .map(|i| {
            let mut m = m1.clone();
            m[4..8].copy_from_slice(&i.to_be_bytes());
            fragment(&m, &init.frag_keys())
                .unwrap()
                .next()
                .unwrap()
                .to_vec()
        })
        .collect();
    let srcs: Vec<String> = (0..1024)
        .map(|i| format!("10.0.{}.{}:9", i / 256, i % 256))
        .collect();

    // Instruction counts: HS_FRAG_PROFILE=<forged|junk|msg1>:<n> runs that
    // operation n times in `profile_loop` and exits; run under
    // `valgrind --tool=callgrind --toggle-collect='*profile_loop*'`.
    if let Ok(p) = std::env::var("HS_FRAG_PROFILE") {
        let (what, n) = p.split_once(':').unwrap();
        let n: usize = n.parse().unwrap();
        let mut seeded = Rng(7);
        let mut op = |i: usize| match what {
            "forged" => {
                black_box(
                    r.push(&keys, b"10.0.0.1:1", &forged, now, &mut msg)
                        .is_err(),
                );
            }
            "junk" => {
                let res = r.push(
                    &keys,
                    srcs[i % 1024].as_bytes(),
                    &junk[i % 4096],
                    now,
                    &mut msg,
                );
                black_box(res.is_ok());
            }
            _ => {
                let res = resp.handle_msg1(
                    &mut table,
                    b"10.0.0.1:1",
                    &m1,
                    Load::Normal,
                    now,
                    &mut seeded,
                    &mut out,
                );
                black_box(res.is_ok());
            }
        };
        profile_loop(n, &mut op);
        return;
    }
    let t_forged = median_ns(31, 20_000, |_| {
        let res = r.push(&keys, b"10.0.0.1:1", black_box(&forged), now, &mut msg);
        debug_assert!(res.is_err());
        black_box(res.is_err());
    });

    // Valid-MAC junk: 4,096 distinct first fragments (sender index i), 1,024 sources.
    let t_junk = median_ns(31, 4096, |i| {
        let res = r.push(
            &keys,
            srcs[i % 1024].as_bytes(),
            black_box(&junk[i % 4096]),
            now,
            &mut msg,
        );
        debug_assert_eq!(res, Ok(None));
        black_box(res.is_ok());
    });

    let mut bad = m1.clone();
    bad[n1 - 17] ^= 1;
    let t_mac1 = median_ns(31, 20_000, |_| {
        let res = resp.handle_msg1(
            &mut table,
            b"10.0.0.1:1",
            black_box(&bad),
            Load::Normal,
            now,
            &mut rng,
            &mut out,
        );
        black_box(res.is_err());
    });
    let mut seeded = Rng(7);
    let t_msg1 = median_ns(15, 40, |_| {
        let res = resp.handle_msg1(
            &mut table,
            b"10.0.0.1:1",
            black_box(&m1),
            Load::Normal,
            now,
            &mut seeded,
            &mut out,
        );
        debug_assert!(matches!(res, Ok(Reply::Msg2(_))));
        black_box(res.is_ok());
    });
    // A new source each time (a completed slot refuses the same fragments again).
    let t_both = median_ns(15, 40, |i| {
        let src = srcs[i % 1024].as_bytes();
        let _ = r.push(&keys, src, &ds[0], now, &mut msg);
        let k = r.push(&keys, src, &ds[1], now, &mut msg).unwrap().unwrap();
        let res = resp.handle_msg1(
            &mut table,
            b"10.0.0.1:1",
            black_box(&msg[..k]),
            Load::Normal,
            now,
            &mut seeded,
            &mut out,
        );
        black_box(res.is_ok());
    });
    println!("forged fragment (bad MAC, 1,232 B)  {t_forged:9.0} ns");
    println!("valid-MAC junk fragment (new slot)   {t_junk:9.0} ns");
    println!("msg1 refused at mac1 (2,388 B)       {t_mac1:9.0} ns");
    println!("handle_msg1 (K768, msg2 written)     {t_msg1:9.0} ns");
    println!("2 fragments + handle_msg1 (K768)     {t_both:9.0} ns");
    println!(
        "one handled msg1 = {:.0} forged fragments = {:.0} valid-MAC junk fragments",
        t_msg1 / t_forged,
        t_msg1 / t_junk
    );
}
