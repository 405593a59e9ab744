//! NIST known-answer files for every enabled algorithm.
//!
//! Each algorithm family contributes a table of [`KemAlg`] or [`SignAlg`]
//! entries (one per parameter set). An entry knows how to turn the 48-byte
//! `seed` of a `.req` record into the record's values, drawing randomness from
//! the NIST DRBG in the reference implementation's call pattern, and how to
//! check a record it did not produce (decapsulate its `ct`, open its `sm`).
//!
//! The types and the `.req` / `.rsp` logic are `pqdr_kat::registry`'s
//! (re-exported here); the tables are each crate's own
//! `crates/pqdr-*/tests/kat_registry/mod.rs`, which that crate's
//! `tests/kat.rs` runs against the official vectors.

pub use pqdr_kat::registry::{
    CheckFn, CheckReport, KemAlg, KemOutput, SignAlg, SignOutput, kem_check, kem_record, kem_rsp,
    sign_check, sign_record, sign_rsp,
};

pub mod cli;

#[cfg(feature = "mceliece")]
#[path = "../../crates/pqdr-mceliece/tests/kat_registry/mod.rs"]
mod mceliece;
#[cfg(feature = "mldsa")]
#[path = "../../crates/pqdr-mldsa/tests/kat_registry/mod.rs"]
mod mldsa;
#[cfg(feature = "mlkem")]
#[path = "../../crates/pqdr-mlkem/tests/kat_registry/mod.rs"]
mod mlkem;
#[cfg(feature = "ntrup")]
#[path = "../../crates/pqdr-ntrup/tests/kat_registry/mod.rs"]
mod ntrup;

/// Every enabled KEM parameter set.
pub fn kem_algorithms() -> Vec<&'static KemAlg> {
    #[allow(unused_mut, reason = "empty when no KEM family is enabled")]
    let mut v: Vec<&'static KemAlg> = Vec::new();
    #[cfg(feature = "mlkem")]
    v.extend(mlkem::ALGORITHMS);
    #[cfg(feature = "kyber-r3")]
    v.extend(mlkem::KYBER_R3);
    #[cfg(feature = "ntrup")]
    v.extend(ntrup::ALGORITHMS);
    #[cfg(feature = "mceliece")]
    v.extend(mceliece::ALGORITHMS);
    v
}

/// Every enabled signature parameter set.
pub fn sign_algorithms() -> Vec<&'static SignAlg> {
    #[allow(unused_mut, reason = "empty when no signature family is enabled")]
    let mut v: Vec<&'static SignAlg> = Vec::new();
    #[cfg(feature = "mldsa")]
    v.extend(mldsa::ALGORITHMS);
    #[cfg(feature = "dilithium-r3")]
    v.extend(mldsa::DILITHIUM_R3);
    v
}

/// Looks up a KEM by command-line name (case-insensitive).
pub fn find_kem(name: &str) -> Option<&'static KemAlg> {
    kem_algorithms()
        .into_iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
}

/// Looks up a signature scheme by command-line name (case-insensitive).
pub fn find_sign(name: &str) -> Option<&'static SignAlg> {
    sign_algorithms()
        .into_iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
}
