//! `race`: interleaved ratio benchmark of pqdr against its peers, one
//! process, robust to a noisy shared machine (issues #34 and #31).
//!
//! ```text
//! cargo run --release --features bench-peers --example race -- mlkem768 [more sets]
//!     [--rounds 31] [--batch-ms 1] [--reps 3] [--slow-rounds 7] [--slow-batch 4]
//! ```
//!
//! Sets: `mlkem512 mlkem768 mlkem1024 mldsa44 mldsa65 mldsa87 sntrup653
//! sntrup761 sntrup857 sntrup953 sntrup1013 sntrup1277 mceliece348864
//! mceliece348864f mceliece460896 mceliece460896f mceliece6688128
//! mceliece6688128f mceliece6960119 mceliece6960119f mceliece8192128
//! mceliece8192128f`, or the groups `all-lattice` (ML-KEM and ML-DSA),
//! `all-ntrup`, `all-mceliece`, `all`.
//!
//! For every operation, after cross-checks that fail hard (a peer that takes
//! our seeds must give our bytes; one that does not must decapsulate or
//! verify our outputs and we its), each contestant's batch is sized to about
//! `--batch-ms` ms; R rounds then run `--reps` batches of each (the fastest
//! counts), the order rotated every round, and the table gives per peer the median over rounds of
//! (peer time / pqdr time) with the interquartile range in parentheses:
//! above 1.00 pqdr is faster, bold below 1.00. McEliece key generation is
//! slow: `--slow-batch` seeds per batch, `--slow-rounds` rounds. pqdr runs
//! its default path (AVX2 detected at run time, feature `simd`).
//!
//! The Markdown tables go to stdout, progress to stderr.

mod harness;
mod mceliece;
mod mldsa;
mod mlkem;
mod ntrup;

use harness::{Config, OpResult, table};

/// 32 bytes derived from the call index `i` and a stream `tag` (splitmix64):
/// the seeds and messages of call i, the same for every contestant.
pub(crate) fn seed32(i: usize, tag: u64) -> [u8; 32] {
    let mut x = (i as u64) ^ tag.wrapping_mul(0xA076_1D64_78BD_642F);
    let mut out = [0u8; 32];
    for chunk in out.chunks_exact_mut(8) {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

/// A cross-check: a failure ends the run with exit code 2.
pub(crate) fn check(what: &str, ok: bool) {
    if !ok {
        eprintln!("\nCROSS-CHECK FAILED: {what}");
        std::process::exit(2);
    }
}

type SetFn = fn(&Config) -> Vec<OpResult>;

const SETS: &[(&str, SetFn)] = &[
    ("mlkem512", mlkem::mlkem512),
    ("mlkem768", mlkem::mlkem768),
    ("mlkem1024", mlkem::mlkem1024),
    ("mldsa44", mldsa::mldsa44),
    ("mldsa65", mldsa::mldsa65),
    ("mldsa87", mldsa::mldsa87),
    ("sntrup653", ntrup::sntrup653),
    ("sntrup761", ntrup::sntrup761),
    ("sntrup857", ntrup::sntrup857),
    ("sntrup953", ntrup::sntrup953),
    ("sntrup1013", ntrup::sntrup1013),
    ("sntrup1277", ntrup::sntrup1277),
    ("mceliece348864", mceliece::mceliece348864),
    ("mceliece348864f", mceliece::mceliece348864f),
    ("mceliece460896", mceliece::mceliece460896),
    ("mceliece460896f", mceliece::mceliece460896f),
    ("mceliece6688128", mceliece::mceliece6688128),
    ("mceliece6688128f", mceliece::mceliece6688128f),
    ("mceliece6960119", mceliece::mceliece6960119),
    ("mceliece6960119f", mceliece::mceliece6960119f),
    ("mceliece8192128", mceliece::mceliece8192128),
    ("mceliece8192128f", mceliece::mceliece8192128f),
];

fn usage() -> ! {
    eprintln!(
        "usage: race <set|all-lattice|all-ntrup|all-mceliece|all>... \
         [--rounds N] [--batch-ms X] [--slow-rounds N] [--slow-batch N] [--reps N]"
    );
    eprint!("sets:");
    for (n, _) in SETS {
        eprint!(" {n}");
    }
    eprintln!();
    std::process::exit(1);
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

fn main() {
    let mut cfg = Config {
        rounds: 31,
        batch_ms: 1.0,
        slow_rounds: 7,
        slow_batch: 4,
        reps: 3,
    };
    let mut chosen: Vec<(&str, SetFn)> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |what: &str| -> f64 {
            args.next()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| *v > 0.0)
                .unwrap_or_else(|| {
                    eprintln!("{what} needs a positive number");
                    usage()
                })
        };
        match a.as_str() {
            "--rounds" => cfg.rounds = harness::to_count(num("--rounds")),
            "--batch-ms" => cfg.batch_ms = num("--batch-ms"),
            "--slow-rounds" => cfg.slow_rounds = harness::to_count(num("--slow-rounds")),
            "--slow-batch" => cfg.slow_batch = harness::to_count(num("--slow-batch")),
            "--reps" => cfg.reps = harness::to_count(num("--reps")),
            "-h" | "--help" => usage(),
            group @ ("all" | "all-lattice" | "all-ntrup" | "all-mceliece") => {
                let prefixes: &[&str] = match group {
                    "all-lattice" => &["mlkem", "mldsa"],
                    "all-ntrup" => &["sntrup"],
                    "all-mceliece" => &["mceliece"],
                    _ => &[""],
                };
                chosen.extend(
                    SETS.iter()
                        .filter(|(n, _)| prefixes.iter().any(|p| n.starts_with(p))),
                );
            }
            name => match SETS.iter().find(|(n, _)| *n == name) {
                Some(s) => chosen.push(*s),
                None => {
                    eprintln!("unknown set {name}");
                    usage()
                }
            },
        }
    }
    if chosen.is_empty() {
        usage();
    }
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    println!(
        "<!-- race: {} (AVX2 {}), {} rounds, best of {} batches of {} ms; McEliece keygen {} rounds of {} seeds -->",
        cpu_model(),
        if avx2 {
            "yes"
        } else {
            "NO: pqdr runs its portable path"
        },
        cfg.rounds,
        cfg.reps,
        cfg.batch_ms,
        cfg.slow_rounds,
        cfg.slow_batch
    );
    for (name, f) in chosen {
        eprintln!("{name}:");
        let results = f(&cfg);
        println!();
        print!("{}", table(name, &results));
        let abs: Vec<String> = results
            .iter()
            .map(|r| {
                let cells: Vec<String> = r
                    .median_us
                    .iter()
                    .map(|(n, us)| format!("{n} {us:.1}"))
                    .collect();
                format!("{}: {}", r.name, cells.join(", "))
            })
            .collect();
        println!("\n<!-- median µs: {} -->", abs.join("; "));
    }
}
