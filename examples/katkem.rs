//! NIST known-answer files for every enabled KEM.
//!
//! ```text
//! cargo run --release --example katkem -- ml-kem-768 PQCkemKAT_2400.req PQCkemKAT_2400.rsp
//! cargo run --release --example katkem -- ml-kem-768 PQCkemKAT_2400.rsp    # check a file
//! cargo run --release --example katkem -- --list
//! ```
fn main() -> std::process::ExitCode {
    pqdr_suite::nist_rsp::cli::main(pqdr_suite::nist_rsp::cli::Family::Kem)
}
