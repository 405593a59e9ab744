//! pqdr side of the BouncyCastle interop run (`scripts/bc-interop.sh`,
//! `interop/bouncycastle/README.md`).
//!
//! ```text
//! cargo run --release --example bc_interop -- gen   DIR [SET ...]   # writes DIR/pqdr/<set>/...
//! cargo run --release --example bc_interop -- check DIR [SET ...]   # checks DIR/bc/<set>/... (BouncyCastle's files)
//! cargo run --release --example bc_interop -- --list
//! ```
//!
//! Both sides write, per parameter set, a key pair with the seed it came
//! from, an encapsulation (or signatures) with its randomness, and key files;
//! each side then redoes every step from the other side's files and prints one
//! line per check, `ok|FAIL <set> bc->pqdr <what>`. The exit status is 1 if
//! any check failed.

mod files;
mod kems;
mod mldsa;

use std::path::Path;
use std::process::ExitCode;

use files::Report;

/// One parameter set's part of the exchange.
trait Exchange {
    /// The set's name, shared with the Java side (`ml-kem-768`, `mceliece6960119f`, …).
    fn name(&self) -> &'static str;
    /// Writes (`gen`) our key pair, encapsulation or signatures and key files into `dir`.
    fn write(&self, dir: &Path) -> files::Result<()>;
    /// Redoes every step from the other side's files in `dir`.
    fn check(&self, dir: &Path, report: &mut Report);
}

fn all() -> Vec<Box<dyn Exchange>> {
    let mut v: Vec<Box<dyn Exchange>> = Vec::new();
    v.extend(mldsa::all());
    v.extend(kems::all());
    v
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--list") {
        for e in all() {
            println!("{}", e.name());
        }
        return ExitCode::SUCCESS;
    }
    let (Some(cmd), Some(dir)) = (args.first(), args.get(1)) else {
        eprintln!("usage: bc_interop gen|check DIR [SET ...] | --list");
        return ExitCode::from(2);
    };
    let only = &args[2..];
    let selected = all()
        .into_iter()
        .filter(|e| only.is_empty() || only.iter().any(|s| s == e.name()));
    let mut report = Report::default();
    match cmd.as_str() {
        "gen" => {
            let root = Path::new(dir).join("pqdr");
            for e in selected {
                if let Err(err) = e.write(&root.join(e.name())) {
                    eprintln!("bc_interop gen {}: {err}", e.name());
                    return ExitCode::FAILURE;
                }
            }
            return ExitCode::SUCCESS;
        }
        "check" => {
            let root = Path::new(dir).join("bc");
            for e in selected {
                let d = root.join(e.name());
                if d.is_dir() {
                    e.check(&d, &mut report);
                } else {
                    report.check(e.name(), "BouncyCastle wrote files for this set", || {
                        Ok(false)
                    });
                }
            }
        }
        _ => {
            eprintln!("unknown command {cmd:?}");
            return ExitCode::from(2);
        }
    }
    eprintln!("pqdr: {} passed, {} failed", report.passed, report.failed);
    if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
