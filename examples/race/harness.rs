//! The interleaved timing loop and its statistics.
//!
//! Every operation has contestants: pqdr first, then its peers. A batch of
//! each contestant is sized to about `--batch-ms` milliseconds; then in each
//! of R rounds every contestant runs one batch, the order rotated by one
//! place per round, so a slow phase of the shared machine hits all of them
//! alike. The figure reported per peer is the median over the rounds of the
//! per-round ratio (peer time per op / pqdr time per op), with the
//! interquartile range; a ratio above 1 means pqdr is faster. Within a
//! round each contestant runs `--reps` batches (interleaved, rotated) and
//! the fastest counts: on a loaded machine a batch is slowed by being
//! preempted, never sped up.

use std::io::Write as _;
use std::time::Instant;

/// Command-line settings of a run.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// Rounds of every ordinary operation.
    pub(crate) rounds: usize,
    /// Target duration of one batch, in milliseconds.
    pub(crate) batch_ms: f64,
    /// Rounds of a slow operation (McEliece key generation).
    pub(crate) slow_rounds: usize,
    /// Batch size of a slow operation (fixed: no calibration).
    pub(crate) slow_batch: usize,
    /// Batches per contestant and round; the fastest counts (a batch the
    /// scheduler preempted is slower, never faster).
    pub(crate) reps: usize,
}

/// One timed call: the argument is the contestant's running call index
/// (seeds and messages are derived from it, the same sequence for every
/// contestant).
pub(crate) type Run<'a> = Box<dyn FnMut(usize) + 'a>;

/// One operation (keygen, encaps, ...) and its contestants, pqdr first.
pub(crate) struct Op<'a> {
    /// Column name.
    pub(crate) name: &'static str,
    /// Batch sizes are a multiple of this (signing: the number of messages,
    /// so every batch signs each message once).
    pub(crate) multiple: usize,
    /// A slow operation: fixed batch `slow_batch · multiple`, `slow_rounds` rounds.
    pub(crate) slow: bool,
    /// `(row name, call)`, pqdr first.
    pub(crate) contestants: Vec<(&'static str, Run<'a>)>,
}

/// Median and quartiles of one peer's per-round ratios.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ratio {
    /// Median of peer time / pqdr time over the rounds.
    pub(crate) median: f64,
    /// First quartile.
    pub(crate) q1: f64,
    /// Third quartile.
    pub(crate) q3: f64,
}

