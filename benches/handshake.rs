//! Placeholder: replaced by the handshake benchmark.
fn main() {}
