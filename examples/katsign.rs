//! NIST known-answer files for every enabled signature scheme.
//!
//! ```text
//! cargo run --release --example katsign -- ml-dsa-65 PQCsignKAT_4032.req PQCsignKAT_4032.rsp
//! cargo run --release --example katsign -- ml-dsa-65 PQCsignKAT_4032.rsp   # check a file
//! cargo run --release --example katsign -- --list
//! ```
fn main() -> std::process::ExitCode {
    pqdr_suite::nist_rsp::cli::main(pqdr_suite::nist_rsp::cli::Family::Sign)
}
