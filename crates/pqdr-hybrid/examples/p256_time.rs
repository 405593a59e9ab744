//! Interleaved timing of P-256 ECDH against AWS-LC's (`aws-lc-rs`
//! `agreement::ECDH_P256`, the group of rustls' aws-lc-rs provider), per
//! operation, in one process (issue #36):
//!
//! ```sh
//! cargo run --release -p pqdr-hybrid --features bench-aws-lc --example p256_time -- [rounds] [batch]
//! ```
//!
//! - **key share** `d·G`: a scalar from fresh randomness and its encoded
//!   public point (ours: `SecretScalar::from_seed` + `public`; AWS-LC:
//!   `EphemeralPrivateKey::generate` + `compute_public_key`);
//! - **shared secret** `x(d·Q)`: the peer's point parsed and validated,
//!   then the product (ours: `PublicPoint::from_sec1` + `dh`; AWS-LC:
//!   `agreement::agree` with a `PrivateKey`).
//!
//! Each round times a batch of every operation in turn; printed are the
//! medians over the rounds and the median of the per-round ratios
//! AWS-LC / ours (above 1: ours is faster). Both sides' secrets are
//! compared before timing.

use core::hint::black_box;
use std::time::Instant;

use aws_lc_rs::agreement::{self, ECDH_P256, EphemeralPrivateKey, PrivateKey, UnparsedPublicKey};
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use pqdr_hybrid::ecdh::p256::{PublicPoint, SecretScalar};

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(201, |a| a.parse().expect("rounds"));
    let batch: u32 = args.next().map_or(16, |a| a.parse().expect("batch"));
    let rng = SystemRandom::new();

    // Fixed keys for the shared-secret timings, cross-checked both ways.
    let mut seed = [0u8; 40];
    rng.fill(&mut seed).expect("rng");
    let ours = SecretScalar::from_seed(&seed);
    let mut dbytes = [0u8; 32];
    rng.fill(&mut dbytes[1..]).expect("rng");
    dbytes[0] = 0x5a;
    let theirs = PrivateKey::from_private_key(&ECDH_P256, &dbytes).expect("aws key");
    let ours_same = SecretScalar::from_be_bytes(&dbytes).expect("in range");
    let their_pub = theirs.compute_public_key().expect("aws public");
    let our_pub = ours.public();
    assert_eq!(ours_same.public()[..], their_pub.as_ref()[..]);
    let peer_for_us: [u8; 65] = their_pub.as_ref().try_into().expect("65 bytes");
    let ours_secret = *ours
        .dh(&PublicPoint::from_sec1(&peer_for_us).expect("valid"))
        .expect("dh");
    let aws_secret = agreement::agree(
        &theirs,
        UnparsedPublicKey::new(&ECDH_P256, &our_pub[..]),
        (),
        |s| Ok(s.to_vec()),
    )
    .expect("aws agree");
    assert_eq!(ours_secret[..], aws_secret[..]);

    type Op<'a> = Box<dyn Fn() -> u8 + 'a>;
    let keygen_ours: Op<'_> = Box::new(|| {
        let mut c = [0u8; 40];
        rng.fill(&mut c).expect("rng");
        SecretScalar::from_seed(black_box(&c)).public()[1]
    });
    let keygen_aws: Op<'_> = Box::new(|| {
        let k = EphemeralPrivateKey::generate(&ECDH_P256, &rng).expect("aws keygen");
        k.compute_public_key().expect("aws public").as_ref()[1]
    });
    let dh_ours: Op<'_> = Box::new(|| {
        let q = PublicPoint::from_sec1(black_box(&peer_for_us)).expect("valid");
        ours.dh(&q).expect("dh")[0]
    });
    let dh_aws: Op<'_> = Box::new(|| {
        let q = UnparsedPublicKey::new(&ECDH_P256, black_box(&our_pub[..]));
        agreement::agree(&theirs, q, (), |s| Ok(s[0])).expect("aws agree")
    });
    let ops: [(&str, Op<'_>, Op<'_>); 2] = [
        ("key share d·G", keygen_ours, keygen_aws),
        ("shared secret x(d·Q)", dh_ours, dh_aws),
    ];
    let mut t = vec![(Vec::new(), Vec::new(), Vec::new()); ops.len()];
    let time = |f: &Op<'_>| {
        let start = Instant::now();
        for _ in 0..batch {
            black_box(f());
        }
        start.elapsed().as_secs_f64() * 1e6 / f64::from(batch)
    };
    for round in 0..rounds {
        for (i, (_, ours, aws)) in ops.iter().enumerate() {
            // Alternate which side goes first.
            let (a, b) = if round & 1 == 0 {
                let a = time(ours);
                (a, time(aws))
            } else {
                let b = time(aws);
                (time(ours), b)
            };
            t[i].0.push(a);
            t[i].1.push(b);
            t[i].2.push(b / a);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() >> 1]
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "P-256, {rounds} rounds of {batch}; load average {}",
        load.trim()
    );
    println!("| operation | pqdr µs | aws-lc-rs µs | aws-lc-rs / pqdr |");
    println!("|---|---:|---:|---:|");
    for ((name, _, _), (mut a, mut b, mut r)) in ops.iter().zip(t) {
        println!(
            "| {name} | {:.2} | {:.2} | {:.3} |",
            median(&mut a),
            median(&mut b),
            median(&mut r)
        );
    }
}