/// The outcome of one operation.
#[derive(Debug, Clone)]
pub(crate) struct OpResult {
    /// Column name.
    pub(crate) name: &'static str,
    /// pqdr's median time per operation, µs.
    pub(crate) pqdr_us: f64,
    /// Each contestant's median time per operation, µs (pqdr first).
    pub(crate) median_us: Vec<(&'static str, f64)>,
    /// Each peer's ratio (pqdr excluded).
    pub(crate) ratios: Vec<(&'static str, Ratio)>,
    /// Rounds run.
    pub(crate) rounds: usize,
}

/// Quantile `p` of sorted data, linear interpolation between order statistics.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let last = sorted.len() - 1;
    let pos = p * last as f64;
    let lo = to_count(pos.floor());
    let hi = to_count(pos.ceil());
    let frac = pos - lo as f64;
    sorted[lo] + (sorted[hi] - sorted[lo]) * frac
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

/// Seconds per call of a batch of `n` calls.
fn time_batch(run: &mut Run<'_>, counter: &mut usize, n: usize) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        run(*counter);
        *counter += 1;
    }
    t.elapsed().as_secs_f64() / n as f64
}

/// A batch size (a multiple of `multiple`) of about `target` seconds.
fn calibrate(run: &mut Run<'_>, counter: &mut usize, multiple: usize, target: f64) -> usize {
    // Warm up (caches, branch predictors, lazily built tables), then two
    // estimates, the second from a batch of the first's size.
    let mut per = time_batch(run, counter, multiple);
    for _ in 0..2 {
        let n = batch_for(per, multiple, target);
        per = time_batch(run, counter, n);
    }
    batch_for(per, multiple, target)
}

fn batch_for(per_call: f64, multiple: usize, target: f64) -> usize {
    let calls = to_count((target / per_call.max(1e-9)).ceil().clamp(1.0, 1e6));
    calls.div_ceil(multiple).max(1) * multiple
}

/// Runs one operation: calibration, then the interleaved rounds.
pub(crate) fn race(cfg: &Config, mut op: Op<'_>) -> OpResult {
    let k = op.contestants.len();
    let target = cfg.batch_ms / 1e3;
    let mut counters = vec![0usize; k];
    let batches: Vec<usize> = if op.slow {
        vec![cfg.slow_batch.max(1) * op.multiple; k]
    } else {
        op.contestants
            .iter_mut()
            .zip(counters.iter_mut())
            .map(|((_, run), c)| calibrate(run, c, op.multiple, target))
            .collect()
    };
    let rounds = if op.slow { cfg.slow_rounds } else { cfg.rounds }.max(1);
    let reps = if op.slow { 1 } else { cfg.reps.max(1) };
    let mut times = vec![Vec::with_capacity(rounds); k];
    for r in 0..rounds {
        let mut best = vec![f64::INFINITY; k];
        for rep in 0..reps {
            for j in 0..k {
                let i = (j + r + rep).rem_euclid(k);
                let (_, run) = &mut op.contestants[i];
                best[i] = best[i].min(time_batch(run, &mut counters[i], batches[i]));
            }
        }
        for (t, b) in times.iter_mut().zip(best) {
            t.push(b);
        }
        eprint!("\r  {:<8} round {}/{rounds}", op.name, r + 1);
        let _ = std::io::stderr().flush();
    }
    eprintln!();
    let names: Vec<&'static str> = op.contestants.iter().map(|(n, _)| *n).collect();
    let median_us = names
        .iter()
        .zip(&times)
        .map(|(n, t)| (*n, quantile(&sorted(t.clone()), 0.5) * 1e6))
        .collect::<Vec<_>>();
    let ratios = (1..k)
        .map(|i| {
            let rs = sorted(times[i].iter().zip(&times[0]).map(|(p, o)| p / o).collect());
            let ratio = Ratio {
                median: quantile(&rs, 0.5),
                q1: quantile(&rs, 0.25),
                q3: quantile(&rs, 0.75),
            };
            (names[i], ratio)
        })
        .collect();
    OpResult {
        name: op.name,
        pqdr_us: median_us[0].1,
        median_us,
        ratios,
        rounds,
    }
}

/// The Markdown table of one parameter set: a row per contestant, a column
/// per operation.
pub(crate) fn table(set: &str, results: &[OpResult]) -> String {
    let mut s = String::new();
    s += &format!("| {set} (peer time / pqdr time) |");
    for r in results {
        s += &format!(" {} |", r.name);
    }
    s += "\n|---|";
    for _ in results {
        s += "---:|";
    }
    s += "\n| pqdr AVX2, median µs |";
    for r in results {
        s += &format!(" {} |", fmt_us(r.pqdr_us));
    }
    s += "\n";
    let mut peers: Vec<&'static str> = Vec::new();
    for r in results {
        for (p, _) in &r.ratios {
            if !peers.contains(p) {
                peers.push(p);
            }
        }
    }
    for p in peers {
        s += &format!("| {p} |");
        for r in results {
            match r.ratios.iter().find(|(n, _)| *n == p) {
                Some((_, x)) => {
                    let mark = if x.median < 1.0 { "**" } else { "" };
                    s += &format!(" {mark}{:.2}{mark} ({:.2}–{:.2}) |", x.median, x.q1, x.q3);
                }
                None => s += " — |",
            }
        }
        s += "\n";
    }
    s += "| rounds |";
    for r in results {
        s += &format!(" {} |", r.rounds);
    }
    s += "\n";
    s
}

fn fmt_us(us: f64) -> String {
    if us >= 1000.0 {
        format!("{us:.0}")
    } else if us >= 100.0 {
        format!("{us:.1}")
    } else {
        format!("{us:.2}")
    }
}

/// A contestant row: its name and its call.
pub(crate) fn entry<'a>(
    name: &'static str,
    run: impl FnMut(usize) + 'a,
) -> (&'static str, Run<'a>) {
    (name, Box::new(run))
}

/// A non-negative, integral, bounded `f64` (a batch size, an index, a
/// command-line count) as a count.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(crate) fn to_count(x: f64) -> usize {
    x.clamp(0.0, 1e9) as usize
}
