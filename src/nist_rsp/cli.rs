//! The command-line front end of `examples/katkem.rs` and `examples/katsign.rs`.
//!
//! ```text
//! katkem <alg> <file.req> <file.rsp>   write the .rsp for the .req (and the .req first if missing)
//! katkem <alg> <file.rsp>              re-compute every record; non-zero exit on any mismatch
//! katkem --list                        list the enabled algorithms
//! ```
//! `--records N` sets the number of records of a newly written `.req` (default 100).
#![allow(clippy::std_instead_of_core, reason = "host-only command-line tool")]

use std::fmt::Write as _;
use std::path::Path;

/// Which KAT family a command-line run is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// KEMs (`PQCgenKAT_kem.c` format).
    Kem,
    /// Signatures (`PQCgenKAT_sign.c` format).
    Sign,
}

/// What a run printed and its exit status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Text for standard output.
    pub stdout: String,
    /// Text for standard error.
    pub stderr: String,
    /// Process exit code (0 = success, 1 = mismatches, 2 = usage or input error).
    pub code: u8,
}

impl Outcome {
    fn fail(code: u8, msg: impl Into<String>) -> Self {
        Outcome {
            stdout: String::new(),
            stderr: msg.into(),
            code,
        }
    }
}

fn names(family: Family) -> Vec<&'static str> {
    match family {
        Family::Kem => super::kem_algorithms().iter().map(|a| a.name).collect(),
        Family::Sign => super::sign_algorithms().iter().map(|a| a.name).collect(),
    }
}

fn usage(family: Family) -> String {
    let tool = match family {
        Family::Kem => "katkem",
        Family::Sign => "katsign",
    };
    format!(
        "usage:\n  {tool} <alg> <file.req> <file.rsp>   write the .rsp (and the .req if it does not exist)\n  \
         {tool} <alg> <file.rsp>              re-compute every record and report mismatches\n  \
         {tool} --list                        list the algorithms\noptions: --records N (records in a new .req, default 100)\n\
         algorithms: {}\n",
        names(family).join(", ")
    )
}

fn read_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| format!("{} is not a text file", path.display()))
}

/// Runs the tool on already-split arguments (without the program name).
pub fn run(family: Family, args: &[String]) -> Outcome {
    let mut records = 100usize;
    let mut pos: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--list" => {
                return Outcome {
                    stdout: names(family).join("\n") + "\n",
                    ..Outcome::default()
                };
            }
            "-h" | "--help" => {
                return Outcome {
                    stdout: usage(family),
                    ..Outcome::default()
                };
            }
            "--records" => match it.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => records = n,
                _ => return Outcome::fail(2, "--records needs a positive number\n"),
            },
            s if s.starts_with("--") => {
                return Outcome::fail(2, format!("unknown option {s}\n{}", usage(family)));
            }
            s => pos.push(s),
        }
    }
    let (alg_name, files) = match pos.split_first() {
        Some((a, f)) if (1..=2).contains(&f.len()) => (*a, f),
        _ => return Outcome::fail(2, usage(family)),
    };
    match family {
        Family::Kem => match super::find_kem(alg_name) {
            Some(alg) => run_with(
                alg.name,
                files,
                records,
                pqdr_kat::rsp::kem_req,
                |req| super::kem_rsp(alg, req),
                |rsp| super::kem_check(alg, rsp),
            ),
            None => unknown(family, alg_name),
        },
        Family::Sign => match super::find_sign(alg_name) {
            Some(alg) => run_with(
                alg.name,
                files,
                records,
                pqdr_kat::rsp::sign_req,
                |req| super::sign_rsp(alg, req),
                |rsp| super::sign_check(alg, rsp),
            ),
            None => unknown(family, alg_name),
        },
    }
}

fn unknown(family: Family, name: &str) -> Outcome {
    Outcome::fail(
        2,
        format!(
            "unknown algorithm `{name}`; enabled: {}\n",
            names(family).join(", ")
        ),
    )
}

type ParseResult<T> = Result<T, pqdr_kat::rsp::ParseError>;

fn run_with(
    name: &str,
    files: &[&str],
    records: usize,
    make_req: fn(usize) -> String,
    make_rsp: impl Fn(&str) -> ParseResult<String>,
    check: impl Fn(&str) -> ParseResult<super::CheckReport>,
) -> Outcome {
    let mut out = Outcome::default();
    if let [req_path, rsp_path] = files {
        let (req_path, rsp_path) = (Path::new(req_path), Path::new(rsp_path));
        if !req_path.exists() {
            if let Err(e) = std::fs::write(req_path, make_req(records)) {
                return Outcome::fail(2, format!("cannot write {}: {e}\n", req_path.display()));
            }
            let _ = writeln!(
                out.stdout,
                "wrote {} ({records} records)",
                req_path.display()
            );
        }
        let req = match read_text(req_path) {
            Ok(t) => t,
            Err(e) => return Outcome::fail(2, e + "\n"),
        };
        let rsp = match make_rsp(&req) {
            Ok(r) => r,
            Err(e) => {
                return Outcome::fail(
                    2,
                    format!("{}: malformed record: {e}\n", req_path.display()),
                );
            }
        };
        if let Err(e) = std::fs::write(rsp_path, &rsp) {
            return Outcome::fail(2, format!("cannot write {}: {e}\n", rsp_path.display()));
        }
        let n = pqdr_kat::rsp::parse(&rsp).map(|r| r.len()).unwrap_or(0);
        let _ = writeln!(
            out.stdout,
            "wrote {} ({n} records, {name})",
            rsp_path.display()
        );
        return out;
    }
    let rsp_path = Path::new(files[0]);
    let text = match read_text(rsp_path) {
        Ok(t) => t,
        Err(e) => return Outcome::fail(2, e + "\n"),
    };
    let report = match check(&text) {
        Ok(r) => r,
        Err(e) => {
            return Outcome::fail(
                2,
                format!("{}: malformed record: {e}\n", rsp_path.display()),
            );
        }
    };
    if report.checked == 0 {
        return Outcome::fail(2, format!("{}: no records found\n", rsp_path.display()));
    }
    for m in &report.mismatches {
        let _ = writeln!(out.stderr, "mismatch: {m}");
    }
    let _ = writeln!(
        out.stdout,
        "{}: {} records checked with {name}, {} mismatches",
        rsp_path.display(),
        report.checked,
        report.mismatches.len()
    );
    out.code = u8::from(!report.mismatches.is_empty());
    out
}

/// Runs the tool on the process arguments and exits with its code.
pub fn main(family: Family) -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let o = run(family, &args);
    print!("{}", o.stdout);
    eprint!("{}", o.stderr);
    std::process::ExitCode::from(o.code)
}
