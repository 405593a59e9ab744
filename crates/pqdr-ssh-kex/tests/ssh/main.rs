//! The crate's tests, one binary: `conn` is a blocking SSH connection
//! driver over TCP (version lines, packets, KEXINIT, the key exchange,
//! NEWKEYS, the service request) on the crate's sans-I/O pieces;
//! `openssh` runs it against OpenSSH 9.2's `sshd` and `ssh`, `go` against
//! Go's `golang.org/x/crypto/ssh` (`interop/go/ssh`), `malformed` feeds
//! bad bytes to every parser, `local` runs our client against our server.
#![allow(
    unreachable_pub,
    missing_docs,
    clippy::panic_in_result_fn,
    clippy::unwrap_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::integer_division_remainder_used,
    reason = "test code: arithmetic on public test values, std I/O"
)]

mod conn;
mod go;
mod local;
mod malformed;
mod openssh;
